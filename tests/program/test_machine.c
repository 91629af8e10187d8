/* The machine's network named by the user (src/program/machine.c): rank maps
 * read and refused, and the sub-box a set of ranks spans, against boxes and
 * node ids worked out by hand here (mixed radix, first factor least
 * significant). Runs without mpirun. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "machine.h"

static int failures;

#define CHECK(cond, ...)                                                                                               \
    do {                                                                                                               \
        if (!(cond)) {                                                                                                 \
            failures++;                                                                                                \
            fprintf(stderr, "FAIL: ");                                                                                 \
            fprintf(stderr, __VA_ARGS__);                                                                              \
            fprintf(stderr, "\n");                                                                                     \
        }                                                                                                              \
    } while (0)

/* the world ranks of the machine @p m whose coordinates (x, y) satisfy @p pick, in rank order */
static uint32_t pick_ranks(const totex_prog_machine *m, int (*pick)(uint32_t x, uint32_t y), uint32_t *out)
{
    uint32_t n = 0;
    for (uint32_t r = 0; r < m->ranks; r++)
        if (pick(m->coords[r * 2], m->coords[r * 2 + 1]))
            out[n++] = r;
    return n;
}

static int all(uint32_t x, uint32_t y) { (void)x; (void)y; return 1; }
static int cols12(uint32_t x, uint32_t y) { (void)y; return x == 1 || x == 2; }
static int cols30(uint32_t x, uint32_t y) { (void)y; return x == 3 || x == 0; }
static int cols012_row1(uint32_t x, uint32_t y) { return x <= 2 && y == 1; }
static int cols02(uint32_t x, uint32_t y) { (void)y; return x == 0 || x == 2; }
static int diagonal(uint32_t x, uint32_t y) { return x == y; }
static int cols023(uint32_t x, uint32_t y) { (void)y; return x != 1; }

/* box of the ranks @p pick selects on machine @p m: applies as @p want_applies, spec @p want_spec, and each
   rank's node id = (x position) + len_x * (y position) with the positions given by @p px / @p py */
static void box(const char *what, const totex_prog_machine *m, int (*pick)(uint32_t, uint32_t), int want_applies,
                const char *want_spec, uint32_t len_x, int (*px)(uint32_t), int (*py)(uint32_t))
{
    uint32_t world[64], node[64];
    const uint32_t n = pick_ranks(m, pick, world);
    int applies = -1;
    char spec[128], why[256];
    totex_status st = totex_prog_machine_box(m, world, n, &applies, spec, sizeof spec, node, why, sizeof why);
    CHECK(st == TOTEX_OK, "%s: status %d", what, (int)st);
    CHECK(applies == want_applies, "%s: applies %d, want %d (%s)", what, applies, want_applies, why);
    if (!want_applies) {
        CHECK(why[0] != '\0', "%s: no reason given", what);
        return;
    }
    CHECK(strcmp(spec, want_spec) == 0, "%s: spec \"%s\", want \"%s\"", what, spec, want_spec);
    for (uint32_t i = 0; i < n; i++) {
        const uint32_t x = m->coords[world[i] * 2], y = m->coords[world[i] * 2 + 1];
        const uint32_t want = (uint32_t)px(x) + len_x * (uint32_t)(py ? py(y) : 0);
        CHECK(node[i] == want, "%s: rank %u at (%u, %u) is node %u, want %u", what, world[i], x, y, node[i], want);
    }
}

static int same(uint32_t v) { return (int)v; }
static int minus1(uint32_t v) { return (int)v - 1; }
static int from3(uint32_t v) { return v == 3 ? 0 : 1; }
static int zero(uint32_t v) { (void)v; return 0; }
static int skip1(uint32_t v) { return v == 0 ? 0 : (int)v - 1; }

static void refused(const char *what, const char *spec, const char *map, uint32_t ranks, const char *word)
{
    totex_prog_machine *m = NULL;
    totex_error err = {{0}};
    totex_status st = totex_prog_machine_make(spec, map, "map.txt", ranks, &m, &err);
    CHECK(st != TOTEX_OK && !m, "%s: accepted", what);
    CHECK(strstr(err.msg, word) != NULL, "%s: the error \"%s\" does not say \"%s\"", what, err.msg, word);
    totex_prog_machine_free(m);
}

