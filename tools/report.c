// SPDX-License-Identifier: MIT
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jutil.h"
#include "log.h"
#include "report.h"
#include "spawn.h"

#define MIB (1024.0 * 1024)

static void fmt_num(char *buf, size_t n, double v, double div, int prec)
{
	if (isnan(v))
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, "%.*f", prec, v / div);
}

static void fmt_lat(char *buf, size_t n, json_object *clat)
{
	char a[32], b[32], c[32];

	fmt_num(a, sizeof(a), rio_json_num(clat, "p50", NAN), 1000, 1);
	fmt_num(b, sizeof(b), rio_json_num(clat, "p99", NAN), 1000, 1);
	fmt_num(c, sizeof(c), rio_json_num(clat, "p99_9", NAN), 1000, 1);
	snprintf(buf, n, "%s / %s / %s", a, b, c);
}

/* Labels name the host only when the rows of doc[key] come from several. */
static int multi_host(json_object *doc, const char *key)
{
	json_object *rows = rio_json_get(doc, key);
	const char *first = NULL, *h;
	size_t i;

	for (i = 0; i < rio_json_len(rows); i++) {
		h = rio_json_str(json_object_array_get_idx(rows, i), "host");
		if (!h)
			continue;
		if (first && strcmp(first, h))
			return 1;
		first = h;
	}
	return 0;
}

static void label(char *buf, size_t n, json_object *o, const char *name_key,
		  const char *dir, int hosts)
{
	if (hosts)
		snprintf(buf, n, "%s: %s (%s)", rio_json_str(o, "host"),
			 rio_json_str(o, name_key), dir);
	else
		snprintf(buf, n, "%s (%s)", rio_json_str(o, name_key), dir);
}

/* "workload (read)", or "rtt (read/write)" when the sides differ. */
static void pair_label(char *buf, size_t n, json_object *c, int hosts)
{
	const char *rd = rio_json_str(c, "direction");
	const char *td = rio_json_str(c, "tcp_direction");
	char dir[32];

	snprintf(dir, sizeof(dir), "%s%s%s", rd, strcmp(rd, td) ? "/" : "",
		 strcmp(rd, td) ? td : "");
	label(buf, n, c, "workload", dir, hosts);
}

static void comparisons_table(json_object *doc, FILE *out)
{
	json_object *cs = rio_json_get(doc, "comparisons"), *c, *r, *t;
	char l[512], rb[32], tb[32], ra[32], rl[128], tl[128];
	size_t i;

	fprintf(out, "## RDMA vs TCP\n\n");
	if (!rio_json_len(cs)) {
		fprintf(out,
			"No workload has both a \"-rdma\" and a \"-tcp\" job.\n\n");
		return;
	}
	fprintf(out,
		"| Workload | RDMA MiB/s | TCP MiB/s | RDMA/TCP | RDMA p50/p99/p99.9 us | TCP p50/p99/p99.9 us |\n");
	fprintf(out, "|---|---:|---:|---:|---:|---:|\n");
	for (i = 0; i < rio_json_len(cs); i++) {
		c = json_object_array_get_idx(cs, i);
		r = rio_json_get(c, "rdma");
		t = rio_json_get(c, "tcp");
		pair_label(l, sizeof(l), c, multi_host(doc, "comparisons"));
		fmt_num(rb, sizeof(rb), rio_json_num(r, "bw_bytes", NAN), MIB,
			2);
		fmt_num(tb, sizeof(tb), rio_json_num(t, "bw_bytes", NAN), MIB,
			2);
		fmt_num(ra, sizeof(ra), rio_json_num(c, "bw_ratio", NAN), 1, 2);
		fmt_lat(rl, sizeof(rl), rio_json_get(r, "clat_ns"));
		fmt_lat(tl, sizeof(tl), rio_json_get(t, "clat_ns"));
		fprintf(out, "| %s | %s | %s | %s | %s | %s |\n", l, rb, tb, ra,
			rl, tl);
	}
	fprintf(out, "\n");
}

