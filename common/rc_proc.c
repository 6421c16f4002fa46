// SPDX-License-Identifier: MIT
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rc_proc.h"

int rc_proc_is(pid_t pid, const char *comm)
{
	char path[64], buf[64] = "";
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	if (fgets(buf, sizeof(buf), f))
		buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
	return !strcmp(buf, comm);
}

pid_t rc_proc_find(const char *comm)
{
	struct dirent *de;
	pid_t found = 0;
	DIR *d;

	d = opendir("/proc");
	if (!d)
		return 0;
	while (!found && (de = readdir(d)))
		if (isdigit((unsigned char)de->d_name[0]) &&
		    rc_proc_is((pid_t)atoi(de->d_name), comm))
			found = (pid_t)atoi(de->d_name);
	closedir(d);
	return found;
}

int rc_proc_running(const char *comm)
{
	return rc_proc_find(comm) != 0;
}
