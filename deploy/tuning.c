// SPDX-License-Identifier: MIT
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rc_log.h"
#include "rundir.h"
#include "sigdefer.h"
#include "sysfile.h"
#include "tuning.h"

#define NR_TUNING_RECORD "settings"
#define NR_TUNING_RECORD_MAX 1024

enum knob { KNOB_SOCK_BUF, KNOB_RDMA_REQUESTS };

static const struct setting {
	const char *key; /* sysctl's name, and the record's */
	const char *path;
	int fields; /* 3: min, default, max, of which max is set */
	enum knob knob;
} settings[] = {
	{ "net.core.rmem_max", "/proc/sys/net/core/rmem_max", 1,
	  KNOB_SOCK_BUF },
	{ "net.core.wmem_max", "/proc/sys/net/core/wmem_max", 1,
	  KNOB_SOCK_BUF },
	{ "net.ipv4.tcp_rmem", "/proc/sys/net/ipv4/tcp_rmem", 3,
	  KNOB_SOCK_BUF },
	{ "net.ipv4.tcp_wmem", "/proc/sys/net/ipv4/tcp_wmem", 3,
	  KNOB_SOCK_BUF },
	{ "sunrpc.svc_rdma.max_requests",
	  "/proc/sys/sunrpc/svc_rdma/max_requests", 1, KNOB_RDMA_REQUESTS },
};

#define NSETTINGS (sizeof(settings) / sizeof(settings[0]))

struct value {
	long v[3];
};

/* Each setting's value before nfsrdma first changed it. */
struct record {
	int has[NSETTINGS];
	struct value was[NSETTINGS];
};

static const char *knob_option(enum knob k)
{
	return k == KNOB_SOCK_BUF ? "--sock-buf" : "--rdma-requests";
}

static int knob_target(const struct nr_tuning_req *req, enum knob k)
{
	return k == KNOB_SOCK_BUF ? req->sock_buf : req->rdma_requests;
}

/* Exactly fields numbers from 0 to INT_MAX, apart by blanks. */
static int value_parse(const char *s, int fields, struct value *out)
{
	char *end;
	int i;

	for (i = 0; i < fields; i++) {
		s += strspn(s, " \t");
		if (*s < '0' || *s > '9')
			return -EINVAL;
		errno = 0;
		out->v[i] = strtol(s, &end, 10);
		if (errno || out->v[i] > INT_MAX)
			return -EINVAL;
		s = end;
	}
	return s[strspn(s, " \t\n")] ? -EINVAL : 0;
}

static void value_format(const struct value *val, int fields, char *buf,
			 size_t len)
{
	if (fields == 3)
		snprintf(buf, len, "%ld\t%ld\t%ld", val->v[0], val->v[1],
			 val->v[2]);
	else
		snprintf(buf, len, "%ld", val->v[0]);
}

static int value_same(const struct value *a, const struct value *b, int fields)
{
	return !memcmp(a->v, b->v, (size_t)fields * sizeof(a->v[0]));
}

/* The setting now; -ENOENT, unsaid, when the kernel lacks it. */
static int setting_read(size_t i, struct value *val)
{
	char buf[128];
	ssize_t n = nr_file_read(settings[i].path, buf, sizeof(buf));

	if (n < 0) {
		if (n != -ENOENT)
			rc_call_err((int)n, "read(%s)", settings[i].path);
		return (int)n;
	}
	if (value_parse(buf, settings[i].fields, val)) {
		rc_diag("report it: nfsrdma does not know this kernel's format",
			"%s reads '%s', not %d number(s)", settings[i].path,
			buf, settings[i].fields);
		return -EINVAL;
	}
	return 0;
}

