/*
 * Reading unit-step schedule files (include/totex/schedule_io.h,
 * docs/unit-schedule-format.md). A pull lexer (src/common/jlex.c) reads the file as a
 * stream: the full form goes step by step into the caller's checker (the
 * driver's simulator, src/plan/unit_verify.c), the symmetric form into a
 * totex_sym_schedule the checker certifies at one node (001 Theorem 2); this
 * file only reads. Nothing trusts the file: every key,
 * type, id and count is checked, and the limits bound memory before it is
 * allocated (the simulator's n(n-1) messages, the task's rows).
 */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/jlex.h"
#include "schedule/unit_read.h"
#include "totex/task.h"

typedef struct reader {
    jlex lx;
    totex_error *err;
    const totex_unit_limits *lim;
    /* header */
    int have_format, have_version, form; /* form: 0 unknown, 1 full, 2 symmetric */
    char *spec;
    long long nodes;
    int have_ports;
    totex_ports ports;
    int task_kind;         /* 0 absent, 1 total-exchange, 2 period-2 */
    long long period_dim;  /* -1 absent */
    long long rows;        /* -1 absent */
    uint32_t ncols;
    totex_link_type *cols; /* as written, checked against the task */
    int have_steps;
    totex_unit_verdict *out;
    const totex_unit_checker *check;
    totex_sim_report sim;
} reader;

static totex_status fail_key(reader *r, const char *key, const char *want)
{
    return totex_fail(r->err, TOTEX_EIO, "bad schedule file at byte %llu: \"%s\" must be %s",
                      (unsigned long long)r->lx.offset, key, want);
}

static totex_status read_string(reader *r, const char *key, char *dst, size_t cap)
{
    totex_status st = jlex_next(&r->lx);
    if (st)
        return st;
    if (r->lx.tok != J_STRING)
        return fail_key(r, key, "a string");
    if (r->lx.len >= cap)
        return totex_fail(r->err, TOTEX_EIO, "bad schedule file: \"%s\" is longer than %zu bytes", key, cap - 1);
    memcpy(dst, r->lx.str, r->lx.len + 1);
    return TOTEX_OK;
}

static totex_status read_int(reader *r, const char *key, long long lo, long long hi, long long *v)
{
    totex_status st = jlex_next(&r->lx);
    if (st)
        return st;
    if (r->lx.tok != J_NUMBER || r->lx.num < lo || r->lx.num > hi) {
        char want[96];
        snprintf(want, sizeof want, "a whole number in %lld..%lld", lo, hi);
        return fail_key(r, key, want);
    }
    *v = r->lx.num;
    return TOTEX_OK;
}

/* "columns": [[dim, delta], ...] */
static totex_status read_columns(reader *r)
{
    totex_status st = jlex_expect(&r->lx, J_LBRACKET, "\"columns\"");
    size_t cap = 0;
    if (st)
        return st;
    for (;;) {
        if ((st = jlex_next(&r->lx)))
            return st;
        if (r->lx.tok == J_RBRACKET && r->ncols == 0)
            return TOTEX_OK;
        if (r->ncols) {
            if (r->lx.tok == J_RBRACKET)
                return TOTEX_OK;
            if (r->lx.tok != J_COMMA)
                return fail_key(r, "columns", "an array of [dimension, delta] pairs");
            if ((st = jlex_next(&r->lx)))
                return st;
        }
        if (r->lx.tok != J_LBRACKET)
            return fail_key(r, "columns", "an array of [dimension, delta] pairs");
        long long d, delta;
        if ((st = read_int(r, "columns[][0]", 0, TOTEX_MAX_DIMS - 1, &d)) ||
            (st = jlex_expect(&r->lx, J_COMMA, "a column")) ||
            (st = read_int(r, "columns[][1]", 1, UINT32_MAX, &delta)) ||
            (st = jlex_expect(&r->lx, J_RBRACKET, "a column")))
            return st;
        if (r->ncols >= 4096)
            return fail_key(r, "columns", "at most 4096 link types");
        if (r->ncols == cap) {
            size_t c = cap ? 2 * cap : 16;
            totex_link_type *q = realloc(r->cols, c * sizeof *q);
            if (!q)
                return totex_fail(r->err, TOTEX_ENOMEM, "out of memory");
            r->cols = q;
            cap = c;
        }
        r->cols[r->ncols].dim = (uint32_t)d;
        r->cols[r->ncols].delta = (uint32_t)delta;
        r->ncols++;
    }
}

