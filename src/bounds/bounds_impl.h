/* Private to src/bounds/: one function per bound, each filling a totex_bound. */
#ifndef TOTEX_BOUNDS_IMPL_H
#define TOTEX_BOUNDS_IMPL_H

#include "totex/bounds.h"

/* 000 eq. (4) lifted from the best factor cut (proof of 000 Theorem 5); cut.c. */
void totex_bound_cut(const totex_network *net, totex_bound *out);

/* Cut vertex / relay bound, single-port; relay.c. */
totex_status totex_bound_relay(const totex_network *net, totex_bound *out, totex_error *err);

/* Single-port band bound on products with a path factor (band.c): 1 and *out filled when one applies, else 0. */
int totex_bound_band(const totex_network *net, totex_bound *out);

/* Nonzero when the forwarding bound (forwarding.c) applies: a path (>= 3 nodes) or graph factor, 3 <= n <= 1024. */
int totex_bound_forwarding_applies(const totex_network *net);

/* printf into b->witness, truncating silently at its size (bounds.c). */
void totex_witness(totex_bound *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Shorthand for the 128-bit unsigned integer used to keep |V1||V2| exact for n up to 2^32. */
__extension__ typedef unsigned __int128 totex_u128;

#endif
