/* Shared by the files of libtotex_mpi (src/mpi/) and the MPI_Alltoall drop-in
 * (pmpi.c). Data flows: alltoall.c (arguments, checks, packing) -> state.c
 * (per-communicator state, network, measured costs) -> plan.c (choice of
 * algorithm, schedule, this rank's program) -> exec.c (running the program) or
 * unit.c (unit-step schedules). Not installed; not part of the public API. */
#ifndef TOTEX_MPI_INTERNAL_H
#define TOTEX_MPI_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <mpi.h>

#include "local.h"
#include "totex/combining.h"
#include "totex/network.h"

/* Returned by totex_mpi_alltoall() when totex does not apply and the caller asked to fall back. */
#define TOTEX_MPI_FALLBACK (-1)
/* Tags on the private duplicate (all below 32767, MPI's least MPI_TAG_UB):
 * ping-pong measurement, the cross-rank check (agree.c: header, poison,
 * agreement rounds), trial runs of candidate plans, the cached plans (one tag
 * per plan: messages of two different plans never match each other) and the
 * unit-step executor (step mod TOTEX_MPI_UNIT_TAGS). */
enum {
    TOTEX_MPI_PP_TAG = 0,
    TOTEX_MPI_HDR_TAG = 1,
    TOTEX_MPI_POISON_TAG = 2,
    TOTEX_MPI_AGREE_TAG = 3,
    TOTEX_MPI_TRIAL_TAG = 4,
    TOTEX_MPI_PLAN_TAG = 5, /* + plan id, id < TOTEX_MPI_MAX_PLANS */
    TOTEX_MPI_KICK_TAG = 512, /* + the trial's or the plan's tag: kicks of staggered lanes (compile.c) */
    TOTEX_MPI_UNIT_TAG = 1024
};
#define TOTEX_MPI_MAX_PLANS 64
#define TOTEX_MPI_HDR_BYTES 24   /* the cross-rank check's header: 3 long long */
#define TOTEX_MPI_KICK_BYTES TOTEX_MPI_HDR_BYTES /* bytes of a kick (compile.c): as long as the header that one
                                                    kick per rank carries instead, so that all kicks are alike */
#define TOTEX_MPI_CARRY_MAX 4096 /* it rides in front of a message of at most this many bytes */
/* Tags of the check's headers on st->hdr (agree.c): TOTEX_MPI_HDR_TAG, the header's TOTEX_MPI_HDR_BYTES in
   front of what it carries; TOTEX_MPI_SIG_TAG + sig, the header {sig, sig, 0} in the tag, the message all
   data or none (when packed bytes == signature bytes, no local error, the tag fits MPI_TAG_UB, not a kick) */
#define TOTEX_MPI_SIG_TAG 2
#define TOTEX_MPI_UNIT_TAGS 30000
#define TOTEX_MPI_MAX_CHUNKS 16  /* most chunks a transfer is split into (compile.c) */
#define TOTEX_MPI_COST_CHUNK 8192 /* bytes: the second message size of the cost measurement (state.c) */
#define TOTEX_MPI_MAX_STAGGERED 4 /* most chunks the model staggers (cost.c) */
#define TOTEX_MPI_MIN_CHUNK 1024 /* bytes: the model splits no block into chunks smaller than this */
#define TOTEX_MPI_RECV_WINDOW_STEPS 4 /* receives posted ahead of the forced point: at most those of this many
                                         steps (exec.c, plan.c; TOTEX_RECV_WINDOW) */
#define TOTEX_MPI_ARENA_BLOCKS_PER_RANK 4 /* a plan's arena: at most this many blocks per rank before its bytes are
                                             reused (arena.h; more only when no free bytes fit). 4: every received
                                             block its own bytes on 8x8 and 4x4x4 tori; a receive posted late (bytes
                                             reused) delays its message: SimGrid flat factors, octr/2s, 2 -> 4:
                                             8x8 64 KiB 478.86 -> 464.88 us, 4x4x4 241.09 -> 233.21, 4x4x4
                                             16 KiB 79.93 -> 68.62 (issue 11) */
#define TOTEX_MPI_UNIT_FULL_MAX 256 /* above this many ranks, no unit-step candidate without a symmetric form */
#define TOTEX_MPI_PAD_VARIANTS 4 /* padded forms offered: of the model's best this many combining candidates */
#define TOTEX_MPI_PAD_MAX 4096   /* bytes: the most a short message is padded to (at most TOTEX_MPI_CARRY_MAX) */

