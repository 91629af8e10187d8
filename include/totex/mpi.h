/**
 * @file totex/mpi.h
 * @brief Total exchange (MPI_Alltoall) over MPI with totex's schedules
 *        (libtotex_mpi; the drop-in libtotex_pmpi.so intercepts MPI_Alltoall).
 *
 * Not included by <totex.h>: it needs <mpi.h>. Link with totex_mpi (CMake
 * target, built when MPI is found and TOTEX_SANITIZE is OFF).
 *
 * The executor is two layers:
 * - the program layer (src/program/, no MPI, always built): the choice model
 *   ranks the candidates (combining algorithms, unit-step schedules in chunks)
 *   by seconds predicted from the costs t_s, t_c and t_l; a candidate's
 *   schedule is cut to this rank's share (node 0's moves translated to the
 *   rank, 001 Theorem 2, or a filtered stream) and compiled into this rank's
 *   program: receives and sends in step order, what each send waits for,
 *   arena and staging sizes. Tested without mpirun (tests/program/).
 * - the MPI runtime (src/mpi/): the two entry points below and the drop-in;
 *   the communicator's network, state and plan cache; the cost measurement;
 *   the timed trials; the run of a program, which is resumable (a start, then
 *   progress steps that never block unless allowed to); the cross-rank check;
 *   every TOTEX_* variable (src/mpi/env.c).
 *
 * What runs when, for totex_alltoall() on a communicator:
 * - first call: private duplicates of the communicator; t_s, t_c, t_l
 *   measured by ping-pong between ranks 0 and 1 (or set by TOTEX_TS/TC/TL);
 * - first call of a block-size class (2^c .. 2^(c+1)-1 bytes): rank 0 ranks
 *   the candidates, every rank builds the best few, timed trials on the
 *   communicator keep the fastest, cached on the communicator;
 * - another size of a known class: the class's choice compiled, no trials;
 * - a repeat call: the cached program runs, with no collective operation;
 *   every call is checked across ranks (a mismatch is an error, not a hang).
 *
 * How it works and every TOTEX_* knob: docs/mpi.md. Measurements:
 * docs/performance.md.
 */
#ifndef TOTEX_MPI_H
#define TOTEX_MPI_H

#include <stddef.h>

