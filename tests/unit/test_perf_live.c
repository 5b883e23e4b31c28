/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Live tests for src/source/perf.c on the machine that runs them, using
 * only processes this test starts (tests/live/pingpong):
 *  - per-thread software counters on the pingpong workload against its known
 *    context switches (one per round for the main thread) and page faults;
 *  - hardware events n/a with their reason once (ENOENT without a PMU,
 *    EACCES when not permitted), software events with values;
 *  - per-CPU counting, JSON, a thread that is gone, the fd limit, and an
 *    unprivileged child (EACCES, user-space-only page faults).
 * With --count [PINGPONG ARGS...] it runs one workload under a thread set
 * and prints "context-switches N" etc. (tests/live/perf_stat.sh compares
 * that with perf stat); --bench N prints the median perf_sample cost
 * (tests/bench/perf.sh). */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/json.h"
#include "core/str.h"
#include "core/timeutil.h"
#include "out/perf_out.h"
#include "source/perf.h"
#include "source/topology.h"
#include "sysfs/sysroot.h"
#include "tap.h"

#define ROUNDS	 5000
#define TOUCH_MB 8

static char pingpong[1024];

static void skip(const char *what, const char *why)
{
	printf("ok %d - %s # SKIP %s\n", ++tap_n, what, why);
}

/* Fork the workload, hold it before exec, open a thread set on it, start
 * it and read the counters once it has exited. Returns the open result;
 * *status the workload's wait status. */
static int count_workload(char *const args[], struct perf_set *s, int *status, char **cause)
{
	int start[2], r;
	pid_t pid;
	char c = 'g';

	if (pipe(start) < 0)
		return -errno;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		close(start[1]);
		if (read(start[0], &c, 1) != 1)
			_exit(126);
		execv(args[0], args);
		_exit(127);
	}
	close(start[0]);
	time_sleep_ns(20 * 1000 * 1000); /* let it block in read() */
	r = perf_open_thread(s, pid, NULL, cause);
	if (write(start[1], &c, 1) != 1)
		r = -EPIPE;
	close(start[1]);
	waitpid(pid, status, 0);
	perf_sample(s);
	return r;
}

static uint64_t val(const struct perf_set *s, int row, enum perf_ev ev)
{
	return perf_at(s, row, (size_t)ev)->value;
}

static int count_mode(int argc, char **argv)
{
	struct perf_set s;
	char *cause = NULL;
	char **args = calloc((size_t)argc + 1, sizeof(char *));
	int st = 0, r;

	for (int i = 0; i < argc; i++)
		args[i] = argv[i];
	r = count_workload(args, &s, &st, &cause);
	free(args);
	if (r < 0) {
		fprintf(stderr, "test_perf_live: %s\n", cause ? cause : "open failed");
		return 1;
	}
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		fprintf(stderr, "test_perf_live: workload failed\n");
		return 1;
	}
	for (int e = PERF_EV_CTX_SWITCHES; e <= PERF_EV_PAGE_FAULTS; e++) {
		if (perf_at(&s, 0, (size_t)e)->err)
			printf("%s n/a\n", perf_ev_name((enum perf_ev)e));
		else
			printf("%s %llu\n", perf_ev_name((enum perf_ev)e),
			       (unsigned long long)val(&s, 0, (enum perf_ev)e));
	}
	perf_close(&s);
	return 0;
}

static bool no_core_pmu(void)
{
	struct perf_pmus pm;
	bool none;

	perf_pmus_read(sysroot_live(), &pm);
	none = pm.ncore == 0;
	perf_pmus_free(&pm);
	return none;
}

