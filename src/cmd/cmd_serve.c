/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `tunetop serve`: the snapshot as OpenMetrics over HTTP (issue 16). One
 * thread, one poll loop over up to SERVE_CONN_MAX connections at once, all
 * non-blocking (issue 32: an idle client never delays another's scrape):
 * GET /metrics answers the exposition (out/openmetrics.h), anything else
 * 404 (405 for another method). A request is at most SERVE_REQ_MAX bytes
 * (431 beyond) and must arrive within SERVE_REQ_MS of the connection (408
 * after); the answer must be taken within SERVE_SEND_MS. With
 * SERVE_CONN_MAX connections open, a new one closes the oldest that has not
 * sent its request yet (or gets 503 when all are being answered). Nothing a
 * client sends is ever written anywhere. Sampling
 * happens per scrape, at most once per --min-interval (the last sample is
 * served from the cache in between), so two scrapers cost one sample.
 * A non-loopback address needs --listen-any. */
#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <getopt.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include "cmd/common.h"
#include "cmd/cmd.h"
#include "core/cpumask.h"
#include "core/err.h"
#include "core/str.h"
#include "core/timeutil.h"
#include "core/xalloc.h"
#include "model/snapshot.h"
#include "out/openmetrics.h"
#include "out/report.h"
#include "probe/histogram.h"
#include "probe/probe.h"

#define SERVE_DEFAULT  "127.0.0.1:9731"
#define SERVE_REQ_MAX  8192
#define SERVE_REQ_MS   5000
#define SERVE_SEND_MS  10000
#define SERVE_CONN_MAX 128

static volatile sig_atomic_t serve_stop;

static void on_stop(int sig)
{
	(void)sig;
	serve_stop = 1;
}

/* "ADDR:PORT", "[V6]:PORT" or ":PORT" (loopback) -> ss. 0 or -EINVAL. */
static int parse_listen(const char *s, struct sockaddr_storage *ss, socklen_t *len, bool *loop)
{
	char host[128];
	const char *colon = strrchr(s, ':');
	char *end;
	long port;

	if (!colon || (size_t)(colon - s) >= sizeof(host))
		return -EINVAL;
	memcpy(host, s, (size_t)(colon - s));
	host[colon - s] = '\0';
	errno = 0;
	port = strtol(colon + 1, &end, 10);
	if (!colon[1] || *end || errno || port < 0 || port > 65535)
		return -EINVAL;
	memset(ss, 0, sizeof(*ss));
	if (host[0] == '[') {
		struct sockaddr_in6 *a = (struct sockaddr_in6 *)ss;
		size_t n = strlen(host);

		if (n < 3 || host[n - 1] != ']')
			return -EINVAL;
		host[n - 1] = '\0';
		if (inet_pton(AF_INET6, host + 1, &a->sin6_addr) != 1)
			return -EINVAL;
		a->sin6_family = AF_INET6;
		a->sin6_port = htons((uint16_t)port);
		*len = sizeof(*a);
		*loop = IN6_IS_ADDR_LOOPBACK(&a->sin6_addr);
	} else {
		struct sockaddr_in *a = (struct sockaddr_in *)ss;

		if (inet_pton(AF_INET, host[0] ? host : "127.0.0.1", &a->sin_addr) != 1)
			return -EINVAL;
		a->sin_family = AF_INET;
		a->sin_port = htons((uint16_t)port);
		*len = sizeof(*a);
		*loop = (ntohl(a->sin_addr.s_addr) >> 24) == 127;
	}
	return 0;
}

/* One client: reading its request head, then sending the answer. */
struct conn {
	int fd;		   /* -1 = free slot */
	uint64_t start_ns; /* accepted (monotonic) */
	uint64_t end_ns;   /* deadline of the current phase */
	size_t n;	   /* request bytes so far */
	char *req;	   /* SERVE_REQ_MAX bytes, NUL-terminated */
	struct sbuf out;   /* the answer, once the request is in */
	size_t sent;
	enum { C_READ, C_SEND, C_DRAIN } st;
};

static void respond(struct conn *c, int code, const char *reason, const char *type,
		    const char *body, size_t n, bool head_only)
{
	sbuf_reset(&c->out);
	sbuf_printf(&c->out,
		    "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n"
		    "Connection: close\r\n%s\r\n",
		    code, reason, type, n, code == 405 ? "Allow: GET, HEAD\r\n" : "");
	if (!head_only)
		sbuf_putn(&c->out, body, n);
	c->sent = 0;
	c->st = C_SEND;
	c->end_ns = time_mono_ns() + (uint64_t)SERVE_SEND_MS * 1000000ULL;
}

static void respond_text(struct conn *c, int code, const char *reason, const char *body)
{
	respond(c, code, reason, "text/plain", body, strlen(body), false);
}

struct serve {
	struct sampler sm;
	struct report_opts ro;
	const struct tt_opts *o;
	const struct cmd_ctx *cx; /* the runner's: the journal counts */
	struct sysroot *r;
	long min_ms;
	uint64_t last_ns;    /* monotonic time of the cached sample, 0 = none */
	struct sbuf text[2]; /* the cached exposition, per enum om_format */
	/* --probe CPUS: a probe runs on the live machine; each sample exposes
	   the percentiles of the window since the previous one */
	bool probing;
	struct probe probe;
	struct hist *prev, *now, *win;
	char probe_cpus[64];
};

/* The exposition, sampled anew if the cache is older than min_ms. */
static int scrape(struct serve *sv)
{
	uint64_t now = time_mono_ns();
	struct om_probe pr;
	int e;

	if (sv->last_ns && now - sv->last_ns < (uint64_t)sv->min_ms * 1000000ULL)
		return 0;
	if ((e = sampler_tick(&sv->sm)) != 0)
		return e;
	sv->last_ns = now;
	sv->ro.journal_entries = sv->ro.journal_active = sv->ro.journal_orphaned = 0;
	sv->ro.journal_na = false;
	report_journal_counts(sv->cx, &sv->ro);
	if (sv->probing) {
		probe_snapshot_all(&sv->probe, sv->now);
		hist_delta(sv->win, sv->now, sv->prev);
		*sv->prev = *sv->now;
		pr = (struct om_probe){.cpus = sv->probe_cpus,
				       .p50_us = hist_percentile_us(sv->win, 0.5),
				       .p99_us = hist_percentile_us(sv->win, 0.99),
				       .max_us = sv->win->count ? hist_max_us(sv->win) : NAN,
				       .samples = sv->now->count,
				       .overflows = sv->now->overflows};
	}
	for (int f = 0; f < 2; f++) {
		sbuf_reset(&sv->text[f]);
		openmetrics_write(&sv->text[f], sampler_cur(&sv->sm), &sv->ro,
				  sv->probing ? &pr : NULL, (enum om_format)f);
	}
	return 0;
}

/* Does the request's Accept header (any case) name type? */
static bool accept_has(const char *req, const char *type)
{
	for (const char *l = strchr(req, '\n'); l; l = strchr(l + 1, '\n'))
		if (!strncasecmp(l + 1, "accept:", 7)) {
			size_t n = strcspn(l + 8, "\r\n");

			for (const char *p = l + 8; p + strlen(type) <= l + 8 + n; p++)
				if (!strncasecmp(p, type, strlen(type)))
					return true;
		}
	return false;
}

/* The request in c->req is complete: queue its answer. */
static void handle(struct serve *sv, struct conn *c)
{
	const char *req = c->req;
	char method[16], path[256];
	static const char nf[] = "not found: tunetop serves GET /metrics\n";
	enum om_format fmt;
	bool head;

	if (sscanf(req, "%15s %255s HTTP/1.", method, path) != 2) {
		respond_text(c, 400, "Bad Request", "bad request\n");
		return;
	}
	head = !strcmp(method, "HEAD");
	if (strcmp(method, "GET") && !head) {
		respond_text(c, 405, "Method Not Allowed", "GET only\n");
		return;
	}
	path[strcspn(path, "?")] = '\0';
	if (strcmp(path, "/metrics")) {
		respond(c, 404, "Not Found", "text/plain", nf, sizeof(nf) - 1, head);
		return;
	}
	if (scrape(sv) != 0) {
		respond(c, 503, "Service Unavailable", "text/plain", "sampling failed\n", 16, head);
		return;
	}
	/* The Prometheus text format 0.0.4 unless the client asks for
	   OpenMetrics (as node_exporter and the client libraries do: promtool
	   and curl get text; Prometheus asks for OpenMetrics first) */
	fmt = accept_has(req, "application/openmetrics-text") ? OM_OPENMETRICS : OM_PROMTEXT;
	respond(c, 200, "OK", fmt == OM_PROMTEXT ? PROMTEXT_CONTENT_TYPE : OPENMETRICS_CONTENT_TYPE,
		sv->text[fmt].s, sv->text[fmt].len, head);
}

static void conn_close(struct conn *c)
{
	close(c->fd);
	c->fd = -1;
	sbuf_reset(&c->out);
}

/* A new client in a free slot; with none free, the oldest that has not sent
 * its request is closed for it, or it gets 503 when all are answering. */
static void conn_accept(struct conn *cs, int lfd)
{
	static const char busy[] =
		"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain\r\n"
		"Content-Length: 5\r\nConnection: close\r\n\r\nbusy\n";
	int fd;

	while ((fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK)) >= 0) {
		struct conn *c = NULL, *old = NULL;

		for (int i = 0; i < SERVE_CONN_MAX && !c; i++)
			if (cs[i].fd < 0)
				c = &cs[i];
			else if (cs[i].st == C_READ && (!old || cs[i].start_ns < old->start_ns))
				old = &cs[i];
		if (!c && old) {
			conn_close(old);
			c = old;
		}
		if (!c) {
			(void)!send(fd, busy, sizeof(busy) - 1, MSG_NOSIGNAL | MSG_DONTWAIT);
			close(fd);
			continue;
		}
		if (!c->req)
			c->req = xmalloc(SERVE_REQ_MAX);
		c->fd = fd;
		c->n = 0;
		c->req[0] = '\0';
		c->st = C_READ;
		c->start_ns = time_mono_ns();
		c->end_ns = c->start_ns + (uint64_t)SERVE_REQ_MS * 1000000ULL;
	}
}

