/* The ATA tag array's co-simulation hook (gm_ata_tblk_twin, ata_tags.c):
 * with a twin attached every block edge clocks the twin with the C
 * block's inputs, hands compare() the C block's outputs and the twin's,
 * numbers the edges from 0, and the design's checks use the twin's
 * outputs. The twin here is a second, independent gm_ata_tblk (an honest
 * RTL stand-in), optionally lying about one hit-vector bit. Hit vectors
 * are derived by hand from the fills made. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "designs/ata/ata_tagblk.h"
#include "designs/ata/ata_tags.h"

#define L(n) ((uint64_t)(n) * 128u)

typedef struct fake {
    gm_ata_tblk b;
    uint32_t lie;               /* XORed into hit_vec[0] */
    uint64_t calls, differ;
    uint64_t next_cycle;        /* the cycle compare() should see next */
    bool cycles_in_order;
} fake;

static void fake_eval(void *ctx, gm_ata_tblk_out *out)
{
    fake *f = ctx;
    gm_ata_tblk_eval(&f->b, out);
    out->hit_vec[0] ^= f->lie;
}

static void fake_tick(void *ctx, const gm_ata_tblk_in *in)
{
    gm_ata_tblk_tick(&((fake *)ctx)->b, in);
}

static int fake_compare(void *ctx, uint64_t cycle, const gm_ata_tblk_out *e,
                        const gm_ata_tblk_out *a)
{
    fake *f = ctx;
    f->calls++;
    if (cycle != f->next_cycle)
        f->cycles_in_order = false;
    f->next_cycle = cycle + 1;
    bool d = e->hit_vec[0] != a->hit_vec[0] || e->hit_valid[0] != a->hit_valid[0];
    for (uint32_t n = 0; n < f->b.arrays; n++)
        d = d || e->evict_valid[n] != a->evict_valid[n] || e->evict_tag[n] != a->evict_tag[n];
    f->differ += d;
    return d;
}

typedef struct rig {
    gm_ata_tblk blk;
    gm_ata_tags t;
    fake f;
    gm_ata_tblk_twin hook;
} rig;

/* 3 arrays of 4 sets x 2 ways, one lookup port, 4 sectors. */
static void rig_init(rig *r, uint32_t lie)
{
    memset(r, 0, sizeof *r);
    assert_int_equal(gm_ata_tblk_init(&r->blk, 3, 4, 2, 64, 1, 4, NULL), 0);
    assert_int_equal(gm_ata_tblk_init(&r->f.b, 3, 4, 2, 64, 1, 4, NULL), 0);
    r->f.lie = lie;
    r->f.cycles_in_order = true;
    r->t.k = 3;
    r->t.blk = &r->blk;
    r->hook = (gm_ata_tblk_twin){&r->f, fake_eval, fake_tick, fake_compare};
    r->t.twin = &r->hook;
}

static void rig_free(rig *r)
{
    gm_ata_tblk_free(&r->blk);
    gm_ata_tblk_free(&r->f.b);
}

/* Array 1 holds line 5 with every sector, array 2 only sector 0. */
static void fill(rig *r)
{
    gm_ata_tags_mirror(&r->t, 1, GM_ATA_OP_FILL, L(5), 0xf, UINT64_MAX);
    gm_ata_tags_mirror(&r->t, 2, GM_ATA_OP_FILL, L(5), 0x1, UINT64_MAX);
}

static void test_honest_twin(void **state)
{
    (void)state;
    rig r;
    rig_init(&r, 0);
    fill(&r);
    gm_ata_tags_check(&r.t, L(5), 0xf, 0x2);   /* only array 1 has all four */
    gm_ata_tags_check(&r.t, L(5), 0x1, 0x6);   /* arrays 1 and 2 */
    gm_ata_tags_check(&r.t, L(9), 0x1, 0x0);   /* same set, other tag */
    gm_ata_tags_mirror(&r.t, 1, GM_ATA_OP_INVAL, L(5), 0, UINT64_MAX);
    gm_ata_tags_check(&r.t, L(5), 0x1, 0x4);
    assert_int_equal(r.f.calls, 7);            /* every edge, fills and touches too */
    assert_int_equal(r.t.edges, 7);
    assert_true(r.f.cycles_in_order);
    assert_int_equal(r.f.differ, 0);
    assert_int_equal(r.t.blk_mismatches, 0);
    rig_free(&r);
}

static void test_lying_twin_is_seen(void **state)
{
    (void)state;
    rig r;
    rig_init(&r, 0x1);
    fill(&r);
    assert_int_equal(r.f.differ, 2);           /* hit_vec[0] of an idle port: 0 vs 1 */
    gm_ata_tags_check(&r.t, L(5), 0xf, 0x2);
    assert_int_equal(r.f.differ, 3);
    /* the design checked the twin's 0x3 against the tag arrays' 0x2 */
    assert_int_equal(r.t.blk_mismatches, 1);
    rig_free(&r);
}

static void test_without_twin(void **state)
{
    (void)state;
    rig r;
    rig_init(&r, 0x1);
    r.t.twin = NULL;
    fill(&r);
    gm_ata_tags_check(&r.t, L(5), 0x1, 0x6);
    assert_int_equal(r.f.calls, 0);
    assert_int_equal(r.t.edges, 3);
    assert_int_equal(r.t.blk_mismatches, 0);
    rig_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_honest_twin),
        cmocka_unit_test(test_lying_twin_is_seen),
        cmocka_unit_test(test_without_twin),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
