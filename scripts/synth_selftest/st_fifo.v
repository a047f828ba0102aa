// Self-test design for scripts/synth: a synchronous FIFO of DEPTH entries
// of W bits (DEPTH a power of two, at least 2), with a combinational read
// port. Registers: DEPTH*W storage bits (no reset), read and write
// pointers of clog2(DEPTH) bits and an occupancy counter of
// clog2(DEPTH+1) bits. Every register bit is observable at an output, so
// synthesis keeps all of them:
//   flip-flops = DEPTH*W + 2*clog2(DEPTH) + clog2(DEPTH+1).
module st_fifo #(
    parameter int W     = 8,
    parameter int DEPTH = 4
) (
    input  logic         clk,
    input  logic         rst,
    input  logic         push,
    input  logic [W-1:0] din,
    input  logic         pop,
    output logic [W-1:0] dout,
    output logic         empty,
    output logic         full
);
    localparam int AW = $clog2(DEPTH);
    localparam int CW = $clog2(DEPTH + 1);

    logic [W-1:0]  mem [DEPTH];
    logic [AW-1:0] rd, wr;
    logic [CW-1:0] count;

    wire do_push = push && !full;
    wire do_pop  = pop && !empty;

    assign empty = (count == '0);
    assign full  = (count == CW'(DEPTH));
    assign dout  = mem[rd];

    always_ff @(posedge clk) begin
        if (do_push)
            mem[wr] <= din;
    end

    always_ff @(posedge clk) begin
        if (rst) begin
            rd    <= '0;
            wr    <= '0;
            count <= '0;
        end else begin
            if (do_push)
                wr <= wr + 1'b1;
            if (do_pop)
                rd <= rd + 1'b1;
            if (do_push && !do_pop)
                count <= count + 1'b1;
            else if (do_pop && !do_push)
                count <= count - 1'b1;
        end
    end
endmodule
