/**
 * @file totex/schedule_io.h
 * @brief Unit-step schedules in and out: the JSON file (full and symmetric
 *        forms, docs/unit-schedule-format.md), MSCCL XML for GPU collective
 *        runtimes, and verification of both when they were made elsewhere.
 *
 * Full form: every step's hops {from, to, src, dst}, written as a stream
 * from a ::totex_sink (nothing but one step is held) and read as a stream
 * into the simulator of totex/sim.h. Symmetric form: node 0's moves (task
 * row, task column) per step and the translation rule of 001 Definition 4 /
 * Theorem 2: every node v does in step t what node 0 does, translated by v;
 * read back into a ::totex_sym_schedule and certified at one node
 * (totex_sym_certify()). MSCCL XML: an all-to-all on ngpus = n ranks in the
 * format the MSCCL executor reads (Azure/msccl-executor-nccl
 * src/misc/msccl/msccl_parser.cc), within its limits (TOTEX_MSCCL_*).
 *
 * Errors: a malformed file is TOTEX_EIO (or TOTEX_EINVAL / TOTEX_ENOMEM for a
 * limit) with one line naming the byte, key, rank or limit; a well-formed
 * schedule that breaks the model is TOTEX_EVIOLATION naming the step, node
 * and message. The CLI maps the first to exit 2 and the second to exit 1.
 */
#ifndef TOTEX_SCHEDULE_IO_H
#define TOTEX_SCHEDULE_IO_H

#include <stdio.h>

#include "totex/algorithm.h"
#include "totex/sim.h"
#include "totex/symmetric.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The "format" value of a unit-step schedule file. */
#define TOTEX_UNIT_FORMAT "totex-unit-schedule"

/* ---- writing the unit-step JSON ------------------------------------------ */

/** A streaming writer of the full form (one step per line). */
typedef struct totex_unit_writer totex_unit_writer;

/**
 * Start a full-form file on @p fp (borrowed, left open): writes the header
 * (format, version, form "full", network spec, nodes, ports, @p algorithm).
 * Feed the steps through totex_unit_writer_sink(), then call
 * totex_unit_writer_close(). Memory: one step's text at a time.
 * @param fp the stream. @param net the network. @param ports the port model recorded.
 * @param algorithm the name recorded (NULL: "unknown"). @param err receives the message on failure (may be NULL).
 * @return the writer; NULL with TOTEX_ENOMEM / TOTEX_EIO in @p err.
 */
totex_unit_writer *totex_unit_writer_open(FILE *fp, const totex_network *net, totex_ports ports,
                                          const char *algorithm, totex_error *err);
/** @param w a writer (outlives the sink). @return a sink writing each step as one line of hops; a step returns TOTEX_EIO when the FILE fails. */
totex_sink totex_unit_writer_sink(totex_unit_writer *w);
/**
 * Write the closing brackets, flush, and free the writer (the FILE stays open).
 * @param w a writer, or NULL (TOTEX_OK). @param err receives the message on failure (may be NULL).
 * @return TOTEX_OK, or TOTEX_EIO on a write error.
 */
totex_status totex_unit_writer_close(totex_unit_writer *w, totex_error *err);

/**
 * Write the symmetric form of @p s (the moves of node 0 over the task @p t of
 * total exchange on @p net, 001 Theorem 2) to @p fp: header, the task's kind,
 * rows and columns (link types), the translation rule in words, and one line
 * per step of "row, column" pairs. About 5 bytes per move (Fugaku, 3.1 M
 * moves per node: about 30 MB).
 * @param fp the stream. @param net the network. @param ports the port model.
 * @param algorithm the name recorded. @param t the task of total exchange. @param s node 0's moves.
 * @param err receives the message on failure (may be NULL).
 * @return TOTEX_OK; TOTEX_EIO on a write error; TOTEX_EINVAL for a
 *         neighbourhood task (only total exchange is written).
 */
totex_status totex_unit_write_symmetric(FILE *fp, const totex_network *net, totex_ports ports, const char *algorithm,
                                        const totex_task *t, const totex_sym_schedule *s, totex_error *err);

