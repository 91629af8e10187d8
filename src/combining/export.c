/*
 * Export and import of combining schedules as JSON (include/totex/combining.h,
 * docs/schedule-format.md). The exporter writes the text directly (one
 * transfer per line); the importer parses with json-c and checks every key,
 * type, id and count before it allocates the schedule, so a corrupt or
 * hostile file yields one error naming the JSON path, never a crash.
 */
#include "totex/combining.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "common/error.h"
#include "common/file.h"

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
        cost->ports == TOTEX_COMB_ALL_PORT ? "all" : "one");
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

/* copy of s with control characters as '?', cut to fit len */
static void clean(char *out, size_t len, const char *s)
{
    size_t i = 0;
    for (; s && s[i] && i + 1 < len; i++)
        out[i] = ((unsigned char)s[i] < 0x20 || s[i] == 0x7f) ? '?' : s[i];
    out[i] = '\0';
}

totex_status totex_comb_export_file(const char *path, const totex_network *net, const totex_comb_schedule *s,
                                    const totex_comb_cost *cost, const char *algorithm, totex_error *err)
{
    char shown[200];
    char *text = totex_comb_export_json(net, s, cost, algorithm, err);
    FILE *fp;
    int bad;
    if (!text)
        return TOTEX_ENOMEM;
    clean(shown, sizeof shown, path);
    fp = fopen(path, "w");
    if (!fp) {
        int e = errno;
        free(text);
        return totex_fail(err, TOTEX_EIO, "cannot write schedule file '%s': %s", shown, strerror(e));
    }
    bad = fputs(text, fp) == EOF;
    bad |= fclose(fp) != 0;
    free(text);
    if (bad)
        return totex_fail(err, TOTEX_EIO, "cannot write schedule file '%s': %s", shown, strerror(errno));
    return TOTEX_OK;
}

/* ---- import --------------------------------------------------------------- */

/* JSON nesting: root > steps > step > transfers > transfer > blocks > pair is 7 */
#define IMPORT_DEPTH 10

static const char *type_name(json_object *o)
{
    switch (json_object_get_type(o)) {
    case json_type_null: return "null";
    case json_type_boolean: return "a boolean";
    case json_type_double: return "a fractional number";
    case json_type_int: return "a whole number";
    case json_type_object: return "an object";
    case json_type_array: return "an array";
    case json_type_string: return "a string";
    }
    return "an unknown type";
}

static totex_status get_key(json_object *obj, const char *where, const char *key, json_type want, json_object **out,
                            totex_error *err)
{
    static const char *names[] = {"null", "a boolean", "a number", "a whole number", "an object", "an array",
                                  "a string"};
    if (!json_object_object_get_ex(obj, key, out))
        return totex_fail(err, TOTEX_EINVAL, "schedule: missing key \"%s\" in %s", key, where);
    if (want == json_type_double ? !(json_object_is_type(*out, json_type_double) ||
                                     json_object_is_type(*out, json_type_int))
                                 : !json_object_is_type(*out, want))
        return totex_fail(err, TOTEX_EINVAL, "schedule: %s%s%s must be %s, not %s",
                          strcmp(where, "the top level") ? where : "", strcmp(where, "the top level") ? "." : "", key,
                          names[want], type_name(*out));
    return TOTEX_OK;
}

/* a whole number in [lo, hi] at path `what` */
static totex_status get_uint(json_object *o, const char *what, int64_t lo, int64_t hi, int64_t *out, totex_error *err)
{
    int64_t v;
    if (!json_object_is_type(o, json_type_int))
        return totex_fail(err, TOTEX_EINVAL, "schedule: %s must be a whole number, not %s", what, type_name(o));
    errno = 0;
    v = json_object_get_int64(o);
    if (v < lo || v > hi || (errno == ERANGE))
        return totex_fail(err, TOTEX_EINVAL, "schedule: %s = %.40s is out of range %lld..%lld", what,
                          json_object_to_json_string(o), (long long)lo, (long long)hi);
    *out = v;
    return TOTEX_OK;
}

