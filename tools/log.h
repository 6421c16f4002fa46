/* SPDX-License-Identifier: MIT */
#ifndef RDMAIO_TOOLS_LOG_H
#define RDMAIO_TOOLS_LOG_H

#include <stdio.h>
#include <string.h>

/*
 * RIO_ERR prints one error line; RIO_CALL_ERR names the failing call, its
 * arguments and strerror(err) so a user can repeat the call by hand.
 */
#define RIO_ERR(fmt, ...) fprintf(stderr, "rdmaio: " fmt "\n", ##__VA_ARGS__)

#define RIO_CALL_ERR(err, call, argfmt, ...)                                   \
	fprintf(stderr, "rdmaio: %s(" argfmt ") failed: %s\n", call,           \
		##__VA_ARGS__, strerror(err))

#define RIO_WARN(fmt, ...)                                                     \
	fprintf(stderr, "rdmaio: warning: " fmt "\n", ##__VA_ARGS__)

#endif
