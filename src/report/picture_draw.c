/*
 * The pictures of totex/picture.h, drawn with cairo: space-time diagram
 * (003 Figs. 2-3 style), link utilisation, link heat map, compare bars and the
 * combining sweep. Formats only what the simulator / recorder measured.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "report/picture_internal.h"

#define FONT 13.0
#define SMALL 11.0
#define TITLE 16.0

static int clampi(double v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : (int)v; }

/* font size <= @p size at which @p text fits in @p avail (never below 8) */
static double fit(cairo_t *cr, double size, int bold, double avail, const char *text)
{
    while (size > 8 && pic_text_width(cr, size, bold, text) > avail)
        size -= 0.5;
    return size;
}

static void title_lines(cairo_t *cr, int width, double x, const char *t1, const char *t2)
{
    double avail = width - x - 12;
    cairo_set_source_rgb(cr, 0, 0, 0);
    if (t1)
        pic_text(cr, x, 22, 0, 1, fit(cr, TITLE, 1, avail, t1), 1, t1);
    if (t2)
        pic_text(cr, x, 42, 0, 1, fit(cr, FONT, 0, avail, t2), 0, t2);
}

/* vertical marker line with a label at its top */
static void vline(cairo_t *cr, double x, double y0, double y1, double r, double g, double b, int dashed,
                  const char *label, double label_y, double ax)
{
    static const double dash[] = {6, 4};
    cairo_save(cr);
    cairo_set_source_rgb(cr, r, g, b);
    cairo_set_line_width(cr, 2.5);
    cairo_set_dash(cr, dash, dashed ? 2 : 0, 0);
    cairo_move_to(cr, x, y0);
    cairo_line_to(cr, x, y1);
    cairo_stroke(cr);
    cairo_restore(cr);
    if (label) {
        cairo_set_source_rgb(cr, r, g, b);
        pic_text(cr, x + (ax > 0.5 ? -4 : 4), label_y, ax, 1, SMALL, 1, label);
    }
}

static void step_axis(cairo_t *cr, double x0, double cw, uint64_t cols, double y, int centre)
{
    double step = pic_nice_step((double)cols, 12);
    if (step < 1)
        step = 1;
    char buf[32];
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_set_line_width(cr, 1);
    for (double s = step; s <= (double)cols + 1e-9; s += step) {
        double x = x0 + (centre ? (s - 0.5) * cw : s * cw);
        cairo_move_to(cr, x, y);
        cairo_line_to(cr, x, y + 4);
        cairo_stroke(cr);
        snprintf(buf, sizeof buf, "%.0f", s);
        pic_text(cr, x, y + 8, 0.5, 0, SMALL, 0, buf);
    }
}

static uint64_t completion(const totex_recorder *rec, const totex_picture_labels *lb)
{
    if (lb && lb->steps)
        return lb->steps;
    uint64_t last = 0;
    for (uint64_t s = 0; s < rec->steps; s++)
        if (rec->step_hops[s])
            last = s + 1;
    return last;
}

static void bound_label(char *buf, size_t len, const totex_picture_labels *lb)
{
    if (lb->bound_kind && lb->bound_kind[0])
        snprintf(buf, len, "lower bound (%s) = %llu", lb->bound_kind, (unsigned long long)lb->lower_bound);
    else
        snprintf(buf, len, "lower bound = %llu", (unsigned long long)lb->lower_bound);
}

/* 1-D network: direction of a hop, 1 right / clockwise (to = from + 1), 0 left */
static int is_one_d(const totex_network *net)
{
    if (totex_network_dims(net) != 1)
        return 0;
    totex_factor_kind k = totex_factor_get_kind(totex_network_factor(net, 0));
    return k == TOTEX_FACTOR_PATH || k == TOTEX_FACTOR_RING || k == TOTEX_FACTOR_K2;
}

