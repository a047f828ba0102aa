/* Helpers shared by the workload stream tests (test_workload*.c,
 * test_trace.c): the FNV-1a stream hash behind their golden values, the
 * warp walk that checks the generator contract, and the per-instruction
 * checks every suite makes the same way (lane masks, register def-use,
 * shared-memory addresses, distinct lines and sectors).
 *
 * Each test is its own executable, so this is a header of static inline
 * functions; include it after <cmocka.h> (it asserts with cmocka). */
#ifndef GM_TESTS_WORKLOAD_TESTLIB_H
#define GM_TESTS_WORKLOAD_TESTLIB_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sim/hash.h"
#include "workload/build.h"
#include "workload/walk.h"
#include "workload/workload.h"

/* ---------------------------------------------------------------- hashing */

static inline uint64_t fnv_byte(uint64_t h, uint8_t b)
{
    return gm_fnv1a_bytes(h, &b, 1);
}

/* The stream hash of one instruction: every field the model reads, each
 * field one byte except the mask (4 bytes) and the active lanes' addresses
 * (8 bytes), least significant byte first. The golden hashes of every
 * suite are over this, so it must not change. */
static inline uint64_t hash_inst(uint64_t h, const gm_inst *in)
{
    h = fnv_byte(h, in->op);
    h = fnv_byte(h, in->dst);
    for (int s = 0; s < GM_MAX_SRC; s++)
        h = fnv_byte(h, in->src[s]);
    h = fnv_byte(h, in->width);
    h = fnv_byte(h, in->flags);
    for (int i = 0; i < 4; i++)
        h = fnv_byte(h, (uint8_t)(in->mask >> (8 * i)));
    if (gm_op_is_mem(in->op))
        for (int l = 0; l < GM_WARP_SIZE; l++)
            if (in->mask >> l & 1)
                h = gm_fnv1a_u64(h, in->addr[l]);
    return h;
}

/* ---------------------------------------------------------------- walking */

typedef void (*inst_fn)(const gm_inst *in, uint32_t exist, void *arg);

#define GEN_GUARD 2        /* instructions past the room that must stay untouched */
#define GEN_GUARD_BYTE 0xa5

/* One generator call with room for `chunk` instructions in buf, which
 * holds chunk + GEN_GUARD. Returns how many it wrote, or -1 when it broke
 * the room contract (a count outside 0..chunk, or a write past the room). */
static inline int gen_within_room(const gm_kernel *k, gm_warp_gen *g, gm_inst *buf, int chunk)
{
    memset(&buf[chunk], GEN_GUARD_BYTE, GEN_GUARD * sizeof *buf);
    int n = k->gen(k, g, buf, chunk);
    const unsigned char *p = (const unsigned char *)&buf[chunk];
    for (size_t i = 0; i < GEN_GUARD * sizeof *buf; i++)
        if (p[i] != GEN_GUARD_BYTE)
            return -1;
    return n >= 0 && n <= chunk ? n : -1;
}

/* Generates one warp to its end in chunks of `chunk`, checking the
 * generator contract (1..chunk instructions a call and nothing written
 * past the room, nothing after the one EXIT, 0 once finished), calls fn
 * (if any) on each instruction and returns the warp's stream hash. */
static inline uint64_t run_warp(const gm_kernel *k, uint32_t cta, uint32_t warp, int chunk,
                                inst_fn fn, void *arg)
{
    gm_inst *buf = malloc((size_t)(chunk + GEN_GUARD) * sizeof *buf);
    gm_warp_gen g;
    uint64_t h = GM_FNV1A_INIT;
    uint32_t exist = gm_warp_exist_mask(gm_kernel_threads_per_cta(k), warp);
    int exits = 0;

    assert_non_null(buf);
    gm_warp_gen_start(&g, cta, warp);
    for (;;) {
        int n = gen_within_room(k, &g, buf, chunk);
        if (n < 0)
            fail_msg("%s cta %u warp %u: gen(max %d) wrote past its room or returned a bad "
                     "count", k->name, cta, warp, chunk);
        if (n == 0)
            break;
        for (int i = 0; i < n; i++) {
            assert_int_equal(exits, 0);   /* nothing after EXIT */
            exits += buf[i].op == GM_OP_EXIT;
            h = hash_inst(h, &buf[i]);
            if (fn)
                fn(&buf[i], exist, arg);
        }
    }
    assert_int_equal(exits, 1);
    assert_int_equal(gen_within_room(k, &g, buf, chunk), 0);   /* stays finished */
    free(buf);
    return h;
}