/* Hardware events on a machine without a PMU: n/a, the reason once. */
static void check_hw_na(const struct perf_set *s, const char *what)
{
	int nreason = 0;

	for (size_t e = 0; e < s->nev; e++)
		if (s->reason[e][0])
			nreason++;
	for (int e = PERF_EV_CYCLES; e <= PERF_EV_BRANCH_MISSES; e++) {
		const struct perf_counter *c = perf_at(s, 0, (size_t)e);
		char want[PERF_REASON_LEN];

		snprintf(want, sizeof(want), "%s: n/a - no hardware PMU (ENOENT)",
			 perf_ev_name((enum perf_ev)e));
		if (s->ev_err[e] == -EACCES)
			ok(strstr(s->reason[e], "(EACCES)") != NULL, "%s: %s n/a, EACCES", what,
			   perf_ev_name((enum perf_ev)e));
		else
			is_str(s->reason[e], want, "hardware event n/a with its reason");
		ok(c->fd < 0 && isnan(c->rate_per_s) && isnan(c->scaled_value),
		   "%s: %s is n/a (NAN), not 0", what, perf_ev_name((enum perf_ev)e));
	}
	is_int(nreason, 5, "one reason per hardware event, none for software events");
}

static void test_thread(void)
{
	char rounds[16], mb[16];
	char c_opt[] = "-c", c_val[] = "0", m_opt[] = "-m";
	char *args[] = {pingpong, c_opt, c_val, m_opt, mb, rounds, NULL};
	struct perf_set s;
	char *cause = NULL;
	int st = -1, r;
	uint64_t cs, pf, mig;

	snprintf(rounds, sizeof(rounds), "%d", ROUNDS);
	snprintf(mb, sizeof(mb), "%d", TOUCH_MB);
	r = count_workload(args, &s, &st, &cause);
	is_int(r, 0, "perf_open_thread on the pingpong workload");
	ok(WIFEXITED(st) && WEXITSTATUS(st) == 0, "workload ran");
	is_int(s.ncpus, 1, "a thread set has one row");
	ok(s.tid > 0, "tid recorded");
	for (int e = PERF_EV_CTX_SWITCHES; e <= PERF_EV_PAGE_FAULTS; e++)
		ok(perf_at(&s, 0, (size_t)e)->err == 0 && s.reason[e][0] == '\0',
		   "software event %s opened", perf_ev_name((enum perf_ev)e));
	cs = val(&s, 0, PERF_EV_CTX_SWITCHES);
	pf = val(&s, 0, PERF_EV_PAGE_FAULTS);
	mig = val(&s, 0, PERF_EV_MIGRATIONS);
	printf("# pingpong %d rounds pinned: context-switches %llu (expected %d), page-faults %llu "
	       "(>= %d), migrations %llu\n",
	       ROUNDS, (unsigned long long)cs, ROUNDS, (unsigned long long)pf, TOUCH_MB * 256,
	       (unsigned long long)mig);
	ok(cs >= ROUNDS * 95 / 100 && cs <= ROUNDS * 105 / 100,
	   "context switches within 5%% of one per round");
	ok(pf >= TOUCH_MB * 256 && pf < TOUCH_MB * 256 * 2, "page faults cover the touched pages");
	/* The counter starts before the child has pinned itself: the move onto
	 * CPU 0 (and, on a loaded machine, a few wake-up moves before it) count. */
	ok(mig <= 5, "pinned workload: only the migrations before pinning");
	ok(isfinite(perf_at(&s, 0, PERF_EV_CTX_SWITCHES)->rate_per_s) &&
		   perf_at(&s, 0, PERF_EV_CTX_SWITCHES)->rate_per_s > 0,
	   "context switch rate computed");
	ok(!perf_at(&s, 0, PERF_EV_CTX_SWITCHES)->scaled, "software counter not scaled");
	if (no_core_pmu())
		check_hw_na(&s, "thread");
	else
		skip("hardware events n/a without a PMU", "this machine has a core PMU");
	perf_close(&s);
	free(cause);
}