static totex_status parse_model(json_object *root, totex_comb_cost *c, totex_error *err)
{
    json_object *model, *v;
    totex_status st = get_key(root, "the top level", "model", json_type_object, &model, err);
    static const char *const keys[] = {"t_s", "t_c", "t_l", "rho", "m"};
    double *fields[] = {&c->t_s, &c->t_c, &c->t_l, &c->rho, &c->m};
    const char *str;
    if (st)
        return st;
    totex_comb_cost_default(c);
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        if ((st = get_key(model, "model", keys[i], json_type_double, &v, err)) != TOTEX_OK)
            return st;
        double d = json_object_get_double(v);
        if (!isfinite(d) || d < 0 || (i == 4 && d <= 0))
            return totex_fail(err, TOTEX_EINVAL, "schedule: model.%s = %.40s must be a finite number %s 0", keys[i],
                              json_object_to_json_string(v), i == 4 ? ">" : ">=");
        *fields[i] = d;
    }
    if ((st = get_key(model, "model", "switching", json_type_string, &v, err)) != TOTEX_OK)
        return st;
    str = json_object_get_string(v);
    if (!strcmp(str, "wormhole"))
        c->switching = TOTEX_SWITCH_WORMHOLE;
    else if (!strcmp(str, "store-and-forward"))
        c->switching = TOTEX_SWITCH_STORE_FORWARD;
    else
        return totex_fail(err, TOTEX_EINVAL, "schedule: model.switching must be \"wormhole\" or \"store-and-forward\"");
    if ((st = get_key(model, "model", "ports", json_type_string, &v, err)) != TOTEX_OK)
        return st;
    str = json_object_get_string(v);
    if (!strcmp(str, "one"))
        c->ports = TOTEX_COMB_ONE_PORT;
    else if (!strcmp(str, "all"))
        c->ports = TOTEX_COMB_ALL_PORT;
    else
        return totex_fail(err, TOTEX_EINVAL, "schedule: model.ports must be \"one\" or \"all\"");
    return TOTEX_OK;
}

