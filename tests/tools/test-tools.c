// SPDX-License-Identifier: MIT
/*
 * Unit tests of rdmaio's pieces that need no fio run: link ceilings, the
 * schema validator, the sysfs/mount-table fallback (on a temporary root),
 * CPU detection, job pairing, percentile merging, the `rdmaio env` document
 * and --remote-env's command line.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "result/check.h"
#include "result/envdoc.h"
#include "result/envstatus.h"
#include "result/fiooutput.h"
#include "result/host.h"
#include "result/hostmap.h"
#include "base/jsonread.h"
#include "read/cell.h"
#include "read/changes.h"
#include "read/compare.h"
#include "result/resultdoc.h"
#include "result/resultenv.h"
#include "result/runrecord.h"
#include "run/mountwatch.h"
#include "result/schema.h"
#include "base/strv.h"
#include "result/summary.h"

#define GIB (1024.0 * 1024 * 1024)

static void ceiling__matches_published_100g_figures(void **state)
{
	(void)state;
	/* The published payload ceilings of one 100 Gb/s link at MTU 4096:
	 * 11.41 GiB/s RoCEv2, 11.57 GiB/s InfiniBand. */
	assert_true(fabs(rio_check_ceiling(100, "ethernet", 4096) / GIB -
			 11.41) < 0.005);
	assert_true(fabs(rio_check_ceiling(100, "infiniband", 4096) / GIB -
			 11.57) < 0.005);
	assert_true(rio_check_ceiling(100, "ethernet", 1024) <
		    rio_check_ceiling(100, "ethernet", 4096));
}

static void ceiling__17_6_gib_exceeds_one_100g_link(void **state)
{
	(void)state;
	assert_true(17.6 * GIB > rio_check_ceiling(100, "ethernet", 4096));
	assert_true(17.6 * GIB > rio_check_ceiling(100, "infiniband", 4096));
}

static json_object *parse(const char *text)
{
	json_object *o = json_tokener_parse(text);

	assert_non_null(o);
	return o;
}

/* The links as the result writes them; NULL when rio_check_links
 * refuses. */
static json_object *links_json(const struct rio_link_opt *opt,
			       json_object *status)
{
	struct rio_links links;
	json_object *arr;

	if (rio_check_links(opt, status, &links))
		return NULL;
	arr = rio_check_links_json(&links);
	assert_non_null(arr);
	rio_check_links_free(&links);
	return arr;
}

static void links__option_is_validated(void **state)
{
	struct rio_link_opt bad = { .rate_gbps = 100, .link_layer = "fddi" };
	struct rio_link_opt ok = { .rate_gbps = 25, .mtu = 1024 };
	struct rio_links refused;
	json_object *l;

	(void)state;
	assert_int_equal(rio_check_links(&bad, NULL, &refused), -EINVAL);
	assert_int_equal((int)refused.n, 0);
	l = links_json(&ok, NULL);
	assert_int_equal(rio_json_len(l), 1);
	assert_string_equal(rio_json_str(json_object_array_get_idx(l, 0),
					 "link_layer"),
			    "ethernet");
	json_object_put(l);
}

static void links__active_hardware_ports_and_qdr_encoding(void **state)
{
	struct rio_link_opt none = { 0 };
	json_object *st = parse(
		"{\"rdma_devices\":[{\"name\":\"mlx4_0\",\"ports\":["
		"{\"port\":1,\"state\":\"ACTIVE\",\"link_layer\":\"InfiniBand\","
		"\"active_mtu\":4096,\"rate\":\"40 Gb/sec (4X QDR)\",\"rate_gbps\":40},"
		"{\"port\":2,\"state\":\"DOWN\",\"link_layer\":\"InfiniBand\","
		"\"active_mtu\":4096,\"rate_gbps\":40}]}]}");
	json_object *sw = parse(
		"{\"rdma_devices\":[{\"name\":\"rxe0\",\"transport\":\"software\","
		"\"ports\":[{\"port\":1,\"state\":\"ACTIVE\",\"link_layer\":\"Ethernet\","
		"\"active_mtu\":1024,\"rate\":\"2.5 Gb/sec (1X SDR)\",\"rate_gbps\":2.5}]}]}");
	json_object *l = links_json(&none, st), *l2;

	(void)state;
	l2 = links_json(&none, sw);
	assert_int_equal(rio_json_len(l2), 0);
	json_object_put(l2);
	json_object_put(sw);
	assert_int_equal(rio_json_len(l), 1);
	/* QDR signals 40 Gb/s but carries 32 (8b/10b). */
	assert_true(fabs(rio_json_num(json_object_array_get_idx(l, 0),
				      "rate_gbps", 0) -
			 32) < 1e-9);
	json_object_put(l);
	json_object_put(st);
}

static void schema__validator_accepts_and_rejects(void **state)
{
	json_object *s = parse(
		"{\"type\":\"object\",\"required\":[\"a\"],"
		"\"additionalProperties\":false,\"properties\":{"
		"\"a\":{\"type\":\"integer\",\"minimum\":1},"
		"\"b\":{\"anyOf\":[{\"type\":\"null\"},{\"$ref\":\"#/$defs/h\"}]}},"
		"\"$defs\":{\"h\":{\"type\":\"string\",\"pattern\":\"^[0-9a-f]{4}$\"}}}");
	json_object *good = parse("{\"a\":2,\"b\":\"beef\"}");
	json_object *nul = parse("{\"a\":2,\"b\":null}");
	json_object *pat = parse("{\"a\":2,\"b\":\"BEEF\"}");
	json_object *min = parse("{\"a\":0}");
	json_object *extra = parse("{\"a\":1,\"c\":1}");
	json_object *miss = parse("{}");
	char err[512];

	(void)state;
	assert_int_equal(rio_schema_validate(s, good, err, sizeof(err)), 0);
	assert_int_equal(rio_schema_validate(s, nul, err, sizeof(err)), 0);
	assert_int_not_equal(rio_schema_validate(s, pat, err, sizeof(err)), 0);
	assert_non_null(strstr(err, "/b"));
	assert_int_not_equal(rio_schema_validate(s, min, err, sizeof(err)), 0);
	assert_non_null(strstr(err, "/a"));
	assert_int_not_equal(rio_schema_validate(s, extra, err, sizeof(err)),
			     0);
	assert_non_null(strstr(err, "\"c\""));
	assert_int_not_equal(rio_schema_validate(s, miss, err, sizeof(err)), 0);
	assert_non_null(strstr(err, "missing required member \"a\""));
	json_object_put(s);
	json_object_put(good);
	json_object_put(nul);
	json_object_put(pat);
	json_object_put(min);
	json_object_put(extra);
	json_object_put(miss);
}

static void schema__builtin_rejects_empty_document(void **state)
{
	json_object *doc = parse("{\"schema\":\"rdmaio-result/1\"}");
	char err[512];

	(void)state;
	assert_non_null(strstr(rio_schema_text(), "rdmaio-result/1"));
	assert_int_not_equal(rio_schema_validate_result(doc, err, sizeof(err)),
			     0);
	assert_non_null(strstr(err, "missing required member"));
	json_object_put(doc);
}

