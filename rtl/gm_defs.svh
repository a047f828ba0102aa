// Shared macros of the gmsim RTL, included by every module file.
//
// The language subset is what Verilator 5.006, Yosys 0.23 and Icarus 11 all
// accept (SPEC section 5). Two consequences shape every file:
//   * Yosys 0.23 parses no multi-dimensional packed array, so ports and
//     per-element signals are flat 1-D vectors: element k of a vector of
//     W-bit elements is bits [k*W +: W]. Unpacked arrays appear only as
//     memories (FIFO storage).
//   * Yosys 0.23 and Icarus 11 do not parse SV-2009 parameters without a
//     default, hence GM_REQ_PARAM below.
// And one shapes it for speed: logic replicated over a large dimension
// (input VCs, output VCs, ports) is an always_comb loop over flat vectors,
// not a generate loop. Verilator keeps a loop of more than 64 iterations as
// a C++ loop, while a generate loop becomes straight-line code per element
// (an 80x32 router written with generate loops Verilated into 42 MB of C++).
// Primitives therefore come as banks of independent instances (gm_fifo,
// gm_rr_arb take a count parameter).
`ifndef GM_DEFS_SVH
`define GM_DEFS_SVH

// A parameter every instance must set (BaseJump's BSG_INV_PARAM). It has
// no default under VERILATOR, so lint and simulation fail when an instance
// forgets it; the other tools see a default of 0, which the elaboration
// check of each module rejects (sizes are all >= 1).
`ifdef VERILATOR
`define GM_REQ_PARAM(name) name
`else
`define GM_REQ_PARAM(name) name = 0
`endif

// Bits of an index over n elements, at least 1 (BaseJump's BSG_SAFE_CLOG2):
// n = 1 still gets a (constant 0) signal, so no zero-width vector exists.
`define GM_SAFE_CLOG2(n) (((n) > 1) ? $clog2(n) : 1)

// Assertions run in Verilator builds made with --assert. Yosys (which defines
// SYNTHESIS) and Icarus 11 (which has no concurrent assertions) never see
// them.
`ifdef VERILATOR
`ifndef SYNTHESIS
`define GM_ASSERTS_ON
`endif
`endif

// Round-robin search (docs/noc.md 3.1) as a function NAME over W
// candidates with a PW-bit pointer (0 <= ptr < W): one-hot on the
// lowest-numbered set bit of req at an index >= ptr or, if there is none,
// on the lowest-numbered set bit of req; zero when req is zero. The lowest
// set bit is isolated with x & -x, so the search is two W-bit adders, not
// a W-deep priority chain. Every arbiter of the RTL uses this one
// definition.
`define GM_RR_SEARCH_FUNC(NAME, W, PW) \
  function automatic logic [(W)-1:0] NAME(input logic [(W)-1:0] req, \
                                          input logic [(PW)-1:0] ptr); \
    logic [(W)-1:0] upper; \
    upper = req & ({(W){1'b1}} << ptr); \
    if (|upper) NAME = upper & (~upper + (W)'(1)); \
    else NAME = req & (~req + (W)'(1)); \
  endfunction

// One-hot to binary encoder as a function NAME: the IW-bit index of the
// set bit of a W-bit one-hot vector, 0 for a zero vector.
`define GM_ONEHOT_ENC_FUNC(NAME, W, IW) \
  function automatic logic [(IW)-1:0] NAME(input logic [(W)-1:0] oh); \
    logic [(IW)-1:0] idx; \
    idx = '0; \
    for (int k = 0; k < (W); k++) begin \
      if (oh[k]) idx = idx | (IW)'(k); \
    end \
    NAME = idx; \
  endfunction

// A concurrent assertion checked at every rising edge of clk_i while rst_ni
// is high. Used only inside `ifdef GM_ASSERTS_ON.
`define GM_ASSERT(name, prop) \
  name: assert property (@(posedge clk_i) disable iff (!rst_ni) (prop)) \
    else $error("%m: assertion %s failed", `"name`");

`endif