static void jobs_table(json_object *doc, FILE *out)
{
	static const char *const dirs[] = { "read", "write" };
	json_object *rs = rio_json_get(doc, "results"), *r, *d;
	char l[512], bw[32], iops[32], lat[128];
	size_t i;
	int k;

	fprintf(out, "## Jobs\n\n");
	fprintf(out, "| Job | MiB/s | IOPS | p50/p99/p99.9 us |\n");
	fprintf(out, "|---|---:|---:|---:|\n");
	for (i = 0; i < rio_json_len(rs); i++) {
		r = json_object_array_get_idx(rs, i);
		for (k = 0; k < 2; k++) {
			d = rio_json_get(r, dirs[k]);
			if (!d)
				continue;
			label(l, sizeof(l), r, "jobname", dirs[k],
			      multi_host(doc, "results"));
			fmt_num(bw, sizeof(bw),
				rio_json_num(d, "bw_bytes", NAN), MIB, 2);
			fmt_num(iops, sizeof(iops),
				rio_json_num(d, "iops", NAN), 1, 0);
			fmt_lat(lat, sizeof(lat), rio_json_get(d, "clat_ns"));
			fprintf(out, "| %s | %s | %s | %s |\n", l, bw, iops,
				lat);
		}
	}
	fprintf(out, "\n");
}

/* One line per RDMA port of env ("environment"), each after pre. */
static void setup_devices(json_object *env, const char *pre, FILE *out)
{
	json_object *st = rio_json_get(env, "status");
	json_object *devs = rio_json_get(st, "rdma_devices"), *d, *p;
	size_t i, j;

	if (!rio_json_len(devs))
		fprintf(out,
			"%s- RDMA devices: none found (environment from %s)\n",
			pre, rio_json_str(env, "source"));
	for (i = 0; i < rio_json_len(devs); i++) {
		d = json_object_array_get_idx(devs, i);
		for (j = 0; j < rio_json_len(rio_json_get(d, "ports")); j++) {
			p = json_object_array_get_idx(rio_json_get(d, "ports"),
						      j);
			fprintf(out,
				"%s- RDMA device %s (%s, %s) port %d: %s, %s, MTU %d, %s, netdev %s\n",
				pre, rio_json_str(d, "name"),
				rio_json_str(d, "driver") ?: "no driver",
				rio_json_str(d, "transport")
					?: "transport unknown",
				(int)rio_json_num(p, "port", 0),
				rio_json_str(p, "state") ?: "?",
				rio_json_str(p, "link_layer") ?: "?",
				(int)rio_json_num(p, "active_mtu", 0),
				rio_json_str(p, "rate") ?: "rate unknown",
				rio_json_str(p, "netdev") ?: "none");
		}
	}
}

static void setup_mounts(json_object *doc, FILE *out)
{
	json_object *ms = rio_json_get(rio_json_get(doc, "environment"),
				       "nfs_mounts_during_run"),
		    *m;
	size_t i;

	for (i = 0; i < rio_json_len(ms); i++) {
		m = json_object_array_get_idx(ms, i);
		fprintf(out,
			"- NFS mount during the run: %s on %s, proto=%s vers=%s rsize=%d wsize=%d nconnect=%d\n",
			rio_json_str(m, "source"),
			rio_json_str(m, "mountpoint"),
			rio_json_str(m, "proto") ?: "?",
			rio_json_str(m, "vers") ?: "?",
			(int)rio_json_num(m, "rsize", 0),
			(int)rio_json_num(m, "wsize", 0),
			(int)rio_json_num(m, "nconnect", 1));
	}
}

static int has_warning(json_object *doc, const char *code)
{
	json_object *ws = rio_json_get(doc, "warnings");
	size_t i;

	for (i = 0; i < rio_json_len(ws); i++)
		if (!strcmp(rio_json_str(json_object_array_get_idx(ws, i),
					 "code"),
			    code))
			return 1;
	return 0;
}

/* The host line: name, kernel and CPU; then its versions. */
static void setup_host(const char *what, json_object *host, json_object *ver,
		       FILE *out)
{
	json_object *cpu = rio_json_get(host, "cpu");

	fprintf(out, "- %s %s: kernel %s, %d x %s%s\n", what,
		rio_json_str(host, "hostname"), rio_json_str(ver, "kernel"),
		(int)rio_json_num(cpu, "count", 0),
		rio_json_str(cpu, "model") ?: "unknown CPU",
		json_object_get_boolean(rio_json_get(cpu, "emulated"))
			? " (emulated)"
			: "");
}

/* fio.hosts[] of the client whose address is client, NULL when none. */
static json_object *fio_host(json_object *doc, const char *client)
{
	json_object *hs = rio_json_get(rio_json_get(doc, "fio"), "hosts"), *h;
	size_t i;

	for (i = 0; i < rio_json_len(hs); i++) {
		h = json_object_array_get_idx(hs, i);
		if (!strcmp(rio_json_str(h, "client"), client))
			return h;
	}
	return NULL;
}

