/*
 * `totex compare`'s driver: every algorithm under every port model, side by
 * side. Runs totex_plan_and_verify() for each pair, so every
 * row is verified (in full or, for symmetric schedules, at one node) and
 * measured; rows that do not apply or do not fit say why. The table and JSON
 * are src/report/compare.c.
 */
#include <stdio.h>
#include <string.h>

#include "totex/plan.h"

size_t totex_compare(const totex_network *net, const totex_ports *ports, size_t nports, uint64_t max_messages,
                     totex_compare_row *rows, size_t cap)
{
    size_t count = 0;
    for (size_t p = 0; p < nports; p++) {
        for (size_t i = 0; i < totex_algorithm_count() && count < cap; i++) {
            totex_compare_row *row = &rows[count++];
            totex_error err = {{0}};
            memset(row, 0, sizeof *row);
            row->algorithm = totex_algorithm_get(i);
            row->ports = ports[p];
            row->status = totex_plan_and_verify(net, ports[p], row->algorithm, max_messages, &row->result, &err);
            if (row->status != TOTEX_OK)
                snprintf(row->reason, sizeof row->reason, "%s", err.msg);
        }
    }
    return count;
}