/* Build the network of the header and check "nodes". */
static totex_status make_network(reader *r)
{
    if (!r->have_format || !r->have_version || !r->form || !r->spec || r->nodes < 0 || !r->have_ports)
        return totex_fail(r->err, TOTEX_EIO,
                          "bad schedule file: \"format\", \"version\", \"form\", \"network\", \"nodes\" and "
                          "\"ports\" must all come before \"steps\"");
    /* an untrusted file names networks, never paths: a graph file (file:PATH) is opened only when the caller
       names the network (lim->network, the CLI's --network) */
    if (!r->lim->network && strstr(r->spec, "file:")) {
        char shown_spec[120];
        snprintf(shown_spec, sizeof shown_spec, "%s", r->spec);
        for (char *p = shown_spec; *p; p++)
            if ((unsigned char)*p < 0x20 || *p == 0x7f)
                *p = '?';
        return totex_fail(r->err, TOTEX_EIO,
                          "bad schedule file: its network \"%s\" names a graph file, which totex does not open for a "
                          "schedule file; give the network yourself with --network SPEC", shown_spec);
    }
    r->out->net = totex_network_parse(r->lim->network ? r->lim->network : r->spec, r->err);
    if (!r->out->net)
        return TOTEX_EIO;
    if ((long long)totex_network_nodes(r->out->net) != r->nodes)
        return totex_fail(r->err, TOTEX_EIO, "bad schedule file: \"nodes\" is %lld but network %.200s has %u nodes",
                          r->nodes, totex_network_spec(r->out->net), totex_network_nodes(r->out->net));
    return TOTEX_OK;
}

/* one hop object {"from":..,"to":..,"src":..,"dst":..}, current token '{' */
static totex_status read_hop(reader *r, uint32_t n, totex_hop *h, uint64_t step)
{
    long long v[4] = {-1, -1, -1, -1};
    static const char *names[4] = {"from", "to", "src", "dst"};
    totex_status st;
    for (int first = 1;; first = 0) {
        if ((st = jlex_next(&r->lx)))
            return st;
        if (r->lx.tok == J_RBRACE && first)
            break;
        if (!first) {
            if (r->lx.tok == J_RBRACE)
                break;
            if (r->lx.tok != J_COMMA || (st = jlex_next(&r->lx)))
                return st ? st : fail_key(r, "steps[][]", "an object {\"from\", \"to\", \"src\", \"dst\"}");
        }
        if (r->lx.tok != J_STRING)
            return fail_key(r, "steps[][]", "an object {\"from\", \"to\", \"src\", \"dst\"}");
        int k = 0;
        while (k < 4 && strcmp(r->lx.str, names[k]))
            k++;
        if ((st = jlex_expect(&r->lx, J_COLON, "a hop key")))
            return st;
        if (k == 4) {
            if ((st = jlex_next(&r->lx)) || (st = jlex_skip_value(&r->lx)))
                return st;
            continue;
        }
        if ((st = jlex_next(&r->lx)))
            return st;
        if (r->lx.tok != J_NUMBER || r->lx.num < 0 || r->lx.num >= n)
            return totex_fail(r->err, TOTEX_EIO, "bad schedule file at byte %llu: steps[%llu] hop \"%s\" must be a node id 0..%u",
                              (unsigned long long)r->lx.offset, (unsigned long long)step, names[k], n - 1);
        v[k] = r->lx.num;
    }
    for (int k = 0; k < 4; k++)
        if (v[k] < 0)
            return totex_fail(r->err, TOTEX_EIO, "bad schedule file at byte %llu: a hop of steps[%llu] has no \"%s\"",
                              (unsigned long long)r->lx.offset, (unsigned long long)step, names[k]);
    h->from = (uint32_t)v[0];
    h->to = (uint32_t)v[1];
    h->src = (uint32_t)v[2];
    h->dst = (uint32_t)v[3];
    return TOTEX_OK;
}

