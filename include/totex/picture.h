/**
 * @file totex/picture.h
 * @brief Pictures of schedules and comparisons, drawn with cairo: PNG or SVG
 *        chosen by the file extension.
 *
 * Kinds of picture:
 * - space-time diagram (totex_picture_spacetime()): one column per step, one
 *   row per node on 1-D networks (each cell split into the message sent to the
 *   right / clockwise, upper half, and to the left, lower half; the style of
 *   003 Figs. 2-3, "messages moving along arrays and rings") or one row per
 *   directed link otherwise; each cell coloured by the destination of the
 *   message it carries; the completion time and the best lower bound are
 *   vertical lines. Needs a detailed ::totex_recorder (small networks).
 * - link utilisation over the steps (totex_picture_utilisation()), any size:
 *   busy directed links / all directed links per step, in %.
 * - link heat map of a 2-D network (totex_picture_heatmap()): messages each
 *   link carried, one arrow-shaped segment per directed link.
 * - bar chart of steps per algorithm and port model from totex_compare()
 *   (totex_picture_compare()), the lower bound drawn across each group.
 * - predicted time vs block size (log-log) of the message-combining sweep of
 *   totex_comb_sweep() (totex_picture_sweep()), crossovers marked.
 *
 * Sizes are in pixels (PNG) or points (SVG, 1 px = 1 pt); 0 picks a default.
 * The picture is written to @c path: a name ending in ".png" (any case) is
 * written as PNG, ".svg" as SVG; anything else is TOTEX_EINVAL. A file that
 * cannot be created or written is TOTEX_EIO naming the path and the reason.
 * Every function fills @p err on failure and never aborts; no function keeps
 * a pointer to its arguments after it returns.
 */
#ifndef TOTEX_PICTURE_H
#define TOTEX_PICTURE_H

#include "totex/algorithm.h"
#include "totex/combining.h"
#include "totex/report.h"
#include "totex/schedule.h"
#include "totex/wschedule.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Output format of a picture. */
typedef enum totex_picture_format {
    TOTEX_PICTURE_PNG = 0,
    TOTEX_PICTURE_SVG = 1
} totex_picture_format;

/**
 * @param path a file name. @param out receives the format its extension names (".png" / ".svg", any case).
 * @param err receives the message on failure (may be NULL).
 * @return TOTEX_OK; TOTEX_EINVAL for another extension.
 */
totex_status totex_picture_format_of(const char *path, totex_picture_format *out, totex_error *err);

/** Networks up to this many nodes get a detailed recording (every hop of every step). */
#define TOTEX_RECORD_DETAIL_NODES 64u
/** Detailed recordings stop (keeping per-step counts only) past this many steps. */
#define TOTEX_RECORD_DETAIL_STEPS 20000u
/** Per-directed-link totals are kept while the network has at most this many directed links. */
#define TOTEX_RECORD_MAX_LINKS (UINT64_C(1) << 26)

/**
 * A recording sink: forwards every step to another sink (e.g. the simulator's,
 * a tee) and records what it saw: always the number of hops of each step (8
 * bytes per step); the messages each directed link carried in total (8 bytes
 * per directed link, up to TOTEX_RECORD_MAX_LINKS); and, while the network has
 * at most TOTEX_RECORD_DETAIL_NODES nodes and the schedule at most
 * TOTEX_RECORD_DETAIL_STEPS steps, every hop (12 bytes each).
 */
typedef struct totex_recorder totex_recorder;

/**
 * New recorder for schedules on @p net (borrowed: must outlive the recorder)
 * forwarding to @p next (a sink with step == NULL forwards nowhere).
 * @param net the network (borrowed). @param next the sink steps go on to.
 * @param err receives the message on failure (may be NULL).
 * @return the recorder (free with totex_recorder_free()); NULL with @p err set when out of memory.
 */
totex_recorder *totex_recorder_new(const totex_network *net, totex_sink next, totex_error *err);
/** Free a recorder. @param rec a recorder, or NULL (nothing done). */
void totex_recorder_free(totex_recorder *rec);
/**
 * @param rec a recorder (outlives the sink).
 * @return its sink: records a step, then forwards it; a step returns the next
 *         sink's status, or TOTEX_ENOMEM when the recording cannot grow.
 */
