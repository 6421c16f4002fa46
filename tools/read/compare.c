// SPDX-License-Identifier: MIT
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "read/changes.h"
#include "read/compare.h"
#include "result/resultenv.h"
#include "base/streq.h"

/*
 * The environment's fields compared, each by its name in the result, its
 * kind and where the model holds it; one table per kind of object, so
 * that a field the model gains is compared by adding a line.
 */
enum field_kind { FIELD_STR, FIELD_INT, FIELD_NUM, FIELD_BOOL };

struct field {
	const char *name;
	enum field_kind kind;
	size_t off;
};

#define FIELD(T, name, kind, member)                                           \
	{                                                                      \
		name, kind, offsetof(T, member)                                \
	}
#define END_FIELDS                                                             \
	{                                                                      \
		NULL, FIELD_STR, 0                                             \
	}

static const struct field version_fields[] = {
	FIELD(struct rio_env_host, "rdmaio version", FIELD_STR, rdmaio),
	FIELD(struct rio_env_host, "fio version", FIELD_STR, fio),
	FIELD(struct rio_env_host, "kernel version", FIELD_STR, kernel),
	FIELD(struct rio_env_host, "rdma_core version", FIELD_STR, rdma_core),
	FIELD(struct rio_env_host, "hostname", FIELD_STR, hostname),
	FIELD(struct rio_env_host, "CPU model", FIELD_STR, cpu_model),
	FIELD(struct rio_env_host, "CPU count", FIELD_INT, cpu_count),
	FIELD(struct rio_env_host, "CPU emulated", FIELD_BOOL, cpu_emulated),
	FIELD(struct rio_env_host, "environment source", FIELD_STR, source),
	END_FIELDS
};

static const struct field device_fields[] = {
	FIELD(struct rio_env_device, "driver", FIELD_STR, driver),
	FIELD(struct rio_env_device, "transport", FIELD_STR, transport),
	END_FIELDS
};

static const struct field port_fields[] = {
	FIELD(struct rio_env_port, "state", FIELD_STR, state),
	FIELD(struct rio_env_port, "link_layer", FIELD_STR, link_layer),
	FIELD(struct rio_env_port, "active_mtu", FIELD_INT, active_mtu),
	FIELD(struct rio_env_port, "rate_gbps", FIELD_NUM, rate_gbps),
	FIELD(struct rio_env_port, "netdev", FIELD_STR, netdev),
	END_FIELDS
};

static const struct field mount_fields[] = {
	FIELD(struct rio_env_mount, "source", FIELD_STR, source),
	FIELD(struct rio_env_mount, "proto", FIELD_STR, proto),
	FIELD(struct rio_env_mount, "port", FIELD_INT, port),
	FIELD(struct rio_env_mount, "vers", FIELD_STR, vers),
	FIELD(struct rio_env_mount, "rsize", FIELD_INT, rsize),
	FIELD(struct rio_env_mount, "wsize", FIELD_INT, wsize),
	FIELD(struct rio_env_mount, "nconnect", FIELD_INT, nconnect),
	END_FIELDS
};

static const struct field job_file_fields[] = {
	FIELD(struct rio_env_job_file, "sha256", FIELD_STR, sha256), END_FIELDS
};

/* A field's value: a string, or a number (ints and bools as one). */
struct value {
	const char *s;
	double d;
};

static struct value field_value(const struct field *f, const void *obj)
{
	const char *at = (const char *)obj + f->off;
	struct value v = { NULL, 0 };
	int i;

	switch (f->kind) {
	case FIELD_STR:
		memcpy(&v.s, at, sizeof(v.s));
		break;
	case FIELD_NUM:
		memcpy(&v.d, at, sizeof(v.d));
		break;
	case FIELD_INT:
	case FIELD_BOOL:
		memcpy(&i, at, sizeof(i));
		v.d = i;
		break;
	}
	return v;
}

/* A value as text: a string or a number the result lacks (a number 0 in
 * the model) reads "null"; a whole number of a FIELD_NUM keeps its ".0",
 * as the result writes it. */
static const char *value_text(const struct field *f, struct value v, char *buf,
			      size_t n)
{
	if (f->kind == FIELD_STR)
		return v.s ? v.s : "null";
	if (f->kind == FIELD_BOOL)
		return v.d ? "true" : "false";
	if (v.d == 0)
		return "null";
	snprintf(buf, n, "%.15g", v.d);
	if (f->kind == FIELD_NUM && isfinite(v.d) && !strpbrk(buf, ".e"))
		strncat(buf, ".0", n - strlen(buf) - 1);
	return buf;
}

static int value_same(const struct field *f, struct value a, struct value b)
{
	return f->kind == FIELD_STR ? rio_streq_or_null(a.s, b.s) : a.d == b.d;
}

