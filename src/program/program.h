/* The program layer's product: this rank's program for one schedule, the
 * input of the MPI runtime's run (src/mpi/run.c). Made by totex_prog_build()
 * (build.h) from a candidate of the choice model (choice.h): this rank's share
 * of the schedule (share.h) compiled (compile.h) into receives and sends in
 * step order, where each block it sends lies, which receives each send waits
 * for, and where each block destined to it lands. Needs no MPI: a program can
 * be made for any rank of any communicator size (tests/program/,
 * bench/mpi/mpi_plan_bench.c). Not installed. */
#ifndef TOTEX_PROG_PROGRAM_H
#define TOTEX_PROG_PROGRAM_H

#include <stddef.h>
#include <stdint.h>

/* ---- sizes the program and the runtime's protocol share ---- */
#define TOTEX_PROG_HDR_BYTES 24   /* the cross-rank check's header: 3 long long (src/mpi/agree.c) */
#define TOTEX_PROG_KICK_BYTES TOTEX_PROG_HDR_BYTES /* bytes of a kick (compile.c): as long as the header that one
                                                    kick per rank carries instead, so that all kicks are alike */
#define TOTEX_PROG_CARRY_MAX 4096 /* bytes: the header rides in front of a message of at most this many */
#define TOTEX_PROG_MAX_CHUNKS 16  /* most chunks a transfer is split into (compile.c) */
#define TOTEX_PROG_PAD_MAX 4096   /* bytes: the most a short message is padded to (at most TOTEX_PROG_CARRY_MAX) */
#define TOTEX_PROG_RECV_WINDOW_STEPS 4 /* receives posted ahead of the forced point: by default at most those of
                                          this many steps (src/mpi/run.c; TOTEX_RECV_WINDOW) */
#define TOTEX_PROG_ARENA_BLOCKS_PER_RANK 4 /* a program's arena: at most this many blocks per rank before its bytes
                                              are reused (arena.h; more only when no free bytes fit) ... */
#define TOTEX_PROG_ARENA_BLOCKS_PER_LINK 64 /* ... and at most this many per link of the node (build.h): a window
                                               per link, whatever n (4x4, 8x8, 4x4x4 tori: 4 n is the smaller) */

/* Byte locations of a program:
 * Byte locations: base SEND (this rank's n send blocks, block j at j * slot),
 * ARENA (received blocks that are not final or cannot land in place) or RECV
 * (the user's receive buffer, block from rank i at i * slot). */
enum { TOTEX_PROG_SEND = 0, TOTEX_PROG_ARENA = 1, TOTEX_PROG_RECV = 2 };

/* The entries as the compiler makes them and totex_prog_expand() gives them back (the program keeps them packed
   in byte streams, code.h: a rank of a 128x128 torus has 2^21 of them): indexes into the program's entries are
   32-bit (totex_prog_compile refuses a program of 2^32 entries or more, TOTEX_EOVERFLOW), flags are bits of a
   count's word, and a receive keeps one offset, in the arena or in place. */
#define TOTEX_PROG_FIN_MAX (1u << 24)    /* a receive brings fewer final blocks than this (compile.c refuses more) */
#define TOTEX_PROG_PIECES_MAX (1u << 30) /* a send gathers fewer pieces than this (compile.c refuses more) */
typedef struct totex_prog_piece { /* a run of bytes to gather */
    uint32_t base;
    uint32_t len;        /* at most a message's bytes (INT_MAX) */
    size_t off;
} totex_prog_piece;

