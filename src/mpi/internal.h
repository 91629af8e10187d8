/* The MPI runtime of the executor (src/mpi/), above the MPI-free program layer
 * (src/program/: choice model, share, compile, arena, ring; every program is
 * made there). Data flows one way: alltoall.c and pmpi.c (entry points:
 * arguments, checks, packing) -> plan.c (the choice: rank 0 ranks, every rank
 * builds through the program layer, trials on the communicator) -> run.c (the
 * resumable run) -> agree.c (the cross-rank check) -> state.c (the cache of
 * communicators and their plans); spec.c (a communicator's network),
 * measure.c (its costs) and env.c (every TOTEX_* knob) serve plan.c. unit.c runs
 * unit-step schedules hop by hop (TOTEX_MODEL=unit). Not installed. */
#ifndef TOTEX_MPI_INTERNAL_H
#define TOTEX_MPI_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <mpi.h>

#include "totex/combining.h"
#include "build.h"
#include "choice.h"
#include "code.h"
#include "program.h"
#include "ring.h"
#include "totex/network.h"

/* Returned by totex_mpi_alltoall() when totex does not apply and the caller asked to fall back. */
#define TOTEX_MPI_FALLBACK (-1)
/* the error class of a call of totex_mpi_alltoall() failed on purpose (totex_mpi_options.v_switch): its
   poison names no error (agree.c says nothing); alltoallv.c then runs the call another way */
#define TOTEX_MPI_V_SWITCH MPI_ERR_PENDING
/* figures of an alltoallv call every rank knows after it (alltoallv.c: the choice of the next call) */
#define TOTEX_MPI_V_FIGURES 10
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
#define TOTEX_MPI_POISONS 8 /* poisons kept for calls other than the one whose wait received them */
/* Tags of the check's headers on st->hdr (agree.c): TOTEX_MPI_HDR_TAG, the header's TOTEX_PROG_HDR_BYTES in
   front of what it carries; TOTEX_MPI_SIG_TAG + sig, the header {sig, sig, 0} in the tag, the message all
   data or none (when packed bytes == signature bytes, no local error, the tag fits MPI_TAG_UB, not a kick) */
#define TOTEX_MPI_SIG_TAG 2
#define TOTEX_MPI_UNIT_TAGS 30000


/* The form of a call, in its check's header: packed bytes + form * TOTEX_MPI_FORM_UNIT (agree.c: ranks that
   call different forms stop with an error instead of running different exchanges) */
enum { TOTEX_MPI_FORM_BLOCKING = 0, TOTEX_MPI_FORM_NONBLOCKING = 1, TOTEX_MPI_FORM_PERSISTENT = 2 };
#define TOTEX_MPI_FORM_UNIT (1LL << 48)

/* what a call of the nonblocking or persistent form needs to know of its arguments (alltoall.c fills it) */
typedef struct totex_mpi_prepared {
    struct totex_mpi_state *st;  /* the communicator's state (NULL for one rank) */
    struct totex_mpi_plan *plan; /* the cached plan of (slot, sig); NULL when no data moves (count 0, one rank) */
    int size, rank;
    const void *sendbuf;         /* recvbuf when in place */
    int sendcount;
    MPI_Datatype sendtype;
    int in_place, send_raw, recv_raw;
    long long slot, sig;         /* packed and signature bytes per block */
    int checked;                 /* the call was checked across ranks already (planned, or the persistent form) */
} totex_mpi_prepared;

typedef struct totex_mpi_options {
    int fallback; /* nonzero: return TOTEX_MPI_FALLBACK (silently) where totex does not apply (intercommunicators) */
    int verbose;  /* nonzero: rank 0 prints once per communicator which algorithm runs or why it falls back */
    int unit;     /* nonzero: run a unit-step (store-and-forward) algorithm of totex/algorithm.h instead */
    const char *unit_algorithm; /* its name (NULL, "" or "auto": totex_algorithm_auto) */
    int unit_ports;             /* its port model: 0 multiport, k >= 1 k-port */
    int form;                   /* TOTEX_MPI_FORM_*: what the check's header says */
    totex_mpi_prepared *prepare; /* non-NULL: no data moves; the call stops once its plan is known and fills
                                   *prepare (request.c). A nonblocking call whose plan is cached returns at once,
                                   unchecked (its run is checked); any other is checked and plans as usual */
    int v_switch;               /* nonzero (alltoallv.c): this rank's call fails at once, silently, with
                                   TOTEX_MPI_V_SWITCH, the cross-rank check failing it on every rank: a rank
                                   whose alltoallv counts are not the uniform ones every rank expected */
    const char *entry;          /* the function the program called, named by the TOTEX_VERBOSE line:
                                   "totex_alltoall", "totex_alltoall_unit", "totex_ialltoall",
                                   "totex_alltoall_init" or "MPI_Alltoall" (the drop-in) */
} totex_mpi_options;

/* TOTEX_VERBOSE (read at the first call): 1 a line per communicator, 2 a line per plan; unset, "", 0 or a
   value not taken (said once, env.c): 0 */
int totex_mpi_verbose_level(void);

int totex_mpi_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                       MPI_Datatype recvtype, MPI_Comm comm, const totex_mpi_options *opt);
/* totex_alltoallv() (alltoallv.c) with @p opt as totex_mpi_alltoall() takes it (fallback, verbose, entry) */
int totex_mpi_alltoallv(const void *sendbuf, const int *sendcounts, const int *sdispls, MPI_Datatype sendtype,
                        void *recvbuf, const int *recvcounts, const int *rdispls, MPI_Datatype recvtype,
                        MPI_Comm comm, const totex_mpi_options *opt);
