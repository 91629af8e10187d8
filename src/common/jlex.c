/* The JSON lexer of totex (src/common/jlex.h): a tokenizer on a window that is
 * either the whole text in memory or a buffer refilled from a FILE*, and the
 * pull lexer of the unit-step schedule reader on top of it. */
#include "jlex.h"

#include <string.h>

#include "common/error.h"

/* ---- the cursor --------------------------------------------------------------- */

void jscan_init_mem(jscan *sc, const char *text, size_t len, size_t pos)
{
    memset(sc, 0, sizeof *sc);
    sc->buf = text;
    sc->n = len;
    sc->pos = pos;
}

void jscan_init_file(jscan *sc, FILE *fp, char *win, size_t wincap)
{
    memset(sc, 0, sizeof *sc);
    sc->fp = fp;
    sc->win = win;
    sc->wincap = wincap;
    sc->buf = win;
}

/* the window is used up: refill it from the file; the next byte, or -1 at the end */
static int jscan_refill(jscan *sc)
{
    if (!sc->fp || sc->ioerr)
        return -1;
    sc->base += sc->n;
    sc->pos = 0;
    sc->n = 0;
    if (sc->limit && sc->base > sc->limit)
        return -1;
    sc->n = fread(sc->win, 1, sc->wincap, sc->fp);
    if (sc->n == 0) {
        if (ferror(sc->fp))
            sc->ioerr = 1;
        return -1;
    }
    return (unsigned char)sc->buf[0];
}

/* the scanner keeps the cursor in locals (s, n, p: the window and the position in
   it) and writes it back only to refill, so that the in-memory hot path is as fast
   as a scan of a plain array; PEEK() is the next byte or -1 at the end */
/* the scanner keeps the cursor in locals (s, n, p: the window and the position
   in it) and writes it back only to refill, so that the in-memory import scans
   a plain array; JSCAN_PEEK() is the next byte or -1 at the end */
#define JSCAN_PEEK() \
    (p < n ? (int)(unsigned char)s[p] : (sc->pos = p, r = jscan_refill(sc), s = sc->buf, n = sc->n, p = sc->pos, r))
#define JSCAN_HERE() ((size_t)(sc->base + p))

