/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tunetop exec: apply a profile and knobs (one journaled transaction), hold
 * pmqos/cpu_dma_latency_us if given, run CMD with the requested affinity and
 * scheduling in a cgroup v2 of its own (hold.h "follow"; --no-follow: CMD
 * alone, --pidfile: the process a pid file names), forward
 * SIGINT/SIGTERM/SIGHUP/SIGQUIT, wait until the whole app is gone while
 * holding the knobs (--hold: reverts reported or written back, CPUs coming
 * online get their per-CPU knobs), restore exactly what this run applied,
 * and exit with CMD's status (128 + signal when CMD was killed). Signals are blocked from the start
 * so that a SIGTERM during the apply or the restore is handled when it is safe; a SIGKILL leaves
 * the journal entries open for `tunetop restore`.
 *
 * Our own messages go to stderr (prefixed), so CMD's stdout stays clean. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/err.h"
#include "cmd/cmd.h"
#include "core/appmetric.h"
#include "core/cpumask.h"
#include "core/json.h"
#include "core/str.h"
#include "core/timeutil.h"
#include "core/xalloc.h"
#include "knob/hold.h"
#include "knob/knob.h"
#include "cmd/common.h"
#include "knob/knob_int.h"
#include "sysfs/userfile.h"

/* STEP_CGROUP is not fatal: CMD runs, followed as a direct child only */
enum step { STEP_AFFINITY = 1, STEP_SCHED, STEP_NICE, STEP_EXEC, STEP_CGROUP };

struct child_err {
	int step;
	int err;
};

struct exec_opts {
	const char **profiles;
	size_t nprof;
	const char **assign;
	const char **label;
	size_t nassign;
	bool force, dry, quiet;
	bool have_cpus;
	struct cpumask cpus;
	char cpus_text[256];
	int policy; /* -1 = leave */
	int prio;
	bool have_nice;
	int nice;
	bool no_follow;
	const char *pidfile;
	enum knob_hold_mode hold;
	struct app_cgroup cg; /* cg.active: CMD runs in it */
	struct knob_hold *held;
	char **cmd;
	char **run_argv; /* in a systemd scope: systemd-run ... -- cmd (hold.h) */
	/* --metric REGEX: CMD's stdout through a pipe, passed on line by line */
	const char *metric;
	bool json;
	struct appmetric am;
	int out_fd; /* the pipe's read end, -1 when none or at EOF */
	char *part; /* CMD's partial last line */
	size_t npart, cappart;
	bool long_line; /* the partial line went past METRIC_LINE_MAX: passed on, not matched */
	bool midline;	/* the last byte passed on was not a newline */
};

#define METRIC_LINE_MAX (64u << 10)

static void say(const struct exec_opts *x, struct sbuf *rep)
{
	if (!x->quiet)
		knob_print_cause("exec", rep->s ? rep->s : "");
	sbuf_reset(rep);
}

/* Value of "--opt VALUE" or "--opt=VALUE"; advances *i. NULL = not this option. */
static const char *opt_value(int argc, char **argv, int *i, const char *longname,
			     const char *shortname, bool *missing)
{
	const char *a = argv[*i];
	size_t ln = strlen(longname);

	*missing = false;
	if (!strncmp(a, longname, ln) && a[ln] == '=')
		return a + ln + 1;
	if (!strcmp(a, longname) || (shortname && !strcmp(a, shortname))) {
		if (*i + 1 >= argc) {
			*missing = true;
			return NULL;
		}
		return argv[++*i];
	}
	return NULL;
}

/* The switches and the text options of exec, from tables: 1 when argv[*i]
 * was one (advanced past its value), 0 when not, -1 after an error line. */
static int table_opt(int argc, char **argv, int *i, struct exec_opts *x)
{
	static const struct {
		const char *name, *alias;
		size_t off;
	} flag[] = {
		{"--force", NULL, offsetof(struct exec_opts, force)},
		{"--dry-run", NULL, offsetof(struct exec_opts, dry)},
		{"--quiet", "-q", offsetof(struct exec_opts, quiet)},
		{"--no-follow", NULL, offsetof(struct exec_opts, no_follow)},
		{"--json", NULL, offsetof(struct exec_opts, json)},
	};
	static const struct {
		const char *name, *what;
		size_t off;
	} text[] = {
		{"--metric", "a REGEX", offsetof(struct exec_opts, metric)},
		{"--pidfile", "a file name", offsetof(struct exec_opts, pidfile)},
	};
	const char *a = argv[*i];

	for (size_t j = 0; j < sizeof(flag) / sizeof(flag[0]); j++)
		if (!strcmp(a, flag[j].name) || (flag[j].alias && !strcmp(a, flag[j].alias))) {
			*(bool *)((char *)x + flag[j].off) = true;
			return 1;
		}
	for (size_t j = 0; j < sizeof(text) / sizeof(text[0]); j++) {
		bool missing;
		const char *v = opt_value(argc, argv, i, text[j].name, NULL, &missing);

		if (!v && !missing)
			continue;
		if (missing || !*v) {
			cmd_error("exec", 0, "%s needs %s", text[j].name, text[j].what);
			return -1;
		}
		*(const char **)((char *)x + text[j].off) = v;
		return 1;
	}
	return 0;
}

