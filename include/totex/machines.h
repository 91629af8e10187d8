/**
 * @file totex/machines.h
 * @brief Named presets of real machines' networks, usable wherever a spec is.
 */
#ifndef TOTEX_MACHINES_H
#define TOTEX_MACHINES_H

#include "totex/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A named network of a real machine. All strings are static. */
typedef struct totex_machine {
    const char *name;        /**< preset name, e.g. "fugaku" */
    const char *spec;        /**< its spec in the grammar of totex/network.h */
    const char *description; /**< what the machine and the shape are */
    const char *source;      /**< where the shape comes from */
    int simulate;            /**< 1 when a full simulation is quick on a laptop (used by the demo) */
} totex_machine;

/** Number of presets. */
size_t totex_machine_count(void);
/** The @p i-th preset, or NULL when i >= count. */
const totex_machine *totex_machine_get(size_t i);
/** Preset called @p name (case-sensitive), or NULL. */
const totex_machine *totex_machine_find(const char *name);

#ifdef __cplusplus
}
#endif
#endif
