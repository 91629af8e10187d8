/*
 * The driver's schedule export (include/totex/schedule_io.h): plan with an
 * algorithm again and write its schedule as a file, in the symmetric form
 * when the algorithm has one (001 Theorem 2), else in the full form streamed
 * step by step, or as MSCCL XML. Nothing but the writer's state is held:
 * the full form never keeps the schedule in memory.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "totex/combining.h"
#include "totex/output.h"
#include "totex/report.h"
#include "totex/schedule_io.h"
#include "totex/task.h"

/* A writer failed with @p st: when the stream itself failed (TOTEX_EIO), the output's own reason replaces the
   writer's; the temporary file is removed and the path left as it was. */
static totex_status give_up(totex_output *out, totex_status st, totex_error *err)
{
    if (st == TOTEX_EIO && totex_output_close(out, err) == TOTEX_OK)
        st = TOTEX_EIO; /* the stream is fine: the writer's message stands */
    totex_output_abort(out);
    return st;
}

/* Finish @p mw (freed here), read the XML back through the executor's semantics on @p net under @p ports, and
   write it to @p path only when it verifies. */
static totex_status msccl_check_and_write(totex_msccl_writer *mw, const char *path, const totex_network *net,
                                          totex_ports ports, int keep_steps, totex_error *err)
{
    uint64_t planned = totex_msccl_writer_steps(mw);
    char *xml = NULL;
    size_t len = 0;
    totex_status st;
    FILE *mem = open_memstream(&xml, &len);
    if (!mem) {
        totex_msccl_writer_free(mw);
        return totex_fail(err, TOTEX_ENOMEM, "out of memory");
    }
    st = totex_msccl_writer_finish(mw, mem, err);
    totex_msccl_writer_free(mw);
    if (fclose(mem) && st == TOTEX_OK)
        st = totex_fail(err, TOTEX_ENOMEM, "out of memory");
    if (st == TOTEX_OK) {
        /* read back by the executor's rules: a correct all-to-all, and (keep_steps) the executor, starting
           each send as soon as its data and dependencies are there, keeps the schedule's steps under the port
           model (single-port and k-port receivers cannot hold senders back) */
        totex_sim_report rep;
        totex_error e2;
        totex_status vs = totex_msccl_verify(xml, len, net, ports, 0, &rep, NULL, 0, &e2);
        if (vs != TOTEX_OK) {
            st = totex_fail(err, vs == TOTEX_EVIOLATION ? TOTEX_EINVAL : vs,
                            "the MSCCL XML written does not read back: %.400s", e2.msg);
        } else if (keep_steps && rep.steps > planned) {
            char pm[32];
            st = totex_fail(err, TOTEX_EINVAL,
                            "MSCCL XML cannot keep this %s schedule: the executor starts each send as soon as its "
                            "data and dependencies are there, and receivers cannot hold senders back, so it costs "
                            "%llu rounds under the port model, more than the schedule's %llu steps; write MSCCL for "
                            "--ports multi, or the JSON file (--format json)",
                            totex_ports_format(ports, pm, sizeof pm), (unsigned long long)rep.steps,
                            (unsigned long long)planned);
        }
    }
    if (st != TOTEX_OK) {
        free(xml);
        return st;
    }
    totex_output *out = totex_output_open(path, err);
    if (!out) {
        free(xml);
        return TOTEX_EIO;
    }
    fwrite(xml, 1, len, totex_output_file(out)); /* checked by the commit (ferror, fclose) */
    free(xml);
    return totex_output_commit(out, err);
}