/* check the shape and every id and count of the steps (no allocation) */
static totex_status check_steps(json_object *steps, uint32_t n, totex_error *err)
{
    size_t nsteps = json_object_array_length(steps);
    const int64_t pairs = (int64_t)n * (n - 1);
    char where[160];
    if (nsteps > TOTEX_COMB_IMPORT_MAX_STEPS)
        return totex_fail(err, TOTEX_EINVAL, "schedule: %zu steps: at most %llu are accepted", nsteps,
                          (unsigned long long)TOTEX_COMB_IMPORT_MAX_STEPS);
    for (size_t i = 0; i < nsteps; i++) {
        json_object *step = json_object_array_get_idx(steps, i), *v, *tr;
        int64_t x;
        totex_status st;
        snprintf(where, sizeof where, "steps[%zu]", i);
        if (!json_object_is_type(step, json_type_object))
            return totex_fail(err, TOTEX_EINVAL, "schedule: %s must be an object, not %s", where, type_name(step));
        if ((st = get_key(step, where, "rearranged", json_type_int, &v, err)) != TOTEX_OK)
            return st;
        snprintf(where, sizeof where, "steps[%zu].rearranged", i);
        if ((st = get_uint(v, where, 0, INT64_C(1) << 53, &x, err)) != TOTEX_OK)
            return st;
        snprintf(where, sizeof where, "steps[%zu]", i);
        if ((st = get_key(step, where, "transfers", json_type_array, &tr, err)) != TOTEX_OK)
            return st;
        size_t nt = json_object_array_length(tr);
        if ((int64_t)nt > pairs)
            return totex_fail(err, TOTEX_EINVAL, "schedule: steps[%zu] has %zu transfers: at most n(n-1) = %lld", i,
                              nt, (long long)pairs);
        for (size_t t = 0; t < nt; t++) {
            json_object *o = json_object_array_get_idx(tr, t), *bl;
            snprintf(where, sizeof where, "steps[%zu].transfers[%zu]", i, t);
            if (!json_object_is_type(o, json_type_object))
                return totex_fail(err, TOTEX_EINVAL, "schedule: %s must be an object, not %s", where, type_name(o));
            if ((st = get_key(o, where, "from", json_type_int, &v, err)) != TOTEX_OK)
                return st;
            snprintf(where, sizeof where, "steps[%zu].transfers[%zu].from (node id)", i, t);
            if ((st = get_uint(v, where, 0, (int64_t)n - 1, &x, err)) != TOTEX_OK)
                return st;
            snprintf(where, sizeof where, "steps[%zu].transfers[%zu]", i, t);
            if ((st = get_key(o, where, "to", json_type_int, &v, err)) != TOTEX_OK)
                return st;
            snprintf(where, sizeof where, "steps[%zu].transfers[%zu].to (node id)", i, t);
            if ((st = get_uint(v, where, 0, (int64_t)n - 1, &x, err)) != TOTEX_OK)
                return st;
            snprintf(where, sizeof where, "steps[%zu].transfers[%zu]", i, t);
            if ((st = get_key(o, where, "blocks", json_type_array, &bl, err)) != TOTEX_OK)
                return st;
            size_t nb = json_object_array_length(bl);
            if ((int64_t)nb > pairs)
                return totex_fail(err, TOTEX_EINVAL, "schedule: %s has %zu blocks: at most n(n-1) = %lld", where, nb,
                                  (long long)pairs);
            for (size_t k = 0; k < nb; k++) {
                json_object *p = json_object_array_get_idx(bl, k);
                if (!json_object_is_type(p, json_type_array) || json_object_array_length(p) != 2)
                    return totex_fail(err, TOTEX_EINVAL,
                                      "schedule: %s.blocks[%zu] must be a pair [src, dst] of node ids, not %.40s", where,
                                      k, json_object_to_json_string(p));
                for (size_t e = 0; e < 2; e++) {
                    char w2[256];
                    snprintf(w2, sizeof w2, "%s.blocks[%zu][%zu] (%s node id)", where, k, e, e ? "dst" : "src");
                    if ((st = get_uint(json_object_array_get_idx(p, e), w2, 0, (int64_t)n - 1, &x, err)) != TOTEX_OK)
                        return st;
                }
            }
        }
    }
    return TOTEX_OK;
}

static totex_status build_schedule(json_object *steps, totex_comb_schedule *s, totex_error *err)
{
    size_t nsteps = json_object_array_length(steps), cap = 0;
    totex_block *buf = NULL;
    totex_status st = TOTEX_OK;
    for (size_t i = 0; i < nsteps && st == TOTEX_OK; i++) {
        json_object *step = json_object_array_get_idx(steps, i), *v, *tr;
        json_object_object_get_ex(step, "rearranged", &v);
        json_object_object_get_ex(step, "transfers", &tr);
        if ((st = totex_comb_begin_step(s, err)) != TOTEX_OK)
            break;
        if (json_object_get_int64(v) && (st = totex_comb_rearrange(s, (uint64_t)json_object_get_int64(v), err)))
            break;
        for (size_t t = 0; t < json_object_array_length(tr) && st == TOTEX_OK; t++) {
            json_object *o = json_object_array_get_idx(tr, t), *from, *to, *bl;
            json_object_object_get_ex(o, "from", &from);
            json_object_object_get_ex(o, "to", &to);
            json_object_object_get_ex(o, "blocks", &bl);
            size_t nb = json_object_array_length(bl);
            if (nb > cap) {
                totex_block *q = realloc(buf, nb * sizeof *buf);
                if (!q) {
                    st = totex_fail(err, TOTEX_ENOMEM, "out of memory reading a transfer of %zu blocks", nb);
                    break;
                }
                buf = q;
                cap = nb;
            }
            for (size_t k = 0; k < nb; k++) {
                json_object *p = json_object_array_get_idx(bl, k);
                buf[k].src = (uint32_t)json_object_get_int64(json_object_array_get_idx(p, 0));
                buf[k].dst = (uint32_t)json_object_get_int64(json_object_array_get_idx(p, 1));
            }
            st = totex_comb_add_transfer(s, (uint32_t)json_object_get_int64(from), (uint32_t)json_object_get_int64(to),
                                         buf, nb, err);
        }
    }
    free(buf);
    return st;
}

