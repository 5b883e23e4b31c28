/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Edges that mutants showed untested (issue 32, item 15; scripts/mutate.sh):
 * - the PM QoS effect judgement (effect.c judge_qos) reaching each of its
 *   verdicts, on a copy of rk3588 whose idle-state counters the test moves
 *   between the two samples (cpu4: WFI 1 us, cpu-sleep 220 us);
 * - the rt-migrations finding at its threshold (more than 10/s: 10 is
 *   silent, 10.01 fires);
 * - the isolation audit never counting a thread of unknown affinity as
 *   the workload;
 * - counters: a 64-bit interrupt count that stayed put is a delta of 0,
 *   /proc/stat rates over an interval of 2 s, user time with nice;
 * - symlinks under a root: 40 followed, the 41st is ELOOP (the kernel's
 *   MAXSYMLINKS), by openat2 and by the walk without it;
 * - the journal's CRC-32 against the standard check value (a wrong one
 *   agrees with itself, so a round trip cannot see it) and its crc= field
 *   of exactly 8 hex digits. */
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/str.h"
#include "core/xalloc.h"
#include "knob/journal.h"
#include "knob/knob.h"
#include "model/findings.h"
#include "model/isolation.h"
#include "sysfs/sysroot.h"
#include "source/irqs.h"
#include "source/procstat.h"
#include "tap.h"

static char root_path[4096];

/* Add n to cpuC/cpuidle/stateS/usage of the copied tree. */
static void bump(int cpu, int state, unsigned long long n)
{
	char path[4200];
	unsigned long long v = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/sys/devices/system/cpu/cpu%d/cpuidle/state%d/usage",
		 root_path, cpu, state);
	f = fopen(path, "r");
	if (!f || fscanf(f, "%llu", &v) != 1)
		printf("# cannot read %s\n", path);
	if (f)
		fclose(f);
	f = fopen(path, "w");
	if (!f)
		return;
	fprintf(f, "%llu\n", v + n);
	fclose(f);
}

/* Watch ADDR=VALUE, move the counters (bumps: cpu, state, n; cpu -1 ends),
 * judge: the verdict, its evidence in ev. */
static enum knob_effect qos(struct knob_ctx *ctx, const char *addr, const char *value,
			    const int (*bumps)[3], char *ev, size_t cap)
{
	struct knob_effect_watch *w = knob_effect_begin_addr(ctx, addr, value);
	const char *a = "", *e = "";
	enum knob_effect v;

	if (!w) {
		str_copy(ev, cap, "no watch");
		return KNOB_EFFECT_UNKNOWN;
	}
	for (int i = 0; bumps && bumps[i][0] >= 0; i++)
		bump(bumps[i][0], bumps[i][1], (unsigned long long)bumps[i][2]);
	knob_effect_end(ctx, w, KNOB_EFFECT_NO_RECORD | KNOB_QUIET, NULL);
	v = knob_effect_worst(w, &a, &e);
	str_copy(ev, cap, e);
	knob_effect_free(w);
	return v;
}

