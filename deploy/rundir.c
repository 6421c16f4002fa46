// SPDX-License-Identifier: MIT
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rc_log.h"
#include "rundir.h"
#include "sigdefer.h"
#include "sysfile.h"

static int rundir_refuse(const char *path, int err, const struct stat *st)
{
	char fix[2200];

	if (st) {
		snprintf(
			fix, sizeof(fix),
			"check the records in it, then 'chown root:root %.1000s "
			"&& chmod 0700 %.1000s', or remove it",
			path, path);
		rc_diag(fix,
			"%s is owned by uid %u with mode %04o: nfsrdma keeps "
			"its records (the daemons it started, the settings it "
			"changed) only in a folder of root's with mode 0700, "
			"where no one else can change what it will stop or "
			"write",
			path, (unsigned)st->st_uid,
			(unsigned)(st->st_mode & 07777));
		return -EPERM;
	}
	snprintf(fix, sizeof(fix),
		 "see what it is (ls -ld %.1000s) and remove it: nfsrdma "
		 "makes it again, root's and mode 0700",
		 path);
	rc_diag(fix,
		"%s, where nfsrdma records the daemons it started and the "
		"settings it changed, is %s: "
		"refused, since root would follow it",
		path,
		err == -ELOOP	  ? "a symbolic link"
		: err == -ENOTDIR ? "not a folder"
				  : strerror(-err));
	return err;
}

/* Opens the records' folder (made when create): *fd is -1 when it does not
 * exist and create is 0. */
int nr_rundir_open(int create, int *fd)
{
	char path[4096];
	struct stat st;
	int ret, made;

	*fd = -1;
	ret = nr_path(path, sizeof(path), NR_RUN_DIR);
	if (ret)
		return ret;
	made = create && !mkdir(path, 0700);
	if (create && !made && errno != EEXIST) {
		ret = -errno;
		rc_call_err(ret, "mkdir(%s, 0700)", path);
		return ret;
	}
	/* A new folder gets 0700 whatever the umask took away. */
	if (made && chmod(path, 0700)) {
		ret = -errno;
		rc_call_err(ret, "chmod(%s, 0700)", path);
		return ret;
	}
	*fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (*fd < 0 && !create && errno == ENOENT)
		return 0;
	if (*fd < 0) {
		ret = -errno;
		/* O_DIRECTORY says ENOTDIR of a link before O_NOFOLLOW can
		 * say ELOOP. */
		if (!lstat(path, &st) && S_ISLNK(st.st_mode))
			ret = -ELOOP;
		return rundir_refuse(path, ret, NULL);
	}
	if (fstat(*fd, &st)) {
		ret = -errno;
		rc_call_err(ret, "fstat(%s)", path);
	} else if (st.st_uid != geteuid() || (st.st_mode & 07777) != 0700) {
		ret = rundir_refuse(path, 0, &st);
	}
	if (ret) {
		close(*fd);
		*fd = -1;
	}
	return ret;
}

ssize_t nr_rundir_read(int dirfd, const char *name, char *buf, size_t len)
{
	struct stat st;
	ssize_t n;
	int fd, ret;

	/* O_NONBLOCK: a FIFO put there must not hang root. */
	fd = openat(dirfd, name,
		    O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0 && (errno == ENOENT || errno == ELOOP))
		return -errno;
	if (fd < 0 || fstat(fd, &st)) {
		ret = -errno;
		rc_call_err(ret, "reading %s/%s", NR_RUN_DIR, name);
		if (fd >= 0)
			close(fd);
		return ret;
	}
	if (!S_ISREG(st.st_mode) || st.st_uid != geteuid()) {
		close(fd);
		return -EPERM;
	}
	n = read(fd, buf, len);
	ret = -errno;
	close(fd);
	if (n < 0) {
		rc_call_err(ret, "read(%s/%s)", NR_RUN_DIR, name);
		return ret;
	}
	if ((size_t)n >= len)
		return -EFBIG;
	buf[n] = '\0';
	return n;
}

int nr_rundir_lines(char *text,
		    int (*fn)(const char *key, char *val, void *arg), void *arg)
{
	char *line, *val, *save;
	int ret;

	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		val = strchr(line, ' ');
		if (!val)
			return -EINVAL;
		*val++ = '\0';
		ret = fn(line, val, arg);
		if (ret)
			return ret;
	}
	return 0;
}

int nr_rundir_write(const char *name, const char *data, size_t len)
{
	char path[128];
	int n = snprintf(path, sizeof(path), "%s/%s", NR_RUN_DIR, name);

	if (n < 0 || (size_t)n >= sizeof(path))
		return -ENAMETOOLONG;
	return nr_file_replace(path, data, len, 0600);
}

int nr_rundir_remove(int dirfd, const char *name)
{
	int ret;

	if (!unlinkat(dirfd, name, 0) || errno == ENOENT)
		return 0;
	ret = -errno;
	rc_call_err(ret, "unlink(%s/%s)", NR_RUN_DIR, name);
	return ret;
}

int nr_rundir_locked(int create, int (*fn)(int dirfd, void *arg), void *arg)
{
	int dirfd, lock = -1, ret;

	nr_sigdefer_begin();
	ret = nr_rundir_open(create, &dirfd);
	if (!ret && dirfd >= 0) {
		lock = nr_file_lock(NR_RUN_DIR "/lock");
		ret = lock < 0 ? lock : fn(dirfd, arg);
	}
	if (lock >= 0)
		close(lock);
	if (dirfd >= 0)
		close(dirfd);
	nr_sigdefer_end();
	return ret;
}
