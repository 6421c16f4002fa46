// SPDX-License-Identifier: MIT
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "daemon.h"
#include "helper.h"
#include "rc_log.h"
#include "rc_proc.h"
#include "rundir.h"
#include "sigdefer.h"
#include "sysfile.h"

/* A record is four short lines: anything longer was not written here. */
#define NR_RECORD_MAX 1024
/* How long a daemon gets to exit after SIGTERM. */
#define NR_STOP_MS 5000
/* More new processes of one name than this is no start of ours alone. */
#define NR_FOUND_MAX 8

/* The daemons nfsrdma starts; a record is named after its daemon. */
static const char *const known[] = { "rpcbind", "rpc.mountd", "rpc.statd" };

static const char *const user_names[] = { "server", "mount" };

struct record {
	struct rc_proc_id id;
	unsigned users; /* enum nr_daemon_user bits */
};

static int is_known(const char *comm)
{
	size_t i;

	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (!strcmp(comm, known[i]))
			return 1;
	return 0;
}

static int parse_users(char *val, unsigned *users)
{
	char *tok, *save;
	size_t i;

	*users = 0;
	for (tok = strtok_r(val, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save)) {
		for (i = 0; i < 2 && strcmp(tok, user_names[i]); i++)
			;
		if (i == 2)
			return -EINVAL;
		*users |= 1u << i;
	}
	return *users ? 0 : -EINVAL;
}

static int parse_num(const char *s, unsigned long long max,
		     unsigned long long *out)
{
	char *end;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	*out = strtoull(s, &end, 10);
	return errno || *end || *out > max ? -EINVAL : 0;
}

struct parse {
	struct record *r;
	unsigned seen;
};

static int record_line(const char *key, char *val, void *arg)
{
	struct parse *p = arg;
	struct record *r = p->r;
	unsigned long long v;
	unsigned bit;

	if (!strcmp(key, "pid") && !parse_num(val, INT_MAX, &v) && v)
		r->id.pid = (pid_t)v, bit = 1;
	else if (!strcmp(key, "start") && !parse_num(val, ULLONG_MAX, &v))
		r->id.start = v, bit = 2;
	else if (!strcmp(key, "exe") && val[0] == '/' &&
		 strlen(val) < sizeof(r->id.exe))
		strcpy(r->id.exe, val), bit = 4;
	else if (!strcmp(key, "users") && !parse_users(val, &r->users))
		bit = 8;
	else
		return -EINVAL;
	if (p->seen & bit)
		return -EINVAL;
	p->seen |= bit;
	return 0;
}

/* "pid N\nstart N\nexe PATH\nusers NAME...\n", every line once. */
static int record_parse(char *buf, struct record *r)
{
	struct parse p = { r, 0 };

	memset(r, 0, sizeof(*r));
	if (nr_rundir_lines(buf, record_line, &p))
		return -EINVAL;
	return p.seen == 15 ? 0 : -EINVAL;
}

static int record_bad(const char *comm, const char *why)
{
	char fix[512];

	snprintf(fix, sizeof(fix),
		 "check by hand whether %s runs and stop it if nfsrdma started "
		 "it, then remove %s/%s",
		 comm, NR_RUN_DIR, comm);
	rc_diag(fix, "%s/%s %s: nfsrdma leaves the daemon alone", NR_RUN_DIR,
		comm, why);
	return -EINVAL;
}

/* 1 with *r read, 0 when comm has no record, -errno after saying why. */
static int record_read(int dirfd, const char *comm, struct record *r)
{
	char buf[NR_RECORD_MAX + 1];
	ssize_t n = nr_rundir_read(dirfd, comm, buf, sizeof(buf));

	if (n == -ENOENT)
		return 0;
	if (n == -ELOOP)
		return record_bad(comm, "is a symbolic link");
	if (n == -EPERM)
		return record_bad(comm, "is not a file of root's");
	if (n == -EFBIG)
		return record_bad(comm, "is longer than any record nfsrdma "
					"writes (1024 bytes)");
	if (n < 0)
		return (int)n;
	if (record_parse(buf, r) || !r->id.pid)
		return record_bad(comm, "is not a record nfsrdma writes");
	return 1;
}

