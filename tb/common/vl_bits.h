// Bit-field access to the ports of a Verilated model.
//
// The RTL's ports are flat vectors (rtl/gm_defs.svh): element p of a port
// of W-bit elements is bits [p*W +: W]. Verilator gives a port of n bits
// the type CData (n <= 8), SData (<= 16), IData (<= 32), QData (<= 64) or
// VlWide<words> (32-bit words, bit b in word b / 32). These helpers read and
// write one field of at most 64 bits at any bit offset of any of them.
#ifndef GM_TB_VL_BITS_H
#define GM_TB_VL_BITS_H

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "verilated.h"

namespace gm_tb {

inline uint64_t field_mask(unsigned width)
{
    return width >= 64 ? ~0ull : (1ull << width) - 1;
}

template <typename T>
inline uint64_t get_bits(const T& port, unsigned lsb, unsigned width)
{
    static_assert(std::is_integral<T>::value, "scalar Verilated port");
    return (static_cast<uint64_t>(port) >> lsb) & field_mask(width);
}

template <typename T>
inline void put_bits(T& port, unsigned lsb, unsigned width, uint64_t value)
{
    static_assert(std::is_integral<T>::value, "scalar Verilated port");
    const uint64_t m = field_mask(width) << lsb;
    port = static_cast<T>((static_cast<uint64_t>(port) & ~m) | ((value << lsb) & m));
}

template <std::size_t N>
inline uint64_t get_bits(const VlWide<N>& port, unsigned lsb, unsigned width)
{
    uint64_t v = 0;
    for (unsigned done = 0; done < width;) {
        const unsigned bit = lsb + done;
        const unsigned word = bit / 32, off = bit % 32;
        const unsigned take = std::min(32u - off, width - done);
        const uint64_t chunk = (static_cast<uint64_t>(port[word]) >> off) & field_mask(take);
        v |= chunk << done;
        done += take;
    }
    return v;
}

template <std::size_t N>
inline void put_bits(VlWide<N>& port, unsigned lsb, unsigned width, uint64_t value)
{
    for (unsigned done = 0; done < width;) {
        const unsigned bit = lsb + done;
        const unsigned word = bit / 32, off = bit % 32;
        const unsigned take = std::min(32u - off, width - done);
        const uint32_t m = static_cast<uint32_t>(field_mask(take) << off);
        const uint32_t v = static_cast<uint32_t>(((value >> done) & field_mask(take)) << off);
        port[word] = (port[word] & ~m) | v;
        done += take;
    }
}

}  // namespace gm_tb

#endif
