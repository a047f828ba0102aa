/* Accel-Sim trace input and output (docs/traces.md).
 *   - the opcode table and Accel-Sim's width rule, on opcode strings from
 *     real traces;
 *   - every address encoding, tracer version and line layout against
 *     addresses worked out by hand;
 *   - registers, the EXIT rule, the memory classes and the read-only rule
 *     on small hand-written kernels;
 *   - malformed input: the message names file, line and reason; truncated
 *     and corrupted files (every cut of a real trace), corrupt xz, the fuzz
 *     corpus and every kept fuzz crash input return cleanly;
 *   - the public fixtures (../shared/traces): instruction counts against
 *     counts taken from the raw text, and pinned end-to-end statistics on
 *     configs/small.ini;
 *   - export: exact lines for hand-made instructions, and gemm, atax and
 *     reduction exported and read back give the built-in stream (the same
 *     FNV-1a stream hash as test_workload.c), resident or streamed,
 *     in any order, and the same statistics through the whole system. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <cjson/cJSON.h>
#include <dirent.h>
#include <lzma.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../fuzz/fuzz_trace.h"
#include "config/config.h"
#include "system/system.h"
#include "stats/report.h"
#include "workload/sass_map.h"
#include "workload/trace_read.h"
#include "workload/trace_write.h"
#include "workload/walk.h"
#include "workload/workload.h"
#include "workload_testlib.h"

#define NONE GM_REG_NONE

/* ---------------------------------------------------------------- helpers */

static const char *source_dir(void)
{
    return getenv("GM_SOURCE_DIR");
}

/* $GM_SOURCE_DIR/<rel>, or skips the test when the variable is unset. */
static void source_path(char *buf, size_t cap, const char *rel)
{
    const char *s = source_dir();
    buf[0] = '\0';
    if (!s) {
        print_message("GM_SOURCE_DIR not set: skipped\n");
        skip();
        return;
    }
    snprintf(buf, cap, "%s/%s", s, rel);
}

/* The public traces live beside the repository: ../shared/traces. */
static void fixture_path(char *buf, size_t cap, const char *rel)
{
    const char *s = source_dir();
    buf[0] = '\0';
    if (!s) {
        print_message("GM_SOURCE_DIR not set: skipped\n");
        skip();
        return;
    }
    snprintf(buf, cap, "%s/../shared/traces/%s", s, rel);
}

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s", path);
    char *buf = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n + 4096 + 1 > cap) {
            cap = cap ? cap * 2 : 8192;
            buf = realloc(buf, cap);
            assert_non_null(buf);
        }
        size_t got = fread(buf + n, 1, 4096, f);
        if (!got)
            break;
        n += got;
    }
    fclose(f);
    buf[n] = '\0';
    *len = n;
    return buf;
}

static void write_file(const char *path, const void *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(p, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
}

static void build_text(gm_workload *w, const char *text)
{
    gm_error err = {{0}};
    if (gm_trace_workload_from_buffer(w, text, strlen(text), "t.traceg", &err) != 0)
        fail_msg("%s", err.msg);
}

/* All instructions of one warp (at most max), generated 16 at a time. */
static int warp_insts(const gm_workload *w, uint32_t ki, uint32_t cta, uint32_t warp,
                      gm_inst *out, int max)
{
    const gm_kernel *k = &w->kernels[ki];
    gm_warp_gen g;
    gm_inst buf[16];
    int n = 0, r;
    gm_warp_gen_start(&g, cta, warp);
    while ((r = k->gen(k, &g, buf, 16)) > 0) {
        assert_true(n + r <= max);
        memcpy(out + n, buf, (size_t)r * sizeof *buf);
        n += r;
    }
    return n;
}

static void expect_error(const char *text, const char *where, const char *reason)
{
    gm_error err = {{0}};
    gm_workload w;
    if (gm_trace_workload_from_buffer(&w, text, strlen(text), "t.traceg", &err) == 0) {
        gm_workload_free(&w);
        fail_msg("accepted; expected '%s ... %s'", where, reason);
    }
    if (!strstr(err.msg, where) || !strstr(err.msg, reason))
        fail_msg("message '%s'; expected '%s' and '%s'", err.msg, where, reason);
    assert_null(w.kernels);
    assert_null(w.priv);
}

/* The stream hash of test_workload.c (hash_inst), over a lighter walk
 * than run_warp: 16 at a time, one EXIT and nothing after it; the chunk
 * bounds and "stays finished" are not asserted here. */
static uint64_t hash_warp(const gm_kernel *k, uint32_t cta, uint32_t warp, int chunk)
{
    gm_inst buf[16];
    gm_warp_gen g;
    uint64_t h = GM_FNV1A_INIT;
    int n, exits = 0;
    assert_true(chunk <= 16);
    gm_warp_gen_start(&g, cta, warp);
    while ((n = k->gen(k, &g, buf, chunk)) > 0)
        for (int i = 0; i < n; i++) {
            assert_int_equal(exits, 0);
            exits += buf[i].op == GM_OP_EXIT;
            h = hash_inst(h, &buf[i]);
        }
    assert_int_equal(exits, 1);
    return h;
}

static uint64_t stream_hash(const gm_workload *w)
{
    return hash_workload_with(w, hash_warp, 16);
}

static void make_temp_dir(char *buf, size_t cap)
{
    const char *t = getenv("TMPDIR");
    snprintf(buf, cap, "%s/gm-trace-XXXXXX", t && *t ? t : "/tmp");
    assert_non_null(mkdtemp(buf));
}

static void remove_dir(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char p[1024];
    if (!d)
        return;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        unlink(p);
    }
    closedir(d);
    rmdir(dir);
}

#define HDR(ver, grid, block)                                                          \
    "-kernel name = t\n-kernel id = 1\n-grid dim = " grid "\n-block dim = " block    \
    "\n-accelsim tracer version = " ver "\n\n#traces format = [line_num] PC mask\n\n"

/* ---------------------------------------------------------------- opcodes */

static void test_sass_classify(void **state)
{
    static const struct {
        const char *opcode;
        gm_sass_kind kind;
        gm_op op;
    } cases[] = {
        {"LDG.E.128.CONSTANT.SYS", GM_SASS_FIXED, GM_OP_GLOBAL_LD},
        {"LDG.E.CG", GM_SASS_FIXED, GM_OP_GLOBAL_LD},
        {"STG.E.64", GM_SASS_FIXED, GM_OP_GLOBAL_ST},
        {"ATOMG.E.ADD.F32.FTZ.RN.STRONG.GPU", GM_SASS_FIXED, GM_OP_ATOMIC},
        {"RED.E.ADD.STRONG.GPU", GM_SASS_FIXED, GM_OP_ATOMIC},
        {"ATOM.E.ADD", GM_SASS_GENERIC_ATOM, GM_OP_ATOMIC},
        {"LD.E.64", GM_SASS_GENERIC_LD, GM_OP_GLOBAL_LD},
        {"ST.E", GM_SASS_GENERIC_ST, GM_OP_GLOBAL_ST},
        {"LDGSTS.E.BYPASS.128", GM_SASS_LDGSTS, GM_OP_GLOBAL_LD},
        {"LDS.U.128", GM_SASS_FIXED, GM_OP_SHARED_LD},
        {"LDSM.16.M88.4", GM_SASS_FIXED, GM_OP_SHARED_LD},
        {"STS.64", GM_SASS_FIXED, GM_OP_SHARED_ST},
        {"ATOMS.ADD", GM_SASS_FIXED, GM_OP_SHARED_ST},
        {"LDL.LU", GM_SASS_FIXED, GM_OP_LOCAL_LD},
        {"STL.128", GM_SASS_FIXED, GM_OP_LOCAL_ST},
        {"TEX.B.LL", GM_SASS_FIXED, GM_OP_TEX_LD},
        {"TLD.B.LZ", GM_SASS_FIXED, GM_OP_TEX_LD},
        {"TLDS.LZ", GM_SASS_FIXED, GM_OP_TEX_LD},
        {"TLD4.R", GM_SASS_FIXED, GM_OP_TEX_LD},
        {"LDC.64", GM_SASS_FIXED, GM_OP_CONST_LD},
        {"ULDC.64", GM_SASS_FIXED, GM_OP_CONST_LD},
        {"BAR.SYNC", GM_SASS_FIXED, GM_OP_BARRIER},
        {"BAR.SYNC.DEFER_BLOCKING", GM_SASS_FIXED, GM_OP_BARRIER},
        {"BAR.RED.POPC", GM_SASS_FIXED, GM_OP_BARRIER},
        {"BAR.ARV", GM_SASS_FIXED, GM_OP_ALU},
        {"EXIT", GM_SASS_FIXED, GM_OP_EXIT},
        {"MUFU.RSQ", GM_SASS_FIXED, GM_OP_SFU},
        {"DADD", GM_SASS_FIXED, GM_OP_DP},
        {"DMUL", GM_SASS_FIXED, GM_OP_DP},
        {"DFMA.RM", GM_SASS_FIXED, GM_OP_DP},
        {"BRA.U", GM_SASS_FIXED, GM_OP_BRANCH},
        {"BRX", GM_SASS_FIXED, GM_OP_BRANCH},
        {"JMP", GM_SASS_FIXED, GM_OP_BRANCH},
        {"CALL.REL.NOINC", GM_SASS_FIXED, GM_OP_BRANCH},
        {"RET.REL.NODEC", GM_SASS_FIXED, GM_OP_BRANCH},
        {"SSY", GM_SASS_FIXED, GM_OP_BRANCH},
        {"SYNC", GM_SASS_FIXED, GM_OP_BRANCH},
        {"BSSY", GM_SASS_FIXED, GM_OP_BRANCH},
        {"BSYNC", GM_SASS_FIXED, GM_OP_BRANCH},
        {"FFMA", GM_SASS_FIXED, GM_OP_ALU},
        {"XMAD.PSL.CBCC", GM_SASS_FIXED, GM_OP_ALU},
        {"MEMBAR.CTA", GM_SASS_FIXED, GM_OP_ALU},
        {"LDGDEPBAR", GM_SASS_FIXED, GM_OP_ALU},   /* not LDG: whole mnemonics */
        {"EXITX", GM_SASS_FIXED, GM_OP_ALU},
        {"REDUX.SUM", GM_SASS_FIXED, GM_OP_ALU},
        {"", GM_SASS_FIXED, GM_OP_ALU},
    };
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        gm_sass_class c = gm_sass_classify(cases[i].opcode, strlen(cases[i].opcode));
        if (c.kind != cases[i].kind || c.op != cases[i].op)
            fail_msg("%s: kind %d op %d, expected %d %d", cases[i].opcode, c.kind, c.op,
                     cases[i].kind, cases[i].op);
    }
}

