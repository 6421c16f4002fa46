// SPDX-License-Identifier: MIT
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rc_log.h"
#include "tmpdir.h"

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
	if (fd < 0) {
		ret = -errno;
		if (ret == -EOPNOTSUPP || ret == -EISDIR)
			rc_err("%s: its filesystem cannot make unnamed files (O_TMPFILE), which rdmaio keeps fio's output in (set TMPDIR to a folder on a local filesystem, such as /tmp)",
			       base);
		else
			rc_call_err(-ret, "open(%s, O_TMPFILE)", base);
		return ret;
	}
	return fd;
}
