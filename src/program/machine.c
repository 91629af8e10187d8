/* The machine's network named by the user and the sub-box a communicator spans (machine.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "machine.h"

/* the line of a failure into @p err; returns @p st */
static totex_status merr(totex_error *err, totex_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    return st;
}

void totex_prog_machine_free(totex_prog_machine *m)
{
    if (!m)
        return;
    totex_network_free(m->net);
    free(m->coords);
    free(m);
}

/* parse the rank map @p text into m->coords; TOTEX_OK or an error naming the line */
static totex_status parse_map(totex_prog_machine *m, const char *text, const char *name, totex_error *err)
{
    uint32_t r = 0, line = 0;
    const char *s = text;
    while (*s) {
        line++;
        const char *end = strchr(s, '\n');
        size_t len = end ? (size_t)(end - s) : strlen(s);
        char buf[512];
        if (len >= sizeof buf)
            return merr(err, TOTEX_EINVAL, "%s line %u: longer than %zu characters", name, line,
                                   sizeof buf - 1);
        memcpy(buf, s, len);
        buf[len] = '\0';
        s = end ? end + 1 : s + len;
        char *hash = strchr(buf, '#');
        if (hash)
            *hash = '\0';
        uint32_t k = 0;
        for (char *p = buf; *p;) {
            while (*p == ' ' || *p == '\t' || *p == ',' || *p == '\r')
                p++;
            if (!*p)
                break;
            char *q;
            unsigned long v = strtoul(p, &q, 10);
            if (q == p || (*q && *q != ' ' && *q != '\t' && *q != ',' && *q != '\r'))
                return merr(err, TOTEX_EINVAL,
                                       "%s line %u: \"%.40s\" is not a coordinate (whole numbers, one per factor of "
                                       "the network, separated by spaces or commas)",
                                       name, line, p);
            if (k >= m->dims)
                return merr(err, TOTEX_EINVAL, "%s line %u: more than %u coordinates (one per factor "
                                       "of the network)", name, line, m->dims);
            const uint32_t size = totex_factor_nodes(totex_network_factor(m->net, k));
            if (v >= size)
                return merr(err, TOTEX_EINVAL,
                                       "%s line %u: coordinate %lu of factor %u (%s) is out of range 0 .. %u", name,
                                       line, v, k, totex_factor_name(totex_network_factor(m->net, k)), size - 1);
            if (r >= m->ranks)
                return merr(err, TOTEX_EINVAL, "%s: more lines than the %u ranks (line %u)", name,
                                       m->ranks, line);
            m->coords[(size_t)r * m->dims + k++] = (uint32_t)v;
            p = q;
        }
        if (k == 0)
            continue; /* blank or a comment */
        if (k != m->dims)
            return merr(err, TOTEX_EINVAL, "%s line %u: %u coordinates, the network has %u factors",
                                   name, line, k, m->dims);
        r++;
    }
    if (r != m->ranks)
        return merr(err, TOTEX_EINVAL, "%s: %u ranks placed, MPI_COMM_WORLD has %u (one line per rank)",
                               name, r, m->ranks);
    return TOTEX_OK;
}

totex_status totex_prog_machine_make(const char *spec, const char *rankmap_text, const char *map_name,
                                     uint32_t ranks, totex_prog_machine **out, totex_error *err)
{
    *out = NULL;
    totex_prog_machine *m = calloc(1, sizeof *m);
    if (!m)
        return merr(err, TOTEX_ENOMEM, "out of memory for the machine's network");
    if (!(m->net = totex_network_parse(spec, err))) {
        free(m);
        return TOTEX_EINVAL;
    }
    m->dims = totex_network_dims(m->net);
    m->ranks = ranks;
    const uint64_t nodes = totex_network_nodes(m->net);
    totex_status st = TOTEX_OK;
    if (nodes != ranks)
        st = merr(err, TOTEX_EINVAL, "the network %s has %llu nodes, MPI_COMM_WORLD %u ranks (one rank "
                             "per node)", spec, (unsigned long long)nodes, ranks);
    else if (!(m->coords = calloc((size_t)ranks * (m->dims ? m->dims : 1), sizeof *m->coords)))
        st = merr(err, TOTEX_ENOMEM, "out of memory for the rank map");
    if (st == TOTEX_OK && !rankmap_text) { /* rank r at node r */
        for (uint32_t r = 0; r < ranks; r++) {
            uint32_t id = r;
            for (uint32_t k = 0; k < m->dims; k++) {
                const uint32_t size = totex_factor_nodes(totex_network_factor(m->net, k));
                m->coords[(size_t)r * m->dims + k] = id % size;
                id /= size;
            }
        }
    } else if (st == TOTEX_OK) {
        st = parse_map(m, rankmap_text, map_name, err);
    }
    if (st == TOTEX_OK && rankmap_text) { /* every node once */
        char *seen = calloc(ranks ? ranks : 1, 1);
        if (!seen)
            st = merr(err, TOTEX_ENOMEM, "out of memory for the rank map");
        for (uint32_t r = 0; st == TOTEX_OK && r < ranks; r++) {
            uint64_t id = 0, radix = 1;
            for (uint32_t k = 0; k < m->dims; k++) {
                id += radix * m->coords[(size_t)r * m->dims + k];
                radix *= totex_factor_nodes(totex_network_factor(m->net, k));
            }
            if (seen[id])
                st = merr(err, TOTEX_EINVAL, "%s: rank %u sits on the node of an earlier rank (every "
                                     "rank on a node of its own)", map_name, r);
            seen[id] = 1;
        }
        free(seen);
    }
    if (st != TOTEX_OK) {
        totex_prog_machine_free(m);
        return st;
    }
    *out = m;
    return TOTEX_OK;
}