static void put_file(const char *root, const char *rel, const char *text)
{
	char path[4096], cmd[4200];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", path);
	assert_int_equal(system(cmd), 0);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/*
 * A host's environment is common/rc_status.c's document, the one `nfsrdma
 * status --json` prints: its values, not a second reading of sysfs.
 */
static void env__rxe_device_and_nfs_mounts_as_nfsrdma_says(void **state)
{
	char root[] = "/tmp/rdmaio-unit-XXXXXX", cmd[256];
	json_object *env, *st, *dev, *port, *m, *w = json_object_new_array();

	(void)state;
	assert_non_null(mkdtemp(root));
	put_file(root, "sys/class/infiniband/rxe0/ports/1/state",
		 "4: ACTIVE\n");
	put_file(root, "sys/class/infiniband/rxe0/ports/1/link_layer",
		 "Ethernet\n");
	put_file(root, "sys/class/infiniband/rxe0/ports/1/rate",
		 "10 Gb/sec (1X QDR)\n");
	put_file(root, "sys/class/infiniband/rxe0/ports/1/gid_attrs/ndevs/0",
		 "veth0\n");
	put_file(
		root, "proc/mounts",
		"proc /proc proc rw 0 0\n"
		"198.18.0.1:/srv/x /mnt/my\\040dir nfs4 rw,vers=4.2,rsize=1048576,wsize=1048576,proto=rdma,port=20049,addr=198.18.0.1 0 0\n");
	env = rio_envstatus_gather(root, w);
	assert_string_equal(rio_json_str(env, "source"), "rdmaio");
	assert_null(rio_json_get(env, "command"));
	st = rio_json_get(env, "status");
	assert_string_equal(rio_json_str(st, "schema"), "rdmaio-status/1");
	dev = json_object_array_get_idx(rio_json_get(st, "rdma_devices"), 0);
	assert_string_equal(rio_json_str(dev, "name"), "rxe0");
	/* No parent device, and the kernel is not asked under a test root:
	 * no driver name, but software all the same. */
	assert_null(rio_json_get(dev, "driver"));
	assert_string_equal(rio_json_str(dev, "transport"), "software");
	assert_int_equal(rio_json_len(w), 1);
	port = json_object_array_get_idx(rio_json_get(dev, "ports"), 0);
	assert_string_equal(rio_json_str(port, "state"), "ACTIVE");
	assert_string_equal(rio_json_str(port, "netdev"), "veth0");
	/* The verbs provider's, not a guess from the netdev's MTU. */
	assert_null(rio_json_get(port, "active_mtu"));
	assert_int_equal((int)rio_json_num(port, "rate_gbps", 0), 10);
	assert_int_equal(rio_json_len(rio_json_get(st, "nfs_mounts")), 1);
	m = json_object_array_get_idx(rio_json_get(st, "nfs_mounts"), 0);
	assert_string_equal(rio_json_str(m, "mountpoint"), "/mnt/my dir");
	assert_string_equal(rio_json_str(m, "proto"), "rdma");
	assert_string_equal(rio_json_str(m, "vers"), "4.2");
	assert_int_equal((int)rio_json_num(m, "port", 0), 20049);
	assert_int_equal((int)rio_json_num(m, "rsize", 0), 1048576);
	/* The kernel omits nconnect= for one connection. */
	assert_int_equal((int)rio_json_num(m, "nconnect", 0), 1);
	json_object_put(env);
	json_object_put(w);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
}

static void host__qemu_cpu_is_emulated(void **state)
{
	char root[] = "/tmp/rdmaio-unit-XXXXXX", cmd[256];
	json_object *h, *cpu;

	(void)state;
	unsetenv("RDMAIO_LAB");
	assert_non_null(mkdtemp(root));
	put_file(
		root, "proc/cpuinfo",
		"processor\t: 0\nmodel name\t: QEMU Virtual CPU version 2.5+\n"
		"flags\t\t: fpu de pse hypervisor lahf_lm\n\n"
		"processor\t: 1\nmodel name\t: QEMU Virtual CPU version 2.5+\n");
	h = rio_host_describe(root);
	cpu = rio_json_get(h, "cpu");
	assert_int_equal((int)rio_json_num(cpu, "count", 0), 2);
	assert_true(json_object_get_boolean(rio_json_get(cpu, "hypervisor")));
	assert_true(json_object_get_boolean(rio_json_get(cpu, "emulated")));
	json_object_put(h);
	put_file(
		root, "proc/cpuinfo",
		"processor\t: 0\nmodel name\t: AMD EPYC\nflags\t\t: fpu hypervisor\n");
	h = rio_host_describe(root);
	assert_false(json_object_get_boolean(
		rio_json_get(rio_json_get(h, "cpu"), "emulated")));
	json_object_put(h);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
}

static void summary__pairing_by_suffix(void **state)
{
	size_t n;

	(void)state;
	assert_string_equal(rio_summary_transport("seq-read-rdma", &n), "rdma");
	assert_int_equal(n, 8);
	assert_string_equal(rio_summary_transport("rand4k-tcp", &n), "tcp");
	assert_int_equal(n, 6);
	assert_null(rio_summary_transport("rdma", &n));
	assert_null(rio_summary_transport("seq-read", &n));
}

/* fio's output read into the model, as the checks and derivations take it
 * (one job file: its global options are every job's). */
static struct rio_fio_output *model(json_object *out,
				    const struct rio_hostmap *map)
{
	struct rio_fio_output *fio;

	assert_int_equal(rio_fio_output_read(out, 1, map, &fio), 0);
	return fio;
}

static void summary__percentiles_merge_bins(void **state)
{
	json_object *out = parse(
		"{\"jobs\":[{\"read\":{\"clat_ns\":{\"percentile\":{\"50.000000\":7},"
		"\"bins\":{\"200\":50,\"100\":50}}}},"
		"{\"read\":{\"clat_ns\":{\"bins\":{\"900\":2,\"300\":98}}}}]}");
	struct rio_hostmap *map = rio_hostmap_new("h");
	struct rio_fio_output *fio = model(out, map);
	const struct rio_fio_job *both[2] = { rio_fio_output_job(fio, 0),
					      rio_fio_output_job(fio, 1) };

	(void)state;
	/* One entry: fio's own figure, even if bins would say otherwise. */
	assert_int_equal((int)rio_summary_clat_pct(both, 1, RIO_FIO_READ, 50),
			 7);
	/* Two: 200 samples, the 100th is 200 ns, the 199th is 900 ns. */
	assert_int_equal((int)rio_summary_clat_pct(both, 2, RIO_FIO_READ, 50),
			 200);
	assert_int_equal((int)rio_summary_clat_pct(both, 2, RIO_FIO_READ, 99),
			 300);
	assert_int_equal((int)rio_summary_clat_pct(both, 2, RIO_FIO_READ, 99.9),
			 900);
	assert_true(isnan(rio_summary_clat_pct(both, 2, RIO_FIO_WRITE, 50)));
	rio_fio_output_delete(&fio);
	rio_hostmap_delete(&map);
	json_object_put(out);
}

/* The chart's CDF and the summary's percentiles merge bins the same way:
 * every direction's, ascending, one without bins adding none. */
static void fio_output__merges_bins_ascending(void **state)
{
	json_object *out = parse(
		"{\"jobs\":[{\"read\":{\"clat_ns\":{\"bins\":{\"200\":5,\"100\":4}}}},"
		"{\"read\":{\"clat_ns\":{\"bins\":{\"900\":2,\"150\":3}}}},"
		"{\"read\":{\"io_bytes\":0}}]}");
	struct rio_hostmap *map = rio_hostmap_new("h");
	struct rio_fio_output *fio = model(out, map);
	const struct rio_fio_dir *dirs[3];
	const double ns[] = { 100, 150, 200, 900 }, count[] = { 4, 3, 5, 2 };
	struct rio_fio_bin *b;
	int i;

	(void)state;
	for (i = 0; i < 3; i++)
		dirs[i] = &rio_fio_output_job(fio, i)->dir[RIO_FIO_READ];
	assert_int_equal(rio_fio_bins_merge(dirs, 3, &b), 4);
	for (i = 0; i < 4; i++) {
		assert_int_equal((int)b[i].ns, (int)ns[i]);
		assert_int_equal((int)b[i].count, (int)count[i]);
	}
	free(b);
	assert_int_equal(rio_fio_bins_merge(dirs + 2, 1, &b), 0);
	assert_null(b);
	rio_fio_output_delete(&fio);
	rio_hostmap_delete(&map);
	json_object_put(out);
}

/* A result of rounds as the report reads it: each spread and interval
 * set where the result has one, unset (a "-" cell) where it is null. */
static void resultdoc__reads_the_rounds_spreads(void **state)
{
	json_object *doc = parse(
		"{\"rounds\":[{},{}],\"links\":[{\"ceiling_bytes_per_s\":100},"
		"{\"ceiling_bytes_per_s\":20}],"
		"\"results\":[{\"host\":\"a\",\"jobname\":\"j\",\"read\":{},"
		"\"write\":null,\"over_rounds\":{\"rounds\":2,\"read\":{"
		"\"bw_bytes\":{\"median\":5,\"min\":4,\"max\":6,\"n\":2},"
		"\"iops\":null,\"p50\":null,\"p99\":null},\"write\":null}},"
		"{\"host\":\"b\",\"jobname\":\"k\"}],"
		"\"comparisons\":[{\"host\":\"a\",\"direction\":\"read\","
		"\"tcp_direction\":\"write\",\"workload\":\"rtt\","
		"\"over_rounds\":{\"rounds\":2,\"bw_ratio\":{\"median\":2,"
		"\"min\":1,\"max\":3,\"n\":2,\"geomean\":1.9,\"ci95_low\":null,"
		"\"ci95_high\":null},\"iops_ratio\":null,"
		"\"host_cpu_per_gib\":[{\"host\":\"a\",\"ratio\":null}]}}],"
		"\"baselines\":[{\"name\":\"cp\",\"bytes\":16,\"elapsed_s\":2,"
		"\"over_rounds\":{\"rounds\":2,\"failed\":1,"
		"\"bw_bytes\":{\"median\":8,\"min\":7,\"max\":9,\"n\":1}}}],"
		"\"checks\":[{\"name\":\"loopback\",\"status\":\"flagged\","
		"\"message\":\"m\",\"host\":\"a\",\"likely_causes\":[\"x\"],"
		"\"rounds\":[1,3]},{\"name\":\"n\",\"status\":\"ok\"}],"
		"\"warnings\":[{\"code\":\"c\",\"message\":\"w\"}]}");
	const struct rio_res_pair *p;
	const struct rio_res_job *j;
	struct rio_resultdoc *rd;
	char cell[RIO_CELL_LEN];

	(void)state;
	assert_int_equal(rio_resultdoc_read(doc, &rd), 0);
	assert_int_equal(rio_resultdoc_nrounds(rd), 2);
	assert_int_equal((int)rio_resultdoc_link_ceiling(rd), 120);
	assert_true(rio_resultdoc_jobs_multi_host(rd));
	assert_false(rio_resultdoc_pairs_multi_host(rd));
	j = rio_resultdoc_job(rd, 0);
	assert_int_equal(j->over_rounds.rounds, 2);
	assert_true(j->over_rounds.dir[RIO_RES_READ].set);
	assert_false(j->over_rounds.dir[RIO_RES_WRITE].set);
	assert_false(j->over_rounds.dir[RIO_RES_READ].iops.set);
	rio_cell_spread(cell, sizeof(cell),
			&j->over_rounds.dir[RIO_RES_READ].bw_bytes,
			RIO_CELL_COUNT, 0);
	assert_string_equal(cell, "5 (4 – 6)");
	rio_cell_spread(cell, sizeof(cell),
			&j->over_rounds.dir[RIO_RES_READ].iops, RIO_CELL_COUNT,
			0);
	assert_string_equal(cell, "-");
	assert_int_equal(rio_resultdoc_job(rd, 1)->over_rounds.rounds, 0);
	p = rio_resultdoc_pair(rd, 0);
	rio_cell_pair_label(cell, sizeof(cell), p, 1);
	assert_string_equal(cell, "a: rtt (read/write)");
	rio_cell_interval(cell, sizeof(cell), &p->over_rounds.bw_ratio);
	assert_string_equal(cell, "2.00x (no interval)");
	rio_cell_interval(cell, sizeof(cell), &p->over_rounds.iops_ratio);
	assert_string_equal(cell, "-");
	assert_int_equal((int)p->over_rounds.nhost_cpu_per_gib, 1);
	assert_false(p->over_rounds.host_cpu_per_gib[0].ratio.spread.set);
	assert_int_equal(rio_resultdoc_baseline(rd, 0)->over_rounds.failed, 1);
	assert_int_equal(
		(int)rio_resultdoc_baseline(rd, 0)->over_rounds.bw_bytes.max,
		9);
	assert_int_equal((int)rio_resultdoc_nchecks(rd), 2);
	assert_string_equal(rio_resultdoc_check(rd, 0)->causes[0], "x");
	assert_int_equal(rio_resultdoc_check(rd, 0)->rounds[1], 3);
	assert_int_equal((int)rio_resultdoc_check(rd, 1)->nrounds, 0);
	assert_null(rio_resultdoc_check(rd, 1)->host);
	assert_null(rio_resultdoc_check(rd, 2));
	assert_string_equal(rio_resultdoc_warning(rd, 0)->code, "c");
	assert_true(rio_resultdoc_warned(rd, "c"));
	assert_false(rio_resultdoc_warned(rd, "d"));
	rio_resultdoc_delete(&rd);
	json_object_put(doc);
}

/* Which TCP a pair is against is part of its identity; a result from
 * before it was said is against plain TCP. */
static void resultdoc__pairs_against_each_tcp(void **state)
{
	json_object *doc = parse(
		"{\"results\":[],\"comparisons\":["
		"{\"host\":\"h\",\"workload\":\"w\",\"direction\":\"read\","
		"\"tcp_direction\":\"read\",\"bw_ratio\":2},"
		"{\"host\":\"h\",\"workload\":\"w\",\"against\":"
		"\"tcp-nconnect\",\"direction\":\"read\","
		"\"tcp_direction\":\"read\",\"bw_ratio\":1.1},"
		"{\"host\":\"h\",\"workload\":\"w\",\"against\":\"tcp\","
		"\"direction\":\"read\",\"tcp_direction\":\"read\"}]}");
	const struct rio_res_pair *p0, *p1;
	struct rio_resultdoc *rd;

	(void)state;
	assert_int_equal(rio_resultdoc_read(doc, &rd), 0);
	p0 = rio_resultdoc_pair(rd, 0);
	p1 = rio_resultdoc_pair(rd, 1);
	assert_string_equal(p0->against, "tcp");
	assert_false(rio_res_pair_is_nconnect(p0));
	assert_string_equal(rio_res_pair_against_name(p0), "TCP");
	assert_true(rio_res_pair_is_nconnect(p1));
	assert_string_equal(rio_res_pair_against_name(p1), "TCP nconnect");
	/* Not one of several: each is the only pair against its TCP. */
	assert_false(rio_resultdoc_pair_is_one_of_several(rd, p1));
	assert_ptr_equal(rio_resultdoc_pair_find(rd, p1, 0), p1);
	/* The third, said "tcp", is the first again. */
	assert_int_equal(rio_resultdoc_pair_occurrence(rd, 2), 1);
	assert_int_equal(rio_resultdoc_pair_occurrence(rd, 1), 0);
	rio_resultdoc_delete(&rd);
	json_object_put(doc);
}

/* Each round is a model of its own, and a job or pair is found in
 * another by its identity: numjobs' repeated names match in order, and a
 * pair's directions are part of it. */
static void resultdoc__matches_jobs_and_pairs_across_rounds(void **state)
{
	json_object *doc = parse(
		"{\"rounds\":[{\"results\":[{\"host\":\"h\",\"jobname\":\"j\","
		"\"read\":{\"bw_bytes\":1}},{\"host\":\"h\",\"jobname\":\"j\","
		"\"read\":{\"bw_bytes\":2}}]},{\"results\":[{\"host\":\"h\","
		"\"jobname\":\"j\",\"read\":{\"bw_bytes\":3}}],\"comparisons\":["
		"{\"host\":\"h\",\"workload\":\"w\",\"direction\":\"read\","
		"\"tcp_direction\":\"read\",\"bw_ratio\":1.5}]}],"
		"\"results\":[{\"host\":\"h\",\"jobname\":\"j\"},{\"host\":\"h\","
		"\"jobname\":\"j\"},{\"host\":\"g\",\"jobname\":\"j\"}],"
		"\"comparisons\":[{\"host\":\"h\",\"workload\":\"w\","
		"\"direction\":\"read\",\"tcp_direction\":\"write\"},{\"host\":"
		"\"h\",\"workload\":\"w\",\"direction\":\"read\","
		"\"tcp_direction\":\"read\"}]}");
	const struct rio_resultdoc *r0, *r1;
	const struct rio_res_job *j;
	const struct rio_res_pair *p;
	struct rio_resultdoc *rd, *one;

	(void)state;
	assert_int_equal(rio_resultdoc_read(doc, &rd), 0);
	r0 = rio_resultdoc_round(rd, 0);
	r1 = rio_resultdoc_round(rd, 1);
	assert_non_null(r0);
	assert_non_null(r1);
	assert_null(rio_resultdoc_round(rd, 2));
	assert_null(rio_resultdoc_round(rd, -1));
	assert_int_equal(rio_resultdoc_job_occurrence(rd, 0), 0);
	assert_int_equal(rio_resultdoc_job_occurrence(rd, 1), 1);
	assert_int_equal(rio_resultdoc_job_occurrence(rd, 2), 0);
	j = rio_resultdoc_job_find(r0, rio_resultdoc_job(rd, 1), 1);
	assert_non_null(j);
	assert_int_equal((int)j->dir[RIO_RES_READ].bw_bytes, 2);
	j = rio_resultdoc_job_find(r1, rio_resultdoc_job(rd, 0), 0);
	assert_non_null(j);
	assert_int_equal((int)j->dir[RIO_RES_READ].bw_bytes, 3);
	assert_null(rio_resultdoc_job_find(r1, rio_resultdoc_job(rd, 1), 1));
	assert_null(rio_resultdoc_job_find(r1, rio_resultdoc_job(rd, 2), 0));
	assert_null(rio_resultdoc_pair_find(r1, rio_resultdoc_pair(rd, 0), 0));
	p = rio_resultdoc_pair_find(r1, rio_resultdoc_pair(rd, 1), 0);
	assert_non_null(p);
	assert_true(p->bw_ratio == 1.5);
	assert_int_equal(rio_resultdoc_pair_occurrence(rd, 1), 0);
	rio_resultdoc_delete(&rd);
	json_object_put(doc);
	/* Without rounds[], or with an empty one, the result is its own one
	 * round; a round's own rounds[] is not read. */
	doc = parse("{\"results\":[],\"rounds\":[]}");
	assert_int_equal(rio_resultdoc_read(doc, &one), 0);
	assert_ptr_equal(rio_resultdoc_round(one, 0), one);
	assert_null(rio_resultdoc_round(one, 1));
	rio_resultdoc_delete(&one);
	json_object_put(doc);
	doc = parse("{\"rounds\":[{\"rounds\":[{},{}]}]}");
	assert_int_equal(rio_resultdoc_read(doc, &one), 0);
	r0 = rio_resultdoc_round(one, 0);
	assert_int_equal(rio_resultdoc_nrounds(r0), 0);
	assert_ptr_equal(rio_resultdoc_round(r0, 0), r0);
	rio_resultdoc_delete(&one);
	json_object_put(doc);
}

/* The setup as the report reads it: a remote host takes its role from
 * fio.hosts[], an export counts as used when a mount's source ends in
 * its path, and what a result lacks is NULL or 0 (nconnect 1). */
static void resultenv__reads_hosts_exports_and_mounts(void **state)
{
	json_object *doc = parse(
		"{\"host\":{\"hostname\":\"s\",\"cpu\":{\"count\":2,\"emulated\":true}},"
		"\"versions\":{\"kernel\":\"6.1\",\"fio\":\"fio-3.33\"},"
		"\"environment\":{\"nfs_mounts_during_run\":[{\"source\":"
		"\"198.18.0.1:/srv/x\",\"proto\":\"rdma\"}],\"status\":{"
		"\"rdma_devices\":[{\"name\":\"rxe0\",\"ports\":[{\"port\":1,"
		"\"active_mtu\":1024}]}],\"exports\":[{\"path\":\"/srv/x\","
		"\"options\":[\"rw\",\"async\"]},{\"path\":\"/srv/y\"}]}},"
		"\"fio\":{\"hosts\":[{\"client\":\"c1\",\"host\":\"h1\","
		"\"role\":\"client\",\"local\":false}]},"
		"\"remote_hosts\":[{\"client\":\"c1\",\"host\":\"h1\",\"env\":{"
		"\"host\":{\"hostname\":\"h1\"}}}],"
		"\"warnings\":[{\"code\":\"software-rdma\"}]}");
	const struct rio_env_host *h, *r;
	const struct rio_env_mount *m;
	struct rio_resultenv *env;

	(void)state;
	assert_int_equal(rio_resultenv_read(doc, &env), 0);
	h = rio_resultenv_host(env);
	assert_string_equal(h->hostname, "s");
	assert_string_equal(h->kernel, "6.1");
	assert_int_equal(h->cpu_count, 2);
	assert_true(h->cpu_emulated);
	assert_null(h->rdma_core);
	assert_int_equal((int)h->ndevices, 1);
	assert_int_equal(h->devices[0].ports[0].active_mtu, 1024);
	assert_null(h->devices[0].ports[0].state);
	assert_int_equal((int)h->nexports, 2);
	assert_string_equal(h->exports[0].options[1], "async");
	assert_int_equal((int)h->exports[1].noptions, 0);
	assert_true(rio_resultenv_export_used(env, "/srv/x"));
	assert_false(rio_resultenv_export_used(env, "/srv/y"));
	assert_false(rio_resultenv_export_used(env, "/srv"));
	m = rio_resultenv_mount(env, 0);
	assert_string_equal(m->proto, "rdma");
	assert_int_equal(m->nconnect, 1);
	assert_null(rio_resultenv_mount(env, 1));
	r = rio_resultenv_remote(env, 0);
	assert_string_equal(r->role, "client");
	assert_string_equal(r->hostname, "h1");
	assert_int_equal((int)r->ndevices, 0);
	rio_resultenv_delete(&env);
	assert_null(env);
	json_object_put(doc);
}

/* What compare reads of a setup beyond the report: the mounts of a
 * status, the job files, fio's clients, and whether remote hosts were
 * recorded at all. */
static void resultenv__reads_mounts_job_files_and_clients(void **state)
{
	json_object *doc = parse(
		"{\"environment\":{\"status\":{\"nfs_mounts\":[{\"mountpoint\":"
		"\"/mnt/r\",\"port\":20049,\"rsize\":4096}]}},"
		"\"job_files\":[{\"path\":\"a.fio\",\"sha256\":\"ab\"}],"
		"\"fio\":{\"clients\":[\"h1,8765\",\"h2\"]}}");
	const struct rio_env_mount *m;
	struct rio_resultenv *env;

	(void)state;
	assert_int_equal(rio_resultenv_read(doc, &env), 0);
	assert_int_equal((int)rio_resultenv_host(env)->nmounts, 1);
	m = &rio_resultenv_host(env)->mounts[0];
	assert_string_equal(m->mountpoint, "/mnt/r");
	assert_int_equal(m->port, 20049);
	assert_int_equal(m->rsize, 4096);
	assert_int_equal(m->wsize, 0);
	assert_int_equal(m->nconnect, 1);
	assert_int_equal((int)rio_resultenv_njob_files(env), 1);
	assert_string_equal(rio_resultenv_job_file(env, 0)->sha256, "ab");
	assert_null(rio_resultenv_job_file(env, 1));
	assert_int_equal((int)rio_resultenv_nfio_clients(env), 2);
	assert_string_equal(rio_resultenv_fio_client(env, 1), "h2");
	assert_null(rio_resultenv_fio_client(env, 2));
	assert_false(rio_resultenv_remotes_recorded(env));
	rio_resultenv_delete(&env);
	json_object_put(doc);
}

/* rio_compare's environment lines for two setups. */
static char *compare_env(const char *old_doc, const char *new_doc)
{
	json_object *a = parse(old_doc), *b = parse(new_doc);
	char *text = NULL;
	size_t len;
	FILE *out = open_memstream(&text, &len);

	assert_non_null(out);
	assert_int_equal(rio_compare(a, b, 5, out), 0);
	fclose(out);
	json_object_put(a);
	json_object_put(b);
	return text;
}

#define PORT_DOC(rate, state)                                                  \
	"{\"versions\":{\"fio\":\"fio-3.33\"},\"environment\":{\"status\":{"   \
	"\"rdma_devices\":[{\"name\":\"rxe0\",\"ports\":[{\"rate_gbps\":" rate \
	",\"state\":\"" state "\"}]}],\"nfs_mounts\":[{\"mountpoint\":"        \
	"\"/mnt/r\",\"nconnect\":4}]}},\"fio\":{\"clients\":[\"h1\"]},"        \
	"\"remote_hosts\":[]}"

/* A result with one --remote-env host x: its kernel, one mount's nconnect
 * (NCONNECT: a member, or nothing) and its devices (DEVICES). */
#define REMOTE_DOC(kernel, nconnect, devices)                                  \
	"{\"remote_hosts\":[{\"host\":\"x\",\"env\":{\"versions\":{"           \
	"\"kernel\":\"" kernel "\"},\"environment\":{\"status\":{"             \
	"\"rdma_devices\":[" devices "],\"nfs_mounts\":[{\"mountpoint\":"      \
	"\"/mnt/t\"" nconnect "}]}}}}]}"
#define RXE0 "{\"name\":\"rxe0\",\"ports\":[{\"state\":\"ACTIVE\"}]}"
#define RXE0_2 "{\"name\":\"rxe0\",\"ports\":[{\"state\":\"DOWN\"},{}]}"

/* Each field that differs is one line, labelled by where it is; what
 * only one side has is named; equal setups say none. */
static void compare__names_each_environment_difference(void **state)
{
	char *t;

	(void)state;
	t = compare_env(PORT_DOC("10.0", "ACTIVE"), PORT_DOC("2.5", "DOWN"));
	assert_non_null(strstr(t, "\n- RDMA device rxe0 port 1 rate_gbps: "
				  "10.0 -> 2.5\n"));
	assert_non_null(strstr(
		t, "\n- RDMA device rxe0 port 1 state: ACTIVE -> DOWN\n"));
	assert_null(strstr(t, "nconnect"));
	free(t);
	t = compare_env(PORT_DOC("10.0", "ACTIVE"),
			"{\"versions\":{\"fio\":\"fio-3.34\"},\"job_files\":[{"
			"\"path\":\"a.fio\",\"sha256\":\"ab\"}]}");
	assert_non_null(strstr(t, "\n- fio version: fio-3.33 -> fio-3.34\n"));
	assert_non_null(strstr(t, "\n- RDMA device rxe0: only in the old "
				  "result\n"));
	assert_non_null(strstr(t, "\n- NFS mount /mnt/r: only in the old "
				  "result\n"));
	assert_non_null(strstr(t, "\n- job file a.fio: only in the new "
				  "result\n"));
	assert_non_null(strstr(t, "\n- fio clients: h1 -> none\n"));
	assert_non_null(strstr(t, "\n- remote hosts' environments: recorded "
				  "only in the old result (--remote-env)\n"));
	free(t);
	t = compare_env(PORT_DOC("10.0", "ACTIVE"), PORT_DOC("10", "ACTIVE"));
	assert_non_null(strstr(t, "\n- none: same versions"));
	free(t);
	/* A remote host's lines name it; ports past the shorter list are
	 * not compared; a mount without nconnect has the kernel's one. */
	t = compare_env(REMOTE_DOC("6.1", "", RXE0),
			REMOTE_DOC("6.12", ",\"nconnect\":4",
				   RXE0_2 ",{\"name\":\"mlx5_0\"}"));
	assert_non_null(strstr(t, "\n- remote host x: kernel version: 6.1 -> "
				  "6.12\n"));
	assert_non_null(strstr(t, "\n- remote host x: RDMA device rxe0 port 1 "
				  "state: ACTIVE -> DOWN\n"));
	assert_null(strstr(t, "port 2"));
	assert_non_null(strstr(t, "\n- remote host x: RDMA device mlx5_0: "
				  "only in the new result\n"));
	assert_non_null(strstr(t, "\n- remote host x: NFS mount /mnt/t "
				  "nconnect: 1 -> 4\n"));
	free(t);
	t = compare_env(REMOTE_DOC("6.1", "", RXE0),
			REMOTE_DOC("6.1", ",\"nconnect\":1", RXE0));
	assert_non_null(strstr(t, "\n- none: same versions"));
	free(t);
}

/* The occ-th of a repeated job name is followed round by round as the
 * occ-th: the second p entry's bandwidth doubled in both rounds of the
 * new result is a change of its row only. */
#define P_RESULTS(a, b)                                                        \
	"\"results\":[{\"host\":\"h\",\"jobname\":\"p\",\"read\":{"            \
	"\"bw_bytes\":" a "}},{\"host\":\"h\",\"jobname\":\"p\",\"read\":{"    \
	"\"bw_bytes\":" b "}}]"
#define P_ROUNDS(b)                                                            \
	"{\"rounds\":[{" P_RESULTS("1048576", b) "},{" P_RESULTS(              \
		"1048576", b) "}]," P_RESULTS("0", "0") "}"
static void changes__follow_a_repeated_job_round_by_round(void **state)
{
	json_object *a = parse(P_ROUNDS("2097152")),
		    *b = parse(P_ROUNDS("4194304"));
	struct rio_changes_count c;
	char *text = NULL;
	size_t len;
	FILE *out = open_memstream(&text, &len);

	(void)state;
	assert_non_null(out);
	assert_int_equal(rio_changes_write(a, b, 5, out, &c), 0);
	fclose(out);
	assert_non_null(strstr(text, "| p (read) | MiB/s | 1.00 [1.00, 1.00] "
				     "| 1.00 [1.00, 1.00] | +0.0%"));
	assert_non_null(strstr(text, "| p (read) | MiB/s | 2.00 [2.00, 2.00] "
				     "| 4.00 [4.00, 4.00] | +100.0%"));
	assert_non_null(strstr(text, "Old result: 2 rounds; new result: 2 "
				     "rounds."));
	free(text);
	json_object_put(a);
	json_object_put(b);
}

static void fio_output__keeps_fio_numbers_as_printed(void **state)
{
	/* 2^53 + 1 bytes: a double would round it. */
	json_object *out = parse(
		"{\"global options\":{\"directory\":\"/g\"},\"client_stats\":["
		"{\"jobname\":\"a\",\"hostname\":\"sock:/x\",\"groupid\":2,"
		"\"job options\":{\"wait_for\":\"b\"},\"usr_cpu\":1.250000,"
		"\"read\":{\"io_bytes\":9007199254740993,\"iops\":0.100000,"
		"\"clat_ns\":{\"mean\":12.500000,\"percentile\":{\"99.900000\":640}}}},"
		"{\"jobname\":\"All clients\",\"read\":{\"io_bytes\":1}}]}");
	struct rio_hostmap *map = rio_hostmap_new("h");
	struct rio_fio_output *fio = model(out, map), *two;
	const struct rio_fio_job *j;
	json_object *v;

	(void)state;
	assert_int_equal(rio_fio_output_count(out), 1);
	assert_int_equal(rio_fio_output_njobs(fio), 1);
	assert_null(rio_fio_output_job(fio, 1));
	j = rio_fio_output_job(fio, 0);
	assert_string_equal(j->jobname, "a");
	assert_string_equal(j->hostname, "sock:/x");
	assert_int_equal(j->groupid, 2);
	assert_true(j->dir[RIO_FIO_READ].io_bytes.is_int);
	v = rio_fio_num_json(&j->dir[RIO_FIO_READ].io_bytes);
	assert_string_equal(json_object_to_json_string(v), "9007199254740993");
	json_object_put(v);
	v = rio_fio_num_json(&j->dir[RIO_FIO_READ].iops);
	assert_string_equal(json_object_to_json_string(v), "0.100000");
	json_object_put(v);
	assert_null(rio_fio_num_json(&j->dir[RIO_FIO_WRITE].iops));
	assert_false(j->sys_cpu.set);
	assert_int_equal((int)rio_fio_dir_pct(&j->dir[RIO_FIO_READ], 99.9),
			 640);
	assert_true(isnan(rio_fio_dir_pct(&j->dir[RIO_FIO_READ], 99)));
	assert_null(j->dir[RIO_FIO_READ].bins);
	assert_string_equal(rio_fio_job_option(fio, j, "wait_for"), "b");
	assert_null(rio_fio_job_option(fio, j, "directory"));
	assert_string_equal(rio_fio_job_setting(fio, j, "directory"), "/g");
	/* Several job files: fio's global options are the last one's only. */
	assert_int_equal(rio_fio_output_read(out, 2, map, &two), 0);
	assert_null(rio_fio_job_setting(two, rio_fio_output_job(two, 0),
					"directory"));
	rio_fio_output_delete(&two);
	rio_fio_output_delete(&fio);
	assert_null(fio);
	rio_fio_output_delete(&fio);
	rio_hostmap_delete(&map);
	json_object_put(out);
}

static void mountwatch__keeps_mounts_gone_after_the_run(void **state)
{
	char root[] = "/tmp/rdmaio-unit-XXXXXX", cmd[256];
	struct rio_mountwatch *w;
	json_object *seen;

	(void)state;
	assert_non_null(mkdtemp(root));
	put_file(root, "proc/mounts", "proc /proc proc rw 0 0\n");
	w = rio_mountwatch_new(root);
	assert_non_null(w);
	rio_mountwatch_sample(w);
	put_file(root, "proc/mounts",
		 "s:/x /mnt/r nfs4 rw,vers=4.2,proto=rdma,port=20049 0 0\n"
		 "s:/x /mnt/t nfs4 rw,vers=4.2,proto=tcp,nconnect=8 0 0\n");
	rio_mountwatch_sample(w);
	rio_mountwatch_sample(w);
	put_file(root, "proc/mounts", "proc /proc proc rw 0 0\n");
	rio_mountwatch_sample(w);
	seen = rio_mountwatch_seen(w);
	assert_int_equal(rio_json_len(seen), 2);
	assert_string_equal(rio_json_str(json_object_array_get_idx(seen, 0),
					 "proto"),
			    "rdma");
	assert_int_equal((int)rio_json_num(json_object_array_get_idx(seen, 1),
					   "nconnect", 0),
			 8);
	json_object_put(seen);
	rio_mountwatch_delete(&w);
	assert_null(w);
	rio_mountwatch_delete(&w);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
}

/* The model of a run whose mounts during the run were mounts. */
static struct rio_resultenv *mounts_env(json_object *mounts)
{
	struct rio_resultenv *env;

	assert_int_equal(rio_resultenv_read_parts(NULL, NULL, mounts, &env), 0);
	return env;
}

static void nfs_transport__names_must_match_mount_protos(void **state)
{
	json_object *out = parse(
		"{\"fio version\":\"fio-3.33\",\"global options\":{\"directory\":\"/mnt/t\"},"
		"\"jobs\":[{\"jobname\":\"seq-read-rdma\",\"groupid\":0,"
		"\"job options\":{\"directory\":\"/mnt/r/sub\"}},"
		"{\"jobname\":\"seq-read-tcp\",\"groupid\":1},"
		"{\"jobname\":\"x-tcp\",\"groupid\":2,"
		"\"job options\":{\"filename\":\"/mnt/rx:/mnt/t/b\"}},"
		"{\"jobname\":\"local-rdma\",\"groupid\":3,"
		"\"job options\":{\"directory\":\"/tmp\"}}]}");
	json_object *mounts = parse(
		"[{\"source\":\"s:/x\",\"mountpoint\":\"/mnt/r\",\"proto\":\"rdma\"},"
		"{\"source\":\"s:/x\",\"mountpoint\":\"/mnt/rx\",\"proto\":\"rdma\"},"
		"{\"source\":\"s:/x\",\"mountpoint\":\"/mnt/t\",\"proto\":\"tcp\"}]");
	json_object *checks = json_object_new_array(), *c;
	struct rio_hostmap *map = rio_hostmap_new("h");
	int flagged = 0;

	struct rio_fio_output *fio = model(out, map);
	struct rio_resultenv *env = mounts_env(mounts);

	(void)state;
	rio_check_nfs_transport(fio, map, env, checks, &flagged);
	rio_resultenv_delete(&env);
	assert_int_equal(rio_json_len(checks), 4);
	assert_int_equal(flagged, 2);
	c = json_object_array_get_idx(checks, 0);
	assert_string_equal(rio_json_str(c, "status"), "pass");
	c = json_object_array_get_idx(checks, 1);
	assert_string_equal(rio_json_str(c, "status"), "pass");
	/* /mnt/rx is not inside /mnt/r, and the first file decides. */
	c = json_object_array_get_idx(checks, 2);
	assert_string_equal(rio_json_str(c, "status"), "flagged");
	assert_non_null(strstr(rio_json_str(c, "message"), "/mnt/rx"));
	assert_true(rio_json_len(rio_json_get(c, "likely_causes")) > 0);
	json_object_put(checks);
	/* Without a record of the mounts (a bare fio JSON), no checks. */
	checks = json_object_new_array();
	flagged = 0;
	rio_check_nfs_transport(fio, map, NULL, checks, &flagged);
	assert_int_equal(rio_json_len(checks), 0);
	assert_int_equal(flagged, 0);
	env = mounts_env(NULL);
	rio_check_nfs_transport(fio, map, env, checks, &flagged);
	rio_resultenv_delete(&env);
	assert_int_equal(rio_json_len(checks), 0);
	rio_fio_output_delete(&fio);
	rio_hostmap_delete(&map);
	json_object_put(checks);
	json_object_put(mounts);
	json_object_put(out);
}

static void
nfs_transport__local_folder_is_flagged_verbs_jobs_are_not(void **state)
{
	/* A failed mount leaves /mnt/r a plain folder: the -rdma job measured
	 * the local disk. Verbs and net engine jobs have no path, a block
	 * device (NVMe over fabrics) is no file system. */
	json_object *out = parse(
		"{\"fio version\":\"fio-3.33\",\"jobs\":["
		"{\"jobname\":\"seq-read-rdma\",\"groupid\":0,"
		"\"job options\":{\"directory\":\"/mnt/r\"}},"
		"{\"jobname\":\"write-rdma\",\"groupid\":1,\"job options\":"
		"{\"ioengine\":\"external:/x/librdmaio.so\",\"hostname\":\"198.18.0.1\"}},"
		"{\"jobname\":\"rtt-tcp\",\"groupid\":1,\"job options\":"
		"{\"ioengine\":\"net\",\"hostname\":\"198.18.0.1\",\"port\":\"7479\"}},"
		"{\"jobname\":\"blk-rdma\",\"groupid\":2,"
		"\"job options\":{\"filename\":\"/dev/nvme1n1\"}}]}");
	json_object *mounts = json_object_new_array();
	json_object *checks = json_object_new_array(), *c;
	struct rio_hostmap *map = rio_hostmap_new("h");
	int flagged = 0;

	struct rio_fio_output *fio = model(out, map);
	struct rio_resultenv *env = mounts_env(mounts);

	(void)state;
	rio_check_nfs_transport(fio, map, env, checks, &flagged);
	rio_resultenv_delete(&env);
	rio_fio_output_delete(&fio);
	rio_hostmap_delete(&map);
	assert_int_equal(rio_json_len(checks), 1);
	assert_int_equal(flagged, 1);
	c = json_object_array_get_idx(checks, 0);
	assert_string_equal(rio_json_str(c, "name"), "nfs-transport");
	assert_string_equal(rio_json_str(c, "status"), "flagged");
	assert_string_equal(
		rio_json_str(c, "message"),
		"job seq-read-rdma uses /mnt/r, which is on no NFS mount during the run: it measured the local file system, not NFS over rdma");
	assert_non_null(strstr(json_object_get_string(json_object_array_get_idx(
				       rio_json_get(c, "likely_causes"), 0)),
			       "mount failed or was unmounted"));
	json_object_put(checks);
	json_object_put(mounts);
	json_object_put(out);
}

/* A fio entry writing wr GiB/s; wait_for NULL: none. */
static void add_job(json_object *arr, const char *name, int gid, double wr,
		    const char *wait_for, const char *server)
{
	json_object *e = json_object_new_object(), *o, *w;

	json_object_object_add(e, "jobname", json_object_new_string(name));
	json_object_object_add(e, "groupid", json_object_new_int(gid));
	if (server) {
		json_object_object_add(e, "hostname",
				       json_object_new_string(server));
		json_object_object_add(e, "port", json_object_new_int(8765));
	}
	o = json_object_new_object();
	if (wait_for)
		json_object_object_add(o, "wait_for",
				       json_object_new_string(wait_for));
	json_object_object_add(e, "job options", o);
	w = json_object_new_object();
	json_object_object_add(w, "bw_bytes",
			       json_object_new_int64((int64_t)(wr * GIB)));
	json_object_object_add(e, "write", w);
	json_object_array_add(arr, e);
}

static json_object *fio_output(json_object *entries, int client)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "fio version",
			       json_object_new_string("fio-3.33"));
	json_object_object_add(o, client ? "client_stats" : "jobs", entries);
	return o;
}

