/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The background load generator (load.h): parsing of the --load SPEC, the
 * pinned SCHED_OTHER burn ("cpu") and streaming ("mem") threads, their
 * start handshake and their stop. Owns nothing else; the A/B controller
 * (ab.c) starts it before the probe, so that the probe's mlockall covers the
 * buffers instead of refusing later allocations. */
#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/err.h"
#include "core/str.h"
#include "core/xalloc.h"
#include "probe/load.h"
#include "probe/probe.h"
#include "sysfs/sysroot.h"

#define LD(p)	 __atomic_load_n((p), __ATOMIC_ACQUIRE)
#define ST(p, v) __atomic_store_n((p), (v), __ATOMIC_RELEASE)

#define LOAD_STACK_BYTES (64 * 1024)

static const char *kind_name(enum load_kind k)
{
	return k == LOAD_CPU ? "cpu" : "mem";
}

/* ---- parsing ------------------------------------------------------------ */

static int parse_item(const char *text, struct load_item *it, const struct cpumask *online,
		      char *why, size_t cap)
{
	char buf[256], *colon, *at, *num;
	uint64_t n;

	if (str_copy(buf, sizeof(buf), text) >= sizeof(buf)) {
		snprintf(why, cap, "'%.40s...': too long", text);
		return -EINVAL;
	}
	memset(it, 0, sizeof(*it));
	colon = strchr(buf, ':');
	if (!colon) {
		snprintf(why, cap, "'%s': expected KIND:N (cpu:N or mem:N, optionally @CPUS)",
			 text);
		return -EINVAL;
	}
	*colon = '\0';
	num = colon + 1;
	if (!strcmp(buf, "cpu")) {
		it->kind = LOAD_CPU;
	} else if (!strcmp(buf, "mem")) {
		it->kind = LOAD_MEM;
	} else {
		snprintf(why, cap, "'%s': unknown load '%s' (use cpu:N or mem:N, optionally @CPUS)",
			 text, buf);
		return -EINVAL;
	}
	at = strchr(num, '@');
	if (at)
		*at++ = '\0';
	if (str_to_u64(num, &n) || n < 1 || n > LOAD_MAX_THREADS) {
		snprintf(why, cap, "'%s': thread count '%s' must be 1..%d", text, num,
			 LOAD_MAX_THREADS);
		return -EINVAL;
	}
	it->n = (unsigned)n;
	if (at) {
		struct cpumask extra;

		if (cpulist_parse(at, &it->cpus) || cpumask_empty(&it->cpus)) {
			snprintf(why, cap, "'%s': '@%s' is not a CPU list", text, at);
			return -EINVAL;
		}
		extra = it->cpus;
		cpumask_andnot(&extra, online);
		if (!cpumask_empty(&extra)) {
			char l1[128], l2[128];

			cpulist_format(&extra, l1, sizeof(l1));
			cpulist_format(online, l2, sizeof(l2));
			snprintf(why, cap, "'%s': CPU %s is not online (online: %s)", text, l1, l2);
			return -EINVAL;
		}
		it->placed = true;
	}
	return 0;
}

int load_parse(const char *spec, struct load_spec *out, char *why, size_t cap)
{
	struct cpumask online;
	char *copy, *tok, *save = NULL, *cur = NULL;
	size_t cur_len = 0, capn = 0, total = 0;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	if (!spec || !*spec) {
		snprintf(why, cap, "empty load spec (use cpu:N or mem:N, optionally @CPUS)");
		return -EINVAL;
	}
	if (probe_online_cpus(&online)) {
		cpumask_zero(&online);
		cpumask_set(&online, 0);
	}
	str_copy(out->text, sizeof(out->text), spec);
	copy = xstrdup(spec);
	/* Group the comma-separated words into items: a word starting with a
	 * letter starts one ("cpu:2@1"), any other word continues the previous
	 * item's CPU list ("3", "4-7:2"). */
	for (tok = strtok_r(copy, ",", &save);; tok = strtok_r(NULL, ",", &save)) {
		if (!tok || isalpha((unsigned char)tok[0])) {
			if (cur) {
				struct load_item it;

				rc = parse_item(cur, &it, &online, why, cap);
				free(cur);
				cur = NULL;
				if (rc)
					break;
				total += it.n;
				if (total > LOAD_MAX_THREADS) {
					snprintf(why, cap, "'%s': more than %d threads in all",
						 spec, LOAD_MAX_THREADS);
					rc = -EINVAL;
					break;
				}
				out->item = xgrow(out->item, &capn, out->n + 1, sizeof(*out->item));
				out->item[out->n++] = it;
			}
			if (!tok)
				break;
			cur = xstrdup(tok);
			cur_len = strlen(cur);
			continue;
		}
		if (!cur || !strchr(cur, '@') || !*tok) {
			snprintf(why, cap,
				 "'%s': '%s' is not a load item (use cpu:N or mem:N, optionally "
				 "@CPUS, comma-separated)",
				 spec, tok);
			rc = -EINVAL;
			break;
		}
		cur = xrealloc(cur, cur_len + strlen(tok) + 2);
		cur[cur_len++] = ',';
		strcpy(cur + cur_len, tok);
		cur_len += strlen(tok);
	}
	free(cur);
	free(copy);
	if (!rc && !out->n) {
		snprintf(why, cap, "'%s': no load items (use cpu:N or mem:N, optionally @CPUS)",
			 spec);
		rc = -EINVAL;
	}
	/* "cpu:1,,mem:1" and trailing commas: strtok hides them; refuse explicitly */
	if (!rc && (strstr(spec, ",,") || spec[0] == ',' || spec[strlen(spec) - 1] == ',')) {
		snprintf(why, cap, "'%s': empty item between commas", spec);
		rc = -EINVAL;
	}
	if (rc)
		load_spec_free(out);
	return rc;
}