/* append factor text @p f to @p spec */
static void add(char *spec, size_t cap, const char *f)
{
    const size_t len = strlen(spec);
    snprintf(spec + len, cap - len, "%s%s", len ? "*" : "", f);
}

totex_status totex_prog_machine_box(const totex_prog_machine *m, const uint32_t *world, uint32_t n, int *applies,
                                    char *spec, size_t cap, uint32_t *node, char *why, size_t why_cap)
{
    *applies = 0;
    spec[0] = '\0';
    why[0] = '\0';
    uint32_t *pos = calloc((size_t)n * (m->dims ? m->dims : 1), sizeof *pos); /* rank's position in each factor */
    uint32_t *len = calloc(m->dims ? m->dims : 1, sizeof *len);
    if (!pos || !len) {
        free(pos);
        free(len);
        return TOTEX_ENOMEM;
    }
    uint64_t product = 1;
    int fits = 1;
    for (uint32_t k = 0; k < m->dims && fits; k++) {
        const totex_factor *f = totex_network_factor(m->net, k);
        const uint32_t size = totex_factor_nodes(f);
        const totex_factor_kind kind = totex_factor_get_kind(f);
        char *used = calloc(size, 1);
        uint32_t *rankof = calloc(size, sizeof *rankof); /* a used coordinate's position */
        if (!used || !rankof) {
            free(used);
            free(rankof);
            free(pos);
            free(len);
            return TOTEX_ENOMEM;
        }
        for (uint32_t i = 0; i < n; i++)
            used[m->coords[(size_t)world[i] * m->dims + k]] = 1;
        uint32_t count = 0, start = 0;
        for (uint32_t v = 0; v < size; v++)
            count += used[v];
        if (count == size || kind == TOTEX_FACTOR_COMPLETE || kind == TOTEX_FACTOR_K2) {
            /* the whole factor, or any subset of a complete graph: positions in coordinate order */
            for (uint32_t v = 0, p = 0; v < size; v++)
                if (used[v])
                    rankof[v] = p++;
        } else if (kind == TOTEX_FACTOR_PATH || kind == TOTEX_FACTOR_RING) {
            /* an interval of a path, an arc of a ring: it starts after an unused coordinate (a path's at 0) */
            start = 0;
            if (kind == TOTEX_FACTOR_RING || !used[0])
                for (uint32_t v = 0; v < size; v++)
                    if (!used[v] && used[(v + 1) % size]) {
                        start = (v + 1) % size;
                        break;
                    }
            if (kind == TOTEX_FACTOR_PATH && used[0])
                start = 0;
            for (uint32_t p = 0; p < count; p++)
                if (!used[(start + p) % size] || (kind == TOTEX_FACTOR_PATH && start + p >= size))
                    fits = 0;
            if (!fits)
                snprintf(why, why_cap, "its coordinates in factor %u (%s) are not an interval", k,
                         totex_factor_name(f));
            for (uint32_t p = 0; fits && p < count; p++)
                rankof[(start + p) % size] = p;
        } else {
            fits = 0;
            snprintf(why, why_cap, "it spans part of factor %u (%s), a graph read from a file", k, totex_factor_name(f));
        }
        for (uint32_t i = 0; fits && i < n; i++)
            pos[(size_t)i * m->dims + k] = rankof[m->coords[(size_t)world[i] * m->dims + k]];
        len[k] = count;
        product *= count;
        if (fits && count > 1) {
            char text[64];
            if (count == size)
                snprintf(text, sizeof text, "%s", totex_factor_name(f));
            else if (count == 2)
                snprintf(text, sizeof text, "k2");
            else
                snprintf(text, sizeof text, "%s:%u", kind == TOTEX_FACTOR_COMPLETE ? "complete" : "path", count);
            add(spec, cap, text);
        }
        free(used);
        free(rankof);
    }
    if (fits && product != n) {
        fits = 0;
        snprintf(why, why_cap, "its %u ranks do not fill the box of %llu nodes their coordinates span", n,
                 (unsigned long long)product);
    }
    for (uint32_t i = 0; fits && i < n; i++) {
        uint64_t id = 0, radix = 1;
        for (uint32_t k = 0; k < m->dims; k++) {
            id += radix * pos[(size_t)i * m->dims + k];
            radix *= len[k];
        }
        node[i] = (uint32_t)id;
    }
    free(pos);
    free(len);
    *applies = fits;
    if (!fits)
        spec[0] = '\0';
    return TOTEX_OK;
}
