// The queue and routing block of a DC-L1 node (docs/designs/dcl1.md section
// 2; C twin cmodel/designs/dcl1_queues.{h,c}, gm_dcl1q): four FIFOs of
// Depth entries and the moves between them, NoC#1, NoC#2 and the node's
// cache.
//   Q1  requests from cores (NoC#1)  head -> cache, or -> Q3 (bypass)
//   Q2  replies to cores (NoC#1)     from the cache or from Q4 (bypass)
//   Q3  requests to L2 (NoC#2)       misses, stores, bypassed requests
//   Q4  replies from L2 (NoC#2)      line fill -> cache, else -> Q2
// An entry is {kind[1:0], handle[31:0]}; kind 0 load, 1 store, 2 atomic,
// 3 non-L1. Atomics and non-L1 requests bypass the cache both ways.
//
// Ports are the C port struct's fields with _i/_o: outputs are Moore
// functions of the registers (section 2.3), and a field whose valid is 0 is
// 0. Every decision at the edge reads the registers as they were before it
// (section 2.4), so readiness is registered: a full FIFO popped in a cycle
// is not pushed in the same cycle. Handshake errors of the environment
// (section 2.4) drop the offending push exactly as the C model does, and
// the assertions below flag them.
//
// Registers: the four FIFOs (gm_fifo bank) and rr_q, the Q2 write-port
// round robin (0: the Q4 bypass reply goes first, 1: the cache's).
//
// Mutation (verification only, docs/verification.md section 7): 1 freezes
// rr_q, so the cache's replies never get their turn after a contended
// cycle. 0 in every real build.
`include "gm_defs.svh"

module gm_dcl1_queues #(
  parameter int `GM_REQ_PARAM(Depth),
  parameter int Mutation = 0,
  localparam int HandleW = 32,
  localparam int KindW = 2
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  // NoC#1 side
  input  logic               n1_req_valid_i,
  input  logic [HandleW-1:0] n1_req_handle_i,
  input  logic [KindW-1:0]   n1_req_kind_i,
  output logic               n1_req_ready_o,
  output logic               n1_rep_valid_o,
  output logic [HandleW-1:0] n1_rep_handle_o,
  output logic [KindW-1:0]   n1_rep_kind_o,
  input  logic               n1_rep_ready_i,
  // NoC#2 side
  output logic               n2_req_valid_o,
  output logic [HandleW-1:0] n2_req_handle_o,
  output logic [KindW-1:0]   n2_req_kind_o,
  input  logic               n2_req_ready_i,
  input  logic               n2_rep_valid_i,
  input  logic [HandleW-1:0] n2_rep_handle_i,
  input  logic [KindW-1:0]   n2_rep_kind_i,
  output logic               n2_rep_ready_o,
  // the node's cache
  output logic               c_req_valid_o,
  output logic [HandleW-1:0] c_req_handle_o,
  output logic [KindW-1:0]   c_req_kind_o,
  input  logic               c_req_accept_i,
  input  logic               c_req_miss_i,
  output logic               c_miss_ready_o,
  output logic               c_fill_valid_o,
  output logic [HandleW-1:0] c_fill_handle_o,
  input  logic               c_fill_accept_i,
  input  logic               c_rsp_valid_i,
  input  logic [HandleW-1:0] c_rsp_handle_i,
  output logic               c_rsp_ready_o
);

  localparam int EntryW = KindW + HandleW;        // {kind, handle}
  localparam int CntW = $clog2(Depth + 1);
  localparam int Q1 = 0, Q2 = 1, Q3 = 2, Q4 = 3;  // FIFO f of the bank
  localparam logic [KindW-1:0] KindLoad = 2'd0;

  logic [4-1:0]        push, pop;
  logic [4*EntryW-1:0] push_data, front;
  logic [4*CntW-1:0]   count;

  gm_fifo #(
    .Width   (EntryW),
    .Depth   (Depth),
    .NumFifos(4)
  ) u_q (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .push_i (push),
    .data_i (push_data),
    .pop_i  (pop),
    .data_o (front),
    .count_o(count)
  );

  // ---------------------------------------------------------------------
  // Register-derived conditions (section 2.3). Per-queue scalars, not
  // constant selects of a vector inside always_comb (Icarus 11 cannot
  // take those into a sensitivity list).
  // ---------------------------------------------------------------------
  logic               has1, has2, has3, has4, room1, room2, room3, room4;
  logic [HandleW-1:0] h1_handle, h2_handle, h3_handle, h4_handle;
  logic [KindW-1:0]   h1_kind, h2_kind, h3_kind, h4_kind;
  logic               q1_byp, q4_fill, q4_byp, rsp_ready;
  logic               rr_q, rr_d, rr_next;

  assign has1  = count[Q1*CntW +: CntW] != '0;
  assign has2  = count[Q2*CntW +: CntW] != '0;
  assign has3  = count[Q3*CntW +: CntW] != '0;
  assign has4  = count[Q4*CntW +: CntW] != '0;
  assign room1 = 32'(count[Q1*CntW +: CntW]) < Depth;
  assign room2 = 32'(count[Q2*CntW +: CntW]) < Depth;
  assign room3 = 32'(count[Q3*CntW +: CntW]) < Depth;
  assign room4 = 32'(count[Q4*CntW +: CntW]) < Depth;

  assign {h1_kind, h1_handle} = front[Q1*EntryW +: EntryW];
  assign {h2_kind, h2_handle} = front[Q2*EntryW +: EntryW];
  assign {h3_kind, h3_handle} = front[Q3*EntryW +: EntryW];
  assign {h4_kind, h4_handle} = front[Q4*EntryW +: EntryW];

  // Kinds 2 (atomic) and 3 (non-L1) are the ones with bit 1 set.
  assign q1_byp    = has1 && h1_kind[1];
  assign q4_fill   = has4 && h4_kind == KindLoad;
  assign q4_byp    = has4 && h4_kind != KindLoad;
  // Q2 has one write port: the cache's reply may enter unless a bypass
  // reply waits and it is the bypass path's turn.
  assign rsp_ready = room2 && (!q4_byp || rr_q);

  assign n1_req_ready_o  = room1;
  assign n1_rep_valid_o  = has2;
  assign n1_rep_handle_o = has2 ? h2_handle : '0;
  assign n1_rep_kind_o   = has2 ? h2_kind : '0;
  assign n2_req_valid_o  = has3;
  assign n2_req_handle_o = has3 ? h3_handle : '0;
  assign n2_req_kind_o   = has3 ? h3_kind : '0;
  assign n2_rep_ready_o  = room4;
  assign c_req_valid_o   = has1 && !q1_byp;
  assign c_req_handle_o  = (has1 && !q1_byp) ? h1_handle : '0;
  assign c_req_kind_o    = (has1 && !q1_byp) ? h1_kind : '0;
  assign c_miss_ready_o  = room3;
  assign c_fill_valid_o  = q4_fill;
  assign c_fill_handle_o = q4_fill ? h4_handle : '0;
  assign c_rsp_ready_o   = rsp_ready;

  // ---------------------------------------------------------------------
  // The clock edge (section 2.4): pushes and pops of this cycle, applied
  // together by the FIFO bank.
  // ---------------------------------------------------------------------
  logic               grant_c, grant_q4;
  logic               push1, push2, push3, push4, pop1, pop2, pop3, pop4;
  logic [EntryW-1:0]  data1, data2, data3, data4;

  always_comb begin
    push1 = 1'b0;
    push2 = 1'b0;
    push3 = 1'b0;
    push4 = 1'b0;
    pop1  = 1'b0;
    data1 = '0;
    data2 = '0;
    data3 = '0;
    data4 = '0;
    rr_next = rr_q;

    // 1. Q1 head: bypass to Q3, or handed to the cache (a miss or a store
    //    continues to Q3).
    if (q1_byp && room3) begin
      pop1  = 1'b1;
      push3 = 1'b1;
      data3 = {h1_kind, h1_handle};
    end else if (c_req_accept_i && has1 && !q1_byp) begin
      pop1 = 1'b1;
      if (c_req_miss_i && room3) begin
        push3 = 1'b1;
        data3 = {h1_kind, h1_handle};
      end
    end

    // 2. Q3 head leaves to NoC#2.
    pop3 = has3 && n2_req_ready_i;

    // 3. A reply from NoC#2 enters Q4.
    if (n2_rep_valid_i && room4) begin
      push4 = 1'b1;
      data4 = {n2_rep_kind_i, n2_rep_handle_i};
    end

    // 4. Q2's write port: the cache's reply or the Q4 bypass reply.
    grant_c  = c_rsp_valid_i && rsp_ready;
    grant_q4 = q4_byp && room2 && !grant_c;
    if (grant_c) begin
      push2 = 1'b1;
      data2 = {KindLoad, c_rsp_handle_i};
    end else if (grant_q4) begin
      push2 = 1'b1;
      data2 = {h4_kind, h4_handle};
    end

    // 5. Q4 head: moved to Q2, or installed by the cache.
    pop4 = grant_q4 || (c_fill_accept_i && q4_fill);

    // 6. Q2 head leaves to NoC#1.
    pop2 = has2 && n1_rep_ready_i;

    // 7. A request from NoC#1 enters Q1.
    if (n1_req_valid_i && room1) begin
      push1 = 1'b1;
      data1 = {n1_req_kind_i, n1_req_handle_i};
    end

    // 8. After a contended cycle the loser goes first next time.
    if (grant_c && q4_byp) begin
      rr_next = 1'b0;
    end else if (grant_q4 && c_rsp_valid_i) begin
      rr_next = 1'b1;
    end
  end

  // A select, not an if on a parameter: coverage would count the constant
  // arm as a branch no run can take.
  assign rr_d = (Mutation == 1) ? rr_q : rr_next;

  assign push      = {push4, push3, push2, push1};
  assign pop       = {pop4, pop3, pop2, pop1};
  assign push_data = {data4, data3, data2, data1};

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      rr_q <= 1'b0;
    end else begin
      rr_q <= rr_d;
    end
  end