totex_status totex_picture_spacetime(const char *path, const totex_network *net, const totex_recorder *rec,
                                     const totex_picture_labels *labels, int width, int height, totex_error *err)
{
    totex_picture_labels none = {0};
    const totex_picture_labels *lb = labels ? labels : &none;
    totex_picture_format fmt;
    totex_status st;
    if ((st = totex_picture_format_of(path, &fmt, err)) != TOTEX_OK)
        return st;
    if (!totex_recorder_detailed(rec))
        return totex_fail(err, TOTEX_EINVAL,
                          "the space-time diagram needs a detailed recording (at most %u nodes and %u steps); draw the utilisation curve instead",
                          TOTEX_RECORD_DETAIL_NODES, TOTEX_RECORD_DETAIL_STEPS);
    uint32_t n = rec->n;
    int oned = is_one_d(net);
    uint64_t rows = oned ? n : (rec->has_links ? rec->offset[n] : 0);
    uint64_t done = completion(rec, lb);
    uint64_t cols = rec->steps > lb->lower_bound ? rec->steps : lb->lower_bound;
    if (cols < done)
        cols = done;
    if (!cols)
        cols = 1;
    char rowlabel[64];
    const double left = oned ? 80 : 100, top = 78, right = 250, bottom = 62;
    double cw = clampi(1000.0 / (double)cols, 4, 48);
    double rh = oned ? clampi(640.0 / (double)rows, 12, 48) : clampi(760.0 / (double)(rows ? rows : 1), 5, 22);
    if (!width)
        width = clampi(left + right + cw * (double)cols, 900, 20000);
    if (!height)
        height = clampi(top + bottom + rh * (double)rows, 420, 20000);
    cw = (width - left - right) / (double)cols;
    rh = (height - top - bottom) / (double)(rows ? rows : 1);
    if (cw <= 0 || rh <= 0)
        return totex_fail(err, TOTEX_EINVAL, "picture %dx%d is too small for %llu steps x %llu rows", width, height,
                          (unsigned long long)cols, (unsigned long long)rows);
    pic_canvas c;
    if ((st = pic_begin(&c, path, width, height, err)) != TOTEX_OK)
        return st;
    cairo_t *cr = c.cr;
    char t2[300];
    snprintf(t2, sizeof t2, "space-time diagram (003 Figs. 2-3): %s, one column per step; a cell is the message a link carries, coloured by its destination",
             oned ? "one row per node" : "one row per directed link");
    title_lines(cr, width, left, lb->title ? lb->title : totex_network_spec(net), t2);
    double pw = cw * (double)cols, ph = rh * (double)rows;
    /* background grid */
    cairo_set_source_rgb(cr, 0.96, 0.96, 0.96);
    cairo_rectangle(cr, left, top, pw, ph);
    cairo_fill(cr);
    int label_cells = cw >= 14 && (oned ? rh / 2 : rh) >= 11;
    for (uint64_t s = 0; s < rec->steps; s++) {
        for (uint64_t i = rec->step_start[s]; i < rec->step_start[s + 1]; i++) {
            const totex_rec_hop *h = &rec->hops[i];
            double x = left + cw * (double)s, y, hh;
            if (oned) {
                int right_dir = h->to == (h->from + 1) % n || (n == 2 && h->to > h->from);
                y = top + rh * h->from + (right_dir ? 0 : rh / 2);
                hh = rh / 2;
            } else {
                int64_t l = totex_recorder_link_index(rec, h->from, h->to);
                if (l < 0)
                    continue;
                y = top + rh * (double)l;
                hh = rh;
            }
            double r, g, b;
            pic_category(h->dst, n, &r, &g, &b);
            cairo_set_source_rgb(cr, r, g, b);
            cairo_rectangle(cr, x + 0.5, y + 0.5, cw - 1, hh - 1);
            cairo_fill(cr);
            if (label_cells) {
                char d[16];
                snprintf(d, sizeof d, "%u", h->dst);
                cairo_set_source_rgb(cr, (r + g + b) > 1.9 ? 0 : 1, (r + g + b) > 1.9 ? 0 : 1, (r + g + b) > 1.9 ? 0 : 1);
                pic_text(cr, x + cw / 2, y + hh / 2, 0.5, 0.5, hh >= 16 ? SMALL : 9, 0, d);
            }
        }
    }
    /* row separators and labels */
    cairo_set_line_width(cr, 1);
    double lsize = rh >= 12 ? SMALL : rh >= 8 ? 8 : 0;
    for (uint64_t r = 0; r < rows; r++) {
        double y = top + rh * (double)r;
        cairo_set_source_rgb(cr, 0.75, 0.75, 0.75);
        cairo_move_to(cr, left, y);
        cairo_line_to(cr, left + pw, y);
        cairo_stroke(cr);
        if (oned) {
            cairo_set_source_rgb(cr, 0.88, 0.88, 0.88);
            cairo_move_to(cr, left, y + rh / 2);
            cairo_line_to(cr, left + pw, y + rh / 2);
            cairo_stroke(cr);
            snprintf(rowlabel, sizeof rowlabel, "%llu", (unsigned long long)r);
            cairo_set_source_rgb(cr, 0, 0, 0);
            pic_text(cr, left - 28, y + rh / 2, 1, 0.5, FONT, 0, rowlabel);
            if (rh >= 24) {
                pic_text(cr, left - 6, y + rh / 4, 1, 0.5, 9, 0, "\xe2\x86\x92");
                pic_text(cr, left - 6, y + 3 * rh / 4, 1, 0.5, 9, 0, "\xe2\x86\x90");
            }
        } else if (lsize > 0) {
            uint32_t from = 0;
            while (from + 1 < n && rec->offset[from + 1] <= r)
                from++;
            snprintf(rowlabel, sizeof rowlabel, "%u\xe2\x86\x92%u", from, rec->nbr[r]);
            cairo_set_source_rgb(cr, 0, 0, 0);
            pic_text(cr, left - 6, y + rh / 2, 1, 0.5, lsize, 0, rowlabel);
        }
    }
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_rectangle(cr, left, top, pw, ph);
    cairo_stroke(cr);
    step_axis(cr, left, cw, cols, top + ph, 1);
    pic_text(cr, left + pw / 2, top + ph + 40, 0.5, 0, FONT, 0, "step (unit time; column k = step k)");
    pic_text_vertical(cr, 18, top + ph / 2, FONT, oned ? "node" : "directed link (from \xe2\x86\x92 to)");
    /* markers */
    char buf[160];
    vline(cr, left + cw * (double)done, top - 14, top + ph, 0.85, 0.1, 0.1, 0, NULL, 0, 0);
    if (lb->lower_bound)
        vline(cr, left + cw * (double)lb->lower_bound, top - 14, top + ph, 0.1, 0.3, 0.9, 1, NULL, 0, 0);
    snprintf(buf, sizeof buf, "completion = %llu steps", (unsigned long long)done);
    /* legend */
    double lx = left + pw + 24, ly = top;
    cairo_set_source_rgb(cr, 0.85, 0.1, 0.1);
    cairo_rectangle(cr, lx, ly - 6, 18, 3);
    cairo_fill(cr);
    cairo_set_source_rgb(cr, 0, 0, 0);
    pic_text(cr, lx + 24, ly - 4, 0, 0.5, SMALL, 0, buf);
    ly += 20;
    if (lb->lower_bound) {
        bound_label(buf, sizeof buf, lb);
        cairo_set_source_rgb(cr, 0.1, 0.3, 0.9);
        cairo_rectangle(cr, lx, ly - 6, 7, 3);
        cairo_rectangle(cr, lx + 11, ly - 6, 7, 3);
        cairo_fill(cr);
        cairo_set_source_rgb(cr, 0, 0, 0);
        pic_text(cr, lx + 24, ly - 4, 0, 0.5, SMALL, 0, buf);
        ly += 20;
    }
    if (oned) {
        ly += 6;
        pic_text(cr, lx, ly, 0, 0.5, SMALL, 1, "each node's row:");
        ly += 16;
        pic_text(cr, lx, ly, 0, 0.5, SMALL - 1, 0, "\xe2\x86\x92 upper half: sent to node+1");
        ly += 14;
        pic_text(cr, lx, ly, 0, 0.5, SMALL - 1, 0, "\xe2\x86\x90 lower half: sent to node-1");
        ly += 14;
        if (totex_factor_get_kind(totex_network_factor(net, 0)) == TOTEX_FACTOR_RING)
            pic_text(cr, lx, ly, 0, 0.5, SMALL - 1, 0, "(mod n: clockwise / anticlockwise)");
        ly += 14;
    }
    ly += 8;
    pic_text(cr, lx, ly, 0, 0.5, SMALL, 1, "destination node (cell colour)");
    ly += 16;
    int ncol = n <= 16 ? 2 : n <= 40 ? 4 : 5;
    double sw = (right - 30) / ncol, sh = 16;
    for (uint32_t d = 0; d < n; d++) {
        double x = lx + sw * (d % ncol), y = ly + sh * (d / ncol);
        double r, g, b;
        pic_category(d, n, &r, &g, &b);
        cairo_set_source_rgb(cr, r, g, b);
        cairo_rectangle(cr, x, y - 6, 12, 12);
        cairo_fill(cr);
        cairo_set_source_rgb(cr, 0, 0, 0);
        snprintf(buf, sizeof buf, "%u", d);
        pic_text(cr, x + 15, y, 0, 0.5, SMALL - 1, 0, buf);
    }
    ly += sh * ((n + ncol - 1) / ncol) + 10;
    cairo_set_source_rgb(cr, 0.96, 0.96, 0.96);
    cairo_rectangle(cr, lx, ly - 6, 12, 12);
    cairo_fill(cr);
    cairo_set_source_rgb(cr, 0, 0, 0);
    pic_text(cr, lx + 17, ly, 0, 0.5, SMALL - 1, 0, "idle");
    return pic_end(&c, err);
}