/* How hash_workload_with walks one warp and hashes it. */
typedef uint64_t (*warp_hash_fn)(const gm_kernel *k, uint32_t cta, uint32_t warp, int chunk);

/* The whole-workload hash: the hash of each warp's hash, in kernel, CTA,
 * warp order. */
static inline uint64_t hash_workload_with(const gm_workload *w, warp_hash_fn hash_warp,
                                          int chunk)
{
    uint64_t h = GM_FNV1A_INIT;
    for (uint32_t ki = 0; ki < w->nkernels; ki++) {
        const gm_kernel *k = &w->kernels[ki];
        for (uint32_t c = 0; c < gm_kernel_ctas(k); c++)
            for (uint32_t wi = 0; wi < gm_kernel_warps_per_cta(k); wi++)
                h = gm_fnv1a_u64(h, hash_warp(k, c, wi, chunk));
    }
    return h;
}

static inline uint64_t hash_warp_checked(const gm_kernel *k, uint32_t cta, uint32_t warp,
                                         int chunk)
{
    return run_warp(k, cta, warp, chunk, NULL, NULL);
}

/* hash_workload_with run_warp's full contract checks on every warp. */
static inline uint64_t hash_workload(const gm_workload *w, int chunk)
{
    return hash_workload_with(w, hash_warp_checked, chunk);
}

#define RR_MAX_WARPS 64

/* The warps of one CTA generated in round-robin chunks of 16, as the core
 * does, give each warp the same stream as generating it alone: all state
 * is in gm_warp_gen. */
static inline void check_round_robin(const gm_kernel *k, uint32_t cta)
{
    uint32_t nw = gm_kernel_warps_per_cta(k);
    gm_warp_gen g[RR_MAX_WARPS];
    uint64_t h[RR_MAX_WARPS];
    int done[RR_MAX_WARPS] = {0}, left = (int)nw;
    gm_inst buf[16];

    assert_true(nw <= RR_MAX_WARPS);
    for (uint32_t wi = 0; wi < nw; wi++) {
        gm_warp_gen_start(&g[wi], cta, wi);
        h[wi] = GM_FNV1A_INIT;
    }
    while (left) {
        for (uint32_t wi = 0; wi < nw; wi++) {
            if (done[wi])
                continue;
            int n = k->gen(k, &g[wi], buf, 16);
            if (n == 0) {
                done[wi] = 1;
                left--;
            }
            for (int j = 0; j < n; j++)
                h[wi] = hash_inst(h[wi], &buf[j]);
        }
    }
    for (uint32_t wi = 0; wi < nw; wi++)
        assert_true(h[wi] == run_warp(k, cta, wi, 16, NULL, NULL));
}

/* Builds built-in workload `name` at `size` (seed 1), failing the test
 * with the builder's message. */
static inline gm_workload build_named(const char *name, gm_size size)
{
    gm_workload w;
    gm_error err = {{0}};
    if (gm_workload_build(&w, name, size, 1, &err) != 0)
        fail_msg("%s", err.msg);
    return w;
}

/* ---------------------------------------------------------------- instruction checks */

/* The lane rules of the warp contract: only lanes that exist, never an
 * empty mask (idle paths are branched over), EXIT and barriers with every
 * lane. */
