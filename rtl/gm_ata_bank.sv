// One bank of the aggregated tag array (rtl/gm_ata_tags.sv): one set of
// one L1's tag array, NumWays ways of {sector-valid, tag-valid, tag}
// (EntW bits each) and their exact-LRU ages. A bank of its own so that
// every set is read by any number of tag selectors at once, and so that
// hierarchical synthesis maps it once for all NumArrays x NumSets banks
// (docs/results/area-timing.md section 1c).
//
// The array's update unit (gm_ata_update) decides the change; the bank
// applies it when we_i says the update addresses this set: way way_i takes
// ent_i, and with touch_i it becomes age 0 while every way younger than
// its old age touched_age_i ages by one. Reset: no line, way w has age w.
`include "gm_defs.svh"

module gm_ata_bank #(
  parameter int `GM_REQ_PARAM(NumWays),
  parameter int `GM_REQ_PARAM(EntW),
  localparam int AgeW = `GM_SAFE_CLOG2(NumWays)
) (
  input  logic                    clk_i,
  input  logic                    rst_ni,
  input  logic                    we_i,
  input  logic [AgeW-1:0]         way_i,
  input  logic [EntW-1:0]         ent_i,
  input  logic                    touch_i,
  input  logic [AgeW-1:0]         touched_age_i,
  output logic [NumWays*EntW-1:0] ent_o,
  output logic [NumWays*AgeW-1:0] age_o
);

  logic [NumWays*EntW-1:0] ent_q, ent_d;
  logic [NumWays*AgeW-1:0] age_q, age_d;

  function automatic logic [NumWays*AgeW-1:0] reset_ages();
    reset_ages = '0;
    for (int w = 0; w < NumWays; w++) begin
      reset_ages[w*AgeW +: AgeW] = AgeW'(w);
    end
  endfunction

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      ent_q <= '0;
      age_q <= reset_ages();
    end else begin
      ent_q <= ent_d;
      age_q <= age_d;
    end
  end

  always_comb begin
    ent_d = ent_q;
    age_d = age_q;
    for (int w = 0; w < NumWays; w++) begin
      if (we_i) begin
        if (way_i == AgeW'(w)) begin
          ent_d[w*EntW +: EntW] = ent_i;
        end
        if (touch_i) begin
          if (way_i == AgeW'(w)) begin
            age_d[w*AgeW +: AgeW] = '0;
          end else if (age_q[w*AgeW +: AgeW] < touched_age_i) begin
            age_d[w*AgeW +: AgeW] = age_q[w*AgeW +: AgeW] + 1'b1;
          end
        end
      end
    end
  end

  assign ent_o = ent_q;
  assign age_o = age_q;

`ifndef SYNTHESIS
  /* verilator coverage_off */
  initial begin
    if (NumWays < 1 || EntW < 3) begin
      $fatal(1, "gm_ata_bank: NumWays = %0d must be >= 1, EntW = %0d >= 3", NumWays, EntW);
    end
  end
  /* verilator coverage_on */
`endif

endmodule