typedef struct totex_mpi_options {
    int fallback; /* nonzero: return TOTEX_MPI_FALLBACK (silently) where totex does not apply (intercommunicators) */
    int verbose;  /* nonzero: rank 0 prints once per communicator which algorithm runs or why it falls back */
    int unit;     /* nonzero: run a unit-step (store-and-forward) algorithm of totex/algorithm.h instead */
    const char *unit_algorithm; /* its name (NULL, "" or "auto": totex_algorithm_auto) */
    int unit_ports;             /* its port model: 0 multiport, k >= 1 k-port */
} totex_mpi_options;

/* TOTEX_VERBOSE (read at the first call): 1 a line per communicator, 2 a line per plan; unset, "", 0 or a
   value not taken (said once, env.c): 0 */
int totex_mpi_verbose_level(void);

int totex_mpi_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                       MPI_Datatype recvtype, MPI_Comm comm, const totex_mpi_options *opt);

/* ---- this rank's program for one combining schedule (plan.c builds, exec.c runs) ----
 * Byte locations: base SEND (this rank's n send blocks, block j at j * slot),
 * ARENA (received blocks that are not final or cannot land in place) or RECV
 * (the user's receive buffer, block from rank i at i * slot). */
enum { TOTEX_MPI_SEND = 0, TOTEX_MPI_ARENA = 1, TOTEX_MPI_RECV = 2 };

typedef struct totex_mpi_piece { /* a run of bytes to gather */
    uint32_t base;
    size_t off, len;
} totex_mpi_piece;

typedef struct totex_mpi_recv {
    int peer, bytes;
    size_t arena_off;    /* where it lands when not in place */
    size_t place_off;    /* where it lands in RECV when in place (all blocks final, consecutive sources) */
    int in_place_ok;
    int chunk;           /* which chunk of its transfer it carries */
    size_t wait_sends, wait_recvs; /* posted once sends [0, wait_sends) and receives [0, wait_recvs) are
                                      complete: its arena bytes are free again (arena.h) */
    size_t fin_first, fin_count;   /* finals[fin_first ..]: its blocks destined to this rank */
    int kick;                      /* a kick of staggered lanes (TOTEX_MPI_KICK_BYTES, tag + TOTEX_MPI_KICK_TAG) */
} totex_mpi_recv;

typedef struct totex_mpi_send {
    int peer, bytes;
    size_t piece_first, piece_count; /* pieces[piece_first ..]: one piece = sent from where it lies */
    size_t stage_off;                /* gathered here when more than one piece */
    size_t dep_first, dep_count;     /* deps[dep_first ..]: requests it waits for: receives that bring its
                                        blocks (< nrecv), an earlier send on its link (nrecv + send index) */
    size_t wait_sends;               /* gathered once sends [0, wait_sends) are complete (its staging bytes) */
    size_t recv_before;              /* receives [0, recv_before) (earlier steps) are posted before it */
    int sync;                        /* MPI_Issend: a later send on its link waits for its delivery (compile.c) */
    int kick;                        /* a kick of staggered lanes (TOTEX_MPI_KICK_BYTES, tag + TOTEX_MPI_KICK_TAG) */
} totex_mpi_send;

typedef struct totex_mpi_final { /* a block (src, me) a receive brings */
    uint32_t src;
    uint32_t pos;                /* its position among that transfer's blocks */
} totex_mpi_final;

