// SPDX-License-Identifier: MIT
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "rc_file.h"
#include "run/jobfile.h"
#include "rc_log.h"

static int sha256_hex(const char *data, size_t len, char hex[65])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0, i;

	if (!EVP_Digest(data, len, md, &mdlen, EVP_sha256(), NULL) ||
	    mdlen != 32)
		return -EIO;
	for (i = 0; i < mdlen; i++)
		snprintf(hex + 2 * i, 3, "%02x", md[i]);
	return 0;
}

/* A job file is text a person wrote: megabytes at most. */
#define JOBFILE_MAX_BYTES (16 << 20)

static int read_job(const char *path, char **text, size_t *len)
{
	int ret = rc_file_read(path, text, len, JOBFILE_MAX_BYTES);

	if (ret == -EFBIG)
		rc_err("job file %s: larger than %d MiB, so it is not a fio job file (pass the .fio text file)",
		       path, JOBFILE_MAX_BYTES >> 20);
	else if (ret)
		rc_err("job file %s: cannot read it: %s (check the path)", path,
		       strerror(-ret));
	return ret;
}

static int record_one(const char *path, json_object *arr)
{
	json_object *o;
	char hex[65], *text;
	size_t len;
	int ret;

	ret = read_job(path, &text, &len);
	if (ret)
		return ret;
	if (strlen(text) != len) {
		rc_err("job file %s: contains NUL bytes, so it is not a fio job file (pass the .fio text file)",
		       path);
		free(text);
		return -EINVAL;
	}
	ret = sha256_hex(text, len, hex);
	if (ret) {
		rc_err("job file %s: sha256 failed in libcrypto", path);
		free(text);
		return ret;
	}
	o = json_object_new_object();
	json_object_object_add(o, "path", json_object_new_string(path));
	json_object_object_add(o, "sha256", json_object_new_string(hex));
	json_object_object_add(o, "text",
			       json_object_new_string_len(text, (int)len));
	json_object_array_add(arr, o);
	free(text);
	return 0;
}

int rio_jobfiles_record(char *const paths[], int n, json_object **out)
{
	json_object *arr = json_object_new_array();
	int i, ret;

	for (i = 0; i < n; i++) {
		ret = record_one(paths[i], arr);
		if (ret) {
			json_object_put(arr);
			return ret;
		}
	}
	*out = arr;
	return 0;
}

void rio_jobfile_sections_free(struct rio_jobfile_section *s, int n)
{
	while (s && n-- > 0)
		free(s[n].name);
	free(s);
}

static char *trim(char *s)
{
	char *e = s + strlen(s);

	while (isspace((unsigned char)*s))
		s++;
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

/* "listen" or "listen=VALUE" (fio takes 1, 0 and flag forms alike). */
static int sets_listen(const char *line, int *on)
{
	size_t n = strcspn(line, "= \t");
	const char *v = line + n;

	if (n != 6 || strncmp(line, "listen", 6))
		return 0;
	v += strspn(v, " \t");
	if (*v == '=')
		v += 1 + strspn(v + 1, " \t");
	*on = strcmp(v, "0") != 0;
	return 1;
}

static int add_section(struct rio_jobfile_section **s, int n, const char *name,
		       int listen)
{
	struct rio_jobfile_section *ns = realloc(*s, (n + 1) * sizeof(*ns));

	if (!ns)
		return -ENOMEM;
	*s = ns;
	ns[n].name = strdup(name);
	ns[n].listen = listen;
	if (!ns[n].name)
		return -ENOMEM;
	return 0;
}

/* Consumes text (strtok_r cuts it into lines). */
static int sections_of(char *text, struct rio_jobfile_section **out)
{
	int n = 0, ret = 0, in_global = 0, global_listen = 0, on;
	struct rio_jobfile_section *s = NULL;
	char *line, *save = NULL, *p, *end;

	*out = NULL;
	for (line = strtok_r(text, "\n", &save); line && !ret;
	     line = strtok_r(NULL, "\n", &save)) {
		p = trim(line);
		if (!*p || *p == ';' || *p == '#')
			continue;
		end = strchr(p, ']');
		if (*p == '[' && end) {
			*end = '\0';
			in_global = !strcmp(p + 1, "global");
			if (!in_global)
				ret = add_section(&s, n, p + 1, global_listen);
			n += !in_global && !ret;
		} else if (sets_listen(p, &on)) {
			if (in_global)
				global_listen = on;
			else if (n)
				s[n - 1].listen = on;
		}
	}
	if (ret) {
		rio_jobfile_sections_free(s, n);
		return ret;
	}
	*out = s;
	return n;
}

int rio_jobfile_sections(const char *path, struct rio_jobfile_section **out)
{
	char *text;
	int ret;

	*out = NULL;
	ret = read_job(path, &text, NULL);
	if (ret)
		return ret;
	ret = sections_of(text, out);
	free(text);
	return ret;
}

int rio_jobfile_sections_text(const char *text,
			      struct rio_jobfile_section **out)
{
	char *copy = strdup(text);
	int ret;

	*out = NULL;
	if (!copy)
		return -ENOMEM;
	ret = sections_of(copy, out);
	free(copy);
	return ret;
}
