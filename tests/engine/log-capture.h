/* SPDX-License-Identifier: GPL-2.0 */
/* Stands in for fio's log_err so tests can assert what was reported. */
#ifndef RIO_TEST_LOG_CAPTURE_H
#define RIO_TEST_LOG_CAPTURE_H

#include <stdbool.h>

void log_capture_reset(void);
const char *log_capture_text(void);
bool log_capture_has(const char *needle);

#endif
