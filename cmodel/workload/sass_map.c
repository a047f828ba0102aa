#include "workload/sass_map.h"

#include <stdio.h>
#include <string.h>

typedef struct mnemonic {
    const char *name;
    gm_sass_kind kind;
    gm_op op;
} mnemonic;

/* Mnemonics of every SASS generation Accel-Sim traces come from (Kepler to
 * Hopper); anything not listed is integer/single-precision ALU work. Old
 * names (SSY, PBK, BRK, ...) are the pre-Volta forms of the same branch
 * and reconvergence instructions. */
static const mnemonic table[] = {
    /* global memory through L1 */
    {"LDG", GM_SASS_FIXED, GM_OP_GLOBAL_LD},
    {"STG", GM_SASS_FIXED, GM_OP_GLOBAL_ST},
    {"ATOMG", GM_SASS_FIXED, GM_OP_ATOMIC},
    {"RED", GM_SASS_FIXED, GM_OP_ATOMIC},
    {"REDG", GM_SASS_FIXED, GM_OP_ATOMIC},
    {"LD", GM_SASS_GENERIC_LD, GM_OP_GLOBAL_LD},
    {"ST", GM_SASS_GENERIC_ST, GM_OP_GLOBAL_ST},
    {"ATOM", GM_SASS_GENERIC_ATOM, GM_OP_ATOMIC},
    {"LDGSTS", GM_SASS_LDGSTS, GM_OP_GLOBAL_LD},
    /* shared memory (scratchpad) */
    {"LDS", GM_SASS_FIXED, GM_OP_SHARED_LD},
    {"LDSM", GM_SASS_FIXED, GM_OP_SHARED_LD},
    {"STS", GM_SASS_FIXED, GM_OP_SHARED_ST},
    {"ATOMS", GM_SASS_FIXED, GM_OP_SHARED_ST},
    /* local memory */
    {"LDL", GM_SASS_FIXED, GM_OP_LOCAL_LD},
    {"STL", GM_SASS_FIXED, GM_OP_LOCAL_ST},
    /* texture and constant: traffic that does not use the L1 data cache */
    {"TEX", GM_SASS_FIXED, GM_OP_TEX_LD},
    {"TEXS", GM_SASS_FIXED, GM_OP_TEX_LD},
    {"TLD", GM_SASS_FIXED, GM_OP_TEX_LD},
    {"TLDS", GM_SASS_FIXED, GM_OP_TEX_LD},
    {"TLD4", GM_SASS_FIXED, GM_OP_TEX_LD},
    {"TLD4S", GM_SASS_FIXED, GM_OP_TEX_LD},
    {"TMML", GM_SASS_FIXED, GM_OP_TEX_LD},
    {"TXD", GM_SASS_FIXED, GM_OP_TEX_LD},
    {"TXQ", GM_SASS_FIXED, GM_OP_TEX_LD},
    {"SULD", GM_SASS_FIXED, GM_OP_TEX_LD},
    {"LDC", GM_SASS_FIXED, GM_OP_CONST_LD},
    {"ULDC", GM_SASS_FIXED, GM_OP_CONST_LD},
    /* synchronisation and the end of the warp */
    {"BAR", GM_SASS_FIXED, GM_OP_BARRIER},
    {"EXIT", GM_SASS_FIXED, GM_OP_EXIT},
    /* latency classes */
    {"MUFU", GM_SASS_FIXED, GM_OP_SFU},
    {"RRO", GM_SASS_FIXED, GM_OP_SFU},
    {"DADD", GM_SASS_FIXED, GM_OP_DP},
    {"DMUL", GM_SASS_FIXED, GM_OP_DP},
    {"DFMA", GM_SASS_FIXED, GM_OP_DP},
    {"DSETP", GM_SASS_FIXED, GM_OP_DP},
    {"DMNMX", GM_SASS_FIXED, GM_OP_DP},
    {"DSET", GM_SASS_FIXED, GM_OP_DP},
    {"BRA", GM_SASS_FIXED, GM_OP_BRANCH},
    {"BRX", GM_SASS_FIXED, GM_OP_BRANCH},
    {"JMP", GM_SASS_FIXED, GM_OP_BRANCH},
    {"JMX", GM_SASS_FIXED, GM_OP_BRANCH},
    {"CALL", GM_SASS_FIXED, GM_OP_BRANCH},
    {"JCAL", GM_SASS_FIXED, GM_OP_BRANCH},
    {"RET", GM_SASS_FIXED, GM_OP_BRANCH},
    {"SSY", GM_SASS_FIXED, GM_OP_BRANCH},
    {"SYNC", GM_SASS_FIXED, GM_OP_BRANCH},
    {"BSSY", GM_SASS_FIXED, GM_OP_BRANCH},
    {"BSYNC", GM_SASS_FIXED, GM_OP_BRANCH},
    {"BRK", GM_SASS_FIXED, GM_OP_BRANCH},
    {"PBK", GM_SASS_FIXED, GM_OP_BRANCH},
    {"CONT", GM_SASS_FIXED, GM_OP_BRANCH},
    {"PCNT", GM_SASS_FIXED, GM_OP_BRANCH},
    {"PRET", GM_SASS_FIXED, GM_OP_BRANCH},
};

