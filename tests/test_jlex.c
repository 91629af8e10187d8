/*
 * The one JSON lexer (src/common/jlex.h), on its own. Two independent checks:
 *   - tokens hand-derived from the JSON grammar (RFC 8259 Sections 2, 6, 7):
 *     kinds, byte spans, whole/fraction, the magnitude and its 2^63-1 limit,
 *     decoded escapes, the offset of malformed text, truncation;
 *   - the streaming mode against the in-memory mode: the same text scanned from
 *     a FILE* through windows of 1, 2, 3, 7 and 8192 bytes gives token for token
 *     the same kinds, spans, values and errors, so that a token cut by a window
 *     refill is read like one in memory.
 * And the pull lexer of the unit reader: its limits (file size, string length,
 * -1 as the only negative number) and its messages.
 */
#include <stdlib.h>
#include <string.h>

#include "common/jlex.h"
#include "support.h"

static jscan mem(const char *text)
{
    jscan sc;
    jscan_init_mem(&sc, text, strlen(text), 0);
    return sc;
}

static void test_tokens_by_hand(void **state)
{
    (void)state;
    char str[16];
    const char *text = " {\"k\\u0041\":[-1,0,1e20,2.5,9223372036854775807,9223372036854775808,true,null]}";
    jscan sc = mem(text);
    sc.str = str;
    sc.strcap = sizeof str;
    jtoken t = jscan_next(&sc);
    assert_int_equal(t.kind, J_LBRACE);
    assert_int_equal(t.at, 1);
    t = jscan_next(&sc);
    assert_int_equal(t.kind, J_STRING);
    assert_int_equal(t.at, 2);
    assert_int_equal(t.len, 9); /* "k\u0041" with its quotes */
    assert_string_equal(str, "kA");
    assert_int_equal(sc.slen, 2);
    assert_int_equal(jscan_next(&sc).kind, J_COLON);
    assert_int_equal(jscan_next(&sc).kind, J_LBRACKET);
    t = jscan_next(&sc);
    assert_int_equal(t.kind, J_NUMBER);
    assert_true(t.whole && t.neg && !t.over);
    assert_int_equal(t.mag, 1);
    assert_int_equal(t.len, 2);
    jscan_next(&sc);
    t = jscan_next(&sc);
    assert_true(t.whole && !t.neg && t.mag == 0);
    jscan_next(&sc);
    t = jscan_next(&sc); /* 1e20: a number as written, not whole */
    assert_int_equal(t.kind, J_NUMBER);
    assert_false(t.whole);
    assert_int_equal(t.len, 4);
    jscan_next(&sc);
    t = jscan_next(&sc);
    assert_false(t.whole);
    assert_int_equal(t.len, 3);
    jscan_next(&sc);
    t = jscan_next(&sc);
    assert_true(t.whole && !t.over);
    assert_true(t.mag == UINT64_C(9223372036854775807));
    jscan_next(&sc);
    t = jscan_next(&sc);
    assert_true(t.whole && t.over);
    assert_int_equal(t.len, 19);
    jscan_next(&sc);
    assert_int_equal(jscan_next(&sc).kind, J_TRUE);
    jscan_next(&sc);
    assert_int_equal(jscan_next(&sc).kind, J_NULL);
    assert_int_equal(jscan_next(&sc).kind, J_RBRACKET);
    assert_int_equal(jscan_next(&sc).kind, J_RBRACE);
    t = jscan_next(&sc);
    assert_int_equal(t.kind, J_EOF);
    assert_int_equal(t.at, strlen(text));

    /* malformed: the offset names the offending byte */
    struct { const char *text; size_t at; const char *why; int cut; } bad[] = {
        {"01", 1, "leading zero", 0},          {"-x", 1, "malformed number", 0},
        {"1.", 2, "", 1},                      {"1.e", 2, "malformed number", 0},
        {"1e+", 3, "", 1},                     {"\"a\tb\"", 2, "control character", 0},
        {"\"\\x\"", 2, "bad escape", 0},       {"\"\\u12g4\"", 2, "bad \\u escape", 0},
        {"\"\\u12", 0, "", 1},                 {"\"abc", 0, "", 1},
        {"tru", 0, "", 1},                     {"trux", 0, "unexpected word", 0},
        {"@", 0, "unexpected character", 0},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        sc = mem(bad[i].text);
        t = jscan_next(&sc);
        assert_int_equal(t.kind, J_ERROR);
        assert_int_equal(sc.cut, bad[i].cut);
        if (!bad[i].cut) {
            assert_int_equal(t.at, bad[i].at);
            assert_non_null(strstr(sc.why, bad[i].why));
        }
        sc = mem(bad[i].text);
        sc.cut_eof = 1;
        assert_int_equal(jscan_next(&sc).kind, bad[i].cut ? J_EOF : J_ERROR);
    }
}