static int record_write(const char *comm, const struct record *r)
{
	char buf[NR_RECORD_MAX];
	int n;

	n = snprintf(buf, sizeof(buf),
		     "pid %d\nstart %llu\nexe %s\nusers%s%s\n", (int)r->id.pid,
		     r->id.start, r->id.exe,
		     r->users & NR_DAEMON_SERVER ? " server" : "",
		     r->users & NR_DAEMON_MOUNT ? " mount" : "");
	if (n < 0 || n >= (int)sizeof(buf))
		return -ENOSPC;
	return nr_rundir_write(comm, buf, (size_t)n);
}

/* The recorded daemon is not there any more: say what has its pid now. */
static void say_gone(const char *comm, const struct record *r,
		     const struct rc_proc_id *now)
{
	/* On stderr: a script reads a command's own result on stdout
	 * ("nfsd started ..."). */
	if (!now->pid) {
		rc_warn("%s (pid %d), which nfsrdma started, had already exited; "
			"its record is removed",
			comm, (int)r->id.pid);
		return;
	}
	rc_warn("%s/%s names pid %d, which is now another process (%s, %s, "
		"started at tick %llu, not %s started at %llu): left alone, "
		"and the record removed",
		NR_RUN_DIR, comm, (int)r->id.pid, now->comm,
		now->exe[0] ? now->exe : "no executable", now->start, r->id.exe,
		r->id.start);
}

/* Of several processes of the name that began with the start, the daemon
 * is the one whose parent is none of them (rpc.mountd forks workers). */
static int pick_daemon(const struct rc_proc_id *found, int n)
{
	int i, j, pick = -1;

	for (i = 0; i < n && n <= NR_FOUND_MAX; i++) {
		for (j = 0; j < n && found[j].pid != found[i].ppid; j++)
			;
		if (j < n)
			continue;
		if (pick >= 0)
			return -1;
		pick = i;
	}
	return pick;
}

static void stop_found(const struct rc_proc_id *found, int n)
{
	int i;

	for (i = 0; i < n && i < NR_FOUND_MAX; i++)
		rc_proc_stop(&found[i], NR_STOP_MS, NULL);
}

/* Starts argv[0] and records the process it left in the background. */
static int start_and_record(char *const argv[], const char *why, unsigned user,
			    int *added)
{
	struct rc_proc_id found[NR_FOUND_MAX];
	struct record r = { .users = user };
	unsigned long long since = rc_proc_ticks_now();
	char fix[160];
	int ret, n, i;

	/* Their state folders come from systemd-tmpfiles and the package
	 * scripts, which a minimal system may lack. */
	if (!strcmp(argv[0], "rpcbind"))
		mkdir("/run/rpcbind", 0755);
	ret = nr_spawn_wait(argv);
	if (ret == -ENOENT)
		return ret;
	/* Under the lock no other nfsrdma starts one; none ran before. */
	n = rc_proc_find_since(argv[0], since, found, NR_FOUND_MAX);
	i = ret == 0 && n > 0 ? pick_daemon(found, n) : -1;
	if (i >= 0) {
		r.id = found[i];
		ret = record_write(argv[0], &r);
		*added = !ret;
		if (ret)
			stop_found(found, n);
		return ret;
	}
	if (ret == 0 && n > 1) {
		rc_warn("%s started, but %d processes of that name began "
			"meanwhile and nfsrdma cannot tell its own: none is "
			"recorded, and nfsrdma will not stop it",
			argv[0], n);
		return 0;
	}
	/* Failed, yet its daemon may have forked: ours, so stopped. */
	stop_found(found, n);
	snprintf(fix, sizeof(fix),
		 "install nfs-kernel-server/nfs-common/rpcbind and run '%s' to "
		 "see why",
		 argv[0]);
	rc_diag(fix, "%s (%s) did not start (status %d)", argv[0], why, ret);
	return ret < 0 ? ret : -ESRCH;
}

