/* The key table. Every default marked GM_SRC_TABLE2 is read from the DC-L1
 * seed's Table II; GM_SRC_ASSUMED defaults fill what the table leaves out
 * (GPGPU-Sim-like values, see docs/config.md). Ranges are what the model
 * can represent and, for sizes and counts, no more than a real design could
 * use, several times over (docs/reliability.md, "Resource bounds"), so no
 * single key can make a run allocate gigabytes; cross-key rules (totals
 * included) live in gm_config_validate. */
#include "config/config_keys.h"

#include "designs/design.h"
#include "dram/dram_standard.h"

#include <inttypes.h>
#include <string.h>

#define FIELD GM_CFG_FIELD
#define U32 GM_CFG_U32
#define U64 GM_CFG_U64
#define I64 GM_CFG_I64
#define SIZE GM_CFG_SIZE
#define ENUM GM_CFG_ENUM
#define TIMING(f, key, lo, hi, doc) \
    { "dram", key, GM_KEY_U32, FIELD(dram.t.f, 4), 0, lo, hi, NULL, GM_SRC_HYNIX, \
      "DRAM cycles", doc }

#define K GM_CFG_K
#define M GM_CFG_M
#define T2 GM_SRC_TABLE2
#define AS GM_SRC_ASSUMED
#define RUN GM_SRC_RUN

/* Index order must match the gm_warp_sched, gm_cta_policy and
 * gm_dram_sched and gm_addr_hash enums of config.h. */
static const char *const warp_sched_names[] = { "gto", "lrr", NULL };
static const char *const cta_policy_names[] = { "rr", "block", "distributed", "clustered",
                                                 NULL };
static const char *const dram_sched_names[] = { "frfcfs", "fcfs", NULL };
static const char *const addr_hash_names[] = { "linear", "pae", NULL };

const gm_config_section gm_config_sections[] = {
    { "core", "Lite SIMT cores: warps, warp schedulers, CTA placement and compute "
              "latencies. Latencies are in core clock cycles." },
    { "l1", "Per-core L1 data cache (write-evict, no-write-allocate). Latency in core "
            "clock cycles." },
    { "noc", "Request and reply networks between the cores and the L2 slices (one "
             "crossbar each, iSLIP allocation)." },
    { "l2", "Address-sliced L2 (write-back). Size, MSHRs and queues are per slice; "
            "latency in L2 clock cycles." },
    { "dram", "DRAM: one controller per channel, driven by the table of a DRAM standard "
              "(GDDR5 or HBM, docs/dram.md). Setting `standard` loads that standard's clock, "
              "organisation (banks, bank_groups, atom_bytes, row_bytes) and timing into the "
              "keys below; keys set after it, or anywhere in the same file, keep their value. "
              "Timings are in DRAM command clock cycles." },
    { "sim", "Run control. Cycle counts are core clock cycles." },
    { "design", "Which memory system is built between the cores and the L2 slices. "
                "`baseline` is the private-L1 GPU of the sections above; every other "
                "design has a section of its own below (`gmsim list-designs`)." },
};
const size_t gm_config_nsections = sizeof gm_config_sections / sizeof gm_config_sections[0];

