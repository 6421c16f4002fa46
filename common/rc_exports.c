// SPDX-License-Identifier: MIT
/* exports(5) files read as exportfs reads them. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rc_exports.h"
#include "rc_log.h"
#include "rc_octal.h"

static void copy(char *dst, size_t size, const char *src)
{
	size_t n = strnlen(src, size - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

struct rc_exports {
	int n;
	struct rc_export e[RC_EXPORTS_MAX];
};

struct rc_exports *rc_exports_new(void)
{
	return calloc(1, sizeof(struct rc_exports));
}

void rc_exports_delete(struct rc_exports **tp)
{
	if (!tp)
		return;
	free(*tp);
	*tp = NULL;
}

int rc_exports_count(const struct rc_exports *t)
{
	return t->n;
}

const struct rc_export *rc_exports_get(const struct rc_exports *t, int i)
{
	return i >= 0 && i < t->n ? &t->e[i] : NULL;
}

struct rc_export *rc_exports_at(struct rc_exports *t, int i)
{
	return i >= 0 && i < t->n ? &t->e[i] : NULL;
}

struct rc_export *rc_exports_append(struct rc_exports *t)
{
	if (t->n == RC_EXPORTS_MAX)
		return NULL;
	memset(&t->e[t->n], 0, sizeof(t->e[t->n]));
	return &t->e[t->n++];
}

void rc_exports_remove(struct rc_exports *t, int i)
{
	if (i < 0 || i >= t->n)
		return;
	memmove(&t->e[i], &t->e[i + 1], (t->n - i - 1) * sizeof(t->e[0]));
	t->n--;
}

/* Appends one physical line, without its newline, to *line at *len: 1,
 * 0 at the end of the file, -EFBIG past RC_EXPORTS_LINE_MAX, -ENOMEM. */
static int read_physical(FILE *f, char **line, size_t *cap, size_t *len)
{
	char chunk[4096], *grown;
	size_t n;
	int any = 0, end = 0;

	while (!end && fgets(chunk, sizeof(chunk), f)) {
		n = strlen(chunk);
		end = n && chunk[n - 1] == '\n';
		if (end)
			chunk[--n] = '\0';
		any = 1;
		if (*len + n + 2 > RC_EXPORTS_LINE_MAX)
			return -EFBIG;
		if (*len + n + 2 > *cap) {
			grown = realloc(*line, *len + n + 2);
			if (!grown)
				return -ENOMEM;
			*line = grown;
			*cap = *len + n + 2;
		}
		memcpy(*line + *len, chunk, n + 1);
		*len += n;
	}
	return any;
}

/* One logical line: physical lines joined where one ends in a backslash.
 * Its length, -1 at the end of the file, or -errno. */
static ssize_t read_logical(FILE *f, char **line, size_t *cap, int *lineno)
{
	size_t len = 0, start;
	int ret, any = 0;

	for (;;) {
		start = len;
		ret = read_physical(f, line, cap, &len);
		if (ret <= 0)
			break;
		(*lineno)++;
		any = 1;
		/* exportfs skips a comment to the end of its line, backslash
		 * or not. */
		if (len == start || (*line)[len - 1] != '\\' ||
		    (*line)[strspn(*line, " \t")] == '#')
			break;
		(*line)[len - 1] = ' ';
	}
	if (ret < 0)
		return ret;
	return any ? (ssize_t)len : -1;
}

int rc_exports_load_stream(struct rc_exports *t, FILE *f, const char *abs)
{
	static const char *const why[] = { [E2BIG] = "a token is longer than "
						     "exportfs reads",
					   [EINVAL] = "an option list is not "
						      "closed by ')'",
					   [EFBIG] = "the line is longer than "
						     "1 MiB",
					   [ENOSPC] = "too many entries" };
	char *line = NULL;
	size_t cap = 0;
	int lineno = 0, ret = 0, first;
	ssize_t n;

	for (;;) {
		first = lineno + 1;
		n = read_logical(f, &line, &cap, &lineno);
		if (n == -1)
			break;
		ret = n < 0 ? (int)n
			    : rc_export_parse_line(line, &t->e[t->n],
						   RC_EXPORTS_MAX - t->n);
		if (ret >= 0) {
			t->n += ret;
			ret = 0;
			continue;
		}
		rc_diag("correct the line (exports(5)), then run 'exportfs -ra'",
			"%s:%d: %s", abs, first,
			-ret < (int)(sizeof(why) / sizeof(why[0])) && why[-ret]
				? why[-ret]
				: "cannot be read");
		break;
	}
	free(line);
	return ret;
}

