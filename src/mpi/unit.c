/* Unit-step executor of totex_alltoall_unit (include/totex/mpi.h): plans a
 * packet-level store-and-forward algorithm of totex/algorithm.h on every rank
 * and replays it, one MPI message per hop, MPI_Waitall per step. For
 * validating those schedules on a real machine, not for speed: nothing is
 * cached. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blockmap.h"
#include "internal.h"
#include "totex/algorithm.h"

typedef struct unit_ctx {
    MPI_Comm comm;
    uint32_t n, me;
    size_t slot;
    const char *mine;
    totex_prog_blockmap store; /* (src, dst) -> index into keep */
    char **keep;              /* every received block buffer */
    size_t nkeep, capkeep;
    MPI_Request *req;
    size_t capreq;
    uint64_t step;
    int rc;
    const char *name;
} unit_ctx;

static const char *held_block(const unit_ctx *c, uint32_t src, uint32_t dst)
{
    size_t idx;
    if (src == c->me)
        return c->mine + (size_t)dst * c->slot;
    return totex_prog_blockmap_get(&c->store, (uint64_t)src * c->n + dst, &idx) ? c->keep[idx] : NULL;
}

/* one step: Irecv each hop into this rank, Isend each hop out of it (from the
   blocks held at the start of the step), Waitall, then store what arrived */
static totex_status unit_step(void *vctx, const totex_hop *hops, size_t count, totex_error *err)
{
    unit_ctx *c = vctx;
    int tag = TOTEX_MPI_UNIT_TAG + (int)(c->step % TOTEX_MPI_UNIT_TAGS);
    c->step++;
    size_t nin = 0, nout = 0;
    for (size_t i = 0; i < count; i++) {
        if (hops[i].from == hops[i].to)
            continue;
        nin += hops[i].to == c->me;
        nout += hops[i].from == c->me;
    }
    if (nin + nout > c->capreq) {
        MPI_Request *r = realloc(c->req, sizeof *r * (nin + nout));
        if (!r)
            goto nomem;
        c->req = r;
        c->capreq = nin + nout;
    }
    if (c->nkeep + nin > c->capkeep) {
        size_t cap = 2 * (c->nkeep + nin);
        char **k = realloc(c->keep, sizeof *k * cap);
        if (!k)
            goto nomem;
        c->keep = k;
        c->capkeep = cap;
    }
    int nreq = 0, rc = MPI_SUCCESS;
    size_t first = c->nkeep;
    for (size_t i = 0; i < count && rc == MPI_SUCCESS; i++) {
        const totex_hop *h = &hops[i];
        if (h->to != c->me || h->from == h->to)
            continue;
        char *b = malloc(c->slot);
        if (!b) {
            rc = MPI_ERR_NO_MEM;
            break;
        }
        c->keep[c->nkeep++] = b;
        rc = MPI_Irecv(b, (int)c->slot, MPI_BYTE, (int)h->from, tag, c->comm, &c->req[nreq++]);
    }
    for (size_t i = 0; i < count && rc == MPI_SUCCESS; i++) {
        const totex_hop *h = &hops[i];
        if (h->from != c->me || h->from == h->to)
            continue;
        const char *src = held_block(c, h->src, h->dst);
        if (!src) {
            fprintf(stderr, "totex_alltoall: step %llu: rank %u does not hold message (%u, %u) (a bug of %s)\n",
                    (unsigned long long)c->step, c->me, h->src, h->dst, c->name);
            rc = MPI_ERR_INTERN;
            break;
        }
        rc = MPI_Isend(src, (int)c->slot, MPI_BYTE, (int)h->to, tag, c->comm, &c->req[nreq++]);
    }
    if (nreq) {
        int wrc = MPI_Waitall(nreq, c->req, MPI_STATUSES_IGNORE);
        if (rc == MPI_SUCCESS)
            rc = wrc;
    }
    for (size_t i = 0, j = first; i < count && rc == MPI_SUCCESS; i++) {
        const totex_hop *h = &hops[i];
        if (h->to != c->me || h->from == h->to)
            continue;
        if (totex_prog_blockmap_put(&c->store, (uint64_t)h->src * c->n + h->dst, j++))
            rc = MPI_ERR_NO_MEM;
    }
    if (rc != MPI_SUCCESS) {
        c->rc = rc;
        snprintf(err->msg, sizeof err->msg, "MPI error %d in step %llu", rc, (unsigned long long)c->step);
        return TOTEX_EVIOLATION;
    }
    return TOTEX_OK;
nomem:
    c->rc = MPI_ERR_NO_MEM;
    snprintf(err->msg, sizeof err->msg, "out of memory in step %llu", (unsigned long long)c->step);
    return TOTEX_ENOMEM;
}

