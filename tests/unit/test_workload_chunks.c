/* The generator contract on chunk size (workload.h): a generator called
 * with room for `max` instructions writes at most `max`, and a warp's
 * stream does not depend on how it is cut into chunks. The core asks for
 * GM_WARP_IBUF instructions at a time, the walker and the trace writer
 * for more, so a generator that wrote a group of instructions after one
 * room check, or that restarted a group at a chunk boundary, would give
 * the core a different stream from the one counted in docs/workloads.md.
 *
 * Every built-in kernel is generated at sizes tiny and small, each warp
 * once in chunks of 64 and once in chunks of GM_GEN_MIN_CHUNK (the
 * contract's minimum), with guard instructions past the end of the room
 * that must stay untouched; the two streams must hash alike. Warps are
 * sampled evenly (at most SAMPLE_WARPS a launch, the first and last warp
 * always), so every launch and every kind of warp in it is seen. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "workload/walk.h"
#include "workload/workload.h"
#include "workload_testlib.h"

#define BIG_CHUNK 64
#define SAMPLE_WARPS 48

/* Both chunkings of one warp; run_warp fails the test on a write past
 * the room, a bad count or a broken EXIT, this on a different stream. */
static void check_warp(const gm_kernel *k, uint32_t cta, uint32_t warp)
{
    uint64_t big = run_warp(k, cta, warp, BIG_CHUNK, NULL, NULL);
    uint64_t small = run_warp(k, cta, warp, GM_GEN_MIN_CHUNK, NULL, NULL);
    if (big != small)
        fail_msg("%s cta %u warp %u: chunks of %d hash to %016llx, chunks of %d to %016llx",
                 k->name, cta, warp, BIG_CHUNK, (unsigned long long)big, GM_GEN_MIN_CHUNK,
                 (unsigned long long)small);
}

static void check_kernel(const gm_kernel *k)
{
    uint64_t ctas = gm_kernel_ctas(k), per = gm_kernel_warps_per_cta(k);
    uint64_t warps = ctas * per;
    uint64_t step = warps > SAMPLE_WARPS ? warps / SAMPLE_WARPS : 1;
    for (uint64_t i = 0; i < warps; i += step) {
        /* The last warp (the one with partial lanes, or the grid's edge)
         * is always taken. */
        uint64_t wi = i + step >= warps ? warps - 1 : i;
        check_warp(k, (uint32_t)(wi / per), (uint32_t)(wi % per));
        if (wi == warps - 1)
            break;
    }
}

static void check_size(gm_size size)
{
    size_t n = gm_workload_catalogue_size();
    assert_true(n > 0);
    for (size_t i = 0; i < n; i++) {
        gm_workload w = build_named(gm_workload_catalogue_at(i)->name, size);
        for (uint32_t k = 0; k < w.nkernels; k++)
            check_kernel(&w.kernels[k]);
        gm_workload_free(&w);
    }
}

static void test_chunks_tiny(void **state)
{
    (void)state;
    check_size(GM_SIZE_TINY);
}

static void test_chunks_small(void **state)
{
    (void)state;
    check_size(GM_SIZE_SMALL);
}

/* The public Accel-Sim traces (../shared/traces) go through the trace
 * reader's generator, streamed thread block by thread block. */
static void test_chunks_traces(void **state)
{
    (void)state;
    const char *src = getenv("GM_SOURCE_DIR");
    if (!src)
        fail_msg("GM_SOURCE_DIR is not set (ctest sets it)");
    const char *traces[] = {"matrixmul", "vectoradd"};
    for (size_t i = 0; i < sizeof traces / sizeof *traces; i++) {
        char name[1024];
        gm_workload w;
        gm_error err;
        snprintf(name, sizeof name, "trace:%s/../shared/traces/%s/kernelslist.g", src,
                 traces[i]);
        if (gm_workload_build(&w, name, GM_SIZE_TINY, 1, &err) != 0)
            fail_msg("%s: %s", name, err.msg);
        assert_true(w.nkernels > 0);
        for (uint32_t k = 0; k < w.nkernels; k++)
            check_kernel(&w.kernels[k]);
        gm_workload_free(&w);
    }
}

/* The check itself must see a generator that writes past max and one
 * whose stream depends on the chunking. */
static int gen_overrun(const gm_kernel *k, gm_warp_gen *g, gm_inst *out, int max)
{
    (void)k;
    (void)max;
    if (g->pc)
        return 0;
    g->pc = 1;
    for (int i = 0; i < GM_GEN_MIN_CHUNK + 1; i++)
        out[i] = (gm_inst){.op = i == GM_GEN_MIN_CHUNK ? GM_OP_EXIT : GM_OP_ALU,
                           .dst = GM_REG_NONE,
                           .src = {GM_REG_NONE, GM_REG_NONE, GM_REG_NONE}, .mask = 1};
    return GM_GEN_MIN_CHUNK + 1;
}

/* Nine instructions, the last EXIT; each chunk's first one writes r1,
 * so the stream changes with the chunking. */
static int gen_chunk_dependent(const gm_kernel *k, gm_warp_gen *g, gm_inst *out, int max)
{
    (void)k;
    int n = 0;
    for (; n < max && g->pc <= 8; n++, g->pc++)
        out[n] = (gm_inst){.op = g->pc == 8 ? GM_OP_EXIT : GM_OP_ALU,
                           .dst = n == 0 ? 1 : GM_REG_NONE,
                           .src = {GM_REG_NONE, GM_REG_NONE, GM_REG_NONE}, .mask = 1};
    return n;
}

static void test_check_sees_bad_generators(void **state)
{
    (void)state;
    gm_kernel k = {.name = "bad", .grid = {1, 1, 1}, .block = {32, 1, 1}};
    gm_inst buf[BIG_CHUNK + GEN_GUARD];
    gm_warp_gen g;
    k.gen = gen_overrun;
    gm_warp_gen_start(&g, 0, 0);
    assert_int_equal(gen_within_room(&k, &g, buf, BIG_CHUNK), GM_GEN_MIN_CHUNK + 1);
    gm_warp_gen_start(&g, 0, 0);
    assert_int_equal(gen_within_room(&k, &g, buf, GM_GEN_MIN_CHUNK), -1);

    k.gen = gen_chunk_dependent;
    assert_true(run_warp(&k, 0, 0, BIG_CHUNK, NULL, NULL) !=
                run_warp(&k, 0, 0, GM_GEN_MIN_CHUNK + 1, NULL, NULL));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_check_sees_bad_generators),
        cmocka_unit_test(test_chunks_tiny),
        cmocka_unit_test(test_chunks_small),
        cmocka_unit_test(test_chunks_traces),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
