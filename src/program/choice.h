/* The choice model of the executor (choice.c): the candidates (message-combining
 * algorithms of totex/combining.h, unit-step schedules of totex/algorithm.h in
 * chunks, padded and split forms) ranked by predicted seconds from measured
 * link costs (002's start-up/transmission model, t_s and t_c, with the link
 * time t_l under concurrent flows). No MPI, no environment: the runtime measures
 * the costs and reads the knobs. Not installed. */
#ifndef TOTEX_PROG_CHOICE_H
#define TOTEX_PROG_CHOICE_H

#include <stddef.h>
#include <stdint.h>

#include "totex/algorithm.h"
#include "totex/combining.h"
#include "totex/network.h"

#define TOTEX_PROG_COST_CHUNK 8192 /* bytes: the second message size of the cost measurement (src/mpi/measure.c) */
#define TOTEX_PROG_MAX_STAGGERED 4 /* most chunks the model staggers */
#define TOTEX_PROG_MIN_CHUNK 1024 /* bytes: the model splits no block into chunks smaller than this */
#define TOTEX_PROG_UNIT_FULL_MAX 256 /* above this many ranks, no unit-step candidate without a symmetric form */
#define TOTEX_PROG_PAD_VARIANTS 4 /* padded forms offered: of the model's best this many combining candidates */
#define TOTEX_PROG_SCALE_MAX 1024 /* above this many ranks only candidates whose per-rank planning is O(moves of one
                                     node) are offered (build.h) */

typedef struct totex_prog_cand {
    int unit;         /* 0: combining algorithm idx; 1: unit-step algorithm idx of totex/algorithm.h */
    int idx;          /* registry index */
    uint32_t ports;   /* unit-step port model */
    int chunks;       /* messages per transfer */
    double predicted; /* seconds */
    uint64_t steps;   /* unit-step: predicted steps */
    int order;        /* tie-break */
    int pad;          /* messages shorter than this many bytes padded to it (0: none) */
    int stagger;      /* unit-step with chunks > 1: lanes 1 .. chunks - 1 start a latency behind lane 0; 2: and
                         every rank starts its data after as many kick rounds as the network's diameter.
                         Combining with chunks > 1: W >= 1 = only the messages of relayed blocks in chunks, the
                         sender's own blocks to their destination in W messages (1: whole; W divides chunks;
                         totex_prog.own_whole, compile.c) */
} totex_prog_cand;
/* measured costs (seconds, seconds/byte): t_c, t_l at 64 KiB, *_chunk at TOTEX_PROG_COST_CHUNK bytes */
typedef struct totex_prog_linkcost {
    double t_s, t_c, t_l, t_c_chunk, t_l_chunk;
    int pad;      /* bytes: short messages may be padded to this size (0: padding never pays); */
    double t_pad; /* seconds: one-way time of a pad-byte message */
    int pad_forced; /* TOTEX_PAD: every candidate padded to pad, no unpadded variants */
    int split;      /* bytes: a longer message may travel as messages of at most this many (0: never) */
    double t_split, t_4k, t_8k, t_64k; /* seconds: one-way times of split, 4096, 8192, 65536-byte messages */
} totex_prog_linkcost;
/* messages of the same bytes as one @p msg-byte message is best sent in, by the measured one-way times
   (lc->split ... t_64k; none measured: 1): c = ceil(msg / lc->split) when msg >= 4096 and c messages of
   lc->split bytes take at most 0.8 of one of msg bytes (interpolated linearly between 4096, 8192 and 65536
   bytes, beyond on the last segment), else 1; at most TOTEX_PROG_MAX_CHUNKS. *ratio (may be NULL): c
   t_split / t(msg) when c > 1, else 1. Over Open MPI's shared memory a message above its 4 KiB eager
   limit goes by a single-copy rendezvous: 8 KiB as one message 3.07 us a call, as 3 of 2731 B 1.91 us
   (2 ranks, raw MPI). No MPI, no allocation, no errors. Source: no paper (002's start-up/transmission
   model has one message per transfer); the rule: chunks chosen from the measured costs of the links */
