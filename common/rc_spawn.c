// SPDX-License-Identifier: MIT
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "rc_file.h"
#include "rc_log.h"
#include "rc_spawn.h"

extern char **environ;

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int rc_helper_path(const char *name, char *out, size_t len)
{
	const char *dir = RC_HELPER_DIRS, *end;
	struct stat st;
	int n;

	if (!name[0] || strchr(name, '/'))
		return -EINVAL;
	for (; *dir; dir = *end ? end + 1 : end) {
		end = strchrnul(dir, ':');
		n = snprintf(out, len, "%.*s/%s", (int)(end - dir), dir, name);
		if (n < 0 || (size_t)n >= len)
			return -ENAMETOOLONG;
		if (!stat(out, &st) && S_ISREG(st.st_mode) &&
		    !access(out, X_OK))
			return 0;
	}
	return -ENOENT;
}

/* How a child starts: path NULL searches PATH for argv[0]; env NULL passes
 * ours on. */
struct child {
	const char *path;
	char *const *env;
	int out_fd, err_fd; /* -1: inherit */
};

/*
 * A child starts in a process group of its own, so a timeout also stops
 * its children (fio's job processes) and Ctrl-C at the terminal reaches
 * this program, which decides what to stop or undo, and not a helper
 * half-way through its work. It starts with no signal held, even while
 * the caller holds them, and the usual ones at their defaults.
 */
static int attr_set(posix_spawnattr_t *attr)
{
	static const int dfl_sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT,
					SIGPIPE };
	sigset_t none, dfl;
	unsigned i;
	int ret;

	sigemptyset(&none);
	sigemptyset(&dfl);
	for (i = 0; i < sizeof(dfl_sigs) / sizeof(dfl_sigs[0]); i++)
		sigaddset(&dfl, dfl_sigs[i]);
	ret = posix_spawnattr_setsigmask(attr, &none);
	if (!ret)
		ret = posix_spawnattr_setsigdefault(attr, &dfl);
	if (!ret)
		ret = posix_spawnattr_setpgroup(attr, 0);
	if (!ret)
		ret = posix_spawnattr_setflags(
			attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF |
				      POSIX_SPAWN_SETPGROUP);
	return ret;
}

static int start_child(char *const argv[], const struct child *c, pid_t *pid)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	char *const *env = c->env ? c->env : environ;
	int ret;

	ret = posix_spawn_file_actions_init(&fa);
	if (ret)
		return -ret;
	ret = posix_spawnattr_init(&attr);
	if (ret) {
		posix_spawn_file_actions_destroy(&fa);
		return -ret;
	}
	ret = attr_set(&attr);
	if (!ret)
		ret = posix_spawn_file_actions_addopen(&fa, 0, "/dev/null",
						       O_RDONLY, 0);
	if (!ret && c->out_fd >= 0)
		ret = posix_spawn_file_actions_adddup2(&fa, c->out_fd, 1);
	if (!ret && c->err_fd >= 0)
		ret = posix_spawn_file_actions_adddup2(&fa, c->err_fd, 2);
	if (!ret)
		ret = c->path ? posix_spawn(pid, c->path, &fa, &attr, argv, env)
			      : posix_spawnp(pid, argv[0], &fa, &attr, argv,
					     env);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&attr);
	return -ret;
}

static int start(char *const argv[], int out_fd, int err_fd, pid_t *pid)
{
	struct child c = { .out_fd = out_fd, .err_fd = err_fd };

	return start_child(argv, &c, pid);
}

/*
 * Polls rather than blocking in waitpid so that a hung child (an RDMA peer
 * that never answers) cannot hang rdmaio: after the deadline it gets SIGTERM,
 * then SIGKILL two seconds later.
 */
static volatile sig_atomic_t stop_signal;
static int defer_signal;
static struct sigaction deferred_old[3];

static void on_stop(int sig)
{
	stop_signal = sig;
}

/*
 * The child has its own process group, so the terminal's Ctrl-C does not
 * reach it: pass such signals on while waiting.
 */
static void forward_signals(struct sigaction *old, int install)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa = { .sa_handler = on_stop };
	unsigned i;

	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		if (install)
			sigaction(sigs[i], &sa, &old[i]);
		else
			sigaction(sigs[i], &old[i], NULL);
	}
}

/*
 * Sleeps ms, or less when the child ends first: its pidfd turns readable
 * then, so the caller's clock after reap() is the child's end (a timed
 * --baseline) without waking up more often on the host being measured.
 */
static void wait_child(int pidfd, int ms)
{
	struct pollfd p = { .fd = pidfd, .events = POLLIN };

	if (pidfd < 0 || poll(&p, 1, ms) < 0)
		usleep(ms * 1000);
}