totex_status totex_picture_utilisation(const char *path, const totex_network *net, const totex_recorder *rec,
                                       const totex_picture_labels *labels, int width, int height, totex_error *err)
{
    totex_picture_labels none = {0};
    const totex_picture_labels *lb = labels ? labels : &none;
    totex_status st;
    totex_picture_format fmt;
    if ((st = totex_picture_format_of(path, &fmt, err)) != TOTEX_OK)
        return st;
    if (!width)
        width = 1000;
    if (!height)
        height = 520;
    const double left = 80, top = 70, right = 40, bottom = 100;
    double pw = width - left - right, ph = height - top - bottom;
    if (pw < 20 || ph < 20)
        return totex_fail(err, TOTEX_EINVAL, "picture %dx%d is too small for the utilisation curve", width, height);
    double dl = (double)(2 * totex_network_links(net));
    uint64_t done = completion(rec, lb);
    uint64_t cols = rec->steps > lb->lower_bound ? rec->steps : lb->lower_bound;
    if (cols < done)
        cols = done;
    if (!cols)
        cols = 1;
    pic_canvas c;
    if ((st = pic_begin(&c, path, width, height, err)) != TOTEX_OK)
        return st;
    cairo_t *cr = c.cr;
    char buf[200];
    snprintf(buf, sizeof buf, "link utilisation per step: busy directed links / all %.0f directed links, %%; mean %.1f %%",
             dl, done && dl > 0 ? 100.0 * (double)rec->total_hops / ((double)done * dl) : 0.0);
    title_lines(cr, width, left, lb->title ? lb->title : totex_network_spec(net), buf);
    cairo_set_line_width(cr, 1);
    for (int p = 0; p <= 100; p += 20) {
        double y = top + ph * (1 - p / 100.0);
        cairo_set_source_rgb(cr, 0.88, 0.88, 0.88);
        cairo_move_to(cr, left, y);
        cairo_line_to(cr, left + pw, y);
        cairo_stroke(cr);
        cairo_set_source_rgb(cr, 0, 0, 0);
        snprintf(buf, sizeof buf, "%d", p);
        pic_text(cr, left - 6, y, 1, 0.5, SMALL, 0, buf);
    }
    /* curve: one point per step, or the mean of each pixel's steps when there are more steps than pixels */
    double cw = pw / (double)cols;
    uint64_t bins = cols <= (uint64_t)pw ? cols : (uint64_t)pw;
    cairo_set_source_rgba(cr, 0.12, 0.47, 0.71, 0.25);
    cairo_move_to(cr, left, top + ph);
    for (int pass = 0; pass < 2; pass++) {
        if (pass) {
            cairo_set_source_rgb(cr, 0.12, 0.47, 0.71);
            cairo_set_line_width(cr, 2);
        }
        for (uint64_t i = 0; i < bins; i++) {
            uint64_t s0 = i * cols / bins, s1 = (i + 1) * cols / bins;
            double sum = 0;
            for (uint64_t s = s0; s < s1; s++)
                sum += s < rec->steps ? (double)rec->step_hops[s] : 0;
            double u = s1 > s0 && dl > 0 ? sum / ((double)(s1 - s0) * dl) : 0;
            double x0 = left + cw * (double)s0, x1 = left + cw * (double)s1, y = top + ph * (1 - u);
            if (pass && i == 0)
                cairo_move_to(cr, x0, y);
            else
                cairo_line_to(cr, x0, y);
            cairo_line_to(cr, x1, y);
        }
        if (!pass) {
            cairo_line_to(cr, left + pw, top + ph);
            cairo_close_path(cr);
            cairo_fill(cr);
        } else {
            cairo_stroke(cr);
        }
    }
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_set_line_width(cr, 1);
    cairo_rectangle(cr, left, top, pw, ph);
    cairo_stroke(cr);
    step_axis(cr, left, cw, cols, top + ph, 0);
    pic_text(cr, left + pw / 2, top + ph + 32, 0.5, 0, FONT, 0, "step (unit time)");
    pic_text_vertical(cr, 22, top + ph / 2, FONT, "busy directed links (%)");
    double ly = top + ph + 62;
    snprintf(buf, sizeof buf, "completion = %llu steps", (unsigned long long)done);
    vline(cr, left + cw * (double)done, top, top + ph, 0.85, 0.1, 0.1, 0, NULL, 0, 0);
    cairo_set_source_rgb(cr, 0.85, 0.1, 0.1);
    cairo_rectangle(cr, left, ly - 2, 18, 3);
    cairo_fill(cr);
    cairo_set_source_rgb(cr, 0, 0, 0);
    pic_text(cr, left + 24, ly, 0, 0.5, SMALL, 0, buf);
    if (lb->lower_bound) {
        bound_label(buf, sizeof buf, lb);
        vline(cr, left + cw * (double)lb->lower_bound, top, top + ph, 0.1, 0.3, 0.9, 1, NULL, 0, 0);
        double lx = left + pw / 2;
        cairo_set_source_rgb(cr, 0.1, 0.3, 0.9);
        cairo_rectangle(cr, lx, ly - 2, 7, 3);
        cairo_rectangle(cr, lx + 11, ly - 2, 7, 3);
        cairo_fill(cr);
        cairo_set_source_rgb(cr, 0, 0, 0);
        pic_text(cr, lx + 24, ly, 0, 0.5, SMALL, 0, buf);
    }
    return pic_end(&c, err);
}

