/*
 * Peak memory of `totex verify FILE` against the size of FILE (target: at
 * most 4 times the file).
 *
 *   bench_verify_memory [PATH_TO_totex [MIB]]
 *
 * Writes, in a fresh directory under $TMPDIR, three kinds of combining
 * schedule file (docs/schedule-format.md) and runs the CLI on each in a child
 * process, whose peak resident set (wait4's ru_maxrss) is its own:
 *   - valid schedules: ssy on mesh:16x16 and mesh:24x24, exported by the
 *     library (6 MB and 47 MB of JSON; verify replays them: exit 0);
 *   - MIB MiB (default 16) of block pairs: steps of one transfer of 60,000
 *     blocks on mesh:16x16 (the first step is rejected: exit 1, after reading);
 *   - MIB MiB of empty steps (every block is lost: exit 1, after replaying).
 * The baseline, measured in the same run, is `totex verify` of the smallest
 * schedule (ssy on mesh:2x2, under 1 KB): the process, the library and the
 * simulator's fixed costs. Printed per file: bytes, peak KiB, peak / file,
 * and (peak - baseline) / file, the figure the target applies to.
 * Exit 0 when every file is within 4x, 1 otherwise, 2 on a setup error.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "totex.h"

#ifndef TOTEX_CLI
#define TOTEX_CLI "totex"
#endif

#define TARGET_RATIO 4.0

static const char *HEAD = "{\"format\":\"totex-combining-schedule\",\"version\":1,\"network\":\"path:16*path:16\","
                          "\"nodes\":256,\"algorithm\":\"bench\",\"model\":{\"t_s\":1e-5,\"t_c\":1e-9,\"t_l\":0,"
                          "\"rho\":0,\"m\":8,\"switching\":\"wormhole\",\"ports\":\"one\"},\"steps\":[\n";

/* run `cli verify path`; peak resident KiB of the child, exit status in *status; -1 on failure */
static long verify_peak_kib(const char *cli, const char *path, int *status)
{
    struct rusage ru;
    int st;
    fflush(stdout); /* the child's freopen() must not write our buffered lines again */
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr))
            _exit(126);
        execl(cli, cli, "verify", path, (char *)NULL);
        _exit(127);
    }
    if (wait4(pid, &st, 0, &ru) != pid || !WIFEXITED(st) || WEXITSTATUS(st) >= 126)
        return -1;
    *status = WEXITSTATUS(st);
    return ru.ru_maxrss;
}

static int export_ssy(const char *spec, const char *path)
{
    totex_error err;
    totex_comb_cost cost;
    totex_comb_schedule *s = NULL;
    totex_network *net = totex_network_parse(spec, &err);
    int ok = 0;
    totex_comb_cost_default(&cost);
    if (net && totex_ssy_build(net, &s, &err) == TOTEX_OK &&
        totex_comb_export_file(path, net, s, &cost, "ssy", &err) == TOTEX_OK)
        ok = 1;
    else
        fprintf(stderr, "bench_verify_memory: %s: %s\n", spec, err.msg);
    totex_comb_schedule_free(s);
    totex_network_free(net);
    return ok;
}

/* a file of about @p bytes: steps of @p step (a JSON object), comma-separated */
static int write_steps(const char *path, const char *step, uint64_t bytes)
{
    FILE *fp = fopen(path, "w");
    if (!fp)
        return 0;
    size_t one = strlen(step);
    uint64_t written = strlen(HEAD);
    fputs(HEAD, fp);
    for (uint64_t i = 0; written < bytes; i++) {
        if (i)
            fputs(",\n", fp);
        fputs(step, fp);
        written += one + 2;
    }
    fputs("]}\n", fp);
    return fclose(fp) == 0;
}

static char *pairs_step(void)
{
    const size_t blocks = 60000;
    char *s = malloc(blocks * 12 + 200), *p = s;
    if (!s)
        return NULL;
    p += sprintf(p, "{\"rearranged\": 0, \"transfers\": [{\"from\": 0, \"to\": 1, \"blocks\": [");
    for (size_t i = 0; i < blocks; i++)
        p += sprintf(p, "%s[%zu, %zu]", i ? ", " : "", i % 256, (i * 7 + 1) % 256);
    sprintf(p, "]}]}");
    return s;
}