static void test_cpus(void)
{
	struct topology t;
	struct perf_set s;
	struct sbuf b;
	struct jw w;
	char *cause = NULL;
	char rounds[16];
	char *args[] = {pingpong, rounds, NULL};
	int r, st;
	pid_t pid;
	double sum_rate = 0;
	uint64_t sum = 0;

	snprintf(rounds, sizeof(rounds), "%d", ROUNDS);
	if (topology_read(sysroot_live(), &t) < 0) {
		skip("per-CPU counters", "cannot read the live topology");
		return;
	}
	r = perf_open_cpus(&s, sysroot_live(), &t, NULL, &cause);
	if (r == -EACCES || r == -EPERM) {
		ok(cause && strstr(cause, "EACCES"), "not permitted: %s", cause ? cause : "");
		skip("per-CPU values", "per-CPU counting needs root or perf_event_paranoid < 1");
		perf_close(&s);
		topology_free(&t);
		free(cause);
		return;
	}
	is_int(r, 0, "perf_open_cpus on the live machine");
	is_int(s.ncpus, t.ncpus, "one row per CPU");
	pid = fork();
	if (pid == 0) {
		execv(pingpong, args);
		_exit(127);
	}
	waitpid(pid, &st, 0);
	r = perf_sample(&s);
	is_int(r, 0, "perf_sample");
	for (int cpu = 0; cpu < s.ncpus; cpu++) {
		const struct perf_counter *c = perf_at(&s, cpu, PERF_EV_CTX_SWITCHES);

		if (c->err)
			continue;
		sum += c->value;
		if (isfinite(c->rate_per_s))
			sum_rate += c->rate_per_s;
	}
	printf("# per-CPU context switches during pingpong %d: %llu (%.0f/s over %.3f s)\n", ROUNDS,
	       (unsigned long long)sum, sum_rate, s.dt_s);
	ok(sum >= 2 * ROUNDS * 95 / 100, "per-CPU context switches include the workload's");
	ok(sum_rate > 0, "per-CPU rates computed");
	if (no_core_pmu()) {
		check_hw_na(&s, "per-CPU");
		ok(isnan(s.ipc[0]) && isnan(s.miss_rate_pct[0]), "IPC and miss rate n/a");
	}
	sbuf_init(&b);
	jw_init(&w, &b, false);
	jw_obj_begin(&w, NULL);
	out_perf_json(&w, &s);
	jw_obj_end(&w);
	ok(strstr(b.s, "\"counters\":{\"events\":[\"cycles\",\"instructions\"") != NULL,
	   "JSON counters.events");
	ok(strstr(b.s, "\"per_cpu\":[{\"cpu\":0,\"values\":{") != NULL, "JSON per_cpu rows");
	if (no_core_pmu())
		ok(strstr(b.s, "\"errors\":{\"cycles\":\"ENOENT: no hardware PMU\"") != NULL,
		   "JSON errors: ENOENT: no hardware PMU");
	ok(strstr(b.s, "\"context-switches\":null") == NULL || s.ncpus > 1,
	   "JSON software values are numbers");
	printf("# %.*s\n", 300, b.s);
	sbuf_reset(&b);
	out_perf_text(&b, &s);
	ok(strstr(b.s, "context switches") != NULL, "text table");
	if (no_core_pmu())
		ok(strstr(b.s, "  cycles: n/a - no hardware PMU (ENOENT)\n") != NULL,
		   "text: the reason once");
	sbuf_free(&b);
	perf_close(&s);
	topology_free(&t);
	free(cause);
}

/* Leave CPUs alone: only the CPUs asked for are opened. */
static void test_cpus_on(void)
{
	struct topology t;
	struct perf_set s;
	struct cpumask only;
	int r, last;

	memset(&t, 0, sizeof(t));
	if (topology_read(sysroot_live(), &t) < 0 || cpumask_count(&t.online) < 2) {
		skip("perf_open_cpus_on", "needs two online CPUs");
		if (t.cpu)
			topology_free(&t);
		return;
	}
	last = cpumask_last(&t.online);
	cpumask_zero(&only);
	cpumask_set(&only, cpumask_next(&t.online, 0));
	r = perf_open_cpus_on(&s, sysroot_live(), &t, &only, NULL, NULL);
	if (r == -EACCES) {
		skip("perf_open_cpus_on", "per-CPU counting not permitted");
	} else {
		char want[64];

		is_int(r, 0, "perf_open_cpus_on one CPU");
		is_int(perf_at(&s, last, PERF_EV_CTX_SWITCHES)->err, -ECANCELED,
		       "an excluded CPU is not opened");
		ok(perf_at(&s, cpumask_next(&t.online, 0), PERF_EV_CTX_SWITCHES)->fd >= 0,
		   "the chosen CPU is");
		snprintf(want, sizeof(want), "CPUs %d not counted (excluded", last);
		ok(strstr(s.note, want) != NULL, "note: %s", s.note);
		is_str(s.reason[PERF_EV_CTX_SWITCHES], "", "no per-event reason for an exclusion");
		perf_sample(&s);
		ok(isnan(perf_at(&s, last, PERF_EV_CTX_SWITCHES)->rate_per_s), "excluded CPU: n/a");
	}
	perf_close(&s);
	topology_free(&t);
}

