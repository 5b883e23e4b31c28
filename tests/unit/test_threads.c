/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for src/source/threads.c, schedattr.c and the thread JSON
 * writer: stat parsing (comm with spaces and ')'), status and sched
 * parsing, derive with hand-made tables (reused tids, vanished threads), and
 * a live read of this test's own threads. */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/json.h"
#include "out/threads_out.h"
#include "source/schedattr.h"
#include "source/threads.h"
#include "sysfs/sysroot.h"
#include "tap.h"

static void make_stat(char *buf, size_t cap, int tid, const char *comm, char state, int ppid,
		      unsigned flags, unsigned long ut, unsigned long st, int nice,
		      unsigned long long start, int cpu, int rtprio, int policy)
{
	snprintf(buf, cap,
		 "%d (%s) %c %d %d %d 0 -1 %u 448 425681 0 200 %lu %lu 0 0 %d %d 13 0 %llu "
		 "46731264 3561 18446744073709551615 1 1 0 0 0 0 0 4096 1256 0 0 0 17 %d %d %d 0 0 "
		 "0 "
		 "0 0 0 0 0 0 0 0\n",
		 tid, comm, state, ppid, tid, tid, flags, ut, st, rtprio ? -1 - rtprio : 20 + nice,
		 nice, start, cpu, rtprio, policy);
}

static void test_parse_stat(void)
{
	char buf[1024];
	struct thread_info t;

	memset(&t, 0, sizeof(t));
	is_int(threads_parse_stat("1 (process_api) S 0 0 0 0 -1 4194560 448 425681 0 200 0 16 1305 "
				  "1073 10 -10 13 0 19 46731264 3561 18446744073709551615 1 1 0 0 "
				  "0 0 0 4096 1256 0 0 0 17 1 0 0 0 0 0 0 0 0 0 0 0 0 0\n",
				  &t),
	       0, "real stat line");
	is_int(t.tid, 1, "tid");
	is_str(t.comm, "process_api", "comm");
	ok(t.state == 'S', "state");
	is_int(t.utime, 0, "utime (field 14)");
	is_int(t.stime, 16, "stime (field 15)");
	is_int(t.nice, -10, "nice (field 19)");
	is_int(t.start_time, 19, "start time (field 22)");
	is_int(t.num_threads, 13, "num_threads (field 20)");
	is_int(t.last_cpu, 1, "processor (field 39)");
	is_int(t.policy, SCHED_OTHER, "policy (field 41)");
	ok(!t.kernel, "pid 1 is not a kernel thread");

	make_stat(buf, sizeof(buf), 4321, "evil) R 1 (x", 'R', 77, 0, 5, 6, 0, 999, 3, 10,
		  SCHED_FIFO);
	memset(&t, 0, sizeof(t));
	is_int(threads_parse_stat(buf, &t), 0, "comm with ') R 1 (' parses from the last ')'");
	is_str(t.comm, "evil) R 1 (x", "comm kept whole");
	ok(t.state == 'R' && t.ppid == 77, "state and ppid after the real ')'");
	is_int(t.rt_prio, 10, "rt_priority (field 40)");
	is_int(t.policy, SCHED_FIFO, "policy FIFO");
	is_int(t.start_time, 999, "start time");
	is_int(t.last_cpu, 3, "last cpu");

	make_stat(buf, sizeof(buf), 55, "my thread name with spaces and more", 'S', 10, 0, 1, 2, 5,
		  1, 0, 0, SCHED_BATCH);
	memset(&t, 0, sizeof(t));
	is_int(threads_parse_stat(buf, &t), 0, "comm with spaces");
	is_str(t.comm, "my thread name with spaces and ", "comm truncated to 31 chars at most");
	is_int(t.nice, 5, "nice 5");
	is_int(t.policy, SCHED_BATCH, "BATCH");

	make_stat(buf, sizeof(buf), 17, "kworker/0:1-events", 'I', 2, 0x04208060, 0, 3, 0, 5, 0, 0,
		  SCHED_OTHER);
	memset(&t, 0, sizeof(t));
	threads_parse_stat(buf, &t);
	ok(t.kernel, "PF_KTHREAD flag -> kernel");
	is_str(t.comm, "kworker/0:1-events", "kworker name");
	make_stat(buf, sizeof(buf), 18, "odd", 'S', 2, 0, 0, 0, 0, 5, 0, 0, SCHED_OTHER);
	memset(&t, 0, sizeof(t));
	threads_parse_stat(buf, &t);
	ok(!t.kernel,
	   "child of kthreadd with a memory map (user-mode helper) is not a kernel thread");
	make_stat(buf, sizeof(buf), 18, "odd", 'S', 2, 0, 0, 0, 0, 5, 0, 0, SCHED_OTHER);
	memcpy(strstr(buf, " 46731264 ") + 1, "00000000", 8);
	memset(&t, 0, sizeof(t));
	threads_parse_stat(buf, &t);
	ok(t.kernel, "child of kthreadd without memory (vsize 0) -> kernel");
	make_stat(buf, sizeof(buf), 2, "kthreadd", 'S', 0, 0x208040, 0, 0, 0, 5, 0, 0, SCHED_OTHER);
	memset(&t, 0, sizeof(t));
	threads_parse_stat(buf, &t);
	ok(t.kernel, "kthreadd itself");

	memset(&t, 0, sizeof(t));
	is_int(threads_parse_stat("12 (x S 1 2 3", &t), -EINVAL, "no ')' rejected");
	is_int(threads_parse_stat("12 (x) S 1 2 3", &t), -EINVAL, "too few fields rejected");
	is_int(threads_parse_stat("abc (x) S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20",
				  &t),
	       -EINVAL, "bad tid rejected");
	is_int(threads_parse_stat("12 (x) S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20\n",
				  &t),
	       0, "old kernel with 22 fields");
	ok(t.last_cpu == -1 && t.policy == -1, "missing fields 39-41 are n/a");
}

