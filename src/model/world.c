/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The world table and what every world shares (see world.h): unpacking a
 * world into a directory, its marker (name and state between commands),
 * attaching, stepping the simulator and the model together, the seeded
 * generator and the application's log. The models themselves are in
 * world_<name>.c, the table in world_table.c. */
#include "model/world.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/str.h"
#include "core/xalloc.h"
#include "model/sim.h"
#include "model/world_wm.h"
#include "model/worldmodel.h"
#include "sysfs/sysroot.h"

#define WORLD_DEFAULT_SEED 0x5eed35ULL
#define WORLD_TICK_S	   0.1
#define WORLD_SIM_TICK_S   1.0

struct world {
	const struct world_def *def;
	struct sim *sim;
	char dir[PATH_MAX];
	char tmpdir[PATH_MAX]; /* world_open_temp: removed on close */
	uint64_t seed, frames;
	struct wm_rng rng; /* the one generator: world_rand and the models */
	double t_s, next_frame_s;
	double sim_due_s; /* simulated time not yet given to sim_step */
	int64_t wall_ns;  /* CLOCK_REALTIME of the last step */
	double state[WORLD_NSTATE];
	int logfd;
	uint64_t gen; /* world_gen */
	void *cache;  /* world_cache */
};

uint64_t world_default_seed(void)
{
	const char *e = getenv("TUNETOP_WORLD_SEED");
	uint64_t v;

	if (e && *e && str_to_u64(e, &v) == 0 && v)
		return v;
	return WORLD_DEFAULT_SEED;
}

static int64_t wall_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

double world_rand(struct world *w)
{
	return wm_rng_uniform(&w->rng);
}

struct wm_rng *world_rng(struct world *w)
{
	return &w->rng;
}

double *world_state(struct world *w)
{
	return w->state;
}

double *world_next_frame(struct world *w)
{
	return &w->next_frame_s;
}

const struct world_def *world_def_of(const struct world *w)
{
	return w->def;
}

struct sim *world_sim(struct world *w)
{
	return w->sim;
}

const char *world_root(const struct world *w)
{
	return w->dir;
}

void *world_cache(struct world *w, size_t size)
{
	if (!w->cache)
		w->cache = xcalloc(1, size);
	return w->cache;
}

uint64_t world_gen(const struct world *w)
{
	return w->gen;
}

void world_invalidate(struct world *w)
{
	w->gen++;
}

double world_time(const struct world *w)
{
	return w->t_s;
}

uint64_t world_frames(const struct world *w)
{
	return w->frames;
}

bool world_present(const struct sysroot *root)
{
	return !root->live && sysfs_exists(root, WORLD_MARKER);
}

int world_log(struct world *w, const char *line)
{
	size_t len = strlen(line);
	char *buf;
	ssize_t k;

	if (w->logfd < 0) {
		w->logfd = sysfs_open(sim_sysroot(w->sim), w->def->log,
				      O_WRONLY | O_APPEND | O_CLOEXEC);
		if (w->logfd < 0)
			return w->logfd;
	}
	buf = xasprintf("%s\n", line);
	k = write(w->logfd, buf, len + 1);
	free(buf);
	if (k == (ssize_t)(len + 1))
		w->frames++;
	return k == (ssize_t)(len + 1) ? 0 : -EIO;
}

int world_save(struct world *w)
{
	struct sbuf b;
	int e;

	sbuf_init(&b);
	sbuf_printf(&b,
		    "world %s\n"
		    "# SIMULATED: a world of tunetop (tunetop world, doc/teach.md \"Worlds\")\n"
		    "seed %llu\nrng %llu\ntime_s %.6f\nnext_frame_s %.6f\nwall_ns %lld\n"
		    "frames %llu\n",
		    w->def->name, (unsigned long long)w->seed, (unsigned long long)w->rng.s, w->t_s,
		    w->next_frame_s, (long long)w->wall_ns, (unsigned long long)w->frames);
	for (size_t i = 0; i < WORLD_NSTATE; i++)
		sbuf_printf(&b, "state%zu %.9g\n", i, w->state[i]);
	e = sysfs_write(sim_sysroot(w->sim), WORLD_MARKER, b.s, b.len);
	sbuf_free(&b);
	return e;
}

