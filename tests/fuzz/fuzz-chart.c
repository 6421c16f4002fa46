// SPDX-License-Identifier: MIT
/*
 * The chart's gnuplot script and data from a result whose names are
 * arbitrary bytes: no byte of a name may escape its quoting. gnuplot runs
 * `command` outside quotes and inside double quotes and expands @macros
 * outside quotes, so the script must lex (as gnuplot does) with every quote
 * closed on its line, no backquote or '@' outside single-quoted strings,
 * and, once every quoted string is blanked, be byte for byte the script of
 * the twin document, whose names have the same shape but only letters:
 * what a name holds then changed no code.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "read/chart.h"
#include "named-doc.h"
#include "rc_log.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The script with each string's content removed (quotes kept); NULL when
 * a string stays open at a line's end or a backquote or '@' is outside
 * single quotes. Data files (dat) have no escapes or single quotes. */
static char *skeleton(const char *s, size_t n, int dat)
{
	char *out = malloc(n + 1), q = 0;
	size_t i, k = 0;

	if (!out)
		abort();
	for (i = 0; i < n; i++) {
		char ch = s[i];

		if (ch == '\n' && q) {
			free(out);
			return NULL;
		}
		if (!q) {
			if (ch == '`' || ch == '@') {
				free(out);
				return NULL;
			}
			if (ch == '"' || (ch == '\'' && !dat))
				q = ch;
			out[k++] = ch;
			continue;
		}
		/* gnuplot reads no command out of a data file. */
		if (q == '"' && ch == '`' && !dat) {
			free(out);
			return NULL;
		}
		if (q == '"' && ch == '\\' && !dat && i + 1 < n) {
			i++;
			continue;
		}
		if (ch == q && q == '\'' && i + 1 < n && s[i + 1] == '\'') {
			i++;
			continue;
		}
		if (ch == q) {
			q = 0;
			out[k++] = ch;
		}
	}
	if (q) {
		free(out);
		return NULL;
	}
	out[k] = '\0';
	return out;
}

/* The script and data of doc; 0 when the chart drew nothing. */
static int draw(json_object *doc, char **script, size_t *ns, char **dat,
		size_t *nd)
{
	FILE *fs = open_memstream(script, ns), *fd = open_memstream(dat, nd);
	int ret;

	if (!fs || !fd)
		abort();
	ret = rio_chart_script(doc, fd, "/tmp/d'ir/chart.dat", fs,
			       "/tmp/d'ir/chart.svg", 1);
	fclose(fs);
	fclose(fd);
	return ret == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_object *doc = named_doc_new(data, size, 0);
	json_object *twin = named_doc_new(data, size, 1);
	char *s[2], *d[2], *sk[2], *dk[2];
	size_t ns[2], nd[2];
	int drawn[2], i;

	rc_log_set_quiet(1);
	drawn[0] = draw(doc, &s[0], &ns[0], &d[0], &nd[0]);
	drawn[1] = draw(twin, &s[1], &ns[1], &d[1], &nd[1]);
	if (drawn[0] != drawn[1])
		abort();
	for (i = 0; i < 2; i++) {
		sk[i] = skeleton(s[i], ns[i], 0);
		dk[i] = skeleton(d[i], nd[i], 1);
		if (!sk[i] || !dk[i] || memchr(s[i], '\r', ns[i]) ||
		    memchr(d[i], '\r', nd[i])) {
			fprintf(stderr,
				"a quote left open or code outside quotes:\n%s\n---\n%s\n",
				s[i], d[i]);
			abort();
		}
	}
	if (strcmp(sk[0], sk[1]) || strcmp(dk[0], dk[1])) {
		fprintf(stderr, "a name changed the script:\n%s\n---\n%s\n",
			sk[0], sk[1]);
		abort();
	}
	for (i = 0; i < 2; i++) {
		free(s[i]);
		free(d[i]);
		free(sk[i]);
		free(dk[i]);
	}
	json_object_put(doc);
	json_object_put(twin);
	return 0;
}