static void test_qos(void)
{
	static const int deep[][3] = {{4, 1, 5}, {4, 0, 3}, {-1, 0, 0}};
	static const int shallow[][3] = {{4, 0, 3}, {-1, 0, 0}};
	static const int other[][3] = {{5, 1, 7}, {-1, 0, 0}};
	static const int cpu0deep[][3] = {{0, 1, 2}, {-1, 0, 0}};
	char tmp[] = "/tmp/tt-edges.XXXXXX", cmd[20000], ev[512];
	struct sysroot r;
	struct knob_ctx *ctx = NULL;
	char *cause = NULL;

	if (!mkdtemp(tmp)) {
		ok(0, "mkdtemp");
		return;
	}
	snprintf(root_path, sizeof(root_path), "%s/root", tmp);
	/* the global limit's device, as a file in the copy (only watched here) */
	snprintf(cmd, sizeof(cmd),
		 "cp -a '%s' '%s' && mkdir -p '%s/dev' && printf '\\0\\0\\0\\0' "
		 ">'%s/dev/cpu_dma_latency'",
		 fixture("rk3588"), root_path, root_path, root_path);
	if (system(cmd) != 0 || sysroot_open(&r, root_path) != 0 ||
	    knob_ctx_open(&ctx, &r, NULL, KNOB_NO_JOURNAL, &cause) != 0) {
		ok(0, "copy and open rk3588");
		free(cause);
		return;
	}
	is_int(qos(ctx, "pmqos/cpu4/resume_latency_us", "100", deep, ev, sizeof(ev)),
	       KNOB_EFFECT_NOT_SEEN, "limit 100 us, cpu-sleep (220 us) entered: not seen");
	ok(strstr(ev, "above 100 us entered 5 times") && strstr(ev, "cpu-sleep on CPU 4"),
	   "... 5 entries of cpu-sleep on CPU 4 (%s)", ev);
	is_int(qos(ctx, "pmqos/cpu4/resume_latency_us", "100", shallow, ev, sizeof(ev)),
	       KNOB_EFFECT_VERIFIED, "limit 100 us, only WFI (1 us) entered: verified");
	ok(strstr(ev, "no idle state above 100 us") && strstr(ev, "shallower ones 3 times"),
	   "... WFI 3 times (%s)", ev);
	is_int(qos(ctx, "pmqos/cpu4/resume_latency_us", "220", deep, ev, sizeof(ev)),
	       KNOB_EFFECT_VERIFIED, "limit 220 us: cpu-sleep (exactly 220 us) is allowed");
	ok(strstr(ev, "shallower ones 8 times") != NULL, "... all 8 entries shallow enough (%s)",
	   ev);
	is_int(qos(ctx, "pmqos/cpu4/resume_latency_us", "219", deep, ev, sizeof(ev)),
	       KNOB_EFFECT_NOT_SEEN, "limit 219 us: cpu-sleep is 1 us too deep");
	is_int(qos(ctx, "pmqos/cpu4/resume_latency_us", "100", NULL, ev, sizeof(ev)),
	       KNOB_EFFECT_UNKNOWN, "no idle state entered: unknown");
	ok(strstr(ev, "no idle state entered") != NULL, "... says so (%s)", ev);
	is_int(qos(ctx, "pmqos/cpu4/resume_latency_us", "100", other, ev, sizeof(ev)),
	       KNOB_EFFECT_UNKNOWN, "only another CPU's cpu-sleep moved: cpu4's verdict unknown");
	is_int(qos(ctx, "pmqos/cpu4/resume_latency_us", "n/a", deep, ev, sizeof(ev)),
	       KNOB_EFFECT_UNKNOWN, "n/a: no constraint to check");
	ok(strstr(ev, "no latency constraint") != NULL, "... says so (%s)", ev);
	is_int(qos(ctx, "pmqos/cpu_dma_latency_us", "100", cpu0deep, ev, sizeof(ev)),
	       KNOB_EFFECT_NOT_SEEN, "the global limit: cpu-sleep on CPU 0 counts");
	ok(strstr(ev, "entered 2 times") && strstr(ev, "on CPU 0"), "... 2 times on CPU 0 (%s)",
	   ev);
	is_int(qos(ctx, "pmqos/cpu_dma_latency_us", "100", other, ev, sizeof(ev)),
	       KNOB_EFFECT_NOT_SEEN, "... and on CPU 5 too");
	ok(strstr(ev, "entered 7 times") && strstr(ev, "on CPU 5"),
	   "... 7 times, named on CPU 5 where it was entered (%s)", ev);
	knob_ctx_close(ctx);
	sysroot_close(&r);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	if (system(cmd) != 0)
		printf("# cannot remove %s\n", tmp);
}

/* One RT thread (FIFO 80, user) migrating mig times/s on rk3588. */
/* Does finding id (about subject, when not NULL) fire on s with one thread
 * of this policy on CPU 4 migrating mig times/s? */