/* ---- reading and verifying the unit-step JSON ----------------------------- */

/** Limits of the reader (0 in a field: its default). */
typedef struct totex_unit_limits {
    uint64_t max_bytes;    /**< longest file, bytes (default 2^32) */
    uint64_t max_messages; /**< full form: simulator limit n(n-1) (0: TOTEX_SIM_DEFAULT_MAX_MESSAGES, at most TOTEX_SIM_MAX_MESSAGES) */
    uint64_t max_rows;     /**< symmetric form: largest n - 1 (default 2^26) */
    const char *network;   /**< a spec the caller trusts, used instead of the file's "network" (NULL: the file's;
                                a file naming a graph file, "file:PATH", is then refused: schedule files are
                                untrusted and name networks, not paths); "nodes" must match it */
} totex_unit_limits;

/** What reading and verifying a unit-step file found. */
typedef struct totex_unit_verdict {
    totex_network *net;      /**< owned: free with totex_unit_verdict_free() */
    totex_ports ports;       /**< the model checked (the file's, or the override) */
    char algorithm[64];      /**< as recorded in the file ("unknown" when absent) */
    int symmetric;           /**< 1: symmetric form, certified at one node (001 Theorem 2) */
    totex_sim_report sim;    /**< steps, delay, hops...; symmetric: per-network figures from the certifier */
    int ports_override_set;  /**< internal: 1 when the caller overrode the file's port model */
} totex_unit_verdict;

/**
 * Read a unit-step schedule file from @p fp as a stream and verify it: the
 * full form is replayed hop by hop through a fresh simulator (totex/sim.h),
 * the symmetric form is read into memory (8 bytes per move) and certified at
 * one node (totex_sym_certify()). The header keys must come before "steps".
 * @param fp the stream, read to its end or the first error.
 * @param lim the limits (NULL: every default of ::totex_unit_limits).
 * @param ports_override the port model to check instead of the file's, or NULL for the file's.
 * @param out receives the verdict (free with totex_unit_verdict_free(), also after TOTEX_EVIOLATION).
 * @param err receives the message on failure (may be NULL).
 * @return TOTEX_OK with @p out; TOTEX_EIO / TOTEX_EINVAL / TOTEX_ENOMEM for a
 *         malformed file or one above @p lim (byte offset or key named);
 *         TOTEX_EVIOLATION when the schedule breaks the model (@p out->net is
 *         still set then, so the caller can name the network).
 */
totex_status totex_unit_verify_stream(FILE *fp, const totex_unit_limits *lim, const totex_ports *ports_override,
                                      totex_unit_verdict *out, totex_error *err);
/** Free what a verdict owns. @param v a verdict, or NULL (nothing done). */
void totex_unit_verdict_free(totex_unit_verdict *v);

/**
 * totex_unit_verify_stream() on the file @p path, opened only if it is a
 * regular file of at most lim->max_bytes (default 2^32) bytes: a FIFO or a
 * device is refused without reading (TOTEX_EIO).
 * @param path the file. The other parameters are totex_unit_verify_stream()'s.
 * @return as totex_unit_verify_stream(); TOTEX_EIO naming the path for a file
 *         that cannot be opened, is not regular or is too large.
 */
totex_status totex_unit_verify_file(const char *path, const totex_unit_limits *lim, const totex_ports *ports_override,
                                    totex_unit_verdict *out, totex_error *err);

/** The kinds of schedule file `totex verify` reads. */
typedef enum totex_schedule_kind {
    TOTEX_SCHEDULE_COMBINING = 0, /**< anything else: the combining JSON of docs/schedule-format.md */
    TOTEX_SCHEDULE_UNIT = 1,      /**< "format": "totex-unit-schedule" in its first 4 KiB */
    TOTEX_SCHEDULE_MSCCL = 2      /**< its first character (after a BOM and blanks) is '<' */
} totex_schedule_kind;

/**
 * Which kind of schedule a file holds, from its first 4 KiB.
 * @param path a regular file. @param kind receives the kind. @param err receives the message on failure (may be NULL).
 * @return TOTEX_OK; TOTEX_EIO naming the path when it is not a readable regular file.
 */
