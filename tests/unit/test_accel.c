/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The accelerator's side and power (issue 17): rknpu / devfreq load
 * parsers, accel_read on a tree; hwmon and RAPL power with wrap-around,
 * counter resets and garbage; the thread wait fields (wchan, syscall,
 * ioctl fd -> /dev/rknpu) on a proc tree; the npu-wait-low-opp finding on
 * the rk3588 fixture. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/err.h"
#include "core/json.h"
#include "core/str.h"
#include "core/xalloc.h"
#include "model/findings.h"
#include "model/snapshot.h"
#include "out/accel_out.h"
#include "source/accel.h"
#include "source/power.h"
#include "source/threads.h"
#include "sysfs/sysroot.h"
#include "tap.h"

static char tmpl[] = "/tmp/tt-accel-XXXXXX";

static void mkparents(char *buf, size_t from)
{
	for (char *p = buf + from; *p; p++) {
		if (*p == '/') {
			*p = '\0';
			mkdir(buf, 0755);
			*p = '/';
		}
	}
}

static void put(const char *rel, const char *text)
{
	char buf[1024];
	FILE *f;

	snprintf(buf, sizeof(buf), "%s/%s", tmpl, rel);
	mkparents(buf, strlen(tmpl) + 1);
	f = fopen(buf, "w");
	if (!f)
		tt_fatal("cannot write %s", buf);
	fputs(text, f);
	fclose(f);
}

static void link_to(const char *rel, const char *target)
{
	char buf[1024];

	snprintf(buf, sizeof(buf), "%s/%s", tmpl, rel);
	mkparents(buf, strlen(tmpl) + 1);
	unlink(buf);
	if (symlink(target, buf) != 0)
		tt_fatal("cannot link %s", buf);
}

static void test_parsers(void)
{
	int pct[8], n = -1;
	int64_t hz;
	long nr;
	unsigned long a0, a1;

	is_int(accel_parse_rknpu_load("NPU load:  Core0:  0%, Core1: 12%, Core2:100%,\n", pct, 8,
				      &n),
	       0, "rknpu load, RK3588 three cores");
	is_int(n, 3, "three cores");
	ok(pct[0] == 0 && pct[1] == 12 && pct[2] == 100, "per-core percentages");
	is_int(accel_parse_rknpu_load("NPU load:  37%\n", pct, 8, &n), 0, "one-core format");
	ok(n == 1 && pct[0] == 37, "one core 37%%");
	is_int(accel_parse_rknpu_load("NPU load:  Core0: xx%,", pct, 8, &n), -EINVAL,
	       "garbage percentage refused");
	is_int(accel_parse_rknpu_load("NPU load:  Core0: 170%,", pct, 8, &n), -EINVAL,
	       "over 100% refused");
	is_int(accel_parse_rknpu_load("", pct, 8, &n), -EINVAL, "empty refused");
	is_int(accel_parse_rknpu_load("NPU load:  Core0:  5", pct, 8, &n), -EINVAL,
	       "truncated refused");
	is_int(accel_parse_devfreq_load("47@200000000Hz\n", &n, &hz), 0, "devfreq load");
	ok(n == 47 && hz == 200000000, "47%% at 200 MHz");
	is_int(accel_parse_devfreq_load("47@", &n, &hz), -EINVAL, "truncated devfreq load");
	is_int(accel_parse_devfreq_load("abc", &n, &hz), -EINVAL, "garbage devfreq load");

	is_int(threads_ioctl_nr("aarch64"), 29, "ioctl on aarch64");
	is_int(threads_ioctl_nr("x86_64"), 16, "ioctl on x86_64");
	is_int(threads_ioctl_nr("armv7l"), 54, "ioctl on arm");
	is_int(threads_ioctl_nr("i686"), 54, "ioctl on i686");
	is_int(threads_ioctl_nr("riscv64"), 29, "ioctl on riscv64");
	is_int(threads_ioctl_nr("sparc64"), -1, "unknown arch");
	is_int(threads_parse_syscall("29 0x5 0xc0186b04 0xffffd2a8 0x0 0x0 0x0 0xffffd210 "
				     "0xffff8a4b0a8c\n",
				     &nr, &a0, &a1),
	       0, "syscall line");
	ok(nr == 29 && a0 == 5 && a1 == 0xc0186b04, "number, fd, request");
	is_int(threads_parse_syscall("running\n", &nr, &a0, &a1), -ENODATA, "running");
	is_int(threads_parse_syscall("-1 0x7ffd 0x4011\n", &nr, &a0, &a1), -ENODATA,
	       "blocked outside a syscall");
	is_int(threads_parse_syscall("zz 0x1", &nr, &a0, &a1), -EINVAL, "garbage syscall");
	is_str(threads_accel_node("/dev/rknpu"), "NPU", "rknpu is an NPU");
	is_str(threads_accel_node("/dev/accel/accel0"), "NPU", "accel is an NPU");
	is_str(threads_accel_node("/dev/galcore"), "NPU", "galcore");
	is_str(threads_accel_node("/dev/dri/renderD128"), "GPU", "render node is a GPU");
	is_str(threads_accel_node("/dev/mali0"), "GPU", "mali0");
	ok(threads_accel_node("/dev/null") == NULL, "/dev/null is no accelerator");
	ok(threads_accel_node("socket:[1234]") == NULL, "a socket is no accelerator");
}

