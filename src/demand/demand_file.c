/*
 * Demand files (docs/demand.md): CSV (n lines of n
 * comma-separated byte counts) and JSON ({"nodes": n, "bytes": [[...], ...]},
 * read with json-c). Everything the matrix's allocation depends on (file size,
 * the number of columns and rows) is checked before the matrix is allocated;
 * every entry is a non-negative integer of at most TOTEX_DEMAND_MAX_ENTRY bytes.
 */
#include <errno.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/file.h"
#include "totex/demand.h"

static FILE *open_demand(const char *path, uint64_t *size, totex_error *err)
{
    FILE *fp = NULL;
    totex_open_result r = totex_open_regular(path, TOTEX_DEMAND_MAX_FILE, &fp, size);
    if (r == TOTEX_OPEN_OK)
        return fp;
    if (r == TOTEX_OPEN_TOO_LARGE)
        totex_fail(err, TOTEX_EINVAL, "demand file %.200s is too large: more than %" PRIu64 " MiB (a demand has at most %u nodes)",
                   path, TOTEX_DEMAND_MAX_FILE >> 20, TOTEX_DEMAND_MAX_NODES);
    else if (r == TOTEX_OPEN_NOT_REGULAR)
        totex_fail(err, TOTEX_EIO, "demand file %.200s is not a regular file: give a CSV or JSON file, or a generator "
                   "(uniform:M, zipf:S:M, hotspot:K:M, random:M)", path);
    else
        totex_fail(err, TOTEX_EIO, "cannot read demand file %.200s: %s (or give a generator: uniform:M, zipf:S:M, "
                   "hotspot:K:M, random:M)", path, strerror(errno));
    return NULL;
}

/* one entry of text [p, end): a non-negative whole number of bytes at most the limit; -1 with a message */
static int entry_value(const char *path, const char *p, const char *end, uint64_t row, uint64_t col, uint64_t *out,
                       totex_error *err)
{
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
        p++;
    while (end > p && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r' || end[-1] == '\n'))
        end--;
    if (p < end && *p == '-') {
        totex_fail(err, TOTEX_EINVAL, "demand file %.200s: row %" PRIu64 ", column %" PRIu64 " is negative: byte counts are "
                   "0 or more", path, row, col);
        return -1;
    }
    uint64_t v = 0;
    if (p == end) {
        totex_fail(err, TOTEX_EINVAL, "demand file %.200s: row %" PRIu64 ", column %" PRIu64 " is empty: write a byte "
                   "count (0 for none)", path, row, col);
        return -1;
    }
    for (const char *q = p; q < end; q++) {
        if (*q < '0' || *q > '9') {
            totex_fail(err, TOTEX_EINVAL, "demand file %.200s: row %" PRIu64 ", column %" PRIu64 " is not a whole number "
                       "of bytes ('%.*s')", path, row, col, (int)(end - p > 30 ? 30 : end - p), p);
            return -1;
        }
        v = v * 10 + (uint64_t)(*q - '0');
        if (v > TOTEX_DEMAND_MAX_ENTRY) {
            totex_fail(err, TOTEX_EINVAL, "demand file %.200s: row %" PRIu64 ", column %" PRIu64 " is too large: at most "
                       "2^36 = %" PRIu64 " bytes per pair", path, row, col, TOTEX_DEMAND_MAX_ENTRY);
            return -1;
        }
    }
    *out = v;
    return 0;
}

static int data_line(const char *line)
{
    while (*line == ' ' || *line == '\t' || *line == '\r')
        line++;
    return *line && *line != '\n' && *line != '#';
}

static uint64_t columns_of(const char *line)
{
    uint64_t c = 1;
    for (; *line; line++)
        c += *line == ',';
    return c;
}

static totex_demand *read_csv(const char *path, FILE *fp, uint32_t n, totex_error *err)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    uint64_t lineno = 0, row = 0;
    totex_demand *d = NULL;
    while ((len = getline(&line, &cap, fp)) >= 0) {
        lineno++;
        if (!data_line(line))
            continue;
        uint64_t cols = columns_of(line);
        if (!d) { /* the first row fixes the size: checked before the matrix is allocated */
            if (cols > TOTEX_DEMAND_MAX_NODES) {
                totex_fail(err, TOTEX_EINVAL, "demand file %.200s is too large: %" PRIu64 " columns, at most %u nodes",
                           path, cols, TOTEX_DEMAND_MAX_NODES);
                goto fail;
            }
            if (cols != n) {
                totex_fail(err, TOTEX_EINVAL, "demand file %.200s: line %" PRIu64 " has %" PRIu64 " columns but the network "
                           "has %" PRIu32 " nodes: the matrix must be %" PRIu32 " x %" PRIu32, path, lineno, cols, n, n, n);
                goto fail;
            }
            if (!(d = totex_demand_new(n, err)))
                goto fail;
        }
        if (row >= n) {
            totex_fail(err, TOTEX_EINVAL, "demand file %.200s is not square: more than %" PRIu32 " rows of %" PRIu32
                       " columns (line %" PRIu64 ")", path, n, n, lineno);
            goto fail;
        }
        if (cols != n) {
            totex_fail(err, TOTEX_EINVAL, "demand file %.200s is not square: line %" PRIu64 " has %" PRIu64 " columns, "
                       "the first row %" PRIu32, path, lineno, cols, n);
            goto fail;
        }
        const char *p = line;
        for (uint64_t c = 0; c < n; c++) {
            const char *e = strchr(p, ',');
            if (!e)
                e = line + len;
            if (entry_value(path, p, e, row + 1, c + 1, &d->w[row * n + c], err))
                goto fail;
            p = e + 1;
        }
        row++;
    }
    if (ferror(fp)) {
        totex_fail(err, TOTEX_EIO, "cannot read demand file %.200s: %s", path, strerror(errno));
        goto fail;
    }
    if (!d) {
        totex_fail(err, TOTEX_EINVAL, "demand file %.200s has no rows: write %" PRIu32 " lines of %" PRIu32
                   " comma-separated byte counts", path, n, n);
        goto fail;
    }
    if (row != n) {
        totex_fail(err, TOTEX_EINVAL, "demand file %.200s is not square: %" PRIu64 " rows of %" PRIu32 " columns", path,
                   row, n);
        goto fail;
    }
    free(line);
    return d;
fail:
    free(line);
    totex_demand_free(d);
    return NULL;
}

