/* Tests of cmodel/config: the key table, INI loading and its error
 * messages, -o overrides, cross-key validation, the to_ini round trip, the
 * shipped configs and docs/config.md.
 *
 * The shipped files are found through the source directory, given as the
 * first argument or in GM_SOURCE_DIR; without it those tests fail.
 *   test_config [SOURCE_DIR]
 *   test_config --update-docs [SOURCE_DIR]   rewrites the key reference
 *                                            of SOURCE_DIR/docs/config.md */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "config/config.h"
#include "config/config_keys.h"
#include "designs/design.h"
#include "dram/dram_timing.h"

/* ---- helpers ----------------------------------------------------------- */

typedef struct tmpfile_t {
    char path[256];
} tmpfile_t;

static void tmp_write(tmpfile_t *t, const char *text)
{
    const char *dir = getenv("TMPDIR");
    snprintf(t->path, sizeof t->path, "%s/gm_config_XXXXXX", dir && *dir ? dir : "/tmp");
    int fd = mkstemp(t->path);
    assert_true(fd >= 0);
    size_t n = strlen(text);
    assert_int_equal(write(fd, text, n), (ssize_t)n);
    close(fd);
}

/* Loads text from a fresh file; *where gets "path:line:" for `line`. */
static int load_text(gm_config *c, const char *text, gm_error *err, int line, char *where,
                     size_t len)
{
    tmpfile_t t;
    tmp_write(&t, text);
    if (where)
        snprintf(where, len, "%s:%d: ", t.path, line);
    int r = gm_config_load_file(c, t.path, err);
    unlink(t.path);
    return r;
}

static void assert_has(const char *msg, const char *needle)
{
    if (!strstr(msg, needle))
        fail_msg("message \"%s\"\n  does not contain \"%s\"", msg, needle);
}

static void assert_same_config(const gm_config *a, const gm_config *b)
{
    for (size_t i = 0; i < gm_config_key_count(); i++) {
        const gm_config_key *k = gm_config_key_at(i);
        uint64_t va = gm_config_key_get(a, k), vb = gm_config_key_get(b, k);
        if (va != vb)
            fail_msg("[%s] %s: %llu != %llu", k->section, k->name, (unsigned long long)va,
                     (unsigned long long)vb);
    }
}

/* Expects a load of `text` to fail on `line` with a message that starts
 * with "path:line: " and contains `needle`, leaving the config as it was. */
static void expect_load_error(const char *text, int line, const char *needle)
{
    gm_config c, before;
    gm_error err = { "" };
    char where[300];
    gm_config_defaults(&c);
    before = c;
    assert_int_equal(load_text(&c, text, &err, line, where, sizeof where), -1);
    if (strncmp(err.msg, where, strlen(where)) != 0)
        fail_msg("message \"%s\"\n  does not start with \"%s\"", err.msg, where);
    assert_has(err.msg, needle);
    assert_same_config(&c, &before);
}

static void expect_set_error(const char *assignment, const char *needle)
{
    gm_config c, before;
    gm_error err = { "" };
    gm_config_defaults(&c);
    before = c;
    assert_int_equal(gm_config_set(&c, assignment, &err), -1);
    assert_true(strncmp(err.msg, "-o: ", 4) == 0);
    assert_has(err.msg, needle);
    assert_same_config(&c, &before);
}

static void expect_invalid(const gm_config *c, const char *needle1, const char *needle2)
{
    gm_error err = { "" };
    assert_int_equal(gm_config_validate(c, &err), -1);
    assert_has(err.msg, needle1);
    if (needle2)
        assert_has(err.msg, needle2);
}

static const char *source_dir(void **state)
{
    const char *dir = *state;
    if (!dir)
        fail_msg("source directory unknown: pass it as the first argument or set "
                 "GM_SOURCE_DIR");
    return dir;
}

static char *read_whole(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    size_t len = 0, cap = 0, n;
    char chunk[4096];
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
        if (len + n + 1 > cap) {
            cap = (len + n + 1) * 2;
            buf = realloc(buf, cap);
            assert_non_null(buf);
        }
        memcpy(buf + len, chunk, n);
        len += n;
    }
    fclose(f);
    if (!buf)
        buf = calloc(1, 1);
    else
        buf[len] = '\0';
    return buf;
}

static char *markdown_text(void)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    assert_int_equal(gm_config_write_markdown(f), 0);
    assert_int_equal(fclose(f), 0);
    return text;
}

/* ---- the table ----------------------------------------------------------- */