totex_status totex_plan_export(const char *path, const totex_network *net, totex_ports ports,
                               const totex_algorithm *algo, totex_export_format format, totex_error *err)
{
    totex_status st;
    if (!path || !*path || !net || !algo)
        return totex_fail(err, TOTEX_EINVAL, "totex_plan_export: needs a file name, a network and an algorithm");
    /* an MSCCL file that cannot fit is refused before the file is created */
    totex_msccl_writer *mw = NULL;
    if (format == TOTEX_EXPORT_MSCCL) {
        char name[160];
        snprintf(name, sizeof name, "totex-%s-%s", algo->name, totex_network_spec(net));
        if (!(mw = totex_msccl_writer_new(totex_network_nodes(net), ports, name, err)))
            return TOTEX_EINVAL;
        if ((st = algo->plan(net, ports, totex_msccl_writer_sink(mw), err)) != TOTEX_OK) {
            totex_msccl_writer_free(mw);
            return st;
        }
        return msccl_check_and_write(mw, path, net, ports, 1, err);
    }
    totex_output *out = totex_output_open(path, err);
    if (!out) {
        totex_msccl_writer_free(mw);
        return TOTEX_EIO;
    }
    FILE *fp = totex_output_file(out);
    if (format == TOTEX_EXPORT_JSON && algo->plan_symmetric) {
        totex_task *t = NULL;
        totex_sym_schedule *s = NULL;
        st = algo->plan_symmetric(net, ports, &t, &s, err);
        if (st == TOTEX_OK)
            st = totex_unit_write_symmetric(fp, net, ports, algo->name, t, s, err);
        totex_sym_free(s);
        totex_task_free(t);
    } else {
        totex_unit_writer *w = totex_unit_writer_open(fp, net, ports, algo->name, err);
        st = w ? algo->plan(net, ports, totex_unit_writer_sink(w), err) : TOTEX_EIO;
        totex_status st2 = totex_unit_writer_close(w, st == TOTEX_OK ? err : NULL);
        if (st == TOTEX_OK)
            st = st2;
    }
    if (st != TOTEX_OK)
        return give_up(out, st, err); /* the path is left as it was */
    return totex_output_commit(out, err);
}

totex_status totex_comb_export_msccl(const char *path, const totex_network *net, const totex_comb_schedule *s,
                                     const char *algorithm, totex_error *err)
{
    char name[160], spec[32];
    totex_status st = TOTEX_OK;
    totex_hop *hops = NULL;
    size_t cap = 0;
    if (!path || !*path || !net || !s)
        return totex_fail(err, TOTEX_EINVAL, "totex_comb_export_msccl: needs a file name, a network and a schedule");
    uint32_t n = totex_network_nodes(net);
    snprintf(name, sizeof name, "totex-%s-%s", algorithm ? algorithm : "combining", totex_network_spec(net));
    totex_msccl_writer *mw = totex_msccl_writer_new(n, TOTEX_PORTS_MULTI, name, err);
    if (!mw)
        return TOTEX_EINVAL;
    totex_sink sink = totex_msccl_writer_sink(mw);
    for (uint64_t i = 0; i < totex_comb_steps(s) && st == TOTEX_OK; i++) {
        size_t count = 0;
        for (size_t t = 0; t < totex_comb_step_transfers(s, i); t++) {
            totex_transfer x;
            totex_comb_get_transfer(s, i, t, &x);
            if (count + x.count > cap) {
                size_t c = (count + x.count) * 2;
                totex_hop *q = realloc(hops, c * sizeof *q);
                if (!q) {
                    st = totex_fail(err, TOTEX_ENOMEM, "out of memory");
                    break;
                }
                hops = q;
                cap = c;
            }
            for (size_t b = 0; b < x.count; b++)
                hops[count++] = (totex_hop){x.from, x.to, x.blocks[b].src, x.blocks[b].dst};
        }
        if (st == TOTEX_OK)
            st = sink.step(sink.ctx, hops, count, err);
    }
    free(hops);
    if (st != TOTEX_OK) {
        totex_msccl_writer_free(mw);
        return st;
    }
    /* a combining transfer may take a route of several links (wormhole): MSCCL connects any two ranks, so the
       program is read back on the complete graph, where every transfer is one link */
    snprintf(spec, sizeof spec, "complete:%u", n);
    totex_network *kn = totex_network_parse(spec, err);
    if (!kn) {
        totex_msccl_writer_free(mw);
        return TOTEX_EINVAL;
    }
    st = msccl_check_and_write(mw, path, kn, TOTEX_PORTS_MULTI, 0, err);
    totex_network_free(kn);
    return st;
}

totex_status totex_plan_export_result(const char *path, const totex_plan_result *r, totex_export_format format,
                                      totex_error *err)
{
    if (!r || !r->algorithm)
        return totex_fail(err, TOTEX_EINVAL, "totex_plan_export_result: no plan");
    if (!(format == TOTEX_EXPORT_JSON && r->kept_schedule && r->kept_task))
        return totex_plan_export(path, r->net, r->ports, r->algorithm, format, err);
    if (!path || !*path)
        return totex_fail(err, TOTEX_EINVAL, "totex_plan_export_result: needs a file name");
    totex_output *out = totex_output_open(path, err);
    if (!out)
        return TOTEX_EIO;
    totex_status st = totex_unit_write_symmetric(totex_output_file(out), r->net, r->ports, r->algorithm->name,
                                                 r->kept_task, r->kept_schedule, err);
    if (st != TOTEX_OK)
        return give_up(out, st, err);
    return totex_output_commit(out, err);
}