static totex_demand *read_json(const char *path, FILE *fp, uint64_t size, uint32_t n, totex_error *err)
{
    char *text = malloc(size + 1);
    totex_demand *d = NULL;
    json_object *root = NULL;
    if (!text) {
        totex_fail(err, TOTEX_ENOMEM, "out of memory reading demand file %.200s", path);
        return NULL;
    }
    size_t got = fread(text, 1, size, fp);
    text[got] = 0;
    json_tokener *tok = json_tokener_new();
    if (tok) {
        root = json_tokener_parse_ex(tok, text, (int)got);
        if (!root || json_tokener_get_error(tok) != json_tokener_success) {
            totex_fail(err, TOTEX_EINVAL, "demand file %.200s is not valid JSON (%s): write {\"nodes\": n, \"bytes\": "
                       "[[...], ...]}", path, json_tokener_error_desc(json_tokener_get_error(tok)));
            json_object_put(root);
            root = NULL;
            json_tokener_free(tok);
            goto done;
        }
        json_tokener_free(tok);
    } else {
        totex_fail(err, TOTEX_ENOMEM, "out of memory reading demand file %.200s", path);
        goto done;
    }
    json_object *rows = NULL, *nodes = NULL;
    if (!json_object_is_type(root, json_type_object) || !json_object_object_get_ex(root, "bytes", &rows) ||
        !json_object_is_type(rows, json_type_array)) {
        totex_fail(err, TOTEX_EINVAL, "demand file %.200s: expected an object with \"bytes\": an array of %" PRIu32
                   " rows of %" PRIu32 " byte counts", path, n, n);
        goto done;
    }
    size_t nr = json_object_array_length(rows);
    if (json_object_object_get_ex(root, "nodes", &nodes) &&
        (!json_object_is_type(nodes, json_type_int) || json_object_get_int64(nodes) != (int64_t)nr)) {
        totex_fail(err, TOTEX_EINVAL, "demand file %.200s: \"nodes\" must be the number of rows of \"bytes\" (%zu)", path, nr);
        goto done;
    }
    if (nr > TOTEX_DEMAND_MAX_NODES) {
        totex_fail(err, TOTEX_EINVAL, "demand file %.200s is too large: %zu rows, at most %u nodes", path, nr,
                   TOTEX_DEMAND_MAX_NODES);
        goto done;
    }
    for (size_t i = 0; i < nr; i++) { /* the shape, checked before the matrix is allocated */
        json_object *r = json_object_array_get_idx(rows, i);
        if (!json_object_is_type(r, json_type_array)) {
            totex_fail(err, TOTEX_EINVAL, "demand file %.200s: row %zu of \"bytes\" is not an array", path, i + 1);
            goto done;
        }
        if (json_object_array_length(r) != nr) {
            totex_fail(err, TOTEX_EINVAL, "demand file %.200s is not square: row %zu has %zu entries, there are %zu rows",
                       path, i + 1, json_object_array_length(r), nr);
            goto done;
        }
    }
    if (nr != n) {
        totex_fail(err, TOTEX_EINVAL, "demand file %.200s is %zu x %zu but the network has %" PRIu32 " nodes", path, nr,
                   nr, n);
        goto done;
    }
    if (!(d = totex_demand_new(n, err)))
        goto done;
    for (uint32_t i = 0; i < n; i++) {
        json_object *r = json_object_array_get_idx(rows, i);
        for (uint32_t j = 0; j < n; j++) {
            json_object *v = json_object_array_get_idx(r, j);
            if (!json_object_is_type(v, json_type_int)) {
                totex_fail(err, TOTEX_EINVAL, "demand file %.200s: row %" PRIu32 ", column %" PRIu32 " is not a whole "
                           "number of bytes", path, i + 1, j + 1);
                goto bad;
            }
            errno = 0;
            int64_t x = json_object_get_int64(v);
            if (x < 0) {
                totex_fail(err, TOTEX_EINVAL, "demand file %.200s: row %" PRIu32 ", column %" PRIu32 " is negative: byte "
                           "counts are 0 or more", path, i + 1, j + 1);
                goto bad;
            }
            if ((uint64_t)x > TOTEX_DEMAND_MAX_ENTRY) {
                totex_fail(err, TOTEX_EINVAL, "demand file %.200s: row %" PRIu32 ", column %" PRIu32 " is too large: at "
                           "most 2^36 = %" PRIu64 " bytes per pair", path, i + 1, j + 1, TOTEX_DEMAND_MAX_ENTRY);
                goto bad;
            }
            d->w[(size_t)i * n + j] = (uint64_t)x;
        }
    }
    goto done;
bad:
    totex_demand_free(d);
    d = NULL;
done:
    json_object_put(root);
    free(text);
    return d;
}

totex_demand *totex_demand_read(const char *path, uint32_t n, totex_error *err)
{
    uint64_t size = 0;
    if (n < 1 || n > TOTEX_DEMAND_MAX_NODES) {
        totex_fail(err, TOTEX_EINVAL, "demand matrices are for networks of at most %u nodes; this one has %" PRIu32,
                   TOTEX_DEMAND_MAX_NODES, n);
        return NULL;
    }
    FILE *fp = open_demand(path, &size, err);
    if (!fp)
        return NULL;
    size_t pl = strlen(path);
    int json = pl > 5 && !strcmp(path + pl - 5, ".json");
    totex_demand *d = json ? read_json(path, fp, size, n, err) : read_csv(path, fp, n, err);
    fclose(fp);
    if (d) {
        for (uint32_t i = 0; i < n; i++)
            d->w[(size_t)i * n + i] = 0; /* a local copy: never moved */
        const char *base = strrchr(path, '/');
        snprintf(d->what, sizeof d->what, "file %.140s", base ? base + 1 : path);
    }
    return d;
}
