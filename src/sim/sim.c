/*
 * The step simulator: replays any
 * store-and-forward schedule of total exchange and rejects every violation
 * with the step, node and message that broke the rule. It reads only the
 * network (adjacency) and the port model; it never trusts an algorithm.
 *
 * State: for each ordered pair (src, dst), src != dst, the node holding the
 * message (4 bytes), indexed by the offset (dst - src) mod n, then by src: a
 * schedule made of translated copies of one pattern (A3's B-exchanges, an
 * expanded symmetric schedule) moves messages of one offset from consecutive
 * sources in the same step, so they share cache lines (on mesh:64x64, A3's
 * replay ran in 0.55 of the time of the layout by destination); A2 moves
 * messages of consecutive sources to one destination, so the layout is chosen
 * after the first 64 steps: by destination when that puts their messages in
 * at most an eighth of the cache lines (layout_review). Then it is reviewed
 * as the replay goes, with a third layout, by source and then by the
 * destination's coordinates in reverse order: A2's second phase on a 2-D
 * mesh moves one source's messages to the same node of every row, 16 to a
 * line that way and 1 by destination. Links are
 * found in a table of each node's neighbours by slot (networks of at most
 * SIM_TABLE_SLOTS link slots per node; the others by coordinates and the
 * factors' adjacency). Per step, a first pass checks
 * every hop against the state at the start of the step (store-and-forward:
 * a message moves at most one link per step) and the port rules; a second
 * pass applies the hops, detecting a message moved twice (duplicated), and
 * adds undelivered arrivals to the receivers' queues, so the peak queue is
 * measured at step ends.
 *
 * Split replay: the same checks in two parts that write
 * disjoint memory, links (ids, links, ports, link conflicts, queues) and
 * messages (ids, presence, delivered, duplicates, arrivals), each a sink
 * (totex_sim_stage_sink) fed every step on its own thread; each stops at its
 * own first violation, placed by (step, pass, hop, rank of the check within
 * a hop) in the serial order, and totex_sim_stages_join keeps the earlier
 * one: the serial replay's. Each part takes a one-loop form per step
 * (msgs_one_pass, links_one_loop), and on a violation undoes the step and
 * replays it in the two passes that name it. The serial replay
 * (totex_sim_step) takes both one-loop forms in a single loop
 * (fused_one_loop: a hop read and its ids checked once) on networks with the
 * neighbour table, the two one-loop forms one after the other on the others.
 * The one-loop forms take a step in chunks of 128 hops (SIM_CHUNK_NEAR; 256,
 * SIM_CHUNK, where the state is prefetched 96 hops ahead): a pre-pass
 * (pick_pre: eight hops at a time with AVX2 where the processor has it, else
 * one at a time) checks every hop's ids and computes its message's state
 * index, the word it must find there and the word it leaves (and, under
 * multiport and k-port with rows of 4 link slots, the hop's link), then a loop
 * per port model and table row length (links_chunk_in) takes the rest; the
 * state is prefetched 16 hops ahead, 96 when it is larger than the L3 and its
 * steps touch more than a line of it in 4 hops (prefetch_distance()). The
 * messages part moves a message in one pass when it can (stamps of the last
 * move in the state word's low bits); the links part finds a link's slot
 * with 4-wide compares in the neighbour table. On a step of many hops (at
 * least n/4, single-port n/16) it takes the dense form (dense_chunk_in):
 * per hop only stamps, a 16-bit one per directed link and per link into the
 * receiver (multiport, k-port) or the node's send and receive stamps
 * (single-port), then one pass over the nodes counts each node's sends and
 * receives against k and moves its queue. On sparser steps it keeps, per
 * hop, a stamp per directed link (multiport, k-port), per node the step of
 * its last send and receive (single-port) or 256 (step + 1) plus its sends
 * and receives (k-port), and the queues. The two passes keep one 8-byte word
 * per node (its step's sends, receives and the slots it sent over), or,
 * beyond SIM_TABLE_SLOTS slots, one-byte link stamps (reset every 255
 * steps). Figures: docs/performance.md.
 *
 * Port models (include/totex/common.h): single-port, one send and one receive
 * per node per step; multiport, one message per directed link per step;
 * k-port (k >= 2, 001 Section 7), one message per directed link AND at most k
 * sends and k receives per node per step (TOTEX_VIOL_LINK_BUSY,
 * TOTEX_VIOL_PORT_SEND, TOTEX_VIOL_PORT_RECV, the message naming k).
 */
#include "totex/sim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
/* the pre-pass's AVX2 form (pre_avx2_in()), taken at run time where the processor has it */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(TOTEX_SIM_NO_AVX2)
#define SIM_HAVE_AVX2 1
#include <immintrin.h>
#endif

#include "common/error.h"
#include "common/huge.h"
#include "sim/sim_layout.h"

/* the layout's review (layout_review()): SIM_REVIEW_SAMPLES sampled steps a review, at least
   SIM_REVIEW_MIN_HOPS hops apart */
#define SIM_REVIEW_SAMPLES 8
#define SIM_REVIEW_MIN_HOPS 65536

#ifndef PREFETCH_AHEAD
#define PREFETCH_AHEAD 16
#endif
/* the one-loop forms' state prefetch, hops ahead (sim->ahead, prefetch_distance()): PREFETCH_AHEAD, or
   SIM_AHEAD_FAR for a state of more than SIM_FAR_BYTES (the L3's size here) whose sampled steps touch more than
   a line of it in SIM_FAR_HOPS_A_LINE hops: more of its words come from memory. greedy on mesh:64x64 2-port
   (67 MB of state, about 0.9 lines a hop), its messages part: 7.7 ns a hop 16 ahead, 5.0 48 ahead, 3.9 96
   ahead, 3.7 128 ahead; A3 there multiport (0.7 lines a hop) the serial replay 2.8-3.0 ns 16 ahead, 2.7 96
   ahead; A2 single-port (0.06-0.09 lines a hop) 1.6-1.7 ns 16 ahead, 1.7-1.8 96 ahead (docs/performance.md,
   "Session 23: the simulator against memcpy") */
#define SIM_AHEAD_FAR 96
#define SIM_FAR_BYTES ((size_t)32 << 20)
#define SIM_FAR_HOPS_A_LINE 4
/* the messages part prefetches no state when the sampled steps touch at most a line of it in
   SIM_NEAR_HOPS_A_LINE hops: A2, by destination or by source, 0.06-0.09 lines a hop, whose lines come in
   order: its messages part on mesh:32x32 took 1.56-1.66 ns a hop without, 1.65-1.72 with, four alternations at load
   18 (docs/performance.md, "Session 25: the simulator against memcpy") */
#define SIM_NEAR_HOPS_A_LINE 8
/* hops ahead whose lines are fetched from the producer's buffer (4 hops per line) */
#define HOP_PREFETCH_AHEAD 64
/* a node's neighbours are looked up in a table when it has at most this many link slots */
#define SIM_TABLE_SLOTS 16

/* where a message is, XOR its source: anonymous memory is zero, so 0 means "at its source" */
typedef uint32_t msg_state;

/* One part of a replay split over two threads (totex_sim_stage_sink): steps taken and its first failure. */
typedef struct sim_stage {
    uint64_t step;          /* steps taken */
    totex_status status;    /* first non-OK status, then every call returns it */
    uint64_t at_step;       /* where the failure sits in the serial replay: step, pass, hop, check */
    uint32_t at_pass, at_rank;
    size_t at_hop;
    totex_sim_fault fault;
    totex_error err;
    char pad[64];           /* the two parts, written by two threads, never share a cache line */
} sim_stage;

struct totex_sim {
    const totex_network *net;
    totex_ports ports;
    uint32_t n, k;
    uint32_t m[TOTEX_MAX_DIMS];
    uint32_t stride[TOTEX_MAX_DIMS];
    uint32_t link_off[TOTEX_MAX_DIMS]; /* multiport: offset of dimension i's links in a node's slots */
    uint32_t slots;                    /* link slots per node */
    uint32_t nbr_stride;               /* entries per node in nbr: slots rounded up to a multiple of 4 */
    uint8_t kind[TOTEX_MAX_DIMS];      /* factor kind per dimension (adjacency in closed form) */
    uint16_t *coords;                  /* n * k coordinates */
    uint32_t *nbr;                     /* n * nbr_stride: the neighbour across each link slot, UINT32_MAX for none
                                          (and for the padding slots);
                                          NULL when slots > SIM_TABLE_SLOTS */
    msg_state *state;                  /* n * n: (where ^ src) in the high bits, the stamp of its last move below */
    uint32_t loc_shift;                /* where the message is, XOR its source, in a state word's bits from this
                                          one up; the stamp in the bits below (stamp_mask); 0: no stamps (too
                                          many nodes), two passes only */
    uint32_t stamp_mask;               /* (1 << loc_shift) - 1 */
    int layout;                        /* the state's layout (state_index()): SIM_BY_OFFSET, SIM_BY_DST, SIM_BY_SRC */
    int avx2;                          /* the processor has AVX2 (pick_pre()), looked up by totex_sim_new() */
    int portable;                      /* the pre-pass in its portable form even where AVX2 is (pick_pre()) */
    uint32_t ahead;                    /* the one-loop forms' state prefetch, hops ahead (at most SIM_CHUNK_PAD) */
    int prefetch;                      /* the messages part prefetches the state (prefetch_distance()) */
    int ahead_fixed;                   /* set by totex_sim_prefetch_ahead(): the review leaves sim->ahead */
    uint32_t *perm;                    /* SIM_BY_SRC: each destination's place in its source's row (its coordinates
                                          in reverse order); NULL until that layout is first taken */
    uint64_t layout_lines[3];          /* the state lines the first steps touch in each layout */
    uint64_t review_lines[3];          /* ... and the sampled steps since the last review (layout_review()) */
    uint64_t layout_hops, review_sampled; /* the hops counted in layout_lines and in review_lines */
    uint32_t review_samples;
    uint64_t review_hops, review_every; /* hops since the last sampled step; hops between two samples */
    uint32_t relayouts;                /* moves of the state to another layout after the first choice */
    uint64_t *line_bits;               /* a bit per 64-byte line of the state in each of the 3 layouts, all 0
                                          between two counts (count_lines3()); NULL until the first count */
    size_t state_bytes;
    uint64_t *node_word;               /* networks with the neighbour table (nbr), every port model: per node,
                                          the step + 1 of its last send or receive (bits 63..32), and in that
                                          step its receives (31..24), its sends (23..16) and the mask of the
                                          link slots it sent over (15..0); a word of an earlier step counts as
                                          empty. One word per node, read without the slot: the check of a hop
                                          does not wait for the table look-up. The arrays below: the others */
    uint32_t *send_stamp, *recv_stamp; /* single-port and k-port: step of the node's last send / receive (step + 1
                                          in the one-loop forms; the dense form sets bit 31 of a receive when the
                                          message stays: dense_chunk_in()) */
    uint32_t *send_count, *recv_count; /* k-port: sends / receives of the node in step send_stamp / recv_stamp */
    uint8_t *link_stamp;               /* multiport and k-port: n * slots, the step + 1 of the link's last hop
                                          modulo 255 (1 .. 255), all reset to 0 every 255 steps: one byte, so
                                          that a mesh's stamps stay in the first-level cache */
    uint16_t *link16;                  /* with the table: nbr_stride * n16, the stamp of the directed link's last hop
                                          (link_stamp16(): 1 .. 32767, 0 for none; all 0 again every 32767
                                          steps), slot by slot (the link from node v over slot s at s * n16 + v),
                                          read by the one-loop forms only (links_chunk_in(), dense_chunk_in();
                                          check_hops() takes the node words) */
    uint16_t *in16;                    /* with the table, the dense form (dense_chunk_in()): nbr_stride * n16, per
                                          directed link into a node (the node's slot of the link back, slot by
                                          slot) the stamp of its last hop as in link16, bit 15 set when the
                                          message stays (to != dst) */
    uint64_t link_cycle;               /* the 32767 steps link16 and in16 hold stamps of (step / 32767) */
    uint32_t *rev;                     /* the dense form: for each link's place in link16, its place in in16 */
    uint32_t n16;                      /* n rounded up to a multiple of 16: the rows of link16 and in16, the
                                          length of queue, send_stamp and recv_stamp (their padding 0) */
    int dense;                         /* the dense form applies (every link has a link back: rev) */
    uint64_t *send_k, *recv_k;         /* k-port with the table, k < 256: per node, 256 (step + 1) plus its sends
                                          (receives) in that step, read by the one-loop forms only (ports_takek()) */
    uint32_t *queue;                   /* undelivered messages held per node */
    uint64_t step;                     /* steps applied so far */
    totex_sim_fault fault;
    char pad0[64];
    /* written by the links part of a split replay */
    uint64_t hops, max_step_hops;
    uint64_t peak_queue;
    uint32_t peak_node;
    char pad1[64];
    /* written by the messages part */
    uint64_t arrivals, delay_sum, last_arrival;
    char pad2[64];
    sim_stage stage[2];                /* split replay: [0] links, [1] messages */
};

/* the state's layouts (sim->layout, state_index()) */
enum { SIM_BY_OFFSET = 0, SIM_BY_DST = 1, SIM_BY_SRC = 2 };

/* where message (src, dst) is kept: by offset (dst - src) mod n, then by source (SIM_BY_OFFSET); by
   destination, then by source (SIM_BY_DST); or by source, then by the destination's coordinates in reverse
   order, @p perm[dst] (SIM_BY_SRC). sim->layout, chosen after the first steps and reviewed as the replay
   goes (msgs_one_pass(), fused_one_loop()) */
static inline size_t state_index(uint32_t n, uint32_t src, uint32_t dst, int layout, const uint32_t *perm)
{
    if (layout == SIM_BY_SRC)
        return (size_t)src * n + perm[dst];
    const uint32_t d = layout == SIM_BY_DST ? dst : dst >= src ? dst - src : dst - src + n;
    return (size_t)d * n + src;
}

/* Link slot (within dimension dim's slots) of the link from coordinate a to b, UINT32_MAX when not adjacent. */
static uint32_t link_rank(const totex_sim *sim, uint32_t dim, uint32_t a, uint32_t b)
{
    const uint32_t m = sim->m[dim];
    switch (sim->kind[dim]) {
    case TOTEX_FACTOR_PATH:
        return b + 1 == a ? 0 : b == a + 1 ? (a > 0) : UINT32_MAX;
    case TOTEX_FACTOR_RING:
        return b == (a + 1 == m ? 0 : a + 1) ? 0 : a == (b + 1 == m ? 0 : b + 1) ? 1 : UINT32_MAX;
    case TOTEX_FACTOR_K2:
        return a != b ? 0 : UINT32_MAX;
    case TOTEX_FACTOR_COMPLETE:
        return a == b ? UINT32_MAX : b < a ? b : b - 1;
    default:
        return totex_factor_neighbor_rank(totex_network_factor(sim->net, dim), a, b);
    }
}