static void test_table_well_formed(void **state)
{
    (void)state;
    unsigned char covered[sizeof(gm_config)] = { 0 };
    size_t sec = 0;
    for (size_t i = 0; i < gm_config_key_count(); i++) {
        const gm_config_key *k = gm_config_key_at(i);
        /* rows grouped by section, in section order (to_ini and the docs
         * depend on it) */
        while (sec < gm_config_section_count() && strcmp(gm_config_section_at(sec)->name, k->section))
            sec++;
        if (sec == gm_config_section_count())
            fail_msg("[%s] %s: section missing or out of order", k->section, k->name);
        assert_ptr_equal(gm_config_key_find(k->section, k->name), k);
        assert_true(k->doc[0] != '\0');
        assert_null(strchr(k->doc, '|')); /* would break the markdown table */
        assert_null(strchr(k->unit, '|'));
        size_t width = k->type == GM_KEY_U64 || k->type == GM_KEY_I64 ? 8 : 4;
        assert_true(k->offset + width <= sizeof(gm_config));
        for (size_t b = 0; b < width; b++) {
            if (covered[k->offset + b])
                fail_msg("[%s] %s overlaps another key", k->section, k->name);
            covered[k->offset + b] = 1;
        }
        if (k->type == GM_KEY_ENUM) {
            size_t n = 0;
            while (k->names[n])
                n++;
            assert_true(n >= 2);
            assert_true(k->def < n);
        } else {
            assert_true(gm_config_key_cmp(k, k->min, k->max) <= 0);
            if (k->source != GM_SRC_HYNIX)
                assert_true(gm_config_key_allows(k, k->def));
        }
    }
    /* gm_config has no padding (296 bytes of 32-bit fields, then 64-bit
     * ones), so every byte belongs to a key: a field added to config.h
     * without a row in the table fails here. */
    for (size_t b = 0; b < sizeof(gm_config); b++)
        if (!covered[b])
            fail_msg("byte %zu of gm_config belongs to no key", b);
    for (size_t s = 0; s < gm_config_section_count(); s++)
        assert_non_null(gm_config_section_find(gm_config_section_at(s)->name));
    assert_null(gm_config_section_find("bogus"));
    assert_null(gm_config_key_find("l1", "bogus"));
    assert_null(gm_config_key_find("L1", "size")); /* case-sensitive */
}

static void test_defaults(void **state)
{
    (void)state;
    gm_config c;
    gm_dram_timing hynix;
    gm_error err = { "" };
    gm_config_defaults(&c);
    memset(&hynix, 0, sizeof hynix);
    gm_dram_timing_hynix_gddr5(&hynix);
    for (size_t i = 0; i < gm_config_key_count(); i++) {
        const gm_config_key *k = gm_config_key_at(i);
        uint64_t want = k->def;
        if (k->source == GM_SRC_HYNIX) {
            gm_config h;
            memset(&h, 0, sizeof h);
            h.dram.t = hynix;
            want = gm_config_key_get(&h, k);
        }
        if (gm_config_key_get(&c, k) != want)
            fail_msg("[%s] %s", k->section, k->name);
    }
    /* Table II of the DC-L1 seed, read independently of the table */
    assert_int_equal(c.core.num_cores, 80);
    assert_int_equal(c.core.clock_mhz, 1400);
    assert_int_equal(c.core.max_warps * 32, 1536);
    assert_int_equal(c.l1.size_bytes, 16 * 1024);
    assert_int_equal(c.l1.assoc, 4);
    assert_int_equal(c.l1.line_bytes, 128);
    assert_int_equal(c.l1.latency, 28);
    assert_int_equal(c.noc.clock_mhz, 700);
    assert_int_equal(c.noc.flit_bytes, 32);
    assert_int_equal(c.noc.vcs, 4);
    assert_int_equal(c.noc.vc_depth, 4);
    assert_int_equal((uint64_t)c.l2.slices * c.l2.cache.size_bytes, 4u << 20);
    assert_int_equal(c.l2.cache.assoc, 8);
    assert_int_equal(c.l2.cache.latency, 120);
    assert_int_equal(c.dram.channels, 16);
    assert_int_equal(c.dram.clock_mhz, 924);
    assert_int_equal(c.dram.banks, 16);
    assert_int_equal(c.dram.bank_groups, 4);
    assert_int_equal(c.dram.sched, GM_DRAM_FRFCFS);
    assert_int_equal(c.dram.partition_bytes, 256);
    assert_int_equal(c.core.warp_sched, GM_SCHED_GTO);
    assert_int_equal(c.core.cta_policy, GM_CTA_RR);
    assert_true(c.sim.fault_stall_dram == -1); /* no fault unless asked */
    assert_int_equal(gm_config_validate(&c, &err), 0);
}

