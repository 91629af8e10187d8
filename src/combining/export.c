/*
 * Export of combining schedules as JSON (include/totex/combining.h,
 * docs/schedule-format.md): the text is written directly, one transfer per
 * line. The importer is src/combining/import.c.
 */
#include "totex/combining.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "totex/output.h"

/* ---- export --------------------------------------------------------------- */

typedef struct sbuf {
    char *p;
    size_t len, cap;
    int oom;
} sbuf;

static void put(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(sbuf *b, const char *fmt, ...)
{
    va_list ap;
    int n;
    if (b->oom)
        return;
    for (;;) {
        va_start(ap, fmt);
        n = vsnprintf(b->p ? b->p + b->len : NULL, b->p ? b->cap - b->len : 0, fmt, ap);
        va_end(ap);
        if (n < 0) {
            b->oom = 1;
            return;
        }
        if (b->p && (size_t)n < b->cap - b->len) {
            b->len += (size_t)n;
            return;
        }
        size_t c = b->cap ? b->cap : 4096;
        while (c < b->len + (size_t)n + 1) {
            if (c > SIZE_MAX / 2) {
                b->oom = 1;
                return;
            }
            c *= 2;
        }
        char *q = realloc(b->p, c);
        if (!q) {
            b->oom = 1;
            return;
        }
        b->p = q;
        b->cap = c;
    }
}

/* a JSON string literal of s (escaping quotes, backslashes and control characters) */
static void put_string(sbuf *b, const char *s)
{
    put(b, "\"");
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            put(b, "\\%c", ch);
        else if (ch < 0x20)
            put(b, "\\u%04x", ch);
        else
            put(b, "%c", ch);
    }
    put(b, "\"");
}

char *totex_comb_export_json(const totex_network *net, const totex_comb_schedule *s, const totex_comb_cost *cost,
                             const char *algorithm, totex_error *err)
{
    sbuf b = {0};
    uint64_t nsteps = totex_comb_steps(s);
    put(&b, "{\n  \"format\": \"%s\",\n  \"version\": %d,\n  \"network\": ", TOTEX_COMB_FORMAT_NAME,
        TOTEX_COMB_FORMAT_VERSION);
    put_string(&b, totex_network_spec(net));
    put(&b, ",\n  \"nodes\": %u,\n  \"algorithm\": ", totex_network_nodes(net));
    put_string(&b, algorithm ? algorithm : "unknown");
    put(&b,
        ",\n  \"model\": {\"t_s\": %.17g, \"t_c\": %.17g, \"t_l\": %.17g, \"rho\": %.17g, \"m\": %.17g, "
        "\"switching\": \"%s\", \"ports\": \"%s\"},\n  \"steps\": [",
        cost->t_s, cost->t_c, cost->t_l, cost->rho, cost->m,
        cost->switching == TOTEX_SWITCH_STORE_FORWARD ? "store-and-forward" : "wormhole",
        cost->ports == TOTEX_PORTS_MULTI ? "all" : "one");
    for (uint64_t i = 0; i < nsteps && !b.oom; i++) {
        size_t nt = totex_comb_step_transfers(s, i);
        put(&b, "%s\n    {\"rearranged\": %llu, \"transfers\": [", i ? "," : "",
            (unsigned long long)totex_comb_step_rearranged(s, i));
        for (size_t t = 0; t < nt && !b.oom; t++) {
            totex_transfer tr;
            totex_comb_get_transfer(s, i, t, &tr);
            put(&b, "%s\n      {\"from\": %u, \"to\": %u, \"blocks\": [", t ? "," : "", tr.from, tr.to);
            for (size_t k = 0; k < tr.count; k++)
                put(&b, "%s[%u, %u]", k ? ", " : "", tr.blocks[k].src, tr.blocks[k].dst);
            put(&b, "]}");
        }
        put(&b, "%s]}", nt ? "\n    " : "");
    }
    put(&b, "%s]\n}\n", nsteps ? "\n  " : "");
    if (b.oom) {
        free(b.p);
        totex_fail(err, TOTEX_ENOMEM, "out of memory exporting a combining schedule of %llu steps",
                   (unsigned long long)nsteps);
        return NULL;
    }
    return b.p;
}

totex_status totex_comb_export_file(const char *path, const totex_network *net, const totex_comb_schedule *s,
                                    const totex_comb_cost *cost, const char *algorithm, totex_error *err)
{
    char *text = totex_comb_export_json(net, s, cost, algorithm, err);
    if (!text)
        return TOTEX_ENOMEM;
    /* beside the path and renamed on success: a failed write leaves no cut-off file */
    totex_output *out = totex_output_open(path, err);
    if (!out) {
        free(text);
        return TOTEX_EIO;
    }
    fputs(text, totex_output_file(out)); /* checked by the commit */
    free(text);
    return totex_output_commit(out, err);
}