const char *totex_violation_name(totex_violation v)
{
    switch (v) {
    case TOTEX_VIOL_NONE: return "none";
    case TOTEX_VIOL_BAD_NODE: return "node out of range";
    case TOTEX_VIOL_NOT_LINK: return "hop over a non-link";
    case TOTEX_VIOL_SELF_MESSAGE: return "no such message";
    case TOTEX_VIOL_NOT_PRESENT: return "message not present";
    case TOTEX_VIOL_DELIVERED: return "message already delivered";
    case TOTEX_VIOL_DUPLICATE: return "message duplicated";
    case TOTEX_VIOL_PORT_SEND: return "port conflict (send)";
    case TOTEX_VIOL_PORT_RECV: return "port conflict (receive)";
    case TOTEX_VIOL_LINK_BUSY: return "link conflict";
    case TOTEX_VIOL_NOT_DELIVERED: return "message lost";
    }
    return "unknown violation";
}

void totex_sim_free(totex_sim *sim)
{
    if (!sim)
        return;
    totex_huge_free(sim->state, sim->state_bytes);
    free(sim->perm);
    free(sim->line_bits);
    free(sim->coords);
    free(sim->nbr);
    free(sim->node_word);
    free(sim->send_stamp);
    free(sim->recv_stamp);
    free(sim->send_count);
    free(sim->recv_count);
    free(sim->link_stamp);
    free(sim->link16);
    free(sim->in16);
    free(sim->rev);
    free(sim->send_k);
    free(sim->recv_k);
    free(sim->queue);
    free(sim);
}

totex_sim *totex_sim_new(const totex_network *net, totex_ports ports, uint64_t max_messages, totex_error *err)
{
    uint32_t n = totex_network_nodes(net);
    uint64_t msgs = totex_network_messages(net);
    totex_sim *sim;
    if (max_messages == 0)
        max_messages = TOTEX_SIM_DEFAULT_MAX_MESSAGES;
    if (msgs > max_messages) {
        totex_fail(err, TOTEX_ENOMEM,
                   "%s has %llu messages (%u nodes): a full simulation is limited to %llu messages (4 bytes each in "
                   "the simulator, about 23 with the greedy planner); raise --max-messages N (up to 2^31), or use "
                   "`totex bounds` for a network this large",
                   totex_network_spec(net), (unsigned long long)msgs, n, (unsigned long long)max_messages);
        return NULL;
    }
    sim = calloc(1, sizeof *sim);
    if (!sim)
        goto nomem;
    sim->net = net;
    sim->ports = ports;
#ifdef SIM_HAVE_AVX2
    __builtin_cpu_init();
    sim->avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt");
#endif
    sim->n = n;
    sim->k = totex_network_dims(net);
    for (uint32_t i = 0; i < sim->k; i++) {
        const totex_factor *f = totex_network_factor(net, i);
        sim->m[i] = totex_factor_nodes(f);
        sim->stride[i] = totex_network_stride(net, i);
        sim->link_off[i] = sim->slots;
        sim->kind[i] = (uint8_t)totex_factor_get_kind(f);
        sim->slots += totex_factor_max_degree(f);
    }
    sim->coords = malloc(sizeof *sim->coords * (size_t)n * sim->k);
    sim->n16 = (n + 15) & ~15u;
    sim->queue = calloc(sim->n16, sizeof *sim->queue);
    if (!sim->coords || !sim->queue)
        goto nomem;
    sim->peak_queue = n - 1; /* every node starts holding its n-1 messages */
    for (uint32_t v = 0; v < n; v++) {
        sim->queue[v] = n - 1;
        for (uint32_t i = 0; i < sim->k; i++)
            sim->coords[(size_t)v * sim->k + i] = (uint16_t)totex_network_coord(net, v, i);
    }
    sim->nbr_stride = (sim->slots + 3) & ~3u;
    if (sim->slots <= SIM_TABLE_SLOTS) {
        sim->nbr = malloc(sizeof *sim->nbr * ((size_t)n * sim->nbr_stride + 1));
        if (!sim->nbr)
            goto nomem;
        memset(sim->nbr, 0xff, sizeof *sim->nbr * ((size_t)n * sim->nbr_stride + 1));
        for (uint32_t v = 0; v < n; v++)
            for (uint32_t i = 0; i < sim->k; i++) {
                const totex_factor *f = totex_network_factor(net, i);
                const uint32_t a = sim->coords[(size_t)v * sim->k + i], deg = totex_factor_degree(f, a);
                for (uint32_t r = 0; r < deg; r++) {
                    const uint32_t b = totex_factor_neighbor(f, a, r), rank = link_rank(sim, i, a, b);
                    if (rank != UINT32_MAX && rank < totex_factor_max_degree(f))
                        sim->nbr[(size_t)v * sim->nbr_stride + sim->link_off[i] + rank] = v - a * sim->stride[i] + b * sim->stride[i];
                }
            }
    }
    if (sim->nbr) {
        sim->node_word = calloc(n, sizeof *sim->node_word);
        if (!sim->node_word)
            goto nomem;
        const size_t links = (size_t)sim->n16 * sim->nbr_stride;
        sim->link16 = calloc(links, sizeof *sim->link16);
        sim->in16 = calloc(links, sizeof *sim->in16);
        sim->rev = calloc(links, sizeof *sim->rev);
        if (!sim->link16 || !sim->in16 || !sim->rev)
            goto nomem;
        /* the link from v over slot s comes into u = nbr[v][s] over u's lowest slot back to v (the one-loop forms
           take a hop over v's lowest slot to u: two hops into u over two links have two senders, two slots) */
        sim->dense = 1;
        for (uint32_t v = 0; v < n; v++)
            for (uint32_t s = 0; s < sim->nbr_stride; s++) {
                const uint32_t u = sim->nbr[(size_t)v * sim->nbr_stride + s];
                if (u == UINT32_MAX)
                    continue;
                uint32_t t = 0;
                while (t < sim->nbr_stride && sim->nbr[(size_t)u * sim->nbr_stride + t] != v)
                    t++;
                if (t == sim->nbr_stride)
                    sim->dense = 0; /* no link back */
                else
                    sim->rev[(size_t)s * sim->n16 + v] = t * sim->n16 + u;
            }
        if (ports != TOTEX_PORTS_SINGLE && ports != TOTEX_PORTS_MULTI && ports < 256 &&
            (!(sim->send_k = calloc(n, sizeof *sim->send_k)) || !(sim->recv_k = calloc(n, sizeof *sim->recv_k))))
            goto nomem;
    }
    if ((!sim->nbr && ports != TOTEX_PORTS_MULTI) || (sim->nbr && ports == TOTEX_PORTS_SINGLE)) {
        sim->send_stamp = calloc(sim->n16, sizeof *sim->send_stamp);
        sim->recv_stamp = calloc(sim->n16, sizeof *sim->recv_stamp);
        if (!sim->send_stamp || !sim->recv_stamp)
            goto nomem;
    }
    if (!sim->nbr && ports != TOTEX_PORTS_SINGLE) {
        sim->link_stamp = calloc((size_t)n * sim->slots, sizeof *sim->link_stamp);
        if (!sim->link_stamp)
            goto nomem;
    }
    if (!sim->nbr && ports != TOTEX_PORTS_SINGLE && ports != TOTEX_PORTS_MULTI) {
        sim->send_count = calloc(n, sizeof *sim->send_count);
        sim->recv_count = calloc(n, sizeof *sim->recv_count);
        if (!sim->send_count || !sim->recv_count)
            goto nomem;
    }
    sim->state_bytes = sizeof(msg_state) * (size_t)n * n;
    sim->ahead = PREFETCH_AHEAD; /* until the layout is chosen (prefetch_distance()) */
    sim->prefetch = 1;
    sim->state = totex_huge_alloc(sim->state_bytes);
    if (!sim->state)
        goto nomem;
    /* a state on 4 KiB pages (below TOTEX_HUGE_MIN) written now, zero as it is: one fault a page here instead of
       two in the replay (its first load maps the zero page, its first store copies it). torus:8x8x8 multiport
       OCTR's messages part (1 MiB of state): 514 faults and 1.80-2.18 ns a hop before, 1.65 after */
    if (sim->state_bytes < TOTEX_HUGE_MIN)
        memset(sim->state, 0, sim->state_bytes);
    /* node ids take the high b bits of a state word (where ^ src < 2^b); the bits below, when at
       least 8, keep the stamp of the message's last move in the one-pass replay (msgs_one_pass): a word is
       then checked against the one it must hold with a subtraction and a compare (sim_word_bad()) */
    uint32_t b = 1;
    while (b < 32 && ((uint64_t)1 << b) < n)
        b++;
    sim->loc_shift = b <= 24 ? 32 - b : 0;
    sim->stamp_mask = ((uint32_t)1 << sim->loc_shift) - 1;
    /* a step sampled every n^2/8 hops, a review every n^2 (the work of moving the state) */
    sim->review_every = (uint64_t)n * n / SIM_REVIEW_SAMPLES;
    if (sim->review_every < SIM_REVIEW_MIN_HOPS)
        sim->review_every = SIM_REVIEW_MIN_HOPS;
    /* anonymous memory is zero: loc ^ src == 0 means "at its source", moved == 0 "never moved" */
    return sim;
nomem:
    totex_sim_free(sim);
    totex_fail(err, TOTEX_ENOMEM, "out of memory creating a simulator for %s (%llu messages need %llu MiB)",
               totex_network_spec(net), (unsigned long long)msgs,
               (unsigned long long)((uint64_t)n * n * sizeof(msg_state) >> 20));
    return NULL;
}

