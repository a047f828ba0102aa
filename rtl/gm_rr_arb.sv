// Bank of NumArbs round-robin arbiters with a separate advance input
// (docs/noc.md 3.2), each over N candidates. NumArbs = 1 is one arbiter.
//
// Arbiter a: grant_o[a*N +: N] = search(req_i[a*N +: N], ptr_q[a]) (one-hot
// or zero), idx_o[a*PtrW +: PtrW] its index (0 when nothing is granted).
// At the rising edge, if advance_i[a] is 1 and some request of a is set,
// ptr_q[a] <= (idx + 1) mod N; otherwise it is kept. The arbiter does not
// decide when to advance: the block that instantiates it does (the router
// advances an input's VC arbiter only when that input wins the switch).
// Reset (synchronous, active low): every pointer 0.
`include "gm_defs.svh"

module gm_rr_arb #(
  parameter int `GM_REQ_PARAM(N),
  parameter int `GM_REQ_PARAM(NumArbs),
  localparam int PtrW = `GM_SAFE_CLOG2(N)
) (
  input  logic                    clk_i,
  input  logic                    rst_ni,
  input  logic [NumArbs*N-1:0]    req_i,
  input  logic [NumArbs-1:0]      advance_i,
  output logic [NumArbs*N-1:0]    grant_o,
  output logic [NumArbs*PtrW-1:0] idx_o
);

  `GM_RR_SEARCH_FUNC(rr_search, N, PtrW)
  `GM_ONEHOT_ENC_FUNC(onehot_enc, N, PtrW)

  logic [NumArbs*PtrW-1:0] ptr_q, ptr_d;

  // Grants depend on the pointers only (advance_i is read by the next
  // block), so a grant can feed the logic that decides advance_i.
  always_comb begin
    for (int a = 0; a < NumArbs; a++) begin
      grant_o[a*N +: N]     = rr_search(req_i[a*N +: N], ptr_q[a*PtrW +: PtrW]);
      idx_o[a*PtrW +: PtrW] = onehot_enc(grant_o[a*N +: N]);
    end
  end

  always_comb begin
    ptr_d = ptr_q;
    for (int a = 0; a < NumArbs; a++) begin
      if (advance_i[a] && (|req_i[a*N +: N])) begin
        ptr_d[a*PtrW +: PtrW] = (idx_o[a*PtrW +: PtrW] == PtrW'(N - 1))
                              ? '0 : idx_o[a*PtrW +: PtrW] + PtrW'(1);
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      ptr_q <= '0;
    end else begin
      ptr_q <= ptr_d;
    end
  end

`ifdef GM_ASSERTS_ON
  // Checker logic, not design logic: excluded from coverage.
  /* verilator coverage_off */
  logic err_not_onehot, err_not_requested, err_not_conserving, err_ptr_range;
  always_comb begin
    err_not_onehot = 1'b0;
    err_not_requested = 1'b0;
    err_not_conserving = 1'b0;
    err_ptr_range = 1'b0;
    for (int a = 0; a < NumArbs; a++) begin
      err_not_onehot = err_not_onehot || !$onehot0(grant_o[a*N +: N]);
      err_not_requested = err_not_requested || ((grant_o[a*N +: N] & ~req_i[a*N +: N]) != '0);
      err_not_conserving = err_not_conserving || ((|req_i[a*N +: N]) != (|grant_o[a*N +: N]));
      err_ptr_range = err_ptr_range || (32'(ptr_q[a*PtrW +: PtrW]) >= N);
    end
  end
  `GM_ASSERT(a_grant_onehot0, !err_not_onehot)
  `GM_ASSERT(a_grant_requested, !err_not_requested)
  `GM_ASSERT(a_work_conserving, !err_not_conserving)
  `GM_ASSERT(a_ptr_in_range, !err_ptr_range)
  /* verilator coverage_on */
`endif

`ifndef SYNTHESIS
  // Elaboration-time parameter checks: excluded from coverage.
  /* verilator coverage_off */
  initial begin
    if (N < 1 || NumArbs < 1) begin
      $fatal(1, "gm_rr_arb: N = %0d, NumArbs = %0d, both must be >= 1", N, NumArbs);
    end
  end
  /* verilator coverage_on */
`endif

endmodule
