/* This rank's share of a schedule, the input of the compiler (compile.c): the
 * transfers that leave this rank, arrive at it, or leave its predecessor on
 * the cross-rank check's ring (l->pred; the header may ride on the
 * predecessor's first message to this rank, and both ends decide that from
 * the predecessor's sends), in step order; in a
 * step, in the order every rank sees them, so that the two ends of a link
 * post their messages in the same order. Made from a combining schedule
 * (plan.c) or node 0's transfers of a translation-invariant one, from a unit-step schedule streamed through a filtering sink, or
 * from node 0's moves of a symmetric schedule translated to this rank
 * (share_unit.c, 001 Theorem 2) without building the whole schedule.
 * Needs no MPI: the per-rank bench (bench/mpi/mpi_plan_bench.c) builds it for any
 * rank of any size. Not installed. */
#ifndef TOTEX_PROG_SHARE_H
#define TOTEX_PROG_SHARE_H

#include <stddef.h>
#include <stdint.h>

#include "totex/algorithm.h"
#include "totex/combining.h"

typedef struct totex_prog_xfer {
    uint64_t step;        /* 0-based */
    uint32_t from, to;
    size_t first, count;  /* blocks[first .. first + count) */
} totex_prog_xfer;

typedef struct totex_prog_share {
    uint32_t n, me;
    uint32_t pred;        /* the check's ring predecessor of me, whose sends are kept too (init: rank - 1;
                             set it to totex_prog_check_ring's before filling the share) */
    uint64_t steps;       /* steps of the whole schedule */
    totex_prog_xfer *x;    /* in step order */
    size_t nx, capx;
    totex_block *b;
    size_t nb, capb;
    totex_hop *tmp;       /* grouping buffer of totex_prog_share_hops() */
    size_t captmp;
} totex_prog_share;

/* empty share of rank @p me of @p n */
void totex_prog_share_init(totex_prog_share *l, uint32_t n, uint32_t me);
void totex_prog_share_free(totex_prog_share *l);
/* 1 if the transfer from -> to belongs to this rank's share */
int totex_prog_share_keeps(const totex_prog_share *l, uint32_t from, uint32_t to);
/* append a transfer of step @p step (not below the last one); 0, or -1 out of memory */
int totex_prog_share_add(totex_prog_share *l, uint64_t step, uint32_t from, uint32_t to, const totex_block *blocks,
                        size_t count);
/* append step @p step's hops of a unit-step schedule (count may be 0), kept
   ones only, grouped into one transfer per link (from, to) in increasing
   (from, to) order, the blocks of a link in hop order; 0, or -1 out of memory */
int totex_prog_share_hops(totex_prog_share *l, uint64_t step, const totex_hop *hops, size_t count);
/* this rank's share of a combining schedule; TOTEX_OK or TOTEX_ENOMEM */
totex_status totex_prog_share_from_comb(totex_prog_share *l, const totex_comb_schedule *s, totex_error *err);
/* this rank's share of unit-step algorithm @p a on @p net under @p ports: node
   0's moves translated to this rank (001 Theorem 2; O(moves of one node) time and
   memory) when @p a has a symmetric form, else its whole schedule streamed
   through a filtering sink (O(hops) time, memory of this rank's share only).
   *symmetric (may be NULL) says which. TOTEX_OK, or the algorithm's error. */
totex_status totex_prog_share_from_unit(totex_prog_share *l, const totex_algorithm *a, const totex_network *net,
                                       totex_ports ports, int *symmetric, totex_error *err);
/* node 0's moves of @p s on task @p t translated to this rank (share_unit.c);
   TOTEX_OK, TOTEX_EINVAL (a move out of range), TOTEX_ENOMEM */
totex_status totex_prog_share_translate(totex_prog_share *l, const totex_task *t, const totex_sym_schedule *s,
                                       totex_error *err);

/* A translation of node 0's moves to this rank under way (share_unit.c): the
 * rows' progress after steps [0, step), so that the share can be made a few
 * steps at a time and made again from the start, never held whole. */
typedef struct totex_prog_trans totex_prog_trans;
/* a translation of @p s on task @p t (both kept by the caller while it is used) at step 0; NULL out of memory */
totex_prog_trans *totex_prog_trans_new(const totex_task *t, const totex_sym_schedule *s);
void totex_prog_trans_free(totex_prog_trans *tr);
/* back to step 0 */
void totex_prog_trans_rewind(totex_prog_trans *tr);
/* steps of the schedule */
uint64_t totex_prog_trans_steps(const totex_prog_trans *tr);
/* the next step to translate */
uint64_t totex_prog_trans_next(const totex_prog_trans *tr);
/* append the translated steps up to (not including) @p upto to @p l (its me and pred as for
   totex_prog_share_translate); l->steps becomes the schedule's steps. TOTEX_OK, TOTEX_EINVAL, TOTEX_ENOMEM */
totex_status totex_prog_trans_run(totex_prog_trans *tr, totex_prog_share *l, uint64_t upto, totex_error *err);

/* A share read in segments of whole steps (the compiler reads it twice,
 * compile.c): either one segment, a whole share @c l, or a translation
 * @c trans made @c seg_steps steps at a time into @c l (emptied before each),
 * so that a rank's share of a symmetric schedule is never held whole. */
#define TOTEX_PROG_SHARE_SEGMENT 256 /* steps per segment of a translated share (build.c) */

typedef struct totex_prog_share_src {
    totex_prog_share *l;
    totex_prog_trans *trans; /* NULL: l is the whole share */
    uint64_t seg_steps;      /* steps per segment of a translation (>= 1) */
    int done;
} totex_prog_share_src;
/* from the first segment again */
void totex_prog_share_src_rewind(totex_prog_share_src *src);
/* the next segment in src->l: 1, 0 at the end, or -1 with *st and @p err set */
int totex_prog_share_src_next(totex_prog_share_src *src, totex_status *st, totex_error *err);

/* this rank's share of a translation-invariant combining schedule from node 0's transfers
   (totex_comb_algorithm.plan_node0): node x's transfers are node 0's shifted by x coordinate-wise
   on @p net's factors. O(node 0's blocks) per step; TOTEX_OK or TOTEX_ENOMEM */
totex_status totex_prog_share_from_node0(totex_prog_share *l, const totex_network *net, const totex_comb_schedule *node0,
                                        totex_error *err);

#endif
