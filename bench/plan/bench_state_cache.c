/*
 * Where the simulator's replay waits, without hardware counters: each
 * schedule is planned into a sink that feeds every hop's message to a model
 * of one core's cache, and the misses per hop are printed for the two
 * layouts of the simulator's state (src/sim/sim.c, 4 bytes per message, 16
 * to a 64-byte line): by offset ((dst - src) mod n, then src) and by
 * destination (dst, then src). The model: a 16-way set-associative cache
 * with LRU replacement (sets picked by a multiplicative hash of the line), of
 * CACHE MiB (default 1, this machine's L2 per core); alone, and with the
 * hop stream read through the same cache (one new 64-byte line every 4
 * hops of 16 bytes, as the replay reads its hand-over buffers).
 * Baseline in the same run: the stream's own misses (1/4 per hop), the
 * least a replay from a buffer misses.
 *
 *   ./build/bench/bench_state_cache [SPEC PORTS ALGO]...   (default: the list below)
 *   BENCH_CACHE_MIB=4 ./build/bench/bench_state_cache ...   (another cache size)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench_util.h"
#include "totex.h"

enum { WAYS = 16, LAYOUTS = 2 };

typedef struct cache_model {
    uint64_t *tag, *age; /* sets * WAYS: the line held, its last use (0: never) */
    uint32_t sets;
    uint64_t clock, misses;
} cache_model;

static int cache_init(cache_model *c, size_t bytes)
{
    c->sets = (uint32_t)(bytes / 64 / WAYS);
    c->sets = c->sets ? c->sets : 1;
    c->tag = malloc(sizeof *c->tag * c->sets * WAYS);
    c->age = calloc((size_t)c->sets * WAYS, sizeof *c->age);
    c->clock = c->misses = 0;
    if (!c->tag || !c->age)
        return -1;
    for (size_t i = 0; i < (size_t)c->sets * WAYS; i++)
        c->tag[i] = UINT64_MAX;
    return 0;
}

static void cache_touch(cache_model *c, uint64_t line)
{
    const uint32_t set = (uint32_t)((line * UINT64_C(0x9E3779B97F4A7C15)) >> 40) % c->sets;
    uint64_t *t = c->tag + (size_t)set * WAYS, *a = c->age + (size_t)set * WAYS;
    int lru = 0;
    c->clock++;
    for (int i = 0; i < WAYS; i++) {
        if (t[i] == line) {
            a[i] = c->clock;
            return;
        }
        if (a[i] < a[lru])
            lru = i;
    }
    c->misses++;
    t[lru] = line;
    a[lru] = c->clock;
}

typedef struct model {
    uint32_t n;
    uint64_t hops, stream_line; /* stream lines are numbered above every state line */
    cache_model alone[LAYOUTS], with_stream[LAYOUTS];
} model;

/* the state's line of message (src, dst): layout 0 by offset, 1 by destination (as sim.c's state_index) */
static uint64_t state_line(uint32_t n, uint32_t src, uint32_t dst, int by_dst)
{
    const uint32_t d = by_dst ? dst : dst >= src ? dst - src : dst - src + n;
    return ((uint64_t)d * n + src) / 16;
}

static totex_status model_step(void *ctx, const totex_hop *hops, size_t count, totex_error *err)
{
    model *m = ctx;
    (void)err;
    for (size_t x = 0; x < count; x++, m->hops++) {
        const int new_line = (m->hops & 3) == 0;
        if (new_line)
            m->stream_line++;
        for (int l = 0; l < LAYOUTS; l++) {
            const uint64_t line = state_line(m->n, hops[x].src, hops[x].dst, l);
            cache_touch(&m->alone[l], line);
            if (new_line)
                cache_touch(&m->with_stream[l], m->stream_line);
            cache_touch(&m->with_stream[l], line);
        }
    }
    return TOTEX_OK;
}

int main(int argc, char **argv)
{
    const char *defaults[] = {"mesh:24x32", "multi", "rounds", "mesh:32x32", "single", "a2",
                              "mesh:16x32", "k:2",   "greedy", "mesh:48x64", "single", "a2"};
    const char **jobs;
    const int njobs = bench_jobs(argc, argv, 3, defaults, (int)(sizeof defaults / sizeof defaults[0]), &jobs,
                                 "[SPEC PORTS ALGO]...");
    const char *mib_s = getenv("BENCH_CACHE_MIB");
    const double mib = mib_s && atof(mib_s) > 0 ? atof(mib_s) : 1.0;
    int rc = 0;
    if (njobs < 0)
        return 2;
    printf("cache model: %.1f MiB, %d-way LRU; misses per hop of the state (4 B a message), alone and with the "
           "hop stream (16 B a hop) through the same cache\n",
           mib, WAYS);
    printf("%-14s %-6s %-8s %11s %10s %10s %13s %13s %10s\n", "network", "ports", "algo", "hops", "offset", "dst",
           "offset+stream", "dst+stream", "stream");
    for (int j = 0; j < njobs; j++) {
        const char *const *a = jobs + 3 * j;
        totex_error err = {{0}};
        totex_ports ports;
        const totex_algorithm *algo = NULL;
        totex_network *net = totex_network_parse(a[0], &err);
        model *m = calloc(1, sizeof *m);
        int bad = !net || !m || totex_ports_parse(a[1], &ports, &err) != TOTEX_OK ||
                  !(algo = totex_algorithm_find(a[2], &err));
        for (int l = 0; !bad && l < LAYOUTS; l++)
            bad = cache_init(&m->alone[l], (size_t)(mib * 1048576)) ||
                  cache_init(&m->with_stream[l], (size_t)(mib * 1048576));
        if (!bad) {
            m->n = totex_network_nodes(net);
            m->stream_line = UINT64_C(1) << 50;
            totex_sink sink = {model_step, m};
            bad = algo->plan(net, ports, sink, &err) != TOTEX_OK;
        }
        if (bad || !m->hops) {
            printf("%-14s %-6s %-8s FAILED: %s\n", a[0], a[1], a[2], bad && err.msg[0] ? err.msg : "out of memory");
            rc = 1;
        } else {
            const double h = (double)m->hops, s = (double)((m->hops + 3) / 4) / h;
            printf("%-14s %-6s %-8s %11llu %10.4f %10.4f %13.4f %13.4f %10.4f\n", a[0], a[1], a[2],
                   (unsigned long long)m->hops, (double)m->alone[0].misses / h, (double)m->alone[1].misses / h,
                   (double)m->with_stream[0].misses / h, (double)m->with_stream[1].misses / h, s);
        }
        for (int l = 0; m && l < LAYOUTS; l++) {
            free(m->alone[l].tag);
            free(m->alone[l].age);
            free(m->with_stream[l].tag);
            free(m->with_stream[l].age);
        }
        free(m);
        totex_network_free(net);
    }
    printf("columns: misses per hop; offset / dst: the state alone in that layout; +stream: with the hop stream's "
           "lines (stream: the stream's own, 1/4 a hop)\n");
    return rc;
}
