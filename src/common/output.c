/*
 * Output files written beside their path and renamed on success
 * (include/totex/output.h).
 */
#define _GNU_SOURCE 1 /* fopencookie */
#include "totex/output.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/error.h"

struct totex_output {
    FILE *fp;
    int fd;       /* the descriptor under fp (not standard output) */
    int first_errno; /* the reason of the first failed write, 0 none */
    char *path;   /* as given */
    char *target; /* the file renamed over (a link's target), NULL when written directly */
    char *temp;   /* the temporary file, NULL when written directly */
    int is_stdout, closed;
};

static unsigned counter;

/* the stream's writes go through here (fopencookie), so that the first failure's errno is kept for the message */
static ssize_t cookie_write(void *c, const char *buf, size_t size)
{
    totex_output *o = c;
    size_t done = 0;
    while (done < size) {
        ssize_t w = write(o->fd, buf + done, size - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            if (!o->first_errno)
                o->first_errno = w < 0 ? errno : ENOSPC;
            return done ? (ssize_t)done : -1;
        }
        done += (size_t)w;
    }
    return (ssize_t)done;
}

static int cookie_close(void *c)
{
    totex_output *o = c;
    int r = close(o->fd);
    if (r != 0 && !o->first_errno)
        o->first_errno = errno;
    o->fd = -1;
    return r;
}

/* a stream over o->fd; 0 or -1 (errno set) */
static int make_stream(totex_output *o)
{
    cookie_io_functions_t io = {NULL, cookie_write, NULL, cookie_close};
    o->fp = fopencookie(o, "wb", io);
    if (!o->fp)
        return -1;
    setvbuf(o->fp, NULL, _IOFBF, 1 << 16);
    return 0;
}