const gm_config_key gm_config_keys[] = {
    U32("core", core.num_cores, "num_cores", 80, 1, 1024, T2, "cores",
        "Cores (CUs) in the GPU."),
    U32("core", core.clusters, "clusters", 80, 1, 1024, AS, "clusters",
        "Core clusters for CTA scheduling; num_cores must be a multiple."),
    U32("core", core.clock_mhz, "clock_mhz", 1400, 1, 100000, T2, "MHz",
        "Core clock."),
    U32("core", core.max_warps, "max_warps", 48, 1, 64, T2, "warps",
        "Warp slots per core (32 threads each)."),
    U32("core", core.max_ctas, "max_ctas", 8, 1, 32, AS, "CTAs",
        "Resident CTAs per core (the model holds at most 32, as NVIDIA's SMs)."),
    U32("core", core.schedulers, "schedulers", 2, 1, 8, AS, "schedulers",
        "Warp schedulers per core; each issues one instruction per cycle."),
    ENUM("core", core.warp_sched, "warp_sched", GM_SCHED_GTO, warp_sched_names, AS,
         "Warp scheduling: greedy-then-oldest or loose round robin."),
    ENUM("core", core.cta_policy, "cta_policy", GM_CTA_RR, cta_policy_names, AS,
         "CTA placement: round robin over clusters then cores; cta_block CTAs per "
         "core; a contiguous CTA range per cluster; or clustered: consecutive CTAs per "
         "core, idle cores borrow half of the next busy core's queue (Choo et al.)."),
    U32("core", core.cta_block, "cta_block", 2, 1, 32, AS, "CTAs",
        "CTAs given to one core at a time under cta_policy = block."),
    U32("core", core.ldst_queue, "ldst_queue", 4, 1, 256, AS, "instructions",
        "Memory instructions waiting for the coalescer."),
    U32("core", core.lat_alu, "lat_alu", 4, 1, 4096, AS, "core cycles",
        "Latency of integer and single-precision instructions."),
    U32("core", core.lat_sfu, "lat_sfu", 20, 1, 4096, AS, "core cycles",
        "Latency of special-function instructions."),
    U32("core", core.lat_dp, "lat_dp", 8, 1, 4096, AS, "core cycles",
        "Latency of double-precision instructions."),
    U32("core", core.lat_branch, "lat_branch", 4, 1, 4096, AS, "core cycles",
        "Latency of branch instructions."),
    U32("core", core.lat_shared, "lat_shared", 24, 1, 4096, AS, "core cycles",
        "Latency of a shared-memory (scratchpad) access."),
    U32("core", core.lat_const, "lat_const", 8, 1, 4096, AS, "core cycles",
        "Latency of a constant-cache hit."),

    SIZE("l1", l1.size_bytes, "size", 16 * K, 128, 4 * M, T2,
         "Capacity of one L1; a multiple of line * assoc; num_cores * size at most 1G."),
    U32("l1", l1.assoc, "assoc", 4, 1, 64, T2, "ways",
        "Associativity."),
    SIZE("l1", l1.line_bytes, "line", 128, 32, 4096, T2,
         "Line size; the model requires 128."),
    U32("l1", l1.latency, "latency", 28, 0, 4096, T2, "core cycles",
        "Hit latency."),
    U32("l1", l1.mshr_entries, "mshr_entries", 32, 1, 4096, AS, "entries",
        "Miss status holding registers (outstanding missed lines)."),
    U32("l1", l1.mshr_merge, "mshr_merge", 8, 1, 1024, AS, "requests",
        "Requests merged into one MSHR entry."),
    U32("l1", l1.miss_queue, "miss_queue", 8, 1, 1024, AS, "requests",
        "Misses waiting to enter the request network."),
    SIZE("l1", l1.port_bytes, "port_bytes", 128, 4, 4096, AS,
         "Data port width per core cycle."),
    U32("l1", l1.sectored, "sectored", 0, 0, 1, AS, "",
        "1: sectored L1 (GPGPU-Sim 4 sector cache): a miss fetches only the missing 32 B "
        "sectors of the line, a fill installs only those; 0: whole-line fetches and fills. "
        "The DC-L1 node cache follows this key."),

    U32("noc", noc.clock_mhz, "clock_mhz", 700, 1, 100000, T2, "MHz",
        "Interconnect clock."),
    SIZE("noc", noc.flit_bytes, "flit_bytes", 32, 4, 4096, T2,
         "Flit size (link width per NoC cycle)."),
    U32("noc", noc.vcs, "vcs", 4, 1, 64, T2, "VCs",
        "Virtual channels per port."),
    U32("noc", noc.vc_depth, "vc_depth", 4, 1, 256, T2, "flits",
        "Buffer depth of one virtual channel."),
    SIZE("noc", noc.header_bytes, "header_bytes", 8, 0, 4096, AS,
         "Control bytes added to every packet."),
    U32("noc", noc.router_stages, "router_stages", 1, 1, 16, AS, "stages",
        "Output register stages after the router's VC and switch allocation (docs/noc.md)."),
    U32("noc", noc.islip_iters, "islip_iters", 1, 1, 16, AS, "iterations",
        "iSLIP iterations per VC and switch allocation."),
    U32("noc", noc.inject_queue, "inject_queue", 8, 1, 1024, AS, "packets",
        "Packets waiting in a network interface to be injected."),
    U32("noc", noc.eject_queue, "eject_queue", 8, 1, 1024, AS, "packets",
        "Reassembled packets waiting at a network output."),

    U32("l2", l2.slices, "slices", 32, 1, 1024, T2, "slices",
        "L2 slices; a multiple of dram channels."),
    U32("l2", l2.clock_mhz, "clock_mhz", 700, 1, 100000, AS, "MHz",
        "L2 clock (Table II gives none; same as the interconnect)."),
    SIZE("l2", l2.cache.size_bytes, "size", 128 * K, 128, 64 * M, T2,
         "Capacity of one slice; a multiple of line * assoc; slices * size at most 1G."),
    U32("l2", l2.cache.assoc, "assoc", 8, 1, 64, T2, "ways",
        "Associativity."),
    SIZE("l2", l2.cache.line_bytes, "line", 128, 32, 4096, T2,
         "Line size; the model requires 128."),
    U32("l2", l2.cache.latency, "latency", 120, 0, 4096, T2, "L2 cycles",
        "Hit latency."),
    U32("l2", l2.cache.mshr_entries, "mshr_entries", 64, 1, 4096, AS, "entries",
        "Miss status holding registers per slice."),
    U32("l2", l2.cache.mshr_merge, "mshr_merge", 8, 1, 1024, AS, "requests",
        "Requests merged into one MSHR entry."),
    U32("l2", l2.cache.miss_queue, "miss_queue", 8, 1, 1024, AS, "requests",
        "Misses waiting to be sent to DRAM."),
    SIZE("l2", l2.cache.port_bytes, "port_bytes", 128, 4, 4096, AS,
         "Data port width per L2 cycle."),
    U32("l2", l2.cache.sectored, "sectored", 0, 0, 1, AS, "",
        "1: sectored L2 (GPGPU-Sim 4): a read miss fetches only the missing 32 B sectors "
        "from DRAM, DRAM reads and write-backs move only the atoms of those sectors; 0: a "
        "miss fetches and DRAM moves whole lines."),
    U32("l2", l2.in_queue, "in_queue", 16, 1, 1024, AS, "requests",
        "Requests from the network waiting for the slice."),
    U32("l2", l2.out_queue, "out_queue", 16, 1, 1024, AS, "replies",
        "Replies waiting for the reply network."),
    U32("l2", l2.dram_queue, "dram_queue", 16, 1, 1024, AS, "requests",
        "Misses and write-backs waiting for the DRAM controller."),

    ENUM("dram", dram.standard, "standard", 0, gm_dram_standard_names, T2,
         "DRAM standard: GDDR5 (Hynix H5GQ1H24AFR, the baseline) or HBM (legacy 128-bit "
         "channels, SelRep seed timing); the defaults of the keys below are its values."),
    U32("dram", dram.channels, "channels", 16, 1, 256, T2, "channels",
        "Memory channels in all, one controller each (HBM: 8 per stack)."),
    U32("dram", dram.clock_mhz, "clock_mhz", 924, 1, 100000, T2, "MHz",
        "DRAM command clock."),
    U32("dram", dram.banks, "banks", 16, 1, 64, T2, "banks",
        "Banks per channel; a multiple of bank_groups."),
    U32("dram", dram.bank_groups, "bank_groups", 4, 1, 16, T2, "groups",
        "Bank groups per channel."),
    SIZE("dram", dram.atom_bytes, "atom_bytes", 64, 1, 4096, AS,
         "Bytes moved by one column command; divides the L2 line."),
    SIZE("dram", dram.row_bytes, "row_bytes", 4 * K, 64, 64 * K, AS,
         "Row (page) size of a channel; a multiple of atom_bytes."),
    U32("dram", dram.queue, "queue", 32, 1, 4096, AS, "requests",
        "Controller request queue entries."),
    ENUM("dram", dram.sched, "sched", GM_DRAM_FRFCFS, dram_sched_names, T2,
         "Controller scheduling: first-ready first-come-first-served, or plain FCFS."),
    SIZE("dram", dram.partition_bytes, "partition_bytes", 256, 32, 16 * M, T2,
         "Chunk of the linear address space given to one channel before moving to the "
         "next; a multiple of the L2 line."),
    ENUM("dram", dram.slice_hash, "slice_hash", GM_ADDR_LINEAR, addr_hash_names, AS,
         "L2 slice (and so channel) of a chunk: linear (chunk mod slices), or pae (XOR "
         "of every log2(slices)-bit digit of the chunk number; power-of-two slices)."),
    ENUM("dram", dram.bank_hash, "bank_hash", GM_ADDR_LINEAR, addr_hash_names, AS,
         "Bank inside a channel: linear, or pae (linear bank XOR every log2(banks)-bit "
         "digit of the row; power-of-two banks). docs/dram.md section 1.1."),
    TIMING(tRCD, "tRCD", 0, 65535,
           "Activate to read, same bank (and to write while tRCDWR = 0)."),
    TIMING(tRP, "tRP", 0, 65535, "Precharge to activate, same bank."),
    TIMING(tRAS, "tRAS", 0, 65535, "Activate to precharge, same bank."),
    TIMING(tRC, "tRC", 0, 65535, "Activate to activate, same bank; at least tRAS + tRP."),
    TIMING(tCL, "tCL", 0, 65535, "Read command to first data (CAS latency)."),
    TIMING(tWL, "tWL", 0, 65535, "Write command to first data (write latency)."),
    TIMING(tCCDS, "tCCDS", 0, 65535, "Column to column, different bank groups."),
    TIMING(tCCDL, "tCCDL", 0, 65535, "Column to column, same bank group."),
    TIMING(tRRDS, "tRRDS", 0, 65535, "Activate to activate, different bank groups."),
    TIMING(tRRDL, "tRRDL", 0, 65535, "Activate to activate, same bank group."),
    TIMING(tFAW, "tFAW", 0, 65535, "Window holding at most four activates."),
    TIMING(tWTRS, "tWTRS", 0, 65535, "End of write data to read, different bank groups."),
    TIMING(tWTRL, "tWTRL", 0, 65535, "End of write data to read, same bank group."),
    TIMING(tRTW, "tRTW", 0, 65535, "Read to write command (bus turnaround)."),
    TIMING(tWR, "tWR", 0, 65535, "End of write data to precharge (write recovery)."),
    TIMING(tRTP, "tRTP", 0, 65535, "Read to precharge."),
    TIMING(tREFI, "tREFI", 0, 1000000, "Refresh interval; 0 disables refresh."),
    TIMING(tRFC, "tRFC", 0, 65535, "Refresh to activate (refresh cycle time)."),
    TIMING(tBURST, "tBURST", 1, 64, "Data-bus cycles of one column command."),
    TIMING(tRCDWR, "tRCDWR", 0, 65535, "Activate to write, same bank; 0 = tRCD."),

    U64("sim", sim.seed, "seed", 1, 0, UINT64_MAX, RUN, "",
        "Seed of every pseudo-random generator of the run."),
    U64("sim", sim.max_cycles, "max_cycles", 0, 0, UINT64_MAX, RUN, "core cycles",
        "Stop after this many cycles; 0 = no limit."),
    U64("sim", sim.watchdog_cycles, "watchdog_cycles", 0, 0, UINT64_MAX, RUN,
        "core cycles", "A request waiting longer than this is reported as a deadlock; 0 = "
        "derived from the configuration: at least 100000, more where the configuration "
        "makes legal waits longer (docs/reliability.md)."),
    U64("sim", sim.sample_cycles, "sample_cycles", 10000, 1, UINT64_MAX, RUN,
        "core cycles", "Interval of the copies-per-line sampling."),
    I64("sim", sim.fault_stall_dram, "fault_stall_dram", -1, -1, 255, RUN, "channel",
        "Fault injection for testing the deadlock watchdog: this DRAM channel never "
        "issues a command; -1 = none."),

    ENUM("design", design.kind, "kind", 0, gm_design_names, AS,
         "Which design is built between the cores and the L2 slices; each has its own "
         "section (`gmsim list-designs`)."),
};
const size_t gm_config_nkeys = sizeof gm_config_keys / sizeof gm_config_keys[0];

