"""Scaled 22 nm estimate of a 180 nm (OSU 0.18 um) result.

This is an estimate, not a measurement, and is always labelled as such.

Area: classical constant-field (Dennard) scaling, area ~ L^2:
    A22 = A180 * (22/180)^2            (divide by 66.9)
    R. H. Dennard et al., "Design of ion-implanted MOSFET's with very small
    physical dimensions", IEEE J. Solid-State Circuits SC-9(5):256-268, 1974.

Delay: the fitted gate-delay equations of
    A. Stillmaker, B. Baas, "Scaling equations for the accurate prediction
    of CMOS device performance from 180 nm to 7 nm", Integration, the VLSI
    Journal 58:74-81, 2017, doi:10.1016/j.vlsi.2017.02.002.
delay_new = delay_old * f_new(V_new) / f_old(V_old), f a polynomial in Vdd.
The paper has no 22 nm node; its nearest row, 20 nm high-performance at
0.9 V, stands in for 22 nm (so the delay estimate is slightly optimistic).
180 nm is taken at its nominal 1.8 V, the voltage of the OSU018 liberty.
"""

FROM_NM = 180
TO_NM = 22
FROM_VDD = 1.8
TO_VDD = 0.9

# Stillmaker & Baas 2017, delay polynomial coefficients (a3, a2, a1, a0) for
# f(V) = a3 V^3 + a2 V^2 + a1 V + a0: the 180 nm row and the 20 nm HP row.
DELAY_COEFF_180 = (0.0, 97.09, -356.7, 406.5)
DELAY_COEFF_HP20 = (0.0, 34.63, -66.37, 41.15)


def _poly(c, v):
    return c[0] * v ** 3 + c[1] * v ** 2 + c[2] * v + c[3]


AREA_DIVISOR = (FROM_NM / TO_NM) ** 2
DELAY_DIVISOR = _poly(DELAY_COEFF_180, FROM_VDD) / _poly(DELAY_COEFF_HP20, TO_VDD)

RULE = ("scaled estimate, not measured: area x (22/180)^2 (classical Dennard "
        "scaling, /%.1f); delay / %.2f (Stillmaker & Baas 2017 gate-delay fit, "
        "180 nm at 1.8 V -> 20 nm HP at 0.9 V as the 22 nm proxy); logic only, "
        "no wires" % (AREA_DIVISOR, DELAY_DIVISOR))


def scale(result):
    """The 22 nm estimate for one flow result (dict with area_um2 and
    critical_path_ns)."""
    crit = result.get("critical_path_ns")
    crit22 = crit / DELAY_DIVISOR if crit else None
    return {
        "node_nm": TO_NM,
        "estimate": True,
        "area_um2": round(result["area_um2"] / AREA_DIVISOR, 1),
        "critical_path_ns": round(crit22, 4) if crit22 else None,
        "fmax_mhz": round(1000.0 / crit22, 0) if crit22 else None,
        "area_divisor": round(AREA_DIVISOR, 3),
        "delay_divisor": round(DELAY_DIVISOR, 3),
        "rule": RULE,
    }
