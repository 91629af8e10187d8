/* Private to src/algorithms/: per-node furthest-first message queues of a
 * linear array, shared by furthest-first (multiport) and the single-port
 * path schedule. */
#ifndef TOTEX_PATH_QUEUE_H
#define TOTEX_PATH_QUEUE_H

#include <stdint.h>

#define TOTEX_PATHQ_NONE UINT32_MAX

/*
 * Queued messages of a linear array, per node in buckets by destination.
 * Message id = src*m + dst; bucket a*m + d is a doubly linked list of the
 * messages at node a for d, in the order they leave: by source ascending
 * when d > a (rightward: the smallest source has travelled furthest), by
 * source descending when d < a. right_far[a] is at least the largest
 * destination > a with a non-empty bucket, left_far[a] at most the smallest
 * one < a; both are tightened lazily when popping, so finding the furthest
 * message costs the gap it skips, and a push costs O(1) when messages of one
 * bucket arrive in leaving order (which furthest-first upstream ensures).
 */
typedef struct totex_pathq {
    uint32_t m;
    uint32_t *next, *prev;          /* per message */
    uint32_t *head, *tail;          /* per bucket */
    uint32_t *right_far, *left_far; /* per node */
    uint32_t *right_n, *left_n;     /* per node: queued messages each way */
} totex_pathq;

/** Allocate queues for a path of m nodes (m^2 message slots); -1 on ENOMEM (call totex_pathq_free anyway). */
int totex_pathq_init(totex_pathq *q, uint32_t m);
/** Free the queues (safe after a failed init when the struct was zeroed). */
void totex_pathq_free(totex_pathq *q);
/** Queue message (src, dst) at node a, in its leaving order. */
void totex_pathq_push(totex_pathq *q, uint32_t a, uint32_t src, uint32_t dst);
/** Node a's furthest-going rightward message; 0 when it has none. */
int totex_pathq_pop_right(totex_pathq *q, uint32_t a, uint32_t *src, uint32_t *dst);
/** Node a's furthest-going leftward message; 0 when it has none. */
int totex_pathq_pop_left(totex_pathq *q, uint32_t a, uint32_t *src, uint32_t *dst);

#endif
