/* Large zeroed buffers on transparent huge pages (src/common/huge.h). */
#include "common/huge.h"

#include <sys/mman.h>

void *totex_huge_alloc(size_t bytes)
{
    if (bytes == 0)
        bytes = 1;
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
#ifdef MADV_HUGEPAGE
    if (bytes >= TOTEX_HUGE_MIN)
        madvise(p, bytes, MADV_HUGEPAGE);
#endif
    return p;
}

void totex_huge_free(void *p, size_t bytes)
{
    if (p)
        munmap(p, bytes ? bytes : 1);
}