/* Writes val and reads it back: the kernel may clamp what it takes. */
static int setting_write(size_t i, const struct value *val)
{
	struct value now;
	char text[96];
	int ret;

	value_format(val, settings[i].fields, text, sizeof(text) - 1);
	strcat(text, "\n");
	ret = nr_file_write(settings[i].path, text);
	if (ret) {
		rc_call_err(ret, "write(%s, \"%.*s\")", settings[i].path,
			    (int)strcspn(text, "\n"), text);
		return ret;
	}
	ret = setting_read(i, &now);
	if (!ret && !value_same(&now, val, settings[i].fields)) {
		value_format(&now, settings[i].fields, text, sizeof(text));
		rc_diag("see the kernel's limits for it in 'dmesg'",
			"%s: wrote %ld, the kernel kept %s", settings[i].key,
			val->v[settings[i].fields - 1], text);
		return -EIO;
	}
	return ret;
}

static int record_bad(const char *why)
{
	rc_diag("check the settings by hand (sysctl -a | grep -e mem_max -e "
		"tcp_.mem -e svc_rdma), then remove " NR_RUN_DIR
		"/" NR_TUNING_RECORD,
		NR_RUN_DIR "/" NR_TUNING_RECORD " %s: nfsrdma puts back no "
			   "setting from it",
		why);
	return -EINVAL;
}

static int record_line(const char *key, char *val, void *arg)
{
	struct record *r = arg;
	size_t i;

	for (i = 0; i < NSETTINGS && strcmp(key, settings[i].key); i++)
		;
	if (i == NSETTINGS || r->has[i] ||
	    value_parse(val, settings[i].fields, &r->was[i]))
		return -EINVAL;
	r->has[i] = 1;
	return 0;
}

/* "KEY VALUE\n" per setting, each known key at most once. */
static int record_parse(char *buf, struct record *r)
{
	memset(r, 0, sizeof(*r));
	return nr_rundir_lines(buf, record_line, r) ? -EINVAL : 0;
}

/* 1 with *r read, 0 when there is no record, -errno after saying why. */
static int record_read(int dirfd, struct record *r)
{
	char buf[NR_TUNING_RECORD_MAX + 1];
	ssize_t n;

	memset(r, 0, sizeof(*r));
	if (dirfd < 0)
		return 0;
	n = nr_rundir_read(dirfd, NR_TUNING_RECORD, buf, sizeof(buf));
	if (n == -ENOENT)
		return 0;
	if (n == -ELOOP)
		return record_bad("is a symbolic link");
	if (n == -EPERM)
		return record_bad("is not a file of root's");
	if (n == -EFBIG)
		return record_bad("is longer than any record nfsrdma writes");
	if (n < 0)
		return (int)n;
	if (record_parse(buf, r))
		return record_bad("is not a record nfsrdma writes");
	return 1;
}

static int record_write(const struct record *r)
{
	char buf[NR_TUNING_RECORD_MAX], val[96];
	size_t i, len = 0;
	int n;

	for (i = 0; i < NSETTINGS; i++) {
		if (!r->has[i])
			continue;
		value_format(&r->was[i], settings[i].fields, val, sizeof(val));
		n = snprintf(buf + len, sizeof(buf) - len, "%s %s\n",
			     settings[i].key, val);
		if (n < 0 || (size_t)n >= sizeof(buf) - len)
			return -ENOSPC;
		len += (size_t)n;
	}
	return nr_rundir_write(NR_TUNING_RECORD, buf, len);
}

/* Refuses a target below the kernel's own value (the record's, where
 * nfsrdma changed it): the field's recipes give such values, and they make
 * a fast link slower. */
