// SPDX-License-Identifier: MIT
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "log.h"
#include "spawn.h"
#include "sysfile.h"

extern char **environ;

int nr_spawn_wait(char *const argv[])
{
	int ret, status;
	pid_t pid;

	ret = posix_spawnp(&pid, argv[0], NULL, NULL, argv, environ);
	if (ret) {
		nr_call_err(ret, "posix_spawnp(%s)", argv[0]);
		return -ret;
	}
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			ret = -errno;
			nr_call_err(ret, "waitpid(%s)", argv[0]);
			return ret;
		}
	}
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}

int nr_proc_running(const char *comm)
{
	char path[64], buf[64];
	struct dirent *de;
	int found = 0;
	DIR *d;

	d = opendir("/proc");
	if (!d)
		return 0;
	while (!found && (de = readdir(d))) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%.20s/comm", de->d_name);
		/* Not through nr_path: processes are never simulated. */
		FILE *f = fopen(path, "r");

		if (!f)
			continue;
		if (fgets(buf, sizeof(buf), f)) {
			buf[strcspn(buf, "\n")] = '\0';
			found = !strcmp(buf, comm);
		}
		fclose(f);
	}
	closedir(d);
	return found;
}