/* gather every block (i, me) into out[i * slot] */
static int collect(const unit_ctx *c, char *out)
{
    for (uint32_t i = 0; i < c->n; i++) {
        const char *b = held_block(c, i, c->me);
        if (!b) {
            fprintf(stderr, "totex_alltoall: rank %u never received block (%u, %u) (a bug of %s)\n", c->me, i, c->me,
                    c->name);
            return MPI_ERR_INTERN;
        }
        memcpy(out + (size_t)i * c->slot, b, c->slot);
    }
    return MPI_SUCCESS;
}

int totex_mpi_run_unit(MPI_Comm comm, int size, int rank, const char *mine, long long slot,
                       const totex_mpi_options *opt, totex_mpi_state *st, char **out)
{
    int rc;
    char spec[512], why[700] = "";
    *out = NULL;
    if ((rc = totex_mpi_comm_spec(st, comm, size, spec, sizeof spec)) != MPI_SUCCESS)
        return rc;
    totex_error err;
    err.msg[0] = '\0';
    totex_ports ports = opt->unit_ports <= 0 ? TOTEX_PORTS_MULTI : (totex_ports)opt->unit_ports;
    totex_network *net = totex_network_parse(spec, &err);
    totex_schedule *sch = NULL;
    const totex_algorithm *a = NULL;
    const char *nm = opt->unit_algorithm;
    int bad = 1;
    if (!net) {
        snprintf(why, sizeof why, "network '%s': %s", spec, err.msg);
    } else {
        a = (!nm || !*nm || strcmp(nm, "auto") == 0) ? totex_algorithm_auto(net, ports, &err)
                                                     : totex_algorithm_find(nm, &err);
        if (!a)
            snprintf(why, sizeof why, "unit-step algorithm: %s", err.msg);
        else if (a->applies(net, ports, &err) != TOTEX_OK)
            snprintf(why, sizeof why, "unit-step algorithm %s on %s: %s", a->name, spec, err.msg);
        else if (!(sch = totex_schedule_new()))
            snprintf(why, sizeof why, "out of memory");
        else if (a->plan(net, ports, totex_schedule_sink(sch), &err) != TOTEX_OK)
            snprintf(why, sizeof why, "unit-step algorithm %s on %s: %s", a->name, spec, err.msg);
        else
            bad = 0;
    }
    int anybad = 0;
    if ((rc = MPI_Allreduce(&bad, &anybad, 1, MPI_INT, MPI_MAX, comm)) == MPI_SUCCESS && anybad) {
        if (bad)
            fprintf(stderr, "totex_alltoall: rank %d: %s\n", rank, why);
        rc = MPI_ERR_ARG;
    }
    if (rc == MPI_SUCCESS) {
        if (opt->verbose && !st->verbose_done && rank == 0)
            fprintf(stderr,
                    "totex: %s on %d ranks, network %s, %lld-byte blocks: unit-step algorithm %s "
                    "(%s, %llu steps)\n",
                    opt->entry ? opt->entry : "totex_alltoall_unit", size, spec, slot, a->name, totex_ports_name(ports),
                    (unsigned long long)totex_schedule_steps(sch));
        st->verbose_done = 1;
        unit_ctx c = {.comm = comm, .n = (uint32_t)size, .me = (uint32_t)rank, .slot = (size_t)slot, .mine = mine,
                      .rc = MPI_SUCCESS, .name = a->name};
        if (totex_schedule_replay(sch, (totex_sink){unit_step, &c}, &err) != TOTEX_OK && c.rc == MPI_SUCCESS)
            c.rc = MPI_ERR_INTERN;
        rc = c.rc;
        if (rc == MPI_SUCCESS) {
            *out = malloc((size_t)size * (size_t)slot);
            rc = *out ? collect(&c, *out) : MPI_ERR_NO_MEM;
        }
        free(c.req);
        for (size_t i = 0; i < c.nkeep; i++)
            free(c.keep[i]);
        free(c.keep);
        totex_prog_blockmap_clear(&c.store);
    }
    totex_schedule_free(sch);
    totex_network_free(net);
    return rc;
}