static void test_parse_status(void)
{
	static const char st[] = "Name:\tprocess_api\nUmask:\t0022\nState:\tS (sleeping)\n"
				 "Tgid:\t100\nNgid:\t0\nPid:\t101\nPPid:\t1\nTracerPid:\t0\n"
				 "Kthread:\t0\nVmPeak:\t   50100 kB\nVmLck:\t   45604 kB\n"
				 "Threads:\t13\nCpus_allowed:\t3\nCpus_allowed_list:\t0-1,4\n"
				 "Mems_allowed_list:\t0\nvoluntary_ctxt_switches:\t354\n"
				 "nonvoluntary_ctxt_switches:\t66\n";
	static const char sched[] =
		"process_api (1, #threads: 13)\n"
		"-------------------------------------------------------------------\n"
		"se.exec_start                                :        598621.168075\n"
		"se.vruntime                                  :           180.000000\n"
		"se.nr_migrations                             :                   42\n"
		"nr_switches                                  :                  420\n"
		"nr_voluntary_switches                        :                  400\n"
		"nr_involuntary_switches                      :                   20\n";
	struct thread_info t;
	char buf[16];

	memset(&t, 0, sizeof(t));
	is_int(threads_parse_status(st, &t), 0, "status parses");
	is_int(t.pid, 100, "Tgid -> pid");
	is_int(t.tid, 101, "Pid -> tid (not PPid, not TracerPid)");
	is_int(t.vmlck_kb, 45604, "VmLck");
	is_int(t.vol_ctxt, 354, "voluntary_ctxt_switches");
	is_int(t.nonvol_ctxt, 66, "nonvoluntary_ctxt_switches");
	ok(!t.kernel, "Kthread: 0");
	ok(t.have_affinity, "Cpus_allowed_list as fallback affinity");
	cpulist_format(&t.affinity, buf, sizeof(buf));
	is_str(buf, "0-1,4", "affinity from status");
	memset(&t, 0, sizeof(t));
	threads_parse_status("Pid:\t5\nKthread:\t1\nvoluntary_ctxt_switches:\t1\n", &t);
	ok(t.kernel && t.vmlck_kb == 0, "Kthread: 1 (no VmLck line)");
	is_int(threads_parse_status("Name:\tx\n", &t), -EINVAL, "status without Pid/ctxt: -EINVAL");
	memset(&t, 0, sizeof(t));
	is_int(threads_parse_sched(sched, &t), 0, "sched parses");
	ok(t.have_migrations && t.nr_migrations == 42, "se.nr_migrations");
	ok(t.vol_ctxt == 400 && t.nonvol_ctxt == 20, "context switches from the sched file");
	memset(&t, 0, sizeof(t));
	is_int(threads_parse_sched("x (1, #threads: 1)\nse.exec_start : 1.0\n", &t), -EINVAL,
	       "no nr_migrations line");
	ok(!t.have_migrations, "have_migrations stays false");
}

