// The name=value stimulus knobs of a lockstep bench (`--knob name=value`):
// one table of (name, field) per bench gives the parser, the error
// messages and the "knobs: ..." line the bench prints at start.
#ifndef GM_TB_BENCH_KNOBS_H
#define GM_TB_BENCH_KNOBS_H

#include <cstdlib>
#include <string>
#include <vector>

template <class K>
struct KnobField {
    const char* name;
    unsigned K::*field;
};

// Sets the knob that kv names; returns "" or what is wrong with kv.
template <class K>
std::string knob_set(K& knobs, const std::vector<KnobField<K>>& fields, unsigned long max,
                     const std::string& kv)
{
    size_t eq = kv.find('=');
    if (eq == std::string::npos) return "knob '" + kv + "': expected name=value";
    std::string k = kv.substr(0, eq);
    char* end = nullptr;
    unsigned long v = std::strtoul(kv.c_str() + eq + 1, &end, 0);
    if (*end || v > max)
        return "knob '" + kv + "': value must be 0.." + std::to_string(max);
    std::string all;
    for (const KnobField<K>& f : fields) {
        if (k == f.name) {
            knobs.*f.field = static_cast<unsigned>(v);
            return "";
        }
        all += (all.empty() ? "" : " ") + std::string(f.name);
    }
    return "knob '" + k + "': unknown (" + all + ")";
}

// "knobs: a=1 b=2 ..." in table order.
template <class K>
std::string knob_describe(const K& knobs, const std::vector<KnobField<K>>& fields)
{
    std::string s = "knobs:";
    for (const KnobField<K>& f : fields)
        s += " " + std::string(f.name) + "=" + std::to_string(knobs.*f.field);
    return s;
}

#endif
