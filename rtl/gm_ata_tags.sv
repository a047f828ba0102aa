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
// Hierarchy (so that synthesis maps each kind of part once and sums the
// instances, docs/results/area-timing.md section 1c): NumArrays x NumSets
// banks (gm_ata_bank, one set each), NumPorts x NumArrays tag selectors
// (gm_onehot_mux) each feeding one comparator group (gm_ata_match), and
// per array an update-side selector (gm_onehot_mux over the sets' ways and
// ages) feeding the array's update unit (gm_ata_update), whose decision the
// addressed bank applies.
//
// Mutation (verification only, docs/verification.md section 7): 1 feeds
// every port's tag selectors with port 0's set index; 2 drops the sector
// check of the comparators (gm_ata_match); 3 fills the most recently used
// way instead of the least recently used one (gm_ata_update). The lockstep
// must catch each.
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

  // One way: {sector-valid, tag-valid, tag}.
  localparam int EntW = NumSectors + 1 + TagWidth;
  localparam int SetBits = NumWays * EntW;
  localparam int ArrBits = NumSets * SetBits;
  // One set as the update side reads it: {ages, ways}.
  localparam int SetStateW = NumWays * AgeW + SetBits;

  // ---- registered requests and evictions --------------------------------------------
  logic [NumPorts-1:0]               rv_q;
  logic [NumPorts*SetW-1:0]          rset_q;
  logic [NumPorts*TagWidth-1:0]      rtag_q;
  logic [NumPorts*NumSectors-1:0]    rsec_q;
  logic [NumArrays-1:0]              ev_valid_q, ev_valid_d;
  logic [NumArrays*TagWidth-1:0]     ev_tag_q, ev_tag_d;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      rv_q <= '0;
      rset_q <= '0;
      rtag_q <= '0;
      rsec_q <= '0;
      ev_valid_q <= '0;
      ev_tag_q <= '0;
    end else begin
      rv_q <= req_valid_i;
      rset_q <= req_set_i;
      rtag_q <= req_tag_i;
      rsec_q <= req_sectors_i;
      ev_valid_q <= ev_valid_d;
      ev_tag_q <= ev_tag_d;
    end
  end

  // One-hot set select: all zero for an index >= NumSets.
  function automatic logic [NumSets-1:0] decode_set(input logic [SetW-1:0] set);
    decode_set = '0;
    for (int s = 0; s < NumSets; s++) begin
      decode_set[s] = (set == SetW'(s));
    end
  endfunction

  // ---- the banks, and the updates ----------------------------------------------------
  // ent_all: every array's sets as the tag selectors read them (array n,
  // set s at [n*ArrBits + s*SetBits]); state_all: per array, per set, the
  // {ages, ways} the update-side selector reads.
  logic [NumArrays*ArrBits-1:0]            ent_all;
  logic [NumArrays*NumSets*SetStateW-1:0]  state_all;

  for (genvar n = 0; n < NumArrays; n++) begin : g_arr
    logic [NumSets-1:0] upd_oh;
    logic [SetStateW-1:0] set_state;
    logic [AgeW-1:0] way, touched_age;
    logic [EntW-1:0] ent;
    logic touch;

    assign upd_oh = decode_set(upd_set_i[n*SetW +: SetW]);

    // the update side's own selector: the addressed set's ages and ways
    gm_onehot_mux #(
      .N    (NumSets),
      .Width(SetStateW)
    ) u_upd_sel (
      .sel_i (upd_oh),
      .data_i(state_all[n*NumSets*SetStateW +: NumSets*SetStateW]),
      .data_o(set_state)
    );

    gm_ata_update #(
      .NumWays   (NumWays),
      .TagWidth  (TagWidth),
      .NumSectors(NumSectors),
      .Mutation  (Mutation)
    ) u_update (
      .valid_i      (upd_valid_i[n]),
      .op_i         (upd_op_i[n*2 +: 2]),
      .tag_i        (upd_tag_i[n*TagWidth +: TagWidth]),
      .sectors_i    (upd_sectors_i[n*NumSectors +: NumSectors]),
      .ways_i       (set_state[0 +: SetBits]),
      .ages_i       (set_state[SetBits +: NumWays*AgeW]),
      .way_o        (way),
      .ent_o        (ent),
      .touch_o      (touch),
      .touched_age_o(touched_age),
      .evict_valid_o(ev_valid_d[n]),
      .evict_tag_o  (ev_tag_d[n*TagWidth +: TagWidth])
    );

    for (genvar s = 0; s < NumSets; s++) begin : g_set
      logic [SetBits-1:0] ways;
      logic [NumWays*AgeW-1:0] ages;
      gm_ata_bank #(
        .NumWays(NumWays),
        .EntW   (EntW)
      ) u_bank (
        .clk_i        (clk_i),
        .rst_ni       (rst_ni),
        .we_i         (upd_valid_i[n] && upd_oh[s]),
        .way_i        (way),
        .ent_i        (ent),
        .touch_i      (touch),
        .touched_age_i(touched_age),
        .ent_o        (ways),
        .age_o        (ages)
      );
      assign ent_all[n*ArrBits + s*SetBits +: SetBits] = ways;
      assign state_all[(n*NumSets + s)*SetStateW +: SetStateW] = {ages, ways};
    end
  end

  // ---- lookups: tag selectors and comparators ---------------------------------------
  logic [NumPorts*NumArrays-1:0] hit;

  for (genvar p = 0; p < NumPorts; p++) begin : g_port
    logic [NumSets-1:0] set_oh;
    assign set_oh = decode_set((Mutation == 1) ? rset_q[0 +: SetW] : rset_q[p*SetW +: SetW]);
    for (genvar n = 0; n < NumArrays; n++) begin : g_arr
      logic [SetBits-1:0] ways;
      // the tag selector of array n for port p
      gm_onehot_mux #(
        .N    (NumSets),
        .Width(SetBits)
      ) u_tag_sel (
        .sel_i (set_oh),
        .data_i(ent_all[n*ArrBits +: ArrBits]),
        .data_o(ways)
      );
      gm_ata_match #(
        .NumWays   (NumWays),
        .TagWidth  (TagWidth),
        .NumSectors(NumSectors),
        .Mutation  (Mutation)
      ) u_match (
        .ways_i(ways),
        .tag_i (rtag_q[p*TagWidth +: TagWidth]),
        .need_i(rsec_q[p*NumSectors +: NumSectors]),
        .hit_o (hit[p*NumArrays + n])
      );
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