typedef struct totex_mpi_plan {
    struct totex_mpi_plan *next;
    long long slot;              /* packed bytes per block the plan was made for */
    long long sig;               /* sendcount * size(sendtype) it was made for (with slot: the cache key) */
    int id;                      /* 0 .. TOTEX_MPI_MAX_PLANS - 1, the same on every rank: tag TOTEX_MPI_PLAN_TAG + id */
    uint32_t n, me;
    const char *algorithm;       /* registry name (static) */
    char label[64];              /* totex_mpi_cand_name() of the candidate it was made from */
    int unit;                    /* 0: a combining schedule; else a unit-step one (multiport: 0 ports) */
    uint32_t ports;              /* port model of a unit-step schedule */
    int chunks;                  /* messages per transfer (compile.c), >= 1 */
    int window;                  /* transfers in flight per link and lane (compile.c), 0: no limit */
    int pad;                     /* set by the caller before compiling: a message shorter than this many bytes
                                    travels as pad bytes (its tail zero), 0: none (compile.c) */
    uint64_t steps;
    size_t nrecv, nsend;
    int stagger;                 /* lane i of a link starts behind the i-th of a chain of short kicks (compile.c) */
    totex_mpi_recv *recvs;       /* in step order */
    totex_mpi_send *sends;       /* in step order */
    totex_mpi_piece *pieces;
    size_t *deps;
    totex_mpi_final *finals;     /* [n - 1], by receive (totex_mpi_recv.fin_first) */
    size_t arena_cap;            /* soft limit of the arena and of the staging area, bytes (set before compiling;
                                    0: reuse bytes as soon as they are free) */
    int ring_set;                /* set by the caller before compiling: ring_pred, ring_succ below are the check's
                                    ring (totex_mpi_check_ring); 0: rank - 1 and rank + 1 */
    uint32_t ring_pred, ring_succ;
    size_t carry_recv;           /* first receive from the ring's predecessor if it may carry that rank's header,
                                    else SIZE_MAX */
    size_t carry_send;           /* first send to the ring's successor if it may carry this rank's header, else
                                    SIZE_MAX */
    int flat;                    /* every send from this rank's own blocks, no waits before it, every receive in
                                    its place (compile.c): run without the dependency loop (exec.c) */
    int pair;                    /* the whole program is one message each way, both carrying the check's header
                                    (carry_send == carry_recv == 0), its blocks this rank's own and the one it
                                    receives landing in place: 2 ranks, short blocks (exec.c's short path) */
    size_t recv_window;          /* receives posted ahead of the forced point (exec.c), at most; 0: no limit */
    size_t recv_ahead_max;       /* the most receives any run has posted ahead of its forced point (exec.c) */
    size_t arena_bytes, stage_bytes;
    char *arena, *stage;         /* reused across calls */
    char *fin;                   /* n * slot bytes: the blocks for this rank when the caller takes them from the
                                    plan (totex_mpi_final_block), allocated by such a run */
    MPI_Request *req;            /* [nrecv + nsend] */
} totex_mpi_plan;

void totex_mpi_plan_free(totex_mpi_plan *p);
/* free the plan's arena and staging area (the next run allocates them again) */
void totex_mpi_plan_release(totex_mpi_plan *p);

/* ---- per-communicator state (state.c) ---- */
typedef struct totex_mpi_guard totex_mpi_guard; /* the cross-rank check of one call (agree.c) */

/* what a call needs to know of @c count elements of a predefined datatype (alltoall.c), kept
   from the last call: a predefined datatype's handle never names another type */
typedef struct totex_mpi_typefacts {
    MPI_Datatype type;
    int count, size, pack, raw; /* MPI_Type_size, MPI_Pack_size of count, contiguous bytes from offset 0 */
    int known;
} totex_mpi_typefacts;