/* The payload-ceiling checks of out on a 64 Gb/s RoCEv2 link (7.30 GiB/s). */
static json_object *checks_64g(json_object *out, json_object *runs,
			       struct rio_hostmap *map, int *flagged)
{
	struct rio_link_opt opt = { .rate_gbps = 64 };
	json_object *warnings = json_object_new_array(), *checks;
	struct rio_fio_output *fio = model(out, map);
	struct rio_fio_argvs argvs;
	struct rio_links links;

	assert_int_equal(rio_check_links(&opt, NULL, &links), 0);
	assert_int_equal(rio_runrecord_argvs_read(runs, &argvs), 0);
	checks = rio_check_run(fio, &argvs, map, &links, warnings, flagged);
	rio_runrecord_argvs_free(&argvs);
	rio_fio_output_delete(&fio);
	assert_int_equal(rio_json_len(warnings), 0);
	json_object_put(warnings);
	rio_check_links_free(&links);
	return checks;
}

static void ceiling__serial_wait_for_chain_is_not_summed(void **state)
{
	json_object *jobs = json_object_new_array(), *out, *checks, *c;
	struct rio_hostmap *map = rio_hostmap_new("h");
	int flagged = -1;

	(void)state;
	add_job(jobs, "w1", 0, 7, NULL, NULL);
	add_job(jobs, "w2", 0, 7, "w1", NULL);
	add_job(jobs, "w3", 0, 7, "w2", NULL);
	out = fio_output(jobs, 0);
	checks = checks_64g(out, NULL, map, &flagged);
	assert_int_equal(flagged, 0);
	assert_int_equal(rio_json_len(checks), 1);
	c = json_object_array_get_idx(checks, 0);
	assert_string_equal(rio_json_str(c, "status"), "pass");
	assert_true(fabs(rio_json_num(c, "measured_bytes_per_s", 0) - 7 * GIB) <
		    1);
	assert_string_equal(
		rio_json_str(c, "message"),
		"write 7.00 GiB/s (60.1 Gb/s) of job w1 is within the 7.30 GiB/s payload ceiling of 64 Gb/s ethernet MTU 4096; jobs w2, w3 were left out: wait_for ran them before or after the jobs summed");
	json_object_put(checks);
	json_object_put(out);
	rio_hostmap_delete(&map);
}

