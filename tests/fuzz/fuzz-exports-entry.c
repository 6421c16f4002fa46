// SPDX-License-Identifier: MIT
/*
 * What nfsrdma writes: PATH, CLIENT and OPTIONS (the input, split at NUL
 * bytes) that pass the validators are written as an exports(5) line, which
 * must read back identically through nfsrdma's parser and through a model
 * of nfs-utils' reader (xgettok and getexportent): two tokens, no quote or
 * comment, "\ooo" the only escape, one option list closed by the token's
 * last byte. Nothing may grow into a second client or a second line.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "exports.h"
#include "rc_log.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int octal(char c)
{
	return c >= '0' && c <= '7';
}

/* Appends c to tok as nfs-utils' xgettok does: the escape is decoded in
 * the bytes already read, so a decoded backslash can start another. */
static void xgettok_put(char *tok, size_t *i, char c)
{
	tok[(*i)++] = c;
	if (*i >= 4 && tok[*i - 4] == '\\' && octal(tok[*i - 3]) &&
	    octal(tok[*i - 2]) && octal(tok[*i - 1]) && tok[*i - 3] <= '3') {
		char b = (char)((tok[*i - 3] - '0') * 64 +
				(tok[*i - 2] - '0') * 8 + (tok[*i - 1] - '0'));

		*i -= 4;
		tok[(*i)++] = b;
	}
}

/* nfs-utils' view of one line: decoded tokens, or abort. */
static void nfs_utils_read(const char *line, const struct rc_export *e)
{
	char path[sizeof(e->path) * 4], tok[RC_EXPORT_TOKEN_MAX * 4];
	char *out[2] = { path, tok };
	const char *p = line;
	size_t o, lens[2] = { sizeof(e->path), RC_EXPORT_TOKEN_MAX + 1 };
	int t;

	for (t = 0; t < 2; t++) {
		for (o = 0; *p && *p != ' ' && *p != '\n'; p++) {
			if (*p == '"' || *p == '#' || (unsigned char)*p < ' ')
				abort();
			xgettok_put(out[t], &o, *p);
			if (o >= lens[t])
				abort(); /* exportfs: token too long */
		}
		out[t][o] = '\0';
		if (*p == ' ')
			p++;
	}
	if (strcmp(p, "\n") || strcmp(path, e->path))
		abort();
	o = strlen(e->client);
	if (strncmp(tok, e->client, o) || tok[o] != '(' ||
	    strchr(tok + o + 1, '(') ||
	    strchr(tok, ')') != tok + strlen(tok) - 1 ||
	    strncmp(tok + o + 1, e->options, strlen(e->options)))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rc_export e, back[2];
	char buf[4096], line[sizeof(e.path) * 4 + 2 * RC_EXPORT_TOKEN_MAX];
	const char *client, *options;

	rc_log_set_quiet(1);
	if (size >= sizeof(buf))
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	client = buf + strlen(buf) + (strlen(buf) < size);
	options = client + strlen(client) + (client < buf + size);
	if (options > buf + size)
		options = buf + size;
	if (buf[0] != '/' || strlen(buf) >= sizeof(e.path) ||
	    nr_export_check_client(client) ||
	    nr_export_check_options(options) ||
	    nr_export_check_entry(buf, client, options))
		return 0;
	strcpy(e.path, buf);
	strcpy(e.client, client);
	strcpy(e.options, options);
	if (nr_export_format(&e, line, sizeof(line)) < 0)
		abort();
	nfs_utils_read(line, &e);
	if (rc_export_parse_line(line, back, 2) != 1 ||
	    strcmp(back[0].path, e.path) || strcmp(back[0].client, e.client) ||
	    strcmp(back[0].options, e.options))
		abort();
	return 0;
}
