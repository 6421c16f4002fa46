// SPDX-License-Identifier: MIT
/*
 * The Markdown report and the CSV of a result whose names are arbitrary
 * bytes, cleaned as `rdmaio report` cleans what it shows: no control
 * character reaches the report (a terminal would act on it), no name adds
 * a column to a table or a line to the report, and every CSV cell that a
 * spreadsheet would read as a formula is a number or text made so by a
 * leading quote; every CSV record has the header's number of cells.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "read/csvout.h"
#include "named-doc.h"
#include "rc_log.h"
#include "read/report.h"
#include "result/resultdoc.h"
#include "base/text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char *render(json_object *doc, int csv, size_t *n)
{
	const struct rio_report_opts o = { 0 };
	char *text = NULL;
	FILE *f = open_memstream(&text, n);

	if (!f)
		abort();
	if (csv) {
		struct rio_resultdoc *rd;

		if (rio_resultdoc_read(doc, &rd))
			abort();
		rio_csv_write(rd, f);
		rio_resultdoc_delete(&rd);
	} else
		rio_report_write(doc, &o, f);
	fclose(f);
	return text;
}

/* The cells of a table line: '|' not escaped by a backslash. */
static int pipes(const char *line, size_t len)
{
	size_t i;
	int n = 0;

	for (i = 0; i < len; i++)
		n += line[i] == '|' && (i == 0 || line[i - 1] != '\\');
	return n;
}

static void check_report(const char *t, size_t n)
{
	const char *line = t, *eol;
	int cells = -1;
	size_t i;

	for (i = 0; i < n; i++)
		if (((unsigned char)t[i] < 0x20 && t[i] != '\n') ||
		    t[i] == 0x7f)
			abort();
	/* Lines of the same table have one count of cells: a header sets it. */
	for (; line < t + n; line = eol + 1) {
		eol = memchr(line, '\n', t + n - line);
		if (!eol)
			eol = t + n;
		if (*line != '|') {
			cells = -1;
			continue;
		}
		if (cells < 0)
			cells = pipes(line, eol - line);
		else if (pipes(line, eol - line) != cells)
			abort();
	}
}

/* One CSV record from *p: its cell count; aborts on a formula cell. */
static int csv_record(const char **p, const char *end)
{
	char cell[512];
	size_t k;
	int cells = 0, quoted;

	for (;;) {
		k = 0;
		quoted = **p == '"';
		*p += quoted;
		while (*p < end) {
			if (quoted && **p == '"' && *p + 1 < end &&
			    (*p)[1] == '"')
				(*p)++;
			else if (quoted && **p == '"') {
				(*p)++;
				quoted = 0;
				continue;
			} else if (!quoted && (**p == ',' || **p == '\n'))
				break;
			if (k < sizeof(cell) - 1)
				cell[k++] = **p;
			(*p)++;
		}
		cell[k] = '\0';
		cells++;
		if (k && strchr("=+-@\t\r", cell[0])) {
			char *num_end;

			strtod(cell, &num_end);
			if (*num_end)
				abort();
		}
		if (*p >= end || **p == '\n') {
			*p += *p < end;
			return cells;
		}
		(*p)++;
	}
}

static void check_csv(const char *t, size_t n)
{
	const char *p = t, *end = t + n;
	int header = csv_record(&p, end);

	while (p < end)
		if (csv_record(&p, end) != header)
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_object *doc = named_doc_new(data, size, 0);
	char *text;
	size_t n;

	rc_log_set_quiet(1);
	if (rio_text_clean_json(doc, 0) < 0)
		abort();
	text = render(doc, 1, &n);
	check_csv(text, n);
	free(text);
	if (rio_text_clean_json(doc, RIO_TEXT_MARKDOWN) < 0)
		abort();
	text = render(doc, 0, &n);
	check_report(text, n);
	free(text);
	json_object_put(doc);
	return 0;
}