static bool fires(const struct snapshot *s, int policy, double mig, const char *id,
		  const char *subject)
{
	struct thread_table t;
	struct thread_info *x;
	struct findings_input in = {.snap = s};
	struct finding_list l;
	bool hit = false;

	memset(&t, 0, sizeof(t));
	memset(&l, 0, sizeof(l));
	t.n = t.cap = 1;
	t.t = x = xcalloc(1, sizeof(*t.t));
	for (int c = 0; c < 8; c++)
		cpumask_set(&t.online, c);
	t.have_online = true;
	x->pid = x->tid = 1000;
	str_copy(x->comm, sizeof(x->comm), "rtloop");
	x->state = 'S';
	x->policy = policy;
	x->rt_prio = policy == SCHED_FIFO ? 80 : 0;
	x->uclamp_min = x->uclamp_max = -1;
	x->affinity = t.online;
	x->have_affinity = true;
	x->last_cpu = 4;
	x->cpu_pct = x->vol_per_s = x->invol_per_s = NAN;
	x->migrations_per_s = mig;
	in.threads = &t;
	if (findings_eval(&in, NULL, &l) == 0)
		for (size_t i = 0; i < l.n; i++)
			hit |= !strcmp(l.v[i].id, id) &&
			       (!subject || !strcmp(l.v[i].subject, subject));
	findings_free(&l);
	free(t.t);
	return hit;
}

static bool migrates(double mig, const struct snapshot *s)
{
	return fires(s, SCHED_FIFO, mig, "rt-migrations", NULL);
}

/* Set every CPU's state named name to lat_us. */
static void set_latency(struct snapshot *s, const char *name, int64_t lat_us)
{
	for (int c = 0; c < s->idle.ncpus; c++)
		for (size_t k = 0; k < s->idle.cpu[c].nstates; k++)
			if (!strcmp(s->idle.cpu[c].st[k].name, name))
				s->idle.cpu[c].st[k].latency_us = lat_us;
}

static void test_migrations(void)
{
	struct sysroot r;
	struct snapshot s;

	memset(&s, 0, sizeof(s));
	if (sysroot_open(&r, fixture("rk3588")) != 0 || snapshot_take(&r, SNAP_ALL, &s) != 0) {
		ok(0, "sample rk3588");
		return;
	}
	sysroot_close(&r);
	ok(!migrates(9.99, &s), "rt-migrations: 9.99/s is silent");
	ok(!migrates(10.0, &s), "rt-migrations: exactly 10/s (the threshold) is silent");
	ok(migrates(10.01, &s), "rt-migrations: 10.01/s fires");
	ok(migrates(500.0, &s), "rt-migrations: 500/s fires");
	ok(!migrates(NAN, &s), "rt-migrations: unknown is silent");
	ok(!fires(&s, SCHED_OTHER, 500.0, "rt-migrations", NULL),
	   "rt-migrations: a SCHED_OTHER thread at 500/s is silent (RT only)");
	/* idle-exit-latency: a state deeper than the budget (100 us) on the RT
	   thread's CPU; WFI (1 us) never */
	ok(fires(&s, SCHED_FIFO, 0.0, "idle-exit-latency", "cpu-sleep"),
	   "idle-exit-latency: cpu-sleep (220 us) on the RT thread's CPU");
	ok(!fires(&s, SCHED_FIFO, 0.0, "idle-exit-latency", "WFI"),
	   "idle-exit-latency: not WFI (1 us)");
	set_latency(&s, "cpu-sleep", 100);
	ok(!fires(&s, SCHED_FIFO, 0.0, "idle-exit-latency", "cpu-sleep"),
	   "idle-exit-latency: cpu-sleep at exactly the budget (100 us) is silent");
	set_latency(&s, "cpu-sleep", 101);
	ok(fires(&s, SCHED_FIFO, 0.0, "idle-exit-latency", "cpu-sleep"),
	   "idle-exit-latency: 101 us fires");
	snapshot_free(&s);
}

static struct thread_info *thr(struct thread_table *t, pid_t tid, const char *comm, int last_cpu,
			       const char *aff, double cpu_pct)
{
	struct thread_info *x;

	t->t = xgrow(t->t, &t->cap, t->n + 1, sizeof(*t->t));
	x = &t->t[t->n++];
	memset(x, 0, sizeof(*x));
	x->pid = x->tid = tid;
	str_copy(x->comm, sizeof(x->comm), comm);
	x->last_cpu = last_cpu;
	x->have_affinity = aff != NULL;
	if (aff)
		cpulist_parse(aff, &x->affinity);
	x->cpu_pct = cpu_pct;
	x->migrations_per_s = NAN;
	x->uclamp_min = x->uclamp_max = -1;
	return x;
}

