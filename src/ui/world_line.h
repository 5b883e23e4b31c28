/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The world's application in the header (issue 35): on a world's tree
 * (--demo=NAME, or --root on a world's directory) the app's last frame time
 * and the mean and SD of its last WORLD_APP_FRAMES frames, SIMULATED. */
#ifndef TT_UI_WORLD_LINE_H
#define TT_UI_WORLD_LINE_H

struct tui;

/* Draws the segment at (y, x) when the tree is a world's; the columns
 * used (0 when it is not, or the log has no frame yet). */
int tui_world_line(struct tui *t, int y, int x);

#endif