/* generic "array of items" loop: calls item() with the current token at the
   item's start. array_items() runs after the '[' was read (what names the
   array in errors); read_array() reads the '[' first. */
typedef totex_status (*item_fn)(reader *r, void *ctx);
static totex_status array_items(reader *r, const char *what, item_fn item, void *ctx)
{
    totex_status st;
    for (int first = 1;; first = 0) {
        if ((st = jlex_next(&r->lx)))
            return st;
        if (r->lx.tok == J_RBRACKET)
            return TOTEX_OK;
        if (!first) {
            if (r->lx.tok != J_COMMA)
                return totex_fail(r->err, TOTEX_EIO, "malformed schedule at byte %llu: expected ',' or ']' in %s, found %s%s",
                                  (unsigned long long)r->lx.offset, what, jlex_name(r->lx.tok),
                                  r->lx.tok == J_EOF ? " (truncated file?)" : "");
            if ((st = jlex_next(&r->lx)))
                return st;
        }
        if ((st = item(r, ctx)))
            return st;
    }
}

static totex_status read_array(reader *r, const char *what, item_fn item, void *ctx)
{
    totex_status st = jlex_next(&r->lx);
    if (st)
        return st;
    if (r->lx.tok != J_LBRACKET)
        return fail_key(r, what, "an array");
    char quoted[64];
    snprintf(quoted, sizeof quoted, "\"%s\"", what);
    return array_items(r, quoted, item, ctx);
}

typedef struct full_ctx {
    totex_sink steps;
    totex_hop *hops;
    size_t count, cap, max_hops;
    uint64_t step;
    uint32_t n;
} full_ctx;

static totex_status full_hop(reader *r, void *vctx)
{
    full_ctx *c = vctx;
    if (r->lx.tok != J_LBRACE)
        return fail_key(r, "steps[][]", "an object {\"from\", \"to\", \"src\", \"dst\"}");
    if (c->count >= c->max_hops)
        return totex_fail(r->err, TOTEX_EVIOLATION,
                          "steps[%llu] has more than %zu hops, the network's directed links: a link carries two messages "
                          "in one step (a duplicated hop?)",
                          (unsigned long long)c->step, c->max_hops);
    if (c->count == c->cap) {
        size_t nc = c->cap ? 2 * c->cap : 64;
        totex_hop *q = realloc(c->hops, nc * sizeof *q);
        if (!q)
            return totex_fail(r->err, TOTEX_ENOMEM, "out of memory");
        c->hops = q;
        c->cap = nc;
    }
    return read_hop(r, c->n, &c->hops[c->count++], c->step);
}

static totex_status full_step(reader *r, void *vctx)
{
    full_ctx *c = vctx;
    totex_status st;
    char what[48];
    if (r->lx.tok != J_LBRACKET)
        return fail_key(r, "steps[]", "an array of hops");
    c->count = 0;
    snprintf(what, sizeof what, "steps[%llu]", (unsigned long long)c->step);
    if ((st = array_items(r, what, full_hop, c)))
        return st;
    st = c->steps.step(c->steps.ctx, c->hops, c->count, r->err);
    c->step++;
    return st;
}

static totex_status read_full(reader *r)
{
    full_ctx c = {0};
    totex_status st;
    c.n = totex_network_nodes(r->out->net);
    c.max_hops = (size_t)(2 * totex_network_links(r->out->net));
    st = r->check->full_begin(r->check->ctx, r->out->net, r->out->ports, r->lim->max_messages, &c.steps, r->err);
    if (st != TOTEX_OK)
        return st;
    st = read_array(r, "steps", full_step, &c);
    if (st == TOTEX_OK)
        st = r->check->full_end(r->check->ctx, &r->sim, r->err);
    free(c.hops);
    r->check->full_free(r->check->ctx);
    return st;
}