static struct thread_info mk(pid_t pid, pid_t tid, uint64_t start, uint64_t ticks, uint64_t vol,
			     uint64_t invol, uint64_t migr)
{
	struct thread_info t;

	memset(&t, 0, sizeof(t));
	t.pid = pid;
	t.tid = tid;
	t.start_time = start;
	t.utime = ticks / 2;
	t.stime = ticks - ticks / 2;
	t.vol_ctxt = vol;
	t.nonvol_ctxt = invol;
	t.nr_migrations = migr;
	t.have_migrations = migr != (uint64_t)-1;
	t.policy = SCHED_OTHER;
	t.uclamp_min = t.uclamp_max = -1;
	t.last_cpu = -1;
	t.cpu_pct = t.migrations_per_s = t.vol_per_s = t.invol_per_s = NAN;
	snprintf(t.comm, sizeof(t.comm), "t%d", (int)tid);
	return t;
}

static void test_derive(void)
{
	struct thread_info pa[] = {
		mk(10, 10, 100, 1000, 10, 1, 5), mk(10, 11, 100, 500, 20, 2, 5),
		mk(10, 12, 150, 0, 0, 0, -1),  /* exits before the next sample */
		mk(20, 20, 300, 100, 0, 0, 0), /* tid 20 will be reused */
	};
	struct thread_info ca[] = {
		mk(10, 10, 100, 1100, 30, 1, 7), mk(10, 11, 100, 500, 20, 4, 5),
		mk(30, 20, 900, 150, 0, 0, 0), /* same tid, new start time, new process */
		mk(30, 31, 900, 10, 0, 0, 0),  /* new thread */
	};
	struct thread_table prev = {.n = 4, .t = pa}, cur = {.n = 4, .t = ca};

	threads_derive(&cur, NULL, 1.0, 100);
	ok(isnan(ca[0].cpu_pct) && isnan(ca[0].vol_per_s), "no previous sample: NAN");
	threads_derive(&cur, &prev, 2.0, 100);
	is_dbl(ca[0].cpu_pct, 50.0, 1e-9, "100 ticks of 100 Hz in 2 s = 50 %");
	is_dbl(ca[0].vol_per_s, 10.0, 1e-9, "voluntary switches/s");
	is_dbl(ca[0].invol_per_s, 0.0, 1e-9, "involuntary switches/s");
	is_dbl(ca[0].migrations_per_s, 1.0, 1e-9, "migrations/s");
	is_dbl(ca[1].cpu_pct, 0.0, 1e-9, "idle thread 0 %");
	is_dbl(ca[1].invol_per_s, 1.0, 1e-9, "involuntary 2 in 2 s");
	ok(isnan(ca[2].cpu_pct) && isnan(ca[2].vol_per_s) && isnan(ca[2].migrations_per_s),
	   "reused tid (other start time) gets no rate from the old thread");
	ok(isnan(ca[3].cpu_pct), "new thread NAN");
	ok(threads_find(&cur, 12) == NULL, "exited thread is not in the new table");
	ok(threads_find(&cur, 31) == &ca[3], "threads_find");

	/* migrations n/a on one side */
	pa[1].have_migrations = false;
	threads_derive(&cur, &prev, 2.0, 100);
	ok(isnan(ca[1].migrations_per_s) && !isnan(ca[1].cpu_pct),
	   "migrations n/a without sched file");
	/* same tid and start time but another pid is not the same thread */
	ca[0].pid = 99;
	threads_derive(&cur, &prev, 2.0, 100);
	ok(isnan(ca[0].cpu_pct), "same tid+start in another process: not matched");
	threads_derive(&cur, &prev, 0.0, 100);
	ok(isnan(ca[1].cpu_pct), "dt 0: NAN");
}

