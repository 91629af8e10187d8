/* GLPK's simplex as the exact search and the fluid LP run it (internal to src/exact/; only with TOTEX_HAVE_GLPK). */
#ifndef TOTEX_EXACT_GLPK_QUIET_H
#define TOTEX_EXACT_GLPK_QUIET_H
#ifdef TOTEX_HAVE_GLPK
#include <glpk.h>
/**
 * Run glp_simplex on @p P silently (GLPK's terminal output hooked off), with
 * its presolver, and a time limit of @p seconds (0: none).
 * @return glp_simplex's code.
 */
int totex_glpk_simplex_quiet(glp_prob *P, double seconds);
#endif
#endif