static void test_energy_delta(void)
{
	uint64_t d = 0;

	is_int(power_energy_delta(100, 350, 0, &d), 0, "delta forward");
	is_int(d, 250, "250 uJ");
	is_int(power_energy_delta(262143328850ULL - 100, 400, 262143328850ULL, &d), 0,
	       "RAPL wrap across max_energy_range_uj");
	is_int(d, 500, "500 uJ across the wrap");
	is_int(power_energy_delta(1000, 10, 0, &d), -ERANGE, "backwards without a range: reset");
	is_int(power_energy_delta(5000, 10, 1000, &d), -ERANGE,
	       "backwards from above the range: reset");
}

static const struct power_sensor *find_sensor(const struct power_info *p, const char *name)
{
	for (size_t i = 0; i < p->n; i++)
		if (!strcmp(p->s[i].name, name))
			return &p->s[i];
	return NULL;
}

static void test_power_tree(void)
{
	struct sysroot r;
	struct power_info a, b;
	const struct power_sensor *s;
	struct sbuf sb;
	struct jw w;

	put("sys/class/hwmon/hwmon0/name", "ina226\n");
	put("sys/class/hwmon/hwmon0/power1_input", "1250000\n");
	put("sys/class/hwmon/hwmon0/power1_label", "vdd_npu\n");
	put("sys/class/hwmon/hwmon0/in1_input", "900\n");
	put("sys/class/hwmon/hwmon1/name", "scmi_sensors\n");
	put("sys/class/hwmon/hwmon1/energy1_input", "1000000\n");
	put("sys/class/hwmon/hwmon1/energy1_label", "big_cpus\n");
	put("sys/class/hwmon/hwmon1/energy2_input", "5000000\n");
	put("sys/class/hwmon/hwmon1/energy3_input", "garbage\n");
	put("sys/class/powercap/intel-rapl/enabled", "1\n");
	put("sys/class/powercap/intel-rapl:0/name", "package-0\n");
	put("sys/class/powercap/intel-rapl:0/energy_uj", "262143328000\n");
	put("sys/class/powercap/intel-rapl:0/max_energy_range_uj", "262143328850\n");
	put("sys/class/powercap/intel-rapl:0:0/name", "core\n");
	put("sys/class/powercap/intel-rapl:0:0/energy_uj", "7000000\n");
	put("sys/class/powercap/intel-rapl:0:0/max_energy_range_uj", "262143328850\n");
	is_int(sysroot_open(&r, tmpl), 0, "open temp root");
	is_int(power_read(&r, &a), 0, "power_read");
	is_int(a.n, 6, "six sensors (1 power, 3 energy, 2 RAPL)");
	s = find_sensor(&a, "ina226 vdd_npu");
	ok(s && s->kind == POWER_INSTANT && fabs(s->watts - 1.25) < 1e-9,
	   "ina226 power1 with label: 1.25 W at once");
	s = find_sensor(&a, "scmi_sensors big_cpus");
	ok(s && s->kind == POWER_ENERGY && isnan(s->watts), "energy counter: n/a on one sample");
	s = find_sensor(&a, "scmi_sensors energy3");
	ok(s && s->err == -EINVAL, "garbage energy: EINVAL (name falls back to the channel)");

	/* one second later: 2 J more; energy2 went back (a reset); RAPL
	 * wrapped (850 to the end, then 150) */
	put("sys/class/hwmon/hwmon1/energy1_input", "3000000\n");
	put("sys/class/hwmon/hwmon1/energy2_input", "100\n");
	put("sys/class/powercap/intel-rapl:0/energy_uj", "150\n");
	put("sys/class/powercap/intel-rapl:0:0/energy_uj", "7500000\n");
	sysroot_flush(&r);
	is_int(power_read(&r, &b), 0, "second power_read");
	power_derive(&b, &a, 1.0);
	s = find_sensor(&b, "scmi_sensors big_cpus");
	ok(s && fabs(s->watts - 2.0) < 1e-9, "energy counter: 2 J in 1 s = 2 W");
	s = find_sensor(&b, "scmi_sensors energy2");
	ok(s && isnan(s->watts) && s->reset, "counter went back: n/a, marked reset");
	s = find_sensor(&b, "package-0");
	ok(s && fabs(s->watts - 0.001) < 1e-9, "RAPL wrap: 1000 uJ in 1 s = 0.001 W");
	s = find_sensor(&b, "core");
	ok(s && fabs(s->watts - 0.5) < 1e-9, "RAPL core 0.5 W");
	is_dbl(power_total_w(&b), 1.25 + 2.0 + 0.001, 1e-9,
	       "total: readable sensors, RAPL package without its subzone");

	sbuf_init(&sb);
	jw_init(&w, &sb, false);
	jw_obj_begin(&w, NULL);
	out_power_json(&w, &b);
	jw_obj_end(&w);
	ok(strstr(sb.s, "{\"name\":\"ina226 vdd_npu\",\"source\":\"hwmon\",\"file\":\"/sys/class/"
			"hwmon/hwmon0/power1_input\",\"kind\":\"power\",\"watts\":1.250,") != NULL,
	   "JSON: ina226 row");
	ok(strstr(sb.s, "\"watts\":null,\"error\":\"EINVAL\"") != NULL, "JSON: garbage is null");
	ok(strstr(sb.s, "\"counter_reset\":true") != NULL, "JSON: reset marked");
	sbuf_reset(&sb);
	out_power_text(&sb, &b);
	ok(strstr(sb.s, "package-0") && strstr(sb.s, "0.001 W") &&
		   strstr(sb.s, "counter went back"),
	   "text: watts and reasons");
	sbuf_free(&sb);
	power_free(&a);
	power_free(&b);
	sysroot_close(&r);
}