typedef struct sym_ctx {
    totex_sym_schedule *s;
    totex_sym_move *moves;
    size_t count, cap;
    uint64_t step;
    uint32_t rows, cols, max_moves; /* max_moves: cols, twice that for a period-2 task (two representatives) */
} sym_ctx;

/* one move of a symmetric step: row, column (the '[' already read, current token the row) */
static totex_status sym_move(reader *r, void *vctx)
{
    sym_ctx *c = vctx;
    totex_status st;
    if (r->lx.tok != J_NUMBER || r->lx.num < 0 || r->lx.num >= c->rows)
        return totex_fail(r->err, TOTEX_EIO, "bad schedule file at byte %llu: steps[%llu] needs row, column pairs; a row is 0..%u",
                          (unsigned long long)r->lx.offset, (unsigned long long)c->step, c->rows - 1);
    uint32_t row = (uint32_t)r->lx.num;
    if ((st = jlex_expect(&r->lx, J_COMMA, "a row, column pair")) || (st = jlex_next(&r->lx)))
        return st;
    if (r->lx.tok != J_NUMBER || r->lx.num < 0 || r->lx.num >= c->cols)
        return totex_fail(r->err, TOTEX_EIO, "bad schedule file at byte %llu: steps[%llu] has a column out of 0..%u",
                          (unsigned long long)r->lx.offset, (unsigned long long)c->step, c->cols - 1);
    if (c->count >= c->max_moves)
        return totex_fail(r->err, TOTEX_EVIOLATION,
                          "steps[%llu] has more than %u moves: a node has %u link types and uses each at most once per step (001 Theorem 2)",
                          (unsigned long long)c->step, c->max_moves, c->cols);
    if (c->count == c->cap) {
        size_t nc = c->cap ? 2 * c->cap : 64;
        totex_sym_move *q = realloc(c->moves, nc * sizeof *q);
        if (!q)
            return totex_fail(r->err, TOTEX_ENOMEM, "out of memory");
        c->moves = q;
        c->cap = nc;
    }
    c->moves[c->count].row = row;
    c->moves[c->count].col = (uint32_t)r->lx.num;
    c->count++;
    return TOTEX_OK;
}

static totex_status sym_step(reader *r, void *vctx)
{
    sym_ctx *c = vctx;
    totex_status st;
    char what[48];
    if (r->lx.tok != J_LBRACKET)
        return fail_key(r, "steps[]", "an array of row, column pairs");
    c->count = 0;
    snprintf(what, sizeof what, "steps[%llu]", (unsigned long long)c->step);
    if ((st = array_items(r, what, sym_move, c)))
        return st;
    st = totex_sym_add_step(c->s, c->moves, c->count, r->err);
    c->step++;
    return st;
}