typedef struct totex_prog_recv {
    int peer, bytes;
    union {                 /* one or the other, by in_place_ok: */
        size_t arena_off;   /* where it lands when not in place (in the arena) */
        size_t place_off;   /* where it lands in RECV when in place (all blocks final, consecutive sources) */
    };
    uint32_t wait_sends, wait_recvs; /* posted once sends [0, wait_sends) and receives [0, wait_recvs) are
                                        complete: its arena bytes are free again (arena.h) */
    uint32_t fin_first;              /* finals[fin_first ..]: its blocks destined to this rank ... */
    uint32_t fin_count : 24;         /* ... this many (< TOTEX_PROG_FIN_MAX) */
    uint32_t in_place_ok : 1;
    uint32_t chunk : 5;              /* which chunk of its transfer it carries (< TOTEX_PROG_MAX_CHUNKS) */
    uint32_t kick : 1;               /* a kick of staggered lanes (TOTEX_PROG_KICK_BYTES, tag + TOTEX_MPI_KICK_TAG) */
    uint32_t whole : 1;              /* a message of the sender's own blocks (own_whole): chunks `chunk` .. `chunk` +
                                        chunks / own_whole - 1 of each (own_whole 1: the blocks whole, bytes
                                        [0, slot)), not chunk `chunk` alone */
} totex_prog_recv;

typedef struct totex_prog_send {
    int peer, bytes;
    size_t stage_off;                  /* gathered here when more than one piece */
    uint32_t piece_first;              /* pieces[piece_first ..]: one piece = sent from where it lies ... */
    uint32_t piece_count : 30;         /* ... this many (< TOTEX_PROG_PIECES_MAX) */
    uint32_t sync : 1;                 /* MPI_Issend: a later send on its link waits for its delivery (compile.c) */
    uint32_t kick : 1;                 /* a kick of staggered lanes (TOTEX_PROG_KICK_BYTES, tag + TOTEX_MPI_KICK_TAG) */
    uint32_t dep_first, dep_count;     /* deps[dep_first ..]: requests it waits for: receives that bring its
                                          blocks (< nrecv), an earlier send on its link (nrecv + send index) */
    uint32_t wait_sends;               /* gathered once sends [0, wait_sends) are complete (its staging bytes) */
    uint32_t recv_before;              /* receives [0, recv_before) (earlier steps) are posted before it */
} totex_prog_send;

typedef struct totex_prog_final { /* a block (src, me) a receive brings */
    uint32_t src;
    uint32_t pos;                /* its position among that transfer's blocks */
} totex_prog_final;

/* cursors of the packed entries (code.h): where the next receive / send is read from in rcode / scode,
   and the entry (piece, dependency) before it, which its fields are written against */
typedef struct totex_prog_rcur {
    size_t pos;
    totex_prog_recv prev;
} totex_prog_rcur;

typedef struct totex_prog_scur {
    size_t pos;
    totex_prog_send prev;
    totex_prog_piece piece;
    uint32_t dep;
} totex_prog_scur;

