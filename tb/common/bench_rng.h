// The lockstep benches' only source of randomness: xorshift64*, seeded and
// portable, so a failing seed replays the same stimulus on any machine.
// Each bench keeps its own salt (the constant added to the scrambled seed)
// so that the regressions' recorded seeds keep giving the stimulus they
// gave when each bench had its own copy of this class.
#ifndef GM_TB_BENCH_RNG_H
#define GM_TB_BENCH_RNG_H

#include <cstdint>

class BenchRng {
public:
    BenchRng(uint64_t seed, uint64_t salt) : s_(seed * 0x9E3779B97F4A7C15ull + salt) {}
    uint64_t next()
    {
        s_ ^= s_ >> 12;
        s_ ^= s_ << 25;
        s_ ^= s_ >> 27;
        return s_ * 0x2545F4914F6CDD1Dull;
    }
    bool chance(unsigned ppt) { return next() % 1000 < ppt; }
    unsigned below(unsigned n) { return static_cast<unsigned>(next() % n); }

private:
    uint64_t s_;
};

#endif
