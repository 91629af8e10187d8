/*
 * Schedule files by path (include/totex/schedule_io.h): which kind a file
 * is, and the unit-step and MSCCL readers opened through
 * totex_open_regular() (src/common/file.c), so that a FIFO, a device or a
 * directory is refused without reading and the size is bounded first.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/file.h"
#include "schedule/unit_read.h"

/* the path for a message: at most 200 bytes, control characters as '?' */
static void clean(char *buf, size_t cap, const char *path)
{
    snprintf(buf, cap, "%.200s", path ? path : "");
    for (char *p = buf; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            *p = '?';
}

static totex_status open_file(const char *path, uint64_t max, FILE **fp, uint64_t *size, totex_error *err)
{
    char name[256];
    clean(name, sizeof name, path);
    switch (totex_open_regular(path, max, fp, size)) {
    case TOTEX_OPEN_OK:
        return TOTEX_OK;
    case TOTEX_OPEN_ERRNO:
        return totex_fail(err, TOTEX_EIO, "cannot open schedule file '%s': %s", name, strerror(errno));
    case TOTEX_OPEN_NOT_REGULAR:
        return totex_fail(err, TOTEX_EIO, "schedule file '%s' is not a regular file", name);
    case TOTEX_OPEN_TOO_LARGE:
    default:
        return totex_fail(err, TOTEX_EIO, "schedule file '%s' is larger than %llu bytes: at most that is read", name,
                          (unsigned long long)max);
    }
}

totex_status totex_schedule_file_kind(const char *path, totex_schedule_kind *kind, totex_error *err)
{
    FILE *fp = NULL;
    char head[4097];
    totex_status st = open_file(path, UINT64_MAX, &fp, NULL, err);
    if (st != TOTEX_OK)
        return st;
    size_t got = fread(head, 1, sizeof head - 1, fp), k = 0;
    fclose(fp);
    head[got] = '\0';
    if (got >= 3 && (unsigned char)head[0] == 0xEF && (unsigned char)head[1] == 0xBB && (unsigned char)head[2] == 0xBF)
        k = 3;
    while (k < got && (head[k] == ' ' || head[k] == '\n' || head[k] == '\r' || head[k] == '\t'))
        k++;
    if (k < got && head[k] == '<')
        *kind = TOTEX_SCHEDULE_MSCCL;
    else if (strstr(head + k, TOTEX_UNIT_FORMAT))
        *kind = TOTEX_SCHEDULE_UNIT;
    else
        *kind = TOTEX_SCHEDULE_COMBINING;
    return TOTEX_OK;
}

totex_status totex_unit_read_file(const char *path, const totex_unit_limits *lim, const totex_ports *ports_override,
                                  const totex_unit_checker *check, totex_unit_verdict *out, totex_error *err)
{
    FILE *fp = NULL;
    totex_status st;
    if (out)
        memset(out, 0, sizeof *out);
    if ((st = open_file(path, lim && lim->max_bytes ? lim->max_bytes : UINT64_C(1) << 32, &fp, NULL, err)))
        return st;
    setvbuf(fp, NULL, _IOFBF, 1 << 20);
    st = totex_unit_read_stream(fp, lim, ports_override, check, out, err);
    fclose(fp);
    if (st != TOTEX_OK && st != TOTEX_EVIOLATION && err) { /* a malformed file: its name first, then what is wrong */
        char name[256], msg[sizeof err->msg];
        clean(name, sizeof name, path);
        snprintf(msg, sizeof msg, "%s", err->msg);
        totex_fail(err, st, "'%s': %.400s", name, msg);
    }
    return st;
}

totex_status totex_msccl_read_file(const char *path, totex_msccl_program *out, totex_error *err)
{
    FILE *fp = NULL;
    uint64_t size = 0;
    if (out)
        memset(out, 0, sizeof *out);
    totex_status st = open_file(path, TOTEX_MSCCL_FILE_MAX, &fp, &size, err);
    if (st != TOTEX_OK)
        return st;
    char *text = malloc((size_t)size + 1);
    if (!text) {
        fclose(fp);
        return totex_fail(err, TOTEX_ENOMEM, "out of memory reading the MSCCL file");
    }
    size_t len = fread(text, 1, (size_t)size + 1, fp);
    int bad = ferror(fp) || len > size;
    fclose(fp);
    if (bad) {
        free(text);
        return totex_fail(err, TOTEX_EIO, "cannot read the MSCCL file (read error or the file grew)");
    }
    st = totex_msccl_read(text, len, out, err);
    free(text);
    return st;
}
