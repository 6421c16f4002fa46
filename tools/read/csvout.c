// SPDX-License-Identifier: MIT
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "read/csvout.h"
#include "base/jsonread.h"

static const char *const header[] = {
	"record",
	"host",
	"name",
	"role",
	"kind",
	"direction",
	"bw_bytes_per_s",
	"iops",
	"clat_p50_ns",
	"clat_p99_ns",
	"clat_p99_9_ns",
	"fio_cpu_s",
	"fio_cpu_per_gib_s",
	"tcp_name",
	"tcp_direction",
	"tcp_bw_bytes_per_s",
	"tcp_iops",
	"tcp_clat_p50_ns",
	"tcp_clat_p99_ns",
	"tcp_clat_p99_9_ns",
	"tcp_fio_cpu_per_gib_s",
	"bw_ratio",
	"iops_ratio",
	"p50_ratio",
	"p99_ratio",
	"fio_cpu_per_gib_ratio",
	"verdict",
};

#define NCOLS (sizeof(header) / sizeof(header[0]))

/*
 * A text field, quoted when it holds a comma, a quote or a line break. A
 * spreadsheet reads a cell that begins with = + - @ (or a tab or carriage
 * return before one) as a formula, which can fetch URLs or run commands:
 * such a name is quoted and begins with ', which makes it text.
 */
