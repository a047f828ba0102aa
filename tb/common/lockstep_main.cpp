// Command line of the lockstep harness: picks a registered (block, config)
// and runs it. `gm_lockstep --list` names them all.
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "lockstep.h"

namespace gm_tb {

std::vector<Entry>& registry()
{
    static std::vector<Entry> entries;  // filled by static Registrars before main
    return entries;
}

int rand_seed_for(uint64_t seed)
{
    // Spread test seeds over the positive int range; never 0.
    uint64_t x = seed * 0x9e3779b97f4a7c15ull;
    x ^= x >> 29;
    return static_cast<int>(x % 2147483646u) + 1;
}

std::string default_wave_path(const Options& opt)
{
    return opt.block + "_" + opt.config + "_seed" + std::to_string(opt.seed) + ".fst";
}

const char* mode_name(Mode m)
{
    switch (m) {
    case Mode::kLockstep: return "lockstep";
    case Mode::kCOnly: return "c-only";
    case Mode::kRtlOnly: return "rtl-only";
    }
    return "?";
}

static void usage(FILE* f)
{
    std::fprintf(f,
        "usage: gm_lockstep --block B --config C [options] [+verilator+... plusargs]\n"
        "  --list              list the (block, config) pairs built in\n"
        "  --seed N            stimulus seed (default 1); also seeds Verilator's\n"
        "                      random reset unless +verilator+seed+N is given\n"
        "  --cycles N          stimulus cycles before the drain phase (default 2000)\n"
        "  --drain-max N       cycles allowed for draining (default 100000)\n"
        "  --knob NAME=VALUE   override a stimulus knob (repeatable; see --knob help=1)\n"
        "  --wave FILE         waveform written on failure (default BLOCK_CONFIG_seedN.fst)\n"
        "  --wave-window N     cycles of waveform before the failure (default 200)\n"
        "  --coverage FILE     write Verilator coverage data (coverage builds)\n"
        "  --mode M            lockstep (default), c-only, rtl-only\n"
        "  --bench             time c-only, rtl-only and lockstep on the same seed\n"
        "  --expect-mismatch   pass only if a lockstep mismatch is found (mutants)\n"
        "  --quiet             no statistics lines\n"
        "Plusargs: +verilator+rand+reset+{0,1,2} (X init: zeros, ones, random),\n"
        "+verilator+seed+N, +verilator+noassert.\n");
}

static bool parse_u64(const char* s, uint64_t* out)
{
    char* end = nullptr;
    unsigned long long v = std::strtoull(s, &end, 0);
    if (!s[0] || *end) return false;
    *out = v;
    return true;
}

int lockstep_main(int argc, char** argv)
{
    Options opt;
    opt.argc = argc;
    opt.argv = argv;
    bool list = false;
    for (int k = 1; k < argc; k++) {
        std::string a = argv[k];
        auto value = [&](const char* name) -> const char* {
            if (k + 1 >= argc) {
                std::fprintf(stderr, "gm_lockstep: %s needs a value\n", name);
                std::exit(2);
            }
            return argv[++k];
        };
        auto number = [&](const char* name) -> uint64_t {
            uint64_t v;
            const char* s = value(name);
            if (!parse_u64(s, &v)) {
                std::fprintf(stderr, "gm_lockstep: %s: not a number: %s\n", name, s);
                std::exit(2);
            }
            return v;
        };
        if (a == "--list") list = true;
        else if (a == "--block") opt.block = value("--block");
        else if (a == "--config") opt.config = value("--config");
        else if (a == "--seed") opt.seed = number("--seed");
        else if (a == "--cycles") opt.cycles = number("--cycles");
        else if (a == "--drain-max") opt.drain_max = number("--drain-max");
        else if (a == "--knob") opt.knobs.emplace_back(value("--knob"));
        else if (a == "--wave") opt.wave = value("--wave");
        else if (a == "--wave-window") opt.wave_window = number("--wave-window");
        else if (a == "--coverage") opt.coverage = value("--coverage");
        else if (a == "--bench") opt.bench = true;
        else if (a == "--expect-mismatch") opt.expect_mismatch = true;
        else if (a == "--quiet") opt.quiet = true;
        else if (a == "--mode") {
            std::string m = value("--mode");
            if (m == "lockstep") opt.mode = Mode::kLockstep;
            else if (m == "c-only") opt.mode = Mode::kCOnly;
            else if (m == "rtl-only") opt.mode = Mode::kRtlOnly;
            else {
                std::fprintf(stderr, "gm_lockstep: unknown mode %s\n", m.c_str());
                return 2;
            }
        } else if (a == "-h" || a == "--help") {
            usage(stdout);
            return 0;
        } else if (a.rfind("+", 0) == 0) {
            if (a.rfind("+verilator+seed+", 0) == 0) opt.user_rand_seed = true;
        } else {
            std::fprintf(stderr, "gm_lockstep: unknown argument %s\n", a.c_str());
            usage(stderr);
            return 2;
        }
    }
    if (list) {
        for (const Entry& e : registry())
            std::printf("%-8s %-12s %s\n", e.block.c_str(), e.config.c_str(), e.summary.c_str());
        return 0;
    }
    for (const Entry& e : registry()) {
        if (e.block == opt.block && e.config == opt.config) {
            std::setvbuf(stdout, nullptr, _IOLBF, 0);
            if (!opt.quiet)
                std::printf("gm_lockstep: %s %s seed %" PRIu64 " cycles %" PRIu64 " mode %s\n",
                            opt.block.c_str(), opt.config.c_str(), opt.seed, opt.cycles,
                            mode_name(opt.mode));
            return e.run(opt);
        }
    }
    std::fprintf(stderr, "gm_lockstep: no block '%s' config '%s' (see --list)\n",
                 opt.block.c_str(), opt.config.c_str());
    return 2;
}

}  // namespace gm_tb

int main(int argc, char** argv)
{
    return gm_tb::lockstep_main(argc, argv);
}
