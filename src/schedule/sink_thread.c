/*
 * A sink that hands a schedule stream to other threads:
 * the producer (an algorithm's plan()) keeps one core while the consumers
 * (the simulator, or the two parts of a split replay, totex_sim_stage_sink)
 * replay on the others, so a full replay costs about the largest of them
 * instead of their sum, and each keeps its own cache (on mesh:48x64 the
 * pipeline's generation ran 1.6 times slower when the simulator shared its
 * core and cache).
 *
 * The producer copies each step's hops into the buffer it is filling; a full
 * buffer (or one whose step table is full) goes to every consumer, each of
 * which calls its sink step by step, in order: every consumer sees exactly
 * the steps, in exactly the order and grouping, that the producer emitted, so
 * the results do not depend on the threads' timing. NBUF buffers circulate; a
 * buffer is filled again once every consumer has taken it; the producer waits
 * when all are full, until REFILL of them are free again (so that it sleeps
 * once per REFILL buffers), a consumer when it has taken every buffer handed
 * over.
 *
 * Errors: a consumer's first non-OK status stops its calls (it still takes the
 * buffers, so the others go on to the end of what was handed over); the
 * producer's next hand-over returns the first failure in time, and
 * totex_sink_thread_finish() the failure of the first consumer (by index) that
 * failed.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "totex/schedule.h"

#define NBUF 4
/* a producer that found every buffer in flight waits until this many are free again: it then fills them
   back to back, and sleeps and wakes once per REFILL buffers instead of once per buffer */
#define REFILL (NBUF / 2)
#define BUF_HOPS ((size_t)1 << 15) /* 512 KiB of hops per buffer: within a core's L2 */
#define BUF_STEPS 4096             /* steps per buffer at most (many idle or tiny steps) */

typedef struct buffer {
    totex_hop *hops;
    size_t cap, used;     /* hops allocated, hops filled */
    size_t counts[BUF_STEPS]; /* hops of each step, in order */
    size_t steps;
} buffer;

typedef struct sink_consumer {
    struct totex_sink_thread *owner;
    totex_sink sink;
    pthread_t thread;
    int started;
    size_t tail;         /* buffers this consumer has taken (counts up; modulo NBUF indexes buf) */
    totex_status status; /* its first non-OK status */
    totex_error error;
} sink_consumer;

struct totex_sink_thread {
    sink_consumer con[TOTEX_SINK_THREAD_MAX];
    size_t ncon;
    pthread_mutex_t lock;
    pthread_cond_t changed; /* for the consumers: a buffer handed over, or done */
    pthread_cond_t space;   /* for the producer: REFILL buffers free again, or a consumer failed */
    int waiting;            /* the producer waits on space */
    buffer buf[NBUF];
    size_t head;         /* buffers handed over (counts up); buf[head % NBUF] is the one being filled */
    int filling;         /* the producer holds buf[head % NBUF] */
    int done;            /* the producer emits nothing more */
    totex_status status; /* the first failure of any consumer, in time (for the producer) */
    totex_error error;
};

/* Buffers handed over and not yet taken by every consumer (lock held). */
static size_t in_flight(const totex_sink_thread *t)
{
    size_t most = 0;
    for (size_t i = 0; i < t->ncon; i++)
        if (t->head - t->con[i].tail > most)
            most = t->head - t->con[i].tail;
    return most;
}

static void *consume(void *arg)
{
    sink_consumer *c = arg;
    totex_sink_thread *t = c->owner;
    pthread_mutex_lock(&t->lock);
    for (;;) {
        while (c->tail == t->head && !t->done)
            pthread_cond_wait(&t->changed, &t->lock);
        if (c->tail == t->head)
            break; /* done and drained */
        buffer *b = &t->buf[c->tail % NBUF];
        totex_status st = c->status;
        pthread_mutex_unlock(&t->lock);
        /* the buffer is read-only until every consumer has taken it */
        size_t off = 0;
        for (size_t i = 0; i < b->steps && st == TOTEX_OK; i++) {
            st = c->sink.step(c->sink.ctx, b->hops + off, b->counts[i], &c->error);
            off += b->counts[i];
        }
        pthread_mutex_lock(&t->lock);
        if (st != TOTEX_OK && c->status == TOTEX_OK) {
            c->status = st;
            if (t->status == TOTEX_OK) {
                t->status = st;
                t->error = c->error;
            }
        }
        c->tail++;
        if (t->waiting && (NBUF - in_flight(t) >= REFILL || t->status != TOTEX_OK))
            pthread_cond_signal(&t->space);
    }
    pthread_mutex_unlock(&t->lock);
    return NULL;
}

