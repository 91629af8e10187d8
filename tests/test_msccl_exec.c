/*
 * MSCCL XML read as the MSCCL executor reads it (src/schedule/msccl_read.c)
 * and verified by its rules (src/plan/msccl_verify.c):
 *   - the two files msccl-tools wrote (tests/data/msccl_sccl_ring4.xml,
 *     msccl_two_step_2x2.xml: msccl-tools commit 030a750's `msccl solve
 *     instance Ring -n 4 Alltoall -s 2 -r 3` then `ncclize`, and its
 *     examples/mscclang/alltoall_a100_two_step.py 2 2; the executor's
 *     outofplace, minBytes and maxBytes attributes added by hand)
 *     are correct all-to-alls, and SCCL's own count (the algo's name says
 *     "rounds=3") is what the cost comes to;
 *   - files of the same kinds generated here from the format's rules (k
 *     chunks per pair with cnt = k, a two-step hierarchical all-to-all with
 *     scratch, several dependencies carried by nops) verify, with the
 *     rounds and hops worked out from their construction;
 *   - mutations (a swapped step, a dropped send, a wrong peer, a dependency
 *     one position off) fail with the step named;
 *   - totex's own MSCCL export numbers deps by XML position: run by the
 *     executor's rules, a single-port export keeps the port model step by
 *     step (executor steps = rounds = the schedule's steps).
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "support.h"

/* ---- a growing string ---------------------------------------------------- */

typedef struct sbuf {
    char *s;
    size_t len, cap;
} sbuf;

