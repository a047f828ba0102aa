/* Catalogue entries of the polybench kernels (see catalogue.c).
 *
 * Replication class by the DC-L1 seed's criteria (replication ratio > 25%,
 * L1 miss rate > 50%, > 5% speedup with a 16x L1). The seed names P-2MM,
 * P-3DCONV and P-SYRK among the replication-sensitive applications (2MM
 * gains little under Sh40 because of partition camping, 3DCONV is limited
 * by the lower peak L1 bandwidth, SYRK gains 2.4x under Sh40) and P-3MM,
 * P-2DCONV (and P-GEMM) among the insensitive "poor-performing" ones.
 * BICG and MVT are not named; like ATAX their shared data is one small
 * vector read as a broadcast while the misses are dominated by the private
 * rows of A and the accumulator, so they are insensitive by the same
 * criteria. */
#include "workload/kernels/kernels.h"
#include "workload/kernels/kernels_polybench_tango.h"

const gm_workload_info gm_catalogue_polybench[] = {
    {"2mm", "PolyBench-GPU 1.0",
     "two chained GEMM-shaped launches (C += A*B, E += C*D): B/D rows read by "
     "every CTA, A/C rows by each CTA row; kernel 2 re-reads the C kernel 1 "
     "wrote; accumulator RMW every k",
     "sensitive", gm_2mm_build},
    {"3mm", "PolyBench-GPU 1.0",
     "three GEMM-shaped launches (E = A*B, F = C*D, G = E*F) with cross-CTA "
     "sharing of operand rows and inter-kernel reuse of E and F",
     "insensitive", gm_3mm_build},
    {"syrk", "PolyBench-GPU 1.0",
     "A*A^T: broadcast a[i][k] plus an uncoalesced a[j][k] walk (32 lines per "
     "warp load) shared by every CTA with the same blockIdx.x; c RMW every k",
     "sensitive", gm_syrk_build},
    {"2dconv", "PolyBench-GPU 1.0",
     "3x3 stencil: nine loads per thread, misaligned by 4 B for dj = +-1 "
     "(2 lines, 5 sectors); halo rows shared with the CTAs 1 grid row apart; "
     "high L1 bandwidth demand",
     "insensitive", gm_2dconv_build},
    {"3dconv", "PolyBench-GPU 1.0",
     "one launch per plane (NI-2 launches), 11 distinct loads from planes "
     "i-1, i, i+1: planes re-read by the next launches (inter-kernel reuse), "
     "high L1 bandwidth demand",
     "sensitive", gm_3dconv_build},
    {"bicg", "PolyBench-GPU 1.0",
     "coalesced A column walk (kernel 1) and uncoalesced A row walk (kernel "
     "2, 32 lines per warp load); one hot broadcast vector line per trip "
     "read by every CTA; few CTAs",
     "insensitive", gm_bicg_build},
    {"mvt", "PolyBench-GPU 1.0",
     "uncoalesced A row walk (kernel 1) then coalesced column walk (kernel "
     "2) over the same A; broadcast vector read by every CTA; few CTAs",
     "insensitive", gm_mvt_build},
    /* The ATA seed's doitgen: high inter-core locality there, hence
     * sensitive. Measured at size small on configs/baseline.ini: replication
     * ratio 0.10, L1 miss rate 0.67, 1.07x IPC with a 16x L1 -- below the
     * DC-L1 replication criterion (docs/workloads/polybench.md). */
    {"doitgen", "PolyBench-GPU 1.0",
     "one (kernel1, kernel2) launch pair per plane r: C4 rows read by every CTA of "
     "every launch, A[r][q][s] broadcast per warp, sum RMW every s; kernel2 copies "
     "sum back into A",
     "sensitive", gm_doitgen_build},
    {NULL, NULL, NULL, NULL, NULL},
};
