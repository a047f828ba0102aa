// The ports of the Verilated gm_selrep_rdd as the C port struct of
// gm_selrep_rddb (cmodel/designs/selrep/selrep_rddb.h): used by the block
// lockstep bench and by the system co-simulation.
#ifndef GM_TB_SELREP_RDD_PORTS_H
#define GM_TB_SELREP_RDD_PORTS_H

#include <cstdint>

#include "../common/lockstep.h"

extern "C" {
#include "designs/selrep/selrep_rddb.h"
}

namespace gm_tb {

inline unsigned rdd_safe_clog2(unsigned n)
{
    unsigned b = 0;
    while ((1u << b) < n) b++;
    return n > 1 ? b : 1;
}

template <class VTop>
void rdd_put_inputs(VTop* top, const gm_selrep_rddb_params& p, const gm_selrep_rddb_in& in)
{
    const unsigned slw = rdd_safe_clog2(p.slices), clw = rdd_safe_clog2(p.clusters);
    top->acc_valid_i = in.acc_valid;
    top->acc_set_i = in.acc_set;
    top->acc_tag_i = in.acc_tag;
    top->acc_cluster_i = in.acc_cluster;
    uint64_t v = 0, h = 0, c = 0;
    for (unsigned k = 0; k < p.lanes; k++) {
        v |= static_cast<uint64_t>(in.req_valid[k] & 1u) << k;
        h |= static_cast<uint64_t>(in.req_home[k]) << (k * slw);
        c |= static_cast<uint64_t>(in.req_cluster[k]) << (k * clw);
    }
    top->req_valid_i = v;
    top->req_home_i = h;
    top->req_cluster_i = c;
    top->epoch_i = in.epoch;
    top->cand_i = in.cand;
    top->keep_i = in.keep;
    top->b_llc_i = in.b_llc;
    top->b_mem_i = in.b_mem;
}

template <class VTop>
void rdd_get_outputs(const VTop* top, gm_selrep_rddb_out* o)
{
    o->busy = top->busy_o;
    o->bw_valid = top->bw_valid_o;
    o->bw_deg = top->bw_deg_o;
    o->bw = top->bw_o;
    o->bw_sum = top->bw_sum_o;
    o->bw_max = top->bw_max_o;
    o->bw_hits = top->bw_hits_o;
    o->bw_acc = top->bw_acc_o;
    o->deg_valid = top->deg_valid_o;
    o->deg = top->deg_o;
}

inline void rdd_compare(const gm_selrep_rddb_out& e, const gm_selrep_rddb_out& a, Checker& chk)
{
#define GM_RDD_FIELD(port, f) chk.expect(port, 0, #f, e.f, a.f)
    GM_RDD_FIELD("busy", busy);
    GM_RDD_FIELD("bw", bw_valid);
    GM_RDD_FIELD("bw", bw_deg);
    GM_RDD_FIELD("bw", bw);
    GM_RDD_FIELD("bw", bw_sum);
    GM_RDD_FIELD("bw", bw_max);
    GM_RDD_FIELD("bw", bw_hits);
    GM_RDD_FIELD("bw", bw_acc);
    GM_RDD_FIELD("deg", deg_valid);
    GM_RDD_FIELD("deg", deg);
#undef GM_RDD_FIELD
}

}  // namespace gm_tb

#endif
