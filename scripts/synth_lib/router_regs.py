"""Flip-flops the router's registers imply (docs/noc.md 5.2, with the RTL's
widths: every index is at least one bit, GM_SAFE_CLOG2), independent of
the synthesis result, so that the flow's flip-flop count can be checked.

A round-robin pointer over a single candidate (or a FIFO read index with
one entry, or a VC number when there is one VC) can only hold its reset
value 0; synthesis removes such constant registers, and so does this count.
"""


def clog2(n):
    return (n - 1).bit_length()


def safe_clog2(n):
    return clog2(n) if n > 1 else 1


def router_flops(n_in, n_out, vcs, depth, stages):
    N, M, V, D, S = n_in, n_out, vcs, depth, stages
    vcw = safe_clog2(V)
    destw = safe_clog2(M)
    cntw = clog2(D + 1)
    entryw = 32 + 8 + destw + 2           # payload, seq, dest, tail, head
    flitw = entryw + vcw + 1              # + vc, valid

    def ptr(over, width):
        """Bits of a pointer over `over` values, 0 when it is constant."""
        return width if over > 1 else 0

    regs = {
        "input buffer entries": N * V * D * entryw,
        "buf_rd": N * V * ptr(D, safe_clog2(D)),
        "buf_count": N * V * cntw,
        "ivc_has_ovc": N * V,
        "ivc_oport": N * V * destw,
        "ivc_ovc": N * V * ptr(V, vcw),
        "ovc_busy": M * V,
        "ovc_credit": M * V * cntw,
        "va_grant_ptr": M * V * ptr(N * V, safe_clog2(N * V)),
        "va_accept_ptr": N * V * ptr(V, safe_clog2(V)),
        "sa_grant_ptr": M * ptr(N, safe_clog2(N)),
        "sa_accept_ptr": N * ptr(M, safe_clog2(M)),
        "vc_arb_ptr": N * ptr(V, safe_clog2(V)),
        "output stages": S * M * (flitw - (0 if V > 1 else vcw)),
        "upstream credit": N * (1 + ptr(V, vcw)),
    }
    return sum(regs.values()), regs


if __name__ == "__main__":
    import sys
    args = [int(a) for a in sys.argv[1:6]]
    total, regs = router_flops(*args)
    for k, v in regs.items():
        print("%-22s %d" % (k, v))
    print("%-22s %d" % ("total", total))