static void test_accel_tree(void)
{
	struct sysroot r;
	struct accel_info a;
	struct devfreq_info d;
	struct sbuf sb;
	struct jw w;

	put("sys/kernel/debug/rknpu/load", "NPU load:  Core0: 35%, Core1:  0%, Core2:  7%,\n");
	put("sys/kernel/debug/rknpu/version", "RKNPU driver: v0.9.8\n");
	is_int(sysroot_open(&r, tmpl), 0, "open temp root");
	memset(&d, 0, sizeof(d));
	is_int(accel_read(&r, &d, &a), 0, "accel_read");
	ok(a.have_npu_load && a.ncores == 3 && a.core_pct[0] == 35 && a.core_pct[2] == 7,
	   "rknpu per-core load");
	is_str(a.version, "v0.9.8", "driver version from debugfs");
	sbuf_init(&sb);
	jw_init(&w, &sb, false);
	jw_obj_begin(&w, NULL);
	out_accel_json(&w, &a);
	jw_obj_end(&w);
	ok(strstr(sb.s, "\"npu_load_pct\":[35,0,7],\"npu_load_error\":null,\"driver_version\":"
			"\"v0.9.8\"") != NULL,
	   "JSON accel");
	sbuf_free(&sb);

	put("sys/kernel/debug/rknpu/load", "NPU load:  Core0: ??\n");
	sysroot_flush(&r);
	accel_read(&r, &d, &a);
	ok(!a.have_npu_load && a.npu_err == -EINVAL && accel_present(&a),
	   "broken load: EINVAL, still reported");
	sysroot_close(&r);
}

static const char *stat_line(char *buf, size_t cap, int pid, const char *comm, char state, int cpu)
{
	snprintf(buf, cap,
		 "%d (%s) %c 1 %d %d 0 -1 4194560 448 0 0 0 10 16 0 0 20 0 1 0 19 46731264 3561 "
		 "18446744073709551615 1 1 0 0 0 0 0 4096 1256 0 0 0 17 %d 0 0 0 0 0 0 0 0 0 0 0 0 "
		 "0\n",
		 pid, comm, state, pid, pid, cpu);
	return buf;
}

static void add_thread(int pid, const char *comm, int cpu, const char *wchan, const char *sc)
{
	char p[256], b[512];

	snprintf(p, sizeof(p), "proc/%d/task/%d/stat", pid, pid);
	put(p, stat_line(b, sizeof(b), pid, comm, 'S', cpu));
	snprintf(p, sizeof(p), "proc/%d/stat", pid);
	put(p, stat_line(b, sizeof(b), pid, comm, 'S', cpu));
	snprintf(p, sizeof(p), "proc/%d/task/%d/status", pid, pid);
	snprintf(b, sizeof(b), "Name:\t%s\nTgid:\t%d\nPid:\t%d\nPPid:\t1\n", comm, pid, pid);
	put(p, b);
	snprintf(p, sizeof(p), "proc/%d/task/%d/wchan", pid, pid);
	put(p, wchan);
	snprintf(p, sizeof(p), "proc/%d/task/%d/syscall", pid, pid);
	put(p, sc);
}

