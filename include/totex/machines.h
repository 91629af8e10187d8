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

/** @return the number of presets (`totex machines` lists them). */
size_t totex_machine_count(void);
/** @param i an index, 0 <= i < totex_machine_count(). @return the @p i-th preset (static), or NULL when @p i is out of range. */
const totex_machine *totex_machine_get(size_t i);
/** @param name a preset name, case-sensitive (NULL accepted). @return the preset (static), or NULL when none has that name. */
const totex_machine *totex_machine_find(const char *name);

#ifdef __cplusplus
}
#endif
#endif