/* ---- values that parse ------------------------------------------------------ */

static void test_values(void **state)
{
    (void)state;
    gm_config c;
    gm_error err = { "" };
    gm_config_defaults(&c);
    static const struct {
        const char *text;
        uint32_t bytes;
    } sizes[] = {
        { "512", 512 },    { "128B", 128 },    { "16K", 16384 }, { "128KB", 131072 },
        { "4M", 4194304 }, { "16kb", 16384 }, { "2mb", 2097152 },
    };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        char line[64];
        snprintf(line, sizeof line, "l2.size=%s", sizes[i].text);
        if (gm_config_set(&c, line, &err) != 0)
            fail_msg("%s: %s", line, err.msg);
        assert_int_equal(c.l2.cache.size_bytes, sizes[i].bytes);
    }
    assert_int_equal(gm_config_set(&c, "l1.assoc=0x10", &err), 0);
    assert_int_equal(c.l1.assoc, 16);
    assert_int_equal(gm_config_set(&c, "sim.seed=18446744073709551615", &err), 0);
    assert_true(c.sim.seed == UINT64_MAX);
    assert_int_equal(gm_config_set(&c, "core.warp_sched=lrr", &err), 0);
    assert_int_equal(c.core.warp_sched, GM_SCHED_LRR);
    assert_int_equal(gm_config_set(&c, "core.cta_policy=distributed", &err), 0);
    assert_int_equal(c.core.cta_policy, GM_CTA_DISTRIBUTED);
    assert_int_equal(gm_config_set(&c, "dram.sched=fcfs", &err), 0);
    assert_int_equal(c.dram.sched, GM_DRAM_FCFS);
    assert_int_equal(gm_config_set(&c, "dram.tRCD=13", &err), 0);
    assert_int_equal(c.dram.t.tRCD, 13);
    assert_int_equal(gm_config_set(&c, "sim.fault_stall_dram=3", &err), 0);
    assert_true(c.sim.fault_stall_dram == 3);
    assert_int_equal(gm_config_set(&c, "sim.fault_stall_dram=-1", &err), 0);
    assert_true(c.sim.fault_stall_dram == -1);
    /* the limits themselves are allowed */
    assert_int_equal(gm_config_set(&c, "l1.assoc=64", &err), 0);
    assert_int_equal(gm_config_set(&c, "l1.latency=0", &err), 0);
    assert_int_equal(c.l1.latency, 0);
}

/* Comments, blank lines, indentation, CRLF and a byte order mark. */
static void test_file_layout(void **state)
{
    (void)state;
    gm_config c;
    gm_error err = { "" };
    gm_config_defaults(&c);
    const char *text = "\xEF\xBB\xBF; comment\n"
                       "# another comment\n"
                       "\n"
                       "[l1]\n"
                       "    size = 32K   ; inline comment\n"
                       "\tassoc=8\n"
                       "  [core]\r\n"
                       "num_cores = 40\r\n"
                       "warp_sched = lrr\n"
                       "[l1]\n"
                       "latency = 30";
    if (load_text(&c, text, &err, 0, NULL, 0) != 0)
        fail_msg("%s", err.msg);
    assert_int_equal(c.l1.size_bytes, 32768);
    assert_int_equal(c.l1.assoc, 8);
    assert_int_equal(c.core.num_cores, 40);
    assert_int_equal(c.core.warp_sched, GM_SCHED_LRR);
    assert_int_equal(c.l1.latency, 30);
    assert_int_equal(c.l2.cache.size_bytes, 128 * 1024); /* untouched */
}

/* ---- error classes ------------------------------------------------------------ */