static void ceiling__jobs_of_one_group_without_wait_for_are_summed(void **state)
{
	json_object *jobs = json_object_new_array(), *out, *checks, *c;
	struct rio_hostmap *map = rio_hostmap_new("h");
	int flagged = 0;

	(void)state;
	add_job(jobs, "a", 0, 7, NULL, NULL);
	add_job(jobs, "b", 0, 7, NULL, NULL);
	out = fio_output(jobs, 0);
	checks = checks_64g(out, NULL, map, &flagged);
	assert_int_equal(flagged, 1);
	assert_int_equal(rio_json_len(checks), 1);
	c = json_object_array_get_idx(checks, 0);
	assert_string_equal(rio_json_str(c, "status"), "flagged");
	assert_true(fabs(rio_json_num(c, "measured_bytes_per_s", 0) -
			 14 * GIB) < 1);
	assert_non_null(strstr(
		rio_json_str(c, "message"),
		"write 14.00 GiB/s (120.3 Gb/s) of jobs a + b that may run at once exceeds the 7.30 GiB/s payload ceiling"));
	assert_null(strstr(rio_json_str(c, "message"), "left out"));
	assert_true(rio_json_len(rio_json_get(c, "likely_causes")) > 0);
	json_object_put(checks);
	json_object_put(out);
	rio_hostmap_delete(&map);
}

