// SPDX-License-Identifier: MIT
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/jsonread.h"
#include "base/streq.h"
#include "result/rounds.h"
#include "result/stats.h"

double rio_rounds_num(json_object *o, const char *path)
{
	char key[64];
	const char *dot;
	size_t len;

	while ((dot = strchr(path, '.'))) {
		len = (size_t)(dot - path);
		if (len >= sizeof(key))
			return NAN;
		memcpy(key, path, len);
		key[len] = '\0';
		o = rio_json_get(o, key);
		path = dot + 1;
	}
	return rio_json_num(o, path, NAN);
}

static const char *const result_keys[] = { "host", "jobname", NULL };
static const char *const pair_keys[] = { "host",	  "workload",
					 "against",	  "direction",
					 "tcp_direction", NULL };
static const char *const baseline_keys[] = { "name", NULL };

static int same_key(json_object *a, json_object *b, const char *const *keys)
{
	for (; *keys; keys++)
		if (!rio_streq_or_null(rio_json_str(a, *keys),
				       rio_json_str(b, *keys)))
			return 0;
	return 1;
}

/* How many entries before arr[i] have its key: numjobs gives several. */
static int occurrence(json_object *arr, size_t i, const char *const *keys)
{
	json_object *e = json_object_array_get_idx(arr, i);
	int n = 0;
	size_t j;

	for (j = 0; j < i; j++)
		n += same_key(json_object_array_get_idx(arr, j), e, keys);
	return n;
}

static json_object *nth_match(json_object *arr, json_object *e,
			      const char *const *keys, int occ)
{
	json_object *x;
	size_t i;

	for (i = 0; i < rio_json_len(arr); i++) {
		x = json_object_array_get_idx(arr, i);
		if (same_key(x, e, keys) && occ-- == 0)
			return x;
	}
	return NULL;
}

static json_object *median_tree(json_object **v, int n, const char *key);

/* Each member of the first object, summed up over the objects. */
static json_object *median_object(json_object *first, json_object **v, int n,
				  json_object **sub)
{
	json_object *o = json_object_new_object();
	int i, k;

	json_object_object_foreach(first, key, unused)
	{
		(void)unused;
		for (i = 0, k = 0; i < n; i++)
			if (json_object_is_type(v[i], json_type_object))
				sub[k++] = rio_json_get(v[i], key);
		json_object_object_add(o, key, median_tree(sub, k, key));
	}
	return o;
}

static json_object *median_array(json_object *first, json_object **v, int n,
				 json_object **sub)
{
	json_object *a = json_object_new_array();
	size_t j;
	int i, k;

	for (j = 0; j < rio_json_len(first); j++) {
		for (i = 0, k = 0; i < n; i++)
			if (j < rio_json_len(v[i]))
				sub[k++] = json_object_array_get_idx(v[i], j);
		json_object_array_add(a, median_tree(sub, k, NULL));
	}
	return a;
}

/* The median of the numbers, an integer when all of them are; a job's
 * fio error is the worst round's, which no median may hide. */
static json_object *median_number(json_object **v, int n, const char *key)
{
	double *x = calloc(n, sizeof(*x)), m = NAN;
	int i, k = 0, ints = 1;

	if (!x)
		return NULL;
	for (i = 0; i < n; i++) {
		if (!json_object_is_type(v[i], json_type_int) &&
		    !json_object_is_type(v[i], json_type_double))
			continue;
		ints = ints && json_object_is_type(v[i], json_type_int);
		x[k] = json_object_get_double(v[i]);
		if (key && !strcmp(key, "error"))
			m = k ? fmax(m, fabs(x[k])) : fabs(x[k]);
		k++;
	}
	if (!key || strcmp(key, "error"))
		m = rio_stats_median(x, k);
	free(x);
	if (isnan(m))
		return NULL;
	return ints ? json_object_new_int64((int64_t)llround(m))
		    : json_object_new_double(m);
}

/*
 * One value made of the same value in n rounds: numbers become their
 * median, objects and arrays are summed up member by member, anything
 * else is the first round's. Rounds where it is null are left out.
 */
static json_object *median_tree(json_object **v, int n, const char *key)
{
	json_object *first = NULL, **sub, *out;
	int i;

	for (i = 0; i < n && !first; i++)
		first = v[i];
	if (!first)
		return NULL;
	if (json_object_is_type(first, json_type_int) ||
	    json_object_is_type(first, json_type_double))
		return median_number(v, n, key);
	if (!json_object_is_type(first, json_type_object) &&
	    !json_object_is_type(first, json_type_array))
		return json_object_get(first);
	sub = calloc(n, sizeof(*sub));
	if (!sub)
		return NULL;
	out = json_object_is_type(first, json_type_object)
		      ? median_object(first, v, n, sub)
		      : median_array(first, v, n, sub);
	free(sub);
	return out;
}