static inline int jscan_hexval(int c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

static inline int jscan_is_digit(int c) { return c >= '0' && c <= '9'; }

jtoken jscan_next(jscan *sc)
{
    jtoken t = {J_EOF, 0, 0, 0, 0, 0, 0};
    int c, r;
    size_t bad_at;
    const char *s = sc->buf;
    size_t n = sc->n, p = sc->pos;
    char *str = sc->str;
    size_t slen = 0, strcap = sc->strcap;
    while ((c = JSCAN_PEEK()) == ' ' || c == '\t' || c == '\n' || c == '\r')
        p++;
    t.at = JSCAN_HERE();
    sc->cut = 0;
    if (c < 0) {
        if (sc->ioerr) {
            sc->why = "a read error";
            bad_at = t.at;
            goto bad;
        }
        sc->pos = p;
        return t;
    }
    switch (c) {
    case '{': t.kind = J_LBRACE; p++; break;
    case '}': t.kind = J_RBRACE; p++; break;
    case '[': t.kind = J_LBRACKET; p++; break;
    case ']': t.kind = J_RBRACKET; p++; break;
    case ':': t.kind = J_COLON; p++; break;
    case ',': t.kind = J_COMMA; p++; break;
    case '"':
        p++;
        for (;;) {
            bad_at = JSCAN_HERE();
            if ((c = JSCAN_PEEK()) < 0)
                goto cut;
            if (c == '"')
                break;
            if (c < 0x20) {
                sc->why = "a control character inside a string";
                goto bad;
            }
            p++;
            if (c == '\\') {
                bad_at = JSCAN_HERE();
                if ((c = JSCAN_PEEK()) < 0)
                    goto cut;
                switch (c) {
                case '"': case '\\': case '/': break;
                case 'b': c = '\b'; break;
                case 'f': c = '\f'; break;
                case 'n': c = '\n'; break;
                case 'r': c = '\r'; break;
                case 't': c = '\t'; break;
                case 'u': {
                    int v = 0;
                    p++;
                    for (int i = 0; i < 4; i++, p++) {
                        int d = JSCAN_PEEK();
                        if (d < 0)
                            goto cut;
                        if (jscan_hexval(d) < 0) {
                            sc->why = "a bad \\u escape";
                            goto bad;
                        }
                        v = v * 16 + jscan_hexval(d);
                    }
                    p--; /* the last hex digit is consumed below */
                    c = v < 0x80 && v > 0 ? v : '?'; /* decoded strings are ASCII (the unit reader's keys and values) */
                    break;
                }
                default:
                    sc->why = "a bad escape in a string";
                    goto bad;
                }
                p++;
            }
            if (str && slen + 1 < strcap)
                str[slen] = (char)c;
            slen++;
        }
        p++;
        if (str)
            str[slen < strcap ? slen : strcap - 1] = '\0';
        sc->slen = slen;
        t.kind = J_STRING;
        break;
    case 't':
    case 'f':
    case 'n': {
        const char *word = c == 't' ? "true" : c == 'f' ? "false" : "null";
        bad_at = t.at;
        for (const char *w = word; *w; w++, p++) {
            int d = JSCAN_PEEK();
            if (d < 0)
                goto cut;
            if (d != *w) {
                sc->why = "an unexpected word (expected true, false or null)";
                goto bad;
            }
        }
        t.kind = c == 't' ? J_TRUE : c == 'f' ? J_FALSE : J_NULL;
        break;
    }
    default:
        bad_at = t.at;
        if (c != '-' && !jscan_is_digit(c)) {
            sc->why = "an unexpected character";
            goto bad;
        }
        t.whole = 1;
        uint64_t mag = 0;
        int over = 0;
        t.neg = c == '-';
        if (t.neg) {
            p++;
            bad_at = JSCAN_HERE();
            if ((c = JSCAN_PEEK()) < 0)
                goto cut;
        }
        if (c == '0') {
            p++;
            if (jscan_is_digit(JSCAN_PEEK())) {
                bad_at = JSCAN_HERE();
                sc->why = "a malformed number (leading zero)";
                goto bad;
            }
        } else if (jscan_is_digit(c)) {
            for (; jscan_is_digit(c); p++, c = JSCAN_PEEK()) {
                unsigned d = (unsigned)(c - '0');
                /* 2^63-1 = 922337203685477580 * 10 + 7 */
                if (mag < UINT64_C(922337203685477580) || (mag == UINT64_C(922337203685477580) && d <= 7))
                    mag = mag * 10 + d;
                else
                    over = 1;
            }
        } else {
            sc->why = "a malformed number";
            goto bad;
        }
        if ((c = JSCAN_PEEK()) == '.') {
            t.whole = 0;
            p++;
            bad_at = JSCAN_HERE();
            if ((c = JSCAN_PEEK()) < 0)
                goto cut;
            if (!jscan_is_digit(c)) {
                sc->why = "a malformed number";
                goto bad;
            }
            while (jscan_is_digit(JSCAN_PEEK()))
                p++;
            c = JSCAN_PEEK();
        }
        if (c == 'e' || c == 'E') {
            t.whole = 0;
            p++;
            if ((c = JSCAN_PEEK()) == '+' || c == '-') {
                p++;
                c = JSCAN_PEEK();
            }
            bad_at = JSCAN_HERE();
            if (c < 0)
                goto cut;
            if (!jscan_is_digit(c)) {
                sc->why = "a malformed number";
                goto bad;
            }
            while (jscan_is_digit(JSCAN_PEEK()))
                p++;
        }
        t.mag = mag;
        t.over = over;
        t.kind = J_NUMBER;
        break;
    }
    t.len = JSCAN_HERE() - t.at;
    sc->pos = p;
    return t;
cut:
    sc->pos = p;
    t.kind = sc->cut_eof ? J_EOF : J_ERROR;
    sc->cut = 1;
    sc->why = "the text ends inside a token (truncated?)";
    return t;
bad:
    sc->pos = p;
    t.kind = J_ERROR;
    t.at = bad_at;
    return t;
}

/* ---- the pull lexer ----------------------------------------------------------- */

void jlex_init(jlex *lx, FILE *fp, uint64_t max_bytes, totex_error *err)
{
    memset(lx, 0, sizeof *lx);
    jscan_init_file(&lx->sc, fp, lx->win, sizeof lx->win);
    lx->sc.str = lx->str;
    lx->sc.strcap = sizeof lx->str;
    lx->sc.limit = max_bytes;
    lx->max_bytes = max_bytes;
    lx->err = err;
}

const char *jlex_name(jkind t)
{
    static const char *names[] = {"the end of the file", "'{'", "'}'", "'['", "']'", "':'", "','",
                                  "a string", "a whole number", "true", "false", "null", "malformed text"};
    return (unsigned)t < sizeof names / sizeof *names ? names[t] : "?";
}

static totex_status bad(jlex *lx, uint64_t at, const char *what)
{
    return totex_fail(lx->err, TOTEX_EIO, "malformed JSON at byte %llu: %s", (unsigned long long)at, what);
}

totex_status jlex_next(jlex *lx)
{
    jtoken t = jscan_next(&lx->sc);
    lx->offset = lx->sc.base + lx->sc.pos;
    if (lx->max_bytes && lx->sc.base + lx->sc.n > lx->max_bytes)
        return totex_fail(lx->err, TOTEX_EIO, "file longer than the limit of %llu bytes",
                          (unsigned long long)lx->max_bytes);
    lx->tok = t.kind;
    switch (t.kind) {
    case J_ERROR:
        if (lx->sc.cut)
            return bad(lx, lx->offset, "the file ends inside a token (truncated?)");
        return bad(lx, t.at, lx->sc.why);
    case J_STRING:
        if (lx->sc.slen > JLEX_STR_MAX)
            return bad(lx, t.at, "string longer than 4096 bytes");
        lx->len = lx->sc.slen;
        return TOTEX_OK;
    case J_NUMBER:
        if (!t.whole)
            return bad(lx, t.at, "expected a whole number (no fraction or exponent)");
        if (t.over)
            return bad(lx, t.at, "number above 2^63-1");
        if (t.neg && t.mag != 1)
            return bad(lx, t.at, "negative number (only -1 is allowed)");
        lx->num = t.neg ? -1 : (long long)t.mag;
        return TOTEX_OK;
    default:
        return TOTEX_OK;
    }
}

totex_status jlex_expect(jlex *lx, jkind want, const char *what)
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
                return bad(lx, lx->offset, "nesting deeper than 32 levels");
            break;
        case J_RBRACE:
        case J_RBRACKET:
            if (depth == 0)
                return bad(lx, lx->offset, "unbalanced bracket");
            depth--;
            break;
        case J_EOF:
            return bad(lx, lx->offset, "the file ends inside a value (truncated?)");
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
        return bad(lx, lx->offset, "text after the end of the schedule object");
    return TOTEX_OK;
}