static inline void check_lanes(const gm_inst *in, uint32_t exist)
{
    assert_true(in->op < GM_OP_COUNT);
    assert_int_equal(in->mask & ~exist, 0);
    assert_int_not_equal(in->mask, 0);
    if (in->op == GM_OP_EXIT || in->op == GM_OP_BARRIER)
        assert_int_equal(in->mask, exist);
}

/* Register def-use of one warp: every source written earlier, and every
 * loaded value read before it is overwritten or the warp ends. Per lane
 * (lanewise = 1), a read consumes a load only in the lanes it reads;
 * otherwise any read of the register consumes it in every lane. */
typedef struct reg_use {
    int lanewise;
    uint8_t defined[256];
    uint32_t pending[256];   /* lanes written by a load and not read since */
} reg_use;

static inline int is_load(int op)
{
    return op == GM_OP_GLOBAL_LD || op == GM_OP_SHARED_LD;
}

static inline void check_regs(reg_use *r, const gm_inst *in)
{
    uint32_t lanes = r->lanewise ? in->mask : UINT32_MAX;
    for (int s = 0; s < GM_MAX_SRC; s++) {
        uint8_t x = in->src[s];
        if (x == GM_REG_NONE)
            continue;
        assert_true(x < GM_NUM_REGS);
        assert_true(r->defined[x]);
        r->pending[x] &= ~lanes;
    }
    if (in->dst != GM_REG_NONE) {
        assert_true(in->dst < GM_NUM_REGS);
        if (r->pending[in->dst] & lanes)
            fail_msg("op %d overwrites r%d, loaded and never read in lanes %08x", in->op,
                     in->dst, r->pending[in->dst] & lanes);
        r->defined[in->dst] = 1;
        if (is_load(in->op))
            r->pending[in->dst] |= in->mask;
    }
}

/* At the end of a warp: every load was read. */
static inline void check_regs_consumed(const reg_use *r, const gm_kernel *k, uint32_t cta,
                                       uint32_t warp)
{
    for (int x = 0; x < 256; x++)
        if (r->pending[x])
            fail_msg("%s cta %u warp %u: r%d loaded and never read", k->name, cta, warp, x);
}

/* What every suite checks first of an instruction: the lane rules, the
 * per-opcode count, register def-use, and that non-memory instructions
 * carry no flags. Returns whether it is a memory instruction, which the
 * suite then checks its own way. */
static inline int check_inst_common(const gm_inst *in, uint32_t exist, uint64_t *op_count,
                                    reg_use *regs)
{
    check_lanes(in, exist);
    op_count[in->op]++;
    check_regs(regs, in);
    if (gm_op_is_mem(in->op))
        return 1;
    assert_int_equal(in->flags, 0);
    return 0;
}

/* A shared-memory access: 4 B, unflagged, every lane inside the CTA's
 * smem_bytes and aligned. */
static inline void check_shared(const gm_inst *in, uint64_t smem_bytes)
{
    assert_int_equal(in->width, 4);
    assert_int_equal(in->flags, 0);
    for (int l = 0; l < GM_WARP_SIZE; l++)
        if (in->mask >> l & 1) {
            assert_true(in->addr[l] + 4 <= smem_bytes);
            assert_int_equal(in->addr[l] % 4, 0);
        }
}

/* Distinct values among v[0..n) (sorts v). */
static inline int distinct(uint64_t *v, int n)
{
    /* insertion sort, then count runs */
    for (int i = 1; i < n; i++) {
        uint64_t x = v[i];
        int j = i - 1;
        while (j >= 0 && v[j] > x) {
            v[j + 1] = v[j];
            j--;
        }
        v[j + 1] = x;
    }
    int d = 0;
    for (int i = 0; i < n; i++)
        d += i == 0 || v[i] != v[i - 1];
    return d;
}

/* ---------------------------------------------------------------- suite-level checks */

/* The test groups every catalogue suite runs on its own kernels, as
 * tables: each names the workloads it covers and keeps every assertion. */

