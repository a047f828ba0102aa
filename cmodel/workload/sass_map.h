/* SASS opcode strings (as Accel-Sim traces write them, with modifiers:
 * "LDG.E.128.CONSTANT.SYS") to the core's instruction classes, and back
 * for trace export. The mapping looks only at the mnemonic, the text
 * before the first '.', plus the one modifier that changes the class
 * (BAR.ARV does not wait). The table is in docs/traces.md. */
#ifndef GM_WORKLOAD_SASS_MAP_H
#define GM_WORKLOAD_SASS_MAP_H

#include <stddef.h>
#include <stdint.h>

#include "workload/workload.h"

/* How an opcode's class is decided. */
typedef enum gm_sass_kind {
    GM_SASS_FIXED = 0,     /* the class is `op` */
    GM_SASS_GENERIC_LD,    /* LD: shared, local or global by its address */
    GM_SASS_GENERIC_ST,    /* ST: the same for stores */
    GM_SASS_GENERIC_ATOM,  /* ATOM: shared atomic or global atomic */
    GM_SASS_LDGSTS         /* LDGSTS: traced once per operand; the shared
                              one is a shared store, the other a global load */
} gm_sass_kind;

typedef struct gm_sass_class {
    gm_sass_kind kind;
    gm_op op;              /* for GM_SASS_FIXED */
} gm_sass_class;

/* Classifies opcode[0..len). Never fails: an unknown mnemonic is ALU. */
gm_sass_class gm_sass_classify(const char *opcode, size_t len);

/* Address windows of a kernel (trace header "-shmem base_addr" and
 * "-local mem base_addr"); each window is 16 MiB from its base, and a base
 * of 0 means the trace did not give it (the window is then empty). */
typedef struct gm_sass_windows {
    uint64_t shmem_base;
    uint64_t local_base;
} gm_sass_windows;

#define GM_SASS_WINDOW_BYTES (16ull << 20)

/* The class of a generic access whose first active lane is at addr. */
gm_op gm_sass_resolve(gm_sass_kind kind, const gm_sass_windows *win, uint64_t addr);

/* Writes the opcode string the exporter uses for op at `width` bytes per
 * lane (a mnemonic that classifies back to op, with the size modifier
 * from which Accel-Sim derives the same width where one exists: U8, U16,
 * none for 4, 64, 128, 256). Returns 0, or -1 if op is not a gm_op or buf
 * is too small. */
int gm_sass_export_opcode(gm_op op, unsigned width, char *buf, size_t cap);

/* Accel-Sim's width rule for an opcode string: the first modifier that is
 * a number N gives N/8 bytes, "U<N>" gives N/8, otherwise 4. gmsim reads
 * widths from the trace's mem_width field; this is for checks. */
unsigned gm_sass_opcode_width(const char *opcode, size_t len);

#endif
