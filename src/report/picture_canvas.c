/*
 * Drawing helpers of the pictures (totex/picture.h): the file format from the
 * extension, a cairo canvas writing PNG or SVG through our own FILE (so that
 * an unwritable path is a clear TOTEX_EIO), text, colour scales and ticks.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <cairo-svg.h>

#include "common/error.h"
#include "totex/output.h"
#include "report/picture_internal.h"

totex_status totex_picture_format_of(const char *path, totex_picture_format *out, totex_error *err)
{
    size_t len = path ? strlen(path) : 0;
    if (len > 4 && !strcasecmp(path + len - 4, ".png")) {
        *out = TOTEX_PICTURE_PNG;
        return TOTEX_OK;
    }
    if (len > 4 && !strcasecmp(path + len - 4, ".svg")) {
        *out = TOTEX_PICTURE_SVG;
        return TOTEX_OK;
    }
    return totex_fail(err, TOTEX_EINVAL, "picture file '%.300s' must end in .png or .svg (the format is chosen by the extension)",
                      path ? path : "");
}

static cairo_status_t write_fp(void *closure, const unsigned char *data, unsigned int length)
{
    FILE *fp = closure;
    return fwrite(data, 1, length, fp) == length ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR;
}

/* outputs closed by pic_end() and kept back until pic_publish_deferred() (pic_defer()) */
static _Thread_local int deferring;
static _Thread_local totex_output *deferred[4];
static _Thread_local int ndeferred;

void pic_defer(void)
{
    deferring = 1;
    ndeferred = 0;
}

totex_status pic_publish_deferred(int ok, totex_error *err)
{
    totex_status st = TOTEX_OK;
    for (int i = 0; i < ndeferred; i++) {
        if (ok && st == TOTEX_OK)
            st = totex_output_publish(deferred[i], err);
        else
            totex_output_abort(deferred[i]);
        deferred[i] = NULL;
    }
    ndeferred = 0;
    deferring = 0;
    return st;
}

totex_status pic_begin(pic_canvas *c, const char *path, int width, int height, totex_error *err)
{
    totex_status st;
    memset(c, 0, sizeof *c);
    if ((st = totex_picture_format_of(path, &c->format, err)) != TOTEX_OK)
        return st;
    if (width < 64 || height < 64 || width > 20000 || height > 20000)
        return totex_fail(err, TOTEX_EINVAL, "picture size %dx%d is out of range (64..20000 pixels each way)", width,
                          height);
    c->path = path;
    c->width = width;
    c->height = height;
    /* written beside the path and renamed when complete: a failed write leaves the path as it was */
    if (!(c->out = totex_output_open(path, err))) {
        memset(c, 0, sizeof *c);
        return TOTEX_EIO;
    }
    c->fp = totex_output_file(c->out);
    if (c->format == TOTEX_PICTURE_SVG)
        c->surface = cairo_svg_surface_create_for_stream(write_fp, c->fp, width, height);
    else
        c->surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height);
    if (cairo_surface_status(c->surface) != CAIRO_STATUS_SUCCESS) {
        st = totex_fail(err, TOTEX_ENOMEM, "cannot create a %dx%d picture: %s", width, height,
                        cairo_status_to_string(cairo_surface_status(c->surface)));
        cairo_surface_destroy(c->surface);
        totex_output_abort(c->out);
        memset(c, 0, sizeof *c);
        return st;
    }
    c->cr = cairo_create(c->surface);
    cairo_set_source_rgb(c->cr, 1, 1, 1);
    cairo_paint(c->cr);
    cairo_select_font_face(c->cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    return TOTEX_OK;
}

totex_status pic_end(pic_canvas *c, totex_error *err)
{
    cairo_status_t cs = cairo_status(c->cr);
    cairo_destroy(c->cr);
    if (cs == CAIRO_STATUS_SUCCESS && c->format == TOTEX_PICTURE_PNG)
        cs = cairo_surface_write_to_png_stream(c->surface, write_fp, c->fp);
    cairo_surface_finish(c->surface);
    if (cs == CAIRO_STATUS_SUCCESS)
        cs = cairo_surface_status(c->surface);
    cairo_surface_destroy(c->surface);
    totex_status st = TOTEX_OK;
    if (cs != CAIRO_STATUS_SUCCESS) {
        /* a write error: the stream's own reason (errno) when closing says it, else cairo's */
        if (cs != CAIRO_STATUS_WRITE_ERROR || totex_output_close(c->out, err) == TOTEX_OK)
            totex_fail(err, TOTEX_EIO, "cannot write output: %.300s: %s", c->path, cairo_status_to_string(cs));
        st = TOTEX_EIO;
        totex_output_abort(c->out);
    } else if ((st = totex_output_close(c->out, err)) != TOTEX_OK) {
        totex_output_abort(c->out);
    } else if (deferring && ndeferred < (int)(sizeof deferred / sizeof *deferred)) {
        deferred[ndeferred++] = c->out;
    } else {
        st = totex_output_publish(c->out, err);
    }
    memset(c, 0, sizeof *c);
    return st;
}

