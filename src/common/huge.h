/* Private to src/: large buffers read at random (the simulator's state, greedy's tables). */
#ifndef TOTEX_COMMON_HUGE_H
#define TOTEX_COMMON_HUGE_H

#include <stddef.h>

/**
 * A zeroed buffer of @p bytes (0 is taken as 1): anonymous memory, committed
 * as it is touched, on transparent huge pages where the kernel allows it and
 * the buffer spans at least TOTEX_HUGE_MIN bytes (random reads of a large
 * array would otherwise spend their time in TLB misses). NULL when out of
 * memory. Free with totex_huge_free() and the same size.
 */
void *totex_huge_alloc(size_t bytes);
/** Release a buffer of totex_huge_alloc() (@p p NULL: nothing). */
void totex_huge_free(void *p, size_t bytes);

/** Smallest buffer put on huge pages: 4 MiB, two huge pages of x86-64. */
#define TOTEX_HUGE_MIN ((size_t)4 << 20)

#endif
