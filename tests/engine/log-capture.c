// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "rio_log.h"
#include "log-capture.h"

static char captured[8192];

ssize_t log_err(const char *format, ...)
{
	size_t used = strlen(captured);
	va_list ap;
	int n;

	va_start(ap, format);
	n = vsnprintf(captured + used, sizeof(captured) - used, format, ap);
	va_end(ap);
	return n;
}

void log_capture_reset(void)
{
	captured[0] = '\0';
}

const char *log_capture_text(void)
{
	return captured;
}

bool log_capture_has(const char *needle)
{
	return strstr(captured, needle) != NULL;
}
