/*
 * Import of combining schedules (include/totex/combining.h,
 * docs/schedule-format.md), memory bounded by the file.
 *
 * A streaming reader instead of a JSON tree: the text is scanned in place by
 * the JSON lexer of src/common/jlex.h (its in-memory mode), three times and with no allocation but the result:
 *   1. syntax of the whole text (truncated / malformed JSON with the byte
 *      offset, nesting at most IMPORT_DEPTH), and where each top-level key's
 *      value lies;
 *   2. the keys, types, ids and limits of the header and of every step,
 *      counting the steps, transfers and blocks the file declares;
 *   3. filling a schedule allocated once to exactly those counts.
 * So the peak is the text plus the schedule (8 bytes per block, 24 per
 * transfer and per step, each smaller than the shortest JSON that declares
 * it: "[0,1]," is 6 bytes, 24 bytes against "{\"from\":0,\"to\":1,\"blocks\":[]}"),
 * where a json-c tree of the same file took 48 times the file (772 MB for a
 * 16 MB file of block pairs, 3.2 GB for 96 MB of empty steps).
 * Unknown keys are skipped; a key given twice in a step or a transfer is an
 * error (the top level keeps the last, as JSON readers commonly do).
 */
#include "totex/combining.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/file.h"
#include "common/jlex.h"

/* JSON nesting: root > steps > step > transfers > transfer > blocks > pair is 7 */
#define IMPORT_DEPTH 10

/* ---- lexer ------------------------------------------------------------------ */

/* the next token (src/common/jlex.h); J_EOF at the end of the text, also when a
   token is cut by the end (the scanners below set cut_eof) */
#define next jscan_next

static int is_digit(char c) { return c >= '0' && c <= '9'; }

static int hex4(const char *p)
{
    int v = 0;
    for (int i = 0; i < 4; i++) {
        char c = p[i];
        v <<= 4;
        if (is_digit(c))
            v |= c - '0';
        else if (c >= 'a' && c <= 'f')
            v |= c - 'a' + 10;
        else if (c >= 'A' && c <= 'F')
            v |= c - 'A' + 10;
        else
            return -1;
    }
    return v;
}

/* ---- pass 1: syntax, and where the top-level values lie ---------------------- */

typedef struct jval {
    int present;
    jtoken first;          /* the value's first token (its type) */
    size_t start, end;   /* the value's bytes */
} jval;

enum { K_FORMAT, K_VERSION, K_ALGORITHM, K_MODEL, K_NETWORK, K_NODES, K_STEPS, K_COUNT };
static const char *const top_keys[K_COUNT] = {"format", "version", "algorithm", "model", "network", "nodes", "steps"};

typedef struct syntax_error {
    int truncated;
    size_t at;
    const char *why;
} syntax_error;

/* validate one value whose first token is @p t; on success the lexer is past it */
static int skip_value(jscan *lx, jtoken t, int depth, syntax_error *se)
{
    switch (t.kind) {
    case J_STRING:
    case J_NUMBER:
    case J_TRUE:
    case J_FALSE:
    case J_NULL: return 1;
    case J_LBRACE:
    case J_LBRACKET: {
        int obj = t.kind == J_LBRACE;
        if (depth + 1 > IMPORT_DEPTH) {
            se->at = t.at;
            se->why = "nesting deeper than 10 levels";
            return 0;
        }
        jtoken u = next(lx);
        if (u.kind == (obj ? J_RBRACE : J_RBRACKET))
            return 1;
        for (;;) {
            if (obj) {
                if (u.kind != J_STRING)
                    goto unexpected;
                u = next(lx);
                if (u.kind != J_COLON)
                    goto unexpected;
                u = next(lx);
            }
            if (!skip_value(lx, u, depth + 1, se))
                return 0;
            u = next(lx);
            if (u.kind == (obj ? J_RBRACE : J_RBRACKET))
                return 1;
            if (u.kind != J_COMMA)
                goto unexpected;
            u = next(lx);
        }
    unexpected:
        t = u;
        break;
    }
    default: break;
    }
    if (t.kind == J_EOF) {
        se->truncated = 1;
        return 0;
    }
    se->at = t.at;
    se->why = t.kind == J_ERROR ? lx->why : "an unexpected token";
    return 0;
}

