/*
 * The topology spec parser: "ring:7*path:5*complete:4", "torus:4x4x4",
 * "mesh:16x32", "hypercube:10", "ghc:4x4", "file:g.graphml", presets.
 * Every rejection names the offending text and how to fix it.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "network/network_impl.h"
#include "totex/machines.h"

#define GRAMMAR_HINT "expected path:M, ring:M, complete:M, k2, file:PATH, torus:AxB.., mesh:AxB.., hypercube:D, ghc:AxB.. or a preset (see `totex machines`)"

typedef struct parse_state {
    totex_network *net;
    const char *whole; /* the spec as quoted in messages (shortened when long) */
    char shown[96];
    totex_error *err;
    int depth;
} parse_state;

/* Parse a decimal size in [lo, hi] from s[0..len). */
static totex_status parse_size(parse_state *ps, const char *tok, const char *s, size_t len, uint32_t lo,
                               uint32_t hi, const char *what, uint32_t *out)
{
    uint64_t v = 0;
    if (len == 0)
        return totex_fail(ps->err, TOTEX_EINVAL, "bad spec '%s': '%.40s' is missing its size; write e.g. %s",
                          ps->whole, tok, what);
    for (size_t i = 0; i < len; i++) {
        if (!isdigit((unsigned char)s[i]))
            return totex_fail(ps->err, TOTEX_EINVAL,
                              "bad spec '%s': size '%.*s' in '%.40s' is not a whole number; write e.g. %s",
                              ps->whole, (int)(len > 20 ? 20 : len), s, tok, what);
        v = v * 10 + (uint64_t)(s[i] - '0');
        if (v > UINT32_MAX)
            break;
    }
    if (v < lo || v > hi)
        return totex_fail(ps->err, TOTEX_EINVAL,
                          "bad spec '%s': size %.*s%s in '%.40s' is out of range: it must be between %u and %u (e.g. %s)",
                          ps->whole, (int)(len > 20 ? 20 : len), s, len > 20 ? "..." : "", tok, lo, hi, what);
    *out = (uint32_t)v;
    return TOTEX_OK;
}

static totex_status add_factor(parse_state *ps, totex_factor *f)
{
    totex_network *net = ps->net;
    if (!f)
        return TOTEX_ENOMEM;
    if (net->k >= TOTEX_MAX_DIMS) {
        totex_factor_free(f);
        return totex_fail(ps->err, TOTEX_EINVAL, "bad spec '%s': more than %d dimensions; totex supports at most %d",
                          ps->whole, TOTEX_MAX_DIMS, TOTEX_MAX_DIMS);
    }
    uint64_t n = (uint64_t)(net->k ? net->n : 1) * totex_factor_nodes(f);
    if (n > UINT32_MAX) {
        totex_factor_free(f);
        return totex_fail(ps->err, TOTEX_EOVERFLOW,
                          "bad spec '%s': the product has more than 2^32-1 nodes (its n^2 messages would overflow); use fewer or smaller dimensions",
                          ps->whole);
    }
    net->stride[net->k] = net->k ? net->n : 1;
    net->m[net->k] = totex_factor_nodes(f);
    net->f[net->k++] = f;
    net->n = (uint32_t)n;
    return TOTEX_OK;
}

static totex_status add_basic(parse_state *ps, totex_factor_kind kind, uint32_t m)
{
    if (m == 2 && (kind == TOTEX_FACTOR_RING || kind == TOTEX_FACTOR_COMPLETE))
        kind = TOTEX_FACTOR_K2; /* ring:2 and complete:2 are the single link K2 */
    return add_factor(ps, totex_factor_new_basic(kind, m, ps->err));
}

/* "AxBxC" list of sizes, each factor of the given kind. */
static totex_status add_list(parse_state *ps, const char *tok, const char *s, size_t len, totex_factor_kind kind,
                             const char *example)
{
    size_t start = 0;
    if (len == 0)
        return totex_fail(ps->err, TOTEX_EINVAL, "bad spec '%s': '%.40s' is missing its sides; write e.g. %s",
                          ps->whole, tok, example);
    for (size_t i = 0; i <= len; i++) {
        if (i == len || s[i] == 'x' || s[i] == 'X') {
            uint32_t m;
            totex_status st = parse_size(ps, tok, s + start, i - start, 2, TOTEX_FACTOR_MAX_NODES, example, &m);
            if (st != TOTEX_OK)
                return st;
            st = add_basic(ps, kind, m);
            if (st != TOTEX_OK)
                return st;
            start = i + 1;
        }
    }
    return TOTEX_OK;
}

static totex_status parse_term(parse_state *ps, const char *tok);

static totex_status parse_product(parse_state *ps, const char *spec)
{
    size_t len = strlen(spec);
    char *copy = malloc(len + 1);
    totex_status st = TOTEX_OK;
    size_t start = 0;
    if (!copy)
        return totex_fail(ps->err, TOTEX_ENOMEM, "out of memory parsing spec");
    memcpy(copy, spec, len + 1);
    for (size_t i = 0; i <= len && st == TOTEX_OK; i++) {
        if (i == len || copy[i] == '*') {
            copy[i] = '\0';
            char *tok = copy + start;
            char *end = copy + i;
            while (*tok && isspace((unsigned char)*tok))
                tok++;
            while (end > tok && isspace((unsigned char)end[-1]))
                *--end = '\0';
            if (*tok == '\0')
                st = totex_fail(ps->err, TOTEX_EINVAL,
                                "bad spec '%s': empty factor (two '*' in a row or a '*' at an end); write factors joined by '*', e.g. path:2*ring:3",
                                ps->whole);
            else
                st = parse_term(ps, tok);
            start = i + 1;
        }
    }
    free(copy);
    return st;
}

