/* Internal to the pictures (src/report/picture_*.c): the recorder's layout and drawing helpers. */
#ifndef TOTEX_REPORT_PICTURE_INTERNAL_H
#define TOTEX_REPORT_PICTURE_INTERNAL_H

#include <cairo.h>

#include "totex/picture.h"

typedef struct totex_rec_hop {
    uint32_t from, to, dst;
} totex_rec_hop;

struct totex_recorder {
    const totex_network *net;
    totex_sink next;
    uint32_t n;
    uint64_t steps, step_cap, total_hops;
    uint64_t *step_hops;      /* hops per step */
    int detailed;             /* every hop kept in hops[] */
    totex_rec_hop *hops;
    uint64_t hop_len, hop_cap;
    uint64_t *step_start;     /* steps + 1 offsets into hops[] */
    uint64_t start_cap;
    int has_links;            /* per-directed-link totals kept */
    uint64_t *offset;         /* n + 1: directed links of node v are offset[v] .. offset[v+1]-1 */
    uint32_t *nbr;            /* head of each directed link */
    uint64_t *link_count;     /* messages carried by each directed link */
};

/** Index of directed link from -> to, or -1. */
int64_t totex_recorder_link_index(const totex_recorder *rec, uint32_t from, uint32_t to);

/* A canvas: a cairo context drawing into a PNG or SVG file. */
typedef struct pic_canvas {
    cairo_surface_t *surface;
    cairo_t *cr;
    FILE *fp;
    totex_picture_format format;
    const char *path;
    int width, height;
    struct totex_output *out; /* the file is written beside its path, renamed when complete */
} pic_canvas;

/** Open @p path for writing and start drawing (white background). */
totex_status pic_begin(pic_canvas *c, const char *path, int width, int height, totex_error *err);
/** Finish drawing, write and close the file, and rename it over its path (totex/output.h; unless
    pic_defer() holds it back); TOTEX_EIO "cannot write output: PATH: REASON" on failure, the path
    left as it was. Always releases @p c. */
totex_status pic_end(pic_canvas *c, totex_error *err);
/** From now on (this thread), pic_end() keeps the closed files back instead of renaming them. */
void pic_defer(void);
/** Rename the files kept back over their paths when @p ok (stopping at the first failure), else
    remove them all; ends pic_defer(). */
totex_status pic_publish_deferred(int ok, totex_error *err);
/** Text with its anchor: ax, ay in {0, 0.5, 1} (left/centre/right, top/middle/baseline-bottom). */
void pic_text(cairo_t *cr, double x, double y, double ax, double ay, double size, int bold, const char *text);
/** Same, rotated 90 degrees counter-clockwise (a y-axis label). */
void pic_text_vertical(cairo_t *cr, double x, double y, double size, const char *text);
/** Width of @p text at @p size. */
double pic_text_width(cairo_t *cr, double size, int bold, const char *text);
/** Colour of t in [0,1] on a perceptual (viridis-like) scale. */
void pic_colormap(double t, double *r, double *g, double *b);
/** Distinct colour for category @p i of @p n (hues spread around the wheel). */
void pic_category(size_t i, size_t n, double *r, double *g, double *b);
/** "Nice" tick step for a range of @p span with about @p target ticks. */
double pic_nice_step(double span, int target);

#endif
