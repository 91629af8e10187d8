/* One rank's program at large n (the program layer alone, no MPI), against
 * sizes worked out from the papers' formulas, not from the code:
 *  - octr, multiport, on the torus of d even sides k (k-ary d-cube): its
 *    steps are the critical sum h = n k / 8 (001 Theorems 5 and 9: every
 *    direction of every dimension carries, per node, the positive distances
 *    1 + .. + (k/2 - 1) + half of the antipodal k/2, times n/k rings);
 *  - multiport unit steps move one block per directed link per step, so with
 *    one chunk every transfer is one block: the rank sends status(v) blocks and
 *    receives status(v) blocks, status(v) = d (n/k) k^2/4 (000 Theorem 1: the
 *    product's status is the sum over dimensions of n/m_i times the factor's,
 *    a ring of even side k having k^2/4);
 *  - n - 1 of the blocks it receives are its own (finals), every source once.
 * Also for every rank tried: every send's pieces lie in its own blocks or in
 * blocks received earlier (checked by the compiler) and the program's arena is
 * at most its soft limit (TOTEX_PROG_ARENA_BLOCKS_PER_RANK blocks per rank).
 * And the memory rule above 1024 ranks (memory_rule() below). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "program_support.h"

static int failures;
#define CHECK(c, ...)                                                                                                  \
    do {                                                                                                               \
        if (!(c)) {                                                                                                    \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                                                        \
            fprintf(stderr, __VA_ARGS__);                                                                              \
            fprintf(stderr, "\n");                                                                                     \
            failures++;                                                                                                \
        }                                                                                                              \
    } while (0)

static void torus(uint32_t k, uint32_t d)
{
    char spec[128] = "";
    size_t len = 0;
    uint64_t n = 1;
    for (uint32_t i = 0; i < d; i++) {
        len += (size_t)snprintf(spec + len, sizeof spec - len, "%sring:%u", i ? "*" : "", k);
        n *= k;
    }
    totex_error err;
    totex_network *net = totex_network_parse(spec, &err);
    CHECK(net, "%s: %s", spec, err.msg);
    if (!net)
        return;
    size_t oi = 0;
    while (totex_algorithm_get(oi) && strcmp(totex_algorithm_get(oi)->name, "octr") != 0)
        oi++;
    const uint64_t steps = n * k / 8, status = (uint64_t)d * (n / k) * k * k / 4;
    const uint32_t ranks[] = {0, 1, (uint32_t)(n / 2 + 1), (uint32_t)(n - 1)};
    totex_comb_cost cost;
    totex_comb_cost_default(&cost);
    cost.m = 65536;
    for (size_t r = 0; r < sizeof ranks / sizeof ranks[0]; r++) {
        totex_prog_cand c = {1, (int)oi, TOTEX_PORTS_MULTI, 1, 0, 0, 0, 0, 0};
        totex_prog *p = NULL;
        char why[300] = "";
        int rc = prog_test_build(net, &cost, &c, (uint32_t)n, ranks[r], 65536, &p, why, sizeof why);
        CHECK(rc == 0, "%s rank %u: %s", spec, ranks[r], why);
        if (rc == 0) {
            CHECK(p->steps == steps, "%s rank %u: %llu steps, 001's critical sum n k / 8 = %llu", spec, ranks[r],
                  (unsigned long long)p->steps, (unsigned long long)steps);
            CHECK(p->nsend == status, "%s rank %u: %zu sends, status %llu (000 Theorem 1)", spec, ranks[r], p->nsend,
                  (unsigned long long)status);
            CHECK(p->nrecv == status, "%s rank %u: %zu receives, status %llu", spec, ranks[r], p->nrecv,
                  (unsigned long long)status);
            uint8_t *seen = calloc(n, 1);
            size_t finals = 0;
            for (size_t i = 0; i < p->nrecv; i++)
                for (size_t f = p->recvs[i].fin_first; f < p->recvs[i].fin_first + p->recvs[i].fin_count; f++) {
                    CHECK(p->finals[f].src < n && !seen[p->finals[f].src], "%s rank %u: final block from %u twice",
                          spec, ranks[r], p->finals[f].src);
                    if (p->finals[f].src < n)
                        seen[p->finals[f].src] = 1;
                    finals++;
                }
            CHECK(finals == n - 1, "%s rank %u: %zu final blocks, n - 1 = %llu", spec, ranks[r], finals,
                  (unsigned long long)(n - 1));
            free(seen);
            CHECK(p->arena_bytes <= p->arena_cap, "%s rank %u: arena %zu bytes over its limit %zu", spec, ranks[r],
                  p->arena_bytes, p->arena_cap);
        }
        totex_prog_free(p);
    }
    totex_network_free(net);
}

/* above TOTEX_PROG_SCALE_MAX ranks, 64 KiB blocks: a program is built only when its arena, staging and
   entries fit one buffer of n blocks + TOTEX_PROG_BUFFER_SLACK (the executor's rule for totex's own memory per
   rank); octr on 64x64 fits (checked against the rule here), a3c does not (its arena of relayed blocks
   grows with n: refused, with the reason) */
static void memory_rule(void)
{
    const char *spec = "ring:64*ring:64";
    totex_error err;
    totex_network *net = totex_network_parse(spec, &err);
    CHECK(net, "%s: %s", spec, err.msg);
    if (!net)
        return;
    const uint32_t n = totex_network_nodes(net);
    const long long slot = 65536;
    totex_comb_cost cost;
    totex_comb_cost_default(&cost);
    cost.switching = TOTEX_SWITCH_WORMHOLE;
    cost.ports = TOTEX_COMB_ALL_PORT;
    cost.m = (double)slot;
    const double rule = (double)n * (double)slot + 64.0 * 1048576;
    size_t oi = 0, ci = 0;
    while (totex_algorithm_get(oi) && strcmp(totex_algorithm_get(oi)->name, "octr") != 0)
        oi++;
    while (totex_comb_algorithm_get(ci) && strcmp(totex_comb_algorithm_get(ci)->name, "a3c") != 0)
        ci++;
    totex_prog_cand octr = {1, (int)oi, TOTEX_PORTS_MULTI, 1, 0, 0, 0, 0, 0}, a3c = {0, (int)ci, 0, 1, 0, 0, 0, 0, 0};
    totex_prog *p = NULL;
    char why[300] = "";
    int rc = prog_test_build(net, &cost, &octr, n, n / 2 + 1, slot, &p, why, sizeof why);
    CHECK(rc == 0, "%s octr: %s", spec, why);
    if (rc == 0) {
        const double own = (double)p->arena_bytes + (double)p->stage_bytes + (double)totex_prog_bytes(p);
        CHECK(own <= rule, "%s octr: %.0f bytes of arena, staging and program, over n blocks + 64 MiB = %.0f", spec,
              own, rule);
    }
    totex_prog_free(p);
    p = NULL;
    why[0] = '\0';
    rc = prog_test_build(net, &cost, &a3c, n, n / 2 + 1, slot, &p, why, sizeof why);
    CHECK(rc == TOTEX_ENOMEM && strstr(why, "exceed one buffer of n blocks"),
          "%s a3c at 64 KiB: built (status %d) or refused without the rule's reason: '%s'", spec, rc, why);
    totex_prog_free(p);
    totex_network_free(net);
}

int main(void)
{
    memory_rule();
    torus(8, 2);
    torus(32, 2);
    torus(16, 3);
    torus(4, 5);
    if (failures)
        return 1;
    printf("program_scale: ok\n");
    return 0;
}
