/* SPDX-License-Identifier: GPL-2.0 */
/* One way to report errors: through fio's log_err, so messages reach the
 * terminal of a fio --client too. Unit tests provide their own log_err. */
#ifndef RIO_LOG_H
#define RIO_LOG_H

#include <string.h>
#include <sys/types.h>

ssize_t log_err(const char *format, ...)
	__attribute__((__format__(__printf__, 1, 2)));

/* A plain message: object, cause and fix in one line. */
#define rio_err(fmt, ...) log_err("rdmaio: " fmt "\n", ##__VA_ARGS__)

/* Something that works, but not as the job file may suggest. */
#define rio_warn(fmt, ...) log_err("rdmaio: warning: " fmt "\n", ##__VA_ARGS__)

/* A failed library call: the call with its arguments, then strerror(err). */
#define rio_err_call(err, call_fmt, ...)                                       \
	log_err("rdmaio: " call_fmt " failed: %s\n", ##__VA_ARGS__,            \
		strerror(err))

#endif
