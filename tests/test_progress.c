/*
 * Progress on long jobs: the sink wrapper of
 * src/common/progress.c driven by a fake clock, writing to a temporary FILE.
 * Silent for the first second, at most one line per 0.25 s after that, the
 * format "LABEL: step DONE/TOTAL (P%), R steps/s, S s left", the line cleared
 * at the end, nothing at all when disabled, and the steps reach the inner sink;
 * phases restart the count and the rate but not the second of silence.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

static double fake_now;

static double fake_clock(void)
{
    return fake_now;
}

static uint64_t inner_steps;

static totex_status count_step(void *ctx, const totex_hop *hops, size_t count, totex_error *err)
{
    (void)ctx;
    (void)hops;
    (void)count;
    (void)err;
    inner_steps++;
    return TOTEX_OK;
}


/* Feed @p steps steps through @p sink, advancing the fake clock by @p dt before each. */
static void drive(totex_sink sink, int steps, double dt)
{
    for (int i = 0; i < steps; i++) {
        fake_now += dt;
        assert_int_equal(sink.step(sink.ctx, NULL, 0, NULL), TOTEX_OK);
    }
}

static void test_format_and_rate(void **state)
{
    (void)state;
    FILE *fp = tmpfile();
    totex_sink inner = {count_step, NULL};
    assert_non_null(fp);
    fake_now = 100.0;
    inner_steps = 0;
    totex_progress *p = totex_progress_new(fp, "a2", 400, fake_clock, 1);
    assert_non_null(p);
    totex_sink s = totex_progress_sink(p, inner);
    assert_ptr_not_equal(s.ctx, inner.ctx);
    /* 128 steps in the first second (dt = 1/128 s, exact in binary): silent */
    drive(s, 128, 1.0 / 128);
    char *text = ts_file_contents(fp);
    assert_string_equal(text, "");
    free(text);
    /* the 129th step after 1.008 s: one line, 128 steps/s, 271 steps left = 2 s */
    drive(s, 1, 1.0 / 128);
    text = ts_file_contents(fp);
    assert_string_equal(text, "\ra2: step 129/400 (32%), 128 steps/s, 2 s left");
    free(text);
    /* within the next 0.25 s: no new line */
    drive(s, 31, 1.0 / 128);
    text = ts_file_contents(fp);
    assert_int_equal(strchr(text + 1, '\r'), NULL);
    free(text);
    /* then a second line, rewritten in place */
    drive(s, 1, 1.0 / 128);
    text = ts_file_contents(fp);
    char *second = strrchr(text, '\r');
    assert_ptr_not_equal(second, text);
    assert_non_null(strstr(second, "a2: step 161/400 (40%), 128 steps/s, 2 s left"));
    free(text);
    /* at the end the line is cleared: spaces then carriage return */
    totex_progress_free(p);
    text = ts_file_contents(fp);
    size_t len = strlen(text);
    assert_true(len > 2);
    assert_int_equal(text[len - 1], '\r');
    assert_int_equal(text[len - 2], ' ');
    free(text);
    assert_int_equal(inner_steps, 161);
    fclose(fp);
}

static void test_unknown_total(void **state)
{
    (void)state;
    FILE *fp = tmpfile();
    totex_sink inner = {count_step, NULL};
    fake_now = 0.0;
    inner_steps = 0;
    totex_progress *p = totex_progress_new(fp, "greedy", 0, fake_clock, 1);
    totex_sink s = totex_progress_sink(p, inner);
    drive(s, 4, 0.5);
    char *text = ts_file_contents(fp);
    /* lines at 1.5 s (3 steps) and 2.0 s (4 steps): no percentage, no time left */
    assert_non_null(strstr(text, "\rgreedy: step 3, 2 steps/s"));
    assert_non_null(strstr(text, "\rgreedy: step 4, 2 steps/s"));
    assert_null(strstr(text, "left"));
    free(text);
    totex_progress_free(p);
    fclose(fp);
}

static void test_phases(void **state)
{
    (void)state;
    FILE *fp = tmpfile();
    assert_non_null(fp);
    fake_now = 10.0;
    totex_progress *p = totex_progress_new(fp, "octr", 0, fake_clock, 1);
    assert_non_null(p);
    /* a first phase of 0.5 s: silent (the job is younger than a second) */
    totex_progress_phase(p, "octr: certifying at one node", 1000);
    fake_now += 0.5;
    totex_progress_tick(p, 100);
    char *text = ts_file_contents(fp);
    assert_string_equal(text, "");
    free(text);
    /* a second phase at 1.5 s into the job: its first tick shows at once, counted from the phase */
    fake_now += 1.0;
    totex_progress_phase(p, "octr: replaying every node", 40);
    fake_now += 0.5;
    totex_progress_tick(p, 10);
    text = ts_file_contents(fp);
    assert_string_equal(text, "\roctr: replaying every node: step 10/40 (25%), 20 steps/s, 2 s left");
    free(text);
    /* a shorter label later: padded over the longer line */
    fake_now += 0.5;
    totex_progress_phase(p, "x", 0);
    fake_now += 0.5;
    totex_progress_tick(p, 1);
    text = ts_file_contents(fp);
    assert_non_null(strstr(text, "\rx: step 1, 2 steps/s                "));
    free(text);
    totex_progress_free(p);
    /* NULL meter: nothing happens */
    totex_progress_phase(NULL, "y", 1);
    totex_progress_tick(NULL, 1);
    fclose(fp);
}