/* ---- the generic table, then every design's, as one list ---------------- */

size_t gm_config_key_count(void)
{
    size_t n = gm_config_nkeys;
    for (size_t d = 0; d < gm_design_count(); d++)
        n += gm_design_at(d)->nkeys;
    return n;
}

const gm_config_key *gm_config_key_at(size_t i)
{
    if (i < gm_config_nkeys)
        return &gm_config_keys[i];
    i -= gm_config_nkeys;
    for (size_t d = 0; d < gm_design_count(); d++) {
        const gm_design_ops *o = gm_design_at(d);
        if (i < o->nkeys)
            return &o->keys[i];
        i -= o->nkeys;
    }
    return NULL;
}

size_t gm_config_key_index(const gm_config_key *k)
{
    size_t base = gm_config_nkeys;
    if (k >= gm_config_keys && k < gm_config_keys + gm_config_nkeys)
        return (size_t)(k - gm_config_keys);
    for (size_t d = 0; d < gm_design_count(); d++) {
        const gm_design_ops *o = gm_design_at(d);
        if (o->nkeys && k >= o->keys && k < o->keys + o->nkeys)
            return base + (size_t)(k - o->keys);
        base += o->nkeys;
    }
    return SIZE_MAX;
}

size_t gm_config_section_count(void)
{
    size_t n = gm_config_nsections;
    for (size_t d = 0; d < gm_design_count(); d++)
        n += gm_design_at(d)->section != NULL;
    return n;
}