static void test_threads_wait(void)
{
	struct sysroot r, fx;
	struct thread_table tt;
	struct thread_info *t;
	struct snapshot s;
	struct finding_list fl;
	struct findings_input in;
	bool found = false, fixed = false;

	put("proc/sys/kernel/arch", "aarch64\n");
	add_thread(4100, "rknn_infer", 4, "rknpu_job_wait", "29 0x5 0xc0186b04 0xffffd2a8 0x0\n");
	link_to("proc/4100/fd/5", "/dev/rknpu");
	add_thread(4200, "gst_decode", 0, "do_epoll_wait", "22 0x3 0xffffd2a8 0x10 0x0\n");
	add_thread(4300, "ctl", 1, "0", "29 0x7 0x5401 0x0\n");
	link_to("proc/4300/fd/7", "/dev/ttyS2");
	add_thread(4400, "busy", 2, "0", "running\n");
	is_int(sysroot_open(&r, tmpl), 0, "open temp root");
	is_int(threads_read(&r, THREADS_WAIT, &tt), 0, "threads_read on a proc tree");
	is_int(tt.n, 4, "four threads");
	t = threads_find(&tt, 4100);
	ok(t && t->have_wait && t->in_ioctl && t->syscall_nr == 29, "rknn_infer in ioctl (29)");
	ok(t && !strcmp(t->wait_dev, "/dev/rknpu") && !strcmp(t->accel, "NPU"),
	   "fd 5 -> /dev/rknpu: NPU marker");
	ok(t && !strcmp(t->wchan, "rknpu_job_wait"), "wchan");
	t = threads_find(&tt, 4200);
	ok(t && !t->in_ioctl && t->syscall_nr == 22 && !t->accel[0] &&
		   !strcmp(t->wchan, "do_epoll_wait"),
	   "epoll (22 on arm64): not an ioctl, wchan shown");
	t = threads_find(&tt, 4300);
	ok(t && t->in_ioctl && !strcmp(t->wait_dev, "/dev/ttyS2") && !t->accel[0] && !t->wchan[0],
	   "ioctl on a tty: no marker; wchan 0 is n/a");
	t = threads_find(&tt, 4400);
	ok(t && t->syscall_nr == -1 && !t->in_ioctl, "running: no syscall");

	/* the finding: on the rk3588 fixture every policy sits at 408 MHz =
	 * scaling_min_freq; rknn_infer's last CPU 4 is in policy4 */
	if (sysroot_open(&fx, fixture("rk3588")) != 0) {
		ok(0, "open rk3588 fixture");
	} else {
		is_int(snapshot_take(&fx, SNAP_ALL, &s), 0, "rk3588 snapshot");
		memset(&fl, 0, sizeof(fl));
		in = (struct findings_input){.snap = &s, .threads = &tt};
		findings_eval(&in, NULL, &fl);
		for (size_t i = 0; i < fl.n; i++) {
			if (strcmp(fl.v[i].id, "npu-wait-low-opp"))
				continue;
			found = strstr(fl.v[i].title, "rknn_infer (tid 4100)") &&
				strstr(fl.v[i].title, "policy4") &&
				strstr(fl.v[i].evidence, "/dev/rknpu");
			for (size_t k = 0; k < fl.v[i].nfix; k++)
				fixed |= !strcmp(fl.v[i].fix[k],
						 "cpufreq/policy4/governor=performance");
		}
		ok(found, "npu-wait-low-opp fires for rknn_infer on policy4");
		ok(fixed, "its fix locks policy4 (performance)");
		findings_free(&fl);
		/* the same thread on a policy above its minimum: silent */
		s.freq.pol[cpufreq_policy_index(&s.freq, 4)].cur_khz = 2256000;
		findings_eval(&in, NULL, &fl);
		found = false;
		for (size_t i = 0; i < fl.n; i++)
			found |= !strcmp(fl.v[i].id, "npu-wait-low-opp");
		ok(!found, "silent when the policy is above its lowest OPP");
		findings_free(&fl);
		snapshot_free(&s);
		sysroot_close(&fx);
	}
	threads_free(&tt);
	/* without THREADS_WAIT nothing is read */
	is_int(threads_read(&r, 0, &tt), 0, "threads_read without THREADS_WAIT");
	t = threads_find(&tt, 4100);
	ok(t && !t->have_wait && !t->accel[0], "wait fields not read");
	threads_free(&tt);
	sysroot_close(&r);
}

int main(void)
{
	if (!mkdtemp(tmpl))
		skip_all("mkdtemp failed");
	test_parsers();
	test_energy_delta();
	test_power_tree();
	test_accel_tree();
	test_threads_wait();
	{
		char cmd[256];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpl);
		if (system(cmd) != 0)
			printf("# could not remove %s\n", tmpl);
	}
	return done_testing();
}