/* {median, min, max, n} of the number at path in each of the n values. */
static json_object *spread(json_object **v, int n, const char *path)
{
	double *x = calloc(n, sizeof(*x)), lo, hi;
	json_object *o;
	int i, k;

	if (!x)
		return NULL;
	for (i = 0; i < n; i++)
		x[i] = rio_rounds_num(v[i], path);
	k = rio_stats_range(x, n, &lo, &hi);
	o = k ? json_object_new_object() : NULL;
	if (o) {
		json_object_object_add(
			o, "median",
			json_object_new_double(rio_stats_median(x, n)));
		json_object_object_add(o, "min", json_object_new_double(lo));
		json_object_object_add(o, "max", json_object_new_double(hi));
		json_object_object_add(o, "n", json_object_new_int(k));
	}
	free(x);
	return o;
}

/* The spread of the figures of one side or direction ("read", "rdma"). */
static json_object *figures(json_object **v, int n, const char *prefix)
{
	static const char *const paths[][2] = {
		{ "bw_bytes", "bw_bytes" },
		{ "iops", "iops" },
		{ "p50", "clat_ns.p50" },
		{ "p99", "clat_ns.p99" },
	};
	json_object *o = json_object_new_object();
	char path[64];
	size_t i;

	for (i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		snprintf(path, sizeof(path), "%s.%s", prefix, paths[i][1]);
		json_object_object_add(o, paths[i][0], spread(v, n, path));
	}
	return o;
}

static json_object *ratio_json(const double *r, int n)
{
	struct rio_stats_ratio s;
	json_object *o;

	if (!rio_stats_ratio_sum(r, n, RIO_ROUNDS_LEVEL, &s))
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "median", json_object_new_double(s.median));
	json_object_object_add(o, "min", json_object_new_double(s.min));
	json_object_object_add(o, "max", json_object_new_double(s.max));
	json_object_object_add(o, "n", json_object_new_int(s.n));
	json_object_object_add(o, "geomean", rio_json_num_or_null(s.geomean));
	json_object_object_add(o, "ci95_low", rio_json_num_or_null(s.lo));
	json_object_object_add(o, "ci95_high", rio_json_num_or_null(s.hi));
	return o;
}

/* A ratio of each round's comparison, at path. */
static json_object *ratio_at(json_object **v, int n, const char *path)
{
	double *r = calloc(n, sizeof(*r));
	json_object *o;
	int i;

	if (!r)
		return NULL;
	for (i = 0; i < n; i++)
		r[i] = rio_rounds_num(v[i], path);
	o = ratio_json(r, n);
	free(r);
	return o;
}

/* Each watched host's CPU per GiB ratio, the host matched by name. */
static json_object *host_ratios(json_object **v, int n, json_object *first)
{
	json_object *hc = rio_json_get(first, "host_cpu_per_gib"), *a, *o, *x;
	double *r = calloc(n, sizeof(*r));
	const char *host;
	size_t j, m;
	int i;

	a = json_object_new_array();
	for (j = 0; r && j < rio_json_len(hc); j++) {
		host = rio_json_str(json_object_array_get_idx(hc, j), "host");
		for (i = 0; i < n; i++) {
			r[i] = NAN;
			x = rio_json_get(v[i], "host_cpu_per_gib");
			for (m = 0; m < rio_json_len(x); m++)
				if (rio_streq_or_null(
					    rio_json_str(
						    json_object_array_get_idx(
							    x, m),
						    "host"),
					    host))
					r[i] = rio_json_num(
						json_object_array_get_idx(x, m),
						"ratio", NAN);
		}
		o = json_object_new_object();
		json_object_object_add(o, "host", json_object_new_string(host));
		json_object_object_add(o, "ratio", ratio_json(r, n));
		json_object_array_add(a, o);
	}
	free(r);
	return a;
}

static json_object *result_spread(json_object **v, int n)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "rounds", json_object_new_int(n));
	json_object_object_add(o, "read", figures(v, n, "read"));
	json_object_object_add(o, "write", figures(v, n, "write"));
	return o;
}

static json_object *pair_spread(json_object **v, int n)
{
	static const char *const ratios[] = { "bw_ratio", "iops_ratio",
					      "p50_ratio", "p99_ratio",
					      "fio_cpu_per_gib_ratio" };
	json_object *o = json_object_new_object();
	size_t i;

	json_object_object_add(o, "rounds", json_object_new_int(n));
	json_object_object_add(o, "rdma", figures(v, n, "rdma"));
	json_object_object_add(o, "tcp", figures(v, n, "tcp"));
	for (i = 0; i < sizeof(ratios) / sizeof(ratios[0]); i++)
		json_object_object_add(o, ratios[i], ratio_at(v, n, ratios[i]));
	json_object_object_add(o, "host_cpu_per_gib", host_ratios(v, n, v[0]));
	return o;
}

