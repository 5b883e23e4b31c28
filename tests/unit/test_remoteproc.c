/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for src/source/remoteproc.c and src/out/remoteproc_out.c:
 * rpmsg address and device-name parsing, trace tails, which interrupt names
 * serve inter-processor messaging, a temporary sysfs tree (no fixture
 * needed), an empty root, and the stm32mp157 fixture (Cortex-M4 running
 * rproc-m4-fw.elf, an rpmsg-tty channel, a debugfs trace). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/json.h"
#include "core/str.h"
#include "core/xalloc.h"
#include "out/remoteproc_out.h"
#include "source/irqs.h"
#include "source/remoteproc.h"
#include "sysfs/sysroot.h"
#include "tap.h"

static char tmpl[] = "/tmp/tt-rproc-XXXXXX";

static void skip(const char *what, const char *why)
{
	printf("ok %d - %s # SKIP %s\n", ++tap_n, what, why);
}

static void put(const char *rel, const char *text)
{
	char buf[1024];
	FILE *f;

	snprintf(buf, sizeof(buf), "%s/%s", tmpl, rel);
	for (char *p = buf + strlen(tmpl) + 1; *p; p++) {
		if (*p == '/') {
			*p = '\0';
			mkdir(buf, 0755);
			*p = '/';
		}
	}
	f = fopen(buf, "w");
	if (!f)
		tt_fatal("cannot write %s", buf);
	fputs(text, f);
	fclose(f);
}

static void test_parsers(void)
{
	char name[32], tail[64];
	int src = 7, dst = 7;

	is_int(remoteproc_parse_addr("0x400\n"), 1024, "hex address");
	is_int(remoteproc_parse_addr("1024"), 1024, "decimal address");
	is_int(remoteproc_parse_addr("0x0\n"), 0, "address 0");
	is_int(remoteproc_parse_addr("0xffffffff\n"), -1, "RPMSG_ADDR_ANY is n/a");
	is_int(remoteproc_parse_addr("-1"), -1, "-1");
	is_int(remoteproc_parse_addr(""), -1, "empty");
	is_int(remoteproc_parse_addr("zz"), -1, "garbage");

	is_int(remoteproc_parse_devname("virtio0.rpmsg-tty.-1.0", name, sizeof(name), &src, &dst),
	       0, "devname parses");
	is_str(name, "rpmsg-tty", "channel name");
	ok(src == -1 && dst == 0, "src any, dst 0");
	is_int(remoteproc_parse_devname("virtio1.rpmsg.raw.ctl.1024.53", name, sizeof(name), &src,
					&dst),
	       0, "dotted channel name");
	is_str(name, "rpmsg.raw.ctl", "dotted channel name kept");
	ok(src == 1024 && dst == 53, "src 1024 dst 53");
	ok(remoteproc_parse_devname("virtio0", name, sizeof(name), &src, &dst) < 0,
	   "not a channel name");

	remoteproc_tail("a\r\nb\r\n\n", tail, sizeof(tail));
	is_str(tail, "a\nb", "CRLF and trailing newlines dropped");
	remoteproc_tail("line one\nline two\nline three\n", tail, 16);
	is_str(tail, "line three", "only whole last lines that fit");
	remoteproc_tail("", tail, sizeof(tail));
	is_str(tail, "", "empty trace");

	ok(remoteproc_irq_related("4c001000.mailbox"), "STM32 IPCC row (mailbox)");
	ok(remoteproc_irq_related("stm32-ipcc"), "ipcc");
	ok(remoteproc_irq_related("imx_mu_chan[0-3]"), "older i.MX MU mailbox name");
	ok(remoteproc_irq_related("30aa0000.mailbox"), "i.MX MU mailbox");
	ok(remoteproc_irq_related("ff9d0000.zynqmp-ipi"), "ZynqMP IPI (word)");
	ok(remoteproc_irq_related("IPI_MBOX"), "IPI_MBOX");
	ok(remoteproc_irq_related("omap-mailbox"), "OMAP mailbox");
	ok(remoteproc_irq_related("rproc-virtio"), "rproc");
	ok(!remoteproc_irq_related("IPI0"), "Linux IPI0 row is not a remote-core IRQ");
	ok(!remoteproc_irq_related("Rescheduling interrupts"), "rescheduling IPIs are not");
	ok(!remoteproc_irq_related("eth0"), "eth0 is not");
	ok(!remoteproc_irq_related("multipipe"), "'ipi' inside a word is not");
	ok(!remoteproc_irq_related(NULL), "NULL");
}