/* decode the JSON string token @p t into @p out (cap >= 1): UTF-8, NUL-terminated,
   cut to fit; *len (if non-NULL) gets the full decoded length, *nul whether it holds U+0000 */
static void decode_string(const char *s, jtoken t, char *out, size_t cap, size_t *len, int *nul)
{
    size_t o = 0, full = 0;
    int has_nul = 0;
    for (size_t p = t.at + 1; p + 1 < t.at + t.len; p++) {
        char buf[4];
        size_t k = 1;
        buf[0] = s[p];
        if (s[p] == '\\') {
            char e = s[++p];
            switch (e) {
            case 'b': buf[0] = '\b'; break;
            case 'f': buf[0] = '\f'; break;
            case 'n': buf[0] = '\n'; break;
            case 'r': buf[0] = '\r'; break;
            case 't': buf[0] = '\t'; break;
            case 'u': {
                unsigned v = (unsigned)hex4(s + p + 1);
                p += 4;
                if (v >= 0xd800 && v < 0xdc00 && s[p + 1] == '\\' && s[p + 2] == 'u') {
                    int lo = hex4(s + p + 3);
                    if (lo >= 0xdc00 && lo < 0xe000) {
                        v = 0x10000 + ((v - 0xd800) << 10) + ((unsigned)lo - 0xdc00);
                        p += 6;
                    }
                }
                if (v == 0)
                    has_nul = 1;
                if (v < 0x80) {
                    buf[0] = (char)v;
                } else if (v < 0x800) {
                    buf[0] = (char)(0xc0 | (v >> 6));
                    buf[1] = (char)(0x80 | (v & 0x3f));
                    k = 2;
                } else if (v < 0x10000) {
                    buf[0] = (char)(0xe0 | (v >> 12));
                    buf[1] = (char)(0x80 | ((v >> 6) & 0x3f));
                    buf[2] = (char)(0x80 | (v & 0x3f));
                    k = 3;
                } else {
                    buf[0] = (char)(0xf0 | (v >> 18));
                    buf[1] = (char)(0x80 | ((v >> 12) & 0x3f));
                    buf[2] = (char)(0x80 | ((v >> 6) & 0x3f));
                    buf[3] = (char)(0x80 | (v & 0x3f));
                    k = 4;
                }
                break;
            }
            default: buf[0] = e; break; /* \" \\ \/ */
            }
        }
        for (size_t i = 0; i < k; i++, full++)
            if (o + 1 < cap)
                out[o++] = buf[i];
    }
    out[o] = '\0';
    if (len)
        *len = full;
    if (nul)
        *nul = has_nul;
}

/* a key compared with @p name (keys longer than 31 bytes match nothing) */
static int key_is(const char *s, jtoken key, const char *name)
{
    char k[32];
    size_t len = strlen(name);
    if (key.len == len + 2 && !memchr(s + key.at + 1, '\\', len)) /* no escapes: compare in place */
        return !memcmp(s + key.at + 1, name, len);
    decode_string(s, key, k, sizeof k, &len, NULL);
    return len < sizeof k && !strcmp(k, name);
}

static totex_status syntax_fail(const syntax_error *se, size_t len, totex_error *err)
{
    if (se->truncated)
        return totex_fail(err, TOTEX_EIO, "schedule: truncated JSON (the text ends inside a value at byte %zu)", len);
    return totex_fail(err, TOTEX_EIO, "schedule: malformed JSON at byte %zu: %s", se->at, se->why);
}

