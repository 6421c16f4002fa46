// SPDX-License-Identifier: MIT
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "run/fioserver.h"
#include "rc_log.h"
#include "rc_spawn.h"
#include "base/tmpdir.h"

/* fio --server needs well under a second; the lab's emulated CPU, more. */
#define START_TIMEOUT_MS 20000

struct rio_fioserver {
	pid_t pid;
	char dir[64];
	char sock[96];
	char client[104];
};

/* 0 once something accepts connections on path. */
static int sock_ready(const char *path)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0), ret = 0;

	if (fd < 0)
		return -errno;
	snprintf(a.sun_path, sizeof(a.sun_path), "%s", path);
	if (connect(fd, (struct sockaddr *)&a, sizeof(a)))
		ret = -errno;
	close(fd);
	return ret;
}

static int wait_ready(struct rio_fioserver *s, const char *fio)
{
	int status, waited;

	for (waited = 0; waited < START_TIMEOUT_MS; waited += 20) {
		if (!sock_ready(s->sock))
			return 0;
		if (!rc_spawn_running(s->pid, &status)) {
			s->pid = 0;
			rc_err("local fio server: '%s --server=%s' exited with status %d before it listened (its messages are above; check that fio runs)",
			       fio, s->client,
			       WIFEXITED(status) ? WEXITSTATUS(status)
						 : 128 + WTERMSIG(status));
			return -EIO;
		}
		usleep(20000);
	}
	rc_err("local fio server: '%s --server=%s' did not listen within %d s: stopped it",
	       fio, s->client, START_TIMEOUT_MS / 1000);
	return -ETIMEDOUT;
}

int rio_fioserver_start(const char *fio, struct rio_fioserver **srv)
{
	struct rio_fioserver *s = calloc(1, sizeof(*s));
	char opt[128], *argv[] = { (char *)fio, opt, NULL }, *dir, err[512];
	int devnull, ret;

	*srv = NULL;
	if (!s)
		return -ENOMEM;
	/* A short path: a socket's fits in 108 bytes. The folder is 0700:
	 * fio's protocol has no authentication, the socket's mode is all
	 * that keeps other users from sending it jobs. */
	ret = rio_tmpdir_new("fio", 40, &dir, err, sizeof(err));
	if (ret) {
		rc_err("local fio server: %s", err);
		free(s);
		return ret;
	}
	snprintf(s->dir, sizeof(s->dir), "%s", dir);
	free(dir);
	snprintf(s->sock, sizeof(s->sock), "%s/fio.sock", s->dir);
	snprintf(s->client, sizeof(s->client), "sock:%s", s->sock);
	snprintf(opt, sizeof(opt), "--server=%s", s->client);
	/* Its stdout only says it listens; errors go to stderr. */
	devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
	ret = rc_spawn_start(argv, devnull, -1, &s->pid);
	if (devnull >= 0)
		close(devnull);
	if (!ret)
		ret = wait_ready(s, fio);
	if (ret) {
		rio_fioserver_stop(&s);
		return ret;
	}
	*srv = s;
	return 0;
}

const char *rio_fioserver_client(const struct rio_fioserver *s)
{
	return s->client;
}

void rio_fioserver_stop(struct rio_fioserver **srv)
{
	struct rio_fioserver *s = srv ? *srv : NULL;

	if (!s)
		return;
	if (s->pid > 0)
		rc_spawn_stop(s->pid, 5);
	if (unlink(s->sock) && errno != ENOENT)
		rc_call_err(errno, "unlink(%s)", s->sock);
	if (rmdir(s->dir))
		rc_call_err(errno, "rmdir(%s)", s->dir);
	free(s);
	*srv = NULL;
}