static void test_json(void)
{
	struct thread_info ta[] = {
		mk(10, 10, 100, 1000, 10, 1, 5),
		mk(10, 11, 100, 500, 20, 2, -1),
		mk(10, 12, 100, 500, 20, 2, -1),
	};
	struct thread_table tab = {.n = 3, .t = ta};
	struct sbuf b;
	struct jw w;

	cpulist_parse("0-3", &tab.online);
	tab.have_online = true;
	ta[0].policy = SCHED_FIFO;
	ta[0].rt_prio = 50;
	ta[0].state = 'R';
	ta[0].uclamp_min = 512;
	ta[0].uclamp_max = 1024;
	cpulist_parse("0-3", &ta[0].affinity);
	ta[0].have_affinity = true;
	cpulist_parse("2", &ta[1].affinity);
	ta[1].have_affinity = true;
	ta[1].last_cpu = 2;
	cpulist_parse("0-3", &ta[2].affinity);
	ta[2].have_affinity = true;
	ta[0].cpu_pct = 12.34;
	ok(threads_is_rt(&ta[0]) && !threads_is_rt(&ta[1]), "is_rt");
	ok(threads_is_pinned(&tab, &ta[1]) && !threads_is_pinned(&tab, &ta[0]), "is_pinned");
	{
		/* isolcpus=3: the default affinity 0-2 is not "pinned"; 0-1 is;
		 * 0-3 (wider than the default) is not. */
		struct thread_table iso = tab;
		struct thread_info t = ta[0];

		cpulist_parse("3", &iso.isolated);
		iso.have_isolated = true;
		cpulist_parse("0-2", &t.affinity);
		ok(!threads_is_pinned(&iso, &t),
		   "isolcpus=3: affinity 0-2 is the default, not pinned");
		ok(threads_is_pinned(&tab, &t), "without isolcpus: 0-2 of 0-3 is pinned");
		cpulist_parse("0-1", &t.affinity);
		ok(threads_is_pinned(&iso, &t), "isolcpus=3: affinity 0-1 is pinned");
		cpulist_parse("3", &t.affinity);
		ok(threads_is_pinned(&iso, &t),
		   "isolcpus=3: affinity 3 (the isolated CPU) is pinned");
		cpulist_parse("0-3", &t.affinity);
		ok(!threads_is_pinned(&iso, &t), "isolcpus=3: affinity 0-3 is not pinned");
	}
	sbuf_init(&b);
	jw_init(&w, &b, false);
	jw_obj_begin(&w, NULL);
	out_threads_json(&w, &tab, false);
	jw_obj_end(&w);
	ok(strstr(b.s, "{\"threads\":[{\"pid\":10,\"tid\":10,\"comm\":\"t10\",\"state\":\"R\","
		       "\"kernel\":false,\"policy\":\"fifo\",\"rt_prio\":50,\"nice\":0,"
		       "\"uclamp_min\":512,\"uclamp_max\":1024,\"affinity\":\"0-3\","
		       "\"last_cpu\":null,\"rt\":true,\"pinned\":false") != NULL,
	   "json: first thread");
	ok(strstr(b.s, "\"nr_migrations\":5,\"vmlck_kb\":0,\"cpu_pct\":12.3,\"migrations_per_s\":"
		       "null") != NULL,
	   "json: counters and n/a rates");
	ok(strstr(b.s, "\"uclamp_min\":null") && strstr(b.s, "\"nr_migrations\":null") &&
		   strstr(b.s, "\"state\":null"),
	   "json: n/a values are null");
	sbuf_reset(&b);
	jw_init(&w, &b, false);
	jw_obj_begin(&w, NULL);
	out_threads_json(&w, &tab, true);
	jw_obj_end(&w);
	ok(strstr(b.s, "\"tid\":10,") && strstr(b.s, "\"tid\":11,") && !strstr(b.s, "\"tid\":12,"),
	   "json: only RT or pinned threads");
	sbuf_reset(&b);
	out_threads_text(&b, &tab, false);
	ok(strstr(b.s, "FIFO") && strstr(b.s, "512-1024") && strstr(b.s, "n/a"), "text output");
	sbuf_free(&b);
}

