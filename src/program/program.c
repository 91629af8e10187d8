/* The program's lifetime and its small queries (program.h). */
#include <stdlib.h>
#include <string.h>

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