static void ceiling__fork_sums_the_waiters(void **state)
{
	json_object *jobs = json_object_new_array(), *out, *checks, *c;
	struct rio_hostmap *map = rio_hostmap_new("h");
	int flagged = 0;

	(void)state;
	/* b and c both wait for a, so run together after it; d waits for a
	 * job of another group (it ran before), so it runs with a or b+c. */
	add_job(jobs, "x", 0, 1, NULL, NULL);
	add_job(jobs, "a", 1, 6, NULL, NULL);
	add_job(jobs, "b", 1, 4, "a", NULL);
	add_job(jobs, "c", 1, 3, "a", NULL);
	add_job(jobs, "d", 1, 0.5, "x", NULL);
	out = fio_output(jobs, 0);
	checks = checks_64g(out, NULL, map, &flagged);
	assert_int_equal(rio_json_len(checks), 2);
	assert_int_equal(flagged, 1);
	c = json_object_array_get_idx(checks, 1);
	assert_int_equal((int)rio_json_num(c, "groupid", -1), 1);
	assert_string_equal(rio_json_str(c, "status"), "flagged");
	assert_true(fabs(rio_json_num(c, "measured_bytes_per_s", 0) -
			 7.5 * GIB) < 1);
	assert_non_null(strstr(
		rio_json_str(c, "message"),
		"write 7.50 GiB/s (64.4 Gb/s) of jobs b + c + d that may run at once exceeds"));
	assert_non_null(strstr(rio_json_str(c, "message"),
			       "; job a was left out: wait_for ran it"));
	json_object_put(checks);
	json_object_put(out);
	rio_hostmap_delete(&map);
}

