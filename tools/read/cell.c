// SPDX-License-Identifier: MIT
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/jsonread.h"
#include "base/units.h"
#include "read/cell.h"

/* A latency triple "p50 / p99 / p99.9" in human units. */
void rio_cell_lat(char *buf, size_t n, json_object *clat)
{
	char a[RIO_UNITS_LEN], b[RIO_UNITS_LEN], c[RIO_UNITS_LEN];

	rio_units_ns(a, rio_json_num(clat, "p50", NAN));
	rio_units_ns(b, rio_json_num(clat, "p99", NAN));
	rio_units_ns(c, rio_json_num(clat, "p99_9", NAN));
	snprintf(buf, n, "%s / %s / %s", a, b, c);
}

static void fmt_figure(char *buf, double v, enum rio_cell_unit f, int gbit)
{
	if (f == RIO_CELL_RATE)
		rio_units_rate(buf, v, gbit);
	else if (f == RIO_CELL_COUNT)
		rio_units_count(buf, v);
	else
		rio_units_ns(buf, v);
}

/* v with the bounds of spread sp, or v alone without sp. */
void rio_cell_range(char *buf, size_t n, double v, json_object *sp,
		    enum rio_cell_unit f, int gbit)
{
	char m[RIO_UNITS_LEN], lo[RIO_UNITS_LEN], hi[RIO_UNITS_LEN];

	fmt_figure(m, v, f, gbit);
	if (!sp) {
		snprintf(buf, n, "%s", m);
		return;
	}
	fmt_figure(lo, rio_json_num(sp, "min", NAN), f, gbit);
	fmt_figure(hi, rio_json_num(sp, "max", NAN), f, gbit);
	snprintf(buf, n, "%s (%s – %s)", m, lo, hi);
}

/* A figure over the rounds, from its spread: "80.0 MiB/s (79.9-80.1 MiB/s)". */
void rio_cell_spread(char *buf, size_t n, json_object *sp, enum rio_cell_unit f,
		     int gbit)
{
	if (!sp) {
		snprintf(buf, n, "-");
		return;
	}
	rio_cell_range(buf, n, rio_json_num(sp, "median", NAN), sp, f, gbit);
}

/* A ratio over the rounds: its median and the 95 % interval of its
 * geometric mean, "2.00x (1.98x – 2.02x)". */
void rio_cell_interval(char *buf, size_t n, json_object *rs)
{
	char m[RIO_UNITS_LEN], lo[RIO_UNITS_LEN], hi[RIO_UNITS_LEN];
	double l = rio_json_num(rs, "ci95_low", NAN);

	if (!rs) {
		snprintf(buf, n, "-");
		return;
	}
	rio_units_ratio(m, rio_json_num(rs, "median", NAN));
	rio_units_ratio(lo, l);
	rio_units_ratio(hi, rio_json_num(rs, "ci95_high", NAN));
	if (isnan(l))
		snprintf(buf, n, "%s (no interval)", m);
	else
		snprintf(buf, n, "%s (%s – %s)", m, lo, hi);
}

/* Labels name the host only when the rows of doc[key] come from several. */
int rio_cell_multi_host(json_object *doc, const char *key)
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

void rio_cell_label(char *buf, size_t n, json_object *o, const char *name_key,
		    const char *dir, int hosts)
{
	if (hosts)
		snprintf(buf, n, "%s: %s (%s)", rio_json_str(o, "host"),
			 rio_json_str(o, name_key), dir);
	else
		snprintf(buf, n, "%s (%s)", rio_json_str(o, name_key), dir);
}

void rio_cell_pair_label(char *buf, size_t n, json_object *doc, json_object *c)
{
	const char *rd = rio_json_str(c, "direction");
	const char *td = rio_json_str(c, "tcp_direction");
	char dir[32];

	/* "rtt (read/write)": a round trip counted differently per side. */
	snprintf(dir, sizeof(dir), "%s%s%s", rd, strcmp(rd, td) ? "/" : "",
		 strcmp(rd, td) ? td : "");
	rio_cell_label(buf, n, c, "workload", dir,
		       rio_cell_multi_host(doc, "comparisons"));
}
