// SPDX-License-Identifier: MIT
#include <dirent.h>
#include <errno.h>
#include <libkmod.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include <json-c/json.h>

#include "doctor.h"
#include "nfsd.h"
#include "probe.h"
#include "rc_proc.h"
#include "helper.h"
#include "rc_status.h"
#include "sysfile.h"

static int failures;

static void verdict(const char *level, const char *fix, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void verdict(const char *level, const char *fix, const char *fmt, ...)
{
	va_list ap;

	printf("%-4s ", level);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	if (fix)
		printf("     fix: %s\n", fix);
	failures += !strcmp(level, "FAIL");
}

int nr_doctor_roce_mtu(int netdev_mtu)
{
	int mtu;

	for (mtu = 4096; mtu >= 256; mtu /= 2)
		if (mtu <= netdev_mtu - 80)
			return mtu;
	return 0;
}

static void check_modules(void)
{
	static const char *const mods[] = { "rdma_rxe", "ib_uverbs", "rpcrdma",
					    "nfsd", "nfsv4" };
	struct kmod_ctx *ctx = kmod_new(NULL, NULL);
	size_t i;

	for (i = 0; i < sizeof(mods) / sizeof(mods[0]); i++) {
		struct kmod_list *l = NULL;

		if (ctx && kmod_module_new_from_lookup(ctx, mods[i], &l) >= 0 &&
		    l)
			verdict("ok", NULL, "kernel module %s is available",
				mods[i]);
		else
			verdict("FAIL",
				"install the kernel's modules package "
				"(linux-image-$(uname -r))",
				"kernel module %s is not available", mods[i]);
		kmod_module_unref_list(l);
	}
	kmod_unref(ctx);
}

static void check_memlock(void)
{
	char status[8192], *cap;
	unsigned long long eff = 0;
	struct rlimit rl;

	if (nr_file_read("/proc/self/status", status, sizeof(status)) > 0 &&
	    (cap = strstr(status, "CapEff:")))
		eff = strtoull(cap + 7, NULL, 16);
	if (eff & (1ULL << 14)) {
		verdict("ok", NULL,
			"memlock: CAP_IPC_LOCK held, registration is not "
			"limited");
		return;
	}
	if (getrlimit(RLIMIT_MEMLOCK, &rl) == 0 &&
	    rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < (64ULL << 20))
		verdict("warn",
			"raise it: 'ulimit -l unlimited' or a "
			"/etc/security/limits.d memlock line",
			"memlock limit is %llu KiB: RDMA memory registration "
			"beyond it fails",
			(unsigned long long)rl.rlim_cur >> 10);
	else
		verdict("ok", NULL, "memlock limit allows RDMA registration");
}

static void check_devices(struct json_object *st)
{
	struct json_object *devs = NULL, *d, *ports, *p, *v;
	char path[300], buf[64], fix[256];
	size_t i, j;

	json_object_object_get_ex(st, "rdma_devices", &devs);
	if (!devs || json_object_array_length(devs) == 0) {
		verdict("FAIL",
			"nfsrdma link add rxe0 NETDEV (Soft-RoCE), or load "
			"the RDMA driver of your NIC",
			"no RDMA device");
		return;
	}
	for (i = 0; i < json_object_array_length(devs); i++) {
		d = json_object_array_get_idx(devs, i);
		json_object_object_get_ex(d, "ports", &ports);
		for (j = 0; ports && j < json_object_array_length(ports); j++) {
			const char *name, *state, *nd;
			int amtu, nmtu;

			p = json_object_array_get_idx(ports, j);
			json_object_object_get_ex(d, "name", &v);
			name = json_object_get_string(v);
			state = json_object_object_get_ex(p, "state", &v) && v
					? json_object_get_string(v)
					: "?";
			nd = json_object_object_get_ex(p, "netdev", &v) && v
				     ? json_object_get_string(v)
				     : NULL;
			if (strcmp(state, "ACTIVE"))
				verdict("FAIL",
					"bring the netdev up: ip link set "
					"NETDEV up",
					"RDMA device %s port %zu is %s", name,
					j + 1, state);
			else
				verdict("ok", NULL,
					"RDMA device %s port %zu is ACTIVE",
					name, j + 1);
			amtu = json_object_object_get_ex(p, "active_mtu", &v) &&
					       v
				       ? json_object_get_int(v)
				       : 0;
			snprintf(path, sizeof(path), "/sys/class/net/%s/mtu",
				 nd ? nd : "");
			if (!nd || !amtu ||
			    nr_file_read(path, buf, sizeof(buf)) <= 0)
				continue;
			nmtu = atoi(buf);
			if (nr_doctor_roce_mtu(nmtu) != amtu) {
				snprintf(fix, sizeof(fix),
					 "re-create the link after setting the "
					 "netdev MTU (ip link set %s mtu N)",
					 nd);
				verdict("warn", fix,
					"%s active MTU %d, but %s MTU %d allows "
					"%d",
					name, amtu, nd, nmtu,
					nr_doctor_roce_mtu(nmtu));
			} else {
				verdict("ok", NULL,
					"%s active MTU %d fits %s MTU %d", name,
					amtu, nd, nmtu);
			}
		}
	}
}

static void check_nfsd(void)
{
	struct nr_nfsd_state st;
	char portlist[4096];

	if (nr_file_exists(RC_NFSD_DIR "/portlist") != 1 ||
	    nr_nfsd_read_state(20049, &st) || !st.running) {
		verdict("ok", NULL, "nfsd is not running (no server checks)");
		return;
	}
	nr_file_read(RC_NFSD_DIR "/portlist", portlist, sizeof(portlist));
	if (!strstr(portlist, "rdma "))
		verdict("FAIL", "nfsrdma server start (adds rdma 20049)",
			"nfsd runs without an RDMA listener");
	else
		verdict("ok", NULL, "nfsd has an RDMA listener");
	if (!rc_proc_running("rpc.mountd"))
		verdict("FAIL", "nfsrdma server start (starts rpc.mountd)",
			"nfsd runs but rpc.mountd does not: exports cannot "
			"be looked up");
	else
		verdict("ok", NULL, "rpc.mountd runs");
}

int nr_doctor(const char *spec)
{
	struct json_object *st = rc_status_collect(nr_test_root());

	failures = 0;
	check_modules();
	check_memlock();
	if (st)
		check_devices(st);
	json_object_put(st);
	check_nfsd();
	if (spec) {
		if (nr_probe(spec))
			verdict("FAIL", "see the probe message above",
				"%s is not visible to this client", spec);
		else
			verdict("ok", NULL, "%s is exported to this client",
				spec);
	}
	return failures;
}