static void coords_text(const totex_sim *sim, uint32_t v, char *buf, size_t len)
{
    size_t used = 0;
    if (v >= sim->n) {
        snprintf(buf, len, "(out of range)");
        return;
    }
    used += (size_t)snprintf(buf, len, "(");
    for (uint32_t i = 0; i < sim->k && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%u", i ? "," : "", sim->coords[(size_t)v * sim->k + i]);
    if (used < len)
        snprintf(buf + used, len - used, ")");
}

static totex_status violation(totex_sim *sim, uint64_t step, totex_sim_fault *fault, totex_violation kind,
                              uint32_t node, const totex_hop *h, const char *detail, totex_error *err)
{
    char cf[128], ct[128];
    fault->kind = kind;
    fault->step = step;
    fault->node = node;
    fault->src = h->src;
    fault->dst = h->dst;
    coords_text(sim, h->from, cf, sizeof cf);
    coords_text(sim, h->to, ct, sizeof ct);
    return totex_fail(err, TOTEX_EVIOLATION, "step %llu: %s at node %u: hop %u%s -> %u%s carrying message %u->%u: %s",
                      (unsigned long long)step, totex_violation_name(kind), node, h->from, cf, h->to, ct, h->src,
                      h->dst, detail);
}

/*
 * The checks of a step, in two parts that share no memory they write, so that
 * a replay can run them on two threads (totex_sim_stage_sink()):
 *   DO_LINKS: links, ports and queues (link/send/receive stamps, queue[],
 *             peak queue, hop counts);
 *   DO_MSGS:  where each message is (state[], arrivals, delays).
 * The serial replay (totex_sim_step) does both in one loop. Each check has a
 * rank, its place among the checks of one hop in the serial order; a
 * violation's place in the whole replay is (step, pass, hop, rank), so that
 * the first violation of the two parts is the one the serial replay reports.
 */
#define DO_LINKS 1u
#define DO_MSGS 2u
enum { RANK_IDS, RANK_SELF, RANK_LINK, RANK_PRESENT, RANK_PORT };

/*
 * Pass 1 of step @p step: every hop against the state at the start of the
 * step (store-and-forward: a message moves at most one link per step) and the
 * port rules. On a violation: *bad = the hop, *rank = the check, @p fault and
 * @p err filled.
 */
static inline __attribute__((always_inline)) totex_status check_hops(totex_sim *sim, const totex_hop *hops,
                                                                     size_t count, unsigned what, uint64_t step,
                                                                     totex_sim_fault *fault, size_t *bad,
                                                                     uint32_t *rank, totex_error *err)
{
    const uint32_t n = sim->n, k = sim->k, slots = sim->slots, nbr_stride = sim->nbr_stride;
    const uint32_t stamp = (uint32_t)(step + 1);
    const uint32_t *const nbr = sim->nbr;
    msg_state *const state = sim->state;
    uint32_t *const queue = sim->queue;
    uint8_t *const link_stamp = sim->link_stamp;
    const uint8_t link_now = (uint8_t)(step % 255 + 1);
    if ((what & DO_LINKS) && link_stamp && step % 255 == 0) /* the stamps of 255 steps before */
        memset(link_stamp, 0, (size_t)n * slots);
    const totex_ports ports = sim->ports;
    char detail[160];

    for (size_t x = 0; x < count; x++) {
        const totex_hop *h = &hops[x];
        *bad = x;
        if (x + HOP_PREFETCH_AHEAD < count) /* the producer's buffer, written on another core */
            __builtin_prefetch(&hops[x + HOP_PREFETCH_AHEAD], 0, 3);
        if (h->from >= n || h->to >= n || h->src >= n || h->dst >= n) {
            snprintf(detail, sizeof detail, "node ids must be below n = %u", n);
            *rank = RANK_IDS;
            return violation(sim, step, fault, TOTEX_VIOL_BAD_NODE, h->from < n ? h->from : h->to, h, detail, err);
        }
        if (h->src == h->dst) {
            *rank = RANK_SELF;
            return violation(sim, step, fault, TOTEX_VIOL_SELF_MESSAGE, h->from, h,
                             "a node has no message for itself in total exchange", err);
        }
        if ((what & DO_MSGS) && x + PREFETCH_AHEAD < count) {
            const totex_hop *p = &hops[x + PREFETCH_AHEAD];
            if (p->dst < n && p->src < n)
                __builtin_prefetch(state + state_index(n, p->src, p->dst, sim->layout, sim->perm), 1, 3);
        }
        uint32_t slot = UINT32_MAX;
        if (what & DO_LINKS) {
            /* the link's slot at h->from: its index in the neighbour table, else the one coordinate that differs */
            if (nbr) {
                /* every slot compared, the lowest match kept: no branch to mispredict (4 at a time) */
                const uint32_t *nb = nbr + (size_t)h->from * nbr_stride;
#if defined(__SSE2__)
                const __m128i want = _mm_set1_epi32((int)h->to);
                unsigned hit = 0;
                for (uint32_t j = 0; j < nbr_stride; j += 4)
                    hit |= (unsigned)_mm_movemask_ps(_mm_castsi128_ps(
                               _mm_cmpeq_epi32(_mm_loadu_si128((const __m128i *)(nb + j)), want)))
                           << j;
                slot = hit ? (uint32_t)__builtin_ctz(hit) : UINT32_MAX;
#else
                for (uint32_t j = slots; j-- > 0;)
                    slot = nb[j] == h->to ? j : slot;
#endif
            } else {
                const uint16_t *cf = sim->coords + (size_t)h->from * k, *ct = sim->coords + (size_t)h->to * k;
                int dim = -1;
                for (uint32_t i = 0; i < k; i++) {
                    if (cf[i] != ct[i]) {
                        if (dim >= 0) {
                            dim = -2;
                            break;
                        }
                        dim = (int)i;
                    }
                }
                if (dim >= 0) {
                    const uint32_t r = link_rank(sim, (uint32_t)dim, cf[dim], ct[dim]);
                    if (r != UINT32_MAX)
                        slot = sim->link_off[dim] + r;
                }
            }
            if (slot == UINT32_MAX) {
                *rank = RANK_LINK;
                return violation(sim, step, fault, TOTEX_VIOL_NOT_LINK, h->from, h, "the two nodes are not neighbours",
                                 err);
            }
        }
        if (what & DO_MSGS) {
            const uint32_t loc = (state[state_index(n, h->src, h->dst, sim->layout, sim->perm)] >> sim->loc_shift) ^ h->src;
            if (loc == h->dst) { /* delivered messages never move again, even from their destination */
                *rank = RANK_PRESENT;
                return violation(sim, step, fault, TOTEX_VIOL_DELIVERED, h->from, h,
                                 "the message is already at its destination", err);
            }
            if (loc != h->from) {
                snprintf(detail, sizeof detail, "the message is at node %u at the start of this step", loc);
                *rank = RANK_PRESENT;
                return violation(sim, step, fault, TOTEX_VIOL_NOT_PRESENT, h->from, h, detail, err);
            }
        }
        if (!(what & DO_LINKS))
            continue;
        *rank = RANK_PORT;
        if (sim->node_word) {
            /* the node words (the same rules as the arrays below): link, then sends, then receives */
            uint64_t *const nw = sim->node_word;
            const uint64_t now = (uint64_t)stamp << 32, bit = (uint64_t)1 << slot;
            uint64_t wf = nw[h->from] >> 32 == stamp ? nw[h->from] : now;
            if (ports != TOTEX_PORTS_SINGLE && (wf & bit))
                return violation(sim, step, fault, TOTEX_VIOL_LINK_BUSY, h->from, h,
                                 ports == TOTEX_PORTS_MULTI
                                     ? "multiport: the directed link already carries a message in this step"
                                     : "k-port: the directed link already carries a message in this step",
                                 err);
            if (ports != TOTEX_PORTS_MULTI) {
                const uint32_t kp = ports;
                const uint64_t wt = nw[h->to] >> 32 == stamp ? nw[h->to] : now;
                if (((wf >> 16) & 0xff) >= kp) {
                    if (ports == TOTEX_PORTS_SINGLE)
                        snprintf(detail, sizeof detail, "single-port: the node already sends a message in this step");
                    else
                        snprintf(detail, sizeof detail,
                                 "%u-port: the node already sends %u messages in this step (at most k = %u)", kp, kp,
                                 kp);
                    return violation(sim, step, fault, TOTEX_VIOL_PORT_SEND, h->from, h, detail, err);
                }
                if (((wt >> 24) & 0xff) >= kp) {
                    if (ports == TOTEX_PORTS_SINGLE)
                        snprintf(detail, sizeof detail,
                                 "single-port: the node already receives a message in this step");
                    else
                        snprintf(detail, sizeof detail,
                                 "%u-port: the node already receives %u messages in this step (at most k = %u)", kp,
                                 kp, kp);
                    return violation(sim, step, fault, TOTEX_VIOL_PORT_RECV, h->to, h, detail, err);
                }
                wf += (uint64_t)1 << 16;
            }
            nw[h->from] = wf | bit;
            if (ports != TOTEX_PORTS_MULTI)
                nw[h->to] = (nw[h->to] >> 32 == stamp ? nw[h->to] : now) + ((uint64_t)1 << 24);
        } else if (ports == TOTEX_PORTS_SINGLE) {
            if (sim->send_stamp[h->from] == stamp)
                return violation(sim, step, fault, TOTEX_VIOL_PORT_SEND, h->from, h,
                                 "single-port: the node already sends a message in this step", err);
            if (sim->recv_stamp[h->to] == stamp)
                return violation(sim, step, fault, TOTEX_VIOL_PORT_RECV, h->to, h,
                                 "single-port: the node already receives a message in this step", err);
            sim->send_stamp[h->from] = stamp;
            sim->recv_stamp[h->to] = stamp;
        } else {
            uint8_t *ls = link_stamp + (size_t)h->from * slots + slot;
            if (*ls == link_now)
                return violation(sim, step, fault, TOTEX_VIOL_LINK_BUSY, h->from, h,
                                 ports == TOTEX_PORTS_MULTI
                                     ? "multiport: the directed link already carries a message in this step"
                                     : "k-port: the directed link already carries a message in this step",
                                 err);
            if (ports != TOTEX_PORTS_MULTI) { /* k-port, 001 Section 7: at most k links per node */
                const uint32_t kp = ports;
                if (sim->send_stamp[h->from] != stamp) {
                    sim->send_stamp[h->from] = stamp;
                    sim->send_count[h->from] = 0;
                }
                if (sim->recv_stamp[h->to] != stamp) {
                    sim->recv_stamp[h->to] = stamp;
                    sim->recv_count[h->to] = 0;
                }
                if (sim->send_count[h->from] >= kp) {
                    snprintf(detail, sizeof detail,
                             "%u-port: the node already sends %u messages in this step (at most k = %u)", kp, kp, kp);
                    return violation(sim, step, fault, TOTEX_VIOL_PORT_SEND, h->from, h, detail, err);
                }
                if (sim->recv_count[h->to] >= kp) {
                    snprintf(detail, sizeof detail,
                             "%u-port: the node already receives %u messages in this step (at most k = %u)", kp, kp,
                             kp);
                    return violation(sim, step, fault, TOTEX_VIOL_PORT_RECV, h->to, h, detail, err);
                }
                sim->send_count[h->from]++;
                sim->recv_count[h->to]++;
            }
            *ls = link_now;
        }
        queue[h->from]--;
    }
    return TOTEX_OK;
}

/*
 * Pass 2 of step @p step: apply the hops, detecting a message moved twice
 * (duplicated), and add undelivered arrivals to the receivers' queues (the
 * peak queue is measured at step ends). On a violation *bad = the hop.
 */
static inline __attribute__((always_inline)) totex_status move_hops(totex_sim *sim, const totex_hop *hops,
                                                                    size_t count, unsigned what, uint64_t step,
                                                                    totex_sim_fault *fault, size_t *bad,
                                                                    totex_error *err)
{
    const uint32_t n = sim->n;
    const uint32_t stamp = (uint32_t)(step + 1);
    msg_state *const state = sim->state;
    uint32_t *const queue = sim->queue;
    uint64_t arrivals = 0, peak = sim->peak_queue;
    for (size_t x = 0; x < count; x++) {
        const totex_hop *h = &hops[x];
        if (what & DO_MSGS) {
            msg_state *ms = state + state_index(n, h->src, h->dst, sim->layout, sim->perm);
            if (((*ms >> sim->loc_shift) ^ h->src) != h->from) {
                *bad = x;
                sim->arrivals += arrivals;
                return violation(sim, step, fault, TOTEX_VIOL_DUPLICATE, h->from, h,
                                 "the message is sent twice in this step (duplicated)", err);
            }
            *ms = (h->to ^ h->src) << sim->loc_shift;
            arrivals += h->to == h->dst;
        }
        if ((what & DO_LINKS) && h->to != h->dst) {
            uint32_t q = ++queue[h->to];
            if (q > peak) {
                sim->peak_queue = peak = q;
                sim->peak_node = h->to;
            }
        }
    }
    if (what & DO_MSGS) {
        sim->arrivals += arrivals;
        sim->delay_sum += arrivals * stamp;
        if (arrivals)
            sim->last_arrival = stamp;
    }
    if (what & DO_LINKS) {
        sim->hops += count;
        if (count > sim->max_step_hops)
            sim->max_step_hops = count;
    }
    return TOTEX_OK;
}

/*
 * The hops' own checks and the message state's words of a chunk of up to
 * SIM_CHUNK hops, ahead of the one-loop forms (msgs_one_pass_in(), links_fast()),
 * eight hops at a time with AVX2 where the processor has it
 * (chosen at run time: the library is built for plain x86-64), one at a time
 * otherwise: every node id below n, src != dst, from != to and from != dst
 * (a hop that fails one of these breaks a rule of the whole replay; the caller
 * then replays the step in the two passes, which name it, or, in one part of a
 * split replay, take it as that part's rules do); with the messages (@p MS), for each hop the index of its message's
 * state word (idx), the word it must hold (where ^ src == from, with a stamp
 * other than this step's: expect, compared as a whole by sim_word_bad()) and
 * the word it gets (moved: where ^ src == to, this step's stamp), and the
 * arrivals (to == dst); with @p LK (multiport and k-port, a neighbour table of
 * rows of 4 slots: 2-D meshes and tori), each hop's link in the table (link:
 * from * 4 + its slot), a hop over a non-link failing as the ids do. The loops
 * after it then take one load and one compare a hop for its ids and the
 * message, instead of about twenty instructions, and one load for the link.
 */
#define SIM_CHUNK 256
/* idx entries past a chunk's hops, prefetched by the loops: copies of its last index */
#define SIM_CHUNK_PAD (SIM_AHEAD_FAR > PREFETCH_AHEAD ? SIM_AHEAD_FAR : PREFETCH_AHEAD)
/* hops ahead whose lines the pre-pass fetches from the producer's buffer (4 hops a line): a chunk, so that the
   next chunk's lines come while the loop after the pre-pass runs */
#define SIM_HOP_AHEAD SIM_CHUNK
/* the chunk's length in the one-loop forms (msgs_one_pass_in(), links_fast()) when the state is prefetched
   PREFETCH_AHEAD hops ahead, and in the links part alone (SIM_CHUNK when SIM_AHEAD_FAR): greedy mesh:16x32
   2-port's messages part took 1.43-1.47 ns a hop in chunks of 128 hops, 1.51-1.85 in chunks of 256, its links
   part 1.64-1.67 against 1.73-1.91, its serial replay 2.86-2.95 against 3.00-3.08 (a private harness, three
   alternations at load 27; docs/performance.md, "Session 25: the simulator against memcpy") */
#define SIM_CHUNK_NEAR 128

typedef struct sim_chunk {
    uint32_t idx[SIM_CHUNK + SIM_CHUNK_PAD]; /* the message's state word, state_index() */
    uint32_t expect[SIM_CHUNK];              /* (from ^ src) << shift | tag: see sim_word_bad() */
    uint32_t moved[SIM_CHUNK];               /* (to ^ src) << shift | tag */
    uint32_t link[SIM_CHUNK];                /* rows of 4 slots (nbr_stride 4), with the links: the slot of the hop's
                                                link in the neighbour table times n16, plus from (link16's place);
                                                bit 31 set when the message stays (to != dst): the dense loop then
                                                reads nothing of the hop itself (dense_chunk_in()) */
} sim_chunk;

/* what the pre-pass reads of the simulator */
typedef struct sim_pre_in {
    uint32_t n, tag, shift; /* shift: sim->loc_shift */
    uint32_t n16;         /* sim->n16: the link of slot s at node v is s * n16 + v */
    const uint32_t *perm; /* SIM_BY_SRC */
    const uint32_t *nbr;  /* the neighbour table, rows of 4 slots (@p LK of the pre-pass) */
} sim_pre_in;

/* a message's state word @p w against @p expect = (from ^ src) << shift | tag: nonzero unless the message is
   at from ((w >> shift) ^ src == from: w ^ expect has no bit at or above shift) and was not moved in this step
   (its stamp, w & mask, is not tag: w ^ expect is not 0); @p mask = (1 << shift) - 1. Both at once: w ^ expect
   in 1 .. mask */
static inline __attribute__((always_inline)) uint32_t sim_word_bad(uint32_t w, uint32_t expect, uint32_t mask)
{
    return (w ^ expect) - 1 >= mask;
}

/* the state word of a chunk's hop @p j into @p ms (the word @p ahead hops on prefetched); nonzero where the message
   is not where the hop takes it from (sim_word_bad()) */
static inline __attribute__((always_inline)) uint32_t chunk_word(msg_state *state, const sim_chunk *ck, size_t j,
                                                                 uint32_t ahead, uint32_t mask, msg_state **ms)
{
    __builtin_prefetch(state + ck->idx[j + ahead], 1, 3);
    *ms = state + ck->idx[j];
    return sim_word_bad(**ms, ck->expect[j], mask);
}

/* one hop of the pre-pass (the portable form, and the AVX2 form's tail); nonzero when an id check fails */
static inline __attribute__((always_inline)) uint32_t pre_hop(const totex_hop *h, const sim_pre_in *in,
                                                             sim_chunk *ck, size_t j, uint64_t *arr,
                                                             const int MS, const int BD, const int LK)
{
    const uint32_t n = in->n, from = h->from, to = h->to, src = h->src, dst = h->dst;
    uint32_t bad = (from >= n) | (to >= n) | (src >= n) | (dst >= n) | (src == dst) | (from == to) |
                   (from == dst);
    if (LK) { /* the link's slot, lowest first as fast_slot() finds it; none: not a link */
        const uint32_t f = from < n ? from : 0, *row = in->nbr + (size_t)f * 4;
        const uint32_t slot = row[0] == to ? 0 : row[1] == to ? 1 : row[2] == to ? 2 : row[3] == to ? 3 : 4;
        bad |= slot == 4;
        ck->link[j] = ((slot & 3) * in->n16 + f) | (uint32_t)(to != dst) << 31;
    }
    if (MS) {
        const uint32_t s = src < n ? src : 0, d = dst < n ? dst : 0;
        ck->idx[j] = (uint32_t)state_index(n, s, d, BD, in->perm);
        ck->expect[j] = (from ^ src) << in->shift | in->tag;
        ck->moved[j] = (to ^ src) << in->shift | in->tag;
        *arr += to == dst;
    }
    return bad;
}

static inline __attribute__((always_inline)) uint32_t pre_portable_in(const totex_hop *hops, size_t c, size_t avail,
                                                                     const sim_pre_in *in, sim_chunk *ck,
                                                                     uint64_t *arr, const int MS, const int BD,
                                                                     const int LK)
{
    uint32_t bad = 0;
    for (size_t j = 0; j < c; j++) {
        if (j % 4 == 0 && j + SIM_HOP_AHEAD < avail) /* the producer's buffer, written on another core */
            __builtin_prefetch(hops + j + SIM_HOP_AHEAD, 0, 3);
        bad |= pre_hop(&hops[j], in, ck, j, arr, MS, BD, LK);
    }
    return bad;
}

#ifdef SIM_HAVE_AVX2

__attribute__((target("avx2,popcnt"))) static inline __attribute__((always_inline)) uint32_t
pre_avx2_in(const totex_hop *hops, size_t c, size_t avail, const sim_pre_in *in, sim_chunk *ck, uint64_t *arr, const int MS,
            const int BD, const int LK)
{
    const uint32_t n = in->n;
    const __m256i nm1 = _mm256_set1_epi32((int)(n - 1)), nv = _mm256_set1_epi32((int)n),
                  tag = _mm256_set1_epi32((int)in->tag), zero = _mm256_setzero_si256();
    const __m128i shift = _mm_cvtsi32_si128((int)in->shift);
    __m256i bad = zero;
    uint64_t arrivals = 0;
    size_t j = 0;
    for (; j + 8 <= c; j += 8) {
        const __m128i *q = (const __m128i *)(hops + j);
        { /* the producer's buffer, written on another core; past the step's end too (an x86 prefetch never
             faults: the next step's hops usually follow in the same buffer) */
            const uintptr_t ahead = (uintptr_t)(q + 8) + SIM_HOP_AHEAD * sizeof(totex_hop) - 128;
            __builtin_prefetch((const void *)ahead, 0, 3);
            __builtin_prefetch((const void *)(ahead + 64), 0, 3);
        }
        /* hops j..j+3 in the low lanes, j+4..j+7 in the high ones: the 4 x 4 transposes keep hop order */
        const __m256i a = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128(q)), _mm_loadu_si128(q + 4), 1),
                      b = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128(q + 1)), _mm_loadu_si128(q + 5), 1),
                      d4 = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128(q + 2)), _mm_loadu_si128(q + 6), 1),
                      e = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128(q + 3)), _mm_loadu_si128(q + 7), 1);
        const __m256i t0 = _mm256_unpacklo_epi32(a, b), t1 = _mm256_unpackhi_epi32(a, b),
                      t2 = _mm256_unpacklo_epi32(d4, e), t3 = _mm256_unpackhi_epi32(d4, e);
        const __m256i from = _mm256_unpacklo_epi64(t0, t2), to = _mm256_unpackhi_epi64(t0, t2),
                      src = _mm256_unpacklo_epi64(t1, t3), dst = _mm256_unpackhi_epi64(t1, t3);
        const __m256i mx = _mm256_max_epu32(_mm256_max_epu32(from, to), _mm256_max_epu32(src, dst));
        bad = _mm256_or_si256(bad, _mm256_xor_si256(_mm256_max_epu32(mx, nm1), nm1)); /* nonzero: an id >= n */
        bad = _mm256_or_si256(bad, _mm256_or_si256(_mm256_cmpeq_epi32(src, dst),
                                                   _mm256_or_si256(_mm256_cmpeq_epi32(from, to),
                                                                   _mm256_cmpeq_epi32(from, dst))));
        if (LK) { /* the 8 rows of 4 slots transposed as the hops are: slot s of hop j+i in lane i of ns */
            const __m256i fc = _mm256_min_epu32(from, nm1); /* a from >= n fails above */
            const uint32_t *nb = in->nbr;
#define SIM_ROW(A) (nb + (size_t)(hops[j + A].from < n ? hops[j + A].from : 0) * 4)
#define SIM_ROWS(A, B) _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)SIM_ROW(A))), \
                                               _mm_loadu_si128((const __m128i *)SIM_ROW(B)), 1)
            const __m256i r0 = SIM_ROWS(0, 4), r1 = SIM_ROWS(1, 5), r2 = SIM_ROWS(2, 6), r3 = SIM_ROWS(3, 7);
