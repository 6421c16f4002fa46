/* SPDX-License-Identifier: MIT */
#ifndef RDMAIO_TOOLS_NOISE_H
#define RDMAIO_TOOLS_NOISE_H

#include <stdbool.h>

/*
 * Whether one figure changed between two results beyond run-to-run noise,
 * from its value in each round of either (rdmaio compare).
 *
 * With two rounds or more on both sides the noise is measured, and a
 * change is beyond it when all three hold: the two ranges of rounds do not
 * overlap; Welch's t test of the logarithms of the rounds' values (of the
 * values themselves when one is not above 0) gives p below alpha; and the
 * medians differ by more than threshold_pct of the old one. No one of them
 * is enough at 3 rounds against 3: ranges of six values of one
 * distribution fail to overlap 1 time in 10, a rank test can never reach
 * p < 0.05, and a t test at a fixed level, asked of the twenty figures of
 * one comparison, finds one of them "changed" most of the time. The caller
 * makes alpha 0.05 over the number of figures it judges (Bonferroni), so
 * that a comparison of two runs without any change calls at most 1 in 20
 * of them different anywhere.
 *
 * With one round on a side the noise is unknown (fio's spread within a run
 * is not the spread between runs): the change is judged by threshold_pct
 * alone, and known says so.
 */
struct rio_noise_change {
	int nold, nnew; /* rounds with the figure known */
	double old_median, new_median;
	double old_min, old_max, new_min, new_max;
	double change_pct; /* (new - old) / old medians, in percent */
	double p; /* Welch's p; NaN when the noise is unknown */
	bool known; /* both sides have 2 rounds or more */
	bool beyond; /* beyond noise by the rule above */
	bool worse; /* beyond, and in the direction of a regression */
};

/*
 * Judges the figure's rounds old[0..nold-1] against new[0..nnew-1] (NaN:
 * not known in that round); higher_is_better says which way is a
 * regression. Returns 0, or -EINVAL when a side has no known value or the
 * old median is not above 0 (no relative change exists).
 */
int rio_noise_judge(const double *old, int nold, const double *new, int nnew,
		    double threshold_pct, double alpha, bool higher_is_better,
		    struct rio_noise_change *c);

#endif