static void test_gone(void)
{
	struct perf_set s;
	char *cause = NULL;
	pid_t pid = fork();
	int r;

	if (pid == 0)
		_exit(0);
	waitpid(pid, NULL, 0);
	r = perf_open_thread(&s, pid, NULL, &cause);
	is_int(r, -ESRCH, "a thread that is gone: ESRCH");
	ok(strstr(s.reason[PERF_EV_CTX_SWITCHES], "thread exited (ESRCH)") != NULL,
	   "reason: thread exited");
	ok(cause != NULL, "cause set");
	perf_close(&s);
	free(cause);
}

static void test_user_events(void)
{
	const char *const ev[] = {"cs", "task-clock", "r0", "no-such-event-xyz", NULL};
	struct perf_set s;
	volatile double x = 0;

	perf_open_thread(&s, getpid(), ev, NULL);
	is_int(s.nev, 4, "four user events");
	is_str(s.ev_label[0], "context switches", "alias gets the generic label");
	ok(perf_at(&s, 0, 0)->err == 0, "cs opened on this thread");
	ok(perf_at(&s, 0, 1)->err == 0, "task-clock opened");
	ok(s.ev_err[3] != 0 && strstr(s.reason[3], "no-such-event-xyz: n/a") == s.reason[3],
	   "unknown event: n/a with its reason");
	for (int i = 0; i < 1000000; i++)
		x += i;
	(void)x;
	perf_sample(&s);
	ok(perf_at(&s, 0, 1)->value > 0, "task-clock counted");
	is_int(perf_set_find(&s, "task-clock"), 1, "perf_set_find");
	is_int(perf_set_find(&s, "nope"), -1, "perf_set_find miss");
	perf_close(&s);
}

/* A thread that sleeps through the interval did not switch, migrate or
 * fault: its software rates are 0, not n/a. One that runs still counts. */
static void test_idle_thread(void)
{
	struct perf_set s, b;
	char *cause = NULL, *bcause = NULL;
	pid_t idle, busy;
	int r;

	idle = fork();
	if (idle == 0) {
		sleep(30);
		_exit(0);
	}
	busy = fork();
	if (busy == 0) {
		for (int i = 0; i < 3000; i++) {
			volatile unsigned x = 0;

			for (unsigned k = 0; k < 100000; k++)
				x += k;
			(void)x;
			usleep(500);
		}
		_exit(0);
	}
	usleep(200000); /* both settled: the idle one asleep */
	r = perf_open_thread(&s, idle, NULL, &cause);
	is_int(r, 0, "perf_open_thread on a sleeping child");
	perf_open_thread(&b, busy, NULL, &bcause);
	for (int i = 0; i < 2; i++) {
		usleep(300000);
		perf_sample(&s);
		perf_sample(&b);
	}
	for (int e = PERF_EV_CTX_SWITCHES; e <= PERF_EV_PAGE_FAULTS; e++) {
		const struct perf_counter *c = perf_at(&s, 0, (size_t)e);

		ok(c->err == 0 && isfinite(c->rate_per_s) && c->rate_per_s == 0.0,
		   "sleeping thread: %s rate 0, not n/a (%g)", perf_ev_name((enum perf_ev)e),
		   c->rate_per_s);
		ok(!perf_ev_unscheduled(&s, (size_t)e), "sleeping thread: %s no multiplexing claim",
		   perf_ev_name((enum perf_ev)e));
	}
	ok(isfinite(perf_at(&b, 0, PERF_EV_CTX_SWITCHES)->rate_per_s) &&
		   perf_at(&b, 0, PERF_EV_CTX_SWITCHES)->rate_per_s > 0,
	   "running thread: context switches counted (%g/s)",
	   perf_at(&b, 0, PERF_EV_CTX_SWITCHES)->rate_per_s);
	{
		struct sbuf jb;
		struct jw w;

		sbuf_init(&jb);
		jw_init(&w, &jb, false);
		jw_obj_begin(&w, NULL);
		out_perf_json(&w, &s);
		jw_obj_end(&w);
		ok(strstr(jb.s, "\"context-switches\": 0") != NULL ||
			   strstr(jb.s, "\"context-switches\":0") != NULL,
		   "JSON: context-switches 0, not null");
		sbuf_free(&jb);
	}
	kill(idle, SIGKILL);
	kill(busy, SIGKILL);
	waitpid(idle, NULL, 0);
	waitpid(busy, NULL, 0);
	perf_close(&s);
	perf_close(&b);
	free(cause);
	free(bcause);
}