/* pass 1: the whole text is one JSON value; if it is an object, where each known key's value lies */
static totex_status scan_top(const char *text, size_t len, jval *top, jtoken *root, totex_error *err)
{
    jscan lx;
    jscan_init_mem(&lx, text, len, 0);
    lx.cut_eof = 1;
    syntax_error se = {0, 0, NULL};
    jtoken t = next(&lx);
    *root = t;
    memset(top, 0, K_COUNT * sizeof *top);
    if (t.kind != J_LBRACE) {
        if (!skip_value(&lx, t, 0, &se))
            return syntax_fail(&se, len, err);
    } else {
        jtoken u = next(&lx);
        if (u.kind != J_RBRACE)
            for (;;) {
                jtoken key = u;
                if (key.kind != J_STRING || (u = next(&lx)).kind != J_COLON) {
                    if (key.kind != J_STRING)
                        u = key;
                    se.truncated = u.kind == J_EOF;
                    se.at = u.at;
                    se.why = u.kind == J_ERROR ? lx.why : "an unexpected token";
                    return syntax_fail(&se, len, err);
                }
                jtoken v = next(&lx);
                size_t start = v.at;
                if (!skip_value(&lx, v, 1, &se))
                    return syntax_fail(&se, len, err);
                for (int k = 0; k < K_COUNT; k++)
                    if (key_is(text, key, top_keys[k])) {
                        top[k].present = 1;
                        top[k].first = v;
                        top[k].start = start;
                        top[k].end = lx.pos;
                    }
                u = next(&lx);
                if (u.kind == J_RBRACE)
                    break;
                if (u.kind != J_COMMA || (u = next(&lx)).kind == J_RBRACE) {
                    se.truncated = u.kind == J_EOF;
                    se.at = u.at;
                    se.why = u.kind == J_ERROR ? lx.why : "an unexpected token";
                    return syntax_fail(&se, len, err);
                }
            }
    }
    t = next(&lx);
    if (t.at < len) /* anything but white space, even a token cut by the end */
        return totex_fail(err, TOTEX_EIO, "schedule: malformed JSON: data after the top-level value at byte %zu", t.at);
    return TOTEX_OK;
}

/* ---- values ------------------------------------------------------------------ */

static const char *type_name(jtoken t)
{
    switch (t.kind) {
    case J_NULL: return "null";
    case J_TRUE:
    case J_FALSE: return "a boolean";
    case J_NUMBER: return t.whole ? "a whole number" : "a fractional number";
    case J_LBRACE: return "an object";
    case J_LBRACKET: return "an array";
    case J_STRING: return "a string";
    default: return "an unknown type";
    }
}

/* the value's text as written, cut to 40 bytes, for messages */
static const char *shown(const char *s, jtoken t, char *buf, size_t cap)
{
    size_t n = t.len < cap - 1 ? t.len : cap - 1;
    for (size_t i = 0; i < n; i++)
        buf[i] = ((unsigned char)s[t.at + i] < 0x20 || s[t.at + i] == 0x7f) ? '?' : s[t.at + i];
    buf[n] = '\0';
    return buf;
}

/* a whole-number token's value, saturated at INT64_MIN / INT64_MAX */
static int64_t whole_value(const char *s, jtoken t)
{
    (void)s; /* the lexer has the value (src/common/jlex.h) */
    if (t.neg)
        return t.over ? INT64_MIN : (int64_t)(0 - t.mag);
    return t.over ? INT64_MAX : (int64_t)t.mag;
}

/* a whole number in [lo, hi] at path `what` */
static totex_status get_uint(const char *s, jtoken t, const char *what, int64_t lo, int64_t hi, int64_t *out,
                             totex_error *err)
{
    char buf[48];
    int64_t v;
    if (t.kind != J_NUMBER || !t.whole)
        return totex_fail(err, TOTEX_EINVAL, "schedule: %s must be a whole number, not %s", what, type_name(t));
    v = whole_value(s, t);
    if (v < lo || v > hi)
        return totex_fail(err, TOTEX_EINVAL, "schedule: %s = %s is out of range %lld..%lld", what,
                          shown(s, t, buf, sizeof buf), (long long)lo, (long long)hi);
    *out = v;
    return TOTEX_OK;
}

/* the hot path of get_uint(): 1 with *out if @p t is a whole number in 0..hi (no message built) */
static int fast_uint(const char *s, jtoken t, int64_t hi, int64_t *out)
{
    if (t.kind == J_NUMBER && t.whole) {
        int64_t v = whole_value(s, t);
        if (v >= 0 && v <= hi) {
            *out = v;
            return 1;
        }
    }
    return 0;
}

static totex_status missing(const char *key, const char *where, totex_error *err)
{
    return totex_fail(err, TOTEX_EINVAL, "schedule: missing key \"%s\" in %s", key, where);
}

static totex_status wrong_type(const char *path, const char *want, jtoken t, totex_error *err)
{
    return totex_fail(err, TOTEX_EINVAL, "schedule: %s must be %s, not %s", path, want, type_name(t));
}

/* ---- the header -------------------------------------------------------------- */