/* Where fio --client sent what: "server lab-server (sock:...)" per host. */
static void setup_fio_hosts(json_object *doc, FILE *out)
{
	json_object *hs = rio_json_get(rio_json_get(doc, "fio"), "hosts"), *h;
	size_t i;

	if (!rio_json_len(hs))
		return;
	fprintf(out, "- fio client/server mode:");
	for (i = 0; i < rio_json_len(hs); i++) {
		h = json_object_array_get_idx(hs, i);
		fprintf(out, "%s %s%s%s (%s%s)", i ? ";" : "",
			rio_json_str(h, "role") ?: "",
			rio_json_str(h, "role") ? " jobs on " : "",
			rio_json_str(h, "host"),
			json_object_get_boolean(rio_json_get(h, "local"))
				? "this host, "
				: "",
			rio_json_str(h, "client"));
	}
	fprintf(out, "\n");
}

/* Each --client host's environment, as --remote-env recorded it. */
static void setup_remote(json_object *doc, FILE *out)
{
	json_object *rs = rio_json_get(doc, "remote_hosts"), *r, *env, *ver;
	const char *role;
	char what[512];
	size_t i;

	for (i = 0; i < rio_json_len(rs); i++) {
		r = json_object_array_get_idx(rs, i);
		env = rio_json_get(r, "env");
		ver = rio_json_get(env, "versions");
		role = rio_json_str(fio_host(doc, rio_json_str(r, "client")),
				    "role");
		if (role)
			snprintf(what, sizeof(what),
				 "%s host (fio --client %s) is", role,
				 rio_json_str(r, "client"));
		else
			snprintf(what, sizeof(what),
				 "remote host %s (fio --client %s) is",
				 rio_json_str(r, "host"),
				 rio_json_str(r, "client"));
		setup_host(what, rio_json_get(env, "host"), ver, out);
		fprintf(out, "  - rdmaio %s, %s, rdma-core %s\n",
			rio_json_str(ver, "rdmaio"),
			rio_json_str(ver, "fio") ?: "fio ?",
			rio_json_str(ver, "rdma_core") ?: "not installed");
		setup_devices(rio_json_get(env, "environment"), "  ", out);
	}
	if (has_warning(doc, "remote-environment"))
		fprintf(out,
			"- remote hosts' environments: not recorded (run with --remote-env)\n");
}

/* What the numbers were measured on, and how to read them, first. */
static void setup(json_object *doc, FILE *out)
{
	json_object *host = rio_json_get(doc, "host");
	json_object *ver = rio_json_get(doc, "versions");
	json_object *cpu = rio_json_get(host, "cpu");

	fprintf(out, "## Setup\n\n");
	setup_host("host", host, ver, out);
	fprintf(out, "- rdmaio %s, %s, rdma-core %s\n",
		rio_json_str(ver, "rdmaio"),
		rio_json_str(ver, "fio") ?: "fio ?",
		rio_json_str(ver, "rdma_core") ?: "not installed");
	setup_devices(rio_json_get(doc, "environment"), "", out);
	setup_mounts(doc, out);
	setup_fio_hosts(doc, out);
	setup_remote(doc, out);
	if (has_warning(doc, "software-rdma"))
		fprintf(out,
			"\n**The RDMA transport is software (Soft-RoCE/siw): it measures the CPU, not a NIC; RDMA slower than TCP here is expected.**\n");
	if (json_object_get_boolean(rio_json_get(cpu, "emulated")) ||
	    has_warning(doc, "emulated-cpu"))
		fprintf(out,
			"\n**The CPU is emulated: every figure is far below hardware; compare ratios only.**\n");
	fprintf(out, "\n");
}

static void print_causes(json_object *c, FILE *out)
{
	json_object *lc = rio_json_get(c, "likely_causes");
	size_t j;

	for (j = 0; j < rio_json_len(lc); j++)
		fprintf(out, "  - likely: %s\n",
			json_object_get_string(
				json_object_array_get_idx(lc, j)));
}

static int flagged(json_object *c, const char *name, const char *host)
{
	return !strcmp(rio_json_str(c, "status"), "flagged") &&
	       (!name || !strcmp(rio_json_str(c, "name"), name)) &&
	       (!host || !strcmp(rio_json_str(c, "host"), host));
}

/* A one-host run flags every job with a peer: one entry per host, naming
 * the jobs ("job NAME on HOST: ..." is how each check begins). */
