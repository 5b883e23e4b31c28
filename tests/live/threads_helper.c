/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Multi-threaded helper for the live thread tests and the thread-list
 * benchmark. Starts N named threads (PREFIX0..PREFIXn-1) that sleep in a
 * short loop (voluntary context switches), block, or spin, plus optionally
 * --spawn M extra blocked threads ("ttspawn"). Prints
 *   pid PID
 *   tid NAME TID        (one line per named thread)
 *   ready
 * then waits for signals: SIGUSR1 makes the lowest-numbered named thread
 * still alive exit (prints "exited TID"); SIGTERM, SIGINT or SIGHUP end the
 * process. It never changes its own scheduling: the tests do that with
 * taskset, chrt and renice. */
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

enum mode { MODE_SLEEP, MODE_BLOCK, MODE_BUSY };

struct worker {
	pthread_t th;
	int idx;
	char name[16];
	atomic_int tid;
	atomic_int stop;
	bool alive;
};

static enum mode mode = MODE_SLEEP;
static long wake_ms = 10;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static pthread_cond_t never = PTHREAD_COND_INITIALIZER;

static void *named_main(void *arg)
{
	struct worker *w = arg;

	pthread_setname_np(pthread_self(), w->name);
	atomic_store(&w->tid, (int)syscall(SYS_gettid));
	while (!atomic_load(&w->stop)) {
		if (mode == MODE_BUSY) {
			for (volatile int i = 0; i < 100000; i++)
				;
			continue;
		}
		pthread_mutex_lock(&mu);
		if (!atomic_load(&w->stop)) {
			if (mode == MODE_BLOCK) {
				pthread_cond_wait(&cv, &mu);
			} else {
				struct timespec ts;

				clock_gettime(CLOCK_REALTIME, &ts);
				ts.tv_nsec += wake_ms * 1000000L;
				ts.tv_sec += ts.tv_nsec / 1000000000L;
				ts.tv_nsec %= 1000000000L;
				pthread_cond_timedwait(&cv, &mu, &ts);
			}
		}
		pthread_mutex_unlock(&mu);
	}
	return NULL;
}

static void *spawn_main(void *arg)
{
	(void)arg;
	pthread_setname_np(pthread_self(), "ttspawn");
	pthread_mutex_lock(&mu);
	for (;;)
		pthread_cond_wait(&never, &mu);
	return NULL;
}

/* Stop and join the named threads still alive (they use w[]), free w. */
static void stop_named(struct worker *w, long n)
{
	pthread_mutex_lock(&mu);
	for (long i = 0; i < n; i++)
		atomic_store(&w[i].stop, 1);
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&mu);
	for (long i = 0; i < n; i++)
		if (w[i].alive)
			pthread_join(w[i].th, NULL);
	free(w);
}

static void usage(void)
{
	fprintf(stderr, "usage: threads_helper [-n N] [-p PREFIX] [--busy|--block] [-w MS] "
			"[--spawn M]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{"threads", required_argument, NULL, 'n'},
		{"prefix", required_argument, NULL, 'p'},
		{"busy", no_argument, NULL, 'b'},
		{"block", no_argument, NULL, 'k'},
		{"wake-ms", required_argument, NULL, 'w'},
		{"spawn", required_argument, NULL, 's'},
		{NULL, 0, NULL, 0},
	};
	const char *prefix = "tthelp";
	long nnamed = 3, nspawn = 0;
	struct worker *w;
	pthread_attr_t attr;
	sigset_t set;
	int c;

	while ((c = getopt_long(argc, argv, "n:p:bkw:s:", opts, NULL)) != -1) {
		switch (c) {
		case 'n': nnamed = strtol(optarg, NULL, 10); break;
		case 'p': prefix = optarg; break;
		case 'b': mode = MODE_BUSY; break;
		case 'k': mode = MODE_BLOCK; break;
		case 'w': wake_ms = strtol(optarg, NULL, 10); break;
		case 's': nspawn = strtol(optarg, NULL, 10); break;
		default: usage();
		}
	}
	if (nnamed < 0 || nnamed > 1000 || nspawn < 0 || nspawn > 100000 || wake_ms < 1)
		usage();

	/* all threads inherit a blocked mask; main takes the signals with sigwait */
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &set, NULL);

	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	w = calloc((size_t)(nnamed ? nnamed : 1), sizeof(*w));
	if (!w)
		return 1;
	for (long i = 0; i < nnamed; i++) {
		w[i].idx = (int)i;
		snprintf(w[i].name, sizeof(w[i].name), "%.10s%ld", prefix, i);
		if (pthread_create(&w[i].th, &attr, named_main, &w[i]) != 0) {
			fprintf(stderr, "threads_helper: pthread_create failed\n");
			stop_named(w, i);
			return 1;
		}
		w[i].alive = true;
	}
	for (long i = 0; i < nspawn; i++) {
		pthread_t th;
		int e = pthread_create(&th, &attr, spawn_main, NULL);

		if (e) {
			fprintf(stderr, "threads_helper: spawn %ld: %s\n", i, strerror(e));
			stop_named(w, nnamed);
			return 1;
		}
	}
	for (long i = 0; i < nnamed; i++)
		while (atomic_load(&w[i].tid) == 0)
			usleep(1000);
	printf("pid %d\n", (int)getpid());
	for (long i = 0; i < nnamed; i++)
		printf("tid %s %d\n", w[i].name, atomic_load(&w[i].tid));
	printf("ready\n");
	fflush(stdout);

	for (;;) {
		int sig;

		if (sigwait(&set, &sig) != 0)
			continue;
		if (sig != SIGUSR1)
			break;
		for (long i = 0; i < nnamed; i++) {
			if (!w[i].alive)
				continue;
			atomic_store(&w[i].stop, 1);
			pthread_mutex_lock(&mu);
			pthread_cond_broadcast(&cv);
			pthread_mutex_unlock(&mu);
			pthread_join(w[i].th, NULL);
			w[i].alive = false;
			printf("exited %d\n", atomic_load(&w[i].tid));
			fflush(stdout);
			break;
		}
	}
	stop_named(w, nnamed);
	pthread_attr_destroy(&attr);
	return 0;
}