/* Readable: take what has come of the request head (up to the blank line);
 * a complete one is answered, one over SERVE_REQ_MAX gets 431. */
static void conn_read(struct serve *sv, struct conn *c)
{
	ssize_t r;

	if (c->st == C_DRAIN) { /* the answer is out: wait for the client's close */
		char junk[4096];

		while ((r = recv(c->fd, junk, sizeof(junk), 0)) > 0)
			;
		if (r == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR))
			conn_close(c);
		return;
	}
	r = recv(c->fd, c->req + c->n, SERVE_REQ_MAX - 1 - c->n, 0);
	if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
		return;
	if (r <= 0) {
		conn_close(c);
		return;
	}
	c->n += (size_t)r;
	c->req[c->n] = '\0';
	if (strstr(c->req, "\r\n\r\n") || strstr(c->req, "\n\n"))
		handle(sv, c);
	else if (c->n + 1 >= SERVE_REQ_MAX)
		respond_text(c, 431, "Request Header Fields Too Large", "request too large\n");
}

/* Writable: send what the socket takes; when all is out, half-close and
 * drain until the client closes (so it reads the whole answer). */
static void conn_write(struct conn *c)
{
	while (c->sent < c->out.len) {
		ssize_t w = send(c->fd, c->out.s + c->sent, c->out.len - c->sent, MSG_NOSIGNAL);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return;
		if (w <= 0) {
			conn_close(c);
			return;
		}
		c->sent += (size_t)w;
	}
	shutdown(c->fd, SHUT_WR);
	sbuf_reset(&c->out);
	c->st = C_DRAIN;
	c->end_ns = time_mono_ns() + 1000000000ULL;
}

