/*
 * Private to src/algorithms/: what balanced-greedy (balanced_greedy.c) and
 * balanced-ports (balanced_ports.c) share (one copy, not two); load-greedy
 * (load_greedy.c) keeps its recorded moves in a bal_rec as well.
 * Both run a schedule over fixed shortest routes, one
 * byte per hop naming the link slot the message takes next, and keep the
 * messages a node holds in stacks per (node, link slot, hops left), so that
 * a node offers on each of its links the message with the most hops left
 * (furthest first, 003 Section 3, 001 Section 5). This module holds those
 * stacks, each node's offers by preference, the moves of a run recorded
 * for replay, the senders' order by decreasing key, the tie-break hash, the
 * routes' ownership and the per-thread memo; the routing and the matching
 * of each step stay in the algorithms' files.
 */
#ifndef TOTEX_BALANCED_STACKS_H
#define TOTEX_BALANCED_STACKS_H

#include <stdint.h>

#include "common/error.h"
#include "totex/network.h"
#include "totex/schedule.h"

#define BAL_NONE UINT32_MAX

/* The messages of a run on fixed routes (message id = dst * n + src). */
typedef struct bal_stacks {
    uint32_t n, S, H, HW;        /* nodes, link slots per node, longest route (hops), words of a mask over 0..H */
    const uint32_t *nbr;         /* n * S: the neighbour over each slot (the caller's) */
    const uint32_t *roff;        /* n * n + 1: offset of message id's route in route[] (the caller's) */
    const unsigned char *route;  /* the slot of every hop, route after route (the caller's) */
    uint32_t *head;              /* (u * S + slot) * (H + 1) + h: first message id + 1 of that stack */
    uint32_t *next;              /* per message: the next id + 1 in its stack */
    uint64_t *mask;              /* (u * S + slot) * HW: the non-empty h */
    uint32_t *held;              /* per node: messages it holds */
    /* per hop of a step (n * S entries), between the passes of bal_take_all and bal_arrive: */
    size_t *q;                   /* its stack, (u * S + slot) * (H + 1) + h */
    uint32_t *id;                /* its message */
    uint32_t *hl;                /* the hops its message had left when taken (bal_take, bal_take_all), read by
                                    bal_arrive, which needs no count of hops made */
    unsigned char *sl;           /* bal_arrive: its next slot at the receiver */
    uint64_t left;               /* messages not yet delivered */
} bal_stacks;

/* Allocate the stacks for @p n nodes, @p S slots, routes of at most @p H hops (empty; the routes are set by the
   caller in nbr, roff, route before bal_stacks_place()). 0, or -1 when out of memory (free with bal_stacks_free). */
int bal_stacks_alloc(bal_stacks *B, uint32_t n, uint32_t S, uint32_t H);
void bal_stacks_free(bal_stacks *B);

/* Every message at its source, on the stack of its first slot and its hops; left = n (n - 1). */
void bal_stacks_place(bal_stacks *B);

/* The largest h with a message on (u, slot), BAL_NONE if none. */
static inline uint32_t bal_top_h(const bal_stacks *B, uint32_t u, uint32_t slot)
{
    const uint64_t *m = B->mask + ((size_t)u * B->S + slot) * B->HW;
    for (uint32_t w = B->HW; w-- > 0;)
        if (m[w])
            return 64 * w + 63 - (uint32_t)__builtin_clzll(m[w]);
    return BAL_NONE;
}

/* (Inline: the steps' inner loops; measured on mesh:8x16 single-port, out of line they cost 2.7% more instructions.) */
/* push message @p id with @p h hops left on (u, slot) */
static inline void bal_push(bal_stacks *B, uint32_t id, uint32_t u, uint32_t slot, uint32_t h)
{
    const size_t base = (size_t)u * B->S + slot, q = base * (B->H + 1) + h;
    B->next[id] = B->head[q];
    B->head[q] = id + 1;
    B->mask[base * B->HW + h / 64] |= UINT64_C(1) << (h % 64);
    B->held[u]++;
}

/* Take the message on top of (u, slot) (most hops left) off u's stacks and write its hop into @p out[@p i] (its hops
   left into hl[i], for bal_arrive). */
