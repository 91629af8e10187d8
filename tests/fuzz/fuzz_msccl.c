/*
 * libFuzzer target for the MSCCL XML verifier (totex_msccl_verify,
 * include/totex/schedule_io.h). The first byte picks the network (bits 0-2:
 * ring:4, torus:3x3, complete:4, hypercube:3, path:3, mesh:2x3, ring:8, k2)
 * and the port model ((byte >> 3) % 3: multi, single, 2-port); the rest is
 * the XML. A rejection must come with a non-empty
 * message; an accepted schedule (read by the executor's rules)
 * must have delivered all k n(n-1) blocks (k chunks per rank pair) and cost
 * at least the best lower bound's steps in rounds.
 *
 * Seeds: tests/fuzz/corpus_msccl (first byte 0x00 + files written by totex
 * plan --format msccl, and hand-written ones).
 * Build and run: tests/fuzz/run.sh [SECONDS] msccl
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>

#include "totex/bounds.h"
#include "totex/schedule_io.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int cond)
{
    if (!cond)
        abort();
}

static void quiet(void *ctx, const char *msg, ...)
{
    (void)ctx;
    (void)msg;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static totex_network *nets[8];
    static const char *specs[8] = {"ring:4", "torus:3x3", "complete:4", "hypercube:3",
                                   "path:3", "mesh:2x3",  "ring:8",     "k2"};
    static const totex_ports ports_of[3] = {TOTEX_PORTS_MULTI, TOTEX_PORTS_SINGLE, 2};
    if (!nets[0]) {
        xmlSetGenericErrorFunc(NULL, quiet);
        for (int i = 0; i < 8; i++) {
            nets[i] = totex_network_parse(specs[i], NULL);
            check(nets[i] != NULL);
        }
    }
    if (size < 1 || size > 65536)
        return 0;
    totex_network *net = nets[data[0] & 7];
    totex_ports ports = ports_of[(data[0] >> 3) % 3];
    totex_sim_report rep;
    totex_error err;
    char name[64];
    memset(&err, 0, sizeof err);
    totex_status st = totex_msccl_verify((const char *)data + 1, size - 1, net, ports, 0, &rep, name, sizeof name, &err);
    if (st != TOTEX_OK) {
        check(memchr(err.msg, '\0', sizeof err.msg) != NULL);
        check(err.msg[0] != '\0');
    } else {
        totex_bound b[TOTEX_MAX_BOUNDS];
        size_t nb = 0, best = 0;
        check(rep.messages >= totex_network_messages(net) && rep.messages % totex_network_messages(net) == 0);
        if (totex_bounds_compute(net, ports, b, &nb, &best, NULL) == TOTEX_OK && nb)
            check(rep.steps >= b[best].value);
    }
    return 0;
}
