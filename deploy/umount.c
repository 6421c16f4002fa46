// SPDX-License-Identifier: MIT
/*
 * What is unmounted is what was checked. The mountpoint's folder is opened
 * and must resolve to the very path named (no symbolic link on the way);
 * the last name is opened in it without following a link, its mount found by
 * the mount id of that open file, and umount2(NAME, UMOUNT_NOFOLLOW) is
 * called from inside that folder: renaming or linking a folder on the way
 * after the check cannot make it unmount another mount, and a mountpoint
 * cannot be renamed or replaced while it is mounted. The open file is
 * closed first, since it would hold the mount busy. None of this asks the
 * NFS server anything, so a dead server's mount cannot hang it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "daemon.h"
#include "rc_file.h"
#include "rc_log.h"
#include "rc_mounts.h"
#include "sysfile.h"
#include "umount.h"

/* A link's text as a message may show it: no control bytes. */
static void printable(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < ' ' || *s == 0x7f)
			*s = '?';
}

static int refuse_link(const char *mp, const char *to, int last)
{
	const char *how = last ? "is a symbolic link to"
			       : "leads through a symbolic link to";
	char fix[1200];

	snprintf(fix, sizeof(fix),
		 "name the mountpoint itself%s%.1000s (findmnt -t nfs,nfs4 "
		 "lists them)",
		 last ? "" : ", e.g. ", last ? "" : to);
	rc_diag(fix,
		"umount %s: %s %.1000s: nfsrdma umount follows no symbolic "
		"link, so that a link cannot make it unmount something not "
		"named",
		mp, how, to);
	return -ELOOP;
}

/* 0 when dirfd, opened from dir, is dir itself, else refused: a symbolic
 * link on the way led elsewhere. */
static int check_dir(int dirfd, const char *dir, const char *mp,
		     const char *base)
{
	char self[64], at[4096], to[4200];
	ssize_t n;

	snprintf(self, sizeof(self), "/proc/self/fd/%d", dirfd);
	n = readlink(self, at, sizeof(at) - 1);
	if (n < 0) {
		n = -errno;
		rc_call_err((int)n, "readlink(%s) (%s)", self, dir);
		return (int)n;
	}
	at[n] = '\0';
	if (!strcmp(at, dir))
		return 0;
	printable(at);
	snprintf(to, sizeof(to), "%s%s%s", at, strcmp(at, "/") ? "/" : "",
		 base);
	return refuse_link(mp, to, 0);
}

/* 0 when fd, opened without following, is no symbolic link. */
static int check_not_link(int fd, const char *mp)
{
	char at[4096];
	ssize_t n;

	n = readlinkat(fd, "", at, sizeof(at) - 1);
	if (n < 0)
		return 0;
	at[n] = '\0';
	printable(at);
	return refuse_link(mp, at, 1);
}

/* The mount id of an open file, from /proc/self/fdinfo. */
static int mount_id_of(int fd)
{
	char path[64], info[1024], *p;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	n = rc_file_read_small(path, info, sizeof(info));
	if (n < 0) {
		rc_call_err((int)n, "reading %s", path);
		return (int)n;
	}
	p = strstr(info, "\nmnt_id:");
	if (!p) {
		rc_diag(NULL, "%s has no mnt_id line", path);
		return -EPROTO;
	}
	return atoi(p + 8);
}

static int is_nfs(const char *fstype)
{
	return !strcmp(fstype, "nfs") || !strcmp(fstype, "nfs4");
}

/* umount2(base) from inside dirfd, then back to where it was. */
static int unmount_in(int dirfd, const char *base, const char *mp,
		      const struct rc_mount_ent *m)
{
	char fix[1200];
	int here, ret = 0;

	here = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (here < 0 || fchdir(dirfd)) {
		ret = -errno;
		rc_call_err(ret, "changing into the folder of %s", mp);
	} else if (umount2(base, UMOUNT_NOFOLLOW)) {
		ret = -errno;
	}
	if (here >= 0 && fchdir(here))
		rc_warn("could not go back to the working folder: %s",
			strerror(errno));
	if (here >= 0)
		close(here);
	if (!ret) {
		printf("unmounted %s (%s)\n", mp, m->source);
		return 0;
	}
	snprintf(fix, sizeof(fix),
		 "stop the processes using it (fuser -vm '%.1000s') and retry",
		 mp);
	if (ret == -EBUSY)
		rc_diag(fix, "umount %s: it is busy", mp);
	else
		rc_call_err(ret, "umount2(%s, UMOUNT_NOFOLLOW)", mp);
	return ret;
}

