/* Padding of short messages (src/program/choice.c, compile.c), without
 * MPI running (no mpirun):
 * - the ranking offers the padded form of the model's 4 best combining
 *   candidates when a P-byte message arrives sooner than an 8-byte one and
 *   the blocks are shorter than P, and none otherwise (P = 0, blocks of P
 *   bytes or more); a padded candidate's prediction equals the formula of
 *   choice.c applied by this test to the combining simulator's report of the
 *   same schedule, S max(t_pad, t_s + B m t_c / S) + rearrangement, floored
 *   at the link load;
 * - a plan compiled with padding sends and receives every message shorter
 *   than P as P bytes, receives none of them in place, and compiles the same
 *   messages at their own sizes without padding.
 * Splitting of long messages (choice.c totex_prog_split_chunks), with one-way times
 * like Open MPI's shared memory (a message above its 4 KiB eager limit costs a
 * rendezvous) and like a network whose cost grows with the size:
 * - the chunk count is ceil(M / split) exactly when M >= 4096 and that many
 *   split-byte messages take at most 0.8 of one M-byte message (linear
 *   between the measured 4096, 8192 and 65536 bytes), recomputed here;
 * - the ranking then offers the split form of the best combining candidates
 *   (each beside its own form, predicted at that ratio of it), none otherwise;
 * - a direct plan compiled in such chunks is flat, every message at most
 *   split bytes, every receive in its place.
 * Splitting by the link measurement (choice.c totex_prog_flow_chunks): chunks of
 * 8 KiB exactly when concurrent 8 KiB messages moved a link's bytes at most 0.9
 * of the time 64 KiB ones took (recomputed here), and the ranking then offers the
 * best combining candidates so split, none under flat costs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "program_support.h"

static int failures;

#define CHECK(cond, ...)                                                                                               \
    do {                                                                                                               \
        if (!(cond)) {                                                                                                 \
            fprintf(stderr, "FAIL: " __VA_ARGS__);                                                                     \
            fprintf(stderr, "\n");                                                                                     \
            failures++;                                                                                                \
        }                                                                                                              \
    } while (0)


/* registry index of combining algorithm @p a */
static size_t comb_index(const totex_comb_algorithm *a)
{
    size_t idx = 0;
    while (totex_comb_algorithm_get(idx) != a)
        idx++;
    return idx;
}

static size_t count_padded(const totex_prog_cand *c, size_t k, int pad)
{
    size_t p = 0;
    for (size_t i = 0; i < k; i++)
        p += c[i].pad == pad && pad > 0;
    return p;
}

static void ranking(const char *spec, long long slot, double t_pad)
{
    totex_error err;
    totex_network *net = totex_network_parse(spec, &err);
    if (!net) {
        CHECK(0, "%s: %s", spec, err.msg);
        return;
    }
    totex_comb_cost cost = prog_test_plan_cost(slot);
    cost.t_s = 2.02e-6; /* SimGrid SMPI's default factors on the bench's torus (bench/smpi/run.sh) */
    cost.t_c = 2.53e-10;
    const totex_prog_linkcost lc = {cost.t_s, cost.t_c, 1.43e-10, 1.13e-10, 9.74e-11, 2048, t_pad, 0, 0, 0, 0, 0, 0};
    totex_prog_cand c[16];
    char why[600] = "";
    size_t k = totex_prog_rank_candidates(net, &cost, &lc, c, 12, why, sizeof why);
    CHECK(k > 0, "%s, %lld B: no candidate (%s)", spec, slot, why);
    size_t padded = count_padded(c, k, 2048);
    if (slot < 2048)
        CHECK(padded == TOTEX_PROG_PAD_VARIANTS, "%s, %lld B: %zu padded candidates, not %d", spec, slot, padded,
              TOTEX_PROG_PAD_VARIANTS);
    else
        CHECK(padded == 0, "%s, %lld B: %zu padded candidates for blocks of at least the padded size", spec, slot,
              padded);
    const double floor_t = totex_prog_link_floor(net, slot, &lc);
    for (size_t i = 0; i < k; i++) {
        if (!c[i].pad)
            continue;
        CHECK(!c[i].unit, "%s: a unit-step candidate padded without TOTEX_PAD", spec);
        int plain = 0;
        for (size_t j = 0; j < k; j++)
            plain |= !c[j].unit && !c[j].pad && c[j].idx == c[i].idx;
        CHECK(plain, "%s, %lld B: padded %s without its own form among the candidates", spec, slot,
              totex_comb_algorithm_get((size_t)c[i].idx)->name);
        /* the formula, from the simulator's report of the same schedule */
        const totex_comb_algorithm *a = totex_comb_algorithm_get((size_t)c[i].idx);
        totex_comb_schedule *s = NULL;
        totex_comb_report r;
        if (a->build(net, &cost, &s, &err) != TOTEX_OK || totex_comb_simulate(net, s, &cost, &r, NULL, &err) != TOTEX_OK) {
            CHECK(0, "%s: %s: %s", spec, a->name, err.msg);
            totex_comb_schedule_free(s);
            continue;
        }
        totex_comb_schedule_free(s);
        const double S = (double)r.startups, step = cost.t_s + (double)r.blocks_transmitted * cost.m * cost.t_c / S;
        double want = S * (lc.t_pad > step ? lc.t_pad : step) + r.time_rearrangement + r.time_propagation;
        if (want < floor_t)
            want = floor_t;
        CHECK(fabs(c[i].predicted - want) <= 1e-9 * want, "%s, %lld B: padded %s predicted %.6g s, formula %.6g s",
              spec, slot, a->name, c[i].predicted, want);
    }
    /* nothing padded when no larger message arrives sooner */
    totex_prog_linkcost none = lc;
    none.pad = 0;
    k = totex_prog_rank_candidates(net, &cost, &none, c, 12, why, sizeof why);
    for (size_t i = 0; i < k; i++)
        CHECK(c[i].pad == 0, "%s, %lld B: padded without padding measured", spec, slot);
    totex_network_free(net);
}

