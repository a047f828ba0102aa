// The update unit of one tag array of the aggregated tag array
// (rtl/gm_ata_tags.sv): given the addressed set's ways and ages (picked
// by the array's update-side selector), it decides which way an update
// changes and how; the set's bank (gm_ata_bank) applies it.
//   touch       the way holding the tag is touched (becomes MRU)
//   fill        present: sectors ORed in, touched; absent: the lowest-
//               numbered free way, else the LRU way, takes the tag with
//               exactly these sectors and is touched; evict_valid_o /
//               evict_tag_o name the line it replaced
//   invalidate  the way holding the tag is freed
// A module of its own so that hierarchical synthesis maps it once for all
// NumArrays arrays; it is the block's critical path (the W ages compared
// and the victim search over W ways).
//
// Mutation 3 (verification only) fills the most recently used way instead
// of the least recently used one.
`include "gm_defs.svh"

module gm_ata_update #(
  parameter int `GM_REQ_PARAM(NumWays),
  parameter int `GM_REQ_PARAM(TagWidth),
  parameter int `GM_REQ_PARAM(NumSectors),
  parameter int Mutation = 0,
  localparam int EntW = NumSectors + 1 + TagWidth,
  localparam int AgeW = `GM_SAFE_CLOG2(NumWays)
) (
  input  logic                    valid_i,
  input  logic [1:0]              op_i,
  input  logic [TagWidth-1:0]     tag_i,
  input  logic [NumSectors-1:0]   sectors_i,
  input  logic [NumWays*EntW-1:0] ways_i,
  input  logic [NumWays*AgeW-1:0] ages_i,
  output logic [AgeW-1:0]         way_o,
  output logic [EntW-1:0]         ent_o,
  output logic                    touch_o,
  output logic [AgeW-1:0]         touched_age_o,
  output logic                    evict_valid_o,
  output logic [TagWidth-1:0]     evict_tag_o
);

  localparam logic [1:0] OpTouch = 2'd0;
  localparam logic [1:0] OpFill = 2'd1;
  localparam logic [1:0] OpInval = 2'd2;

  logic [AgeW-1:0] age_lru_want;
  logic [NumWays-1:0] match, free;
  logic any_match, any_free;
  logic [AgeW-1:0] target;

  assign age_lru_want = (Mutation == 3) ? '0 : AgeW'(NumWays - 1);

  // the way holding the tag (at most one), else the lowest-numbered free
  // way, else the LRU way
  always_comb begin
    match = '0;
    free = '0;
    any_match = 1'b0;
    any_free = 1'b0;
    target = '0;
    for (int w = 0; w < NumWays; w++) begin
      match[w] = ways_i[w*EntW + TagWidth] && ways_i[w*EntW +: TagWidth] == tag_i;
      free[w] = !ways_i[w*EntW + TagWidth];
    end
    for (int w = NumWays - 1; w >= 0; w--) begin
      if (free[w]) begin
        any_free = 1'b1;
        target = AgeW'(w);
      end
    end
    if (!any_free) begin
      for (int w = 0; w < NumWays; w++) begin
        if (ages_i[w*AgeW +: AgeW] == age_lru_want) target = AgeW'(w);
      end
    end
    for (int w = 0; w < NumWays; w++) begin
      if (match[w]) begin
        any_match = 1'b1;
        target = AgeW'(w);
      end
    end
  end

  // the new entry of the target way, and whether it is touched
  always_comb begin
    logic [EntW-1:0] e;
    e = '0;
    touch_o = 1'b0;
    evict_valid_o = 1'b0;
    evict_tag_o = '0;
    touched_age_o = '0;
    for (int w = 0; w < NumWays; w++) begin
      if (target == AgeW'(w)) begin
        e = ways_i[w*EntW +: EntW];
        touched_age_o = ages_i[w*AgeW +: AgeW];
      end
    end
    if (valid_i) begin
      unique case (op_i)
        OpTouch: touch_o = any_match;
        OpFill: begin
          touch_o = 1'b1;
          if (any_match) begin
            e[TagWidth+1 +: NumSectors] = e[TagWidth+1 +: NumSectors] | sectors_i;
          end else begin
            evict_valid_o = e[TagWidth];
            evict_tag_o = e[TagWidth] ? e[TagWidth-1:0] : '0;
            e = {sectors_i, 1'b1, tag_i};
          end
        end
        OpInval: begin
          if (any_match) e = '0;
        end
        default: ;
      endcase
    end
    ent_o = e;
  end

  assign way_o = target;

`ifndef SYNTHESIS
  /* verilator coverage_off */
  initial begin
    if (NumWays < 1 || TagWidth < 1 || NumSectors < 1) begin
      $fatal(1, "gm_ata_update: ways %0d tag %0d sectors %0d, all must be >= 1",
             NumWays, TagWidth, NumSectors);
    end
  end
  /* verilator coverage_on */
`endif

endmodule