/* the heat map of per-directed-link totals counts[] (links numbered as offset/nbr: node v's out-links in
   neighbour order), @p what in the title ("messages", "bytes"), @p legend beside the colour bar */
static totex_status draw_link_heatmap(const char *path, const totex_network *net, const uint64_t *offset,
                                      const uint32_t *nbr, const uint64_t *counts, const char *what, const char *legend,
                                      const totex_picture_labels *labels, int width, int height, totex_error *err)
{
    totex_status st;
    totex_picture_format fmt;
    uint32_t n = totex_network_nodes(net);
    if ((st = totex_picture_format_of(path, &fmt, err)) != TOTEX_OK)
        return st;
    if (totex_network_dims(net) != 2)
        return totex_fail(err, TOTEX_EINVAL, "the link heat map is drawn for 2-D networks only; %s has %u dimensions",
                          totex_network_spec(net), totex_network_dims(net));
    uint32_t m0 = totex_factor_nodes(totex_network_factor(net, 0)), m1 = totex_factor_nodes(totex_network_factor(net, 1));
    const double left = 60, top = 80, right = 150, bottom = 60;
    if (!width)
        width = clampi(left + right + 90.0 * m0, 760, 2400);
    if (!height)
        height = clampi(top + bottom + 90.0 * m1, 420, 2400);
    double pw = width - left - right, ph = height - top - bottom;
    if (pw < 20 || ph < 20)
        return totex_fail(err, TOTEX_EINVAL, "picture %dx%d is too small for the heat map", width, height);
    double gx = pw / m0, gy = ph / m1;
    uint64_t maxc = 0;
    for (uint64_t l = 0; l < offset[n]; l++)
        if (counts[l] > maxc)
            maxc = counts[l];
    pic_canvas c;
    if ((st = pic_begin(&c, path, width, height, err)) != TOTEX_OK)
        return st;
    cairo_t *cr = c.cr;
    char buf[200];
    snprintf(buf, sizeof buf, "link heat map: %s each directed link carried over the whole schedule (max %llu); arrows = direction",
             what, (unsigned long long)maxc);
    title_lines(cr, width, left, labels && labels->title ? labels->title : totex_network_spec(net), buf);
    double lw = fmin(gx, gy) * 0.16;
    if (lw > 10)
        lw = 10;
    if (lw < 1.5)
        lw = 1.5;
    for (uint32_t v = 0; v < n; v++) {
        uint32_t x0 = totex_network_coord(net, v, 0), y0 = totex_network_coord(net, v, 1);
        double cx = left + gx * (x0 + 0.5), cy = top + gy * (y0 + 0.5);
        for (uint64_t l = offset[v]; l < offset[v + 1]; l++) {
            uint32_t w = nbr[l];
            int dx = (int)totex_network_coord(net, w, 0) - (int)x0, dy = (int)totex_network_coord(net, w, 1) - (int)y0;
            int wrap = 0;
            if (dx > 1 || dx < -1) {
                dx = dx > 0 ? -1 : 1; /* wrap-around: stub pointing out of the border */
                wrap = 1;
            }
            if (dy > 1 || dy < -1) {
                dy = dy > 0 ? -1 : 1;
                wrap = 1;
            }
            if ((dx != 0) == (dy != 0))
                continue;
            double ux = dx, uy = dy, len = (dx ? gx : gy) * (wrap ? 0.42 : 1.0);
            double ox = -uy * lw * 0.7, oy = ux * lw * 0.7; /* the two directions side by side */
            double sx = cx + ux * 0.18 * (dx ? gx : gy) + ox, sy = cy + uy * 0.18 * (dx ? gx : gy) + oy;
            double ex = cx + ux * (len - 0.18 * (dx ? gx : gy) * (wrap ? 0 : 1)) + ox,
                   ey = cy + uy * (len - 0.18 * (dx ? gx : gy) * (wrap ? 0 : 1)) + oy;
            double r, g, b;
            pic_colormap(maxc ? (double)counts[l] / (double)maxc : 0, &r, &g, &b);
            cairo_set_source_rgb(cr, r, g, b);
            cairo_set_line_width(cr, lw);
            cairo_move_to(cr, sx, sy);
            cairo_line_to(cr, ex - ux * lw, ey - uy * lw);
            cairo_stroke(cr);
            cairo_move_to(cr, ex, ey); /* arrow head */
            cairo_line_to(cr, ex - ux * lw * 1.8 + ox * 0.9, ey - uy * lw * 1.8 + oy * 0.9);
            cairo_line_to(cr, ex - ux * lw * 1.8 - ox * 0.9, ey - uy * lw * 1.8 - oy * 0.9);
            cairo_close_path(cr);
            cairo_fill(cr);
        }
    }
    for (uint32_t v = 0; v < n; v++) {
        double cx = left + gx * (totex_network_coord(net, v, 0) + 0.5), cy = top + gy * (totex_network_coord(net, v, 1) + 0.5);
        double rad = fmin(gx, gy) * 0.16;
        cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
        cairo_arc(cr, cx, cy, rad, 0, 2 * M_PI);
        cairo_fill(cr);
        if (rad >= 8) {
            snprintf(buf, sizeof buf, "%u", v);
            cairo_set_source_rgb(cr, 1, 1, 1);
            pic_text(cr, cx, cy, 0.5, 0.5, rad >= 12 ? SMALL : 8, 0, buf);
        }
    }
    cairo_set_source_rgb(cr, 0, 0, 0);
    pic_text(cr, left + pw / 2, top + ph + 30, 0.5, 0, FONT, 0, "coordinate 0 (node id = x + y * width)");
    pic_text_vertical(cr, 22, top + ph / 2, FONT, "coordinate 1");
    /* colour bar */
    double bx = left + pw + 40, by = top + 10, bh = ph - 20;
    for (int i = 0; i < 100; i++) {
        double r, g, b;
        pic_colormap(1 - i / 99.0, &r, &g, &b);
        cairo_set_source_rgb(cr, r, g, b);
        cairo_rectangle(cr, bx, by + bh * i / 100.0, 18, bh / 100.0 + 1);
        cairo_fill(cr);
    }
    cairo_set_source_rgb(cr, 0, 0, 0);
    snprintf(buf, sizeof buf, "%llu", (unsigned long long)maxc);
    pic_text(cr, bx + 24, by, 0, 0.5, SMALL, 0, buf);
    snprintf(buf, sizeof buf, "%llu", (unsigned long long)(maxc / 2));
    pic_text(cr, bx + 24, by + bh / 2, 0, 0.5, SMALL, 0, buf);
    pic_text(cr, bx + 24, by + bh, 0, 0.5, SMALL, 0, "0");
    pic_text_vertical(cr, bx + 80, by + bh / 2, SMALL, legend);
    return pic_end(&c, err);
}

