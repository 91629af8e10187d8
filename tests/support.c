#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

totex_network *ts_net(const char *spec)
{
    totex_error err = {{0}};
    totex_network *net = totex_network_parse(spec, &err);
    if (!net)
        fail_msg("cannot parse '%s': %s", spec, err.msg);
    return net;
}

void ts_refuses(const char *name, const ts_refusal *cases, size_t count)
{
    const totex_algorithm *a = totex_algorithm_find(name, NULL);
    if (!a)
        fail_msg("no algorithm '%s'", name);
    for (size_t i = 0; i < count; i++) {
        totex_network *net = ts_net(cases[i].spec);
        totex_error err = {{0}};
        totex_status st = a->applies(net, cases[i].ports, &err);
        totex_network_free(net);
        if (st != TOTEX_ENOTAPPLICABLE)
            fail_msg("%s on %s (ports %d): status %d, not 'not applicable'", name, cases[i].spec, (int)cases[i].ports,
                     (int)st);
        if (!err.msg[0] || !strstr(err.msg, cases[i].why))
            fail_msg("%s on %s: '%s' lacks '%s'", name, cases[i].spec, err.msg, cases[i].why);
    }
}

totex_status ts_simulate(const totex_network *net, totex_ports ports, const totex_schedule *s,
                         totex_sim_report *rep, totex_error *err)
{
    totex_sim *sim = totex_sim_new(net, ports, 0, err);
    totex_status st;
    if (!sim)
        return TOTEX_ENOMEM;
    st = totex_schedule_replay(s, totex_sim_sink(sim), err);
    if (st == TOTEX_OK)
        st = totex_sim_finish(sim, rep, err);
    totex_sim_free(sim);
    return st;
}

void ts_plan_ok(const char *spec, totex_ports ports, const char *name, totex_sim_report *rep, uint64_t *predicted)
{
    totex_error err = {{0}};
    totex_network *net = ts_net(spec);
    const totex_algorithm *a = name ? totex_algorithm_find(name, &err) : NULL;
    totex_plan_result res;
    if (name && !a)
        fail_msg("%s", err.msg);
    totex_status st = totex_plan_and_verify(net, ports, a, 0, &res, &err);
    if (st != TOTEX_OK)
        fail_msg("%s %s %s: %s", spec, totex_ports_name(ports), name ? name : "auto", err.msg);
    assert_true(res.verified);
    if (rep)
        *rep = res.sim;
    if (predicted)
        *predicted = res.predicted_steps;
    totex_network_free(net);
}

totex_schedule *ts_record(const totex_network *net, totex_ports ports, const char *name)
{
    totex_error err = {{0}};
    const totex_algorithm *a = totex_algorithm_find(name, &err);
    totex_schedule *s = totex_schedule_new();
    if (!a)
        fail_msg("%s", err.msg);
    if (a->plan(net, ports, totex_schedule_sink(s), &err) != TOTEX_OK)
        fail_msg("%s on %s: %s", name, totex_network_spec(net), err.msg);
    return s;
}

uint32_t *ts_bfs_all_pairs(const totex_network *net)
{
    uint32_t n = totex_network_nodes(net);
    uint32_t *dist = malloc(sizeof *dist * (size_t)n * n);
    uint32_t *queue = malloc(sizeof *queue * n);
    uint32_t nb[4096];
    assert_non_null(dist);
    assert_non_null(queue);
    for (uint32_t s = 0; s < n; s++) {
        uint32_t *row = dist + (size_t)s * n, head = 0, tail = 0;
        for (uint32_t v = 0; v < n; v++)
            row[v] = UINT32_MAX;
        row[s] = 0;
        queue[tail++] = s;
        while (head < tail) {
            uint32_t v = queue[head++];
            uint32_t deg = totex_network_neighbors(net, v, nb);
            for (uint32_t i = 0; i < deg; i++)
                if (row[nb[i]] == UINT32_MAX) {
                    row[nb[i]] = row[v] + 1;
                    queue[tail++] = nb[i];
                }
        }
    }
    free(queue);
    return dist;
}

const totex_comb_algorithm *ts_comb_algo(const char *name)
{
    totex_error err = {{0}};
    const totex_comb_algorithm *a = totex_comb_algorithm_find(name, &err);
    if (!a)
        fail_msg("%s not registered: %s", name, err.msg);
    return a;
}

totex_status ts_comb_run(const char *name, const char *spec, const totex_comb_cost *c, totex_comb_report *rep,
                         totex_error *err)
{
    totex_network *net = ts_net(spec);
    totex_comb_schedule *s = NULL;
    totex_status st = ts_comb_algo(name)->build(net, c, &s, err);
    if (st == TOTEX_OK) {
        uint64_t n = totex_network_nodes(net);
        totex_comb_fault f;
        if (totex_comb_simulate(net, s, c, rep, &f, err) != TOTEX_OK)
            fail_msg("%s on %s (%s, %s) rejected: %s", name, spec,
                     c->switching == TOTEX_SWITCH_WORMHOLE ? "wormhole" : "store-and-forward",
                     c->ports == TOTEX_COMB_ONE_PORT ? "one-port" : "all-port", err->msg);
        assert_int_equal(rep->blocks_delivered, n * (n - 1));
        assert_true(n < 2 || rep->transfers > 0);
        totex_comb_schedule_free(s);
    }
    totex_network_free(net);
    return st;
}

char *ts_file_contents(FILE *fp)
{
    long size;
    char *buf;
    fflush(fp);
    size = ftell(fp);
    assert_true(size >= 0);
    buf = calloc((size_t)size + 1, 1);
    assert_non_null(buf);
    rewind(fp);
    assert_int_equal(fread(buf, 1, (size_t)size, fp), (size_t)size);
    fseek(fp, 0, SEEK_END);
    return buf;
}
