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

#include "totex/combining.h"
#include "totex/network.h"

/* Returned by totex_mpi_alltoall() when totex does not apply and the caller asked to fall back. */
#define TOTEX_MPI_FALLBACK (-1)
/* tags: executor steps use tag = step % TOTEX_MPI_STEP_TAGS; measurements use TOTEX_MPI_PP_TAG */
#define TOTEX_MPI_STEP_TAGS 32000
#define TOTEX_MPI_PP_TAG 32001

typedef struct totex_mpi_options {
    int fallback; /* nonzero: return TOTEX_MPI_FALLBACK (silently) where totex does not apply (intercommunicators) */
    int verbose;  /* nonzero: rank 0 prints once per communicator which algorithm runs or why it falls back */
    int unit;     /* nonzero: run a unit-step (store-and-forward) algorithm of totex/algorithm.h instead */
    const char *unit_algorithm; /* its name (NULL, "" or "auto": totex_algorithm_auto) */
    int unit_ports;             /* its port model: 0 multiport, k >= 1 k-port */
} totex_mpi_options;

/* TOTEX_VERBOSE (read at the first call): unset, "" or "0": 0; "2": 2 (a line per plan); else 1 (a line per communicator) */
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
    int peer, tag, bytes;
    size_t arena_off;    /* where it lands when not in place */
    size_t place_off;    /* where it lands in RECV when in place (all blocks final, consecutive sources) */
    int in_place_ok;
} totex_mpi_recv;

typedef struct totex_mpi_send {
    int peer, tag, bytes;
    size_t piece_first, piece_count; /* pieces[piece_first ..]: one piece = sent from where it lies */
    size_t stage_off;                /* gathered here when more than one piece */
    size_t dep_first, dep_count;     /* deps[dep_first ..]: receives that bring its blocks */
} totex_mpi_send;

typedef struct totex_mpi_final { /* where block (i, me) is at the end: base ARENA, or in place */
    size_t recv;                 /* index of the receive that brought it */
    size_t off;                  /* offset in the arena */
} totex_mpi_final;

typedef struct totex_mpi_plan {
    struct totex_mpi_plan *next;
    long long slot;              /* packed bytes per block the plan was made for */
    uint32_t n, me;
    const char *algorithm;       /* registry name (static) */
    uint64_t steps;
    size_t nrecv, nsend;
    totex_mpi_recv *recvs;       /* in step order */
    totex_mpi_send *sends;       /* in step order */
    totex_mpi_piece *pieces;
    size_t *deps;
    totex_mpi_final *finals;     /* [n]: finals[me] unused */
    size_t arena_bytes, stage_bytes;
    char *arena, *stage;         /* reused across calls */
    MPI_Request *req;            /* [nrecv + nsend] */
} totex_mpi_plan;

void totex_mpi_plan_free(totex_mpi_plan *p);
/* free the plan's arena and staging area (the next run allocates them again) */
void totex_mpi_plan_release(totex_mpi_plan *p);

/* ---- per-communicator state (state.c) ---- */
typedef struct totex_mpi_state {
    MPI_Comm dup;            /* private duplicate the exchange runs on (MPI_COMM_NULL until made / once freed) */
    totex_mpi_plan *plans;   /* one per block size seen */
    int verbose_done;        /* TOTEX_VERBOSE line already printed for this communicator */
    int costs_known;         /* t_s and t_c below are set (same on every rank) */
    double t_s, t_c;         /* seconds, seconds/byte: measured by ping-pong unless TOTEX_TS / TOTEX_TC */
    int ts_measured, tc_measured;
    char *packed;             /* packed send blocks (n * slot bytes), reused across calls */
    size_t packed_bytes;
    struct totex_mpi_state *next_live, **prev_live;
} totex_mpi_state;

/* the state cached on comm (made on first use); MPI error code */
int totex_mpi_state_get(MPI_Comm comm, totex_mpi_state **out);
/* make st->dup (a duplicate of comm with MPI_ERRORS_RETURN) if not yet made */
int totex_mpi_state_dup(totex_mpi_state *st, MPI_Comm comm);
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
 * verbose: 1 one line per communicator, 2 one per plan. */
int totex_mpi_plan_make(MPI_Comm comm, int size, int rank, long long slot, const char *send, int verbose,
                        totex_mpi_state *st, totex_mpi_plan **out);

/* ---- executor (exec.c) ----
 * Run @p p (allocating its arena and staging area on first use): blocks of this rank at @p send (block j at j * slot), results into
 * @p recv (block from i at i * slot, contiguous bytes) when @p recv_raw, else
 * left in the arena for the caller to unpack (totex_mpi_final_block()). */
int totex_mpi_exec(totex_mpi_plan *p, MPI_Comm comm, const char *send, char *recv, int recv_raw);
/* where block (i, me) is after totex_mpi_exec() with recv_raw == 0 */
const char *totex_mpi_final_block(const totex_mpi_plan *p, uint32_t i);

/* ---- unit-step schedules (unit.c) ----
 * Plan opt->unit_algorithm on comm's network and run it; on success *out
 * (n * slot bytes, block from i at i * slot, caller frees) holds every block
 * for this rank (its own included). */
int totex_mpi_run_unit(MPI_Comm comm, int size, int rank, const char *mine, long long slot,
                       const totex_mpi_options *opt, totex_mpi_state *st, char **out);

#endif