/* the path for a message: at most 300 bytes, control characters as '?' */
static const char *shown(char *buf, size_t cap, const char *path)
{
    snprintf(buf, cap, "%.300s", path ? path : "");
    for (char *p = buf; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            *p = '?';
    return buf;
}

static totex_status fail_path(totex_error *err, const char *path, const char *why)
{
    char b[320];
    return totex_fail(err, TOTEX_EIO, "cannot write output: %s: %s", shown(b, sizeof b, path), why);
}

static void release(totex_output *o)
{
    if (!o)
        return;
    free(o->path);
    free(o->target);
    free(o->temp);
    free(o);
}

totex_output *totex_output_open(const char *path, totex_error *err)
{
    struct stat ls, ts;
    totex_output *o;
    if (!path || !*path) {
        totex_fail(err, TOTEX_EINVAL, "cannot write output: an empty file name");
        return NULL;
    }
    if (!(o = calloc(1, sizeof *o)) || !(o->path = strdup(path))) {
        release(o);
        totex_fail(err, TOTEX_ENOMEM, "out of memory");
        return NULL;
    }
    if (!strcmp(path, "-")) {
        o->fp = stdout;
        o->is_stdout = 1;
        return o;
    }
    const char *target = path;
    char *resolved = NULL;
    int exists = lstat(path, &ls) == 0;
    if (!exists && errno != ENOENT) {
        fail_path(err, path, strerror(errno));
        release(o);
        return NULL;
    }
    if (exists && S_ISLNK(ls.st_mode)) {
        resolved = realpath(path, NULL);
        if (!resolved) {
            char why[200];
            snprintf(why, sizeof why, "a symbolic link that does not resolve (%s): remove the link or give another path",
                     strerror(errno));
            fail_path(err, path, why);
            release(o);
            return NULL;
        }
        target = resolved;
        exists = stat(resolved, &ts) == 0;
        if (exists)
            ls = ts;
    }
    if (exists && S_ISDIR(ls.st_mode)) {
        fail_path(err, path, "is a directory");
        free(resolved);
        release(o);
        return NULL;
    }
    if (exists && !S_ISREG(ls.st_mode)) {
        /* a device, FIFO or socket: written directly, never replaced */
        int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
        o->fd = fd;
        if (fd < 0 || make_stream(o)) {
            int e = errno;
            if (fd >= 0)
                close(fd);
            fail_path(err, path, strerror(e));
            free(resolved);
            release(o);
            return NULL;
        }
        free(resolved);
        return o;
    }
    /* a temporary file beside the file that is replaced */
    char *dcopy = strdup(target), *bcopy = strdup(target);
    o->target = strdup(target);
    free(resolved);
    if (!dcopy || !bcopy || !o->target) {
        free(dcopy);
        free(bcopy);
        release(o);
        totex_fail(err, TOTEX_ENOMEM, "out of memory");
        return NULL;
    }
    const char *dir = dirname(dcopy), *base = basename(bcopy);
    size_t cap = strlen(dir) + strlen(base) + 64;
    if (!(o->temp = malloc(cap))) {
        free(dcopy);
        free(bcopy);
        release(o);
        totex_fail(err, TOTEX_ENOMEM, "out of memory");
        return NULL;
    }
    int fd = -1;
    for (int tries = 0; tries < 100 && fd < 0; tries++) {
        snprintf(o->temp, cap, "%s/.%s.totex-%ld-%u", dir, base, (long)getpid(), counter++);
        fd = open(o->temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOCTTY, 0666);
        if (fd < 0 && errno != EEXIST)
            break;
    }
    free(dcopy);
    free(bcopy);
    if (fd < 0) {
        fail_path(err, path, strerror(errno));
        free(o->temp);
        o->temp = NULL;
        release(o);
        return NULL;
    }
    if (exists)
        (void)fchmod(fd, ls.st_mode & 07777); /* the replaced file keeps its mode */
    o->fd = fd;
    if (make_stream(o)) {
        int e = errno;
        close(fd);
        unlink(o->temp);
        fail_path(err, path, strerror(e));
        release(o);
        return NULL;
    }
    return o;
}

FILE *totex_output_file(totex_output *o)
{
    return o ? o->fp : NULL;
}

const char *totex_output_path(const totex_output *o)
{
    return o ? o->path : NULL;
}

totex_status totex_output_close(totex_output *o, totex_error *err)
{
    if (!o)
        return totex_fail(err, TOTEX_EINVAL, "totex_output_close: NULL output");
    if (o->closed)
        return TOTEX_OK;
    o->closed = 1;
    errno = 0;
    int bad = fflush(o->fp) != 0;
    int e = errno;
    bad |= ferror(o->fp) != 0;
    if (o->is_stdout) {
        o->fp = NULL;
        if (bad)
            return fail_path(err, "standard output", e ? strerror(e) : "write error");
        return TOTEX_OK;
    }
    if (fclose(o->fp) != 0)
        bad = 1;
    o->fp = NULL;
    if (o->first_errno)
        e = o->first_errno;
    if (bad || o->first_errno)
        return fail_path(err, o->path, e ? strerror(e) : "write error");
    return TOTEX_OK;
}

totex_status totex_output_publish(totex_output *o, totex_error *err)
{
    totex_status st = TOTEX_OK;
    if (!o)
        return totex_fail(err, TOTEX_EINVAL, "totex_output_publish: NULL output");
    if (!o->closed && (st = totex_output_close(o, err)) != TOTEX_OK) {
        totex_output_abort(o);
        return st;
    }
    if (o->temp && rename(o->temp, o->target) != 0) {
        st = fail_path(err, o->path, strerror(errno));
        unlink(o->temp);
    }
    release(o);
    return st;
}

totex_status totex_output_commit(totex_output *o, totex_error *err)
{
    totex_status st = totex_output_close(o, err);
    if (st != TOTEX_OK) {
        totex_output_abort(o);
        return st;
    }
    return totex_output_publish(o, err);
}

void totex_output_abort(totex_output *o)
{
    if (!o)
        return;
    if (!o->closed && o->fp && !o->is_stdout)
        fclose(o->fp);
    else if (!o->closed && o->is_stdout)
        fflush(stdout);
    if (o->temp)
        unlink(o->temp);
    release(o);
}

/* the canonical name of a path that may not exist yet: its directory resolved, plus its last component */
static char *canonical(const char *p)
{
    char *r = realpath(p, NULL);
    if (r)
        return r;
    char *dcopy = strdup(p), *bcopy = strdup(p);
    char *out = NULL;
    if (dcopy && bcopy) {
        char *d = realpath(dirname(dcopy), NULL);
        if (d) {
            const char *b = basename(bcopy);
            size_t cap = strlen(d) + strlen(b) + 2;
            if ((out = malloc(cap)))
                snprintf(out, cap, "%s/%s", d, b);
            free(d);
        }
    }
    free(dcopy);
    free(bcopy);
    return out;
}

int totex_output_same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    if (!a || !b)
        return 0;
    if (!strcmp(a, "-") || !strcmp(b, "-"))
        return !strcmp(a, b);
    if (!strcmp(a, b))
        return 1;
    if (stat(a, &sa) == 0 && stat(b, &sb) == 0) {
        if (S_ISCHR(sa.st_mode) && S_ISCHR(sb.st_mode))
            return 0; /* /dev/null twice: nothing is overwritten */
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    }
    char *ca = canonical(a), *cb = canonical(b);
    int same = ca && cb && !strcmp(ca, cb);
    free(ca);
    free(cb);
    return same;
}