static int parse(int argc, char **argv, struct exec_opts *x)
{
	int i;

	memset(x, 0, sizeof(*x));
	x->policy = -1;
	x->hold = KNOB_HOLD_REPORT;
	x->cg.procs_fd = -1;
	x->out_fd = -1;
	x->profiles = xcalloc((size_t)argc, sizeof(char *));
	x->assign = xcalloc((size_t)argc, sizeof(char *));
	x->label = xcalloc((size_t)argc, sizeof(char *));
	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v;
		bool missing;
		int took;

		if (!strcmp(a, "--")) {
			i++;
			break;
		}
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			cmd_print_help("exec", stdout);
			exit(0);
		}
		took = table_opt(argc, argv, &i, x);
		if (took < 0)
			return 2;
		if (took)
			continue;
		if ((v = opt_value(argc, argv, &i, "--hold", NULL, &missing)) || missing) {
			if (missing || knob_hold_mode_parse(v, &x->hold) != 0) {
				cmd_error("exec", 0, "--hold '%s': must be off, report or reassert",
					  v ? v : "");
				return 2;
			}
			continue;
		}
		if ((v = opt_value(argc, argv, &i, "--profile", "-p", &missing)) || missing) {
			if (missing)
				return cmd_usage("exec");
			x->profiles[x->nprof++] = v;
			continue;
		}
		if ((v = opt_value(argc, argv, &i, "--cpus", NULL, &missing)) || missing) {
			if (missing || cpulist_parse(v, &x->cpus) != 0 || cpumask_empty(&x->cpus)) {
				cmd_error("exec", 0, "--cpus '%s': not a CPU list", v ? v : "");
				return 2;
			}
			x->have_cpus = true;
			str_copy(x->cpus_text, sizeof(x->cpus_text), v);
			continue;
		}
		{
			static const struct {
				const char *name;
				int policy;
			} pol[] = {{"--fifo", SCHED_FIFO}, {"--rr", SCHED_RR}};
			bool done = false;

			for (size_t k = 0; k < 2 && !done; k++) {
				if ((v = opt_value(argc, argv, &i, pol[k].name, NULL, &missing)) ||
				    missing) {
					int pr, lo = sched_get_priority_min(pol[k].policy),
						hi = sched_get_priority_max(pol[k].policy);

					if (missing || str_to_int(v, &pr) != 0 || pr < lo ||
					    pr > hi) {
						cmd_error("exec", 0,
							  "%s '%s': priority must be %d..%d",
							  pol[k].name, v ? v : "", lo, hi);
						return 2;
					}
					if (x->policy >= 0 || x->have_nice) {
						cmd_error("exec", 0,
							  "use one of --fifo, --rr, --nice");
						return 2;
					}
					x->policy = pol[k].policy;
					x->prio = pr;
					done = true;
				}
			}
			if (done)
				continue;
		}
		if ((v = opt_value(argc, argv, &i, "--nice", NULL, &missing)) || missing) {
			if (missing || str_to_int(v, &x->nice) != 0 || x->nice < -20 ||
			    x->nice > 19) {
				cmd_error("exec", 0, "--nice '%s': must be -20..19", v ? v : "");
				return 2;
			}
			if (x->policy >= 0) {
				cmd_error("exec", 0, "use one of --fifo, --rr, --nice");
				return 2;
			}
			x->have_nice = true;
			continue;
		}
		if (knob_is_assignment(a)) {
			x->assign[x->nassign] = a;
			x->label[x->nassign] = "command line";
			x->nassign++;
			continue;
		}
		if (a[0] == '-') {
			cmd_error("exec", 0, "unknown option '%s'", a);
			return cmd_usage("exec");
		}
		break; /* CMD starts here */
	}
	if (x->json && !x->metric) {
		cmd_error("exec", 0, "--json needs --metric REGEX");
		return 2;
	}
	if (x->metric) {
		char why[300];

		if (appmetric_init(&x->am, x->metric, why, sizeof(why))) {
			cmd_error("exec", 0, "%s", why);
			return 2;
		}
	}
	if (x->pidfile && x->no_follow) {
		cmd_error("exec", 0, "use one of --pidfile, --no-follow");
		return 2;
	}
	if (i >= argc) {
		cmd_error("exec", 0, "no command given");
		return cmd_usage("exec");
	}
	x->cmd = argv + i;
	return 0;
}

static void free_opts(struct exec_opts *x)
{
	free(x->profiles);
	free(x->assign);
	free(x->label);
	free(x->run_argv);
	x->run_argv = NULL;
	appmetric_free(&x->am);
	free(x->part);
	x->part = NULL;
	if (x->out_fd >= 0)
		close(x->out_fd);
	x->out_fd = -1;
}

/* ---- --metric: CMD's stdout, passed on unchanged, its lines matched ---------- */

static void write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t k = write(fd, p, n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return; /* our stdout is gone: CMD's output is lost, not CMD */
		p += k;
		n -= (size_t)k;
	}
}

