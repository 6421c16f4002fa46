// SPDX-License-Identifier: MIT
#include <errno.h>
#include <libkmod.h>
#include <stdio.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "kmodule.h"
#include "rc_log.h"

int nr_module_present(const char *name)
{
	char path[512];

	snprintf(path, sizeof(path), "/sys/module/%s", name);
	if (access(path, F_OK) == 0)
		return 1;
	return errno == ENOENT ? 0 : -errno;
}

int nr_module_load(const char *name, const char *why)
{
	struct kmod_list *list = NULL, *l;
	struct kmod_ctx *ctx;
	struct utsname u;
	char fix[256];
	int ret;

	ctx = kmod_new(NULL, NULL);
	if (!ctx) {
		rc_diag("check that /lib/modules/$(uname -r) exists",
			"kernel module %s (%s): libkmod cannot open the module "
			"folder",
			name, why);
		return -ENOENT;
	}
	ret = kmod_module_new_from_lookup(ctx, name, &list);
	if (ret < 0 || !list) {
		uname(&u);
		snprintf(fix, sizeof(fix),
			 "install the kernel modules package for %s "
			 "(linux-image-%s)",
			 u.release, u.release);
		rc_diag(fix,
			"kernel module %s (%s) does not exist for kernel %s",
			name, why, u.release);
		ret = ret < 0 ? ret : -ENOENT;
		goto out;
	}
	kmod_list_foreach(l, list)
	{
		struct kmod_module *mod = kmod_module_get_module(l);
		int state = kmod_module_get_initstate(mod);

		/* A loaded module is fine even if blacklisted since. */
		if (state == KMOD_MODULE_LIVE || state == KMOD_MODULE_BUILTIN) {
			kmod_module_unref(mod);
			ret = 0;
			continue;
		}
		ret = kmod_module_probe_insert_module(
			mod,
			KMOD_PROBE_APPLY_BLACKLIST | KMOD_PROBE_IGNORE_COMMAND,
			NULL, NULL, NULL, NULL);
		if (ret > 0) {
			snprintf(fix, sizeof(fix),
				 "remove 'blacklist %s' from /etc/modprobe.d",
				 kmod_module_get_name(mod));
			rc_diag(fix,
				"kernel module %s (%s) is blacklisted: it was "
				"not loaded",
				kmod_module_get_name(mod), why);
			ret = -EPERM;
		} else if (ret < 0) {
			rc_call_err(ret, "loading kernel module %s (%s)",
				    kmod_module_get_name(mod), why);
		}
		kmod_module_unref(mod);
		if (ret)
			break;
	}
out:
	kmod_module_unref_list(list);
	kmod_unref(ctx);
	return ret;
}