/* As root: drop to nobody in a child and report what opens. */
static void test_unprivileged(void)
{
	int p[2], st;
	char buf[256] = "";
	pid_t pid;
	int paranoid = perf_paranoid(sysroot_live());

	if (geteuid() != 0) {
		skip("unprivileged child", "not root (this run is the unprivileged case)");
		return;
	}
	if (pipe(p) < 0)
		return;
	pid = fork();
	if (pid == 0) {
		struct topology t;
		struct perf_set s, th;
		char out[256];
		int rc = -1;

		close(p[0]);
		if (setgid(65534) < 0 || setuid(65534) < 0)
			_exit(1);
		if (topology_read(sysroot_live(), &t) == 0) {
			rc = perf_open_cpus(&s, sysroot_live(), &t, NULL, NULL);
			perf_close(&s);
			topology_free(&t);
		}
		perf_open_thread(&th, getpid(), NULL, NULL);
		snprintf(out, sizeof(out), "cpus=%d cs=%d pf=%d pfuser=%d csreason=%s", rc,
			 th.ev_err[PERF_EV_CTX_SWITCHES], th.ev_err[PERF_EV_PAGE_FAULTS],
			 th.ev_user_only[PERF_EV_PAGE_FAULTS], th.reason[PERF_EV_CTX_SWITCHES]);
		perf_close(&th);
		if (write(p[1], out, strlen(out)) < 0)
			_exit(1);
		_exit(0);
	}
	close(p[1]);
	if (read(p[0], buf, sizeof(buf) - 1) < 0)
		buf[0] = '\0';
	close(p[0]);
	waitpid(pid, &st, 0);
	printf("# unprivileged (paranoid %d): %s\n", paranoid, buf);
	if (paranoid >= 1) {
		char want[32];

		snprintf(want, sizeof(want), "cpus=%d ", -EACCES);
		ok(str_starts(buf, want), "unprivileged per-CPU counting: EACCES");
	}
	if (paranoid == 2) {
		char want[64];

		snprintf(want, sizeof(want), "cs=%d pf=0 pfuser=1", -EACCES);
		ok(strstr(buf, want) != NULL,
		   "paranoid 2: context switches n/a (kernel-only), page faults user-only");
		ok(strstr(buf, "counted in the kernel only") != NULL, "and the reason says why");
	} else {
		skip("paranoid 2 thread case", "perf_event_paranoid is not 2");
	}
}

/* Few fds left: the last events are dropped with a note (unprivileged, so
 * the hard limit cannot be raised). */