`ifdef GM_ASSERTS_ON
  // The environment's handshake (section 2.4). The block tolerates a
  // violation exactly as the C model does (the push is dropped), but a
  // correct system never makes one. Checker logic: excluded from coverage.
  /* verilator coverage_off */
  `GM_ASSERT(a_n1_req_only_when_ready, !n1_req_valid_i || n1_req_ready_o)
  `GM_ASSERT(a_n2_rep_only_when_ready, !n2_rep_valid_i || n2_rep_ready_o)
  `GM_ASSERT(a_accept_only_offered, !c_req_accept_i || c_req_valid_o)
  `GM_ASSERT(a_miss_only_when_room, !(c_req_accept_i && c_req_miss_i) || c_miss_ready_o)
  `GM_ASSERT(a_fill_only_offered, !c_fill_accept_i || c_fill_valid_o)
  `GM_ASSERT(a_q2_one_writer, !(grant_c && grant_q4))
  /* verilator coverage_on */
`endif

`ifndef SYNTHESIS
  // Elaboration-time parameter check: excluded from coverage.
  /* verilator coverage_off */
  initial begin
    if (Depth < 1) begin
      $fatal(1, "gm_dcl1_queues: Depth = %0d, must be >= 1", Depth);
    end
  end
  /* verilator coverage_on */
`endif

endmodule