totex_status totex_schedule_file_kind(const char *path, totex_schedule_kind *kind, totex_error *err);

/* ---- MSCCL XML ------------------------------------------------------------ */

/* Limits of the MSCCL executor (Azure/msccl-executor-nccl src/include/msccl/msccl_struct.h,
   src/misc/msccl/msccl_parser.cc, NCCL's MAXCHANNELS). */
#define TOTEX_MSCCL_MAX_NUM_STEPS 64                /**< steps per thread block (MSCCL_MAX_NUM_STEPS) */
#define TOTEX_MSCCL_MAX_TB_PER_CHANNEL 32           /**< sending / receiving thread blocks per channel */
#define TOTEX_MSCCL_MAXCHANNELS 32                  /**< NCCL's MAXCHANNELS */
#define TOTEX_MSCCL_MAX_NUM_THREAD_BLOCKS (32 * 32) /**< per rank */
#define TOTEX_MSCCL_MAX_COUNT 72                    /**< cnt must be below it (MSCCL_MAX_COUNT) */
#define TOTEX_MSCCL_MAX_NODES 1024                  /**< XML nodes the parser holds per rank (algo, gpus, own tbs and steps) */

/** A streaming builder of an MSCCL all-to-all from unit-step hops. */
typedef struct totex_msccl_writer totex_msccl_writer;

/**
 * New writer for an all-to-all on @p n ranks under @p ports (the model the
 * schedule was made for: single-port and k-port chain a rank's j-th send to
 * its (j-k)-th, so at most k run at once; receivers cannot hold senders back,
 * so totex_plan_export() reads the file back under the port model). @p name is the
 * algo's name attribute. Feed the schedule's steps through
 * totex_msccl_writer_sink() (a hop (from, to, src, dst) becomes a send in
 * from's thread block for peer to and a receive in to's block for peer from;
 * a relayed block goes through the scratch buffer, its send depending on its
 * receive), then totex_msccl_writer_finish(). Memory: 24 bytes per hop, and
 * the sink stops with TOTEX_EINVAL as soon as a rank exceeds an executor
 * limit, naming it and by how much.
 * @param n ranks (the network's nodes). @param ports the port model. @param name the algo's name.
 * @param err receives the message on failure (may be NULL).
 * @return the writer (totex_msccl_writer_free()); NULL with TOTEX_EINVAL (n < 2, or n too large
 *         for the executor's XML nodes per rank) or TOTEX_ENOMEM in @p err.
 */
totex_msccl_writer *totex_msccl_writer_new(uint32_t n, totex_ports ports, const char *name, totex_error *err);
/** @param w a writer (outlives the sink). @return the sink feeding it. */
totex_sink totex_msccl_writer_sink(totex_msccl_writer *w);
/**
 * Check every executor limit and write the XML to @p fp. TOTEX_EINVAL naming
 * the limit, the rank and by how much it is exceeded; TOTEX_EIO on a write
 * error. Does not free @p w.
 * @param w a writer fed every step. @param fp the stream. @param err receives the message on failure (may be NULL).
 * @return TOTEX_OK, TOTEX_EINVAL or TOTEX_EIO (above).
 */
totex_status totex_msccl_writer_finish(totex_msccl_writer *w, FILE *fp, totex_error *err);
/** Free a writer. @param w a writer, or NULL (nothing done). */
void totex_msccl_writer_free(totex_msccl_writer *w);
/** @param w a writer. @return the steps its sink has received so far (the schedule's length, in steps). */
uint64_t totex_msccl_writer_steps(const totex_msccl_writer *w);

/** Largest MSCCL XML file read, bytes. */
#define TOTEX_MSCCL_FILE_MAX (UINT64_C(64) << 20)

/* ---- reading MSCCL XML: the program as the executor holds it -------------- */

