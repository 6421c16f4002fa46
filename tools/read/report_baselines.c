// SPDX-License-Identifier: MIT
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "base/jsonread.h"
#include "read/cell.h"
#include "read/report_baselines.h"
#include "base/units.h"

#define HOSTS_MAX 8

/* A pair that reads data on both sides: what a copy is read against. */
static bool is_seq_read(json_object *c)
{
	return !strcmp(rio_json_str(c, "kind") ?: "", "bandwidth") &&
	       !strcmp(rio_json_str(c, "direction") ?: "", "read") &&
	       !strcmp(rio_json_str(c, "tcp_direction") ?: "", "read");
}

static double bw_of(json_object *b)
{
	return rio_json_num(b, "bw_bytes", NAN);
}

/* "16.0 MiB in 1.20 s" */
static void fmt_copy(char *buf, size_t n, json_object *b)
{
	char sz[RIO_UNITS_LEN], t[RIO_UNITS_LEN];

	rio_units_bytes(sz, rio_json_num(b, "bytes", NAN));
	rio_units_ns(t, rio_json_num(b, "elapsed_s", NAN) * 1e9);
	snprintf(buf, n, "%s in %s", sz, t);
}

static void verdict(json_object *doc, json_object *b, FILE *out)
{
	json_object *cs = rio_json_get(doc, "comparisons"), *c;
	char copy[2 * RIO_UNITS_LEN + 8], bw[RIO_UNITS_LEN];
	char r[RIO_UNITS_LEN], t[RIO_UNITS_LEN];
	const char *sep = "";
	size_t i;

	if (!(bw_of(b) > 0)) {
		fprintf(out, "- %s failed: %s (no figures)\n",
			rio_json_str(b, "name"), rio_json_str(b, "error"));
		return;
	}
	fmt_copy(copy, sizeof(copy), b);
	rio_units_rate(bw, bw_of(b), 0);
	fprintf(out,
		"- against %s (one file, %s: %s): ", rio_json_str(b, "name"),
		copy, bw);
	for (i = 0; i < rio_json_len(cs); i++) {
		c = json_object_array_get_idx(cs, i);
		if (!is_seq_read(c))
			continue;
		rio_units_ratio(r, bw_of(rio_json_get(c, "rdma")) / bw_of(b));
		rio_units_ratio(t, bw_of(rio_json_get(c, "tcp")) / bw_of(b));
		fprintf(out,
			"%s%s over NFS/RDMA %s %s's bandwidth, over NFS/TCP %s",
			sep, rio_json_str(c, "workload"), r,
			rio_json_str(b, "name"), t);
		sep = "; ";
	}
	fprintf(out, "%s",
		*sep ? "" : "no sequential read pair to hold it against");
	if (rio_json_get(b, "error"))
		fprintf(out, " (%s)", rio_json_str(b, "error"));
	fprintf(out, "\n");
}

void rio_report_baselines_verdicts(json_object *doc, FILE *out)
{
	json_object *bs = rio_json_get(doc, "baselines");
	size_t i;

	for (i = 0; i < rio_json_len(bs); i++)
		verdict(doc, json_object_array_get_idx(bs, i), out);
}

/* The hosts whose CPU the baselines have, in their order. */
static int hosts_of(json_object *bs, const char **h)
{
	json_object *hc;
	const char *name;
	size_t i, j;
	int n = 0, k;

	for (i = 0; i < rio_json_len(bs); i++) {
		hc = rio_json_get(json_object_array_get_idx(bs, i), "host_cpu");
		for (j = 0; j < rio_json_len(hc); j++) {
			name = rio_json_str(json_object_array_get_idx(hc, j),
					    "host");
			if (!name)
				continue;
			for (k = 0; k < n && strcmp(h[k], name); k++)
				;
			if (k == n && n < HOSTS_MAX)
				h[n++] = name;
		}
	}
	return n;
}

/* The number at key of the member of arr whose host is host. */
static double host_num(json_object *arr, const char *host, const char *key)
{
	return rio_json_num(rio_json_find(arr, "host", host), key, NAN);
}

static void cell_cpu(double per_gib, FILE *out)
{
	char t[RIO_UNITS_LEN];

	rio_units_ns(t, per_gib * 1e9);
	fprintf(out, " %s |", isnan(per_gib) ? "-" : t);
}

/* A bandwidth, with its range over the rounds when sp has one. */
static void cell_bw(double bw, json_object *sp, int gbit, FILE *out)
{
	char cell[RIO_CELL_LEN];

	rio_cell_range(cell, sizeof(cell), bw, sp, RIO_CELL_RATE, gbit);
	fprintf(out, " %s |", cell);
}

struct table {
	int gbit; /* rates in Gb/s */
	const char *hosts[HOSTS_MAX];
	int nhosts;
	double ref; /* the first baseline's bandwidth */
};