static void test_unknown_affinity(void)
{
	struct system_info sys;
	struct thread_table tt;
	struct iso_report r;
	struct cpumask online;
	bool listed = false, work_listed = false, far = false;

	memset(&sys, 0, sizeof(sys));
	memset(&tt, 0, sizeof(tt));
	sys.have_isolated = true;
	cpulist_parse("2-3", &sys.isolated);
	cpulist_parse("0-3", &online);
	cpulist_parse("0-3", &tt.online);
	tt.have_online = true;
	thr(&tt, 100, "work", 2, "2-3", 60.0);	 /* the workload, confined */
	thr(&tt, 101, "unknown", 3, NULL, 20.0); /* ran on CPU 3, affinity unknown */
	thr(&tt, 102, "elsewhere", 0, NULL, 20.0);
	thr(&tt, 105, "waker", 3, "0-3", 0.0)->vol_per_s = 50.0;  /* ran: woke 50 times/s */
	thr(&tt, 106, "invol", 2, "0-3", NAN)->invol_per_s = 5.0; /* ran: preempted */
	thr(&tt, 107, "asleep", 2, "0-3", 0.0);			  /* did not run */
	/* kernel threads of unknown affinity (a stale mask left in the struct):
	   nothing is claimed about them */
	thr(&tt, 103, "kworker/u8:1", 2, "0-3", 5.0)->kernel = true;
	tt.t[tt.n - 1].have_affinity = false;
	thr(&tt, 104, "rcuop/3", 2, NULL, 5.0)->kernel = true;
	is_int(isolation_audit(&sys, &online, NULL, &tt, &r), 0, "audit");
	is_int((int)r.nworkload, 1, "one workload thread (the confined one)");
	for (size_t i = 0; i < r.n; i++) {
		listed |= r.v[i].kind == ISO_THREAD && r.v[i].tid == 101;
		work_listed |= r.v[i].tid == 100;
		far |= r.v[i].tid == 102;
	}
	ok(listed, "a thread of unknown affinity on CPU 3 is listed, not the workload");
	ok(!work_listed, "the confined thread is not listed");
	ok(!far, "a thread on a housekeeping CPU is not listed");
	{
		bool waker = false, invol = false, asleep = false;

		for (size_t i = 0; i < r.n; i++) {
			waker |= r.v[i].kind == ISO_THREAD && r.v[i].tid == 105;
			invol |= r.v[i].kind == ISO_THREAD && r.v[i].tid == 106;
			asleep |= r.v[i].tid == 107;
		}
		ok(waker, "a thread with 0 %% CPU that woke up on CPU 3 ran there: listed");
		ok(invol, "one preempted there (involuntary switches) too");
		ok(!asleep, "one that did not run is not listed");
	}
	{
		bool kw = false, rcu = false;

		for (size_t i = 0; i < r.n; i++) {
			kw |= r.v[i].kind == ISO_KTHREAD && r.v[i].tid == 103;
			rcu |= r.v[i].kind == ISO_KTHREAD && r.v[i].tid == 104;
		}
		ok(!kw,
		   "an unbound kworker of unknown affinity: no kthread advice (nothing known)");
		ok(!rcu, "an rcuo thread of unknown affinity is not called offloaded");
	}
	for (size_t i = 0; i < r.n; i++)
		if (r.v[i].tid == 101)
			is_str(r.v[i].affinity, "", "... its affinity shown as unknown (empty)");
	isolation_free(&r);
	free(tt.t);
}