static void test_fd_limit(void)
{
	int p[2], st;
	char buf[512] = "";
	pid_t pid;

	if (pipe(p) < 0)
		return;
	pid = fork();
	if (pid == 0) {
		const char *const ev[] = {
			"page-faults", "minor-faults",	   "major-faults",     "task-clock",
			"cpu-clock",   "alignment-faults", "emulation-faults", NULL};
		struct perf_set s;
		struct rlimit rl;
		struct sysfs_list l;
		char out[512];

		close(p[0]);
		if (geteuid() == 0 && (setgid(65534) < 0 || setuid(65534) < 0))
			_exit(1);
		sysfs_list(sysroot_live(), "proc/self/fd", &l);
		rl.rlim_cur = rl.rlim_max = l.n + 64 + 3;
		sysfs_list_free(&l);
		if (setrlimit(RLIMIT_NOFILE, &rl) < 0)
			_exit(1);
		perf_open_thread(&s, getpid(), ev, NULL);
		snprintf(out, sizeof(out), "fds=%d last=%d note=%s|%s", s.nfds, s.ev_err[6], s.note,
			 s.reason[6]);
		perf_close(&s);
		if (write(p[1], out, strlen(out)) < 0)
			_exit(1);
		_exit(0);
	}
	close(p[1]);
	if (read(p[0], buf, sizeof(buf) - 1) < 0)
		buf[0] = '\0';
	close(p[0]);
	waitpid(pid, &st, 0);
	printf("# fd limit: %s\n", buf);
	ok(strstr(buf, "fds=3 ") != NULL, "only as many counters as the fd limit allows");
	ok(strstr(buf, "note=file descriptor limit") != NULL, "a note says so once");
	ok(strstr(buf, "out of file descriptors (raise ulimit -n) (EMFILE)") != NULL,
	   "dropped events: n/a, EMFILE");
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Median cost of perf_sample over n samples, ns. */
static uint64_t bench_set(struct perf_set *s, int n)
{
	uint64_t *t = calloc((size_t)n, sizeof(uint64_t)), med;

	for (int i = 0; i < n; i++) {
		uint64_t t0;

		time_sleep_ns(1000 * 1000);
		t0 = time_mono_ns();
		perf_sample(s);
		t[i] = time_mono_ns() - t0;
	}
	qsort(t, (size_t)n, sizeof(uint64_t), cmp_u64);
	med = t[n / 2];
	free(t);
	return med;
}

/* --bench N: counter read cost per sample and per CPU (printed only). */
static int bench_mode(int n)
{
	const char *const sw[] = {"context-switches", "cpu-migrations", "page-faults", NULL};
	struct topology t;
	struct perf_set s;
	int online;

	if (n < 3)
		n = 3;
	if (topology_read(sysroot_live(), &t) < 0) {
		printf("bench perf: cannot read the topology\n");
		return 0;
	}
	online = cpumask_count(&t.online);
	for (int k = 0; k < 2; k++) {
		const char *const *ev = k == 0 ? NULL : sw;
		uint64_t med;

		if (perf_open_cpus(&s, sysroot_live(), &t, ev, NULL) < 0) {
			printf("per-CPU %s set: not permitted here (%s)\n",
			       k ? "software" : "generic", s.nev ? s.reason[0] : "");
			perf_close(&s);
			continue;
		}
		med = bench_set(&s, n);
		printf("per-CPU %-8s set: %zu events x %d CPUs, %d counters open: perf_sample "
		       "median %.2f us = %.2f us per CPU per sample (%d samples)\n",
		       k ? "software" : "generic", s.nev, online, s.nfds, med / 1e3,
		       med / 1e3 / (online ? online : 1), n);
		perf_close(&s);
	}
	if (perf_open_thread(&s, getpid(), NULL, NULL) == 0) {
		uint64_t med = bench_set(&s, n);

		printf("thread   generic  set: %zu events, %d counters open: perf_sample median "
		       "%.2f "
		       "us\n",
		       s.nev, s.nfds, med / 1e3);
	}
	perf_close(&s);
	topology_free(&t);
	return 0;
}

int main(int argc, char **argv)
{
	const char *bd = getenv("TT_BUILDDIR");

	if (argc > 2 && !strcmp(argv[1], "--count"))
		return count_mode(argc - 2, argv + 2);
	if (argc > 2 && !strcmp(argv[1], "--bench"))
		return bench_mode(atoi(argv[2]));
	snprintf(pingpong, sizeof(pingpong), "%s/tests/live/pingpong", bd ? bd : ".");
	if (access(pingpong, X_OK) < 0)
		skip_all("tests/live/pingpong not built");
	if (perf_paranoid(sysroot_live()) == INT32_MIN)
		skip_all("kernel without perf events (no /proc/sys/kernel/perf_event_paranoid)");
	printf("# perf_event_paranoid %d, euid %d\n", perf_paranoid(sysroot_live()),
	       (int)geteuid());
	test_thread();
	test_cpus();
	test_cpus_on();
	test_gone();
	test_idle_thread();
	test_user_events();
	test_unprivileged();
	test_fd_limit();
	return done_testing();
}