/* Reports every field of fields that differs between a and b, each
 * labelled "PRE NAME"; returns how many did. */
static int diff_fields(FILE *out, const char *pre, const struct field *fields,
		       const void *a, const void *b)
{
	struct value va, vb;
	char x[64], y[64];
	int n = 0;

	for (; fields->name; fields++) {
		va = field_value(fields, a);
		vb = field_value(fields, b);
		if (value_same(fields, va, vb))
			continue;
		fprintf(out, "- %s%s: %s -> %s\n", pre, fields->name,
			value_text(fields, va, x, sizeof(x)),
			value_text(fields, vb, y, sizeof(y)));
		n++;
	}
	return n;
}

/* Two arrays of objects of size bytes, matched by the string at key_off:
 * the ones only one side has, and the fields of those both have. */
struct keyed {
	const char *what; /* "NFS mount", ... */
	size_t size, key_off;
	const struct field *fields;
};

static const char *key_of(const struct keyed *k, const void *v, size_t i)
{
	const char *s;

	memcpy(&s, (const char *)v + i * k->size + k->key_off, sizeof(s));
	return s;
}

static const void *find_keyed(const struct keyed *k, const void *v, size_t n,
			      const char *key)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (rio_streq(key_of(k, v, i), key))
			return (const char *)v + i * k->size;
	return NULL;
}

static int diff_keyed(FILE *out, const char *pre, const struct keyed *k,
		      const void *a, size_t na, const void *b, size_t nb)
{
	char label[512];
	const void *eb;
	const char *key;
	size_t i;
	int n = 0;

	for (i = 0; i < na; i++) {
		key = key_of(k, a, i);
		eb = find_keyed(k, b, nb, key);
		snprintf(label, sizeof(label), "%s%s %s ", pre, k->what,
			 key ? key : "null");
		if (eb) {
			n += diff_fields(out, label, k->fields,
					 (const char *)a + i * k->size, eb);
			continue;
		}
		fprintf(out, "- %s%s %s: only in the old result\n", pre,
			k->what, key ? key : "null");
		n++;
	}
	for (i = 0; i < nb; i++) {
		key = key_of(k, b, i);
		if (find_keyed(k, a, na, key))
			continue;
		fprintf(out, "- %s%s %s: only in the new result\n", pre,
			k->what, key ? key : "null");
		n++;
	}
	return n;
}

static const struct keyed devices_keyed = {
	"RDMA device", sizeof(struct rio_env_device),
	offsetof(struct rio_env_device, name), device_fields
};
static const struct keyed mounts_keyed = {
	"NFS mount", sizeof(struct rio_env_mount),
	offsetof(struct rio_env_mount, mountpoint), mount_fields
};
static const struct keyed run_mounts_keyed = {
	"NFS mount during the run", sizeof(struct rio_env_mount),
	offsetof(struct rio_env_mount, mountpoint), mount_fields
};
static const struct keyed job_files_keyed = {
	"job file", sizeof(struct rio_env_job_file),
	offsetof(struct rio_env_job_file, path), job_file_fields
};

/* The ports of a device both results have, matched by position. */
static int diff_ports(FILE *out, const char *pre,
		      const struct rio_env_device *a,
		      const struct rio_env_device *b)
{
	char label[512];
	size_t i;
	int n = 0;

	for (i = 0; i < a->nports && i < b->nports; i++) {
		snprintf(label, sizeof(label), "%sRDMA device %s port %zu ",
			 pre, a->name ? a->name : "null", i + 1);
		n += diff_fields(out, label, port_fields, &a->ports[i],
				 &b->ports[i]);
	}
	return n;
}

/* Versions, CPU, RDMA devices and ports, and NFS mounts of one host in
 * two results; every label starts with pre. */
static int diff_host(FILE *out, const char *pre, const struct rio_env_host *a,
		     const struct rio_env_host *b)
{
	const struct rio_env_device *db;
	size_t i;
	int n;

	n = diff_fields(out, pre, version_fields, a, b);
	n += diff_keyed(out, pre, &devices_keyed, a->devices, a->ndevices,
			b->devices, b->ndevices);
	for (i = 0; i < a->ndevices; i++) {
		db = find_keyed(&devices_keyed, b->devices, b->ndevices,
				a->devices[i].name);
		if (db)
			n += diff_ports(out, pre, &a->devices[i], db);
	}
	n += diff_keyed(out, pre, &mounts_keyed, a->mounts, a->nmounts,
			b->mounts, b->nmounts);
	return n;
}

