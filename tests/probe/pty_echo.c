/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Test helper for `probe --rpmsg`: a pseudo-terminal that echoes what is
 * written to it, standing in for an rpmsg tty with the echo firmware.
 *
 *   pty_echo [-s SIZE] [-d DELAY_US] [-n DROP_EVERY] [-x EXIT_AFTER] [-g GARBLE_AT]
 *
 * Prints the slave's path (/dev/pts/N) on the first line of stdout, then
 * echoes every SIZE-byte message (default 32) after DELAY_US microseconds,
 * drops every DROP_EVERY-th message (no echo), flips a byte of message
 * GARBLE_AT (1-based), and exits after EXIT_AFTER messages (closing the
 * master: the device "disappears"). It keeps a slave fd of its own, so the
 * master never sees a hang-up while tunetop opens and closes the device. The
 * test kills it when done; it gives up by itself after 5 minutes (alarm). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long size = 32, delay_us = 0, drop = 0, exit_after = 0, garble = 0, count = 0;
	unsigned char buf[512];
	struct termios tio;
	long have = 0;
	int m, s, c;

	while ((c = getopt(argc, argv, "s:d:n:x:g:")) != -1) {
		switch (c) {
		case 's': size = atol(optarg); break;
		case 'd': delay_us = atol(optarg); break;
		case 'n': drop = atol(optarg); break;
		case 'x': exit_after = atol(optarg); break;
		case 'g': garble = atol(optarg); break;
		default: fprintf(stderr, "pty_echo: bad option\n"); return 2;
		}
	}
	if (size < 1 || size > (long)sizeof(buf))
		return 2;
	m = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (m < 0 || grantpt(m) || unlockpt(m)) {
		perror("pty_echo: posix_openpt");
		return 1;
	}
	s = open(ptsname(m), O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (s < 0) {
		perror("pty_echo: open slave");
		return 1;
	}
	/* raw from the start: no echo by the line discipline, no line editing */
	if (tcgetattr(s, &tio) == 0) {
		cfmakeraw(&tio);
		tcsetattr(s, TCSANOW, &tio);
	}
	alarm(300);
	printf("%s\n", ptsname(m));
	fflush(stdout);
	for (;;) {
		struct pollfd pf = {m, POLLIN, 0};
		ssize_t n;

		if (poll(&pf, 1, -1) < 0) {
			if (errno == EINTR)
				continue;
			return 1;
		}
		if (!(pf.revents & POLLIN))
			continue;
		n = read(m, buf + have, (size_t)(size - have));
		if (n <= 0)
			continue;
		have += n;
		if (have < size)
			continue;
		have = 0;
		count++;
		if (drop && count % drop == 0)
			continue;
		if (garble && count == garble)
			buf[0] ^= 0x55;
		if (delay_us)
			usleep((useconds_t)delay_us);
		if (write(m, buf, (size_t)size) != size)
			return 1;
		if (exit_after && count >= exit_after) {
			close(m);
			return 0;
		}
	}
}
