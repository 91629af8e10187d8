/*
 * Writing unit-step schedules as JSON (include/totex/schedule_io.h,
 * docs/unit-schedule-format.md): the full form streamed from a sink, one
 * step per line, and the symmetric form (001 Definition 4, Theorem 2: node
 * 0's moves and the translation rule). Numbers are written by hand (no
 * printf per number) so that Fugaku's 3.1 M moves take well under a second.
 */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "totex/schedule_io.h"
#include "totex/task.h"

struct totex_unit_writer {
    FILE *fp;
    uint64_t steps;
};

/* append the decimal digits of v at p; returns the new end */
static char *put_u64(char *p, uint64_t v)
{
    char tmp[24];
    int k = 0;
    do {
        tmp[k++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (k)
        *p++ = tmp[--k];
    return p;
}

/* a JSON string literal (quotes, backslashes and control characters escaped) */
static void put_string(FILE *fp, const char *s)
{
    fputc('"', fp);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(fp, "\\%c", c);
        else if (c < 0x20 || c == 0x7f)
            fprintf(fp, "\\u%04x", c);
        else
            fputc(c, fp);
    }
    fputc('"', fp);
}

static void header(FILE *fp, const totex_network *net, totex_ports ports, const char *algorithm, const char *form)
{
    char pbuf[32];
    fprintf(fp, "{\"format\": \"%s\", \"version\": 1, \"form\": \"%s\",\n \"network\": ", TOTEX_UNIT_FORMAT, form);
    put_string(fp, totex_network_spec(net));
    fprintf(fp, ", \"nodes\": %u, \"ports\": \"%s\", \"algorithm\": ", totex_network_nodes(net),
            totex_ports_format(ports, pbuf, sizeof pbuf));
    put_string(fp, algorithm ? algorithm : "unknown");
}

totex_unit_writer *totex_unit_writer_open(FILE *fp, const totex_network *net, totex_ports ports,
                                          const char *algorithm, totex_error *err)
{
    totex_unit_writer *w;
    if (!fp || !net) {
        totex_fail(err, TOTEX_EINVAL, "totex_unit_writer_open: NULL file or network");
        return NULL;
    }
    if (!(w = calloc(1, sizeof *w))) {
        totex_fail(err, TOTEX_ENOMEM, "out of memory");
        return NULL;
    }
    w->fp = fp;
    header(fp, net, ports, algorithm, "full");
    fputs(",\n \"steps\": [", fp);
    if (ferror(fp)) {
        free(w);
        totex_fail(err, TOTEX_EIO, "cannot write the schedule file (disk full?)");
        return NULL;
    }
    return w;
}

static totex_status writer_step(void *ctx, const totex_hop *hops, size_t count, totex_error *err)
{
    totex_unit_writer *w = ctx;
    char buf[160];
    fputs(w->steps ? ",\n[" : "\n[", w->fp);
    for (size_t i = 0; i < count; i++) {
        char *p = buf;
        if (i)
            *p++ = ',';
        memcpy(p, "{\"from\":", 8), p += 8;
        p = put_u64(p, hops[i].from);
        memcpy(p, ",\"to\":", 6), p += 6;
        p = put_u64(p, hops[i].to);
        memcpy(p, ",\"src\":", 7), p += 7;
        p = put_u64(p, hops[i].src);
        memcpy(p, ",\"dst\":", 7), p += 7;
        p = put_u64(p, hops[i].dst);
        *p++ = '}';
        fwrite(buf, 1, (size_t)(p - buf), w->fp);
    }
    fputc(']', w->fp);
    w->steps++;
    if (ferror(w->fp))
        return totex_fail(err, TOTEX_EIO, "cannot write step %llu of the schedule file (disk full?)",
                          (unsigned long long)(w->steps - 1));
    return TOTEX_OK;
}

totex_sink totex_unit_writer_sink(totex_unit_writer *w)
{
    totex_sink s = {writer_step, w};
    return s;
}

totex_status totex_unit_writer_close(totex_unit_writer *w, totex_error *err)
{
    totex_status st = TOTEX_OK;
    if (!w)
        return TOTEX_OK;
    fputs("\n]}\n", w->fp);
    if (fflush(w->fp) || ferror(w->fp))
        st = totex_fail(err, TOTEX_EIO, "cannot write the schedule file (disk full?)");
    free(w);
    return st;
}

totex_status totex_unit_write_symmetric(FILE *fp, const totex_network *net, totex_ports ports, const char *algorithm,
                                        const totex_task *t, const totex_sym_schedule *s, totex_error *err)
{
    if (!fp || !net || !t || !s)
        return totex_fail(err, TOTEX_EINVAL, "totex_unit_write_symmetric: NULL argument");
    if (totex_task_get_kind(t) != TOTEX_TASK_TOTAL_EXCHANGE)
        return totex_fail(err, TOTEX_EINVAL, "only total exchange is written as a schedule file");
    uint32_t pd = totex_task_period_dim(t);
    header(fp, net, ports, algorithm, "symmetric");
    if (pd == UINT32_MAX)
        fputs(",\n \"task\": \"total-exchange\"", fp);
    else
        fprintf(fp, ",\n \"task\": \"period-2\", \"period_dim\": %u", pd);
    fprintf(fp, ", \"rows\": %u, \"columns\": [", totex_task_rows(t));
    for (uint32_t j = 0; j < totex_task_cols(t); j++) {
        totex_link_type lt = totex_task_column(t, j);
        fprintf(fp, "%s[%u, %u]", j ? ", " : "", lt.dim, lt.delta);
    }
    fputs("],\n \"translation\": \"node v does in step t what node 0 does, translated by v (001 Definition 4, "
          "Theorem 2): a move [r, j] of node 0 sends, from every node v, the packet of row r held at v over v's "
          "link of type j (columns[j] = [dimension, delta]: to coordinate + delta mod m in that dimension); "
          "row r is the packet of node 0 to node r + 1",
          fp);
    if (pd != UINT32_MAX)
        fputs(" (rows n-1 .. 2n-3: the packets of node e_period_dim, by destination offset; the scheme repeats "
              "under translations by two along period_dim)",
              fp);
    fputs("\",\n \"steps\": [", fp);
    size_t cap = 0;
    char *buf = NULL;
    for (uint64_t i = 0; i < totex_sym_steps(s); i++) {
        size_t count;
        const totex_sym_move *m = totex_sym_step(s, i, &count);
        if (count * 24 + 8 > cap) {
            size_t c = count * 24 + 8;
            char *q = realloc(buf, c);
            if (!q) {
                free(buf);
                return totex_fail(err, TOTEX_ENOMEM, "out of memory writing step %llu", (unsigned long long)i);
            }
            buf = q;
            cap = c;
        }
        char *p = buf;
        if (i)
            *p++ = ',';
        *p++ = '\n';
        *p++ = '[';
        for (size_t k = 0; k < count; k++) {
            if (k)
                *p++ = ',';
            p = put_u64(p, m[k].row);
            *p++ = ',';
            p = put_u64(p, m[k].col);
        }
        *p++ = ']';
        fwrite(buf, 1, (size_t)(p - buf), fp);
    }
    free(buf);
    fputs("\n]}\n", fp);
    if (fflush(fp) || ferror(fp))
        return totex_fail(err, TOTEX_EIO, "cannot write the schedule file (disk full?)");
    return TOTEX_OK;
}
