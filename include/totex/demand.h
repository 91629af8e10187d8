/**
 * @file totex/demand.h
 * @brief Demand matrices of non-uniform total exchange: W[i][j] bytes from node i to node j.
 *
 * A demand is the byte-weighted form of 001's task matrix (001 Section 2): a
 * total exchange moves W[i][j] bytes from every node i to every node j != i
 * (the diagonal is a local copy: it is read, kept at 0 and never moved). It
 * comes from a file (CSV or JSON, docs/demand.md) or from a seeded generator
 * (uniform, zipf, hotspot, random). Entries are 64-bit
 * byte counts, each at most TOTEX_DEMAND_MAX_ENTRY, so that every sum over
 * the matrix fits in 64 bits.
 */
#ifndef TOTEX_DEMAND_H
#define TOTEX_DEMAND_H

#include "totex/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Largest number of nodes of a demand matrix (n^2 entries of 8 bytes: 128 MiB at the limit). */
#define TOTEX_DEMAND_MAX_NODES 4096u
/** Largest entry, in bytes (2^36 = 64 GiB): n^2 entries sum below 2^60. */
#define TOTEX_DEMAND_MAX_ENTRY (UINT64_C(1) << 36)
/** Largest demand file, in bytes (256 MiB). */
#define TOTEX_DEMAND_MAX_FILE (UINT64_C(256) << 20)

/** A demand matrix: n x n byte counts, row-major (w[i * n + j] bytes from i to j), diagonal 0. */
typedef struct totex_demand {
    uint32_t n;  /**< nodes */
    uint64_t *w; /**< n * n entries, owned (free with totex_demand_free()) */
    char what[160]; /**< what it is: the generator with its seed, or the file's name */
} totex_demand;

/**
 * A new all-zero demand on @p n nodes.
 * @param n nodes, 1 .. TOTEX_DEMAND_MAX_NODES.
 * @param err receives the message on failure (may be NULL).
 * @return the demand (free with totex_demand_free()); NULL with TOTEX_EINVAL
 *         (n out of range) or TOTEX_ENOMEM in @p err.
 */
totex_demand *totex_demand_new(uint32_t n, totex_error *err);

/** Free a demand. @param d a demand, or NULL (nothing done). */
void totex_demand_free(totex_demand *d);

/**
 * A demand from a generator or a file (docs/demand.md).
 * Generators (M mean bytes per pair, an integer 1 .. 2^32; S > 0 a Zipf exponent;
 * K 1 .. n hot nodes), seeded with @p seed (same seed, same matrix):
 * - `uniform:M`: every pair i != j carries M bytes;
 * - `zipf:S:M`: destinations ranked by a seeded shuffle, destination of rank r
 *   has popularity 1/r^S; each source sends M (n-1) bytes split by the
 *   popularities of the other nodes (the mixture-of-experts case);
 * - `hotspot:K:M`: K seeded nodes receive 8M bytes from every source, the others M;
 * - `random:M`: every pair independently uniform on [0, 2M].
 * Anything else is a file path: `.json` files in the JSON form, others CSV.
 * A file is checked for size (TOTEX_DEMAND_MAX_FILE), shape (square, @p n rows)
 * and entries (non-negative integers at most TOTEX_DEMAND_MAX_ENTRY) before
 * the matrix is allocated.
 * @param text the generator or the file path (not NULL).
 * @param n    the network's nodes: the matrix must be n x n (1 .. TOTEX_DEMAND_MAX_NODES).
 * @param seed the generators' seed (ignored for files).
 * @param err  receives one line naming what is wrong (may be NULL).
 * @return the demand (caller frees with totex_demand_free()); NULL with
 *         TOTEX_EINVAL (bad generator, malformed, negative, non-square or
 *         too large file, wrong size), TOTEX_EIO (unreadable) or TOTEX_ENOMEM.
 */
totex_demand *totex_demand_parse(const char *text, uint32_t n, uint64_t seed, totex_error *err);

/**
 * Read a demand file (the file half of totex_demand_parse()).
 * CSV: n lines of n comma-separated byte counts; '#' starts a comment line;
 * blank lines are skipped. JSON (path ending ".json"): an object
 * {"nodes": n, "bytes": [[...], ...]} with n rows of n integers ("nodes" optional).
 * @param path the file (a regular file). @param n the expected size. @param err receives the message.
 * @return the demand or NULL, as totex_demand_parse().
 */
totex_demand *totex_demand_read(const char *path, uint32_t n, totex_error *err);

/** @param d a demand. @return the sum of every off-diagonal entry, in bytes. */
uint64_t totex_demand_total(const totex_demand *d);
/** @param d a demand. @return the largest off-diagonal entry, in bytes. */
uint64_t totex_demand_max(const totex_demand *d);

#ifdef __cplusplus
}
#endif
#endif