void totex_comb_imported_free(totex_comb_imported *im)
{
    if (!im)
        return;
    totex_network_free(im->net);
    totex_comb_schedule_free(im->schedule);
    memset(im, 0, sizeof *im);
}

totex_status totex_comb_import_json(const char *text, size_t len, totex_comb_imported *out, totex_error *err)
{
    json_tokener *tok;
    json_object *root, *v, *steps;
    enum json_tokener_error jerr;
    totex_status st;
    int64_t nodes;
    memset(out, 0, sizeof out[0]);
    if (len == 0)
        return totex_fail(err, TOTEX_EIO, "schedule: empty file (expected a JSON object)");
    if (len > INT32_MAX)
        return totex_fail(err, TOTEX_EIO, "schedule: %zu bytes is too large for the JSON parser", len);
    tok = json_tokener_new_ex(IMPORT_DEPTH);
    if (!tok)
        return totex_fail(err, TOTEX_ENOMEM, "out of memory reading a schedule");
    root = json_tokener_parse_ex(tok, text, (int)len);
    jerr = json_tokener_get_error(tok);
    if (!root || jerr != json_tokener_success) {
        size_t at = json_tokener_get_parse_end(tok);
        json_tokener_free(tok);
        json_object_put(root);
        if (jerr == json_tokener_continue || jerr == json_tokener_success)
            return totex_fail(err, TOTEX_EIO, "schedule: truncated JSON (the text ends inside a value at byte %zu)",
                              len);
        return totex_fail(err, TOTEX_EIO, "schedule: malformed JSON at byte %zu: %s", at,
                          json_tokener_error_desc(jerr));
    }
    {
        size_t end = json_tokener_get_parse_end(tok);
        json_tokener_free(tok);
        for (; end < len; end++)
            if (!strchr(" \t\r\n", text[end])) {
                json_object_put(root);
                return totex_fail(err, TOTEX_EIO, "schedule: malformed JSON: data after the top-level value at byte %zu",
                                  end);
            }
    }
    if (!json_object_is_type(root, json_type_object)) {
        st = totex_fail(err, TOTEX_EINVAL, "schedule: the top level must be an object, not %s", type_name(root));
        goto done;
    }
    if ((st = get_key(root, "the top level", "format", json_type_string, &v, err)) != TOTEX_OK)
        goto done;
    if (strcmp(json_object_get_string(v), TOTEX_COMB_FORMAT_NAME)) {
        st = totex_fail(err, TOTEX_EINVAL, "schedule: format must be \"%s\"", TOTEX_COMB_FORMAT_NAME);
        goto done;
    }
    if ((st = get_key(root, "the top level", "version", json_type_int, &v, err)) != TOTEX_OK)
        goto done;
    if (json_object_get_int64(v) != TOTEX_COMB_FORMAT_VERSION) {
        st = totex_fail(err, TOTEX_EINVAL, "schedule: version %.20s is not supported: only version %d is read",
                        json_object_to_json_string(v), TOTEX_COMB_FORMAT_VERSION);
        goto done;
    }
    if (json_object_object_get_ex(root, "algorithm", &v)) {
        if (!json_object_is_type(v, json_type_string)) {
            st = totex_fail(err, TOTEX_EINVAL, "schedule: algorithm must be a string, not %s", type_name(v));
            goto done;
        }
        clean(out->algorithm, sizeof out->algorithm, json_object_get_string(v));
    } else {
        snprintf(out->algorithm, sizeof out->algorithm, "unknown");
    }
    if ((st = parse_model(root, &out->cost, err)) != TOTEX_OK)
        goto done;
    if ((st = get_key(root, "the top level", "network", json_type_string, &v, err)) != TOTEX_OK)
        goto done;
    if (strlen(json_object_get_string(v)) != (size_t)json_object_get_string_len(v)) {
        st = totex_fail(err, TOTEX_EINVAL, "schedule: network spec contains a NUL character");
        goto done;
    }
    out->net = totex_network_parse(json_object_get_string(v), err);
    if (!out->net) {
        char msg[sizeof err->msg];
        st = TOTEX_EINVAL;
        if (err) {
            snprintf(msg, sizeof msg, "%s", err->msg);
            totex_fail(err, st, "schedule: network: %.450s", msg);
        }
        goto done;
    }
    uint32_t n = totex_network_nodes(out->net);
    if ((st = get_key(root, "the top level", "nodes", json_type_int, &v, err)) != TOTEX_OK)
        goto done;
    nodes = json_object_get_int64(v);
    if (nodes != (int64_t)n) {
        st = totex_fail(err, TOTEX_EINVAL, "schedule: nodes = %.20s does not match the network %.100s, which has %u",
                        json_object_to_json_string(v), totex_network_spec(out->net), n);
        goto done;
    }
    if ((uint64_t)n * n > TOTEX_COMB_MAX_BLOCKS) {
        st = totex_fail(err, TOTEX_ENOMEM, "schedule: the network has %u nodes: the combining simulator takes n^2 <= %llu",
                        n, (unsigned long long)TOTEX_COMB_MAX_BLOCKS);
        goto done;
    }
    if ((st = get_key(root, "the top level", "steps", json_type_array, &steps, err)) != TOTEX_OK)
        goto done;
    if ((st = check_steps(steps, n, err)) != TOTEX_OK)
        goto done;
    out->schedule = totex_comb_schedule_new();
    if (!out->schedule) {
        st = totex_fail(err, TOTEX_ENOMEM, "out of memory reading a schedule");
        goto done;
    }
    st = build_schedule(steps, out->schedule, err);
done:
    json_object_put(root);
    if (st != TOTEX_OK)
        totex_comb_imported_free(out);
    return st;
}