/* One round of the loop: wait (at most 1 s, less to the nearest deadline)
 * for the listener and every connection, then serve what is ready. */
static void serve_round(struct serve *sv, struct conn *cs, int lfd)
{
	struct pollfd p[SERVE_CONN_MAX + 1];
	int idx[SERVE_CONN_MAX + 1], np = 1, wait_ms = 1000;
	uint64_t now = time_mono_ns();

	p[0] = (struct pollfd){.fd = lfd, .events = POLLIN};
	for (int i = 0; i < SERVE_CONN_MAX; i++) {
		struct conn *c = &cs[i];

		if (c->fd < 0)
			continue;
		if (now >= c->end_ns) { /* too slow: a late request gets 408 */
			if (c->st == C_READ) {
				respond_text(c, 408, "Request Timeout", "request timeout\n");
			} else {
				conn_close(c);
				continue;
			}
		}
		if ((int)((c->end_ns - now) / 1000000ULL) + 1 < wait_ms)
			wait_ms = (int)((c->end_ns - now) / 1000000ULL) + 1;
		idx[np] = i;
		p[np++] =
			(struct pollfd){.fd = c->fd, .events = c->st == C_SEND ? POLLOUT : POLLIN};
	}
	if (poll(p, (nfds_t)np, wait_ms) <= 0)
		return;
	for (int k = 1; k < np; k++) {
		struct conn *c = &cs[idx[k]];

		if (!p[k].revents || c->fd < 0)
			continue;
		if (c->st != C_SEND)
			conn_read(sv, c);
		if (c->fd >= 0 && c->st == C_SEND)
			conn_write(c);
	}
	if (p[0].revents & POLLIN)
		conn_accept(cs, lfd);
}