/* the routed alltoallv (alltoallv_routed.c) applies to @p net: every factor a ring or K2 */
int totex_mpi_v_routed_applies(const totex_network *net);
/* the routed alltoallv on the private duplicate @p dup (rank == node id), this rank node @p node of @p net:
   @p psend this node's packed row, block to node t at bytes [soff[t], soff[t + 1]); the blocks from node s
   land at [roff[s], roff[s + 1]) of @p precv (the lengths this node expects); @p bmax: no block of the call
   (any rank's) is longer, @p maxrow no rank's row total, bytes (the receives' room). MPI code (MPI_ERR_COUNT: a
   block came with another length than expected) */
int totex_mpi_v_routed(const totex_network *net, const char *psend, const uint64_t *soff, char *precv,
                       const uint64_t *roff, uint64_t bmax, uint64_t maxrow, MPI_Comm dup, int node);
/* the relay alltoallv (alltoallv_relay.c) applies to @p net: a torus (rings and K2) on which direct-relay
   applies (totex_comb_relay_first), at most 1497 nodes */
int totex_mpi_v_relay_applies(const totex_network *net);
/* MPI_Waitall of @p n requests @p req with statuses @p stat, every request done on return: where MPI returns
   MPI_ERR_IN_STATUS and marks some MPI_ERR_PENDING (Open MPI 4.1 after a truncated receive), those are waited
   for one by one, each status's MPI_ERROR set to its MPI_Wait's code; returns MPI_SUCCESS, MPI_ERR_IN_STATUS
   (see each status's MPI_ERROR) or MPI's other error. Under MPICH, which raises a completion's error on
   MPI_COMM_WORLD's handler (a truncated receive aborted the job), MPI_COMM_WORLD's handler is MPI_ERRORS_RETURN
   during these waits and the caller's after */
int totex_mpi_waitall_done(int n, MPI_Request *req, MPI_Status *stat);
/* the relay alltoallv on @p dup, this rank node @p node of @p net, with no collective operation: @p psend and
   @p precv as totex_mpi_v_routed()'s, every block starting with @p h bytes (the sender's figures) that travel
   whole in its first chunk; @p bmax and @p maxrow: figures the same on every rank (the last call's global
   ones) that size a relay's rooms (a message longer than its room comes in parts: any lengths are carried).
   On return hdr_ok[t] (n entries) says the first @p h bytes of node t's block in @p precv are its figures
   (its receive carrying them came without error, at least h bytes) and *local is this node's receive error
   (MPI_ERR_TRUNCATE: a longer send, MPI_ERR_COUNT: a shorter one; MPI_SUCCESS: every receive had the bytes
   expected); returns MPI_SUCCESS or an MPI failure (every message of the call done either way but on one) */
int totex_mpi_v_relay(const totex_network *net, const char *psend, const uint64_t *soff, char *precv,
                      const uint64_t *roff, uint64_t h, uint64_t bmax, uint64_t maxrow, unsigned char *hdr_ok,
                      int *local, MPI_Comm dup, int node);
/* the balanced alltoallv (alltoallv_balanced.c) applies to @p net: every factor a ring or K2, 2 to 64 nodes */
int totex_mpi_v_balanced_applies(const totex_network *net);
/* the balanced alltoallv on @p dup, this rank node @p node of @p net, with no collective operation: @p psend,
   @p precv, @p h, @p hdr_ok and *@p local as totex_mpi_v_relay()'s; every piece routed by the plan made (and
   cached) from @p rows and @p cols, every node's row and column totals of the last call in bytes, by node (the
   same on every rank; NULL: equal totals); returns MPI_SUCCESS or an MPI failure */
int totex_mpi_v_balanced(const totex_network *net, const uint64_t *rows, const uint64_t *cols, const char *psend,
                         const uint64_t *soff, char *precv, const uint64_t *roff, uint64_t h, unsigned char *hdr_ok,
                         int *local, MPI_Comm dup, int node);
/* the stepped alltoallv (alltoallv_stepped.c) applies to @p net: where balanced applies */
int totex_mpi_v_stepped_applies(const totex_network *net);
/* the stepped alltoallv on @p dup, this rank node @p node of @p net: @p psend, @p precv, @p h, @p hdr_ok and
   *@p local as totex_mpi_v_relay()'s; this node's row routed over its shortest paths by R + 2 MPI_Allreduces of
   link loads on @p dup (collective: every rank of @p dup calls it), the routing cached while @p key (the same on
   every rank; 0: none) stays, then carried in neighbour steps (no global step count); MPI code */
int totex_mpi_v_stepped(const totex_network *net, uint64_t key, const char *psend, const uint64_t *soff, char *precv,
                        const uint64_t *roff, uint64_t h, unsigned char *hdr_ok, int *local, MPI_Comm dup, int node);
/* stepped's routing of this node's row (packed block t at [soff[t], soff[t + 1])) made on @p dup unless cached for
   @p key (collective where not cached: every rank calls it alike); MPI code */
int totex_mpi_v_stepped_route(const totex_network *net, uint64_t key, const uint64_t *soff, MPI_Comm dup, int node);
/* routings "stepped" made in this process so far (a test's count) */
unsigned long totex_mpi_v_stepped_routings(void);
/* bytes of the estimate W^ = rows cols^T / total on the busiest link of balanced's plan for those totals (made
   and cached here), its planning's seconds in *@p plan_seconds and in *@p chain the most messages one node sends
   one after another to one relay (either NULL: not wanted); -1 where it does not apply or without memory */
/* plans "balanced" made in this process so far (each O(n^3 diameter) CPU; a test's and bench's count) */
unsigned long totex_mpi_v_balanced_plans(void);
/* 1 when balanced's cached plan was made for these totals on @p net (a prediction then costs nothing) */
int totex_mpi_v_balanced_cached(const totex_network *net, const uint64_t *rows, const uint64_t *cols);
double totex_mpi_v_balanced_predict(const totex_network *net, const uint64_t *rows, const uint64_t *cols,
                                    double *plan_seconds, uint32_t *chain);
