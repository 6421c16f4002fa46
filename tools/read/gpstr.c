// SPDX-License-Identifier: MIT
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "read/gpstr.h"
#include "base/text.h"

/* s cleaned of control characters and non-UTF-8, each quote as quote. */
static void put_quoted(FILE *f, const char *s, char quote, const char *as)
{
	char *c = rio_text_clean(s, 0);
	const char *p;

	fputc(quote, f);
	for (p = c ? c : "?"; *p; p++)
		if (*p == quote)
			fputs(as, f);
		else
			fputc(*p, f);
	fputc(quote, f);
	free(c);
}

void rio_gpstr_write(FILE *f, const char *s)
{
	put_quoted(f, s, '\'', "''");
}

void rio_gpstr_printf(FILE *f, const char *fmt, ...)
{
	char *s = NULL;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	rio_gpstr_write(f, n < 0 ? "?" : s);
	if (n >= 0)
		free(s);
}

void rio_gpstr_datum(FILE *f, const char *s)
{
	put_quoted(f, s, '"', "'");
}