static void pass_on(struct exec_opts *x, const char *p, size_t n)
{
	if (!n)
		return;
	write_all(STDOUT_FILENO, p, n);
	x->midline = p[n - 1] != '\n';
}

/* Bytes from CMD: every complete line goes on to our stdout at once and is
 * matched; a partial line waits for its newline (or EOF); a line longer than
 * METRIC_LINE_MAX is passed on in pieces and not matched. */
static void metric_feed(struct exec_opts *x, const char *buf, size_t n)
{
	while (n) {
		const char *nl = memchr(buf, '\n', n);
		size_t k = nl ? (size_t)(nl - buf) + 1 : n;

		x->part = xgrow(x->part, &x->cappart, x->npart + k + 1, 1);
		memcpy(x->part + x->npart, buf, k);
		x->npart += k;
		buf += k;
		n -= k;
		if (nl) {
			pass_on(x, x->part, x->npart);
			x->part[x->npart - 1] = '\0';
			if (!x->long_line)
				appmetric_line(&x->am, x->part);
			x->long_line = false;
			x->npart = 0;
		} else if (x->npart > METRIC_LINE_MAX) {
			pass_on(x, x->part, x->npart);
			x->long_line = true;
			x->npart = 0;
		}
	}
}

/* Read what the pipe holds (it is non-blocking); at EOF the last partial
 * line is passed on and matched, and the pipe closed. */
static void metric_read(struct exec_opts *x)
{
	char buf[8192];

	while (x->out_fd >= 0) {
		ssize_t k = read(x->out_fd, buf, sizeof(buf));

		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0 && errno == EAGAIN)
			return;
		if (k > 0) {
			metric_feed(x, buf, (size_t)k);
			continue;
		}
		if (x->npart) {
			pass_on(x, x->part, x->npart);
			x->part = xgrow(x->part, &x->cappart, x->npart + 1, 1);
			x->part[x->npart] = '\0';
			if (!x->long_line)
				appmetric_line(&x->am, x->part);
			x->npart = 0;
		}
		close(x->out_fd);
		x->out_fd = -1;
	}
}

static void fmt_num(char *buf, size_t cap, double v)
{
	if (isnan(v))
		snprintf(buf, cap, "n/a");
	else
		snprintf(buf, cap, "%.6g", v);
}

/* The summary: one line on stderr; with --json a JSON object as the last
 * line of stdout, after CMD's output. */
static void metric_report(const struct exec_opts *x)
{
	struct appmetric_summary s;
	char p50[32], p99[32], mx[32];

	appmetric_summary(&x->am, 0, &s);
	fmt_num(p50, sizeof(p50), s.p50);
	fmt_num(p99, sizeof(p99), s.p99);
	fmt_num(mx, sizeof(mx), s.max);
	cmd_note("exec", "metric '%s': n=%zu p50=%s p99=%s max=%s%s", x->metric, x->am.n, p50, p99,
		 mx, x->am.n ? "" : " (no line matched)");
	if (x->json) {
		struct sbuf b;
		struct jw w;

		cmd_json_begin(&w, &b, false);
		jw_str(&w, "schema", "tunetop.exec_metric/1");
		jw_str(&w, "tunetop", PACKAGE_VERSION);
		jw_str(&w, "metric", x->metric);
		jw_uint(&w, "n", x->am.n);
		jw_uint(&w, "unparsed", x->am.unparsed);
		jw_double(&w, "mean", s.mean, 6);
		jw_double(&w, "p50", s.p50, 6);
		jw_double(&w, "p99", s.p99, 6);
		jw_double(&w, "max", s.max, 6);
		jw_double(&w, "min", s.min, 6);
		jw_obj_end(&w);
		sbuf_putc(&b, '\n');
		fflush(stdout);
		if (x->midline) /* CMD's last line had no newline: the object on a line of its own
				 */
			write_all(STDOUT_FILENO, "\n", 1);
		write_all(STDOUT_FILENO, b.s, b.len);
		sbuf_free(&b);
	}
}

/* In the child, before execvp: affinity, policy, nice, through the same
 * syscalls as thread/<tid>/... (fam_thread.c); not journaled, since they end
 * with CMD. */
