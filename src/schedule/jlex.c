/* A pull lexer for JSON read from a FILE* (src/schedule/jlex.h). */
#include "jlex.h"

#include <string.h>

#include "common/error.h"

void jlex_init(jlex *lx, FILE *fp, uint64_t max_bytes, totex_error *err)
{
    memset(lx, 0, sizeof *lx);
    lx->fp = fp;
    lx->max_bytes = max_bytes;
    lx->peeked = -2;
    lx->err = err;
}

const char *jlex_name(jtok t)
{
    static const char *names[] = {"the end of the file", "'{'", "'}'", "'['", "']'", "':'", "','",
                                  "a string", "a whole number", "true", "false", "null"};
    return (unsigned)t < sizeof names / sizeof *names ? names[t] : "?";
}

static int getch(jlex *lx)
{
    int c;
    if (lx->peeked != -2) {
        c = lx->peeked;
        lx->peeked = -2;
    } else {
        c = getc(lx->fp);
    }
    if (c != EOF)
        lx->offset++;
    return c;
}

static void ungetch(jlex *lx, int c)
{
    if (c != EOF) {
        lx->peeked = c;
        lx->offset--;
    }
}

static totex_status bad(jlex *lx, const char *what)
{
    return totex_fail(lx->err, TOTEX_EIO, "malformed JSON at byte %llu: %s", (unsigned long long)lx->offset, what);
}

static totex_status word(jlex *lx, const char *rest, jtok t)
{
    for (const char *p = rest; *p; p++)
        if (getch(lx) != *p)
            return bad(lx, "expected true, false or null");
    lx->tok = t;
    return TOTEX_OK;
}

static int hexval(int c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

static totex_status string(jlex *lx)
{
    lx->len = 0;
    for (;;) {
        int c = getch(lx);
        if (c == EOF)
            return bad(lx, "the file ends inside a string (truncated?)");
        if (c == '"')
            break;
        if (c < 0x20)
            return bad(lx, "control character inside a string");
        if (c == '\\') {
            c = getch(lx);
            switch (c) {
            case '"': case '\\': case '/': break;
            case 'b': c = '\b'; break;
            case 'f': c = '\f'; break;
            case 'n': c = '\n'; break;
            case 'r': c = '\r'; break;
            case 't': c = '\t'; break;
            case 'u': {
                int v = 0;
                for (int i = 0; i < 4; i++) {
                    int h = hexval(getch(lx));
                    if (h < 0)
                        return bad(lx, "\\u needs four hex digits");
                    v = v * 16 + h;
                }
                c = v < 0x80 && v > 0 ? v : '?'; /* keys and values we read are ASCII */
                break;
            }
            default:
                return bad(lx, "unknown escape in a string");
            }
        }
        if (lx->len >= JLEX_STR_MAX)
            return bad(lx, "string longer than 4096 bytes");
        lx->str[lx->len++] = (char)c;
    }
    lx->str[lx->len] = '\0';
    lx->tok = J_STRING;
    return TOTEX_OK;
}

static totex_status number(jlex *lx, int c)
{
    int neg = 0;
    unsigned long long v = 0;
    int digits = 0;
    if (c == '-') {
        neg = 1;
        c = getch(lx);
    }
    while (c >= '0' && c <= '9') {
        if (digits == 1 && v == 0)
            return bad(lx, "leading zero in a number");
        if (v > (UINT64_C(9223372036854775807) - (unsigned)(c - '0')) / 10)
            return bad(lx, "number above 2^63-1");
        v = v * 10 + (unsigned)(c - '0');
        digits++;
        c = getch(lx);
    }
    if (!digits)
        return bad(lx, "expected a number");
    if (c == '.' || c == 'e' || c == 'E')
        return bad(lx, "expected a whole number (no fraction or exponent)");
    ungetch(lx, c);
    if (neg && v != 1)
        return bad(lx, "negative number (only -1 is allowed)");
    lx->num = neg ? -1 : (long long)v;
    lx->tok = J_INT;
    return TOTEX_OK;
}

totex_status jlex_next(jlex *lx)
{
    int c;
    do {
        c = getch(lx);
    } while (c == ' ' || c == '\n' || c == '\r' || c == '\t');
    if (lx->max_bytes && lx->offset > lx->max_bytes)
        return totex_fail(lx->err, TOTEX_EIO, "file longer than the limit of %llu bytes",
                          (unsigned long long)lx->max_bytes);
    switch (c) {
    case EOF: lx->tok = J_EOF; return ferror(lx->fp) ? bad(lx, "read error") : TOTEX_OK;
    case '{': lx->tok = J_LBRACE; return TOTEX_OK;
    case '}': lx->tok = J_RBRACE; return TOTEX_OK;
    case '[': lx->tok = J_LBRACKET; return TOTEX_OK;
    case ']': lx->tok = J_RBRACKET; return TOTEX_OK;
    case ':': lx->tok = J_COLON; return TOTEX_OK;
    case ',': lx->tok = J_COMMA; return TOTEX_OK;
    case '"': return string(lx);
    case 't': return word(lx, "rue", J_TRUE);
    case 'f': return word(lx, "alse", J_FALSE);
    case 'n': return word(lx, "ull", J_NULL);
    default:
        if (c == '-' || (c >= '0' && c <= '9'))
            return number(lx, c);
        return bad(lx, "unexpected character");
    }
}

totex_status jlex_expect(jlex *lx, jtok want, const char *what)
{
    totex_status st = jlex_next(lx);
    if (st != TOTEX_OK)
        return st;
    if (lx->tok != want)
        return totex_fail(lx->err, TOTEX_EIO, "malformed schedule at byte %llu: expected %s for %s, found %s%s",
                          (unsigned long long)lx->offset, jlex_name(want), what, jlex_name(lx->tok),
                          lx->tok == J_EOF ? " (truncated file?)" : "");
    return TOTEX_OK;
}

totex_status jlex_skip_value(jlex *lx)
{
    int depth = 0;
    totex_status st;
    for (;;) {
        switch (lx->tok) {
        case J_LBRACE:
        case J_LBRACKET:
            if (++depth > JLEX_MAX_DEPTH)
                return bad(lx, "nesting deeper than 32 levels");
            break;
        case J_RBRACE:
        case J_RBRACKET:
            if (depth == 0)
                return bad(lx, "unbalanced bracket");
            depth--;
            break;
        case J_EOF:
            return bad(lx, "the file ends inside a value (truncated?)");
        default:
            break;
        }
        if (depth == 0)
            return TOTEX_OK;
        if ((st = jlex_next(lx)) != TOTEX_OK)
            return st;
    }
}

totex_status jlex_end(jlex *lx)
{
    totex_status st = jlex_next(lx);
    if (st != TOTEX_OK)
        return st;
    if (lx->tok != J_EOF)
        return bad(lx, "text after the end of the schedule object");
    return TOTEX_OK;
}