static void test_sass_resolve_windows(void **state)
{
    gm_sass_windows win = {.shmem_base = 0x7f0000000000ull, .local_base = 0x7e0000000000ull};
    gm_sass_windows none = {0, 0};
    (void)state;
    assert_int_equal(gm_sass_resolve(GM_SASS_GENERIC_LD, &win, 0x7f0000000000ull),
                     GM_OP_SHARED_LD);
    assert_int_equal(gm_sass_resolve(GM_SASS_GENERIC_LD, &win, 0x7f0000ffffffull),
                     GM_OP_SHARED_LD);
    assert_int_equal(gm_sass_resolve(GM_SASS_GENERIC_LD, &win, 0x7f0001000000ull),
                     GM_OP_GLOBAL_LD);   /* 16 MiB past the base */
    assert_int_equal(gm_sass_resolve(GM_SASS_GENERIC_ST, &win, 0x7e0000000040ull),
                     GM_OP_LOCAL_ST);
    assert_int_equal(gm_sass_resolve(GM_SASS_GENERIC_LD, &win, 0x7e0000000040ull),
                     GM_OP_LOCAL_LD);
    assert_int_equal(gm_sass_resolve(GM_SASS_GENERIC_ATOM, &win, 0x7f0000000010ull),
                     GM_OP_SHARED_ST);
    assert_int_equal(gm_sass_resolve(GM_SASS_GENERIC_ATOM, &win, 0x10000ull), GM_OP_ATOMIC);
    assert_int_equal(gm_sass_resolve(GM_SASS_LDGSTS, &win, 0x7f0000000100ull), GM_OP_SHARED_ST);
    assert_int_equal(gm_sass_resolve(GM_SASS_LDGSTS, &win, 0x1000ull), GM_OP_GLOBAL_LD);
    /* A base of 0 is "not given": low addresses stay global. */
    assert_int_equal(gm_sass_resolve(GM_SASS_GENERIC_LD, &none, 0x100ull), GM_OP_GLOBAL_LD);
    assert_int_equal(gm_sass_resolve(GM_SASS_GENERIC_ST, &none, 0x100ull), GM_OP_GLOBAL_ST);
}

/* Accel-Sim's get_datawidth_from_opcode on opcodes from real traces. */
static void test_opcode_width_rule(void **state)
{
    (void)state;
    assert_int_equal(gm_sass_opcode_width("LDG.E.128.CONSTANT.SYS", 22), 16);
    assert_int_equal(gm_sass_opcode_width("LDS.U.128", 9), 16);
    assert_int_equal(gm_sass_opcode_width("LDS.U.32", 8), 4);
    assert_int_equal(gm_sass_opcode_width("LDG.E.CG", 8), 4);
    assert_int_equal(gm_sass_opcode_width("LDG.E.U8", 8), 1);
    assert_int_equal(gm_sass_opcode_width("STG.E.U16", 9), 2);
    assert_int_equal(gm_sass_opcode_width("LDG.E.64.SYS", 12), 8);
    assert_int_equal(gm_sass_opcode_width("STG.E", 5), 4);
}

/* Every export mnemonic classifies back to its op, and its size
 * modifier gives the width by Accel-Sim's rule where one exists. */
static void test_sass_export_names(void **state)
{
    static const unsigned widths[] = {1, 2, 3, 4, 8, 12, 16, 32, 128};
    char buf[64];
    (void)state;
    for (int op = 0; op < GM_OP_COUNT; op++)
        for (size_t i = 0; i < sizeof widths / sizeof *widths; i++) {
            unsigned wdt = widths[i];
            assert_int_equal(gm_sass_export_opcode((gm_op)op, wdt, buf, sizeof buf), 0);
            gm_sass_class c = gm_sass_classify(buf, strlen(buf));
            if (c.kind != GM_SASS_FIXED || (int)c.op != op)
                fail_msg("op %d width %u exported as %s", op, wdt, buf);
            if (gm_op_is_mem(op) && (wdt == 1 || wdt == 2 || wdt == 4 || wdt == 8 ||
                                     wdt == 16 || wdt == 32))
                assert_int_equal(gm_sass_opcode_width(buf, strlen(buf)), wdt);
        }
    assert_int_equal(gm_sass_export_opcode(GM_OP_COUNT, 4, buf, sizeof buf), -1);
    assert_int_equal(gm_sass_export_opcode(GM_OP_ATOMIC, 8, buf, 4), -1);
}

/* ---------------------------------------------------------------- formats */

/* One warp of 32 threads loads the same addresses written three ways:
 * lane l at 0x1000 + 8*l (lanes 0..31). */
static void test_address_encodings(void **state)
{
    char list[2048];
    int n = snprintf(list, sizeof list, "0000 ffffffff 1 R1 LDG.E.64 1 R2 8 0");
    for (int l = 0; l < 32; l++)
        n += snprintf(list + n, sizeof list - (size_t)n, " 0x%x", 0x1000 + 8 * l);
    char delta[512];
    n = snprintf(delta, sizeof delta, "0000 ffffffff 1 R1 LDG.E.64 1 R2 8 2 0x1000");
    for (int l = 1; l < 32; l++)
        n += snprintf(delta + n, sizeof delta - (size_t)n, " 8");
    const char *stride = "0000 ffffffff 1 R1 LDG.E.64 1 R2 8 1 0x1000 8";
    const char *lines[3] = {list, delta, stride};
    (void)state;
    for (int i = 0; i < 3; i++) {
        char text[4096];
        gm_workload w;
        gm_inst in[32];
        snprintf(text, sizeof text,
                 HDR("4", "(1,1,1)", "(32,1,1)") "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\n"
                 "insts = 2\n%s\n0010 ffffffff 0 EXIT 0 0\n#END_TB\n", lines[i]);
        build_text(&w, text);
        assert_int_equal(warp_insts(&w, 0, 0, 0, in, 32), 2);
        assert_int_equal(in[0].op, GM_OP_GLOBAL_LD);
        assert_int_equal(in[0].width, 8);
        assert_int_equal(in[0].mask, 0xffffffffu);
        for (int l = 0; l < 32; l++)
            assert_int_equal(in[0].addr[l], 0x1000 + 8 * l);
        assert_int_equal(in[1].op, GM_OP_EXIT);
        gm_workload_free(&w);
    }
}

/* Lanes 4..7 only; negative stride; deltas relative to the previous
 * active lane, not to the base; inactive lanes get address 0. */
static void test_address_partial_masks(void **state)
{
    gm_workload w;
    gm_inst in[8];
    (void)state;
    build_text(&w, HDR("4", "(1,1,1)", "(32,1,1)")
               "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 4\n"
               "0000 000000f0 1 R1 LDG.E 1 R2 4 1 0x2000 -4\n"
               "0010 00000f0f 1 R1 LDG.E 1 R2 4 2 0x3000 4 252 -128 4 4 4 4\n"
               "0020 00000000 1 R1 LDG.E 1 R2 4 1 0x0 0\n"
               "0030 ffffffff 0 EXIT 0 0\n");
    assert_int_equal(warp_insts(&w, 0, 0, 0, in, 8), 4);
    for (int l = 0; l < 32; l++)
        assert_int_equal(in[0].addr[l], l >= 4 && l < 8 ? 0x2000u - 4u * (unsigned)(l - 4) : 0);
    /* lanes 0-3 and 8-11, each delta from the lane before */
    static const uint64_t want[12] = {0x3000, 0x3004, 0x3100, 0x3080, 0, 0, 0, 0,
                                      0x3084, 0x3088, 0x308c, 0x3090};
    for (int l = 0; l < 12; l++)
        assert_int_equal(in[1].addr[l], want[l]);
    for (int l = 12; l < 32; l++)
        assert_int_equal(in[1].addr[l], 0);
    assert_int_equal(in[2].op, GM_OP_GLOBAL_LD);
    assert_int_equal(in[2].mask, 0);
    gm_workload_free(&w);
}

static void test_versions_and_layouts(void **state)
{
    gm_workload w;
    gm_inst in[8];
    (void)state;
    /* Before version 3 each line starts with its block and warp. */
    build_text(&w, HDR("2", "(2,1,1)", "(32,1,1)")
               "#BEGIN_TB\nthread block = 1,0,0\nwarp = 0\ninsts = 2\n"
               "1 0 0 0 0000 ffffffff 1 R7 LDG.E 1 R2 4 1 0x40 4\n"
               "1 0 0 0 0010 ffffffff 0 EXIT 0 0\n#END_TB\n"
               "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n"
               "0 0 0 0 0000 ffffffff 0 EXIT 0 0\n#END_TB\n");
    assert_int_equal(warp_insts(&w, 0, 1, 0, in, 8), 2);
    assert_int_equal(in[0].dst, 7);
    assert_int_equal(in[0].addr[31], 0x40 + 124);
    assert_int_equal(warp_insts(&w, 0, 0, 0, in, 8), 1);
    gm_workload_free(&w);
    /* No version line: Accel-Sim reads it as version 0, with prefixes. */
    build_text(&w, "-grid dim = (1,1,1)\n-block dim = (32,1,1)\n#\n#BEGIN_TB\n"
                   "thread block = 0,0,0\nwarp = 0\ninsts = 1\n0 0 0 0 0000 ffffffff 0 EXIT 0 0\n");
    assert_int_equal(warp_insts(&w, 0, 0, 0, in, 8), 1);
    gm_workload_free(&w);
    /* Line numbers (lineinfo) and the version 5 immediate; no #END_TB;
     * Windows line ends. */
    build_text(&w, "-grid dim = (1,1,1)\r\n-block dim = (32,1,1)\r\n"
                   "-accelsim tracer version = 5\r\n-enable lineinfo = 1\r\n#traces\r\n"
                   "#BEGIN_TB\r\nthread block = 0,0,0\r\nwarp = 0\r\ninsts = 3\r\n"
                   "17 0000 ffffffff 1 R3 STG.E 2 R4 R5 4 1 0x80 4 -12\r\n"
                   "18 0010 0000ffff 1 R6 IADD3 3 R1 R2 R3 0 4096\r\n"
                   "19 0020 ffffffff 0 EXIT 0 0 0\r\n");
    assert_int_equal(warp_insts(&w, 0, 0, 0, in, 8), 3);
    assert_int_equal(in[0].op, GM_OP_GLOBAL_ST);
    assert_int_equal(in[0].addr[1], 0x84);
    assert_int_equal(in[1].op, GM_OP_ALU);
    assert_int_equal(in[1].mask, 0xffffu);
    assert_int_equal(in[1].src[2], 3);
    gm_workload_free(&w);
    /* A prefix that names another block or warp is an error. */
    expect_error(HDR("1", "(2,1,1)", "(32,1,1)")
                 "#BEGIN_TB\nthread block = 1,0,0\nwarp = 0\ninsts = 1\n"
                 "0 0 0 0 0000 ffffffff 0 EXIT 0 0\n",
                 "t.traceg:13:", "inside thread block 1,0,0 warp 0");
    expect_error(HDR("3", "(1,1,1)", "(32,1,1)")
                 "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n"
                 "0 0 0 0 0000 ffffffff 0 EXIT 0 0\n",
                 "t.traceg:13:", "bad opcode");
    expect_error(HDR("6", "(1,1,1)", "(32,1,1)"), "t.traceg:5:", "unsupported tracer version");
}

