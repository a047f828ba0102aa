// iSLIP allocator with its pointer registers (docs/noc.md 3.3 and 4.4).
//
// NumReq requesters; NumGroups groups of NumRes resources each (resource
// r = g * NumRes + k is local resource k of group g). Every requester
// requests resources of at most one group in a cycle. With NumGroups = 1
// this is plain iSLIP (the router's switch allocator, inputs x outputs).
// With NumGroups > 1 it is NumGroups independent iSLIPs that share one
// accept pointer per requester, over local resource indices (the router's
// VC allocator: requesters are input VCs, group g is output port g,
// resources its VCs). Because the requesters of different groups are
// disjoint, one accept arbiter per requester over NumRes local resources
// serves every group; the grants a requester receives all come from its
// own group.
//
// State: grant pointer per resource (over requesters, grant_ptr_q) and
// accept pointer per requester (over local resources, accept_ptr_q), both
// reset to 0.
//
// Allocation (combinational), for iteration it = 0 .. Iters-1, starting
// with nothing matched:
//   1. Grant: every unmatched resource grants, by round-robin search from
//      its grant pointer, one of the unmatched requesters that request it.
//   2. Accept: every unmatched requester that received grants accepts, by
//      round-robin search from its accept pointer, one of the local
//      resources that granted it. Each accepted (requester, resource) is a
//      match made in iteration it.
// THE RULE (clock edge): for a match (q, r = g*NumRes + k) made in
// iteration 0, and only for those, grant_ptr[r] <= (q + 1) mod NumReq and
// accept_ptr[q] <= (k + 1) mod NumRes. A refused grant and matches of
// later iterations move nothing.
//
// Ports (flat vectors, see gm_defs.svh):
//   req_i       [r*NumReq + q]  requester q requests resource r (stored by
//                               resource, like the C model's columns)
//   res_match_o [r*NumReq + q]  resource r is matched to requester q (one-hot
//                               or zero per resource)
//   req_match_o [q*NumRes + k]  requester q is matched to local resource k of
//                               its group (one-hot or zero per requester)
//
// Mutation (for proving the lockstep checker, never set in real builds):
//   0 THE RULE as written;
//   1 pointers also move on matches of iterations >= 1;
//   2 a grant pointer moves on its iteration-0 grant even when the grant is
//     refused (the accept check is dropped from the grant-pointer rule).
`include "gm_defs.svh"

module gm_islip #(
  parameter int `GM_REQ_PARAM(NumReq),
  parameter int `GM_REQ_PARAM(NumRes),
  parameter int `GM_REQ_PARAM(NumGroups),
  parameter int `GM_REQ_PARAM(Iters),
  parameter int Mutation = 0,
  localparam int NumResAll = NumGroups * NumRes,
  localparam int ReqW = `GM_SAFE_CLOG2(NumReq),
  localparam int ResW = `GM_SAFE_CLOG2(NumRes)
) (
  input  logic                        clk_i,
  input  logic                        rst_ni,
  input  logic [NumResAll*NumReq-1:0] req_i,
  output logic [NumResAll*NumReq-1:0] res_match_o,
  output logic [NumReq*NumRes-1:0]    req_match_o
);

  `GM_RR_SEARCH_FUNC(search_req, NumReq, ReqW)
  `GM_RR_SEARCH_FUNC(search_res, NumRes, ResW)
  `GM_ONEHOT_ENC_FUNC(enc_req, NumReq, ReqW)
  `GM_ONEHOT_ENC_FUNC(enc_res, NumRes, ResW)

  logic [NumResAll*ReqW-1:0] grant_ptr_q, grant_ptr_d;
  logic [NumReq*ResW-1:0]    accept_ptr_q, accept_ptr_d;

  // Scratch of the allocation block (written and read only there).
  logic [NumReq-1:0]           req_free;     // not matched yet
  logic [NumResAll-1:0]        res_free;
  logic [NumResAll*NumReq-1:0] grant;        // per resource: one-hot requester
  logic [NumRes*NumReq-1:0]    grant_by_k;   // per local k: OR over the groups
  logic [NumReq*NumRes-1:0]    accept;       // per requester: one-hot local k
  logic [NumRes*NumReq-1:0]    accept_by_k;  // accept transposed
  logic [NumRes-1:0]           received;     // grants of one requester
  logic [NumReq-1:0]           match;        // match of one resource
  // Iteration 0, kept for THE RULE.
  logic [NumResAll*NumReq-1:0] grant0, match0;
  logic [NumReq*NumRes-1:0]    accept0;

  // Allocation, from the pointers before the edge.
  always_comb begin
    res_match_o = '0;
    req_match_o = '0;
    grant0      = '0;
    match0      = '0;
    accept0     = '0;
    req_free    = '1;
    res_free    = '1;
    grant       = '0;
    grant_by_k  = '0;
    accept      = '0;
    accept_by_k = '0;
    received    = '0;
    match       = '0;
    for (int it = 0; it < Iters; it++) begin
      // 1. Grant: every unmatched resource picks an unmatched requester.
      grant      = '0;
      grant_by_k = '0;
      for (int r = 0; r < NumResAll; r++) begin
        if (res_free[r]) begin
          grant[r*NumReq +: NumReq] = search_req(req_i[r*NumReq +: NumReq] & req_free,
                                                 grant_ptr_q[r*ReqW +: ReqW]);
          grant_by_k[(r % NumRes)*NumReq +: NumReq] = grant_by_k[(r % NumRes)*NumReq +: NumReq]
                                                    | grant[r*NumReq +: NumReq];
        end
      end
      // 2. Accept: every requester with grants (all from its own group)
      //    picks one local resource.
      accept      = '0;
      accept_by_k = '0;
      for (int q = 0; q < NumReq; q++) begin
        for (int k = 0; k < NumRes; k++) begin
          received[k] = grant_by_k[k*NumReq + q];
        end
        if (|received) begin
          accept[q*NumRes +: NumRes] = search_res(received, accept_ptr_q[q*ResW +: ResW]);
          for (int k = 0; k < NumRes; k++) begin
            accept_by_k[k*NumReq + q] = accept[q*NumRes + k];
          end
          req_free[q] = 1'b0;
        end
      end
      // Resource r is matched when its granted requester accepted r's local
      // index (the requester's grants all come from r's group).
      for (int r = 0; r < NumResAll; r++) begin
        match = grant[r*NumReq +: NumReq] & accept_by_k[(r % NumRes)*NumReq +: NumReq];
        res_match_o[r*NumReq +: NumReq] = res_match_o[r*NumReq +: NumReq] | match;
        if (|match) begin
          res_free[r] = 1'b0;
        end
        if (it == 0) begin
          match0[r*NumReq +: NumReq] = match;
        end
      end
      req_match_o = req_match_o | accept;
      if (it == 0) begin
        grant0  = grant;
        accept0 = accept;
      end
    end
  end

  // THE RULE: only iteration-0 matches move pointers. Mutation 1 uses the
  // matches of every iteration; Mutation 2 moves a grant pointer on its
  // iteration-0 grant even when the grant was refused.
  logic [NumReq-1:0] gptr_move;  // scratch
  logic [NumRes-1:0] aptr_move;
  logic [ReqW-1:0]   gidx;
  logic [ResW-1:0]   aidx;

  always_comb begin
    grant_ptr_d  = grant_ptr_q;
    accept_ptr_d = accept_ptr_q;
    gptr_move    = '0;
    aptr_move    = '0;
    gidx         = '0;
    aidx         = '0;
    for (int r = 0; r < NumResAll; r++) begin
      gptr_move = (Mutation == 1) ? res_match_o[r*NumReq +: NumReq]
                : (Mutation == 2) ? grant0[r*NumReq +: NumReq]
                :                   match0[r*NumReq +: NumReq];
      if (|gptr_move) begin
        gidx = enc_req(gptr_move);
        grant_ptr_d[r*ReqW +: ReqW] = (gidx == ReqW'(NumReq - 1)) ? '0 : gidx + ReqW'(1);
      end
    end
    for (int q = 0; q < NumReq; q++) begin
      aptr_move = (Mutation == 1) ? req_match_o[q*NumRes +: NumRes]
                :                   accept0[q*NumRes +: NumRes];
      if (|aptr_move) begin
        aidx = enc_res(aptr_move);
        accept_ptr_d[q*ResW +: ResW] = (aidx == ResW'(NumRes - 1)) ? '0 : aidx + ResW'(1);
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      grant_ptr_q  <= '0;
      accept_ptr_q <= '0;
    end else begin
      grant_ptr_q  <= grant_ptr_d;
      accept_ptr_q <= accept_ptr_d;
    end
  end

`ifdef GM_ASSERTS_ON
  // Checker logic, not design logic: excluded from coverage.
  /* verilator coverage_off */
  // Checks of the result and of the caller's promise (a requester asks in
  // one group only), reduced to one flag each.
  logic              err_res_onehot, err_res_unrequested, err_req_onehot;
  logic              err_gptr_range, err_aptr_range, err_two_groups;
  logic [NumReq-1:0] group_req, group_seen;
  always_comb begin
    err_res_onehot = 1'b0;
    err_res_unrequested = 1'b0;
    err_req_onehot = 1'b0;
    err_gptr_range = 1'b0;
    err_aptr_range = 1'b0;
    err_two_groups = 1'b0;
    group_req = '0;
    group_seen = '0;
    for (int r = 0; r < NumResAll; r++) begin
      err_res_onehot = err_res_onehot || !$onehot0(res_match_o[r*NumReq +: NumReq]);
      err_res_unrequested = err_res_unrequested
          || ((res_match_o[r*NumReq +: NumReq] & ~req_i[r*NumReq +: NumReq]) != '0);
      err_gptr_range = err_gptr_range || (32'(grant_ptr_q[r*ReqW +: ReqW]) >= NumReq);
    end
    for (int q = 0; q < NumReq; q++) begin
      err_req_onehot = err_req_onehot || !$onehot0(req_match_o[q*NumRes +: NumRes]);
      err_aptr_range = err_aptr_range || (32'(accept_ptr_q[q*ResW +: ResW]) >= NumRes);
    end
    for (int g = 0; g < NumGroups; g++) begin
      group_req = '0;
      for (int k = 0; k < NumRes; k++) begin
        group_req = group_req | req_i[(g*NumRes + k)*NumReq +: NumReq];
      end
      err_two_groups = err_two_groups || ((group_seen & group_req) != '0);
      group_seen = group_seen | group_req;
    end
  end
  `GM_ASSERT(a_res_match_onehot0, !err_res_onehot)
  `GM_ASSERT(a_res_match_requested, !err_res_unrequested)
  `GM_ASSERT(a_req_match_onehot0, !err_req_onehot)
  `GM_ASSERT(a_gptr_in_range, !err_gptr_range)
  `GM_ASSERT(a_aptr_in_range, !err_aptr_range)
  `GM_ASSERT(a_req_one_group, !err_two_groups)
  // Every resource match is a requester match and the other way round.
  `GM_ASSERT(a_match_count, $countones(res_match_o) == $countones(req_match_o))
  /* verilator coverage_on */
`endif

`ifndef SYNTHESIS
  // Elaboration-time parameter checks: excluded from coverage.
  /* verilator coverage_off */
  initial begin
    if (NumReq < 1 || NumRes < 1 || NumGroups < 1 || Iters < 1) begin
      $fatal(1, "gm_islip: NumReq = %0d, NumRes = %0d, NumGroups = %0d, Iters = %0d, all must be >= 1",
             NumReq, NumRes, NumGroups, Iters);
    end
  end
  /* verilator coverage_on */
`endif

endmodule
