/*
 * libFuzzer target for the topology spec parser (totex_network_parse).
 *
 * Each input is copied into a NUL-terminated string and parsed. When parsing
 * succeeds, the cheap closed-form metrics are exercised (node count, total
 * status, diameter, average status, a few node statuses and coordinates);
 * nothing here searches the product graph, so every input runs in well under
 * a millisecond. Inputs longer than 256 bytes are skipped to keep it fast.
 * "file:" specs are allowed: they either read a (small) file or fail cleanly.
 *
 * Build: see tests/fuzz/CMakeLists.txt and tests/fuzz/run.sh.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "totex/network.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_MAX_LEN 256

/* Keep results alive so the calls are not optimised away. */
static volatile uint64_t fuzz_sink;

static void check(int cond)
{
    if (!cond)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char spec[FUZZ_MAX_LEN + 1];
    totex_error err;
    totex_network *net;

    if (size > FUZZ_MAX_LEN)
        return 0;
    memcpy(spec, data, size);
    spec[size] = '\0';

    memset(&err, 0, sizeof err);
    net = totex_network_parse(spec, &err);
    if (!net) {
        /* A rejection must come with a one-line, NUL-terminated message. The
         * message quotes the spec, so a spec containing a newline is (for now)
         * echoed verbatim: only require one line when the spec has none. */
        check(memchr(err.msg, '\0', sizeof err.msg) != NULL);
        check(err.msg[0] != '\0');
        if (!memchr(spec, '\n', size))
            check(strchr(err.msg, '\n') == NULL);
        return 0;
    }

    uint32_t n = totex_network_nodes(net);
    uint32_t k = totex_network_dims(net);
    check(n >= 2);
    check(k >= 1 && k <= TOTEX_MAX_DIMS);
    check(totex_network_spec(net) != NULL);

    /* n must be the product of the factor sizes, each in range. */
    uint64_t prod = 1;
    for (uint32_t i = 0; i < k; i++) {
        const totex_factor *f = totex_network_factor(net, i);
        uint32_t m = totex_factor_nodes(f);
        check(m >= 2);
        check(totex_network_stride(net, i) == prod);
        prod *= m;
        check(prod <= UINT32_MAX);
    }
    check(prod == n);

    uint64_t diam = totex_network_diameter(net);
    check(diam >= 1);
    fuzz_sink += diam;
    double as = totex_network_average_status(net);
    check(as >= (double)(n - 1) * (1 - 1e-9));
    fuzz_sink += (uint64_t)as;
    uint64_t total = 0;
    totex_error err2;
    if (totex_network_status_sum(net, &total, &err2) == TOTEX_OK) {
        /* Corollary 1: S_G = n * AS(G) */
        double want = as * n;
        check((double)total >= want * (1 - 1e-9) && (double)total <= want * (1 + 1e-9));
        fuzz_sink += total;
    }
    double ad = totex_network_average_distance(net);
    check(ad >= 1 - 1e-9 && ad <= (double)diam * (1 + 1e-9));
    fuzz_sink += totex_network_messages(net);
    fuzz_sink += totex_network_links(net);
    fuzz_sink += (uint64_t)totex_network_homogeneous(net);

    /* A few nodes: first, last, middle, and one derived from the input. */
    uint32_t probe[4];
    probe[0] = 0;
    probe[1] = n - 1;
    probe[2] = n / 2;
    probe[3] = size ? (uint32_t)(data[0] * 2654435761u) % n : 1;
    for (int p = 0; p < 4; p++) {
        uint32_t v = probe[p];
        uint64_t s = totex_network_status(net, v);
        /* every other node is at distance >= 1 and <= diameter */
        check(s >= (uint64_t)(n - 1));
        check(diam == 0 || s <= diam * (uint64_t)(n - 1));
        uint64_t back = 0;
        for (uint32_t i = 0; i < k; i++) {
            uint32_t c = totex_network_coord(net, v, i);
            check(c < totex_factor_nodes(totex_network_factor(net, i)));
            back += (uint64_t)c * totex_network_stride(net, i);
        }
        check(back == v);
        fuzz_sink += s;
        fuzz_sink += totex_network_distance(net, 0, v);
    }

    totex_network_free(net);
    return 0;
}
