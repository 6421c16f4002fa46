// SPDX-License-Identifier: MIT
#include <errno.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <netdb.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "result/host.h"
#include "result/resultenv.h"
#include "rc_spawn.h"

#ifndef RDMAIO_VERSION
#define RDMAIO_VERSION "unknown"
#endif

void rio_warn_add(json_object *warnings, const char *code, const char *fmt, ...)
{
	json_object *w = json_object_new_object();
	char *msg = NULL;
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	va_end(ap);
	json_object_object_add(w, "code", json_object_new_string(code));
	json_object_object_add(w, "message",
			       json_object_new_string(msg ? msg : code));
	json_object_array_add(warnings, w);
	free(msg);
}

static void chomp(char *s)
{
	size_t n = strlen(s);

	while (n && (s[n - 1] == '\n' || s[n - 1] == ' ' || s[n - 1] == '\t'))
		s[--n] = '\0';
}

static int has_word(const char *s, const char *w)
{
	size_t n = strlen(w);
	const char *p;

	for (p = strstr(s, w); p; p = strstr(p + 1, w))
		if ((p == s || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
			return 1;
	return 0;
}

static json_object *cpu_describe(const char *root)
{
	int count = 0, hypervisor = 0, emulated;
	char path[4096], line[4096], *model = NULL, *v;
	const char *lab = getenv("RDMAIO_LAB");
	json_object *o = json_object_new_object();
	FILE *f;

	snprintf(path, sizeof(path), "%s/proc/cpuinfo", root);
	f = fopen(path, "re");
	while (f && fgets(line, sizeof(line), f)) {
		v = strchr(line, ':');
		if (!v)
			continue;
		v++;
		v += strspn(v, " \t");
		chomp(v);
		if (!strncmp(line, "processor", 9))
			count++;
		else if (!strncmp(line, "model name", 10) && !model)
			model = strdup(v);
		else if (!strncmp(line, "flags", 5) &&
			 has_word(v, "hypervisor"))
			hypervisor = 1;
	}
	if (f)
		fclose(f);
	/*
	 * A TCG guest names its CPU "QEMU Virtual CPU"; a KVM guest has the
	 * hypervisor flag too but runs at near native speed, so only QEMU's
	 * model name or the lab's own marker mean "emulated".
	 */
	emulated = (hypervisor && model && strstr(model, "QEMU")) ||
		   (lab && !strcmp(lab, "1"));
	json_object_object_add(o, "model",
			       model ? json_object_new_string(model) : NULL);
	json_object_object_add(o, "count", json_object_new_int(count));
	json_object_object_add(o, "hypervisor",
			       json_object_new_boolean(hypervisor));
	json_object_object_add(o, "emulated",
			       json_object_new_boolean(emulated));
	free(model);
	return o;
}

/* Every address of this host's interfaces, loopback included: the loopback
 * check asks whether a job's peer was one of them. */
static json_object *addresses(void)
{
	json_object *a = json_object_new_array();
	struct ifaddrs *ifa, *i;
	char buf[NI_MAXHOST];
	socklen_t sl;

	if (getifaddrs(&ifa))
		return a;
	for (i = ifa; i; i = i->ifa_next) {
		if (!i->ifa_addr || (i->ifa_addr->sa_family != AF_INET &&
				     i->ifa_addr->sa_family != AF_INET6))
			continue;
		sl = i->ifa_addr->sa_family == AF_INET
			     ? sizeof(struct sockaddr_in)
			     : sizeof(struct sockaddr_in6);
		if (!getnameinfo(i->ifa_addr, sl, buf, sizeof(buf), NULL, 0,
				 NI_NUMERICHOST))
			json_object_array_add(a, json_object_new_string(buf));
	}
	freeifaddrs(ifa);
	return a;
}

json_object *rio_host_describe(const char *root)
{
	json_object *o = json_object_new_object(), *k;
	const char *lab = getenv("RDMAIO_LAB");
	const char *exact = getenv("RDMAIO_LAB_EXACT");
	char name[256] = "";
	struct utsname u;

	gethostname(name, sizeof(name) - 1);
	if (uname(&u))
		memset(&u, 0, sizeof(u));
	k = json_object_new_object();
	json_object_object_add(k, "sysname", json_object_new_string(u.sysname));
	json_object_object_add(k, "release", json_object_new_string(u.release));
	json_object_object_add(k, "version", json_object_new_string(u.version));
	json_object_object_add(k, "machine", json_object_new_string(u.machine));
	json_object_object_add(o, "hostname", json_object_new_string(name));
	json_object_object_add(o, "kernel", k);
	json_object_object_add(o, "cpu", cpu_describe(root));
	json_object_object_add(
		o, "lab", json_object_new_boolean(lab && !strcmp(lab, "1")));
	/* How the lab's clock ran: with the host's time (figures swing with
	 * its load) or counting instructions (they repeat). */
	if (lab && !strcmp(lab, "1"))
		json_object_object_add(
			o, "emulation",
			json_object_new_string(exact && !strcmp(exact, "1")
						       ? "exact"
						       : "real-time"));
	json_object_object_add(o, "addresses", addresses());
	return o;
}

static json_object *capture_line(char *const argv[])
{
	json_object *o = NULL;
	char *out = NULL;

	if (rc_spawn_capture(argv, &out, 4096, 30, 0) == 0 && out) {
		chomp(out);
		if (*out)
			o = json_object_new_string(out);
	}
	free(out);
	return o;
}

json_object *rio_host_versions(const char *fio)
{
	char *fio_argv[] = { (char *)fio, "--version", NULL };
	char *dpkg_argv[] = { "dpkg-query", "-W", "-f=${Version}", "rdma-core",
			      NULL };
	json_object *o = json_object_new_object(), *rc;
	struct utsname u;

	if (uname(&u))
		memset(&u, 0, sizeof(u));
	json_object_object_add(o, "rdmaio",
			       json_object_new_string(RDMAIO_VERSION));
	json_object_object_add(o, "fio", capture_line(fio_argv));
	json_object_object_add(o, "kernel", json_object_new_string(u.release));
	rc = capture_line(dpkg_argv);
	if (!rc) {
		/* Not every install has the rdma-core package; libibverbs1 is
		 * built from the same source and carries its version. */
		dpkg_argv[3] = "libibverbs1";
		rc = capture_line(dpkg_argv);
	}
	json_object_object_add(o, "rdma_core", rc);
	return o;
}

int rio_host_warn_cpu(json_object *host, json_object *warnings)
{
	const struct rio_env_host *h;
	struct rio_resultenv *env;

	if (rio_resultenv_read_parts(host, NULL, NULL, &env))
		return -ENOMEM;
	h = rio_resultenv_host(env);
	if (h->cpu_emulated)
		rio_warn_add(
			warnings, "emulated-cpu",
			"the CPU is emulated (%s%s): every figure is 10-50x below hardware; compare only ratios measured in the same run",
			h->cpu_model ? h->cpu_model : "unknown model",
			h->lab ? ", rdmaio lab" : "");
	rio_resultenv_delete(&env);
	return 0;
}
