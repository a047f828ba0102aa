/* Seeded PRNG, one instance per component (modelling contract 2.5).
 * xoshiro256** seeded through splitmix64 from (system seed, component id),
 * so adding a component never shifts the stream of another. */
#ifndef GM_SIM_PRNG_H
#define GM_SIM_PRNG_H

#include <stdint.h>

typedef struct gm_prng {
    uint64_t s[4];
} gm_prng;

void gm_prng_seed(gm_prng *p, uint64_t seed, uint64_t component_id);
uint64_t gm_prng_next(gm_prng *p);
/* Uniform in [0, bound) without modulo bias; bound > 0. */
uint64_t gm_prng_below(gm_prng *p, uint64_t bound);

#endif
