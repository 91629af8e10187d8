/*
 * totex reproduce: the small sweep agrees with the papers
 * everywhere and covers every claim family; a deliberately wrong paper value
 * (an injected offset) is reported as a disagreement; the comparison helper.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "reproduce.h"

static void test_small_sweep_agrees(void **state)
{
    (void)state;
    totex_reproduce_options opt = {TOTEX_SWEEP_SMALL, 0.0};
    totex_reproduce_report *r = NULL;
    totex_error err = {{0}};
    assert_int_equal(totex_reproduce_run(&opt, &r, &err), TOTEX_OK);
    assert_non_null(r);
    assert_true(r->count > 100);
    assert_int_equal(r->agree + r->disagree, r->count);
    for (size_t i = 0; i < r->count; i++)
        if (!r->rows[i].agree)
            print_message("disagreement: %s, %s: %s, paper %.9g, totex %.9g %s\n",
                          totex_reproduce_family(r->rows[i].family)->id, r->rows[i].instance, r->rows[i].quantity,
                          r->rows[i].paper, r->rows[i].measured, r->rows[i].note);
    assert_int_equal(r->disagree, 0);
    /* every family appears, with at least one instance, and the ones the issue names */
    size_t nf = totex_reproduce_family_count();
    assert_true(nf >= 17);
    for (size_t f = 0; f < nf; f++) {
        size_t a = 0, d = 1;
        if (totex_reproduce_family_counts(r, f, &a, &d) == 0)
            fail_msg("claim family %s has no instance", totex_reproduce_family(f)->id);
        assert_int_equal(d, 0);
    }
    const char *required[] = {"003-thm1", "003-thm2", "003-thm3", "003-eq1-2", "000-thm1", "000-sec3.1-ghc",
                              "004-cor2-thm3", "000-cor3-thm5", "000-fig1-2", "001-sec4.1", "001-thm7",
                              "001-sec8.2", "001-sec8.3", "001-sec8.5", "001-sec6.2", "002-table1", "002-table2"};
    for (size_t i = 0; i < sizeof required / sizeof *required; i++) {
        size_t f = 0;
        while (f < nf && strcmp(totex_reproduce_family(f)->id, required[i]))
            f++;
        if (f == nf)
            fail_msg("claim family %s missing", required[i]);
    }
    /* the Markdown report names every family and the counts */
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);
    assert_non_null(fp);
    totex_reproduce_write_markdown(fp, r);
    fclose(fp);
    char line[128];
    snprintf(line, sizeof line, "**%zu agree, 0 disagree**", r->agree);
    assert_non_null(strstr(buf, line));
    for (size_t f = 0; f < nf; f++)
        assert_non_null(strstr(buf, totex_reproduce_family(f)->source));
    assert_null(strstr(buf, "DISAGREE"));
    free(buf);
    totex_reproduce_free(r);
}

/* a wrong paper value (every closed form off by one) must show up as disagreements */
static void test_injected_offset_disagrees(void **state)
{
    (void)state;
    totex_reproduce_options opt = {TOTEX_SWEEP_SMALL, 1.0};
    totex_reproduce_report *r = NULL;
    totex_error err = {{0}};
    assert_int_equal(totex_reproduce_run(&opt, &r, &err), TOTEX_OK);
    assert_true(r->disagree > 0);
    size_t eq = 0, eq_bad = 0;
    for (size_t i = 0; i < r->count; i++)
        if (r->rows[i].rel == TOTEX_REL_EQ) {
            eq++;
            eq_bad += !r->rows[i].agree;
        }
    assert_true(eq > 0);
    assert_int_equal(eq_bad, eq); /* every equality breaks */
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);
    totex_reproduce_write_markdown(fp, r);
    fclose(fp);
    assert_non_null(strstr(buf, "**DISAGREE**"));
    free(buf);
    totex_reproduce_free(r);
    /* an offset that makes the paper's upper bounds smaller breaks them too */
    opt.paper_offset = -1000.0;
    assert_int_equal(totex_reproduce_run(&opt, &r, &err), TOTEX_OK);
    for (size_t i = 0; i < r->count; i++)
        if (r->rows[i].rel == TOTEX_REL_LE)
            assert_false(r->rows[i].agree);
    totex_reproduce_free(r);
}

static void test_compare_helper(void **state)
{
    (void)state;
    assert_true(totex_reproduce_agrees(TOTEX_REL_EQ, 1250, 1250));
    assert_false(totex_reproduce_agrees(TOTEX_REL_EQ, 1250, 1251));
    assert_true(totex_reproduce_agrees(TOTEX_REL_EQ, 2.8, 2.8 + 1e-12));
    assert_false(totex_reproduce_agrees(TOTEX_REL_EQ, 2.8, 2.8001));
    assert_true(totex_reproduce_agrees(TOTEX_REL_LE, 1265, 1250));
    assert_false(totex_reproduce_agrees(TOTEX_REL_LE, 1265, 1266));
    assert_true(totex_reproduce_agrees(TOTEX_REL_GE, 5, 6));
    assert_false(totex_reproduce_agrees(TOTEX_REL_GE, 5, 4));
    assert_false(totex_reproduce_agrees(TOTEX_REL_EQ, NAN, 1));
    assert_false(totex_reproduce_agrees(TOTEX_REL_EQ, 1, NAN));
    assert_string_equal(totex_relation_symbol(TOTEX_REL_LE), "<=");
    totex_sweep s;
    totex_error err = {{0}};
    assert_int_equal(totex_sweep_parse("full", &s, &err), TOTEX_OK);
    assert_int_equal(s, TOTEX_SWEEP_FULL);
    assert_int_equal(totex_sweep_parse("huge", &s, &err), TOTEX_EINVAL);
    assert_non_null(strstr(err.msg, "small"));
    assert_int_equal(totex_reproduce_run(NULL, NULL, &err), TOTEX_EINVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_small_sweep_agrees),
        cmocka_unit_test(test_injected_offset_disagrees),
        cmocka_unit_test(test_compare_helper),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
