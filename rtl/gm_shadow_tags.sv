// The shadow tag array of one CCN node (docs/designs/ccn.md section 5; C
// twin cmodel/designs/ccn/ccn_shadow.{h,c}, gm_shadow_tags): a copy of the
// valid bits and tags of one L1's Sets x Ways tag array, written by two
// write ports that mirror the L1's tag updates (a fill's allocation and a
// store's invalidation can fall in one cycle), looked up by the ring
// request at the head of the node's ReqQ.
//
// Ports are the C port struct's fields with _i/_o. Outputs are Moore: a
// lookup presented in cycle t is answered in cycle t+1 (lk_done_o), with
// lk_hit_o, the lowest hitting way lk_way_o and steal_o (= lk_hit_o: take
// one cycle of the L1 data array to read the line), all 0 when no lookup
// was presented. The answer is against the array as written at the end of
// cycle t: port 0's write, then port 1's (on one entry port 1 wins), are
// forwarded to the lookup of the same cycle, so the copy answers exactly
// as the L1's own tags would after the cycle's updates.
//
// Registers: valid_q (Sets*Ways bits, reset to 0), tag_q (Sets*Ways*TagW
// bits, not reset: a tag is read only where its valid bit is set), and the
// registered lookup answer. Flat vectors, not a memory, so synthesis maps
// them to flops (docs/results/area-timing.md compares with the seed's
// single-ported SRAM).
//
// Mutation (verification only): 1 lets port 0 win over port 1 on one
// entry; 2 answers a lookup without the same cycle's writes. 0 in every
// real build.
`include "gm_defs.svh"

module gm_shadow_tags #(
  parameter int `GM_REQ_PARAM(Sets),
  parameter int `GM_REQ_PARAM(Ways),
  parameter int `GM_REQ_PARAM(TagW),
  parameter int Mutation = 0,
  localparam int SetW = `GM_SAFE_CLOG2(Sets),
  localparam int WayW = `GM_SAFE_CLOG2(Ways),
  localparam int Entries = Sets * Ways,
  localparam int IdxW = `GM_SAFE_CLOG2(Entries)
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  // write port 0
  input  logic            wr0_valid_i,
  input  logic [SetW-1:0] wr0_set_i,
  input  logic [WayW-1:0] wr0_way_i,
  input  logic            wr0_tag_valid_i,
  input  logic [TagW-1:0] wr0_tag_i,
  // write port 1, applied after port 0
  input  logic            wr1_valid_i,
  input  logic [SetW-1:0] wr1_set_i,
  input  logic [WayW-1:0] wr1_way_i,
  input  logic            wr1_tag_valid_i,
  input  logic [TagW-1:0] wr1_tag_i,
  // lookup
  input  logic            lk_valid_i,
  input  logic [SetW-1:0] lk_set_i,
  input  logic [TagW-1:0] lk_tag_i,
  output logic            lk_done_o,
  output logic            lk_hit_o,
  output logic [WayW-1:0] lk_way_o,
  output logic            steal_o
);

  logic [Entries-1:0]      valid_q, valid_d;
  logic [Entries*TagW-1:0] tag_q, tag_d;
  logic                    done_q, done_d, hit_q, hit_d;
  logic [WayW-1:0]         way_q, way_d;

  // The array after this cycle's writes: port 1 after port 0 (Mutation 1
  // swaps them). The order is a select, not an if on a parameter: coverage
  // would count the constant arm as a branch no run can take.
  logic            swap;
  logic            a_v, b_v, a_tv, b_tv;
  logic [IdxW-1:0] a_e, b_e;
  logic [TagW-1:0] a_t, b_t;
  assign swap = (Mutation == 1);
  assign a_v  = swap ? wr1_valid_i : wr0_valid_i;
  assign a_tv = swap ? wr1_tag_valid_i : wr0_tag_valid_i;
  assign a_t  = swap ? wr1_tag_i : wr0_tag_i;
  assign a_e  = swap ? IdxW'(32'(wr1_set_i) * Ways + 32'(wr1_way_i))
                     : IdxW'(32'(wr0_set_i) * Ways + 32'(wr0_way_i));
  assign b_v  = swap ? wr0_valid_i : wr1_valid_i;
  assign b_tv = swap ? wr0_tag_valid_i : wr1_tag_valid_i;
  assign b_t  = swap ? wr0_tag_i : wr1_tag_i;
  assign b_e  = swap ? IdxW'(32'(wr0_set_i) * Ways + 32'(wr0_way_i))
                     : IdxW'(32'(wr1_set_i) * Ways + 32'(wr1_way_i));

  // Per entry, with constant indices: a decoder per port and a 3:1
  // select per entry, not a shifter over the whole array.
  always_comb begin
    valid_d = valid_q;
    tag_d = tag_q;
    for (int i = 0; i < Entries; i++) begin
      if (a_v && a_e == IdxW'(i)) begin
        valid_d[i] = a_tv;
        tag_d[i*TagW +: TagW] = a_t;
      end
      if (b_v && b_e == IdxW'(i)) begin
        valid_d[i] = b_tv;
        tag_d[i*TagW +: TagW] = b_t;
      end
    end
  end

  // The lookup against the written array (Mutation 2: the old one): per
  // way a Sets:1 select of the looked-up set's entry, then one comparator;
  // the lowest hitting way wins (the loop runs from the top down).
  always_comb begin
    logic            v;
    logic [TagW-1:0] t;
    done_d = lk_valid_i;
    hit_d = 1'b0;
    way_d = '0;
    for (int w = Ways - 1; w >= 0; w--) begin
      v = 1'b0;
      t = '0;
      for (int st = 0; st < Sets; st++) begin
        if (lk_set_i == SetW'(st)) begin
          v = (Mutation == 2) ? valid_q[st*Ways + w] : valid_d[st*Ways + w];
          t = (Mutation == 2) ? tag_q[(st*Ways + w)*TagW +: TagW]
                              : tag_d[(st*Ways + w)*TagW +: TagW];
        end
      end
      if (lk_valid_i && v && t == lk_tag_i) begin
        hit_d = 1'b1;
        way_d = WayW'(w);
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      valid_q <= '0;
      done_q <= 1'b0;
      hit_q <= 1'b0;
      way_q <= '0;
    end else begin
      valid_q <= valid_d;
      done_q <= done_d;
      hit_q <= hit_d;
      way_q <= way_d;
    end
  end

  // Tags need no reset: each is read only where its valid bit is set.
  always_ff @(posedge clk_i) begin
    tag_q <= tag_d;
  end

  assign lk_done_o = done_q;
  assign lk_hit_o = hit_q;
  assign lk_way_o = way_q;
  assign steal_o = hit_q;

`ifdef GM_ASSERTS_ON
  // Indices beyond the array are the environment's bug (the C twin asserts
  // them too). Checker logic: excluded from coverage.
  /* verilator coverage_off */
  `GM_ASSERT(a_wr0_in_range, !wr0_valid_i || (32'(wr0_set_i) < Sets && 32'(wr0_way_i) < Ways))
  `GM_ASSERT(a_wr1_in_range, !wr1_valid_i || (32'(wr1_set_i) < Sets && 32'(wr1_way_i) < Ways))
  `GM_ASSERT(a_lk_in_range, !lk_valid_i || 32'(lk_set_i) < Sets)
  `GM_ASSERT(a_steal_is_hit, steal_o == lk_hit_o)
  `GM_ASSERT(a_hit_needs_lookup, !lk_hit_o || lk_done_o)
  /* verilator coverage_on */
`endif

`ifndef SYNTHESIS
  // Elaboration-time parameter check: excluded from coverage.
  /* verilator coverage_off */
  initial begin
    if (Sets < 1 || Sets > 65536 || Ways < 1 || Ways > 255 || TagW < 1 || TagW > 48) begin
      $fatal(1, "gm_shadow_tags: Sets = %0d (1..65536), Ways = %0d (1..255), TagW = %0d (1..48)",
             Sets, Ways, TagW);
    end
  end
  /* verilator coverage_on */
`endif

endmodule