/* bytes of the receives totex_mpi_v_routed() posts on one rank of @p net for those @p bmax and @p maxrow */
double totex_mpi_v_routed_room(const totex_network *net, uint64_t bmax, uint64_t maxrow);
/* MPI_Pack the @p n blocks of @p count elements of @p t at @p buf into @p out (block j at node_of[j] * slot bytes;
   @p node_of NULL: at j * slot); MPI code */
int totex_mpi_pack_blocks(const char *buf, int count, MPI_Datatype t, int n, long long slot, char *out,
                          const int *node_of, MPI_Comm comm);
/* MPI_Unpack the @p slot bytes at @p from into block @p i of @p recvbuf (@p count elements of @p t); MPI code */
int totex_mpi_unpack_block(const char *from, long long slot, char *recvbuf, int i, int count, MPI_Datatype t,
                           MPI_Comm comm);

/* ---- a cached plan of a communicator: one program and the run's requests ---- */
typedef struct totex_mpi_plan {
    struct totex_mpi_plan *next;
    long long slot;              /* packed bytes per block (the program's) */
    long long sig;               /* sendcount * size(sendtype) it was made for (with slot: the cache key) */
    int id;                      /* 0 .. TOTEX_MPI_MAX_PLANS - 1, the same on every rank: tag TOTEX_MPI_PLAN_TAG + id */
    totex_prog *prog;            /* owned */
    double predicted;            /* seconds per call the cost model predicted for the choice (at the block
                                    size it was ranked at: this one, or its size class's first; totex_alltoall_choice) */
    double measured;             /* seconds per call of the trial that kept it (slowest rank), < 0: not timed */
    int reused;                  /* 1: its size class's choice compiled for this size, not ranked or timed again */
    int users;                   /* requests running copies of it (request.c): freed by the last one once dropped */
    int dropped;                 /* taken out of the cache while it had users */
    struct totex_mpi_plan *spares; /* idle copies of its program with their buffers, for the next nonblocking
                                      call (linked through next; request.c) */
    int nspares;
    MPI_Request *req;            /* [nrecv + nsend] of the program */
    unsigned char *early;        /* [nsend]: the sends a nonblocking run made ahead of program order (run.c
                                    issue_ahead), allocated at its first such run */
    int has_cand;                /* cand and cost below are what it was built from (a plan of the choice) */
    totex_prog_cand cand;
    totex_comb_cost cost;
    int has_nb;                  /* nb below is the candidate nonblocking calls run (the trial's candidate of the
                                    least predicted nonblocking time, totex_prog_nonblocking_time, when not cand);
                                    0: cand */
    totex_prog_cand nb;
    double nb_predicted, nb_choice_predicted; /* seconds: nb's and cand's predicted nonblocking times (has_nb) */
    double nb_interval;          /* seconds: the test interval they were predicted with (has_nb) */
    int pair_ready;              /* pair_sd, pair_pit and pair_pc below hold the program's carried send decoded
                                    (totex_mpi_exec_pair_raw, at its first call: the program does not change) */
    totex_prog_send pair_sd;
    totex_prog_body pair_pit;
    totex_prog_piece pair_pc;    /* the carried send's one piece when pair_sd.piece_count == 1, else zeros */
    struct totex_mpi_plan *nonblocking; /* what nonblocking calls run when it is not this plan: nb, or cand with
                                     its lanes unstaggered (totex_mpi_plan_nonblocking); NULL: not built yet */
} totex_mpi_plan;

/* a new plan owning @p prog (its requests allocated); NULL when out of memory (prog then freed) */
totex_mpi_plan *totex_mpi_plan_new(totex_prog *prog, long long slot);
/* The plan nonblocking calls of @p pl's block size run (*out): @p pl itself, or another built here at the first
   such call (no MPI call: every rank builds it from the same candidate) and kept in pl->nonblocking: the
   candidate pl->nb when the choice found one whose nonblocking run is predicted faster (pl->has_nb: a
   nonblocking run moves on only inside the caller's tests, so each dependent step costs about half the
   caller's test interval more, totex_prog_nonblocking_time; TOTEX_TEST_INTERVAL), else, when pl is a
   unit-step schedule in staggered lanes, the same schedule in the same chunks with its lanes unstaggered
   (staggered lanes start one behind another, each waiting for a message of the lane before: compile.c's
   kicks, more dependent steps). A staggered nb is unstaggered too (docs/mpi.md, "Nonblocking and
   persistent"). MPI code (MPI_ERR_NO_MEM...), one stderr line on failure */
int totex_mpi_plan_nonblocking(struct totex_mpi_state *st, MPI_Comm comm, int size, int rank, totex_mpi_plan *pl, int verbose,
                               totex_mpi_plan **out);
/* free @p p, its program, its requests and its spare copies; a plan with users (requests running copies of it)
   is only marked dropped, and its last user frees it (request.c) */