static void test_registers(void **state)
{
    gm_workload w;
    gm_inst in[8];
    (void)state;
    build_text(&w, HDR("4", "(1,1,1)", "(32,1,1)")
               "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 6\n"
               "0000 ffffffff 1 R255 IADD3 3 R255 R9 R255 0\n"
               "0010 ffffffff 1 R4 IADD3 4 R1 RZ R2 R3 0\n"
               "0020 ffffffff 1 R4 IADD3 4 R1 R5 R2 R3 0\n"
               "0030 ffffffff 2 R8 R9 HMMA 2 UR4 P1 0\n"
               "0040 ffffffff 0 BRA 1 !PT 0\n"
               "0050 ffffffff 0 EXIT 0 0\n");
    assert_int_equal(warp_insts(&w, 0, 0, 0, in, 8), 6);
    /* RZ keeps its slot empty */
    assert_int_equal(in[0].dst, NONE);
    assert_int_equal(in[0].src[0], NONE);
    assert_int_equal(in[0].src[1], 9);
    assert_int_equal(in[0].src[2], NONE);
    /* a fourth source takes the empty slot */
    assert_int_equal(in[1].src[0], 1);
    assert_int_equal(in[1].src[1], 3);
    assert_int_equal(in[1].src[2], 2);
    /* ... and is dropped when there is none */
    assert_int_equal(in[2].src[0], 1);
    assert_int_equal(in[2].src[1], 5);
    assert_int_equal(in[2].src[2], 2);
    /* the first destination; uniform registers and predicates are not
     * vector registers */
    assert_int_equal(in[3].dst, 8);
    assert_int_equal(in[3].src[0], NONE);
    assert_int_equal(in[3].src[1], NONE);
    assert_int_equal(in[4].src[0], NONE);
    gm_workload_free(&w);
    expect_error(HDR("4", "(1,1,1)", "(32,1,1)")
                 "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n"
                 "0000 ffffffff 1 X4 EXIT 0 0\n",
                 "t.traceg:13:", "bad register operand 'X4'");
    expect_error(HDR("4", "(1,1,1)", "(32,1,1)")
                 "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n"
                 "0000 ffffffff 0 EXIT 1 R256 0\n",
                 "t.traceg:13:", "bad register operand 'R256'");
}

/* Only the last EXIT ends a warp; a warp without one gets one with its
 * full mask; "insts = 0" is just that EXIT. */
static void test_exit_rules(void **state)
{
    gm_workload w;
    gm_inst in[8];
    (void)state;
    build_text(&w, HDR("4", "(1,1,1)", "(40,1,1)")
               "#BEGIN_TB\nthread block = 0,0,0\n"
               "warp = 1\ninsts = 3\n"
               "0000 000000ff 0 EXIT 0 0\n"
               "0010 00000000 0 EXIT 0 0\n"
               "0020 000000f0 0 NOP 0 0\n"
               "warp = 0\ninsts = 0\n");
    assert_int_equal(warp_insts(&w, 0, 0, 1, in, 8), 4);
    assert_int_equal(in[0].op, GM_OP_BRANCH);
    assert_int_equal(in[1].op, GM_OP_BRANCH);
    assert_int_equal(in[2].op, GM_OP_ALU);
    assert_int_equal(in[3].op, GM_OP_EXIT);
    assert_int_equal(in[3].mask, 0xffu);   /* 40 threads: 8 in warp 1 */
    assert_int_equal(warp_insts(&w, 0, 0, 0, in, 8), 1);
    assert_int_equal(in[0].op, GM_OP_EXIT);
    assert_int_equal(in[0].mask, 0xffffffffu);
    gm_workload_counts c;
    gm_error err = {{0}};
    assert_int_equal(gm_workload_count(&w, &c, &err), 0);
    assert_int_equal(c.insts, 5);
    gm_workload_free(&w);
    expect_error(HDR("4", "(1,1,1)", "(40,1,1)")
                 "#BEGIN_TB\nthread block = 0,0,0\nwarp = 1\ninsts = 1\n"
                 "0000 000001ff 0 EXIT 0 0\n",
                 "t.traceg:13:", "lanes beyond the block's threads");
}

static void test_memory_classes(void **state)
{
    gm_workload w;
    gm_inst in[16];
    (void)state;
    build_text(&w,
               "-grid dim = (1,1,1)\n-block dim = (32,1,1)\n-accelsim tracer version = 5\n"
               "-shmem base_addr = 0x00007f0000000000\n-local mem base_addr = 0x00007e0000000000\n"
               "#\n#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 13\n"
               "0000 ffffffff 1 R1 TEX.B.LL 2 R2 R3 0 0\n"              /* no address: ALU */
               "0010 ffffffff 1 R1 TEX 2 R2 R3 16 1 0x9000 16 0\n"      /* texture traffic */
               "0020 ffffffff 1 R1 LDC 1 R2 0 0\n"
               "0030 ffffffff 1 R1 LDC.64 1 R2 8 1 0xa000 0 0\n"
               "0040 ffffffff 1 R1 LD.E 1 R2 4 1 0x7f0000000100 4 0\n"
               "0050 ffffffff 0 ST.E 2 R2 R1 4 1 0x7e0000000000 4 0\n"
               "0060 ffffffff 1 R1 LD.E 1 R2 4 1 0x5000 4 0\n"
               "0070 ffffffff 0 LDGSTS.E 2 R2 R1 4 1 0x7f0000000200 4 0\n"
               "0080 ffffffff 1 R1 ATOM.E.ADD 2 R2 R1 4 1 0x6000 4 0\n"
               "0090 ffffffff 0 BAR.SYNC 0 0 0\n"
               "00a0 ffffffff 0 BAR.ARV 0 0 0\n"
               "00b0 ffffffff 1 R1 LDS.U.128 1 R2 0 0\n"
               "00c0 ffffffff 0 EXIT 0 0 0\n");
    assert_int_equal(warp_insts(&w, 0, 0, 0, in, 16), 13);
    static const gm_op want[13] = {GM_OP_ALU,       GM_OP_TEX_LD,    GM_OP_ALU,
                                   GM_OP_CONST_LD,  GM_OP_SHARED_LD, GM_OP_LOCAL_ST,
                                   GM_OP_GLOBAL_LD, GM_OP_SHARED_ST, GM_OP_ATOMIC,
                                   GM_OP_BARRIER,   GM_OP_ALU,       GM_OP_SHARED_LD,
                                   GM_OP_EXIT};
    for (int i = 0; i < 13; i++)
        if (in[i].op != want[i])
            fail_msg("instruction %d: op %d, expected %d", i, in[i].op, want[i]);
    assert_int_equal(in[1].width, 16);
    assert_int_equal(in[3].addr[31], 0xa000);   /* stride 0: a broadcast */
    assert_int_equal(in[0].width, 0);
    assert_int_equal(in[11].width, 0);          /* shared without addresses */
    gm_workload_free(&w);
    expect_error(HDR("4", "(1,1,1)", "(32,1,1)")
                 "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n"
                 "0000 ffffffff 1 R1 LDG.E 1 R2 256 1 0x100 4\n",
                 "t.traceg:13:", "mem_width 256");
}

/* The rule: a global load is read-only when no store, atomic or local
 * store of the kernel touches a byte of a 128 B line the load touches. */
static void test_read_only_rule(void **state)
{
    gm_workload w;
    gm_inst in[16];
    (void)state;
    build_text(&w, HDR("4", "(2,1,1)", "(32,1,1)")
               "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 7\n"
               "0000 ffffffff 1 R1 LDG.E 1 R2 4 1 0x1000 4\n"     /* line 0x1000: stored by CTA 1 */
               "0010 ffffffff 1 R1 LDG.E 1 R2 4 1 0x2000 4\n"     /* never stored */
               "0020 00000001 1 R1 LDG.E 1 R2 4 1 0x30fe 0\n"     /* straddles into 0x3100 */
               "0030 00000001 1 R1 LDG.E 1 R2 4 1 0x4000 0\n"     /* atomic below */
               "0040 00000001 1 R1 LDG.E 1 R2 4 1 0x5080 0\n"     /* local store below */
               "0050 00000000 1 R1 LDG.E 1 R2 4 1 0x0 0\n"        /* no lane: nothing stored */
               "0060 ffffffff 0 EXIT 0 0\n"
               "#END_TB\n#BEGIN_TB\nthread block = 1,0,0\nwarp = 0\ninsts = 5\n"
               "0000 00000001 0 STG.E.U8 2 R1 R2 1 1 0x107f 0\n"  /* last byte of line 0x1000 */
               "0010 00000001 0 STG.E 2 R1 R2 4 1 0x3100 0\n"
               "0020 00000001 0 RED.E.ADD 2 R1 R2 4 1 0x4040 0\n"
               "0030 00000001 0 STL 2 R1 R2 4 1 0x50fc 0\n"
               "0040 ffffffff 0 EXIT 0 0\n");
    assert_int_equal(warp_insts(&w, 0, 0, 0, in, 16), 7);
    assert_int_equal(in[0].flags, 0);
    assert_int_equal(in[1].flags, GM_INST_READ_ONLY);
    assert_int_equal(in[2].flags, 0);
    assert_int_equal(in[3].flags, 0);
    assert_int_equal(in[4].flags, 0);
    assert_int_equal(in[5].flags, GM_INST_READ_ONLY);
    assert_int_equal(in[6].flags, 0);
    assert_int_equal(warp_insts(&w, 0, 1, 0, in, 16), 5);
    for (int i = 0; i < 5; i++)
        assert_int_equal(in[i].flags, 0);   /* only loads carry it */
    gm_workload_free(&w);
}

/* ---------------------------------------------------------------- errors */

