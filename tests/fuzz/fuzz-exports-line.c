// SPDX-License-Identifier: MIT
/*
 * nfsrdma's exports(5) line parser on any input: it must not crash, and an
 * entry it reads that the validators accept must come back unchanged when
 * written out and read again (what nfsrdma rewrites of the admin's files).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "exports.h"
#include "rc_log.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void roundtrip(const struct rc_export *e)
{
	struct rc_export back[2];
	char line[4 * sizeof(e->path) + 2 * RC_EXPORT_TOKEN_MAX];

	if (e->path[0] != '/' || nr_export_check_client(e->client) ||
	    nr_export_check_options(e->options) ||
	    nr_export_check_entry(e->path, e->client, e->options))
		return;
	if (nr_export_format(e, line, sizeof(line)) < 0)
		abort();
	if (rc_export_parse_line(line, back, 2) != 1 ||
	    strcmp(back[0].path, e->path) ||
	    strcmp(back[0].client, e->client) ||
	    strcmp(back[0].options, e->options))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rc_export e[8];
	char *line;
	int n, i;

	rc_log_set_quiet(1);
	line = malloc(size + 1);
	if (!line)
		return 0;
	memcpy(line, data, size);
	line[size] = '\0';
	n = rc_export_parse_line(line, e, 8);
	if (n > 8)
		abort();
	for (i = 0; i < n; i++)
		roundtrip(&e[i]);
	free(line);
	return 0;
}