static void child_setup(const struct exec_opts *x, int errfd, const sigset_t *oldmask)
{
	struct child_err ce = {0, 0};
	char val[300];

	for (int s = 1; s < NSIG; s++)
		if (s != SIGKILL && s != SIGSTOP)
			signal(s, SIG_DFL);
	sigprocmask(SIG_SETMASK, oldmask, NULL);
	if (x->cg.active && !x->cg.scope) {
		struct child_err cgerr = {STEP_CGROUP, 0};
		int e = app_cgroup_enter(&x->cg);

		if (e) {
			cgerr.err = -e;
			if (write(errfd, &cgerr, sizeof(cgerr)) < 0) {
				/* the parent then follows an empty cgroup: it ends at once */
			}
		}
	}
	if (x->have_cpus) {
		int e;

		cpulist_format(&x->cpus, val, sizeof(val));
		e = thread_knob_apply(0, "affinity", val);
		if (e) {
			ce.step = STEP_AFFINITY;
			ce.err = -e;
		}
	}
	if (!ce.step && x->policy >= 0) {
		int e;

		snprintf(val, sizeof(val), "%s:%d", x->policy == SCHED_FIFO ? "fifo" : "rr",
			 x->prio);
		e = thread_knob_apply(0, "policy", val);
		if (e) {
			ce.step = STEP_SCHED;
			ce.err = -e;
		}
	}
	if (!ce.step && x->have_nice) {
		int e;

		snprintf(val, sizeof(val), "%d", x->nice);
		e = thread_knob_apply(0, "nice", val);
		if (e) {
			ce.step = STEP_NICE;
			ce.err = -e;
		}
	}
	if (!ce.step) {
		char *const *argv = x->run_argv ? x->run_argv : x->cmd;

		execvp(argv[0], argv);
		ce.step = STEP_EXEC;
		ce.err = errno;
	}
	if (write(errfd, &ce, sizeof(ce)) < 0) {
		/* the parent sees EOF and reports a generic failure */
	}
	_exit(ce.step == STEP_EXEC ? (ce.err == ENOENT ? 127 : 126) : 127);
}

static void report_child_err(const struct exec_opts *x, const struct child_err *ce)
{
	char why[384], val[64];

	switch (ce->step) {
	case STEP_AFFINITY:
		thread_knob_why(0, "affinity", x->cpus_text, -ce->err, why, sizeof(why));
		cmd_error("exec", 0, "--cpus %s: %s from sched_setaffinity%s%s", x->cpus_text,
			  err_name(ce->err), why[0] ? ": " : "", why);
		break;
	case STEP_SCHED:
		snprintf(val, sizeof(val), "%s:%d", x->policy == SCHED_FIFO ? "fifo" : "rr",
			 x->prio);
		thread_knob_why(0, "policy", val, -ce->err, why, sizeof(why));
		cmd_error("exec", 0, "--%s %d: %s from sched_setscheduler%s%s",
			  x->policy == SCHED_FIFO ? "fifo" : "rr", x->prio, err_name(ce->err),
			  why[0] ? ": " : "", why);
		break;
	case STEP_NICE:
		snprintf(val, sizeof(val), "%d", x->nice);
		thread_knob_why(0, "nice", val, -ce->err, why, sizeof(why));
		cmd_error("exec", 0, "--nice %d: %s from setpriority%s%s", x->nice,
			  err_name(ce->err), why[0] ? ": " : "", why);
		break;
	case STEP_EXEC: cmd_error("exec", 0, "%s: %s", x->cmd[0], err_name(ce->err)); break;
	default: break;
	}
}

static bool check_cpus_online(const struct exec_opts *x)
{
	char buf[4096];
	struct cpumask online, extra;

	if (!x->have_cpus)
		return true;
	/* affinity acts on the live kernel, whatever --root says */
	if (sysfs_read_str(sysroot_live(), "sys/devices/system/cpu/online", buf, sizeof(buf)) !=
		    0 ||
	    cpulist_parse(buf, &online) != 0)
		return true;
	extra = x->cpus;
	cpumask_andnot(&extra, &online);
	if (!cpumask_empty(&extra)) {
		char list[256];

		cpulist_format(&extra, list, sizeof(list));
		cmd_error("exec", 0, "--cpus %s: CPU %s not online on this machine (online: %s)",
			  x->cpus_text, list, str_trim(buf));
		return false;
	}
	return true;
}

/* reasserted: --hold=reassert wrote values back during the run. Each write
 * back is a change of this run on a knob the run changed already: the
 * restore folds it into the run's first change of that knob and writes the
 * value from before the run directly. Only a value changed outside again
 * after the last write back needs the second, forced pass. Without
 * reassert, a value someone else set is left to them, and the entry is
 * recorded as kept (KNOB_KEEP_CHANGED): left on purpose, not an orphan. */
static int restore_reasserted(struct knob_ctx *ctx, const struct exec_opts *x, struct sbuf *rep,
			      bool reasserted)
{
	char *cause = NULL;
	int e = knob_restore_run(ctx, knob_ctx_run_id(ctx), reasserted ? 0 : KNOB_KEEP_CHANGED, rep,
				 &cause);

	if (e && reasserted) {
		sbuf_printf(rep, "restoring the values from before the run over the ones found "
				 "when they were reasserted (--hold=reassert)\n");
		free(cause);
		cause = NULL;
		e = knob_restore_run(ctx, knob_ctx_run_id(ctx), KNOB_FORCE, rep, &cause);
	}
	say(x, rep);
	if (e) {
		knob_print_cause("exec", cause);
		cmd_error("exec", 0,
			  "some values could not be restored; see 'tunetop journal' and 'tunetop "
			  "restore'");
	}
	free(cause);
	return e;
}

static int restore_own(struct knob_ctx *ctx, const struct exec_opts *x, struct sbuf *rep)
{
	return restore_reasserted(ctx, x, rep, false);
}

/* ---- cmd_exec in steps: apply the knobs (one transaction), start CMD with
 * its own scheduling, wait forwarding signals, report the effect, restore */