/* One fio run of a split run: the job file and sections of each server. */
static json_object *split_run(const char *file, const char *server_section,
			      const char *client_section)
{
	json_object *run = json_object_new_object(), *a;
	char buf[128];

	a = json_object_new_array();
	json_object_array_add(a, json_object_new_string("fio"));
	json_object_array_add(a, json_object_new_string("--client=sock:/s"));
	json_object_array_add(a, json_object_new_string(file));
	snprintf(buf, sizeof(buf), "--section=%s", server_section);
	json_object_array_add(a, json_object_new_string(buf));
	json_object_array_add(a, json_object_new_string("--client=sock:/c"));
	json_object_array_add(a, json_object_new_string(file));
	snprintf(buf, sizeof(buf), "--section=%s", client_section);
	json_object_array_add(a, json_object_new_string(buf));
	json_object_object_add(run, "argv", a);
	return run;
}

static void ceiling__split_runs_are_never_summed_together(void **state)
{
	json_object *jobs = json_object_new_array(), *runs, *out, *checks, *c;
	struct rio_hostmap *map = rio_hostmap_new("h");
	int flagged = 0;

	(void)state;
	/* fio runs once per job file, and each run numbers its groups from
	 * 0: both writers are group 0 of host h, one run after the other. */
	assert_int_equal(rio_hostmap_add(map, "/s", NULL), 0);
	assert_int_equal(rio_hostmap_add(map, "/c", NULL), 0);
	add_job(jobs, "bw-target", 0, 0, NULL, "/s");
	add_job(jobs, "write-bw", 0, 7, NULL, "/c");
	add_job(jobs, "lat-target", 0, 0, NULL, "/s");
	add_job(jobs, "write-lat", 0, 7, NULL, "/c");
	out = fio_output(jobs, 1);
	runs = json_object_new_array();
	json_object_array_add(runs,
			      split_run("bw.fio", "bw-target", "write-bw"));
	json_object_array_add(runs,
			      split_run("lat.fio", "lat-target", "write-lat"));
	checks = checks_64g(out, runs, map, &flagged);
	assert_int_equal(flagged, 0);
	assert_int_equal(rio_json_len(checks), 2);
	c = json_object_array_get_idx(checks, 0);
	assert_string_equal(rio_json_str(c, "status"), "pass");
	assert_non_null(strstr(rio_json_str(c, "message"),
			       "of job write-bw (fio run 1 of 2, bw.fio) is"));
	c = json_object_array_get_idx(checks, 1);
	assert_string_equal(rio_json_str(c, "status"), "pass");
	assert_non_null(
		strstr(rio_json_str(c, "message"),
		       "of job write-lat (fio run 2 of 2, lat.fio) is"));
	json_object_put(checks);
	/* Without the runs the two cannot be told apart: summed, never
	 * undercounted. */
	checks = checks_64g(out, NULL, map, &flagged);
	assert_int_equal(flagged, 1);
	json_object_put(checks);
	json_object_put(runs);
	json_object_put(out);
	rio_hostmap_delete(&map);
}