static void field(FILE *out, size_t col, const char *s)
{
	int formula;

	if (col)
		fputc(',', out);
	if (!s)
		return;
	formula = *s && strchr("=+-@\t\r", *s);
	if (!formula && !strpbrk(s, ",\"\r\n")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	if (formula)
		fputc('\'', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

/* A figure: never quoted, so a negative one stays a number. */
static void num(FILE *out, size_t col, double v)
{
	if (col)
		fputc(',', out);
	if (!isnan(v))
		fprintf(out, "%.10g", v);
}

/* The figures of one side: bandwidth, IOPS, three percentiles. */
static size_t side(FILE *out, size_t col, json_object *s)
{
	json_object *clat = rio_json_get(s, "clat_ns");

	num(out, col++, rio_json_num(s, "bw_bytes", NAN));
	num(out, col++, rio_json_num(s, "iops", NAN));
	num(out, col++, rio_json_num(clat, "p50", NAN));
	num(out, col++, rio_json_num(clat, "p99", NAN));
	num(out, col++, rio_json_num(clat, "p99_9", NAN));
	return col;
}

/* The watched hosts' names: two columns each in a job row, one in a
 * pair's; a result of rounds has them in each round's cpu. */
static json_object *hosts_of(json_object *doc)
{
	json_object *cpu = rio_json_get(doc, "cpu");
	json_object *rounds = rio_json_get(doc, "rounds");

	if (!cpu && rio_json_len(rounds))
		cpu = rio_json_get(json_object_array_get_idx(rounds, 0), "cpu");
	return rio_json_get(cpu, "hosts");
}

static void host_columns(FILE *out, size_t col, json_object *hosts,
			 json_object *cpu, int pair)
{
	json_object *h;
	size_t i;

	for (i = 0; i < rio_json_len(hosts); i++) {
		h = rio_json_find(
			cpu, "host",
			rio_json_str(json_object_array_get_idx(hosts, i),
				     "host")
				?: "");
		num(out, col++, pair ? NAN : rio_json_num(h, "busy_s", NAN));
		num(out, col++, pair ? NAN : rio_json_num(h, "per_gib_s", NAN));
		num(out, col++, pair ? rio_json_num(h, "ratio", NAN) : NAN);
	}
}

static void job_row(FILE *out, json_object *r, const char *dir,
		    json_object *hosts)
{
	json_object *cpu = rio_json_get(r, "fio_cpu");
	size_t col = 0;

	field(out, col++, "job");
	field(out, col++, rio_json_str(r, "host"));
	field(out, col++, rio_json_str(r, "jobname"));
	field(out, col++, rio_json_str(r, "role"));
	field(out, col++, NULL);
	field(out, col++, dir);
	col = side(out, col, rio_json_get(r, dir));
	num(out, col++, rio_json_num(cpu, "cpu_s", NAN));
	num(out, col++, rio_json_num(cpu, "per_gib_s", NAN));
	while (col < NCOLS)
		field(out, col++, NULL);
	host_columns(out, col, hosts, rio_json_get(r, "host_cpu"), 0);
	fputc('\n', out);
}

static void pair_row(FILE *out, json_object *c, json_object *hosts)
{
	static const char *const ratios[] = { "bw_ratio", "iops_ratio",
					      "p50_ratio", "p99_ratio",
					      "fio_cpu_per_gib_ratio" };
	json_object *r = rio_json_get(c, "rdma"), *t = rio_json_get(c, "tcp");
	size_t col = 0, i;

	field(out, col++, "pair");
	field(out, col++, rio_json_str(c, "host"));
	field(out, col++, rio_json_str(c, "workload"));
	field(out, col++, NULL);
	field(out, col++, rio_json_str(c, "kind"));
	field(out, col++, rio_json_str(c, "direction"));
	col = side(out, col, r);
	field(out, col++, NULL);
	num(out, col++, rio_json_num(r, "fio_cpu_per_gib_s", NAN));
	field(out, col++, rio_json_str(t, "jobname"));
	field(out, col++, rio_json_str(c, "tcp_direction"));
	col = side(out, col, t);
	num(out, col++, rio_json_num(t, "fio_cpu_per_gib_s", NAN));
	for (i = 0; i < sizeof(ratios) / sizeof(ratios[0]); i++)
		num(out, col++, rio_json_num(c, ratios[i], NAN));
	field(out, col++, rio_json_str(c, "verdict"));
	host_columns(out, col, hosts, rio_json_get(c, "host_cpu_per_gib"), 1);
	fputc('\n', out);
}

/* A --baseline: its bandwidth, and each host's CPU over its window. */
static void baseline_row(FILE *out, json_object *doc, json_object *b,
			 json_object *hosts)
{
	size_t col = 0;

	field(out, col++, "baseline");
	field(out, col++, rio_json_str(rio_json_get(doc, "host"), "hostname"));
	field(out, col++, rio_json_str(b, "name"));
	field(out, col++, NULL);
	field(out, col++, "copy");
	field(out, col++, NULL);
	num(out, col++, rio_json_num(b, "bw_bytes", NAN));
	/* A failed copy's error stands where a pair's verdict does. */
	while (col < NCOLS - 1)
		field(out, col++, NULL);
	field(out, col++, rio_json_str(b, "error"));
	host_columns(out, col, hosts, rio_json_get(b, "host_cpu"), 0);
	fputc('\n', out);
}

int rio_csv_write(json_object *doc, FILE *out)
{
	static const char *const dirs[] = { "read", "write" };
	json_object *rs = rio_json_get(doc, "results"), *r;
	json_object *cs = rio_json_get(doc, "comparisons");
	json_object *hosts = hosts_of(doc);
	size_t i;
	int k;

	for (i = 0; i < NCOLS; i++)
		field(out, i, header[i]);
	/* HOST_busy_s, HOST_cpu_per_gib_s, HOST_cpu_per_gib_ratio per host */
	for (k = 0; k < (int)rio_json_len(hosts); k++) {
		const char *h = rio_json_str(
			json_object_array_get_idx(hosts, k), "host");
		char name[320];
		static const char *const what[] = { "busy_s", "cpu_per_gib_s",
						    "cpu_per_gib_ratio" };
		int w;

		for (w = 0; w < 3; w++) {
			snprintf(name, sizeof(name), "%s_%s", h ?: "?",
				 what[w]);
			field(out, 1, name);
		}
	}
	fputc('\n', out);
	for (i = 0; i < rio_json_len(rs); i++) {
		r = json_object_array_get_idx(rs, i);
		for (k = 0; k < 2; k++)
			if (rio_json_get(r, dirs[k]))
				job_row(out, r, dirs[k], hosts);
	}
	for (i = 0; i < rio_json_len(cs); i++)
		pair_row(out, json_object_array_get_idx(cs, i), hosts);
	cs = rio_json_get(doc, "baselines");
	for (i = 0; i < rio_json_len(cs); i++)
		baseline_row(out, doc, json_object_array_get_idx(cs, i), hosts);
	return fflush(out) || ferror(out) ? -EIO : 0;
}
