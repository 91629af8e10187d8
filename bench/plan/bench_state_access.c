/* bench_state_access: what one random read-modify-write of a word of the simulator's messages state costs, by
 * the state's size (session 26: why a smaller state did not bring mesh:64x64 2-port greedy's messages part to
 * 2.0 x memcpy; docs/performance.md, "Why a smaller state does not reach 2.0 x copy here").
 *
 * Usage: build/bench/bench_state_access [MIB...]   (default 8 16 24 32 64)
 * For each size S and word size (2 and 4 bytes): 100 M read-modify-writes of uniformly random words of a state
 * of S MiB (huge pages advised, touched first), each prefetched 96 accesses ahead, the indices precomputed in
 * windows of 1 M outside the clock (a xorshift generator, fixed seed). Prints CPU ns an access of this thread
 * and the ratio to the same accesses on a 512 KiB state (in the L2) measured in the same run: the baseline.
 * No totex code: a model of the messages part's one state access a hop.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#define ACCESSES 100000000u
#define WINDOW (1u << 20)
#define AHEAD 96

static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
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
        for (uint32_t i = 0; i < WINDOW + AHEAD; i++) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            idx[i] = (uint32_t)(x % words);
        }
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
    printf("state_MiB word_B ns_per_access x_512KiB_state\n");
    for (int w = 2; w <= 4; w += 2) {
        const double base = run((size_t)512 << 10, w, idx);
        for (int i = 0; i < ns; i++) {
            const double t = run((size_t)sizes[i] << 20, w, idx);
            if (t < 0)
                printf("%ld %d (cannot map)\n", sizes[i], w);
            else
                printf("%ld %d %.2f %.2f\n", sizes[i], w, t, t / base);
        }
        printf("0.5 %d %.2f 1.00 (baseline)\n", w, base);
    }
    free(idx);
    return 0;
}