/** Kinds of an MSCCL transfer (nops are folded into the next transfer, as the executor's parser does). */
enum totex_msccl_type {
    TOTEX_MSCCL_SEND = 0, /**< "s": send cnt chunks from srcbuf[srcoff..] to the send peer */
    TOTEX_MSCCL_RECV = 1, /**< "r": receive cnt chunks from the recv peer into dstbuf[dstoff..] */
    TOTEX_MSCCL_RCS = 2,  /**< "rcs": receive into dstbuf[dstoff..] and send the same chunks on to the send peer */
    TOTEX_MSCCL_CPY = 3   /**< "cpy": local copy srcbuf[srcoff..] -> dstbuf[dstoff..] */
};
/** Buffers of an MSCCL step. */
enum totex_msccl_buffer { TOTEX_MSCCL_BUF_I = 0, TOTEX_MSCCL_BUF_O = 1, TOTEX_MSCCL_BUF_S = 2 };

/** One dependency: wait until thread block @c tb of the same rank has raised its flag to at least @c step. */
typedef struct totex_msccl_dep {
    uint32_t tb;   /**< thread block id (depid) on the same rank */
    uint32_t step; /**< deps: an XML step position of that thread block (nops counted) */
} totex_msccl_dep;

/** One transfer (a non-nop step), in its thread block's order. */
typedef struct totex_msccl_op {
    uint8_t type;            /**< enum totex_msccl_type */
    uint8_t srcbuf, dstbuf;  /**< enum totex_msccl_buffer */
    uint8_t hasdep;          /**< 1: the executor raises the thread block's flag to @c kstep when it ends */
    uint32_t pos;            /**< XML position in the thread block, nops counted (0-based) */
    uint32_t kstep;          /**< the executor's step counter at this transfer: the flag value it raises */
    int32_t srcoff, dstoff;  /**< chunk offsets (checked in range where read or written) */
    int32_t cnt;             /**< chunks moved as one transfer, 1 <= cnt < TOTEX_MSCCL_MAX_COUNT */
    uint32_t dep_first;      /**< its dependencies: deps[dep_first .. dep_first + ndeps) (its nops' and its own) */
    uint32_t ndeps;
    long line;               /**< line of the <step> in the file */
} totex_msccl_op;

/** One thread block. */
typedef struct totex_msccl_tb {
    uint32_t rank;          /**< the <gpu id> it belongs to */
    int32_t id;             /**< its id, 0..(thread blocks of the rank)-1 */
    int32_t send, recv;     /**< peers (-1: none) */
    int32_t chan;           /**< channel */
    uint32_t op_first, nops; /**< its transfers: ops[op_first .. op_first + nops) */
    uint32_t nsteps;        /**< XML steps, nops included */
} totex_msccl_tb;

/**
 * An MSCCL all-to-all as the executor's parser holds it: per rank its thread
 * blocks (tb[first_tb[r] .. first_tb[r + 1]), ordered by id), each with its
 * transfers in order. All arrays are owned; free with totex_msccl_program_free().
 */
typedef struct totex_msccl_program {
    uint32_t ngpus;         /**< ranks */
    uint32_t k;             /**< chunks per rank pair: nchunksperloop = k * ngpus */
    uint32_t nchunks;       /**< nchunksperloop = i_chunks = o_chunks */
    int inplace;            /**< the algo's inplace attribute: the executor runs it with i and o one buffer */
    int outofplace;         /**< the algo's outofplace attribute: the executor runs it with i and o apart */
    char name[128];         /**< the algo's name attribute (control characters replaced by '?') */
    uint32_t *s_chunks;     /**< per rank: scratch chunks */
    uint32_t *first_tb;     /**< ngpus + 1 entries */
    totex_msccl_tb *tb;
    uint32_t ntb;
    totex_msccl_op *ops;
    uint32_t nops;
    totex_msccl_dep *deps;
    uint32_t ndeps;
} totex_msccl_program;