static void block_signals(sigset_t *set, sigset_t *old)
{
	/* we wait for CMD through SIGCHLD: an inherited "ignore" would make the
	 * kernel reap it behind our back */
	signal(SIGCHLD, SIG_DFL);
	/* from here on a SIGTERM waits until it can be handled safely */
	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGHUP);
	sigaddset(set, SIGQUIT);
	sigaddset(set, SIGCHLD);
	sigprocmask(SIG_BLOCK, set, old);
}

/* The profiles' assignments, then the command line's, as one transaction.
 * Returns an exit code when a profile cannot be loaded (nothing applied),
 * else 0 with *err = knob_set_many's result. */
static int apply_knobs(struct knob_ctx *ctx, const struct sysroot *root, const struct exec_opts *x,
		       struct sbuf *rep, int *err, struct knob_hold **hold)
{
	struct knob_profile *profs = xcalloc(x->nprof ? x->nprof : 1, sizeof(*profs));
	const char **assign, **labels;
	char *cause = NULL;
	size_t na = 0;
	int rc;

	for (size_t i = 0; i < x->nprof; i++) {
		rc = knob_cmd_load_profile("exec", x->profiles[i], root, x->force, &profs[i]);
		if (rc) {
			for (size_t k = 0; k < i; k++)
				knob_profile_free(&profs[k]);
			free(profs);
			return rc;
		}
		na += profs[i].n;
	}
	na += x->nassign;
	assign = xcalloc(na ? na : 1, sizeof(char *));
	labels = xcalloc(na ? na : 1, sizeof(char *));
	na = 0;
	for (size_t i = 0; i < x->nprof; i++)
		for (size_t k = 0; k < profs[i].n; k++) {
			assign[na] = profs[i].assign[k];
			labels[na++] = profs[i].label[k];
		}
	for (size_t i = 0; i < x->nassign; i++) {
		assign[na] = x->assign[i];
		labels[na++] = x->label[i];
	}
	*err = 0;
	if (na)
		*err = knob_set_many(ctx, assign, labels, na,
				     KNOB_ALLOW_LEASE | KNOB_EMPTY_OK | KNOB_SCOPED |
					     (x->dry ? KNOB_DRY_RUN : 0),
				     rep, &cause);
	if (!*err) {
		knob_hold_offline_notes(ctx, assign, na,
					x->hold != KNOB_HOLD_OFF && !x->dry
						? "applied if it comes online while CMD runs"
						: NULL,
					rep);
		if (!x->dry)
			*hold = knob_hold_begin(ctx, assign, na, x->hold);
	}
	say(x, rep);
	if (*err)
		knob_print_cause("exec", cause);
	free(cause);
	for (size_t i = 0; i < x->nprof; i++)
		knob_profile_free(&profs[i]);
	free(profs);
	free(assign);
	free(labels);
	return 0;
}

/* A signal that arrived while applying (0: none): then CMD is not started. */
static int signal_pending(const sigset_t *set)
{
	struct timespec zero = {0, 0};
	siginfo_t si;
	int s = sigtimedwait(set, &si, &zero);

	return s > 0 && s != SIGCHLD ? s : 0;
}

/* Fork CMD (child_setup applies --cpus/--fifo/--rr/--nice and execs it) and
 * wait until it runs. 0 when it does; else an exit code, after restoring. */
static int start_cmd(struct knob_ctx *ctx, struct exec_opts *x, struct sbuf *rep,
		     const sigset_t *old, pid_t *child)
{
	struct child_err ce = {0, 0};
	int pipefd[2], status = 0, outfd[2] = {-1, -1};
	ssize_t k;

	if (x->metric && pipe2(outfd, O_CLOEXEC) != 0) {
		cmd_error("exec", -errno, "pipe");
		restore_own(ctx, x, rep);
		return 1;
	}
	if (pipe2(pipefd, O_CLOEXEC) != 0) {
		cmd_error("exec", -errno, "pipe");
		restore_own(ctx, x, rep);
		return 1;
	}
	fflush(NULL);
	*child = fork();
	if (*child < 0) {
		cmd_error("exec", -errno, "fork");
		close(pipefd[0]);
		close(pipefd[1]);
		if (outfd[0] >= 0) {
			close(outfd[0]);
			close(outfd[1]);
		}
		restore_own(ctx, x, rep);
		return 1;
	}
	if (*child == 0) {
		close(pipefd[0]);
		if (outfd[1] >= 0 && dup2(outfd[1], STDOUT_FILENO) < 0)
			_exit(127);
		child_setup(x, pipefd[1], old);
	}
	close(pipefd[1]);
	if (outfd[1] >= 0) {
		close(outfd[1]);
		fcntl(outfd[0], F_SETFL, fcntl(outfd[0], F_GETFL) | O_NONBLOCK);
		x->out_fd = outfd[0];
	}
	for (;;) {
		do
			k = read(pipefd[0], &ce, sizeof(ce));
		while (k < 0 && errno == EINTR);
		if (k != (ssize_t)sizeof(ce) || ce.step != STEP_CGROUP)
			break;
		cmd_note("exec", "warning: cannot move %s into %s: %s; following %s alone",
			 x->cmd[0], x->cg.dir, err_name(ce.err), x->cmd[0]);
		app_cgroup_remove(&x->cg);
	}
	close(pipefd[0]);
	if (k == (ssize_t)sizeof(ce) && ce.step) {
		report_child_err(x, &ce);
		waitpid(*child, &status, 0);
		restore_own(ctx, x, rep);
		return ce.step == STEP_EXEC ? (ce.err == ENOENT ? 127 : 126) : 1;
	}
	return 0;
}