static void test_tree(void)
{
	struct sysroot r;
	struct remoteproc_info info;
	struct sbuf b;
	struct jw w;
	char big[1024] = "";
	char path[1024];

	if (!mkdtemp(tmpl)) {
		skip("temporary tree", "mkdtemp failed");
		return;
	}
	put("sys/devices/platform/m4/remoteproc/remoteproc0/name", "m4\n");
	put("sys/devices/platform/m4/remoteproc/remoteproc0/state", "running\n");
	put("sys/devices/platform/m4/remoteproc/remoteproc0/firmware", "fw.elf\n");
	put("sys/devices/platform/m4/remoteproc/remoteproc0/v/virtio0/virtio0.rpmsg-raw.1024.53/"
	    "name",
	    "rpmsg-raw\n");
	put("sys/devices/platform/m4/remoteproc/remoteproc0/v/virtio0/virtio0.rpmsg-raw.1024.53/"
	    "src",
	    "0x400\n");
	put("sys/devices/platform/m4/remoteproc/remoteproc0/v/virtio0/virtio0.rpmsg-raw.1024.53/"
	    "dst",
	    "0x35\n");
	/* A second, offline remote core with no trace and no files at all. */
	put("sys/class/remoteproc/remoteproc1/state", "offline\n");
	for (int i = 0; i < 40; i++) {
		char line[32];

		snprintf(line, sizeof(line), "[%04d] tick\r\n", i);
		strcat(big, line);
	}
	put("sys/kernel/debug/remoteproc/remoteproc0/trace0", big);
	snprintf(path, sizeof(path), "%s/sys/class/remoteproc/remoteproc0", tmpl);
	if (symlink("../../devices/platform/m4/remoteproc/remoteproc0", path) < 0)
		tt_fatal("symlink %s", path);
	snprintf(path, sizeof(path), "%s/sys/bus/rpmsg/devices", tmpl);
	put("sys/bus/rpmsg/devices/.keep", "");
	unlink(strcat(path, "/.keep"));
	snprintf(path, sizeof(path), "%s/sys/bus/rpmsg/devices/virtio0.rpmsg-raw.1024.53", tmpl);
	if (symlink("../../../devices/platform/m4/remoteproc/remoteproc0/v/virtio0/"
		    "virtio0.rpmsg-raw.1024.53",
		    path) < 0)
		tt_fatal("symlink %s", path);

	is_int(sysroot_open(&r, tmpl), 0, "open temp root");
	is_int(remoteproc_read(&r, &info), 0, "remoteproc_read");
	is_int(info.nproc, 2, "two remote cores");
	is_str(info.p[0].name, "remoteproc0", "name");
	is_str(info.p[0].fw_name, "m4", "fw_name from the name file");
	is_str(info.p[0].state, "running", "state");
	is_str(info.p[0].firmware, "fw.elf", "firmware");
	ok(info.p[0].have_trace, "trace read");
	ok(strlen(info.p[0].trace_tail) < sizeof(info.p[0].trace_tail) &&
		   str_ends(info.p[0].trace_tail, "[0039] tick") &&
		   str_starts(info.p[0].trace_tail, "[00"),
	   "trace tail: whole last lines, no CR");
	is_str(info.p[1].state, "offline", "second core offline");
	ok(!info.p[1].have_trace && info.p[1].firmware[0] == '\0', "missing files are n/a");
	is_int(info.nchan, 1, "one rpmsg channel");
	is_str(info.ch[0].name, "rpmsg-raw", "channel name");
	ok(info.ch[0].src == 1024 && info.ch[0].dst == 53, "addresses from the files");
	is_str(info.ch[0].rproc, "remoteproc0", "channel belongs to remoteproc0 (device path)");

	sbuf_init(&b);
	jw_init(&w, &b, false);
	jw_obj_begin(&w, NULL);
	out_remoteproc_json(&w, &info, NULL);
	jw_obj_end(&w);
	ok(strstr(b.s, "{\"remoteproc\":[{\"name\":\"remoteproc0\",\"fw_name\":\"m4\",\"state\":"
		       "\"running\",\"firmware\":\"fw.elf\",\"trace\":\"") == b.s,
	   "JSON remoteproc entry");
	ok(strstr(b.s, "{\"name\":\"remoteproc1\",\"fw_name\":null,\"state\":\"offline\","
		       "\"firmware\":null,\"trace\":null}") != NULL,
	   "JSON n/a as null");
	ok(strstr(b.s, "\"rpmsg\":[{\"dev\":\"virtio0.rpmsg-raw.1024.53\",\"name\":\"rpmsg-raw\","
		       "\"src\":1024,\"dst\":53,\"remoteproc\":\"remoteproc0\"}]") != NULL,
	   "JSON rpmsg entry");
	sbuf_reset(&b);
	out_remoteproc_text(&b, &info, NULL);
	ok(str_starts(b.s, "Remote cores\n  remoteproc0  m4         running    firmware fw.elf\n"),
	   "text section");
	ok(strstr(b.s, "trace: n/a (debugfs remoteproc/remoteproc1/trace0 not readable)") != NULL,
	   "text: missing trace says why");
	sbuf_free(&b);
	remoteproc_free(&info);
	sysroot_close(&r);

	/* An empty root: nothing, and that is not an error. */
	snprintf(path, sizeof(path), "%s/empty", tmpl);
	mkdir(path, 0755);
	sysroot_open(&r, path);
	is_int(remoteproc_read(&r, &info), 0, "empty root reads");
	ok(info.nproc == 0 && info.nchan == 0, "no remote cores");
	sbuf_init(&b);
	out_remoteproc_text(&b, &info, NULL);
	ok(b.len == 0, "text: no section without remoteproc");
	jw_init(&w, &b, false);
	jw_obj_begin(&w, NULL);
	out_remoteproc_json(&w, &info, NULL);
	jw_obj_end(&w);
	is_str(b.s, "{\"remoteproc\":[],\"rpmsg\":[]}", "JSON: empty arrays");
	sbuf_free(&b);
	remoteproc_free(&info);
	sysroot_close(&r);
	snprintf(path, sizeof(path), "rm -rf %s", tmpl);
	if (system(path) != 0)
		printf("# could not remove %s\n", tmpl);
}

