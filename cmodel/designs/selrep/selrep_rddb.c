/* The RDD as a clocked block (selrep_rddb.h): counting through the RDD of
 * selrep_rdd.c, the decision's timing as the RTL's sequential divider
 * takes it. The quotients themselves come from gm_selrep_bandwidth at the
 * epoch edge (the counters are frozen while busy), so the RTL's divider is
 * checked against an arithmetic written independently of it. */
#include "designs/selrep/selrep_rddb.h"

#include <string.h>

static bool pow2(uint32_t x)
{
    return x && !(x & (x - 1));
}

static uint32_t clog2(uint32_t x)
{
    uint32_t n = 0;
    while ((1ull << n) < x)
        n++;
    return n;
}

uint32_t gm_selrep_rddb_qw(uint32_t slices)
{
    return clog2(slices) + GM_SELREP_RDDB_BW_BITS + GM_SELREP_FRAC_BITS;
}

uint32_t gm_selrep_rddb_latency(const gm_selrep_rddb *b)
{
    return b->p.ndeg * (b->qw + 1) + 1;
}

int gm_selrep_rddb_init(gm_selrep_rddb *b, const gm_selrep_rddb_params *p, gm_error *err)
{
    memset(b, 0, sizeof *b);
    if (!pow2(p->clusters) || p->clusters > 64 || !pow2(p->slices) ||
        p->slices > GM_SELREP_MAX_SLICES)
        return gm_fail(err, "selrep RDD block: clusters (%u) and slices (%u) must be powers "
                            "of two up to 64", p->clusters, p->slices);
    uint32_t maxd = p->clusters < p->slices ? p->clusters : p->slices;
    if (p->ndeg < 1 || p->ndeg > clog2(maxd) + 1 || p->ndeg > GM_SELREP_MAX_DEG)
        return gm_fail(err, "selrep RDD block: %u degrees, want 1..%u", p->ndeg,
                       clog2(maxd) + 1);
    if (p->counter_bits < 1 || p->counter_bits > gm_selrep_max_counter_bits(p->slices))
        return gm_fail(err, "selrep RDD block: counter_bits = %u, want 1..%u",
                       p->counter_bits, gm_selrep_max_counter_bits(p->slices));
    if (p->tag_bits < 1 || p->tag_bits > 64 || p->lanes < 1 ||
        p->lanes > GM_SELREP_RDDB_MAX_LANES)
        return gm_fail(err, "selrep RDD block: tag_bits = %u (1..64), lanes = %u (1..%u)",
                       p->tag_bits, p->lanes, GM_SELREP_RDDB_MAX_LANES);
    b->p = *p;
    b->g.clusters = p->clusters;
    b->g.per_mc = p->slices;
    b->g.ndeg = p->ndeg;
    b->qw = gm_selrep_rddb_qw(p->slices);
    if (gm_selrep_rdd_init(&b->rdd, &b->g, p->sets, p->ways, p->counter_bits, p->capacity,
                           err))
        return -1;
    return 0;
}

void gm_selrep_rddb_free(gm_selrep_rddb *b)
{
    gm_selrep_rdd_free(&b->rdd);
}

void gm_selrep_rddb_eval(const gm_selrep_rddb *b, gm_selrep_rddb_out *out)
{
    *out = b->out;
}

static void finish_degree(gm_selrep_rddb *b)
{
    const gm_selrep_counters *c = &b->snap;
    uint32_t d = b->d, sum = 0, max = 0;
    for (uint32_t i = 0; i < c->per_mc; i++) {
        sum += c->req[d][i];
        if (c->req[d][i] > max)
            max = c->req[d][i];
    }
    b->out.bw_valid = 1;
    b->out.bw_deg = (uint8_t)d;
    b->out.bw = b->b[d];
    b->out.bw_sum = sum;
    b->out.bw_max = max;
    b->out.bw_hits = c->hits[d];
    b->out.bw_acc = c->acc;
    if (d + 1 == b->p.ndeg) {
        b->out.deg_valid = 1;
        b->out.deg = (uint8_t)b->pick;
        b->busy = false;
        gm_selrep_rdd_clear(&b->rdd);
    } else {
        b->d++;
        b->step = 0;
    }
}

void gm_selrep_rddb_tick(gm_selrep_rddb *b, const gm_selrep_rddb_in *in)
{
    gm_selrep_rddb_out keep_out = {.busy = b->busy};
    b->out = keep_out;   /* valids and their fields drop after one cycle */
    if (b->busy) {
        if (b->step == b->qw)
            finish_degree(b);
        else
            b->step++;
        b->out.busy = b->busy;
        return;
    }
    uint64_t tmask = b->p.tag_bits == 64 ? ~(uint64_t)0 : (((uint64_t)1 << b->p.tag_bits) - 1);
    if (in->acc_valid)
        gm_selrep_rdd_access(&b->rdd, in->acc_set, in->acc_tag & tmask, in->acc_cluster);
    for (uint32_t k = 0; k < b->p.lanes; k++)
        if (in->req_valid[k])
            gm_selrep_rdd_count_request(&b->rdd, &b->g, in->req_home[k], in->req_cluster[k]);
    if (in->epoch) {
        b->snap = b->rdd.c;
        uint32_t cand = in->cand & ((1u << b->p.ndeg) - 1);
        b->pick = gm_selrep_pick(&b->snap, in->b_llc, in->b_mem, cand, in->keep, b->b);
        b->busy = true;
        b->d = 0;
        b->step = 0;
        b->out.busy = 1;
    }
}
