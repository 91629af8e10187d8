/* bench_state_access: what one random read-modify-write of a word of the simulator's messages state costs, by
 * the state's size (session 26: why a smaller state did not bring mesh:64x64 2-port greedy's messages part to
 * 2.0 x memcpy; docs/performance.md, "Why a smaller state does not reach 2.0 x copy here").
 *
 * Usage: build/bench/bench_state_access [MIB...]   (default 8 16 24 32 64)
 * For each size S and word size (2 and 4 bytes): 100 M read-modify-writes of uniformly random words of a state
 * of S MiB (huge pages advised, touched first), each prefetched 96 accesses ahead, the indices precomputed in
 * windows of 1 M outside the clock (a xorshift generator, fixed seed). Prints CPU ns an access of this thread
 * and the ratio to the same accesses on a 512 KiB state (in the L2) measured in the same run: the baseline.
 * Beside it, x copy: the ratio to memcpy of 16 bytes an access (a hop's bytes, bench_sim's baseline) in the
 * same run. Then, for 4-byte words of states up to 512 MiB, the same accesses taken bucketed: the indices of
 * a window scattered as 8-byte records (the slice's word and a value) into buckets of 256 KiB slices of the state,
 * each bucket applied in order (its records prefetched 96 ahead) when it holds 64 Ki records: an exact
 * per-message check in which each slice comes from memory once a bucket instead of a line an access.
 * No totex code: a model of the messages part's one state access a hop.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "bench_util.h"

#define ACCESSES 100000000u
#define WINDOW (1u << 20)
#define AHEAD 96

static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* the next window's WINDOW + AHEAD uniformly random word indices below @p words (xorshift state *x) */
static void window_indices(uint64_t *x, uint32_t *idx, size_t words)
{
    for (uint32_t i = 0; i < WINDOW + AHEAD; i++) {
        *x ^= *x << 13;
        *x ^= *x >> 7;
        *x ^= *x << 17;
        idx[i] = (uint32_t)(*x % words);
    }
}

/* ns an access over a state of @p bytes of @p word-byte words; -1 when the state cannot be mapped */
static double run(size_t bytes, int word, uint32_t *idx)
{
    uint8_t *a = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (a == MAP_FAILED)
        return -1;
#ifdef MADV_HUGEPAGE
    madvise(a, bytes, MADV_HUGEPAGE);
#endif
    memset(a, 1, bytes);
    const size_t words = bytes / (size_t)word;
    uint64_t x = 88172645463325252ull;
    double t = 0;
    for (uint32_t done = 0; done < ACCESSES; done += WINDOW) {
        window_indices(&x, idx, words);
        const double t0 = cpu_now();
        if (word == 2) {
            uint16_t *s = (uint16_t *)a;
            for (uint32_t i = 0; i < WINDOW; i++) {
                __builtin_prefetch(s + idx[i + AHEAD], 1, 3);
                s[idx[i]] += 1;
            }
        } else {
            uint32_t *s = (uint32_t *)a;
            for (uint32_t i = 0; i < WINDOW; i++) {
                __builtin_prefetch(s + idx[i + AHEAD], 1, 3);
                s[idx[i]] += 1;
            }
        }
        t += cpu_now() - t0;
    }
    munmap(a, bytes);
    return t * 1e9 / ACCESSES;
}

/* the bucketed form of run()'s 4-byte accesses: ns an access, -1 when out of memory, -2 over BUCKETED_MAX_MIB
   (its buckets, touched first as the state is, take twice the state's bytes) */
