/* The program's lifetime and its small queries (program.h). */
#include <stdlib.h>
#include <string.h>

#include "code.h"
#include "program.h"

void totex_prog_free(totex_prog *p)
{
    if (!p)
        return;
    free(p->rcode);
    free(p->scode);
    free(p->recvs);
    free(p->sends);
    free(p->pieces);
    free(p->deps);
    free(p->finals);
    free(p->arena);
    free(p->stage);
    free(p->fin);
    free(p);
}

void totex_prog_release(totex_prog *p)
{
    free(p->arena);
    free(p->stage);
    free(p->fin);
    p->arena = p->stage = p->fin = NULL;
}

size_t totex_prog_chunk_lo(const totex_prog *p, int i)
{
    return (size_t)(p->slot * i / p->chunks);
}

const char *totex_prog_final_block(const totex_prog *p, uint32_t i)
{
    return p->fin + (size_t)i * (size_t)p->slot;
}

size_t totex_prog_entries(const totex_prog *p)
{
    return p->nrecv + p->nsend;
}

uint64_t totex_prog_dependent_steps(const totex_prog *p)
{
    if (!p->nsend)
        return 0;
    /* step_of[r]: the group (distinct recv_before, in send order) whose sends receive r precedes: the last
       group with recv_before <= r; lvl[g]: the highest level of group g's sends so far */
    size_t *first = malloc(p->nsend * sizeof *first); /* first receive index of group g */
    uint64_t *lvl = calloc(p->nsend, sizeof *lvl), *slvl = calloc(p->nsend, sizeof *slvl);
    size_t *group = malloc(p->nsend * sizeof *group);
    uint64_t best = 0;
    if (!first || !lvl || !slvl || !group)
        goto out;
    size_t ng = 0;
    totex_prog_scur cur;
    totex_prog_send sd;
    totex_prog_scur_init(&cur);
    for (size_t s = 0; s < p->nsend; s++) {
        totex_prog_send_next(p->scode, &cur, &sd, NULL, NULL);
        if (!ng || sd.recv_before != first[ng - 1])
            first[ng++] = sd.recv_before;
        group[s] = ng - 1;
    }
    totex_prog_scur_init(&cur);
    for (size_t s = 0; s < p->nsend; s++) {
        totex_prog_body deps;
        totex_prog_send_next(p->scode, &cur, &sd, &deps, NULL);
        uint64_t l = 1;
        for (uint32_t k = 0; k < sd.dep_count; k++) {
            const size_t d = totex_prog_dep_next(p->scode, &deps);
            uint64_t from = 0;
            if (d >= p->nrecv) { /* an earlier send on its link */
                if (d - p->nrecv < s)
                    from = slvl[d - p->nrecv];
            } else { /* a receive: the level of its step's sends (groups before this send's only) */
                size_t lo = 0, hi = group[s] + 1; /* the last g < hi with first[g] <= d */
                while (hi - lo > 1) {
                    const size_t mid = lo + (hi - lo) / 2;
                    if (first[mid] <= d)
                        lo = mid;
                    else
                        hi = mid;
                }
                if (first[lo] <= d && lo < group[s])
                    from = lvl[lo];
                else if (first[lo] <= d || lo == 0)
                    from = 1; /* a receive of its own step or before any send (a kick): one level */
            }
            if (from + 1 > l)
                l = from + 1;
        }
        slvl[s] = l;
        if (l > lvl[group[s]])
            lvl[group[s]] = l;
        if (l > best)
            best = l;
    }
out:
    free(first);
    free(lvl);
    free(slvl);
    free(group);
    return best;
}

size_t totex_prog_bytes(const totex_prog *p)
{
    return p->rcode_bytes + p->scode_bytes + p->n * sizeof *p->finals;
}

/* a copy of the @p n elements of @p size bytes at @p from (NULL when n is 0); *ok cleared when out of memory */
static void *copy_array(const void *from, size_t n, size_t size, int *ok)
{
    if (!n || !from)
        return NULL;
    void *to = malloc(n * size);
    if (!to) {
        *ok = 0;
        return NULL;
    }
    return memcpy(to, from, n * size);
}

totex_prog *totex_prog_copy(const totex_prog *p)
{
    totex_prog *c = malloc(sizeof *c);
    if (!c)
        return NULL;
    *c = *p;
    int ok = 1;
    c->rcode = copy_array(p->rcode, p->rcode_bytes, 1, &ok);
    c->scode = copy_array(p->scode, p->scode_bytes, 1, &ok);
    c->recvs = NULL; /* (the expanded view is not copied: totex_prog_expand() makes it again) */
    c->sends = NULL;
    c->pieces = NULL;
    c->deps = NULL;
    c->finals = copy_array(p->finals, p->n, sizeof *p->finals, &ok);
    c->arena = c->stage = c->fin = NULL;
    c->recv_ahead_max = 0;
    if (!ok) {
        totex_prog_free(c);
        return NULL;
    }
    return c;
}