static totex_status parse_model(const char *text, const jval *model, totex_comb_cost *c, totex_error *err)
{
    static const char *const keys[] = {"t_s", "t_c", "t_l", "rho", "m", "switching", "ports"};
    enum { NKEYS = sizeof keys / sizeof keys[0] };
    jtoken val[NKEYS];
    int have[NKEYS] = {0};
    double *fields[] = {&c->t_s, &c->t_c, &c->t_l, &c->rho, &c->m};
    char str[32], buf[48];
    jscan lx;
    jscan_init_mem(&lx, text, model->end, model->start);
    lx.cut_eof = 1;
    jtoken t, key;
    if (!model->present)
        return missing("model", "the top level", err);
    t = next(&lx);
    if (t.kind != J_LBRACE)
        return wrong_type("model", "an object", t, err);
    totex_comb_cost_default(c);
    /* syntax was checked in pass 1: walk the members */
    while ((key = next(&lx)).kind == J_STRING) {
        next(&lx); /* ':' */
        jtoken v = next(&lx);
        syntax_error se;
        for (int k = 0; k < NKEYS; k++)
            if (key_is(text, key, keys[k])) {
                have[k] = 1;
                val[k] = v;
            }
        skip_value(&lx, v, 2, &se);
        if (next(&lx).kind != J_COMMA)
            break;
    }
    for (int k = 0; k < NKEYS; k++) {
        if (!have[k])
            return missing(keys[k], "model", err);
        char path[32];
        snprintf(path, sizeof path, "model.%s", keys[k]);
        if (k < 5) {
            if (val[k].kind != J_NUMBER)
                return wrong_type(path, "a number", val[k], err);
            errno = 0;
            double d = strtod(text + val[k].at, NULL);
            if (!isfinite(d) || d < 0 || (k == 4 && d <= 0))
                return totex_fail(err, TOTEX_EINVAL, "schedule: model.%s = %s must be a finite number %s 0", keys[k],
                                  shown(text, val[k], buf, sizeof buf), k == 4 ? ">" : ">=");
            *fields[k] = d;
        } else if (val[k].kind != J_STRING) {
            return wrong_type(path, "a string", val[k], err);
        }
    }
    decode_string(text, val[5], str, sizeof str, NULL, NULL);
    if (!strcmp(str, "wormhole"))
        c->switching = TOTEX_SWITCH_WORMHOLE;
    else if (!strcmp(str, "store-and-forward"))
        c->switching = TOTEX_SWITCH_STORE_FORWARD;
    else
        return totex_fail(err, TOTEX_EINVAL, "schedule: model.switching must be \"wormhole\" or \"store-and-forward\"");
    decode_string(text, val[6], str, sizeof str, NULL, NULL);
    if (!strcmp(str, "one"))
        c->ports = TOTEX_PORTS_SINGLE;
    else if (!strcmp(str, "all"))
        c->ports = TOTEX_PORTS_MULTI;
    else
        return totex_fail(err, TOTEX_EINVAL, "schedule: model.ports must be \"one\" or \"all\"");
    return TOTEX_OK;
}

/* ---- passes 2 and 3: the steps ------------------------------------------------ */

typedef struct counts {
    uint64_t steps, transfers, blocks, max_blocks; /* max_blocks: in one transfer */
} counts;

/*
 * Walk the steps array (its syntax checked by pass 1). Without @p fill:
 * check every key, type, id and limit and count into @p cnt. With @p fill:
 * append every step and transfer to it, using @p buf (max_blocks blocks) to
 * gather a transfer's blocks.
 */