/* every token of @p text, in memory and through a FILE window of @p win bytes, agree */
static void same_tokens(const char *text, size_t win)
{
    char s1[8], s2[8], *buf = malloc(win);
    FILE *fp = tmpfile();
    assert_non_null(buf);
    assert_non_null(fp);
    fputs(text, fp);
    rewind(fp);
    jscan a = mem(text), b;
    jscan_init_file(&b, fp, buf, win);
    a.str = s1, a.strcap = sizeof s1;
    b.str = s2, b.strcap = sizeof s2;
    for (int k = 0;; k++) {
        jtoken x = jscan_next(&a), y = jscan_next(&b);
        assert_int_equal(x.kind, y.kind);
        assert_int_equal(x.at, y.at);
        assert_int_equal(a.base + a.pos, b.base + b.pos);
        if (x.kind == J_ERROR) {
            assert_int_equal(a.cut, b.cut);
            assert_string_equal(a.why, b.why);
            break;
        }
        assert_int_equal(x.len, y.len);
        if (x.kind == J_NUMBER) {
            assert_int_equal(x.whole, y.whole);
            assert_int_equal(x.neg, y.neg);
            assert_int_equal(x.over, y.over);
            assert_true(x.mag == y.mag);
        }
        if (x.kind == J_STRING) {
            assert_int_equal(a.slen, b.slen);
            assert_string_equal(s1, s2);
        }
        if (x.kind == J_EOF)
            break;
    }
    fclose(fp);
    free(buf);
}

static void test_file_windows_match_memory(void **state)
{
    (void)state;
    const char *texts[] = {
        "{\"format\":\"totex-unit-schedule\",\"steps\":[[0,1],[12345,-1]],\"x\":[1.25e-3,true,false,null]}",
        "  [\"a\\\"b\\\\c\\/\\b\\f\\n\\r\\t\\u0041\\u00e9 long string cut to fit\", 9223372036854775808, -0.5E+7]",
        "[1,2,3,\"unterminated", "[01]", "[\"\\u12", "[\"a\\q\"]", "[nul", "[-]", "",
    };
    size_t wins[] = {1, 2, 3, 7, 8192};
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++)
        for (size_t w = 0; w < sizeof wins / sizeof wins[0]; w++)
            same_tokens(texts[i], wins[w]);
}

/* the pull lexer on @p text with the byte limit @p max: the status of reading every token */
static totex_status pull_all(const char *text, uint64_t max, totex_error *err)
{
    FILE *fp = tmpfile();
    assert_non_null(fp);
    fputs(text, fp);
    rewind(fp);
    jlex *lx = malloc(sizeof *lx);
    assert_non_null(lx);
    jlex_init(lx, fp, max, err);
    totex_status st;
    do
        st = jlex_next(lx);
    while (st == TOTEX_OK && lx->tok != J_EOF);
    free(lx);
    fclose(fp);
    return st;
}

static void test_pull_lexer_limits(void **state)
{
    (void)state;
    totex_error err;
    char *big = malloc(20000);
    assert_non_null(big);
    assert_int_equal(pull_all("[1, -1, \"x\"]", 0, &err), TOTEX_OK);
    assert_int_equal(pull_all("[1, -1, \"x\"]", 12, &err), TOTEX_OK); /* exactly the limit */
    assert_int_equal(pull_all("[1, -1, \"x\"] ", 12, &err), TOTEX_EIO);
    assert_non_null(strstr(err.msg, "longer than the limit of 12 bytes"));
    /* a file far past the limit stops at the limit (plus one window), whitespace or digits */
    memset(big, ' ', 19999);
    big[19999] = '\0';
    assert_int_equal(pull_all(big, 100, &err), TOTEX_EIO);
    assert_non_null(strstr(err.msg, "longer than the limit"));
    memset(big, '7', 19999);
    assert_int_equal(pull_all(big, 100, &err), TOTEX_EIO);
    assert_non_null(strstr(err.msg, "longer than the limit"));
    struct { const char *text; const char *msg; } bad[] = {
        {"[-2]", "only -1"}, {"[1e20]", "whole number"}, {"[9223372036854775808]", "2^63-1"},
        {"[\"abc", "truncated"}, {"[01]", "leading zero"}, {"{\"a\" \t\x01}", "unexpected character"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(pull_all(bad[i].text, 0, &err), TOTEX_EIO);
        assert_non_null(strstr(err.msg, bad[i].msg));
        assert_non_null(strstr(err.msg, "malformed JSON at byte"));
    }
    /* strings: 4096 bytes are read, 4097 are too long */
    big[0] = '"';
    memset(big + 1, 'a', 4096);
    strcpy(big + 4097, "\"");
    assert_int_equal(pull_all(big, 0, &err), TOTEX_OK);
    memset(big + 1, 'a', 4097);
    strcpy(big + 4098, "\"");
    assert_int_equal(pull_all(big, 0, &err), TOTEX_EIO);
    assert_non_null(strstr(err.msg, "longer than 4096 bytes"));
    free(big);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tokens_by_hand),
        cmocka_unit_test(test_file_windows_match_memory),
        cmocka_unit_test(test_pull_lexer_limits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