static void remote__host_name_is_fios(void **state)
{
	static const char *const cases[][2] = {
		{ "node1", "node1" },
		{ "localhost,8765", "localhost" },
		{ "ip:198.18.0.1,8765", "198.18.0.1" },
		{ "ip4:198.18.0.1", "198.18.0.1" },
		{ "ip6:fd18::1,8765", "fd18::1" },
		{ "sock:/run/fio.sock", "/run/fio.sock" },
	};
	char *h;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		h = rio_hostmap_fio_name(cases[i][0]);
		assert_string_equal(h, cases[i][1]);
		free(h);
	}
}

static void strv__split_on_blanks_puts_the_value(void **state)
{
	static const char *const want[] = {
		"ssh",	"node1", "/opt/bin/rdmaio", "env", "--x=node1:%h",
		"100%", NULL
	};
	char **argv;
	size_t i;

	(void)state;
	assert_int_equal(
		rio_strv_split(
			"  ssh\t%h  /opt/bin/rdmaio env --x=%h:%%h 100% \n",
			'h', "node1", &argv),
		0);
	for (i = 0; want[i]; i++) {
		assert_non_null(argv[i]);
		assert_string_equal(argv[i], want[i]);
	}
	assert_null(argv[i]);
	rio_strv_free(argv);
	/* No shell: quotes and $ stay as they are. */
	assert_int_equal(rio_strv_split("echo '$HOME'", 'h', "h", &argv), 0);
	assert_string_equal(argv[1], "'$HOME'");
	assert_null(argv[2]);
	rio_strv_free(argv);
	assert_int_equal(rio_strv_split(" \t ", 'h', "h", &argv), -EINVAL);
	assert_null(argv);
}

