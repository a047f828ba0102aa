// Bank of NumFifos independent first-in first-out buffers of Depth entries
// of Width bits (the router's input VC buffers, one per input VC).
// NumFifos = 1 is one FIFO. Element f of every port vector belongs to
// FIFO f.
//
// Handshake (valid-then-yumi, BaseJump style): data_o[f] is the front entry
// and is meaningful only while count_o[f] != 0; pop_i[f] removes it at the
// rising edge and may be 1 only while count_o[f] != 0. push_i[f] appends
// data_i[f] at the edge and may be 1 only while count_o[f] < Depth, even
// when pop_i[f] is 1 in the same cycle (the router's upstream holds no
// credit for a full buffer). A push and a pop in one cycle leave the count
// unchanged.
//
// Registers (docs/noc.md 5.2): mem_q (not reset: only entries below the
// count are ever read), rd_q (read index, 0..Depth-1), count_q (0..Depth).
// The write index is (rd_q + count_q) mod Depth, from the registers before
// the edge. Reset (synchronous, active low): rd_q = 0, count_q = 0.
`include "gm_defs.svh"

module gm_fifo #(
  parameter int `GM_REQ_PARAM(Width),
  parameter int `GM_REQ_PARAM(Depth),
  parameter int `GM_REQ_PARAM(NumFifos),
  localparam int PtrW = `GM_SAFE_CLOG2(Depth),
  localparam int CntW = $clog2(Depth + 1)
) (
  input  logic                      clk_i,
  input  logic                      rst_ni,
  input  logic [NumFifos-1:0]       push_i,
  input  logic [NumFifos*Width-1:0] data_i,
  input  logic [NumFifos-1:0]       pop_i,
  output logic [NumFifos*Width-1:0] data_o,
  output logic [NumFifos*CntW-1:0]  count_o
);

  // Entry e of FIFO f is mem_q[(f*Depth + e)*Width +: Width].
  logic [NumFifos*Depth*Width-1:0] mem_q, mem_d;
  logic [NumFifos*PtrW-1:0]        rd_q, rd_d;
  logic [NumFifos*CntW-1:0]        count_q, count_d;
  logic [CntW:0]                   wr_sum;  // scratch: rd + count, then mod Depth

  // Entry loops use constant indices (a mux on read, a decoder on write)
  // rather than a variable part-select of the whole storage vector, which
  // synthesis would turn into a shifter over every FIFO's bits.
  always_comb begin
    data_o = '0;
    for (int f = 0; f < NumFifos; f++) begin
      for (int e = 0; e < Depth; e++) begin
        if (rd_q[f*PtrW +: PtrW] == PtrW'(e)) begin
          data_o[f*Width +: Width] = mem_q[(f*Depth + e)*Width +: Width];
        end
      end
    end
  end
  assign count_o = count_q;

  always_comb begin
    mem_d   = mem_q;
    rd_d    = rd_q;
    count_d = count_q;
    wr_sum  = '0;
    for (int f = 0; f < NumFifos; f++) begin
      // Write index (rd + count) mod Depth without a divider: both <= Depth.
      wr_sum = (CntW + 1)'(rd_q[f*PtrW +: PtrW]) + (CntW + 1)'(count_q[f*CntW +: CntW]);
      if (wr_sum >= (CntW + 1)'(Depth)) begin
        wr_sum = wr_sum - (CntW + 1)'(Depth);
      end
      for (int e = 0; e < Depth; e++) begin
        if (push_i[f] && wr_sum == (CntW + 1)'(e)) begin
          mem_d[(f*Depth + e)*Width +: Width] = data_i[f*Width +: Width];
        end
      end
      if (pop_i[f]) begin
        rd_d[f*PtrW +: PtrW] = (rd_q[f*PtrW +: PtrW] == PtrW'(Depth - 1))
                             ? '0 : rd_q[f*PtrW +: PtrW] + PtrW'(1);
      end
      count_d[f*CntW +: CntW] = count_q[f*CntW +: CntW] + CntW'(push_i[f]) - CntW'(pop_i[f]);
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      rd_q    <= '0;
      count_q <= '0;
    end else begin
      rd_q    <= rd_d;
      count_q <= count_d;
    end
  end

  // Storage has no reset (only entries below the count are read).
  always_ff @(posedge clk_i) begin
    mem_q <= mem_d;
  end

`ifdef GM_ASSERTS_ON
  // Checker logic, not design logic: excluded from coverage.
  /* verilator coverage_off */
  logic err_push_full, err_pop_empty, err_count_range, err_rd_range;
  always_comb begin
    err_push_full = 1'b0;
    err_pop_empty = 1'b0;
    err_count_range = 1'b0;
    err_rd_range = 1'b0;
    for (int f = 0; f < NumFifos; f++) begin
      err_push_full = err_push_full || (push_i[f] && 32'(count_q[f*CntW +: CntW]) == Depth);
      err_pop_empty = err_pop_empty || (pop_i[f] && count_q[f*CntW +: CntW] == '0);
      err_count_range = err_count_range || (32'(count_q[f*CntW +: CntW]) > Depth);
      err_rd_range = err_rd_range || (32'(rd_q[f*PtrW +: PtrW]) >= Depth);
    end
  end
  `GM_ASSERT(a_no_push_when_full, !err_push_full)
  `GM_ASSERT(a_no_pop_when_empty, !err_pop_empty)
  `GM_ASSERT(a_count_in_range, !err_count_range)
  `GM_ASSERT(a_rd_in_range, !err_rd_range)
  /* verilator coverage_on */
`endif

`ifndef SYNTHESIS
  // Elaboration-time parameter checks: excluded from coverage.
  /* verilator coverage_off */
  initial begin
    if (Width < 1 || Depth < 1 || NumFifos < 1) begin
      $fatal(1, "gm_fifo: Width = %0d, Depth = %0d, NumFifos = %0d, all must be >= 1",
             Width, Depth, NumFifos);
    end
  end
  /* verilator coverage_on */
`endif

endmodule
