/* The program's entries as the run reads them: receives and sends packed into
 * two byte streams (program.h, totex_prog.rcode / scode), each field of an
 * entry written only when it differs from the entry before it, as a variable
 * length integer (7 bits a byte) of its difference (zigzag: small either way),
 * and read back in program order by cursors. A send's dependencies and pieces
 * follow it in the stream, each against the one before. The entries decoded
 * are exactly those the compiler made (totex_prog_recv, totex_prog_send,
 * totex_prog_piece; tests/program/test_code.c compares them field by field);
 * what they take is in docs/performance.md. Needs no MPI. Not installed. */
#ifndef TOTEX_PROG_CODE_H
#define TOTEX_PROG_CODE_H

#include <stddef.h>
#include <stdint.h>

#include "program.h"
#include "totex/common.h"

/* a growing stream of bytes (the compiler's output) */
typedef struct totex_prog_code {
    uint8_t *b;
    size_t len, cap;
} totex_prog_code;

/* (the cursors, totex_prog_rcur and totex_prog_scur, are in program.h: a program keeps one) */

/* a send's pieces or dependencies, read one at a time (totex_prog_piece_next, totex_prog_dep_next) */
typedef struct totex_prog_body {
    size_t pos;
    uint32_t left;
    uint32_t dep;           /* the last dependency read */
    totex_prog_piece piece; /* the last piece read */
} totex_prog_body;

/* a cursor at the first receive / send of @p p */
void totex_prog_rcur_init(totex_prog_rcur *c);
void totex_prog_scur_init(totex_prog_scur *c);

/*
 * Append receive @p rv to @p code, written against @p prev (the receive before it, or zero). Returns 0,
 * or -1 when out of memory (the stream unchanged).
 */
int totex_prog_code_recv(totex_prog_code *code, const totex_prog_recv *prev, const totex_prog_recv *rv);

/*
 * Append send @p sd with its sd->dep_count dependencies @p deps and sd->piece_count pieces @p pieces,
 * written against the cursor @p c (the send, piece and dependency before them), which moves past it.
 * sd->piece_first and dep_first are not written: a reader counts them. *at: the byte holding the send's
 * sync flag (totex_prog_code_set_sync). Returns 0, or -1 when out of memory.
 */
int totex_prog_code_send(totex_prog_code *code, totex_prog_scur *c, const totex_prog_send *sd,
                         const uint32_t *deps, const totex_prog_piece *pieces, size_t *at);

/* set the sync flag of the send whose byte @p at totex_prog_code_send() gave */
void totex_prog_code_set_sync(totex_prog_code *code, size_t at);

/*
 * Read the receive at cursor @p c of the stream @p b into @p rv and move the cursor past it. The
 * stream must hold one there (the caller counts to nrecv).
 */
void totex_prog_recv_next(const uint8_t *b, totex_prog_rcur *c, totex_prog_recv *rv);

/*
 * Read the send at cursor @p c of the stream @p b into @p sd (piece_first and dep_first counted from
 * the sends before it) and move the cursor past it, its dependencies and pieces; @p deps and @p pieces
 * (either may be NULL) are set to read them.
 */
void totex_prog_send_next(const uint8_t *b, totex_prog_scur *c, totex_prog_send *sd, totex_prog_body *deps,
                          totex_prog_body *pieces);

/* the next dependency / piece of @p it (its left count must be > 0) */
uint32_t totex_prog_dep_next(const uint8_t *b, totex_prog_body *it);
void totex_prog_piece_next(const uint8_t *b, totex_prog_body *it, totex_prog_piece *pc);

/*
 * The program's entries as arrays (p->recvs, sends, pieces, deps; the layout of the compiler's output
 * before it was packed), decoded from the streams: for tests and tools that index entries. Freed with
 * the program. Returns TOTEX_OK or TOTEX_ENOMEM.
 */
totex_status totex_prog_expand(totex_prog *p);

#endif
