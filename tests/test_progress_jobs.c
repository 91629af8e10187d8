/*
 * Progress of the long jobs that are loops rather than sinks:
 * the one-node certification of symmetric schedules
 * (totex_sym_certify_progress) and the combining simulator
 * (totex_comb_simulate_progress), each driven with a meter on a temporary
 * FILE and a fake clock that jumps two seconds at every reading, so that
 * every tick prints. Checked: the meter reaches the total, the clock is read
 * per batch of steps and not per step, the report equals the one without a
 * meter, and a NULL meter changes nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

static double fake_now;
static unsigned long clock_reads;

static double jumping_clock(void)
{
    clock_reads++;
    fake_now += 2.0;
    return fake_now;
}


static void test_certify_progress(void **state)
{
    (void)state;
    /* OCTR single-port on an 8x8x8 torus: 3072 steps, 3 batches of 1024 */
    totex_network *net = ts_net("torus:8x8x8");
    totex_task *task = NULL;
    totex_sym_schedule *s = NULL;
    totex_error err;
    const totex_algorithm *octr = totex_algorithm_find("octr", NULL);
    assert_non_null(octr);
    assert_int_equal(octr->plan_symmetric(net, TOTEX_PORTS_SINGLE, &task, &s, &err), TOTEX_OK);
    const uint64_t steps = totex_sym_steps(s);
    assert_true(steps > 2048);

    totex_sym_report plain, metered;
    assert_int_equal(totex_sym_certify(task, TOTEX_PORTS_SINGLE, s, &plain, &err), TOTEX_OK);
    FILE *fp = tmpfile();
    assert_non_null(fp);
    fake_now = 0.0;
    clock_reads = 0;
    totex_progress *p = totex_progress_new(fp, "certify", steps, jumping_clock, 1);
    assert_non_null(p);
    assert_int_equal(totex_sym_certify_progress(task, TOTEX_PORTS_SINGLE, s, &metered, p, &err), TOTEX_OK);
    char *text = ts_file_contents(fp);
    char want[96];
    snprintf(want, sizeof want, "\rcertify: step 1024/%llu (", (unsigned long long)steps);
    assert_non_null(strstr(text, want));
    snprintf(want, sizeof want, "certify: step %llu/%llu (100%%)", (unsigned long long)steps,
             (unsigned long long)steps);
    assert_non_null(strstr(text, want));
    free(text);
    /* one reading at the start, one per batch of 1024 steps: not one per step */
    assert_int_equal(clock_reads, 1 + (steps + 1023) / 1024);
    totex_progress_free(p);
    fclose(fp);
    assert_memory_equal(&plain, &metered, sizeof plain);

    /* a NULL meter is totex_sym_certify() itself */
    assert_int_equal(totex_sym_certify_progress(task, TOTEX_PORTS_SINGLE, s, &metered, NULL, &err), TOTEX_OK);
    assert_memory_equal(&plain, &metered, sizeof plain);
    totex_sym_free(s);
    totex_task_free(task);
    totex_network_free(net);
}

static void test_certify_progress_violation(void **state)
{
    (void)state;
    /* an invalid schedule is still rejected, with or without a meter */
    totex_network *net = ts_net("ring:4*ring:3");
    totex_task *task = totex_task_total_exchange(net, NULL);
    totex_sym_schedule *s = totex_sym_new();
    totex_sym_move twice[2] = {{0, 0}, {0, 1}}; /* one packet moving twice in a step */
    totex_sym_report rep;
    totex_error err;
    assert_non_null(task);
    assert_non_null(s);
    assert_int_equal(totex_sym_add_step(s, twice, 2, NULL), TOTEX_OK);
    FILE *fp = tmpfile();
    fake_now = 0.0;
    totex_progress *p = totex_progress_new(fp, "certify", 1, jumping_clock, 1);
    assert_int_equal(totex_sym_certify_progress(task, TOTEX_PORTS_MULTI, s, &rep, p, &err), TOTEX_EVIOLATION);
    assert_non_null(strstr(err.msg, "already moves in this step"));
    totex_progress_free(p);
    fclose(fp);
    totex_sym_free(s);
    totex_task_free(task);
    totex_network_free(net);
}

static void test_comb_simulate_progress(void **state)
{
    (void)state;
    /* pairwise exchange on an 8x8 mesh: 64 light steps (64 transfers of one block each) */
    totex_network *net = ts_net("mesh:8x8");
    totex_comb_cost c;
    totex_comb_schedule *s = NULL;
    totex_error err;
    totex_comb_cost_default(&c);
    assert_int_equal(ts_comb_algo("pairwise")->build(net, &c, &s, &err), TOTEX_OK);
    const uint64_t steps = totex_comb_steps(s);
    assert_true(steps >= 63);

    totex_comb_report plain, metered;
    assert_int_equal(totex_comb_simulate(net, s, &c, &plain, NULL, &err), TOTEX_OK);
    FILE *fp = tmpfile();
    assert_non_null(fp);
    fake_now = 0.0;
    clock_reads = 0;
    totex_progress *p = totex_progress_new(fp, "simulating pairwise", steps, jumping_clock, 1);
    assert_int_equal(totex_comb_simulate_progress(net, s, &c, &metered, NULL, p, &err), TOTEX_OK);
    char *text = ts_file_contents(fp);
    char want[96];
    snprintf(want, sizeof want, "simulating pairwise: step %llu/%llu (100%%)", (unsigned long long)steps,
             (unsigned long long)steps);
    assert_non_null(strstr(text, want));
    free(text);
    /* light steps are counted in batches: far fewer clock readings than steps, but more than one */
    assert_true(clock_reads > 2);
    assert_true(clock_reads < steps / 2);
    totex_progress_free(p);
    fclose(fp);
    assert_memory_equal(&plain, &metered, sizeof plain);
    assert_int_equal(totex_comb_simulate_progress(net, s, &c, &metered, NULL, NULL, &err), TOTEX_OK);
    assert_memory_equal(&plain, &metered, sizeof plain);
    totex_comb_schedule_free(s);
    totex_network_free(net);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_certify_progress),
        cmocka_unit_test(test_certify_progress_violation),
        cmocka_unit_test(test_comb_simulate_progress),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
