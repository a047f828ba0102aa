// Round-robin search (docs/noc.md 3.1) as a module: grant_o is one-hot on
// the lowest-numbered set bit of req_i at an index >= ptr_i or, if there is
// none, on the lowest-numbered set bit of req_i; zero when req_i is zero.
// Combinational; the same GM_RR_SEARCH_FUNC the banks call, so both forms
// of gm_islip (see its Split parameter) search identically. Used by the
// per-element form only: one instance per arbiter lets hierarchical
// synthesis build the search once per size instead of once per arbiter.
`include "gm_defs.svh"

module gm_rr_search #(
  parameter int `GM_REQ_PARAM(N),
  localparam int PtrW = `GM_SAFE_CLOG2(N)
) (
  input  logic [N-1:0]    req_i,
  input  logic [PtrW-1:0] ptr_i,  // 0 <= ptr_i < N
  output logic [N-1:0]    grant_o
);

  `GM_RR_SEARCH_FUNC(rr_search, N, PtrW)

  assign grant_o = rr_search(req_i, ptr_i);

`ifndef SYNTHESIS
  // Elaboration-time parameter checks: excluded from coverage.
  /* verilator coverage_off */
  initial begin
    if (N < 1) begin
      $fatal(1, "gm_rr_search: N = %0d, must be >= 1", N);
    end
  end
  /* verilator coverage_on */
`endif

endmodule
