/*
 * Pictures: every kind writes a valid PNG (signature and the
 * IHDR width/height asked for) and SVG; the recording sink's counts equal the
 * simulator's; bad paths and extensions are clear errors, never crashes.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "support.h"

static char dir[64];

static void path_of(char *buf, size_t len, const char *name) { snprintf(buf, len, "%s/%s", dir, name); }

static unsigned char *slurp(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    assert_non_null(fp);
    fseek(fp, 0, SEEK_END);
    long n = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    assert_true(n > 0);
    unsigned char *b = malloc((size_t)n + 1);
    assert_non_null(b);
    assert_int_equal(fread(b, 1, (size_t)n, fp), (size_t)n);
    b[n] = 0;
    fclose(fp);
    *len = (size_t)n;
    return b;
}

static uint32_t be32(const unsigned char *p) { return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]; }

/* PNG signature, IHDR first, width and height; 0 width: any size */
static void check_png(const char *path, uint32_t w, uint32_t h)
{
    static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    size_t len;
    unsigned char *b = slurp(path, &len);
    assert_true(len > 33);
    assert_memory_equal(b, sig, 8);
    assert_memory_equal(b + 12, "IHDR", 4);
    if (w) {
        assert_int_equal(be32(b + 16), w);
        assert_int_equal(be32(b + 20), h);
    } else {
        assert_true(be32(b + 16) >= 64 && be32(b + 20) >= 64);
    }
    free(b);
}

static void check_svg(const char *path)
{
    size_t len;
    unsigned char *b = slurp(path, &len);
    assert_true(len > 100);
    assert_true(!strncmp((char *)b, "<?xml", 5) || !strncmp((char *)b, "<svg", 4));
    assert_non_null(strstr((char *)b, "</svg>"));
    free(b);
}

static totex_recorder *record(const char *spec, totex_ports ports, const char *algo, totex_sim_report *rep,
                              totex_network **net)
{
    totex_error err = {{0}};
    totex_recorder *rec = NULL;
    *net = ts_net(spec);
    const totex_algorithm *a = totex_algorithm_find(algo, &err);
    assert_non_null(a);
    totex_status st = totex_picture_record(*net, ports, a, 0, &rec, rep, &err);
    if (st != TOTEX_OK)
        fail_msg("%s", err.msg);
    return rec;
}

static void test_recorder_counts(void **state)
{
    (void)state;
    static const struct {
        const char *spec, *algo;
        totex_ports ports;
    } cases[] = {{"ring:8", "a3", TOTEX_PORTS_MULTI},   {"path:6", "a3", TOTEX_PORTS_MULTI},
                 {"torus:4x4", "octr", TOTEX_PORTS_MULTI}, {"mesh:3x4", "a2", TOTEX_PORTS_SINGLE},
                 {"hypercube:4", "a2", TOTEX_PORTS_SINGLE}, {"torus:9x9", "octr", TOTEX_PORTS_MULTI}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        totex_network *net;
        totex_sim_report rep;
        totex_recorder *rec = record(cases[c].spec, cases[c].ports, cases[c].algo, &rep, &net);
        assert_int_equal(totex_recorder_hops(rec), rep.hops);
        assert_int_equal(totex_recorder_steps(rec), rep.steps_emitted);
        assert_int_equal(totex_recorder_detailed(rec), totex_network_nodes(net) <= TOTEX_RECORD_DETAIL_NODES);
        uint64_t sum = 0, maxs = 0, links = 0;
        for (uint64_t s = 0; s < totex_recorder_steps(rec); s++) {
            uint64_t h = totex_recorder_step_hops(rec, s);
            sum += h;
            if (h > maxs)
                maxs = h;
        }
        assert_int_equal(sum, rep.hops);
        assert_int_equal(maxs, rep.max_hops_in_step);
        assert_true(totex_recorder_has_link_counts(rec));
        uint32_t nb[64];
        for (uint32_t v = 0; v < totex_network_nodes(net); v++) {
            uint32_t d = totex_network_neighbors(net, v, nb);
            for (uint32_t i = 0; i < d; i++)
                links += totex_recorder_link_count(rec, v, nb[i]);
        }
        assert_int_equal(links, rep.hops);
        assert_int_equal(totex_recorder_link_count(rec, 0, 0), 0); /* not a link */
        totex_recorder_free(rec);
        totex_network_free(net);
    }
}

/* forwarding: the sink after the recorder sees every step, and its failure stops the stream */
static int forwarded;
static totex_status count_step(void *ctx, const totex_hop *hops, size_t count, totex_error *err)
{
    (void)ctx, (void)hops, (void)count, (void)err;
    return ++forwarded > 3 ? TOTEX_EINVAL : TOTEX_OK;
}