static totex_status walk_steps(const char *text, const jval *steps, uint32_t n, counts *cnt,
                               totex_comb_schedule *fill, totex_block *buf, totex_error *err)
{
    const int64_t pairs = (int64_t)n * (n - 1);
    jscan lx;
    jscan_init_mem(&lx, text, steps->end, steps->start);
    lx.cut_eof = 1;
    jtoken t = next(&lx);
    char where[64], tw[128], path[320];
    /* paths for messages, written only when there is an error to report */
#define WHERE (snprintf(where, sizeof where, "steps[%llu]", (unsigned long long)i), where)
#define TW                                                                                                             \
    (snprintf(tw, sizeof tw, "steps[%llu].transfers[%llu]", (unsigned long long)i, (unsigned long long)j), tw)
    totex_status st;
    int64_t x;
    if (t.kind != J_LBRACKET)
        return wrong_type("steps", "an array", t, err);
    memset(cnt, 0, sizeof *cnt);
    t = next(&lx);
    for (uint64_t i = 0; t.kind != J_RBRACKET; i++, t = next(&lx)) {
        if (t.kind == J_COMMA)
            t = next(&lx);
        if (i >= TOTEX_COMB_IMPORT_MAX_STEPS)
            return totex_fail(err, TOTEX_EINVAL, "schedule: more than %llu steps: at most %llu are accepted",
                              (unsigned long long)TOTEX_COMB_IMPORT_MAX_STEPS,
                              (unsigned long long)TOTEX_COMB_IMPORT_MAX_STEPS);
        if (t.kind != J_LBRACE)
            return wrong_type(WHERE, "an object", t, err);
        if (fill && (st = totex_comb_begin_step(fill, err)) != TOTEX_OK)
            return st;
        cnt->steps++;
        int have_re = 0, have_tr = 0;
        jtoken key;
        while ((key = next(&lx)).kind == J_STRING) {
            next(&lx); /* ':' */
            jtoken v = next(&lx);
            if (key_is(text, key, "rearranged")) {
                if (have_re++)
                    return totex_fail(err, TOTEX_EINVAL, "schedule: duplicate key \"rearranged\" in %s", WHERE);
                if (!fast_uint(text, v, INT64_C(1) << 53, &x)) {
                    snprintf(path, sizeof path, "%s.rearranged", WHERE);
                    return get_uint(text, v, path, 0, INT64_C(1) << 53, &x, err);
                }
                if (fill && x && (st = totex_comb_rearrange(fill, (uint64_t)x, err)) != TOTEX_OK)
                    return st;
            } else if (key_is(text, key, "transfers")) {
                if (have_tr++)
                    return totex_fail(err, TOTEX_EINVAL, "schedule: duplicate key \"transfers\" in %s", WHERE);
                if (v.kind != J_LBRACKET) {
                    snprintf(path, sizeof path, "%s.transfers", WHERE);
                    return wrong_type(path, "an array", v, err);
                }
                jtoken u = next(&lx);
                for (uint64_t j = 0; u.kind != J_RBRACKET; j++, u = next(&lx)) {
                    if (u.kind == J_COMMA)
                        u = next(&lx);
                    if ((int64_t)j >= pairs)
                        return totex_fail(err, TOTEX_EINVAL, "schedule: %s has more than %lld transfers: at most n(n-1) = %lld",
                                          WHERE, (long long)pairs, (long long)pairs);
                    if (u.kind != J_LBRACE)
                        return wrong_type(TW, "an object", u, err);
                    int have_from = 0, have_to = 0, have_bl = 0;
                    int64_t from = 0, to = 0;
                    size_t nb = 0;
                    jtoken k2;
                    while ((k2 = next(&lx)).kind == J_STRING) {
                        next(&lx); /* ':' */
                        jtoken w = next(&lx);
                        int which = key_is(text, k2, "from") ? 1 : key_is(text, k2, "to") ? 2
                                                              : key_is(text, k2, "blocks") ? 3 : 0;
                        if ((which == 1 && have_from++) || (which == 2 && have_to++) || (which == 3 && have_bl++))
                            return totex_fail(err, TOTEX_EINVAL, "schedule: duplicate key \"%s\" in %s",
                                              which == 1 ? "from" : which == 2 ? "to" : "blocks", TW);
                        if ((which == 1 || which == 2) && !fast_uint(text, w, (int64_t)n - 1, which == 1 ? &from : &to)) {
                            snprintf(path, sizeof path, "%s.%s", TW, which == 1 ? "from" : "to");
                            if (w.kind != J_NUMBER || !w.whole)
                                return wrong_type(path, "a whole number", w, err);
                            snprintf(path, sizeof path, "%s.%s (node id)", TW, which == 1 ? "from" : "to");
                            return get_uint(text, w, path, 0, (int64_t)n - 1, &x, err);
                        } else if (which == 3) {
                            if (w.kind != J_LBRACKET) {
                                snprintf(path, sizeof path, "%s.blocks", TW);
                                return wrong_type(path, "an array", w, err);
                            }
                            jtoken p = next(&lx);
                            for (; p.kind != J_RBRACKET; p = next(&lx)) {
                                if (p.kind == J_COMMA)
                                    p = next(&lx);
                                if ((int64_t)nb >= pairs)
                                    return totex_fail(err, TOTEX_EINVAL,
                                                      "schedule: %s has more than %lld blocks: at most n(n-1) = %lld", TW,
                                                      (long long)pairs, (long long)pairs);
                                int64_t id[2];
                                size_t e = 0;
                                jtoken q = p.kind == J_LBRACKET ? next(&lx) : p;
                                if (p.kind == J_LBRACKET)
                                    for (; q.kind != J_RBRACKET; q = next(&lx)) {
                                        if (q.kind == J_COMMA)
                                            q = next(&lx);
                                        if (e < 2) {
                                            /* the hot path: the message's path is written only on an error */
                                            int64_t idv = q.kind == J_NUMBER && q.whole ? whole_value(text, q) : -1;
                                            if (idv >= 0 && idv < (int64_t)n) {
                                                id[e] = idv;
                                            } else {
                                                snprintf(path, sizeof path, "%s.blocks[%zu][%zu] (%s node id)", TW, nb,
                                                         e, e ? "dst" : "src");
                                                if ((st = get_uint(text, q, path, 0, (int64_t)n - 1, &id[e], err)) !=
                                                    TOTEX_OK)
                                                    return st;
                                            }
                                        } else {
                                            syntax_error se;
                                            skip_value(&lx, q, 6, &se);
                                        }
                                        e++;
                                    }
                                if (p.kind != J_LBRACKET || e != 2) {
                                    char sb[48];
                                    if (p.kind != J_LBRACKET) {
                                        syntax_error se;
                                        skip_value(&lx, p, 5, &se);
                                    }
                                    return totex_fail(err, TOTEX_EINVAL,
                                                      "schedule: %s.blocks[%zu] must be a pair [src, dst] of node ids, not %s%s",
                                                      TW, nb, p.kind == J_LBRACKET ? "an array of " : "",
                                                      p.kind == J_LBRACKET ? (snprintf(sb, sizeof sb, "%zu values", e), sb)
                                                                         : type_name(p));
                                }
                                if (fill) {
                                    buf[nb].src = (uint32_t)id[0];
                                    buf[nb].dst = (uint32_t)id[1];
                                }
                                nb++;
                            }
                        } else if (which == 0) { /* an unknown key */
                            syntax_error se;
                            skip_value(&lx, w, 5, &se);
                        }
                        if (next(&lx).kind != J_COMMA)
                            break;
                    }
                    if (!have_from)
                        return missing("from", TW, err);
                    if (!have_to)
                        return missing("to", TW, err);
                    if (!have_bl)
                        return missing("blocks", TW, err);
                    if (fill && (st = totex_comb_add_transfer(fill, (uint32_t)from, (uint32_t)to, buf, nb, err)) !=
                                    TOTEX_OK)
                        return st;
                    cnt->transfers++;
                    cnt->blocks += nb;
                    if (nb > cnt->max_blocks)
                        cnt->max_blocks = nb;
                }
            } else {
                syntax_error se;
                skip_value(&lx, v, 3, &se);
            }
            if (next(&lx).kind != J_COMMA)
                break;
        }
        if (!have_re)
            return missing("rearranged", WHERE, err);
        if (!have_tr)
            return missing("transfers", WHERE, err);
    }
    return TOTEX_OK;
#undef WHERE
#undef TW
}