/* --probe CPUS: checked and started with SIGINT/SIGTERM blocked, so the
 * measuring threads never take them (they inherit the mask). 0 or -EINVAL
 * after one line on stderr. */
static int start_probe(struct serve *sv, const char *cpus)
{
	struct probe_cfg cfg = {.interval_us = PROBE_DEFAULT_INTERVAL_US,
				.policy = PROBE_POLICY_FIFO,
				.prio = PROBE_DEFAULT_PRIO,
				.dma_latency_us = -1};
	char why[256];
	sigset_t sigs, old;
	int e;

	if (cpulist_parse(cpus, &cfg.cpus) != 0) {
		cmd_error("serve", 0, "--probe '%s': not a CPU list (e.g. 0-3,6)", cpus);
		return -EINVAL;
	}
	if (probe_cfg_check(&cfg, why, sizeof(why)) != 0) {
		cmd_error("serve", 0, "--probe %s: %s", cpus, why);
		return -EINVAL;
	}
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &sigs, &old);
	e = probe_start(&sv->probe, &cfg, why, sizeof(why));
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (e) {
		cmd_error("serve", 0, "--probe %s: %s", cpus, why);
		return -EINVAL;
	}
	sv->probing = true;
	str_copy(sv->probe_cpus, sizeof(sv->probe_cpus), cpus);
	sv->prev = xcalloc(1, sizeof(*sv->prev));
	sv->now = xcalloc(1, sizeof(*sv->now));
	sv->win = xcalloc(1, sizeof(*sv->win));
	hist_init(sv->prev);
	return 0;
}

