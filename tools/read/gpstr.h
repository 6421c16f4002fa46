/* SPDX-License-Identifier: MIT */
#ifndef RDMAIO_TOOLS_GPSTR_H
#define RDMAIO_TOOLS_GPSTR_H

#include <stdio.h>

/*
 * Strings into gnuplot's script and data files, where a name from a result
 * must stay a name. gnuplot runs `command` inside double-quoted strings and
 * outside quotes, and expands @macros outside quotes; a single-quoted
 * string is taken as it is, with '' for a quote. So every string that is
 * not the chart's own goes through these, and nothing else writes one.
 */

/* s as one single-quoted gnuplot string: ' doubled, and each control
 * character or byte that is not UTF-8 as '?' (a newline would end the
 * command). */
void rio_gpstr_write(FILE *f, const char *s);

/* The same for a printf-style string made here, of names and figures. */
void rio_gpstr_printf(FILE *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* s as one double-quoted field of a data file (gnuplot reads no escapes
 * there): a '"' is shown as '\'', control characters as '?'. */
void rio_gpstr_datum(FILE *f, const char *s);

#endif