static totex_status read_symmetric(reader *r)
{
    totex_status st;
    totex_task *t;
    const totex_network *net = r->out->net;
    uint64_t n = totex_network_nodes(net);
    if (n - 1 > r->lim->max_rows)
        return totex_fail(r->err, TOTEX_ENOMEM, "bad schedule file: %llu rows exceed the reader's limit of %llu",
                          (unsigned long long)(n - 1), (unsigned long long)r->lim->max_rows);
    if (r->task_kind == 2) {
        if (r->period_dim < 0 || r->period_dim >= totex_network_dims(net))
            return fail_key(r, "period_dim", "a dimension of the network (for \"task\": \"period-2\")");
        t = totex_task_total_exchange_period2(net, (uint32_t)r->period_dim, r->err);
    } else if (r->task_kind == 1) {
        t = totex_task_total_exchange(net, r->err);
    } else {
        return totex_fail(r->err, TOTEX_EIO, "bad schedule file: the symmetric form needs \"task\" (\"total-exchange\" or \"period-2\") before \"steps\"");
    }
    if (!t)
        return TOTEX_EIO;
    if (r->rows >= 0 && r->rows != totex_task_rows(t)) {
        st = totex_fail(r->err, TOTEX_EIO, "bad schedule file: \"rows\" is %lld but the task has %u", r->rows,
                        totex_task_rows(t));
        totex_task_free(t);
        return st;
    }
    if (r->cols) {
        int same = r->ncols == totex_task_cols(t);
        for (uint32_t j = 0; same && j < r->ncols; j++) {
            totex_link_type lt = totex_task_column(t, j);
            same = lt.dim == r->cols[j].dim && lt.delta == r->cols[j].delta;
        }
        if (!same) {
            totex_task_free(t);
            return totex_fail(r->err, TOTEX_EIO, "bad schedule file: \"columns\" differ from the link types of %.200s "
                              "(dimension by dimension: ring + then -, k2 one, complete:m 1..m-1)", r->spec);
        }
    }
    sym_ctx c = {0};
    c.rows = totex_task_rows(t);
    c.cols = totex_task_cols(t);
    c.max_moves = totex_task_period_dim(t) == UINT32_MAX ? c.cols : 2 * c.cols;
    c.s = totex_sym_new();
    if (!c.s) {
        totex_task_free(t);
        return totex_fail(r->err, TOTEX_ENOMEM, "out of memory");
    }
    st = read_array(r, "steps", sym_step, &c);
    free(c.moves);
    if (st == TOTEX_OK)
        st = r->check->symmetric(r->check->ctx, net, t, r->out->ports, c.s, &r->sim, r->err);
    totex_sym_free(c.s);
    totex_task_free(t);
    return st;
}

