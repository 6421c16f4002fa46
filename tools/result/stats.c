// SPDX-License-Identifier: MIT
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "result/stats.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double rio_stats_median(const double *v, int n)
{
	double *s, m;
	int i, k = 0;

	if (n <= 0)
		return NAN;
	s = malloc(n * sizeof(*s));
	if (!s)
		return NAN;
	for (i = 0; i < n; i++)
		if (!isnan(v[i]))
			s[k++] = v[i];
	qsort(s, k, sizeof(*s), cmp_double);
	m = !k ? NAN : k % 2 ? s[k / 2] : (s[k / 2 - 1] + s[k / 2]) / 2;
	free(s);
	return m;
}

int rio_stats_range(const double *v, int n, double *min, double *max)
{
	int i, k = 0;

	*min = *max = NAN;
	for (i = 0; i < n; i++) {
		if (isnan(v[i]))
			continue;
		if (!k++ || v[i] < *min)
			*min = v[i];
		if (k == 1 || v[i] > *max)
			*max = v[i];
	}
	return k;
}

/* The continued fraction of the regularized incomplete beta function
 * (modified Lentz), which converges fast for x < (a + 1) / (a + b + 2). */
static double beta_cf(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h, aa, del;
	int m;

	d = 1 / (fabs(d) < tiny ? tiny : d);
	h = d;
	for (m = 1; m <= 300; m++) {
		aa = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
		d = 1 + aa * d;
		d = 1 / (fabs(d) < tiny ? tiny : d);
		c = 1 + aa / c;
		c = fabs(c) < tiny ? tiny : c;
		h *= d * c;
		aa = -(a + m) * (a + b + m) * x /
		     ((a + 2 * m) * (a + 2 * m + 1));
		d = 1 + aa * d;
		d = 1 / (fabs(d) < tiny ? tiny : d);
		c = 1 + aa / c;
		c = fabs(c) < tiny ? tiny : c;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < 1e-15)
			break;
	}
	return h;
}

static double beta_inc(double a, double b, double x)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) +
		    b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_cf(a, b, x) / a;
	return 1 - front * beta_cf(b, a, 1 - x) / b;
}

double rio_stats_t_sf(double t, double df)
{
	double tail;

	if (!(df > 0) || isnan(t))
		return NAN;
	if (isinf(t))
		return t > 0 ? 0 : 1;
	tail = beta_inc(df / 2, 0.5, df / (df + t * t)) / 2;
	return t >= 0 ? tail : 1 - tail;
}

double rio_stats_t_quantile(double level, int df)
{
	double tail = (1 - level) / 2, lo = 0, hi = 1e7, mid;
	int i;

	if (df < 1 || !(level > 0 && level < 1))
		return NAN;
	/* The upper tail falls as t grows: bisect it to the precision of
	 * a double (df 1 at 0.999 is 636.6, well inside hi). */
	for (i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
		mid = (lo + hi) / 2;
		if (rio_stats_t_sf(mid, df) > tail)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/* Mean and sample standard deviation of ln r over the known ratios;
 * false when one of them is not above 0. */
static int log_moments(const double *r, int n, double *mean, double *sd)
{
	double sum = 0, sq = 0;
	int i, k = 0;

	for (i = 0; i < n; i++) {
		if (isnan(r[i]))
			continue;
		if (!(r[i] > 0) || isinf(r[i]))
			return 0;
		sum += log(r[i]);
		k++;
	}
	*mean = k ? sum / k : NAN;
	for (i = 0; i < n; i++)
		if (!isnan(r[i]))
			sq += (log(r[i]) - *mean) * (log(r[i]) - *mean);
	*sd = k > 1 ? sqrt(sq / (k - 1)) : NAN;
	return k > 0;
}

int rio_stats_ratio_sum(const double *r, int n, double level,
			struct rio_stats_ratio *out)
{
	double mean, sd, half;

	memset(out, 0, sizeof(*out));
	out->n = rio_stats_range(r, n, &out->min, &out->max);
	out->median = rio_stats_median(r, n);
	out->geomean = out->lo = out->hi = NAN;
	if (!log_moments(r, n, &mean, &sd))
		return out->n;
	out->geomean = exp(mean);
	if (out->n < 2)
		return out->n;
	half = rio_stats_t_quantile(level, out->n - 1) * sd / sqrt(out->n);
	out->lo = exp(mean - half);
	out->hi = exp(mean + half);
	return out->n;
}

/* Mean and variance of the mean of the known values; how many there are. */
static int mean_var(const double *v, int n, double *mean, double *var)
{
	double sum = 0, sq = 0;
	int i, k = 0;

	for (i = 0; i < n; i++)
		if (!isnan(v[i])) {
			sum += v[i];
			k++;
		}
	*mean = k ? sum / k : NAN;
	for (i = 0; i < n; i++)
		if (!isnan(v[i]))
			sq += (v[i] - *mean) * (v[i] - *mean);
	*var = k > 1 ? sq / (k - 1) / k : NAN;
	return k;
}

double rio_stats_welch_p(const double *a, int n, const double *b, int m)
{
	double ma, va, mb, vb, se2, df;
	int ka = mean_var(a, n, &ma, &va), kb = mean_var(b, m, &mb, &vb);

	if (ka < 2 || kb < 2)
		return NAN;
	se2 = va + vb;
	/* Rounds that all gave the same figure: any difference is real. */
	if (se2 == 0)
		return ma == mb ? 1 : 0;
	df = se2 * se2 / (va * va / (ka - 1) + vb * vb / (kb - 1));
	return 2 * rio_stats_t_sf(fabs(mb - ma) / sqrt(se2), df);
}