typedef struct totex_prog {
    long long slot;              /* bytes per block the program was made for */
    uint32_t n, me;
    const char *algorithm;       /* registry name (static) */
    char label[64];              /* totex_prog_cand_name() of the candidate it was made from */
    int unit;                    /* 0: a combining schedule; else a unit-step one (multiport: 0 ports) */
    uint32_t ports;              /* port model of a unit-step schedule */
    int chunks;                  /* messages per transfer (compile.c), >= 1 */
    int own_whole;               /* set by the caller before compiling: with chunks > 1, a transfer of the sender's own
                                    blocks, all destined to the receiver, travels in own_whole messages (1: whole,
                                    one message; a divisor of chunks, each message chunks / own_whole chunks of its
                                    blocks; 0: chunked like the others); the others are chunked (compile.c,
                                    "Relayed blocks ahead") */
    int window;                  /* transfers in flight per link and lane (compile.c), 0: no limit */
    int pad;                     /* set by the caller before compiling: a message shorter than this many bytes
                                    travels as pad bytes (its tail zero), 0: none (compile.c) */
    uint64_t steps;
    size_t nrecv, nsend;
    int stagger;                 /* lane i of a link starts behind the i-th of a chain of short kicks (compile.c) */
    uint32_t sync_rounds;        /* staggered: rounds of kicks to and from every link peer before the first data
                                    (set by the caller before compiling: the network's diameter; compile.c) */
    uint8_t *rcode, *scode;      /* the receives and the sends (each with its dependencies and pieces) in step
                                    order, packed (code.h): what the run reads, through cursors */
    size_t rcode_bytes, scode_bytes;
    totex_prog_recv carry_rv;    /* receive carry_recv, decoded (when carry_recv != SIZE_MAX) */
    totex_prog_scur carry_scur;  /* a cursor at send carry_send (when carry_send != SIZE_MAX) */
    totex_prog_recv *recvs;       /* the expanded view (totex_prog_expand(), code.h), NULL until then: */
    totex_prog_send *sends;       /* for tests and tools that index entries; the run never reads it */
    totex_prog_piece *pieces;
    uint32_t *deps;
    totex_prog_final *finals;     /* [n - 1], by receive (totex_prog_recv.fin_first) */
    size_t arena_cap;            /* soft limit of the arena and of the staging area, bytes (set before compiling;
                                    0: reuse bytes as soon as they are free) */
    int ring_set;                /* set by the caller before compiling: ring_pred, ring_succ below are the check's
                                    ring (totex_prog_check_ring); 0: rank - 1 and rank + 1 */
    uint32_t ring_pred, ring_succ;
    size_t carry_recv;           /* first receive from the ring's predecessor if it may carry that rank's header,
                                    else SIZE_MAX */
    size_t carry_send;           /* first send to the ring's successor if it may carry this rank's header, else
                                    SIZE_MAX */
    int flat;                    /* every send from this rank's own blocks, no waits before it, every receive in
                                    its place (compile.c): run without the dependency loop (run.c) */
    int pair;                    /* the whole program is one message each way, both carrying the check's header
                                    (carry_send == carry_recv == 0), its blocks this rank's own and the one it
                                    receives landing in place: 2 ranks, short blocks (run.c's short path) */
    size_t recv_window;          /* receives posted ahead of the forced point (run.c), at most; 0: no limit */
    size_t recv_ahead_max;       /* the most receives any run has posted ahead of its forced point (run.c) */
    size_t arena_bytes, stage_bytes;
    char *arena, *stage;         /* reused across calls */
    char *fin;                   /* n * slot bytes: the blocks for this rank when the caller takes them from the
                                    plan (totex_prog_final_block), allocated by such a run */
} totex_prog;

/* free @p p and everything it owns (NULL: nothing) */
void totex_prog_free(totex_prog *p);
/* a copy of @p p with buffers of its own (arena, staging and final areas not yet allocated): another run of
   the same program may be under way at the same time (a nonblocking or persistent call, src/mpi/request.c).
   Caller frees with totex_prog_free(); NULL when out of memory */
totex_prog *totex_prog_copy(const totex_prog *p);
/* free the program's arena, staging area and final area (the next run allocates them again) */
void totex_prog_release(totex_prog *p);
/* first byte of chunk @p i within a block (i = p->chunks: slot), bytes */
size_t totex_prog_chunk_lo(const totex_prog *p, int i);
/* where block (i, me) is after a run that left the blocks in the program (p->fin; valid until the next run) */
const char *totex_prog_final_block(const totex_prog *p, uint32_t i);
/* the program's own arrays (the packed receives and sends with their pieces and dependencies, finals),
   bytes: what planning keeps */
size_t totex_prog_bytes(const totex_prog *p);
/* program entries: receives + sends */
size_t totex_prog_entries(const totex_prog *p);
/* The program's dependent steps as a nonblocking run sees them: the longest chain of sends each of which
   can go only once something earlier has completed (a receive that brings its blocks, an earlier send on
   its link, a kick), counting the first send as 1. A send of a step is placed after the receives of its
   step's predecessors (recv_before), so a receive belongs to the step of the sends that follow it there; a
   receive is taken to come from a send of the same level as this rank's sends of its step (every rank runs
   the same steps: exact for the translated schedules of tori, an estimate elsewhere: the runtime takes the
   largest over ranks). Direct and pairwise: 1 (no send waits); direct-relay: 2 (its relays' second legs);
   a unit-step schedule: its steps. 0 for a program without sends. Kicks count as sends. Time O(sends +
   dependencies), memory O(sends); 0 also when out of memory (the caller then keeps the blocking
   choice). Source: no paper; the rule the runtime's nonblocking choice
   prices (src/mpi/plan.c, docs/mpi.md "Nonblocking and persistent") */
uint64_t totex_prog_dependent_steps(const totex_prog *p);

#endif
