// SPDX-License-Identifier: MIT
/*
 * Unit tests of the statistics of rounds (rdmaio run --repeat, compare):
 * medians and ranges, Student's t against its textbook quantiles and
 * closed forms, the interval of a ratio's geometric mean on known log
 * ratios, Welch's test, the rule that calls a change beyond noise, and the
 * summing up of rounds into a result's top level.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "base/jsonread.h"
#include "read/noise.h"
#include "result/rounds.h"
#include "result/stats.h"

#define NEAR(a, b, tol) assert_true(fabs((a) - (b)) <= (tol))

static void median__odd_even_unknown(void **state)
{
	const double odd[] = { 3, 1, 2 }, even[] = { 4, 1, 3, 2 };
	const double gaps[] = { NAN, 7, NAN, 5, 9 }, none[] = { NAN, NAN };
	double lo, hi;

	(void)state;
	NEAR(rio_stats_median(odd, 3), 2, 0);
	NEAR(rio_stats_median(even, 4), 2.5, 0);
	/* Unknown rounds are left out, not counted as zero. */
	NEAR(rio_stats_median(gaps, 5), 7, 0);
	assert_true(isnan(rio_stats_median(none, 2)));
	assert_true(isnan(rio_stats_median(odd, 0)));
	assert_int_equal(rio_stats_range(gaps, 5, &lo, &hi), 3);
	NEAR(lo, 5, 0);
	NEAR(hi, 9, 0);
	assert_int_equal(rio_stats_range(none, 2, &lo, &hi), 0);
	assert_true(isnan(lo) && isnan(hi));
}

static void t__quantiles_and_tails(void **state)
{
	(void)state;
	/* t(0.975, df) from the tables, and t(0.995, 5). */
	NEAR(rio_stats_t_quantile(0.95, 1), 12.706204736, 1e-8);
	NEAR(rio_stats_t_quantile(0.95, 2), 4.302652730, 1e-8);
	NEAR(rio_stats_t_quantile(0.95, 4), 2.776445105, 1e-8);
	NEAR(rio_stats_t_quantile(0.95, 10), 2.228138852, 1e-8);
	NEAR(rio_stats_t_quantile(0.95, 99), 1.984216952, 1e-8);
	NEAR(rio_stats_t_quantile(0.99, 5), 4.032142984, 1e-8);
	assert_true(isnan(rio_stats_t_quantile(0.95, 0)));
	assert_true(isnan(rio_stats_t_quantile(1.5, 3)));
	/* Closed forms: df 1 is Cauchy, df 2 and 4 have their own. */
	NEAR(rio_stats_t_sf(1, 1), 0.25, 1e-12);
	NEAR(rio_stats_t_sf(0, 7), 0.5, 1e-12);
	NEAR(rio_stats_t_sf(2, 2), (1 - 2 / sqrt(6)) / 2, 1e-12);
	NEAR(rio_stats_t_sf(3, 4), 0.5 - 3 * (9 + 6) / (2 * pow(13, 1.5)),
	     1e-12);
	NEAR(rio_stats_t_sf(-3, 4), 1 - rio_stats_t_sf(3, 4), 1e-12);
}

static void ratio__t_interval_of_log_ratios(void **state)
{
	/* ln r = ln 2 + {0.1, 0, -0.1}: mean ln 2, sample sd 0.1. */
	const double r[] = { 2 * exp(0.1), 2, 2 * exp(-0.1), NAN };
	const double half = 4.302652730 * 0.1 / sqrt(3);
	const double one[] = { 1.5 }, zero[] = { 2, 0, 3 };
	struct rio_stats_ratio s;

	(void)state;
	assert_int_equal(rio_stats_ratio_sum(r, 4, 0.95, &s), 3);
	NEAR(s.median, 2, 1e-12);
	NEAR(s.min, 2 * exp(-0.1), 1e-12);
	NEAR(s.max, 2 * exp(0.1), 1e-12);
	NEAR(s.geomean, 2, 1e-12);
	NEAR(s.lo, 2 * exp(-half), 1e-8);
	NEAR(s.hi, 2 * exp(half), 1e-8);
	NEAR(s.lo, 1.560074, 1e-6);
	NEAR(s.hi, 2.563981, 1e-6);
	/* One round: a figure, no interval. */
	assert_int_equal(rio_stats_ratio_sum(one, 1, 0.95, &s), 1);
	NEAR(s.geomean, 1.5, 0);
	assert_true(isnan(s.lo) && isnan(s.hi));
	/* A ratio of 0 has no logarithm: no geometric mean, no interval. */
	assert_int_equal(rio_stats_ratio_sum(zero, 3, 0.95, &s), 3);
	NEAR(s.median, 2, 0);
	assert_true(isnan(s.geomean) && isnan(s.lo));
}

