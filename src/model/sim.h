/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The board simulator behind `tunetop --demo` (design §4): unpacks the
 * bundled RK3588 fixture (a ustar archive built from tests/fixtures/rk3588)
 * into a private temporary root, then advances its counters once per tick
 * and reacts to the knob files written there by the knob engine:
 *
 *  - a synthetic per-CPU load (slow waves plus bursts) drives /proc/stat;
 *  - scaling_cur_freq follows each policy's governor and its min/max limits
 *    (performance -> max, powersave -> min, load-driven governors -> the
 *    lowest OPP above load * 1.25 of the range), with time_in_state,
 *    total_trans and trans_table kept consistent;
 *  - idle residency follows utilisation and is shared among the *enabled*
 *    states of each CPU (a disabled state stops accumulating time and usage);
 *  - devfreq cur_freq follows its governor and min/max, trans_stat and load
 *    are rewritten in the kernel's format;
 *  - zone temperatures follow frequency and load with a first-order lag;
 *  - a simulated RT task on the last CPU periodically asks for 97% of the
 *    CPU: rt_throttled shows up in the scheduler debug file whenever that
 *    exceeds sched_rt_runtime_us / sched_rt_period_us;
 *  - debugfs clock rates follow the devfreq devices of the same kind, and a
 *    dev/cpu_dma_latency file stands in for the PM QoS device.
 *
 * Layout of the temporary directory: root/ (the board) and state/ (the
 * demo's own journal).
 *
 * The simulator only writes files under its own root, through sysfs/. It
 * is not part of the UI (no curses); the UI calls sim_step() before each
 * sample. */
#ifndef TT_MODEL_SIM_H
#define TT_MODEL_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sim;
struct sysroot;

/* What `tunetop --demo` (and every fallback to the simulated board) says,
 * after "tunetop: ", in a build configured with --disable-demo. */
#define SIM_NOT_BUILT "built without the simulated board (--disable-demo)"

/* false in a build configured with --disable-demo: no bundle is built or
 * installed, and sim_find_bundle() fails with -ENOTSUP. */
bool sim_built(void);

/* Find the demo bundle: $TUNETOP_DEMO (a .tar), next to the executable
 * (rk3588-demo.tar in the build directory), then TT_PKGDATADIR/demo.
 * 0, -ENOENT, or -ENOTSUP when !sim_built(); buf receives the path. */
int sim_find_bundle(char *buf, size_t cap);
/* The same for another board's bundle (a world's, "rpi4-demo.tar"): next to
 * the executable, then TT_PKGDATADIR/demo; with $TUNETOP_DEMO set, in its
 * directory. */
#define SIM_BUNDLE "rk3588-demo.tar"
int sim_find_bundle_file(const char *file, char *buf, size_t cap);
/* Unpack `bundle` into a new temporary directory ($TMPDIR or /tmp) and load
 * the initial state. 0 or -errno; err (may be NULL) receives a one-line
 * reason. */
int sim_open(struct sim **out, const char *bundle, char *err, size_t cap);
/* Attach to a board tree that was unpacked before (a world, world.h): the
 * state is read from its files as sim_open does; sim_close leaves the tree
 * where it is. 0 or -errno with a one-line reason in err. */
int sim_attach(struct sim **out, const char *dir, char *err, size_t cap);
/* The simulated root, opened (the simulator's own writes go through it). */
const struct sysroot *sim_sysroot(const struct sim *s);
/* A thermal limit on one cpufreq policy ("policy4"), as a cooling device
 * sets it: the governors' choice never goes above khz (0 lifts it).
 * 0 or -ENOENT. */
int sim_set_cap_khz(struct sim *s, const char *policy, uint64_t khz);
/* The load of the devfreq devices of one kind (0 DDR, 1 NPU, 2 GPU, 3
 * other), 0..1, that their load-driven governors follow; NAN gives back
 * the simulator's own pattern. */
void sim_set_dev_load(struct sim *s, int kind, double load);
/* Absolute path of the simulated root (use it as --root). */
const char *sim_root(const struct sim *s);
/* A private journal directory (mode 0700) next to the root, so that a demo
 * never mixes its changes into the machine's journal. */
const char *sim_state_dir(const struct sim *s);
/* Another journal directory (a world in a temporary directory of its own). */
void sim_set_state_dir(struct sim *s, const char *dir);
/* Board label for banners ("RK3588"). */
const char *sim_board(const struct sim *s);
/* Another board's label (a world's board, "STM32MP157"); NULL: RK3588. */
void sim_set_board(struct sim *s, const char *board);
/* Advance the simulated board by dt_s seconds. */
void sim_step(struct sim *s, double dt_s);
/* The governors only: each cpufreq policy and devfreq device moves to the
 * OPP its governor and limits choose now (a knob just written), its
 * cur_freq written when it moved; no time passes and no counter is written
 * (cheap: a world calls it many times a second between sim_step()s). */
void sim_settle(struct sim *s);
/* A quiet board (lesson 1): every CPU nearly idle, no bursts and no RT
 * task, as when the thread that matters blocks in a device ioctl; false
 * brings the synthetic load back. */
void sim_set_quiet(struct sim *s, bool quiet);
/* Simulated seconds since sim_open (the load and RT-task cycles follow it). */
double sim_time(const struct sim *s);
/* Remove the temporary root and free. NULL is fine. */
void sim_close(struct sim *s);

/* Unpack a ustar archive into dir, dropping the first path component
 * ("rk3588/sys/..." -> "sys/..."). Regular files, directories and symlinks
 * only; absolute names, ".", ".." or empty components and names below a
 * symlink of the archive are refused. 0 or -errno. */
int sim_untar(const char *tar_path, const char *dir);

/* One member of a ustar archive, as sim_tar_walk() hands it over. */
struct sim_tar_entry {
	const char *rel;  /* name without its first component, no trailing '/' */
	char type;	  /* '0' or '\0' file, '5' directory, '2' symlink, others as found */
	const char *link; /* symlink target */
	const char *data; /* regular file: its bytes (inside the archive), else NULL */
	size_t size;
};
/* The parser behind sim_untar, over an archive in memory: calls fn for each
 * member whose name is not empty once the first component is dropped, in
 * archive order, stopping at fn's first error. No I/O. 0, -EINVAL (bad
 * header or unsafe name), -EIO (a file's data cut off) or fn's error. */
int sim_tar_walk(const void *buf, size_t len, int (*fn)(const struct sim_tar_entry *e, void *ctx),
		 void *ctx);
/* rm -r that never follows symlinks. 0 or -errno. */
int sim_rmtree(const char *dir);

#endif
