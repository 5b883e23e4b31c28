/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Findings: rules evaluated over the model that point at the likely cause
 * of jitter. Each finding has a rule id, a severity, the evidence (the
 * numbers that triggered it, in words) and a fix as a list of knob
 * assignments ("cpufreq/policy4/governor=performance") that the caller
 * applies through the knob engine (journaled, undoable). The rules only read
 * data: a snapshot, and where the caller has them a thread table, an
 * interrupt table and a probe result. Without thread or probe data a rule
 * either runs a degraded version (and says so in the evidence, with a lower
 * severity) or stays silent. No curses, no writes. */
#ifndef TT_MODEL_FINDINGS_H
#define TT_MODEL_FINDINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/snapshot.h"
#include "source/irqs.h"
#include "source/threads.h"

enum finding_sev { FINDING_INFO, FINDING_WARN, FINDING_CRIT };

#define FINDING_MAX_FIX 16
#define FINDING_FIX_LEN 192

struct finding {
	char id[32];	  /* rule id: "governor-collapse" */
	char subject[64]; /* what it is about: "policy4", "cpu-sleep", "dmc", "cpu1" */
	enum finding_sev sev;
	char title[128];     /* one line: "policy4 sits at its lowest OPP (408 MHz)" */
	char evidence[768];  /* the numbers, in words */
	const char *explain; /* explain key for F1 (model/explain.h) */
	bool degraded;	     /* evaluated without thread / probe data */
	size_t nfix;
	char fix[FINDING_MAX_FIX][FINDING_FIX_LEN]; /* "ADDRESS=VALUE", in order */
	/* The fix's values are already in place and the finding persists:
	 * what still holds the value ("scaling_max_freq clamps policy4 at
	 * 408 MHz"), also in the evidence. "" = the fix is not in place (a fix
	 * recorded as applied whose finding fires with held[] empty was undone
	 * by someone: a process rewrote it). */
	char held[256];
};

struct finding_list {
	size_t n, cap;
	struct finding *v; /* most severe first, then in rule order */
};

/* What a latency probe measured, in the terms the rules need (the TUI fills
 * it from its probe; findings_probe_from_hist helps). */
struct findings_probe {
	bool have;
	uint64_t samples; /* wake-ups measured */
	uint64_t misses;  /* wake-ups later than the budget, plus skipped deadlines */
	double budget_us; /* what counted as a miss */
	double max_us, p99_us;
};

struct findings_input {
	const struct snapshot *snap;	    /* required */
	const struct thread_table *threads; /* optional (live threads, with rates if derived) */
	const struct irq_table *irqs;	    /* optional (with affinity; rates if derived);
					       NULL = the snapshot's own when it has SNAP_IRQS */
	const struct findings_probe *probe; /* optional */
};

struct findings_opts {
	double latency_budget_us; /* idle exit latency / probe budget; default 100 */
	double rt_near_pct;	  /* rt_time / rt_runtime that counts as near; default 90 */
	double migrations_per_s;  /* an RT thread above this migrates too often; default 10 */
	double busy_pct;	  /* devfreq load that counts as busy; default 20 */
	double low_util_pct;	  /* CPU utilisation that counts as low; default 30 */
};

void findings_opts_default(struct findings_opts *o);

/* Evaluate every rule. out must be zeroed or previously freed; findings
 * are appended. opts may be NULL (defaults). Returns 0, -EINVAL without a
 * snapshot. */
int findings_eval(const struct findings_input *in, const struct findings_opts *opts,
		  struct finding_list *out);
void findings_free(struct finding_list *l);

/* Count by severity (for the header). */
size_t findings_count(const struct finding_list *l, enum finding_sev min_sev);
const char *finding_sev_name(enum finding_sev s); /* "info" "warn" "crit" */

/* The rules, for help screens and docs. */
struct finding_rule_info {
	const char *id;
	const char *explain; /* explain key */
	const char *what;    /* when it fires */
	const char *needs;   /* "snapshot", "threads", "irqs", "probe" (degraded without) */
};
size_t findings_rule_count(void);
const struct finding_rule_info *findings_rule_at(size_t i);

/* Misses over budget_us in a probe histogram (probe/histogram.h). */
struct hist;
void findings_probe_from_hist(const struct hist *h, double budget_us, struct findings_probe *out);

#endif
