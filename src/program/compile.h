/* Compiler of the executor's programs (compile.c): this rank's share of a
 * schedule (share.h) into the program (program.h) the runtime runs. Needs no
 * MPI. Not installed. */
#ifndef TOTEX_PROG_COMPILE_H
#define TOTEX_PROG_COMPILE_H

#include <stddef.h>

#include "program.h"
#include "share.h"
#include "totex/common.h"

/*
 * Compile this rank's share @p l of a schedule into @p p (p->slot, n, me,
 * algorithm, pad, arena_cap and the ring set by the caller), every transfer
 * split into @p chunks messages (at most slot and TOTEX_PROG_MAX_CHUNKS;
 * p->chunks says how many), at most @p window transfers per link and chunk
 * lane in flight (0: no limit), lanes staggered behind kicks when @p stagger.
 * Returns TOTEX_OK; TOTEX_ENOMEM; TOTEX_EOVERFLOW (a message over INT_MAX
 * bytes); TOTEX_EVIOLATION (the share is not a total exchange for this rank:
 * a bug of the algorithm), with what went wrong in @p err. O(entries) time.
 * Source: no paper (the executor's own construction, compile.c's head).
 */
totex_status totex_prog_compile(totex_prog *p, const totex_prog_share *l, int chunks, int window, int stagger,
                                totex_error *err);

/*
 * totex_prog_compile() from a share read in segments of whole steps (@p src,
 * share.h: a translation of node 0's moves made a few steps at a time), read
 * twice, so that the share is never held whole: the same program as
 * totex_prog_compile() on the whole share. Errors as there, and the source's
 * (TOTEX_EINVAL, TOTEX_ENOMEM). Source: no paper (compile.c's head).
 */
totex_status totex_prog_compile_src(totex_prog *p, totex_prog_share_src *src, int chunks, int window, int stagger,
                                    totex_error *err);

#endif