static void test_error_messages(void **state)
{
    (void)state;
    /* the exact form of the brief */
    {
        gm_config c;
        gm_error err = { "" };
        char where[300], want[400];
        gm_config_defaults(&c);
        assert_int_equal(load_text(&c, "[l1]\n\nassoc = 0\n", &err, 3, where, sizeof where), -1);
        snprintf(want, sizeof want, "%s[l1] assoc = 0: must be in 1..64", where);
        assert_string_equal(err.msg, want);
    }
    expect_load_error("[core]\nnum_cores = 8\n[bogus]\n", 3, "unknown section [bogus]");
    expect_load_error("[core]\n[Core]\nnum_cores = 8\n", 2, "unknown section [Core]");
    expect_load_error("[l1]\nsize = 16K\nsise = 1\n", 3, "unknown key [l1] sise");
    expect_load_error("[dram]\ntrcd = 12\n", 2, "unknown key [dram] trcd");
    expect_load_error("[l1]\nassoc = four\n", 2, "[l1] assoc = four: not a number");
    expect_load_error("[l1]\nassoc = 4x\n", 2, "[l1] assoc = 4x: not a number");
    expect_load_error("[l1]\nassoc = -1\n", 2, "[l1] assoc = -1: not a number");
    expect_load_error("[l1]\nassoc = 4K\n", 2, "[l1] assoc = 4K: not a number");
    expect_load_error("[l1]\nassoc =\n", 2, "[l1] assoc = : not a number");
    expect_load_error("[l1]\nassoc = 65\n", 2, "[l1] assoc = 65: must be in 1..64");
    expect_load_error("[sim]\nseed = 18446744073709551616\n", 2,
                      "[sim] seed = 18446744073709551616: must be in 0..18446744073709551615");
    expect_load_error("[l2]\nsize = 4096M\n", 2, "[l2] size = 4096M: must be in 128..64M");
    expect_load_error("[l2]\nsize = 99999999999999999999K\n", 2, "must be in 128..64M");
    expect_load_error("[l2]\nsize = 64\n", 2, "must be in 128..64M");
    expect_load_error("[sim]\nfault_stall_dram = -2\n", 2,
                      "[sim] fault_stall_dram = -2: must be in -1..255");
    expect_load_error("[sim]\nfault_stall_dram = -\n", 2, "not a number");
    expect_load_error("[sim]\nfault_stall_dram = 9223372036854775808\n", 2, "must be in -1..255");
    expect_load_error("[sim]\nseed = -1\n", 2, "[sim] seed = -1: not a number");
    expect_load_error("[core]\nwarp_sched = oldest\n", 2,
                      "[core] warp_sched = oldest: must be one of gto, lrr");
    expect_load_error("[core]\nwarp_sched = GTO\n", 2, "must be one of gto, lrr");
    expect_load_error("[dram]\nsched = frfcfs2\n", 2, "must be one of frfcfs, fcfs");
    expect_load_error("[l1]\nsize = 16Q\n", 2, "[l1] size = 16Q: bad size suffix \"Q\"");
    expect_load_error("[l1]\nsize = 16KiB\n", 2, "bad size suffix \"KiB\"");
    expect_load_error("[l1]\nsize = 0x4000\n", 2, "bad size suffix \"x4000\"");
    expect_load_error("[l1]\nassoc = 4\nassoc = 8\n", 3, "[l1] assoc is set again (first on line 2)");
    expect_load_error("assoc = 4\n[l1]\n", 1, "assoc = 4 comes before any [section]");
    expect_load_error("[l1]\nassoc\n", 2, "syntax error");
    expect_load_error("[l1\nassoc = 4\n", 1, "syntax error");
    /* a syntax error before a bad key is the one reported */
    expect_load_error("[l1]\nassoc\nbogus = 1\n", 2, "syntax error");

    char longline[400];
    memset(longline, 'x', sizeof longline);
    memcpy(longline, "[l1]\n; ", 7);
    longline[sizeof longline - 2] = '\n';
    longline[sizeof longline - 1] = '\0';
    expect_load_error(longline, 2, "line longer than");

    /* an error in the middle of a file leaves nothing of the file applied
     * (checked by expect_load_error), also for keys before it */
    expect_load_error("[l1]\nsize = 32K\nassoc = 0\n", 3, "assoc");
}

static void test_missing_file(void **state)
{
    (void)state;
    gm_config c, before;
    gm_error err = { "" };
    gm_config_defaults(&c);
    before = c;
    assert_int_equal(gm_config_load_file(&c, "/nonexistent/gmsim/x.ini", &err), -1);
    assert_has(err.msg, "/nonexistent/gmsim/x.ini");
    assert_has(err.msg, "cannot open");
    assert_same_config(&c, &before);
    /* err may be NULL */
    assert_int_equal(gm_config_load_file(&c, "/nonexistent/gmsim/x.ini", NULL), -1);
}