#include <mpi.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Total exchange with the semantics of MPI_Alltoall (MPI-3.1 Section 5.8),
 * run with the schedule totex chose for @p comm and this block size.
 * Collective: every rank of @p comm calls it.
 *
 * Block i of @p sendbuf (@p sendcount elements of @p sendtype, at
 * sendbuf + i * sendcount * extent(sendtype)) goes to rank i and lands at
 * recvbuf + j * recvcount * extent(recvtype) there, j being the sender's rank.
 * Supports MPI_IN_PLACE as @p sendbuf (the data is taken from @p recvbuf with
 * recvcount/recvtype), any derived or non-contiguous datatype (blocks are
 * MPI_Pack'ed into slots of MPI_Pack_size bytes and MPI_Unpack'ed at the
 * end), counts of 0 and any communicator size (primes included; size 1: a
 * local copy).
 *
 * Network: a Cartesian @p comm gives one factor per dimension (periodic:
 * ring:M, else path:M; size 2: k2; size-1 dimensions dropped); MPI dimension
 * i is totex factor ndims-1-i, so that the totex node id (first factor least
 * significant) is the rank in @p comm. Otherwise a torus of
 * MPI_Dims_create(size, 3) (size-1 dimensions dropped), node id = rank.
 *
 * Side effects: the exchange runs on a private duplicate of @p comm
 * (MPI_Comm_dup, errors returned), so it never matches the caller's messages;
 * plans are cached on @p comm (an MPI attribute, at most 64 block sizes: the
 * 65th empties the cache on every rank; freed with the communicator). The
 * first call on @p comm and the first of each block-size class also make
 * collective calls and timed trials on @p comm. Not for calls from several
 * threads at once. TOTEX_* environment variables steer the choice, the run
 * and the check (docs/mpi.md, "Knobs"); the data delivered is the same.
 *
 * @param sendbuf   this rank's n blocks (block i for rank i), or MPI_IN_PLACE.
 * @param sendcount elements per block, >= 0.
 * @param sendtype  any datatype; sendcount * size(sendtype) is the block's
 *                  bytes, the same on every rank, at most INT_MAX.
 * @param recvbuf   room for n blocks (block j from rank j).
 * @param recvcount elements per block; recvcount * size(recvtype) must equal
 *                  sendcount * size(sendtype).
 * @param recvtype  any datatype.
 * @param comm      an intracommunicator.
 * @return MPI_SUCCESS, or an error code below. Errors are returned (the
 *         communicator's error handler is NOT invoked) and named in one line
 *         on stderr starting "totex_alltoall:". With the cross-rank check on
 *         (default) every rank returns an error and none hangs: the code of
 *         the first poison it sees, the same on every rank unless several
 *         ranks find different errors at once. With TOTEX_CHECK=0 only this
 *         rank's own arguments are checked, and a mismatch across ranks is
 *         undefined behaviour, as in MPI.
 *  - MPI_ERR_COMM: MPI_COMM_NULL or an intercommunicator;
 *  - MPI_ERR_COUNT: a negative count, sendcount * size(sendtype) differing
 *    from recvcount * size(recvtype), or differing across ranks, or a message
 *    larger than INT_MAX bytes;
 *  - MPI_ERR_TYPE: MPI_DATATYPE_NULL;
 *  - MPI_ERR_BUFFER: a NULL buffer with a non-zero count;
 *  - MPI_ERR_ARG: TOTEX_ALGORITHM names an unknown algorithm or one that does
 *    not apply to the network (e.g. ssy or octr on an open mesh), or no
 *    algorithm applies;
 *  - MPI_ERR_NO_MEM: out of memory;
 *  - MPI_ERR_INTERN: a schedule failed to deliver a block (a bug);
 *  - any error code of the underlying MPI calls.
 *  After a failed call every rank frees the private duplicate; the next call
 *  makes a new one (collective).
 *
 * Source: the schedules and cost model of 002 (Suh, Shin & Yalamanchili) and
 * the other algorithms of the combining registry (`totex algorithms`); the
 * unit-step schedules of 000 (a2, a3), 001 (octr: Theorems 2-9; greedy-sym:
 * Sections 5, 8.3) and sym2, translated per rank by 001 Theorem 2.
 */
int totex_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                   MPI_Datatype recvtype, MPI_Comm comm);

/**
 * The same total exchange (semantics, arguments, network, rank mapping,
 * errors and private duplicate as totex_alltoall()) run with a packet-level,
 * unit-step store-and-forward schedule of the algorithm registry
 * (totex/algorithm.h, e.g. "a2", "octr"): for validating those schedules on
 * a real machine, not for speed. Collective.
 *
 * Every rank plans @p algorithm on the network of @p comm into an in-memory
 * schedule; one MPI_Allreduce agrees on success before any data moves. Then,
 * per step, one MPI message per hop (MPI_Irecv / MPI_Isend of block
 * (src, dst) between ranks from and to; several hops between two ranks in
 * one step match in hop order) and MPI_Waitall at the end of the step.
 * Nothing is cached: the schedule is planned at every call.
 *
 * @param algorithm registry name; NULL, "" or "auto": totex_algorithm_auto().
 * @param ports     port model: 0 multiport, k >= 1 k-port (TOTEX_PORTS_* of
 *                  totex/common.h).
 * The other parameters are those of totex_alltoall().
 * @return as totex_alltoall(); MPI_ERR_ARG (with one stderr line) when the
 *         algorithm is unknown or does not apply to the network under
 *         @p ports.
 * The drop-in libtotex_pmpi.so does the same for MPI_Alltoall when
 * TOTEX_MODEL=unit (algorithm TOTEX_ALGORITHM, single-port).
 *
 * Source: the registry's unit-step algorithms (`totex algorithms`; each
 * algorithm's file names its paper and section).
 */
int totex_alltoall_unit(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                        MPI_Datatype recvtype, MPI_Comm comm, const char *algorithm, int ports);