void totex_mpi_plan_free(totex_mpi_plan *p);


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
    int check;               /* cross-rank check on (TOTEX_CHECK of rank 0, shared when dup is made): the poison
                                receive below is posted on dup */
    int size_classes;        /* a size class's choice is reused (TOTEX_SIZE_CLASSES of rank 0, shared with check) */
    totex_prog_opts prog_opts; /* the program layer's knobs of rank 0 (shared with the candidates; plan.c) */
    double test_interval;    /* seconds between the caller's tests assumed by the nonblocking choice (rank 0's
                                TOTEX_TEST_INTERVAL, shared with the candidates; plan.c) */
    MPI_Request poison;      /* MPI_Irecv(ANY_SOURCE, TOTEX_MPI_POISON_TAG) pending while dup lives */
    long long poison_buf[7];
    char hdr_buf[TOTEX_PROG_HDR_BYTES + TOTEX_PROG_CARRY_MAX]; /* the header from the ring's predecessor (and what it carries) */
    long long calls;         /* checked calls on dup so far (the same on every rank) */
    long long poisons[TOTEX_MPI_POISONS][7]; /* poisons of other calls than the one whose wait took them: a later
                                call's (received while this rank finished an earlier one), or a nonblocking
                                call's under way (agree.c) */
    int npoisons;
    int nb_active;           /* nonblocking and persistent runs under way on this communicator (request.c) */
    MPI_Comm nb;             /* with dup: a duplicate for nonblocking and persistent runs (request.c) */
    long long nb_calls;      /* nonblocking and persistent calls made on this communicator (the same on every
                                rank): their runs' tags; once nonzero a failed call marks the communicator broken
                                instead of retiring its duplicates */
    int broken;              /* a call failed while nonblocking calls were in use: every later call fails (its
                                messages may still be in flight on the duplicates, which stay) */
    int refs;                /* requests of this communicator (request.c): the state outlives the communicator */
    char *named_spec;        /* the sub-box of the machine's network the communicator spans (named.c), or NULL:
                                its own network (spec.c) */
    int *node_of, *rank_of;  /* with named_spec: rank r's node and node i's rank (one allocation); the
                                duplicates number the ranks as nodes (state.c), the buffers are packed so */
    int orphan;              /* the communicator was freed: the last request frees the state */
    int ring_pred, ring_succ; /* the cross-rank check's ring (totex_prog_check_ring of the comm's network) */
    MPI_Comm *retired;       /* duplicates dropped after failed calls (freed with the state) */
    int nretired;
    int verbose_done;        /* TOTEX_VERBOSE line already printed for this communicator */
    int v_said;              /* 1 + the alltoallv choice its last TOTEX_VERBOSE line named (alltoallv.c), 0: none */
    int v_known;             /* v_prev holds the global figures of the last alltoallv call (the same on every
                                rank; 0 after a failed call or none yet) */
    unsigned long long v_prev[TOTEX_MPI_V_FIGURES];
    uint64_t *v_tot;         /* [2 n]: every rank's row then column totals of the last alltoallv call that read them
                                from the data or gathered them (alltoallv.c: what "balanced" plans from), or NULL */
    int v_tot_fresh;         /* v_tot is the last call's (the same on every rank) */
    uint64_t v_tot_hash;     /* a hash of v_tot when it was last read fresh (alltoallv.c: tot_settle()) */
    int v_tot_repeat;        /* v_tot, read fresh, was the same as the time before: a repeating pattern, for
                                which "balanced" makes its plan (once per pattern: O(n^3 diameter) CPU) */
    unsigned char *v_hdrs;   /* [n x 44]: every rank's figures as it last sent them in "direct" with the figures on
                                the data (this rank's own at its rank), or NULL (alltoallv.c: brief figures) */
    int v_hdrs_valid;        /* v_hdrs are those of the last call, a "direct" call with the figures on the data that
                                succeeded (the same on every rank): a sender whose figures are unchanged sends 4
                                bytes in their place */
    uint64_t vt_key;         /* alltoallv_tune.c: the pattern (a key of the last call's figures) being tuned */
    int vt_stage, vt_form, vt_second, vt_direct, vt_best; /* its stage, the predicted form, the second candidate
                                (-1: none), direct's, the fastest */
    double vt_t[3];          /* seconds (the slowest rank's) of the three trials (-1: not timed) */
    const char *entry;       /* the function of the call under way (totex_mpi_options.entry), for that line */
    int costs_known;         /* t_s and t_c below are set (same on every rank) */
    double t_s, t_c;         /* seconds, seconds/byte: measured by ping-pong unless TOTEX_TS / TOTEX_TC */
    double t_l;              /* seconds/byte of a link under concurrent flows: measured unless TOTEX_TL */
    double t_c_chunk, t_l_chunk; /* t_c and t_l measured with TOTEX_PROG_COST_CHUNK-byte messages (else t_c, t_l) */
    int ts_measured, tc_measured, tl_measured;
    int pad;                 /* bytes: a message of pad bytes arrived sooner than an 8-byte one (0: none did),
                                or TOTEX_PAD */
    double t_pad;            /* seconds: one-way time of a pad-byte message (measured; t_s when set) */
    int pad_measured, pad_forced; /* pad came from the measurement / from TOTEX_PAD */
    int split;               /* bytes: the ladder size of the best throughput, what a longer message may be
                                split into (choice.c totex_prog_split_chunks); 0: not measured */
    double t_split, t_4k, t_8k, t_64k; /* seconds: one-way times of split, 4096, 8192 and 65536-byte messages */
    /* the choice per size class (blocks of 2^c .. 2^(c+1) - 1 bytes): a new block size of a known
       class compiles the class's candidate without ranking or timing again (plan.c) */
    struct {
        int known;
        int unit, idx, chunks, pad, stagger; /* the totex_prog_cand chosen (below) */
        uint32_t ports;
        uint64_t steps;
        double predicted;
        double t_s, t_c;       /* the costs it was built with */
        int has_nb;            /* its nonblocking candidate (totex_mpi_plan.has_nb, nb, ...) */
        totex_prog_cand nb;
        double nb_predicted, nb_choice_predicted, nb_interval;
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

/* ---- the measured choice of a repeating pattern (alltoallv_tune.c) ----
 * The form to run for the pattern named @p key (a hash of the last call's global figures, the same on every rank)
 * when the model predicts @p predicted, @p second is another candidate (-1: none) and @p direct is direct's id: a
 * pattern seen once runs @p predicted untimed; repeated, @p predicted, @p second and @p direct are timed one call
 * each (*@p trial 1, 2, 3), then the fastest runs (*@p trial 0). TOTEX_TUNE=0: always @p predicted. Local, no
 * communication. */
int totex_mpi_v_tune_form(totex_mpi_state *st, uint64_t key, int predicted, int second, int direct, int *trial);
/* After a call that was trial @p trial and took @p seconds on this rank from the trial's barrier (@p ok: it
 * succeeded, on every rank alike): the slowest rank's time by one MPI_Allreduce on st->dup (collective; none when
 * !ok, which restarts the pattern's trials); after direct's, the decision, said on TOTEX_VERBOSE's stderr by rank 0
 * with the forms' names from @p names (indexed by form id). MPI's code. */
int totex_mpi_v_tune_record(totex_mpi_state *st, int trial, double seconds, int ok, int rank, int verbose,
                            const char *entry, int size, const char *const *names);
/* trials timed by totex_mpi_v_tune_record() in this process (a test's count) */
unsigned long totex_mpi_v_tune_trials(void);

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
/* the value of @p name as it is (owned by the environment); unset or empty: NULL */
const char *totex_mpi_env_string(const char *name);
/* the program layer's knobs (TOTEX_WINDOW 0 .. 64, TOTEX_ARENA_BLOCKS, TOTEX_RECV_WINDOW) into @p o, the
   defaults of totex_prog_opts_default() where unset or not taken */
void totex_mpi_env_prog_opts(totex_prog_opts *o);
/* TOTEX_TEST_INTERVAL (microseconds, 0 .. 1000000; default TOTEX_MPI_TEST_INTERVAL_US) in seconds: the interval
   between the caller's tests of a nonblocking call that the nonblocking choice prices (plan.c); 0: none (nonblocking
   calls run the blocking choice) */
double totex_mpi_env_test_interval(void);
#define TOTEX_MPI_TEST_INTERVAL_US 10
/* TOTEX_NONBLOCKING (0 or 1, read once per process): 1 makes every blocking run drive itself as a
   nonblocking call does, by progress steps that never block (the 2-rank short path and the flat loop
   not taken), so that the test suite runs the resumable run's nonblocking form; default 0 */
int totex_mpi_env_nonblocking(void);
/* TOTEX_AHEAD=0 (read once per process): nonblocking and persistent runs make their sends in program order
   only, none ahead of it (run.c issue_ahead); for measurements. 1 when switched off */
int totex_mpi_env_no_ahead(void);

/* free a state and everything it holds (the communicator's attribute delete, or its last request) */
void totex_mpi_state_free(totex_mpi_state *st);
/* the state cached on comm (made on first use); MPI error code */
int totex_mpi_state_get(MPI_Comm comm, totex_mpi_state **out);
/* the state cached on comm, or NULL when totex was never called on it (nothing made; no collective call) */
totex_mpi_state *totex_mpi_state_find(MPI_Comm comm);
/* the state of the communicator of this process's last totex call if it is @p comm, else NULL
   (no MPI call: MPI_Comm_get_attr costs a quarter of a small call on Open MPI; the delete callback
   forgets a freed communicator). Not for concurrent calls from several threads (nor is the rest). */
totex_mpi_state *totex_mpi_state_last(MPI_Comm comm);
/* remember @p st (of intracommunicator @p comm, @p size ranks, this one @p rank) for totex_mpi_state_last */
void totex_mpi_state_remember(totex_mpi_state *st, MPI_Comm comm, int size, int rank);
/* make st->dup (a duplicate of comm with MPI_ERRORS_RETURN) if not yet made (collective): rank 0's @p check
   and TOTEX_SIZE_CLASSES are broadcast to every rank and kept (st->check, st->size_classes); with the
   check, post the poison receive of the cross-rank check on it */
int totex_mpi_state_dup(totex_mpi_state *st, MPI_Comm comm, int check);
/* drop st->dup after a failed checked call (every rank's call failed; the next call makes a new one):
   cancels the poison receive; the failed exchange's messages stay behind on the dropped duplicate */
void totex_mpi_state_retire(totex_mpi_state *st);
/* after a failed checked call (every rank's call fails): totex_mpi_state_retire() on a communicator that never
   had a nonblocking or persistent call, else st->broken set (every later call fails) */
void totex_mpi_state_fail(totex_mpi_state *st);
/* (re)post st->poison on st->dup; MPI code */
int totex_mpi_state_post_poison(totex_mpi_state *st);
/* network spec of comm (empty for one rank): st->named_spec when the machine's network applies to it, else
   its Cartesian grid or a torus of MPI_Dims_create's shape; node id == rank in comm (st's duplicates) */
int totex_mpi_comm_spec(const totex_mpi_state *st, MPI_Comm comm, int size, char *spec, size_t cap);
/* 1 when the network of totex_mpi_comm_spec() is the user's word (the machine's network named by TOTEX_NETWORK, or
   a Cartesian communicator's grid), 0 when it is MPI_Dims_create's guess; no collective call */
int totex_mpi_comm_spec_declared(const totex_mpi_state *st, MPI_Comm comm);
/* the machine's network named by TOTEX_NETWORK / TOTEX_RANKMAP (named.c) for communicator @p comm (@p size ranks,
   this one @p rank): st->named_spec, node_of, rank_of set when its ranks span a sub-box of it, else left NULL
   (said under TOTEX_VERBOSE). Collective (an agreement: a network or map that differs across ranks is
   MPI_ERR_OTHER on every rank, with a line); MPI code */
int totex_mpi_named_network(totex_mpi_state *st, MPI_Comm comm, int size, int rank);
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
    int carry_held;             /* it arrived before carry_to was set: waiting in hbuf */
    int carry_off;              /* where it starts in hbuf: TOTEX_PROG_HDR_BYTES, or 0 (header in the tag) */
    char *hbuf;                 /* where the predecessor's header arrives: st->hdr_buf, or a nonblocking
                                   call's own (request.c: several may be under way) */
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
/* totex_mpi_guard_start() without carry of a call whose predecessor's header arrives into @p hbuf (room for
   sizeof st->hdr_buf bytes, alive until the call ends: a nonblocking call's own, request.c) */
int totex_mpi_guard_start_into(totex_mpi_guard *g, totex_mpi_state *st, int n, int rank, long long sig,
                               long long slot, char *hbuf);
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
/* the executor's send carrying this rank's header: the @p bytes bytes staged behind the TOTEX_PROG_HDR_BYTES
   at @p msg, sent to @p peer on st->hdr (request @p send) with the header in the tag or in those bytes;
   once it is made, the receive of the predecessor's header is posted (before any wait). MPI_SUCCESS or
   the call's error class (totex_mpi_guard_fail(): a send not made leaves the header to it) */
int totex_mpi_guard_send_carried(totex_mpi_guard *g, char *msg, int bytes, int peer, MPI_Request *send);
/* the short path without a guard (totex_mpi_exec_pair_raw()): count the call (st->calls, as
   totex_mpi_guard_init() does); the @p bytes staged bytes behind the TOTEX_PROG_HDR_BYTES at @p msg sent to
   @p peer with header {sig, slot, 0} in the tag or in those bytes; the receive of the predecessor's header and the message behind
   it posted into st->hdr_buf; this rank's own block (@p own_bytes from @p own_from to @p own_to, unless the
   same place); then totex_mpi_guard_pair_wait()'s end, the message behind an equal header to @p to
   (@p to_bytes). MPI_SUCCESS with *g untouched when all went as expected; else the call's outcome with
   *g made as totex_mpi_guard_init() makes it (g->st set; failed calls: poison sent). Sizes in bytes;
   the protocol of agree.c's head comment (docs/mpi.md, "The cross-rank check") */
int totex_mpi_guard_pair_run(totex_mpi_state *st, totex_mpi_guard *g, long long sig, long long slot, char *msg,
                             int bytes, int peer, char *to, int to_bytes, char *own_to, const char *own_from,
                             size_t own_bytes);
/* this rank failed with @p code (message printed by the caller): poison every rank; returns code */
int totex_mpi_guard_fail(totex_mpi_guard *g, int code);
/* wait for *r (g NULL: MPI_Wait) while watching the header and the poison; MPI code */
int totex_mpi_guard_wait(totex_mpi_guard *g, MPI_Request *r);
/* test *r once (g NULL: MPI_Test) while watching the header and the poison as totex_mpi_guard_wait() does,
   never blocking: *done 1 when *r is complete; MPI code (g->code once the call failed) */
int totex_mpi_guard_test(totex_mpi_guard *g, MPI_Request *r, int *done);
/* set by the Open MPI component for the length of its progress function (src/ompi), else NULL: whether
   request r has completed, asked without moving the MPI library on (the progress loop that called the
   function just did). totex_mpi_guard_test() asks it first and makes no MPI call when the request (and,
   with a guard, the header's receive and the poison's) has not completed: one pass of Open MPI's
   progress loop per test instead of two */
extern int (*totex_mpi_request_peek)(MPI_Request r);
/* the one MPI request a test of @p request (a started totex_request of this rank, or NULL) waits for
   first, or MPI_REQUEST_NULL when a test may have more to do: its persistent flat run's (fixed.c) first
   request not yet found complete. Until that request completes, and while no other run of this rank is
   under way (totex_mpi_runs_live()), a test finds nothing to do; the component's progress function looks
   at it (REQUEST_COMPLETE) instead of testing, whose layers cost more than Open MPI's own pass of its
   progress loop (2 ranks, 8 B). Valid until the next test, wait, start or free of @p request */
struct totex_request_s;
MPI_Request totex_mpi_request_watch(struct totex_request_s *request);
/* the MPI requests of @p request's persistent flat run (fixed.c) that its last start made, [*count], when it
   runs one whose results land in the caller's buffer (nothing to unpack at completion), else NULL: a caller
   that sees every one of them complete may restart the request with totex_mpi_request_restart() */
MPI_Request *totex_mpi_request_requests(struct totex_request_s *request, size_t *count);
/* start @p request again without completing it first: its last start's requests (totex_mpi_request_requests)
   have all completed; the blocks packed again if they are not raw, then totex_mpi_fixed_restart(). MPI_SUCCESS,
   else an MPI code, and the request is then to be completed (totex_test) before it is started again */
int totex_mpi_request_restart(struct totex_request_s *request);
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

/* ---- the run (run.c): a program run on a communicator, resumable ----
 * A run is a state machine: totex_mpi_run_start() allocates the program's buffers on its first run,
 * registers the place of the message behind the predecessor's header and makes the send that carries
 * this rank's header (before any wait); totex_mpi_run_progress() takes the run on from where it stopped.
 * Without may_wait it never blocks: each request it needs is tested once (watched by the guard, as every
 * wait is) and, when it is not complete, it returns TOTEX_MPI_PENDING; with may_wait it waits there
 * instead (the blocking call: start, then one progress step). The order of the program's sends and
 * receives, and so the argument of run.c's head that no run deadlocks, is the same either way. */
#define TOTEX_MPI_PENDING (-2) /* a run's progress: not done yet (never an MPI error code: those are >= 0) */
enum { TOTEX_MPI_RUN_DONE = 0, TOTEX_MPI_RUN_SENDS = 1, TOTEX_MPI_RUN_TAIL = 2 };
typedef struct totex_mpi_run {
    totex_mpi_plan *pl;
    totex_prog *p;           /* pl->prog */
    MPI_Request *req;        /* pl->req: [nrecv + nsend] */
    MPI_Comm comm;
    int tag, carry, carry_first;
    totex_mpi_guard *g;
    const char *send;        /* this rank's blocks (block j at j * slot) */
    char *out;               /* where the blocks for this rank go: block from i at i * slot */
    const char *base[3];     /* send, arena, out: the bases of the program's pieces */
    int recv_raw;
    int phase;               /* TOTEX_MPI_RUN_* */
    int may_wait;            /* of the progress step under way */
    int post_only;           /* the progress step under way tests no request (totex_mpi_run_post) */
    int rc;                  /* the outcome once phase is DONE; TOTEX_MPI_PENDING before */
    size_t posted;           /* receives [0, posted) posted */
    size_t forced;           /* the forced point so far: receives [0, forced) had to be posted (recv_before) */
    size_t rdone, sdone;     /* receives [0, rdone) complete and copied out; sends [0, sdone) complete */
    size_t reaped;           /* the data receives among [0, reaped) complete (recvs_reap) */
    size_t i, dep;           /* the send under way and its next dependency */
    /* cursors of the packed program (code.h): at receive posted, rdone, reaped; after send sd_i (decoded
       in sd, its dependencies from dep on in dit, its pieces in pit) */
    totex_prog_rcur rpost, rdonec, reapc;
    totex_prog_scur scur;
    totex_prog_send sd;
    totex_prog_body dit, pit;
    size_t sd_i;
    int issued, own_done;    /* send i made; this rank's own block copied */
    size_t wdone;            /* the tail's requests [0, wdone) complete (without may_wait) */
    int ahead;               /* sends may be made ahead of program order (a nonblocking run: issue_ahead) */
    int kick_tag;            /* the tag of kicks: tag + TOTEX_MPI_KICK_TAG, or a nonblocking run's own */
    int live;                /* listed among the runs under way (totex_mpi_run_start_nb) */
    struct totex_mpi_run *live_next, *live_prev;
} totex_mpi_run;

/* start a run of @p pl with tag @p tag on @p comm, every wait guarded by @p g (NULL: unchecked); @p carry:
   the check's headers ride on the program's carry_recv / carry_send as totex_mpi_guard_start() was told.
   Blocks of this rank at @p send (block j at j * slot), results into @p recv (block from i at i * slot)
   when @p recv_raw, else left in the program (totex_prog_final_block()). TOTEX_MPI_PENDING (go on with
   totex_mpi_run_progress()), or the error code of a run that failed at once (the guard told) */
int totex_mpi_run_start(totex_mpi_run *x, totex_mpi_plan *pl, MPI_Comm comm, int tag, totex_mpi_guard *g, int carry,
                        const char *send, char *recv, int recv_raw);
/* totex_mpi_run_start() of a nonblocking or persistent call's run (no carried header: the guard @p g, if
   any, was started with its header alone), its kicks with tag @p kick_tag; a run left pending is listed
   among the runs under way, which totex_mpi_runs_poll() and totex_mpi_runs_drain() take on */
int totex_mpi_run_start_nb(totex_mpi_run *x, totex_mpi_plan *pl, MPI_Comm comm, int tag, int kick_tag,
                           totex_mpi_guard *g, const char *send, char *recv, int recv_raw);
/* totex entry points under way in this process (run.c; each public function counts itself in and out): a
   progress callback of the MPI library (the Open MPI component's) does nothing while it is not 0, as the
   run it would take on may be the one a totex function is in the middle of */
extern int totex_mpi_depth;
/* take @p x off the list of runs under way (ended, or its request freed); nothing if not listed */
void totex_mpi_run_unlist(totex_mpi_run *x);
/* runs under way in this process */
int totex_mpi_runs_live(void);
/* one progress step, never blocking, of every run under way; those that ended are unlisted (their outcome
   stays in the run). Re-entry (from a progress callback) does nothing */
void totex_mpi_runs_poll(void);
/* every run under way taken to its end (a blocking call does this first: a run this rank holds may be
   what another rank waits for); waits only when one run is left */
void totex_mpi_runs_drain(void);
/* take the run on: MPI_SUCCESS once it is complete (every block in its place), TOTEX_MPI_PENDING when a
   request it needs is not complete yet (never without @p may_wait), else the call's error code (the guard
   told, pending requests dropped). Called again after the end, it returns the outcome again */
int totex_mpi_run_progress(totex_mpi_run *x, int may_wait);
/* a nonblocking or persistent call's first progress step, as it returns: the receives it may post
   posted and the sends that wait for nothing made, without testing any request (a test of a request
   just posted finds it incomplete and runs the MPI library's progress loop, which gives the core away
   when ranks outnumber cores). If the run ended there it is unlisted. TOTEX_MPI_PENDING, MPI_SUCCESS or
   the error code, as totex_mpi_run_progress() */
int totex_mpi_run_post(totex_mpi_run *x);
/* the program's arena and staging area allocated and their pages touched, as a first run would
   (planning does it for the plan it keeps, so that the first call after the choice does not pay it);
   MPI_SUCCESS or MPI_ERR_NO_MEM (said on stderr) */
int totex_mpi_run_prepare(totex_mpi_plan *pl);
/* the run's buffers of @p p: the arena and staging area on a program's first run, the final area (p->fin)
   when the blocks stay in the program (not @p recv_raw); MPI_SUCCESS or MPI_ERR_NO_MEM (said on stderr,
   the program's buffers then released) */
int totex_mpi_run_buffers(totex_prog *p, int recv_raw);
/* this rank's own block from @p send to its place in @p out when @p recv_raw (else it stays in the send
   blocks): made while the messages travel, after every send and before the last waits */
void totex_mpi_own_block(const totex_prog *p, const char *send, char *out, int recv_raw);

/* grow the array *@p a (a pointer to any element type, passed as its address) of *@p have elements of
   @p elem bytes to @p n elements at least, its contents kept (alltoallv.c); 0, or -1 when out of memory
   (the array as it was) */
int totex_mpi_grow(void *a, size_t *have, size_t n, size_t elem);
/* room for one more request in *@p req, which holds *@p cap (@p nr of them used): the array doubled (16 at first)
   when full; 0, or -1 when out of memory (*@p req and *@p cap then unchanged) */
int totex_mpi_more_requests(MPI_Request **req, size_t nr, size_t *cap);
/* each of the @p n requests @p req that is not MPI_REQUEST_NULL cancelled and freed (receives that may never
   be matched, after a failed call; alltoallv.c) */
void totex_mpi_cancel_requests(MPI_Request *req, size_t n);
/* The @p nr requests @p req of a relaying form (relay, balanced), its @p nrecv receives as a destination first,
   waited for (totex_mpi_waitall_done; @p stat: nr + 1 statuses): receive k, expected @p rexp[k] bytes, makes
   this node's error *@p local MPI_ERR_TRUNCATE (a longer message), MPI_ERR_COUNT (a shorter one) or MPI's own
   (unless *local is already set); where @p rhdr[k], it carried node @p rnode[k]'s figures (@p h bytes, or
   fewer where @p h_within_expected and the block is shorter): hdr_ok[rnode[k]] says they came whole. Returns
   MPI_SUCCESS, the wait's error, or a send's error (alltoallv.c) */
int totex_mpi_wait_fold(size_t nr, MPI_Request *req, MPI_Status *stat, size_t nrecv, const unsigned char *rhdr,
                        const uint32_t *rnode, const uint64_t *rexp, uint64_t h, int h_within_expected,
                        unsigned char *hdr_ok, int *local);

/* ---- a persistent request's flat program, all posted at its start (fixed.c) ---- */
typedef struct totex_mpi_fixed {
    totex_mpi_run run; /* its requests, buffers and places (totex_mpi_run_start() without a guard) */
    size_t tested;     /* requests found complete by the last look (totex_mpi_request_peek) */
    int ready;         /* the run as the last start, which went well, left it: a restart only posts */
    MPI_Request *spare; /* the request array the next restart uses: own, or the plan's (totex_mpi_fixed_restart) */
    MPI_Request *own;   /* the second request array beside the plan's, or NULL */
    /* the start's receives and sends decoded once from the packed program (fixed.c, fixed_table), each a
       buffer, count and peer, [nrecv + nsend]; NULL when a send is gathered or padded into staging bytes
       (those are decoded at every start, totex_mpi_run_flat_post()) */
    struct totex_mpi_fixed_post *posts;
} totex_mpi_fixed;
/* 1 when @p p can run so: flat (program.h: every send from the send blocks with no wait before it, every
   receive in its place, no kicks), no receive window short of all receives, and TOTEX_NONBLOCKING unset
   (which makes every run the resumable one, for the tests) */
int totex_mpi_fixed_applies(const totex_prog *p);
/* start @p f: a run of @p pl (totex_mpi_fixed_applies()) on @p comm with tag @p tag, unchecked, its blocks at
   @p send, results into @p recv when @p recv_raw (else left in the program), every receive posted and every
   send made at once (totex_mpi_run_flat_post()); MPI_SUCCESS, or the MPI code of a start that failed (its
   requests dropped) */
int totex_mpi_fixed_start(totex_mpi_fixed *f, totex_mpi_plan *pl, MPI_Comm comm, int tag, const char *send, char *recv,
                          int recv_raw);
/* complete @p f: with @p may_wait MPI_Waitall; else MPI_SUCCESS when every request is complete (looked at by
   totex_mpi_request_peek when set, then MPI_Testall), TOTEX_MPI_PENDING when not yet; else the MPI code */
int totex_mpi_fixed_progress(totex_mpi_fixed *f, int may_wait);
/* 1 when a request of @p f has not completed, looked at by totex_mpi_request_peek (which must be set), no
   MPI call made; 0 when all have (f->tested: those looked at) */
int totex_mpi_fixed_pending(totex_mpi_fixed *f);
/* start @p f again, its last start's requests all complete but not yet freed (the Open MPI component saw
   each complete, as Open MPI completed it): every receive posted and every send made into a second
   request array, then the last start's requests freed, so that nothing stands between the last message
   and the next sends; MPI_SUCCESS or the MPI code (MPI_ERR_REQUEST: @p f was not ready to restart so) */
int totex_mpi_fixed_restart(totex_mpi_fixed *f);
/* the requests of @p f's last start, [*count] (valid until its next start or test) */
MPI_Request *totex_mpi_fixed_requests(const totex_mpi_fixed *f, size_t *count);
/* free what @p f holds beside its run (the second request array) */
void totex_mpi_fixed_release(totex_mpi_fixed *f);
/* the first request of @p f not yet found complete (f->tested), or MPI_REQUEST_NULL */
MPI_Request totex_mpi_fixed_watch(const totex_mpi_fixed *f);

/* a started run of a flat program (p->flat): every receive posted (but the one behind the predecessor's
   header), every send made (but the carried one, made by the start), this rank's own block placed, without
   waiting; MPI_SUCCESS, or the code of a failed call (the guard told, the requests dropped) */
int totex_mpi_run_flat_post(totex_mpi_run *x);
/* the blocking run: totex_mpi_run_start(), then totex_mpi_run_progress(may_wait); the 2-rank short path
   and flat programs by their own blocking loops */
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
   it, as any checked call ends). p->pair and p->arena set, no poison kept (st->npoisons 0). Source: measured (Open MPI
   per-call cost); instructions per 2-rank call of 8 B about 400 -> 271 (callgrind) */
int totex_mpi_exec_pair_raw(totex_mpi_plan *p, totex_mpi_state *st, totex_mpi_guard *g, const char *send, char *out);

/* ---- unit-step schedules (unit.c) ----
 * Plan opt->unit_algorithm on comm's network and run it; on success *out
 * (n * slot bytes, block from i at i * slot, caller frees) holds every block
 * for this rank (its own included). */
int totex_mpi_run_unit(MPI_Comm comm, int size, int rank, const char *mine, long long slot,
                       const totex_mpi_options *opt, totex_mpi_state *st, char **out);

#endif
