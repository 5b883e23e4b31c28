/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Kernel configuration: JSON section, text section, one-line summary. */
#include "out/kconfig_out.h"

#include <stdio.h>
#include <string.h>

/* Options shown on the "latency" line of the text report, in order. */
static const enum kconfig_id shown[] = {
	KC_NO_HZ_FULL,	   KC_RCU_NOCB_CPU, KC_CPU_ISOLATION, KC_IRQ_FORCED_THREADING,
	KC_RT_GROUP_SCHED, KC_UCLAMP_TASK,  KC_SCHED_DEBUG,
};

void out_kconfig_govs(char *buf, size_t cap, const struct kconfig_info *k, bool idle)
{
	static const struct {
		enum kconfig_id id;
		const char *name;
	} g[] = {
		{KC_CPU_IDLE_GOV_LADDER, "ladder"},
		{KC_CPU_IDLE_GOV_MENU, "menu"},
		{KC_CPU_IDLE_GOV_TEO, "teo"},
		{KC_CPU_IDLE_GOV_HALTPOLL, "haltpoll"},
		{KC_CPU_FREQ_GOV_PERFORMANCE, "performance"},
		{KC_CPU_FREQ_GOV_POWERSAVE, "powersave"},
		{KC_CPU_FREQ_GOV_USERSPACE, "userspace"},
		{KC_CPU_FREQ_GOV_ONDEMAND, "ondemand"},
		{KC_CPU_FREQ_GOV_CONSERVATIVE, "conservative"},
		{KC_CPU_FREQ_GOV_SCHEDUTIL, "schedutil"},
	};
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(g) / sizeof(g[0]); i++) {
		bool is_idle = g[i].id <= KC_CPU_IDLE_GOV_HALTPOLL;

		if (is_idle != idle || !kconfig_enabled(k, g[i].id) || len + 1 >= cap)
			continue;
		snprintf(buf + len, cap - len, "%s%s%s", len ? " " : "", g[i].name,
			 k->opt[g[i].id].v == KCONFIG_M ? "(m)" : "");
		len = strlen(buf);
	}
}

static const char *val_or(const struct kconfig_info *k, enum kconfig_id id)
{
	const char *v = kconfig_str(k, id);

	return v ? v : "-";
}

void out_kconfig_json(struct jw *w, const struct kconfig_info *k)
{
	char buf[64];
	const char *p;

	jw_obj_begin(w, "kernel_config");
	if (k->have)
		jw_str(w, "source", k->source);
	else
		jw_null(w, "source");
	jw_arr_begin(w, "looked");
	for (p = k->looked; *p;) {
		const char *e = strstr(p, ", ");
		size_t n = e ? (size_t)(e - p) : strlen(p);
		char one[sizeof(k->looked)];

		snprintf(one, sizeof(one), "%.*s", (int)n, p);
		jw_str(w, NULL, one);
		p += n + (e ? 2 : 0);
	}
	jw_arr_end(w);
	if (k->problem[0])
		jw_str(w, "problem", k->problem);
	else
		jw_null(w, "problem");
	if ((p = kconfig_preempt(k, buf, sizeof(buf))) != NULL)
		jw_str(w, "preempt", p);
	else
		jw_null(w, "preempt");
	if (!k->have) {
		jw_null(w, "options");
	} else {
		jw_obj_begin(w, "options");
		for (int i = 0; i < KCONFIG_NOPTS; i++) {
			const char *v = kconfig_str(k, (enum kconfig_id)i);

			if (v)
				jw_str(w, kconfig_names[i], v);
			else
				jw_null(w, kconfig_names[i]);
		}
		jw_obj_end(w);
	}
	jw_obj_end(w);
}

