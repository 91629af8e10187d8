/* Private helpers of src/demand/ (not installed). */
#ifndef TOTEX_DEMAND_IMPL_H
#define TOTEX_DEMAND_IMPL_H
/** @param gen a generator's name. @return an example of it, static. */
const char *demand_example(const char *gen);
#endif
