/* SPDX-License-Identifier: GPL-2.0 */
/* Memory registrations that say, when they fail, whether the locked
 * memory limit is why. */
#ifndef RIO_MR_H
#define RIO_MR_H

#include <stddef.h>

#include <infiniband/verbs.h>

int rio_mr_reg(struct ibv_pd *pd, void *addr, size_t len, int access,
	       const char *what, struct ibv_mr **mr);
/* -ENOMEM, after saying how to raise it, when the locked memory limit
 * would refuse to register len bytes: checked before any client comes. */
int rio_mr_pin_check(size_t len, const char *what);

/*
 * Teardown steps, each safe on NULL and leaving NULL behind; a failure is
 * logged with what it was (the region, the domain's owner) and teardown
 * goes on. A protection domain goes after every registration in it.
 */
void rio_mr_delete(struct ibv_mr **mr, const char *what);
void rio_pd_delete(struct ibv_pd **pd, const char *who);

#endif
