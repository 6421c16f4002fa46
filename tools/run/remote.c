// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "result/envdoc.h"
#include "rc_file.h"
#include "rc_log.h"
#include "result/hostmap.h"
#include "run/remote.h"
#include "rc_spawn.h"
#include "base/strv.h"
#include "base/tmpdir.h"

/* How much of a failed command's stderr an error shows. */
#define TAIL_LINES 6
#define TAIL_BYTES 800
/* What is read of its stderr at most: its end, where the reason is. */
#define STDERR_READ (64 << 10)
/* An `rdmaio env` document is kilobytes; a host that sends more is not
 * sending one. */
#define ENV_MAX_BYTES (16 << 20)

/* The last STDERR_READ bytes of the scratch file fd, or NULL. */
static char *stderr_tail(int fd)
{
	off_t end = lseek(fd, 0, SEEK_END);
	char *text = NULL;

	if (end < 0 ||
	    lseek(fd, end > STDERR_READ ? end - STDERR_READ : 0, SEEK_SET) <
		    0 ||
	    rc_file_read_stream(fd, &text, NULL, -1, STDERR_READ))
		return NULL;
	return text;
}

/* Prints the last lines of text, each after prefix. */
static void print_tail(const char *prefix, const char *text)
{
	size_t len = strlen(text);
	const char *start = text + len, *eol;
	int lines = 0;

	while (len && text[len - 1] == '\n')
		len--;
	start = text + len;
	while (start > text && lines < TAIL_LINES &&
	       (size_t)(text + len - start) < TAIL_BYTES) {
		start--;
		if (start > text && start[-1] == '\n')
			lines++;
	}
	while (start < text + len) {
		eol = memchr(start, '\n', text + len - start);
		if (!eol)
			eol = text + len;
		fprintf(stderr, "rdmaio: %s%.*s\n", prefix, (int)(eol - start),
			start);
		start = eol + 1;
	}
}

/* Runs the command for one client; *doc gets its validated env document. */
static int run_one(char *const *argv, const char *client, const char *shown,
		   unsigned timeout_s, json_object **doc)
{
	char *out = NULL, *err = NULL, name[1024], prefix[512];
	int fd, ret, st;

	fd = rio_tmpdir_scratch();
	if (fd < 0)
		return fd;
	st = rc_spawn_capture_fd(argv, &out, ENV_MAX_BYTES, timeout_s, fd);
	err = stderr_tail(fd);
	close(fd);
	if (st == -EFBIG) {
		rc_err("--remote-env for client %s: '%s' printed more than %d MiB, far more than an `rdmaio env` document: stopped it (it must run `rdmaio env` on that host; nothing else may write to its stdout)",
		       client, shown, ENV_MAX_BYTES >> 20);
		ret = st;
	} else if (st == -ETIMEDOUT) {
		rc_err("--remote-env for client %s: '%s' did not finish within %u s: stopped it (check that it runs by hand, or raise --timeout)",
		       client, shown, timeout_s);
		ret = st;
	} else if (st < 0) {
		rc_err("--remote-env for client %s: cannot run '%s': %s (install %s or fix --remote-env)",
		       client, shown, strerror(-st), argv[0]);
		ret = st;
	} else if (st) {
		rc_err("--remote-env for client %s: '%s' exited with status %d%s (run it by hand: it must print `rdmaio env` of that host)",
		       client, shown, st,
		       err && *err ? "; the end of its stderr follows"
				   : " and printed nothing on stderr");
		ret = -EIO;
	} else {
		snprintf(name, sizeof(name), "from '%s' for client %s", shown,
			 client);
		ret = rio_envdoc_parse(out, strlen(out), name, doc);
		if (ret)
			rc_err("--remote-env for client %s: '%s' exited 0 but did not print an `rdmaio env` document on its stdout (it must run `rdmaio env` on that host; nothing else may write to its stdout)",
			       client, shown);
	}
	snprintf(prefix, sizeof(prefix), "%s%s: ", ret ? "  stderr of " : "",
		 shown);
	if (err && *err)
		print_tail(prefix, err);
	free(err);
	free(out);
	return ret;
}

int rio_remote_gather(const char *cmd, const struct rio_fio_host *hosts,
		      int nhosts, unsigned timeout_s, json_object **out)
{
	json_object *arr = json_object_new_array(), *e, *doc;
	char **argv = NULL, *host = NULL, *shown = NULL;
	const char *client;
	int i, ret = 0;

	for (i = 0; i < nhosts && !ret; i++) {
		/* This host's environment is the result's own. */
		if (hosts[i].local)
			continue;
		client = hosts[i].client;
		host = rio_hostmap_fio_name(client);
		if (!host) {
			ret = -ENOMEM;
			break;
		}
		ret = rio_strv_split(cmd, 'h', host, &argv);
		if (ret == -EINVAL)
			rc_err("--remote-env '%s': no command in it (give e.g. --remote-env 'ssh -- %%h rdmaio env')",
			       cmd);
		shown = ret ? NULL : rio_strv_join(argv);
		if (!ret && !shown)
			ret = -ENOMEM;
		if (!ret)
			ret = run_one(argv, client, shown, timeout_s, &doc);
		if (!ret) {
			e = json_object_new_object();
			json_object_object_add(e, "client",
					       json_object_new_string(client));
			json_object_object_add(e, "host",
					       json_object_new_string(host));
			json_object_object_add(e, "command",
					       rio_strv_json(argv, -1));
			json_object_object_add(e, "env", doc);
			json_object_array_add(arr, e);
		}
		rio_strv_free(argv);
		argv = NULL;
		free(shown);
		shown = NULL;
		free(host);
		host = NULL;
	}
	if (ret) {
		json_object_put(arr);
		return ret;
	}
	*out = arr;
	return 0;
}