totex_status totex_picture_heatmap(const char *path, const totex_network *net, const totex_recorder *rec,
                                   const totex_picture_labels *labels, int width, int height, totex_error *err)
{
    if (!totex_recorder_has_link_counts(rec))
        return totex_fail(err, TOTEX_EINVAL, "the recording has no per-link counts (more than 2^26 directed links)");
    return draw_link_heatmap(path, net, rec->offset, rec->nbr, rec->link_count, "messages", "messages carried (link total)",
                             labels, width, height, err);
}

totex_status totex_picture_link_bytes(const char *path, const totex_network *net, const totex_wlinks *links,
                                      const uint64_t *bytes, const totex_picture_labels *labels, int width, int height,
                                      totex_error *err)
{
    if (!links || !bytes || links->n != totex_network_nodes(net))
        return totex_fail(err, TOTEX_EINVAL, "the bytes per link do not match the network");
    return draw_link_heatmap(path, net, links->off, links->nbr, bytes, "bytes", "bytes carried (link total)", labels,
                             width, height, err);
}

totex_status totex_picture_compare(const char *path, const totex_network *net, const char *name,
                                   const totex_compare_row *rows, size_t count, int width, int height,
                                   totex_error *err)
{
    totex_status st;
    totex_picture_format fmt;
    if ((st = totex_picture_format_of(path, &fmt, err)) != TOTEX_OK)
        return st;
    if (!width)
        width = clampi(160 + 46.0 * (double)count, 720, 4000);
    if (!height)
        height = 560;
    const double left = 80, top = 76, right = 30, bottom = 130;
    double pw = width - left - right, ph = height - top - bottom;
    if (pw < 20 || ph < 20 || !count)
        return totex_fail(err, TOTEX_EINVAL, "nothing to draw: %zu rows in a %dx%d picture", count, width, height);
    uint64_t maxv = 1;
    size_t groups = 0;
    for (size_t i = 0; i < count; i++) {
        if (i == 0 || rows[i].ports != rows[i - 1].ports)
            groups++;
        if (rows[i].status == TOTEX_OK) {
            const totex_plan_result *r = &rows[i].result;
            if (r->sim.steps > maxv)
                maxv = r->sim.steps;
            if (r->bound_count && r->bounds[r->best_bound].value > maxv)
                maxv = r->bounds[r->best_bound].value;
        }
    }
    double ystep = pic_nice_step((double)maxv, 6), ymax = ceil((double)maxv * 1.08 / ystep) * ystep;
    double slot = pw / (double)(count + groups + 1);
    pic_canvas c;
    if ((st = pic_begin(&c, path, width, height, err)) != TOTEX_OK)
        return st;
    cairo_t *cr = c.cr;
    char buf[200], t1[200];
    const char *spec = totex_network_spec(net);
    if (name && strcmp(name, spec))
        snprintf(t1, sizeof t1, "%.80s = %.80s, %u nodes", name, spec, totex_network_nodes(net));
    else
        snprintf(t1, sizeof t1, "%.150s, %u nodes", spec, totex_network_nodes(net));
    title_lines(cr, width, left, t1, "steps per algorithm (verified by the simulator), grouped by port model; dashed: best lower bound");
    cairo_set_line_width(cr, 1);
    for (double v = 0; v <= ymax + 1e-9; v += ystep) {
        double y = top + ph * (1 - v / ymax);
        cairo_set_source_rgb(cr, 0.88, 0.88, 0.88);
        cairo_move_to(cr, left, y);
        cairo_line_to(cr, left + pw, y);
        cairo_stroke(cr);
        cairo_set_source_rgb(cr, 0, 0, 0);
        snprintf(buf, sizeof buf, "%.0f", v);
        pic_text(cr, left - 6, y, 1, 0.5, SMALL, 0, buf);
    }
    pic_text_vertical(cr, 20, top + ph / 2, FONT, "completion time (steps)");
    double x = left + slot * 0.5;
    size_t gstart = 0;
    for (size_t i = 0; i <= count; i++) {
        if (i == count || (i > 0 && rows[i].ports != rows[i - 1].ports)) {
            /* close group gstart..i-1: bound line and port label */
            const totex_compare_row *g = &rows[gstart];
            uint64_t lbv = 0;
            for (size_t j = gstart; j < i; j++)
                if (rows[j].status == TOTEX_OK && rows[j].result.bound_count)
                    lbv = rows[j].result.bounds[rows[j].result.best_bound].value;
            double gx0 = x - slot * (double)(i - gstart), gx1 = x;
            if (lbv) {
                static const double dash[] = {6, 4};
                double y = top + ph * (1 - (double)lbv / ymax);
                cairo_save(cr);
                cairo_set_source_rgb(cr, 0.1, 0.3, 0.9);
                cairo_set_line_width(cr, 2);
                cairo_set_dash(cr, dash, 2, 0);
                cairo_move_to(cr, gx0 - slot * 0.2, y);
                cairo_line_to(cr, gx1 + slot * 0.2 - slot, y);
                cairo_stroke(cr);
                cairo_restore(cr);
            }
            char pb[32];
            totex_ports_format(g->ports, pb, sizeof pb);
            cairo_set_source_rgb(cr, 0, 0, 0);
            pic_text(cr, (gx0 + gx1 - slot) / 2, top + ph + 62, 0.5, 0, FONT, 1, pb);
            if (lbv) {
                snprintf(buf, sizeof buf, "lower bound %llu", (unsigned long long)lbv);
                cairo_set_source_rgb(cr, 0.1, 0.3, 0.9);
                pic_text(cr, (gx0 + gx1 - slot) / 2, top + ph + 80, 0.5, 0, SMALL, 1, buf);
            }
            cairo_set_source_rgb(cr, 0.6, 0.6, 0.6);
            cairo_move_to(cr, gx0 - slot * 0.25, top + ph + 58);
            cairo_line_to(cr, gx1 - slot * 0.75, top + ph + 58);
            cairo_stroke(cr);
            gstart = i;
            x += slot;
        }
        if (i == count)
            break;
        const totex_compare_row *r = &rows[i];
        double rr, gg, bb;
        pic_category(i - gstart, totex_algorithm_count(), &rr, &gg, &bb);
        if (r->status == TOTEX_OK) {
            uint64_t lbv = r->result.bound_count ? r->result.bounds[r->result.best_bound].value : 0;
            double h = ph * (double)r->result.sim.steps / ymax;
            cairo_set_source_rgb(cr, rr, gg, bb);
            cairo_rectangle(cr, x, top + ph - h, slot * 0.8, h);
            cairo_fill(cr);
            snprintf(buf, sizeof buf, "%llu%s", (unsigned long long)r->result.sim.steps,
                     lbv && r->result.sim.steps == lbv ? "*" : "");
            cairo_set_source_rgb(cr, 0, 0, 0);
            pic_text(cr, x + slot * 0.4, top + ph - h - 4, 0.5, 1, SMALL - 1, 0, buf);
        } else {
            cairo_set_source_rgb(cr, 0.5, 0.5, 0.5);
            pic_text(cr, x + slot * 0.4, top + ph - 6, 0.5, 1, SMALL - 2, 0, "n/a");
        }
        cairo_set_source_rgb(cr, 0, 0, 0);
        cairo_save(cr);
        cairo_translate(cr, x + slot * 0.4, top + ph + 6);
        cairo_rotate(cr, -M_PI / 4);
        pic_text(cr, 0, 0, 1, 0.5, SMALL - 1, 0, r->algorithm->name);
        cairo_restore(cr);
        x += slot;
    }
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_move_to(cr, left, top + ph);
    cairo_line_to(cr, left + pw, top + ph);
    cairo_stroke(cr);
    pic_text(cr, left, height - 14, 0, 1, SMALL - 1, 0,
             "* = meets the lower bound (optimal); n/a = the algorithm does not apply to this network / port model");
    return pic_end(&c, err);
}