const gm_config_section *gm_config_section_at(size_t i)
{
    if (i < gm_config_nsections)
        return &gm_config_sections[i];
    i -= gm_config_nsections;
    for (size_t d = 0; d < gm_design_count(); d++) {
        const gm_design_ops *o = gm_design_at(d);
        if (o->section && i-- == 0)
            return o->section;
    }
    return NULL;
}

const gm_config_section *gm_config_section_find(const char *section)
{
    for (size_t i = 0; i < gm_config_section_count(); i++)
        if (strcmp(gm_config_section_at(i)->name, section) == 0)
            return gm_config_section_at(i);
    return NULL;
}

const gm_config_key *gm_config_key_find(const char *section, const char *name)
{
    for (size_t i = 0; i < gm_config_key_count(); i++) {
        const gm_config_key *k = gm_config_key_at(i);
        if (strcmp(k->section, section) == 0 && strcmp(k->name, name) == 0)
            return k;
    }
    return NULL;
}

static int is_wide(const gm_config_key *k)
{
    return k->type == GM_KEY_U64 || k->type == GM_KEY_I64;
}

static int64_t as_signed(uint64_t v)
{
    int64_t s;
    memcpy(&s, &v, sizeof s);
    return s;
}

uint64_t gm_config_key_get(const gm_config *c, const gm_config_key *k)
{
    const unsigned char *p = (const unsigned char *)c + k->offset;
    if (is_wide(k)) {
        uint64_t v;
        memcpy(&v, p, sizeof v);
        return v;
    }
    uint32_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

void gm_config_key_put(gm_config *c, const gm_config_key *k, uint64_t v)
{
    unsigned char *p = (unsigned char *)c + k->offset;
    if (is_wide(k)) {
        memcpy(p, &v, sizeof v);
    } else {
        uint32_t v32 = (uint32_t)v;
        memcpy(p, &v32, sizeof v32);
    }
}

int gm_config_key_cmp(const gm_config_key *k, uint64_t a, uint64_t b)
{
    if (k->type == GM_KEY_I64)
        return (as_signed(a) > as_signed(b)) - (as_signed(a) < as_signed(b));
    return (a > b) - (a < b);
}

int gm_config_key_allows(const gm_config_key *k, uint64_t v)
{
    if (k->type == GM_KEY_ENUM) {
        for (uint64_t i = 0; k->names[i]; i++)
            if (i == v)
                return 1;
        return 0;
    }
    return gm_config_key_cmp(k, v, k->min) >= 0 && gm_config_key_cmp(k, v, k->max) <= 0;
}

char *gm_config_format_value(const gm_config_key *k, uint64_t v, char *buf, size_t len)
{
    if (k->type == GM_KEY_ENUM) {
        size_t n = 0;
        while (k->names[n])
            n++;
        snprintf(buf, len, "%s", v < n ? k->names[v] : "?");
    } else if (k->type == GM_KEY_SIZE && v != 0 && v % M == 0) {
        snprintf(buf, len, "%" PRIu64 "M", v / M);
    } else if (k->type == GM_KEY_SIZE && v != 0 && v % K == 0) {
        snprintf(buf, len, "%" PRIu64 "K", v / K);
    } else if (k->type == GM_KEY_I64) {
        snprintf(buf, len, "%" PRId64, as_signed(v));
    } else {
        snprintf(buf, len, "%" PRIu64, v);
    }
    return buf;
}