/* The mount of base in dirfd: 1 with *m when base is its mountpoint, 0
 * when base is no mountpoint (or not there), -errno after saying why. */
static int mount_of(int dirfd, const char *base, const char *mp,
		    struct rc_mount_ent *m)
{
	int fd, id, ret;

	fd = openat(dirfd, base, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 && (errno == ENOENT || errno == ENOTDIR))
		return 0;
	if (fd < 0) {
		ret = -errno;
		rc_call_err(ret, "open(%s, O_PATH | O_NOFOLLOW)", mp);
		return ret;
	}
	ret = check_not_link(fd, mp);
	id = ret ? ret : mount_id_of(fd);
	/* Open, it would keep the mount busy. */
	close(fd);
	if (id < 0)
		return id;
	ret = rc_mounts_find_id(nr_test_root(), id, m);
	if (ret <= 0) {
		rc_call_err(ret ? ret : -ENOENT,
			    "looking up mount %d of %s in /proc/self/mountinfo",
			    id, mp);
		return ret ? ret : -ENOENT;
	}
	/* A folder on the mount of its parent: no mountpoint. */
	return !strcmp(m->mountpoint, mp);
}

/* 1 when mp was unmounted here, 0 when it was no mountpoint, -errno. */
static int unmount_checked(int dirfd, const char *dir, const char *base,
			   const char *mp)
{
	struct rc_mount_ent m;
	char fix[1200];
	int ret;

	ret = check_dir(dirfd, dir, mp, base);
	if (!ret)
		ret = mount_of(dirfd, base, mp, &m);
	if (ret <= 0)
		return ret;
	if (!is_nfs(m.fstype)) {
		snprintf(fix, sizeof(fix), "use umount(8): umount '%.1000s'",
			 mp);
		rc_diag(fix,
			"%s is a %s mount (of %s), not NFS: nfsrdma umount "
			"only removes NFS mounts",
			mp, m.fstype, m.source);
		return -EMEDIUMTYPE;
	}
	ret = unmount_in(dirfd, base, mp, &m);
	return ret ? ret : 1;
}

static int any_v3(const struct rc_mount_ent *m, void *arg)
{
	(void)arg;
	return !strcmp(m->fstype, "nfs");
}

/* The last NFSv3 mount gone, the daemons the mounts started go too. */
static int release_v3_daemons(void)
{
	int ret = rc_mounts_foreach(nr_test_root(), any_v3, NULL), ret2;

	if (ret)
		return ret < 0 ? ret : 0;
	ret = nr_daemon_release("rpc.statd", NR_DAEMON_MOUNT);
	ret2 = nr_daemon_release("rpcbind", NR_DAEMON_MOUNT);
	return ret ? ret : ret2;
}

int nr_umount(const char *mp)
{
	const char *slash = strrchr(mp, '/');
	char dir[4096];
	int dirfd, ret;

	if (!slash || !slash[1]) {
		rc_diag("name an NFS mountpoint",
			"umount %s: nfsrdma umount does not unmount the root "
			"file system",
			mp);
		return -EMEDIUMTYPE;
	}
	snprintf(dir, sizeof(dir), "%.*s", slash == mp ? 1 : (int)(slash - mp),
		 mp);
	dirfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0 && errno != ENOENT && errno != ENOTDIR) {
		ret = -errno;
		rc_call_err(ret, "open(%s, O_PATH)", dir);
		return ret;
	}
	ret = dirfd < 0 ? 0 : unmount_checked(dirfd, dir, slash + 1, mp);
	if (dirfd >= 0)
		close(dirfd);
	if (ret == 0)
		printf("%s is not mounted\n", mp);
	return ret < 0 ? ret : release_v3_daemons();
}