static void test_layering(void **state)
{
    (void)state;
    gm_config c, want;
    gm_error err = { "" };
    gm_config_defaults(&c);
    gm_config_defaults(&want);
    if (load_text(&c, "[core]\nnum_cores = 40\n[l1]\nsize = 32K\n", &err, 0, NULL, 0) ||
        load_text(&c, "[core]\nnum_cores = 20\n[l2]\nassoc = 16\n", &err, 0, NULL, 0))
        fail_msg("%s", err.msg);
    want.core.num_cores = 20; /* later file wins */
    want.l1.size_bytes = 32768;
    want.l2.cache.assoc = 16;
    assert_same_config(&c, &want);
    /* -o after files */
    assert_int_equal(gm_config_set(&c, "core.num_cores=10", &err), 0);
    want.core.num_cores = 10;
    assert_same_config(&c, &want);
}

static void test_overrides(void **state)
{
    (void)state;
    gm_config c;
    gm_error err = { "" };
    gm_config_defaults(&c);
    assert_int_equal(gm_config_set(&c, "l1.size=64K", &err), 0);
    assert_int_equal(c.l1.size_bytes, 65536);
    assert_int_equal(gm_config_set(&c, " l2 . assoc = 16 ", &err), 0);
    assert_int_equal(c.l2.cache.assoc, 16);
    assert_int_equal(gm_config_set(&c, "dram.tREFI=0", &err), 0);
    assert_int_equal(c.dram.t.tREFI, 0);

    expect_set_error("l1.assoc=0", "-o: [l1] assoc = 0: must be in 1..64");
    expect_set_error("l1.size", "not section.key=value");
    expect_set_error("size=1", "not section.key=value");
    expect_set_error("l1.bogus=1", "unknown key [l1] bogus");
    expect_set_error("foo.bar=1", "unknown section [foo]");
    expect_set_error("core.cta_policy=blocks", "must be one of rr, block, distributed");
    expect_set_error("l1.size=16Q", "bad size suffix");
    expect_set_error("l1.assoc=x", "not a number");
}

/* ---- cross-key rules ---------------------------------------------------------- */

static void test_validate(void **state)
{
    (void)state;
    gm_config d, c;
    gm_config_defaults(&d);

#define CASE(stmt, n1, n2)         \
    do {                           \
        c = d;                     \
        stmt;                      \
        expect_invalid(&c, n1, n2); \
    } while (0)

    CASE(c.l1.size_bytes = 16000, "[l1] size = 16000", "[l1] line * [l1] assoc");
    CASE(c.l1.assoc = 3, "[l1] size", "[l1] assoc");
    CASE(c.l2.cache.size_bytes = 128 * 1024 + 128, "[l2] size", "[l2] assoc");
    CASE(c.l1.line_bytes = 64, "[l1] line = 64", "must be 128");
    CASE(c.l2.cache.line_bytes = 256, "[l2] line = 256", "must be 128");
    CASE(c.l2.slices = 24, "[l2] slices = 24", "[dram] channels = 16");
    CASE(c.core.clusters = 3, "[core] num_cores = 80", "[core] clusters = 3");
    CASE((c.core.max_warps = 16, c.core.max_ctas = 17), "[core] max_ctas = 17",
         "[core] max_warps = 16");
    CASE((c.core.max_warps = 1, c.core.max_ctas = 1), "[core] schedulers = 2",
         "[core] max_warps = 1");
    CASE((c.core.cta_policy = GM_CTA_BLOCK, c.core.cta_block = 9), "[core] cta_block = 9",
         "[core] max_ctas = 8");
    CASE(c.dram.t.tRC = 39, "[dram] tRC = 39", "[dram] tRAS + [dram] tRP");
    CASE(c.dram.t.tRAS = 11, "[dram] tRAS", "[dram] tRCD");
    CASE(c.dram.t.tCCDL = 1, "[dram] tCCDL", "[dram] tCCDS");
    CASE(c.dram.t.tRRDS = 7, "[dram] tRRDL", "[dram] tRRDS");
    CASE(c.dram.t.tWTRS = 6, "[dram] tWTRL", "[dram] tWTRS");
    CASE(c.dram.t.tREFI = 61, "[dram] tREFI = 61", "[dram] tRFC = 61");
    CASE(c.dram.partition_bytes = 192, "[dram] partition_bytes = 192", "[l2] line");
    CASE(c.dram.banks = 18, "[dram] banks = 18", "[dram] bank_groups");
    CASE(c.dram.atom_bytes = 96, "[l2] line", "[dram] atom_bytes = 96");
    CASE(c.dram.row_bytes = 4000, "[dram] row_bytes = 4000", "[dram] atom_bytes = 64");
    /* 99991, 99989, 99971 and 99961 are primes: their product is ~10^20 */
    CASE((c.core.clock_mhz = 99991, c.noc.clock_mhz = 99989, c.l2.clock_mhz = 99971,
          c.dram.clock_mhz = 99961),
         "[core] clock_mhz = 99991", "[dram] clock_mhz = 99961");
    /* ranges are checked too, for configs filled by code */
    CASE(c.sim.fault_stall_dram = 16, "[sim] fault_stall_dram = 16", "[dram] channels = 16");
    CASE(c.l1.assoc = 0, "[l1] assoc = 0: must be in 1..64", NULL);
    CASE(c.l1.size_bytes = 64, "[l1] size = 64: must be in 128..4M", NULL);
    CASE(c.sim.fault_stall_dram = -5, "[sim] fault_stall_dram = -5: must be in -1..255", NULL);
    CASE(c.core.warp_sched = 2, "[core] warp_sched = 2", "gto, lrr");
#undef CASE

    gm_error err = { "" };
    /* tREFI = 0 disables refresh and is fine */
    c = d;
    c.dram.t.tREFI = 0;
    assert_int_equal(gm_config_validate(&c, &err), 0);
    /* lcm exactly at the limit passes: 65536 * 65537 > 2^32, 65536 alone is fine */
    c = d;
    c.core.clock_mhz = c.noc.clock_mhz = c.l2.clock_mhz = c.dram.clock_mhz = 65536;
    assert_int_equal(gm_config_validate(&c, &err), 0);
    c.dram.clock_mhz = 65537;
    expect_invalid(&c, "least common multiple", NULL);
    /* a valid non-default combination */
    c = d;
    c.l1.size_bytes = 48 * 1024;
    c.l1.assoc = 6;
    c.l2.slices = 48;
    c.dram.channels = 24;
    c.core.num_cores = 120;
    c.core.clusters = 10;
    assert_int_equal(gm_config_validate(&c, &err), 0);
}

