/* SPDX-License-Identifier: GPL-2.0-or-later */
/* abba_cmp: the A/B's window-level comparison (stats_abba) for windows
 * measured outside tunetop, used by tests/bench/observer.sh.
 *
 *   abba_cmp BASELINE < windows
 *
 * Input: a header line "cond METRIC..." then one line per window in time
 * order, "COND VALUE...". For every condition other than BASELINE, the
 * windows of BASELINE and that condition are taken in time order; each
 * round of four must hold two of each (A B B A or B A A B, as the bench
 * schedules them). Prints, per condition and metric, the difference
 * (condition − baseline, mean of the windows' values), its 95 % interval
 * from the within-round permutation test, the p-value, the smallest
 * difference these rounds can see, and the reading: "differs" when the
 * interval excludes 0, else "no difference seen". Exit 0, or 2 on bad
 * input (one line on stderr). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe/stats.h"

#define MAX_WIN	   4096
#define MAX_METRIC 8
#define MAX_COND   8
#define NAME_LEN   32

struct input {
	char metric[MAX_METRIC][NAME_LEN];
	int nmetric;
	char cond[MAX_COND][NAME_LEN];
	int ncond;
	int win_cond[MAX_WIN];
	double val[MAX_WIN][MAX_METRIC];
	int nwin;
};

static int cond_index(struct input *in, const char *name)
{
	for (int i = 0; i < in->ncond; i++)
		if (!strcmp(in->cond[i], name))
			return i;
	if (in->ncond == MAX_COND || strlen(name) >= NAME_LEN)
		return -1;
	snprintf(in->cond[in->ncond], NAME_LEN, "%s", name);
	return in->ncond++;
}

static int read_input(FILE *f, struct input *in)
{
	char line[1024];
	int lineno = 0;

	while (fgets(line, sizeof(line), f)) {
		char *save = NULL, *tok = strtok_r(line, " \t\n", &save);
		int col = 0, c = -1;

		lineno++;
		if (!tok)
			continue;
		if (in->nmetric == 0) { /* header: cond METRIC... */
			while ((tok = strtok_r(NULL, " \t\n", &save)) && in->nmetric < MAX_METRIC)
				snprintf(in->metric[in->nmetric++], NAME_LEN, "%s", tok);
			if (in->nmetric == 0) {
				fprintf(stderr, "abba_cmp: line %d: header names no metric\n",
					lineno);
				return -EINVAL;
			}
			continue;
		}
		if (in->nwin == MAX_WIN || (c = cond_index(in, tok)) < 0) {
			fprintf(stderr, "abba_cmp: line %d: too many windows or conditions\n",
				lineno);
			return -EINVAL;
		}
		while ((tok = strtok_r(NULL, " \t\n", &save)) && col < in->nmetric) {
			char *end;
			double v = strtod(tok, &end);

			in->val[in->nwin][col++] = *end ? NAN : v;
		}
		if (col != in->nmetric) {
			fprintf(stderr, "abba_cmp: line %d: %d values, the header names %d\n",
				lineno, col, in->nmetric);
			return -EINVAL;
		}
		in->win_cond[in->nwin++] = c;
	}
	return in->nmetric ? 0 : -EINVAL;
}

static void compare(const struct input *in, int base, int other)
{
	static double x[MAX_WIN];
	static int arm[MAX_WIN];
	int idx[MAX_WIN], n = 0;

	for (int w = 0; w < in->nwin; w++)
		if (in->win_cond[w] == base || in->win_cond[w] == other)
			idx[n++] = w;
	for (int m = 0; m < in->nmetric; m++) {
		struct stats_abba r;

		for (int i = 0; i < n; i++) {
			x[i] = in->val[idx[i]][m];
			arm[i] = in->win_cond[idx[i]] == other;
		}
		if (stats_abba(x, arm, (unsigned)n / 4, 0, STATS_DEFAULT_SEED, &r) < 0) {
			printf("%-12s %-8s no complete round of two %s and two %s windows\n",
			       in->cond[other], in->metric[m], in->cond[base], in->cond[other]);
			continue;
		}
		if (isnan(r.lo)) {
			printf("%-12s %-8s %+9.1f (no interval: %u rounds)     inconclusive\n",
			       in->cond[other], in->metric[m], r.est, r.rounds);
			continue;
		}
		printf("%-12s %-8s %+9.1f [%+.1f, %+.1f]  p=%.3f  mde %.1f  %u rounds  %s\n",
		       in->cond[other], in->metric[m], r.est, r.lo, r.hi, r.p, r.mde, r.rounds,
		       stats_abba_significant(&r) ? "differs" : "no difference seen");
	}
}

int main(int argc, char **argv)
{
	static struct input in;
	int base;

	if (argc != 2) {
		fprintf(stderr, "usage: abba_cmp BASELINE < windows\n");
		return 2;
	}
	if (read_input(stdin, &in) < 0)
		return 2;
	base = -1;
	for (int i = 0; i < in.ncond; i++)
		if (!strcmp(in.cond[i], argv[1]))
			base = i;
	if (base < 0) {
		fprintf(stderr, "abba_cmp: no window of the baseline '%s'\n", argv[1]);
		return 2;
	}
	printf("%-12s %-8s %9s  (vs %s; 95 %% interval, window-level permutation test)\n", "cond",
	       "metric", "diff", argv[1]);
	for (int c = 0; c < in.ncond; c++)
		if (c != base)
			compare(&in, base, c);
	return 0;
}