static int use_locked(int dirfd, char *const argv[], const char *why,
		      unsigned user, int *added)
{
	struct rc_proc_id now;
	struct record r;
	int ret;

	ret = record_read(dirfd, argv[0], &r);
	if (ret < 0)
		return ret;
	if (ret == 1) {
		ret = rc_proc_id_read(r.id.pid, &now);
		if (ret && ret != -ESRCH) {
			rc_call_err(ret, "reading /proc/%d", (int)r.id.pid);
			return ret;
		}
		if (!ret && rc_proc_id_same(&r.id, &now)) {
			if (r.users & user)
				return 0;
			r.users |= user;
			ret = record_write(argv[0], &r);
			*added = !ret;
			return ret;
		}
		say_gone(argv[0], &r, &now);
		ret = nr_rundir_remove(dirfd, argv[0]);
		if (ret)
			return ret;
	}
	/* Someone else's: it stays theirs. */
	if (rc_proc_running(argv[0]))
		return 0;
	return start_and_record(argv, why, user, added);
}

static int with_records(int create, const char *comm,
			int (*fn)(int dirfd, void *arg), void *arg)
{
	return is_known(comm) ? nr_rundir_locked(create, fn, arg) : -EINVAL;
}

struct use_args {
	char *const *argv;
	const char *why;
	unsigned user;
	int *added;
};

static int use_cb(int dirfd, void *arg)
{
	struct use_args *a = arg;

	return use_locked(dirfd, a->argv, a->why, a->user, a->added);
}

int nr_daemon_use(char *const argv[], const char *why, enum nr_daemon_user user,
		  int *added)
{
	struct use_args a = { argv, why, user, added };

	*added = 0;
	return with_records(1, argv[0], use_cb, &a);
}

static const char *users_str(unsigned users)
{
	return users == NR_DAEMON_SERVER  ? "the server"
	       : users == NR_DAEMON_MOUNT ? "NFSv3 mounts"
					  : "the server and NFSv3 mounts";
}

struct release_args {
	const char *comm;
	unsigned user;
};

static int release_cb(int dirfd, void *arg)
{
	struct release_args *a = arg;
	struct rc_proc_id now;
	struct record r;
	int ret;

	ret = record_read(dirfd, a->comm, &r);
	if (ret <= 0 || !(r.users & a->user))
		return ret < 0 ? ret : 0;
	r.users &= ~a->user;
	if (r.users) {
		ret = record_write(a->comm, &r);
		if (!ret)
			printf("%s (pid %d) keeps running for %s\n", a->comm,
			       (int)r.id.pid, users_str(r.users));
		return ret;
	}
	ret = rc_proc_stop(&r.id, NR_STOP_MS, &now);
	if (ret == -ETIMEDOUT) {
		rc_diag("run the command again, or end it: kill -KILL PID",
			"%s (pid %d), which nfsrdma started, did not exit "
			"within %d s of SIGTERM; its record is kept",
			a->comm, (int)r.id.pid, NR_STOP_MS / 1000);
		return ret;
	}
	if (ret < 0) {
		rc_call_err(ret, "stopping %s (pid %d)", a->comm,
			    (int)r.id.pid);
		return ret;
	}
	if (ret == 0)
		printf("stopped %s (pid %d), which nfsrdma started for %s\n",
		       a->comm, (int)r.id.pid, users_str(a->user));
	else
		say_gone(a->comm, &r, &now);
	return nr_rundir_remove(dirfd, a->comm);
}

int nr_daemon_release(const char *comm, enum nr_daemon_user user)
{
	struct release_args a = { comm, user };

	return with_records(0, comm, release_cb, &a);
}

void nr_daemon_print(void)
{
	struct rc_proc_id now;
	struct record r;
	int dirfd, any = 0;
	size_t i;

	if (nr_rundir_open(0, &dirfd) || dirfd < 0) {
		printf("started by nfsrdma: none\n");
		return;
	}
	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		if (record_read(dirfd, known[i], &r) != 1)
			continue;
		printf("%s%s pid %d for %s%s",
		       any ? ", " : "started by nfsrdma: ", known[i],
		       (int)r.id.pid, users_str(r.users),
		       rc_proc_id_read(r.id.pid, &now) ||
				       !rc_proc_id_same(&r.id, &now)
			       ? " (gone)"
			       : "");
		any = 1;
	}
	printf("%s\n", any ? "" : "started by nfsrdma: none");
	close(dirfd);
}