static totex_status read_top(reader *r)
{
    totex_status st;
    char buf[256];
    if ((st = jlex_expect(&r->lx, J_LBRACE, "the schedule object")))
        return st;
    for (int first = 1;; first = 0) {
        if ((st = jlex_next(&r->lx)))
            return st;
        if (r->lx.tok == J_RBRACE)
            break;
        if (!first) {
            if (r->lx.tok != J_COMMA)
                return totex_fail(r->err, TOTEX_EIO, "malformed schedule at byte %llu: expected ',' or '}' in the schedule object, found %s%s",
                                  (unsigned long long)r->lx.offset, jlex_name(r->lx.tok),
                                  r->lx.tok == J_EOF ? " (truncated file?)" : "");
            if ((st = jlex_next(&r->lx)))
                return st;
        }
        if (r->lx.tok != J_STRING)
            return totex_fail(r->err, TOTEX_EIO, "malformed schedule at byte %llu: expected a key", (unsigned long long)r->lx.offset);
        char key[32];
        size_t kl = r->lx.len < sizeof key - 1 ? r->lx.len : sizeof key - 1;
        memcpy(key, r->lx.str, kl);
        key[kl] = '\0';
        if ((st = jlex_expect(&r->lx, J_COLON, "a key")))
            return st;
        long long v;
        if (!strcmp(key, "format")) {
            if ((st = read_string(r, key, buf, sizeof buf)))
                return st;
            if (strcmp(buf, TOTEX_UNIT_FORMAT))
                return fail_key(r, key, "\"" TOTEX_UNIT_FORMAT "\"");
            r->have_format = 1;
        } else if (!strcmp(key, "version")) {
            if ((st = read_int(r, key, 1, 1, &v)))
                return st;
            r->have_version = 1;
        } else if (!strcmp(key, "form")) {
            if ((st = read_string(r, key, buf, sizeof buf)))
                return st;
            r->form = !strcmp(buf, "full") ? 1 : !strcmp(buf, "symmetric") ? 2 : 0;
            if (!r->form)
                return fail_key(r, key, "\"full\" or \"symmetric\"");
        } else if (!strcmp(key, "network")) {
            free(r->spec);
            if (!(r->spec = malloc(JLEX_STR_MAX + 1)))
                return totex_fail(r->err, TOTEX_ENOMEM, "out of memory");
            if ((st = read_string(r, key, r->spec, JLEX_STR_MAX + 1)))
                return st;
        } else if (!strcmp(key, "nodes")) {
            if ((st = read_int(r, key, 2, UINT32_MAX, &r->nodes)))
                return st;
        } else if (!strcmp(key, "ports")) {
            if ((st = read_string(r, key, buf, sizeof buf)))
                return st;
            if (totex_ports_parse(buf, &r->ports, NULL) != TOTEX_OK)
                return fail_key(r, key, "a port model: single-port, multiport or N-port");
            r->have_ports = 1;
        } else if (!strcmp(key, "algorithm")) {
            if ((st = read_string(r, key, r->out->algorithm, sizeof r->out->algorithm)))
                return st;
        } else if (!strcmp(key, "task")) {
            if ((st = read_string(r, key, buf, sizeof buf)))
                return st;
            r->task_kind = !strcmp(buf, "total-exchange") ? 1 : !strcmp(buf, "period-2") ? 2 : 0;
            if (!r->task_kind)
                return fail_key(r, key, "\"total-exchange\" or \"period-2\"");
        } else if (!strcmp(key, "period_dim")) {
            if ((st = read_int(r, key, 0, TOTEX_MAX_DIMS - 1, &r->period_dim)))
                return st;
        } else if (!strcmp(key, "rows")) {
            if ((st = read_int(r, key, 1, UINT32_MAX, &r->rows)))
                return st;
        } else if (!strcmp(key, "columns")) {
            if (r->cols)
                return fail_key(r, key, "given once");
            if ((st = read_columns(r)))
                return st;
        } else if (!strcmp(key, "steps")) {
            if (r->have_steps)
                return fail_key(r, key, "given once");
            r->have_steps = 1;
            if ((st = make_network(r)))
                return st;
            if (!r->out->ports_override_set)
                r->out->ports = r->ports;
            st = r->form == 1 ? read_full(r) : read_symmetric(r);
            if (st)
                return st;
        } else {
            if ((st = jlex_next(&r->lx)) || (st = jlex_skip_value(&r->lx)))
                return st;
        }
    }
    if (!r->have_steps)
        return totex_fail(r->err, TOTEX_EIO, "bad schedule file: no \"steps\" (is it a %s file?)", TOTEX_UNIT_FORMAT);
    return jlex_end(&r->lx);
}

totex_status totex_unit_read_stream(FILE *fp, const totex_unit_limits *lim, const totex_ports *ports_override,
                                    const totex_unit_checker *check, totex_unit_verdict *out, totex_error *err)
{
    totex_unit_limits L = {0};
    reader r;
    totex_status st;
    if (!fp || !out || !check)
        return totex_fail(err, TOTEX_EINVAL, "totex_unit_verify_stream: NULL argument");
    memset(out, 0, sizeof *out);
    snprintf(out->algorithm, sizeof out->algorithm, "unknown");
    if (lim)
        L = *lim;
    if (!L.max_bytes)
        L.max_bytes = UINT64_C(1) << 32;
    if (!L.max_rows)
        L.max_rows = UINT64_C(1) << 26;
    memset(&r, 0, sizeof r);
    r.err = err;
    r.lim = &L;
    r.nodes = -1;
    r.period_dim = -1;
    r.rows = -1;
    r.out = out;
    r.check = check;
    if (ports_override) {
        out->ports = *ports_override;
        out->ports_override_set = 1;
    }
    jlex_init(&r.lx, fp, L.max_bytes, err);
    st = read_top(&r);
    if (st == TOTEX_OK) {
        out->sim = r.sim;
        out->symmetric = r.form == 2;
    }
    free(r.spec);
    free(r.cols);
    return st;
}

void totex_unit_verdict_free(totex_unit_verdict *v)
{
    if (!v)
        return;
    totex_network_free(v->net);
    v->net = NULL;
}