/* Read the marker into w (name, state). 0 or -EINVAL with err. */
static int parse_marker(struct world *w, const char *text, char *err, size_t cap)
{
	const char *p = text;
	char name[64] = "";

	while (*p) {
		const char *nl = strchr(p, '\n');
		char line[256];
		unsigned long long u;
		long long ll;
		double d;
		size_t i;

		snprintf(line, sizeof(line), "%.*s", (int)(nl ? nl - p : (long)strlen(p)), p);
		p = nl ? nl + 1 : p + strlen(p);
		if (sscanf(line, "world %63s", name) == 1)
			continue;
		if (sscanf(line, "seed %llu", &u) == 1)
			w->seed = u;
		else if (sscanf(line, "rng %llu", &u) == 1)
			w->rng.s = u;
		else if (sscanf(line, "time_s %lf", &d) == 1)
			w->t_s = d;
		else if (sscanf(line, "next_frame_s %lf", &d) == 1)
			w->next_frame_s = d;
		else if (sscanf(line, "wall_ns %lld", &ll) == 1)
			w->wall_ns = ll;
		else if (sscanf(line, "frames %llu", &u) == 1)
			w->frames = u;
		else if (sscanf(line, "state%zu %lf", &i, &d) == 2 && i < WORLD_NSTATE)
			w->state[i] = d;
	}
	w->def = world_find(name);
	if (!w->def) {
		snprintf(err, cap,
			 "%s/%s: names no world of this tunetop ('%s'; see tunetop world --list)",
			 w->dir, WORLD_MARKER, name);
		return -EINVAL;
	}
	if (!w->rng.s)
		wm_rng_seed(&w->rng, w->seed ? w->seed : WORLD_DEFAULT_SEED);
	return 0;
}

int world_attach(const char *dir, struct world **out, char *err, size_t cap)
{
	struct world *w = xcalloc(1, sizeof(*w));
	struct sysroot r;
	char *text = NULL;
	int e;

	*out = NULL;
	w->logfd = -1;
	str_copy(w->dir, sizeof(w->dir), dir);
	e = sysroot_open(&r, dir);
	if (e) {
		snprintf(err, cap, "%s: %s", dir, strerror(-e));
		free(w);
		return e;
	}
	e = sysfs_read_alloc(&r, WORLD_MARKER, &text, NULL);
	sysroot_close(&r);
	if (e) {
		snprintf(err, cap, "%s/%s: %s", dir, WORLD_MARKER, strerror(-e));
		free(w);
		return e == -ENOENT ? -ENOENT : e;
	}
	e = parse_marker(w, text, err, cap);
	free(text);
	if (!e)
		e = sim_attach(&w->sim, dir, err, cap);
	if (e) {
		free(w);
		return e;
	}
	sim_set_board(w->sim, w->def->board);
	if (w->def->setup)
		w->def->setup(w);
	*out = w;
	return 0;
}

void world_step(struct world *w, double dt_s)
{
	w->gen++;
	while (dt_s > 1e-9) {
		double dt = dt_s > WORLD_TICK_S ? WORLD_TICK_S : dt_s;

		if (w->def->before_step)
			w->def->before_step(w, dt);
		/* the governors follow the knobs at once; the board's counters
		 * (sim_step: a hundred files) once per simulated second */
		w->sim_due_s += dt;
		if (w->sim_due_s >= WORLD_SIM_TICK_S) {
			sim_step(w->sim, w->sim_due_s);
			w->sim_due_s = 0;
		} else {
			sim_settle(w->sim);
		}
		w->t_s += dt;
		if (w->def->after_step)
			w->def->after_step(w, dt);
		dt_s -= dt;
	}
	w->wall_ns = wall_now_ns();
}

void world_catch_up(struct world *w, double max_s)
{
	int64_t now = wall_now_ns();
	double dt = w->wall_ns > 0 ? (double)(now - w->wall_ns) / 1e9 : 0;

	if (!(dt > 0))
		dt = 0;
	if (dt > max_s)
		dt = max_s;
	world_step(w, dt);
	w->wall_ns = now;
}

void world_close(struct world *w)
{
	if (!w)
		return;
	if (!w->tmpdir[0])
		world_save(w);
	if (w->logfd >= 0)
		close(w->logfd);
	sim_close(w->sim);
	free(w->cache);
	if (w->tmpdir[0])
		sim_rmtree(w->tmpdir);
	free(w);
}