#define SLICE_WORDS ((size_t)1 << 16) /* 256 KiB of 4-byte words */
#define BUCKET_RECORDS 65536u
#define BUCKETED_MAX_MIB 512
static double run_bucketed(size_t bytes, uint32_t *idx)
{
    if (bytes > ((size_t)BUCKETED_MAX_MIB << 20))
        return -2;
    const size_t words = bytes / 4, groups = (words + SLICE_WORDS - 1) / SLICE_WORDS;
    /* each bucket 64 Ki records plus 4160 bytes, so that the buckets' tails do not share cache sets */
    const size_t stride = BUCKET_RECORDS * sizeof(uint64_t) + 4160, area = groups * stride;
    uint8_t *a = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    uint8_t *b = mmap(NULL, area, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    uint32_t *fill = calloc(groups, sizeof *fill);
    if (a == MAP_FAILED || b == MAP_FAILED || !fill) {
        if (a != MAP_FAILED)
            munmap(a, bytes);
        if (b != MAP_FAILED)
            munmap(b, area);
        free(fill);
        return -1;
    }
#ifdef MADV_HUGEPAGE
    madvise(a, bytes, MADV_HUGEPAGE);
    madvise(b, area, MADV_HUGEPAGE);
#endif
    memset(a, 1, bytes);
    memset(b, 0, area);
    uint32_t *const s = (uint32_t *)a;
    uint64_t x = 88172645463325252ull, bad = 0;
    double t = 0;
    for (uint32_t done = 0; done < ACCESSES; done += WINDOW) {
        window_indices(&x, idx, words);
        const double t0 = cpu_now();
        const int end = done + WINDOW >= ACCESSES; /* then every bucket is applied after the window */
        for (size_t i = 0; i < WINDOW + (end ? groups : 0); i++) {
            const int last = i >= WINDOW;
            const size_t g = last ? i - WINDOW : idx[i] / SLICE_WORDS;
            uint64_t *r = (uint64_t *)(b + g * stride);
            if (!last)
                r[fill[g]++] = (uint64_t)(idx[i] % SLICE_WORDS) << 32 | (i & 0xffff);
            if (fill[g] == BUCKET_RECORDS || (last && fill[g])) {
                uint32_t *sl = s + g * SLICE_WORDS;
                const uint32_t f = fill[g];
                for (uint32_t j = 0; j < f; j++) {
                    if (j + AHEAD < f)
                        __builtin_prefetch(sl + (r[j + AHEAD] >> 32), 1, 3);
                    uint32_t *w = sl + (r[j] >> 32);
                    bad += *w == 0; /* the check: a word's value compared */
                    *w += (uint32_t)r[j] | 1;
                }
                fill[g] = 0;
            }
        }
        t += cpu_now() - t0;
    }
    munmap(a, bytes);
    munmap(b, area);
    free(fill);
    return bad == (uint64_t)-1 ? -1 : t * 1e9 / ACCESSES;
}

int main(int argc, char **argv)
{
    static const long def[] = {8, 16, 24, 32, 64};
    long sizes[32];
    int ns = 0;
    for (int i = 1; i < argc && ns < 32; i++) {
        char *end;
        long v = strtol(argv[i], &end, 10);
        if (*end || v < 1 || v > 4096) {
            fprintf(stderr, "bench_state_access: '%s' is not a state size in MiB (1 .. 4096)\n", argv[i]);
            return 2;
        }
        sizes[ns++] = v;
    }
    if (!ns)
        for (; ns < 5; ns++)
            sizes[ns] = def[ns];
    uint32_t *idx = malloc(sizeof *idx * (WINDOW + AHEAD));
    if (!idx) {
        fprintf(stderr, "bench_state_access: out of memory\n");
        return 1;
    }
    /* the baseline taken before and after the accesses (their mean), a noisy machine's drift shown */
    const double copy0 = bench_memcpy_clock((uint64_t)ACCESSES * 16, cpu_now) * 1e9 / ACCESSES;
    double res[2][32], base[2], bk[32];
    for (int w = 0; w < 2; w++) {
        base[w] = run((size_t)512 << 10, 2 + 2 * w, idx);
        for (int i = 0; i < ns; i++)
            res[w][i] = run((size_t)sizes[i] << 20, 2 + 2 * w, idx);
    }
    for (int i = 0; i < ns; i++)
        bk[i] = run_bucketed((size_t)sizes[i] << 20, idx);
    const double copy1 = bench_memcpy_clock((uint64_t)ACCESSES * 16, cpu_now) * 1e9 / ACCESSES,
                 copy = (copy0 + copy1) / 2;
    printf("state_MiB word_B form ns_per_access x_512KiB_state x_copy\n");
    for (int w = 0; w < 2; w++) {
        for (int i = 0; i < ns; i++) {
            const double t = res[w][i];
            if (t < 0)
                printf("%ld %d direct (cannot map)\n", sizes[i], 2 + 2 * w);
            else
                printf("%ld %d direct %.2f %.2f %.2f\n", sizes[i], 2 + 2 * w, t, t / base[w], t / copy);
        }
        printf("0.5 %d direct %.2f 1.00 %.2f (baseline)\n", 2 + 2 * w, base[w], base[w] / copy);
    }
    for (int i = 0; i < ns; i++) {
        const double t = bk[i];
        if (t == -2)
            printf("%ld 4 bucketed (not run: its buckets would take %ld MiB; up to %d MiB of state)\n", sizes[i],
                   2 * sizes[i], BUCKETED_MAX_MIB);
        else if (t < 0)
            printf("%ld 4 bucketed (cannot map)\n", sizes[i]);
        else
            printf("%ld 4 bucketed %.2f - %.2f\n", sizes[i], t, t / copy);
    }
    printf("copy: memcpy of 16 B an access (a hop's bytes), %.2f ns (%.2f before the accesses, %.2f after)\n", copy,
           copy0, copy1);
    free(idx);
    return 0;
}
