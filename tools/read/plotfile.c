// SPDX-License-Identifier: MIT
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "read/plotfile.h"
#include "base/tmpdir.h"
#include "rc_file.h"
#include "rc_log.h"
#include "rc_spawn.h"

static int check_path(const char *path, int *svg)
{
	const char *ext = strrchr(path, '.');

	if (!ext || (strcmp(ext, ".svg") && strcmp(ext, ".png"))) {
		rc_err("plot %s: name must end in .svg or .png (that picks the format)",
		       path);
		return -EINVAL;
	}
	*svg = !strcmp(ext, ".svg");
	return 0;
}

/* The image gnuplot drew: larger is no chart of ours. */
#define IMAGE_MAX_BYTES (256 << 20)

/* gnuplot draws into its private folder; the image then replaces path as
 * any result does (a hidden temporary, fsync, rename), so nothing is
 * written through a link at path and a failure leaves path as it was. */
static int render(const char *script, const char *img, const char *path)
{
	char *argv[] = { "gnuplot", (char *)script, NULL }, *bytes = NULL;
	size_t len = 0;
	int ret = rc_spawn_run(argv, 2, 120);

	if (ret) {
		rc_err("plot %s: gnuplot failed (%s); install gnuplot-nox",
		       path,
		       ret < 0 ? strerror(-ret) : "see its message above");
		return -EIO;
	}
	ret = rc_file_read(img, &bytes, &len, IMAGE_MAX_BYTES);
	if (ret || !len) {
		rc_err("plot %s: gnuplot wrote no image%s%s", path,
		       ret ? ": " : "", ret ? strerror(-ret) : "");
		free(bytes);
		return -EIO;
	}
	ret = rc_file_replace(path, bytes, len, 0644);
	free(bytes);
	return ret;
}

/* A new file in the private folder, for writing. */
static int open_new(const char *path, FILE **f)
{
	int fd = open(path,
		      O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		      0600),
	    ret;

	if (fd < 0) {
		ret = -errno;
		rc_call_err(-ret, "open(%s)", path);
		return ret;
	}
	*f = fdopen(fd, "w");
	if (!*f) {
		ret = -errno;
		close(fd);
		return ret;
	}
	return 0;
}

/* Draws into dir (data, script, image), then replaces path. */
static int draw_in(const char *dir, const char *path, int svg,
		   rio_plot_write_fn write, void *arg)
{
	char data[4096], script[4096], img[4096];
	FILE *fd = NULL, *fs = NULL;
	int ret;

	snprintf(data, sizeof(data), "%s/chart.dat", dir);
	snprintf(script, sizeof(script), "%s/chart.gp", dir);
	snprintf(img, sizeof(img), "%s/chart%s", dir, svg ? ".svg" : ".png");
	ret = open_new(data, &fd);
	if (!ret)
		ret = open_new(script, &fs);
	if (!ret) {
		ret = write(arg, fd, data, fs, img, svg);
		if (ret == -ENOMEM)
			rc_err("plot %s: out of memory", path);
	}
	/* Both close, whatever the first gave. */
	if (fd && fclose(fd))
		ret = ret ? ret : -EIO;
	if (fs && fclose(fs))
		ret = ret ? ret : -EIO;
	if (!ret)
		ret = render(script, img, path);
	unlink(img);
	unlink(script);
	unlink(data);
	return ret;
}

int rio_plot_file(const char *path, rio_plot_write_fn write, void *arg)
{
	char *dir, err[512];
	int svg, ret;

	ret = check_path(path, &svg);
	if (ret)
		return ret;
	ret = rio_tmpdir_new("plot", 4000, &dir, err, sizeof(err));
	if (ret) {
		rc_err("plot %s: %s", path, err);
		return ret;
	}
	ret = draw_in(dir, path, svg, write, arg);
	if (rmdir(dir))
		rc_warn("plot %s: left %s (%s): remove it by hand", path, dir,
			strerror(errno));
	free(dir);
	return ret;
}