static inline void bal_take(bal_stacks *B, uint32_t u, uint32_t slot, totex_hop *out, size_t i)
{
    const uint32_t h = bal_top_h(B, u, slot);
    const size_t base = (size_t)u * B->S + slot, q = base * (B->H + 1) + h;
    uint32_t id = B->head[q] - 1;
    B->head[q] = B->next[id];
    if (!B->head[q])
        B->mask[base * B->HW + h / 64] &= ~(UINT64_C(1) << (h % 64));
    B->held[u]--;
    B->hl[i] = h;
    out[i].from = u;
    out[i].to = B->nbr[base];
    out[i].src = id % B->n;
    out[i].dst = id / B->n;
}

/*
 * Take the tops of the stacks mv[0 .. nh) (each u * S + slot, no stack twice)
 * as bal_take() would one by one, writing hop i into out[i]: in three passes
 * so that the loads of a pass (the stacks' heads, the messages' links: tables
 * of n S (H + 1) and n^2 entries) are in flight together, prefetched by the
 * pass before.
 */
static inline void bal_take_all(bal_stacks *B, const uint32_t *mv, size_t nh, totex_hop *out)
{
    for (size_t i = 0; i < nh; i++) {
        const uint32_t u = mv[i] / B->S, h = bal_top_h(B, u, mv[i] - u * B->S);
        B->hl[i] = h;
        B->q[i] = (size_t)mv[i] * (B->H + 1) + h;
        __builtin_prefetch(&B->head[B->q[i]]);
    }
    for (size_t i = 0; i < nh; i++) {
        B->id[i] = B->head[B->q[i]] - 1;
        __builtin_prefetch(&B->next[B->id[i]]);
    }
    for (size_t i = 0; i < nh; i++) {
        const size_t q = B->q[i], base = mv[i];
        const uint32_t id = B->id[i], u = mv[i] / B->S, h = B->hl[i];
        B->head[q] = B->next[id];
        if (!B->head[q])
            B->mask[base * B->HW + h / 64] &= ~(UINT64_C(1) << (h % 64));
        B->held[u]--;
        out[i].from = u;
        out[i].to = B->nbr[base];
        out[i].src = id % B->n;
        out[i].dst = id / B->n;
    }
}

/*
 * After a step of @p nh hops (taken by bal_take or bal_take_all, which left
 * each message's hops left in hl): each moved message is delivered (it had 1
 * hop left), or joins the stack of its next slot at the receiver (in the
 * order of the hops): with h hops left before the move, its next slot is
 * route[roff[id + 1] - (h - 1)]. Each message moves at most once a step; in
 * passes, each prefetching what the next one reads (the end of its route,
 * its next slot, the stack's head), as bal_take_all().
 */
static inline void bal_arrive(bal_stacks *B, const totex_hop *out, size_t nh)
{
    for (size_t i = 0; i < nh; i++) {
        const uint32_t id = out[i].dst * B->n + out[i].src;
        B->id[i] = id;
        if (B->hl[i] > 1)
            __builtin_prefetch(&B->roff[id + 1]);
    }
    for (size_t i = 0; i < nh; i++)
        if (B->hl[i] > 1)
            __builtin_prefetch(&B->route[B->roff[B->id[i] + 1] - (B->hl[i] - 1)]);
    for (size_t i = 0; i < nh; i++) {
        const uint32_t h = B->hl[i] - 1; /* hops left after this one */
        if (!h) {
            B->left--;
            continue;
        }
        B->sl[i] = B->route[B->roff[B->id[i] + 1] - h];
        B->q[i] = ((size_t)out[i].to * B->S + B->sl[i]) * (B->H + 1) + h;
        __builtin_prefetch(&B->head[B->q[i]]);
    }
    for (size_t i = 0; i < nh; i++) {
        const uint32_t h = B->hl[i] - 1, id = B->id[i];
        if (!h)
            continue;
        const size_t base = (size_t)out[i].to * B->S + B->sl[i];
        B->next[id] = B->head[B->q[i]];
        B->head[B->q[i]] = id + 1;
        B->mask[base * B->HW + h / 64] |= UINT64_C(1) << (h % 64);
        B->held[out[i].to]++;
    }
}

