/* SPDX-License-Identifier: GPL-2.0-or-later */
/* RPMsg round trip over an rpmsg tty (see rpmsg.h): raw mode, the message
 * format, one message in flight, timeouts, late and garbage echoes, a device
 * that goes away. The caller (cmd_probe.c) decides how long to run. */
#include "probe/rpmsg.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/err.h"
#include "core/xalloc.h"

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void put_le(unsigned char *p, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get_le(const unsigned char *p, int n)
{
	uint64_t v = 0;

	for (int i = n - 1; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

void rpmsg_build(unsigned char *buf, size_t size, uint32_t seq, uint64_t t_ns)
{
	memcpy(buf, "TTRP", 4);
	put_le(buf + 4, seq, 4);
	put_le(buf + 8, t_ns, 8);
	for (size_t i = 16; i < size; i++)
		buf[i] = (unsigned char)(seq + i);
}

int rpmsg_parse(const unsigned char *buf, size_t size, uint32_t *seq, uint64_t *t_ns)
{
	uint32_t s;

	if (size < RPMSG_MIN_SIZE || memcmp(buf, "TTRP", 4))
		return -EBADMSG;
	s = (uint32_t)get_le(buf + 4, 4);
	for (size_t i = 16; i < size; i++)
		if (buf[i] != (unsigned char)(s + i))
			return -EBADMSG;
	*seq = s;
	*t_ns = get_le(buf + 8, 8);
	return 0;
}

int rpmsg_open(struct rpmsg_run *r, const struct rpmsg_cfg *cfg)
{
	struct termios tio;
	int e;

	memset(r, 0, sizeof(*r));
	r->cfg = *cfg;
	hist_init(&r->hist);
	r->fd = open(cfg->dev, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (r->fd < 0) {
		e = -errno;
		snprintf(r->why, sizeof(r->why), "%s: %s", cfg->dev, err_name(e));
		return e;
	}
	if (tcgetattr(r->fd, &r->saved)) {
		e = -errno;
		snprintf(r->why, sizeof(r->why), "%s: not a tty (%s): an rpmsg tty expected",
			 cfg->dev, err_name(e));
		close(r->fd);
		r->fd = -1;
		return e;
	}
	r->have_tio = true;
	tio = r->saved;
	cfmakeraw(&tio);
	tio.c_cc[VMIN] = 1;
	tio.c_cc[VTIME] = 0;
	if (tcsetattr(r->fd, TCSANOW, &tio)) {
		e = -errno;
		snprintf(r->why, sizeof(r->why), "%s: raw mode: %s", cfg->dev, err_name(e));
		rpmsg_close(r);
		return e;
	}
	tcflush(r->fd, TCIOFLUSH);
	r->tx = xmalloc(cfg->size);
	r->rx = xmalloc(cfg->size);
	r->next_ns = mono_ns();
	return 0;
}

void rpmsg_close(struct rpmsg_run *r)
{
	if (r->fd >= 0) {
		if (r->have_tio)
			tcsetattr(r->fd, TCSANOW, &r->saved);
		close(r->fd);
	}
	r->fd = -1;
	free(r->tx);
	free(r->rx);
	r->tx = r->rx = NULL;
}

static int gone(struct rpmsg_run *r, int e)
{
	snprintf(r->why, sizeof(r->why), "%s: device went away (%s) after %llu messages",
		 r->cfg.dev, err_name(e), (unsigned long long)r->sent);
	return e;
}

static void sleep_until(uint64_t t_ns)
{
	struct timespec ts = {(time_t)(t_ns / 1000000000u), (long)(t_ns % 1000000000u)};

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

static int send_msg(struct rpmsg_run *r)
{
	size_t off = 0;
	uint64_t t = mono_ns();

	rpmsg_build(r->tx, r->cfg.size, r->seq, t);
	r->last_send_ns = t;
	while (off < r->cfg.size) {
		ssize_t w = write(r->fd, r->tx + off, r->cfg.size - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && errno == EAGAIN) {
			struct pollfd pf = {r->fd, POLLOUT, 0};
			int n = poll(&pf, 1, (int)r->cfg.timeout_ms);

			if (n == 0) {
				snprintf(r->why, sizeof(r->why),
					 "%s: cannot send: the device took no data for %llu ms",
					 r->cfg.dev, (unsigned long long)r->cfg.timeout_ms);
				return -ETIMEDOUT;
			}
			if (n > 0 && (pf.revents & (POLLHUP | POLLERR)) && !(pf.revents & POLLOUT))
				return gone(r, -EIO);
			continue;
		}
		if (w < 0)
			return gone(r, -errno);
		off += (size_t)w;
	}
	r->sent++;
	return 0;
}

int rpmsg_step(struct rpmsg_run *r, uint64_t deadline_ns, uint64_t *rtt_ns)
{
	uint64_t t_end;
	int e;

	*rtt_ns = 0;
	if (r->next_ns > deadline_ns) {
		sleep_until(deadline_ns);
		return 1;
	}
	sleep_until(r->next_ns);
	e = send_msg(r);
	if (e)
		return e;
	r->next_ns = r->last_send_ns + r->cfg.interval_us * 1000u;
	t_end = r->last_send_ns + r->cfg.timeout_ms * 1000000u;
	r->have = 0;
	for (;;) {
		uint64_t now = mono_ns();
		struct pollfd pf = {r->fd, POLLIN, 0};
		uint32_t seq;
		uint64_t t_ns;
		ssize_t n;
		int pr;

		if (now >= t_end) {
			r->lost++;
			r->seq++;
			tcflush(r->fd, TCIFLUSH); /* a partial echo would shift the next */
			return 0;
		}
		pr = poll(&pf, 1, (int)((t_end - now + 999999u) / 1000000u));
		if (pr < 0 && errno == EINTR)
			continue;
		if (pr < 0)
			return gone(r, -errno);
		if (!pr)
			continue;
		if (!(pf.revents & POLLIN))
			return gone(r, pf.revents & POLLNVAL ? -EBADF : -EIO);
		n = read(r->fd, r->rx + r->have, r->cfg.size - r->have);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n < 0)
			return gone(r, -errno);
		if (n == 0)
			return gone(r, -ENODEV);
		r->have += (size_t)n;
		if (r->have < r->cfg.size)
			continue;
		now = mono_ns();
		r->have = 0;
		if (rpmsg_parse(r->rx, r->cfg.size, &seq, &t_ns) || seq > r->seq ||
		    (seq == r->seq && t_ns != r->last_send_ns)) {
			snprintf(r->why, sizeof(r->why),
				 "%s: garbage echo (not the message sent) after %llu messages: "
				 "is the remote side an echo?",
				 r->cfg.dev, (unsigned long long)r->sent);
			return -EBADMSG;
		}
		if (seq < r->seq) { /* the echo of a message already counted lost */
			r->late++;
			continue;
		}
		r->seq++;
		r->received++;
		*rtt_ns = now - r->last_send_ns;
		hist_add(&r->hist, *rtt_ns, now);
		return 0;
	}
}