/**
 * Non-uniform total exchange with the semantics of MPI_Alltoallv (MPI-3.1
 * Section 5.8): rank i sends sendcounts[j] elements of @p sendtype at
 * sendbuf + sdispls[j] * extent(sendtype) to rank j, where they land at
 * recvbuf + rdispls[i] * extent(recvtype). Collective: every rank of @p comm
 * calls it. Displacements may come in any order and leave gaps; derived and
 * non-contiguous datatypes, counts of 0 and MPI_IN_PLACE (@p sendbuf; the
 * data is taken from @p recvbuf with recvcounts/rdispls/recvtype) are taken.
 *
 * Each rank knows only its own row (sendcounts) and column (recvcounts) of
 * the demand; a few figures (largest row, column and block, smallest block,
 * total, the count check) are the call's whole global picture; no rank
 * gathers the n x n counts. A call's way is chosen from the last call's
 * global figures, the same on every rank (TOTEX_VERBOSE names it;
 * TOTEX_ALLTOALLV=direct|padded|routed|relay|balanced|stepped forces one): "direct", one message
 * to every rank, posted at once, carrying its sender's figures in front of
 * its block (no collective operation); "uniform", after a uniform call:
 * totex_alltoall()'s schedule at once, checked on its data (a rank whose
 * counts are not uniform makes every rank run the call as below); "padded"
 * (blocks packed into slots of the largest block, totex_alltoall()'s
 * schedule on them) and "routed" (on a declared torus), where they beat
 * direct by more than the one MPI_Allreduce of the figures they need;
 * "relay" and "balanced" (on a declared torus; balanced where a receiver's
 * column is over twice the mean: its pieces routed by a plan every rank
 * makes from every rank's row and column totals of the last call, carried
 * on the data), with the figures on the data; "stepped" (on a declared torus
 * of at most 64 nodes, where a repeating pattern's timed trials find it
 * fastest: each rank routes its own row over its shortest paths by 7
 * MPI_Allreduces of the links' loads, cached for the pattern, then neighbour
 * steps carry the pieces with their descriptors). See docs/mpi.md.
 * Network, rank mapping, private duplicate and plan cache: as
 * totex_alltoall().
 *
 * @param sendbuf    this rank's blocks, or MPI_IN_PLACE.
 * @param sendcounts [n] elements to each rank, >= 0.
 * @param sdispls    [n] displacements in extents of @p sendtype.
 * @param sendtype   any datatype; sendcounts[j] * size(sendtype) at most INT_MAX - 44 bytes.
 * @param recvbuf    room for every incoming block at its displacement.
 * @param recvcounts [n] elements from each rank; recvcounts[i] * size(recvtype)
 *                   on rank j must equal sendcounts[j] * size(sendtype) on rank i.
 * @param rdispls    [n] displacements in extents of @p recvtype.
 * @param recvtype   any datatype.
 * @param comm       an intracommunicator.
 * @return MPI_SUCCESS, or an error code, on every rank alike for wrong
 *         arguments and count mismatches (named on stderr by the rank that
 *         found it, "totex_alltoallv:"); errors are returned, not raised:
 *  - MPI_ERR_COUNT: a negative count, a block over INT_MAX - 44 bytes (44:
 *    the figures a block carries), or a pair of ranks whose send and
 *    receive bytes differ (found by a 64-bit
 *    hash of every pair's bytes summed over ranks; MPI_ERR_TRUNCATE on a
 *    rank that received a longer block than it expects): no byte of any
 *    receive buffer is written, except after a uniform call with uniform
 *    counts on the ranks that agree, where bytes of their receive blocks
 *    may be (never a byte outside the blocks);
 *  - MPI_ERR_TYPE, MPI_ERR_BUFFER, MPI_ERR_COMM, MPI_ERR_ARG (NULL arrays),
 *    MPI_ERR_NO_MEM, or an error code of the MPI calls, as totex_alltoall().
 *
 * Source: this project (docs/mpi.md, "Non-uniform exchange"); src/mpi/alltoallv.c (the choice and its model);
 * the uniform schedules of totex_alltoall().
 */
int totex_alltoallv(const void *sendbuf, const int *sendcounts, const int *sdispls, MPI_Datatype sendtype,
                    void *recvbuf, const int *recvcounts, const int *rdispls, MPI_Datatype recvtype, MPI_Comm comm);

/**
 * What totex_alltoall() (or the drop-in's MPI_Alltoall) chose for a
 * communicator and a block size: filled by totex_alltoall_choice().
 */
