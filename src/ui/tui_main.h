/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one entry point of the interactive monitor, for src/main.c (which
 * must not include curses, so not ui/tui.h). Defined in src/ui/tui.c. */
#ifndef TT_UI_TUI_MAIN_H
#define TT_UI_TUI_MAIN_H

struct tt_opts;

/* `tunetop` with no command: the exit code. */
int tui_main(const struct tt_opts *o, int argc, char **argv);

#endif