totex_sink totex_recorder_sink(totex_recorder *rec);
/** @param rec a recorder. @return the steps recorded, idle ones included. */
uint64_t totex_recorder_steps(const totex_recorder *rec);
/** @param rec a recorder. @return the hops recorded over all steps, in message-hops. */
uint64_t totex_recorder_hops(const totex_recorder *rec);
/** @param rec a recorder. @param step a step, 0-based. @return its hops; 0 past the end. */
uint64_t totex_recorder_step_hops(const totex_recorder *rec, uint64_t step);
/** @param rec a recorder. @return 1 if every hop was kept (small network and schedule: the space-time diagram can be drawn), else 0. */
int totex_recorder_detailed(const totex_recorder *rec);
/** @param rec a recorder. @return 1 if per-link totals were kept, else 0. */
int totex_recorder_has_link_counts(const totex_recorder *rec);
/**
 * @param rec a recorder. @param from, to nodes.
 * @return the messages the directed link @p from -> @p to carried over the
 *         whole schedule; 0 if unknown or not a link.
 */
uint64_t totex_recorder_link_count(const totex_recorder *rec, uint32_t from, uint32_t to);

/**
 * Plan @p algo on @p net under @p ports (a symmetric schedule is expanded to
 * every node), stream it through a recorder teed into a fresh simulator and
 * finish the simulator into @p sim_out (may be NULL).
 * @param net the network. @param ports the port model. @param algo the algorithm.
 * @param max_messages simulator limit (0: its default)
 * @param sim_out receives the simulator's report (may be NULL)
 * @param err receives the message on failure (may be NULL)
 * @param out receives the recorder (caller frees) on TOTEX_OK
 * @return TOTEX_OK; the algorithm's or simulator's status (TOTEX_EVIOLATION,
 *         TOTEX_ENOTAPPLICABLE, TOTEX_ENOMEM) with @p err set.
 */
totex_status totex_picture_record(const totex_network *net, totex_ports ports, const totex_algorithm *algo,
                                  uint64_t max_messages, totex_recorder **out, totex_sim_report *sim_out,
                                  totex_error *err);

/** Labels of a schedule picture; any string may be NULL. */
typedef struct totex_picture_labels {
    const char *title;     /**< first line of the title, e.g. "ring:8, multiport, a2" */
    uint64_t lower_bound;  /**< best lower bound, in steps (0: not drawn) */
    const char *bound_kind;/**< its kind, e.g. "cut" (shown in the legend) */
    uint64_t steps;        /**< completion time in steps (0: taken from the recorder) */
} totex_picture_labels;

/**
 * Space-time diagram of a detailed recording (see the file comment).
 * @param path   the file to write: its extension (".png", ".svg") picks the format.
 * @param net    the network drawn.
 * @param width, height size in pixels (PNG) or points (SVG); 0 picks a default.
 * @param err    receives the message on failure (may be NULL).
 * @param rec    a detailed recording. @param labels title, bound, steps (may be NULL).
 * @return TOTEX_OK; TOTEX_EINVAL if @p rec is not detailed
 *         (totex_recorder_detailed()) or the extension is unknown; TOTEX_EIO.
 */
totex_status totex_picture_spacetime(const char *path, const totex_network *net, const totex_recorder *rec,
                                     const totex_picture_labels *labels, int width, int height, totex_error *err);

/**
 * Link utilisation per step (busy / all directed links, %), bound and completion marked; any recording.
 * @param path   the file to write: its extension (".png", ".svg") picks the format.
 * @param net    the network drawn.
 * @param width, height size in pixels (PNG) or points (SVG); 0 picks a default.
 * @param err    receives the message on failure (may be NULL).
 * @param rec    a recording. @param labels title, bound, steps (may be NULL).
 * @return TOTEX_OK; TOTEX_EINVAL for an unknown extension; TOTEX_EIO; TOTEX_ENOMEM.
 */
totex_status totex_picture_utilisation(const char *path, const totex_network *net, const totex_recorder *rec,
                                       const totex_picture_labels *labels, int width, int height, totex_error *err);

/**
 * Heat map of the messages each directed link carried on a 2-D network (node
 * grid, coordinate 0 across, coordinate 1 down; wrap-around links of rings
 * drawn as stubs at the border).
 * @param path   the file to write: its extension (".png", ".svg") picks the format.
 * @param net    the network drawn.
 * @param width, height size in pixels (PNG) or points (SVG); 0 picks a default.
 * @param err    receives the message on failure (may be NULL).
 * @param rec    a recording with link counts. @param labels title (may be NULL).
 * @return TOTEX_OK; TOTEX_EINVAL if the network is not 2-D, the recorder has
 *         no link counts or the extension is unknown; TOTEX_EIO; TOTEX_ENOMEM.
 */
totex_status totex_picture_heatmap(const char *path, const totex_network *net, const totex_recorder *rec,
                                   const totex_picture_labels *labels, int width, int height, totex_error *err);