totex_status totex_picture_sweep_named(const char *path, const totex_network *net, const char *const *names,
                                       size_t na, const double *times, const size_t *winners, int width, int height,
                                       totex_error *err)
{
    totex_status st;
    totex_picture_format fmt;
    if ((st = totex_picture_format_of(path, &fmt, err)) != TOTEX_OK)
        return st;
    double tmin = INFINITY, tmax = -INFINITY;
    for (size_t i = 0; i < TOTEX_COMB_SWEEP_SIZES * na; i++)
        if (!isnan(times[i]) && times[i] > 0) {
            tmin = fmin(tmin, times[i]);
            tmax = fmax(tmax, times[i]);
        }
    if (!(tmin <= tmax))
        return totex_fail(err, TOTEX_EINVAL, "no combining algorithm applies to %s: nothing to draw", totex_network_spec(net));
    if (!width)
        width = 1000;
    if (!height)
        height = 600;
    const double left = 90, top = 76, right = 170, bottom = 70;
    double pw = width - left - right, ph = height - top - bottom;
    if (pw < 20 || ph < 20)
        return totex_fail(err, TOTEX_EINVAL, "picture %dx%d is too small for the sweep", width, height);
    double ly0 = floor(log10(tmin)), ly1 = ceil(log10(tmax));
    if (ly1 <= ly0)
        ly1 = ly0 + 1;
    double lx0 = log2(TOTEX_COMB_SWEEP_BLOCK(0)), lx1 = log2(TOTEX_COMB_SWEEP_BLOCK(TOTEX_COMB_SWEEP_SIZES - 1));
#define SX(m) (left + pw * (log2(m) - lx0) / (lx1 - lx0))
#define SY(t) (top + ph * (1 - (log10(t) - ly0) / (ly1 - ly0)))
    pic_canvas c;
    if ((st = pic_begin(&c, path, width, height, err)) != TOTEX_OK)
        return st;
    cairo_t *cr = c.cr;
    char buf[200];
    snprintf(buf, sizeof buf, "%.150s, %u nodes: message-combining model (002)", totex_network_spec(net),
             totex_network_nodes(net));
    title_lines(cr, width, left, buf, "predicted time vs block size m (log-log); dashed: crossovers (the fastest algorithm changes)");
    cairo_set_line_width(cr, 1);
    for (double e = ly0; e <= ly1 + 1e-9; e++) {
        double y = SY(pow(10, e));
        cairo_set_source_rgb(cr, 0.88, 0.88, 0.88);
        cairo_move_to(cr, left, y);
        cairo_line_to(cr, left + pw, y);
        cairo_stroke(cr);
        cairo_set_source_rgb(cr, 0, 0, 0);
        snprintf(buf, sizeof buf, "1e%+.0f", e);
        pic_text(cr, left - 6, y, 1, 0.5, SMALL, 0, buf);
    }
    static const char *const sizes[] = {"8 B", "32 B", "128 B", "512 B", "2 KiB", "8 KiB", "32 KiB", "128 KiB", "512 KiB"};
    for (size_t i = 0; i < TOTEX_COMB_SWEEP_SIZES; i += 2) {
        double x = SX(TOTEX_COMB_SWEEP_BLOCK(i));
        cairo_set_source_rgb(cr, 0.88, 0.88, 0.88);
        cairo_move_to(cr, x, top);
        cairo_line_to(cr, x, top + ph);
        cairo_stroke(cr);
        cairo_set_source_rgb(cr, 0, 0, 0);
        pic_text(cr, x, top + ph + 8, 0.5, 0, SMALL, 0, sizes[i / 2]);
    }
    pic_text(cr, left + pw / 2, top + ph + 36, 0.5, 0, FONT, 0, "block size m (bytes per message, log scale)");
    pic_text_vertical(cr, 20, top + ph / 2, FONT, "predicted time (seconds, log scale)");
    /* crossovers */
    for (size_t i = 1; i < TOTEX_COMB_SWEEP_SIZES; i++) {
        if (winners[i] == winners[i - 1] || winners[i] == SIZE_MAX)
            continue;
        static const double dash[] = {5, 4};
        double x = SX(sqrt(TOTEX_COMB_SWEEP_BLOCK(i) * TOTEX_COMB_SWEEP_BLOCK(i - 1)));
        cairo_save(cr);
        cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
        cairo_set_line_width(cr, 1.5);
        cairo_set_dash(cr, dash, 2, 0);
        cairo_move_to(cr, x, top);
        cairo_line_to(cr, x, top + ph);
        cairo_stroke(cr);
        cairo_restore(cr);
        snprintf(buf, sizeof buf, "\xe2\x86\x92 %s", names[winners[i]]);
        cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
        pic_text(cr, x + 3, top + 14, 0, 0.5, SMALL, 1, buf);
    }
    for (size_t a = 0; a < na; a++) {
        double r, g, b;
        pic_category(a, na, &r, &g, &b);
        cairo_set_source_rgb(cr, r, g, b);
        cairo_set_line_width(cr, 2.2);
        int pen = 0;
        for (size_t i = 0; i < TOTEX_COMB_SWEEP_SIZES; i++) {
            double t = times[i * na + a];
            if (isnan(t) || t <= 0) {
                pen = 0;
                continue;
            }
            if (pen)
                cairo_line_to(cr, SX(TOTEX_COMB_SWEEP_BLOCK(i)), SY(t));
            else
                cairo_move_to(cr, SX(TOTEX_COMB_SWEEP_BLOCK(i)), SY(t));
            pen = 1;
        }
        cairo_stroke(cr);
        for (size_t i = 0; i < TOTEX_COMB_SWEEP_SIZES; i++) {
            double t = times[i * na + a];
            if (isnan(t) || t <= 0)
                continue;
            cairo_arc(cr, SX(TOTEX_COMB_SWEEP_BLOCK(i)), SY(t), winners[i] == a ? 4.5 : 2.5, 0, 2 * M_PI);
            cairo_fill(cr);
        }
        double y = top + 10 + 20.0 * (double)a;
        cairo_rectangle(cr, left + pw + 20, y - 2, 22, 4);
        cairo_fill(cr);
        int any = 0;
        for (size_t i = 0; i < TOTEX_COMB_SWEEP_SIZES; i++)
            any |= !isnan(times[i * na + a]);
        cairo_set_source_rgb(cr, 0, 0, 0);
        snprintf(buf, sizeof buf, "%s%s", names[a], any ? "" : " (n/a)");
        pic_text(cr, left + pw + 48, y, 0, 0.5, SMALL, 0, buf);
    }
    pic_text(cr, left + pw + 20, top + 20 + 20.0 * (double)na, 0, 0.5, SMALL - 1, 0, "big dot = fastest");
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_set_line_width(cr, 1);
    cairo_rectangle(cr, left, top, pw, ph);
    cairo_stroke(cr);
#undef SX
#undef SY
    return pic_end(&c, err);
}