int totex_prog_split_chunks(long long msg, const totex_prog_linkcost *lc, double *ratio);
/* chunks of TOTEX_PROG_COST_CHUNK bytes in which a transfer of @p msg-byte blocks may travel when concurrent
   messages of that size move bytes faster over a link than 64 KiB ones (the link measurement's flows):
   c = msg / TOTEX_PROG_COST_CHUNK when msg >= 2 TOTEX_PROG_COST_CHUNK and lc->t_l_chunk <=
   TOTEX_PROG_FLOW_SPLIT_GAIN x lc->t_l (both measured and positive), else 1; at most
   TOTEX_PROG_MAX_CHUNKS. *ratio (may be NULL): t_l_chunk / t_l when c > 1, else 1. SimGrid SMPI's default
   factors give 8 KiB messages 1.09 x a link's bandwidth and 64 KiB ones 0.94 x: measured t_l 1.43e-10
   against t_l_chunk 9.71e-11 s/byte on 4x4 (docs/performance.md, "The floor of a link"). No MPI, no
   allocation, no errors. Source: no paper; the rule: chunks chosen from the measured costs of the links */
int totex_prog_flow_chunks(long long msg, const totex_prog_linkcost *lc, double *ratio);
#define TOTEX_PROG_FLOW_SPLIT_GAIN 0.9 /* t_l_chunk / t_l at or below which totex_prog_flow_chunks splits */
#define TOTEX_PROG_FLOW_SPLIT_VARIANTS 2 /* of the model's best this many combining candidates offered so split */
#define TOTEX_PROG_CHUNK_OVERHEAD 0.05 /* start-ups each extra chunk of a transfer costs */
/* predicted seconds of a unit-step schedule of @p steps steps with blocks of @p slot bytes in
   @p chunks chunks, lanes staggered (@p stagger nonzero, chunks > 1) or not */
double totex_prog_unit_time(uint64_t steps, long long slot, int chunks, int stagger, const totex_prog_linkcost *lc);
/* 1 when staggered lanes in @p chunks (>= 2) should start after @p diameter kick rounds (compile.c): the
   rounds' start-ups, diameter t_s, cost less than what the lanes hide over @p steps steps (the part of a
   step's start-up totex_prog_unit_time counts as hidden), which they hide only when every rank starts its
   data at once (on SimGrid, after a barrier: docs/performance.md, "The first call after the choice"); else 0 */
int totex_prog_start_rounds_pay(uint64_t steps, long long slot, int chunks, uint64_t diameter,
                                const totex_prog_linkcost *lc);
/* the model's chunk count for blocks of @p slot bytes, lanes staggered or not (argmin of
   totex_prog_unit_time over 1 .. TOTEX_PROG_MAX_CHUNKS, over 2 .. when staggered; 1 when
   staggered and the block is too small for two chunks) */
int totex_prog_model_chunks(long long slot, int stagger, const totex_prog_linkcost *lc);
/* link-load floor of any total exchange: status(0) * slot * t_l / degree(0), seconds */
double totex_prog_link_floor(const totex_network *net, long long slot, const totex_prog_linkcost *lc);
#define TOTEX_PROG_RELAY_CHUNKS 4 /* chunks of direct-relay's relayed blocks (totex_prog_comb_form) */
/* the form in which combining candidate @p c (c->idx set, c->unit 0) runs for blocks of @p slot bytes: its
   chunks and c->stagger. direct-relay (src/combining/relay.c) sends its relayed blocks in
   TOTEX_PROG_RELAY_CHUNKS chunks (fewer when a chunk would be under TOTEX_PROG_MIN_CHUNK bytes) and its own
   blocks whole (stagger 1: under fair sharing of links the relayed blocks arrive sooner and go on while the
   direct messages move; docs/performance.md); every other one in one message per transfer. No errors.
   Source: this project */