void load_spec_free(struct load_spec *s)
{
	free(s->item);
	s->item = NULL;
	s->n = 0;
}

void load_spec_format(const struct load_spec *s, char *buf, size_t cap)
{
	struct sbuf b;

	sbuf_init(&b);
	for (size_t i = 0; i < s->n; i++) {
		sbuf_printf(&b, "%s%s:%u", i ? "," : "", kind_name(s->item[i].kind), s->item[i].n);
		if (s->item[i].placed) {
			char l[128];

			cpulist_format(&s->item[i].cpus, l, sizeof(l));
			sbuf_printf(&b, "@%s", l);
		}
	}
	str_copy(buf, cap, b.s ? b.s : "");
	sbuf_free(&b);
}

/* ---- buffer size ------------------------------------------------------------ */

size_t load_mem_bytes(void)
{
	uint64_t biggest = 0;

	for (int i = 0; i < 16; i++) {
		char buf[64], *end;
		unsigned long long v;

		if (sysfs_read_strf(sysroot_live(), buf, sizeof(buf),
				    "sys/devices/system/cpu/cpu0/cache/index%d/size", i) != 0)
			continue;
		v = strtoull(buf, &end, 10);
		if (end == buf)
			continue;
		if (*end == 'K')
			v <<= 10;
		else if (*end == 'M')
			v <<= 20;
		else if (*end == 'G')
			v <<= 30;
		if (v > biggest)
			biggest = v;
	}
	if (biggest && biggest <= (UINT64_C(1) << 32) && 4 * biggest > LOAD_MEM_MIN_BYTES)
		return (size_t)(4 * biggest);
	return LOAD_MEM_MIN_BYTES;
}

/* ---- threads ------------------------------------------------------------------ */

static void ready(struct load_thread *t)
{
	ready_gate_arrive(&t->owner->gate);
}

static void burn(struct load_thread *t)
{
	struct load *l = t->owner;
	uint64_t x = (uint64_t)t->cpu * 0x9e3779b97f4a7c15ull + 1;
	volatile uint64_t sink;

	while (!LD(&l->stop)) {
		for (int k = 0; k < 65536; k++) {
			x = x * 6364136223846793005ull + 1442695040888963407ull;
			x ^= x >> 29;
		}
		sink = x;
		(void)sink;
		__atomic_add_fetch(&t->passes, 1, __ATOMIC_RELAXED);
	}
}

static void stream(struct load_thread *t)
{
	struct load *l = t->owner;
	uint64_t *p = t->buf;
	size_t nwords = t->bytes / sizeof(uint64_t);

	for (;;) {
		for (size_t i = 0; i < nwords; i += 8) { /* one 64-byte line per step */
			p[i] += 1;
			if (!(i & ((1u << 17) - 1))) { /* every MiB */
				__asm__ volatile("" ::: "memory");
				if (LD(&l->stop))
					return;
			}
		}
		__atomic_add_fetch(&t->passes, 1, __ATOMIC_RELAXED);
	}
}

static void *load_main(void *arg)
{
	struct load_thread *t = arg;
	cpu_set_t *set = CPU_ALLOC(TT_MAX_CPUS);
	size_t sz = CPU_ALLOC_SIZE(TT_MAX_CPUS);
	char name[16];

	/* Pin first, from inside the thread (pthread_attr_setaffinity_np is
	 * glibc-only; sched_setaffinity on the calling thread works on every
	 * libc), so the buffer is faulted in on its own CPU. */
	if (!set) {
		t->err = -ENOMEM;
		t->err_op = "CPU_ALLOC";
	} else {
		CPU_ZERO_S(sz, set);
		CPU_SET_S((size_t)t->cpu, sz, set);
		if (sched_setaffinity(0, sz, set) != 0) {
			t->err = -errno;
			t->err_op = "sched_setaffinity";
		}
		CPU_FREE(set);
	}
	ST(&t->tid, (pid_t)syscall(SYS_gettid));
	snprintf(name, sizeof(name), "tt-%s/%d", t->kind == LOAD_CPU ? "burn" : "stream", t->cpu);
	pthread_setname_np(pthread_self(), name);
	if (t->err) {
		/* reported by load_start */
	} else if (t->kind == LOAD_MEM) {
		t->buf = malloc(t->bytes);
		if (!t->buf) {
			t->err = -ENOMEM;
			t->err_op = "buffer";
		} else
			memset(t->buf, 0x5a, t->bytes); /* fault it in on this CPU */
	}
	ready(t);
	if (!t->err) {
		if (t->kind == LOAD_CPU)
			burn(t);
		else
			stream(t);
	}
	free(t->buf);
	t->buf = NULL;
	return NULL;
}