totex_status totex_picture_plan(const char *path, const totex_plan_result *r, uint64_t max_messages,
                                char *heatmap_path, size_t heatmap_len, totex_error *err)
{
    totex_picture_format fmt;
    totex_status st;
    totex_recorder *rec = NULL;
    if (heatmap_path && heatmap_len)
        heatmap_path[0] = 0;
    if ((st = totex_picture_format_of(path, &fmt, err)) != TOTEX_OK)
        return st;
    if (!r->algorithm)
        return totex_fail(err, TOTEX_EINVAL, "no verified plan to draw");
    if ((st = totex_picture_record(r->net, r->ports, r->algorithm, max_messages, &rec, NULL, err)) != TOTEX_OK) {
        if (err) {
            totex_error why = *err;
            totex_fail(err, st, "no picture '%.200s': the schedule is replayed to draw it, and %.280s", path, why.msg);
        }
        return st;
    }
    char title[300], pb[32];
    totex_ports_format(r->ports, pb, sizeof pb);
    const char *spec = totex_network_spec(r->net);
    if (r->name && strcmp(r->name, spec))
        snprintf(title, sizeof title, "%.80s = %.80s (%u nodes), %s, algorithm %s", r->name, spec,
                 totex_network_nodes(r->net), pb, r->algorithm->name);
    else
        snprintf(title, sizeof title, "%.150s (%u nodes), %s, algorithm %s", spec, totex_network_nodes(r->net), pb,
                 r->algorithm->name);
    totex_picture_labels lb = {title, r->bound_count ? r->bounds[r->best_bound].value : 0,
                               r->bound_count ? totex_bound_kind_name(r->bounds[r->best_bound].kind) : NULL, r->sim.steps};
    /* the picture and its heat map together: both renamed into place, or neither: a failure leaves no half-written pair */
    pic_defer();
    if (totex_recorder_detailed(rec))
        st = totex_picture_spacetime(path, r->net, rec, &lb, 0, 0, err);
    else
        st = totex_picture_utilisation(path, r->net, rec, &lb, 0, 0, err);
    if (st == TOTEX_OK && totex_network_dims(r->net) == 2 && totex_recorder_has_link_counts(rec)) {
        size_t len = strlen(path);
        char *hp = malloc(len + 16);
        if (!hp) {
            st = totex_fail(err, TOTEX_ENOMEM, "out of memory");
        } else {
            snprintf(hp, len + 16, "%.*s-heatmap%s", (int)(len - 4), path, path + len - 4);
            st = totex_picture_heatmap(hp, r->net, rec, &lb, 0, 0, err);
            if (st == TOTEX_OK && heatmap_path && heatmap_len)
                snprintf(heatmap_path, heatmap_len, "%s", hp);
            free(hp);
        }
    }
    totex_status pst = pic_publish_deferred(st == TOTEX_OK, err);
    if (st == TOTEX_OK)
        st = pst;
    totex_recorder_free(rec);
    return st;
}
