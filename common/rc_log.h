/* SPDX-License-Identifier: MIT */
/*
 * The one set of messages nfsrdma and rdmaio print, all on stderr and each
 * prefixed by the program's name:
 *   rc_call_err()  a failed system or library call, its arguments, strerror;
 *   rc_diag()      the verdict a user acts on: object and cause, then the fix;
 *   rc_err()       an error in one line;
 *   rc_warn()      a warning in one line.
 */
#ifndef RC_LOG_H
#define RC_LOG_H

/* The prefix; the program's own name until it is set. */
void rc_log_init(const char *prog);

/* Quiet mode, for unit tests that provoke errors on purpose. */
void rc_log_set_quiet(int quiet);

/* "PROG: CALL(ARGS) failed: strerror(err)"; what names the call with its
 * arguments. err may be an errno or a -errno. */
void rc_call_err(int err, const char *what, ...)
	__attribute__((format(printf, 2, 3)));

/* "PROG: WHAT" and, when fix is not NULL, "  fix: FIX" on the next line. */
void rc_diag(const char *fix, const char *what, ...)
	__attribute__((format(printf, 2, 3)));

void rc_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void rc_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
