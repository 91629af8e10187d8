/*
 * A sink that hands a schedule stream to another thread (issue 13 item 3):
 * the producer (an algorithm's plan()) keeps one core while the consumer
 * (the simulator) replays on the other, so a full replay costs about the
 * larger of the two instead of their sum, and each keeps its own cache
 * (on mesh:48x64 the pipeline's generation ran 1.6 times slower when the
 * simulator shared its core and cache).
 *
 * The producer copies each step's hops into the buffer it is filling; a full
 * buffer (or one whose step table is full) goes to the consumer, which calls
 * its sink step by step, in order: the consumer sees exactly the steps, in
 * exactly the order and grouping, that the producer emitted, so its results
 * do not depend on the threads' timing. NBUF buffers circulate; the producer
 * waits when all are full, the consumer when all are empty.
 *
 * Errors: the consumer's first non-OK status stops it; the producer's next
 * step returns that status and message, and so does totex_sink_thread_finish().
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "totex/schedule.h"

#define NBUF 4
#define BUF_HOPS ((size_t)1 << 15) /* 512 KiB of hops per buffer: within a core's L2 */
#define BUF_STEPS 4096             /* steps per buffer at most (many idle or tiny steps) */

typedef struct buffer {
    totex_hop *hops;
    size_t cap, used;     /* hops allocated, hops filled */
    size_t counts[BUF_STEPS]; /* hops of each step, in order */
    size_t steps;
} buffer;

struct totex_sink_thread {
    totex_sink consumer;
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t changed;
    buffer buf[NBUF];
    size_t head, tail; /* buffers handed over: tail (next for the consumer) .. head (next to fill), modulo NBUF */
    size_t full;       /* buffers handed over and not yet consumed */
    int filling;       /* the producer holds buf[head % NBUF] */
    int done;          /* the producer emits nothing more */
    totex_status status; /* the consumer's first non-OK status */
    totex_error error;
};

static void *consume(void *arg)
{
    totex_sink_thread *t = arg;
    pthread_mutex_lock(&t->lock);
    for (;;) {
        while (!t->full && !t->done)
            pthread_cond_wait(&t->changed, &t->lock);
        if (!t->full)
            break; /* done and drained */
        buffer *b = &t->buf[t->tail % NBUF];
        totex_status st = t->status;
        pthread_mutex_unlock(&t->lock);
        /* the buffer is ours until it is released below */
        size_t off = 0;
        for (size_t i = 0; i < b->steps && st == TOTEX_OK; i++) {
            st = t->consumer.step(t->consumer.ctx, b->hops + off, b->counts[i], &t->error);
            off += b->counts[i];
        }
        pthread_mutex_lock(&t->lock);
        if (st != TOTEX_OK && t->status == TOTEX_OK)
            t->status = st;
        b->used = b->steps = 0;
        t->tail++;
        t->full--;
        pthread_cond_broadcast(&t->changed);
    }
    pthread_mutex_unlock(&t->lock);
    return NULL;
}

/* Hand the buffer being filled to the consumer (lock held). */
static void hand_over(totex_sink_thread *t)
{
    if (!t->filling)
        return;
    t->filling = 0;
    t->head++;
    t->full++;
    pthread_cond_broadcast(&t->changed);
}

static totex_status produce(void *ctx, const totex_hop *hops, size_t count, totex_error *err)
{
    totex_sink_thread *t = ctx;
    buffer *b = t->filling ? &t->buf[t->head % NBUF] : NULL;
    if (!b || b->steps == BUF_STEPS || (b->used && b->used + count > b->cap)) {
        pthread_mutex_lock(&t->lock);
        hand_over(t);
        while (t->full == NBUF && t->status == TOTEX_OK)
            pthread_cond_wait(&t->changed, &t->lock);
        totex_status st = t->status;
        if (st == TOTEX_OK)
            t->filling = 1;
        pthread_mutex_unlock(&t->lock);
        if (st != TOTEX_OK) {
            if (err)
                *err = t->error; /* the consumer has stopped: its error no longer changes */
            return st;
        }
        b = &t->buf[t->head % NBUF];
    }
    if (b->used + count > b->cap) { /* a step larger than a buffer: this buffer grows to hold it */
        totex_hop *grown = realloc(b->hops, sizeof *grown * (b->used + count));
        if (!grown)
            return totex_fail(err, TOTEX_ENOMEM, "out of memory queueing a step of %zu hops for the simulator thread",
                              count);
        b->hops = grown;
        b->cap = b->used + count;
    }
    if (count)
        memcpy(b->hops + b->used, hops, sizeof *hops * count);
    b->used += count;
    b->counts[b->steps++] = count;
    return TOTEX_OK;
}

static void release(totex_sink_thread *t)
{
    for (size_t i = 0; i < NBUF; i++)
        free(t->buf[i].hops);
    pthread_cond_destroy(&t->changed);
    pthread_mutex_destroy(&t->lock);
    free(t);
}

totex_sink_thread *totex_sink_thread_start(totex_sink consumer, totex_error *err)
{
    totex_sink_thread *t = calloc(1, sizeof *t);
    if (!t) {
        totex_fail(err, TOTEX_ENOMEM, "out of memory starting the simulator thread");
        return NULL;
    }
    t->consumer = consumer;
    if (pthread_mutex_init(&t->lock, NULL)) {
        free(t);
        totex_fail(err, TOTEX_ENOMEM, "cannot create a mutex for the simulator thread");
        return NULL;
    }
    if (pthread_cond_init(&t->changed, NULL)) {
        pthread_mutex_destroy(&t->lock);
        free(t);
        totex_fail(err, TOTEX_ENOMEM, "cannot create a condition variable for the simulator thread");
        return NULL;
    }
    for (size_t i = 0; i < NBUF; i++) {
        t->buf[i].hops = malloc(sizeof(totex_hop) * BUF_HOPS);
        t->buf[i].cap = BUF_HOPS;
        if (!t->buf[i].hops) {
            release(t);
            totex_fail(err, TOTEX_ENOMEM, "out of memory for the simulator thread's buffers");
            return NULL;
        }
    }
    if (pthread_create(&t->thread, NULL, consume, t)) {
        release(t);
        totex_fail(err, TOTEX_ENOMEM, "cannot start the simulator thread");
        return NULL;
    }
    return t;
}

totex_sink totex_sink_thread_sink(totex_sink_thread *t)
{
    totex_sink s = {produce, t};
    return s;
}

totex_status totex_sink_thread_finish(totex_sink_thread *t, totex_error *err)
{
    if (!t)
        return TOTEX_OK;
    pthread_mutex_lock(&t->lock);
    hand_over(t);
    t->done = 1;
    pthread_cond_broadcast(&t->changed);
    pthread_mutex_unlock(&t->lock);
    pthread_join(t->thread, NULL);
    totex_status st = t->status;
    if (st != TOTEX_OK && err)
        *err = t->error;
    release(t);
    return st;
}