typedef struct totex_mpi_choice {
    int planned;              /**< 1: a call of this block size was planned on the communicator and the
                                   fields below describe it; 0: none yet (the other fields are empty) */
    char algorithm[32];       /**< the algorithm's name: a message-combining one (`totex compare SPEC
                                   --model combining`) or, when @c unit, a unit-step one (`totex algorithms`) */
    char label[64];           /**< the candidate as the TOTEX_VERBOSE line names it, e.g. "direct",
                                   "octr/multiport/3 chunks", "direct/padded to 2048 B" */
    int unit;                 /**< 1: a unit-step schedule run in chunks; 0: a message-combining schedule */
    int ports;                /**< unit-step port model: 0 multiport, k >= 1 k-port; 0 when not @c unit */
    int chunks;               /**< messages each transfer is cut into, >= 1 */
    unsigned long long steps; /**< steps of the schedule */
    double predicted_seconds; /**< seconds per call predicted by the cost model from the measured (or
                                   TOTEX_TS/TC/TL) costs; when @c reused, predicted at the size the class was
                                   first planned at */
    double measured_seconds;  /**< seconds per call of the timed trial that kept it (slowest rank, fastest
                                   round); < 0 when it was not timed (one candidate left, TOTEX_TUNE=0,
                                   TOTEX_ALGORITHM, or @c reused) */
    int reused;               /**< 1: its size class's choice (blocks of 2^c .. 2^(c+1)-1 bytes), compiled
                                   for this size without ranking or timing again */
} totex_mpi_choice;

/**
 * The choice totex made for @p comm and blocks of @p block_bytes bytes: the
 * algorithm, its chunks, and its predicted and measured time per call. Local:
 * no communication, no allocation; reads the plan cache that the calls on
 * @p comm filled (it is the same on every rank).
 *
 * @param comm        a communicator totex_alltoall() (or the drop-in) was called on.
 * @param block_bytes bytes of one block: sendcount * size(sendtype) of those calls.
 * @param out         filled; out->planned is 0 when no call with blocks of
 *                    @p block_bytes bytes has been planned on @p comm (none
 *                    made yet, a communicator of one rank, a call that
 *                    failed, or totex_alltoall_unit(), which caches nothing).
 * @return MPI_SUCCESS (whether or not a choice was found: see out->planned);
 *         MPI_ERR_ARG when @p out is NULL; MPI_ERR_COMM when @p comm is
 *         MPI_COMM_NULL.
 *
 * Source: the choice of plan.c (docs/mpi.md, "What runs when").
 */
int totex_alltoall_choice(MPI_Comm comm, size_t block_bytes, totex_mpi_choice *out);

/**
 * A nonblocking or persistent total exchange under way (totex_ialltoall(),
 * totex_alltoall_init()): an opaque handle owned by the caller until it is
 * completed (nonblocking) or freed (persistent). TOTEX_REQUEST_NULL: none.
 * Not an MPI_Request: complete it with totex_test() / totex_wait(), never
 * with MPI_Test / MPI_Wait. The Open MPI component (coll/totex) and the
 * drop-in give MPI_Ialltoall real MPI requests (the component MPI_Alltoall_init too).
 *
 * Progress: the exchange advances inside totex calls (totex_test,
 * totex_wait, totex_start, totex_ialltoall and the blocking calls, each of
 * which takes every request of this process under way one step on, and a
 * blocking totex call first completes them all). Call totex_test now and then
 * while computing; nothing moves inside other MPI calls unless the component
 * is loaded (it registers a progress function with Open MPI).
 */
typedef struct totex_request_s *totex_request;
#define TOTEX_REQUEST_NULL ((totex_request)0)

/**
 * Nonblocking total exchange (MPI_Ialltoall, MPI-3.1 Section 5.12.6): the
 * semantics, arguments, network, datatypes, MPI_IN_PLACE and errors of
 * totex_alltoall(); the buffers must not be touched until the request
 * completes. Collective: every rank of @p comm calls it, in the same order
 * as its other collective calls on @p comm.
 *
 * With a plan cached for this block size on @p comm (an earlier call of any
 * form with the same block bytes) it returns at once: no collective
 * operation; the call's cross-rank check travels with the exchange and a
 * mismatch fails the request on every rank (at its test or wait). Without
 * one it first plans as totex_alltoall()'s first call does (collective,
 * checked, blocking until every rank has called), then starts.
 *
 * Several requests may be under way on one communicator and on several, and
 * complete in any order (each has a program copy of its own; messages carry
 * the call's tag). After a request failed on a communicator where
 * nonblocking calls are in use, every later totex call on it fails too.
 *
 * @param request out: the request (TOTEX_REQUEST_NULL on error); complete it
 *                with totex_wait() or totex_test(), which free it.
 * The other parameters are those of totex_alltoall().
 * @return MPI_SUCCESS or an error code of totex_alltoall() found before the
 *         exchange started; errors found later are returned by the test or
 *         wait that completes the request. MPI_ERR_REQUEST: @p request NULL.
 *
 * Source: the schedules of totex_alltoall(); the run is the executor's
 * resumable run (src/mpi/run.c), one per request.
 */