/* ---- resource bounds ------------------------------------------------------------ */

/* -o key=last is accepted and key=last+1 refused naming the range. */
static void expect_key_max(const char *key, const char *last, const char *first_bad,
                           const char *range)
{
    gm_config c;
    gm_error err = { "" };
    char a[96];
    gm_config_defaults(&c);
    snprintf(a, sizeof a, "%s=%s", key, last);
    if (gm_config_set(&c, a, &err) != 0)
        fail_msg("%s: %s", a, err.msg);
    snprintf(a, sizeof a, "%s=%s", key, first_bad);
    expect_set_error(a, range);
}

/* Every size and count key is bounded by what a real design could use
 * (docs/reliability.md, "Resource bounds"); each level's total capacity
 * and the DC-L1 nodes' MSHRs are bounded as a whole. The issue 13
 * example, 16M node MSHRs, cost 7.3 GB on an 8-core run. */
static void test_resource_bounds(void **state)
{
    (void)state;
    expect_key_max("core.max_ctas", "32", "33", "must be in 1..32");
    expect_key_max("core.cta_block", "32", "33", "must be in 1..32");
    expect_key_max("core.ldst_queue", "256", "257", "must be in 1..256");
    expect_key_max("l1.size", "4M", "4100K", "must be in 128..4M");
    expect_key_max("noc.vc_depth", "256", "257", "must be in 1..256");
    expect_key_max("l2.size", "64M", "65M", "must be in 128..64M");
    expect_key_max("dram.row_bytes", "64K", "65K", "must be in 64..64K");
    expect_key_max("dcl1.node_size", "64M", "65M", "must be in 0..64M");
    expect_key_max("dcl1.node_mshr_entries", "65536", "65537", "must be in 0..65536");
    expect_set_error("dcl1.node_mshr_entries=16777216",
                     "[dcl1] node_mshr_entries = 16777216: must be in 0..65536");

    gm_config d, c;
    gm_error err = { "" };
    gm_config_defaults(&d);
    /* all L1s together: 512 x 2M = 1G is the last legal total */
    c = d;
    c.core.num_cores = c.core.clusters = 512;
    c.noc.vcs = 2;
    c.l1.size_bytes = 2u << 20;
    assert_int_equal(gm_config_validate(&c, &err), 0);
    c.l1.size_bytes += 512;
    expect_invalid(&c, "[core] num_cores x [l1] size = 512 x 2097664", "at most 1G");
    /* all L2 slices together: 16 x 64M, not 32 x 64M */
    c = d;
    c.l2.slices = 16;
    c.l2.cache.size_bytes = 64u << 20;
    assert_int_equal(gm_config_validate(&c, &err), 0);
    c.l2.slices = 32;
    expect_invalid(&c, "[l2] slices x [l2] size = 32 x 67108864", "at most 1G");
    /* DC-L1 nodes: 16 x 64M is 1G; 20 nodes of 64M are not */
    c = d;
    c.design.kind = 1;
    assert_string_equal(gm_design_names[1], "dcl1");
    c.dcl1.nodes = 16;
    c.dcl1.node_size = 64u << 20;
    assert_int_equal(gm_config_validate(&c, &err), 0);
    c.dcl1.nodes = 20;
    expect_invalid(&c, "[dcl1] nodes x node_size = 20 x 67108864", "at most 1G");
    /* node MSHRs: 64 x 65536 = 4M in all is the last legal total */
    c = d;
    c.design.kind = 1;
    c.core.num_cores = c.core.clusters = 64;
    c.dcl1.nodes = 64;
    c.dcl1.node_mshr_entries = 65536;
    assert_int_equal(gm_config_validate(&c, &err), 0);
    c.core.num_cores = c.core.clusters = 80;
    c.dcl1.nodes = 80;
    expect_invalid(&c, "[dcl1] nodes x node_mshr_entries = 80 x 65536", "4194304");
    /* ... and a derived count (4096 x 80 / 4) above the key's range */
    c = d;
    c.design.kind = 1;
    c.dcl1.nodes = 4;
    c.l1.mshr_entries = 4096;
    expect_invalid(&c, "[dcl1] node_mshr_entries (derived", "81920) exceeds 65536");
}

