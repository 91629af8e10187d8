/*
 * libFuzzer target for the unit-step schedule reader
 * (totex_unit_verify_stream, include/totex/schedule_io.h): the input is a
 * schedule file, read through fmemopen() with small limits (64 KiB of text,
 * 2^16 messages for the full form's simulator, 4096 rows for the symmetric
 * form), so that every input runs in milliseconds. A rejection must come
 * with a one-line message; an accepted file must report a finite number of
 * steps that the verdict's network can hold.
 *
 * Seeds: tests/fuzz/corpus_unit (files written by totex plan --schedule).
 * Build and run: tests/fuzz/run.sh [SECONDS] unit
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "totex/schedule_io.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int cond)
{
    if (!cond)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0 || size > 65536)
        return 0;
    FILE *fp = fmemopen((void *)data, size, "r");
    if (!fp)
        return 0;
    totex_unit_limits lim = {65536, UINT64_C(1) << 16, 4096, NULL};
    totex_unit_verdict v;
    totex_error err;
    memset(&err, 0, sizeof err);
    totex_status st = totex_unit_verify_stream(fp, &lim, NULL, &v, &err);
    fclose(fp);
    if (st != TOTEX_OK) {
        check(memchr(err.msg, '\0', sizeof err.msg) != NULL);
        check(err.msg[0] != '\0');
        check(strchr(err.msg, '\n') == NULL || memchr(data, '\n', size) != NULL);
    } else {
        check(v.net != NULL);
        check(v.sim.messages == totex_network_messages(v.net));
        check(v.sim.steps <= v.sim.steps_emitted);
    }
    totex_unit_verdict_free(&v);
    return 0;
}
