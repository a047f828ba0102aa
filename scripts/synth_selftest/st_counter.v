// Self-test design for scripts/synth: a W-bit up counter with a
// synchronous reset and an enable. It has exactly W flip-flops, so the
// flow's flip-flop count can be checked against the RTL.
module st_counter #(
    parameter int W = 8
) (
    input  logic         clk,
    input  logic         rst,
    input  logic         en,
    output logic [W-1:0] q
);
    always_ff @(posedge clk) begin
        if (rst)
            q <= '0;
        else if (en)
            q <= q + 1'b1;
    end
endmodule