static void put(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(sbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    assert_true(n >= 0);
    if (b->len + (size_t)n + 1 > b->cap) {
        b->cap = (b->len + (size_t)n + 1) * 2;
        b->s = realloc(b->s, b->cap);
        assert_non_null(b->s);
    }
    va_start(ap, fmt);
    vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

static void step(sbuf *b, int s, const char *type, char sb, int so, char db, int dof, int cnt, int depid, int deps,
                 int hasdep)
{
    put(b, "      <step s=\"%d\" type=\"%s\" srcbuf=\"%c\" srcoff=\"%d\" dstbuf=\"%c\" dstoff=\"%d\" cnt=\"%d\" depid=\"%d\" "
           "deps=\"%d\" hasdep=\"%d\"/>\n", s, type, sb, so, db, dof, cnt, depid, deps, hasdep);
}

static char *slurp(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    assert_non_null(fp);
    fseek(fp, 0, SEEK_END);
    long n = ftell(fp);
    rewind(fp);
    char *s = malloc((size_t)n + 1);
    assert_non_null(s);
    assert_int_equal(fread(s, 1, (size_t)n, fp), (size_t)n);
    s[n] = 0;
    fclose(fp);
    *len = (size_t)n;
    return s;
}

static totex_status check(const char *xml, const char *spec, totex_ports ports, totex_sim_report *rep, totex_error *err)
{
    totex_network *net = ts_net(spec);
    totex_status st = totex_msccl_verify(xml, strlen(xml), net, ports, 0, rep, NULL, 0, err);
    totex_network_free(net);
    return st;
}

static void expect_ok(const char *xml, const char *spec, totex_ports ports, totex_sim_report *rep)
{
    totex_error err = {{0}};
    totex_status st = check(xml, spec, ports, rep, &err);
    if (st != TOTEX_OK)
        fail_msg("%s: expected a correct all-to-all, got %d: %s", spec, st, err.msg);
}

/* a mutation must fail as a violation naming the rank, thread block, step position and line */
static void expect_named_failure(const char *xml, const char *spec, const char *needle)
{
    totex_error err = {{0}};
    totex_sim_report rep;
    totex_status st = check(xml, spec, TOTEX_PORTS_MULTI, &rep, &err);
    if (st != TOTEX_EVIOLATION)
        fail_msg("%s: expected a violation, got %d: %s", spec, st, err.msg);
    if (!strstr(err.msg, "thread block") || !strstr(err.msg, "step ") || !strstr(err.msg, "(line "))
        fail_msg("the step is not named: %s", err.msg);
    if (needle && !strstr(err.msg, needle))
        fail_msg("message lacks '%s': %s", needle, err.msg);
    assert_null(strchr(err.msg, '\n'));
}

/* the text with its line @p a (1-based) and line @p b exchanged, or line @p a removed (b == 0) */
static char *edit_lines(const char *xml, int a, int b)
{
    size_t cnt = 0, len = strlen(xml);
    const char *starts[4096];
    size_t lens[4096];
    for (const char *p = xml; *p && cnt < 4096;) {
        const char *e = strchr(p, '\n');
        size_t l = e ? (size_t)(e - p) + 1 : strlen(p);
        starts[cnt] = p;
        lens[cnt++] = l;
        p += l;
    }
    assert_true(a >= 1 && (size_t)a <= cnt && (size_t)b <= cnt);
    char *out = malloc(len + 1), *o = out;
    for (size_t i = 0; i < cnt; i++) {
        size_t src = i;
        if (b && i == (size_t)a - 1)
            src = (size_t)b - 1;
        else if (b && i == (size_t)b - 1)
            src = (size_t)a - 1;
        else if (!b && i == (size_t)a - 1)
            continue;
        memcpy(o, starts[src], lens[src]);
        o += lens[src];
    }
    *o = 0;
    return out;
}

/* the 1-based line holding the @p nth (1-based) occurrence of @p needle */
static int line_of(const char *xml, const char *needle, int nth)
{
    const char *p = xml;
    for (int i = 0; i < nth; i++) {
        p = strstr(i ? p + 1 : p, needle);
        assert_non_null(p);
    }
    int line = 1;
    for (const char *q = xml; q < p; q++)
        line += *q == '\n';
    return line;
}

static char *replace_first(const char *text, const char *from, const char *to)
{
    const char *q = strstr(text, from);
    assert_non_null(q);
    size_t fl = strlen(from), tl = strlen(to), len = strlen(text);
    char *out = malloc(len - fl + tl + 1);
    memcpy(out, text, (size_t)(q - text));
    memcpy(out + (q - text), to, tl);
    strcpy(out + (q - text) + tl, q + fl);
    return out;
}

/* ---- generators -------------------------------------------------------------- */

/* Direct all-to-all on n ranks, k chunks per pair (nchunksperloop = k n): rank r sends its k chunks for p
   (i[p k ..]) to p in one transfer of cnt = k (or k transfers of one chunk when split), receives p's into
   o[p k ..], and copies its own; thread block for peer p on channel (r + p) mod channels. */
static char *gen_direct(uint32_t n, uint32_t k, uint32_t channels, int split)
{
    sbuf b = {0};
    put(&b, "<algo name=\"direct_k%u\" proto=\"Simple\" nchannels=\"%u\" nchunksperloop=\"%u\" ngpus=\"%u\" coll=\"alltoall\" "
            "inplace=\"0\" outofplace=\"1\" minBytes=\"0\" maxBytes=\"0\">\n", k, channels, k * n, n);
    for (uint32_t r = 0; r < n; r++) {
        put(&b, "  <gpu id=\"%u\" i_chunks=\"%u\" o_chunks=\"%u\" s_chunks=\"0\">\n", r, k * n, k * n);
        uint32_t t = 0;
        for (uint32_t p = 0; p < n; p++) {
            if (p == r)
                continue;
            put(&b, "    <tb id=\"%u\" send=\"%u\" recv=\"%u\" chan=\"%u\">\n", t++, p, p, (p + r) % channels);
            int s = 0;
            if (split) {
                for (uint32_t x = 0; x < k; x++)
                    step(&b, s++, "s", 'i', (int)(p * k + x), 'o', (int)(r * k + x), 1, -1, -1, 0);
                for (uint32_t x = 0; x < k; x++)
                    step(&b, s++, "r", 'i', (int)(r * k + x), 'o', (int)(p * k + x), 1, -1, -1, 0);
            } else {
                step(&b, s++, "s", 'i', (int)(p * k), 'o', (int)(r * k), (int)k, -1, -1, 0);
                step(&b, s++, "r", 'i', (int)(r * k), 'o', (int)(p * k), (int)k, -1, -1, 0);
            }
            put(&b, "    </tb>\n");
        }
        put(&b, "    <tb id=\"%u\" send=\"-1\" recv=\"-1\" chan=\"0\">\n", t);
        step(&b, 0, "cpy", 'i', (int)(r * k), 'o', (int)(r * k), (int)k, -1, -1, 0);
        put(&b, "    </tb>\n  </gpu>\n");
    }
    put(&b, "</algo>\n");
    return b.s;
}

/* Two-step hierarchical all-to-all on N nodes of G GPUs (rank n G + g), as MSCCLang's alltoall_a100_two_step
   builds it: GPU (n, g) sends each local peer (n, h) its own block for it (into o) and then, one per step, its
   blocks for (m, h) on every other node m, which (n, h) gathers in scratch s[m' G + g] (m' = m's index among
   the other nodes; (n, h) copies its own into s[m' G + h]); then (n, h) sends s[m' G ..] to (m, h) as one
   transfer of cnt = G, after the copy and the G - 1 receives that filled it: G dependencies, G - 1 of them
   carried by nops, each naming the XML position of the step it waits for. */
static char *gen_two_step(uint32_t N, uint32_t G)
{
    sbuf b = {0};
    uint32_t n = N * G;
    put(&b, "<algo name=\"two_step_%ux%u\" proto=\"Simple\" nchannels=\"2\" nchunksperloop=\"%u\" ngpus=\"%u\" "
            "coll=\"alltoall\" inplace=\"0\" outofplace=\"1\" minBytes=\"0\" maxBytes=\"0\">\n", N, G, n, n);
    for (uint32_t nd = 0; nd < N; nd++)
        for (uint32_t g = 0; g < G; g++) {
            uint32_t r = nd * G + g;
            put(&b, "  <gpu id=\"%u\" i_chunks=\"%u\" o_chunks=\"%u\" s_chunks=\"%u\">\n", r, n, n, (N - 1) * G);
            /* thread blocks: 0 .. G-2 send to local peers, G-1 .. 2G-3 receive from them, 2G-2 copies,
               then one send and one receive per other node */
            uint32_t t = 0;
            uint32_t recv_tb_of[64];
            for (uint32_t h = 0; h < G; h++) {
                if (h == g)
                    continue;
                uint32_t peer = nd * G + h;
                put(&b, "    <tb id=\"%u\" send=\"%u\" recv=\"-1\" chan=\"0\">\n", t++, peer);
                int s = 0;
                step(&b, s++, "s", 'i', (int)peer, 'o', (int)r, 1, -1, -1, 0);
                for (uint32_t m = 0, mi = 0; m < N; m++)
                    if (m != nd) {
                        step(&b, s++, "s", 'i', (int)(m * G + h), 's', (int)(mi * G + g), 1, -1, -1, 0);
                        mi++;
                    }
                put(&b, "    </tb>\n");
            }
            for (uint32_t h = 0; h < G; h++) {
                if (h == g)
                    continue;
                uint32_t peer = nd * G + h;
                recv_tb_of[h] = t;
                put(&b, "    <tb id=\"%u\" send=\"-1\" recv=\"%u\" chan=\"0\">\n", t++, peer);
                int s = 0;
                step(&b, s++, "r", 'i', (int)r, 'o', (int)peer, 1, -1, -1, 0);
                for (uint32_t m = 0, mi = 0; m < N; m++)
                    if (m != nd) {
                        step(&b, s++, "r", 'i', (int)(m * G + g), 's', (int)(mi * G + h), 1, -1, -1, 1);
                        mi++;
                    }
                put(&b, "    </tb>\n");
            }
            uint32_t cpy_tb = t;
            put(&b, "    <tb id=\"%u\" send=\"-1\" recv=\"-1\" chan=\"0\">\n", t++);
            {
                int s = 0;
                for (uint32_t m = 0, mi = 0; m < N; m++)
                    if (m != nd) {
                        step(&b, s++, "cpy", 'i', (int)(m * G + g), 's', (int)(mi * G + g), 1, -1, -1, 1);
                        mi++;
                    }
                step(&b, s++, "cpy", 'i', (int)r, 'o', (int)r, 1, -1, -1, 0);
            }
            put(&b, "    </tb>\n");
            for (uint32_t m = 0, mi = 0; m < N; m++) {
                if (m == nd)
                    continue;
                uint32_t peer = m * G + g;
                put(&b, "    <tb id=\"%u\" send=\"%u\" recv=\"-1\" chan=\"1\">\n", t++, peer);
                int s = 0;
                /* the nops carry the receives' dependencies (position 1 + mi of each local receive block) */
                for (uint32_t h = 0; h < G; h++)
                    if (h != g)
                        step(&b, s++, "nop", 'i', -1, 'o', -1, 0, (int)recv_tb_of[h], (int)(1 + mi), 0);
                step(&b, s++, "s", 's', (int)(mi * G), 'o', (int)(nd * G), (int)G, (int)cpy_tb, (int)mi, 0);
                put(&b, "    </tb>\n");
                mi++;
            }
            for (uint32_t m = 0; m < N; m++) {
                if (m == nd)
                    continue;
                uint32_t peer = m * G + g;
                put(&b, "    <tb id=\"%u\" send=\"-1\" recv=\"%u\" chan=\"1\">\n", t++, peer);
                step(&b, 0, "r", 's', 0, 'o', (int)(m * G), (int)G, -1, -1, 0);
                put(&b, "    </tb>\n");
            }
            put(&b, "  </gpu>\n");
        }
    put(&b, "</algo>\n");
    return b.s;
}

/* Direct all-to-all with one chunk per pair and, per peer, a sending thread block and a receiving one with no
   order between them; attributes inplace / outofplace as given. */
static char *gen_direct_apart(uint32_t n, int inplace, int outofplace)
{
    sbuf b = {0};
    put(&b, "<algo name=\"direct_apart\" proto=\"Simple\" nchannels=\"1\" nchunksperloop=\"%u\" ngpus=\"%u\" "
            "coll=\"alltoall\" inplace=\"%d\" outofplace=\"%d\" minBytes=\"0\" maxBytes=\"0\">\n", n, n, inplace,
        outofplace);
    for (uint32_t r = 0; r < n; r++) {
        put(&b, "  <gpu id=\"%u\" i_chunks=\"%u\" o_chunks=\"%u\" s_chunks=\"0\">\n", r, n, n);
        uint32_t t = 0;
        for (uint32_t p = 0; p < n; p++) {
            if (p == r)
                continue;
            put(&b, "    <tb id=\"%u\" send=\"%u\" recv=\"-1\" chan=\"0\">\n", t++, p);
            step(&b, 0, "s", 'i', (int)p, 'o', (int)r, 1, -1, -1, 0);
            put(&b, "    </tb>\n    <tb id=\"%u\" send=\"-1\" recv=\"%u\" chan=\"0\">\n", t++, p);
            step(&b, 0, "r", 'i', (int)r, 'o', (int)p, 1, -1, -1, 0);
            put(&b, "    </tb>\n");
        }
        put(&b, "    <tb id=\"%u\" send=\"-1\" recv=\"-1\" chan=\"0\">\n", t);
        step(&b, 0, "cpy", 'i', (int)r, 'o', (int)r, 1, -1, -1, 0);
        put(&b, "    </tb>\n  </gpu>\n");
    }
    put(&b, "</algo>\n");
    return b.s;
}

/* ---- tests ---------------------------------------------------------------------- */

/* in place (inplace="1") the executor passes one buffer: i[j] and o[j] are the same chunk */
static void test_in_place(void **state)
{
    (void)state;
    totex_sim_report rep;
    /* sends and receives of a pair in one thread block, the send first: correct both ways */
    char *x = gen_direct(4, 1, 1, 0);
    char *m = replace_first(x, "inplace=\"0\"", "inplace=\"1\"");
    expect_ok(m, "complete:4", TOTEX_PORTS_MULTI, &rep);
    free(m);
    free(x);
    /* the receive into o[p] not ordered after the send of i[p]: correct out of place only */
    x = gen_direct_apart(4, 0, 1);
    expect_ok(x, "complete:4", TOTEX_PORTS_MULTI, &rep);
    free(x);
    x = gen_direct_apart(4, 1, 1);
    totex_error err = {{0}};
    assert_int_equal(check(x, "complete:4", TOTEX_PORTS_MULTI, &rep, &err), TOTEX_EVIOLATION);
    assert_non_null(strstr(err.msg, "in place"));
    assert_non_null(strstr(err.msg, "thread block"));
    free(x);
    /* neither mode: the executor never runs it */
    x = gen_direct_apart(4, 0, 0);
    assert_int_equal(check(x, "complete:4", TOTEX_PORTS_MULTI, &rep, &err), TOTEX_EIO);
    free(x);
}


static void test_msccl_tools_files(void **state)
{
    (void)state;
    size_t len;
    totex_sim_report rep;
    /* SCCL's least-steps ring all-to-all: 2 steps, 3 rounds (the algo's name), one step moving two chunks on a link */
    char *ring = slurp(TOTEX_TEST_DATA "/msccl_sccl_ring4.xml", &len);
    assert_non_null(strstr(ring, "steps=2,rounds=3"));
    expect_ok(ring, "ring:4", TOTEX_PORTS_MULTI, &rep);
    assert_int_equal(rep.steps, 3);
    assert_int_equal(rep.messages, 12);
    expect_ok(ring, "complete:4", TOTEX_PORTS_MULTI, &rep);
    assert_int_equal(rep.steps, 3);
    /* single-port costs more, never fails */
    expect_ok(ring, "ring:4", TOTEX_PORTS_SINGLE, &rep);
    assert_true(rep.steps >= 4); /* at least the average-status bound: S_G = 16 hops, 4 per step */
    /* MSCCLang's two-step (2 nodes x 2 GPUs): each GPU sends its local peer 2 chunks and its cross-node peer one
       transfer of 2: 4 x 2 + 4 x 2 = 16 chunk-hops */
    char *two = slurp(TOTEX_TEST_DATA "/msccl_two_step_2x2.xml", &len);
    expect_ok(two, "complete:4", TOTEX_PORTS_MULTI, &rep);
    assert_int_equal(rep.messages, 12);
    assert_int_equal(rep.hops, 16);
    free(ring);
    free(two);
}

static void test_generated_files(void **state)
{
    (void)state;
    totex_sim_report rep;
    char spec[32];
    /* k chunks per pair: all sends at once; multiport k rounds (k chunks on each link), single-port k (n - 1)
       (a rank sends all of them in that step) */
    for (uint32_t n = 3; n <= 6; n++)
        for (uint32_t k = 1; k <= 3; k++)
            for (int split = 0; split <= 1; split++) {
                char *x = gen_direct(n, k, split ? 2 : 1, split);
                snprintf(spec, sizeof spec, "complete:%u", n);
                expect_ok(x, spec, TOTEX_PORTS_MULTI, &rep);
                assert_int_equal(rep.steps, k);
                assert_int_equal(rep.messages, (uint64_t)k * n * (n - 1));
                assert_int_equal(rep.hops, (uint64_t)k * n * (n - 1));
                assert_int_equal(rep.steps_emitted, split ? k : 1);
                expect_ok(x, spec, TOTEX_PORTS_SINGLE, &rep);
                assert_int_equal(rep.steps, (uint64_t)k * (n - 1));
                expect_ok(x, spec, 2, &rep);
                assert_int_equal(rep.steps, split ? (uint64_t)k * (n / 2) : (uint64_t)(k * (n - 1) + 1) / 2);
                free(x);
            }
    /* two-step: hops N G (G-1) N + N G (N-1) G; multiport rounds 2 + (N - 1) G: steps 0 and 1 move one chunk per
       local link, the transfer of G chunks for the m'-th other node starts in step 2 + m' */
    for (uint32_t N = 2; N <= 4; N++)
        for (uint32_t G = 2; G <= 4; G++) {
            char *x = gen_two_step(N, G);
            snprintf(spec, sizeof spec, "complete:%u", N * G);
            expect_ok(x, spec, TOTEX_PORTS_MULTI, &rep);
            assert_int_equal(rep.hops, (uint64_t)N * G * (G - 1) * N + (uint64_t)N * G * (N - 1) * G);
            assert_int_equal(rep.steps, 2 + (uint64_t)(N - 1) * G);
            assert_int_equal(rep.messages, (uint64_t)N * G * (N * G - 1));
            free(x);
        }
}

static void test_mutations_name_the_step(void **state)
{
    (void)state;
    size_t len;
    char *ring = slurp(TOTEX_TEST_DATA "/msccl_sccl_ring4.xml", &len), *m;
    /* rank 0's thread block 3 (send to 3): its first two steps swapped; rank 3 receives i[2] of rank 0 into o[0] */
    int a = line_of(ring, "<tb id=\"3\" send=\"3\"", 1) + 1;
    m = edit_lines(ring, a, a + 1);
    expect_named_failure(m, "ring:4", "output chunk");
    free(m);
    /* a dropped send: rank 1 (thread block 2) no longer sends i[0] to rank 0, whose receive waits forever */
    a = line_of(ring, "<tb id=\"2\" send=\"0\"", 1) + 2;
    m = edit_lines(ring, a, 0);
    expect_named_failure(m, "ring:4", NULL);
    free(m);
    /* a wrong peer: rank 0's thread block 3 sends to 2 (no link on ring:4; on complete:4 nobody receives) */
    m = replace_first(ring, "<tb id=\"3\" send=\"3\"", "<tb id=\"3\" send=\"2\"");
    expect_named_failure(m, "ring:4", "not neighbours");
    expect_named_failure(m, "complete:4", NULL);
    free(m);
    /* a dependency one position off: rank 0 sends o[1] after thread block 0's step 2 (hasdep 0, nothing after
       it), not step 1: the flag never gets there */
    m = replace_first(ring, "srcbuf=\"o\" srcoff=\"1\" dstbuf=\"s\" dstoff=\"0\" cnt=\"1\" depid=\"0\" deps=\"1\"",
                      "srcbuf=\"o\" srcoff=\"1\" dstbuf=\"s\" dstoff=\"0\" cnt=\"1\" depid=\"0\" deps=\"2\"");
    expect_named_failure(m, "ring:4", "deadlock");
    free(m);
    /* without the dependency: the send of o[1] may run before the receive that fills it */
    m = replace_first(ring, "srcbuf=\"o\" srcoff=\"1\" dstbuf=\"s\" dstoff=\"0\" cnt=\"1\" depid=\"0\" deps=\"1\"",
                      "srcbuf=\"o\" srcoff=\"1\" dstbuf=\"s\" dstoff=\"0\" cnt=\"1\" depid=\"-1\" deps=\"-1\"");
    expect_named_failure(m, "ring:4", NULL);
    free(m);
    free(ring);
    /* the two-step file: its nop's dependency one position on (thread block 0's step 1 has hasdep 0) */
    char *two = slurp(TOTEX_TEST_DATA "/msccl_two_step_2x2.xml", &len);
    m = replace_first(two, "type=\"nop\" srcbuf=\"i\" srcoff=\"-1\" dstbuf=\"o\" dstoff=\"-1\" cnt=\"0\" depid=\"0\" deps=\"0\"",
                      "type=\"nop\" srcbuf=\"i\" srcoff=\"-1\" dstbuf=\"o\" dstoff=\"-1\" cnt=\"0\" depid=\"0\" deps=\"1\"");
    expect_named_failure(m, "complete:4", "deadlock");
    free(m);
    /* its cnt = 2 receive taking one chunk */
    m = replace_first(two, "dstbuf=\"o\" dstoff=\"2\" cnt=\"2\"", "dstbuf=\"o\" dstoff=\"2\" cnt=\"1\"");
    expect_named_failure(m, "complete:4", "chunks");
    free(m);
    free(two);
    /* the generated two-step on 3 nodes: the cross-node send's nop waits for the receive one position early
       (position 1 instead of 2: the chunk for the second other node is not there yet) */
    char *g = gen_two_step(3, 2);
    m = replace_first(g, "type=\"nop\" srcbuf=\"i\" srcoff=\"-1\" dstbuf=\"o\" dstoff=\"-1\" cnt=\"0\" depid=\"1\" deps=\"2\"",
                      "type=\"nop\" srcbuf=\"i\" srcoff=\"-1\" dstbuf=\"o\" dstoff=\"-1\" cnt=\"0\" depid=\"1\" deps=\"1\"");
    expect_named_failure(m, "complete:6", NULL);
    free(m);
    /* k chunks: a receive one chunk off its slot */
    free(g);
    g = gen_direct(4, 2, 1, 0);
    m = replace_first(g, "type=\"r\" srcbuf=\"i\" srcoff=\"0\" dstbuf=\"o\" dstoff=\"2\" cnt=\"2\"",
                      "type=\"r\" srcbuf=\"i\" srcoff=\"0\" dstbuf=\"o\" dstoff=\"3\" cnt=\"2\"");
    totex_error err = {{0}};
    totex_sim_report rep;
    /* o[3] + 2 chunks runs past the 8 output chunks? no: 3 + 2 = 5 <= 8, so it overlaps rank 0's o[4] */
    assert_int_equal(check(m, "complete:4", TOTEX_PORTS_MULTI, &rep, &err), TOTEX_EVIOLATION);
    assert_non_null(strstr(err.msg, "step "));
    free(m);
    free(g);
}

/* the executor's parser: a nop's dependency needs a transfer with one of its own after it */
static void test_parser_rules(void **state)
{
    (void)state;
    char *g = gen_two_step(2, 3);
    totex_msccl_program p;
    totex_error err = {{0}};
    assert_int_equal(totex_msccl_read(g, strlen(g), &p, &err), TOTEX_OK);
    /* every cross-node send: 3 dependencies (2 nops folded in), its step counter = its XML position 2 */
    uint32_t found = 0;
    for (uint32_t i = 0; i < p.nops; i++)
        if (p.ops[i].cnt == 3 && p.ops[i].type == TOTEX_MSCCL_SEND) {
            assert_int_equal(p.ops[i].ndeps, 3);
            assert_int_equal(p.ops[i].pos, 2);
            assert_int_equal(p.ops[i].kstep, 2);
            found++;
        }
    assert_int_equal(found, 6);
    assert_int_equal(p.k, 1);
    totex_msccl_program_free(&p);
    char *m = replace_first(g, "cnt=\"3\" depid=\"4\" deps=\"0\"", "cnt=\"3\" depid=\"-1\" deps=\"-1\"");
    assert_int_equal(totex_msccl_read(m, strlen(m), &p, &err), TOTEX_EIO);
    assert_non_null(strstr(err.msg, "nop"));
    free(m);
    /* nchunksperloop not a multiple of ngpus */
    m = replace_first(g, "nchunksperloop=\"6\"", "nchunksperloop=\"9\"");
    assert_int_equal(totex_msccl_read(m, strlen(m), &p, &err), TOTEX_EIO);
    assert_non_null(strstr(err.msg, "nchunksperloop"));
    free(m);
    free(g);
}

/* totex's export: deps are XML positions, so the executor keeps a single-port schedule step by step */
static void test_export_positions(void **state)
{
    (void)state;
    const char *specs[] = {"torus:4x4", "hypercube:4", "ring:6"};
    char path[] = "/tmp/totex_test_mscclposXXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    for (size_t i = 0; i < sizeof specs / sizeof *specs; i++)
        for (totex_ports ports = 1; ports <= 2; ports++) {
            totex_network *net = ts_net(specs[i]);
            const totex_algorithm *a = totex_algorithm_find("octr", NULL);
            totex_error err = {{0}};
            totex_sim_report ref, rep;
            if (a->applies(net, ports, &err) != TOTEX_OK) {
                totex_network_free(net);
                continue;
            }
            totex_schedule *s = ts_record(net, ports, a->name);
            assert_int_equal(ts_simulate(net, ports, s, &ref, &err), TOTEX_OK);
            totex_schedule_free(s);
            assert_int_equal(totex_plan_export(path, net, ports, a, TOTEX_EXPORT_MSCCL, &err), TOTEX_OK);
            size_t len;
            char *xml = slurp(path, &len);
            assert_int_equal(totex_msccl_verify(xml, len, net, ports, 0, &rep, NULL, 0, &err), TOTEX_OK);
            /* each executor step keeps the port model (costs one round) and the run takes the schedule's steps */
            assert_int_equal(rep.steps, ref.steps);
            assert_int_equal(rep.steps_emitted, ref.steps);
            assert_int_equal(rep.hops, ref.hops);
            free(xml);
            totex_network_free(net);
        }
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_msccl_tools_files),
        cmocka_unit_test(test_generated_files),
        cmocka_unit_test(test_mutations_name_the_step),
        cmocka_unit_test(test_parser_rules),
        cmocka_unit_test(test_export_positions),
        cmocka_unit_test(test_in_place),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
