/* Open-addressing block map of the MPI executors (blockmap.h). */
#include "blockmap.h"

#include <stdlib.h>

static size_t slot_of(uint64_t k, size_t cap) { return (size_t)((k * UINT64_C(0x9E3779B97F4A7C15)) >> 17) & (cap - 1); }

int totex_prog_blockmap_put(totex_prog_blockmap *m, uint64_t key, size_t val)
{
    if (2 * (m->used + 1) > m->cap) {
        size_t ncap = m->cap ? 2 * m->cap : 64;
        uint64_t *nk = calloc(ncap, sizeof *nk);
        size_t *nv = calloc(ncap, sizeof *nv);
        if (!nk || !nv) {
            free(nk);
            free(nv);
            return -1;
        }
        for (size_t i = 0; i < m->cap; i++)
            if (m->keys[i]) {
                size_t h = slot_of(m->keys[i], ncap);
                while (nk[h])
                    h = (h + 1) & (ncap - 1);
                nk[h] = m->keys[i];
                nv[h] = m->vals[i];
            }
        free(m->keys);
        free(m->vals);
        m->keys = nk;
        m->vals = nv;
        m->cap = ncap;
    }
    size_t h = slot_of(key + 1, m->cap);
    while (m->keys[h] && m->keys[h] != key + 1)
        h = (h + 1) & (m->cap - 1);
    if (!m->keys[h])
        m->used++;
    m->keys[h] = key + 1;
    m->vals[h] = val;
    return 0;
}

int totex_prog_blockmap_get(const totex_prog_blockmap *m, uint64_t key, size_t *val)
{
    if (!m->cap)
        return 0;
    size_t h = slot_of(key + 1, m->cap);
    while (m->keys[h]) {
        if (m->keys[h] == key + 1) {
            *val = m->vals[h];
            return 1;
        }
        h = (h + 1) & (m->cap - 1);
    }
    return 0;
}

void totex_prog_blockmap_del(totex_prog_blockmap *m, uint64_t key)
{
    if (!m->cap)
        return;
    const size_t mask = m->cap - 1;
    size_t h = slot_of(key + 1, m->cap);
    while (m->keys[h] && m->keys[h] != key + 1)
        h = (h + 1) & mask;
    if (!m->keys[h])
        return;
    /* shift back every later key of the run whose home is not between the hole and it (cyclically) */
    size_t hole = h;
    for (size_t i = (h + 1) & mask; m->keys[i]; i = (i + 1) & mask) {
        const size_t home = slot_of(m->keys[i], m->cap);
        if (((i - home) & mask) >= ((i - hole) & mask)) {
            m->keys[hole] = m->keys[i];
            m->vals[hole] = m->vals[i];
            hole = i;
        }
    }
    m->keys[hole] = 0;
    m->used--;
}

void totex_prog_blockmap_clear(totex_prog_blockmap *m)
{
    free(m->keys);
    free(m->vals);
    m->keys = NULL;
    m->vals = NULL;
    m->cap = m->used = 0;
}