/* Hand the buffer being filled to the consumers (lock held). */
static void hand_over(totex_sink_thread *t)
{
    if (!t->filling)
        return;
    t->filling = 0;
    t->head++;
    pthread_cond_broadcast(&t->changed);
}

static totex_status produce(void *ctx, const totex_hop *hops, size_t count, totex_error *err)
{
    totex_sink_thread *t = ctx;
    buffer *b = t->filling ? &t->buf[t->head % NBUF] : NULL;
    if (!b || b->steps == BUF_STEPS || (b->used && b->used + count > b->cap)) {
        pthread_mutex_lock(&t->lock);
        hand_over(t);
        if (in_flight(t) == NBUF) {
            t->waiting = 1;
            while (NBUF - in_flight(t) < REFILL && t->status == TOTEX_OK)
                pthread_cond_wait(&t->space, &t->lock);
            t->waiting = 0;
        }
        totex_status st = t->status;
        if (st == TOTEX_OK)
            t->filling = 1;
        pthread_mutex_unlock(&t->lock);
        if (st != TOTEX_OK) {
            if (err)
                *err = t->error; /* set once, under the lock, before status: no longer changes */
            return st;
        }
        b = &t->buf[t->head % NBUF];
        b->used = b->steps = 0; /* every consumer has taken it */
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

/* Stop the started consumers (lock not held) and free everything. */
static void release(totex_sink_thread *t)
{
    pthread_mutex_lock(&t->lock);
    t->done = 1;
    pthread_cond_broadcast(&t->changed);
    pthread_mutex_unlock(&t->lock);
    for (size_t i = 0; i < t->ncon; i++)
        if (t->con[i].started)
            pthread_join(t->con[i].thread, NULL);
    for (size_t i = 0; i < NBUF; i++)
        free(t->buf[i].hops);
    pthread_cond_destroy(&t->changed);
    pthread_cond_destroy(&t->space);
    pthread_mutex_destroy(&t->lock);
    free(t);
}

totex_sink_thread *totex_sink_thread_start_fanout(const totex_sink *consumers, size_t count, totex_error *err)
{
    if (!consumers || count == 0 || count > TOTEX_SINK_THREAD_MAX) {
        totex_fail(err, TOTEX_EINVAL, "a sink thread feeds 1 to %d consumers, not %zu", TOTEX_SINK_THREAD_MAX, count);
        return NULL;
    }
    totex_sink_thread *t = calloc(1, sizeof *t);
    if (!t) {
        totex_fail(err, TOTEX_ENOMEM, "out of memory starting the simulator thread");
        return NULL;
    }
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
    if (pthread_cond_init(&t->space, NULL)) {
        pthread_cond_destroy(&t->changed);
        pthread_mutex_destroy(&t->lock);
        free(t);
        totex_fail(err, TOTEX_ENOMEM, "cannot create a condition variable for the simulator thread");
        return NULL;
    }
    t->ncon = count;
    for (size_t i = 0; i < count; i++) {
        t->con[i].owner = t;
        t->con[i].sink = consumers[i];
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
    for (size_t i = 0; i < count; i++) {
        if (pthread_create(&t->con[i].thread, NULL, consume, &t->con[i])) {
            release(t);
            totex_fail(err, TOTEX_ENOMEM, "cannot start the simulator thread");
            return NULL;
        }
        t->con[i].started = 1;
    }
    return t;
}

totex_sink_thread *totex_sink_thread_start(totex_sink consumer, totex_error *err)
{
    return totex_sink_thread_start_fanout(&consumer, 1, err);
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
    for (size_t i = 0; i < t->ncon; i++) {
        pthread_join(t->con[i].thread, NULL);
        t->con[i].started = 0;
    }
    totex_status st = TOTEX_OK;
    for (size_t i = 0; i < t->ncon && st == TOTEX_OK; i++)
        if (t->con[i].status != TOTEX_OK) {
            st = t->con[i].status;
            if (err)
                *err = t->con[i].error;
        }
    release(t);
    return st;
}
