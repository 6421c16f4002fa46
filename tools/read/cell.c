// SPDX-License-Identifier: MIT
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/units.h"
#include "read/cell.h"

const char *rio_cell_str(const char *s)
{
	return s ?: "?";
}

/* A latency triple "p50 / p99 / p99.9" in human units. */
void rio_cell_lat(char *buf, size_t n, const struct rio_res_lat *clat)
{
	char a[RIO_UNITS_LEN], b[RIO_UNITS_LEN], c[RIO_UNITS_LEN];

	rio_units_ns(a, clat->p50);
	rio_units_ns(b, clat->p99);
	rio_units_ns(c, clat->p99_9);
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

void rio_cell_range(char *buf, size_t n, double v,
		    const struct rio_res_spread *sp, enum rio_cell_unit f,
		    int gbit)
{
	char m[RIO_UNITS_LEN], lo[RIO_UNITS_LEN], hi[RIO_UNITS_LEN];

	fmt_figure(m, v, f, gbit);
	if (!sp || !sp->set) {
		snprintf(buf, n, "%s", m);
		return;
	}
	fmt_figure(lo, sp->min, f, gbit);
	fmt_figure(hi, sp->max, f, gbit);
	snprintf(buf, n, "%s (%s – %s)", m, lo, hi);
}

void rio_cell_spread(char *buf, size_t n, const struct rio_res_spread *sp,
		     enum rio_cell_unit f, int gbit)
{
	if (!sp->set) {
		snprintf(buf, n, "-");
		return;
	}
	rio_cell_range(buf, n, sp->median, sp, f, gbit);
}

void rio_cell_interval(char *buf, size_t n, const struct rio_res_ratio *rs)
{
	char m[RIO_UNITS_LEN], lo[RIO_UNITS_LEN], hi[RIO_UNITS_LEN];

	if (!rs || !rs->spread.set) {
		snprintf(buf, n, "-");
		return;
	}
	rio_units_ratio(m, rs->spread.median);
	rio_units_ratio(lo, rs->ci95_low);
	rio_units_ratio(hi, rs->ci95_high);
	if (isnan(rs->ci95_low))
		snprintf(buf, n, "%s (no interval)", m);
	else
		snprintf(buf, n, "%s (%s – %s)", m, lo, hi);
}

void rio_cell_label(char *buf, size_t n, const char *host, const char *name,
		    const char *dir, int hosts)
{
	/* The schema requires both: "-" only for a result it let through. */
	if (hosts)
		snprintf(buf, n, "%s: %s (%s)", host ?: "-", name ?: "-", dir);
	else
		snprintf(buf, n, "%s (%s)", name ?: "-", dir);
}

void rio_cell_pair_name(char *buf, size_t n, const struct rio_res_pair *p)
{
	int nc = rio_res_pair_is_nconnect(p);

	snprintf(buf, n, "%s%s%s", p->workload ?: "-", nc ? " vs " : "",
		 nc ? rio_res_pair_against_name(p) : "");
}

void rio_cell_pair_label(char *buf, size_t n, const struct rio_res_pair *p,
			 int hosts)
{
	const char *rd = p->direction ?: "", *td = p->tcp_direction ?: "";
	char dir[32], name[256];

	/* "rtt (read/write)": a round trip counted differently per side. */
	snprintf(dir, sizeof(dir), "%s%s%s", rd, strcmp(rd, td) ? "/" : "",
		 strcmp(rd, td) ? td : "");
	rio_cell_pair_name(name, sizeof(name), p);
	rio_cell_label(buf, n, p->host, name, dir, hosts);
}