/* ---- round trip ----------------------------------------------------------------- */

static void round_trip(const gm_config *c)
{
    gm_config back;
    gm_error err = { "" };
    char *text = gm_config_to_ini(c);
    assert_non_null(text);
    /* every key exactly once */
    for (size_t i = 0; i < gm_config_key_count(); i++) {
        char needle[64];
        snprintf(needle, sizeof needle, "\n%s = ", gm_config_key_at(i)->name);
        size_t count = 0;
        const char *p = text;
        /* count occurrences within the key's own section only */
        char header[32];
        snprintf(header, sizeof header, "\n[%s]\n", gm_config_key_at(i)->section);
        const char *sec = strstr(text, header);
        assert_non_null(sec);
        const char *end = strstr(sec + 1, "\n[");
        for (p = sec; (p = strstr(p, needle)) && (!end || p < end); p++)
            count++;
        if (count != 1)
            fail_msg("[%s] %s appears %zu times", gm_config_key_at(i)->section,
                     gm_config_key_at(i)->name, count);
    }
    memset(&back, 0, sizeof back);
    if (load_text(&back, text, &err, 0, NULL, 0) != 0)
        fail_msg("%s\n%s", err.msg, text);
    assert_same_config(&back, c);
    free(text);
}

static void test_round_trip(void **state)
{
    (void)state;
    gm_config c;
    gm_config_defaults(&c);
    round_trip(&c);
    /* every key moved away from its default, to a limit of its range */
    for (size_t i = 0; i < gm_config_key_count(); i++) {
        const gm_config_key *k = gm_config_key_at(i);
        uint64_t v = gm_config_key_get(&c, k), nv;
        if (k->type == GM_KEY_ENUM)
            nv = k->names[v + 1] ? v + 1 : 0;
        else
            nv = v == k->max ? k->min : k->max;
        gm_config_key_put(&c, k, nv);
    }
    round_trip(&c);
    /* sizes that are not whole K */
    gm_config_defaults(&c);
    c.l1.size_bytes = 1536 + 128;
    c.l2.cache.size_bytes = 3 * 1024 * 1024;
    round_trip(&c);
}

/* ---- shipped files --------------------------------------------------------------- */

static void load_shipped(void **state, const char *rel, gm_config *c)
{
    char path[1024];
    gm_error err = { "" };
    snprintf(path, sizeof path, "%s/%s", source_dir(state), rel);
    if (gm_config_load_file(c, path, &err) != 0)
        fail_msg("%s", err.msg);
    if (gm_config_validate(c, &err) != 0)
        fail_msg("%s: %s", path, err.msg);
}

/* baseline.ini is written out by hand from Table II. Loaded onto a zeroed
 * config it must set every key, to the built-in default. */