static void baseline_row(const struct table *t, json_object *b, FILE *out)
{
	char copy[2 * RIO_UNITS_LEN + 8], r[RIO_UNITS_LEN];
	json_object *sp =
		rio_json_get(rio_json_get(b, "over_rounds"), "bw_bytes");
	int k;

	fmt_copy(copy, sizeof(copy), b);
	rio_units_ratio(r, bw_of(b) / t->ref);
	fprintf(out, "| %s (--baseline) |", rio_json_str(b, "name"));
	cell_bw(bw_of(b), sp, t->gbit, out);
	fprintf(out, " %s | %s |", r, bw_of(b) > 0 ? copy : "failed");
	cell_cpu(rio_json_num(b, "cpu_per_gib_s", NAN), out);
	for (k = 0; k < t->nhosts; k++)
		cell_cpu(host_num(rio_json_get(b, "host_cpu"), t->hosts[k],
				  "per_gib_s"),
			 out);
	fprintf(out, "\n");
}

/* One side of a sequential read pair: "rdma" or "tcp". */
static void side_row(const struct table *t, json_object *c, const char *side,
		     FILE *out)
{
	json_object *s = rio_json_get(c, side);
	json_object *sp = rio_json_get(
		rio_json_get(rio_json_get(c, "over_rounds"), side), "bw_bytes");
	char r[RIO_UNITS_LEN], key[16];
	int k;

	rio_units_ratio(r, bw_of(s) / t->ref);
	fprintf(out, "| %s over NFS/%s (fio: %s) |",
		rio_json_str(c, "workload"),
		strcmp(side, "rdma") ? "TCP" : "RDMA",
		rio_json_str(s, "jobname"));
	cell_bw(bw_of(s), sp, t->gbit, out);
	fprintf(out, " %s | - |", r);
	cell_cpu(rio_json_num(s, "fio_cpu_per_gib_s", NAN), out);
	snprintf(key, sizeof(key), "%s_s", side);
	for (k = 0; k < t->nhosts; k++)
		cell_cpu(host_num(rio_json_get(c, "host_cpu_per_gib"),
				  t->hosts[k], key),
			 out);
	fprintf(out, "\n");
}

static void head(const struct table *t, json_object *first, FILE *out)
{
	int k;

	fprintf(out, "## Against a plain copy\n\n");
	fprintf(out,
		"A baseline is one command, timed from its start to its exit (its start-up and any ssh login included); its bandwidth is the size of the one file it copied over that time. The NFS rows are fio's sequential read jobs, with their own job count and requests in flight. Own CPU: the command's processes (over an ssh master connection the encryption is the master's, not theirs), or fio's job threads; each host's CPU is its busy time over the copy's or the job's window.\n\n");
	fprintf(out, "| What | Bandwidth | vs %s | Copied | Own CPU per GiB |",
		rio_json_str(first, "name"));
	for (k = 0; k < t->nhosts; k++)
		fprintf(out, " %s CPU per GiB |", t->hosts[k]);
	fprintf(out, "\n|---|---:|---:|---:|---:|");
	for (k = 0; k < t->nhosts; k++)
		fprintf(out, "---:|");
	fprintf(out, "\n");
}

void rio_report_baselines_table(json_object *doc, int gbit, FILE *out)
{
	json_object *bs = rio_json_get(doc, "baselines"), *cs, *c;
	json_object *first;
	struct table t = { .gbit = gbit };
	size_t i;

	if (!rio_json_len(bs))
		return;
	t.nhosts = hosts_of(bs, t.hosts);
	/* Ratios to the first baseline that has figures. */
	first = json_object_array_get_idx(bs, 0);
	t.ref = NAN;
	for (i = 0; i < rio_json_len(bs) && isnan(t.ref); i++)
		if (bw_of(json_object_array_get_idx(bs, i)) > 0) {
			t.ref = bw_of(json_object_array_get_idx(bs, i));
			first = json_object_array_get_idx(bs, i);
		}
	head(&t, first, out);
	for (i = 0; i < rio_json_len(bs); i++)
		baseline_row(&t, json_object_array_get_idx(bs, i), out);
	cs = rio_json_get(doc, "comparisons");
	for (i = 0; i < rio_json_len(cs); i++) {
		c = json_object_array_get_idx(cs, i);
		if (!is_seq_read(c))
			continue;
		side_row(&t, c, "rdma", out);
		side_row(&t, c, "tcp", out);
	}
	fprintf(out, "\n");
	for (i = 0; i < rio_json_len(bs); i++) {
		c = json_object_array_get_idx(bs, i);
		fprintf(out, "- %s: `%s`", rio_json_str(c, "name"),
			rio_json_str(c, "command"));
		if (rio_json_get(c, "error"))
			fprintf(out, ": %s", rio_json_str(c, "error"));
		fprintf(out, "\n");
	}
	fprintf(out, "\n");
}