static void print_loopback(json_object *checks, size_t first, FILE *out)
{
	json_object *c0 = json_object_array_get_idx(checks, first), *c;
	const char *host = rio_json_str(c0, "host"), *m, *on;
	size_t i, n = 0;

	for (i = 0; i < rio_json_len(checks); i++)
		n += flagged(json_object_array_get_idx(checks, i), "loopback",
			     host);
	fprintf(out, "- FLAGGED loopback: %zu job%s on %s reached %s itself (",
		n, n > 1 ? "s" : "", host, host);
	for (i = first, n = 0; i < rio_json_len(checks); i++) {
		c = json_object_array_get_idx(checks, i);
		m = rio_json_str(c, "message");
		on = strstr(m, " on ");
		if (flagged(c, "loopback", host) && !strncmp(m, "job ", 4) &&
		    on)
			fprintf(out, "%s%.*s", n++ ? ", " : "",
				(int)(on - m - 4), m + 4);
	}
	fprintf(out, "); the first: %s\n", rio_json_str(c0, "message"));
	print_causes(c0, out);
}

static int print_flagged(json_object *checks, FILE *out)
{
	json_object *c;
	size_t i, j;
	int any = 0, seen;

	for (i = 0; i < rio_json_len(checks); i++) {
		c = json_object_array_get_idx(checks, i);
		if (!flagged(c, NULL, NULL))
			continue;
		any = 1;
		if (strcmp(rio_json_str(c, "name"), "loopback")) {
			fprintf(out, "- FLAGGED %s: %s\n",
				rio_json_str(c, "name"),
				rio_json_str(c, "message"));
			print_causes(c, out);
			continue;
		}
		for (j = 0, seen = 0; j < i && !seen; j++)
			seen = flagged(json_object_array_get_idx(checks, j),
				       "loopback", rio_json_str(c, "host"));
		if (!seen)
			print_loopback(checks, i, out);
	}
	return any;
}

void rio_report_table(json_object *doc, FILE *out)
{
	json_object *checks = rio_json_get(doc, "checks");
	json_object *warns = rio_json_get(doc, "warnings");
	size_t i;

	setup(doc, out);
	comparisons_table(doc, out);
	jobs_table(doc, out);
	fprintf(out, "## Checks\n\n");
	if (!print_flagged(checks, out))
		fprintf(out, "- nothing flagged (%zu checks)\n",
			rio_json_len(checks));
	if (rio_json_len(warns)) {
		fprintf(out, "\n## Warnings\n\n");
		for (i = 0; i < rio_json_len(warns); i++)
			fprintf(out, "- %s\n",
				rio_json_str(json_object_array_get_idx(warns,
								       i),
					     "message"));
	}
}

/* Link ceiling for this host in MiB/s, NaN when unknown. */
static double ceiling_mib(json_object *doc)
{
	json_object *links = rio_json_get(doc, "links");
	double sum = 0;
	size_t i;

	for (i = 0; i < rio_json_len(links); i++)
		sum += rio_json_num(json_object_array_get_idx(links, i),
				    "ceiling_bytes_per_s", 0);
	return i ? sum / MIB : NAN;
}

static void clean_label(char *s)
{
	for (; *s; s++)
		if (*s == '"' || *s == '\n' || *s == '\\')
			*s = '\'';
}

/* Rows: label, RDMA or job MiB/s, TCP MiB/s ("NaN" when unpaired). */
static int write_data(json_object *doc, FILE *f, double *max)
{
	json_object *cs = rio_json_get(doc, "comparisons"), *rs, *c, *d;
	static const char *const dirs[] = { "read", "write" };
	double a, b;
	char l[512];
	size_t i;
	int k, rows = 0;

	*max = 0;
	for (i = 0; i < rio_json_len(cs); i++, rows++) {
		c = json_object_array_get_idx(cs, i);
		pair_label(l, sizeof(l), c, multi_host(doc, "comparisons"));
		clean_label(l);
		a = rio_json_num(rio_json_get(c, "rdma"), "bw_bytes", 0) / MIB;
		b = rio_json_num(rio_json_get(c, "tcp"), "bw_bytes", 0) / MIB;
		fprintf(f, "\"%s\" %.6f %.6f\n", l, a, b);
		*max = fmax(*max, fmax(a, b));
	}
	if (rows)
		return rows;
	rs = rio_json_get(doc, "results");
	for (i = 0; i < rio_json_len(rs); i++)
		for (k = 0; k < 2; k++) {
			d = rio_json_get(json_object_array_get_idx(rs, i),
					 dirs[k]);
			if (!d)
				continue;
			label(l, sizeof(l), json_object_array_get_idx(rs, i),
			      "jobname", dirs[k], multi_host(doc, "results"));
			clean_label(l);
			a = rio_json_num(d, "bw_bytes", 0) / MIB;
			fprintf(f, "\"%s\" %.6f NaN\n", l, a);
			*max = fmax(*max, a);
			rows++;
		}
	return -rows;
}