typedef struct totex_mpi_state {
    MPI_Comm comm;           /* the communicator the state is cached on, */
    int size, rank;          /* its size and this rank (an intracommunicator) */
    totex_mpi_typefacts facts[2]; /* of the last call's send and receive datatypes, when predefined */
    MPI_Comm dup;            /* private duplicate the exchange runs on (MPI_COMM_NULL until made / once freed) */
    MPI_Comm hdr;            /* with the check on, a second duplicate for the check's headers alone (agree.c);
                                made and freed with dup */
    int tag_ub;              /* MPI_TAG_UB of hdr: the largest tag a header in the tag may use */
    totex_mpi_plan *plans;   /* one per block size seen (at most TOTEX_MPI_MAX_PLANS, newest first) */
    int nplans;
    int check;               /* cross-rank check on (TOTEX_CHECK): the poison receive below is posted on dup */
    MPI_Request poison;      /* MPI_Irecv(ANY_SOURCE, TOTEX_MPI_POISON_TAG) pending while dup lives */
    long long poison_buf[7];
    char hdr_buf[TOTEX_MPI_HDR_BYTES + TOTEX_MPI_CARRY_MAX]; /* the header from the ring's predecessor (and what it carries) */
    long long calls;         /* checked calls on dup so far (the same on every rank) */
    long long early[7];      /* a poison for a later call, received while this rank finished an earlier one */
    int has_early;
    int ring_pred, ring_succ; /* the cross-rank check's ring (totex_mpi_check_ring of the comm's network) */
    MPI_Comm *retired;       /* duplicates dropped after failed calls (freed with the state) */
    int nretired;
    int verbose_done;        /* TOTEX_VERBOSE line already printed for this communicator */
    int costs_known;         /* t_s and t_c below are set (same on every rank) */
    double t_s, t_c;         /* seconds, seconds/byte: measured by ping-pong unless TOTEX_TS / TOTEX_TC */
    double t_l;              /* seconds/byte of a link under concurrent flows: measured unless TOTEX_TL */
    double t_c_chunk, t_l_chunk; /* t_c and t_l measured with TOTEX_MPI_COST_CHUNK-byte messages (else t_c, t_l) */
    int ts_measured, tc_measured, tl_measured;
    int pad;                 /* bytes: a message of pad bytes arrived sooner than an 8-byte one (0: none did),
                                or TOTEX_PAD */
    double t_pad;            /* seconds: one-way time of a pad-byte message (measured; t_s when set) */
    int pad_measured, pad_forced; /* pad came from the measurement / from TOTEX_PAD */
    int split;               /* bytes: the ladder size of the best throughput, what a longer message may be
                                split into (cost.c totex_mpi_split_chunks); 0: not measured */
    double t_split, t_4k, t_8k, t_64k; /* seconds: one-way times of split, 4096, 8192 and 65536-byte messages */
    /* the choice per size class (blocks of 2^c .. 2^(c+1) - 1 bytes): a new block size of a known
       class compiles the class's candidate without ranking or timing again (issue 15; plan.c) */
    struct {
        int known;
        int unit, idx, chunks, pad, stagger; /* the totex_mpi_cand chosen (below) */
        uint32_t ports;
        uint64_t steps;
        double predicted;
        double t_s, t_c;       /* the costs it was built with */
    } size_class[64];
    /* the arguments of the last call that ran a cached plan with predefined datatypes, and what
       followed from them (alltoall.c): a call with the same ones on this communicator skips the
       argument checks, the datatype queries and the plan search (plan NULL: none; cleared where
       plans are freed) */
    struct {
        totex_mpi_plan *plan;
        MPI_Datatype sendtype, recvtype;
        int sendcount, recvcount, in_place;
        int send_raw, recv_raw;
    } memo;
    char *packed;             /* packed send blocks (n * slot bytes), reused across calls */
    size_t packed_bytes;
    struct totex_mpi_state *next_live, **prev_live;
} totex_mpi_state;

/* ---- the TOTEX_* knobs (env.c) ----
 * A knob set to a value it does not take is ignored with one line on stderr (variable, value,
 * what it takes; once per variable and process, from MPI_COMM_WORLD's rank 0): its default
 * applies. No errors returned, no allocation. */
#define TOTEX_MPI_ENV_ANY (-1LL) /* hi of totex_mpi_env_int(): no upper bound */
/* whole number in [lo, hi] (hi TOTEX_MPI_ENV_ANY: none) into *out: 1; unset, empty or not taken: 0 */
int totex_mpi_env_int(const char *name, long long lo, long long hi, long long *out);
/* seconds (or seconds per byte), a number >= 0, into *out: 1; unset, empty or not taken: 0 */
int totex_mpi_env_seconds(const char *name, double *out);
/* 0 or 1; unset, empty or not taken: @p dflt */
int totex_mpi_env_switch(const char *name, int dflt);
/* one of the @p n words @p words (exact, case-sensitive): its index; unset, empty or not taken: -1 */
int totex_mpi_env_word(const char *name, const char *const *words, int n);

/* the state cached on comm (made on first use); MPI error code */
int totex_mpi_state_get(MPI_Comm comm, totex_mpi_state **out);
/* the state of the communicator of this process's last totex call if it is @p comm, else NULL
   (no MPI call: MPI_Comm_get_attr costs a quarter of a small call on Open MPI; the delete callback
   forgets a freed communicator). Not for concurrent calls from several threads (nor is the rest). */
totex_mpi_state *totex_mpi_state_last(MPI_Comm comm);
/* remember @p st (of intracommunicator @p comm, @p size ranks, this one @p rank) for totex_mpi_state_last */
void totex_mpi_state_remember(totex_mpi_state *st, MPI_Comm comm, int size, int rank);
/* make st->dup (a duplicate of comm with MPI_ERRORS_RETURN) if not yet made;
   with @p check, post the poison receive of the cross-rank check on it (collective) */