static void welch__p_of_known_cases(void **state)
{
	const double a[] = { 1, 2, 3 }, same[] = { 5, 5, 5 };
	const double b[] = { 4, 5, 6 }, flat[] = { 7, 7 };
	double t = 3 / sqrt(1.0 / 3), t4 = 3 / sqrt(2.0 / 3);

	(void)state;
	/* Equal variances 1, n 3 and 3: t = 3 / sqrt(2/3), df 4. */
	NEAR(rio_stats_welch_p(a, 3, b, 3),
	     1 - t4 * (t4 * t4 + 6) / pow(t4 * t4 + 4, 1.5), 1e-12);
	/* One side without spread: df is the other's n - 1, here 2. */
	NEAR(rio_stats_welch_p(a, 3, same, 3), 1 - t / sqrt(2 + t * t), 1e-12);
	/* Two sides without spread: equal or not, nothing in between. */
	NEAR(rio_stats_welch_p(same, 3, same, 3), 1, 0);
	NEAR(rio_stats_welch_p(same, 3, flat, 2), 0, 0);
	assert_true(isnan(rio_stats_welch_p(a, 1, b, 3)));
}

static void judge(const double *o, int no, const double *n, int nn, bool higher,
		  struct rio_noise_change *c)
{
	assert_int_equal(rio_noise_judge(o, no, n, nn, 5, 0.05 / 26, higher, c),
			 0);
}

static void noise__the_rule_at_three_rounds(void **state)
{
	const double bw[] = { 100, 100.2, 99.9 }, bw2[] = { 100.1, 99.8, 100 };
	const double half[] = { 50, 50.1, 49.95 },
		     up3[] = { 103, 103.1, 103.2 };
	const double wide[] = { 50, 100, 150 }, wide2[] = { 140, 200, 260 };
	const double spread[] = { 90, 100, 110 }, spread2[] = { 111, 125, 140 };
	struct rio_noise_change c;

	(void)state;
	judge(bw, 3, bw2, 3, true, &c);
	assert_true(c.known && !c.beyond && !c.worse);
	judge(bw, 3, bw, 3, true, &c);
	assert_true(!c.beyond && c.change_pct == 0);
	/* Halved, rounds tight: beyond, and a regression for bandwidth. */
	judge(bw, 3, half, 3, true, &c);
	assert_true(c.known && c.beyond && c.worse && c.p < 1e-4);
	NEAR(c.change_pct, -50, 0.1);
	/* The same change of a latency is an improvement. */
	judge(bw, 3, half, 3, false, &c);
	assert_true(c.beyond && !c.worse);
	/* Apart and certain, but 3 % is inside --noise 5 %. */
	judge(bw, 3, up3, 3, true, &c);
	assert_true(c.p < 0.05 / 26 && !c.beyond);
	/* +100 % but the ranges overlap: within noise. */
	judge(wide, 3, wide2, 3, false, &c);
	assert_true(!c.beyond);
	/* Apart and +25 %, but rounds this spread give p 0.066: the 1 in 10
	 * chance of ranges of one distribution not overlapping. */
	judge(spread, 3, spread2, 3, false, &c);
	assert_true(c.old_max < c.new_min && !c.beyond);
	NEAR(c.p, 0.0655, 0.001);
}

static void noise__one_round_is_judged_by_threshold_alone(void **state)
{
	const double old[] = { 100 }, down6[] = { 94 }, down4[] = { 96 };
	const double three[] = { 100, 101, 99 }, zero[] = { 0, 0 };
	struct rio_noise_change c;

	(void)state;
	judge(old, 1, down6, 1, true, &c);
	assert_true(!c.known && c.beyond && c.worse && isnan(c.p));
	judge(old, 1, down4, 1, true, &c);
	assert_true(!c.known && !c.beyond);
	/* Three rounds against one: still unknown. */
	judge(three, 3, down6, 1, true, &c);
	assert_true(!c.known && c.beyond && c.nold == 3 && c.nnew == 1);
	assert_int_equal(rio_noise_judge(zero, 2, old, 1, 5, 0.01, true, &c),
			 -EINVAL);
}