static void envdoc__describes_this_host_and_validates(void **state)
{
	char root[] = "/tmp/rdmaio-unit-XXXXXX", cmd[256];
	const char *path = getenv("PATH"), *text;
	char *saved = strdup(path ? path : "/usr/bin:/bin");
	json_object *doc, *back, *devs, *ws;
	size_t i;
	int sw = 0, emu = 0;

	(void)state;
	unsetenv("RDMAIO_LAB");
	assert_non_null(mkdtemp(root));
	put_file(root, "proc/cpuinfo",
		 "processor\t: 0\nmodel name\t: QEMU Virtual CPU version 2.5+\n"
		 "flags\t\t: fpu hypervisor\n");
	put_file(root, "sys/class/infiniband/rxe0/parent", "eth0\n");
	put_file(root, "sys/class/infiniband/rxe0/ports/1/state",
		 "4: ACTIVE\n");
	put_file(root, "proc/mounts", "proc /proc proc rw 0 0\n");
	/* No nfsrdma on PATH, and none is needed: rdmaio reads the host
	 * (here the test root) with nfsrdma's own code. */
	setenv("PATH", "/nonexistent", 1);
	doc = rio_envdoc_describe("/nonexistent/fio", root);
	setenv("PATH", saved, 1);
	free(saved);
	assert_string_equal(rio_json_str(doc, "schema"), "rdmaio-env/1");
	assert_string_equal(rio_json_str(rio_json_get(doc, "environment"),
					 "source"),
			    "rdmaio");
	devs = rio_json_get(rio_json_get(rio_json_get(doc, "environment"),
					 "status"),
			    "rdma_devices");
	assert_int_equal(rio_json_len(devs), 1);
	assert_string_equal(rio_json_str(json_object_array_get_idx(devs, 0),
					 "name"),
			    "rxe0");
	assert_null(rio_json_get(rio_json_get(doc, "versions"), "fio"));
	ws = rio_json_get(doc, "warnings");
	for (i = 0; i < rio_json_len(ws); i++) {
		const char *c =
			rio_json_str(json_object_array_get_idx(ws, i), "code");

		sw += !strcmp(c, "software-rdma");
		emu += !strcmp(c, "emulated-cpu");
	}
	assert_int_equal(sw, 1);
	assert_int_equal(emu, 1);
	text = json_object_to_json_string(doc);
	assert_int_equal(rio_envdoc_parse(text, strlen(text), "unit", &back),
			 0);
	assert_true(json_object_equal(doc, back));
	json_object_put(back);
	json_object_put(doc);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
}

static void envdoc__parse_rejects_other_documents(void **state)
{
	static const char *const bad[] = {
		"garbage",
		"{\"schema\": \"rdmaio-env/1\"",
		"{\"schema\": \"rdmaio-result/1\"}",
		"{\"created\": \"2026-01-01T00:00:00Z\"}",
		"{\"schema\": \"rdmaio-env/1\"}",
		"[1]",
	};
	json_object *doc, *good;
	const char *text;
	char err[512];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(rio_envdoc_parse(bad[i], strlen(bad[i]),
						  "unit", &doc),
				 -EINVAL);
		assert_null(doc);
	}
	/* A valid document with one member too many is refused (strict). */
	good = rio_envdoc_describe("/nonexistent/fio", "");
	assert_int_equal(rio_schema_validate_env(good, err, sizeof(err)), 0);
	json_object_object_add(good, "extra", json_object_new_int(1));
	text = json_object_to_json_string(good);
	assert_int_equal(rio_envdoc_parse(text, strlen(text), "unit", &doc),
			 -EINVAL);
	assert_int_not_equal(rio_schema_validate_env(good, err, sizeof(err)),
			     0);
	assert_non_null(strstr(err, "\"extra\""));
	json_object_put(good);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ceiling__matches_published_100g_figures),
		cmocka_unit_test(ceiling__17_6_gib_exceeds_one_100g_link),
		cmocka_unit_test(links__option_is_validated),
		cmocka_unit_test(links__active_hardware_ports_and_qdr_encoding),
		cmocka_unit_test(schema__validator_accepts_and_rejects),
		cmocka_unit_test(schema__builtin_rejects_empty_document),
		cmocka_unit_test(
			env__rxe_device_and_nfs_mounts_as_nfsrdma_says),
		cmocka_unit_test(host__qemu_cpu_is_emulated),
		cmocka_unit_test(summary__pairing_by_suffix),
		cmocka_unit_test(summary__percentiles_merge_bins),
		cmocka_unit_test(fio_output__merges_bins_ascending),
		cmocka_unit_test(resultdoc__reads_the_rounds_spreads),
		cmocka_unit_test(resultdoc__pairs_against_each_tcp),
		cmocka_unit_test(
			resultdoc__matches_jobs_and_pairs_across_rounds),
		cmocka_unit_test(resultenv__reads_hosts_exports_and_mounts),
		cmocka_unit_test(resultenv__reads_mounts_job_files_and_clients),
		cmocka_unit_test(compare__names_each_environment_difference),
		cmocka_unit_test(changes__follow_a_repeated_job_round_by_round),
		cmocka_unit_test(fio_output__keeps_fio_numbers_as_printed),
		cmocka_unit_test(mountwatch__keeps_mounts_gone_after_the_run),
		cmocka_unit_test(nfs_transport__names_must_match_mount_protos),
		cmocka_unit_test(
			nfs_transport__local_folder_is_flagged_verbs_jobs_are_not),
		cmocka_unit_test(ceiling__serial_wait_for_chain_is_not_summed),
		cmocka_unit_test(
			ceiling__jobs_of_one_group_without_wait_for_are_summed),
		cmocka_unit_test(ceiling__fork_sums_the_waiters),
		cmocka_unit_test(ceiling__split_runs_are_never_summed_together),
		cmocka_unit_test(remote__host_name_is_fios),
		cmocka_unit_test(strv__split_on_blanks_puts_the_value),
		cmocka_unit_test(envdoc__describes_this_host_and_validates),
		cmocka_unit_test(envdoc__parse_rejects_other_documents),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