/**
 * Heat map of the bytes each directed link carried (a byte-weighted schedule
 * replayed by totex_wsim_run()) on a 2-D network, drawn as
 * totex_picture_heatmap() draws messages.
 * @param path   the file to write: its extension (".png", ".svg") picks the format.
 * @param net    the network drawn. @param links its numbered directed links (totex_wlinks_build()).
 * @param bytes  links->arcs byte counts, one per directed link (borrowed).
 * @param labels title (may be NULL). @param width, height size in pixels (PNG) or points (SVG); 0 picks a default.
 * @param err    receives the message on failure (may be NULL).
 * @return TOTEX_OK; TOTEX_EINVAL if the network is not 2-D, the links do not match or the extension is unknown;
 *         TOTEX_EIO; TOTEX_ENOMEM.
 */
totex_status totex_picture_link_bytes(const char *path, const totex_network *net, const totex_wlinks *links,
                                      const uint64_t *bytes, const totex_picture_labels *labels, int width, int height,
                                      totex_error *err);

/**
 * Bar chart of the rows of totex_compare(): steps per algorithm, grouped by
 * port model, the best lower bound of each port model drawn across its group;
 * rows that did not run are listed as "n/a".
 * @param path   the file to write: its extension (".png", ".svg") picks the format.
 * @param net    the network drawn.
 * @param width, height size in pixels (PNG) or points (SVG); 0 picks a default.
 * @param err    receives the message on failure (may be NULL).
 * @param name   what the user wrote (NULL: the spec).
 * @param rows, count the rows of totex_compare().
 * @return TOTEX_OK; TOTEX_EINVAL for an unknown extension; TOTEX_EIO; TOTEX_ENOMEM.
 */
totex_status totex_picture_compare(const char *path, const totex_network *net, const char *name,
                                   const totex_compare_row *rows, size_t count, int width, int height,
                                   totex_error *err);

/**
 * Predicted time (s) vs block size (bytes), log-log, one line per combining
 * algorithm, from the arrays filled by totex_comb_sweep() (same layout:
 * @p times has TOTEX_COMB_SWEEP_SIZES * totex_comb_algorithm_count() entries,
 * NAN where an algorithm does not apply); crossovers (winner changes) marked
 * with vertical dashed lines and the new winner's name.
 * @param path   the file to write: its extension (".png", ".svg") picks the format.
 * @param net    the network drawn.
 * @param width, height size in pixels (PNG) or points (SVG); 0 picks a default.
 * @param err    receives the message on failure (may be NULL).
 * @param times, winners the arrays of totex_comb_sweep().
 * @return TOTEX_OK; TOTEX_EINVAL for an unknown extension; TOTEX_EIO; TOTEX_ENOMEM.
 */
totex_status totex_picture_sweep(const char *path, const totex_network *net, const double *times,
                                 const size_t *winners, int width, int height, totex_error *err);
/**
 * totex_picture_sweep() for any @p na algorithms named @p names (na entries,
 * borrowed): @p times has TOTEX_COMB_SWEEP_SIZES * @p na entries in the same
 * layout, @p winners indexes @p names (SIZE_MAX: none). It draws only what it
 * is given: the report does not read the combining registry;
 * totex_picture_sweep() (src/plan/sweep_picture.c) passes the registry's names.
 * @param names, na the algorithms' names (borrowed) and their number.
 * The other parameters: as totex_picture_sweep().
 * @return as totex_picture_sweep().
 */
totex_status totex_picture_sweep_named(const char *path, const totex_network *net, const char *const *names,
                                       size_t na, const double *times, const size_t *winners, int width, int height,
                                       totex_error *err);

/**
 * What `totex plan --picture FILE` draws for the verified plan @p r: re-plans
 * its algorithm through a recorder, writes the space-time diagram to @p path
 * when the recording is detailed, else the utilisation curve; on 2-D networks
 * also the heat map to PATH-heatmap.EXT (EXT of @p path). If @p heatmap_path
 * is non-NULL it receives that name (or "" when none was written), size @p heatmap_len.
 * @param path the picture's file. @param r a verified plan (totex_plan_and_verify()).
 * @param max_messages simulator limit (0: its default).
 * @param heatmap_path, heatmap_len receives the heat map's name (may be NULL, 0).
 * @param err receives the message on failure (may be NULL).
 * @return as the functions above, or the status of totex_picture_record().
 */
totex_status totex_picture_plan(const char *path, const totex_plan_result *r, uint64_t max_messages,
                                 char *heatmap_path, size_t heatmap_len, totex_error *err);

#ifdef __cplusplus
}
#endif
#endif