static void set_font(cairo_t *cr, double size, int bold)
{
    cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL,
                           bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, size);
}

double pic_text_width(cairo_t *cr, double size, int bold, const char *text)
{
    cairo_text_extents_t e;
    set_font(cr, size, bold);
    cairo_text_extents(cr, text, &e);
    return e.x_advance;
}

void pic_text(cairo_t *cr, double x, double y, double ax, double ay, double size, int bold, const char *text)
{
    cairo_text_extents_t e;
    cairo_font_extents_t f;
    set_font(cr, size, bold);
    cairo_text_extents(cr, text, &e);
    cairo_font_extents(cr, &f);
    /* ay: 0 top, 0.5 middle of the capitals, 1 baseline */
    double cap = f.ascent * 0.75;
    cairo_move_to(cr, x - ax * e.x_advance, y + (1.0 - ay) * cap);
    cairo_show_text(cr, text);
    cairo_new_path(cr);
}

void pic_text_vertical(cairo_t *cr, double x, double y, double size, const char *text)
{
    cairo_save(cr);
    cairo_translate(cr, x, y);
    cairo_rotate(cr, -M_PI / 2);
    pic_text(cr, 0, 0, 0.5, 0.5, size, 0, text);
    cairo_restore(cr);
}

void pic_colormap(double t, double *r, double *g, double *b)
{
    /* viridis, 9 anchors */
    static const double v[9][3] = {{0.267, 0.005, 0.329}, {0.283, 0.141, 0.458}, {0.254, 0.265, 0.530},
                                   {0.207, 0.372, 0.553}, {0.164, 0.471, 0.558}, {0.128, 0.567, 0.551},
                                   {0.135, 0.659, 0.518}, {0.478, 0.821, 0.318}, {0.993, 0.906, 0.144}};
    if (!(t >= 0))
        t = 0;
    if (t > 1)
        t = 1;
    double x = t * 8;
    int i = (int)x;
    if (i >= 8)
        i = 7;
    double f = x - i;
    *r = v[i][0] + f * (v[i + 1][0] - v[i][0]);
    *g = v[i][1] + f * (v[i + 1][1] - v[i][1]);
    *b = v[i][2] + f * (v[i + 1][2] - v[i][2]);
}

static void hsv(double h, double s, double v, double *r, double *g, double *b)
{
    h = fmod(h, 1.0) * 6;
    int i = (int)h;
    double f = h - i, p = v * (1 - s), q = v * (1 - s * f), t = v * (1 - s * (1 - f));
    switch (i % 6) {
    case 0: *r = v, *g = t, *b = p; break;
    case 1: *r = q, *g = v, *b = p; break;
    case 2: *r = p, *g = v, *b = t; break;
    case 3: *r = p, *g = q, *b = v; break;
    case 4: *r = t, *g = p, *b = v; break;
    default: *r = v, *g = p, *b = q; break;
    }
}

void pic_category(size_t i, size_t n, double *r, double *g, double *b)
{
    static const double tab[10][3] = {{0.122, 0.467, 0.706}, {1.000, 0.498, 0.055}, {0.173, 0.627, 0.173},
                                      {0.839, 0.153, 0.157}, {0.580, 0.404, 0.741}, {0.549, 0.337, 0.294},
                                      {0.890, 0.467, 0.761}, {0.498, 0.498, 0.498}, {0.737, 0.741, 0.133},
                                      {0.090, 0.745, 0.812}};
    if (n <= 10) {
        *r = tab[i % 10][0], *g = tab[i % 10][1], *b = tab[i % 10][2];
        return;
    }
    /* many categories: hues around the wheel, alternating lightness so neighbours differ */
    hsv((double)i / (double)n, i % 2 ? 0.55 : 0.85, i % 3 == 2 ? 0.70 : 0.92, r, g, b);
}

double pic_nice_step(double span, int target)
{
    if (!(span > 0))
        return 1;
    double raw = span / (target > 0 ? target : 5);
    double mag = pow(10, floor(log10(raw)));
    double f = raw / mag;
    double nice = f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10;
    return nice * mag;
}