void out_kconfig_text(struct sbuf *b, const struct kconfig_info *k)
{
	char pm[64], gi[160], gf[200];

	if (!k->have) {
		sbuf_printf(b, "kconfig  no kernel config: looked in %s%s%s\n", k->looked,
			    k->problem[0] ? "; " : "", k->problem);
		return;
	}
	sbuf_printf(b, "kconfig  %s  preempt %s  HZ %s%s%s%s\n", k->source,
		    kconfig_preempt(k, pm, sizeof(pm)), val_or(k, KC_HZ),
		    k->problem[0] ? "  (" : "", k->problem, k->problem[0] ? ")" : "");
	sbuf_puts(b, "        ");
	for (size_t i = 0; i < sizeof(shown) / sizeof(shown[0]); i++)
		sbuf_printf(b, " %s=%s", kconfig_names[shown[i]], val_or(k, shown[i]));
	sbuf_putc(b, '\n');
	out_kconfig_govs(gi, sizeof(gi), k, true);
	out_kconfig_govs(gf, sizeof(gf), k, false);
	sbuf_printf(b, "         CPU_IDLE=%s idle governors: %s  CPU_FREQ=%s governors: %s\n",
		    val_or(k, KC_CPU_IDLE), gi[0] ? gi : "none", val_or(k, KC_CPU_FREQ),
		    gf[0] ? gf : "none");
}

void out_kconfig_line(char *buf, size_t cap, const struct kconfig_info *k)
{
	char pm[64];
	size_t len;

	if (!k->have) {
		snprintf(buf, cap, "no kernel config: looked in %s%s%s", k->looked,
			 k->problem[0] ? "; " : "", k->problem);
		return;
	}
	snprintf(buf, cap, "%s: %s HZ=%s", k->source, kconfig_preempt(k, pm, sizeof(pm)),
		 val_or(k, KC_HZ));
	for (size_t i = 0; i < sizeof(shown) / sizeof(shown[0]); i++) {
		len = strlen(buf);
		if (len + 1 < cap)
			snprintf(buf + len, cap - len, " %s=%s", kconfig_names[shown[i]],
				 val_or(k, shown[i]));
	}
}

/* The mode a PREEMPT_DYNAMIC kernel boots in: preempt= on its command
 * line, else its config's default; NULL when neither is known. */
static const char *boot_mode(const struct system_info *sys, const struct kconfig_info *k,
			     const char **from)
{
	const char *p = system_param(sys, "preempt");

	if (p && p[0]) {
		*from = "preempt= on the command line";
		return p;
	}
	*from = "the config's default";
	if (!k || !k->have)
		return NULL;
	if (kconfig_enabled(k, KC_PREEMPT))
		return "full";
	if (kconfig_enabled(k, KC_PREEMPT_VOLUNTARY))
		return "voluntary";
	if (kconfig_enabled(k, KC_PREEMPT_NONE))
		return "none";
	return NULL;
}

void out_preempt_line(char *buf, size_t cap, const struct system_info *sys,
		      const struct kconfig_info *k)
{
	const char *name = system_preempt_name(sys->preempt), *from = NULL, *mode;
	char pm[64];

	if (!name && k && k->have && kconfig_preempt(k, pm, sizeof(pm))) {
		/* /proc/version names only PREEMPT, PREEMPT_DYNAMIC and PREEMPT_RT */
		snprintf(buf, cap, "%s (kernel config; /proc/version names no model)", pm);
		return;
	}
	if (sys->preempt != PREEMPT_MODEL_DYNAMIC) {
		/* the note says how it was found; for PREEMPT_RT it repeats the name */
		snprintf(buf, cap, "%s%s%s", name ? name : "n/a",
			 sys->preempt_note[0] && sys->preempt != PREEMPT_MODEL_RT ? "  " : "",
			 sys->preempt != PREEMPT_MODEL_RT ? sys->preempt_note : "");
		return;
	}
	if (sys->dyn_mode[0]) {
		snprintf(buf, cap, "%s, mode %s", name, sys->dyn_mode);
		return;
	}
	mode = boot_mode(sys, k, &from);
	if (mode)
		snprintf(buf, cap, "%s, mode n/a (needs debugfs); boots as %s (%s)", name, mode,
			 from);
	else
		snprintf(buf, cap, "%s, mode n/a (needs debugfs)", name);
}