int totex_mpi_state_dup(totex_mpi_state *st, MPI_Comm comm, int check);
/* drop st->dup after a failed checked call (every rank's call failed; the next call makes a new one):
   cancels the poison receive; the failed exchange's messages stay behind on the dropped duplicate */
void totex_mpi_state_retire(totex_mpi_state *st);
/* (re)post st->poison on st->dup; MPI code */
int totex_mpi_state_post_poison(totex_mpi_state *st);
/* network spec of comm (empty for one rank); node id == rank in comm */
int totex_mpi_comm_spec(MPI_Comm comm, int size, char *spec, size_t cap);
/* t_s and t_c of comm, measured or from TOTEX_TS / TOTEX_TC (collective, once per state) */
int totex_mpi_costs(MPI_Comm comm, int size, int rank, totex_mpi_state *st);
/* "t_s ... measured, t_c ... set" */
void totex_mpi_cost_words(const totex_mpi_state *st, char *out, size_t cap);

/* ---- plans (plan.c): choose, build and compile (collective) ----
 * Rank 0 ranks the combining algorithms by predicted time; every rank builds
 * and compiles the first MAX_CANDIDATES that apply; each is timed on comm
 * with the caller's send blocks @p send (n * slot bytes; results go to the
 * plans' arenas only) and the fastest (slowest rank's time) is kept.
 * TOTEX_ALGORITHM forces one, TOTEX_TUNE=0 keeps the model's first choice.
 * verbose: 1 one line per communicator, 2 one per plan. Trial runs use tag
 * TOTEX_MPI_TRIAL_TAG, their waits guarded by @p g (NULL: unchecked); every
 * rank must have agreed on slot (totex_mpi_guard_agree()) before. */
int totex_mpi_plan_make(MPI_Comm comm, int size, int rank, long long slot, const char *send, int verbose,
                        totex_mpi_state *st, totex_mpi_guard *g, totex_mpi_plan **out);

/* ---- the cross-rank check's ring (ring.c; no MPI needed) ----
 * *pred and *succ of node @p me on a cycle through all nodes of @p net (node id == rank),
 * the same cycle on every rank: a cycle along links when the construction of ring.c
 * finds one (returns 1), else rank - 1 and rank + 1 (returns 0; also for net NULL). No
 * errors, no allocation, O(factors) time. Source: no paper; the
 * construction is in ring.c's header (issue 11: the header must ride on a link's message). */
int totex_mpi_check_ring(const totex_network *net, uint32_t me, uint32_t *pred, uint32_t *succ);

/* ---- cross-rank check (agree.c) ----
 * Every rank of a checked call sends a header {block bytes, packed bytes, local error} to
 * its successor on the check's ring (on st->hdr: in the message's tag when it can, else its
 * 24 bytes in front) and receives its predecessor's (st->ring_succ,
 * ring_pred; rank + 1 and rank - 1 unless the network has a cycle along links); every
 * wait of the call also watches that
 * header and the state's poison receive. A rank that finds a difference, a
 * local error or a failed MPI call sends a poison message naming it to every
 * rank; every rank then returns its error class. */
struct totex_mpi_guard {
    MPI_Comm comm;
    int n, rank;
    int from, to;               /* the ring's predecessor and successor of this rank (st->ring_pred, ring_succ) */
    long long mine[3], pred[3]; /* {sig, slot, local error} of this rank and of its predecessor */
    MPI_Request hdr[2];         /* separate header messages: [0] from the predecessor, [1] to the successor */
    MPI_Request *in, *out;      /* the requests carrying the headers: &hdr[0], and &hdr[1] or the executor's send */
    char *carry_to;             /* where the message carried behind the predecessor's header goes (NULL: none) */
    int carry_bytes;            /* its bytes */
    int carry_expect;           /* a message of carry_bytes is due behind the header (set with carry_to) */
    int carry_held;             /* it arrived before carry_to was set: waiting in st->hdr_buf */
    int carry_off;              /* where it starts in st->hdr_buf: TOTEX_MPI_HDR_BYTES, or 0 (header in the tag) */
    int hdr_sent;               /* this rank's header has left (alone or carried): once per call, also on failure */
    totex_mpi_state *st;        /* its poison receive */
    long long call;             /* st->calls of this call: a poison of another call is ignored */
    int code;                   /* MPI_SUCCESS until the call failed */
};

/* post the header exchange of a checked call (st->dup made with check on): the send
   to the ring's successor, then the receive from its predecessor (room for a carried
   message too); with @p carry_out neither: the executor's first message (or kick) to the
   successor carries the header, and the receive is posted once it has left
   (totex_mpi_guard_carry()) */
