/*
 * Lower bound on the average delay: the auxiliary problem of 001's appendix
 * (Theorem 6, Proposition 1), see totex/delay.h.
 *
 * The SPT rule serves in every slot the (at most s) customers with the least
 * positive residual service. A served customer's residual drops below every
 * waiting customer's, so the served set only changes when one completes,
 * and then the waiting customer with the least service joins: the schedule
 * is list scheduling in increasing order of service on the server that frees
 * first. Customers come from buckets by service time (counting sort); the
 * servers' free times are a binary min-heap. Completion slot of a customer
 * started when its server frees at f: f + x.
 */
#include "totex/delay.h"

#include <stdlib.h>

#include "common/error.h"

static void sift_down(uint64_t *h, uint32_t n, uint32_t i)
{
    for (;;) {
        uint32_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < n && h[l] < h[m])
            m = l;
        if (r < n && h[r] < h[m])
            m = r;
        if (m == i)
            return;
        uint64_t t = h[i];
        h[i] = h[m];
        h[m] = t;
        i = m;
    }
}

totex_status totex_delay_lower_bound(const totex_task *t, totex_ports ports, double *out, totex_error *err)
{
    if (!t || !out)
        return totex_fail(err, TOTEX_EINVAL, "totex_delay_lower_bound: NULL argument");
    if (ports > TOTEX_PORTS_MAX_K)
        return totex_fail(err, TOTEX_EINVAL, "totex_delay_lower_bound: k = %u exceeds %u", (unsigned)ports,
                          TOTEX_PORTS_MAX_K);
    uint32_t rows = totex_task_rows(t), cols = totex_task_cols(t);
    if (!rows || !cols)
        return totex_fail(err, TOTEX_EINVAL, "totex_delay_lower_bound: the task has no packets");
    uint32_t servers = (ports == TOTEX_PORTS_MULTI || ports > cols) ? cols : ports;
    uint32_t maxx = totex_task_max_row_sum(t);
    uint64_t *bucket = calloc((size_t)maxx + 1, sizeof *bucket);
    uint64_t *heap = calloc(servers, sizeof *heap); /* free times, all 0 */
    if (!bucket || !heap) {
        free(bucket);
        free(heap);
        return totex_fail(err, TOTEX_ENOMEM, "out of memory for the delay lower bound");
    }
    for (uint32_t r = 0; r < rows; r++)
        bucket[totex_task_row_sum(t, r)]++;
    /* list scheduling in increasing service: the heap root is the earliest free server */
    long double total = 0;
    for (uint32_t x = 1; x <= maxx; x++) /* a customer needing no service completes at 0 */
        for (uint64_t c = bucket[x]; c > 0; c--) {
            heap[0] += x;
            total += (long double)heap[0];
            sift_down(heap, servers, 0);
        }
    *out = (double)(total / rows);
    free(bucket);
    free(heap);
    return TOTEX_OK;
}
