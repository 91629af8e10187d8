/*
 * libFuzzer target for the combining schedule reader (totex_comb_import_json,
 * src/combining/import.c; format docs/schedule-format.md).
 *
 * Each input is read as a schedule file. A rejection must come with a
 * one-line, NUL-terminated message and leave nothing allocated (LeakSanitizer
 * checks). An accepted schedule on at most FUZZ_MAX_NODES nodes is replayed
 * in the combining simulator, exported, imported again and replayed again:
 * the second import must succeed with the same network, model and steps,
 * the same verdict (status, violation kind, step, transfer, node, block)
 * and the same report, and exporting it again must give the same text.
 *
 * Build and run: tests/fuzz/run.sh SECONDS schedule (see tests/fuzz/CMakeLists.txt).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "totex/combining.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_MAX_LEN 8192
/* replay only small networks: the simulator keeps n^2 block positions */
#define FUZZ_MAX_NODES 256

static void check(int cond)
{
    if (!cond)
        abort();
}

static void check_message(const totex_error *err)
{
    check(memchr(err->msg, '\0', sizeof err->msg) != NULL);
    check(err->msg[0] != '\0');
}

static int same_report(const totex_comb_report *a, const totex_comb_report *b)
{
    return a->steps == b->steps && a->startups == b->startups && a->blocks_transmitted == b->blocks_transmitted &&
           a->rearranged_blocks == b->rearranged_blocks && a->transfers == b->transfers &&
           a->block_hops == b->block_hops && a->route_hops_sum == b->route_hops_sum &&
           a->max_route_hops == b->max_route_hops && a->blocks_delivered == b->blocks_delivered &&
           a->predicted_time == b->predicted_time;
}

static int same_fault(const totex_comb_fault *a, const totex_comb_fault *b)
{
    return a->kind == b->kind && a->step == b->step && a->transfer == b->transfer && a->node == b->node &&
           a->src == b->src && a->dst == b->dst;
}

static void same_schedule(const totex_comb_schedule *a, const totex_comb_schedule *b)
{
    check(totex_comb_steps(a) == totex_comb_steps(b));
    for (uint64_t i = 0; i < totex_comb_steps(a); i++) {
        check(totex_comb_step_rearranged(a, i) == totex_comb_step_rearranged(b, i));
        check(totex_comb_step_transfers(a, i) == totex_comb_step_transfers(b, i));
        for (size_t t = 0; t < totex_comb_step_transfers(a, i); t++) {
            totex_transfer x, y;
            check(totex_comb_get_transfer(a, i, t, &x) == TOTEX_OK);
            check(totex_comb_get_transfer(b, i, t, &y) == TOTEX_OK);
            check(x.from == y.from && x.to == y.to && x.count == y.count);
            check(!x.count || !memcmp(x.blocks, y.blocks, x.count * sizeof *x.blocks));
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    totex_error err;
    totex_comb_imported a, b;
    totex_comb_report ra, rb;
    totex_comb_fault fa, fb;
    if (size > FUZZ_MAX_LEN)
        return 0;
    memset(&err, 0, sizeof err);
    if (totex_comb_import_json((const char *)data, size, &a, &err) != TOTEX_OK) {
        check_message(&err);
        check(!a.net && !a.schedule);
        return 0;
    }
    check(a.net && a.schedule);
    if (totex_network_nodes(a.net) > FUZZ_MAX_NODES) {
        totex_comb_imported_free(&a);
        return 0;
    }
    memset(&fa, 0, sizeof fa);
    memset(&ra, 0, sizeof ra);
    totex_status sa = totex_comb_simulate(a.net, a.schedule, &a.cost, &ra, &fa, &err);
    if (sa != TOTEX_OK)
        check_message(&err);

    /* export, import again, replay again: same everything */
    char *text = totex_comb_export_json(a.net, a.schedule, &a.cost, a.algorithm, &err);
    check(text != NULL);
    check(totex_comb_import_json(text, strlen(text), &b, &err) == TOTEX_OK);
    check(!strcmp(totex_network_spec(a.net), totex_network_spec(b.net)));
    check(!memcmp(&a.cost, &b.cost, sizeof a.cost));
    check(!strcmp(a.algorithm, b.algorithm));
    same_schedule(a.schedule, b.schedule);
    memset(&fb, 0, sizeof fb);
    memset(&rb, 0, sizeof rb);
    totex_status sb = totex_comb_simulate(b.net, b.schedule, &b.cost, &rb, &fb, &err);
    check(sa == sb);
    if (sa == TOTEX_OK)
        check(same_report(&ra, &rb));
    if (sa == TOTEX_EVIOLATION)
        check(same_fault(&fa, &fb));
    char *again = totex_comb_export_json(b.net, b.schedule, &b.cost, b.algorithm, &err);
    check(again != NULL && !strcmp(text, again));
    free(again);
    free(text);
    totex_comb_imported_free(&b);
    totex_comb_imported_free(&a);
    return 0;
}