/* What the run waits for: CMD, then its cgroup or the process a pid file
 * names. */
struct follow {
	pid_t child;
	bool child_done;
	int status;
	bool told; /* "CMD exited; holding while ..." said */
	/* --pidfile: the process followed (only CMD or one of its descendants,
	 * app_pid_ours), through a pidfd where the kernel has them, so that a
	 * signal never reaches a process that took over a reused pid */
	int fpid;
	int pidfd;	       /* -1: none (or no pidfd_open: then fstart) */
	uint64_t fstart;       /* its start time */
	int refused;	       /* the last pid refused (said once) */
	uint64_t grace_end_ns; /* after CMD exits: how long the file may take */
};

#define FOLLOW_TICK_MS	 200
#define HOLD_EVERY_MS	 1000
#define PIDFILE_GRACE_NS (5ull * 1000 * 1000 * 1000)
#define PIDFILE_MAX	 64

/* The pid the file names (0: none). */
static int pidfile_pid(const char *path)
{
	char *text = NULL;
	int pid = 0;

	if (userfile_read(path, 0, PIDFILE_MAX, &text, NULL) != 0)
		return 0;
	if (str_to_int(str_trim(text), &pid) != 0 || pid <= 0)
		pid = 0;
	free(text);
	return pid;
}

static int pidfd_of(int pid)
{
#ifdef SYS_pidfd_open
	return (int)syscall(SYS_pidfd_open, pid, 0);
#else
	(void)pid;
	errno = ENOSYS;
	return -1;
#endif
}

static int pidfd_signal(int fd, int sig)
{
#ifdef SYS_pidfd_send_signal
	return (int)syscall(SYS_pidfd_send_signal, fd, sig, NULL, 0);
#else
	(void)fd;
	(void)sig;
	errno = ENOSYS;
	return -1;
#endif
}

/* Does the followed process still run (not exited, not a zombie)? */
static bool followed_runs(const struct follow *f)
{
	char state;
	uint64_t st;

	if (!f->fpid)
		return false;
	if (f->pidfd >= 0) {
		struct pollfd p = {.fd = f->pidfd, .events = POLLIN};

		/* a pidfd turns readable when its process exits */
		return poll(&p, 1, 0) == 0;
	}
	return knob_pid_stat(f->fpid, &state, &st, NULL) == 0 && st == f->fstart && state != 'Z' &&
	       state != 'X';
}

static void unfollow(struct follow *f)
{
	if (f->pidfd >= 0)
		close(f->pidfd);
	f->pidfd = -1;
	f->fpid = 0;
	f->fstart = 0;
}

/* Is the followed process (still) CMD's? Checked after every re-read of the
 * file and right before every signal: its uid may have changed. The pidfd
 * is looked at after /proc, so the /proc files read were its own. */
static bool followed_ours(const struct exec_opts *x, struct follow *f)
{
	unsigned uid;
	int e = app_pid_ours(f->fpid, &uid);

	if (!e && f->pidfd >= 0 && pidfd_signal(f->pidfd, 0) != 0)
		e = -ESRCH;
	if (!e && f->pidfd < 0 && knob_pid_starttime(f->fpid) != f->fstart)
		e = -ESRCH;
	if (e == -ESRCH)
		return followed_runs(f);
	if (e) {
		if (f->refused != f->fpid) {
			if (e == -EPERM)
				cmd_error("exec", 0,
					  "pidfile %s names pid %d, which runs as uid %u, not as "
					  "%s (uid %u): not followed",
					  x->pidfile, f->fpid, uid, x->cmd[0], (unsigned)getuid());
			else
				cmd_error("exec", 0,
					  "pidfile %s names pid %d, which is not %s or one of its "
					  "descendants: not followed",
					  x->pidfile, f->fpid, x->cmd[0]);
		}
		f->refused = f->fpid;
		unfollow(f);
		return false;
	}
	return true;
}

/* The pid the file names now: followed when it is CMD's, else refused
 * (one line per pid) and CMD alone is followed. */
static void pidfile_update(const struct exec_opts *x, struct follow *f)
{
	int pid = pidfile_pid(x->pidfile);

	if (pid && pid != f->fpid && pid != f->refused) {
		unfollow(f);
		f->fpid = pid;
		f->pidfd = pidfd_of(pid);
		if (f->pidfd < 0 && errno != ENOSYS) {
			f->fpid = 0; /* no such process (yet) */
			return;
		}
		f->fstart = knob_pid_starttime(pid);
		if (!f->fstart) {
			unfollow(f);
			return;
		}
		if (followed_ours(x, f) && !x->quiet)
			cmd_note("exec", "%s: following pid %d", x->pidfile, pid);
		return;
	}
	if (f->fpid)
		followed_ours(x, f);
}

