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
//
// Split selects the form of the logic, not its behaviour (docs/verification.md
// "Speed shapes one more rule"): 0, the bank form Verilator builds, one
// always_comb loop over every iteration, resource and requester calling the
// search and encoder functions; 1, the per-element form synthesis uses, a
// generate scope per iteration with one gm_rr_search instance per resource
// (grant) and per requester (accept), and one gm_onehot_enc per pointer.
// Both forms compute the same function: the lockstep tests run both.
`include "gm_defs.svh"

module gm_islip #(
  parameter int `GM_REQ_PARAM(NumReq),
  parameter int `GM_REQ_PARAM(NumRes),
  parameter int `GM_REQ_PARAM(NumGroups),
  parameter int `GM_REQ_PARAM(Iters),
  parameter int Mutation = 0,
  parameter int Split = 0,
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

  // Iteration 0, kept for THE RULE.
  logic [NumResAll*NumReq-1:0] grant0, match0;
  logic [NumReq*NumRes-1:0]    accept0;

  if (Split == 0) begin : g_bank
    // Scratch of the allocation block (written and read only there).
    logic [NumReq-1:0]           req_free;     // not matched yet
    logic [NumResAll-1:0]        res_free;
    logic [NumResAll*NumReq-1:0] grant;        // per resource: one-hot requester
    logic [NumRes*NumReq-1:0]    grant_by_k;   // per local k: OR over the groups
    logic [NumReq*NumRes-1:0]    accept;       // per requester: one-hot local k
    logic [NumRes*NumReq-1:0]    accept_by_k;  // accept transposed
    logic [NumRes-1:0]           received;     // grants of one requester
    logic [NumReq-1:0]           match;        // match of one resource

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
  end else begin : g_split
    // The same allocation, one generate scope per iteration: the unmatched
    // sets and the matches so far come from the previous iteration's scope.
    for (genvar it = 0; it < Iters; it++) begin : g_iter
      logic [NumReq-1:0]           req_free;      // unmatched before this iteration
      logic [NumResAll-1:0]        res_free;
      logic [NumResAll*NumReq-1:0] res_match;     // matches of earlier iterations
      logic [NumReq*NumRes-1:0]    req_match;
      logic [NumResAll*NumReq-1:0] grant_req;     // per resource: search input
      logic [NumResAll*NumReq-1:0] grant;         // per resource: one-hot requester
      logic [NumRes*NumReq-1:0]    grant_by_k;    // per local k: OR over the groups
      logic [NumReq*NumRes-1:0]    received;      // per requester: grants by local k
      logic [NumReq*NumRes-1:0]    accept;        // per requester: one-hot local k
      logic [NumRes*NumReq-1:0]    accept_by_k;   // accept transposed
      logic [NumResAll*NumReq-1:0] match;         // per resource: matched requester
      logic [NumReq-1:0]           req_new;       // unmatched after this iteration
      logic [NumResAll-1:0]        res_new;
      logic [NumResAll*NumReq-1:0] res_match_new; // matches up to this iteration
      logic [NumReq*NumRes-1:0]    req_match_new;

      if (it == 0) begin : g_first
        assign req_free  = '1;
        assign res_free  = '1;
        assign res_match = '0;
        assign req_match = '0;
      end else begin : g_next
        assign req_free  = g_iter[it-1].req_new;
        assign res_free  = g_iter[it-1].res_new;
        assign res_match = g_iter[it-1].res_match_new;
        assign req_match = g_iter[it-1].req_match_new;
      end

      // 1. Grant: every unmatched resource picks an unmatched requester (a
      //    matched resource searches an empty request vector).
      always_comb begin
        for (int r = 0; r < NumResAll; r++) begin
          grant_req[r*NumReq +: NumReq] = req_i[r*NumReq +: NumReq] & req_free
                                        & {NumReq{res_free[r]}};
        end
      end
      for (genvar r = 0; r < NumResAll; r++) begin : g_grant
        gm_rr_search #(
          .N(NumReq)
        ) u_search (
          .req_i  (grant_req[r*NumReq +: NumReq]),
          .ptr_i  (grant_ptr_q[r*ReqW +: ReqW]),
          .grant_o(grant[r*NumReq +: NumReq])
        );
      end

      // 2. Accept: every requester with grants (all from its own group)
      //    picks one local resource (no grants: the search gives zero).
      always_comb begin
        grant_by_k = '0;
        received   = '0;
        for (int r = 0; r < NumResAll; r++) begin
          grant_by_k[(r % NumRes)*NumReq +: NumReq] = grant_by_k[(r % NumRes)*NumReq +: NumReq]
                                                    | grant[r*NumReq +: NumReq];
        end
        for (int q = 0; q < NumReq; q++) begin
          for (int k = 0; k < NumRes; k++) begin
            received[q*NumRes + k] = grant_by_k[k*NumReq + q];
          end
        end
      end
      for (genvar q = 0; q < NumReq; q++) begin : g_accept
        gm_rr_search #(
          .N(NumRes)
        ) u_search (
          .req_i  (received[q*NumRes +: NumRes]),
          .ptr_i  (accept_ptr_q[q*ResW +: ResW]),
          .grant_o(accept[q*NumRes +: NumRes])
        );
      end

      // Resource r is matched when its granted requester accepted r's local
      // index; a requester with grants is matched.
      always_comb begin
        accept_by_k   = '0;
        match         = '0;
        res_new       = res_free;
        req_new       = req_free;
        res_match_new = res_match;
        for (int q = 0; q < NumReq; q++) begin
          for (int k = 0; k < NumRes; k++) begin
            accept_by_k[k*NumReq + q] = accept[q*NumRes + k];
          end
          if (|received[q*NumRes +: NumRes]) begin
            req_new[q] = 1'b0;
          end
        end
        for (int r = 0; r < NumResAll; r++) begin
          match[r*NumReq +: NumReq] = grant[r*NumReq +: NumReq]
                                    & accept_by_k[(r % NumRes)*NumReq +: NumReq];
          res_match_new[r*NumReq +: NumReq] = res_match[r*NumReq +: NumReq]
                                            | match[r*NumReq +: NumReq];
          if (|match[r*NumReq +: NumReq]) begin
            res_new[r] = 1'b0;
          end
        end
      end
      assign req_match_new = req_match | accept;
    end

    assign res_match_o = g_iter[Iters-1].res_match_new;
    assign req_match_o = g_iter[Iters-1].req_match_new;
    assign grant0      = g_iter[0].grant;
    assign match0      = g_iter[0].match;
    assign accept0     = g_iter[0].accept;
  end

  // THE RULE: only iteration-0 matches move pointers. Mutation 1 uses the
  // matches of every iteration; Mutation 2 moves a grant pointer on its
  // iteration-0 grant even when the grant was refused. A pointer that moves
  // goes to one past the index of its one-hot move vector.
  logic [NumResAll*NumReq-1:0] gptr_move;
  logic [NumReq*NumRes-1:0]    aptr_move;
  logic [NumResAll*ReqW-1:0]   gidx;
  logic [NumReq*ResW-1:0]      aidx;

  assign gptr_move = (Mutation == 1) ? res_match_o
                   : (Mutation == 2) ? grant0
                   :                   match0;
  assign aptr_move = (Mutation == 1) ? req_match_o : accept0;

  if (Split == 0) begin : g_enc_bank
    always_comb begin
      for (int r = 0; r < NumResAll; r++) begin
        gidx[r*ReqW +: ReqW] = enc_req(gptr_move[r*NumReq +: NumReq]);
      end
      for (int q = 0; q < NumReq; q++) begin
        aidx[q*ResW +: ResW] = enc_res(aptr_move[q*NumRes +: NumRes]);
      end
    end
  end else begin : g_enc_split
    for (genvar r = 0; r < NumResAll; r++) begin : g_grant
      gm_onehot_enc #(
        .N(NumReq)
      ) u_enc (
        .oh_i (gptr_move[r*NumReq +: NumReq]),
        .idx_o(gidx[r*ReqW +: ReqW])
      );
    end
    for (genvar q = 0; q < NumReq; q++) begin : g_accept
      gm_onehot_enc #(
        .N(NumRes)
      ) u_enc (
        .oh_i (aptr_move[q*NumRes +: NumRes]),
        .idx_o(aidx[q*ResW +: ResW])
      );
    end
  end

  always_comb begin
    grant_ptr_d  = grant_ptr_q;
    accept_ptr_d = accept_ptr_q;
    for (int r = 0; r < NumResAll; r++) begin
      if (|gptr_move[r*NumReq +: NumReq]) begin
        grant_ptr_d[r*ReqW +: ReqW] = (gidx[r*ReqW +: ReqW] == ReqW'(NumReq - 1))
                                    ? '0 : gidx[r*ReqW +: ReqW] + ReqW'(1);
      end
    end
    for (int q = 0; q < NumReq; q++) begin
      if (|aptr_move[q*NumRes +: NumRes]) begin
        accept_ptr_d[q*ResW +: ResW] = (aidx[q*ResW +: ResW] == ResW'(NumRes - 1))
                                     ? '0 : aidx[q*ResW +: ResW] + ResW'(1);
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
