/* The program's lifetime and its small queries (program.h). */
#include <stdlib.h>

#include "program.h"

void totex_prog_free(totex_prog *p)
{
    if (!p)
        return;
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
    size_t pieces = 0, deps = 0;
    for (size_t i = 0; i < p->nsend; i++) {
        pieces += p->sends[i].piece_count;
        deps += p->sends[i].dep_count;
    }
    return p->nrecv * sizeof *p->recvs + p->nsend * sizeof *p->sends + pieces * sizeof *p->pieces +
           deps * sizeof *p->deps + p->n * sizeof *p->finals;
}