static void test_recorder_forwards(void **state)
{
    (void)state;
    totex_network *net = ts_net("ring:8");
    totex_sink next = {count_step, NULL};
    totex_recorder *rec = totex_recorder_new(net, next, NULL);
    totex_hop h = {0, 1, 0, 4};
    forwarded = 0;
    for (int i = 0; i < 3; i++)
        assert_int_equal(totex_recorder_sink(rec).step(rec, &h, 1, NULL), TOTEX_OK);
    assert_int_equal(totex_recorder_sink(rec).step(rec, &h, 1, NULL), TOTEX_EINVAL);
    assert_int_equal(forwarded, 4);
    assert_int_equal(totex_recorder_hops(rec), 4);
    assert_int_equal(totex_recorder_link_count(rec, 0, 1), 4);
    totex_recorder_free(rec);
    totex_network_free(net);
}

static void test_schedule_pictures(void **state)
{
    (void)state;
    const char *specs[] = {"ring:8", "torus:4x4", "torus:9x9"};
    const char *algos[] = {"a3", "octr", "octr"};
    for (size_t c = 0; c < 3; c++) {
        totex_network *net;
        totex_sim_report rep;
        totex_error err = {{0}};
        char p[128];
        totex_recorder *rec = record(specs[c], TOTEX_PORTS_MULTI, algos[c], &rep, &net);
        totex_picture_labels lb = {specs[c], rep.steps, "cut", rep.steps};
        for (int f = 0; f < 2; f++) {
            const char *ext = f ? "svg" : "png";
            if (totex_recorder_detailed(rec)) {
                snprintf(p, sizeof p, "%s/st%zu.%s", dir, c, ext);
                assert_int_equal(totex_picture_spacetime(p, net, rec, &lb, 700, 500, &err), TOTEX_OK);
                f ? check_svg(p) : check_png(p, 700, 500);
                assert_int_equal(totex_picture_spacetime(p, net, rec, NULL, 0, 0, &err), TOTEX_OK);
                f ? check_svg(p) : check_png(p, 0, 0);
            } else {
                snprintf(p, sizeof p, "%s/st%zu.%s", dir, c, ext);
                assert_int_equal(totex_picture_spacetime(p, net, rec, &lb, 0, 0, &err), TOTEX_EINVAL);
                assert_non_null(strstr(err.msg, "detailed"));
            }
            snprintf(p, sizeof p, "%s/ut%zu.%s", dir, c, ext);
            assert_int_equal(totex_picture_utilisation(p, net, rec, &lb, 640, 400, &err), TOTEX_OK);
            f ? check_svg(p) : check_png(p, 640, 400);
            snprintf(p, sizeof p, "%s/hm%zu.%s", dir, c, ext);
            totex_status st = totex_picture_heatmap(p, net, rec, &lb, 600, 480, &err);
            if (totex_network_dims(net) == 2) {
                assert_int_equal(st, TOTEX_OK);
                f ? check_svg(p) : check_png(p, 600, 480);
            } else {
                assert_int_equal(st, TOTEX_EINVAL);
                assert_non_null(strstr(err.msg, "2-D"));
            }
        }
        totex_recorder_free(rec);
        totex_network_free(net);
    }
}

static void test_compare_and_sweep(void **state)
{
    (void)state;
    totex_network *net = ts_net("torus:4x4");
    totex_ports ports[2] = {TOTEX_PORTS_SINGLE, TOTEX_PORTS_MULTI};
    size_t cap = 2 * totex_algorithm_count();
    totex_compare_row *rows = calloc(cap, sizeof *rows);
    totex_error err = {{0}};
    char p[128];
    size_t count = totex_compare(net, ports, 2, 0, rows, cap);
    path_of(p, sizeof p, "cmp.png");
    assert_int_equal(totex_picture_compare(p, net, "torus:4x4", rows, count, 800, 500, &err), TOTEX_OK);
    check_png(p, 800, 500);
    path_of(p, sizeof p, "cmp.SVG");
    assert_int_equal(totex_picture_compare(p, net, NULL, rows, count, 0, 0, &err), TOTEX_OK);
    check_svg(p);
    free(rows);

    size_t na = totex_comb_algorithm_count();
    double *times = calloc(TOTEX_COMB_SWEEP_SIZES * na, sizeof *times);
    size_t winners[TOTEX_COMB_SWEEP_SIZES];
    totex_comb_cost cost;
    totex_comb_cost_default(&cost);
    assert_int_equal(totex_comb_sweep(net, &cost, times, winners, &err), TOTEX_OK);
    path_of(p, sizeof p, "sweep.png");
    assert_int_equal(totex_picture_sweep(p, net, times, winners, 900, 600, &err), TOTEX_OK);
    check_png(p, 900, 600);
    path_of(p, sizeof p, "sweep.svg");
    assert_int_equal(totex_picture_sweep(p, net, times, winners, 0, 0, &err), TOTEX_OK);
    check_svg(p);
    for (size_t i = 0; i < TOTEX_COMB_SWEEP_SIZES * na; i++)
        times[i] = NAN;
    assert_int_equal(totex_picture_sweep(p, net, times, winners, 0, 0, &err), TOTEX_EINVAL);
    free(times);
    totex_network_free(net);
}

