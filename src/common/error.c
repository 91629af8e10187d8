/* Status names, port model names and the error helper shared by all modules. */
#include "common/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

totex_status totex_fail(totex_error *err, totex_status st, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    return st;
}

const char *totex_status_name(totex_status st)
{
    switch (st) {
    case TOTEX_OK: return "ok";
    case TOTEX_EINVAL: return "invalid input";
    case TOTEX_ENOMEM: return "out of memory";
    case TOTEX_EIO: return "input/output error";
    case TOTEX_EOVERFLOW: return "overflow";
    case TOTEX_ENOTAPPLICABLE: return "not applicable";
    case TOTEX_EVIOLATION: return "schedule violation";
    }
    return "unknown status";
}

const char *totex_ports_name(totex_ports ports)
{
    return ports == TOTEX_PORTS_SINGLE ? "single-port" : "multiport";
}

totex_status totex_ports_parse(const char *text, totex_ports *out, totex_error *err)
{
    if (text && (!strcmp(text, "single") || !strcmp(text, "single-port"))) {
        *out = TOTEX_PORTS_SINGLE;
        return TOTEX_OK;
    }
    if (text && (!strcmp(text, "multi") || !strcmp(text, "multiport") || !strcmp(text, "multi-port"))) {
        *out = TOTEX_PORTS_MULTI;
        return TOTEX_OK;
    }
    return totex_fail(err, TOTEX_EINVAL,
                      "unknown port model '%s': use --ports single (single-port) or --ports multi (multiport)",
                      text ? text : "(null)");
}
