// SPDX-License-Identifier: MIT
/* rdmaio cpu-watch: what --remote-cpu runs on another host. */
#include <stdio.h>

#include "args.h"
#include "cmd.h"
#include "rc_log.h"
#include "result/cpustat.h"

int rio_cmd_cpu_watch(struct rio_args *a)
{
	int ret;

	if (a->npos) {
		rc_err("cpu-watch: takes no file argument; '%s' is one",
		       a->pos[0]);
		return 2;
	}
	ret = rio_cpustat_stream("", a->interval_ms, a->max_s, stdout);
	if (ret)
		rc_call_err(-ret, "read(%s)", "/proc/stat");
	return ret ? 1 : 0;
}