/* --client hosts' environments, matched by host name (ports may change). */
static int diff_remotes(FILE *out, const struct rio_resultenv *a,
			const struct rio_resultenv *b)
{
	const struct rio_env_host *ra, *rb;
	char pre[512];
	size_t i, j;
	int n = 0;

	/* Nothing to compare when neither or only one side recorded them. */
	if (!rio_resultenv_remotes_recorded(a) ||
	    !rio_resultenv_remotes_recorded(b)) {
		if (rio_resultenv_remotes_recorded(a) !=
		    rio_resultenv_remotes_recorded(b)) {
			fprintf(out,
				"- remote hosts' environments: recorded only in the %s result (--remote-env)\n",
				rio_resultenv_remotes_recorded(a) ? "old"
								  : "new");
			n++;
		}
		return n;
	}
	for (i = 0; i < rio_resultenv_nremotes(a); i++) {
		ra = rio_resultenv_remote(a, i);
		rb = NULL;
		for (j = 0; !rb && j < rio_resultenv_nremotes(b); j++)
			if (rio_streq(ra->host,
				      rio_resultenv_remote(b, j)->host))
				rb = rio_resultenv_remote(b, j);
		if (!rb)
			continue; /* "fio clients" names the change */
		snprintf(pre, sizeof(pre), "remote host %s: ", ra->host);
		n += diff_host(out, pre, ra, rb);
	}
	return n;
}

static int clients_same(const struct rio_resultenv *a,
			const struct rio_resultenv *b)
{
	size_t i, n = rio_resultenv_nfio_clients(a);

	if (n != rio_resultenv_nfio_clients(b))
		return 0;
	for (i = 0; i < n; i++)
		if (!rio_streq_or_null(rio_resultenv_fio_client(a, i),
				       rio_resultenv_fio_client(b, i)))
			return 0;
	return 1;
}

/* fio.clients[] on one line, "none" when fio ran no client. */
static void clients_print(FILE *out, const struct rio_resultenv *env)
{
	const char *c;
	size_t i;

	if (!rio_resultenv_nfio_clients(env))
		fputs("none", out);
	for (i = 0; i < rio_resultenv_nfio_clients(env); i++) {
		c = rio_resultenv_fio_client(env, i);
		fprintf(out, "%s%s", i ? " " : "", c ? c : "null");
	}
}

static int diff_env(FILE *out, const struct rio_resultenv *a,
		    const struct rio_resultenv *b)
{
	const struct rio_env_job_file *ja, *jb;
	const struct rio_env_mount *ma, *mb;
	size_t na, nb;
	int n;

	n = diff_host(out, "", rio_resultenv_host(a), rio_resultenv_host(b));
	ma = rio_resultenv_mounts(a, &na);
	mb = rio_resultenv_mounts(b, &nb);
	n += diff_keyed(out, "", &run_mounts_keyed, ma, na, mb, nb);
	ja = rio_resultenv_job_files(a, &na);
	jb = rio_resultenv_job_files(b, &nb);
	n += diff_keyed(out, "", &job_files_keyed, ja, na, jb, nb);
	if (!clients_same(a, b)) {
		fputs("- fio clients: ", out);
		clients_print(out, a);
		fputs(" -> ", out);
		clients_print(out, b);
		fputs("\n", out);
		n++;
	}
	return n + diff_remotes(out, a, b);
}

/* The environments of a and b as the models read them: how many fields
 * differ, or the reader's -errno. */
static int env_differences(json_object *a, json_object *b, FILE *out)
{
	struct rio_resultenv *ea = NULL, *eb = NULL;
	int n;

	n = rio_resultenv_read(a, &ea);
	if (!n)
		n = rio_resultenv_read(b, &eb);
	if (!n)
		n = diff_env(out, ea, eb);
	rio_resultenv_delete(&ea);
	rio_resultenv_delete(&eb);
	return n;
}

int rio_compare(json_object *a, json_object *b, double min_noise_pct, FILE *out)
{
	struct rio_changes_count c;
	int envdiff, ret;

	fprintf(out, "## Environment differences\n\n");
	envdiff = env_differences(a, b, out);
	if (envdiff < 0)
		return envdiff;
	if (!envdiff)
		fprintf(out,
			"- none: same versions, host, devices, mounts and job files\n");
	fprintf(out, "\n## Measured changes\n\n");
	ret = rio_changes_write(a, b, min_noise_pct, out, &c);
	if (ret)
		return ret;
	fprintf(out, "\n%d change(s) beyond noise, %d of them regressions",
		c.beyond, c.worse);
	if (c.beyond && envdiff)
		fprintf(out,
			"; the %d environment difference(s) above may explain them",
			envdiff);
	else if (c.beyond)
		fprintf(out,
			"; the environment is the same, so they come from the run itself or from something rdmaio does not record");
	fprintf(out, ".\n");
	if (c.unknown)
		fprintf(out,
			"%d of the %d figures were judged without knowing the run-to-run noise (one round): their verdicts are --noise's alone.\n",
			c.unknown, c.figures);
	return c.worse;
}
