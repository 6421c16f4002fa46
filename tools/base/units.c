// SPDX-License-Identifier: MIT
#include <math.h>
#include <stdio.h>

#include "base/units.h"

/* Three significant digits, whatever the scale: 1.23, 12.3, 123. */
static void sig3(char *buf, double v, const char *unit)
{
	int prec = v >= 99.95 ? 0 : v >= 9.995 ? 1 : v >= 0.9995 ? 2 : 3;

	snprintf(buf, RIO_UNITS_LEN, "%.*f %s", prec, v, unit);
}

static void scaled(char *buf, double v, double step, const char *const *units,
		   int n)
{
	int i = 0;

	if (isnan(v)) {
		snprintf(buf, RIO_UNITS_LEN, "-");
		return;
	}
	/* 999.96 would print as 1000 of the smaller unit. */
	while (i < n - 1 && fabs(v) >= step - step * 5e-5) {
		v /= step;
		i++;
	}
	sig3(buf, v, units[i]);
}

void rio_units_rate(char *buf, double bytes_per_s, int gbit)
{
	static const char *const bin[] = { "B/s", "KiB/s", "MiB/s", "GiB/s",
					   "TiB/s" };

	if (gbit && !isnan(bytes_per_s)) {
		sig3(buf, bytes_per_s * 8 / 1e9, "Gb/s");
		return;
	}
	scaled(buf, bytes_per_s, 1024, bin, 5);
}

void rio_units_bytes(char *buf, double bytes)
{
	static const char *const bin[] = { "B", "KiB", "MiB", "GiB", "TiB" };

	scaled(buf, bytes, 1024, bin, 5);
}

void rio_units_ns(char *buf, double ns)
{
	static const char *const t[] = { "ns", "µs", "ms", "s" };

	scaled(buf, ns, 1000, t, 4);
}

void rio_units_count(char *buf, double v)
{
	static const char *const c[] = { "", "k", "M", "G" };
	char tmp[RIO_UNITS_LEN];
	int n;

	if (!isnan(v) && fabs(v) < 1000) {
		snprintf(buf, RIO_UNITS_LEN, "%.0f", v);
		return;
	}
	scaled(tmp, v, 1000, c, 4);
	/* "5.84 k" reads better as "5.84k". */
	n = 0;
	for (const char *p = tmp; *p && n < RIO_UNITS_LEN - 1; p++)
		if (*p != ' ')
			buf[n++] = *p;
	buf[n] = '\0';
}

void rio_units_ratio(char *buf, double v)
{
	if (isnan(v))
		snprintf(buf, RIO_UNITS_LEN, "-");
	else
		snprintf(buf, RIO_UNITS_LEN, v < 9.995 ? "%.2fx" : "%.1fx", v);
}
