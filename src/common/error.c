/* Status names, port model names and the error helper shared by all modules. */
#include "common/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <ctype.h>
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
    return ports == TOTEX_PORTS_SINGLE ? "single-port" : ports == TOTEX_PORTS_MULTI ? "multiport" : "k-port";
}

char *totex_ports_format_words(totex_ports ports, totex_ports_words words, char *buf, size_t len)
{
    const int comb = words == TOTEX_PORTS_WORDS_COMBINING;
    if (ports == TOTEX_PORTS_SINGLE)
        snprintf(buf, len, "%s", comb ? "one-port" : "single-port");
    else if (ports == TOTEX_PORTS_MULTI)
        snprintf(buf, len, "%s", comb ? "all-port" : "multiport");
    else
        snprintf(buf, len, "%u-port", (unsigned)ports);
    return buf;
}

char *totex_ports_format(totex_ports ports, char *buf, size_t len)
{
    return totex_ports_format_words(ports, TOTEX_PORTS_WORDS_UNIT, buf, len);
}

totex_status totex_ports_parse(const char *text, totex_ports *out, totex_error *err)
{
    static const char forms[] = "use --ports single (single-port), --ports multi (multiport) or --ports k:N (k-port, 1 <= N <= 4096)";
    if (!text)
        return totex_fail(err, TOTEX_EINVAL, "no port model given: %s", forms);
    if (!strcmp(text, "single") || !strcmp(text, "single-port") || !strcmp(text, "one") || !strcmp(text, "one-port")) {
        *out = TOTEX_PORTS_SINGLE;
        return TOTEX_OK;
    }
    if (!strcmp(text, "multi") || !strcmp(text, "multiport") || !strcmp(text, "multi-port") || !strcmp(text, "all") ||
        !strcmp(text, "all-port")) {
        *out = TOTEX_PORTS_MULTI;
        return TOTEX_OK;
    }
    const char *digits = NULL;
    size_t len = strlen(text);
    if (!strncmp(text, "k:", 2))
        digits = text + 2, len -= 2;
    else if (len > 5 && !strcmp(text + len - 5, "-port"))
        digits = text, len -= 5;
    if (digits && len > 0 && len <= 4) {
        uint32_t k = 0;
        size_t i = 0;
        for (; i < len && isdigit((unsigned char)digits[i]); i++)
            k = k * 10 + (uint32_t)(digits[i] - '0');
        if (i == len && k >= 1 && k <= TOTEX_PORTS_MAX_K) {
            *out = k;
            return TOTEX_OK;
        }
    }
    return totex_fail(err, TOTEX_EINVAL, "unknown port model '%.60s': %s", text, forms);
}