/* Does the '.'-separated modifier list after the mnemonic contain mod? */
static int has_modifier(const char *s, size_t len, const char *mod)
{
    size_t n = strlen(mod), i = 0;
    while (i < len) {
        size_t j = i;
        while (j < len && s[j] != '.')
            j++;
        if (i > 0 && j - i == n && memcmp(s + i, mod, n) == 0)
            return 1;
        i = j + 1;
    }
    return 0;
}

gm_sass_class gm_sass_classify(const char *opcode, size_t len)
{
    gm_sass_class c = {GM_SASS_FIXED, GM_OP_ALU};
    size_t m = 0;
    while (m < len && opcode[m] != '.')
        m++;
    for (size_t i = 0; i < sizeof table / sizeof *table; i++) {
        if (strlen(table[i].name) == m && memcmp(table[i].name, opcode, m) == 0) {
            c.kind = table[i].kind;
            c.op = table[i].op;
            break;
        }
    }
    /* BAR.ARV only signals arrival at a named barrier and goes on; the
     * model's barrier would make it wait for the whole CTA. */
    if (c.op == GM_OP_BARRIER && has_modifier(opcode, len, "ARV"))
        c.op = GM_OP_ALU;
    return c;
}

static int in_window(uint64_t base, uint64_t addr)
{
    return base != 0 && addr >= base && addr - base < GM_SASS_WINDOW_BYTES;
}

gm_op gm_sass_resolve(gm_sass_kind kind, const gm_sass_windows *win, uint64_t addr)
{
    int shared = in_window(win->shmem_base, addr);
    int local = !shared && in_window(win->local_base, addr);
    switch (kind) {
    case GM_SASS_GENERIC_LD:
        return shared ? GM_OP_SHARED_LD : local ? GM_OP_LOCAL_LD : GM_OP_GLOBAL_LD;
    case GM_SASS_GENERIC_ST:
        return shared ? GM_OP_SHARED_ST : local ? GM_OP_LOCAL_ST : GM_OP_GLOBAL_ST;
    case GM_SASS_GENERIC_ATOM:
        return shared ? GM_OP_SHARED_ST : GM_OP_ATOMIC;
    case GM_SASS_LDGSTS:
        return shared ? GM_OP_SHARED_ST : GM_OP_GLOBAL_LD;
    default:
        return GM_OP_ALU;
    }
}

/* Export mnemonics: real SASS spellings that classify back to the op. */
static const char *const export_names[GM_OP_COUNT] = {
    [GM_OP_ALU] = "FFMA",
    [GM_OP_SFU] = "MUFU.EX2",
    [GM_OP_DP] = "DFMA",
    [GM_OP_BRANCH] = "BRA",
    [GM_OP_SHARED_LD] = "LDS",
    [GM_OP_SHARED_ST] = "STS",
    [GM_OP_BARRIER] = "BAR.SYNC",
    [GM_OP_GLOBAL_LD] = "LDG.E",
    [GM_OP_GLOBAL_ST] = "STG.E",
    [GM_OP_ATOMIC] = "ATOMG.E.ADD",
    [GM_OP_LOCAL_LD] = "LDL",
    [GM_OP_LOCAL_ST] = "STL",
    [GM_OP_TEX_LD] = "TEX",
    [GM_OP_CONST_LD] = "LDC",
    [GM_OP_EXIT] = "EXIT",
};

static const char *width_modifier(unsigned width)
{
    switch (width) {
    case 1: return ".U8";
    case 2: return ".U16";
    case 8: return ".64";
    case 16: return ".128";
    case 32: return ".256";
    default: return "";
    }
}

int gm_sass_export_opcode(gm_op op, unsigned width, char *buf, size_t cap)
{
    if ((unsigned)op >= GM_OP_COUNT)
        return -1;
    int mem = op == GM_OP_SHARED_LD || op == GM_OP_SHARED_ST ||
              (op >= GM_OP_GLOBAL_LD && op <= GM_OP_CONST_LD);
    int n = snprintf(buf, cap, "%s%s", export_names[op], mem ? width_modifier(width) : "");
    return n < 0 || (size_t)n >= cap ? -1 : 0;
}

static int all_digits(const char *s, size_t n)
{
    if (n == 0)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (s[i] < '0' || s[i] > '9')
            return 0;
    return 1;
}

static unsigned digits_value(const char *s, size_t n)
{
    unsigned v = 0;
    for (size_t i = 0; i < n && v < 100000; i++)
        v = v * 10 + (unsigned)(s[i] - '0');
    return v;
}

unsigned gm_sass_opcode_width(const char *opcode, size_t len)
{
    size_t i = 0;
    while (i < len) {
        size_t j = i;
        while (j < len && opcode[j] != '.')
            j++;
        if (all_digits(opcode + i, j - i))
            return digits_value(opcode + i, j - i) / 8;
        if (j - i > 1 && opcode[i] == 'U' && all_digits(opcode + i + 1, j - i - 1))
            return digits_value(opcode + i + 1, j - i - 1) / 8;
        i = j + 1;
    }
    return 4;
}
