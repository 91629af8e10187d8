/**
 * @file totex/mpi.h
 * @brief Run totex's message-combining total-exchange schedules over MPI
 *        (libtotex_mpi; the drop-in libtotex_pmpi.so intercepts MPI_Alltoall).
 *
 * Not included by <totex.h>: it needs <mpi.h>. Link with totex_mpi (CMake
 * target, built when MPI is found and TOTEX_SANITIZE is OFF).
 */
#ifndef TOTEX_MPI_H
#define TOTEX_MPI_H

#include <mpi.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Total exchange with the semantics of MPI_Alltoall (MPI-3.1 Section 5.8),
 * executed with a totex message-combining schedule (totex/combining.h).
 *
 * Semantics: block i of @p sendbuf (@p sendcount elements of @p sendtype,
 * starting at sendbuf + i * sendcount * extent(sendtype)) goes to rank i and
 * lands at recvbuf + j * recvcount * extent(recvtype) there, j being the
 * sender's rank. Supports MPI_IN_PLACE as @p sendbuf (the data is taken from
 * @p recvbuf with recvcount/recvtype), any derived or non-contiguous datatype
 * (blocks are MPI_Pack'ed into contiguous slots of MPI_Pack_size bytes, moved
 * as bytes, and MPI_Unpack'ed into @p recvbuf), counts of 0, and any
 * communicator size (primes included). Collective: every rank of @p comm calls it.
 *
 * Network: if @p comm has a Cartesian topology, its dimensions become the
 * factors (periodic: ring:M, else path:M; size 2: k2; size-1 dimensions are
 * dropped). MPI dimension i maps to totex factor ndims-1-i, so that the totex
 * node id (first factor least significant) equals the Cartesian rank, i.e. the
 * rank in @p comm. Otherwise a virtual torus of MPI_Dims_create(size, 3)
 * (size-1 dimensions dropped) with node id = rank. Size 1: a local copy.
 *
 * What runs (the candidates): the registered combining algorithms
 * (totex/combining.h) and the unit-step schedules of the algorithm registry
 * (totex/algorithm.h) that apply to the network: octr, sym2, a3, greedy-sym
 * and greedy under the multiport model, a2 under single-port (greedy, whose
 * schedule exists only for the whole network, only up to 256 ranks). Rank 0
 * predicts every candidate's time with the cost model of src/mpi/cost.c from
 * the costs measured on the communicator (below): a combining algorithm by
 * totex_comb_rank() under the wormhole, all-port model (block size m = packed
 * bytes per block), never below the link-load floor status(0) * m * t_l /
 * degree(0) that every total exchange pays; a unit-step schedule of S steps
 * split into c chunks of x = m / c bytes as
 * S (t_s (1 + 0.05 (c - 1)) h + m max(t_l(x), t_c(x) / c)), with c chosen to
 * minimise it (1 .. 16 chunks of at least 1 KiB); h = 1, or with staggered
 * lanes (below; 2 .. 4 chunks) h = (1 + 1/c) / 2, the start-up hidden never
 * more than the other lanes' transfer time, plus (c - 1) t_s for the kicks
 * (h fitted to SimGrid SMPI's flat-factor 4x4 torus, src/mpi/cost.c). Where the measurement
 * found a message of P bytes (256 .. 4096) arriving sooner than an 8-byte one
 * (below; SimGrid SMPI's default factors: P = 2048), the 4 best combining
 * candidates are also offered with every message shorter than P padded to P
 * bytes, each of their S start-up steps predicted to cost at least t_pad, the
 * time of a P-byte message. The model's best (up to 8, 12 with padded forms:
 * at most 4 unit-step ones, one per step count, each in 2 .. 4 staggered
 * chunks, in the model's chunks unstaggered, and in one message or two
 * chunks when the model chose otherwise, the model's best 4 of these) are
 * built by every rank and
 * timed on the communicator with the caller's data, in 2 rounds taking the
 * candidates in turn (a different one first in each round): per candidate and
 * round, one untimed run when its buffers are not allocated, a barrier, 3 runs
 * back to back (more, up to 32, where the model predicts a call so short that 3
 * would last under 100 us: an oversubscribed machine's scheduler decides so
 * short a round; not under SimGrid SMPI), the slowest rank's time per run; a candidate's time is its
 * fastest round (interruptions only add time); results kept in totex's own
 * buffers. The fastest candidate is kept. The model orders and prunes the
 * candidates; the measurement settles what the model cannot see.
 * The choice is made once per size class (blocks of 2^c .. 2^(c+1)-1 bytes):
 * a new block size of a class already seen compiles the class's choice for
 * its size without ranking or timing again (TOTEX_SIZE_CLASSES=0: every size
 * in full). TOTEX_TUNE=0 keeps the model's first choice without timing;
 * TOTEX_ALGORITHM=NAME forces one (a combining or a unit-step name) and
 * TOTEX_CHUNKS=C (1 .. 16) the chunks of unit-step candidates (and of a combining
 * algorithm forced by TOTEX_ALGORITHM), TOTEX_STAGGER=1
 * or 0 staggered lanes or not (of candidates with more than one chunk). In
 * practice (bench/smpi/run.sh, simulated tori, docs/tutorial.md section 8):
 * unit-step schedules win at large blocks (32 KiB and up on 4x4 and 4x4x4
 * tori, 16 KiB and up with flat factors; with flat factors in 2 or 3
 * staggered chunks, with SMPI's default factors in 4 to 8 unstaggered ones),
 * combining algorithms (direct, dimwise,
 * bruck...) at small ones. The plan
 * (this rank's compiled program, below) is cached on @p comm with an MPI
 * attribute per block size (sendcount * size(sendtype) and packed bytes; at
 * most 64: the 65th block size empties the cache on every rank; freed by the
 * delete callback, or when the communicator is freed), so choosing and
 * timing happen at the first call of each block size only. A call on the
 * communicator of the process's previous call takes its state, size and rank
 * without MPI_Comm_get_attr (the delete callback forgets a freed
 * communicator), and a predefined datatype's size, MPI_Pack_size and layout
 * from the previous call (about 55 ns of Open MPI queries per call); not for
 * calls from several threads at once. Such a repeat call whose layouts are
 * raw (contiguous blocks, not MPI_IN_PLACE) goes from the entry point straight
 * to the cached program: a flat one (direct, pairwise: every message from this
 * rank's own blocks, every receive in its place) posts every receive and
 * send and waits once, one of one message each way (2 ranks, short blocks)
 * is a send, a receive, a wait and a test, whose cross-rank check state is
 * made only when the call does not go as expected (src/mpi/exec.c,
 * totex_mpi_guard_pair_run in src/mpi/agree.c). The exchange
 * runs on a private duplicate of @p comm (MPI_Comm_dup, errors returned), so
 * it never matches the caller's messages.
 *
 * Planning per rank: no rank builds the whole schedule of a unit-step
 * candidate with a symmetric form (octr, sym2, greedy-sym: 001 Theorem 2):
 * each rank translates node 0's moves to itself (src/mpi/translate.c),
 * O(moves of one node) time and memory; one without (a3, greedy, a2) is
 * streamed step by step through a filter that keeps this rank's hops. A
 * combining candidate whose schedule is translation invariant (a3c on tori of
 * even sides: totex_comb_algorithm.plan_node0) is node 0's transfers
 * translated to the rank, O(n) memory; another is built keeping only this
 * rank's share (totex_comb_build_share(): the algorithm's working state of one
 * logical step, never the schedule's O(n^2) blocks). Rank 0 alone ranks the
 * candidates: a combining algorithm by its closed form where it has one
 * (totex_comb_algorithm.predict: a2c, and a3c on tori of even sides), else
 * built and simulated once, and then only up to 256 ranks (above, bruck,
 * dimwise, pairwise and direct are not candidates). Per rank, the program (the compiled schedule
 * state) holds an entry per message and per block it sends on: O(the sum of
 * the rank's distances) = O(n x average distance); the buffers are O(n)
 * blocks (arena and staging below). Measured (bench/mpi_plan_bench, one rank
 * of a 32x32 torus, 64 KiB blocks, a loaded machine): octr 0.04 s, 6 MB of
 * planning memory (3.1 MB of program), arena 2048 blocks (2n); a3c 0.01 s,
 * 2 MB (5.8 s and 191 MB building the whole schedule), arena 5904 blocks and
 * staging 2048; a2c 0.2 s, 9 MB (141 MB with the whole schedule), arena 3040
 * blocks and staging 2048; rank 0's ranking 2 ms (15.7 s and 200 MB building
 * and simulating every combining algorithm). One first call on SimGrid at
 * 1024 ranks (bench/smpi/first_call.sh, 8-byte blocks, TOTEX_TUNE=0): 328 KiB
 * of peak RSS per rank (32x32, a3c; 185 KiB at 64 ranks, 205 at 256; SMPI's
 * own bruck 37 KiB).
 *
 * t_s, t_c and t_l: measured once per communicator, the first time a plan is made
 * on it: ranks 0 and 1 ping-pong on the private duplicate (2 warm-up round
 * trips, then 20 timed round trips of 8 bytes and 20 of 64 KiB); the one-way
 * time of 8 bytes gives t_s, the slope (64 KiB time - 8 B time) / (65536 - 8)
 * gives t_c, the time per byte of one flow, in seconds/byte (a non-positive
 * slope falls back to 64 KiB time / 65536, a non-positive t_s to the 8-byte
 * time). Then rank 0 sends 4 concurrent 64 KiB messages and rank 1 answers 8
 * bytes (1 warm-up and 5 timed rounds): that time less two 8-byte one-way
 * times, over 256 KiB, gives t_l, the time per byte of the link under several
 * flows (at most t_c). Both again with 8 KiB messages give t_c and t_l at
 * 8 KiB (chunk-sized messages), interpolated linearly in log2(size) between
 * 8 KiB and 64 KiB. Last, the median one-way times of 20 round trips of
 * 256, 512, .. 4096 bytes and of 8 bytes: the size whose message arrived
 * soonest, if at least 2% sooner than 8 bytes, is P, the size short messages
 * may be padded to (a network or MPI library whose latency drops for larger
 * messages; none where the time grows with the size: then nothing is padded);
 * TOTEX_PAD=P (0 .. 4096, read on rank 0) sets it instead and pads every
 * candidate (0: never). The size of the same ladder that moved the most bytes
 * per second is the split size L: blocks of M >= 4096 bytes also make the
 * best combining candidates' split forms (every message in c = ceil(M / L)
 * chunks) candidates, when c L-byte messages took at most 0.8 of one M-byte
 * message (one-way times interpolated between 4096, 8192 and 65536 bytes).
 * Over Open MPI's shared memory, where a message above 4 KiB goes by a
 * rendezvous, 8 KiB blocks on 2 ranks then travel in 4 chunks of 2 KiB:
 * 2.2 us a call against MPI_Alltoall's 3.2 us; under SimGrid nothing is split.
 * Rank 0 broadcasts the values;
 * they are cached with the plans on @p comm and reused for every block size.
 * The environment variables TOTEX_TS (seconds), TOTEX_TC and TOTEX_TL
 * (seconds/byte), read on rank 0, override the measured values; when TOTEX_TS
 * and TOTEX_TC are set no ping-pong runs and t_l is TOTEX_TL or else t_c (one
 * flow fills a link), the same at every size. The drop-in's TOTEX_VERBOSE=1 line shows both values and whether each
 * was "measured" or "set". The measurement is noisy (oversubscribed ranks,
 * shared memory): it only steers the choice of algorithm, never correctness.
 *
 * Executor: the schedule is compiled once per plan into this rank's program
 * (src/mpi/compile.c): its receives and sends in step order (one MPI message
 * per transfer; for a unit-step schedule, the hops of one step that cross the
 * same link travel as one message), where each block it forwards lies, and
 * which receives each send waits for. A call posts the receives (MPI_Irecv,
 * one tag per cached plan, the same on every rank) in waves as their arena
 * bytes are free (below), a unit-step plan at most a window ahead of where its sends are (4 steps' receives;
 * TOTEX_RECV_WINDOW=R: R receives, 0: no limit; thousands of posted receives made SimGrid
 * walk a list per message on 8x8x8, and MPICH's posted-receive queue is one list too),
 * and makes the sends in step order, each one waiting only for the receives that brought
 * its blocks, gathering them into one message when they do not lie side by
 * side, and MPI_Isend'ing it; waiting for every request ends the exchange. A
 * block thus travels on only after it arrived, as in the schedule, with no
 * barrier between steps. A unit-step plan also keeps each link in step order:
 * a link's next transfer leaves once the previous one has been received (that
 * send is synchronous, MPI_Issend; TOTEX_WINDOW=W allows W in flight per link,
 * 0 no limit; default 1), so that the rank's own blocks of later steps do not
 * crowd the relayed ones off the link. Chunks: with c > 1 every
 * transfer of a unit-step plan is c messages, chunk i carrying bytes
 * [m i / c, m (i + 1) / c) of each block, travelling as concurrent messages
 * (one lane per chunk, each in step order; a step's chunk-0 messages are
 * made before its chunk-1 ones); a relayed chunk moves on as soon as it has
 * arrived, not waiting for the rest of its block. Staggered lanes (offered
 * in 2 .. 4 chunks): every link carries c - 1 kicks of 24 bytes each way (a
 * tag of their own), kick i + 1 leaving when kick i from the peer has
 * arrived, and lane i of a link starts when kick i from its peer has
 * arrived, i latencies after lane 0, so that one lane's start-up overlaps
 * another's transfer instead of every lane paying it at once in every step
 * (a relayed chunk leaves when it has arrived, so lanes that start together
 * stay together). Blocks of a
 * contiguous datatype move without MPI_Pack (sent from @p sendbuf, final
 * blocks of one transfer from consecutive sources received straight into
 * @p recvbuf); other datatypes are packed into slots of MPI_Pack_size bytes
 * and unpacked at the end. A padded plan sends a message shorter than P bytes
 * as P bytes (staged, its tail zeroed) and receives it into the arena.
 * Buffers are kept with the plan and reused.
 * Memory per rank is O(n) blocks: the arena of received blocks that travel
 * on reuses its bytes once the blocks in them have been sent on (and final
 * blocks are copied to their place as soon as their message has arrived), so
 * receives are posted in waves, each as soon as its bytes are free and at the
 * latest before the sends of the next step: 4n blocks before any byte is
 * reused (enough for every block a rank receives on the 8x8 and 4x4x4 tori;
 * more only when no free range fits a message: bruck,
 * whose messages interleave blocks that leave at different steps, all its
 * n/2 log2 n received blocks; TOTEX_ARENA_BLOCKS=B sets the limit, 0 reuses
 * bytes as soon as they are free) instead of every block received (the sum
 * of a node's distances, n times the average distance). Gathered sends reuse
 * their staging bytes the same way; a run whose caller takes the blocks from
 * the plan (derived datatypes) also keeps n blocks for them. A step's
 * receives and sends wait only for requests of earlier steps, and both ends
 * post in step order: by induction on the step, no rank waits forever
 * (src/mpi/exec.c).
 *
 * Environment: TOTEX_CHECK and TOTEX_VERBOSE are read once per process, at
 * the first call; TOTEX_ALGORITHM, TOTEX_TUNE, TOTEX_CHUNKS, TOTEX_STAGGER, TOTEX_WINDOW, TOTEX_RECV_WINDOW
 * whenever a plan is made; TOTEX_TS, TOTEX_TC, TOTEX_TL, TOTEX_PAD when the
 * costs are measured (the first plan on a communicator); the drop-in's
 * TOTEX_MODEL at its first call. A variable set to a
 * value it does not take (TOTEX_CHUNKS=four, TOTEX_RECV_WINDOW=-1, TOTEX_TS=1us,
 * TOTEX_VERBOSE=yes, TOTEX_MODEL=Unit)
 * is ignored with one line on stderr from MPI_COMM_WORLD's rank 0, once per
 * variable, naming what it takes; its default applies (src/mpi/env.c).
 * TOTEX_CHECK (the same on every rank) =0 turns the cross-rank
 * check below off, as MPI libraries do: then a mismatch across ranks is
 * undefined behaviour, as in MPI, and a call sends no header.
 * TOTEX_VERBOSE=1: rank 0 prints on stderr, once per communicator, the
 * schedule chosen (a combining algorithm, or a unit-step schedule with its
 * port model, steps and chunks per transfer), every candidate's measured
 * time, the model's choice and the costs;
 * TOTEX_VERBOSE=2: once per block size (0, the default: nothing).
 *
 * Cross-rank check (on by default; src/mpi/agree.c): arguments that differ
 * across ranks, or a rank whose arguments or memory fail, give an error on
 * every rank, never a hang, without a collective operation on the path of a
 * call whose plan is cached. Each call sends a header (block bytes, packed
 * bytes, local error) to its successor on a ring through all ranks
 * alongside the exchange: a cycle along the network's links where the
 * network has one that totex constructs (a torus or mesh of two or more
 * sides, one of them even, or a single ring), else rank + 1. Headers travel
 * on a second private duplicate where nothing else does, so their receive
 * takes any tag and the header is the tag (when the block bytes fit
 * MPI_TAG_UB, the packed bytes equal them and there is no error; else its 24
 * bytes lead the message). The header rides as a staggered plan's first kick
 * to the successor (a message the plan sends anyway, the same length as every
 * kick: there the header keeps its bytes), or with the plan's first message
 * to the successor when that message has at most 4096 bytes of this rank's
 * own blocks (either send is made first, before any wait, so a stalled
 * exchange cannot hold the header back), else it is a message of its own
 * (of no bytes when the header is the tag). Every rank sends its header once in every call, also when its call
 * fails before the message that was to carry it has left (then alone, naming
 * the error), so a wait for the predecessor's header alone always ends: a
 * plan of one message each way (2 ranks, short blocks) waits for it with a
 * plain MPI_Wait. Every other wait of the call
 * also watches the header from the predecessor and a receive from MPI_ANY_SOURCE
 * that stays posted on the private duplicate. A rank that finds its header
 * differs from its predecessor's, or a local error, sends a poison message naming it
 * to every rank. Ranks with different arguments run different plans (or none),
 * whose messages carry different tags, so no rank's exchange can complete and
 * every rank wakes on the poison. A call that must plan (collective
 * operations) or moves no data first agrees over all ranks by log2(size)
 * rounds of point-to-point messages that watch the poison too. After a failed
 * call every rank frees the private duplicate and the next call makes a new
 * one (collective).
 *
 * Errors (returned, also named in one line on stderr starting "totex_alltoall:";
 * the communicator's error handler is NOT invoked; with the check on, every
 * rank returns an error and none hangs: the code of the first poison it sees,
 * the same on every rank unless several ranks find different errors at once;
 * with TOTEX_CHECK=0 only this rank's own arguments are checked):
 * - MPI_ERR_COMM: MPI_COMM_NULL or an intercommunicator;
 * - MPI_ERR_COUNT: a negative count, sendcount * size(sendtype) differing from
 *   recvcount * size(recvtype), or differing across ranks, or a message larger
 *   than INT_MAX bytes;
 * - MPI_ERR_TYPE: MPI_DATATYPE_NULL;
 * - MPI_ERR_BUFFER: a NULL buffer with a non-zero count;
 * - MPI_ERR_ARG: TOTEX_ALGORITHM names an unknown algorithm or one that does
 *   not apply to the network (e.g. ssy or octr on an open mesh), or no
 *   algorithm applies;
 * - MPI_ERR_NO_MEM: out of memory; MPI_ERR_INTERN: a schedule failed to deliver
 *   a block (a bug); any error code of the underlying MPI calls.
 * @return MPI_SUCCESS or one of the codes above.
 *
 * Source: the schedules and cost model of 002 (Suh, Shin & Yalamanchili) and
 * the other algorithms of the combining registry (`totex algorithms`); the
 * unit-step schedules of 000 (a2, a3), 001 (octr: Theorems 2-9; greedy-sym:
 * Sections 5, 8.3) and sym2, translated per rank by 001 Theorem 2.
 */
int totex_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                   MPI_Datatype recvtype, MPI_Comm comm);

/**
 * The same total exchange (same semantics, arguments, network, rank mapping,
 * errors and private duplicate as totex_alltoall()) executed with a
 * packet-level, unit-step store-and-forward schedule of the algorithm registry
 * (totex/algorithm.h, e.g. "a2", "octr"): for validating those schedules on a
 * real machine rather than for speed.
 *
 * Every rank plans @p algorithm on the network of @p comm under @p ports
 * (0: multiport, k >= 1: k-port; TOTEX_PORTS_* of totex/common.h) into an
 * in-memory schedule; one MPI_Allreduce agrees on success before any data
 * moves. Then, per step, for each hop (from, to, src, dst) with to == this
 * rank an MPI_Irecv of block (src, dst) from rank @c from is posted, for each
 * hop with from == this rank the block (src, dst), held since an earlier step
 * (or its own send block), is MPI_Isend'ed to rank @c to, and MPI_Waitall
 * ends the step; node id = rank in @p comm. Several hops between the same two
 * ranks in one step match in hop order (MPI's non-overtaking rule). Nothing
 * is cached (the schedule is planned at every call).
 *
 * @param algorithm registry name; NULL, "" or "auto": totex_algorithm_auto().
 * @return as totex_alltoall(); MPI_ERR_ARG (with one stderr line) when the
 *         algorithm is unknown or does not apply to the network under @p ports.
 * The drop-in libtotex_pmpi.so does the same for MPI_Alltoall when
 * TOTEX_MODEL=unit (algorithm TOTEX_ALGORITHM, single-port).
 */
int totex_alltoall_unit(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                        MPI_Datatype recvtype, MPI_Comm comm, const char *algorithm, int ports);

#ifdef __cplusplus
}
#endif
#endif
