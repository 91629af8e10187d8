/* Per-node furthest-first message queues of a linear array (003 Section 3's
 * furthest-first discipline; ties to the message that has travelled furthest). */
#include "algorithms/path_queue.h"

#include <stdlib.h>


void totex_pathq_free(totex_pathq *q)
{
    free(q->next);
    free(q->prev);
    free(q->head);
    free(q->tail);
    free(q->right_far);
    free(q->left_far);
    free(q->right_n);
    free(q->left_n);
}

int totex_pathq_init(totex_pathq *q, uint32_t m)
{
    size_t mm = (size_t)m * m;
    q->m = m;
    q->next = malloc(sizeof *q->next * mm);
    q->prev = malloc(sizeof *q->prev * mm);
    q->head = malloc(sizeof *q->head * mm);
    q->tail = malloc(sizeof *q->tail * mm);
    q->right_far = malloc(sizeof *q->right_far * m);
    q->left_far = malloc(sizeof *q->left_far * m);
    q->right_n = calloc(m, sizeof *q->right_n);
    q->left_n = calloc(m, sizeof *q->left_n);
    if (!q->next || !q->prev || !q->head || !q->tail || !q->right_far || !q->left_far || !q->right_n || !q->left_n)
        return -1;
    for (size_t b = 0; b < mm; b++)
        q->head[b] = q->tail[b] = TOTEX_PATHQ_NONE;
    for (uint32_t a = 0; a < m; a++)
        q->right_far[a] = q->left_far[a] = a; /* nothing queued either way */
    return 0;
}

void totex_pathq_push(totex_pathq *q, uint32_t a, uint32_t src, uint32_t dst)
{
    uint32_t m = q->m, id = src * m + dst, p, n;
    size_t b = (size_t)a * m + dst;
    int right = dst > a;
    p = q->tail[b];
    while (p != TOTEX_PATHQ_NONE && (right ? p / m > src : p / m < src))
        p = q->prev[p];
    n = p == TOTEX_PATHQ_NONE ? q->head[b] : q->next[p];
    q->prev[id] = p;
    q->next[id] = n;
    if (p == TOTEX_PATHQ_NONE)
        q->head[b] = id;
    else
        q->next[p] = id;
    if (n == TOTEX_PATHQ_NONE)
        q->tail[b] = id;
    else
        q->prev[n] = id;
    if (right) {
        q->right_n[a]++;
        if (dst > q->right_far[a])
            q->right_far[a] = dst;
    } else {
        q->left_n[a]++;
        if (dst < q->left_far[a])
            q->left_far[a] = dst;
    }
}

/* Dequeue the head of bucket (a, d); returns its source. */
static uint32_t pathq_take(totex_pathq *q, uint32_t a, uint32_t d)
{
    size_t b = (size_t)a * q->m + d;
    uint32_t id = q->head[b];
    q->head[b] = q->next[id];
    if (q->head[b] == TOTEX_PATHQ_NONE)
        q->tail[b] = TOTEX_PATHQ_NONE;
    else
        q->prev[q->head[b]] = TOTEX_PATHQ_NONE;
    return id / q->m;
}

/* Node a's furthest-going rightward message (0 when it has none). */
int totex_pathq_pop_right(totex_pathq *q, uint32_t a, uint32_t *src, uint32_t *dst)
{
    if (!q->right_n[a])
        return 0;
    uint32_t d = q->right_far[a];
    while (q->head[(size_t)a * q->m + d] == TOTEX_PATHQ_NONE)
        d--;
    q->right_far[a] = d;
    q->right_n[a]--;
    *dst = d;
    *src = pathq_take(q, a, d);
    return 1;
}

/* Node a's furthest-going leftward message (0 when it has none). */
int totex_pathq_pop_left(totex_pathq *q, uint32_t a, uint32_t *src, uint32_t *dst)
{
    if (!q->left_n[a])
        return 0;
    uint32_t d = q->left_far[a];
    while (q->head[(size_t)a * q->m + d] == TOTEX_PATHQ_NONE)
        d++;
    q->left_far[a] = d;
    q->left_n[a]--;
    *dst = d;
    *src = pathq_take(q, a, d);
    return 1;
}

