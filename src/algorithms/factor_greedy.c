/* STUB: to be replaced by the real implementation. */
#include "algorithms/factor_algos.h"
#include "common/error.h"

totex_status totex_fa_greedy(const totex_factor *f, totex_ports ports, totex_schedule **out, totex_error *err)
{
    (void)out; (void)ports;
    return totex_fail(err, TOTEX_ENOTAPPLICABLE, "greedy not implemented yet for %s", totex_factor_name(f));
}
