/*
 * Verifying unit-step schedule files (include/totex/schedule_io.h): the
 * reader (src/schedule/unit_read.c) only reads; here the full form goes step
 * by step into a fresh simulator (totex/sim.h) and the symmetric form is
 * certified at one node (001 Theorem 2, totex_sym_certify()).
 */
#include <string.h>

#include "schedule/unit_read.h"
#include "totex/sim.h"
#include "totex/symmetric.h"

static totex_status full_begin(void *ctx, const totex_network *net, totex_ports ports, uint64_t max_messages,
                               totex_sink *steps, totex_error *err)
{
    totex_sim **sim = ctx;
    if (!(*sim = totex_sim_new(net, ports, max_messages, err)))
        return TOTEX_ENOMEM;
    *steps = totex_sim_sink(*sim);
    return TOTEX_OK;
}

static totex_status full_end(void *ctx, totex_sim_report *rep, totex_error *err)
{
    return totex_sim_finish(*(totex_sim **)ctx, rep, err);
}

static void full_free(void *ctx)
{
    totex_sim **sim = ctx;
    totex_sim_free(*sim);
    *sim = NULL;
}

static totex_status symmetric(void *ctx, const totex_network *net, const totex_task *t, totex_ports ports,
                              const totex_sym_schedule *s, totex_sim_report *rep, totex_error *err)
{
    totex_sym_report sr;
    (void)ctx;
    totex_status st = totex_sym_certify(t, ports, s, &sr, err);
    if (st == TOTEX_OK)
        totex_sym_report_to_sim(net, s, &sr, rep);
    return st;
}

totex_status totex_unit_verify_stream(FILE *fp, const totex_unit_limits *lim, const totex_ports *ports_override,
                                      totex_unit_verdict *out, totex_error *err)
{
    totex_sim *sim = NULL;
    const totex_unit_checker check = {&sim, full_begin, full_end, full_free, symmetric};
    return totex_unit_read_stream(fp, lim, ports_override, &check, out, err);
}

totex_status totex_unit_verify_file(const char *path, const totex_unit_limits *lim, const totex_ports *ports_override,
                                    totex_unit_verdict *out, totex_error *err)
{
    totex_sim *sim = NULL;
    const totex_unit_checker check = {&sim, full_begin, full_end, full_free, symmetric};
    return totex_unit_read_file(path, lim, ports_override, &check, out, err);
}