static int check_one(size_t i, int target, const struct record *r)
{
	const struct value *base;
	struct value now;
	char fix[256];
	long limit;
	int ret = setting_read(i, &now);

	if (ret == -ENOENT)
		rc_diag(settings[i].knob == KNOB_RDMA_REQUESTS
				? "leave --rdma-requests out: server start loaded "
				  "rpcrdma, and this kernel's has no svcrdma "
				  "settings"
				: "leave --sock-buf out on this kernel",
			"%s: the kernel has no %s",
			knob_option(settings[i].knob), settings[i].path);
	if (ret)
		return ret;
	base = r->has[i] ? &r->was[i] : &now;
	limit = base->v[settings[i].fields - 1];
	if (target >= limit)
		return 0;
	snprintf(fix, sizeof(fix), "give %s %ld or more, or leave it out",
		 knob_option(settings[i].knob), limit);
	rc_diag(fix,
		"%s %d is below the kernel's %s limit of %ld: it would lower %s, "
		"and make the server slower; nothing changed",
		knob_option(settings[i].knob), target, settings[i].key, limit,
		settings[i].knob == KNOB_SOCK_BUF
			? "the most a socket may buffer (TCP's window)"
			: "the requests each RDMA connection may have in flight");
	return -EINVAL;
}

static int check_all(const struct nr_tuning_req *req, const struct record *r)
{
	size_t i;
	int ret = 0, target;

	for (i = 0; !ret && i < NSETTINGS; i++) {
		target = knob_target(req, settings[i].knob);
		if (target)
			ret = check_one(i, target, r);
	}
	return ret;
}

struct check_args {
	const struct nr_tuning_req *req;
	int ran;
};

static int check_locked(int dirfd, void *arg)
{
	struct check_args *a = arg;
	struct record r;
	int ret = record_read(dirfd, &r);

	a->ran = 1;
	return ret < 0 ? ret : check_all(a->req, &r);
}

int nr_tuning_check(const struct nr_tuning_req *req)
{
	static const struct record none;
	struct check_args a = { req, 0 };
	int ret;

	if (!req->sock_buf && !req->rdma_requests)
		return 0;
	/* The folder is made by the start that changes something. */
	ret = nr_rundir_locked(0, check_locked, &a);
	return ret || a.ran ? ret : check_all(req, &none);
}

/* Records the setting's value before the write, so that a stop after any
 * failure still knows what to put back. */
static int apply_one(size_t i, int target, struct record *r,
		     struct nr_tuning_undo *u)
{
	int last = settings[i].fields - 1, ret;
	struct value now, want;

	ret = setting_read(i, &now);
	if (ret)
		return ret;
	want = now;
	want.v[last] = target;
	if (value_same(&want, &now, settings[i].fields))
		return 0;
	if (!r->has[i]) {
		r->has[i] = 1;
		r->was[i] = now;
		ret = record_write(r);
		if (ret) {
			rc_call_err(ret, "recording %s in %s/%s",
				    settings[i].key, NR_RUN_DIR,
				    NR_TUNING_RECORD);
			r->has[i] = 0;
			return ret;
		}
		u->added |= 1u << i;
	}
	memcpy(u->before[i], now.v, sizeof(now.v));
	ret = setting_write(i, &want);
	/* A write the kernel clamped changed the setting too. */
	if (ret != -EACCES && ret != -EPERM)
		u->changed |= 1u << i;
	if (!ret)
		printf("%s = %d (was %ld; server stop puts back %ld)\n",
		       settings[i].key, target, now.v[last], r->was[i].v[last]);
	return ret;
}

struct apply_args {
	const struct nr_tuning_req *req;
	struct nr_tuning_undo *u;
};

static int apply_locked(int dirfd, void *arg)
{
	struct apply_args *a = arg;
	struct record r;
	size_t i;
	int ret = record_read(dirfd, &r), target;

	if (ret < 0)
		return ret;
	/* Again under the lock: another start may have changed the record
	 * since the caller's check. */
	ret = check_all(a->req, &r);
	for (i = 0; !ret && i < NSETTINGS && !nr_sigdefer_pending(); i++) {
		target = knob_target(a->req, settings[i].knob);
		if (target)
			ret = apply_one(i, target, &r, a->u);
	}
	return ret ? ret : nr_sigdefer_pending() ? -EINTR : 0;
}

