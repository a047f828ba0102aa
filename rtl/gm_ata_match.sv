// The comparator group of one request port and one tag array of the
// aggregated tag array (rtl/gm_ata_tags.sv): the NumWays ways of the set
// its tag selector picked, each compared with the request's tag; hit_o
// when a way holds the tag with every sector of need_i valid. A module of
// its own so that hierarchical synthesis maps it once for all
// NumPorts x NumArrays groups.
//
// Mutation 2 (verification only) drops the sector check.
`include "gm_defs.svh"

module gm_ata_match #(
  parameter int `GM_REQ_PARAM(NumWays),
  parameter int `GM_REQ_PARAM(TagWidth),
  parameter int `GM_REQ_PARAM(NumSectors),
  parameter int Mutation = 0,
  localparam int EntW = NumSectors + 1 + TagWidth
) (
  input  logic [NumWays*EntW-1:0] ways_i,
  input  logic [TagWidth-1:0]     tag_i,
  input  logic [NumSectors-1:0]   need_i,
  output logic                    hit_o
);

  always_comb begin
    logic [TagWidth-1:0] tag;
    logic [NumSectors-1:0] sec;
    logic used;
    hit_o = 1'b0;
    for (int w = 0; w < NumWays; w++) begin
      tag = ways_i[w*EntW +: TagWidth];
      used = ways_i[w*EntW + TagWidth];
      sec = ways_i[w*EntW + TagWidth + 1 +: NumSectors];
      if (used && tag == tag_i && ((Mutation == 2) || (sec & need_i) == need_i)) begin
        hit_o = 1'b1;
      end
    end
  end

`ifndef SYNTHESIS
  /* verilator coverage_off */
  initial begin
    if (NumWays < 1 || TagWidth < 1 || NumSectors < 1) begin
      $fatal(1, "gm_ata_match: ways %0d tag %0d sectors %0d, all must be >= 1",
             NumWays, TagWidth, NumSectors);
    end
  end
  /* verilator coverage_on */
`endif

endmodule