int totex_mpi_guard_start(totex_mpi_guard *g, totex_mpi_state *st, int n, int rank, long long sig, long long slot,
                          int bad, int carry_out);
/* the guard of a checked call, no MPI call: {sig, slot, bad} as this rank's header, requests null, the
   call counted (totex_mpi_guard_start() is this and the header exchange's first moves) */
void totex_mpi_guard_init(totex_mpi_guard *g, totex_mpi_state *st, int n, int rank, long long sig, long long slot,
                          int bad);
/* wait for the predecessor's header (posted; it may carry a message) with a plain MPI_Wait and check
   it as every wait does: safe because every rank sends its header once in every checked call before
   any wait, alone or carried, also when it fails (totex_mpi_guard_fail sends it then). Returns
   g->code (MPI_SUCCESS, or the error class of a failed check, the poison sent) */
int totex_mpi_guard_wait_header(totex_mpi_guard *g);
/* the executor's message carried behind the predecessor's header: @p bytes bytes to @p to, copied
   there once the header is found equal (no MPI call) */
void totex_mpi_guard_carry(totex_mpi_guard *g, char *to, int bytes);
/* the executor's send carrying this rank's header: the @p bytes bytes staged behind the TOTEX_MPI_HDR_BYTES
   at @p msg, sent to @p peer on st->hdr (request @p send) with the header in the tag or in those bytes;
   once it is made, the receive of the predecessor's header is posted (before any wait). MPI_SUCCESS or
   the call's error class (totex_mpi_guard_fail(): a send not made leaves the header to it) */
int totex_mpi_guard_send_carried(totex_mpi_guard *g, char *msg, int bytes, int peer, MPI_Request *send);
/* the short path without a guard (totex_mpi_exec_pair_raw()): count the call (st->calls, as
   totex_mpi_guard_init() does); the @p bytes staged bytes behind the TOTEX_MPI_HDR_BYTES at @p msg sent to
   @p peer with header {sig, slot, 0} in the tag or in those bytes; the receive of the predecessor's header and the message behind
   it posted into st->hdr_buf; this rank's own block (@p own_bytes from @p own_from to @p own_to, unless the
   same place); then totex_mpi_guard_pair_wait()'s end, the message behind an equal header to @p to
   (@p to_bytes). MPI_SUCCESS with *g untouched when all went as expected; else the call's outcome with
   *g made as totex_mpi_guard_init() makes it (g->st set; failed calls: poison sent). Sizes in bytes;
   the protocol of agree.c's head comment (include/totex/mpi.h, "Cross-rank check"); issue 11 */
int totex_mpi_guard_pair_run(totex_mpi_state *st, totex_mpi_guard *g, long long sig, long long slot, char *msg,
                             int bytes, int peer, char *to, int to_bytes, char *own_to, const char *own_from,
                             size_t own_bytes);
/* this rank failed with @p code (message printed by the caller): poison every rank; returns code */
int totex_mpi_guard_fail(totex_mpi_guard *g, int code);
/* wait for *r (g NULL: MPI_Wait) while watching the header and the poison; MPI code */
int totex_mpi_guard_wait(totex_mpi_guard *g, MPI_Request *r);
/* wait for all of r[0 .. count) and the header exchange the same way (g NULL: MPI_Waitall) */
int totex_mpi_guard_waitall(totex_mpi_guard *g, MPI_Request *r, size_t count);
/* every rank's {sig, slot} equal? (log2 n rounds of point-to-point messages, poison watched);
   for calls that go on to collective operations (planning) or move no data */
int totex_mpi_guard_agree(totex_mpi_guard *g);
/* after a failure: cancel and complete the pending receives, free the pending sends
   (their peers may never receive them) */
void totex_mpi_drop(MPI_Request *recv, size_t nrecv, MPI_Request *send, size_t nsend);
/* totex_mpi_drop() of the header exchange */
void totex_mpi_guard_drop(totex_mpi_guard *g);

/* ---- executor (exec.c) ----
 * Run @p p with tag @p tag on comm (allocating its arena and staging area on first
 * use), every wait guarded by @p g (NULL: unchecked); @p carry: the check's
 * headers ride on p->carry_recv / p->carry_send (tag TOTEX_MPI_HDR_TAG, the
 * header in front) as totex_mpi_guard_start() was told: blocks of this rank at
 * @p send (block j at j * slot), results into
 * @p recv (block from i at i * slot, contiguous bytes, this rank's own block
 * included) when @p recv_raw, else left in the arena for the caller to unpack
 * (totex_mpi_final_block(); this rank's own block stays in @p send). */
