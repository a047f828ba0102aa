/* The baseline design (SPEC section 3, the DC-L1 seed's Table II): a
 * private L1D behind every core's memory port, one request crossbar
 * (cores -> L2 slices) and one reply crossbar (L2 slices -> cores).
 * docs/architecture.md walks through it as the example of a design. */
#ifndef GM_DESIGNS_BASELINE_BASELINE_H
#define GM_DESIGNS_BASELINE_BASELINE_H

#include "designs/design.h"

extern const gm_design_ops gm_baseline_design;

#endif