/* compile rank @p rank's share of @p alg on @p spec with blocks of @p slot bytes, padded to @p pad */
static void compiled(const char *spec, const char *alg, uint32_t rank, long long slot, int pad)
{
    totex_error err;
    totex_network *net = totex_network_parse(spec, &err);
    const totex_comb_algorithm *a = totex_comb_algorithm_find(alg, &err);
    if (!net || !a) {
        CHECK(0, "%s %s: %s", spec, alg, err.msg);
        totex_network_free(net);
        return;
    }
    const size_t idx = comb_index(a);
    totex_comb_cost cost = prog_test_plan_cost(slot);
    const uint32_t n = totex_network_nodes(net);
    totex_prog *p[2] = {NULL, NULL};
    char why[600] = "";
    for (int v = 0; v < 2; v++) {
        totex_prog_cand c = {0, (int)idx, 0, 1, 0, 0, 0, v ? pad : 0, 0};
        int rc = prog_test_build(net, &cost, &c, n, rank, slot, &p[v], why, sizeof why);
        CHECK(rc == 0, "%s %s rank %u: %s", spec, alg, rank, why);
    }
    if (p[0] && p[1] && p[0]->nrecv == p[1]->nrecv && p[0]->nsend == p[1]->nsend) {
        size_t short_msgs = 0;
        for (size_t r = 0; r < p[0]->nrecv; r++) {
            const int own = p[0]->recvs[r].bytes, wire = p[1]->recvs[r].bytes;
            short_msgs += own < pad;
            CHECK(wire == (own < pad ? pad : own), "%s %s rank %u: receive %zu of %d bytes travels as %d", spec, alg,
                  rank, r, own, wire);
            CHECK(own >= pad || !p[1]->recvs[r].in_place_ok, "%s %s rank %u: a padded receive lands in place", spec,
                  alg, rank);
        }
        for (size_t i = 0; i < p[0]->nsend; i++) {
            const int own = p[0]->sends[i].bytes, wire = p[1]->sends[i].bytes;
            CHECK(wire == (own < pad ? pad : own), "%s %s rank %u: send %zu of %d bytes travels as %d", spec, alg,
                  rank, i, own, wire);
        }
        CHECK(short_msgs > 0, "%s %s rank %u: no message shorter than %d bytes to pad (test too weak)", spec, alg,
              rank, pad);
    } else if (p[0] && p[1]) {
        CHECK(0, "%s %s rank %u: padding changed the messages (%zu/%zu receives, %zu/%zu sends)", spec, alg, rank,
              p[0]->nrecv, p[1]->nrecv, p[0]->nsend, p[1]->nsend);
    }
    totex_prog_free(p[0]);
    totex_prog_free(p[1]);
    totex_network_free(net);
}

