#include "sim/prng.h"

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

void gm_prng_seed(gm_prng *p, uint64_t seed, uint64_t component_id)
{
    uint64_t x = seed ^ (component_id * 0xd1342543de82ef95ULL);
    for (int i = 0; i < 4; i++)
        p->s[i] = splitmix64(&x);
}

uint64_t gm_prng_next(gm_prng *p)
{
    uint64_t *s = p->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

uint64_t gm_prng_below(gm_prng *p, uint64_t bound)
{
    uint64_t limit = UINT64_MAX - UINT64_MAX % bound;
    uint64_t r;
    do {
        r = gm_prng_next(p);
    } while (r >= limit);
    return r % bound;
}