static int write_script(FILE *f, const char *data, const char *out, int svg,
			int paired, double max, double ceil)
{
	fprintf(f, "set terminal %s size 1000,560\n",
		svg ? "svg dynamic" : "pngcairo");
	fprintf(f, "set output '%s'\n", out);
	fprintf(f, "set title 'RDMA vs TCP bandwidth'\n");
	fprintf(f, "set ylabel 'MiB/s'\nset style data histograms\n");
	fprintf(f, "set style histogram clustered gap 1\n");
	fprintf(f, "set style fill solid 0.8 border -1\nset boxwidth 0.9\n");
	fprintf(f,
		"set xtics rotate by -30 noenhanced\nset key noenhanced top left\n");
	fprintf(f, "set grid ytics\nset yrange [0.01:*]\n");
	/* A lab run is ~1000x below a real link: linear bars would vanish. */
	if (!isnan(ceil) && ceil > 20 * max)
		fprintf(f, "set logscale y\n");
	if (!isnan(ceil))
		fprintf(f, "set yrange [*:%f]\n", ceil * 1.5);
	fprintf(f, "plot '%s' using 2:xtic(1) title '%s' lc rgb '#1f77b4'",
		data, paired ? "RDMA" : "bandwidth");
	if (paired)
		fprintf(f, ", '' using 3 title 'TCP' lc rgb '#ff7f0e'");
	if (!isnan(ceil))
		fprintf(f,
			", %f with lines lw 2 dt 2 lc rgb '#d62728' title 'link payload ceiling %.0f MiB/s'",
			ceil, ceil);
	fprintf(f, "\n");
	return ferror(f) ? -EIO : 0;
}

int rio_report_plot(json_object *doc, const char *path)
{
	char data[] = "/tmp/rdmaio-plot-XXXXXX.dat";
	char script[] = "/tmp/rdmaio-plot-XXXXXX.gp";
	const char *ext = strrchr(path, '.');
	char *tmp_out = NULL, *argv[] = { "gnuplot", script, NULL };
	int svg, rows, ret, fd1 = -1, fd2 = -1;
	FILE *fd = NULL, *fs = NULL;
	struct stat st;
	double max;

	if (!ext || (strcmp(ext, ".svg") && strcmp(ext, ".png"))) {
		RIO_ERR("plot %s: name must end in .svg or .png (that picks the format)",
			path);
		return -EINVAL;
	}
	if (strpbrk(path, "'\n")) {
		RIO_ERR("plot %s: a quote or newline in the name cannot be passed to gnuplot; rename it",
			path);
		return -EINVAL;
	}
	svg = !strcmp(ext, ".svg");
	if (asprintf(&tmp_out, "%s.tmp.%d%s", path, (int)getpid(), ext) < 0)
		return -ENOMEM;
	fd1 = mkstemps(data, 4);
	fd2 = mkstemps(script, 3);
	if (fd1 < 0 || fd2 < 0) {
		ret = -errno;
		RIO_CALL_ERR(-ret, "mkstemps", "%s", "/tmp/rdmaio-plot-*");
		goto out;
	}
	fd = fdopen(fd1, "w");
	fs = fdopen(fd2, "w");
	if (!fd || !fs) {
		ret = -ENOMEM;
		goto out;
	}
	fd1 = fd2 = -1;
	rows = write_data(doc, fd, &max);
	if (!rows) {
		RIO_ERR("plot %s: the result has no job that moved data: nothing to draw",
			path);
		ret = -EINVAL;
		goto out;
	}
	ret = write_script(fs, data, tmp_out, svg, rows > 0, max,
			   ceiling_mib(doc));
	if (fclose(fd) | fclose(fs))
		ret = ret ? ret : -EIO;
	fd = fs = NULL;
	if (ret)
		goto out;
	ret = rio_spawn_run(argv, 2, 120);
	if (ret) {
		RIO_ERR("plot %s: gnuplot failed (%s); install gnuplot-nox",
			path,
			ret < 0 ? strerror(-ret) : "see its message above");
		ret = -EIO;
		goto out;
	}
	if (stat(tmp_out, &st) || st.st_size == 0) {
		RIO_ERR("plot %s: gnuplot wrote no image", path);
		ret = -EIO;
		goto out;
	}
	if (rename(tmp_out, path)) {
		ret = -errno;
		RIO_CALL_ERR(-ret, "rename", "%s, %s", tmp_out, path);
	}
out:
	if (fd)
		fclose(fd);
	if (fs)
		fclose(fs);
	if (fd1 >= 0)
		close(fd1);
	if (fd2 >= 0)
		close(fd2);
	unlink(data);
	unlink(script);
	unlink(tmp_out);
	free(tmp_out);
	return ret;
}
