// SPDX-License-Identifier: GPL-2.0
/* Memory registrations, and the locked-memory limit they need. */
#include <errno.h>
#include <linux/capability.h>
#include <stdbool.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "mr.h"
#include "rio_log.h"

/* What the kernel checks when it pins pages (ib_umem_get): the locked
 * memory limit, unless the process has CAP_IPC_LOCK. */
static bool rio_mr_may_pin(size_t len, struct rlimit *rl)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3,
						0 };
	struct __user_cap_data_struct data[2] = { { 0 } };

	if (getrlimit(RLIMIT_MEMLOCK, rl) || rl->rlim_cur == RLIM_INFINITY ||
	    rl->rlim_cur >= len)
		return true;
	if (syscall(SYS_capget, &hdr, data))
		return false;
	return data[CAP_IPC_LOCK / 32].effective & (1u << (CAP_IPC_LOCK % 32));
}

int rio_mr_pin_check(size_t len, const char *what)
{
	struct rlimit rl;

	if (rio_mr_may_pin(len, &rl))
		return 0;
	rio_err("%s: %zu bytes to register but RLIMIT_MEMLOCK is %llu bytes; raise it with 'ulimit -l unlimited' (or at least %zu KiB) before fio",
		what, len, (unsigned long long)rl.rlim_cur,
		(len + 1023) / 1024);
	return -ENOMEM;
}

/* Registration fails with ENOMEM/EPERM when the locked-memory limit is
 * too low; that is the common case, so name the limit and the fix. */
int rio_mr_reg(struct ibv_pd *pd, void *addr, size_t len, int access,
	       const char *what, struct ibv_mr **mr)
{
	int err;

	*mr = ibv_reg_mr(pd, addr, len, access);
	if (*mr)
		return 0;
	err = errno ? errno : ENOMEM;
	rio_err_call(err, "ibv_reg_mr(%s, addr=%p, len=%zu, access=0x%x)", what,
		     addr, len, access);
	/* Says so when the locked-memory limit is the cause. */
	if (err == ENOMEM || err == EPERM || err == EAGAIN)
		rio_mr_pin_check(len, what);
	return -err;
}

void rio_mr_delete(struct ibv_mr **mr, const char *what)
{
	int ret;

	if (!*mr)
		return;
	ret = ibv_dereg_mr(*mr);
	if (ret)
		rio_err_call(ret, "ibv_dereg_mr(%s)", what);
	*mr = NULL;
}

void rio_pd_delete(struct ibv_pd **pd, const char *who)
{
	int ret;

	if (!*pd)
		return;
	ret = ibv_dealloc_pd(*pd);
	if (ret)
		rio_err_call(ret, "ibv_dealloc_pd(%s)", who);
	*pd = NULL;
}