int nr_tuning_apply(const struct nr_tuning_req *req, struct nr_tuning_undo *u)
{
	struct apply_args a = { req, u };

	memset(u, 0, sizeof(*u));
	if (!req->sock_buf && !req->rdma_requests)
		return 0;
	return nr_rundir_locked(1, apply_locked, &a);
}

static int undo_locked(int dirfd, void *arg)
{
	const struct nr_tuning_undo *u = arg;
	struct record r;
	struct value v;
	int ret = record_read(dirfd, &r), bad = 0, put;
	size_t i;

	/* What this start recorded leaves the record once its value is back
	 * (or was never changed). */
	for (i = 0; i < NSETTINGS; i++) {
		put = 1;
		if (u->changed & (1u << i)) {
			memcpy(v.v, u->before[i], sizeof(v.v));
			put = !setting_write(i, &v);
			bad |= !put;
		}
		if (ret > 0 && put && (u->added & (1u << i)))
			r.has[i] = 0;
	}
	if (ret <= 0)
		return bad ? -EIO : ret;
	for (i = 0; i < NSETTINGS && !r.has[i]; i++)
		;
	ret = i == NSETTINGS ? nr_rundir_remove(dirfd, NR_TUNING_RECORD)
			     : record_write(&r);
	return bad ? -EIO : ret;
}

int nr_tuning_undo(const struct nr_tuning_undo *u)
{
	if (!u->changed && !u->added)
		return 0;
	return nr_rundir_locked(0, undo_locked, (void *)u);
}

static int restore_locked(int dirfd, void *arg)
{
	char text[96];
	struct record r;
	size_t i;
	int ret = record_read(dirfd, &r), bad = 0;

	(void)arg;
	if (ret <= 0)
		return ret;
	for (i = 0; i < NSETTINGS; i++) {
		if (!r.has[i])
			continue;
		if (setting_write(i, &r.was[i])) {
			bad = 1;
			continue;
		}
		value_format(&r.was[i], settings[i].fields, text, sizeof(text));
		printf("%s = %s (put back)\n", settings[i].key, text);
		r.has[i] = 0;
	}
	if (!bad)
		return nr_rundir_remove(dirfd, NR_TUNING_RECORD);
	ret = record_write(&r);
	rc_diag("mend the cause above, then run 'nfsrdma server stop' again",
		"server stop: not every kernel setting nfsrdma changed is back; "
		"%s in " NR_RUN_DIR "/" NR_TUNING_RECORD,
		ret ? "and it could not be kept" : "it stays recorded");
	return -EIO;
}

int nr_tuning_restore(void)
{
	return nr_rundir_locked(0, restore_locked, NULL);
}

void nr_tuning_print(void)
{
	char now[96], was[96];
	struct record r = { 0 };
	struct value val;
	int dirfd = -1, err;
	size_t i;

	/* No lock: the record is replaced whole, by rename. */
	if (!nr_rundir_open(0, &dirfd) && dirfd >= 0)
		record_read(dirfd, &r);
	if (dirfd >= 0)
		close(dirfd);
	for (i = 0; i < NSETTINGS; i++) {
		err = setting_read(i, &val);
		if (err) {
			printf("%s = (none: %s)\n", settings[i].key,
			       err != -ENOENT ? strerror(-err)
			       : settings[i].knob == KNOB_RDMA_REQUESTS
				       ? "rpcrdma is not loaded"
				       : "not in this kernel");
			continue;
		}
		value_format(&val, settings[i].fields, now, sizeof(now));
		if (r.has[i])
			value_format(&r.was[i], settings[i].fields, was,
				     sizeof(was));
		printf("%s = %s%s%s%s\n", settings[i].key, now,
		       r.has[i] ? " (set by nfsrdma server start; was " : "",
		       r.has[i] ? was : "", r.has[i] ? ")" : "");
	}
}
