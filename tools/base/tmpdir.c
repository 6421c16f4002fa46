// SPDX-License-Identifier: MIT
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rc_log.h"
#include "base/tmpdir.h"

static int check_base(const char *base, const char *name, char *err,
		      size_t errlen)
{
	struct stat st;

	if (stat(base, &st) || !S_ISDIR(st.st_mode)) {
		snprintf(
			err, errlen,
			"%s %s is %s: rdmaio keeps its temporary files there (set TMPDIR to a folder, or unset it for /tmp)",
			name, base,
			errno == ENOENT ? "missing" : "not a folder");
		return -ENOTDIR;
	}
	if ((st.st_mode & S_IWOTH) && !(st.st_mode & S_ISVTX)) {
		snprintf(
			err, errlen,
			"%s %s: every user may write there and it has no sticky bit, so another user could swap rdmaio's temporary files for links (set TMPDIR to a private folder, or chmod +t it)",
			name, base);
		return -EPERM;
	}
	return 0;
}

int rio_tmpdir_base(const char **base, char *err, size_t errlen)
{
	const char *tmp = getenv("TMPDIR");

	*base = tmp && *tmp ? tmp : "/tmp";
	return check_base(*base, tmp && *tmp ? "TMPDIR" : "temporary folder",
			  err, errlen);
}

int rio_tmpdir_new(const char *prefix, size_t max_base, char **dir, char *err,
		   size_t errlen)
{
	const char *base;
	int ret;

	*dir = NULL;
	ret = rio_tmpdir_base(&base, err, errlen);
	if (!ret && strlen(base) > max_base) {
		base = "/tmp";
		ret = check_base(base, "temporary folder", err, errlen);
	}
	if (ret)
		return ret;
	if (asprintf(dir, "%s/rdmaio-%s.XXXXXX", base, prefix) < 0) {
		*dir = NULL;
		return -ENOMEM;
	}
	if (!mkdtemp(*dir)) {
		ret = -errno;
		snprintf(
			err, errlen,
			"could not make a folder in %s: %s (set TMPDIR to a folder it can write to)",
			base, strerror(-ret));
		free(*dir);
		*dir = NULL;
	}
	return ret;
}

/* Where O_TMPFILE is not supported (overlayfs before Linux 6.6, NFS): a
 * file in a private folder of ours, unlinked at once with its folder. */
static int scratch_in_folder(void)
{
	char *dir, *path = NULL, err[512];
	int fd, ret;

	ret = rio_tmpdir_new("scratch", 4000, &dir, err, sizeof(err));
	if (ret) {
		rc_err("%s", err);
		return ret;
	}
	if (asprintf(&path, "%s/out", dir) < 0) {
		path = NULL;
		fd = -ENOMEM;
	} else {
		fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		if (fd < 0) {
			fd = -errno;
			rc_call_err(-fd, "open(%s)", path);
		} else {
			unlink(path);
		}
	}
	if (rmdir(dir))
		rc_warn("left %s (%s): remove it by hand", dir,
			strerror(errno));
	free(path);
	free(dir);
	return fd;
}

int rio_tmpdir_scratch(void)
{
	const char *base;
	char err[512];
	int fd, ret;

	ret = rio_tmpdir_base(&base, err, sizeof(err));
	if (ret) {
		rc_err("%s", err);
		return ret;
	}
	/* No name ever exists, so no one can open or replace it. */
	fd = open(base, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd >= 0)
		return fd;
	ret = -errno;
	if (ret == -EOPNOTSUPP || ret == -EISDIR)
		return scratch_in_folder();
	rc_call_err(-ret, "open(%s, O_TMPFILE)", base);
	return ret;
}