int cmd_serve(struct cmd_ctx *cx, int argc, char **argv)
{
	const struct tt_opts *o = cx->o;
	const char *listen_s = SERVE_DEFAULT, *probe_arg = NULL;
	bool any = false, loop = false;
	struct sockaddr_storage ss;
	socklen_t sl = 0;
	struct sysroot *r = &cx->root;
	struct serve sv = {.min_ms = 1000, .o = o, .cx = cx, .r = r};
	struct sigaction sa;
	struct conn *cs;
	int c, lfd, one = 1, e;

	optind = 1;
	while ((c = cmd_getopt(cx, argc, argv)) != -1) {
		switch (c) {
		case 'l': listen_s = optarg; break;
		case 'a': any = true; break;
		case 'm': {
			int64_t v;

			if (str_to_i64(optarg, &v) || v < 0 || v > 3600 * 1000) {
				cmd_error(
					"serve", 0,
					"--min-interval wants milliseconds (0..3600000), not '%s'",
					optarg);
				return 2;
			}
			sv.min_ms = (long)v;
			break;
		}
		case 'p': probe_arg = optarg; break;
		case 'h': cmd_print_help("serve", stdout); return 0;
		default: cmd_usage("serve"); return 2;
		}
	}
	if (optind < argc) {
		cmd_error("serve", 0, "unexpected argument '%s'", argv[optind]);
		return 2;
	}
	if (parse_listen(listen_s, &ss, &sl, &loop) != 0) {
		cmd_error("serve", 0, "--listen %s: want ADDR:PORT (e.g. %s)", listen_s,
			  SERVE_DEFAULT);
		return 2;
	}
	if (!loop && !any) {
		cmd_error("serve", 0,
			  "%s is not a loopback address; give --listen-any to serve the network "
			  "(nothing authenticates a scraper)",
			  listen_s);
		return 2;
	}
	if (cmd_setup(cx, 0))
		return 1;
	if (probe_arg && start_probe(&sv, probe_arg) != 0) {
		return 2;
	}
	lfd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (lfd < 0 || setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) != 0 ||
	    bind(lfd, (struct sockaddr *)&ss, sl) != 0 || listen(lfd, SERVE_CONN_MAX) != 0) {
		cmd_error("serve", -errno, "%s", listen_s);
		if (lfd >= 0)
			close(lfd);
		if (sv.probing) {
			probe_stop(&sv.probe);
			probe_free(&sv.probe);
		}
		return 1;
	}
	sl = sizeof(ss);
	getsockname(lfd, (struct sockaddr *)&ss, &sl);
	{
		char host[INET6_ADDRSTRLEN];
		int port;

		if (ss.ss_family == AF_INET6) {
			inet_ntop(AF_INET6, &((struct sockaddr_in6 *)&ss)->sin6_addr, host,
				  sizeof(host));
			port = ntohs(((struct sockaddr_in6 *)&ss)->sin6_port);
			cmd_note("serve", "listening on http://[%s]:%d/metrics", host, port);
		} else {
			inet_ntop(AF_INET, &((struct sockaddr_in *)&ss)->sin_addr, host,
				  sizeof(host));
			port = ntohs(((struct sockaddr_in *)&ss)->sin_port);
			cmd_note("serve", "listening on http://%s:%d/metrics", host, port);
		}
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	sampler_init(&sv.sm, r, SNAP_ALL);
	sv.sm.clk_names = o->clocks;
	sv.ro.root_path = r->path;
	sv.ro.interval_ms = (double)sv.min_ms;
	sbuf_init(&sv.text[0]);
	sbuf_init(&sv.text[1]);
	/* a first sample now, so the first scrape already has rates */
	if ((e = sampler_tick(&sv.sm)) != 0)
		cmd_error("serve", 0, "%s: cannot sample (%s); scrapes get 503", r->path,
			  err_name(e));
	cs = xcalloc(SERVE_CONN_MAX, sizeof(*cs));
	for (int i = 0; i < SERVE_CONN_MAX; i++) {
		cs[i].fd = -1;
		sbuf_init(&cs[i].out);
	}
	while (!serve_stop)
		serve_round(&sv, cs, lfd);
	for (int i = 0; i < SERVE_CONN_MAX; i++) {
		if (cs[i].fd >= 0)
			close(cs[i].fd);
		free(cs[i].req);
		sbuf_free(&cs[i].out);
	}
	free(cs);
	close(lfd);
	if (sv.probing) {
		probe_stop(&sv.probe);
		probe_free(&sv.probe);
	}
	free(sv.prev);
	free(sv.now);
	free(sv.win);
	sbuf_free(&sv.text[0]);
	sbuf_free(&sv.text[1]);
	sampler_free(&sv.sm);
	return 0;
}
