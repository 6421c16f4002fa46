/* SPDX-License-Identifier: MIT */
/*
 * Diagnostics for nfsrdma. Two kinds of message, both on stderr:
 * nr_call_err() names a failed system or library call with its arguments and
 * strerror; nr_diag() is the user-facing verdict: object, cause and fix.
 */
#ifndef NR_LOG_H
#define NR_LOG_H

/* err may be an errno or a -errno. */
void nr_call_err(int err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Prints "nfsrdma: <what>" and, when fix is not NULL, "  fix: <fix>". */
void nr_diag(const char *fix, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Quiet mode for unit tests that provoke errors on purpose. */
void nr_log_set_quiet(int quiet);
int nr_log_quiet(void);

#endif
