/* Workload interface: a workload is a sequence of kernel launches; a kernel
 * is a grid of CTAs, each CTA a set of warps; each warp an instruction
 * stream produced on demand by the kernel's generator, so a whole kernel is
 * never held in memory.
 *
 * An instruction carries what the lite core and the memory system need:
 * opcode class (latency), active mask, register dependencies, and for
 * memory instructions the per-lane byte addresses and access width. */
#ifndef GM_WORKLOAD_WORKLOAD_H
#define GM_WORKLOAD_WORKLOAD_H

#include <stddef.h>
#include <stdint.h>

#include "sim/error.h"

#define GM_WARP_SIZE 32
#define GM_MAX_SRC 3
#define GM_REG_NONE 0xff  /* no register */
#define GM_NUM_REGS 255   /* architectural registers 0..254 per warp */
#define GM_GEN_MIN_CHUNK 1 /* least room a generator is called with */

typedef enum gm_op {
    GM_OP_ALU = 0,     /* integer / single-precision arithmetic */
    GM_OP_SFU,         /* special function unit */
    GM_OP_DP,          /* double precision */
    GM_OP_BRANCH,      /* control flow */
    GM_OP_SHARED_LD,   /* shared memory (scratchpad, never leaves the core) */
    GM_OP_SHARED_ST,
    GM_OP_BARRIER,     /* __syncthreads: waits for every warp of the CTA */
    GM_OP_GLOBAL_LD,   /* global load through L1 */
    GM_OP_GLOBAL_ST,
    GM_OP_ATOMIC,      /* global atomic / reduction: at L2, bypasses L1 */
    GM_OP_LOCAL_LD,    /* local (spill) memory: through L1 like global */
    GM_OP_LOCAL_ST,
    GM_OP_TEX_LD,      /* texture: non-L1 traffic */
    GM_OP_CONST_LD,    /* constant: non-L1 traffic */
    GM_OP_EXIT,        /* end of the warp */
    GM_OP_COUNT
} gm_op;

#define GM_INST_READ_ONLY 0x1  /* data structure never stored by this kernel */

typedef struct gm_inst {
    uint8_t op;                 /* gm_op */
    uint8_t dst;                /* destination register or GM_REG_NONE */
    uint8_t src[GM_MAX_SRC];    /* source registers or GM_REG_NONE */
    uint8_t width;              /* bytes per lane for memory instructions */
    uint8_t flags;              /* GM_INST_* */
    uint32_t mask;              /* active lanes */
    uint64_t addr[GM_WARP_SIZE];/* per-lane byte addresses (memory ops only) */
} gm_inst;

typedef struct gm_dim3 {
    uint32_t x, y, z;
} gm_dim3;

/* Generator state of one warp. Kernels keep their loop counters in v[]
 * and their position in pc; the core never looks inside. */
typedef struct gm_warp_gen {
    uint32_t cta;       /* linear CTA id (x fastest) */
    uint32_t warp;      /* warp index inside the CTA */
    uint32_t pc;
    int64_t v[8];
} gm_warp_gen;

typedef struct gm_kernel gm_kernel;

struct gm_kernel {
    char name[64];
    gm_dim3 grid;
    gm_dim3 block;
    const void *params;   /* kernel-specific, owned by the workload */
    /* Writes up to `max` (>= GM_GEN_MIN_CHUNK) next instructions of the
     * warp into out and returns how many; 0 means the warp has finished
     * (after its EXIT). The stream must not depend on max. */
    int (*gen)(const gm_kernel *k, gm_warp_gen *g, gm_inst *out, int max);
};

static inline uint32_t gm_kernel_ctas(const gm_kernel *k)
{
    return k->grid.x * k->grid.y * k->grid.z;
}

static inline uint32_t gm_kernel_threads_per_cta(const gm_kernel *k)
{
    return k->block.x * k->block.y * k->block.z;
}

static inline uint32_t gm_kernel_warps_per_cta(const gm_kernel *k)
{
    return (gm_kernel_threads_per_cta(k) + GM_WARP_SIZE - 1) / GM_WARP_SIZE;
}

/* Input sizes of the built-in kernels. tiny, small: reduced inputs for tests
 * and quick studies; standard: the benchmark's own default input; fill: the
 * smallest input at which the launches carrying at least 90% of a kernel's
 * threads have GM_SIZE_FILL_CTAS or more CTAs, so that every core of the
 * largest system the studies use gets work (docs/workloads.md, "Sizes";
 * kernels whose grid the benchmark fixes are listed there as exceptions). */
typedef enum gm_size { GM_SIZE_TINY = 0, GM_SIZE_SMALL, GM_SIZE_STANDARD, GM_SIZE_FILL } gm_size;
#define GM_SIZE_COUNT 4
#define GM_SIZE_FILL_CTAS 120   /* cores of the DC-L1 study's largest point */

typedef struct gm_workload {
    char name[64];
    uint32_t nkernels;
    gm_kernel *kernels;   /* launched in order; each waits for the previous */
    void *priv;           /* parameter blocks and data, freed by gm_workload_free */
    void (*release)(void *priv);   /* frees priv when it holds more than one block */
} gm_workload;

typedef struct gm_workload_info {
    const char *name;
    const char *suite;
    const char *stresses;
    const char *klass;    /* "sensitive" / "insensitive" to replication */
    int (*build)(gm_workload *w, gm_size size, uint64_t seed, gm_error *err);
} gm_workload_info;

/* The catalogue of built-in workloads: entries 0..size-1, in suite order
 * (each suite's table lives beside its kernels, see catalogue.c). */
size_t gm_workload_catalogue_size(void);
const gm_workload_info *gm_workload_catalogue_at(size_t i);
const gm_workload_info *gm_workload_find(const char *name);
int gm_workload_build(gm_workload *w, const char *name, gm_size size, uint64_t seed,
                      gm_error *err);
void gm_workload_free(gm_workload *w);
int gm_size_parse(const char *s, gm_size *out);
const char *gm_size_name(gm_size s);
const char *gm_size_choices(void);

#endif