static void test_journal_crc(void)
{
	char value[] = "performance", line[512];
	struct jrec r = {.type = 'C', .ref = 7, .value = value}, back;
	struct sbuf b;
	size_t n;

	is_int((int)journal_crc32("123456789", 9), (int)0xcbf43926u,
	       "CRC-32 of \"123456789\" is the standard check value cbf43926");
	is_int((int)journal_crc32("", 0), 0, "CRC-32 of nothing is 0");
	sbuf_init(&b);
	jrec_encode(&r, &b);
	n = b.len && b.s[b.len - 1] == '\n' ? b.len - 1 : b.len;
	is_int(jrec_decode(b.s, n, &back), 0, "an encoded C record decodes");
	jrec_free(&back);
	snprintf(line, sizeof(line), "%.*s0", (int)n, b.s);
	is_int(jrec_decode(line, n + 1, &back), -EINVAL, "a crc= field of 9 digits is refused");
	snprintf(line, sizeof(line), "%.*s", (int)n - 1, b.s);
	is_int(jrec_decode(line, n - 1, &back), -EINVAL, "a crc= field of 7 digits is refused");
	sbuf_free(&b);
	/* an escape in upper case (a journal edited by hand) reads as in lower */
	{
		static const char *const body[] = {"C\tref=3\tvalue=a\\x1Bb\\x7fc",
						   "C\tref=3\tvalue=a\\x1bb\\x7Fc"};

		for (int i = 0; i < 2; i++) {
			snprintf(line, sizeof(line), "%s\tcrc=%08x", body[i],
				 (unsigned)journal_crc32(body[i], strlen(body[i])));
			if (jrec_decode(line, strlen(line), &back) == 0) {
				ok(back.value && !strcmp(back.value, "a\033b\177c"),
				   "\\x1B and \\x1b, \\x7f and \\x7F decode alike (%d)", i);
				jrec_free(&back);
			} else {
				ok(0, "decode an escaped value (%d)", i);
			}
		}
	}
	/* a C record must say which change it completes (ref=) */
	{
		static const char *const body[] = {"C\tref=3\tvalue=x", "C\tvalue=x",
						   "A\tvalue=EIO", "U\tref=2\tvalue=undone"};
		static const int want[] = {0, -EINVAL, -EINVAL, 0};

		for (int i = 0; i < 4; i++) {
			size_t k = strlen(body[i]);

			snprintf(line, sizeof(line), "%s\tcrc=%08x", body[i],
				 (unsigned)journal_crc32(body[i], k));
			int e = jrec_decode(line, strlen(line), &back);

			ok(e == want[i], "decode '%s': %d (got %d)", body[i], want[i], e);
			if (e == 0)
				jrec_free(&back);
		}
	}
}

static void test_counters(void)
{
	static const char a[] = "cpu  100 20 30 800 10 5 5 0 0 0\n"
				"cpu0 100 20 30 800 10 5 5 0 0 0\n"
				"intr 1000 0\nctxt 5000\nprocs_running 1\nprocs_blocked 0\n";
	static const char b[] = "cpu  130 30 40 880 10 5 5 0 0 0\n"
				"cpu0 130 30 40 880 10 5 5 0 0 0\n"
				"intr 1600 0\nctxt 9000\nprocs_running 1\nprocs_blocked 0\n";
	struct procstat pa, pb;
	uint64_t d = 99;

	ok(irqs_delta32(5000000000ull, 5000000000ull, &d) && d == 0,
	   "a 64-bit count that stayed put: delta 0, not a reset");
	ok(irqs_delta32(7, 7, &d) && d == 0, "a 32-bit count that stayed put: delta 0");
	memset(&pa, 0, sizeof(pa));
	memset(&pb, 0, sizeof(pb));
	if (procstat_parse(a, 1, &pa) != 0 || procstat_parse(b, 1, &pb) != 0) {
		ok(0, "parse two /proc/stat samples");
		return;
	}
	procstat_derive(&pb, &pa, 2.0);
	is_dbl(pb.ctxt_per_s, 2000.0, 1e-9, "4000 context switches in 2 s: 2000/s");
	is_dbl(pb.intr_per_s, 300.0, 1e-9, "600 interrupts in 2 s: 300/s");
	/* 30 user + 10 nice + 10 system + 80 idle = 130 */
	is_dbl(pb.total_util.user_pct, 100.0 * 40 / 130, 1e-9, "user share counts nice");
	is_dbl(pb.total_util.system_pct, 100.0 * 10 / 130, 1e-9, "system share");
	is_dbl(pb.total_util.idle_pct, 100.0 * 80 / 130, 1e-9, "idle share");
	procstat_free(&pa);
	procstat_free(&pb);
}