/* ---- the file ----------------------------------------------------------------- */

/* copy of s with control characters as '?', cut to fit len */
static void clean(char *out, size_t len, const char *s)
{
    size_t i = 0;
    for (; s && s[i] && i + 1 < len; i++)
        out[i] = ((unsigned char)s[i] < 0x20 || s[i] == 0x7f) ? '?' : s[i];
    out[i] = '\0';
}

void totex_comb_imported_free(totex_comb_imported *im)
{
    if (!im)
        return;
    totex_network_free(im->net);
    totex_comb_schedule_free(im->schedule);
    memset(im, 0, sizeof *im);
}

static totex_status import_header(const char *text, const jval *top, const char *network, totex_comb_imported *out,
                                  totex_error *err)
{
    char buf[48];
    totex_status st;
    const jval *v;
    int64_t x;
    v = &top[K_FORMAT];
    if (!v->present)
        return missing("format", "the top level", err);
    if (v->first.kind != J_STRING)
        return wrong_type("format", "a string", v->first, err);
    {
        char fmt[64];
        size_t len;
        decode_string(text, v->first, fmt, sizeof fmt, &len, NULL);
        if (len >= sizeof fmt || strcmp(fmt, TOTEX_COMB_FORMAT_NAME))
            return totex_fail(err, TOTEX_EINVAL, "schedule: format must be \"%s\"", TOTEX_COMB_FORMAT_NAME);
    }
    v = &top[K_VERSION];
    if (!v->present)
        return missing("version", "the top level", err);
    if (v->first.kind != J_NUMBER || !v->first.whole)
        return wrong_type("version", "a whole number", v->first, err);
    if (whole_value(text, v->first) != TOTEX_COMB_FORMAT_VERSION)
        return totex_fail(err, TOTEX_EINVAL, "schedule: version %s is not supported: only version %d is read",
                          shown(text, v->first, buf, sizeof buf), TOTEX_COMB_FORMAT_VERSION);
    v = &top[K_ALGORITHM];
    if (v->present) {
        char name[sizeof out->algorithm];
        if (v->first.kind != J_STRING)
            return wrong_type("algorithm", "a string", v->first, err);
        decode_string(text, v->first, name, sizeof name, NULL, NULL);
        clean(out->algorithm, sizeof out->algorithm, name);
    } else {
        snprintf(out->algorithm, sizeof out->algorithm, "unknown");
    }
    if ((st = parse_model(text, &top[K_MODEL], &out->cost, err)) != TOTEX_OK)
        return st;
    v = &top[K_NETWORK];
    if (!v->present)
        return missing("network", "the top level", err);
    if (v->first.kind != J_STRING)
        return wrong_type("network", "a string", v->first, err);
    {
        size_t len;
        int nul;
        char *spec = malloc(v->first.len);
        if (!spec)
            return totex_fail(err, TOTEX_ENOMEM, "out of memory reading a schedule");
        decode_string(text, v->first, spec, v->first.len, &len, &nul);
        if (nul) {
            free(spec);
            return totex_fail(err, TOTEX_EINVAL, "schedule: network spec contains a NUL character");
        }
        /* an untrusted file names networks, never paths: a graph file (file:PATH) is opened only when the user
           names the network: a file cannot make the reader open what the user did not name */
        if (!network && strstr(spec, "file:")) {
            char shown_spec[120];
            clean(shown_spec, sizeof shown_spec, spec);
            free(spec);
            return totex_fail(err, TOTEX_EINVAL,
                              "schedule: its network \"%s\" names a graph file, which totex does not open for a "
                              "schedule file; give the network yourself with --network SPEC", shown_spec);
        }
        out->net = totex_network_parse(network ? network : spec, err);
        free(spec);
        if (!out->net) {
            char msg[sizeof err->msg];
            if (err) {
                snprintf(msg, sizeof msg, "%s", err->msg);
                totex_fail(err, TOTEX_EINVAL, "schedule: network: %.450s", msg);
            }
            return TOTEX_EINVAL;
        }
    }
    uint32_t n = totex_network_nodes(out->net);
    v = &top[K_NODES];
    if (!v->present)
        return missing("nodes", "the top level", err);
    if ((st = get_uint(text, v->first, "nodes", 0, INT64_MAX, &x, err)) != TOTEX_OK)
        return st;
    if (x != (int64_t)n)
        return totex_fail(err, TOTEX_EINVAL, "schedule: nodes = %s does not match the network %.100s, which has %u",
                          shown(text, v->first, buf, sizeof buf), totex_network_spec(out->net), n);
    if ((uint64_t)n * n > TOTEX_COMB_MAX_BLOCKS)
        return totex_fail(err, TOTEX_ENOMEM,
                          "schedule: the network has %u nodes: the combining simulator takes n^2 <= %llu", n,
                          (unsigned long long)TOTEX_COMB_MAX_BLOCKS);
    if (!top[K_STEPS].present)
        return missing("steps", "the top level", err);
    return TOTEX_OK;
}