static void test_fixture(void)
{
	struct sysroot r;
	struct remoteproc_info info;
	const char *dir = fixture("stm32mp157");
	char probe[1100];

	snprintf(probe, sizeof(probe), "%s/sys/class/remoteproc/remoteproc0", dir);
	if (access(probe, F_OK) < 0) {
		skip("stm32mp157 remoteproc fixture", "fixture not present");
		return;
	}
	is_int(sysroot_open(&r, dir), 0, "open stm32mp157 fixture");
	is_int(remoteproc_read(&r, &info), 0, "read");
	is_int(info.nproc, 1, "one remote core");
	is_str(info.p[0].name, "remoteproc0", "remoteproc0");
	is_str(info.p[0].fw_name, "m4", "the Cortex-M4");
	is_str(info.p[0].state, "running", "running");
	is_str(info.p[0].firmware, "rproc-m4-fw.elf", "firmware");
	ok(info.p[0].have_trace && strstr(info.p[0].trace_tail, "Ctrl loop overrun") &&
		   !strchr(info.p[0].trace_tail, '\r'),
	   "debugfs trace tail");
	is_int(info.nchan, 1, "one rpmsg channel");
	is_str(info.ch[0].dev, "virtio0.rpmsg-tty.-1.0", "rpmsg device");
	is_str(info.ch[0].name, "rpmsg-tty", "rpmsg-tty");
	ok(info.ch[0].src == -1 && info.ch[0].dst == 0, "src any, dst 0");
	is_str(info.ch[0].rproc, "remoteproc0", "served by remoteproc0");
	remoteproc_free(&info);
	sysroot_close(&r);
}

/* The interrupts that serve the remote cores (mailbox / IPI rows) on the
 * STM32MP157 fixture: listed with the remoteproc section, JSON and text. */
static void test_serving_irqs(void)
{
	struct sysroot r;
	struct remoteproc_info info;
	struct irq_table t;
	struct sbuf b;
	struct jw w;

	if (sysroot_open(&r, fixture("stm32mp157")) != 0) {
		ok(0, "open the stm32mp157 fixture");
		return;
	}
	is_int(remoteproc_read(&r, &info), 0, "stm32mp157: remoteproc_read");
	is_int(irqs_read(&r, 0, &t), 0, "stm32mp157: irqs_read");
	sbuf_init(&b);
	jw_init(&w, &b, false);
	jw_obj_begin(&w, NULL);
	out_remoteproc_json(&w, &info, &t);
	jw_obj_end(&w);
	ok(strstr(b.s, "\"remoteproc_irqs\":[{\"label\":\"51\",\"name\":\"4c001000.mailbox\"},"
		       "{\"label\":\"52\",\"name\":\"4c001000.mailbox\"}]") != NULL,
	   "JSON: the mailbox IRQs 51 and 52 serve the remote core");
	sbuf_reset(&b);
	out_remoteproc_text(&b, &info, &t);
	ok(strstr(b.s, "  serving interrupts: 51 (4c001000.mailbox), 52 (4c001000.mailbox)\n") !=
		   NULL,
	   "text: serving interrupts listed");
	sbuf_free(&b);
	irqs_free(&t);
	remoteproc_free(&info);
	sysroot_close(&r);
}

int main(void)
{
	test_parsers();
	test_tree();
	test_fixture();
	test_serving_irqs();
	return done_testing();
}