static void test_plan_picture(void **state)
{
    (void)state;
    totex_network *net = ts_net("mesh:4x3");
    totex_plan_result r;
    totex_error err = {{0}};
    char p[128], hp[160], q[160];
    assert_int_equal(totex_plan_best(net, TOTEX_PORTS_MULTI, TOTEX_OBJECTIVE_STEPS, 0, &r, &err), TOTEX_OK);
    path_of(p, sizeof p, "plan.png");
    assert_int_equal(totex_picture_plan(p, &r, 0, hp, sizeof hp, &err), TOTEX_OK);
    check_png(p, 0, 0);
    snprintf(q, sizeof q, "%s/plan-heatmap.png", dir);
    assert_string_equal(hp, q);
    check_png(hp, 0, 0);
    totex_network_free(net);
}

static void test_bad_paths(void **state)
{
    (void)state;
    totex_network *net;
    totex_sim_report rep;
    totex_error err = {{0}};
    totex_recorder *rec = record("ring:6", TOTEX_PORTS_MULTI, "a3", &rep, &net);
    totex_picture_format f;
    assert_int_equal(totex_picture_format_of("x.jpg", &f, &err), TOTEX_EINVAL);
    assert_non_null(strstr(err.msg, ".png or .svg"));
    assert_int_equal(totex_picture_format_of(NULL, &f, &err), TOTEX_EINVAL);
    assert_int_equal(totex_picture_format_of("a.PnG", &f, &err), TOTEX_OK);
    assert_int_equal(f, TOTEX_PICTURE_PNG);
    assert_int_equal(totex_picture_spacetime("/nonexistent-dir/x.png", net, rec, NULL, 0, 0, &err), TOTEX_EIO);
    assert_non_null(strstr(err.msg, "/nonexistent-dir/x.png"));
    assert_int_equal(totex_picture_utilisation("/nonexistent-dir/x.svg", net, rec, NULL, 0, 0, &err), TOTEX_EIO);
    assert_int_equal(totex_picture_utilisation(dir, net, rec, NULL, 0, 0, &err), TOTEX_EINVAL); /* no extension */
    char p[128];
    path_of(p, sizeof p, "tiny.png");
    assert_int_equal(totex_picture_utilisation(p, net, rec, NULL, 10, 10, &err), TOTEX_EINVAL);
    assert_int_equal(access(p, F_OK), -1); /* nothing left behind */
    totex_recorder_free(rec);
    totex_network_free(net);
}

/* the CLI: --picture on plan, compare and the combining sweep; bad paths exit 2 with one line */
static int run(const char *args, char *out, size_t len)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s' %s 2>&1 >/dev/null", TOTEX_CLI, args);
    FILE *fp = popen(cmd, "r");
    assert_non_null(fp);
    size_t n = fread(out, 1, len - 1, fp);
    out[n] = 0;
    int st = pclose(fp);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void test_cli(void **state)
{
    (void)state;
    char args[512], out[2048], p[160];
    snprintf(args, sizeof args, "plan path:6 --ports multi --picture %s/cli-path.png", dir);
    assert_int_equal(run(args, out, sizeof out), 0);
    snprintf(p, sizeof p, "%s/cli-path.png", dir);
    check_png(p, 0, 0);
    snprintf(args, sizeof args, "plan mesh:3x3 --ports multi --json --picture=%s/cli-mesh.svg", dir);
    assert_int_equal(run(args, out, sizeof out), 0);
    snprintf(p, sizeof p, "%s/cli-mesh.svg", dir);
    check_svg(p);
    snprintf(p, sizeof p, "%s/cli-mesh-heatmap.svg", dir);
    check_svg(p);
    snprintf(args, sizeof args, "compare ring:6 --picture %s/cli-cmp.png", dir);
    assert_int_equal(run(args, out, sizeof out), 0);
    snprintf(p, sizeof p, "%s/cli-cmp.png", dir);
    check_png(p, 0, 0);
    snprintf(args, sizeof args, "compare mesh:3x3 --model combining --sweep --picture %s/cli-sweep.png", dir);
    assert_int_equal(run(args, out, sizeof out), 0);
    snprintf(p, sizeof p, "%s/cli-sweep.png", dir);
    check_png(p, 0, 0);
    assert_int_equal(run("plan ring:6 --picture /nonexistent-dir/x.png", out, sizeof out), 2);
    assert_non_null(strstr(out, "cannot write output: /nonexistent-dir/x.png: No such file or directory"));
    assert_int_equal(run("plan ring:6 --picture x.gif", out, sizeof out), 2);
    assert_non_null(strstr(out, ".png or .svg"));
    assert_int_equal(run("plan ring:6 --picture", out, sizeof out), 2);
    assert_int_equal(run("compare mesh:3x3 --model combining --picture x.png", out, sizeof out), 2);
    assert_non_null(strstr(out, "--sweep"));
}

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/totex-picture-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_recorder_counts),  cmocka_unit_test(test_recorder_forwards),
        cmocka_unit_test(test_schedule_pictures), cmocka_unit_test(test_compare_and_sweep),
        cmocka_unit_test(test_plan_picture),     cmocka_unit_test(test_bad_paths),
        cmocka_unit_test(test_cli),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