/* Is the run over? Re-reads the pid file (its pid may change). */
static bool follow_done(struct exec_opts *x, struct follow *f)
{
	if (x->cg.active) {
		int p = app_cgroup_populated(&x->cg);

		return f->child_done && p <= 0;
	}
	if (x->pidfile) {
		pidfile_update(x, f);
		if (f->fpid && followed_runs(f))
			return false;
		if (!f->child_done)
			return false;
		if (f->fpid)
			return true; /* the process it named is gone */
		if (!f->grace_end_ns)
			f->grace_end_ns = time_mono_ns() + PIDFILE_GRACE_NS;
		if (time_mono_ns() < f->grace_end_ns)
			return false;
		cmd_error("exec", 0,
			  "%s names no running process of %s 5 s after it exited; ending",
			  x->pidfile, x->cmd[0]);
		return true;
	}
	return f->child_done;
}

static void forward(struct exec_opts *x, struct follow *f, int s, const siginfo_t *si)
{
	/* the terminal already sent it to CMD's process group */
	bool tty = si->si_code == SI_KERNEL;

	if (!f->child_done && !(tty && getpgid(f->child) == getpgrp()))
		kill(f->child, s);
	if (!f->child_done)
		return;
	if (x->cg.active)
		app_cgroup_kill(&x->cg, s, tty ? getpgrp() : 0);
	else if (f->fpid && followed_ours(x, f) && followed_runs(f)) {
		if (f->pidfd >= 0)
			pidfd_signal(f->pidfd, s);
		else
			kill(f->fpid, s);
	}
}

/* --pidfile: tunetop exec is the subreaper of CMD's descendants; those that
 * end are reaped here (CMD's status kept), or they would stay zombies. */
static void reap(struct exec_opts *x, struct follow *f)
{
	int st;
	pid_t p;

	if (!x->pidfile) {
		if (!f->child_done && waitpid(f->child, &f->status, WNOHANG) == f->child)
			f->child_done = true;
		return;
	}
	while ((p = waitpid(-1, &st, WNOHANG)) > 0)
		if (p == f->child) {
			f->status = st;
			f->child_done = true;
		}
}

/* CMD ended without ever being seen in its scope: systemd-run failed
 * before it could exec CMD (its own message said why), or CMD was gone
 * before the first look. Nothing more to follow. */
static void scope_missed(struct exec_opts *x, struct follow *f)
{
	if (!x->cg.scope || x->cg.dir[0] || x->cg.scope_failed)
		return;
	x->cg.scope_failed = true;
	cmd_note("exec",
		 "warning: %s ended before it was seen in the systemd scope %s (%s, status %d): "
		 "nothing left to follow; TUNETOP_SYSTEMD_RUN=no runs without a scope",
		 x->cmd[0], x->cg.unit, x->cg.runner,
		 WIFEXITED(f->status) ? WEXITSTATUS(f->status) : 128 + WTERMSIG(f->status));
}

static void say_always(struct sbuf *b)
{
	knob_print_cause("exec", b->s ? b->s : "");
	sbuf_reset(b);
}

/* Wait for CMD and what it leaves running, forwarding signals and holding
 * the knobs; CMD's exit code (128 + signal). */
static int wait_cmd(struct knob_ctx *ctx, struct exec_opts *x, pid_t child, const sigset_t *set,
		    struct knob_hold *hold)
{
	struct follow f = {.child = child, .pidfd = -1};
	struct sbuf lines;
	uint64_t next_hold = time_mono_ns() + HOLD_EVERY_MS * 1000000ull;

	sbuf_init(&lines);
	for (;;) {
		struct timespec ts = {0, FOLLOW_TICK_MS * 1000 * 1000};
		siginfo_t si;
		int s;

		if (x->out_fd >= 0) {
			/* CMD's output as it comes; signals are looked at in between */
			struct pollfd pfd = {.fd = x->out_fd, .events = POLLIN};

			if (poll(&pfd, 1, FOLLOW_TICK_MS) > 0)
				metric_read(x);
			ts.tv_nsec = 0;
		}
		s = sigtimedwait(set, &si, &ts);

		if (s > 0 && s != SIGCHLD)
			forward(x, &f, s, &si);
		/* before the reaping: a zombie still names its scope */
		if (!f.child_done && x->cg.scope)
			app_cgroup_locate(&x->cg, child);
		if (!f.child_done) {
			reap(x, &f);
			if (f.child_done)
				scope_missed(x, &f);
		} else if (x->pidfile) {
			reap(x, &f);
		}
		if (follow_done(x, &f))
			break;
		if (f.child_done && !f.told) {
			f.told = true;
			if (!x->quiet)
				cmd_note("exec", "%s exited; holding while %s%s", x->cmd[0],
					 x->cg.scope	? "processes remain in its scope "
					 : x->cg.active ? "processes remain in its cgroup"
							: "the process of the pid file runs",
					 x->cg.scope ? x->cg.unit : "");
		}
		if (hold && time_mono_ns() >= next_hold) {
			knob_hold_check(ctx, hold, &lines);
			say_always(&lines);
			next_hold = time_mono_ns() + HOLD_EVERY_MS * 1000000ull;
		}
	}
	if (!f.child_done)
		waitpid(child, &f.status, 0);
	unfollow(&f);
	if (x->metric) {
		metric_read(x); /* what is left in the pipe */
		if (x->npart) { /* a partial line whose writer lives on: passed on as is */
			pass_on(x, x->part, x->npart);
			x->npart = 0;
		}
		metric_report(x);
	}
	sbuf_free(&lines);
	return WIFEXITED(f.status)     ? WEXITSTATUS(f.status)
	       : WIFSIGNALED(f.status) ? 128 + WTERMSIG(f.status)
				       : 1;
}

