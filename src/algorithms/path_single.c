/* STUB: to be replaced by the real implementation. */
#include "algorithms/factor_algos.h"
#include "common/error.h"

totex_status totex_fa_path_single(const totex_factor *f, totex_schedule **out, totex_error *err)
{
    (void)out;
    return totex_fail(err, TOTEX_ENOTAPPLICABLE, "path_single not implemented yet for %s", totex_factor_name(f));
}
