// One-hot multiplexer, combinational: data_o is the OR of the elements of
// data_i whose select bit is set, so it is element k when sel_i has only
// bit k set and all zero when sel_i is zero (the router relies on the
// latter: an unselected output carries all-zero fields). Element k of
// data_i is bits [k*Width +: Width].
`include "gm_defs.svh"

module gm_onehot_mux #(
  parameter int `GM_REQ_PARAM(N),
  parameter int `GM_REQ_PARAM(Width)
) (
  input  logic [N-1:0]       sel_i,
  input  logic [N*Width-1:0] data_i,
  output logic [Width-1:0]   data_o
);

  always_comb begin
    data_o = '0;
    for (int k = 0; k < N; k++) begin
      data_o = data_o | (data_i[k*Width +: Width] & {Width{sel_i[k]}});
    end
  end

`ifndef SYNTHESIS
  // Elaboration-time parameter checks: excluded from coverage.
  /* verilator coverage_off */
  initial begin
    if (N < 1 || Width < 1) begin
      $fatal(1, "gm_onehot_mux: N = %0d, Width = %0d, both must be >= 1", N, Width);
    end
  end
  /* verilator coverage_on */
`endif

endmodule