static void test_silent_when_disabled(void **state)
{
    (void)state;
    FILE *fp = tmpfile();
    totex_sink inner = {count_step, NULL};
    unsetenv("TOTEX_PROGRESS");
    totex_progress_enable(0);
    assert_int_equal(totex_progress_enabled(), 0);
    fake_now = 0.0;
    inner_steps = 0;
    totex_progress *p = totex_progress_new(fp, "a3", 10, fake_clock, 0);
    totex_sink s = totex_progress_sink(p, inner);
    /* disabled: the inner sink itself is returned */
    assert_ptr_equal(s.step, inner.step);
    drive(s, 10, 1.0);
    totex_progress_tick(p, 5);
    totex_progress_free(p);
    char *text = ts_file_contents(fp);
    assert_string_equal(text, "");
    free(text);
    assert_int_equal(inner_steps, 10);
    fclose(fp);
}

static void test_enable_and_env(void **state)
{
    (void)state;
    unsetenv("TOTEX_PROGRESS");
    totex_progress_enable(1);
    assert_int_equal(totex_progress_enabled(), 1);
    setenv("TOTEX_PROGRESS", "0", 1);
    assert_int_equal(totex_progress_enabled(), 0);
    totex_progress_enable(0);
    setenv("TOTEX_PROGRESS", "1", 1);
    assert_int_equal(totex_progress_enabled(), 1);
    unsetenv("TOTEX_PROGRESS");
    assert_int_equal(totex_progress_enabled(), 0);
    /* a short job under plan_and_verify with progress on: the report is unchanged */
    totex_network *net = ts_net("ring:4*ring:3");
    totex_plan_result r;
    totex_progress_enable(1);
    assert_int_equal(totex_plan_and_verify(net, TOTEX_PORTS_SINGLE, totex_algorithm_find("a2", NULL), 0, &r, NULL),
                     TOTEX_OK);
    totex_progress_enable(0);
    assert_true(r.verified);
    totex_network_free(net);
}

/* a phase that starts within a quarter-second of the last line still shows at its first tick */
static void test_phase_shows_at_once(void **state)
{
    (void)state;
    FILE *fp = tmpfile();
    assert_non_null(fp);
    fake_now = 50.0;
    totex_progress *p = totex_progress_new(fp, "plan", 0, fake_clock, 1);
    assert_non_null(p);
    fake_now += 1.5;
    totex_progress_tick(p, 3); /* a line: 1.5 s into the job */
    fake_now += 0.1;
    totex_progress_phase(p, "certify", 10);
    fake_now += 0.05;
    totex_progress_tick(p, 1); /* 0.15 s after that line: the new phase's first tick */
    char *text = ts_file_contents(fp);
    assert_non_null(strstr(text, "\rcertify: step 1/10 (10%), 20 steps/s"));
    free(text);
    totex_progress_free(p);
    fclose(fp);
}

/* TOTEX_PROGRESS_DELAY on the real clock: 0 shows the first tick, 3600 keeps silent; the fake clock keeps 1 s */
static void test_delay_env(void **state)
{
    (void)state;
    FILE *fp = tmpfile();
    assert_non_null(fp);
    setenv("TOTEX_PROGRESS_DELAY", "3600", 1);
    totex_progress *p = totex_progress_new(fp, "quiet", 0, NULL, 1);
    totex_progress_tick(p, 1);
    totex_progress_free(p);
    char *text = ts_file_contents(fp);
    assert_string_equal(text, "");
    free(text);
    setenv("TOTEX_PROGRESS_DELAY", "0", 1);
    p = totex_progress_new(fp, "now", 0, NULL, 1);
    totex_progress_tick(p, 1);
    text = ts_file_contents(fp);
    assert_non_null(strstr(text, "\rnow: step 1,"));
    free(text);
    totex_progress_free(p);
    fake_now = 0.0;
    p = totex_progress_new(fp, "fake", 0, fake_clock, 1); /* (an injected clock: the default second) */
    fake_now = 0.5;
    totex_progress_tick(p, 1);
    text = ts_file_contents(fp);
    assert_null(strstr(text, "fake:"));
    free(text);
    totex_progress_free(p);
    unsetenv("TOTEX_PROGRESS_DELAY");
    fclose(fp);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_phase_shows_at_once),
        cmocka_unit_test(test_delay_env),
        cmocka_unit_test(test_format_and_rate),
        cmocka_unit_test(test_unknown_total),
        cmocka_unit_test(test_phases),
        cmocka_unit_test(test_silent_when_disabled),
        cmocka_unit_test(test_enable_and_env),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