/* dir must not exist, or be empty; it is created. */
static int make_empty_dir(const char *dir, char *err, size_t cap)
{
	struct stat st;

	if (mkdir(dir, 0755) == 0)
		return 0;
	if (errno != EEXIST || stat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || rmdir(dir) != 0 ||
	    mkdir(dir, 0755) != 0) {
		int e = errno == EEXIST || errno == ENOTEMPTY ? EEXIST : errno;

		snprintf(err, cap, "%s: %s", dir,
			 e == EEXIST ? "exists and is not an empty directory" : strerror(e));
		return -e;
	}
	return 0;
}

int world_unpack(const char *name, const char *dir, uint64_t seed, char *err, size_t cap)
{
	const struct world_def *d = world_find(name);
	char bundle[PATH_MAX], logdir[PATH_MAX + 64];
	struct world *w;
	struct sysroot r;
	int e;

	if (!d) {
		snprintf(err, cap, "no world '%s' (see tunetop world --list)", name);
		return -ENOENT;
	}
	e = sim_find_bundle_file(d->bundle, bundle, sizeof(bundle));
	if (e) {
		snprintf(err, cap, "%s: the board of world %s is not installed%s", d->bundle,
			 d->name, e == -ENOTSUP ? " (" SIM_NOT_BUILT ")" : "");
		return e;
	}
	e = make_empty_dir(dir, err, cap);
	if (e)
		return e;
	e = sim_untar(bundle, dir);
	if (e) {
		snprintf(err, cap, "%s: cannot unpack %s: %s", dir, bundle, strerror(-e));
		return e;
	}
	if (d->wm) { /* a model world: its files and threads (world_wm.h) */
		e = world_wm_unpack(d->wm, dir, err, cap);
		if (e)
			return e;
	}
	/* the application's log directory and file, then the marker */
	snprintf(logdir, sizeof(logdir), "%s/%s", dir, d->log);
	for (char *s = strchr(logdir + strlen(dir) + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		if (mkdir(logdir, 0755) != 0 && errno != EEXIST) {
			snprintf(err, cap, "%s: %s", logdir, strerror(errno));
			return -errno;
		}
		*s = '/';
	}
	/* the log and the marker are new files of the world, made here (the
	 * tree's writes replace files that exist) */
	for (int i = 0; i < 2; i++) {
		char path[PATH_MAX + 80];
		int fd;

		snprintf(path, sizeof(path), "%s/%s", dir, i ? WORLD_MARKER : d->log);
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
		if (fd < 0) {
			snprintf(err, cap, "%s: %s", path, strerror(errno));
			return -errno;
		}
		close(fd);
	}
	e = sysroot_open(&r, dir);
	if (!e) {
		e = 0;
		if (!e) {
			char *m =
				xasprintf("world %s\nseed %llu\n", d->name,
					  (unsigned long long)(seed ? seed : world_default_seed()));

			e = sysfs_write_str(&r, WORLD_MARKER, m);
			free(m);
		}
		sysroot_close(&r);
	}
	if (e) {
		snprintf(err, cap, "%s: %s", dir, strerror(-e));
		return e;
	}
	e = world_attach(dir, &w, err, cap);
	if (e)
		return e;
	world_step(w, 1.0); /* governors settle; the first frames */
	world_close(w);
	return 0;
}

int world_open_temp(const char *name, uint64_t seed, struct world **out, char *err, size_t cap)
{
	const char *tmp = getenv("TMPDIR");
	char tdir[PATH_MAX], dir[PATH_MAX + 8];
	int e;

	*out = NULL;
	snprintf(tdir, sizeof(tdir), "%s/tunetop-world.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(tdir)) {
		snprintf(err, cap, "%s: cannot create: %s", tdir, strerror(errno));
		return -errno;
	}
	snprintf(dir, sizeof(dir), "%s/root", tdir);
	e = world_unpack(name, dir, seed, err, cap);
	if (!e)
		e = world_attach(dir, out, err, cap);
	if (e) {
		sim_rmtree(tdir);
		return e;
	}
	str_copy((*out)->tmpdir, sizeof((*out)->tmpdir), tdir);
	snprintf(dir, sizeof(dir), "%s/state", tdir);
	if (mkdir(dir, 0700) == 0)
		sim_set_state_dir((*out)->sim, dir);
	return 0;
}
