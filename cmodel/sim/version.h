/* The revision gmsim was built from (git describe --always --dirty of the
 * source tree at build time, "unknown" outside a git checkout): printed by
 * `gmsim version` and recorded in every statistics file, so a result
 * store can tell which build wrote a result. */
#ifndef GM_SIM_VERSION_H
#define GM_SIM_VERSION_H

const char *gm_version(void);

#endif
