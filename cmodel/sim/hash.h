/* FNV-1a (64-bit), the one hash behind every determinism fingerprint:
 * the event hashes of the statistics and the trace reader's stream hash.
 * Byte order is fixed (little-endian by value), so a hash is the same on
 * every host. */
#ifndef GM_SIM_HASH_H
#define GM_SIM_HASH_H

#include <stddef.h>
#include <stdint.h>

#define GM_FNV1A_INIT 0xcbf29ce484222325ull
#define GM_FNV1A_PRIME 0x100000001b3ull

static inline uint64_t gm_fnv1a_bytes(uint64_t h, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * GM_FNV1A_PRIME;
    return h;
}

/* The 8 bytes of v, least significant first. */
static inline uint64_t gm_fnv1a_u64(uint64_t h, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        h = (h ^ ((v >> (8 * i)) & 0xff)) * GM_FNV1A_PRIME;
    return h;
}

#endif
