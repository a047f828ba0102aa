/* The INI reader's hardening (docs/reliability.md):
 *   - NUL bytes are rejected with file:line (a NUL inside a line, a file of
 *     only NULs, /dev/zero, which must not hang);
 *   - a directory is rejected, a stream that never ends is cut at the
 *     size bound;
 *   - the fuzz contract of tests/fuzz/fuzz_config.h (rejections name the
 *     file, accepted configurations validate without a crash and
 *     round-trip through gm_config_to_ini) holds for the seed corpus
 *     tests/fuzz/config-corpus/, every configs/ file and every crash input
 *     kept in tests/fuzz/config-regress/. */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "../fuzz/fuzz_config.h"
#include "config/config.h"

typedef struct scratch {
    char path[256];
} scratch;

static void scratch_make(scratch *s)
{
    const char *dir = getenv("TMPDIR");
    snprintf(s->path, sizeof s->path, "%s/gm_test_config_fuzz_XXXXXX",
             dir && *dir ? dir : "/tmp");
    int fd = mkstemp(s->path);
    assert_true(fd >= 0);
    close(fd);
}

static void write_bytes(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
}

/* Loads `n` bytes as a configuration file; returns the error (or "" when
 * accepted) in err. */
static int load_bytes(const scratch *s, const void *data, size_t n, gm_error *err)
{
    gm_config c;
    write_bytes(s->path, data, n);
    memset(err, 0, sizeof *err);
    gm_config_defaults(&c);
    return gm_config_load_file(&c, s->path, err);
}

static void assert_msg(const gm_error *err, const char *want)
{
    if (!strstr(err->msg, want))
        fail_msg("error \"%s\" does not contain \"%s\"", err->msg, want);
}

static void test_nul_rejected_with_line(void **state)
{
    (void)state;
    scratch s;
    gm_error err;
    char want[300];
    scratch_make(&s);

    static const char in_line[] = "[core]\nnum_cores = 8\0 ; rest\n";
    assert_int_equal(load_bytes(&s, in_line, sizeof in_line - 1, &err), -1);
    snprintf(want, sizeof want, "%s:2: NUL byte in column 14", s.path);
    assert_msg(&err, want);

    /* Before the fix a file of NULs loaded as an empty file. */
    static const char only_nul[8] = {0};
    assert_int_equal(load_bytes(&s, only_nul, sizeof only_nul, &err), -1);
    snprintf(want, sizeof want, "%s:1: NUL byte in column 1", s.path);
    assert_msg(&err, want);

    /* A NUL on a comment line is still a NUL. */
    static const char comment[] = "; ok\n; \0\n[core]\n";
    assert_int_equal(load_bytes(&s, comment, sizeof comment - 1, &err), -1);
    snprintf(want, sizeof want, "%s:2: NUL byte in column 3", s.path);
    assert_msg(&err, want);

    /* Without the NUL the same text loads: the rejection is the byte's. */
    static const char clean[] = "[core]\nnum_cores = 8 ; rest\n";
    assert_int_equal(load_bytes(&s, clean, sizeof clean - 1, &err), 0);
    unlink(s.path);
}

static void test_non_regular_files(void **state)
{
    (void)state;
    gm_config c;
    gm_error err = {{0}};
    gm_config_defaults(&c);
    /* Used to read forever. */
    assert_int_equal(gm_config_load_file(&c, "/dev/zero", &err), -1);
    assert_msg(&err, "/dev/zero:1: NUL byte");
    memset(&err, 0, sizeof err);
    assert_int_equal(gm_config_load_file(&c, "/", &err), -1);
    assert_msg(&err, "/: is a directory");
    memset(&err, 0, sizeof err);
    /* /dev/null is an empty file: accepted, nothing changes. */
    assert_int_equal(gm_config_load_file(&c, "/dev/null", &err), 0);
}

/* A file of comments beyond the bound: every line is valid, the size
 * is not. One byte under the bound loads. */
static void test_size_bound(void **state)
{
    (void)state;
    const size_t bound = 1u << 20;
    char *big = malloc(bound + 64);
    scratch s;
    gm_error err;
    assert_non_null(big);
    scratch_make(&s);
    for (size_t i = 0; i < bound + 64; i += 64) {
        memset(big + i, 'x', 64);
        big[i] = ';';
        big[i + 63] = '\n';
    }
    assert_int_equal(load_bytes(&s, big, bound, &err), 0);
    assert_int_equal(load_bytes(&s, big, bound + 1, &err), -1);
    assert_msg(&err, "more than 1048576 bytes");
    free(big);
    unlink(s.path);
}

static char *read_whole(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s", path);
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    assert_non_null(buf);
    for (size_t got; (got = fread(buf + n, 1, cap - n, f)) > 0;) {
        n += got;
        if (n == cap) {
            buf = realloc(buf, cap *= 2);
            assert_non_null(buf);
        }
    }
    fclose(f);
    *len = n;
    return buf;
}

/* Runs every file of $GM_SOURCE_DIR/rel (but README) through the fuzz
 * contract; returns how many, or -1 when GM_SOURCE_DIR is not set. */
static int feed_dir(const char *rel, const scratch *s)
{
    const char *src = getenv("GM_SOURCE_DIR");
    char dir[1024], p[1400];
    int n = 0;
    if (!src)
        return -1;
    snprintf(dir, sizeof dir, "%s/%s", src, rel);
    DIR *d = opendir(dir);
    if (!d)
        fail_msg("cannot open %s", dir);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.' || strcmp(e->d_name, "README") == 0)
            continue;
        size_t len;
        struct stat st;
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        if (stat(p, &st) != 0 || !S_ISREG(st.st_mode))
            continue;
        char *buf = read_whole(p, &len);
        uint8_t *exact = malloc(len ? len : 1);   /* no slack for ASan to miss */
        assert_non_null(exact);
        memcpy(exact, buf, len);
        if (gm_fuzz_config_one(exact, len, s->path) != 0)
            fail_msg("%s: breaks the INI fuzz contract (reason above)", p);
        free(exact);
        free(buf);
        n++;
    }
    closedir(d);
    return n;
}

static void test_fuzz_corpus_and_regressions(void **state)
{
    (void)state;
    scratch s;
    scratch_make(&s);
    int n = feed_dir("tests/fuzz/config-corpus", &s);
    if (n < 0) {
        print_message("GM_SOURCE_DIR not set: skipped\n");
        unlink(s.path);
        return;
    }
    assert_true(n >= 20);
    assert_true(feed_dir("configs", &s) >= 2);
    assert_true(feed_dir("configs/dcl1", &s) >= 1);
    feed_dir("tests/fuzz/config-regress", &s);
    unlink(s.path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nul_rejected_with_line),
        cmocka_unit_test(test_non_regular_files),
        cmocka_unit_test(test_size_bound),
        cmocka_unit_test(test_fuzz_corpus_and_regressions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