static void test_baseline_ini(void **state)
{
    gm_config c, d;
    memset(&c, 0, sizeof c);
    gm_config_defaults(&d);
    load_shipped(state, "configs/baseline.ini", &c);
    assert_same_config(&c, &d);
}

static void test_small_ini(void **state)
{
    gm_config c, want;
    gm_config_defaults(&c);
    load_shipped(state, "configs/small.ini", &c);
    gm_config_defaults(&want);
    want.core.num_cores = 8;
    want.core.clusters = 8;
    want.l2.slices = 4;
    want.dram.channels = 2;
    assert_same_config(&c, &want);
    /* also on top of baseline.ini */
    memset(&c, 0, sizeof c);
    load_shipped(state, "configs/baseline.ini", &c);
    load_shipped(state, "configs/small.ini", &c);
    assert_same_config(&c, &want);
}

/* docs/config.md holds the generated key reference between two markers. */
static void test_docs_up_to_date(void **state)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/docs/config.md", source_dir(state));
    char *doc = read_whole(path);
    if (!doc)
        fail_msg("cannot read %s", path);
    char *begin = strstr(doc, GM_CONFIG_DOC_BEGIN);
    char *end = begin ? strstr(begin, GM_CONFIG_DOC_END) : NULL;
    if (!begin || !end)
        fail_msg("%s: key reference markers missing", path);
    begin += strlen(GM_CONFIG_DOC_BEGIN);
    *end = '\0';
    char *want = markdown_text();
    if (strcmp(begin, want) != 0) {
        size_t line = 1, i = 0;
        while (begin[i] && begin[i] == want[i]) {
            if (begin[i] == '\n')
                line++;
            i++;
        }
        fail_msg("%s differs from the key table at line %zu of the generated part; "
                 "regenerate with: test_config --update-docs SOURCE_DIR",
                 path, line);
    }
    free(want);
    free(doc);
}

static void test_markdown_content(void **state)
{
    (void)state;
    char *md = markdown_text();
    for (size_t s = 0; s < gm_config_section_count(); s++) {
        char h[32];
        snprintf(h, sizeof h, "### [%s]\n", gm_config_section_at(s)->name);
        assert_has(md, h);
    }
    for (size_t i = 0; i < gm_config_key_count(); i++) {
        char row[64];
        snprintf(row, sizeof row, "\n| `%s` | ", gm_config_key_at(i)->name);
        assert_has(md, row);
    }
    assert_has(md, "| `size` | 16K | 128..4M | bytes | Table II |");
    assert_has(md, "| `warp_sched` | gto | `gto`, `lrr` |");
    assert_has(md, "| `tRCD` | 12 | 0..65535 | DRAM cycles | Hynix GDDR5 |");
    free(md);
}

/* ---- main ------------------------------------------------------------------------ */

static int update_docs(const char *dir)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/docs/config.md", dir);
    char *doc = read_whole(path);
    char *begin = doc ? strstr(doc, GM_CONFIG_DOC_BEGIN) : NULL;
    char *end = begin ? strstr(begin, GM_CONFIG_DOC_END) : NULL;
    if (!begin || !end) {
        fprintf(stderr, "%s: missing or without key reference markers\n", path);
        return 1;
    }
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        return 1;
    }
    fwrite(doc, 1, (size_t)(begin - doc), f);
    fputs(GM_CONFIG_DOC_BEGIN, f);
    gm_config_write_markdown(f);
    fputs(end, f);
    int bad = ferror(f) | fclose(f);
    free(doc);
    return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
    int update = argc > 1 && strcmp(argv[1], "--update-docs") == 0;
    const char *dir = argc > 1 + update ? argv[1 + update] : getenv("GM_SOURCE_DIR");
    if (dir && !*dir)
        dir = NULL;
    if (update) {
        if (!dir) {
            fprintf(stderr, "usage: %s --update-docs SOURCE_DIR\n", argv[0]);
            return 1;
        }
        return update_docs(dir);
    }
    void *src = (void *)dir;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table_well_formed),
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_values),
        cmocka_unit_test(test_file_layout),
        cmocka_unit_test(test_error_messages),
        cmocka_unit_test(test_missing_file),
        cmocka_unit_test(test_layering),
        cmocka_unit_test(test_overrides),
        cmocka_unit_test(test_validate),
        cmocka_unit_test(test_resource_bounds),
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_markdown_content),
        cmocka_unit_test_prestate(test_baseline_ini, src),
        cmocka_unit_test_prestate(test_small_ini, src),
        cmocka_unit_test_prestate(test_docs_up_to_date, src),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
