/*
 * Benchmark: writing and reading the symmetric form of a unit-step
 * schedule file (include/totex/schedule_io.h) against planning it. For each
 * SPEC (default: fugaku, multiport) it times, in this process:
 *   plan    octr's plan_symmetric (001 Theorems 5, 7, 9): the baseline;
 *   certify certification at one node (001 Theorem 2);
 *   write   totex_unit_write_symmetric() to a temporary file;
 *   read    totex_unit_verify_stream() of that file (parse + certify);
 * and prints each as a ratio to plan, with the file's size in MiB and the
 * process's peak memory. Targets: plan + certify + write (what
 * `totex plan fugaku --ports multi --schedule f.json` does once) under 2 s,
 * the file under 50 MiB.
 *
 * usage: bench_export [SPEC PORTS]...
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "bench_util.h"
#include "totex.h"

static int run(const char *spec, const char *ports_s)
{
    totex_error err = {{0}};
    totex_ports ports;
    totex_network *net = totex_network_parse(spec, &err);
    const totex_algorithm *algo = totex_algorithm_find("octr", &err);
    if (!net || !algo || totex_ports_parse(ports_s, &ports, &err) != TOTEX_OK) {
        fprintf(stderr, "bench_export: %s\n", err.msg);
        totex_network_free(net);
        return 1;
    }
    totex_task *t = NULL;
    totex_sym_schedule *s = NULL;
    totex_sym_report rep;
    double t0 = bench_now();
    if (algo->plan_symmetric(net, ports, &t, &s, &err) != TOTEX_OK) {
        fprintf(stderr, "bench_export: %s\n", err.msg);
        return 1;
    }
    double plan_s = bench_now() - t0;
    t0 = bench_now();
    if (totex_sym_certify(t, ports, s, &rep, &err) != TOTEX_OK) {
        fprintf(stderr, "bench_export: %s\n", err.msg);
        return 1;
    }
    double certify_s = bench_now() - t0;
    FILE *fp = tmpfile();
    if (!fp)
        return 1;
    t0 = bench_now();
    if (totex_unit_write_symmetric(fp, net, ports, "octr", t, s, &err) != TOTEX_OK) {
        fprintf(stderr, "bench_export: %s\n", err.msg);
        return 1;
    }
    double write_s = bench_now() - t0;
    long size = ftell(fp);
    rewind(fp);
    totex_unit_verdict v;
    t0 = bench_now();
    totex_status st = totex_unit_verify_stream(fp, NULL, NULL, &v, &err);
    double read_s = bench_now() - t0;
    fclose(fp);
    if (st != TOTEX_OK || v.sim.steps != rep.steps) {
        fprintf(stderr, "bench_export: read back failed: %s\n", err.msg);
        return 1;
    }
    totex_unit_verdict_free(&v);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("%-10s %-7s steps %-8llu file %7.2f MiB | plan %.3f s (1.00) certify %.3f s (%.2f) write %.3f s (%.2f) "
           "read+certify %.3f s (%.2f) | plan+certify+write %.3f s | peak %ld MiB\n",
           spec, ports_s, (unsigned long long)rep.steps, size / 1048576.0, plan_s, certify_s, certify_s / plan_s,
           write_s, write_s / plan_s, read_s, read_s / plan_s, plan_s + certify_s + write_s, ru.ru_maxrss / 1024);
    totex_sym_free(s);
    totex_task_free(t);
    totex_network_free(net);
    return 0;
}

int main(int argc, char **argv)
{
    int rc = 0;
    if (argc < 3)
        return run("fugaku", "multi");
    for (int i = 1; i + 1 < argc; i += 2)
        rc |= run(argv[i], argv[i + 1]);
    return rc;
}