/**
 * Read an MSCCL XML algorithm (@p text, @p len bytes, at most
 * TOTEX_MSCCL_FILE_MAX) by the executor's own parser rules
 * (Azure/msccl-executor-nccl src/misc/msccl/msccl_parser.cc): libxml2
 * without entities, DTD or network; the executor's limits (steps per thread
 * block, count, thread blocks, channels, XML nodes per rank); a nop's
 * dependency is folded into the next transfer, and the kernel's step
 * counter (the flag value a transfer with hasdep raises) advances past the
 * nops whose dependencies it folded, so `deps` names an XML position, nops
 * included. Structure only: coll="alltoall", nchunksperloop = k * ngpus,
 * i_chunks = o_chunks = nchunksperloop, buffers and offsets in range,
 * dependencies naming existing steps of the same rank, one thread block per
 * (peer, channel, direction). Nothing is run: totex_msccl_verify() does that.
 * @param text, len the file's bytes. @param out receives the program.
 * @param err receives the message on failure (may be NULL).
 * @return TOTEX_OK with @p out filled (free with totex_msccl_program_free());
 *         TOTEX_EIO for a malformed file, TOTEX_EINVAL for an exceeded limit,
 *         TOTEX_ENOMEM; one line naming the rank, thread block, step and line.
 */
totex_status totex_msccl_read(const char *text, size_t len, totex_msccl_program *out, totex_error *err);
/** Free what a program owns and zero it. @param p a program, or NULL (nothing done). */
void totex_msccl_program_free(totex_msccl_program *p);
/**
 * Read a file with totex_msccl_read().
 * @param path a regular file of at most TOTEX_MSCCL_FILE_MAX bytes. @param out, err as totex_msccl_read().
 * @return as totex_msccl_read(); TOTEX_EIO naming the path for an unreadable, non-regular or too large file.
 */
totex_status totex_msccl_read_file(const char *path, totex_msccl_program *out, totex_error *err);

/**
 * Verify an MSCCL XML all-to-all (@p text, @p len bytes) on @p net under
 * @p ports: totex_msccl_read(), then totex_msccl_verify_program().
 * @param text, len the file's bytes (borrowed) and their number.
 * @param net the network (borrowed). @param ports the port model of the cost.
 * @param max_messages the most blocks accepted (0: no limit). @param rep receives the report.
 * @param name receives the algo's name attribute (may be NULL). @param name_cap the size of @p name in bytes.
 * @param err receives the message on failure (may be NULL).
 * @return as totex_msccl_read(), then as totex_msccl_verify_program().
 */
totex_status totex_msccl_verify(const char *text, size_t len, const totex_network *net, totex_ports ports,
                                uint64_t max_messages, totex_sim_report *rep, char *name, size_t name_cap,
                                totex_error *err);

/* ---- the driver: plan and write ------------------------------------------ */

/** What totex_plan_export() writes. */
typedef enum totex_export_format {
    TOTEX_EXPORT_JSON = 0,      /**< unit-step JSON: the symmetric form when the algorithm has one, else the full form */
    TOTEX_EXPORT_JSON_FULL = 1, /**< unit-step JSON, full form always (every hop) */
    TOTEX_EXPORT_MSCCL = 2      /**< MSCCL XML all-to-all (small networks: the executor's limits) */
} totex_export_format;

/**
 * Plan total exchange on @p net under @p ports with @p algo and write the
 * schedule to the file @p path (created or truncated) in @p format. The
 * full form is streamed (one step in memory); the symmetric form holds node
 * 0's moves (8 bytes each); MSCCL holds 24 bytes per hop, is built before
 * the file is created and refused with TOTEX_EINVAL naming the executor's
 * limit it exceeds. The caller verifies the plan separately (the driver's
 * totex_plan_and_verify()); the file is removed when writing fails.
 * @param path the file. @param net the network. @param ports the port model. @param algo the algorithm.
 * @param format what to write. @param err receives the message on failure (may be NULL).
 * @return TOTEX_OK; TOTEX_EIO (cannot write); TOTEX_EINVAL; the algorithm's status.
 */
totex_status totex_plan_export(const char *path, const totex_network *net, totex_ports ports,
                               const totex_algorithm *algo, totex_export_format format, totex_error *err);

