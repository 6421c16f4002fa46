// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "helper.h"
#include "rc_log.h"
#include "rc_spawn.h"

int nr_spawn_wait(char *const argv[])
{
	char path[4096], fix[256];
	int ret;

	ret = rc_helper_path(argv[0], path, sizeof(path));
	if (ret) {
		snprintf(
			fix, sizeof(fix),
			"install the package that ships %s (nfs-kernel-server, "
			"nfs-common or rpcbind)",
			argv[0]);
		rc_diag(fix, "helper %s: not found in %s", argv[0],
			RC_HELPER_DIRS);
		return ret;
	}
	return rc_spawn_helper(path, argv);
}
