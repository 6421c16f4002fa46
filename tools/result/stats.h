/* SPDX-License-Identifier: MIT */
#ifndef RDMAIO_TOOLS_STATS_H
#define RDMAIO_TOOLS_STATS_H

/*
 * The statistics of a figure measured once per round (rdmaio run --repeat):
 * its median and range, and for a ratio measured in every round the
 * interval of its geometric mean. NaN stands for a round that has no such
 * figure (a ratio with TCP at 0) and is left out everywhere.
 */

/* The median of v[0..n-1]: the middle value, or the mean of the two middle
 * ones for an even count. NaN when no value is known. v is not changed. */
double rio_stats_median(const double *v, int n);

/* The smallest and largest known values; returns how many are known
 * (0: min and max are NaN). */
int rio_stats_range(const double *v, int n, double *min, double *max);

/* Student's t quantile for a two-sided interval at level (0.95 gives
 * t(0.975, df)): 12.71 at df 1, 4.303 at 2, 1.984 at 99. NaN for df < 1
 * or a level outside (0, 1). */
double rio_stats_t_quantile(double level, int df);

/* P(T > t) of Student's t with df degrees of freedom (df may be a
 * fraction, as Welch's is). NaN for df <= 0. */
double rio_stats_t_sf(double t, double df);

/*
 * Welch's t test of the known values of a[0..n-1] against b[0..m-1]: the
 * two-sided p of a difference of their means as large as theirs, without
 * assuming equal variances. NaN with fewer than 2 known values on a side.
 */
double rio_stats_welch_p(const double *a, int n, const double *b, int m);

/* A ratio measured in each of n rounds, summed up. */
struct rio_stats_ratio {
	int n; /* rounds with a known ratio */
	double median, min, max;
	double geomean; /* exp(mean(ln r)) */
	double lo, hi; /* interval of geomean at the level asked; NaN: none */
};

/*
 * Sums up the ratios r[0..n-1]: median, range, geometric mean, and the
 * t interval at level of the geometric mean, exp(m +- t * s / sqrt(k)) with
 * m and s the mean and sample standard deviation of ln r over the k known
 * rounds and t = rio_stats_t_quantile(level, k - 1). The interval needs
 * k >= 2 and every ratio above 0 (lo and hi are NaN otherwise). Returns k.
 */
int rio_stats_ratio_sum(const double *r, int n, double level,
			struct rio_stats_ratio *out);

#endif