static inline gm_workload build_tiny_seeded(const char *name, uint64_t seed)
{
    gm_workload w;
    gm_error err = {{0}};
    if (gm_workload_build(&w, name, GM_SIZE_TINY, seed, &err) != 0)
        fail_msg("%s: %s", name, err.msg);
    return w;
}

/* A stream pinned by hash (size tiny, seed 1, chunks of 16). */
typedef struct golden_stream {
    const char *name;
    uint64_t hash;
} golden_stream;

/* 1 (and the two hashes printed) when name's stream does not hash to
 * pinned, so that a table's test names every mismatch before it fails. */
static inline int golden_hash_differs(const char *name, uint64_t pinned)
{
    gm_workload w = build_tiny_seeded(name, 1);
    uint64_t h = hash_workload(&w, 16);
    gm_workload_free(&w);
    if (h == pinned)
        return 0;
    print_error("%s tiny: stream hash 0x%016llx, pinned 0x%016llx\n", name,
                (unsigned long long)h, (unsigned long long)pinned);
    return 1;
}

/* Every stream of g hashes to its pinned value. */
static inline void check_golden_hashes(const golden_stream *g, size_t n)
{
    int bad = 0;
    for (size_t i = 0; i < n; i++)
        bad += golden_hash_differs(g[i].name, g[i].hash);
    assert_int_equal(bad, 0);
}

/* Builds from seed 1 and seed_b, walked in chunks of 16, 17 and 4096,
 * give one stream (seed_b 1 where the stream depends on the data). */
static inline void check_same_stream(const char *name, uint64_t seed_b)
{
    gm_workload a = build_tiny_seeded(name, 1), b = build_tiny_seeded(name, seed_b);
    uint64_t h = hash_workload(&a, 16);
    assert_true(h == hash_workload(&b, 16));
    assert_true(h == hash_workload(&a, 17));
    assert_true(h == hash_workload(&b, 4096));
    gm_workload_free(&a);
    gm_workload_free(&b);
}

/* Round-robin generation of the last (often ragged) CTA of every step-th
 * kernel matches each warp generated alone. */
static inline void check_last_ctas_round_robin(const gm_workload *w, uint32_t step)
{
    for (uint32_t ki = 0; ki < w->nkernels; ki += step) {
        const gm_kernel *k = &w->kernels[ki];
        check_round_robin(k, gm_kernel_ctas(k) - 1);
    }
}

/* The library walker agrees with a count made here (warps, one EXIT a
 * warp, instructions by op, global accesses), the bench counts the same
 * instructions (its time is reported, never asserted), and the tiny
 * stream is between min_insts and max_insts instructions long. */
static inline void check_walk_counts(const char *name, uint64_t min_insts, uint64_t max_insts)
{
    gm_workload w = build_tiny_seeded(name, 1);
    gm_workload_counts wc;
    gm_error err;
    assert_int_equal(gm_workload_count(&w, &wc, &err), 0);
    uint64_t insts = 0, warps = 0;
    for (uint32_t ki = 0; ki < w.nkernels; ki++)
        warps += (uint64_t)gm_kernel_ctas(&w.kernels[ki]) *
                 gm_kernel_warps_per_cta(&w.kernels[ki]);
    for (int op = 0; op < GM_OP_COUNT; op++)
        insts += wc.by_op[op];
    assert_int_equal(wc.insts, insts);
    assert_int_equal(wc.warps, warps);
    assert_int_equal(wc.by_op[GM_OP_EXIT], warps);
    assert_int_equal(wc.global_mem, wc.by_op[GM_OP_GLOBAL_LD] + wc.by_op[GM_OP_GLOBAL_ST]);
    assert_true(wc.insts >= min_insts && wc.insts <= max_insts);
    gm_workload_bench_result r;
    assert_int_equal(gm_workload_bench(name, GM_SIZE_TINY, &r, &err), 0);
    assert_int_equal(r.insts, wc.insts);
    gm_workload_free(&w);
}

#endif