static void test_malformed_input(void **state)
{
#define TB0 "#BEGIN_TB\nthread block = 0,0,0\n"
#define H4 HDR("4", "(1,1,1)", "(32,1,1)")
    static const struct {
        const char *text, *where, *reason;
    } cases[] = {
        {"hello\n", "t.traceg:1:", "expected a '-key = value' header line"},
        {"-grid dim = (1,1,1)\n", "t.traceg:", "the header never ends"},
        {"-block dim = (32,1,1)\n#\n", "t.traceg:2:", "no '-grid dim' line"},
        {"-grid dim = (1,1,1)\n#\n", "t.traceg:2:", "no '-block dim' line"},
        {"-grid dim = (1,0,1)\n", "t.traceg:1:", "bad grid dim"},
        {"-grid dim = 1,1,1\n", "t.traceg:1:", "bad grid dim"},
        {"-block dim = (1025,1,1)\n-grid dim = (1,1,1)\n#\n", "t.traceg:3:", "at most 1024"},
        {"-grid dim = (65536,65536,1)\n-block dim = (1,1,1)\n#\n", "t.traceg:3:",
         "more than 2147483647 thread blocks"},
        {"-grid dim\n", "t.traceg:1:", "without '='"},
        {"-enable lineinfo = 2\n", "t.traceg:1:", "bad enable lineinfo"},
        {"-warp size = 64\n", "t.traceg:1:", "warp size must be 32"},
        {"-shmem base_addr = zz\n", "t.traceg:1:", "bad shmem base_addr"},
        {H4, "t.traceg:", "1 warps are missing (the first is warp 0 of thread block 0,0,0)"},
        {H4 "thread block = 0,0,0\n", "t.traceg:9:", "outside #BEGIN_TB"},
        {H4 TB0 "thread block = 0,0,0\n", "t.traceg:11:", "second 'thread block'"},
        {H4 "#BEGIN_TB\nthread block = 1,0,0\n", "t.traceg:10:", "outside the grid"},
        {H4 "#BEGIN_TB\nthread block = 0,0\n", "t.traceg:10:", "expected 'thread block = x,y,z'"},
        {H4 "#BEGIN_TB\nwarp = 0\n", "t.traceg:10:", "'warp' line outside a thread block"},
        {H4 TB0 "warp = 1\n", "t.traceg:11:", "the block has 1 warps"},
        {H4 TB0 "warp = x\n", "t.traceg:11:", "expected 'warp = <number>'"},
        {H4 TB0 "insts = 1\n", "t.traceg:11:", "'insts' line without a 'warp' line"},
        {H4 TB0 "warp = 0\n0000 ffffffff 0 EXIT 0 0\n", "t.traceg:12:", "expected 'insts"},
        {H4 TB0 "warp = 0\n#END_TB\n", "t.traceg:12:", "expected 'insts"},
        {H4 TB0 "0000 ffffffff 0 EXIT 0 0\n", "t.traceg:11:", "outside a warp"},
        {H4 TB0 "warp = 0\ninsts = 2\n0000 ffffffff 0 EXIT 0 0\n", "t.traceg:13:",
         "1 instruction line missing"},
        {H4 TB0 "warp = 0\ninsts = 2\n0000 ffffffff 0 NOP 0 0\n#END_TB\n", "t.traceg:14:",
         "1 instruction line missing"},
        {H4 TB0 "warp = 0\ninsts = 1\n0000 ffffffff 0 EXIT 0 0\n0010 ffffffff 0 EXIT 0 0\n",
         "t.traceg:14:", "more instruction lines than 'insts ='"},
        {H4 TB0 "warp = 0\ninsts = 0\n" TB0 "warp = 0\ninsts = 0\n", "t.traceg:15:",
         "warp 0 of thread block 0,0,0 appears a second time"},
        {H4 "#END_TB\n", "t.traceg:9:", "#END_TB without #BEGIN_TB"},
        {H4 "#BEGIN_TB\n#END_TB\n", "t.traceg:10:", "without a 'thread block = x,y,z'"},
        {H4 TB0 "warp = 0\ninsts = 1\n0000\n", "t.traceg:13:", "before the lane mask"},
        {H4 TB0 "warp = 0\ninsts = 1\nzz ffffffff 0 EXIT 0 0\n", "t.traceg:13:", "bad PC 'zz'"},
        {H4 TB0 "warp = 0\ninsts = 1\n0000 1ffffffff 0 EXIT 0 0\n", "t.traceg:13:",
         "more than 32 lanes"},
        {H4 TB0 "warp = 0\ninsts = 1\n0000 ffffffff 5 R1 R2 R3 R4 R5 EXIT 0 0\n",
         "t.traceg:13:", "5 destination registers"},
        {H4 TB0 "warp = 0\ninsts = 1\n0000 ffffffff 0 EXIT 9 R1 R1 R1 R1 R1 R1 R1 R1 R1 0\n",
         "t.traceg:13:", "9 source registers"},
        {H4 TB0 "warp = 0\ninsts = 1\n0000 ffffffff 0 EXIT 0\n", "t.traceg:13:",
         "before the mem_width"},
        {H4 TB0 "warp = 0\ninsts = 1\n0000 ffffffff 1 R1 LDG.E 0 4 3 0x0\n", "t.traceg:13:",
         "unknown address format 3"},
        {H4 TB0 "warp = 0\ninsts = 1\n0000 00000003 1 R1 LDG.E 0 4 0 0x10\n", "t.traceg:13:",
         "before the address"},
        {H4 TB0 "warp = 0\ninsts = 1\n0000 00000003 1 R1 LDG.E 0 4 0 0x10 0xg\n",
         "t.traceg:13:", "bad address '0xg'"},
        {H4 TB0 "warp = 0\ninsts = 1\n0000 00000003 1 R1 LDG.E 0 4 0 0x10 0x11223344556677889\n",
         "t.traceg:13:", "bad address"},
        {H4 TB0 "warp = 0\ninsts = 1\n0000 00000005 1 R1 LDG.E 0 4 1 0x10 4\n", "t.traceg:13:",
         "not one run of consecutive lanes"},
        {H4 TB0 "warp = 0\ninsts = 1\n0000 00000003 1 R1 LDG.E 0 4 1 0x10\n", "t.traceg:13:",
         "before the stride"},
        {H4 TB0 "warp = 0\ninsts = 1\n0000 00000003 1 R1 LDG.E 0 4 2 0x10\n", "t.traceg:13:",
         "before the address delta"},
        {H4 TB0 "warp = 0\ninsts = 1\n0000 00000003 1 R1 LDG.E 0 4 2 0x10 99999999999999999999\n",
         "t.traceg:13:", "bad address delta"},
        {H4 TB0 "warp = 0\ninsts = 1\n0000 ffffffff 0 EXIT 0 0 7 8\n", "t.traceg:13:",
         "unexpected '8' at the end"},
        {H4 TB0 "warp = 0\ninsts = 1\n0000 ffffffff 0 EXIT 0 0 x\n", "t.traceg:13:",
         "unexpected 'x' after the addresses"},
        {H4 TB0 "warp = 0\ninsts = 1\n0000 ffffffff 0 12 0 0\n", "t.traceg:13:",
         "bad opcode '12'"},
    };
#undef TB0
#undef H4
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        expect_error(cases[i].text, cases[i].where, cases[i].reason);
}

static void test_long_line_and_binary(void **state)
{
    size_t n = (1u << 20) + 100;
    char *big = malloc(n + 1);
    (void)state;
    assert_non_null(big);
    memset(big, 'a', n);
    big[0] = '-';
    big[n] = '\0';
    expect_error(big, "t.traceg:1:", "longer than");
    free(big);
    static const char bin[] = {'-', 'g', 0, '=', '\n', 0, 0, '\n'};
    gm_error err = {{0}};
    gm_workload w;
    assert_int_equal(gm_trace_workload_from_buffer(&w, bin, sizeof bin, "b", &err), -1);
    assert_true(err.msg[0] != '\0');
    assert_int_equal(gm_trace_workload_from_buffer(&w, NULL, 0, "empty", &err), -1);
    assert_non_null(strstr(err.msg, "empty"));
}

/* Every prefix of a real trace and many single-byte corruptions of it
 * return 0 or -1 with a message (and never crash under the ASan build). */
static void test_truncated_and_corrupted(void **state)
{
    char path[1024];
    size_t len;
    (void)state;
    fixture_path(path, sizeof path, "l2-microtests/merge/kernel-sector-merge.traceg");
    char *text = read_file(path, &len);
    size_t ok = 0, first_ok = len + 1;
    for (size_t cut = 0; cut <= len; cut++) {
        char *copy = malloc(cut ? cut : 1);   /* exact size: ASan sees overreads */
        assert_non_null(copy);
        memcpy(copy, text, cut);
        assert_int_equal(gm_fuzz_trace_one((const uint8_t *)copy, cut), 0);
        gm_error err = {{0}};
        gm_workload w;
        if (gm_trace_workload_from_buffer(&w, copy, cut, "cut", &err) == 0) {
            ok++;
            if (cut < first_ok)
                first_ok = cut;
            gm_workload_free(&w);
        } else {
            assert_true(err.msg[0] != '\0');
        }
        free(copy);
    }
    /* A cut keeps the trace whole exactly when the last instruction line
     * is complete: the rest are blank lines and the #END_TB. */
    static const char tail[] = "0010 ffffffff 0 EXIT 0 0\n\n#END_TB\n";
    assert_true(len > sizeof tail && memcmp(text + len - (sizeof tail - 1), tail,
                                            sizeof tail - 1) == 0);
    size_t whole_from = len - strlen("\n\n#END_TB\n");
    assert_int_equal(ok, len - whole_from + 1);
    assert_int_equal(first_ok, whole_from);
    uint64_t x = 12345;
    for (int i = 0; i < 4000; i++) {
        char *copy = malloc(len);
        assert_non_null(copy);
        memcpy(copy, text, len);
        for (int k = 0; k < 1 + i % 3; k++) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            copy[(x >> 33) % len] = (char)(x >> 17);
        }
        assert_int_equal(gm_fuzz_trace_one((const uint8_t *)copy, len), 0);
        free(copy);
    }
    free(text);
}

/* ---------------------------------------------------------------- xz */

static uint8_t *xz_encode(const char *text, size_t len, size_t *out_len)
{
    size_t cap = len + 1024, pos = 0;
    uint8_t *out = malloc(cap);
    assert_non_null(out);
    assert_int_equal(lzma_easy_buffer_encode(1, LZMA_CHECK_CRC64, NULL, (const uint8_t *)text,
                                             len, out, &pos, cap),
                     LZMA_OK);
    *out_len = pos;
    return out;
}

static void test_xz_input(void **state)
{
    char path[1024], dir[256], p[512];
    size_t len, zlen;
    gm_error err = {{0}};
    gm_workload a, b, c;
    (void)state;
    fixture_path(path, sizeof path, "vectoradd/kernel-1.traceg");
    char *text = read_file(path, &len);
    uint8_t *z = xz_encode(text, len, &zlen);
    assert_int_equal(gm_trace_workload_from_buffer(&a, text, len, "plain", &err), 0);
    if (gm_trace_workload_from_buffer(&b, z, zlen, "xz", &err) != 0)
        fail_msg("%s", err.msg);
    assert_true(stream_hash(&a) == stream_hash(&b));
    gm_workload_free(&b);
    /* Through files: the list names a .traceg.xz (xz is told by its
     * magic bytes, not by the name). */
    make_temp_dir(dir, sizeof dir);
    snprintf(p, sizeof p, "%s/kernel-1.traceg.xz", dir);
    write_file(p, z, zlen);
    snprintf(p, sizeof p, "%s/kernelslist.g", dir);
    const char *list = "MemcpyHtoD,0x1000,4\nkernel-1.traceg.xz\n";
    write_file(p, list, strlen(list));
    if (gm_trace_workload_build(&c, p, &err) != 0)
        fail_msg("%s", err.msg);
    assert_true(stream_hash(&a) == stream_hash(&c));
    gm_workload_free(&c);
    /* Truncated or damaged xz data is an error that says so. */
    for (size_t cut = 0; cut < zlen; cut += 7) {
        memset(&err, 0, sizeof err);
        if (gm_trace_workload_from_buffer(&b, z, cut, "xzcut", &err) == 0)
            fail_msg("a cut of %zu bytes of %zu parsed", cut, zlen);
        assert_true(err.msg[0] != '\0');
    }
    memset(&err, 0, sizeof err);
    assert_int_equal(gm_trace_workload_from_buffer(&b, z, zlen - 1, "xz1", &err), -1);
    assert_non_null(strstr(err.msg, "xz"));
    z[zlen / 2] ^= 0x55;
    memset(&err, 0, sizeof err);
    assert_int_equal(gm_trace_workload_from_buffer(&b, z, zlen, "xzbad", &err), -1);
    assert_non_null(strstr(err.msg, "xzbad"));
    gm_workload_free(&a);
    remove_dir(dir);
    free(text);
    free(z);
}

/* ---------------------------------------------------------------- kernelslist */

typedef struct cmd_log {
    int n;
    gm_trace_cmd c[8];
    char text[8][64];
} cmd_log;

static int log_cmd(const gm_trace_cmd *c, void *arg, gm_error *err)
{
    cmd_log *l = arg;
    (void)err;
    if (l->n < 8) {
        l->c[l->n] = *c;
        snprintf(l->text[l->n], sizeof l->text[0], "%.*s", (int)c->text_len, c->text);
    }
    l->n++;
    return 0;
}

