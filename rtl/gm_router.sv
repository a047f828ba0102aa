// Input-queued virtual-channel crossbar router: NumIn inputs x NumOut
// outputs, NumVcs VCs per port, VcDepth flits per input VC buffer, credit
// flow control, wormhole switching, iSLIP VC allocation then iSLIP switch
// allocation (Iters iterations each), Stages output register stages.
//
// RTL twin of the C model cmodel/noc/router.{h,c}; both follow the written
// rules of docs/noc.md sections 4 and 5 and are compared field by field
// every cycle by the lockstep harness (tb/router). An unblocked head flit
// presented in cycle t is on the output in cycle t + Stages + 2.
//
// Ports. C field `<dir>[p].<field>` of gm_router_in / gm_router_out is
// Verilog port `<dir>_<field>_i` / `<dir>_<field>_o`, element p: C
// `in[i].flit_vc` is in_flit_vc_i element i, C `out[o].credit_valid` (an
// input of the router) is out_credit_valid_i element o. Yosys 0.23 has no
// multi-dimensional packed arrays, so a port of E elements of W bits is a
// flat vector of E*W bits with element p in bits [p*W +: W] (in the
// Verilated C++ model: bit p*W + b of the port's word array). Widths:
// VcW = max(1, clog2(NumVcs)), DestW = max(1, clog2(NumOut)), seq 8,
// payload 32. Valid bits are active high; every other field of an output
// is 0 while its valid bit is 0; input fields are ignored while their
// valid bit is 0.
//
// Clock and reset: one clock (clk_i, rising edge), synchronous active-low
// reset rst_ni to the values of docs/noc.md 5.2 (credits VcDepth, all other
// registers 0; buffer storage is not reset).
//
// Mutation (for proving that the lockstep checker fails; 0 in every real
// build): 1 and 2 break the iSLIP pointer rule of the VC allocator (see
// gm_islip), 3 loses a downstream credit that arrives in the same cycle as
// a switch traversal consumes a credit of the same output VC.
//
// Split selects the form of the logic, never its behaviour: 0 (simulation)
// keeps the replicated primitives as banks (one gm_fifo of NumIn*NumVcs
// FIFOs, one gm_rr_arb of NumIn arbiters, gm_islip's loops), which Verilator
// turns into C++ loops; 1 (synthesis, scripts/synth) instantiates one FIFO
// per input VC, one arbiter per input and gm_islip's per-element form, so
// hierarchical synthesis builds each element once (docs/verification.md).
`include "gm_defs.svh"

module gm_router #(
  parameter int `GM_REQ_PARAM(NumIn),
  parameter int `GM_REQ_PARAM(NumOut),
  parameter int `GM_REQ_PARAM(NumVcs),
  parameter int `GM_REQ_PARAM(VcDepth),
  parameter int `GM_REQ_PARAM(Stages),
  parameter int `GM_REQ_PARAM(Iters),
  parameter int Mutation = 0,
  parameter int Split = 0,
  localparam int VcW = `GM_SAFE_CLOG2(NumVcs),
  localparam int DestW = `GM_SAFE_CLOG2(NumOut)
) (
  input  logic                    clk_i,
  input  logic                    rst_ni,
  // Flits from upstream (C gm_router_in.in[i]).
  input  logic [NumIn-1:0]        in_flit_valid_i,
  input  logic [NumIn*VcW-1:0]    in_flit_vc_i,
  input  logic [NumIn-1:0]        in_flit_head_i,
  input  logic [NumIn-1:0]        in_flit_tail_i,
  input  logic [NumIn*DestW-1:0]  in_flit_dest_i,
  input  logic [NumIn*8-1:0]      in_flit_seq_i,
  input  logic [NumIn*32-1:0]     in_flit_payload_i,
  // Credits from downstream (C gm_router_in.out[o]).
  input  logic [NumOut-1:0]       out_credit_valid_i,
  input  logic [NumOut*VcW-1:0]   out_credit_vc_i,
  // Flits to downstream (C gm_router_out.out[o]).
  output logic [NumOut-1:0]       out_flit_valid_o,
  output logic [NumOut*VcW-1:0]   out_flit_vc_o,
  output logic [NumOut-1:0]       out_flit_head_o,
  output logic [NumOut-1:0]       out_flit_tail_o,
  output logic [NumOut*DestW-1:0] out_flit_dest_o,
  output logic [NumOut*8-1:0]     out_flit_seq_o,
  output logic [NumOut*32-1:0]    out_flit_payload_o,
  // Credits to upstream (C gm_router_out.in[i]).
  output logic [NumIn-1:0]        in_credit_valid_o,
  output logic [NumIn*VcW-1:0]    in_credit_vc_o
);

  localparam int NumIvc = NumIn * NumVcs;   // input VC iv = i * NumVcs + v
  localparam int NumOvc = NumOut * NumVcs;  // output VC ov = o * NumVcs + k
  localparam int CntW = $clog2(VcDepth + 1);

  // A buffered flit (buffer entry): {head, tail, dest, seq, payload}.
  localparam int PayloadLsb = 0;
  localparam int SeqLsb = 32;
  localparam int DestLsb = 40;
  localparam int TailBit = DestLsb + DestW;
  localparam int HeadBit = TailBit + 1;
  localparam int EntryW = HeadBit + 1;
  // A flit on the crossbar or in an output stage: {valid, vc, entry}.
  localparam int VcLsb = EntryW;
  localparam int ValidBit = VcLsb + VcW;
  localparam int XbarW = ValidBit;          // {vc, entry}
  localparam int FlitW = ValidBit + 1;

  `GM_ONEHOT_ENC_FUNC(enc_vc, NumVcs, VcW)

  // ---------------------------------------------------------------------
  // Registers besides the FIFOs and allocators (docs/noc.md 5.2).
  // ---------------------------------------------------------------------
  logic [NumIvc-1:0]              ivc_has_ovc_q, ivc_has_ovc_d;
  logic [NumIvc*DestW-1:0]        ivc_oport_q, ivc_oport_d;
  logic [NumIvc*VcW-1:0]          ivc_ovc_q, ivc_ovc_d;
  logic [NumOvc-1:0]              ovc_busy_q, ovc_busy_d;
  logic [NumOvc*CntW-1:0]         ovc_credit_q, ovc_credit_d;
  logic [Stages*NumOut*FlitW-1:0] stage_q, stage_d;  // stage s at [s*NumOut*FlitW]
  logic [NumIn-1:0]               credit_valid_q, credit_valid_d;
  logic [NumIn*VcW-1:0]           credit_vc_q, credit_vc_d;

  // ---------------------------------------------------------------------
  // Input VC buffers: a flit on input i is appended to the buffer of VC
  // in_flit_vc_i[i] of input i (docs/noc.md 4.2 step 4.6).
  // ---------------------------------------------------------------------
  logic [NumIvc-1:0]        push;
  logic [NumIvc*EntryW-1:0] push_data;
  logic [NumIvc-1:0]        pop;       // front leaves (switch traversal)
  logic [NumIvc*EntryW-1:0] front;     // front entry of each input VC
  logic [NumIvc*CntW-1:0]   count;
  logic [NumIvc-1:0]        nonempty;

  always_comb begin
    for (int i = 0; i < NumIn; i++) begin
      for (int v = 0; v < NumVcs; v++) begin
        push[i*NumVcs + v] = in_flit_valid_i[i] && (in_flit_vc_i[i*VcW +: VcW] == VcW'(v));
        push_data[(i*NumVcs + v)*EntryW +: EntryW] =
            {in_flit_head_i[i], in_flit_tail_i[i], in_flit_dest_i[i*DestW +: DestW],
             in_flit_seq_i[i*8 +: 8], in_flit_payload_i[i*32 +: 32]};
      end
    end
  end

  if (Split == 0) begin : g_buf_bank
    gm_fifo #(
      .Width   (EntryW),
      .Depth   (VcDepth),
      .NumFifos(NumIvc)
    ) u_buf (
      .clk_i  (clk_i),
      .rst_ni (rst_ni),
      .push_i (push),
      .data_i (push_data),
      .pop_i  (pop),
      .data_o (front),
      .count_o(count)
    );
  end else begin : g_buf_split
    for (genvar iv = 0; iv < NumIvc; iv++) begin : g_ivc
      gm_fifo #(
        .Width   (EntryW),
        .Depth   (VcDepth),
        .NumFifos(1)
      ) u_buf (
        .clk_i  (clk_i),
        .rst_ni (rst_ni),
        .push_i (push[iv]),
        .data_i (push_data[iv*EntryW +: EntryW]),
        .pop_i  (pop[iv]),
        .data_o (front[iv*EntryW +: EntryW]),
        .count_o(count[iv*CntW +: CntW])
      );
    end
  end

  always_comb begin
    for (int iv = 0; iv < NumIvc; iv++) begin
      nonempty[iv] = (count[iv*CntW +: CntW] != '0);
    end
  end

  // ---------------------------------------------------------------------
  // Step 1, requests (docs/noc.md 4.2), from the registers:
  //  * VA: an input VC that holds no output VC (its front is a head flit)
  //    requests every free output VC of the port in the flit's dest field;
  //  * SA: an input VC that holds an output VC with a credit is eligible.
  // ---------------------------------------------------------------------
  logic [NumOvc*NumIvc-1:0] va_req;   // [ov*NumIvc + iv], by resource
  logic [NumIvc-1:0]        sa_elig;
  logic [NumOvc-1:0]        ovc_has_credit;
  logic [DestW-1:0]         req_dest; // scratch
  logic                     va_want;  // scratch

  // Every index below is a loop constant, compared against the register
  // value (a decoder), or a one-bit read at a computed index (a mux):
  // synthesis turns a write at a computed index into a case over every
  // index value per loop iteration, which does not fit in memory at 8x4.
  always_comb begin
    for (int ov = 0; ov < NumOvc; ov++) begin
      ovc_has_credit[ov] = ovc_credit_q[ov*CntW +: CntW] != '0;
    end
  end

  always_comb begin
    va_req   = '0;
    sa_elig  = '0;
    req_dest = '0;
    va_want  = 1'b0;
    for (int iv = 0; iv < NumIvc; iv++) begin
      va_want  = nonempty[iv] && !ivc_has_ovc_q[iv];
      req_dest = front[iv*EntryW + DestLsb +: DestW];
      for (int o = 0; o < NumOut; o++) begin
        for (int k = 0; k < NumVcs; k++) begin
          va_req[(o*NumVcs + k)*NumIvc + iv] =
              va_want && req_dest == DestW'(o) && !ovc_busy_q[o*NumVcs + k];
        end
      end
      if (nonempty[iv] && ivc_has_ovc_q[iv]) begin
        sa_elig[iv] = ovc_has_credit[32'(ivc_oport_q[iv*DestW +: DestW])*NumVcs
                                     + 32'(ivc_ovc_q[iv*VcW +: VcW])];
      end
    end
  end

  // ---------------------------------------------------------------------
  // Step 2, VC allocation (docs/noc.md 4.4): one iSLIP per output port
  // (NumOut groups of NumVcs output VCs) sharing the per-input-VC accept
  // pointers.
  // ---------------------------------------------------------------------
  logic [NumOvc*NumIvc-1:0] va_res_match;  // [ov*NumIvc + iv]
  logic [NumIvc*NumVcs-1:0] va_req_match;  // [iv*NumVcs + k]

  gm_islip #(
    .NumReq   (NumIvc),
    .NumRes   (NumVcs),
    .NumGroups(NumOut),
    .Iters    (Iters),
    .Mutation ((Mutation == 1 || Mutation == 2) ? Mutation : 0),
    .Split    (Split)
  ) u_va (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .req_i      (va_req),
    .res_match_o(va_res_match),
    .req_match_o(va_req_match)
  );

  // ---------------------------------------------------------------------
  // Step 3, switch allocation (docs/noc.md 4.5). Input stage: each input
  // picks one eligible VC with its round-robin arbiter, which advances
  // only when the input wins the switch; the input requests the port of
  // the output VC that VC holds. Then iSLIP over inputs x outputs.
  // ---------------------------------------------------------------------
  logic [NumIvc-1:0]       vc_grant;      // per input: VC picked, one-hot
  logic [NumIn*VcW-1:0]    sa_vc;         // its index
  logic [NumIn*XbarW-1:0]  sa_flit;       // {output VC, entry} it would send
  logic [NumOut*NumIn-1:0] sa_req;        // [o*NumIn + i]
  logic [NumOut*NumIn-1:0] sa_res_match;  // [o*NumIn + i]
  logic [NumIn*NumOut-1:0] sa_req_match;  // [i*NumOut + o]
  logic [NumIn-1:0]        sa_in_matched; // input won the switch

  if (Split == 0) begin : g_vc_arb_bank
    gm_rr_arb #(
      .N      (NumVcs),
      .NumArbs(NumIn)
    ) u_vc_arb (
      .clk_i    (clk_i),
      .rst_ni   (rst_ni),
      .req_i    (sa_elig),
      .advance_i(sa_in_matched),
      .grant_o  (vc_grant),
      .idx_o    (sa_vc)
    );
  end else begin : g_vc_arb_split
    for (genvar i = 0; i < NumIn; i++) begin : g_in
      gm_rr_arb #(
        .N      (NumVcs),
        .NumArbs(1)
      ) u_vc_arb (
        .clk_i    (clk_i),
        .rst_ni   (rst_ni),
        .req_i    (sa_elig[i*NumVcs +: NumVcs]),
        .advance_i(sa_in_matched[i]),
        .grant_o  (vc_grant[i*NumVcs +: NumVcs]),
        .idx_o    (sa_vc[i*VcW +: VcW])
      );
    end
  end

  logic [DestW-1:0] sa_oport;  // scratch: the port the picked VC holds
  always_comb begin
    sa_req   = '0;
    sa_flit  = '0;
    sa_oport = '0;
    for (int i = 0; i < NumIn; i++) begin
      sa_oport = '0;
      for (int v = 0; v < NumVcs; v++) begin
        if (vc_grant[i*NumVcs + v]) begin
          sa_flit[i*XbarW +: XbarW] = {ivc_ovc_q[(i*NumVcs + v)*VcW +: VcW],
                                       front[(i*NumVcs + v)*EntryW +: EntryW]};
          sa_oport = ivc_oport_q[(i*NumVcs + v)*DestW +: DestW];
        end
      end
      for (int o = 0; o < NumOut; o++) begin
        sa_req[o*NumIn + i] = (|vc_grant[i*NumVcs +: NumVcs]) && sa_oport == DestW'(o);
      end
    end
  end

  gm_islip #(
    .NumReq   (NumIn),
    .NumRes   (NumOut),
    .NumGroups(1),
    .Iters    (Iters),
    .Mutation (0),
    .Split    (Split)
  ) u_sa (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .req_i      (sa_req),
    .res_match_o(sa_res_match),
    .req_match_o(sa_req_match)
  );

  always_comb begin
    for (int i = 0; i < NumIn; i++) begin
      sa_in_matched[i] = |sa_req_match[i*NumOut +: NumOut];
      for (int v = 0; v < NumVcs; v++) begin
        pop[i*NumVcs + v] = sa_in_matched[i] && vc_grant[i*NumVcs + v];
      end
    end
  end

  // ---------------------------------------------------------------------
  // Switch traversal into output stage 0: output o takes the flit of the
  // input it matched (all zero when unmatched).
  // ---------------------------------------------------------------------
  logic [NumOut*FlitW-1:0] st0;

  for (genvar o = 0; o < NumOut; o++) begin : g_xbar
    logic [XbarW-1:0] flit;
    gm_onehot_mux #(
      .N    (NumIn),
      .Width(XbarW)
    ) u_mux (
      .sel_i (sa_res_match[o*NumIn +: NumIn]),
      .data_i(sa_flit),
      .data_o(flit)
    );
    assign st0[o*FlitW +: FlitW] = {|sa_res_match[o*NumIn +: NumIn], flit};
  end

  // ---------------------------------------------------------------------
  // Step 4, next state (docs/noc.md 4.2).
  // ---------------------------------------------------------------------

  // Output VCs: a flit into stage 0 on (o, k) takes a credit and, if it is
  // a tail, frees (o, k); a downstream credit adds one; VA makes (o, k)
  // busy. Mutation 3 loses the credit when both happen in one cycle.
  logic [NumOvc-1:0] ovc_dec, ovc_inc, ovc_release, va_granted;

  always_comb begin
    for (int o = 0; o < NumOut; o++) begin
      for (int k = 0; k < NumVcs; k++) begin
        ovc_dec[o*NumVcs + k] = st0[o*FlitW + ValidBit]
                             && (st0[o*FlitW + VcLsb +: VcW] == VcW'(k));
        ovc_inc[o*NumVcs + k] = out_credit_valid_i[o]
                             && (out_credit_vc_i[o*VcW +: VcW] == VcW'(k));
        ovc_release[o*NumVcs + k] = ovc_dec[o*NumVcs + k] && st0[o*FlitW + TailBit];
      end
    end
    for (int ov = 0; ov < NumOvc; ov++) begin
      va_granted[ov] = |va_res_match[ov*NumIvc +: NumIvc];
      ovc_credit_d[ov*CntW +: CntW] =
          (Mutation == 3 && ovc_inc[ov] && ovc_dec[ov])
          ? ovc_credit_q[ov*CntW +: CntW] - CntW'(1)
          : ovc_credit_q[ov*CntW +: CntW] + CntW'(ovc_inc[ov]) - CntW'(ovc_dec[ov]);
      ovc_busy_d[ov] = (ovc_busy_q[ov] && !ovc_release[ov]) || va_granted[ov];
    end
  end

  // Input VCs: VA gives an output VC to a VC that holds none; the tail
  // leaving releases it, and the VC's next packet allocates again. VA and
  // SA never touch the same input VC in one cycle.
  logic va_got;  // scratch

  always_comb begin
    ivc_has_ovc_d = ivc_has_ovc_q;
    ivc_oport_d   = ivc_oport_q;
    ivc_ovc_d     = ivc_ovc_q;
    va_got        = 1'b0;
    for (int iv = 0; iv < NumIvc; iv++) begin
      va_got = |va_req_match[iv*NumVcs +: NumVcs];
      if (va_got) begin
        ivc_has_ovc_d[iv]              = 1'b1;
        ivc_oport_d[iv*DestW +: DestW] = front[iv*EntryW + DestLsb +: DestW];
        ivc_ovc_d[iv*VcW +: VcW]       = enc_vc(va_req_match[iv*NumVcs +: NumVcs]);
      end else if (pop[iv] && front[iv*EntryW + TailBit]) begin
        ivc_has_ovc_d[iv]              = 1'b0;
      end
    end
  end

  // Upstream credits: one per input that sent a flit, for the VC it left.
  always_comb begin
    credit_valid_d = sa_in_matched;
    for (int i = 0; i < NumIn; i++) begin
      credit_vc_d[i*VcW +: VcW] = sa_in_matched[i] ? sa_vc[i*VcW +: VcW] : '0;
    end
  end

  // Output stages: stage 0 from the crossbar, stage s from stage s-1.
  if (Stages > 1) begin : g_shift
    assign stage_d = {stage_q[(Stages-1)*NumOut*FlitW-1:0], st0};
  end else begin : g_single
    assign stage_d = st0;
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      ivc_has_ovc_q  <= '0;
      ivc_oport_q    <= '0;
      ivc_ovc_q      <= '0;
      ovc_busy_q     <= '0;
      ovc_credit_q   <= {NumOvc{CntW'(VcDepth)}};
      stage_q        <= '0;
      credit_valid_q <= '0;
      credit_vc_q    <= '0;
    end else begin
      ivc_has_ovc_q  <= ivc_has_ovc_d;
      ivc_oport_q    <= ivc_oport_d;
      ivc_ovc_q      <= ivc_ovc_d;
      ovc_busy_q     <= ovc_busy_d;
      ovc_credit_q   <= ovc_credit_d;
      stage_q        <= stage_d;
      credit_valid_q <= credit_valid_d;
      credit_vc_q    <= credit_vc_d;
    end
  end

  // ---------------------------------------------------------------------
  // Outputs: the last output stage and the upstream credit registers.
  // ---------------------------------------------------------------------
  localparam int LastStage = (Stages - 1) * NumOut * FlitW;

  always_comb begin
    for (int o = 0; o < NumOut; o++) begin
      out_flit_valid_o[o]               = stage_q[LastStage + o*FlitW + ValidBit];
      out_flit_vc_o[o*VcW +: VcW]       = stage_q[LastStage + o*FlitW + VcLsb +: VcW];
      out_flit_head_o[o]                = stage_q[LastStage + o*FlitW + HeadBit];
      out_flit_tail_o[o]                = stage_q[LastStage + o*FlitW + TailBit];
      out_flit_dest_o[o*DestW +: DestW] = stage_q[LastStage + o*FlitW + DestLsb +: DestW];
      out_flit_seq_o[o*8 +: 8]          = stage_q[LastStage + o*FlitW + SeqLsb +: 8];
      out_flit_payload_o[o*32 +: 32]    = stage_q[LastStage + o*FlitW + PayloadLsb +: 32];
    end
  end
  assign in_credit_valid_o = credit_valid_q;
  assign in_credit_vc_o    = credit_vc_q;

`ifdef GM_ASSERTS_ON
  // Checker logic, not design logic: excluded from coverage.
  /* verilator coverage_off */
  // Credit counters within 0..VcDepth; no flit sent without a credit; no
  // credit beyond VcDepth from downstream; VA grants free output VCs only;
  // a tail releases a busy output VC; the upstream keeps the wormhole
  // protocol (a VC without an output VC has a head at its front, naming an
  // existing port); VA and SA never touch one input VC in a cycle; input VC
  // numbers are in range.
  logic err_credit_range, err_send_no_credit, err_excess_credit, err_va_busy;
  logic err_release_free, err_front_not_head, err_dest_range, err_va_and_sa;
  logic err_in_vc_range, err_credit_vc_range;
  always_comb begin
    err_credit_range = 1'b0;
    err_send_no_credit = 1'b0;
    err_excess_credit = 1'b0;
    err_va_busy = 1'b0;
    err_release_free = 1'b0;
    err_front_not_head = 1'b0;
    err_dest_range = 1'b0;
    err_va_and_sa = 1'b0;
    err_in_vc_range = 1'b0;
    err_credit_vc_range = 1'b0;
    for (int ov = 0; ov < NumOvc; ov++) begin
      err_credit_range = err_credit_range || (32'(ovc_credit_q[ov*CntW +: CntW]) > VcDepth);
      err_send_no_credit = err_send_no_credit
          || (ovc_dec[ov] && ovc_credit_q[ov*CntW +: CntW] == '0);
      err_excess_credit = err_excess_credit
          || (ovc_inc[ov] && !ovc_dec[ov] && 32'(ovc_credit_q[ov*CntW +: CntW]) == VcDepth);
      err_va_busy = err_va_busy || (va_granted[ov] && ovc_busy_q[ov]);
      err_release_free = err_release_free || (ovc_release[ov] && !ovc_busy_q[ov]);
    end
    for (int iv = 0; iv < NumIvc; iv++) begin
      if (nonempty[iv] && !ivc_has_ovc_q[iv]) begin
        err_front_not_head = err_front_not_head || !front[iv*EntryW + HeadBit];
        err_dest_range = err_dest_range || (32'(front[iv*EntryW + DestLsb +: DestW]) >= NumOut);
      end
      err_va_and_sa = err_va_and_sa || ((|va_req_match[iv*NumVcs +: NumVcs]) && pop[iv]);
    end
    for (int i = 0; i < NumIn; i++) begin
      err_in_vc_range = err_in_vc_range
          || (in_flit_valid_i[i] && 32'(in_flit_vc_i[i*VcW +: VcW]) >= NumVcs);
    end
    for (int o = 0; o < NumOut; o++) begin
      err_credit_vc_range = err_credit_vc_range
          || (out_credit_valid_i[o] && 32'(out_credit_vc_i[o*VcW +: VcW]) >= NumVcs);
    end
  end
  `GM_ASSERT(a_credit_in_range, !err_credit_range)
  `GM_ASSERT(a_no_send_without_credit, !err_send_no_credit)
  `GM_ASSERT(a_no_excess_credit, !err_excess_credit)
  `GM_ASSERT(a_va_grants_free_ovc, !err_va_busy)
  `GM_ASSERT(a_release_busy_ovc, !err_release_free)
  `GM_ASSERT(a_front_is_head, !err_front_not_head)
  `GM_ASSERT(a_head_dest_in_range, !err_dest_range)
  `GM_ASSERT(a_va_sa_disjoint, !err_va_and_sa)
  `GM_ASSERT(a_in_vc_in_range, !err_in_vc_range)
  `GM_ASSERT(a_credit_vc_in_range, !err_credit_vc_range)
  /* verilator coverage_on */
`endif

`ifndef SYNTHESIS
  // Elaboration-time parameter checks: excluded from coverage.
  /* verilator coverage_off */
  initial begin
    if (NumIn < 1 || NumOut < 1 || NumVcs < 1 || VcDepth < 1 || Stages < 1 || Iters < 1) begin
      $fatal(1, "gm_router: NumIn %0d NumOut %0d NumVcs %0d VcDepth %0d Stages %0d Iters %0d: all must be >= 1",
             NumIn, NumOut, NumVcs, VcDepth, Stages, Iters);
    end
    if (Mutation != 0) begin
      $display("gm_router: WARNING: built with Mutation = %0d (a deliberately broken router)", Mutation);
    end
  end
  /* verilator coverage_on */
`endif

endmodule