int load_start(struct load *l, const struct load_spec *s, char *why, size_t cap)
{
	struct cpumask online;
	pthread_attr_t attr;
	struct sched_param sp = {.sched_priority = 0};
	sigset_t all, old;
	size_t nbytes = 0;
	int total = 0, k = 0, rr = 0, rc = 0;
	int *online_list;
	int nonline = 0;

	memset(l, 0, sizeof(*l));
	for (size_t i = 0; i < s->n; i++) {
		total += (int)s->item[i].n;
		if (s->item[i].kind == LOAD_MEM)
			nbytes = load_mem_bytes();
	}
	if (total <= 0) {
		l->stopped = true;
		return 0;
	}
	if (probe_online_cpus(&online)) {
		cpumask_zero(&online);
		cpumask_set(&online, 0);
	}
	online_list = xcalloc((size_t)cpumask_count(&online), sizeof(int));
	for (int c = cpumask_next(&online, 0); c >= 0; c = cpumask_next(&online, c + 1))
		online_list[nonline++] = c;
	ready_gate_init(&l->gate);
	l->mem_bytes = nbytes;
	l->thr = xcalloc((size_t)total, sizeof(*l->thr));
	for (size_t i = 0; i < s->n; i++) {
		const struct load_item *it = &s->item[i];
		int c = it->placed ? cpumask_next(&it->cpus, 0) : -1;

		for (unsigned j = 0; j < it->n; j++) {
			struct load_thread *t = &l->thr[k++];

			t->kind = it->kind;
			t->owner = l;
			t->bytes = it->kind == LOAD_MEM ? nbytes : 0;
			if (it->placed) {
				t->cpu = c;
				c = cpumask_next(&it->cpus, c + 1);
				if (c < 0)
					c = cpumask_next(&it->cpus, 0);
			} else {
				t->cpu = online_list[rr++ % nonline];
			}
		}
	}
	free(online_list);
	l->n = total;

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	for (k = 0; k < l->n; k++) {
		struct load_thread *t = &l->thr[k];

		pthread_attr_init(&attr);
		pthread_attr_setstacksize(&attr, LOAD_STACK_BYTES);
		pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED);
		pthread_attr_setschedpolicy(&attr, SCHED_OTHER);
		pthread_attr_setschedparam(&attr, &sp);
		rc = pthread_create(&t->thread, &attr, load_main, t);
		pthread_attr_destroy(&attr);
		if (rc) {
			snprintf(why, cap, "%s load thread on CPU %d: pthread_create: %s",
				 kind_name(t->kind), t->cpu, err_name(-rc));
			rc = -rc;
			break;
		}
		t->started = true;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);

	/* the first k threads started (creation stops at the first failure):
	   wait until each of them is ready or failed */
	ready_gate_wait(&l->gate, k);
	for (int i = 0; !rc && i < l->n; i++)
		if (l->thr[i].err) {
			const struct load_thread *t = &l->thr[i];

			rc = t->err;
			if (!strcmp(t->err_op, "buffer"))
				snprintf(why, cap, "mem load thread on CPU %d: %zu MiB buffer: %s",
					 t->cpu, t->bytes >> 20, err_name(rc));
			else
				snprintf(why, cap, "%s load thread on CPU %d: %s: %s%s",
					 kind_name(t->kind), t->cpu, t->err_op, err_name(rc),
					 rc == -EINVAL
						 ? " (CPU not in this process's allowed CPUs?)"
						 : "");
		}
	if (rc)
		load_stop(l);
	return rc;
}

void load_stop(struct load *l)
{
	if (l->stopped || !l->thr) {
		l->stopped = true;
		return;
	}
	ST(&l->stop, true);
	for (int i = 0; i < l->n; i++) {
		if (!l->thr[i].started)
			continue;
		pthread_join(l->thr[i].thread, NULL);
		l->thr[i].started = false;
	}
	ready_gate_destroy(&l->gate);
	free(l->thr);
	l->thr = NULL;
	l->n = 0;
	l->stopped = true;
}