#undef SIM_ROWS
#undef SIM_ROW
            const __m256i u0 = _mm256_unpacklo_epi32(r0, r1), u1 = _mm256_unpackhi_epi32(r0, r1),
                          u2 = _mm256_unpacklo_epi32(r2, r3), u3 = _mm256_unpackhi_epi32(r2, r3);
            const __m256i m0 = _mm256_cmpeq_epi32(_mm256_unpacklo_epi64(u0, u2), to),
                          m1 = _mm256_cmpeq_epi32(_mm256_unpackhi_epi64(u0, u2), to),
                          m2 = _mm256_cmpeq_epi32(_mm256_unpacklo_epi64(u1, u3), to),
                          m3 = _mm256_cmpeq_epi32(_mm256_unpackhi_epi64(u1, u3), to);
            const __m256i one = _mm256_set1_epi32((int)in->n16);
            /* the lowest slot that matches (fast_slot()): 3, then 2, 1, 0 over it; times n16 */
            __m256i sl = _mm256_and_si256(m3, _mm256_set1_epi32((int)(3 * in->n16)));
            sl = _mm256_blendv_epi8(sl, _mm256_add_epi32(one, one), m2);
            sl = _mm256_blendv_epi8(sl, one, m1);
            sl = _mm256_andnot_si256(m0, sl);
            const __m256i found = _mm256_or_si256(_mm256_or_si256(m0, m1), _mm256_or_si256(m2, m3));
            bad = _mm256_or_si256(bad, _mm256_xor_si256(found, _mm256_cmpeq_epi32(zero, zero)));
            const __m256i stays = /* bit 31: to != dst */
                _mm256_slli_epi32(_mm256_andnot_si256(_mm256_cmpeq_epi32(to, dst), _mm256_set1_epi32(-1)), 31);
            _mm256_storeu_si256((__m256i *)(ck->link + j), _mm256_or_si256(_mm256_add_epi32(fc, sl), stays));
        }
        if (MS) {
            __m256i idx;
            if (BD == SIM_BY_DST) {
                idx = _mm256_add_epi32(_mm256_mullo_epi32(dst, nv), src);
            } else if (BD == SIM_BY_SRC) { /* perm[dst], dst clamped below n (a larger one fails above) */
                const __m256i pd = _mm256_i32gather_epi32((const int *)in->perm, _mm256_min_epu32(dst, nm1), 4);
                idx = _mm256_add_epi32(_mm256_mullo_epi32(src, nv), pd);
            } else {
                const __m256i d = _mm256_sub_epi32(dst, src); /* (dst - src) mod n: both below n here */
                const __m256i dd = _mm256_add_epi32(d, _mm256_and_si256(_mm256_cmpgt_epi32(zero, d), nv));
                idx = _mm256_add_epi32(_mm256_mullo_epi32(dd, nv), src);
            }
            _mm256_storeu_si256((__m256i *)(ck->idx + j), idx);
            _mm256_storeu_si256((__m256i *)(ck->expect + j),
                                _mm256_or_si256(_mm256_sll_epi32(_mm256_xor_si256(from, src), shift), tag));
            _mm256_storeu_si256((__m256i *)(ck->moved + j),
                                _mm256_or_si256(_mm256_sll_epi32(_mm256_xor_si256(to, src), shift), tag));
            arrivals += (uint64_t)__builtin_popcount(
                (unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(to, dst))));
        }
    }
    *arr += arrivals;
    uint32_t b = !_mm256_testz_si256(bad, bad);
    for (; j < c; j++)
        b |= pre_hop(&hops[j], in, ck, j, arr, MS, BD, LK);
    return b;
}
#endif

/* the pre-pass of a chunk: nonzero when some hop fails an id check (ck's words are then not to be used) */
typedef uint32_t (*sim_pre_fn)(const totex_hop *hops, size_t c, size_t avail, const sim_pre_in *in, sim_chunk *ck, uint64_t *arr);

#define SIM_PRE_FN(NAME, BODY, MS, BD, LK, ATTR)                                                                   \
    ATTR static uint32_t NAME(const totex_hop *hops, size_t c, size_t avail, const sim_pre_in *in, sim_chunk *ck, \
                              uint64_t *arr)                                                                       \
    {                                                                                                              \
        return BODY(hops, c, avail, in, ck, arr, MS, BD, LK);                                                      \
    }