static totex_status parse_term(parse_state *ps, const char *tok)
{
    const char *colon = strchr(tok, ':');
    size_t klen = colon ? (size_t)(colon - tok) : strlen(tok);
    const char *arg = colon ? colon + 1 : "";
    size_t alen = strlen(arg);
    uint32_t m;
    totex_status st;

#define KEY(word) (klen == strlen(word) && strncmp(tok, word, klen) == 0)
    if (!colon) {
        const totex_machine *mc = totex_machine_find(tok);
        if (KEY("k2"))
            return add_basic(ps, TOTEX_FACTOR_K2, 2);
        if (mc) {
            if (ps->depth > 4)
                return totex_fail(ps->err, TOTEX_EINVAL, "bad spec '%s': presets nest too deeply", ps->whole);
            ps->depth++;
            st = parse_product(ps, mc->spec);
            ps->depth--;
            return st;
        }
        return totex_fail(ps->err, TOTEX_EINVAL, "bad spec '%s': unknown factor '%.40s'; " GRAMMAR_HINT, ps->whole, tok);
    }
    if (KEY("path") || KEY("line") || KEY("array")) {
        if ((st = parse_size(ps, tok, arg, alen, 2, TOTEX_FACTOR_MAX_NODES, "path:8", &m)) != TOTEX_OK)
            return st;
        return add_basic(ps, TOTEX_FACTOR_PATH, m);
    }
    if (KEY("ring")) {
        if ((st = parse_size(ps, tok, arg, alen, 2, TOTEX_FACTOR_MAX_NODES, "ring:8", &m)) != TOTEX_OK)
            return st;
        return add_basic(ps, TOTEX_FACTOR_RING, m);
    }
    if (KEY("complete")) {
        if ((st = parse_size(ps, tok, arg, alen, 2, TOTEX_FACTOR_MAX_NODES, "complete:4", &m)) != TOTEX_OK)
            return st;
        return add_basic(ps, TOTEX_FACTOR_COMPLETE, m);
    }
    if (KEY("k2"))
        return totex_fail(ps->err, TOTEX_EINVAL, "bad spec '%s': k2 takes no size (it is the 2-node link); write k2",
                          ps->whole);
    if (KEY("torus"))
        return add_list(ps, tok, arg, alen, TOTEX_FACTOR_RING, "torus:4x4x4");
    if (KEY("mesh"))
        return add_list(ps, tok, arg, alen, TOTEX_FACTOR_PATH, "mesh:16x32");
    if (KEY("ghc"))
        return add_list(ps, tok, arg, alen, TOTEX_FACTOR_COMPLETE, "ghc:4x4");
    if (KEY("hypercube")) {
        if ((st = parse_size(ps, tok, arg, alen, 1, 31, "hypercube:10", &m)) != TOTEX_OK)
            return st;
        for (uint32_t i = 0; i < m; i++)
            if ((st = add_basic(ps, TOTEX_FACTOR_K2, 2)) != TOTEX_OK)
                return st;
        return TOTEX_OK;
    }
    if (KEY("file")) {
        if (alen == 0)
            return totex_fail(ps->err, TOTEX_EINVAL,
                              "bad spec '%s': file: needs a path, e.g. file:mygraph.graphml", ps->whole);
        totex_factor *f = totex_factor_new_file(arg, ps->err);
        if (!f)
            return TOTEX_EIO;
        return add_factor(ps, f);
    }
#undef KEY
    return totex_fail(ps->err, TOTEX_EINVAL, "bad spec '%s': unknown factor kind '%.*s'; " GRAMMAR_HINT, ps->whole,
                      (int)(klen > 40 ? 40 : klen), tok);
}

totex_network *totex_network_parse(const char *spec, totex_error *err)
{
    parse_state ps;
    totex_network *net;
    if (!spec) {
        totex_fail(err, TOTEX_EINVAL, "no spec given; " GRAMMAR_HINT);
        return NULL;
    }
    if (strlen(spec) > 4096) {
        totex_fail(err, TOTEX_EINVAL, "spec is longer than 4096 characters; use shorthands such as torus:4x4x4");
        return NULL;
    }
    for (const char *c = spec; *c; c++) {
        if (iscntrl((unsigned char)*c)) {
            totex_fail(err, TOTEX_EINVAL,
                       "spec contains a control character (code %d) at position %zu: remove it; a spec is factors joined by '*', e.g. torus:4x4x4",
                       (unsigned char)*c, (size_t)(c - spec));
            return NULL;
        }
    }
    net = calloc(1, sizeof *net);
    if (!net) {
        totex_fail(err, TOTEX_ENOMEM, "out of memory");
        return NULL;
    }
    ps.net = net;
    if (strlen(spec) > 80) {
        snprintf(ps.shown, sizeof ps.shown, "%.60s...(%zu characters)", spec, strlen(spec));
        ps.whole = ps.shown;
    } else {
        ps.whole = spec;
    }
    ps.err = err;
    ps.depth = 0;
    if (parse_product(&ps, spec) != TOTEX_OK) {
        totex_network_free(net);
        return NULL;
    }
    /* canonical spec: factor names joined by '*' */
    size_t len = 1;
    for (uint32_t i = 0; i < net->k; i++)
        len += strlen(totex_factor_name(net->f[i])) + 1;
    net->spec = malloc(len);
    if (!net->spec) {
        totex_network_free(net);
        totex_fail(err, TOTEX_ENOMEM, "out of memory");
        return NULL;
    }
    net->spec[0] = '\0';
    for (uint32_t i = 0; i < net->k; i++) {
        if (i)
            strcat(net->spec, "*");
        strcat(net->spec, totex_factor_name(net->f[i]));
    }
    return net;
}
