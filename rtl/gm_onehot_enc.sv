// One-hot to binary encoder as a module: idx_o is the index of the set bit
// of the one-hot vector oh_i, 0 when oh_i is zero. Combinational; the same
// GM_ONEHOT_ENC_FUNC the banks call. Used by the per-element form of
// gm_islip (see its Split parameter) for the pointer next state.
`include "gm_defs.svh"

module gm_onehot_enc #(
  parameter int `GM_REQ_PARAM(N),
  localparam int IdxW = `GM_SAFE_CLOG2(N)
) (
  input  logic [N-1:0]    oh_i,
  output logic [IdxW-1:0] idx_o
);

  `GM_ONEHOT_ENC_FUNC(onehot_enc, N, IdxW)

  assign idx_o = onehot_enc(oh_i);

`ifndef SYNTHESIS
  // Elaboration-time parameter checks: excluded from coverage.
  /* verilator coverage_off */
  initial begin
    if (N < 1) begin
      $fatal(1, "gm_onehot_enc: N = %0d, must be >= 1", N);
    end
  end
  /* verilator coverage_on */
`endif

endmodule