static void test_kernelslist(void **state)
{
    const char *list = "# comment\n"
                       "MemcpyHtoD,0x00007f2b2d500000,400\n"
                       "  MemcpyHtoD , 0x10 , 16  \r\n"
                       "\n"
                       "kernel-1.traceg\r\n"
                       "MemcpyDtoH,0x00007f2b2d500400,400\n"
                       "kernel-2.traceg.xz";
    cmd_log l = {0};
    gm_error err = {{0}};
    (void)state;
    assert_int_equal(gm_trace_parse_kernelslist(list, strlen(list), "l", log_cmd, &l, &err), 0);
    assert_int_equal(l.n, 4);
    assert_int_equal(l.c[0].kind, GM_TRACE_CMD_MEMCPY);
    assert_true(l.c[0].addr == 0x00007f2b2d500000ull);
    assert_int_equal(l.c[0].bytes, 400);
    assert_int_equal(l.c[0].line, 2);
    assert_int_equal(l.c[1].kind, GM_TRACE_CMD_MEMCPY);   /* "  MemcpyHtoD , ..." trimmed */
    assert_int_equal(l.c[1].addr, 0x10);
    assert_int_equal(l.c[1].bytes, 16);
    assert_int_equal(l.c[2].kind, GM_TRACE_CMD_KERNEL);
    assert_string_equal(l.text[2], "kernel-1.traceg");
    assert_string_equal(l.text[3], "kernel-2.traceg.xz");
    assert_int_equal(l.c[3].line, 7);
    l = (cmd_log){0};
    const char *list2 = "MemcpyHtoD,0x10,16\r\nkernel-1.traceg\r\nkernel-2.traceg.xz";
    assert_int_equal(gm_trace_parse_kernelslist(list2, strlen(list2), "l", log_cmd, &l, &err), 0);
    assert_int_equal(l.n, 3);
    assert_string_equal(l.text[1], "kernel-1.traceg");
    assert_string_equal(l.text[2], "kernel-2.traceg.xz");
    assert_int_equal(l.c[2].line, 3);
    static const struct {
        const char *text, *msg;
    } bad[] = {
        {"kernel-1.traceg\nfoo\n", "l:2: expected a kernel file name"},
        {"MemcpyHtoD,0x10\n", "l:1: bad copy"},
        {"MemcpyHtoD,0x10,16,4\n", "l:1: bad copy"},
        {"MemcpyHtoD,zz,16\n", "l:1: bad copy"},
        {"MemcpyHtoD,0x10,-1\n", "l:1: bad copy"},
        {"MemcpyHtoDX,0x10,16\n", "l:1: bad copy"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        memset(&err, 0, sizeof err);
        assert_int_equal(gm_trace_parse_kernelslist(bad[i].text, strlen(bad[i].text), "l",
                                                    NULL, NULL, &err),
                         -1);
        if (!strstr(err.msg, bad[i].msg))
            fail_msg("'%s': message '%s'", bad[i].text, err.msg);
    }
}

static void test_build_errors(void **state)
{
    char dir[256], p[512];
    gm_error err = {{0}};
    gm_workload w;
    (void)state;
    assert_int_equal(gm_workload_build(&w, "trace:/nonexistent/kernelslist.g", GM_SIZE_TINY,
                                       1, &err),
                     -1);
    assert_non_null(strstr(err.msg, "/nonexistent/kernelslist.g: cannot open"));
    assert_null(w.kernels);
    make_temp_dir(dir, sizeof dir);
    snprintf(p, sizeof p, "%s/kernelslist.g", dir);
    write_file(p, "MemcpyHtoD,0x10,16\n", 19);
    assert_int_equal(gm_trace_workload_build(&w, p, &err), -1);
    assert_non_null(strstr(err.msg, "no kernel in the list"));
    write_file(p, "kernel-9.traceg\n", 16);
    assert_int_equal(gm_trace_workload_build(&w, p, &err), -1);
    assert_non_null(strstr(err.msg, "kernel-9.traceg: cannot open"));
    snprintf(p, sizeof p, "%s/kernel-9.traceg", dir);
    const char *bad = "-grid dim = (1,1,1)\n-block dim = (32,1,1)\n"
                      "-accelsim tracer version = 4\n#\n"
                      "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\nbad\n";
    write_file(p, bad, strlen(bad));
    snprintf(p, sizeof p, "%s/kernelslist.g", dir);
    assert_int_equal(gm_trace_workload_build(&w, p, &err), -1);
    char want[600];
    snprintf(want, sizeof want, "%s/kernel-9.traceg:9:", dir);
    if (!strstr(err.msg, want))
        fail_msg("message '%s', expected '%s'", err.msg, want);
    remove_dir(dir);
}

/* ---------------------------------------------------------------- fixtures */

/* Counts taken from the raw text without the reader: instruction lines
 * (sum of "insts ="), warps ("warp =" lines), lines whose opcode field
 * starts with a mnemonic, and the sum of active lanes. The fixtures are
 * tracer v3/v4 without line numbers: field 4 is the destination count. */
typedef struct text_counts {
    uint64_t insts, warps, thread_insts;
    uint64_t ldg, stg, lds, sts, bar, bra, exit_lines;
} text_counts;

static void count_text(const char *path, text_counts *t)
{
    size_t len;
    char *s = read_file(path, &len);
    char *save = NULL;
    for (char *line = strtok_r(s, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        unsigned long n, mask;
        unsigned ndst;
        char op[64];
        if (sscanf(line, "insts = %lu", &n) == 1) {
            t->insts += n;
            continue;
        }
        if (strncmp(line, "warp =", 6) == 0) {
            t->warps++;
            continue;
        }
        if (sscanf(line, "%*x %lx %u", &mask, &ndst) != 2 || line[0] == '-')
            continue;
        const char *p = line;
        for (unsigned f = 0; f < 3 + ndst; f++) {   /* skip PC, mask, count, dests */
            p = strchr(p, ' ');
            assert_non_null(p);
            p++;
        }
        assert_int_equal(sscanf(p, "%63s", op), 1);
        t->thread_insts += (uint64_t)__builtin_popcountl(mask);
        t->ldg += strncmp(op, "LDG", 3) == 0;
        t->stg += strncmp(op, "STG", 3) == 0;
        t->lds += strncmp(op, "LDS", 3) == 0;
        t->sts += strncmp(op, "STS", 3) == 0;
        t->bar += strncmp(op, "BAR", 3) == 0;
        t->bra += strncmp(op, "BRA", 3) == 0;
        t->exit_lines += strcmp(op, "EXIT") == 0;
    }
    free(s);
}

static void check_fixture(const char *dir, const char *const *files, int nfiles)
{
    char list[1024], path[256];
    text_counts t = {0};
    gm_workload w;
    gm_workload_counts c;
    gm_error err = {{0}};
    snprintf(path, sizeof path, "%s/kernelslist.g", dir);
    fixture_path(list, sizeof list, path);
    for (int i = 0; i < nfiles; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        char full[1024];
        fixture_path(full, sizeof full, path);
        count_text(full, &t);
    }
    char name[1100];
    snprintf(name, sizeof name, "trace:%s", list);
    if (gm_workload_build(&w, name, GM_SIZE_TINY, 1, &err) != 0)
        fail_msg("%s", err.msg);
    assert_int_equal(gm_workload_count(&w, &c, &err), 0);
    assert_int_equal(c.warps, t.warps);
    /* Every fixture warp ends with an EXIT line: nothing is appended, and
     * every other EXIT line is a predicated-off one that became a branch. */
    assert_int_equal(c.insts, t.insts);
    assert_int_equal(c.by_op[GM_OP_EXIT], t.warps);
    assert_int_equal(c.by_op[GM_OP_BRANCH], t.bra + t.exit_lines - t.warps);
    assert_int_equal(c.thread_insts, t.thread_insts);
    assert_int_equal(c.by_op[GM_OP_GLOBAL_LD], t.ldg);
    assert_int_equal(c.by_op[GM_OP_GLOBAL_ST], t.stg);
    assert_int_equal(c.by_op[GM_OP_SHARED_LD], t.lds);
    assert_int_equal(c.by_op[GM_OP_SHARED_ST], t.sts);
    assert_int_equal(c.by_op[GM_OP_BARRIER], t.bar);
    gm_workload_free(&w);
}

static void test_fixtures_parse(void **state)
{
    static const char *const va[] = {"kernel-1.traceg"};
    static const char *const ftv[] = {"kernel-prime.traceg", "kernel-fetch-touch.traceg",
                                      "kernel-observe.traceg"};
    static const char *const ds[] = {"kernel-dirty-swap.traceg"};
    static const char *const mg[] = {"kernel-sector-merge.traceg"};
    static const char *const rp[] = {"kernel-replacement-pressure.traceg"};
    static const char *const sf[] = {"kernel-set-full.traceg"};
    static const char *const wc[] = {"kernel-write-conflict.traceg"};
    (void)state;
    check_fixture("vectoradd", va, 1);
    check_fixture("matrixmul", va, 1);
    check_fixture("l2-microtests/fill_time_victim", ftv, 3);
    check_fixture("l2-microtests/dirty_swap", ds, 1);
    check_fixture("l2-microtests/merge", mg, 1);
    check_fixture("l2-microtests/replacement_pressure", rp, 1);
    check_fixture("l2-microtests/set_full", sf, 1);
    check_fixture("l2-microtests/write_conflict", wc, 1);
}

/* Facts of the vectoradd trace worked out from its text: 1024 threads add
 * 100 floats, so warps 0-3 (threads 0..127, the last with lanes 0-3 only:
 * 96..99) run the 23-instruction path with two loads and one store, and
 * warps 4-31 the 9-instruction early exit. The arrays (MemcpyHtoD) are
 * 512 B apart and never share a 128 B line, so all 8 loads are read-only;
 * in dirty_swap, two of the three loads miss the stored line 0x100000. */
static void test_fixture_facts(void **state)
{
    char list[1024], name[1100];
    gm_workload w;
    gm_inst in[32];
    gm_error err = {{0}};
    (void)state;
    fixture_path(list, sizeof list, "vectoradd/kernelslist.g");
    snprintf(name, sizeof name, "trace:%s", list);
    assert_int_equal(gm_workload_build(&w, name, GM_SIZE_TINY, 1, &err), 0);
    for (uint32_t wi = 0; wi < 32; wi++) {
        int n = warp_insts(&w, 0, 0, wi, in, 32);
        assert_int_equal(n, wi < 4 ? 23 : 9);
        int loads = 0;
        for (int i = 0; i < n; i++)
            if (in[i].op == GM_OP_GLOBAL_LD) {
                loads++;
                assert_int_equal(in[i].flags, GM_INST_READ_ONLY);
                assert_int_equal(in[i].mask, wi == 3 ? 0xfu : 0xffffffffu);
            }
        assert_int_equal(loads, wi < 4 ? 2 : 0);
    }
    gm_workload_free(&w);
    fixture_path(list, sizeof list, "l2-microtests/dirty_swap/kernelslist.g");
    snprintf(name, sizeof name, "trace:%s", list);
    assert_int_equal(gm_workload_build(&w, name, GM_SIZE_TINY, 1, &err), 0);
    assert_int_equal(warp_insts(&w, 0, 0, 0, in, 32), 5);
    assert_int_equal(in[0].flags, 0);
    assert_int_equal(in[2].flags, GM_INST_READ_ONLY);
    assert_int_equal(in[3].flags, GM_INST_READ_ONLY);
    gm_workload_free(&w);
}

static void small_config(gm_config *c)
{
    char path[1024];
    gm_error err = {{0}};
    source_path(path, sizeof path, "configs/small.ini");
    gm_config_defaults(c);
    if (gm_config_load_file(c, path, &err) != 0)
        fail_msg("%s", err.msg);
}

/* Runs w on configs/small.ini; returns the statistics JSON (malloc'd). */
static char *run_json(const gm_workload *w)
{
    gm_config cfg;
    gm_error err = {{0}};
    small_config(&cfg);
    gm_system *s = malloc(sizeof *s);
    assert_non_null(s);
    if (gm_system_init(s, &cfg, &err) != 0)
        fail_msg("%s", err.msg);
    if (gm_system_run(s, w, &err) != 0)
        fail_msg("%s", err.msg);
    assert_int_equal(s->status, GM_RUN_DONE);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    gm_run_info info = {.workload = "w", .size = "tiny"};
    assert_int_equal(gm_stats_write_json(s, &info, f, &err), 0);
    fclose(f);
    gm_system_free(s);
    free(s);
    return text;
}

static uint64_t json_u64(const cJSON *root, const char *a, const char *b)
{
    const cJSON *o = cJSON_GetObjectItemCaseSensitive(root, a);
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, b);
    if (!cJSON_IsNumber(v))
        fail_msg("no number %s.%s", a, b);
    return (uint64_t)v->valuedouble;
}

/* Key statistics of the fixtures on configs/small.ini, computed once and
 * pinned. Cycles are only pinned; the rest is also known from the text:
 * warp instructions are the text counts of test_fixtures_parse; memory
 * instructions are the LDG and STG lines (LDS/STS stay in the core); every
 * one of them touches one 128 B line, so it is one L1 access; DRAM reads
 * are the distinct 128 B lines loaded (L2 keeps them all): vectoradd two
 * arrays of 400 B = 2 x 4 lines, matrixmul two of 4096 B = 2 x 32 lines,
 * the micro-tests the distinct load addresses of their files
 * (write_conflict loads and stores one line: 1). */
static void test_fixtures_pinned(void **state)
{
    static const struct {
        const char *dir;
        uint64_t warp_insts, mem_insts, l1_accesses, dram_reads, core_cycles;
    } pins[] = {
        {"vectoradd", 344, 12, 12, 8, 720},
        {"matrixmul", 4416, 96, 96, 64, 3146},
        {"l2-microtests/dirty_swap", 5, 4, 4, 2, 674},
        {"l2-microtests/fill_time_victim", 11, 6, 6, 3, 712},
        {"l2-microtests/merge", 8, 4, 4, 1, 346},
        {"l2-microtests/replacement_pressure", 4, 2, 2, 2, 346},
        {"l2-microtests/set_full", 4, 2, 2, 2, 346},
        {"l2-microtests/write_conflict", 4, 2, 2, 1, 336},
    };
    (void)state;
    for (size_t i = 0; i < sizeof pins / sizeof *pins; i++) {
        char rel[256], list[1024], name[1100];
        gm_workload w;
        gm_error err = {{0}};
        snprintf(rel, sizeof rel, "%s/kernelslist.g", pins[i].dir);
        fixture_path(list, sizeof list, rel);
        snprintf(name, sizeof name, "trace:%s", list);
        if (gm_workload_build(&w, name, GM_SIZE_TINY, 1, &err) != 0)
            fail_msg("%s", err.msg);
        char *json = run_json(&w);
        cJSON *root = cJSON_Parse(json);
        assert_non_null(root);
        uint64_t got[5] = {json_u64(root, "core", "warp_insts"),
                           json_u64(root, "core", "mem_insts"),
                           json_u64(root, "l1", "accesses"),
                           json_u64(root, "dram", "reads"),
                           json_u64(root, "summary", "core_cycles")};
        uint64_t want[5] = {pins[i].warp_insts, pins[i].mem_insts, pins[i].l1_accesses,
                            pins[i].dram_reads, pins[i].core_cycles};
        static const char *const what[5] = {"warp_insts", "mem_insts", "l1 accesses",
                                            "dram reads", "core_cycles"};
        for (int k = 0; k < 5; k++)
            if (got[k] != want[k])
                print_error("%s: %s %llu, pinned %llu\n", pins[i].dir, what[k],
                            (unsigned long long)got[k], (unsigned long long)want[k]);
        for (int k = 0; k < 5; k++)
            if (got[k] != want[k])
                fail_msg("%s: %s %llu, pinned %llu", pins[i].dir, what[k],
                         (unsigned long long)got[k], (unsigned long long)want[k]);
        cJSON_Delete(root);
        free(json);
        gm_workload_free(&w);
    }
}

/* ---------------------------------------------------------------- export */

static void fill_lanes(gm_inst *in, uint64_t base, int64_t step)
{
    for (int l = 0; l < GM_WARP_SIZE; l++)
        in->addr[l] = (in->mask >> l & 1) ? base + (uint64_t)(step * l) : 0;
}

static void expect_line(const gm_inst *in, unsigned pc, const char *want)
{
    char buf[2048];
    gm_error err = {{0}};
    int n = gm_trace_format_inst(in, pc, buf, sizeof buf, &err);
    if (n < 0)
        fail_msg("%s", err.msg);
    assert_int_equal(n, (int)strlen(buf));
    assert_string_equal(buf, want);
}

static void test_format_inst(void **state)
{
    gm_inst in;
    char buf[64];
    gm_error err = {{0}};
    (void)state;
    memset(&in, 0, sizeof in);
    in = (gm_inst){.op = GM_OP_ALU, .dst = 5, .src = {1, 2, NONE}, .mask = 0xffffffff};
    expect_line(&in, 0x10, "0010 ffffffff 1 R5 FFMA 2 R1 R2 0");
    in = (gm_inst){.op = GM_OP_SFU, .dst = NONE, .src = {NONE, 7, NONE}, .mask = 0x1};
    expect_line(&in, 0, "0000 00000001 0 MUFU.EX2 2 R255 R7 0");
    in = (gm_inst){.op = GM_OP_GLOBAL_LD, .dst = 3, .src = {4, NONE, NONE}, .width = 4,
                   .flags = GM_INST_READ_ONLY, .mask = 0xffffffff};
    fill_lanes(&in, 0x10000000, 4);
    expect_line(&in, 0x20, "0020 ffffffff 1 R3 LDG.E 1 R4 4 1 0x10000000 4");
    in.mask = 0x0000ff00;   /* one run, not starting at lane 0 */
    fill_lanes(&in, 0x10000000, 4);
    expect_line(&in, 0x20, "0020 0000ff00 1 R3 LDG.E 1 R4 4 1 0x10000020 4");
    in.mask = 0x00000101;   /* two runs: base+delta */
    fill_lanes(&in, 0x10000000, 4);
    expect_line(&in, 0x20, "0020 00000101 1 R3 LDG.E 1 R4 4 2 0x10000000 32");
    in.mask = 0x00000100;   /* one lane: base+delta without deltas, as the tracer */
    fill_lanes(&in, 0x10000000, 4);
    expect_line(&in, 0x20, "0020 00000100 1 R3 LDG.E 1 R4 4 2 0x10000020");
    in.mask = 0;            /* no lane: the tracer's empty base+stride */
    expect_line(&in, 0x20, "0020 00000000 1 R3 LDG.E 1 R4 4 1 0x0 0");
    in.mask = 0x7;
    in.addr[0] = 0x5000;
    in.addr[1] = 0x4000;
    in.addr[2] = 0x5000;
    expect_line(&in, 0, "0000 00000007 1 R3 LDG.E 1 R4 4 2 0x5000 -4096 4096");
    in.addr[1] = 0x5000 + (1ull << 32);   /* a stride beyond Accel-Sim's int */
    in.addr[2] = 0x5000 + (2ull << 32);
    expect_line(&in, 0, "0000 00000007 1 R3 LDG.E 1 R4 4 2 0x5000 4294967296 4294967296");
    in = (gm_inst){.op = GM_OP_ATOMIC, .dst = NONE, .src = {1, 2, NONE}, .width = 8, .mask = 1};
    in.addr[0] = 0xabc0;
    expect_line(&in, 0, "0000 00000001 0 ATOMG.E.ADD.64 2 R1 R2 8 2 0xabc0");
    in = (gm_inst){.op = GM_OP_SHARED_ST, .dst = NONE, .src = {1, 2, NONE}, .width = 0,
                   .mask = 1};
    expect_line(&in, 0, "0000 00000001 0 STS 2 R1 R2 0");
    in = (gm_inst){.op = GM_OP_BARRIER, .dst = NONE, .src = {NONE, NONE, NONE},
                   .mask = 0xffffffff};
    expect_line(&in, 0, "0000 ffffffff 0 BAR.SYNC 0 0");
    in = (gm_inst){.op = GM_OP_GLOBAL_ST, .dst = NONE, .src = {1, NONE, NONE}, .width = 0,
                   .mask = 1};
    assert_int_equal(gm_trace_format_inst(&in, 0, buf, sizeof buf, &err), -1);
    assert_non_null(strstr(err.msg, "width 0"));
    in.width = 200;
    assert_int_equal(gm_trace_format_inst(&in, 0, buf, sizeof buf, &err), -1);
    in = (gm_inst){.op = GM_OP_EXIT, .dst = NONE, .src = {NONE, NONE, NONE}, .mask = 1};
    assert_int_equal(gm_trace_format_inst(&in, 0, buf, 8, &err), -1);   /* does not fit */
}

static void export_and_read(const char *name, gm_workload *builtin, gm_workload *back,
                            gm_workload *lazy, char *dir, size_t cap)
{
    char list[512];
    gm_error err = {{0}};
    gm_trace_export_stats st;
    gm_trace_opts o = {.resident_bytes = UINT64_MAX};
    int is_lazy = 0;
    if (gm_workload_build(builtin, name, GM_SIZE_TINY, 1, &err) != 0)
        fail_msg("%s", err.msg);
    make_temp_dir(dir, cap);
    if (gm_trace_export(builtin, dir, &st, &err) != 0)
        fail_msg("%s", err.msg);
    assert_int_equal(st.kernels, builtin->nkernels);
    snprintf(list, sizeof list, "%s/kernelslist.g", dir);
    if (gm_trace_workload_build_opts(back, list, &o, &err) != 0)
        fail_msg("%s", err.msg);
    assert_true(gm_trace_workload_info(back, &is_lazy));
    assert_int_equal(is_lazy, 0);
    if (gm_trace_workload_build(lazy, list, &err) != 0)   /* streamed by default */
        fail_msg("%s", err.msg);
    assert_true(gm_trace_workload_info(lazy, &is_lazy));
    assert_int_equal(is_lazy, 1);
}

/* gemm, atax and reduction come back exactly: the stream hash of every
 * field the model reads, including the read-only flag (the built-in
 * kernels flag loads of arrays the kernel never stores, and their arrays
 * are 4 KiB aligned, so no stored line is shared with a read-only array:
 * the 128 B line rule gives the same flags). */
static void test_roundtrip_builtins(void **state)
{
    static const char *const names[] = {"gemm", "atax", "reduction"};
    (void)state;
    for (size_t i = 0; i < 3; i++) {
        gm_workload a, b, c;
        gm_trace_diff d;
        gm_error err = {{0}};
        char dir[256];
        export_and_read(names[i], &a, &b, &c, dir, sizeof dir);
        uint64_t h = stream_hash(&a);
        if (stream_hash(&b) != h || stream_hash(&c) != h)
            fail_msg("%s: stream hash differs after export", names[i]);
        assert_int_equal(gm_trace_compare(&a, &b, &d, &err), 0);
        assert_true(d.insts > 0);
        if (d.shape || d.length || d.op || d.mask || d.regs || d.width || d.addr || d.flags)
            fail_msg("%s: %s", names[i], d.first);
        assert_int_equal(gm_trace_workload_check(&c, &err), 0);
        /* the names of the kernels travel in "-kernel name" */
        for (uint32_t k = 0; k < a.nkernels; k++)
            assert_string_equal(a.kernels[k].name, b.kernels[k].name);
        gm_workload_free(&a);
        gm_workload_free(&b);
        gm_workload_free(&c);
        remove_dir(dir);
    }
}

/* The read-only rule written again, plainly, for the built-in streams:
 * the 128 B lines each kernel's stores, atomics and local stores touch,
 * sorted; a global load is read-only iff none of its lines is among them. */
typedef struct rule_lines {
    uint64_t *v;
    size_t n, cap;
} rule_lines;

static void rule_add(rule_lines *r, uint64_t line)
{
    if (r->n == r->cap) {
        r->cap = r->cap ? 2 * r->cap : 1024;
        r->v = realloc(r->v, r->cap * sizeof *r->v);
        assert_non_null(r->v);
    }
    r->v[r->n++] = line;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static int rule_touches(const rule_lines *r, const gm_inst *in)
{
    if (!r->n)
        return 0;
    for (int l = 0; l < GM_WARP_SIZE; l++) {
        if (!(in->mask >> l & 1))
            continue;
        uint64_t first = in->addr[l] / 128, last = (in->addr[l] + in->width - 1) / 128;
        for (uint64_t x = first; x <= last; x++)
            if (bsearch(&x, r->v, r->n, sizeof *r->v, cmp_u64))
                return 1;
    }
    return 0;
}

/* The stream hash of w with every global load's flag set by the rule. */
static uint64_t hash_with_rule(const gm_workload *w)
{
    uint64_t h = GM_FNV1A_INIT;
    gm_inst buf[16];
    for (uint32_t ki = 0; ki < w->nkernels; ki++) {
        const gm_kernel *k = &w->kernels[ki];
        rule_lines stored = {0};
        for (int pass = 0; pass < 2; pass++) {
            for (uint32_t c = 0; c < gm_kernel_ctas(k); c++)
                for (uint32_t wi = 0; wi < gm_kernel_warps_per_cta(k); wi++) {
                    gm_warp_gen g;
                    uint64_t hw = GM_FNV1A_INIT;
                    int n;
                    gm_warp_gen_start(&g, c, wi);
                    while ((n = k->gen(k, &g, buf, 16)) > 0)
                        for (int i = 0; i < n; i++) {
                            gm_inst *in = &buf[i];
                            int st = in->op == GM_OP_GLOBAL_ST || in->op == GM_OP_ATOMIC ||
                                     in->op == GM_OP_LOCAL_ST;
                            if (pass == 0 && st)
                                for (int l = 0; l < GM_WARP_SIZE; l++)
                                    if (in->mask >> l & 1) {
                                        rule_add(&stored, in->addr[l] / 128);
                                        rule_add(&stored, (in->addr[l] + in->width - 1) / 128);
                                    }
                            if (pass == 1) {
                                if (in->op == GM_OP_GLOBAL_LD)
                                    in->flags = rule_touches(&stored, in) ? 0 : GM_INST_READ_ONLY;
                                hw = hash_inst(hw, in);
                            }
                        }
                    if (pass == 1)
                        h = gm_fnv1a_u64(h, hw);
                }
            if (pass == 0 && stored.n)
                qsort(stored.v, stored.n, sizeof *stored.v, cmp_u64);
        }
        free(stored.v);
    }
    return h;
}

/* Built-in flags come from the kernel's arrays ("never stored by this
 * kernel"); a trace only has addresses, so it gets the line rule. For the
 * three core workloads both agree; for workloads where they do not
 * (kernels that store part of an array, or read just past one array into
 * a stored one), the trace's flags are exactly the rule applied to the
 * built-in stream, and nothing else differs. Workloads of other suites
 * are used when the catalogue has them. */
static void test_read_only_flags_follow_the_rule(void **state)
{
    static const char *const names[] = {"gemm", "atax", "reduction", "bfs", "lud", "srad_v2"};
    (void)state;
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        if (!gm_workload_find(names[i])) {
            print_message("%s: not in the catalogue, skipped\n", names[i]);
            continue;
        }
        gm_workload a, b, c;
        gm_trace_diff d;
        gm_error err = {{0}};
        char dir[256];
        export_and_read(names[i], &a, &b, &c, dir, sizeof dir);
        uint64_t rule = hash_with_rule(&a);
        if (stream_hash(&b) != rule)
            fail_msg("%s: imported flags are not the 128 B line rule", names[i]);
        assert_int_equal(gm_trace_compare(&a, &b, &d, &err), 0);
        if (d.shape || d.length || d.op || d.mask || d.regs || d.width || d.addr)
            fail_msg("%s: %s", names[i], d.first);
        if (i < 3)
            assert_int_equal(d.flags, 0);
        print_message("%s: %llu of %llu instructions change the read-only flag (%llu lose, "
                      "%llu gain)\n", names[i], (unsigned long long)d.flags,
                      (unsigned long long)d.insts, (unsigned long long)d.ro_only_a,
                      (unsigned long long)d.ro_only_b);
        gm_workload_free(&a);
        gm_workload_free(&b);
        gm_workload_free(&c);
        remove_dir(dir);
    }
}

/* The comparison notices what it should: a flag, an address, a length. */
static void test_compare_detects(void **state)
{
    gm_workload a, b;
    gm_trace_diff d;
    gm_error err = {{0}};
    (void)state;
    build_text(&a, HDR("4", "(1,1,1)", "(32,1,1)")
               "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 3\n"
               "0000 ffffffff 1 R1 LDG.E 1 R2 4 1 0x1000 4\n"
               "0010 00000001 0 STG.E 2 R1 R2 4 1 0x2000 0\n0020 ffffffff 0 EXIT 0 0\n");
    build_text(&b, HDR("4", "(1,1,1)", "(32,1,1)")
               "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 3\n"
               "0000 ffffffff 1 R1 LDG.E 1 R2 4 1 0x1000 4\n"
               "0010 00000001 0 STG.E 2 R1 R2 4 1 0x1000 0\n0020 ffffffff 0 EXIT 0 0\n");
    assert_int_equal(gm_trace_compare(&a, &b, &d, &err), 0);
    assert_int_equal(d.insts, 3);
    assert_int_equal(d.flags, 1);   /* the store now shares the load's line */
    assert_int_equal(d.addr, 1);
    assert_int_equal(d.op + d.mask + d.regs + d.width + d.length + d.shape, 0);
    gm_workload_free(&b);
    build_text(&b, HDR("4", "(1,1,1)", "(32,1,1)")
               "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n0020 ffffffff 0 EXIT 0 0\n");
    assert_int_equal(gm_trace_compare(&a, &b, &d, &err), 0);
    assert_int_equal(d.length, 1);
    gm_workload_free(&b);
    gm_workload_free(&a);
}

/* A CTA scheduler in miniature: at most `inflight` CTAs of kernel ki at
 * once, in increasing order (or decreasing: every new CTA then lies behind
 * the reader, which for xz data means decoding from the start again), each
 * warp fed 16 instructions at a time in turn; every batch is compared with
 * the built-in kernel. Returns the largest CTA's record bytes bounded from
 * above by hand: 12 B of head and 32 addresses of 8 B per instruction, 8 B
 * per warp for its start, 16 B of header. */
static uint64_t run_window(const gm_workload *t, const gm_workload *ref, uint32_t ki,
                           uint32_t inflight, int reverse)
{
    enum { MAXLIVE = 8, MAXW = 32, CHUNK = 16 };
    const gm_kernel *kt = &t->kernels[ki], *kr = &ref->kernels[ki];
    uint32_t ctas = gm_kernel_ctas(kr), warps = gm_kernel_warps_per_cta(kr);
    gm_warp_gen gt[MAXLIVE][MAXW], gr[MAXLIVE][MAXW];
    uint64_t insts[MAXLIVE][MAXW];
    int live[MAXLIVE] = {0}, done[MAXLIVE][MAXW];
    uint32_t next = 0, nlive = 0;
    uint64_t max_cta = 0;
    gm_inst a[CHUNK], b[CHUNK];
    assert_true(inflight <= MAXLIVE && warps <= MAXW);
    while (next < ctas || nlive) {
        for (uint32_t s = 0; s < inflight && next < ctas; s++) {
            if (live[s])
                continue;
            uint32_t cta = reverse ? ctas - 1 - next : next;
            next++;
            for (uint32_t w = 0; w < warps; w++) {
                gm_warp_gen_start(&gt[s][w], cta, w);
                gm_warp_gen_start(&gr[s][w], cta, w);
                done[s][w] = 0;
                insts[s][w] = 0;
            }
            live[s] = 1;
            nlive++;
        }
        for (uint32_t s = 0; s < inflight; s++) {
            if (!live[s])
                continue;
            uint32_t left = 0;
            for (uint32_t w = 0; w < warps; w++) {
                if (done[s][w])
                    continue;
                int na = kt->gen(kt, &gt[s][w], a, CHUNK), nb = kr->gen(kr, &gr[s][w], b, CHUNK);
                assert_int_equal(na, nb);
                for (int i = 0; i < na; i++)
                    if (hash_inst(0, &a[i]) != hash_inst(0, &b[i]))
                        fail_msg("cta %u warp %u: instruction %llu differs", gt[s][w].cta, w,
                                 (unsigned long long)(insts[s][w] + (uint64_t)i));
                insts[s][w] += (uint64_t)na;
                done[s][w] = na == 0;
                left += na != 0;
            }
            if (!left) {
                uint64_t bound = 16 + 8u * warps;
                for (uint32_t w = 0; w < warps; w++)
                    bound += insts[s][w] * (12 + 8 * GM_WARP_SIZE);
                if (bound > max_cta)
                    max_cta = bound;
                live[s] = 0;
                nlive--;
            }
        }
    }
    return max_cta;
}

/* What a streamed trace buffers is bounded by the CTAs in flight: with 4
 * of reduction's 64 CTAs running at a time, at most 4 are held, in at
 * most 4 CTA bounds (by hand, above) plus the parse scratch (at most
 * twice the largest CTA, grown from 4 KiB), and none is left at the end.
 * The same through xz data read backwards (each CTA decodes the data
 * from the start again) and forwards (never). */
static void test_stream_bounded(void **state)
{
    gm_workload a, b, c, z;
    gm_trace_mem m;
    char dir[256], p[512];
    gm_error err = {{0}};
    size_t len, zlen;
    int streamed = 0;
    (void)state;
    export_and_read("reduction", &a, &b, &c, dir, sizeof dir);
    assert_int_equal(gm_kernel_ctas(&a.kernels[0]), 64);
    assert_true(gm_trace_workload_memory(&c, &m));
    assert_int_equal(m.ctas_peak, 0);
    uint64_t max_cta = run_window(&c, &a, 0, 4, 0);
    assert_true(gm_trace_workload_memory(&c, &m));
    assert_int_equal(m.ctas_peak, 4);
    assert_int_equal(m.ctas_buffered, 0);
    assert_true(m.buffered_peak <= 4 * max_cta + 2 * max_cta + 4096);
    assert_true(m.index_bytes > 0);
    /* the resident reading holds no CTA buffers */
    assert_true(gm_trace_workload_memory(&b, &m));
    assert_int_equal(m.buffered_peak, 0);
    /* a budget the first image passes: streamed, the same stream */
    gm_trace_opts tight = {.resident_bytes = 1};
    snprintf(p, sizeof p, "%s/kernelslist.g", dir);
    if (gm_trace_workload_build_opts(&z, p, &tight, &err) != 0)
        fail_msg("%s", err.msg);
    assert_true(gm_trace_workload_info(&z, &streamed) && streamed);
    assert_true(stream_hash(&z) == stream_hash(&a));
    gm_workload_free(&z);

    snprintf(p, sizeof p, "%s/kernel-1.traceg", dir);
    char *text = read_file(p, &len);
    uint8_t *xz = xz_encode(text, len, &zlen);
    snprintf(p, sizeof p, "%s/kernel-1", dir);   /* xz by its magic, whatever the name */
    write_file(p, xz, zlen);
    snprintf(p, sizeof p, "%s/list-xz.g", dir);
    write_file(p, "kernel-1\n", 9);
    if (gm_trace_workload_build(&z, p, &err) != 0)
        fail_msg("%s", err.msg);
    assert_true(gm_trace_workload_info(&z, &streamed) && streamed);
    run_window(&z, &a, 0, 3, 1);
    assert_true(gm_trace_workload_memory(&z, &m));
    assert_int_equal(m.ctas_peak, 3);
    assert_int_equal(m.ctas_buffered, 0);
    assert_true(m.buffered_peak <= 3 * max_cta + 2 * max_cta + 4096);
    assert_int_equal(m.rewinds, 63);   /* every CTA after the first lies behind */
    assert_int_equal(gm_trace_workload_check(&z, &err), 0);
    gm_workload_free(&z);
    if (gm_trace_workload_build(&z, p, &err) != 0)   /* forwards: decoded once */
        fail_msg("%s", err.msg);
    run_window(&z, &a, 0, 4, 0);
    assert_true(gm_trace_workload_memory(&z, &m));
    assert_int_equal(m.ctas_peak, 4);
    assert_int_equal(m.rewinds, 0);
    free(text);
    free(xz);
    gm_workload_free(&a);
    gm_workload_free(&b);
    gm_workload_free(&c);
    gm_workload_free(&z);
    remove_dir(dir);
}

/* Streamed, warps of two kernels generated alternately one instruction
 * at a time (each switch indexes a file again): the same instructions as
 * the resident reading. */
static void test_lazy_any_order(void **state)
{
    static const char *const k1 =
        HDR("4", "(2,1,1)", "(64,1,1)")
        "#BEGIN_TB\nthread block = 1,0,0\nwarp = 1\ninsts = 4\n"
        "0000 ffffffff 1 R1 LDG.E 1 R2 4 1 0x1000 4\n0010 ffffffff 1 R3 FFMA 2 R1 R1 0\n"
        "0020 ffffffff 0 STG.E 2 R2 R3 4 1 0x2000 4\n0030 ffffffff 0 EXIT 0 0\n"
        "warp = 0\ninsts = 2\n0000 0000ffff 1 R1 LDG.E 1 R2 4 1 0x1080 4\n"
        "0010 ffffffff 0 EXIT 0 0\n#END_TB\n"
        "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 0\nwarp = 1\ninsts = 3\n"
        "0000 ffffffff 1 R1 LDG.E 1 R2 4 1 0x2000 4\n0010 ffffffff 0 BAR.SYNC 0 0\n"
        "0020 ffffffff 0 EXIT 0 0\n";
    static const char *const k2 =
        HDR("5", "(1,1,1)", "(32,1,1)")
        "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 5\n"
        "0000 ffffffff 1 R9 MUFU.EX2 1 R1 0 0\n0010 ffffffff 1 R8 DFMA 3 R9 R9 R9 0 0\n"
        "0020 00000003 1 R7 LDG.E.64 1 R2 8 0 0x8000 0x9000 0\n"
        "0030 ffffffff 0 BRA 0 0 0\n0040 ffffffff 0 EXIT 0 0 0\n";
    char dir[256], p[512];
    gm_error err = {{0}};
    gm_workload res, lazy;
    gm_trace_opts o = {.resident_bytes = UINT64_MAX};
    int is_lazy = 0;
    (void)state;
    make_temp_dir(dir, sizeof dir);
    snprintf(p, sizeof p, "%s/kernel-1.traceg", dir);
    write_file(p, k1, strlen(k1));
    snprintf(p, sizeof p, "%s/kernel-2.traceg", dir);
    write_file(p, k2, strlen(k2));
    snprintf(p, sizeof p, "%s/kernelslist.g", dir);
    write_file(p, "kernel-1.traceg\nkernel-2.traceg\n", 32);
    if (gm_trace_workload_build_opts(&res, p, &o, &err) != 0 ||
        gm_trace_workload_build(&lazy, p, &err) != 0)
        fail_msg("%s", err.msg);
    assert_true(gm_trace_workload_info(&lazy, &is_lazy) && is_lazy);
    /* every warp of kernel 1 against every warp of kernel 2 */
    uint64_t compared = 0;
    for (uint32_t w1 = 0; w1 < 4; w1++) {
        gm_warp_gen ga, gb, ra, rb;
        gm_inst ia, ib, r;
        gm_warp_gen_start(&ga, w1 / 2, w1 % 2);
        gm_warp_gen_start(&gb, 0, 0);
        ra = ga;
        rb = gb;
        int na = 1, nb = 1;
        while (na || nb) {
            if (na && (na = lazy.kernels[0].gen(&lazy.kernels[0], &ga, &ia, 1)) != 0) {
                assert_int_equal(res.kernels[0].gen(&res.kernels[0], &ra, &r, 1), 1);
                assert_true(hash_inst(0, &ia) == hash_inst(0, &r));
                compared++;
            }
            if (nb && (nb = lazy.kernels[1].gen(&lazy.kernels[1], &gb, &ib, 1)) != 0) {
                assert_int_equal(res.kernels[1].gen(&res.kernels[1], &rb, &r, 1), 1);
                assert_true(hash_inst(0, &ib) == hash_inst(0, &r));
                compared++;
            }
        }
        assert_int_equal(res.kernels[0].gen(&res.kernels[0], &ra, &r, 1), 0);
    }
    assert_int_equal(compared, (4 + 2 + 1 + 3) + 4 * 5);
    assert_true(stream_hash(&res) == stream_hash(&lazy));
    assert_int_equal(gm_trace_workload_check(&lazy, &err), 0);
    gm_workload_free(&res);
    gm_workload_free(&lazy);
    remove_dir(dir);
}

/* The whole system gives the same statistics for the built-in workload,
 * its trace held resident and its trace parsed at launch. */
static void test_system_same_stats(void **state)
{
    gm_workload a, b, c;
    char dir[256];
    (void)state;
    export_and_read("reduction", &a, &b, &c, dir, sizeof dir);
    char *ja = run_json(&a), *jb = run_json(&b), *jc = run_json(&c);
    assert_string_equal(ja, jb);
    assert_string_equal(ja, jc);
    free(ja);
    free(jb);
    free(jc);
    gm_workload_free(&a);
    gm_workload_free(&b);
    gm_workload_free(&c);
    remove_dir(dir);
}

/* A kernel file that changes between the build and its launch cannot be
 * read again: its warps run a single EXIT and the workload says why. */
static void test_lazy_file_changed(void **state)
{
    gm_workload a, b, c;
    char dir[256], p[512];
    gm_error err = {{0}};
    gm_inst in[16];
    (void)state;
    export_and_read("reduction", &a, &b, &c, dir, sizeof dir);
    snprintf(p, sizeof p, "%s/kernel-2.traceg", dir);
    size_t len;
    char *text = read_file(p, &len);
    char *x = strstr(text, "FFMA");
    assert_non_null(x);
    memcpy(x, "MUFU", 4);   /* same length, another class */
    write_file(p, text, len);
    free(text);
    gm_warp_gen g;
    gm_warp_gen_start(&g, 0, 0);
    assert_int_equal(c.kernels[0].gen(&c.kernels[0], &g, in, 16), 16);   /* kernel 1 is fine */
    assert_int_equal(gm_trace_workload_check(&c, &err), 0);
    assert_int_equal(warp_insts(&c, 1, 0, 0, in, 16), 1);
    assert_int_equal(in[0].op, GM_OP_EXIT);
    assert_int_equal(gm_trace_workload_check(&c, &err), -1);
    assert_non_null(strstr(err.msg, "kernel-2.traceg: changed since the workload was built"));
    unlink(p);
    assert_int_equal(warp_insts(&c, 1, 0, 1, in, 16), 1);   /* no new attempt */
    gm_workload_free(&a);
    gm_workload_free(&b);
    gm_workload_free(&c);
    remove_dir(dir);
}

/* ---------------------------------------------------------------- fuzz */

static int feed_dir(const char *rel)
{
    char dir[1024], p[1300];
    int n = 0;
    source_path(dir, sizeof dir, rel);
    DIR *d = opendir(dir);
    if (!d)
        fail_msg("cannot open %s", dir);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        size_t len;
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        char *buf = read_file(p, &len);
        char *exact = malloc(len ? len : 1);   /* no slack for ASan to miss */
        assert_non_null(exact);
        memcpy(exact, buf, len);
        if (gm_fuzz_trace_one((const uint8_t *)exact, len) != 0)
            fail_msg("%s: failed without a message or broke the generator contract", p);
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
    assert_true(feed_dir("tests/fuzz/corpus") >= 10);
    feed_dir("tests/fuzz/regress");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sass_classify),
        cmocka_unit_test(test_sass_resolve_windows),
        cmocka_unit_test(test_opcode_width_rule),
        cmocka_unit_test(test_sass_export_names),
        cmocka_unit_test(test_address_encodings),
        cmocka_unit_test(test_address_partial_masks),
        cmocka_unit_test(test_versions_and_layouts),
        cmocka_unit_test(test_registers),
        cmocka_unit_test(test_exit_rules),
        cmocka_unit_test(test_memory_classes),
        cmocka_unit_test(test_read_only_rule),
        cmocka_unit_test(test_malformed_input),
        cmocka_unit_test(test_long_line_and_binary),
        cmocka_unit_test(test_truncated_and_corrupted),
        cmocka_unit_test(test_xz_input),
        cmocka_unit_test(test_kernelslist),
        cmocka_unit_test(test_build_errors),
        cmocka_unit_test(test_fixtures_parse),
        cmocka_unit_test(test_fixture_facts),
        cmocka_unit_test(test_fixtures_pinned),
        cmocka_unit_test(test_format_inst),
        cmocka_unit_test(test_roundtrip_builtins),
        cmocka_unit_test(test_read_only_flags_follow_the_rule),
        cmocka_unit_test(test_compare_detects),
        cmocka_unit_test(test_lazy_any_order),
        cmocka_unit_test(test_stream_bounded),
        cmocka_unit_test(test_system_same_stats),
        cmocka_unit_test(test_lazy_file_changed),
        cmocka_unit_test(test_fuzz_corpus_and_regressions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