totex_status totex_comb_import_file(const char *path, totex_comb_imported *out, totex_error *err)
{
    char shown[200], msg[sizeof err->msg];
    uint64_t size = 0;
    FILE *fp = NULL;
    char *text;
    size_t len;
    totex_status st;
    memset(out, 0, sizeof out[0]);
    clean(shown, sizeof shown, path);
    switch (totex_open_regular(path, TOTEX_COMB_FILE_MAX, &fp, &size)) {
    case TOTEX_OPEN_OK:
        break;
    case TOTEX_OPEN_ERRNO:
        return totex_fail(err, TOTEX_EIO, "cannot open schedule file '%s': %s", shown, strerror(errno));
    case TOTEX_OPEN_NOT_REGULAR:
        return totex_fail(err, TOTEX_EIO, "schedule file '%s' is not a regular file", shown);
    case TOTEX_OPEN_TOO_LARGE:
        return totex_fail(err, TOTEX_EIO, "schedule file '%s' is larger than %llu bytes (256 MiB): at most that is read",
                          shown, (unsigned long long)TOTEX_COMB_FILE_MAX);
    }
    text = malloc((size_t)size + 1);
    if (!text) {
        fclose(fp);
        return totex_fail(err, TOTEX_ENOMEM, "out of memory reading schedule file '%s'", shown);
    }
    len = fread(text, 1, (size_t)size + 1, fp);
    if (ferror(fp) || len > (size_t)size) {
        fclose(fp);
        free(text);
        return totex_fail(err, TOTEX_EIO, "cannot read schedule file '%s' (read error or the file grew)", shown);
    }
    fclose(fp);
    st = totex_comb_import_json(text, len, out, err);
    free(text);
    if (st != TOTEX_OK && err) {
        snprintf(msg, sizeof msg, "%s", err->msg);
        totex_fail(err, st, "'%s': %.400s", shown, msg);
    }
    return st;
}