/* Each host's CPU over the baseline, matched by host: a failed round
 * has none, and another round may lack a host. */
static json_object *baseline_hosts(json_object **v, int n)
{
	json_object *out = json_object_new_array(), *hc, **sub;
	const char *host;
	size_t j;
	int i, m, k;

	sub = calloc(n, sizeof(*sub));
	for (i = 0; sub && i < n; i++) {
		hc = rio_json_get(v[i], "host_cpu");
		for (j = 0; j < rio_json_len(hc); j++) {
			host = rio_json_str(json_object_array_get_idx(hc, j),
					    "host");
			if (!host || rio_json_find(out, "host", host))
				continue;
			for (m = 0, k = 0; m < n; m++)
				if ((sub[k] = rio_json_find(
					     rio_json_get(v[m], "host_cpu"),
					     "host", host)))
					k++;
			json_object_array_add(out, median_tree(sub, k, NULL));
		}
	}
	free(sub);
	return out;
}

/*
 * A baseline's time and bandwidth over the rounds it worked in, and in how
 * many it failed: then its error says so, with the worst exit status.
 * Its window is each round's own.
 */
static json_object *baseline_spread(json_object *s, json_object **v, int n)
{
	json_object *o = json_object_new_object();
	const char *err = NULL;
	char msg[256];
	int i, failed = 0, status = 0;

	for (i = 0; i < n; i++) {
		if (!rio_json_get(v[i], "error"))
			continue;
		err = err ?: rio_json_str(v[i], "error");
		if (!status)
			status = (int)rio_json_num(v[i], "exit_status", 0);
		failed++;
	}
	if (failed) {
		snprintf(msg, sizeof(msg), "failed in %d of %d rounds: %s",
			 failed, n, err ?: "?");
		json_object_object_add(s, "error", json_object_new_string(msg));
		json_object_object_add(s, "exit_status",
				       json_object_new_int(status));
	}
	json_object_object_del(s, "window");
	json_object_object_add(s, "host_cpu", baseline_hosts(v, n));
	json_object_object_add(o, "rounds", json_object_new_int(n));
	json_object_object_add(o, "failed", json_object_new_int(failed));
	json_object_object_add(o, "bw_bytes", spread(v, n, "bw_bytes"));
	json_object_object_add(o, "elapsed_s", spread(v, n, "elapsed_s"));
	return o;
}

/* A direction no round moved data in has no figures. */
static void drop_empty(json_object *over, json_object *entry)
{
	if (!rio_json_get(entry, "read"))
		json_object_object_add(over, "read", NULL);
	if (!rio_json_get(entry, "write"))
		json_object_object_add(over, "write", NULL);
}

/* Entry e of round r, unless an earlier round had it: with every round's
 * match, its median tree and its spread. */
static json_object *sum_up(json_object *rounds, size_t r, size_t i,
			   const char *what, const char *const *keys,
			   json_object **v)
{
	json_object *arr =
		rio_json_get(json_object_array_get_idx(rounds, r), what);
	json_object *e = json_object_array_get_idx(arr, i), *s;
	int occ = occurrence(arr, i, keys), n = 0;
	size_t k;

	for (k = 0; k < rio_json_len(rounds); k++) {
		v[n] = nth_match(
			rio_json_get(json_object_array_get_idx(rounds, k),
				     what),
			e, keys, occ);
		if (v[n] && k < r)
			return NULL;
		n += !!v[n];
	}
	s = median_tree(v, n, NULL);
	if (!s)
		return NULL;
	if (keys == result_keys) {
		json_object_object_add(s, "over_rounds", result_spread(v, n));
		drop_empty(rio_json_get(s, "over_rounds"), s);
	} else if (keys == baseline_keys) {
		json_object_object_add(s, "over_rounds",
				       baseline_spread(s, v, n));
	} else {
		json_object_object_add(s, "over_rounds", pair_spread(v, n));
	}
	return s;
}

static json_object *sum_all(json_object *rounds, const char *what,
			    const char *const *keys)
{
	json_object *out = json_object_new_array(), **v, *s;
	size_t r, i;

	v = calloc(rio_json_len(rounds) + 1, sizeof(*v));
	for (r = 0; v && r < rio_json_len(rounds); r++) {
		json_object *arr = rio_json_get(
			json_object_array_get_idx(rounds, r), what);

		for (i = 0; i < rio_json_len(arr); i++) {
			s = sum_up(rounds, r, i, what, keys, v);
			if (s)
				json_object_array_add(out, s);
		}
	}
	free(v);
	return out;
}

json_object *rio_rounds_results(json_object *rounds)
{
	return sum_all(rounds, "results", result_keys);
}

json_object *rio_rounds_comparisons(json_object *rounds)
{
	return sum_all(rounds, "comparisons", pair_keys);
}

json_object *rio_rounds_baselines(json_object *rounds)
{
	return sum_all(rounds, "baselines", baseline_keys);
}