static int reap(pid_t pid, unsigned timeout_s, const char *name,
		void (*tick)(void *), void *arg)
{
	double deadline = timeout_s ? now_s() + timeout_s : 0;
	int poll_mode = timeout_s || tick;
	int status, termed = 0, forwarded = 0;
	int pidfd = poll_mode ? (int)syscall(SYS_pidfd_open, pid, 0) : -1;
	struct sigaction old[3];
	pid_t r;

	if (!defer_signal)
		stop_signal = 0;
	forward_signals(old, 1);
	for (;;) {
		if (stop_signal && !forwarded) {
			kill(-pid, stop_signal);
			forwarded = 1;
		}
		r = waitpid(pid, &status, poll_mode ? WNOHANG : 0);
		if (r == pid)
			break;
		if (r < 0 && errno != EINTR) {
			int err = errno;

			rc_call_err(err, "waitpid(%d)", (int)pid);
			forward_signals(old, 0);
			if (pidfd >= 0)
				close(pidfd);
			return -err;
		}
		if (timeout_s && now_s() > deadline) {
			if (!termed) {
				rc_err("%s did not finish within %u s: stopping it (raise --timeout if it needs longer)",
				       name, timeout_s);
				kill(-pid, SIGTERM);
				termed = 1;
				deadline = now_s() + 2;
			} else {
				kill(-pid, SIGKILL);
			}
		}
		if (tick)
			tick(arg);
		if (poll_mode)
			wait_child(pidfd, tick ? 100 : 20);
	}
	if (pidfd >= 0)
		close(pidfd);
	forward_signals(old, 0);
	if (stop_signal && !defer_signal)
		raise(stop_signal);
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}

int rc_spawn_run(char *const argv[], int out_fd, unsigned timeout_s)
{
	return rc_spawn_run_tick(argv, out_fd, timeout_s, NULL, NULL);
}

int rc_spawn_run_tick(char *const argv[], int out_fd, unsigned timeout_s,
		      void (*tick)(void *), void *arg)
{
	pid_t pid;
	int ret;

	ret = start(argv, out_fd, -1, &pid);
	if (ret) {
		rc_call_err(-ret, "posix_spawnp(%s)", argv[0]);
		return ret;
	}
	return reap(pid, timeout_s, argv[0], tick, arg);
}

int rc_spawn_helper(const char *path, char *const argv[])
{
	static char *const clean_env[] = { "PATH=" RC_HELPER_DIRS, "LC_ALL=C",
					   NULL };
	struct child c = {
		.path = path, .env = clean_env, .out_fd = -1, .err_fd = -1
	};
	pid_t pid;
	int ret;

	ret = start_child(argv, &c, &pid);
	if (ret) {
		rc_call_err(-ret, "posix_spawn(%s)", path);
		return ret;
	}
	return reap(pid, 0, path, NULL, NULL);
}

/* A timeout in seconds as rc_file_read_stream takes it: 0 is none, and
 * beyond INT_MAX ms (24 days) the limit is as good as none. */
static int limit_ms(unsigned timeout_s)
{
	if (!timeout_s)
		return -1;
	return timeout_s > INT_MAX / 1000 ? INT_MAX : (int)timeout_s * 1000;
}

int rc_spawn_capture(char *const argv[], char **out, size_t max,
		     unsigned timeout_s, int keep_stderr)
{
	int devnull, ret;

	if (keep_stderr)
		return rc_spawn_capture_fd(argv, out, max, timeout_s, -1);
	devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (devnull < 0) {
		*out = NULL;
		return -errno;
	}
	ret = rc_spawn_capture_fd(argv, out, max, timeout_s, devnull);
	close(devnull);
	return ret;
}

int rc_spawn_capture_fd(char *const argv[], char **out, size_t max,
			unsigned timeout_s, int err_fd)
{
	int fds[2], ret, rret;
	pid_t pid;

	*out = NULL;
	if (pipe2(fds, O_CLOEXEC))
		return -errno;
	ret = start(argv, fds[1], err_fd, &pid);
	close(fds[1]);
	if (ret) {
		close(fds[0]);
		return ret;
	}
	rret = rc_file_read_stream(fds[0], out, NULL, limit_ms(timeout_s), max);
	close(fds[0]);
	/* A child that would not stop talking is not waited for either. */
	if (rret == -ETIMEDOUT || rret == -EFBIG)
		kill(-pid, SIGKILL);
	ret = reap(pid, timeout_s, argv[0], NULL, NULL);
	if (rret) {
		free(*out);
		*out = NULL;
		return rret;
	}
	return ret;
}

int rc_spawn_start(char *const argv[], int out_fd, int err_fd, pid_t *pid)
{
	int ret = start(argv, out_fd, err_fd, pid);

	if (ret)
		rc_call_err(-ret, "posix_spawnp(%s)", argv[0]);
	return ret;
}

int rc_spawn_running(pid_t pid, int *status)
{
	int st;
	pid_t r;

	do
		r = waitpid(pid, &st, WNOHANG);
	while (r < 0 && errno == EINTR);
	if (r == 0)
		return 1;
	if (status)
		*status = r == pid ? st : 0;
	return 0;
}

int rc_spawn_stop(pid_t pid, unsigned grace_s)
{
	double deadline = now_s() + grace_s;
	int status = 0, killed = 0;

	kill(-pid, SIGTERM);
	while (rc_spawn_running(pid, &status)) {
		if (!killed && now_s() > deadline) {
			kill(-pid, SIGKILL);
			killed = 1;
		}
		usleep(20000);
	}
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}

void rc_spawn_defer_signals(void)
{
	/* Twice would keep our own handlers as the ones to put back. */
	if (defer_signal)
		return;
	stop_signal = 0;
	defer_signal = 1;
	forward_signals(deferred_old, 1);
}

int rc_spawn_signal_pending(void)
{
	return stop_signal;
}

void rc_spawn_raise_deferred(void)
{
	int sig = stop_signal;

	if (!defer_signal)
		return;
	defer_signal = 0;
	forward_signals(deferred_old, 0);
	if (sig)
		raise(sig);
}
