// The SelRep Replication Degree Directory (docs/designs/selrep.md section
// 4; C twin cmodel/designs/selrep/selrep_rddb.{h,c}, gm_selrep_rddb):
// sampled sets of tags with a ClusterID bit vector each, saturating hit
// and access counters per degree, per-degree per-slice request counters,
// and the epoch-end decision B_d = LSP_d x (H_d x B_LLC + min((1-H_d) x
// B_LLC, B_mem)) in exact integer arithmetic, sequential over degrees.
//
// Ports are the C port struct's fields with _i/_o; outputs are registers,
// and a field whose valid is 0 is 0. The cycle behaviour is written out in
// selrep_rddb.h:
//   * counting (busy_o = 0): one access (sampled set, tag, cluster) and
//     Lanes request lanes (home slice, cluster) per cycle; the lanes of one
//     cycle add up before saturating.
//   * epoch_i: latches cand/keep/b_llc/b_mem and starts the decision. Per
//     degree index d: one load edge (sum and max of its request counters,
//     T = hits*b_llc + min((acc-hits)*b_llc, acc*b_mem), numerator
//     (sum*T) << 16 and denominator max*acc into registers; max = 0 or
//     acc = 0 (no sampled access: no hit rate to predict) gives 0/1, so
//     B = 0 and the degree is kept), then QW edges of restoring
//     division, one quotient bit each from the MSB. The quotient fits QW
//     bits because sum <= Slices*max and T <= acc*b_llc < acc*2^BwW, so
//     B < Slices * 2^(BwW+16). Latency: NumDeg*(QW+1) edges after the
//     epoch edge (16 slices, 5 degrees: 5 x 31 = 155 cycles).
//   * the choice: the largest B among cand, ties to the smallest degree
//     (the first found), B = 0 never chosen, keep when nothing qualifies.
//     The counters are cleared at the last edge; tags and ClusterIDs stay.
//
// Every register is reset, the tag store included (tag and ClusterID bits
// are don't-cares of invalid ways, but resetting them keeps the twin's
// state a plain function of the inputs under random initial values).
//
// Mutation (verification only, docs/verification.md section 7): 1 drops
// the min() of the bandwidth model (a miss always costs LLC bandwidth);
// 2 lets the counters wrap instead of saturating. 0 in every real build.
`include "gm_defs.svh"

module gm_selrep_rdd #(
  parameter int `GM_REQ_PARAM(Sets),
  parameter int `GM_REQ_PARAM(Ways),
  parameter int `GM_REQ_PARAM(Clusters),   // a power of two
  parameter int `GM_REQ_PARAM(Slices),     // slices of the MC-router, a power of two
  parameter int `GM_REQ_PARAM(NumDeg),     // 1 .. log2(min(Clusters, Slices)) + 1
  parameter int `GM_REQ_PARAM(CntW),
  parameter int `GM_REQ_PARAM(TagW),
  parameter int `GM_REQ_PARAM(Lanes),
  parameter int `GM_REQ_PARAM(Capacity),   // 1: a hit under degree d needs lru < Ways >> d
  parameter int Mutation = 0,
  localparam int BwW = 10,
  localparam int FracW = 16,
  localparam int SetW = `GM_SAFE_CLOG2(Sets),
  localparam int ClW = `GM_SAFE_CLOG2(Clusters),
  localparam int SlW = `GM_SAFE_CLOG2(Slices),
  localparam int DegW = `GM_SAFE_CLOG2(NumDeg),
  localparam int ClLog = $clog2(Clusters),
  localparam int SlLog = $clog2(Slices),
  localparam int SumW = CntW + SlLog,
  localparam int QW = SlLog + BwW + FracW
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic                   acc_valid_i,
  input  logic [SetW-1:0]        acc_set_i,
  input  logic [TagW-1:0]        acc_tag_i,
  input  logic [ClW-1:0]         acc_cluster_i,
  input  logic [Lanes-1:0]       req_valid_i,
  input  logic [Lanes*SlW-1:0]   req_home_i,
  input  logic [Lanes*ClW-1:0]   req_cluster_i,
  input  logic                   epoch_i,
  input  logic [NumDeg-1:0]      cand_i,
  input  logic [DegW-1:0]        keep_i,
  input  logic [BwW-1:0]         b_llc_i,
  input  logic [BwW-1:0]         b_mem_i,
  output logic                   busy_o,
  output logic                   bw_valid_o,
  output logic [DegW-1:0]        bw_deg_o,
  output logic [QW-1:0]          bw_o,
  output logic [SumW-1:0]        bw_sum_o,
  output logic [CntW-1:0]        bw_max_o,
  output logic [CntW-1:0]        bw_hits_o,
  output logic [CntW-1:0]        bw_acc_o,
  output logic                   deg_valid_o,
  output logic [DegW-1:0]        deg_o
);

  localparam int Entries = Sets * Ways;
  localparam int LruW = `GM_SAFE_CLOG2(Ways);
  localparam int LaneW = $clog2(Lanes + 1);
  localparam int TW = CntW + BwW + 1;                // T < 2^CntW * 2^BwW * 2
  localparam int NumW = SumW + TW + FracW;           // (sum * T) << 16
  localparam int DenW = 2 * CntW;                    // max * acc
  localparam int CmpW = (NumW > DenW + QW) ? NumW : DenW + QW;
  localparam int StepW = $clog2(QW + 1);
  localparam logic [CntW-1:0] CntMax = {CntW{1'b1}};

  // ---------------------------------------------------------------------
  // Registers.
  // ---------------------------------------------------------------------
  logic [Entries-1:0]            valid_q, valid_d;
  logic [Entries*TagW-1:0]       tag_q, tag_d;
  logic [Entries*Clusters-1:0]   ids_q, ids_d;
  logic [Entries*LruW-1:0]       lru_q, lru_d;
  logic [CntW-1:0]               acc_q, acc_d;
  logic [NumDeg*CntW-1:0]        hits_q, hits_d;
  logic [NumDeg*Slices*CntW-1:0] req_q, req_d;
  logic                          busy_q, busy_d;
  logic [DegW-1:0]               d_q, d_d;
  logic [StepW-1:0]              step_q, step_d;
  logic [NumDeg-1:0]             cand_q, cand_d;
  logic [DegW-1:0]               keep_q, keep_d;
  logic [BwW-1:0]                bllc_q, bllc_d, bmem_q, bmem_d;
  logic [NumW-1:0]               rem_q, rem_d;
  logic [DenW-1:0]               den_q, den_d;
  logic [QW-1:0]                 quo_q, quo_d;
  logic [SumW-1:0]               sum_q, sum_d;
  logic [CntW-1:0]               max_q, max_d;
  logic                          best_any_q, best_any_d;
  logic [DegW-1:0]               best_q, best_d;
  logic [QW-1:0]                 bestb_q, bestb_d;
  logic                          bw_valid_q, bw_valid_d, deg_valid_q, deg_valid_d;
  logic [DegW-1:0]               bw_deg_q, bw_deg_d, deg_q, deg_d;
  logic [QW-1:0]                 bw_q, bw_d;
  logic [SumW-1:0]               bw_sum_q, bw_sum_d;
  logic [CntW-1:0]               bw_max_q, bw_max_d, bw_hits_q, bw_hits_d, bw_acc_q, bw_acc_d;

  assign busy_o      = busy_q;
  assign bw_valid_o  = bw_valid_q;
  assign bw_deg_o    = bw_deg_q;
  assign bw_o        = bw_q;
  assign bw_sum_o    = bw_sum_q;
  assign bw_max_o    = bw_max_q;
  assign bw_hits_o   = bw_hits_q;
  assign bw_acc_o    = bw_acc_q;
  assign deg_valid_o = deg_valid_q;
  assign deg_o       = deg_q;

  // Saturating (or, mutant 2, wrapping) add of a small count.
  function automatic logic [CntW-1:0] sat_add(input logic [CntW-1:0] c,
                                              input logic [LaneW-1:0] n);
    logic [CntW+LaneW:0] s;
    s = (CntW+LaneW+1)'(c) + (CntW+LaneW+1)'(n);
    if (Mutation == 2) sat_add = s[CntW-1:0];
    else if (s > (CntW+LaneW+1)'(CntMax)) sat_add = CntMax;
    else sat_add = s[CntW-1:0];
  endfunction

  // ---------------------------------------------------------------------
  // Counting: the sampled access and the request lanes.
  // ---------------------------------------------------------------------
  // The accessed set's ways, read with constant indices only (a read or
  // write at a computed index is a shifter over the whole store in Yosys,
  // docs/results/area-timing.md section 3.1).
  logic [Ways-1:0]          row_valid;
  logic [Ways*TagW-1:0]     row_tag;
  logic [Ways*Clusters-1:0] row_ids;
  logic [Ways*LruW-1:0]     row_lru;
  logic                     hit;
  logic [LruW-1:0]          hit_way, vic_way, way, old_lru;
  logic [ClW-1:0]           acl;
  logic [Clusters-1:0]      way_ids;
  logic [NumDeg-1:0]        deg_hit;

  always_comb begin
    row_valid = '0;
    row_tag   = '0;
    row_ids   = '0;
    row_lru   = '0;
    for (int st = 0; st < Sets; st++) begin
      if (32'(acc_set_i) == st) begin
        row_valid = valid_q[st*Ways +: Ways];
        row_tag   = tag_q[st*Ways*TagW +: Ways*TagW];
        row_ids   = ids_q[st*Ways*Clusters +: Ways*Clusters];
        row_lru   = lru_q[st*Ways*LruW +: Ways*LruW];
      end
    end
    hit     = 1'b0;
    hit_way = '0;
    vic_way = '0;
    acl     = acc_cluster_i;
    for (int w = 0; w < Ways; w++) begin
      if (row_valid[w] && row_tag[w*TagW +: TagW] == acc_tag_i) begin
        hit     = 1'b1;
        hit_way = LruW'(w);
      end
      if (32'(row_lru[w*LruW +: LruW]) == 32'(Ways - 1)) begin
        vic_way = LruW'(w);
      end
    end
    way     = hit ? hit_way : vic_way;
    old_lru = '0;
    way_ids = '0;
    for (int w = 0; w < Ways; w++) begin
      if (32'(way) == w) begin
        old_lru = row_lru[w*LruW +: LruW];
        way_ids = row_ids[w*Clusters +: Clusters];
      end
    end
    // Degree d: the requester's replica group is the Clusters >> d
    // clusters that agree with it above bit ClLog - d.
    for (int d = 0; d < NumDeg; d++) begin
      deg_hit[d] = 1'b0;
      for (int k = 0; k < Clusters; k++) begin
        if (way_ids[k] && (k >> (ClLog - d)) == (32'(acl) >> (ClLog - d))) begin
          deg_hit[d] = hit;
        end
      end
      if (Capacity != 0 && 32'(old_lru) >= (Ways >> d)) begin
        deg_hit[d] = 1'b0;
      end
    end
  end

  // Per degree and slice: how many lanes this cycle would go there. The
  // target of lane k under degree d is home mod span + group * span,
  // span = Slices >> d, group = cluster >> (ClLog - d); each counter
  // compares it with its own (constant) slice.
  logic [NumDeg*Slices*LaneW-1:0] lane_cnt;
  int unsigned lhome, lcl, tgt;
  always_comb begin
    lane_cnt = '0;
    lhome    = '0;
    lcl      = '0;
    tgt      = '0;
    for (int d = 0; d < NumDeg; d++) begin
      for (int k = 0; k < Lanes; k++) begin
        lhome = 32'(req_home_i[k*SlW +: SlW]);
        lcl   = 32'(req_cluster_i[k*ClW +: ClW]);
        tgt   = (lhome & ((32'd1 << (SlLog - d)) - 1)) | ((lcl >> (ClLog - d)) << (SlLog - d));
        for (int i = 0; i < Slices; i++) begin
          if (req_valid_i[k] && tgt == i) begin
            lane_cnt[(d*Slices + i)*LaneW +: LaneW] =
              lane_cnt[(d*Slices + i)*LaneW +: LaneW] + LaneW'(1);
          end
        end
      end
    end
  end

  // ---------------------------------------------------------------------
  // Decision datapath for degree d_q.
  // ---------------------------------------------------------------------
  logic [SumW-1:0] ld_sum;
  logic [CntW-1:0] ld_r, ld_max, ld_hits;
  logic [TW-1:0]   ld_t, ld_mllc, ld_mmem;
  logic [NumW-1:0] ld_num;
  logic [DenW-1:0] ld_den;
  logic [Slices*CntW-1:0] cur_req;   // the request counters of degree d_q
  logic [CntW-1:0]        cur_hits;
  always_comb begin
    cur_req  = '0;
    cur_hits = '0;
    for (int d = 0; d < NumDeg; d++) begin
      if (32'(d_q) == d) begin
        cur_req  = req_q[d*Slices*CntW +: Slices*CntW];
        cur_hits = hits_q[d*CntW +: CntW];
      end
    end
    ld_sum = '0;
    ld_max = '0;
    ld_r   = '0;
    for (int i = 0; i < Slices; i++) begin
      ld_r   = cur_req[i*CntW +: CntW];
      ld_sum = ld_sum + SumW'(ld_r);
      if (ld_r > ld_max) ld_max = ld_r;
    end
    ld_hits  = cur_hits;
    if (ld_hits > acc_q) ld_hits = acc_q;
    ld_mllc  = (TW'(acc_q) - TW'(ld_hits)) * TW'(bllc_q);
    ld_mmem  = TW'(acc_q) * TW'(bmem_q);
    if (Mutation == 1 || ld_mllc < ld_mmem) ld_t = TW'(ld_hits) * TW'(bllc_q) + ld_mllc;
    else ld_t = TW'(ld_hits) * TW'(bllc_q) + ld_mmem;
    if (ld_max == '0 || acc_q == '0) begin
      ld_num = '0;
      ld_den = DenW'(1);
    end else begin
      ld_num = (NumW'(ld_sum) * NumW'(ld_t)) << FracW;
      ld_den = DenW'(ld_max) * DenW'(acc_q);
    end
  end

  // One restoring step: quotient bit QW - step_q.
  logic [CmpW-1:0] dv_sh;
  logic            dv_ge;
  logic [QW-1:0]   dv_quo;
  logic [NumW-1:0] dv_rem;
  int unsigned bitpos;
  always_comb begin
    bitpos = 32'(QW) - 32'(step_q);
    dv_sh  = CmpW'(den_q) << bitpos;
    dv_ge  = CmpW'(rem_q) >= dv_sh;
    dv_rem = dv_ge ? NumW'(CmpW'(rem_q) - dv_sh) : rem_q;
    dv_quo = quo_q;
    for (int b = 0; b < QW; b++) begin
      if (dv_ge && bitpos == b) dv_quo[b] = 1'b1;
    end
  end

  logic last_deg, better;
  assign last_deg = 32'(d_q) == 32'(NumDeg - 1);
  assign better   = cand_q[d_q] && dv_quo != '0 && (!best_any_q || dv_quo > bestb_q);

  // ---------------------------------------------------------------------
  // Next state.
  // ---------------------------------------------------------------------
  always_comb begin
    valid_d     = valid_q;
    tag_d       = tag_q;
    ids_d       = ids_q;
    lru_d       = lru_q;
    acc_d       = acc_q;
    hits_d      = hits_q;
    req_d       = req_q;
    busy_d      = busy_q;
    d_d         = d_q;
    step_d      = step_q;
    cand_d      = cand_q;
    keep_d      = keep_q;
    bllc_d      = bllc_q;
    bmem_d      = bmem_q;
    rem_d       = rem_q;
    den_d       = den_q;
    quo_d       = quo_q;
    sum_d       = sum_q;
    max_d       = max_q;
    best_any_d  = best_any_q;
    best_d      = best_q;
    bestb_d     = bestb_q;
    bw_valid_d  = 1'b0;
    bw_deg_d    = '0;
    bw_d        = '0;
    bw_sum_d    = '0;
    bw_max_d    = '0;
    bw_hits_d   = '0;
    bw_acc_d    = '0;
    deg_valid_d = 1'b0;
    deg_d       = '0;

    if (!busy_q) begin
      if (acc_valid_i) begin
        acc_d = sat_add(acc_q, LaneW'(1));
        for (int d = 0; d < NumDeg; d++) begin
          if (deg_hit[d]) hits_d[d*CntW +: CntW] = sat_add(hits_q[d*CntW +: CntW], LaneW'(1));
        end
        for (int st = 0; st < Sets; st++) begin
          if (32'(acc_set_i) == st) begin
            for (int w = 0; w < Ways; w++) begin
              if (32'(way) == w) begin
                lru_d[(st*Ways + w)*LruW +: LruW]           = '0;
                valid_d[st*Ways + w]                        = 1'b1;
                tag_d[(st*Ways + w)*TagW +: TagW]           = acc_tag_i;
                ids_d[(st*Ways + w)*Clusters +: Clusters]   =
                  (hit ? way_ids : '0) | (Clusters'(1) << acl);
              end else if (lru_q[(st*Ways + w)*LruW +: LruW] < old_lru) begin
                lru_d[(st*Ways + w)*LruW +: LruW] = lru_q[(st*Ways + w)*LruW +: LruW] +
                                                    LruW'(1);
              end
            end
          end
        end
      end
      for (int j = 0; j < NumDeg * Slices; j++) begin
        req_d[j*CntW +: CntW] = sat_add(req_q[j*CntW +: CntW], lane_cnt[j*LaneW +: LaneW]);
      end
      if (epoch_i) begin
        busy_d     = 1'b1;
        d_d        = '0;
        step_d     = '0;
        cand_d     = cand_i;
        keep_d     = keep_i;
        bllc_d     = b_llc_i;
        bmem_d     = b_mem_i;
        best_any_d = 1'b0;
        best_d     = '0;
        bestb_d    = '0;
      end
    end else if (step_q == '0) begin
      // Load degree d_q.
      rem_d  = ld_num;
      den_d  = ld_den;
      quo_d  = '0;
      sum_d  = ld_sum;
      max_d  = ld_max;
      step_d = StepW'(1);
    end else begin
      rem_d = dv_rem;
      quo_d = dv_quo;
      if (32'(step_q) == 32'(QW)) begin
        bw_valid_d = 1'b1;
        bw_deg_d   = d_q;
        bw_d       = dv_quo;
        bw_sum_d   = sum_q;
        bw_max_d   = max_q;
        bw_hits_d  = cur_hits;
        bw_acc_d   = acc_q;
        if (better) begin
          best_any_d = 1'b1;
          best_d     = d_q;
          bestb_d    = dv_quo;
        end
        if (last_deg) begin
          deg_valid_d = 1'b1;
          deg_d       = better ? d_q : (best_any_q ? best_q : keep_q);
          busy_d      = 1'b0;
          acc_d       = '0;
          hits_d      = '0;
          req_d       = '0;
        end else begin
          d_d    = d_q + DegW'(1);
          step_d = '0;
        end
      end else begin
        step_d = step_q + StepW'(1);
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      valid_q     <= '0;
      tag_q       <= '0;
      ids_q       <= '0;
      for (int e = 0; e < Entries; e++) lru_q[e*LruW +: LruW] <= LruW'(e % Ways);
      acc_q       <= '0;
      hits_q      <= '0;
      req_q       <= '0;
      busy_q      <= 1'b0;
      d_q         <= '0;
      step_q      <= '0;
      cand_q      <= '0;
      keep_q      <= '0;
      bllc_q      <= '0;
      bmem_q      <= '0;
      rem_q       <= '0;
      den_q       <= '0;
      quo_q       <= '0;
      sum_q       <= '0;
      max_q       <= '0;
      best_any_q  <= 1'b0;
      best_q      <= '0;
      bestb_q     <= '0;
      bw_valid_q  <= 1'b0;
      bw_deg_q    <= '0;
      bw_q        <= '0;
      bw_sum_q    <= '0;
      bw_max_q    <= '0;
      bw_hits_q   <= '0;
      bw_acc_q    <= '0;
      deg_valid_q <= 1'b0;
      deg_q       <= '0;
    end else begin
      valid_q     <= valid_d;
      tag_q       <= tag_d;
      ids_q       <= ids_d;
      lru_q       <= lru_d;
      acc_q       <= acc_d;
      hits_q      <= hits_d;
      req_q       <= req_d;
      busy_q      <= busy_d;
      d_q         <= d_d;
      step_q      <= step_d;
      cand_q      <= cand_d;
      keep_q      <= keep_d;
      bllc_q      <= bllc_d;
      bmem_q      <= bmem_d;
      rem_q       <= rem_d;
      den_q       <= den_d;
      quo_q       <= quo_d;
      sum_q       <= sum_d;
      max_q       <= max_d;
      best_any_q  <= best_any_d;
      best_q      <= best_d;
      bestb_q     <= bestb_d;
      bw_valid_q  <= bw_valid_d;
      bw_deg_q    <= bw_deg_d;
      bw_q        <= bw_d;
      bw_sum_q    <= bw_sum_d;
      bw_max_q    <= bw_max_d;
      bw_hits_q   <= bw_hits_d;
      bw_acc_q    <= bw_acc_d;
      deg_valid_q <= deg_valid_d;
      deg_q       <= deg_d;
    end
  end

`ifdef GM_ASSERTS_ON
  // The environment's contract (selrep_rddb.h). Checker logic: excluded
  // from coverage.
  /* verilator coverage_off */
  `GM_ASSERT(a_set_in_range, !acc_valid_i || 32'(acc_set_i) < Sets)
  `GM_ASSERT(a_cluster_in_range, !acc_valid_i || 32'(acc_cluster_i) < Clusters)
  `GM_ASSERT(a_keep_in_range, !epoch_i || 32'(keep_i) < NumDeg)
  `GM_ASSERT(a_no_epoch_while_busy, !(epoch_i && busy_q))
  // The quotient fits QW bits: the remainder is below den << bit before
  // every step, so no step can need a bit above QW - 1.
  `GM_ASSERT(a_quotient_fits, !(busy_q && step_q == StepW'(1)) ||
                              CmpW'(rem_q) < (CmpW'(den_q) << QW))
  // hits never exceed accesses (each hit is an access; both saturate).
  `GM_ASSERT(a_hits_le_acc, Mutation != 0 || !busy_q || step_q != '0 ||
                            hits_q[32'(d_q) * CntW +: CntW] <= acc_q)
  /* verilator coverage_on */
`endif

`ifndef SYNTHESIS
  // Elaboration-time parameter check: excluded from coverage.
  /* verilator coverage_off */
  initial begin
    if (Sets < 1 || Ways < 1 || Clusters < 1 || Slices < 1 || CntW < 1 || TagW < 1 ||
        Lanes < 1 || (Clusters & (Clusters - 1)) != 0 || (Slices & (Slices - 1)) != 0 ||
        NumDeg < 1 || NumDeg > ((ClLog < SlLog) ? ClLog : SlLog) + 1 ||
        Capacity < 0 || Capacity > 1) begin
      $fatal(1, "gm_selrep_rdd: bad parameters (Sets %0d Ways %0d Clusters %0d Slices %0d NumDeg %0d CntW %0d TagW %0d Lanes %0d Capacity %0d)",
             Sets, Ways, Clusters, Slices, NumDeg, CntW, TagW, Lanes, Capacity);
    end
  end
  /* verilator coverage_on */
`endif

endmodule