/* the rule of internal.h, recomputed: the chunk count and ratio it gives for @p msg */
static int want_split(long long msg, const totex_prog_linkcost *lc, double *ratio)
{
    *ratio = 1;
    if (msg < 4096 || lc->split <= 0)
        return 1;
    const long long c = (msg + lc->split - 1) / lc->split;
    const double t = msg <= 8192 ? lc->t_4k + (lc->t_8k - lc->t_4k) * (double)(msg - 4096) / 4096.0
                                 : lc->t_8k + (lc->t_64k - lc->t_8k) * (double)(msg - 8192) / 57344.0;
    const double r = (double)c * lc->t_split / t;
    if (c < 2 || c > TOTEX_PROG_MAX_CHUNKS || r > 0.8)
        return 1;
    *ratio = r;
    return (int)c;
}

static void splitting(void)
{
    /* like Open MPI 4.1's shared memory on a 2-core shared virtual machine (one-way, seconds) */
    totex_prog_linkcost ompi = {1.5e-7, 1e-10, 1e-10, 1e-10, 1e-10, 0, 0, 0, 2048, 0.28e-6, 1.3e-6, 1.5e-6, 7.0e-6};
    /* a network whose time grows with the size: t(L) = 1 us + L / 10 GB/s */
    totex_prog_linkcost net = {1e-6, 1e-10, 1e-10, 1e-10, 1e-10, 0, 0, 0, 4096, 1.41e-6, 1.41e-6, 1.82e-6, 7.55e-6};
    const long long sizes[] = {1024, 4095, 4096, 6000, 8192, 10240, 12000, 16384, 65536, 1 << 20};
    int split_seen = 0;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        double r = 0, wr = 0;
        int c = totex_prog_split_chunks(sizes[i], &ompi, &r), w = want_split(sizes[i], &ompi, &wr);
        CHECK(c == w && fabs(r - wr) <= 1e-12, "Open MPI-like costs, %lld B: %d chunks (ratio %.4f), rule %d (%.4f)",
              sizes[i], c, r, w, wr);
        split_seen += c > 1;
        c = totex_prog_split_chunks(sizes[i], &net, &r);
        CHECK(c == 1 && r == 1, "size-proportional costs, %lld B: split in %d", sizes[i], c);
    }
    CHECK(totex_prog_split_chunks(4096, &ompi, NULL) == 2 && totex_prog_split_chunks(8192, &ompi, NULL) == 4 &&
              totex_prog_split_chunks(16384, &ompi, NULL) == 1,
          "Open MPI-like costs: 4096 and 8192 B not in 2 and 4 chunks of 2048, or 16 KiB split");
    CHECK(split_seen >= 2, "Open MPI-like costs: fewer than 2 sizes split (test too weak)");

    /* the ranking on 2 and 4 ranks */
    static const char *specs[] = {"k2", "k2*k2"};
    for (size_t s = 0; s < 2; s++) {
        totex_error err;
        totex_network *nw = totex_network_parse(specs[s], &err);
        totex_comb_cost cost = prog_test_plan_cost(8192);
        cost.t_s = ompi.t_s;
        cost.t_c = ompi.t_c;
        totex_prog_cand c[16];
        char why[600] = "";
        size_t k = totex_prog_rank_candidates(nw, &cost, &ompi, c, 12, why, sizeof why), split = 0;
        for (size_t i = 0; i < k; i++) {
            if (c[i].unit || c[i].chunks == 1)
                continue;
            split++;
            CHECK(c[i].chunks == 4, "%s, 8192 B: a combining candidate in %d chunks, not 4", specs[s], c[i].chunks);
            int own = 0;
            for (size_t j = 0; j < k; j++)
                if (!c[j].unit && c[j].chunks == 1 && c[j].idx == c[i].idx) {
                    own = 1;
                    const double fl = totex_prog_link_floor(nw, 8192, &ompi);
                    double want = c[j].predicted * (4 * ompi.t_split / ompi.t_8k);
                    want = want > fl ? want : fl;
                    CHECK(fabs(c[i].predicted - want) <= 1e-9 * want, "%s: split %s predicted %.6g s, not %.6g s",
                          specs[s], totex_comb_algorithm_get((size_t)c[i].idx)->name, c[i].predicted, want);
                }
            CHECK(own, "%s: split %s without its own form among the candidates", specs[s],
                  totex_comb_algorithm_get((size_t)c[i].idx)->name);
        }
        CHECK(split > 0 && split <= TOTEX_PROG_PAD_VARIANTS, "%s, 8192 B: %zu split candidates", specs[s], split);
        k = totex_prog_rank_candidates(nw, &cost, &net, c, 12, why, sizeof why);
        for (size_t i = 0; i < k; i++)
            CHECK(c[i].unit || c[i].chunks == 1, "%s: a combining candidate split under size-proportional costs",
                  specs[s]);
        totex_network_free(nw);
    }

    /* a direct plan in 4 chunks of 8192-byte blocks on 4 ranks: flat, in place, messages of 2048 B */
    totex_error err;
    totex_network *nw = totex_network_parse("k2*k2", &err);
    const totex_comb_algorithm *a = totex_comb_algorithm_find("direct", &err);
    const totex_comb_cost cost = prog_test_plan_cost(8192);
    totex_prog_cand cd = {0, (int)comb_index(a), 0, 4, 0, 0, 0, 0, 0};
    totex_prog *p = NULL;
    char why[600] = "";
    CHECK(prog_test_build(nw, &cost, &cd, 4, 1, 8192, &p, why, sizeof why) == 0, "direct/4: %s", why);
    if (p) {
        CHECK(p->flat && p->nsend == 12 && p->nrecv == 12, "direct/4 on 4 ranks: flat %d, %zu sends, %zu receives",
              p->flat, p->nsend, p->nrecv);
        for (size_t i = 0; i < p->nsend; i++)
            CHECK(p->sends[i].bytes == 2048 && p->recvs[i].bytes == 2048 && p->recvs[i].in_place_ok,
                  "direct/4: message %zu of %d / %d bytes, in place %d", i, p->sends[i].bytes, p->recvs[i].bytes,
                  p->recvs[i].in_place_ok);
    }
    totex_prog_free(p);
    totex_network_free(nw);
}

