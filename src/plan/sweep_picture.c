/*
 * The combining sweep's picture with the registry's names: the driver joins
 * totex_comb_sweep()'s arrays (src/combining/select.c) to the drawing
 * (totex_picture_sweep_named(), src/report/picture_draw.c), so that report/
 * and combining/ do not import each other.
 */
#include <stdlib.h>

#include "common/error.h"
#include "totex/combining.h"
#include "totex/picture.h"

totex_status totex_picture_sweep(const char *path, const totex_network *net, const double *times,
                                 const size_t *winners, int width, int height, totex_error *err)
{
    size_t na = totex_comb_algorithm_count();
    const char **names = malloc((na ? na : 1) * sizeof *names);
    if (!names)
        return totex_fail(err, TOTEX_ENOMEM, "out of memory drawing the sweep");
    for (size_t a = 0; a < na; a++)
        names[a] = totex_comb_algorithm_get(a)->name;
    totex_status st = totex_picture_sweep_named(path, net, names, na, times, winners, width, height, err);
    free(names);
    return st;
}