#define SIM_PRE_FNS(FORM, BODY, ATTR)                                                \
    SIM_PRE_FN(pre_links_##FORM, BODY, 0, SIM_BY_OFFSET, 0, ATTR)                    \
    SIM_PRE_FN(pre_off_##FORM, BODY, 1, SIM_BY_OFFSET, 0, ATTR)                      \
    SIM_PRE_FN(pre_dst_##FORM, BODY, 1, SIM_BY_DST, 0, ATTR)                         \
    SIM_PRE_FN(pre_src_##FORM, BODY, 1, SIM_BY_SRC, 0, ATTR)                         \
    SIM_PRE_FN(pre_links4_##FORM, BODY, 0, SIM_BY_OFFSET, 1, ATTR)                   \
    SIM_PRE_FN(pre_off4_##FORM, BODY, 1, SIM_BY_OFFSET, 1, ATTR)                     \
    SIM_PRE_FN(pre_dst4_##FORM, BODY, 1, SIM_BY_DST, 1, ATTR)                        \
    SIM_PRE_FN(pre_src4_##FORM, BODY, 1, SIM_BY_SRC, 1, ATTR)                        \
    static const sim_pre_fn pre_##FORM[2][4] = {                                     \
        {pre_links_##FORM, pre_off_##FORM, pre_dst_##FORM, pre_src_##FORM},          \
        {pre_links4_##FORM, pre_off4_##FORM, pre_dst4_##FORM, pre_src4_##FORM}};
SIM_PRE_FNS(portable, pre_portable_in, )
#ifdef SIM_HAVE_AVX2
SIM_PRE_FNS(avx2, pre_avx2_in, __attribute__((target("avx2,popcnt"))))
#endif
#undef SIM_PRE_FNS
#undef SIM_PRE_FN

/* the pre-pass for the links alone (@p ms 0) or with the messages in layout @p layout, with the links' slots
   (@p lk: the table's rows of 4 slots, links_chunk_in()) or without: AVX2 when the
   processor has it and the simulator is not held to the portable form (totex_sim_portable()) */
static sim_pre_fn pick_pre(const totex_sim *sim, int ms, int layout, int lk)
{
    const int form = !ms ? 0 : layout == SIM_BY_DST ? 2 : layout == SIM_BY_SRC ? 3 : 1;
#ifdef SIM_HAVE_AVX2
    if (sim->avx2 && !sim->portable)
        return pre_avx2[lk != 0][form];
#endif
    return pre_portable[lk != 0][form];
}

/* the pre-pass of hops[0, c) (c <= SIM_CHUNK) and, with the messages, the padding after its indices and the
   prefetch of its first @p ahead state lines; nonzero when a hop fails an id check */
static inline __attribute__((always_inline)) uint32_t pre_chunk(sim_pre_fn pre, const totex_hop *hops, size_t c,
                                                               size_t avail, const sim_pre_in *in, sim_chunk *ck, uint64_t *arr,
                                                               const msg_state *state, uint32_t ahead, const int MS)
{
    if (pre(hops, c, avail, in, ck, arr))
        return 1;
    if (MS) {
        for (size_t j = 0; j < ahead; j++)
            ck->idx[c + j] = ck->idx[c - 1];
        for (size_t j = 0; j < ahead && j < c; j++)
            __builtin_prefetch(state + ck->idx[j], 1, 3);
    }
    return 0;
}

/*
 * The messages part of step @p step in one pass (split replay): each hop's
 * message must be at h->from, not delivered, and not yet moved in this step,
 * which the stamp of its last move says (the state word's low bits, the step
 * + 1 modulo their range); it then moves at once. A message moved twice in a
 * step meets its own stamp, so one pass accepts exactly the steps the two
 * passes accept, but for a stamp that matches by wrap-around (a message last
 * moved 2^s steps before): that, and every violation, undoes the hops already
 * moved (in reverse: no message among them moved twice, so each gets back its
 * start; its stamp becomes 0, which no step uses) and returns 0, and the step
 * is replayed by the two passes, which report the violation exactly as the
 * serial replay does. One read-modify-write of the state per hop instead of
 * a read and a read-modify-write; the hops' ids and their words' indices come
 * from the pre-pass, a chunk at a time (pre_chunk()).
 */
static inline __attribute__((always_inline)) int msgs_one_pass_in(totex_sim *sim, const totex_hop *hops,
                                                                   size_t count, uint64_t step, const int BD,
                                                                   const int PF)
{
    const uint32_t n = sim->n, mask = sim->stamp_mask, sh = sim->loc_shift;
    const uint32_t cur = (uint32_t)((step + 1) & mask);
    if (!sh || !cur)
        return 0;
    msg_state *const state = sim->state;
    const sim_pre_in in = {n, cur, sh, sim->n16, sim->perm, NULL};
    const sim_pre_fn pre = pick_pre(sim, 1, BD, 0);
    const uint32_t ahead = sim->ahead;
    const size_t cl = ahead > PREFETCH_AHEAD ? SIM_CHUNK : SIM_CHUNK_NEAR;
    sim_chunk ck;
    uint64_t arrivals = 0;
    size_t x = 0;
    while (x < count) {
        const size_t c = count - x < cl ? count - x : cl;
        if (pre_chunk(pre, hops + x, c, count - x, &in, &ck, &arrivals, state, ahead, 1))
            break;
        size_t j = 0;
        for (; j < c; j++) {
            if (PF)
                __builtin_prefetch(state + ck.idx[j + ahead], 1, 3);
            msg_state *ms = state + ck.idx[j];
            if (sim_word_bad(*ms, ck.expect[j], mask))
                break;
            *ms = ck.moved[j];
        }
        x += j;
        if (j < c)
            break;
    }
    if (x < count) {
        while (x-- > 0)
            state[state_index(n, hops[x].src, hops[x].dst, BD, sim->perm)] = (hops[x].from ^ hops[x].src) << sh;
        return 0;
    }
    const uint32_t stamp = (uint32_t)(step + 1);
    sim->arrivals += arrivals;
    sim->delay_sum += arrivals * stamp;
    if (arrivals)
        sim->last_arrival = stamp;
    return 1;
}

/*
 * The state's layout, chosen after the first SIM_LAYOUT_STEPS steps: up to
 * SIM_LAYOUT_SAMPLE hops of each are counted in the cache lines of the state
 * they touch in either layout, and the state moves to the layout by
 * destination (state_to_by_dst) when that counts at most an eighth of the
 * lines by offset. Lines by offset per line by destination: A2 (mesh:32x32
 * single-port) about 2.1 over the whole schedule, 16 over its first 64 steps
 * (16 too on mesh:48x64 single-port and mesh:64x64 2-port); the rounds
 * (mesh:32x48 multiport) 0.3 over the whole, 1.8 over their first 64 steps
 * (1.6 on mesh:48x64) and 10 on their first step alone; A3 on torus:16x16 0.2
 * over the whole, on mesh:64x64 3.1 over its first 64 steps (hence the window
 * and the margin); greedy and balanced-greedy 1.2 to 1.6.
 */
#define SIM_LAYOUT_STEPS 64
#define SIM_LAYOUT_SAMPLE 1024

/* sim->perm, the place of each destination in a source's row in the layout by source: its coordinates in
   reverse order (the last dimension's the lowest digit). NULL when out of memory */
static const uint32_t *state_perm(totex_sim *sim)
{
    if (sim->perm)
        return sim->perm;
    uint32_t *perm = malloc(sizeof *perm * (size_t)sim->n);
    if (!perm)
        return NULL;
    for (uint32_t v = 0; v < sim->n; v++) {
        uint32_t r = 0;
        for (uint32_t i = 0; i < sim->k; i++) /* digit i of the reversed id has place prod_{j>i} m_j */
            r = r * sim->m[i] + sim->coords[(size_t)v * sim->k + i];
        perm[v] = r;
    }
    /* r reads dimension 0 as the highest digit: the id with the dimensions reversed */
    sim->perm = perm;
    return perm;
}

/* the distinct 64-byte lines of the state that the first @p c hops (at most SIM_LAYOUT_SAMPLE) touch in each
   layout (SIM_BY_OFFSET, SIM_BY_DST and, with @p SRC, SIM_BY_SRC), added to @p lines[layout]: one pass over the
   hops, a bitmap per layout in @p bits (a bit per line of the state, n^2 / 128 bytes each, all 0 between two
   counts: the words set are cleared again), three independent chains of loads and stores. A hop with a node id
   of n or more is not counted (it fails the step) */
static inline __attribute__((always_inline)) void count_lines3(uint64_t *bits, size_t words, const totex_hop *hops,
                                                             size_t c, uint32_t n, const uint32_t *perm,
                                                             uint64_t lines[3], const int SRC)
{
    enum { LINE = 64 / sizeof(msg_state) };
    uint32_t w[3][SIM_LAYOUT_SAMPLE];
    uint64_t *const b0 = bits, *const b1 = bits + words, *const b2 = bits + 2 * words;
    size_t m = 0, l0 = 0, l1 = 0, l2 = 0;
    for (size_t x = 0; x < c; x++) {
        const uint32_t s = hops[x].src, d = hops[x].dst;
        if (s >= n || d >= n)
            continue;
        const size_t i0 = state_index(n, s, d, SIM_BY_OFFSET, perm) / LINE,
                     i1 = state_index(n, s, d, SIM_BY_DST, perm) / LINE;
        const uint64_t m0 = (uint64_t)1 << (i0 % 64), m1 = (uint64_t)1 << (i1 % 64);
        w[0][m] = (uint32_t)(i0 / 64);
        w[1][m] = (uint32_t)(i1 / 64);
        l0 += !(b0[i0 / 64] & m0);
        b0[i0 / 64] |= m0;
        l1 += !(b1[i1 / 64] & m1);
        b1[i1 / 64] |= m1;
        if (SRC) {
            const size_t i2 = state_index(n, s, d, SIM_BY_SRC, perm) / LINE;
            const uint64_t m2 = (uint64_t)1 << (i2 % 64);
            w[2][m] = (uint32_t)(i2 / 64);
            l2 += !(b2[i2 / 64] & m2);
            b2[i2 / 64] |= m2;
        }
        m++;
    }
    for (size_t x = 0; x < m; x++) {
        b0[w[0][x]] = 0;
        b1[w[1][x]] = 0;
        if (SRC)
            b2[w[2][x]] = 0;
    }
    lines[SIM_BY_OFFSET] += l0;
    lines[SIM_BY_DST] += l1;
    lines[SIM_BY_SRC] += SRC ? l2 : c; /* without its table the layout by source counts as no better */
}

/* the lines of up to SIM_LAYOUT_SAMPLE hops of a step in each layout, added to @p lines (count_lines3(); the layout
   by source counts as no better than the others when its table cannot be had, and every layout a line a hop
   when the bitmaps cannot be had) */
static void state_layout_count(totex_sim *sim, const totex_hop *hops, size_t count, uint64_t lines[3], uint64_t *counted)
{
    const uint32_t n = sim->n;
    const size_t c = count < SIM_LAYOUT_SAMPLE ? count : SIM_LAYOUT_SAMPLE;
    const size_t words = ((size_t)n * n / (64 / sizeof(msg_state)) + 64) / 64;
    *counted += c;
    const uint32_t *perm = state_perm(sim);
    if (!sim->line_bits)
        sim->line_bits = calloc(3 * words, sizeof *sim->line_bits);
    if (!sim->line_bits) {
        size_t m = 0;
        for (size_t x = 0; x < c; x++)
            m += hops[x].src < n && hops[x].dst < n;
        lines[SIM_BY_OFFSET] += m;
        lines[SIM_BY_DST] += m;
        lines[SIM_BY_SRC] += perm ? m : c;
        return;
    }
    if (perm)
        count_lines3(sim->line_bits, words, hops, c, n, perm, lines, 1);
    else
        count_lines3(sim->line_bits, words, hops, c, n, perm, lines, 0);
}

/* The state moved from the layout by offset to the layout by destination: the column of each source is
   rotated by the source (new[dst][src] = old[(dst - src) mod n][src]), 16 sources (a line) at a time
   through a buffer of n lines. Out of memory: it stays by offset. */
static void state_to_by_dst(totex_sim *sim)
{
    enum { B = 64 / sizeof(msg_state) };
    const uint32_t n = sim->n;
    msg_state *const st = sim->state;
    msg_state *tmp = malloc(sizeof *tmp * (size_t)n * B);
    if (!tmp)
        return;
    for (uint32_t s0 = 0; s0 < n; s0 += B) {
        const uint32_t w = n - s0 < B ? n - s0 : B;
        for (uint32_t d = 0; d < n; d++)
            memcpy(tmp + (size_t)d * B, st + (size_t)d * n + s0, sizeof *st * w);
        for (uint32_t dst = 0; dst < n; dst++)
            for (uint32_t j = 0; j < w; j++) {
                const uint32_t src = s0 + j, d = dst >= src ? dst - src : dst + n - src;
                st[(size_t)dst * n + src] = tmp[(size_t)d * B + j];
            }
    }
    free(tmp);
    sim->layout = SIM_BY_DST;
}

/* Rows of n words of the state permuted in place: row r goes to row @p perm[r] (@p inverse 0), or row
   @p perm[r] comes to row r (@p inverse 1), following the permutation's cycles with one row of @p tmp. */
static void rows_permute(msg_state *st, uint32_t n, const uint32_t *perm, int inverse, msg_state *tmp,
                         uint8_t *seen)
{
    memset(seen, 0, n);
    for (uint32_t r = 0; r < n; r++) {
        if (seen[r] || perm[r] == r)
            continue;
        /* the cycle r, perm[r], perm[perm[r]], ...: forward, each row moves to the next; inverse, from it */
        memcpy(tmp, st + (size_t)r * n, sizeof *st * n);
        uint32_t cur = r;
        seen[r] = 1;
        if (!inverse) {
            /* tmp holds row cur's old content; put it at perm[cur], keeping what was there */
            for (;;) {
                const uint32_t nx = perm[cur];
                if (nx == r) {
                    memcpy(st + (size_t)r * n, tmp, sizeof *st * n);
                    break;
                }
                for (uint32_t j = 0; j < n; j++) { /* swap tmp and row nx */
                    const msg_state t = st[(size_t)nx * n + j];
                    st[(size_t)nx * n + j] = tmp[j];
                    tmp[j] = t;
                }
                seen[nx] = 1;
                cur = nx;
            }
        } else {
            /* row cur takes row perm[cur]'s old content */
            for (;;) {
                const uint32_t nx = perm[cur];
                if (nx == r) {
                    memcpy(st + (size_t)cur * n, tmp, sizeof *st * n);
                    break;
                }
                memcpy(st + (size_t)cur * n, st + (size_t)nx * n, sizeof *st * n);
                seen[nx] = 1;
                cur = nx;
            }
        }
    }
}

/* The n x n state transposed in place, 16 x 16 tiles at a time: the two tiles of a pair (one, off the diagonal)
   read a row (a line) at a time into a buffer, then written back transposed a row at a time (A2 mesh:32x32's
   messages part spent about 5% of its time here swapping word by word). */
static void state_transpose(msg_state *st, uint32_t n)
{
    enum { T = 16 };
    msg_state ta[T][T], tb[T][T];
    for (uint32_t a = 0; a < n; a += T)
        for (uint32_t b = a; b < n; b += T) {
            const uint32_t ha = a + T < n ? T : n - a, hb = b + T < n ? T : n - b;
            /* ta: rows a.., columns b..; tb: rows b.., columns a.. (the same tile when a == b) */
            for (uint32_t i = 0; i < ha; i++)
                memcpy(ta[i], st + (size_t)(a + i) * n + b, sizeof *st * hb);
            for (uint32_t i = 0; i < hb; i++)
                memcpy(tb[i], st + (size_t)(b + i) * n + a, sizeof *st * ha);
            for (uint32_t i = 0; i < ha; i++)
                for (uint32_t j = 0; j < hb; j++)
                    st[(size_t)(a + i) * n + b + j] = tb[j][i];
            for (uint32_t i = 0; i < hb; i++)
                for (uint32_t j = 0; j < ha; j++)
                    st[(size_t)(b + i) * n + a + j] = ta[j][i];
        }
}

/* The state in layout @p to: between the layouts by destination and by source in place (by destination,
   word [dst][src]; by source, [src][perm[dst]]: the rows permuted by perm, then the whole transposed, or
   the converse), otherwise copied into a new buffer (16 sources at a time: a line of the layouts by
   offset and by destination) and the old one freed. Out of memory: it stays as it is. */
static void state_relayout(totex_sim *sim, int to)
{
    enum { B = 64 / sizeof(msg_state) };
    const uint32_t n = sim->n;
    const int from = sim->layout;
    const uint32_t *perm = state_perm(sim);
    if (!perm || from == to)
        return;
    if ((from == SIM_BY_DST && to == SIM_BY_SRC) || (from == SIM_BY_SRC && to == SIM_BY_DST)) {
        msg_state *tmp = malloc(sizeof *tmp * (size_t)n);
        uint8_t *seen = malloc(n);
        if (tmp && seen) {
            if (to == SIM_BY_SRC) {
                rows_permute(sim->state, n, perm, 0, tmp, seen);
                state_transpose(sim->state, n);
            } else {
                state_transpose(sim->state, n);
                rows_permute(sim->state, n, perm, 1, tmp, seen);
            }
            sim->layout = to;
        }
        free(tmp);
        free(seen);
        return;
    }
    msg_state *const st = sim->state;
    msg_state *ns = totex_huge_alloc(sim->state_bytes);
    if (!ns)
        return;
    for (uint32_t s0 = 0; s0 < n; s0 += B) {
        const uint32_t w = n - s0 < B ? n - s0 : B;
        for (uint32_t d = 0; d < n; d++)
            for (uint32_t j = 0; j < w; j++)
                ns[state_index(n, s0 + j, d, to, perm)] = st[state_index(n, s0 + j, d, from, perm)];
    }
    totex_huge_free(st, sim->state_bytes);
    sim->state = ns;
    sim->layout = to;
}

/* the state's prefetch distance (sim->ahead) from the lines @p lines that @p hops sampled hops of a step each
   touch in the state's layout: SIM_AHEAD_FAR for a state of more than SIM_FAR_BYTES whose steps touch more
   than a line in SIM_FAR_HOPS_A_LINE hops, else PREFETCH_AHEAD (the layout's review sets it: layout_review()) */
static void prefetch_distance(totex_sim *sim, uint64_t lines, uint64_t hops)
{
    if (sim->ahead_fixed)
        return;
    sim->ahead = sim->state_bytes > SIM_FAR_BYTES && lines * SIM_FAR_HOPS_A_LINE > hops ? SIM_AHEAD_FAR : PREFETCH_AHEAD;
    sim->prefetch = lines * SIM_NEAR_HOPS_A_LINE > hops;
}

/*
 * The layout chosen after the first SIM_LAYOUT_STEPS steps (by destination
 * when that counts at most an eighth of the lines by offset, as before the
 * layout by source existed), then reviewed: a step every n^2/8 hops (at least
 * SIM_REVIEW_MIN_HOPS) is counted in the three layouts, and after
 * SIM_REVIEW_SAMPLES such steps the state moves to the layout with the fewest
 * lines when that is at most an eighth of the current one's. A2 on a 2-D mesh moves messages of
 * consecutive sources to one destination in its first phase (by destination:
 * 16 a line) and one source's messages to the same node of every row in its
 * second (by source with the destination's coordinates reversed: 16 a line,
 * against 1 by destination); a schedule whose pattern changes faster than a
 * review's window does not meet the margin, and stays.
 */
static void layout_review(totex_sim *sim, const totex_hop *hops, size_t count, uint64_t step)
{
    if (step < SIM_LAYOUT_STEPS) {
        state_layout_count(sim, hops, count, sim->layout_lines, &sim->layout_hops);
        return;
    }
    if (step == SIM_LAYOUT_STEPS) {
        if (sim->layout == SIM_BY_OFFSET && 8 * sim->layout_lines[SIM_BY_DST] <= sim->layout_lines[SIM_BY_OFFSET] &&
            sim->layout_lines[SIM_BY_DST])
            state_to_by_dst(sim); /* from by offset only (totex_sim_set_layout() may have moved it before) */
        prefetch_distance(sim, sim->layout_lines[sim->layout], sim->layout_hops);
        return;
    }
    sim->review_hops += count;
    if (sim->review_hops < sim->review_every)
        return;
    sim->review_hops = 0;
    state_layout_count(sim, hops, count, sim->review_lines, &sim->review_sampled);
    if (++sim->review_samples < SIM_REVIEW_SAMPLES)
        return;
    int best = sim->layout;
    for (int l = 0; l < 3; l++)
        if (sim->review_lines[l] < sim->review_lines[best])
            best = l;
    if (best != sim->layout && 8 * sim->review_lines[best] <= sim->review_lines[sim->layout]) {
        state_relayout(sim, best);
        sim->relayouts += sim->layout == best;
    }
    prefetch_distance(sim, sim->review_lines[sim->layout], sim->review_sampled);
    sim->review_sampled = 0;
    sim->review_samples = 0;
    memset(sim->review_lines, 0, sizeof sim->review_lines);
}

/* msgs_one_pass_in() in the state's layout (layout_review() chooses it) */
static int msgs_one_pass(totex_sim *sim, const totex_hop *hops, size_t count, uint64_t step)
{
    layout_review(sim, hops, count, step);
    if (!sim->prefetch)
        switch (sim->layout) {
        case SIM_BY_DST: return msgs_one_pass_in(sim, hops, count, step, SIM_BY_DST, 0);
        case SIM_BY_SRC: return msgs_one_pass_in(sim, hops, count, step, SIM_BY_SRC, 0);
        default: return msgs_one_pass_in(sim, hops, count, step, SIM_BY_OFFSET, 0);
        }
    switch (sim->layout) {
    case SIM_BY_DST: return msgs_one_pass_in(sim, hops, count, step, SIM_BY_DST, 1);
    case SIM_BY_SRC: return msgs_one_pass_in(sim, hops, count, step, SIM_BY_SRC, 1);
    default: return msgs_one_pass_in(sim, hops, count, step, SIM_BY_OFFSET, 1);
    }
}

/*
 * The links part of step @p step in one tight loop (the neighbour table only:
 * sim->nbr set): the same checks as check_hops(DO_LINKS) and the same updates
 * as move_hops(DO_LINKS), with the port model (PM: 0 multiport, 1
 * single-port, 2 k-port) and the table's row length (NS, a multiple of 4)
 * constants, no message text and one branch per check. At the first hop that
 * fails any check it undoes the hops before it (queue[from] back up, and
 * under multiport queue[to] down; the node words it wrote set to 0, stamped
 * with no step, so empty again) and
 * returns 0: the caller replays the step with check_hops and
 * move_hops, which report the violation exactly as the serial replay does.
 * The serial replay takes the one-loop forms of both parts too.
 */
static inline __attribute__((always_inline)) uint32_t fast_slot(const uint32_t *nb, uint32_t to, uint32_t NS)
{
#if defined(__SSE2__)
    const __m128i want = _mm_set1_epi32((int)to);
    unsigned hit = 0;
    for (uint32_t j = 0; j < NS; j += 4)
        hit |= (unsigned)_mm_movemask_ps(
                   _mm_castsi128_ps(_mm_cmpeq_epi32(_mm_loadu_si128((const __m128i *)(nb + j)), want)))
               << j;
    return hit ? (uint32_t)__builtin_ctz(hit) : UINT32_MAX;
#else
    uint32_t slot = UINT32_MAX;
    for (uint32_t j = NS; j-- > 0;)
        slot = nb[j] == to ? j : slot;
    return slot;
#endif
}

/* A hop's queues (links_chunk_in()): one message fewer at @p from; under multiport (@p PM 0) one more at
   @p to unless it arrived (@p to == @p dst), returning that queue (links_close() counts the arrivals again
   when some went above the peak); 0 otherwise */
static inline __attribute__((always_inline)) uint32_t queue_move(uint32_t *queue, uint32_t from, uint32_t to,
                                                                 uint32_t dst, const unsigned PM)
{
    queue[from]--;
    if (PM != 0)
        return 0;
    const uint32_t q = queue[to] + (to != dst);
    queue[to] = q;
    return q;
}

/*
 * The end of a step of the links part in one loop (links_fast()):
 * the peak queue as move_hops measures it, every send of the step counted,
 * then the arrivals in order; and the hop counts. Multiport counts the
 * arrivals in the loop, where a queue is never below its value here at the
 * same hop: without @p over (some queue went above the peak in the loop) the
 * peak stands (on mesh:48x64's rounds 98% of the steps); with it, the
 * arrivals are taken out and counted again in this order. Single- and k-port
 * count them here only: A2 receives before it sends at most nodes, so its
 * queues go above the peak in the loop in most steps (3 in 4 on mesh:48x64)
 * and would be counted twice.
 */
static inline __attribute__((always_inline)) void links_close(totex_sim *sim, const totex_hop *hops, size_t count,
                                                              const unsigned PM, uint32_t over)
{
    uint32_t *const queue = sim->queue;
    if (PM != 0 || over) {
        uint64_t peak = sim->peak_queue;
        if (PM == 0)
            for (size_t x = 0; x < count; x++)
                queue[hops[x].to] -= hops[x].to != hops[x].dst;
        for (size_t x = 0; x < count; x++) {
            /* no branch on the arrival (about one hop in three on A2): an arrival leaves its queue as it was
               after the step's sends, at most the peak so far */
            const totex_hop *h = &hops[x];
            const uint32_t q = queue[h->to] + (h->to != h->dst);
            queue[h->to] = q;
            if (q > peak) {
                sim->peak_queue = peak = q;
                sim->peak_node = h->to;
            }
        }
    }
    sim->hops += count;
    if (count > sim->max_step_hops)
        sim->max_step_hops = count;
}

/* Under single-port (@p PM 1) with the table, the one-loop forms take a hop's ports in send_stamp[from]
   and recv_stamp[to] (the step + 1 of the node's last send / receive; 0 for none): two words and two
   compares instead of the node words' counts. 0 when a port is taken already, else 1 */
static inline __attribute__((always_inline)) int ports_take1(uint32_t *ss, uint32_t *rs, uint32_t from, uint32_t to,
                                                            uint32_t stamp)
{
    if ((ss[from] == stamp) | (rs[to] == stamp))
        return 0;
    ss[from] = stamp;
    rs[to] = stamp;
    return 1;
}

/* Under k-port (k < 256) with the table, the one-loop forms count a hop's ports in send_k[from] and
   recv_k[to]: @p base = 256 (step + 1) plus the node's sends (receives) in this step, a word below @p base
   being of an earlier step (no sends). max(word, base) - base is then the count: one compare and a move
   instead of the stamp's test and the count's extraction. 0 when a count is at @p k already, else 1 */
static inline __attribute__((always_inline)) int ports_takek(uint64_t *sk, uint64_t *rk, uint32_t from, uint32_t to,
                                                            uint64_t base, uint64_t k)
{
    const uint64_t ws = sk[from], wr = rk[to];
    const uint64_t cs = ws > base ? ws : base, cr = wr > base ? wr : base;
    if ((cs >= base + k) | (cr >= base + k))
        return 0;
    sk[from] = cs + 1;
    rk[to] = cr + 1;
    return 1;
}

/* the links' writes of hops[0, x) undone (links_fast()): queue[from] back up, under multiport queue[to] down.
   The stamps and counts of this step the one-loop forms leave in link16, send_stamp, recv_stamp, send_k and
   recv_k are read by no one again: check_hops() takes the node words, and the next step has another stamp */
static inline __attribute__((always_inline)) void links_undo(totex_sim *sim, const totex_hop *hops, size_t x,
                                                             const unsigned PM)
{
    while (x-- > 0) {
        const totex_hop *h = &hops[x];
        sim->queue[h->from]++;
        if (PM == 0)
            sim->queue[h->to] -= h->to != h->dst;
    }
}

/* what the loops over a chunk read (links_chunk_in()) */
typedef struct sim_loop {
    const uint32_t *nbr;
    uint32_t *queue, *ss, *rs; /* ss, rs: send_stamp and recv_stamp (single-port) */
    uint16_t *link16;          /* multiport and k-port */
    uint64_t *sk, *rk;         /* k-port: send_k, recv_k */
    msg_state *state;
    uint32_t stamp, peak0, mask, ahead;
    uint64_t now, kp; /* now: 256 (step + 1), the base of the k-port counts */
    uint32_t n16, stamp16; /* stamp16: link_stamp16() */
    uint16_t *in16;
    const uint32_t *rev;
} sim_loop;

/*
 * The links of the @p c hops @p hc of a chunk, after its pre-pass (links_fast()), and with @p MS their
 * messages too (fused_one_loop(): the message's word against the pre-pass's, then moved): the checks of
 * check_hops() that the pre-pass leaves (the link's slot in the table, the ports and links, the message), and
 * the writes of move_hops() but the peak queue (links_close()). Returns the hops taken: fewer than @p c at
 * the first that fails a check, which it leaves unwritten. The port model (PM: 0 multiport, 1 single-port, 2
 * k-port) and the table's row length (NS) are constants: one function each (links_chunk_fn()), so that the
 * loop keeps its values in registers.
 */
static inline __attribute__((always_inline)) size_t links_chunk_in(const sim_loop *lp, const totex_hop *hc, size_t c,
                                                                   const sim_chunk *ck, uint32_t *over_out,
                                                                   const unsigned PM, const uint32_t NS, const int MS)
{
    const uint32_t *const nbr = lp->nbr;
    uint32_t *const queue = lp->queue, *const ss = lp->ss, *const rs = lp->rs;
    uint16_t *const link16 = lp->link16;
    uint64_t *const sk = lp->sk, *const rk = lp->rk;
    msg_state *const state = lp->state;
    const uint32_t stamp = lp->stamp, peak0 = lp->peak0, mask = lp->mask, ahead = lp->ahead;
    const uint64_t kbase = lp->now, kp = lp->kp;
    const uint32_t n16 = lp->n16, stamp16 = lp->stamp16;
    uint32_t top = 0; /* the largest queue a hop left (multiport) */
    size_t j = 0;
#pragma GCC unroll 2
    for (; j < c; j++) {
        const uint32_t from = hc[j].from, to = hc[j].to;
        msg_state *ms = NULL;
        const uint32_t wbad = MS ? chunk_word(state, ck, j, ahead, mask, &ms) : 0;
        /* the link's slot: under multiport and k-port with rows of 4 slots the pre-pass found it (and failed a
           hop over no link) */
        const int LK = NS == 4 && PM != 1;
        const uint32_t slot = LK ? 0 : fast_slot(nbr + (size_t)from * NS, to, NS);
        if ((slot == UINT32_MAX) | (wbad != 0))
            break;
        if (PM == 1) {
            if (!ports_take1(ss, rs, from, to, stamp))
                break;
        } else { /* the directed link's stamp, and under k-port the node's counts */
            uint16_t *const ls = LK ? link16 + (ck->link[j] & 0x7fffffffu) : link16 + (size_t)slot * n16 + from;
            if (*ls == stamp16)
                break;
            if (PM == 2 && !ports_takek(sk, rk, from, to, kbase, kp))
                break;
            *ls = (uint16_t)stamp16;
        }
        if (MS)
            *ms = ck->moved[j];
        const uint32_t q = queue_move(queue, from, to, hc[j].dst, PM); /* (multiport: the arrivals counted here too) */
        top = q > top ? q : top;
    }
    *over_out |= top > peak0;
    return j;
}

typedef size_t (*links_chunk_fn)(const sim_loop *lp, const totex_hop *hc, size_t c, const sim_chunk *ck,
                                 uint32_t *over);
#define SIM_CHUNK_FNS(PM, NS)                                                                                         \
    static size_t links_chunk_##PM##_##NS(const sim_loop *lp, const totex_hop *hc, size_t c, const sim_chunk *ck,  \
                                          uint32_t *over)                                                          \
    {                                                                                                              \
        return links_chunk_in(lp, hc, c, ck, over, PM, NS, 0);                                                     \
    }                                                                                                              \
    static size_t fused_chunk_##PM##_##NS(const sim_loop *lp, const totex_hop *hc, size_t c, const sim_chunk *ck,  \
                                          uint32_t *over)                                                          \
    {                                                                                                              \
        return links_chunk_in(lp, hc, c, ck, over, PM, NS, 1);                                                     \
    }
SIM_CHUNK_FNS(0, 4) SIM_CHUNK_FNS(0, 8) SIM_CHUNK_FNS(0, 12) SIM_CHUNK_FNS(0, 16)
SIM_CHUNK_FNS(1, 4) SIM_CHUNK_FNS(1, 8) SIM_CHUNK_FNS(1, 12) SIM_CHUNK_FNS(1, 16)
SIM_CHUNK_FNS(2, 4) SIM_CHUNK_FNS(2, 8) SIM_CHUNK_FNS(2, 12) SIM_CHUNK_FNS(2, 16)
#undef SIM_CHUNK_FNS

/* the loop over a chunk for this simulator's port model and table (@p ms: with the messages) */
static links_chunk_fn pick_chunk(const totex_sim *sim, int ms)
{
    static const links_chunk_fn fns[2][3][4] = {
        {{links_chunk_0_4, links_chunk_0_8, links_chunk_0_12, links_chunk_0_16},
         {links_chunk_1_4, links_chunk_1_8, links_chunk_1_12, links_chunk_1_16},
         {links_chunk_2_4, links_chunk_2_8, links_chunk_2_12, links_chunk_2_16}},
        {{fused_chunk_0_4, fused_chunk_0_8, fused_chunk_0_12, fused_chunk_0_16},
         {fused_chunk_1_4, fused_chunk_1_8, fused_chunk_1_12, fused_chunk_1_16},
         {fused_chunk_2_4, fused_chunk_2_8, fused_chunk_2_12, fused_chunk_2_16}}};
    const unsigned pm = sim->ports == TOTEX_PORTS_MULTI ? 0u : sim->ports == TOTEX_PORTS_SINGLE ? 1u : 2u;
    const uint32_t rows = sim->nbr_stride / 4; /* 0 only with one node, whose hops all fail the pre-pass */
    return fns[ms != 0][pm][rows ? rows - 1 : 0];
}

/*
 * The dense form of a step of the links part (links_fast(); with the messages too in the serial replay):
 * per hop no count and no queue. Multiport and k-port, on a table whose links all have a link back
 * (sim->dense), steps of at least n / SIM_DENSE_NODES hops: the directed link's stamp, checked and written
 * (link16), and the stamp of the link into the receiver (in16, bit 15 set when the message stays there,
 * to != dst). Single-port, steps of at least n / SIM_DENSE_NODES1 hops: the node's send and receive stamps,
 * checked and written (send_stamp, recv_stamp, the receive's bit 31 set when the message stays). Then one
 * pass over the nodes (dense_nodes_in(), dense_single_in()) counts each node's sends and receives of the
 * step from those stamps, checks them against k (k-port: a node over k fails the step as a hop would, and
 * the two passes name it) and moves its queue by the messages that stayed less the sends. A node sends
 * over as many links as it sends messages and receives over as many as it receives (a link twice in a step
 * is a link conflict, and under single-port two sends: the loop stops there), so the counts are those of
 * check_hops(). The per-hop form (links_chunk_in()) reads and writes a node's counts and queues at every
 * hop: on mesh:16x32 2-port greedy its links part took 2.3-2.5 ns a hop, 0.85-0.9 with neither the counts
 * nor the queues (docs/performance.md, "Session 25: the simulator against memcpy"). Sparser steps keep the
 * per-hop form: the node pass is over all n nodes (A2 on mesh:32x32, 0.67 hops a node a step: the dense form
 * with link stamps took 1.70-1.78 ns a hop, the per-hop form 1.59-1.65, the dense form with node stamps
 * 1.47-1.54).
 */
#define SIM_DENSE_NODES 4
#define SIM_DENSE_NODES1 16
/* link16's stamps: 1 .. SIM_STAMP16 */
#define SIM_STAMP16 32767u

/* the stamp of step @p step in link16 and in16 (they are all 0 again at every multiple of SIM_STAMP16 steps:
   links_fast()) */
static inline uint32_t link_stamp16(uint64_t step) { return (uint32_t)(step % SIM_STAMP16) + 1; }

#ifdef SIM_HAVE_AVX2
/* fast_slot() of a row of 8 slots in one 8-wide compare (the dense loop's AVX2 form, dense_chunk_avx2_*()) */
__attribute__((target("avx2"))) static inline __attribute__((always_inline)) uint32_t fast_slot8(const uint32_t *nb,
                                                                                                 uint32_t to)
{
    const unsigned hit = (unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(
        _mm256_cmpeq_epi32(_mm256_loadu_si256((const __m256i *)nb), _mm256_set1_epi32((int)to))));
    return hit ? (uint32_t)__builtin_ctz(hit) : UINT32_MAX;
}
#endif
/* a row's slot function for dense_chunk_in(): fast_slot() of rows of NS */
typedef uint32_t (*slot_fn)(const uint32_t *nb, uint32_t to);

static inline __attribute__((always_inline)) size_t dense_chunk_in(const sim_loop *lp, const totex_hop *hc, size_t c,
                                                                   const sim_chunk *ck, const unsigned PM,
                                                                   const uint32_t NS, const int MS, slot_fn SLOT)
{
    const uint32_t *const nbr = lp->nbr, *const rev = lp->rev;
    uint16_t *const link16 = lp->link16, *const in16 = lp->in16;
    uint32_t *const ss = lp->ss, *const rs = lp->rs;
    msg_state *const state = lp->state;
    const uint32_t stamp = lp->stamp, mask = lp->mask, ahead = lp->ahead, n16 = lp->n16, stamp16 = lp->stamp16;
    size_t j = 0;
#pragma GCC unroll 2
    for (; j < c; j++) {
        /* the link's slot: with rows of 4 slots the pre-pass found it (and failed a hop over no link), but
           under single-port, which takes no link stamp; its bit 31 then says the message stays (to != dst) */
        const int LK = NS == 4 && PM != 1;
        const uint32_t from = LK ? 0 : hc[j].from, to = LK ? 0 : hc[j].to, dst = LK ? 0 : hc[j].dst;
        msg_state *ms = NULL;
        const uint32_t wbad = MS ? chunk_word(state, ck, j, ahead, mask, &ms) : 0;
        const uint32_t slot = LK ? 0 : SLOT ? SLOT(nbr + (size_t)from * NS, to) : fast_slot(nbr + (size_t)from * NS, to, NS);
        if ((slot == UINT32_MAX) | (wbad != 0))
            break;
        if (PM == 1) { /* the node's send and receive stamps, the receive's bit 31 when the message stays */
            if ((ss[from] == stamp) | ((rs[to] & 0x7fffffffu) == stamp))
                break;
            ss[from] = stamp;
            rs[to] = stamp | (uint32_t)(to != dst) << 31;
        } else {
            const uint32_t lw = LK ? ck->link[j] : 0, li = LK ? lw & 0x7fffffffu : slot * n16 + from;
            const uint32_t stays = LK ? lw >> 31 : (uint32_t)(to != dst);
            if (link16[li] == stamp16)
                break;
            link16[li] = (uint16_t)stamp16;
            in16[rev[li]] = (uint16_t)(stamp16 | stays << 15);
        }
        if (MS)
            *ms = ck->moved[j];
    }
    return j;
}

typedef size_t (*dense_chunk_fn)(const sim_loop *lp, const totex_hop *hc, size_t c, const sim_chunk *ck);
#define SIM_DENSE_FNS(P, NS)                                                                                       \
    static size_t dense_chunk_##P##_##NS(const sim_loop *lp, const totex_hop *hc, size_t c, const sim_chunk *ck)   \
    {                                                                                                              \
        return dense_chunk_in(lp, hc, c, ck, P, NS, 0, NULL);                                                      \
    }                                                                                                              \
    static size_t dense_fused_##P##_##NS(const sim_loop *lp, const totex_hop *hc, size_t c, const sim_chunk *ck)   \
    {                                                                                                              \
        return dense_chunk_in(lp, hc, c, ck, P, NS, 1, NULL);                                                      \
    }
SIM_DENSE_FNS(0, 4) SIM_DENSE_FNS(0, 8) SIM_DENSE_FNS(0, 12) SIM_DENSE_FNS(0, 16)
SIM_DENSE_FNS(1, 4) SIM_DENSE_FNS(1, 8) SIM_DENSE_FNS(1, 12) SIM_DENSE_FNS(1, 16)
#undef SIM_DENSE_FNS

#ifdef SIM_HAVE_AVX2
/* rows of 8 slots (3-D tori and meshes) with AVX2: the slot in one compare (fast_slot8()) */
#define SIM_DENSE8_FNS(P)                                                                                          \
    __attribute__((target("avx2"))) static size_t dense_chunk8_##P(const sim_loop *lp, const totex_hop *hc, size_t c, \
                                                                   const sim_chunk *ck)                           \
    {                                                                                                              \
        return dense_chunk_in(lp, hc, c, ck, P, 8, 0, fast_slot8);                                                 \
    }                                                                                                              \
    __attribute__((target("avx2"))) static size_t dense_fused8_##P(const sim_loop *lp, const totex_hop *hc, size_t c, \
                                                                   const sim_chunk *ck)                           \
    {                                                                                                              \
        return dense_chunk_in(lp, hc, c, ck, P, 8, 1, fast_slot8);                                                 \
    }
SIM_DENSE8_FNS(0) SIM_DENSE8_FNS(1)
#undef SIM_DENSE8_FNS
#endif

/* the dense loop for this simulator's table (@p ms: with the messages), under single-port (@p single) or not
   (multiport and k-port take the same loop: the node pass counts k) */
static dense_chunk_fn pick_dense(const totex_sim *sim, int ms, int single)
{
#ifdef SIM_HAVE_AVX2
    if (sim->nbr_stride == 8 && sim->avx2 && !sim->portable)
        return ms ? (single ? dense_fused8_1 : dense_fused8_0) : (single ? dense_chunk8_1 : dense_chunk8_0);
#endif
    static const dense_chunk_fn fns[2][2][4] = {
        {{dense_chunk_0_4, dense_chunk_0_8, dense_chunk_0_12, dense_chunk_0_16},
         {dense_chunk_1_4, dense_chunk_1_8, dense_chunk_1_12, dense_chunk_1_16}},
        {{dense_fused_0_4, dense_fused_0_8, dense_fused_0_12, dense_fused_0_16},
         {dense_fused_1_4, dense_fused_1_8, dense_fused_1_12, dense_fused_1_16}}};
    const uint32_t rows = sim->nbr_stride / 4;
    return fns[ms != 0][single != 0][rows ? rows - 1 : 0];
}

/* the node pass of the dense form under multiport and k-port, node by node: each node's sends (link16) and
   receives (in16) of the step of stamp @p s16 against @p kp (0: no limit), and its queue moved by the messages
   that stayed less its sends (@p sign 1), or moved back (@p sign -1, after a node over k). Nonzero when some
   node is over k; *top: the largest queue after */
static inline __attribute__((always_inline)) uint32_t dense_nodes_in(const totex_sim *sim, uint32_t s16, uint32_t kp,
                                                                    int sign, uint32_t *top)
{
    const uint32_t n = sim->n, n16 = sim->n16, slots = sim->slots;
    const uint16_t *const link16 = sim->link16, *const in16 = sim->in16;
    uint32_t *const queue = sim->queue;
    const uint32_t tagged = s16 | 0x8000u;
    uint32_t bad = 0, mx = 0;
    for (uint32_t v = 0; v < n; v++) {
        uint32_t sends = 0, recvs = 0, stay = 0;
        for (uint32_t s = 0; s < slots; s++) {
            const uint32_t w = in16[(size_t)s * n16 + v];
            sends += link16[(size_t)s * n16 + v] == s16;
            recvs += (w & 0x7fffu) == s16;
            stay += w == tagged;
        }
        bad |= kp && (sends > kp || recvs > kp);
        const uint32_t q = sign > 0 ? queue[v] + stay - sends : queue[v] - stay + sends;
        queue[v] = q;
        mx = q > mx ? q : mx;
    }
    *top = mx;
    return bad;
}
static uint32_t dense_nodes_plain(const totex_sim *sim, uint32_t s16, uint32_t kp, int sign, uint32_t *top)
{
    return dense_nodes_in(sim, s16, kp, sign, top);
}

/* the node pass under single-port: a node's send stamp and its receive stamp's (the loop took at most one of
   each), its queue moved by the message that stayed less the send; *top: the largest queue after */
static inline __attribute__((always_inline)) void dense_single_in(const totex_sim *sim, uint32_t stamp, uint32_t *top)
{
    const uint32_t *const ss = sim->send_stamp, *const rs = sim->recv_stamp;
    uint32_t *const queue = sim->queue;
    const uint32_t tagged = stamp | 0x80000000u;
    uint32_t mx = 0;
    for (uint32_t v = 0; v < sim->n; v++) {
        const uint32_t q = queue[v] + (rs[v] == tagged) - (ss[v] == stamp);
        queue[v] = q;
        mx = q > mx ? q : mx;
    }
    *top = mx;
}
static void dense_single_plain(const totex_sim *sim, uint32_t stamp, uint32_t *top) { dense_single_in(sim, stamp, top); }

#ifdef SIM_HAVE_AVX2
/* the largest of the 8 lanes of @p mx */
__attribute__((target("avx2"))) static inline uint32_t max8_avx2(__m256i mx)
{
    __m128i h = _mm_max_epu32(_mm256_castsi256_si128(mx), _mm256_extracti128_si256(mx, 1));
    h = _mm_max_epu32(h, _mm_shuffle_epi32(h, 0x4e));
    h = _mm_max_epu32(h, _mm_shuffle_epi32(h, 0xb1));
    return (uint32_t)_mm_cvtsi128_si32(h);
}

/* dense_nodes_in() 16 nodes at a time (link16, in16 and queue have n16 entries a slot, 0 past n); @p kp below
   32768 */
__attribute__((target("avx2"))) static uint32_t dense_nodes_avx2(const totex_sim *sim, uint32_t s16, uint32_t kp,
                                                                 int sign, uint32_t *top)
{
    const uint32_t n16 = sim->n16, slots = sim->slots;
    const uint16_t *const link16 = sim->link16, *const in16 = sim->in16;
    uint32_t *const queue = sim->queue;
    const __m256i st = _mm256_set1_epi16((short)s16), tg = _mm256_set1_epi16((short)(s16 | 0x8000u)),
                  low = _mm256_set1_epi16(0x7fff), kv = _mm256_set1_epi16((short)kp);
    __m256i bad = _mm256_setzero_si256(), mx = bad;
    for (uint32_t v = 0; v < n16; v += 16) {
        __m256i sends = _mm256_setzero_si256(), recvs = sends, stay = sends;
        for (uint32_t s = 0; s < slots; s++) {
            const __m256i w = _mm256_loadu_si256((const __m256i *)(in16 + (size_t)s * n16 + v));
            sends = _mm256_sub_epi16(sends, _mm256_cmpeq_epi16(
                                                _mm256_loadu_si256((const __m256i *)(link16 + (size_t)s * n16 + v)), st));
            if (kp)
                recvs = _mm256_sub_epi16(recvs, _mm256_cmpeq_epi16(_mm256_and_si256(w, low), st));
            stay = _mm256_sub_epi16(stay, _mm256_cmpeq_epi16(w, tg));
        }
        if (kp)
            bad = _mm256_or_si256(bad, _mm256_or_si256(_mm256_cmpgt_epi16(sends, kv), _mm256_cmpgt_epi16(recvs, kv)));
        const __m256i d = sign > 0 ? _mm256_sub_epi16(stay, sends) : _mm256_sub_epi16(sends, stay);
        const __m256i q0 = _mm256_add_epi32(_mm256_loadu_si256((const __m256i *)(queue + v)),
                                            _mm256_cvtepi16_epi32(_mm256_castsi256_si128(d))),
                      q1 = _mm256_add_epi32(_mm256_loadu_si256((const __m256i *)(queue + v + 8)),
                                            _mm256_cvtepi16_epi32(_mm256_extracti128_si256(d, 1)));
        _mm256_storeu_si256((__m256i *)(queue + v), q0);
        _mm256_storeu_si256((__m256i *)(queue + v + 8), q1);
        mx = _mm256_max_epu32(mx, _mm256_max_epu32(q0, q1));
    }
    *top = max8_avx2(mx);
    return !_mm256_testz_si256(bad, bad);
}

/* dense_single_in() 8 nodes at a time (send_stamp, recv_stamp and queue have n16 entries, 0 past n) */
__attribute__((target("avx2"))) static void dense_single_avx2(const totex_sim *sim, uint32_t stamp, uint32_t *top)
{
    const uint32_t *const ss = sim->send_stamp, *const rs = sim->recv_stamp;
    uint32_t *const queue = sim->queue;
    const __m256i st = _mm256_set1_epi32((int)stamp), tg = _mm256_set1_epi32((int)(stamp | 0x80000000u));
    __m256i mx = _mm256_setzero_si256();
    for (uint32_t v = 0; v < sim->n16; v += 8) {
        /* cmpeq is -1 where true: the queue plus the send's, less the stay's */
        const __m256i q = _mm256_sub_epi32(
            _mm256_add_epi32(_mm256_loadu_si256((const __m256i *)(queue + v)),
                             _mm256_cmpeq_epi32(_mm256_loadu_si256((const __m256i *)(ss + v)), st)),
            _mm256_cmpeq_epi32(_mm256_loadu_si256((const __m256i *)(rs + v)), tg));
        _mm256_storeu_si256((__m256i *)(queue + v), q);
        mx = _mm256_max_epu32(mx, q);
    }
    *top = max8_avx2(mx);
}
#endif

/* the end of a step of the dense form: the node pass (dense_nodes_in(), dense_single_in()); a node over k:
   the queues back as they were and 0 (the caller replays the step in the two passes, which name it). Else
   the peak as links_close() finds it (every queue is at most the peak between two steps: the peak stands
   when the largest queue now is at most it, else the arrivals are counted again in hop order), the hop
   counts, 1 */
static int dense_close(totex_sim *sim, const totex_hop *hops, size_t count, uint64_t step)
{
    uint32_t top;
    const int avx2 = sim->avx2 && !sim->portable;
    if (sim->ports == TOTEX_PORTS_SINGLE) {
        const uint32_t stamp = (uint32_t)(step + 1);
#ifdef SIM_HAVE_AVX2
        if (avx2)
            dense_single_avx2(sim, stamp, &top);
        else
#endif
            dense_single_plain(sim, stamp, &top);
    } else {
        /* k-port over k only when k is below the slots (a node has at most that many links) */
        const uint32_t kp = sim->ports == TOTEX_PORTS_MULTI || sim->ports >= sim->slots ? 0 : (uint32_t)sim->ports;
        const uint32_t s16 = link_stamp16(step);
        uint32_t (*nodes)(const totex_sim *, uint32_t, uint32_t, int, uint32_t *) = dense_nodes_plain;
#ifdef SIM_HAVE_AVX2
        if (avx2)
            nodes = dense_nodes_avx2;
#endif
        if (nodes(sim, s16, kp, 1, &top)) {
            nodes(sim, s16, 0, -1, &top);
            return 0;
        }
    }
    (void)avx2;
    links_close(sim, hops, count, 0, top > sim->peak_queue);
    return 1;
}

/*
 * The links part of step @p step in one loop a chunk (the neighbour table only: sim->nbr set), or with @p MS
 * both parts (fused_one_loop()): the same checks as check_hops() and the same updates as move_hops(), no message
 * text and one branch per check. At the first hop that fails any check it undoes the hops before it (the
 * messages in reverse, back at h->from with stamp 0; links_undo()) and returns 0: the caller replays the
 * step with check_hops and move_hops, which report the violation exactly as the serial replay does.
 */
static int links_fast(totex_sim *sim, const totex_hop *hops, size_t count, uint64_t step, const int MS)
{
    const uint32_t n = sim->n, mask = sim->stamp_mask, sh = sim->loc_shift;
    const uint32_t cur = (uint32_t)((step + 1) & mask);
    if (step / SIM_STAMP16 != sim->link_cycle) { /* link16's stamps of SIM_STAMP16 steps before */
        memset(sim->link16, 0, sizeof *sim->link16 * sim->n16 * sim->nbr_stride);
        memset(sim->in16, 0, sizeof *sim->in16 * sim->n16 * sim->nbr_stride);
        sim->link_cycle = step / SIM_STAMP16;
    }
    if (MS && (!sh || !cur))
        return 0;
    const unsigned pm = sim->ports == TOTEX_PORTS_MULTI ? 0u : sim->ports == TOTEX_PORTS_SINGLE ? 1u : 2u;
    const int layout = sim->layout;
    const uint32_t stamp = (uint32_t)(step + 1);
    /* the dense form (dense_chunk_in()) on a step of at least n / SIM_DENSE_NODES hops (its node pass is over
       all n nodes); single-port while bit 31 of a stamp is free. With the messages (the serial replay), under
       multiport and k-port only where the pre-pass finds the links (rows of 4 slots): elsewhere the store into
       in16 waits on the loop's look-up of the slot, and the state's loads after it wait on that store
       (torus:8x8x8 OCTR's serial replay took 3.23-3.54 ns a hop in the dense form, 3.08-3.41 in the per-hop
       form; its links part 1.48-1.68 in the dense form, 1.80-2.08 in the per-hop form) */
    const int dense = pm == 1 ? (uint64_t)count * SIM_DENSE_NODES1 >= n && stamp < 0x80000000u
                              : sim->dense && (uint64_t)count * SIM_DENSE_NODES >= n && (!MS || sim->nbr_stride == 4);
    if (!dense && pm == 2 && !sim->send_k)
        return 0; /* k >= 256: the two passes only */
    const sim_loop lp = {sim->nbr, sim->queue, sim->send_stamp, sim->recv_stamp, sim->link16, sim->send_k,
                         sim->recv_k, sim->state, stamp, (uint32_t)sim->peak_queue, mask, sim->ahead,
                         (uint64_t)stamp << 8, pm == 1 ? 1 : (uint64_t)sim->ports, sim->n16, link_stamp16(step),
                         sim->in16, sim->rev};
    const sim_pre_in in = {n, MS ? cur : 0, sh, sim->n16, sim->perm, sim->nbr};
    /* rows of 4 slots, multiport and k-port: the links' slots found 8 at a time in the pre-pass, in either form
       (single-port takes no link stamp: the loop's look-up costs no more; in its dense form, on A2 mesh:32x32,
       1.51-1.54 ns a hop against 1.64-1.73 with the pre-pass's) */
    const int lk = sim->nbr_stride == 4 && pm != 1;
    const sim_pre_fn pre = pick_pre(sim, MS, layout, lk);
    const links_chunk_fn loop = pick_chunk(sim, MS);
    const dense_chunk_fn dloop = pick_dense(sim, MS, pm == 1);
    const size_t cl = MS && sim->ahead > PREFETCH_AHEAD ? SIM_CHUNK : SIM_CHUNK_NEAR;
    sim_chunk ck;
    uint32_t over = 0; /* some queue went above the peak during the loop */
    uint64_t arrivals = 0;
    size_t x = 0;
    while (x < count) {
        const size_t c = count - x < cl ? count - x : cl;
        if (pre_chunk(pre, hops + x, c, count - x, &in, &ck, &arrivals, sim->state, sim->ahead, MS))
            break;
        const size_t j = dense ? dloop(&lp, hops + x, c, &ck) : loop(&lp, hops + x, c, &ck, &over);
        x += j;
        if (j < c)
            break;
    }
    /* the dense form's node pass: a node over k fails the step as a hop does (the queues left as they were) */
    const int failed = x < count || (dense && !dense_close(sim, hops, count, step));
    if (failed) {
        if (MS) /* the messages moved in this step (all of them after a node over k), back in reverse */
            for (size_t y = x; y-- > 0;)
                sim->state[state_index(n, hops[y].src, hops[y].dst, layout, sim->perm)] = (hops[y].from ^ hops[y].src) << sh;
        if (dense) /* the dense loop writes no queue */
            return 0;
        if (pm == 0)
            links_undo(sim, hops, x, 0);
        else
            links_undo(sim, hops, x, 1);
        return 0;
    }
    if (dense)
        ; /* dense_close() took the peak and the hop counts */
    else if (pm == 0)
        links_close(sim, hops, count, 0, over);
    else
        links_close(sim, hops, count, 1, over);
    if (MS) {
        sim->arrivals += arrivals;
        sim->delay_sum += arrivals * stamp;
        if (arrivals)
            sim->last_arrival = stamp;
    }
    return 1;
}

/* links_fast() for this simulator's port model and table, or 0 when it has no fast form (no table) */
static int links_one_loop(totex_sim *sim, const totex_hop *hops, size_t count, uint64_t step)
{
    return sim->nbr ? links_fast(sim, hops, count, step, 0) : 0;
}

/*
 * Both parts of step @p step in one loop over the hops (the serial replay,
 * networks with the neighbour table): each hop's checks of msgs_one_pass_in()
 * and links_fast(), all before any of its writes, then its writes; so a hop
 * is read and its ids checked once, and the state's cache misses overlap the
 * links' instructions. At the first hop that fails a check it undoes the hops
 * before it, exactly as the two loops do, and returns 0: the caller replays
 * the step in the two passes, which name the violation. The layout is chosen
 * as msgs_one_pass() chooses it; 0 when it has no fused form (no table).
 */
static int fused_one_loop(totex_sim *sim, const totex_hop *hops, size_t count, uint64_t step)
{
    if (!sim->nbr)
        return 0;
    layout_review(sim, hops, count, step);
    return links_fast(sim, hops, count, step, 1);
}

totex_status totex_sim_step(totex_sim *sim, const totex_hop *hops, size_t count, totex_error *err)
{
    size_t bad;
    uint32_t rank;
    totex_status st;
    if (sim->fault.kind != TOTEX_VIOL_NONE)
        return totex_fail(err, TOTEX_EVIOLATION, "simulator already rejected the schedule at step %llu",
                          (unsigned long long)sim->fault.step);
    if (sim->step + 1 >= UINT32_MAX)
        return totex_fail(err, TOTEX_EOVERFLOW, "schedule longer than 2^32-2 steps");
    if (sim->nbr) {
        /* both parts in one loop; when it meets a violation, the step again in two passes */
        if (fused_one_loop(sim, hops, count, sim->step)) {
            sim->step++;
            return TOTEX_OK;
        }
    } else {
        /* both parts in their one-loop forms; when either meets a violation, the step again in two passes */
        const uint64_t arrivals = sim->arrivals, delay_sum = sim->delay_sum, last_arrival = sim->last_arrival;
        if (msgs_one_pass(sim, hops, count, sim->step)) {
            if (links_one_loop(sim, hops, count, sim->step)) {
                sim->step++;
                return TOTEX_OK;
            }
            for (size_t x = count; x-- > 0;) /* the messages' moves undone: each back at h->from, stamp 0 */
                sim->state[state_index(sim->n, hops[x].src, hops[x].dst, sim->layout, sim->perm)] = (hops[x].from ^ hops[x].src) << sim->loc_shift;
            sim->arrivals = arrivals;
            sim->delay_sum = delay_sum;
            sim->last_arrival = last_arrival;
        }
    }
    st = check_hops(sim, hops, count, DO_LINKS | DO_MSGS, sim->step, &sim->fault, &bad, &rank, err);
    if (st == TOTEX_OK)
        st = move_hops(sim, hops, count, DO_LINKS | DO_MSGS, sim->step, &sim->fault, &bad, err);
    if (st == TOTEX_OK)
        sim->step++;
    return st;
}

/* One part of a replay split in two (totex_sim_stage_sink): the steps it took, and its first failure. */
static inline __attribute__((always_inline)) totex_status stage_step(totex_sim *sim, unsigned what, sim_stage *sg, const totex_hop *hops, size_t count,
                               totex_error *err)
{
    size_t bad = 0;
    uint32_t rank = 0, pass = 0;
    totex_status st;
    if (sg->status != TOTEX_OK) {
        if (err)
            *err = sg->err;
        return sg->status;
    }
    if (sg->step + 1 >= UINT32_MAX)
        st = totex_fail(&sg->err, TOTEX_EOVERFLOW, "schedule longer than 2^32-2 steps");
    else if ((what == DO_MSGS && msgs_one_pass(sim, hops, count, sg->step)) ||
             (what == DO_LINKS && links_one_loop(sim, hops, count, sg->step))) {
        sg->step++;
        return TOTEX_OK;
    } else if (what == DO_LINKS)
        st = check_hops(sim, hops, count, DO_LINKS, sg->step, &sg->fault, &bad, &rank, &sg->err);
    else
        st = check_hops(sim, hops, count, DO_MSGS, sg->step, &sg->fault, &bad, &rank, &sg->err);
    if (st == TOTEX_OK) {
        pass = 1;
        rank = 0;
        if (what == DO_LINKS)
            st = move_hops(sim, hops, count, DO_LINKS, sg->step, &sg->fault, &bad, &sg->err);
        else
            st = move_hops(sim, hops, count, DO_MSGS, sg->step, &sg->fault, &bad, &sg->err);
    }
    if (st != TOTEX_OK) {
        sg->status = st;
        sg->at_step = sg->step;
        sg->at_pass = pass;
        sg->at_hop = bad;
        sg->at_rank = rank;
        if (err)
            *err = sg->err;
        return st;
    }
    sg->step++;
    return TOTEX_OK;
}

static totex_status links_step(void *ctx, const totex_hop *hops, size_t count, totex_error *err)
{
    totex_sim *sim = ctx;
    return stage_step(sim, DO_LINKS, &sim->stage[0], hops, count, err);
}

static totex_status messages_step(void *ctx, const totex_hop *hops, size_t count, totex_error *err)
{
    totex_sim *sim = ctx;
    return stage_step(sim, DO_MSGS, &sim->stage[1], hops, count, err);
}

totex_sink totex_sim_stage_sink(totex_sim *sim, totex_sim_stage stage)
{
    totex_sink s = {stage == TOTEX_SIM_STAGE_LINKS ? links_step : messages_step, sim};
    return s;
}

/* a's failure comes before b's in the serial replay: by step, pass, hop, then check */
static int stage_before(const sim_stage *a, const sim_stage *b)
{
    if (a->at_step != b->at_step)
        return a->at_step < b->at_step;
    if (a->at_pass != b->at_pass)
        return a->at_pass < b->at_pass;
    if (a->at_hop != b->at_hop)
        return a->at_hop < b->at_hop;
    return a->at_rank <= b->at_rank;
}

totex_status totex_sim_stages_join(totex_sim *sim, totex_error *err)
{
    const sim_stage *a = &sim->stage[0], *b = &sim->stage[1], *first = NULL;
    if (a->status != TOTEX_OK && (b->status == TOTEX_OK || stage_before(a, b)))
        first = a;
    else if (b->status != TOTEX_OK)
        first = b;
    if (first) {
        if (first->status == TOTEX_EVIOLATION)
            sim->fault = first->fault;
        sim->step = first->at_step;
        if (err)
            *err = first->err;
        return first->status;
    }
    if (a->step != b->step)
        return totex_fail(err, TOTEX_EINVAL,
                          "the two parts of a split replay took different schedules (%llu and %llu steps): feed both "
                          "stage sinks every step, in order",
                          (unsigned long long)a->step, (unsigned long long)b->step);
    sim->step = a->step;
    return TOTEX_OK;
}

static totex_status sink_step(void *ctx, const totex_hop *hops, size_t count, totex_error *err)
{
    return totex_sim_step(ctx, hops, count, err);
}

totex_sink totex_sim_sink(totex_sim *sim)
{
    totex_sink s = {sink_step, sim};
    return s;
}

totex_status totex_sim_finish(totex_sim *sim, totex_sim_report *out, totex_error *err)
{
    const uint32_t n = sim->n;
    if (sim->fault.kind != TOTEX_VIOL_NONE)
        return totex_fail(err, TOTEX_EVIOLATION, "simulator already rejected the schedule at step %llu",
                          (unsigned long long)sim->fault.step);
    if (sim->arrivals != totex_network_messages(sim->net)) {
        for (uint32_t d = 0; d < n; d++) {
            for (uint32_t s = 0; s < n; s++) {
                uint32_t loc = (sim->state[state_index(n, s, d, sim->layout, sim->perm)] >> sim->loc_shift) ^ s;
                if (s != d && loc != d) {
                    totex_hop h = {loc, loc, s, d};
                    char detail[160];
                    snprintf(detail, sizeof detail,
                             "after the last step (%llu) the message is still at node %u; %llu of %llu messages were delivered",
                             (unsigned long long)sim->step, loc, (unsigned long long)sim->arrivals,
                             (unsigned long long)totex_network_messages(sim->net));
                    return violation(sim, sim->step, &sim->fault, TOTEX_VIOL_NOT_DELIVERED, loc, &h, detail, err);
                }
            }
        }
    }
    memset(out, 0, sizeof *out);
    out->steps = sim->last_arrival;
    out->steps_emitted = sim->step;
    out->hops = sim->hops;
    out->messages = sim->arrivals;
    out->average_delay = sim->arrivals ? (double)sim->delay_sum / (double)sim->arrivals : 0.0;
    out->peak_queue = sim->peak_queue;
    out->peak_queue_node = sim->peak_node;
    out->directed_links = 2 * totex_network_links(sim->net);
    out->max_hops_in_step = sim->max_step_hops;
    if (out->steps) {
        out->link_utilisation = (double)sim->hops / ((double)out->steps * (double)out->directed_links);
        out->port_utilisation = (double)sim->hops / ((double)out->steps * n);
    }
    return TOTEX_OK;
}

totex_sim_fault totex_sim_get_fault(const totex_sim *sim) { return sim->fault; }

void totex_sim_review_every(totex_sim *sim, uint64_t hops)
{
    sim->review_every = hops ? hops : 1;
}

void totex_sim_prefetch_ahead(totex_sim *sim, uint32_t hops)
{
    sim->ahead = hops < 1 ? 1 : hops > SIM_CHUNK_PAD ? SIM_CHUNK_PAD : hops;
    sim->ahead_fixed = 1;
}

uint32_t totex_sim_relayouts(const totex_sim *sim)
{
    return sim->relayouts;
}

void totex_sim_set_layout(totex_sim *sim, int layout)
{
    if (layout >= SIM_BY_OFFSET && layout <= SIM_BY_SRC)
        state_relayout(sim, layout);
}

void totex_sim_portable(totex_sim *sim, int on)
{
    sim->portable = on != 0;
}