static int load_into(const char *root, struct rc_exports *t, const char *abs)
{
	char path[4096];
	FILE *f;
	int ret;

	if (snprintf(path, sizeof(path), "%s%s", root ? root : "", abs) >=
	    (int)sizeof(path))
		return -ENAMETOOLONG;
	f = fopen(path, "re");
	if (!f)
		return errno == ENOENT ? 0 : -errno;
	ret = rc_exports_load_stream(t, f, abs);
	fclose(f);
	return ret;
}

int rc_exports_load(const char *root, const char *abs, struct rc_exports **tp)
{
	struct rc_exports *t = rc_exports_new();
	int ret;

	if (!t)
		return -ENOMEM;
	ret = load_into(root, t, abs);
	if (ret) {
		free(t);
		return ret;
	}
	*tp = t;
	return 0;
}

static int exports_file(const struct dirent *de)
{
	size_t n = strlen(de->d_name);

	return de->d_name[0] != '.' && n > 8 &&
	       !strcmp(de->d_name + n - 8, ".exports");
}

int rc_exports_load_all(const char *root, struct rc_exports **tp)
{
	struct dirent **names = NULL;
	char dir[4096], abs[4200];
	int ret, n, i;

	ret = rc_exports_load(root, "/etc/exports", tp);
	if (ret)
		return ret;
	ret = snprintf(dir, sizeof(dir), "%s%s", root ? root : "",
		       RC_EXPORTS_DIR) >= (int)sizeof(dir)
		      ? -ENAMETOOLONG
		      : 0;
	n = ret ? 0 : scandir(dir, &names, exports_file, versionsort);
	for (i = 0; i < n; i++) {
		snprintf(abs, sizeof(abs), "%s/%s", RC_EXPORTS_DIR,
			 names[i]->d_name);
		if (!ret)
			ret = load_into(root, *tp, abs);
		free(names[i]);
	}
	free(names);
	if (ret)
		rc_exports_delete(tp);
	return ret;
}

/*
 * Reads one token as exportfs does: quotes group, "\ooo" is an octal byte in
 * any token. Sets *over when the token does not fit in len.
 */
static const char *get_token(const char *p, char *out, size_t len, int *over)
{
	size_t o = 0;
	int quoted = 0;

	while (*p && (quoted || !isspace((unsigned char)*p))) {
		char c = *p++;

		if (c == '"') {
			quoted = !quoted;
			continue;
		}
		if (c == '\\' && rc_octal_byte(p) >= 0) {
			c = (char)rc_octal_byte(p);
			p += 3;
		}
		if (o + 1 < len)
			out[o++] = c;
		else
			*over = 1;
	}
	out[o] = '\0';
	return p;
}

/* CLIENT(OPTIONS) or CLIENT into e; -EINVAL when ')' is not its last byte. */
static int split_client(char *tok, const char *defopts, struct rc_export *e)
{
	char *paren = strchr(tok, '('), *close;

	if (paren) {
		*paren = '\0';
		close = strchr(paren + 1, ')');
		if (!close || close[1])
			return -EINVAL;
		*close = '\0';
		copy(e->options, sizeof(e->options), paren + 1);
	} else {
		copy(e->options, sizeof(e->options), defopts);
	}
	/* A path alone, or "(opts)" alone, exports to everyone (exports(5)). */
	copy(e->client, sizeof(e->client), tok[0] ? tok : "*");
	return 0;
}

int rc_export_parse_line(const char *line, struct rc_export *out, int max)
{
	char tok[RC_EXPORT_TOKEN_MAX + 1],
		defopts[RC_EXPORT_TOKEN_MAX + 1] = "";
	const char *p = line;
	int n = 0, over = 0;

	while (isspace((unsigned char)*p))
		p++;
	if (!*p || *p == '#')
		return 0;
	if (max < 1)
		return -ENOSPC;
	p = get_token(p, out[0].path, sizeof(out[0].path), &over);
	for (;;) {
		while (isspace((unsigned char)*p))
			p++;
		if (over)
			return -E2BIG;
		if (!*p || *p == '#')
			break;
		p = get_token(p, tok, sizeof(tok), &over);
		if (over)
			return -E2BIG;
		if (tok[0] == '-') {
			copy(defopts, sizeof(defopts), tok + 1);
			continue;
		}
		if (n >= max)
			return -ENOSPC;
		if (n > 0)
			memcpy(out[n].path, out[0].path, sizeof(out[n].path));
		if (split_client(tok, defopts, &out[n]))
			return -EINVAL;
		n++;
	}
	if (n == 0) {
		snprintf(out[0].client, sizeof(out[0].client), "*");
		copy(out[0].options, sizeof(out[0].options), defopts);
		n = 1;
	}
	return n;
}