int totex_mpi_exec(totex_mpi_plan *p, MPI_Comm comm, int tag, totex_mpi_guard *g, int carry, const char *send,
                   char *recv, int recv_raw);
/* totex_mpi_exec() of a plan with p->pair set (one message each way, both carrying the check's header),
   arena and staging allocated, the guard @p g started with the header left to the executor (or only
   initialised: totex_mpi_guard_init()): its send, the receive behind the predecessor's header, this
   rank's own block (@p recv_raw), the two waits. Blocks at @p send, results into @p out (this rank's
   receive buffer when @p recv_raw, else p->fin). Returns g->code; a failed call's requests stay in g */
int totex_mpi_exec_pair(totex_mpi_plan *p, totex_mpi_guard *g, const char *send, char *out, int recv_raw);
/* the end of totex_mpi_exec_pair(): wait for the predecessor's header (posted, carrying the message due
   behind it) with a plain MPI_Wait, check it and copy the message to its place (totex_mpi_guard_carry()),
   then complete @p send (this rank's carried send; watched if it is not complete yet). MPI_SUCCESS, or
   the call's error class (it then failed as totex_mpi_guard_wait_header() would fail it) */
int totex_mpi_guard_pair_wait(totex_mpi_guard *g, MPI_Request *send);
/* totex_mpi_exec_pair() for a repeat call with raw layouts (alltoall.c raw_call()) whose guard is made only
   if something goes another way than expected: its message staged, then totex_mpi_guard_pair_run(). Blocks
   at @p send, results into @p out (this rank's receive buffer). MPI_SUCCESS with *g untouched, or the
   call's outcome with *g made as totex_mpi_guard_init() makes it (then g->st is set: end the call with
   it, as any checked call ends). p->pair and p->arena set, st->has_early clear. Source: issue 11 (Open MPI
   per-call cost); instructions per 2-rank call of 8 B about 400 -> 271 (callgrind) */
int totex_mpi_exec_pair_raw(totex_mpi_plan *p, totex_mpi_state *st, totex_mpi_guard *g, const char *send, char *out);
/* where block (i, me) is after totex_mpi_exec() with recv_raw == 0 (in p->fin: valid until the next call) */
const char *totex_mpi_final_block(totex_mpi_plan *p, uint32_t i);

/* ---- cost model (cost.c; no MPI needed) ---- */
typedef struct totex_mpi_cand {
    int unit;         /* 0: combining algorithm idx; 1: unit-step algorithm idx of totex/algorithm.h */
    int idx;          /* registry index */
    uint32_t ports;   /* unit-step port model */
    int chunks;       /* messages per transfer */
    double predicted; /* seconds */
    uint64_t steps;   /* unit-step: predicted steps */
    int order;        /* tie-break */
    int pad;          /* messages shorter than this many bytes padded to it (0: none) */
    int stagger;      /* unit-step with chunks > 1: lanes 1 .. chunks - 1 start a latency behind lane 0 */
} totex_mpi_cand;
/* measured costs (seconds, seconds/byte): t_c, t_l at 64 KiB, *_chunk at TOTEX_MPI_COST_CHUNK bytes */
typedef struct totex_mpi_linkcost {
    double t_s, t_c, t_l, t_c_chunk, t_l_chunk;
    int pad;      /* bytes: short messages may be padded to this size (0: padding never pays); */
    double t_pad; /* seconds: one-way time of a pad-byte message */
    int pad_forced; /* TOTEX_PAD: every candidate padded to pad, no unpadded variants */
    int split;      /* bytes: a longer message may travel as messages of at most this many (0: never) */
    double t_split, t_4k, t_8k, t_64k; /* seconds: one-way times of split, 4096, 8192, 65536-byte messages */
} totex_mpi_linkcost;
/* messages of the same bytes as one @p msg-byte message is best sent in, by the measured one-way times
   (lc->split ... t_64k; none measured: 1): c = ceil(msg / lc->split) when msg >= 4096 and c messages of
   lc->split bytes take at most 0.8 of one of msg bytes (interpolated linearly between 4096, 8192 and 65536
   bytes, beyond on the last segment), else 1; at most TOTEX_MPI_MAX_CHUNKS. *ratio (may be NULL): c
   t_split / t(msg) when c > 1, else 1. Over Open MPI's shared memory a message above its 4 KiB eager
   limit goes by a single-copy rendezvous: 8 KiB as one message 3.07 us a call, as 3 of 2731 B 1.91 us
   (2 ranks, raw MPI). No MPI, no allocation, no errors. Source: no paper (002's start-up/transmission
   model has one message per transfer); the rule is issue 11's "chunks chosen from measured costs" */
