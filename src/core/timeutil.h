/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Clocks. All values are in nanoseconds unless the name says otherwise. */
#ifndef TT_CORE_TIMEUTIL_H
#define TT_CORE_TIMEUTIL_H

#include <stdint.h>

uint64_t time_mono_ns(void);
uint64_t time_real_ns(void);
/* CPU time consumed by this process (user + system), ns. */
uint64_t time_process_cpu_ns(void);
void time_sleep_ns(uint64_t ns);

#endif
