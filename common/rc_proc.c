// SPDX-License-Identifier: MIT
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "rc_file.h"
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

/* Calls fn for every pid in /proc until it returns non-zero; returns that,
 * or -errno when /proc cannot be read. */
static int each_pid(int (*fn)(pid_t pid, void *arg), void *arg)
{
	struct dirent *de;
	int ret = 0;
	DIR *d;

	d = opendir("/proc");
	if (!d)
		return -errno;
	while (!ret && (de = readdir(d)))
		if (isdigit((unsigned char)de->d_name[0]))
			ret = fn((pid_t)atoi(de->d_name), arg);
	closedir(d);
	return ret;
}

struct find_ctx {
	const char *comm;
	pid_t found;
};

static int find_one(pid_t pid, void *arg)
{
	struct find_ctx *c = arg;

	if (!rc_proc_is(pid, c->comm))
		return 0;
	c->found = pid;
	return 1;
}

pid_t rc_proc_find(const char *comm)
{
	struct find_ctx c = { comm, 0 };

	each_pid(find_one, &c);
	return c.found;
}

int rc_proc_running(const char *comm)
{
	return rc_proc_find(comm) != 0;
}

/* "PID (COMM) STATE PPID ... STARTTIME ...": comm may hold blanks and ')',
 * so the fields are counted from the last ')'. */
static int parse_stat(const char *line, struct rc_proc_id *id)
{
	const char *open = strchr(line, '('), *close = strrchr(line, ')');
	const char *p;
	int field;

	if (!open || !close || close < open || close[1] != ' ')
		return -EPROTO;
	snprintf(id->comm, sizeof(id->comm), "%.*s", (int)(close - open - 1),
		 open + 1);
	p = close + 2;
	/* p is at field 3 (state); ppid is field 4, starttime field 22. */
	for (field = 3; field < 22 && *p; field++) {
		if (field == 4)
			id->ppid = (pid_t)strtol(p, NULL, 10);
		p = strchr(p, ' ');
		if (!p)
			return -EPROTO;
		p++;
	}
	if (field != 22 || !isdigit((unsigned char)*p))
		return -EPROTO;
	id->start = strtoull(p, NULL, 10);
	return 0;
}

static void read_exe(pid_t pid, char *out, size_t len)
{
	static const char deleted[] = " (deleted)";
	char path[64];
	ssize_t n;
	size_t d = sizeof(deleted) - 1;

	snprintf(path, sizeof(path), "/proc/%d/exe", (int)pid);
	n = readlink(path, out, len - 1);
	if (n < 0)
		n = 0;
	out[n] = '\0';
	if ((size_t)n > d && !strcmp(out + n - d, deleted))
		out[n - d] = '\0';
}

int rc_proc_id_read(pid_t pid, struct rc_proc_id *id)
{
	char path[64], line[1024];
	ssize_t n;
	int ret;

	memset(id, 0, sizeof(*id));
	if (pid <= 0)
		return -ESRCH;
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	n = rc_file_read_small(path, line, sizeof(line));
	if (n == -ENOENT)
		return -ESRCH;
	if (n < 0)
		return (int)n;
	/* The line is about 300 bytes: a full buffer is no stat line. */
	if ((size_t)n >= sizeof(line) - 1)
		return -EPROTO;
	ret = parse_stat(line, id);
	if (ret)
		return ret;
	id->pid = pid;
	read_exe(pid, id->exe, sizeof(id->exe));
	return 0;
}

int rc_proc_id_same(const struct rc_proc_id *a, const struct rc_proc_id *b)
{
	return a->pid == b->pid && a->start == b->start &&
	       !strcmp(a->exe, b->exe);
}

unsigned long long rc_proc_ticks_now(void)
{
	unsigned long long hz = (unsigned long long)sysconf(_SC_CLK_TCK);
	struct timespec ts;

	/* Start times count from boot, suspend included. */
	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (unsigned long long)ts.tv_sec * hz +
	       (unsigned long long)ts.tv_nsec / (1000000000ULL / hz);
}

struct since_ctx {
	const char *comm;
	unsigned long long since;
	struct rc_proc_id *out;
	int max, n;
};

static int find_since(pid_t pid, void *arg)
{
	struct since_ctx *c = arg;
	struct rc_proc_id id;

	if (!rc_proc_is(pid, c->comm) || rc_proc_id_read(pid, &id) ||
	    id.start < c->since)
		return 0;
	if (c->n < c->max)
		c->out[c->n] = id;
	c->n++;
	return 0;
}

int rc_proc_find_since(const char *comm, unsigned long long since,
		       struct rc_proc_id *out, int max)
{
	struct since_ctx c = { comm, since, out, max, 0 };
	int ret = each_pid(find_since, &c);

	return ret < 0 ? ret : c.n;
}

static int pidfd_open(pid_t pid)
{
	return (int)syscall(SYS_pidfd_open, pid, 0);
}

static int pidfd_signal(int pidfd, int sig)
{
	return (int)syscall(SYS_pidfd_send_signal, pidfd, sig, NULL, 0);
}

/* Whether the process behind pidfd is id: its pid's identity read after
 * the pidfd was opened, and the pidfd's process still there after the
 * read, so the two were one process. */
static int pidfd_is(int pidfd, const struct rc_proc_id *id,
		    struct rc_proc_id *now)
{
	int ret = rc_proc_id_read(id->pid, now);

	if (ret == -ESRCH)
		return 0;
	if (ret)
		return ret;
	if (!rc_proc_id_same(id, now))
		return 0;
	if (pidfd_signal(pidfd, 0))
		return errno == ESRCH ? 0 : -errno;
	return 1;
}

/* Waits for the process behind pidfd to exit: 0, -ETIMEDOUT, -errno. */
static int wait_exit(int pidfd, int timeout_ms)
{
	struct pollfd p = { .fd = pidfd, .events = POLLIN };
	int n;

	do
		n = poll(&p, 1, timeout_ms);
	while (n < 0 && errno == EINTR);
	return n > 0 ? 0 : n == 0 ? -ETIMEDOUT : -errno;
}

int rc_proc_stop(const struct rc_proc_id *id, int timeout_ms,
		 struct rc_proc_id *now)
{
	struct rc_proc_id cur;
	int pidfd, ret;

	if (!now)
		now = &cur;
	memset(now, 0, sizeof(*now));
	pidfd = pidfd_open(id->pid);
	if (pidfd < 0)
		return errno == ESRCH ? 1 : -errno;
	ret = pidfd_is(pidfd, id, now);
	if (ret == 0)
		ret = 1;
	else if (ret == 1 && pidfd_signal(pidfd, SIGTERM))
		ret = errno == ESRCH ? 0 : -errno; /* it exited meanwhile */
	else if (ret == 1)
		ret = wait_exit(pidfd, timeout_ms);
	close(pidfd);
	return ret;
}