/* Only what was not in effect, and even with -q: the run measured a board
 * that did not obey. */
static void report_effect(struct knob_ctx *ctx, struct knob_effect_watch *watch,
			  struct exec_opts *x)
{
	struct sbuf wr;
	bool q = x->quiet;

	sbuf_init(&wr);
	knob_effect_end(ctx, watch, KNOB_QUIET | KNOB_EFFECT_NO_RECORD, &wr);
	knob_effect_free(watch);
	x->quiet = false;
	say(x, &wr);
	x->quiet = q;
	sbuf_free(&wr);
}

static int exec_done(struct exec_opts *x, struct sbuf *rep, int rc)
{
	if (x->cg.active) {
		char dir[sizeof(x->cg.dir)];
		int e;

		str_copy(dir, sizeof(dir), x->cg.dir);
		e = app_cgroup_remove(&x->cg);
		if (e)
			cmd_error("exec", e, "cannot remove %s", dir);
	}
	knob_hold_free(x->held);
	free_opts(x); /* the runner closes the engine and the root */
	sbuf_free(rep);
	return rc;
}

int cmd_exec(struct cmd_ctx *cx, int argc, char **argv)
{
	struct exec_opts x;
	struct sysroot *root = &cx->root;
	struct knob_ctx *ctx;
	struct sbuf rep;
	sigset_t set, old;
	int e = 0, rc, pending_sig;
	pid_t child;
	struct knob_effect_watch *watch = NULL;

	rc = parse(argc, argv, &x);
	if (rc) {
		free_opts(&x);
		return rc;
	}
	if (!check_cpus_online(&x)) {
		free_opts(&x);
		return 2;
	}
	block_signals(&set, &old);
	if (cmd_setup(cx, x.dry ? KNOB_READONLY_OK : 0)) {
		free_opts(&x);
		return 1;
	}
	ctx = cx->knob;
	sbuf_init(&rep);
	rc = apply_knobs(ctx, root, &x, &rep, &e, &x.held);
	if (rc)
		return exec_done(&x, &rep, rc);
	if (e || x.dry) {
		if (x.dry && !e) {
			fprintf(stderr, "tunetop exec: would run:");
			for (char **a = x.cmd; *a; a++)
				fprintf(stderr, " %s", *a);
			fprintf(stderr, "\n");
		}
		return exec_done(&x, &rep, knob_exit_code(e));
	}
	pending_sig = signal_pending(&set);
	if (pending_sig) {
		cmd_error("exec", 0, "got %s before starting %s; restoring", strsignal(pending_sig),
			  x.cmd[0]);
		restore_own(ctx, &x, &rep);
		return exec_done(&x, &rep, 128 + pending_sig);
	}
	if (!x.no_follow && !x.pidfile) {
		char why[512];

		if (app_cgroup_create(&x.cg, why, sizeof(why)) != 0)
			cmd_note("exec",
				 "warning: no cgroup of its own for %s (%s): the lock ends when %s "
				 "itself exits (as with --no-follow)",
				 x.cmd[0], why, x.cmd[0]);
		x.run_argv = app_cgroup_argv(&x.cg, x.cmd);
	}
	/* what CMD leaves behind stays below us: only that may be followed */
	if (x.pidfile && prctl(PR_SET_CHILD_SUBREAPER, 1) != 0)
		cmd_note("exec",
			 "warning: cannot become the subreaper of %s (%s): a process it leaves "
			 "behind cannot be followed",
			 x.cmd[0], err_name(errno));
	rc = start_cmd(ctx, &x, &rep, &old, &child);
	if (rc)
		return exec_done(&x, &rep, rc);
	/* is the kernel obeying while CMD runs? (knob.h "effect") */
	if (knob_effect_default_ms())
		watch = knob_effect_begin(ctx);
	rc = wait_cmd(ctx, &x, child, &set, x.hold != KNOB_HOLD_OFF ? x.held : NULL);
	if (watch)
		report_effect(ctx, watch, &x);
	/* the summary even with -q when something was changed behind our back */
	if (x.held && x.hold != KNOB_HOLD_OFF) {
		knob_hold_summary(x.held, &rep);
		if (knob_hold_outside(x.held))
			say_always(&rep);
		else
			say(&x, &rep);
	}
	if (restore_reasserted(ctx, &x, &rep, knob_hold_reasserted(x.held) > 0) != 0 && rc == 0)
		rc = 1;
	return exec_done(&x, &rep, rc);
}