int main(void)
{
    totex_error err = {{0}};
    totex_prog_machine *m = NULL;
    /* no map: rank r at node r of ring:4*ring:4 (x = r mod 4, y = r / 4) */
    CHECK(totex_prog_machine_make("ring:4*ring:4", NULL, "none", 16, &m, &err) == TOTEX_OK, "make: %s", err.msg);
    for (uint32_t r = 0; m && r < 16; r++)
        CHECK(m->coords[r * 2] == r % 4 && m->coords[r * 2 + 1] == r / 4, "rank %u's coordinates", r);
    if (m) {
        box("all of ring:4*ring:4", m, all, 1, "ring:4*ring:4", 4, same, same);
        box("columns 1, 2", m, cols12, 1, "k2*ring:4", 2, minus1, same);
        box("columns 3, 0 (an arc through 0)", m, cols30, 1, "k2*ring:4", 2, from3, same);
        box("columns 0 .. 2 of row 1", m, cols012_row1, 1, "path:3", 3, same, zero);
        box("columns 0, 2", m, cols02, 0, "", 0, NULL, NULL);
        box("the diagonal", m, diagonal, 0, "", 0, NULL, NULL);
    }
    totex_prog_machine_free(m);
    /* a map that reverses the ranks: rank r at node 15 - r */
    char map[1024] = "# x y\n";
    for (int r = 0; r < 16; r++) {
        char line[32];
        snprintf(line, sizeof line, "%d, %d\n\n", (15 - r) % 4, (15 - r) / 4);
        strcat(map, line);
    }
    m = NULL;
    CHECK(totex_prog_machine_make("ring:4*ring:4", map, "map.txt", 16, &m, &err) == TOTEX_OK, "make: %s", err.msg);
    if (m) {
        for (uint32_t r = 0; r < 16; r++)
            CHECK(m->coords[r * 2] == (15 - r) % 4 && m->coords[r * 2 + 1] == (15 - r) / 4, "mapped rank %u", r);
        box("all, reversed", m, all, 1, "ring:4*ring:4", 4, same, same);
    }
    totex_prog_machine_free(m);
    /* a mesh and a complete graph: intervals of paths, any subset of K_m */
    m = NULL;
    CHECK(totex_prog_machine_make("path:4*path:3", NULL, "none", 12, &m, &err) == TOTEX_OK, "make: %s", err.msg);
    if (m) {
        box("mesh columns 1, 2", m, cols12, 1, "k2*path:3", 2, minus1, same);
        box("mesh columns 3, 0 (not an interval of a path)", m, cols30, 0, "", 0, NULL, NULL);
    }
    totex_prog_machine_free(m);
    m = NULL;
    CHECK(totex_prog_machine_make("complete:4*k2", NULL, "none", 8, &m, &err) == TOTEX_OK, "make: %s", err.msg);
    if (m)
        box("K4 without node 1", m, cols023, 1, "complete:3*k2", 3, skip1, same);
    totex_prog_machine_free(m);
    /* maps refused, each with a line that says why */
    refused("a network of another size", "ring:4*ring:4", NULL, 12, "16 nodes");
    refused("a coordinate out of range", "ring:4", "0\n1\n2\n4\n", 4, "out of range");
    refused("too few coordinates", "ring:4*k2", "0 0\n1\n2 0\n3 0\n0 1\n1 1\n2 1\n3 1\n", 8, "line 2");
    refused("too many coordinates", "ring:4", "0 0\n1\n2\n3\n", 4, "line 1");
    refused("two ranks on one node", "ring:4", "0\n1\n1\n3\n", 4, "rank 2");
    refused("too few lines", "ring:4", "0\n1\n2\n", 4, "3 ranks placed");
    refused("a line too many", "ring:4", "0\n1\n2\n3\n0\n", 4, "more lines");
    refused("not a number", "ring:4", "0\nx\n2\n3\n", 4, "line 2");
    refused("a spec that does not parse", "ring:4*", NULL, 4, "");
    printf("test_machine: %d failures\n", failures);
    return failures != 0;
}