int main(int argc, char **argv)
{
    const char *cli = argc > 1 ? argv[1] : TOTEX_CLI;
    uint64_t mib = argc > 2 ? strtoull(argv[2], NULL, 10) : 16;
    char dir[4096], path[4200];
    const char *tmp = getenv("TMPDIR");
    int failed = 0, status;
    if (!mib || mib > 200) {
        fprintf(stderr, "usage: bench_verify_memory [PATH_TO_totex [MIB, 1..200]]\n");
        return 2;
    }
    snprintf(dir, sizeof dir, "%s/totex-bench-verify.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        fprintf(stderr, "bench_verify_memory: cannot make a directory in %s: %s\n", tmp ? tmp : "/tmp",
                strerror(errno));
        return 2;
    }
    struct {
        const char *name, *file;
    } files[] = {
        {"ssy mesh:2x2 (baseline)", "base.json"},
        {"ssy mesh:16x16, valid", "ssy16.json"},
        {"ssy mesh:24x24, valid", "ssy24.json"},
        {"block pairs, rejected", "pairs.json"},
        {"empty steps, rejected", "empty.json"},
    };
    enum { NFILES = sizeof files / sizeof files[0] };
    char *pairs = pairs_step();
    int ok = pairs != NULL;
    snprintf(path, sizeof path, "%s/%s", dir, files[0].file);
    ok = ok && export_ssy("mesh:2x2", path);
    snprintf(path, sizeof path, "%s/%s", dir, files[1].file);
    ok = ok && export_ssy("mesh:16x16", path);
    snprintf(path, sizeof path, "%s/%s", dir, files[2].file);
    ok = ok && export_ssy("mesh:24x24", path);
    snprintf(path, sizeof path, "%s/%s", dir, files[3].file);
    ok = ok && write_steps(path, pairs, mib << 20);
    snprintf(path, sizeof path, "%s/%s", dir, files[4].file);
    ok = ok && write_steps(path, "{\"rearranged\": 0, \"transfers\": []}", mib << 20);
    free(pairs);
    long base = 0;
    if (ok) {
        printf("totex verify: peak resident memory against the file's size (target: (peak - baseline) / file <= %.0f)\n",
               TARGET_RATIO);
        printf("%-26s %12s %10s %6s %12s %12s  %s\n", "file", "bytes", "peak KiB", "exit", "peak/file",
               "(p-base)/file", "verdict");
    }
    for (int i = 0; ok && i < NFILES; i++) {
        struct stat sb;
        snprintf(path, sizeof path, "%s/%s", dir, files[i].file);
        long kib = verify_peak_kib(cli, path, &status);
        if (kib < 0 || stat(path, &sb) != 0) {
            fprintf(stderr, "bench_verify_memory: cannot run %s verify %s\n", cli, path);
            ok = 0;
            break;
        }
        if (i == 0) {
            base = kib;
            printf("%-26s %12lld %10ld %6d %12s %12s  baseline\n", files[i].name, (long long)sb.st_size, kib, status,
                   "-", "-");
            continue;
        }
        double file = (double)sb.st_size, peak = 1024.0 * (double)kib, extra = 1024.0 * (double)(kib - base);
        int good = extra / file <= TARGET_RATIO;
        failed |= !good;
        printf("%-26s %12lld %10ld %6d %12.2f %12.2f  %s\n", files[i].name, (long long)sb.st_size, kib, status,
               peak / file, extra / file, good ? "ok" : "OVER TARGET");
    }
    for (int i = 0; i < NFILES; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, files[i].file);
        remove(path);
    }
    rmdir(dir);
    if (!ok)
        return 2;
    printf("%s\n", failed ? "bench_verify_memory: OVER the 4x target" : "bench_verify_memory: every file within 4x");
    return failed;
}
