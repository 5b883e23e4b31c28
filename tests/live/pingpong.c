/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A pipe ping-pong with a known number of context switches, for the
 * counter tests: the main process and a child pass one byte back and forth
 * ROUNDS times. Each round blocks each side once, so the main thread makes
 * one context switch per round (two per round for the pair). With -c CPU
 * both sides are pinned to one CPU (no migrations); -m MB touches MB
 * megabytes first (MB*256 page faults with 4 KiB pages).
 *
 * usage: pingpong [-c CPU] [-m MB] ROUNDS */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int xread(int fd, char *c)
{
	ssize_t n;

	do
		n = read(fd, c, 1);
	while (n < 0 && errno == EINTR);
	return n == 1 ? 0 : -1;
}

static int xwrite(int fd, char c)
{
	ssize_t n;

	do
		n = write(fd, &c, 1);
	while (n < 0 && errno == EINTR);
	return n == 1 ? 0 : -1;
}

int main(int argc, char **argv)
{
	int ping[2], pong[2], opt, cpu = -1, st;
	long rounds, mb = 0;
	pid_t child;
	char c = 'x';

	while ((opt = getopt(argc, argv, "c:m:")) != -1) {
		switch (opt) {
		case 'c': cpu = atoi(optarg); break;
		case 'm': mb = atol(optarg); break;
		default: fprintf(stderr, "usage: pingpong [-c CPU] [-m MB] ROUNDS\n"); return 2;
		}
	}
	if (optind >= argc || (rounds = atol(argv[optind])) <= 0) {
		fprintf(stderr, "usage: pingpong [-c CPU] [-m MB] ROUNDS\n");
		return 2;
	}
	if (cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set) < 0) {
			perror("pingpong: sched_setaffinity");
			return 1;
		}
	}
	if (mb > 0) {
		size_t len = (size_t)mb << 20;
		char *buf = malloc(len);
		volatile char *p = buf;

		if (!buf)
			return 1;
		for (size_t i = 0; i < len; i += 4096)
			p[i] = 1;
		free(buf);
	}
	if (pipe(ping) < 0 || pipe(pong) < 0) {
		perror("pingpong: pipe");
		return 1;
	}
	child = fork();
	if (child < 0) {
		perror("pingpong: fork");
		return 1;
	}
	if (child == 0) {
		close(ping[1]);
		close(pong[0]);
		for (long i = 0; i < rounds; i++)
			if (xread(ping[0], &c) < 0 || xwrite(pong[1], c) < 0)
				_exit(1);
		_exit(0);
	}
	close(ping[0]);
	close(pong[1]);
	for (long i = 0; i < rounds; i++)
		if (xwrite(ping[1], c) < 0 || xread(pong[0], &c) < 0)
			return 1;
	if (waitpid(child, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
		return 1;
	return 0;
}