totex_status totex_comb_import_json(const char *text, size_t len, totex_comb_imported *out, totex_error *err)
{
    return totex_comb_import_json_on(text, len, NULL, out, err);
}

totex_status totex_comb_import_json_on(const char *text, size_t len, const char *network, totex_comb_imported *out,
                                       totex_error *err)
{
    jval top[K_COUNT];
    jtoken root;
    counts cnt;
    totex_block *buf = NULL;
    totex_status st;
    memset(out, 0, sizeof out[0]);
    if (len == 0)
        return totex_fail(err, TOTEX_EIO, "schedule: empty file (expected a JSON object)");
    if ((st = scan_top(text, len, top, &root, err)) != TOTEX_OK)
        return st;
    if (root.kind != J_LBRACE)
        return totex_fail(err, TOTEX_EINVAL, "schedule: the top level must be an object, not %s", type_name(root));
    if ((st = import_header(text, top, network, out, err)) != TOTEX_OK)
        goto done;
    uint32_t n = totex_network_nodes(out->net);
    /* pass 2: check and count what the file declares, allocating nothing */
    if ((st = walk_steps(text, &top[K_STEPS], n, &cnt, NULL, NULL, err)) != TOTEX_OK)
        goto done;
    /* pass 3: one allocation of exactly the counted steps, transfers and blocks */
    out->schedule = totex_comb_schedule_new();
    buf = cnt.max_blocks ? malloc(cnt.max_blocks * sizeof *buf) : NULL;
    if (!out->schedule || (cnt.max_blocks && !buf)) {
        st = totex_fail(err, TOTEX_ENOMEM, "out of memory reading a schedule of %llu blocks",
                        (unsigned long long)cnt.blocks);
        goto done;
    }
    if ((st = totex_comb_schedule_reserve(out->schedule, cnt.steps, cnt.transfers, cnt.blocks, err)) != TOTEX_OK)
        goto done;
    st = walk_steps(text, &top[K_STEPS], n, &cnt, out->schedule, buf, err);
done:
    free(buf);
    if (st != TOTEX_OK)
        totex_comb_imported_free(out);
    return st;
}

