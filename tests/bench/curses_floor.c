/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The peak RSS floor of any ncursesw program on this system, for
 * tests/bench/tui.sh: the least a TUI can cost, measured the same way as
 * tunetop and htop (VmHWM in a 120x40 tmux pane). It does what every TUI
 * does once a second (draw a line, refresh, wait for a key) and calls the
 * libm functions tunetop's TUI calls, whose resolvers map libm's pages:
 * what remains above this floor is the program's own code and data. */
#include <curses.h>
#include <locale.h>
#include <math.h>

int main(int argc, char **argv)
{
	(void)argv;
	setlocale(LC_ALL, "");
	initscr();
	cbreak();
	noecho();
	timeout(1000);
	for (int i = 0; i < 600; i++) {
		double x = (double)(argc + i);

		mvprintw(0, 0, "ncursesw floor %d %ld %.3f", i, lround(x * 1.5),
			 pow(x, 1.5) + log10(x) + log1p(x) + sqrt(x) + fmod(x, 7.0) + sin(x));
		refresh();
		if (getch() == 'q')
			break;
	}
	endwin();
	return 0;
}
