/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The header's world segment (world_line.h):
 *   SIMULATED app 48.83 ms  mean 48.80 sd 1.52 /50
 * read through the model (world_app_recent: the tail of the world's log in
 * the tree), once per draw; nothing when the tree is not a world's. */
#include "ui/world_line.h"

#include <curses.h>
#include <math.h>

#include "model/world_app.h"
#include "ui/tui.h"
#include "ui/tui_int.h"

int tui_world_line(struct tui *t, int y, int x)
{
	struct world_app a;
	int n = 0;

	if (t->sc.replay || world_app_recent(&t->sc.root, WORLD_APP_FRAMES, &a) != 0 || !a.n)
		return 0;
	n += ui_put(&t->sc, y, x + n, COLS - x - n, ROLE_SIMULATED, "SIMULATED");
	n += ui_put(&t->sc, y, x + n, COLS - x - n, ROLE_HEADER, " app ");
	n += ui_printf(&t->sc, y, x + n, COLS - x - n, ROLE_HEADER_VALUE, "%.2f", a.last_ms);
	n += ui_put(&t->sc, y, x + n, COLS - x - n, ROLE_HEADER, " ms  mean ");
	n += ui_printf(&t->sc, y, x + n, COLS - x - n, ROLE_HEADER_VALUE, "%.2f", a.mean_ms);
	n += ui_put(&t->sc, y, x + n, COLS - x - n, ROLE_HEADER, " sd ");
	if (isnan(a.sd_ms))
		n += ui_put(&t->sc, y, x + n, COLS - x - n, ROLE_VALUE_NA, "n/a");
	else
		n += ui_printf(&t->sc, y, x + n, COLS - x - n, ROLE_HEADER_VALUE, "%.2f", a.sd_ms);
	n += ui_printf(&t->sc, y, x + n, COLS - x - n, ROLE_HEADER, " /%zu", a.n);
	return n + 2;
}
