// The banked aggregated tag array of one ATA-Cache cluster (ATA seed
// section III-B, Fig. 6; docs/designs/ata.md section 9).
//
// NumArrays tag arrays (one per L1 of the cluster) of NumSets sets x
// NumWays ways. Every set of every array is its own bank, so any number of
// requests to different sets read their tags in the same cycle. Per
// request port, one tag selector per array (a one-hot multiplexer over the
// sets, gm_onehot_mux, selected by the request's set index) routes the
// tags of that set to the port's comparators; the NumWays comparators per
// array and port match tag, tag-valid and sector-valid bits, giving one
// hit-vector bit per array: bit n of hit_vec_o[p] is set when array n
// holds the line with every sector of the request's mask valid.
//
// Timing (Moore outputs, SPEC section 2): requests are registered at the
// edge; in the next cycle hit_valid_o / hit_vec_o give the result against
// the tag state after the updates of that same edge. Updates: one port per
// array (its L1's fill, invalidate and LRU touch):
//   touch       the way holding the tag becomes most recently used
//   fill        present: sectors ORed in, touched; absent: the lowest-
//               numbered free way, or else the least recently used way,
//               takes the tag with exactly these sectors and is touched;
//               evict_valid_o / evict_tag_o report the line it replaced in
//               the next cycle
//   invalidate  the way holding the tag is freed
// LRU: per way an age, 0 = most recently used; the ages of a set are
// always a permutation of 0..NumWays-1 (reset: way w has age w). A touch of
// way w ages by one every way younger than w and makes w age 0: exact LRU,
// the same order as the C tag array's use stamps.
//
// Mutation (verification only, docs/verification.md section 7): 1 feeds
// every port's tag selectors with port 0's set index; 2 drops the sector
// check of the comparators; 3 fills the most recently used way instead of
// the least recently used one. The lockstep must catch each.
`include "gm_defs.svh"

module gm_ata_tags #(
  parameter int `GM_REQ_PARAM(NumArrays),
  parameter int `GM_REQ_PARAM(NumSets),
  parameter int `GM_REQ_PARAM(NumWays),
  parameter int `GM_REQ_PARAM(TagWidth),
  parameter int `GM_REQ_PARAM(NumPorts),
  parameter int `GM_REQ_PARAM(NumSectors),
  parameter int Mutation = 0,
  localparam int SetW = `GM_SAFE_CLOG2(NumSets),
  localparam int AgeW = `GM_SAFE_CLOG2(NumWays)
) (
  input  logic                             clk_i,
  input  logic                             rst_ni,
  // lookups
  input  logic [NumPorts-1:0]              req_valid_i,
  input  logic [NumPorts*SetW-1:0]         req_set_i,
  input  logic [NumPorts*TagWidth-1:0]     req_tag_i,
  input  logic [NumPorts*NumSectors-1:0]   req_sectors_i,
  output logic [NumPorts-1:0]              hit_valid_o,
  output logic [NumPorts*NumArrays-1:0]    hit_vec_o,
  // tag updates, one port per array
  input  logic [NumArrays-1:0]             upd_valid_i,
  input  logic [NumArrays*2-1:0]           upd_op_i,
  input  logic [NumArrays*SetW-1:0]        upd_set_i,
  input  logic [NumArrays*TagWidth-1:0]    upd_tag_i,
  input  logic [NumArrays*NumSectors-1:0]  upd_sectors_i,
  output logic [NumArrays-1:0]             evict_valid_o,
  output logic [NumArrays*TagWidth-1:0]    evict_tag_o
);

  localparam logic [1:0] OpTouch = 2'd0;
  localparam logic [1:0] OpFill = 2'd1;
  localparam logic [1:0] OpInval = 2'd2;

  // One way: {sector-valid, tag-valid, tag}.
  localparam int EntW = NumSectors + 1 + TagWidth;
  localparam int SetBits = NumWays * EntW;
  localparam int ArrBits = NumSets * SetBits;
  localparam int NumLines = NumArrays * NumSets * NumWays;

  // ---- state ----------------------------------------------------------------------
  logic [NumArrays*ArrBits-1:0]      ent_q, ent_d;
  logic [NumLines*AgeW-1:0]          age_q, age_d;
  logic [NumPorts-1:0]               rv_q;
  logic [NumPorts*SetW-1:0]          rset_q;
  logic [NumPorts*TagWidth-1:0]      rtag_q;
  logic [NumPorts*NumSectors-1:0]    rsec_q;
  logic [NumArrays-1:0]              ev_valid_q, ev_valid_d;
  logic [NumArrays*TagWidth-1:0]     ev_tag_q, ev_tag_d;

  // Reset ages: way w of every set has age w.
  function automatic logic [NumLines*AgeW-1:0] reset_ages();
    reset_ages = '0;
    for (int l = 0; l < NumLines; l++) begin
      reset_ages[l*AgeW +: AgeW] = AgeW'(l % NumWays);
    end
  endfunction

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      ent_q <= '0;
      age_q <= reset_ages();
      rv_q <= '0;
      rset_q <= '0;
      rtag_q <= '0;
      rsec_q <= '0;
      ev_valid_q <= '0;
      ev_tag_q <= '0;
    end else begin
      ent_q <= ent_d;
      age_q <= age_d;
      rv_q <= req_valid_i;
      rset_q <= req_set_i;
      rtag_q <= req_tag_i;
      rsec_q <= req_sectors_i;
      ev_valid_q <= ev_valid_d;
      ev_tag_q <= ev_tag_d;
    end
  end

  // ---- lookups: tag selectors and comparators ---------------------------------------
  logic [NumPorts*NumArrays-1:0] hit;

  for (genvar p = 0; p < NumPorts; p++) begin : g_port
    logic [SetW-1:0] set_sel;
    logic [NumSets-1:0] set_oh;
    assign set_sel = (Mutation == 1) ? rset_q[0 +: SetW] : rset_q[p*SetW +: SetW];
    always_comb begin
      set_oh = '0;
      for (int s = 0; s < NumSets; s++) begin
        set_oh[s] = (set_sel == SetW'(s));
      end
    end
    for (genvar n = 0; n < NumArrays; n++) begin : g_arr
      logic [SetBits-1:0] ways;
      // the tag selector of array n for port p
      gm_onehot_mux #(
        .N    (NumSets),
        .Width(SetBits)
      ) u_tag_sel (
        .sel_i (set_oh),
        .data_i(ent_q[n*ArrBits +: ArrBits]),
        .data_o(ways)
      );
      always_comb begin
        logic [TagWidth-1:0] tag;
        logic [NumSectors-1:0] need, sec;
        logic used, m;
        need = rsec_q[p*NumSectors +: NumSectors];
        m = 1'b0;
        for (int w = 0; w < NumWays; w++) begin
          tag = ways[w*EntW +: TagWidth];
          used = ways[w*EntW + TagWidth];
          sec = ways[w*EntW + TagWidth + 1 +: NumSectors];
          if (used && tag == rtag_q[p*TagWidth +: TagWidth] &&
              ((Mutation == 2) || (sec & need) == need)) begin
            m = 1'b1;
          end
        end
        hit[p*NumArrays + n] = m;
      end
    end
  end

  assign hit_valid_o = rv_q;
  // an idle port drives an all-zero vector
  always_comb begin
    hit_vec_o = '0;
    for (int p = 0; p < NumPorts; p++) begin
      hit_vec_o[p*NumArrays +: NumArrays] = hit[p*NumArrays +: NumArrays] &
                                            {NumArrays{rv_q[p]}};
    end
  end

  // ---- updates ----------------------------------------------------------------------
  localparam int WayW = `GM_SAFE_CLOG2(NumWays);

  for (genvar n = 0; n < NumArrays; n++) begin : g_upd
    logic [SetW-1:0] set;
    logic [TagWidth-1:0] utag;
    logic [NumSectors-1:0] usec;
    logic [1:0] op;
    logic [AgeW-1:0] age_lru_want;
    logic [SetBits-1:0] ways;               // the entries of the addressed set
    logic [NumWays*AgeW-1:0] ages;          // and their ages
    logic [NumWays-1:0] match, free;
    logic any_match, any_free, touch;
    logic [WayW-1:0] target;
    logic [EntW-1:0] e;
    logic [AgeW-1:0] touched_age;
    logic [ArrBits-1:0] arr_d;
    logic [NumSets*NumWays*AgeW-1:0] age_arr_d;
    assign set = upd_set_i[n*SetW +: SetW];
    assign utag = upd_tag_i[n*TagWidth +: TagWidth];
    assign usec = upd_sectors_i[n*NumSectors +: NumSectors];
    assign op = upd_op_i[n*2 +: 2];
    assign age_lru_want = (Mutation == 3) ? '0 : AgeW'(NumWays - 1);

    // the addressed set's ways and ages (the update side's own selectors)
    always_comb begin
      ways = '0;
      ages = '0;
      for (int s = 0; s < NumSets; s++) begin
        if (set == SetW'(s)) begin
          ways = ent_q[n*ArrBits + s*SetBits +: SetBits];
          ages = age_q[(n*NumSets + s)*NumWays*AgeW +: NumWays*AgeW];
        end
      end
    end

    // which way the update addresses: the one holding the tag (at most
    // one), else the lowest-numbered free way, else the LRU way
    always_comb begin
      match = '0;
      free = '0;
      any_match = 1'b0;
      any_free = 1'b0;
      target = '0;
      for (int w = 0; w < NumWays; w++) begin
        match[w] = ways[w*EntW + TagWidth] && ways[w*EntW +: TagWidth] == utag;
        free[w] = !ways[w*EntW + TagWidth];
      end
      for (int w = NumWays - 1; w >= 0; w--) begin
        if (free[w]) begin
          any_free = 1'b1;
          target = WayW'(w);
        end
      end
      if (!any_free) begin
        for (int w = 0; w < NumWays; w++) begin
          if (ages[w*AgeW +: AgeW] == age_lru_want) target = WayW'(w);
        end
      end
      for (int w = 0; w < NumWays; w++) begin
        if (match[w]) begin
          any_match = 1'b1;
          target = WayW'(w);
        end
      end
    end

    // the new entry of the target way, and whether it is touched
    always_comb begin
      e = '0;
      touch = 1'b0;
      ev_valid_d[n] = 1'b0;
      ev_tag_d[n*TagWidth +: TagWidth] = '0;
      touched_age = '0;
      for (int w = 0; w < NumWays; w++) begin
        if (target == WayW'(w)) begin
          e = ways[w*EntW +: EntW];
          touched_age = ages[w*AgeW +: AgeW];
        end
      end
      if (upd_valid_i[n]) begin
        unique case (op)
          OpTouch: touch = any_match;
          OpFill: begin
            touch = 1'b1;
            if (any_match) begin
              e[TagWidth+1 +: NumSectors] = e[TagWidth+1 +: NumSectors] | usec;
            end else begin
              ev_valid_d[n] = e[TagWidth];
              ev_tag_d[n*TagWidth +: TagWidth] = e[TagWidth] ? e[TagWidth-1:0] : '0;
              e = {usec, 1'b1, utag};
            end
          end
          OpInval: begin
            if (any_match) e = '0;
          end
          default: ;
        endcase
      end
    end

    // write back: the target way of the addressed set, and its ages
    always_comb begin
      arr_d = ent_q[n*ArrBits +: ArrBits];
      age_arr_d = age_q[n*NumSets*NumWays*AgeW +: NumSets*NumWays*AgeW];
      for (int s = 0; s < NumSets; s++) begin
        for (int w = 0; w < NumWays; w++) begin
          if (upd_valid_i[n] && set == SetW'(s)) begin
            if (target == WayW'(w)) begin
              arr_d[(s*NumWays + w)*EntW +: EntW] = e;
            end
            if (touch) begin
              if (target == WayW'(w)) begin
                age_arr_d[(s*NumWays + w)*AgeW +: AgeW] = '0;
              end else if (ages[w*AgeW +: AgeW] < touched_age) begin
                age_arr_d[(s*NumWays + w)*AgeW +: AgeW] = ages[w*AgeW +: AgeW] + 1'b1;
              end
            end
          end
        end
      end
    end
    assign ent_d[n*ArrBits +: ArrBits] = arr_d;
    assign age_d[n*NumSets*NumWays*AgeW +: NumSets*NumWays*AgeW] = age_arr_d;
  end

  assign evict_valid_o = ev_valid_q;
  assign evict_tag_o = ev_tag_q;

`ifdef GM_ASSERTS_ON
  // the environment never sends the reserved opcode or an out-of-range set
  for (genvar n = 0; n < NumArrays; n++) begin : g_chk
    `GM_ASSERT(UpdOpKnown, !upd_valid_i[n] || upd_op_i[n*2 +: 2] != 2'd3)
    `GM_ASSERT(UpdSetInRange, !upd_valid_i[n] || 32'(upd_set_i[n*SetW +: SetW]) < NumSets)
  end
  for (genvar p = 0; p < NumPorts; p++) begin : g_rchk
    `GM_ASSERT(ReqSetInRange, !req_valid_i[p] || 32'(req_set_i[p*SetW +: SetW]) < NumSets)
  end
`endif

`ifndef SYNTHESIS
  /* verilator coverage_off */
  initial begin
    if (NumArrays < 1 || NumSets < 1 || NumWays < 1 || TagWidth < 1 || NumPorts < 1 ||
        NumSectors < 1) begin
      $fatal(1, "gm_ata_tags: every size must be >= 1 (arrays %0d sets %0d ways %0d tag %0d ports %0d sectors %0d)",
             NumArrays, NumSets, NumWays, TagWidth, NumPorts, NumSectors);
    end
  end
  /* verilator coverage_on */
`endif

endmodule