/* splitting by the link measurement (choice.c totex_prog_flow_chunks): with SimGrid SMPI's default factors
   concurrent 8 KiB messages moved a link's bytes at 9.71e-11 s/byte, 64 KiB ones at 1.43e-10 (4x4); with
   flat factors both 1e-10 */
static void flow_splitting(void)
{
    const totex_prog_linkcost smpi = {2.02e-6, 2.53e-10, 1.43e-10, 1.13e-10, 9.71e-11, 0, 0, 0, 0, 0, 0, 0, 0};
    const totex_prog_linkcost flat = {1.01e-6, 1e-10, 1e-10, 1e-10, 0.999e-10, 0, 0, 0, 0, 0, 0, 0, 0};
    const long long sizes[] = {8192, 16383, 16384, 20000, 32768, 65536, 1 << 20};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        const long long m = sizes[i];
        /* the rule, recomputed: whole 8 KiB chunks from 2 of them on, at most 16, when 8 KiB flows gain 10% */
        const int want = m < 16384 ? 1 : m / 8192 > 16 ? 16 : (int)(m / 8192);
        double r = 0;
        int c = totex_prog_flow_chunks(m, &smpi, &r);
        CHECK(c == want && fabs(r - (want > 1 ? 9.71e-11 / 1.43e-10 : 1)) <= 1e-12,
              "SMPI-like link costs, %lld B: %d chunks (ratio %.4f), want %d", m, c, r, want);
        c = totex_prog_flow_chunks(m, &flat, &r);
        CHECK(c == 1 && r == 1, "flat link costs, %lld B: split in %d", m, c);
    }
    /* the ranking on 4x4 at 32 KiB: the best two combining candidates also in 4 chunks of 8 KiB, every
       message so (not relayed only), predicted at the ratio of their own form, floored at the link load */
    totex_error err;
    totex_network *nw = totex_network_parse("ring:4*ring:4", &err);
    totex_comb_cost cost = prog_test_plan_cost(32768);
    cost.t_s = smpi.t_s;
    cost.t_c = smpi.t_c;
    totex_prog_cand c[16];
    char why[600] = "";
    size_t k = totex_prog_rank_candidates(nw, &cost, &smpi, c, 12, why, sizeof why), split = 0;
    const double fl = totex_prog_link_floor(nw, 32768, &smpi), ratio = 9.71e-11 / 1.43e-10;
    for (size_t i = 0; i < k; i++) {
        if (c[i].unit || c[i].chunks == 1 || c[i].stagger)
            continue;
        split++;
        CHECK(c[i].chunks == 4, "4x4, 32 KiB: a combining candidate split in %d chunks, not 4", c[i].chunks);
        int own = 0;
        for (size_t j = 0; j < k; j++)
            if (!c[j].unit && j != i && c[j].idx == c[i].idx && (c[j].chunks == 1 || c[j].stagger)) {
                own = 1;
                double want = c[j].predicted * ratio;
                want = want > fl * ratio ? want : fl * ratio;
                want = want > fl ? want : fl;
                CHECK(fabs(c[i].predicted - want) <= 1e-9 * want, "4x4: split %s predicted %.6g s, not %.6g s",
                      totex_comb_algorithm_get((size_t)c[i].idx)->name, c[i].predicted, want);
            }
        CHECK(own, "4x4: split %s without its own form among the candidates",
              totex_comb_algorithm_get((size_t)c[i].idx)->name);
    }
    CHECK(split >= 1 && split <= TOTEX_PROG_FLOW_SPLIT_VARIANTS, "4x4, 32 KiB, SMPI-like: %zu split candidates", split);
    /* direct-relay with its own blocks split, its relayed ones in their chunks: offered where its relayed
       chunks (4: 32 KiB / 4 and 16 KiB / 4 are over 1 KiB) are more than the split's chunks (32 KiB / 8 KiB = 4,
       16 KiB / 8 KiB = 2) and a multiple of them: at 16 KiB in 2 messages, at 32 KiB not (both 4) */
    const long long mixed_at[] = {16384, 32768, 65536};
    for (size_t s = 0; s < sizeof mixed_at / sizeof mixed_at[0]; s++) {
        const long long m = mixed_at[s];
        const int fc = m / 8192 > 16 ? 16 : (int)(m / 8192), want_own = 4 > fc && 4 % fc == 0 ? fc : 0;
        cost = prog_test_plan_cost(m);
        cost.t_s = smpi.t_s;
        cost.t_c = smpi.t_c;
        k = totex_prog_rank_candidates(nw, &cost, &smpi, c, 12, why, sizeof why);
        int mixed = 0, relay_split = -1;
        for (size_t i = 0; i < k; i++) {
            if (c[i].unit || strcmp(totex_comb_algorithm_get((size_t)c[i].idx)->name, "direct-relay"))
                continue;
            if (c[i].chunks == fc && !c[i].stagger)
                relay_split = (int)i;
            if (c[i].stagger > 1)
                mixed = (int)i + 1;
        }
        if (want_own) {
            CHECK(mixed && c[mixed - 1].chunks == 4 && c[mixed - 1].stagger == want_own,
                  "4x4, %lld B, SMPI-like: direct-relay relayed in 4 chunks, own in %d messages not offered", m, want_own);
            CHECK(mixed && relay_split >= 0 && c[mixed - 1].predicted == c[relay_split].predicted,
                  "4x4, %lld B: direct-relay own in %d predicted not at its split form's time", m, want_own);
        } else {
            CHECK(!mixed, "4x4, %lld B: direct-relay with own blocks in %d messages offered (split %d chunks)", m,
                  mixed ? c[mixed - 1].stagger : 0, fc);
        }
        cost.t_s = flat.t_s;
        cost.t_c = flat.t_c;
        k = totex_prog_rank_candidates(nw, &cost, &flat, c, 12, why, sizeof why);
        for (size_t i = 0; i < k; i++)
            CHECK(c[i].unit || c[i].stagger <= 1, "4x4, %lld B, flat: a combining candidate with own blocks split", m);
    }
    cost = prog_test_plan_cost(32768);
    cost.t_s = flat.t_s;
    cost.t_c = flat.t_c;
    k = totex_prog_rank_candidates(nw, &cost, &flat, c, 12, why, sizeof why);
    for (size_t i = 0; i < k; i++)
        CHECK(c[i].unit || c[i].chunks == 1 || c[i].stagger, "4x4, 32 KiB: a combining candidate split under flat costs");
    totex_network_free(nw);
}

int main(void)
{
    splitting();
    flow_splitting();
    static const char *specs[] = {"ring:4*ring:4", "ring:8*ring:8", "ring:4*ring:4*ring:4", "ring:7", "k2*ring:3"};
    for (size_t s = 0; s < sizeof specs / sizeof specs[0]; s++)
        for (long long slot = 8; slot <= 4096; slot *= 8) {
            ranking(specs[s], slot, 1.95e-6); /* measured under SMPI: sooner than t_s */
            ranking(specs[s], slot, 4e-6);    /* later than t_s: the padded forms predicted slower */
        }
    compiled("ring:4*ring:4", "dimwise", 5, 8, 2048);
    compiled("ring:4*ring:4", "direct", 0, 100, 1000);
    compiled("ring:7", "bruck", 3, 1, 4096);
    compiled("ring:3*ring:3", "a2c", 8, 300, 2048);
    printf("test_pad_model: %s (%d failures)\n", failures ? "FAILED" : "ok", failures);
    return failures ? 1 : 0;
}