/* ---- live: this process's own threads ---- */

static pthread_barrier_t bar;
static pid_t worker_tid[2];

static void *worker(void *arg)
{
	int i = (int)(long)arg;
	char name[16];

	snprintf(name, sizeof(name), "tt-unit-%d", i);
	pthread_setname_np(pthread_self(), name);
	worker_tid[i] = (pid_t)syscall(SYS_gettid);
	pthread_barrier_wait(&bar); /* named */
	pthread_barrier_wait(&bar); /* main has read */
	return NULL;
}

static void test_live(void)
{
	struct thread_table tab, all;
	pthread_t th[2];
	pid_t me = getpid();
	struct thread_info *t;
	cpu_set_t set;
	uint64_t st;
	struct tt_sched_attr a;
	int mn, mx;

	pthread_barrier_init(&bar, NULL, 3);
	for (long i = 0; i < 2; i++)
		pthread_create(&th[i], NULL, worker, (void *)i);
	pthread_barrier_wait(&bar);
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	sched_setaffinity(worker_tid[1], sizeof(set), &set);

	is_int(threads_read_pid(sysroot_live(), me, THREADS_SCHED_FILE, &tab), 0,
	       "live: read own process");
	is_int(tab.n, 3, "live: three threads");
	t = threads_find(&tab, worker_tid[0]);
	ok(t && !strcmp(t->comm, "tt-unit-0") && t->pid == me, "live: named thread 0 by tid");
	t = threads_find(&tab, worker_tid[1]);
	ok(t && t->have_affinity && cpumask_count(&t->affinity) == 1 &&
		   cpumask_test(&t->affinity, 0),
	   "live: affinity of thread 1 is CPU 0");
	ok(t && t->policy == SCHED_OTHER && t->rt_prio == 0, "live: policy OTHER");
	ok(t && t->have_migrations, "live: se.nr_migrations read");
	t = threads_find(&tab, me);
	ok(t && t->state == 'R', "live: main thread running");
	ok(t && t->have_affinity && t->last_cpu >= 0, "live: main thread affinity and cpu");
	is_int(thread_start_time(worker_tid[0], &st), 0, "thread_start_time of a non-leader tid");
	t = threads_find(&tab, worker_tid[0]);
	ok(t && st == t->start_time, "thread_start_time matches the table");
	is_int(thread_start_time(0x3ffffff0, &st), -ESRCH, "thread_start_time of a missing tid");
	is_int(threads_read_pid(sysroot_live(), 0x3ffffff0, 0, &all), -ESRCH,
	       "missing pid: -ESRCH");
	threads_free(&all);

	is_int(threads_read(sysroot_live(), 0, &all), 0, "live: read all (user threads)");
	ok(threads_find(&all, worker_tid[1]) != NULL, "live: our thread in the full list");
	ok(threads_find(&all, 2) == NULL, "live: no kthreadd without THREADS_KERNEL");
	ok(all.have_online && cpumask_count(&all.online) == sysconf(_SC_NPROCESSORS_ONLN),
	   "live: online CPUs");
	threads_free(&all);
	is_int(threads_read(sysroot_live(), THREADS_KERNEL, &all), 0, "live: read all with kernel");
	t = threads_find(&all, 2);
	if (t)
		ok(t->kernel && !strcmp(t->comm, "kthreadd"), "live: kthreadd is a kernel thread");
	else
		printf("ok %d - live: kthreadd # SKIP not visible (pid namespace)\n", ++tap_n);
	threads_free(&all);

	pthread_barrier_wait(&bar);
	for (int i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	pthread_barrier_destroy(&bar);

	/* the threads exited: a new read drops them, derive does not crash */
	{
		struct thread_table after;

		is_int(threads_read_pid(sysroot_live(), me, 0, &after), 0, "live: read after exit");
		is_int(after.n, 1, "live: exited threads dropped");
		threads_derive(&after, &tab, 0.1, sysconf(_SC_CLK_TCK));
		ok(!isnan(after.t[0].cpu_pct), "live: main thread has a rate");
		threads_free(&after);
	}
	threads_free(&tab);

	is_int(schedattr_get(0, &a), 0, "sched_getattr on ourselves");
	ok(a.sched_policy == SCHED_OTHER && a.size >= TT_SCHED_ATTR_SIZE_VER0,
	   "sched_getattr policy");
	if (schedattr_have_uclamp()) {
		is_int(schedattr_get_uclamp(0, &mn, &mx), 0, "uclamp readable");
		ok(mn >= 0 && mx <= 1024 && mn <= mx, "uclamp range %d..%d", mn, mx);
	} else {
		is_int(schedattr_get_uclamp(0, &mn, &mx), -EOPNOTSUPP,
		       "no uclamp: get -EOPNOTSUPP");
		is_int(schedattr_set_uclamp(0, 0, 1024), -EOPNOTSUPP, "no uclamp: set -EOPNOTSUPP");
	}
	is_int(schedattr_set_uclamp(0, -1, -1), -EINVAL, "uclamp: nothing to set");
	is_int(schedattr_set_uclamp(0, 2000, -1), -EINVAL, "uclamp: > 1024");
}

/* Issue 18: which threads a read takes the slow fields of. */
static void test_rotation(void)
{
	struct threads_incr st;
	int due_once = 0, per_gen_max = 0, per_gen_min = 1 << 30;

	memset(&st, 0, sizeof(st));
	st.rotate = 16;
	for (pid_t tid = 1000; tid < 3000; tid++) {
		int n = 0;

		for (unsigned long g = 0; g < 16; g++) {
			st.gen = 100 + g;
			n += threads_incr_slow_due(&st, 1, tid);
		}
		due_once += n == 1;
	}
	is_int(due_once, 2000, "rotation: every thread due exactly once in 16 reads");
	for (unsigned long g = 0; g < 16; g++) {
		int n = 0;

		st.gen = g;
		for (pid_t tid = 1000; tid < 3000; tid++)
			n += threads_incr_slow_due(&st, 1, tid);
		per_gen_max = n > per_gen_max ? n : per_gen_max;
		per_gen_min = n < per_gen_min ? n : per_gen_min;
	}
	ok(per_gen_min == 125 && per_gen_max == 125,
	   "rotation: 1/16 of 2,000 threads a read (%d..%d)", per_gen_min, per_gen_max);
	st.gen = 1; /* tid 1000 is due at gen % 16 == 8 */
	ok(!threads_incr_slow_due(&st, 1, 1000), "not due outside its turn");
	{
		pid_t w[] = {1003, 1000, 1001};

		threads_incr_want(&st, w, 3);
	}
	ok(threads_incr_slow_due(&st, 1, 1000) && threads_incr_slow_due(&st, 1, 1003),
	   "wanted (on screen): due every read");
	ok(!threads_incr_slow_due(&st, 1, 1002), "not wanted: not due");
	threads_incr_want(&st, NULL, 0);
	ok(!threads_incr_slow_due(&st, 1, 1000), "want replaced");
	threads_incr_dirty(&st, 1002);
	threads_incr_dirty(&st, 1002);
	ok(threads_incr_slow_due(&st, 1, 1002) && st.ndirty == 1, "changed thread: due");
	threads_incr_dirty_pid(&st, 77);
	ok(threads_incr_slow_due(&st, 77, 1005) && !threads_incr_slow_due(&st, 78, 1005),
	   "changed process: every thread of it due");
	threads_incr_dirty_all(&st);
	ok(threads_incr_slow_due(&st, 78, 1005), "all dirty: everything due");
	threads_incr_free(&st);
}

static volatile int parked_stop;
static volatile pid_t parked_tid;

static void *parked(void *arg)
{
	if (arg)
		parked_tid = (pid_t)syscall(SYS_gettid);
	while (!parked_stop)
		usleep(2000);
	return NULL;
}

/* The incremental reader on this process: stat fresh each read, a thread's
 * affinity stale until its turn, fresh at once when invalidated. */
static void test_incr_live(void)
{
	struct thread_table tab[3];
	struct threads_incr st;
	pthread_t th, th2;
	bool gone = false, stays = false;
	pid_t me = getpid(), tid = 0;
	struct thread_info *x;
	cpu_set_t one;

	memset(tab, 0, sizeof(tab));
	memset(&st, 0, sizeof(st));
	st.rotate = 1u << 30; /* no thread's turn in this test */
	parked_stop = 0;
	pthread_create(&th, NULL, parked, NULL);
	usleep(20000);
	is_int(threads_read_incr(&st, sysroot_live(), THREADS_SCHED_FILE, NULL, &tab[0]), 0,
	       "incr: first read");
	for (size_t i = 0; i < tab[0].n; i++)
		if (tab[0].t[i].pid == me && tab[0].t[i].tid != me)
			tid = tab[0].t[i].tid;
	ok(tid > 0, "incr: our second thread listed");
	ok(st.nslow == tab[0].n, "incr: first read takes every thread's slow fields");
	ok(st.nfds == tab[0].n, "incr: stat fds kept (%zu)", st.nfds);
	x = threads_find(&tab[0], tid);
	ok(x && x->have_affinity && x->slow_ns == tab[0].time_ns, "incr: affinity read");
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2 || !x || cpumask_count(&x->affinity) < 2) {
		ok(1, "# SKIP incr: stale / invalidated affinity: needs 2 CPUs");
	} else {
		CPU_ZERO(&one);
		CPU_SET(1, &one);
		ok(sched_setaffinity(tid, sizeof(one), &one) == 0, "incr: pin the thread to CPU 1");
		pthread_create(&th2, NULL, parked, &st);
		while (!parked_tid)
			usleep(1000);
		is_int(threads_read_incr(&st, sysroot_live(), THREADS_SCHED_FILE, &tab[0], &tab[1]),
		       0, "incr: second read");
		x = threads_find(&tab[1], parked_tid);
		ok(x && x->pid == me && x->slow_ns == tab[1].time_ns,
		   "incr: a thread new since the last read is listed, its slow fields read");
		ok(x && x->num_threads >= 3, "incr: num_threads from stat (%d)",
		   x ? x->num_threads : -1);
		ok(st.nslow < tab[1].n, "incr: second read takes slow fields of few threads (%zu)",
		   st.nslow);
		x = threads_find(&tab[1], tid);
		ok(x && cpumask_count(&x->affinity) >= 2,
		   "incr: not wanted, not changed, not its turn: affinity carried (stale)");
		ok(x && x->stat_fd1 > 0 && threads_find(&tab[0], tid)->stat_fd1 == 0,
		   "incr: the kept fd moved to the new table");
		threads_incr_dirty(&st, tid);
		threads_read_incr(&st, sysroot_live(), THREADS_SCHED_FILE, &tab[1], &tab[2]);
		x = threads_find(&tab[2], tid);
		ok(x && cpumask_count(&x->affinity) == 1 && cpumask_test(&x->affinity, 1),
		   "incr: invalidated: its affinity read again (CPU 1)");
		threads_derive(&tab[2], &tab[1], 0.1, sysconf(_SC_CLK_TCK));
		ok(x && !isnan(x->cpu_pct), "incr: CPU%% from stat every read");
		ok(st.nlisted_skip > 0, "incr: unchanged processes not listed again (%zu)",
		   st.nlisted_skip);
		parked_stop = 1;
		pthread_join(th2, NULL);
		/* join returns when the kernel clears the tid, a moment before
		 * the thread leaves /proc: read again until it is gone */
		for (int k = 0, cur = 2; k < 100; k++) {
			int nxt = (cur + 1) % 3;

			threads_read_incr(&st, sysroot_live(), THREADS_SCHED_FILE, &tab[cur],
					  &tab[nxt]);
			cur = nxt;
			gone = !threads_find(&tab[cur], parked_tid);
			stays = threads_find(&tab[cur], me) != NULL;
			if (gone)
				break;
			usleep(10000);
		}
		ok(gone && stays, "incr: an exited thread leaves the table, the others stay");
	}
	parked_stop = 1;
	pthread_join(th, NULL);
	threads_free(&tab[0]);
	threads_free(&tab[1]);
	threads_free(&tab[2]);
	threads_incr_free(&st);
}

int main(void)
{
	test_parse_stat();
	test_parse_status();
	test_derive();
	test_json();
	test_live();
	test_rotation();
	test_incr_live();
	return done_testing();
}