int totex_mpi_split_chunks(long long msg, const totex_mpi_linkcost *lc, double *ratio);
#define TOTEX_MPI_CHUNK_OVERHEAD 0.05 /* start-ups each extra chunk of a transfer costs */
/* predicted seconds of a unit-step schedule of @p steps steps with blocks of @p slot bytes in
   @p chunks chunks, lanes staggered (@p stagger nonzero, chunks > 1) or not */
double totex_mpi_unit_time(uint64_t steps, long long slot, int chunks, int stagger, const totex_mpi_linkcost *lc);
/* the model's chunk count for blocks of @p slot bytes, lanes staggered or not (argmin of
   totex_mpi_unit_time over 1 .. TOTEX_MPI_MAX_CHUNKS, over 2 .. when staggered; 1 when
   staggered and the block is too small for two chunks) */
int totex_mpi_model_chunks(long long slot, int stagger, const totex_mpi_linkcost *lc);
/* link-load floor of any total exchange: status(0) * slot * t_l / degree(0), seconds */
double totex_mpi_link_floor(const totex_network *net, long long slot, const totex_mpi_linkcost *lc);
/* the unit-step candidate named @p name and its port model, or NULL (not a candidate) */
const totex_algorithm *totex_mpi_unit_algorithm(const char *name, totex_ports *ports);
/* every candidate that applies to @p net (cost->m = slot bytes, cost->t_s, cost->t_c; link t_l;
   padding lc->pad), by increasing predicted time, at most @p cap into @p out (at most half of
   them, and at most 4, unit-step); 0 with why[] when none applies */
size_t totex_mpi_rank_candidates(const totex_network *net, const totex_comb_cost *cost,
                                 const totex_mpi_linkcost *lc, totex_mpi_cand *out, size_t cap, char *why, size_t wcap);
/* predicted seconds of combining schedule @p r (002's model, cost @p cost) with every message shorter
   than lc->pad bytes padded to it: each start-up step costs at least t_pad, the time of a pad-byte message */
double totex_mpi_padded_time(const totex_comb_report *r, const totex_comb_cost *cost, const totex_mpi_linkcost *lc);
/* "direct", "octr/multiport/3 chunks", "direct/padded to 2048 B" */
void totex_mpi_cand_name(const totex_mpi_cand *c, char *out, size_t cap);

/* (plan.c) build @p c's schedule on @p net, take this rank's share and compile it into a new
   plan (*out, also on failure, freed by the caller); MPI code with why[] (no MPI calls) */
int totex_mpi_plan_build(const totex_network *net, const totex_comb_cost *cost, const totex_mpi_cand *c, int size,
                         int rank, long long slot, totex_mpi_plan **out, char *why, size_t cap);

/* ---- compiler (compile.c) ----
 * Compile this rank's share @p l of a schedule into @p p (p->slot, n, me and
 * algorithm set by the caller), every transfer split into @p chunks messages
 * (at most slot and TOTEX_MPI_MAX_CHUNKS; p->chunks says how many), at most
 * @p window transfers per link and chunk lane in flight (0: no limit). MPI error
 * code, with what went wrong in why[cap]. Needs no running MPI. */
int totex_mpi_compile(totex_mpi_plan *p, const totex_mpi_local *l, int chunks, int window, int stagger, char *why,
                      size_t cap);
/* first byte of chunk @p i within a block (i = p->chunks: slot) */
size_t totex_mpi_chunk_lo(const totex_mpi_plan *p, int i);

/* ---- unit-step schedules (unit.c) ----
 * Plan opt->unit_algorithm on comm's network and run it; on success *out
 * (n * slot bytes, block from i at i * slot, caller frees) holds every block
 * for this rank (its own included). */
int totex_mpi_run_unit(MPI_Comm comm, int size, int rank, const char *mine, long long slot,
                       const totex_mpi_options *opt, totex_mpi_state *st, char **out);

#endif