void totex_prog_comb_form(long long slot, totex_prog_cand *c);
/* the unit-step candidate named @p name and its port model, or NULL (not a candidate) */
const totex_algorithm *totex_prog_unit_algorithm(const char *name, totex_ports *ports);
/* every candidate that applies to @p net (cost->m = slot bytes, cost->t_s, cost->t_c; link t_l;
   padding lc->pad), by increasing predicted time, at most @p cap into @p out (at most half of
   them, and at most 4, unit-step); 0 with why[] when none applies. Above TOTEX_PROG_SCALE_MAX ranks only
   candidates whose per-rank share is O(moves of one node) are offered (a unit-step schedule with a
   symmetric form, a combining one with a node-0 form): with some left out and k > 0, why[] names them
   (the runtime's TOTEX_VERBOSE line says it). Of the best combining candidates, split forms (every message
   in c chunks: totex_prog_split_chunks, else totex_prog_flow_chunks) are offered too, and a candidate in its
   relayed-in-chunks form (direct-relay: C chunks, stagger 1) whose split c < C divides C also with its own
   blocks in c messages (stagger c), both at the split form's prediction */
size_t totex_prog_rank_candidates(const totex_network *net, const totex_comb_cost *cost,
                                 const totex_prog_linkcost *lc, totex_prog_cand *out, size_t cap, char *why, size_t wcap);
/* predicted seconds of combining schedule @p r (002's model, cost @p cost) with every message shorter
   than lc->pad bytes padded to it: each start-up step costs at least t_pad, the time of a pad-byte message */
double totex_prog_padded_time(const totex_comb_report *r, const totex_comb_cost *cost, const totex_prog_linkcost *lc);
/* Predicted seconds of a nonblocking run (totex_ialltoall) of a schedule whose blocking run takes
   @p blocking_s seconds and that has @p dependent_steps dependent steps (totex_prog_dependent_steps), when
   the caller makes a progress call (a test) every @p interval_s seconds and the run moves on only inside
   them (no asynchronous progress, as under SimGrid SMPI and Open MPI's ob1 without a progress thread):
       T_nb = blocking_s + (D - 1) interval_s / 2,
   each dependent step after the first waiting for the next test after its receives came, half an interval
   on average. Fitted to, not derived from, SimGrid SMPI's 4x4 torus at 64 KiB with a test every 10 us
   (docs/performance.md, "Overlap of totex_ialltoall with computation"): octr in 8 chunks, D = 8, 70.9 us
   blocking, 105.9 us predicted, 100.8 us measured; direct-relay, D = 2, 88.1 us, 93.1 us predicted, 93.9 us
   measured. D = 0 or 1, or interval_s <= 0: blocking_s. No errors. Source: no paper */
double totex_prog_nonblocking_time(double blocking_s, uint64_t dependent_steps, double interval_s);
/* The nonblocking choice among @p nc candidates: the index of the least totex_prog_nonblocking_time(
   @p blocking_s[c], @p dep[c], @p interval_s), with every candidate's prediction in @p nbt[c] (-1 where
   blocking_s[c] < 0 or dep[c] == 0: not timed, or its dependent steps unknown, left out); ties and
   candidates no faster keep the blocking choice @p pick. Returns @p pick when interval_s <= 0, and -1 when
   pick is out of range or left out (dep[pick] == 0: no prediction to compare against). No errors, no
   allocation. Source: no paper (src/mpi/plan.c's nonblocking choice) */
int totex_prog_nonblocking_pick(int nc, const double *blocking_s, const uint64_t *dep, int pick, double interval_s,
                                double *nbt);
/* the candidate's name into @p out (@p cap bytes, truncated): "direct", "octr/multiport/3 chunks",
   "direct/padded to 2048 B"; the port model named by totex_ports_format() */
void totex_prog_cand_name(const totex_prog_cand *c, char *out, size_t cap);

#endif