/* Route offsets: message id = dst * n + src has distance(src, dst) hops; roff has n * n + 1 entries. */
void bal_route_offsets(const totex_network *net, uint32_t *roff);

/* Every node's coordinates, n * dims entries. */
void bal_coords(const totex_network *net, uint16_t *coord);

/* Tie-break: 0 for seed 0, else a hash of (seed, u, t) in 20 bits. */
static inline uint32_t bal_tie_hash(uint32_t seed, uint32_t u, uint64_t t)
{
    if (!seed)
        return 0;
    uint64_t x = ((uint64_t)seed << 40) ^ ((uint64_t)u << 20) ^ (t * UINT64_C(0x9E3779B97F4A7C15));
    x ^= x >> 31;
    x *= UINT64_C(0xBF58476D1CE4E5B9);
    x ^= x >> 29;
    return (uint32_t)x & 0xFFFFF;
}

/* An offer: u sends over @c slot to @c x its message with the most hops left @c h on that link. */
typedef struct bal_offer {
    uint32_t u, x, slot, h;
    uint64_t pref;  /* u's preference among its offers: larger first */
    int matched;    /* taken in this step's matching */
} bal_offer;

/*
 * Node u's offers, one per link slot with a message, appended at
 * offers[*no] on; their indices in olist[0 .. return value) by decreasing
 * preference: the hops left h, or, with @p load (n * S: the load left per
 * link), (load << 16) | h (ties: the lower slot first).
 * @return u's count of offers.
 */
static inline uint32_t bal_offers(const bal_stacks *B, uint32_t u, const uint64_t *load, bal_offer *offers, size_t *no,
                    uint32_t *olist)
{
    uint32_t count = 0;
    for (uint32_t s = 0; s < B->S; s++) {
        uint32_t h = bal_top_h(B, u, s);
        if (h == BAL_NONE)
            continue;
        bal_offer *o = &offers[*no];
        o->u = u;
        o->x = B->nbr[(size_t)u * B->S + s];
        o->slot = s;
        o->h = h;
        o->matched = 0;
        o->pref = load ? (load[(size_t)u * B->S + s] << 16) | h : h;
        /* insertion by decreasing preference */
        uint32_t j = count++;
        while (j > 0 && offers[olist[j - 1]].pref < o->pref) {
            olist[j] = olist[j - 1];
            j--;
        }
        olist[j] = (uint32_t)(*no)++;
    }
    return count;
}


/* A sender and its key. */
typedef struct bal_key {
    uint64_t key;
    uint32_t u;
} bal_key;

/* Decreasing key, then increasing u. */
int bal_key_cmp(const bal_key *a, const bal_key *b);

/*
 * The senders by decreasing key[u] (0 for a node that holds nothing):
 * insertion sort of last step's order in @p keys (n entries; keys move
 * little from step to step). @return how many senders hold messages (the
 * first entries).
 */
uint32_t bal_order_senders(bal_key *keys, const uint64_t *key, const uint32_t *held, uint32_t n);

/* The moves of a run, for replay: entries (the algorithm's encoding) and per step its count of hops. */
typedef struct bal_rec {
    uint32_t *mv;
    size_t len, cap;
    uint32_t *cnt;
    size_t steps, scap;
} bal_rec;

void bal_rec_free(bal_rec *r);

/* Room for @p entries more entries and one more step: 1, or 0 when out of memory. */
int bal_rec_reserve(bal_rec *r, size_t entries);

/*
 * The routes of a run: borrowed (@p route, @p roff non-NULL: a memo's) or
 * allocated for the network (roff n * n + 1 entries, route S_G bytes, to be
 * filled by the caller's routing). *borrowed says which (the caller frees
 * only what it allocated). TOTEX_OK, or TOTEX_ENOMEM / the status sum's error.
 */
totex_status bal_routes(const totex_network *net, unsigned char *route, uint32_t *roff, unsigned char **route_out,
                        uint32_t **roff_out, int *borrowed, totex_error *err);

/* Free the routes of bal_routes() unless they were borrowed. */
void bal_routes_free(unsigned char *route, uint32_t *roff, int borrowed);


#endif