struct totex_plan_result;
/**
 * Write the schedule of a verified plan @p r (totex/report.h) to @p path:
 * when the plan kept its certified symmetric schedule (totex_plan_keep_schedule())
 * and @p format is TOTEX_EXPORT_JSON, that schedule is written as it is,
 * without planning again; otherwise totex_plan_export() with r's network,
 * port model and algorithm.
 * @param path the file. @param r a verified plan. @param format what to write.
 * @param err receives the message on failure (may be NULL).
 * @return as totex_plan_export().
 */
totex_status totex_plan_export_result(const char *path, const struct totex_plan_result *r, totex_export_format format,
                                      totex_error *err);

struct totex_comb_schedule;
/**
 * A combining schedule (totex/combining.h, 002) as MSCCL XML: every block a
 * transfer carries becomes a chunk sent from the transfer's sender to its
 * receiver (MSCCL connects any two ranks, so a multi-link route is one
 * connection), in step order, relayed blocks through scratch as for the
 * unit-step schedules. Read back on complete:n under multiport before the
 * file is written.
 * @param path the file. @param net the network. @param s the combining schedule.
 * @param algorithm the algo's name. @param err receives the message on failure (may be NULL).
 * @return as totex_plan_export().
 */
totex_status totex_comb_export_msccl(const char *path, const totex_network *net, const struct totex_comb_schedule *s,
                                     const char *algorithm, totex_error *err);

/**
 * Answer two questions about an MSCCL all-to-all @p p (totex_msccl_read())
 * on @p net, apart (src/plan/msccl_verify.c):
 * (a) correctness, as the MSCCL executor runs it: thread blocks run their
 * transfers in order, each after its dependencies (the flag of thread block
 * depid reaching the XML position deps); the k-th send on (channel, peer)
 * meets the k-th receive, cnt chunks as one transfer, sends buffered; no
 * deadlock; every transfer on a link of @p net; every chunk read after the
 * write it reads, ordered by the thread blocks' order and dependency chains
 * of its rank (an order only through another rank is not counted: such a
 * file is refused), never overwritten before a read of it; every output
 * chunk written exactly once with the block the all-to-all puts there (k
 * chunks per rank pair: input chunk j of rank r goes to rank j / k, output
 * chunk r k + j mod k); checked out of place when outofplace="1" and with
 * i and o one buffer when inplace="1" (each mode the executor uses it for).
 * Only this can fail.
 * (b) cost under @p ports, never failing: every transfer starts as early as
 * the rules allow (a send takes one executor step); an executor step whose
 * transfers put c_l chunks on directed link l costs max(max_l c_l,
 * ceil(out_v / k), ceil(in_v / k)) rounds (multiport: max_l c_l).
 * @p rep: steps = the rounds, summed; steps_emitted = executor steps;
 * hops = chunks moved over links; messages = k n (n-1); average_delay = mean
 * rounds until a block lands in its output chunk; link and port utilisation;
 * max_hops_in_step; peak_queue is not measured (0).
 * @param p the program (borrowed). @param net the network (borrowed). @param ports the port model of (b).
 * @param max_messages refuse (TOTEX_EINVAL) an all-to-all of more blocks (0: no limit).
 * @param rep receives the report of (b). @param err receives the message on failure (may be NULL).
 * @return TOTEX_OK; TOTEX_EIO when ngpus is not the network's node count;
 *         TOTEX_EINVAL / TOTEX_ENOMEM for a limit; TOTEX_EVIOLATION naming the
 *         rank, thread block, XML step position and line that breaks (a).
 */
totex_status totex_msccl_verify_program(const totex_msccl_program *p, const totex_network *net, totex_ports ports,
                                        uint64_t max_messages, totex_sim_report *rep, totex_error *err);

/**
 * totex_msccl_verify() on the file @p path (a regular file of at most TOTEX_MSCCL_FILE_MAX bytes).
 * @param path the file. The other parameters are totex_msccl_verify()'s.
 * @return as totex_msccl_verify(); TOTEX_EIO naming the path for an unreadable, non-regular or too large file.
 */
totex_status totex_msccl_verify_file(const char *path, const totex_network *net, totex_ports ports,
                                     uint64_t max_messages, totex_sim_report *rep, char *name, size_t name_cap,
                                     totex_error *err);

#ifdef __cplusplus
}
#endif
#endif
