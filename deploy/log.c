// SPDX-License-Identifier: MIT
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "log.h"

static int quiet;

void nr_log_set_quiet(int q)
{
	quiet = q;
}

int nr_log_quiet(void)
{
	return quiet;
}

void nr_diag(const char *fix, const char *fmt, ...)
{
	va_list ap;

	if (quiet)
		return;
	fputs("nfsrdma: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	if (fix)
		fprintf(stderr, "  fix: %s\n", fix);
}

void nr_call_err(int err, const char *fmt, ...)
{
	va_list ap;

	if (quiet)
		return;
	fputs("nfsrdma: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, ": %s\n", strerror(err < 0 ? -err : err));
}
