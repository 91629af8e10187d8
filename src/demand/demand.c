/*
 * Demand matrices of non-uniform total exchange: the seeded
 * generators uniform, zipf, hotspot and random; the file readers are in
 * demand_file.c. A demand is 001's task matrix (Section 2) weighted by bytes.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "demand/demand_impl.h"
#include "totex/demand.h"

totex_demand *totex_demand_new(uint32_t n, totex_error *err)
{
    if (n < 1 || n > TOTEX_DEMAND_MAX_NODES) {
        totex_fail(err, TOTEX_EINVAL, "a demand matrix has 1 to %u nodes, not %" PRIu32, TOTEX_DEMAND_MAX_NODES, n);
        return NULL;
    }
    totex_demand *d = calloc(1, sizeof *d);
    if (d)
        d->w = calloc((size_t)n * n, sizeof *d->w);
    if (!d || !d->w) {
        free(d);
        totex_fail(err, TOTEX_ENOMEM, "out of memory for a %" PRIu32 " x %" PRIu32 " demand matrix", n, n);
        return NULL;
    }
    d->n = n;
    return d;
}

void totex_demand_free(totex_demand *d)
{
    if (!d)
        return;
    free(d->w);
    free(d);
}

uint64_t totex_demand_total(const totex_demand *d)
{
    uint64_t s = 0;
    for (size_t k = 0; k < (size_t)d->n * d->n; k++)
        s += d->w[k];
    return s;
}

uint64_t totex_demand_max(const totex_demand *d)
{
    uint64_t m = 0;
    for (size_t k = 0; k < (size_t)d->n * d->n; k++)
        if (d->w[k] > m)
            m = d->w[k];
    return m;
}

/* splitmix64: the generators' seeded stream */
static uint64_t next_u64(uint64_t *s)
{
    uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* uniform on [0, bound) without modulo bias worth speaking of (bound <= 2^33) */
static uint64_t below(uint64_t *s, uint64_t bound)
{
    return (uint64_t)(((unsigned __int128)next_u64(s) * bound) >> 64);
}

/* a seeded shuffle of 0..n-1 into perm */
static void shuffle(uint32_t *perm, uint32_t n, uint64_t *s)
{
    for (uint32_t i = 0; i < n; i++)
        perm[i] = i;
    for (uint32_t i = n; i > 1; i--) {
        uint32_t j = (uint32_t)below(s, i);
        uint32_t t = perm[i - 1];
        perm[i - 1] = perm[j];
        perm[j] = t;
    }
}

/* one field of a generator: a whole number in [lo, hi], else a message naming it */
static int field_u64(const char *gen, const char *text, const char *name, uint64_t lo, uint64_t hi, uint64_t *out,
                     const char **rest, totex_error *err)
{
    char *end;
    errno = 0;
    if (!text || *text < '0' || *text > '9') {
        totex_fail(err, TOTEX_EINVAL, "demand %s: %s must be a whole number from %" PRIu64 " to %" PRIu64 " (e.g. %s)",
                   gen, name, lo, hi, demand_example(gen));
        return -1;
    }
    unsigned long long v = strtoull(text, &end, 10);
    if (errno == ERANGE || v < lo || v > hi || (*end && *end != ':')) {
        totex_fail(err, TOTEX_EINVAL, "demand %s: %s must be a whole number from %" PRIu64 " to %" PRIu64 " (e.g. %s)",
                   gen, name, lo, hi, demand_example(gen));
        return -1;
    }
    *out = v;
    *rest = *end == ':' ? end + 1 : NULL;
    return 0;
}

const char *demand_example(const char *gen)
{
    if (!strcmp(gen, "zipf"))
        return "zipf:1.2:65536";
    if (!strcmp(gen, "hotspot"))
        return "hotspot:2:65536";
    if (!strcmp(gen, "random"))
        return "random:65536";
    return "uniform:65536";
}

#define MAX_MEAN (UINT64_C(1) << 32)

static totex_demand *generate(const char *text, uint32_t n, uint64_t seed, totex_error *err)
{
    const char *colon = strchr(text, ':');
    char gen[16];
    size_t gl = (size_t)(colon - text);
    if (gl >= sizeof gen)
        gl = sizeof gen - 1;
    memcpy(gen, text, gl);
    gen[gl] = 0;
    const char *p = colon + 1, *rest = NULL;
    uint64_t mean = 0, k = 0;
    double s = 0;
    uint64_t rng = seed ^ UINT64_C(0x7f4a7c159e3779b9);
    if (!strcmp(gen, "zipf")) {
        char *end;
        errno = 0;
        s = strtod(p, &end);
        if (end == p || *end != ':' || errno || !(s > 0) || s > 16) {
            totex_fail(err, TOTEX_EINVAL, "demand zipf:S:M: S must be an exponent above 0 and at most 16 (e.g. %s)",
                       demand_example("zipf"));
            return NULL;
        }
        p = end + 1;
    } else if (!strcmp(gen, "hotspot")) {
        if (field_u64("hotspot", p, "K (hot nodes)", 1, n, &k, &rest, err))
            return NULL;
        if (!rest) {
            totex_fail(err, TOTEX_EINVAL, "demand hotspot:K:M needs the mean M after K (e.g. %s)", demand_example("hotspot"));
            return NULL;
        }
        p = rest;
    } else if (strcmp(gen, "uniform") && strcmp(gen, "random")) {
        return NULL; /* not a generator: a file */
    }
    if (field_u64(gen, p, "M (bytes per pair)", 1, MAX_MEAN, &mean, &rest, err))
        return NULL;
    if (rest) {
        totex_fail(err, TOTEX_EINVAL, "demand '%.60s': too many fields (e.g. %s)", text, demand_example(gen));
        return NULL;
    }
    totex_demand *d = totex_demand_new(n, err);
    if (!d)
        return NULL;
    uint64_t *w = d->w;
    if (!strcmp(gen, "uniform")) {
        for (uint32_t i = 0; i < n; i++)
            for (uint32_t j = 0; j < n; j++)
                w[(size_t)i * n + j] = i == j ? 0 : mean;
    } else if (!strcmp(gen, "random")) {
        for (size_t q = 0; q < (size_t)n * n; q++)
            w[q] = below(&rng, 2 * mean + 1);
    } else if (!strcmp(gen, "hotspot")) {
        uint32_t *perm = malloc((size_t)n * sizeof *perm);
        if (!perm) {
            totex_demand_free(d);
            totex_fail(err, TOTEX_ENOMEM, "out of memory generating a demand");
            return NULL;
        }
        shuffle(perm, n, &rng);
        for (uint32_t j = 0; j < n; j++)
            for (uint32_t i = 0; i < n; i++)
                w[(size_t)i * n + j] = mean;
        for (uint32_t h = 0; h < k; h++)
            for (uint32_t i = 0; i < n; i++)
                w[(size_t)i * n + perm[h]] = 8 * mean;
        free(perm);
    } else { /* zipf */
        uint32_t *perm = malloc((size_t)n * sizeof *perm);
        double *pop = malloc((size_t)n * sizeof *pop);
        if (!perm || !pop) {
            free(perm);
            free(pop);
            totex_demand_free(d);
            totex_fail(err, TOTEX_ENOMEM, "out of memory generating a demand");
            return NULL;
        }
        shuffle(perm, n, &rng);
        double all = 0;
        for (uint32_t r = 0; r < n; r++) {
            pop[perm[r]] = pow((double)(r + 1), -s);
            all += pop[perm[r]];
        }
        for (uint32_t i = 0; i < n; i++) {
            double others = all - pop[i], row = (double)mean * (double)(n - 1);
            for (uint32_t j = 0; j < n; j++)
                w[(size_t)i * n + j] = others > 0 ? (uint64_t)llround(row * pop[j] / others) : 0;
        }
        free(perm);
        free(pop);
    }
    for (uint32_t i = 0; i < n; i++)
        w[(size_t)i * n + i] = 0;
    if (!strcmp(gen, "uniform"))
        snprintf(d->what, sizeof d->what, "%.100s", text);
    else
        snprintf(d->what, sizeof d->what, "%.100s seed %" PRIu64, text, seed);
    return d;
}

totex_demand *totex_demand_parse(const char *text, uint32_t n, uint64_t seed, totex_error *err)
{
    if (!text || !*text) {
        totex_fail(err, TOTEX_EINVAL, "--demand needs a generator (uniform:M, zipf:S:M, hotspot:K:M, random:M) or a file");
        return NULL;
    }
    if (n < 1 || n > TOTEX_DEMAND_MAX_NODES) {
        totex_fail(err, TOTEX_EINVAL, "demand matrices are for networks of at most %u nodes; this one has %" PRIu32,
                   TOTEX_DEMAND_MAX_NODES, n);
        return NULL;
    }
    const char *colon = strchr(text, ':');
    if (colon && colon - text < 16 && strncmp(text, "file:", 5)) {
        totex_error e2 = {{0}};
        totex_demand *d = generate(text, n, seed, &e2);
        if (d)
            return d;
        if (e2.msg[0]) {
            if (err)
                *err = e2;
            return NULL;
        }
    }
    return totex_demand_read(!strncmp(text, "file:", 5) ? text + 5 : text, n, err);
}