int totex_ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                    MPI_Datatype recvtype, MPI_Comm comm, totex_request *request);

/**
 * Persistent total exchange (MPI_Alltoall_init, MPI-4.0 Section 6.13.6):
 * the choice, planning and buffers are made here, totex_start() runs the
 * exchange alone. Collective and blocking: every rank of @p comm calls it;
 * the arguments are checked across ranks here (an error on every rank, no
 * hang), and a duplicate of @p comm is made for the request. Derived
 * datatypes are duplicated: the caller may free its own after the call.
 *
 * @param info    ignored (MPI_INFO_NULL).
 * @param request out: an inactive persistent request (TOTEX_REQUEST_NULL on
 *                error); free it with totex_request_free().
 * The other parameters are those of totex_alltoall().
 * @return MPI_SUCCESS, or an error code of totex_alltoall() (the same on
 *         every rank); MPI_ERR_REQUEST (one stderr line) when @p request is
 *         NULL.
 *
 * Source: as totex_ialltoall().
 */
int totex_alltoall_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                        MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, totex_request *request);

/**
 * Start a persistent request (MPI_Start): the exchange of the buffers given
 * to totex_alltoall_init(), with their contents now. Collective: every rank
 * starts its request of the same init, in the same order.
 * @param request the persistent request of totex_alltoall_init(), inactive;
 *                it stays the caller's (totex_test() / totex_wait() complete it).
 * @return MPI_SUCCESS; MPI_ERR_REQUEST (one stderr line) when @p request is
 *         NULL, not persistent or active; MPI_ERR_NO_MEM; an MPI error code.
 * Source: MPI-4.0 Section 3.9 (MPI_Start); the run: src/mpi/run.c.
 */
int totex_start(totex_request *request);

/**
 * Test a request once (MPI_Test): every request under way in this process is
 * taken one step on, never blocking.
 * @param request the request; a completed nonblocking request is freed and
 *                set to TOTEX_REQUEST_NULL, a persistent one made inactive.
 *                TOTEX_REQUEST_NULL or an inactive request: complete at once.
 * @param flag    out: 1 when the request completed (its receive buffer final).
 * @return the outcome of the completed exchange (MPI_SUCCESS or an error code
 *         of totex_alltoall()), MPI_SUCCESS while it is under way;
 *         MPI_ERR_ARG when @p flag is NULL.
 * Source: MPI-3.1 Section 3.7.3 (MPI_Test); progress: src/mpi/run.c totex_mpi_runs_poll.
 */
int totex_test(totex_request *request, int *flag);

/**
 * Wait for a request to complete (MPI_Wait), taking every request under way
 * in this process on meanwhile. As totex_test(): a nonblocking request is
 * freed (set to TOTEX_REQUEST_NULL), a persistent one made inactive.
 * @param request the request; NULL, TOTEX_REQUEST_NULL or an inactive
 *                request: complete at once.
 * @return the outcome of the exchange (MPI_SUCCESS or an error code of
 *         totex_alltoall()); MPI_SUCCESS for TOTEX_REQUEST_NULL or an
 *         inactive request.
 * Source: MPI-3.1 Section 3.7.3 (MPI_Wait).
 */
int totex_wait(totex_request *request);

/**
 * Free a request (MPI_Request_free): an active one is completed first. Sets
 * *request to TOTEX_REQUEST_NULL; TOTEX_REQUEST_NULL does nothing.
 * @param request the request (nonblocking or persistent); NULL does nothing.
 * @return MPI_SUCCESS, or the outcome of the exchange it completed.
 * Source: MPI-3.1 Section 3.7.3 (MPI_Request_free).
 */
int totex_request_free(totex_request *request);

#ifdef __cplusplus
}
#endif
#endif
