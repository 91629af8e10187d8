/* Open-addressing map from a block (src, dst), keyed src * n + dst, to an
 * index: where the MPI executors keep the blocks a rank holds. */
#ifndef TOTEX_PROG_BLOCKMAP_H
#define TOTEX_PROG_BLOCKMAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct totex_prog_blockmap {
    uint64_t *keys; /* key + 1; 0 = empty */
    size_t *vals;
    size_t cap, used;
} totex_prog_blockmap;

/* set key -> val (replacing); 0, or -1 when out of memory (the map is unchanged) */
int totex_prog_blockmap_put(totex_prog_blockmap *m, uint64_t key, size_t val);
/* 1 and *val if key is present, else 0 */
int totex_prog_blockmap_get(const totex_prog_blockmap *m, uint64_t key, size_t *val);
/* remove key (absent: nothing): backward-shift deletion, no tombstones, so that a map whose keys
   come and go stays as large as the keys it holds at once */
void totex_prog_blockmap_del(totex_prog_blockmap *m, uint64_t key);
/* free the arrays (the map is empty again) */
void totex_prog_blockmap_clear(totex_prog_blockmap *m);

#endif