static json_object *parse(const char *text)
{
	json_object *o = NULL;

	assert_int_equal(rio_json_parse(text, strlen(text), "test", "test", &o),
			 0);
	return o;
}

/* A round with one job and one pair, figures as given. */
static json_object *round_of(int bw, double iops, int err, double ratio)
{
	char text[1024];

	snprintf(
		text, sizeof(text),
		"{\"results\": [{\"host\": \"h\", \"jobname\": \"j-rdma\", \"error\": %d,"
		" \"read\": {\"bw_bytes\": %d, \"iops\": %g, \"clat_ns\": {\"p50\": %d, \"p99\": null}},"
		" \"write\": null}],"
		" \"comparisons\": [{\"host\": \"h\", \"workload\": \"j\", \"direction\": \"read\","
		" \"tcp_direction\": \"read\", \"kind\": \"bandwidth\", \"bw_ratio\": %.17g,"
		" \"rdma\": {\"bw_bytes\": %d}, \"tcp\": {\"bw_bytes\": 10},"
		" \"host_cpu_per_gib\": [{\"host\": \"h\", \"ratio\": %.17g}]}]}",
		err, bw, iops, bw / 10, ratio, bw, ratio / 2);
	return parse(text);
}

static void rounds__medians_ranges_and_intervals(void **state)
{
	json_object *rounds = json_object_new_array(), *rs, *cs, *r, *ov, *c;

	(void)state;
	json_object_array_add(rounds, round_of(100, 1.5, 0, 2 * exp(0.1)));
	json_object_array_add(rounds, round_of(300, 2.5, 5, 2));
	json_object_array_add(rounds, round_of(200, 3.5, 0, 2 * exp(-0.1)));
	rs = rio_rounds_results(rounds);
	cs = rio_rounds_comparisons(rounds);
	assert_int_equal(rio_json_len(rs), 1);
	r = json_object_array_get_idx(rs, 0);
	/* Integers stay integers; the worst round's fio error shows. */
	assert_true(json_object_is_type(rio_json_get(rio_json_get(r, "read"),
						     "bw_bytes"),
					json_type_int));
	NEAR(rio_rounds_num(r, "read.bw_bytes"), 200, 0);
	NEAR(rio_rounds_num(r, "read.iops"), 2.5, 0);
	NEAR(rio_rounds_num(r, "read.clat_ns.p50"), 20, 0);
	NEAR(rio_rounds_num(r, "error"), 5, 0);
	assert_null(rio_json_get(r, "write"));
	ov = rio_json_get(r, "over_rounds");
	NEAR(rio_rounds_num(ov, "rounds"), 3, 0);
	NEAR(rio_rounds_num(ov, "read.bw_bytes.min"), 100, 0);
	NEAR(rio_rounds_num(ov, "read.bw_bytes.max"), 300, 0);
	NEAR(rio_rounds_num(ov, "read.bw_bytes.n"), 3, 0);
	assert_null(rio_json_get(rio_json_get(ov, "read"), "p99"));
	assert_null(rio_json_get(ov, "write"));
	c = json_object_array_get_idx(cs, 0);
	NEAR(rio_rounds_num(c, "bw_ratio"), 2, 1e-12);
	ov = rio_json_get(c, "over_rounds");
	NEAR(rio_rounds_num(ov, "bw_ratio.ci95_low"), 1.560074, 1e-6);
	NEAR(rio_rounds_num(ov, "bw_ratio.ci95_high"), 2.563981, 1e-6);
	NEAR(rio_rounds_num(ov, "rdma.bw_bytes.median"), 200, 0);
	NEAR(rio_rounds_num(json_object_array_get_idx(
				    rio_json_get(ov, "host_cpu_per_gib"), 0),
			    "ratio.ci95_low"),
	     1.560074 / 2, 1e-6);
	assert_null(rio_json_get(ov, "p50_ratio"));
	json_object_put(rs);
	json_object_put(cs);
	json_object_put(rounds);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(median__odd_even_unknown),
		cmocka_unit_test(t__quantiles_and_tails),
		cmocka_unit_test(ratio__t_interval_of_log_ratios),
		cmocka_unit_test(welch__p_of_known_cases),
		cmocka_unit_test(noise__the_rule_at_three_rounds),
		cmocka_unit_test(noise__one_round_is_judged_by_threshold_alone),
		cmocka_unit_test(rounds__medians_ranges_and_intervals),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
