// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rc_log.h"

static const char *prog;
static int quiet;

void rc_log_init(const char *name)
{
	prog = name;
}

void rc_log_set_quiet(int q)
{
	quiet = q;
}

/* Built first and written with one call: stderr is unbuffered, and a
 * message written in parts can interleave with a child's. */
static void emit(const char *pre, const char *fmt, va_list ap, const char *post)
	__attribute__((format(printf, 2, 0)));

static void emit(const char *pre, const char *fmt, va_list ap, const char *post)
{
	const char *name = prog ? prog : program_invocation_short_name;
	char *msg = NULL;

	if (quiet)
		return;
	if (vasprintf(&msg, fmt, ap) < 0) {
		fprintf(stderr, "%s: %s(message lost: out of memory)%s\n", name,
			pre, post);
		return;
	}
	fprintf(stderr, "%s: %s%s%s\n", name, pre, msg, post);
	free(msg);
}

void rc_call_err(int err, const char *what, ...)
{
	char post[160];
	va_list ap;

	snprintf(post, sizeof(post), " failed: %s",
		 strerror(err < 0 ? -err : err));
	va_start(ap, what);
	emit("", what, ap, post);
	va_end(ap);
}

void rc_diag(const char *fix, const char *what, ...)
{
	va_list ap;

	va_start(ap, what);
	emit("", what, ap, "");
	va_end(ap);
	if (fix && !quiet)
		fprintf(stderr, "  fix: %s\n", fix);
}

void rc_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	emit("", fmt, ap, "");
	va_end(ap);
}

void rc_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	emit("warning: ", fmt, ap, "");
	va_end(ap);
}
