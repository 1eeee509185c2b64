// SPDX-License-Identifier: GPL-2.0-only
/*
 * pipe_hop.c - the spread of one pipe hop on this machine, printed as "name value" lines
 * (`make bench`): the physical source of the ping-pong ring's per-stop jitter.
 *
 * A ping-pong stop in Doug Smythies' ring is a pipe write, the wakeup of the reader and its
 * read returning (lib/scenario/pingpong.c). The lab's i5-10600K stop costs 900 ns, fitted
 * to Doug's ~3.8 µs per loop; how much one stop varies around that cost is what decides
 * whether menu's 1 µs interval samples are 0 or 1 (docs/lab.md finding 2). This measures it:
 *
 *  1. two processes on ONE CPU pass a timestamp through two pipes; each hop is the time from
 *     the writer's clock read to the reader's, so it holds the write, the wakeup, the switch
 *     and the read, and no idle exit and no IPI (the lab models those separately);
 *  2. ROUNDS rounds of HOPS hops (after WARMUP), each round giving its median and the
 *     log-normal sigma of the middle half, ln(p75 / p25) / 1.349, which a VM's rare
 *     host preemptions (the far tail) do not move;
 *  3. printed: per round, and the median over the rounds (pipe_hop_sigma_milli), which is the
 *     figure pingpong's overhead_sigma default quotes.
 *
 * Assumption, named where the figure is used: the relative spread of this path carries over
 * from the measuring machine to the i5-10600K; its absolute cost does not (a VM's syscalls
 * are slower), so only the ratio is used.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define ROUNDS 9
#define HOPS 200000
#define WARMUP 2000

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int pin_to_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

/* The echo side: stamp each message on arrival and send the stamp back until EOF. */
static void echo_loop(int in, int out)
{
	uint64_t t;

	while (read(in, &t, sizeof(t)) == sizeof(t)) {
		t = now_ns();
		if (write(out, &t, sizeof(t)) != sizeof(t))
			break;
	}
}

/* One round: @n hops echo -> here, timed from the echo's stamp to ours. */
static int measure_round(uint64_t *hop, int n)
{
	int to_echo[2], from_echo[2];
	pid_t pid;
	int rc = 0;

	if (pipe(to_echo) || pipe(from_echo))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		close(to_echo[1]);
		close(from_echo[0]);
		echo_loop(to_echo[0], from_echo[1]);
		_exit(0);
	}
	close(to_echo[0]);
	close(from_echo[1]);
	for (int i = 0; i < n + WARMUP; i++) {
		uint64_t go = 0, stamp;

		if (write(to_echo[1], &go, sizeof(go)) != sizeof(go) ||
		    read(from_echo[0], &stamp, sizeof(stamp)) != sizeof(stamp)) {
			rc = -1;
			break;
		}
		if (i >= WARMUP)
			hop[i - WARMUP] = now_ns() - stamp;
	}
	close(to_echo[1]);
	close(from_echo[0]);
	waitpid(pid, NULL, 0);
	return rc;
}

int main(void)
{
	uint64_t *hop = malloc(sizeof(*hop) * HOPS);
	double sigma[ROUNDS];

	if (!hop || pin_to_cpu(0)) {
		perror("pipe_hop");
		return 1;
	}
	for (int r = 0; r < ROUNDS; r++) {
		if (measure_round(hop, HOPS)) {
			perror("pipe_hop: a round failed");
			return 1;
		}
		qsort(hop, HOPS, sizeof(*hop), cmp_u64);
		sigma[r] = log((double)hop[3 * HOPS / 4] / (double)hop[HOPS / 4]) / 1.349;
		printf("pipe_hop_round%d_p25_p50_p75_ns %llu %llu %llu sigma_milli %.0f\n", r,
		       (unsigned long long)hop[HOPS / 4], (unsigned long long)hop[HOPS / 2],
		       (unsigned long long)hop[3 * HOPS / 4], 1000 * sigma[r]);
	}
	qsort(sigma, ROUNDS, sizeof(sigma[0]), cmp_double);
	printf("pipe_hop_hops_per_round %d\n", HOPS);
	printf("pipe_hop_sigma_milli %.0f\n", 1000 * sigma[ROUNDS / 2]);
	printf("pipe_hop_sigma_milli_min_max %.0f %.0f\n", 1000 * sigma[0],
	       1000 * sigma[ROUNDS - 1]);
	free(hop);
	return 0;
}
