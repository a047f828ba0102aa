// Self-test design for scripts/synth: an NumIn x NumOut crossbar of Width-bit
// words with valid/ready, one round-robin arbiter per output (pointer
// register, lowest-set-bit search with x & -x) and registered outputs. A
// stand-in for the router when exercising the sweep and noc-area machinery.
// Registers: per output a valid bit, Width data bits and a clog2(NumIn)-bit
// pointer (for NumIn > 1).
module st_xbar #(
    parameter int NumIn  = 4,
    parameter int NumOut = 2,
    parameter int Width  = 32,
    localparam int DW = (NumOut > 1) ? $clog2(NumOut) : 1,
    localparam int PW = (NumIn > 1) ? $clog2(NumIn) : 1
) (
    input  logic                    clk,
    input  logic                    rst,
    input  logic [NumIn-1:0]        in_valid,
    input  logic [NumIn*DW-1:0]     in_dest,
    input  logic [NumIn*Width-1:0]  in_data,
    output logic [NumIn-1:0]        in_ready,
    output logic [NumOut-1:0]       out_valid,
    output logic [NumOut*Width-1:0] out_data,
    input  logic [NumOut-1:0]       out_ready
);
    logic [NumOut*PW-1:0]    ptr_q;
    logic [NumOut*NumIn-1:0] grant;
    logic [NumOut-1:0]       take;

    for (genvar o = 0; o < NumOut; o++) begin : g_out
        logic [NumIn-1:0] req, upper, g;
        logic [PW-1:0]    gidx;
        logic [Width-1:0] mux;
        always_comb begin
            for (int i = 0; i < NumIn; i++)
                req[i] = in_valid[i] && (NumOut == 1 || in_dest[i*DW +: DW] == DW'(o));
            upper = req & ({NumIn{1'b1}} << ptr_q[o*PW +: PW]);
            g = (|upper) ? (upper & (~upper + 1'b1)) : (req & (~req + 1'b1));
            gidx = '0;
            mux = '0;
            for (int i = 0; i < NumIn; i++) begin
                if (g[i]) gidx = PW'(i);
                mux = mux | ({Width{g[i]}} & in_data[i*Width +: Width]);
            end
        end
        assign take[o] = !out_valid[o] || out_ready[o];
        assign grant[o*NumIn +: NumIn] = take[o] ? g : '0;
        always_ff @(posedge clk) begin
            if (rst) begin
                out_valid[o] <= 1'b0;
                out_data[o*Width +: Width] <= '0;
                ptr_q[o*PW +: PW] <= '0;
            end else if (take[o]) begin
                out_valid[o] <= |req;
                out_data[o*Width +: Width] <= mux;
                if (|req)
                    ptr_q[o*PW +: PW] <= (gidx == PW'(NumIn - 1)) ? '0 : gidx + 1'b1;
            end
        end
    end

    always_comb begin
        in_ready = '0;
        for (int o = 0; o < NumOut; o++)
            in_ready = in_ready | grant[o*NumIn +: NumIn];
    end
endmodule
