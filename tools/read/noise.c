// SPDX-License-Identifier: MIT
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "read/noise.h"
#include "result/stats.h"

static bool all_positive(const double *v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (!isnan(v[i]) && !(v[i] > 0))
			return false;
	return true;
}

/* Welch's p on log values: the rounds of a rate, a latency or a ratio
 * vary by a factor more than by an amount. */
static double welch_log_p(const double *a, int n, const double *b, int m)
{
	double *la, *lb, p = NAN;
	int i;

	if (!all_positive(a, n) || !all_positive(b, m))
		return rio_stats_welch_p(a, n, b, m);
	la = malloc(n * sizeof(*la));
	lb = malloc(m * sizeof(*lb));
	if (la && lb) {
		for (i = 0; i < n; i++)
			la[i] = log(a[i]);
		for (i = 0; i < m; i++)
			lb[i] = log(b[i]);
		p = rio_stats_welch_p(la, n, lb, m);
	}
	free(la);
	free(lb);
	return p;
}

int rio_noise_judge(const double *old, int nold, const double *new, int nnew,
		    double threshold_pct, double alpha, bool higher_is_better,
		    struct rio_noise_change *c)
{
	double diff;
	bool apart;

	memset(c, 0, sizeof(*c));
	c->nold = rio_stats_range(old, nold, &c->old_min, &c->old_max);
	c->nnew = rio_stats_range(new, nnew, &c->new_min, &c->new_max);
	c->old_median = rio_stats_median(old, nold);
	c->new_median = rio_stats_median(new, nnew);
	c->p = NAN;
	if (!c->nold || !c->nnew || !(c->old_median > 0))
		return -EINVAL;
	diff = c->new_median - c->old_median;
	c->change_pct = diff / c->old_median * 100;
	c->known = c->nold >= 2 && c->nnew >= 2;
	c->beyond = fabs(c->change_pct) > threshold_pct;
	if (c->known) {
		apart = c->old_max < c->new_min || c->new_max < c->old_min;
		c->p = welch_log_p(old, nold, new, nnew);
		c->beyond = c->beyond && apart && c->p < alpha;
	}
	c->worse = c->beyond && (higher_is_better ? diff < 0 : diff > 0);
	return 0;
}
