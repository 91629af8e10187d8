/* Helpers of the program layer's tests (tests/program/, no MPI): one rank's
   program made as the runtime makes it, with the reason of a failure as text. */
#ifndef TOTEX_TESTS_PROGRAM_SUPPORT_H
#define TOTEX_TESTS_PROGRAM_SUPPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "arena.h"
#include "build.h"
#include "choice.h"
#include "code.h"
#include "compile.h"
#include "program.h"
#include "ring.h"
#include "share.h"

/* a failure of a test that counts them in its own `static int failures`: the first 20 printed */
#define PROG_FAIL(...)                                                                                                 \
    do {                                                                                                               \
        if (failures++ < 20)                                                                                           \
            fprintf(stderr, __VA_ARGS__);                                                                              \
    } while (0)

/* the next of a xorshift64 sequence of state @p s (not 0): random draws a test can repeat */
uint64_t prog_test_next(uint64_t *s);

/* Rank @p me's program of unit-step algorithm @p a under @p ports on @p net (rank = node), blocks of
   @p slot bytes, @p chunks per transfer, lanes staggered or not, the default arena of
   TOTEX_PROG_ARENA_BLOCKS_PER_RANK blocks per rank or (@p tight) bytes reused as soon as free, messages
   under @p pad bytes padded (0: none), window 1 and the check's ring as the runtime sets them. Returns the
   program (free with totex_prog_free), or NULL with the reason in @p why (@p cap bytes). */
totex_prog *prog_test_compile_unit(const totex_network *net, const totex_algorithm *a, totex_ports ports, uint32_t me,
                                   long long slot, int chunks, int stagger, int tight, int pad, char *why, size_t cap);
/* totex_prog_compile() with the reason in @p why: 0 on success, else the status */
int prog_test_compile(totex_prog *p, const totex_prog_share *l, int chunks, int window, int stagger, char *why,
                      size_t cap);
/* the combining cost of totex_alltoall's plans (wormhole, all-port, the default times) for blocks of @p slot bytes */
totex_comb_cost prog_test_plan_cost(long long slot);
/* totex_prog_build() with the default options and the reason in @p why: 0 on success, else the status */
int prog_test_build(const totex_network *net, const totex_comb_cost *cost, const totex_prog_cand *c, uint32_t size,
                    uint32_t rank, long long slot, totex_prog **out, char *why, size_t cap);

#endif