totex_status totex_comb_import_file(const char *path, totex_comb_imported *out, totex_error *err)
{
    return totex_comb_import_file_on(path, NULL, out, err);
}

totex_status totex_comb_import_file_on(const char *path, const char *network, totex_comb_imported *out,
                                       totex_error *err)
{
    char name[200], msg[sizeof err->msg];
    uint64_t size = 0;
    FILE *fp = NULL;
    char *text;
    size_t len;
    totex_status st;
    memset(out, 0, sizeof out[0]);
    clean(name, sizeof name, path);
    switch (totex_open_regular(path, TOTEX_COMB_FILE_MAX, &fp, &size)) {
    case TOTEX_OPEN_OK: break;
    case TOTEX_OPEN_ERRNO:
        return totex_fail(err, TOTEX_EIO, "cannot open schedule file '%s': %s", name, strerror(errno));
    case TOTEX_OPEN_NOT_REGULAR:
        return totex_fail(err, TOTEX_EIO, "schedule file '%s' is not a regular file", name);
    case TOTEX_OPEN_TOO_LARGE:
        return totex_fail(err, TOTEX_EIO, "schedule file '%s' is larger than %llu bytes (256 MiB): at most that is read",
                          name, (unsigned long long)TOTEX_COMB_FILE_MAX);
    }
    text = malloc((size_t)size + 1);
    if (!text) {
        fclose(fp);
        return totex_fail(err, TOTEX_ENOMEM, "out of memory reading schedule file '%s'", name);
    }
    len = fread(text, 1, (size_t)size + 1, fp);
    if (ferror(fp) || len > (size_t)size) {
        fclose(fp);
        free(text);
        return totex_fail(err, TOTEX_EIO, "cannot read schedule file '%s' (read error or the file grew)", name);
    }
    fclose(fp);
    st = totex_comb_import_json_on(text, len, network, out, err);
    free(text);
    if (st != TOTEX_OK && err) {
        snprintf(msg, sizeof msg, "%s", err->msg);
        totex_fail(err, st, "'%s': %.400s", name, msg);
    }
    return st;
}