/* Two /proc/interrupts samples with no time between them: no rate (NAN),
 * never an infinity; 2 s apart: the counts over 2 s. */
static void test_irq_interval(void)
{
	static const char a[] = "           CPU0       CPU1\n"
				" 11:        100        200   GICv3  27 Level     arch_timer\n";
	static const char b[] = "           CPU0       CPU1\n"
				" 11:        300        600   GICv3  27 Level     arch_timer\n";
	struct irq_table ta, tb;

	memset(&ta, 0, sizeof(ta));
	memset(&tb, 0, sizeof(tb));
	if (irqs_parse(a, 2, &ta) != 0 || irqs_parse(b, 2, &tb) != 0 || tb.n != 1) {
		ok(0, "parse two /proc/interrupts samples");
		return;
	}
	irqs_derive(&tb, &ta, 0.0);
	ok(isnan(tb.rows[0].total_per_s) && isnan(tb.rows[0].rate_per_s[0]),
	   "no time between the samples: no rate (%g)", tb.rows[0].total_per_s);
	irqs_derive(&tb, &ta, 2.0);
	is_dbl(tb.rows[0].total_per_s, 300.0, 1e-9, "600 interrupts in 2 s: 300/s");
	is_dbl(tb.rows[0].rate_per_s[1], 200.0, 1e-9, "... 200/s of them on CPU 1");
	irqs_free(&ta);
	irqs_free(&tb);
}

/* A root with a file behind a chain of n links (f0 -> f1 -> ... -> data) and
 * a directory behind one (d0 -> ... -> dir). */
static void chains(const char *top, int n)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd),
		 "cd '%s' && rm -rf c%d && mkdir -p c%d/dir && cd c%d && echo 7 >data && "
		 "echo 8 >dir/f && i=0; while [ $i -lt %d ]; do j=$((i + 1)); "
		 "t=f$j; [ $j -eq %d ] && t=data; ln -s $t f$i; "
		 "t=d$j; [ $j -eq %d ] && t=dir; ln -s $t d$i; i=$j; done",
		 top, n, n, n, n, n, n);
	if (system(cmd) != 0)
		printf("# cannot make the chains of %d links\n", n);
}

static void test_link_hops(void)
{
	char top[] = "/tmp/tt-hops.XXXXXX", dir[64], buf[16], cmd[128];

	if (!mkdtemp(top)) {
		ok(0, "mkdtemp");
		return;
	}
	chains(top, 40);
	chains(top, 41);
	for (int walk = 0; walk < 2; walk++) {
		const char *how = walk ? "walk" : "openat2";

		if (walk)
			setenv("TUNETOP_TEST_NO_OPENAT2", "1", 1);
		for (int n = 40; n <= 41; n++) {
			struct sysroot r;

			snprintf(dir, sizeof(dir), "%s/c%d", top, n);
			if (sysroot_open(&r, dir) != 0) {
				ok(0, "open %s", dir);
				continue;
			}
			{
				int want = n == 40 ? 0 : -ELOOP;
				int e1 = sysfs_read_str(&r, "f0", buf, sizeof(buf));
				int e2 = sysfs_read_str(&r, "d0/f", buf, sizeof(buf));

				ok(e1 == want, "%s: a file behind %d links: %s (got %d)", how, n,
				   n == 40 ? "read" : "ELOOP", e1);
				ok(e2 == want, "%s: a directory behind %d links: %s (got %d)", how,
				   n, n == 40 ? "read" : "ELOOP", e2);
				ok(sysfs_readlink(&r, "f0", buf, sizeof(buf)) == 0 &&
					   !strcmp(buf, "f1"),
				   "%s: readlink names the first link's target, f1 (%s)", how, buf);
			}
			sysroot_close(&r);
		}
	}
	unsetenv("TUNETOP_TEST_NO_OPENAT2");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	if (system(cmd) != 0)
		printf("# cannot remove %s\n", top);
}

int main(void)
{
	test_link_hops();
	test_counters();
	test_irq_interval();
	test_journal_crc();
	test_qos();
	test_migrations();
	test_unknown_affinity();
	return done_testing();
}
