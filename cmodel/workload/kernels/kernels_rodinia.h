/* Rodinia 3.1 kernels as address-stream emulators (gpu-app-collection
 * src/cuda/rodinia/3.1/cuda/... and src/cuda/custom-apps/rodinia-kmn-no-tex).
 * Each has a catalogue builder (named size) and a builder with explicit
 * dimensions for tests. Parameter structs are public so tests can recompute
 * every stream from the same inputs; for the data-dependent kernels (bfs,
 * btree, streamcluster) they also expose the generated data.
 * docs/workloads/rodinia.md describes sources, sizes and checks. */
#ifndef GM_WORKLOAD_KERNELS_RODINIA_H
#define GM_WORKLOAD_KERNELS_RODINIA_H

#include <stdint.h>

#include "workload/workload.h"

/* ---------------------------------------------------------------- hotspot */

/* calculate_temp, BLOCK_SIZE 16. One parameter block per launch. */
typedef struct gm_hotspot_params {
    uint32_t rows, cols;       /* grid_rows = grid_cols */
    uint32_t pyramid;          /* pyramid_height: border and grid shape */
    uint32_t iteration;        /* this launch's iteration argument */
    uint64_t temp0, temp1, power;   /* MatrixTemp[0], [1], MatrixPower: cudaMalloc order */
    uint64_t src, dst;         /* temp_src, temp_dst of this launch */
} gm_hotspot_params;

int gm_hotspot_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err);
int gm_hotspot_build_dims(gm_workload *w, uint32_t n, uint32_t pyramid,
                          uint32_t total_iterations, gm_error *err);

/* ---------------------------------------------------------------- srad_v2 */

/* srad_cuda_1 / srad_cuda_2, BLOCK_SIZE 16; all launches share one block. */
typedef struct gm_srad_params {
    uint32_t rows, cols;       /* multiples of 16 */
    uint32_t niter;            /* iterations: 2 launches each */
    uint64_t j, c, e_c, w_c, s_c, n_c;   /* cudaMalloc order */
} gm_srad_params;

int gm_srad_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err);
int gm_srad_build_dims(gm_workload *w, uint32_t rows, uint32_t cols, uint32_t niter,
                       gm_error *err);

/* ---------------------------------------------------------------- lud */

enum { GM_LUD_DIAGONAL = 0, GM_LUD_PERIMETER, GM_LUD_INTERNAL };

typedef struct gm_lud_params {
    uint32_t kind;             /* GM_LUD_* */
    uint32_t dim;              /* matrix_dim, a multiple of 16 */
    uint32_t offset;           /* the host loop's i */
    uint64_t m;
} gm_lud_params;

int gm_lud_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err);
int gm_lud_build_dims(gm_workload *w, uint32_t dim, gm_error *err);

/* ---------------------------------------------------------------- backprop */

typedef struct gm_backprop_params {
    uint32_t in, hid;          /* layer sizes; hid = 16 */
    uint64_t input_cuda, output_hidden_cuda, input_hidden_cuda, hidden_partial_sum,
        hidden_delta_cuda, input_prev_weights_cuda;   /* cudaMalloc order */
} gm_backprop_params;

int gm_backprop_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err);
int gm_backprop_build_dims(gm_workload *w, uint32_t in, gm_error *err);

/* ---------------------------------------------------------------- streamcluster */

#define GM_SC_THREADS 512u     /* THREADS_PER_BLOCK */
#define GM_SC_POINT_BYTES 32u  /* sizeof(Point) on x86-64 */
#define GM_SC_WEIGHT_OFF 0u    /* float weight */
#define GM_SC_ASSIGN_OFF 16u   /* long assign (8 B) */
#define GM_SC_COST_OFF 24u     /* float cost */

typedef struct gm_sc_call {
    uint32_t x;                /* candidate point (pgain's x) */
    uint32_t k;                /* *numcenters; stride = k + 1 */
    uint32_t centers;          /* index of this call's k centre ids in center_ids */
} gm_sc_call;

/* One block for the whole run; every launch points at it and reads its own
 * call from calls[launch]. */
typedef struct gm_sc_params {
    uint32_t num, dim, ncalls;
    uint32_t max_stride;       /* work_mem is sized for the largest stride */
    uint64_t seed;
    uint64_t work_mem, center_table, switch_membership, p, coord;   /* cudaMalloc order */
    const gm_sc_call *calls;   /* [ncalls], inside the same allocation */
    const uint32_t *center_ids;
} gm_sc_params;

/* The per-launch parameter block (gm_kernel.params of launch c). */
typedef struct gm_sc_launch {
    const gm_sc_params *sc;
    uint32_t call;
} gm_sc_launch;

/* The data the kernel's branches depend on, for point tid in call c:
 * p[tid].assign (a centre's point id) and whether x_cost < p[tid].cost. */
uint32_t gm_sc_assign(const gm_sc_params *p, uint32_t call, uint32_t tid);
int gm_sc_switches(const gm_sc_params *p, uint32_t call, uint32_t tid);

int gm_streamcluster_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err);
int gm_streamcluster_build_dims(gm_workload *w, uint32_t num, uint32_t dim,
                                uint32_t ncalls, uint64_t seed, gm_error *err);

/* ---------------------------------------------------------------- kmeans */

typedef struct gm_kmeans_params {
    uint32_t npoints, nfeatures, nclusters;
    uint32_t iterations;       /* kmeansPoint launches */
    uint32_t blocks_perdim;    /* grid is blocks_perdim x blocks_perdim */
    uint64_t feature_flipped, feature, membership, clusters;   /* cudaMalloc order */
} gm_kmeans_params;

int gm_kmeans_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err);
int gm_kmeans_build_dims(gm_workload *w, uint32_t npoints, uint32_t nfeatures,
                         uint32_t nclusters, uint32_t iterations, gm_error *err);

/* ---------------------------------------------------------------- bfs */

#define GM_BFS_THREADS 512u    /* MAX_THREADS_PER_BLOCK */
#define GM_BFS_UNREACHED 0xffffu

typedef struct gm_bfs_graph {
    uint32_t n;                /* no_of_nodes */
    uint32_t nedges;           /* edge_list_size */
    uint32_t levels;           /* BFS depth + 1 = host loop trips */
    uint64_t nodes, edges, mask, updating, visited, cost, over;   /* cudaMalloc order */
    const uint32_t *start;     /* [n + 1]: Node.starting; no_of_edges = start[i+1]-start[i] */
    const uint32_t *adj;       /* [nedges]: the edge list (destination ids) */
    const uint16_t *level;     /* [n]: BFS level from node 0, GM_BFS_UNREACHED if none */
} gm_bfs_graph;

typedef struct gm_bfs_launch {
    const gm_bfs_graph *g;
    uint32_t level;            /* the host loop trip this launch belongs to */
} gm_bfs_launch;

int gm_bfs_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err);
int gm_bfs_build_dims(gm_workload *w, uint32_t nodes, uint64_t seed, gm_error *err);

/* ---------------------------------------------------------------- b+tree */

#define GM_BTREE_ORDER 256u          /* DEFAULT_ORDER */
#define GM_BTREE_SLOTS 257u          /* DEFAULT_ORDER + 1 */
#define GM_BTREE_KNODE_BYTES 2068u   /* sizeof(knode) */
#define GM_BTREE_INDICES_OFF 4u      /* knode.indices */
#define GM_BTREE_KEYS_OFF 1032u      /* knode.keys */

/* The tree after transform_to_cuda: knodes in BFS order, root first. */
typedef struct gm_btree_tree {
    uint32_t size;             /* records (keys 0..size-1) */
    uint32_t nodes;            /* knodes_elem */
    uint32_t height;           /* maxheight: edges from root to a leaf */
    const int32_t *keys;       /* [nodes * 257] knode.keys */
    const int32_t *indices;    /* [nodes * 257] knode.indices */
    const uint8_t *is_leaf;    /* [nodes] */
    const uint16_t *num_keys;  /* [nodes] knode.num_keys (node keys + 2) */
} gm_btree_tree;

/* One command of the command file. */
typedef struct gm_btree_launch {
    const gm_btree_tree *t;
    uint32_t range;            /* 1: findRangeK ('j'), 0: findK ('k') */
    uint32_t count;            /* queries = CTAs */
    uint32_t rsize;            /* 'j' range size */
    const int32_t *start;      /* [count] findRangeK startD / findK keysD */
    const int32_t *end;        /* [count] findRangeK endD */
    /* device arrays in the wrapper's cudaMalloc order; unused ones are 0 */
    uint64_t records, knodes, curr_knode, offset, last_knode, offset_2, keys_d,
        start_d, end_d, ans, recstart, reclen;
} gm_btree_launch;

int gm_btree_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err);
/* size records; 'j range_count range_size' then 'k find_count'. */
int gm_btree_build_dims(gm_workload *w, uint32_t size, uint32_t range_count,
                        uint32_t range_size, uint32_t find_count, uint64_t seed,
                        gm_error *err);

/* ---------------------------------------------------------------- nw */

/* needle_cuda_shared_1 / _2, BLOCK_SIZE 16: one launch per anti-diagonal
 * of 16x16 tiles. */
typedef struct gm_nw_params {
    uint32_t dim;              /* sequence length, a multiple of 16 */
    uint32_t cols;             /* max_cols = dim + 1 */
    uint32_t block_width;      /* dim / 16 */
    uint32_t i;                /* the host loop's i: CTAs of this launch */
    uint32_t second;           /* 0: needle_cuda_shared_1, 1: _2 */
    uint64_t referrence, matrix;   /* cudaMalloc order */
} gm_nw_params;

int gm_nw_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err);
int gm_nw_build_dims(gm_workload *w, uint32_t dim, gm_error *err);

/* ---------------------------------------------------------------- lavaMD */

#define GM_LAVAMD_PAR 100u           /* NUMBER_PAR_PER_BOX */
#define GM_LAVAMD_BOX_BYTES 656u     /* sizeof(box_str) */

/* kernel_gpu_cuda, NUMBER_THREADS 128, one CTA per box. */
typedef struct gm_lavamd_params {
    uint32_t boxes1d;          /* -boxes1d: boxes1d^3 boxes */
    uint32_t boxes;
    uint64_t box, rv, qv, fv;  /* d_box_gpu, d_rv_gpu, d_qv_gpu, d_fv_gpu: cudaMalloc order */
} gm_lavamd_params;

/* Neighbour idx of box bx in main.c's order (-1 past the last); *nn, if
 * not NULL, gets the box's neighbour count. */
int64_t gm_lavamd_neighbour(uint32_t boxes1d, uint32_t bx, uint32_t idx, uint32_t *nn);

int gm_lavamd_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err);
int gm_lavamd_build_dims(gm_workload *w, uint32_t boxes1d, gm_error *err);

/* ---------------------------------------------------------------- helpers */

/* Address of every active lane: base + scale * idx[lane]; 0 when inactive.
 * idx is signed because srad_v2 reads before the start of J. */
static inline void gm_rod_addr(gm_inst *in, uint64_t base, const int64_t *idx,
                               int64_t scale)
{
    for (int l = 0; l < GM_WARP_SIZE; l++)
        in->addr[l] = (in->mask >> l & 1) ? base + (uint64_t)(scale * idx[l]) : 0;
}

/* The same address for every active lane (a broadcast). */
static inline void gm_rod_bcast(gm_inst *in, uint64_t addr)
{
    for (int l = 0; l < GM_WARP_SIZE; l++)
        in->addr[l] = (in->mask >> l & 1) ? addr : 0;
}

/* ---------------------------------------------------------------- cfd (euler3d) */

#define GM_CFD_BLOCK 192u       /* BLOCK_SIZE_0..4 */
#define GM_CFD_NNB 4u
#define GM_CFD_NVAR 5u
#define GM_CFD_RK 3u

enum { GM_CFD_INIT = 0, GM_CFD_STEP, GM_CFD_FLUX, GM_CFD_TIME };

/* The mesh: a lattice surrogate of the fvcorr.domn.097K tetrahedral mesh
 * (docs/workloads/rodinia.md): element i at (i % lx, i / lx % lx,
 * i / lx^2); each element's four face neighbours are +x, -x, one of +-y,
 * one of +-z (signs and slot rotation drawn from the seed), -2 (far
 * field) off the lattice or past nel, -1 (wing) across the wing plate. */
typedef struct gm_cfd_params {
    uint32_t nel, nelr, lx, lz, iterations;
    uint64_t seed;
    /* cudaMalloc order */
    uint64_t areas, ese, normals, variables, old_variables, fluxes, step_factors;
    const int32_t *nb;         /* [nelr * 4]: elements_surrounding_elements[i + j*nelr] */
} gm_cfd_params;

typedef struct gm_cfd_launch {
    const gm_cfd_params *cfd;
    uint32_t kind;             /* GM_CFD_* */
    uint32_t rk;               /* time_step's j */
    uint64_t target;           /* initialize_variables' array */
} gm_cfd_launch;

int gm_cfd_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err);
int gm_cfd_build_dims(gm_workload *w, uint32_t nel, uint32_t lx, uint32_t iterations,
                      uint64_t seed, gm_error *err);

/* ---------------------------------------------------------------- hotspot3D */

typedef struct gm_hotspot3d_params {
    uint32_t nx, ny, nz, iterations;   /* nx = ny: the rows/cols argument */
    uint64_t p, t_in, t_out;           /* cudaMalloc order: p_d, tIn_d, tOut_d */
} gm_hotspot3d_params;

typedef struct gm_hotspot3d_launch {
    const gm_hotspot3d_params *hs;
    uint64_t in, out;                  /* this launch's tIn, tOut */
} gm_hotspot3d_launch;

int gm_hotspot3d_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err);
int gm_hotspot3d_build_dims(gm_workload *w, uint32_t n, uint32_t layers, uint32_t iterations,
                            gm_error *err);

/* ---------------------------------------------------------------- nn */

typedef struct gm_nn_params {
    uint32_t records;                  /* numRecords */
    uint64_t locations, distances;     /* cudaMalloc order */
} gm_nn_params;

int gm_nn_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err);
int gm_nn_build_dims(gm_workload *w, uint32_t records, gm_error *err);

/* ---------------------------------------------------------------- particlefilter */

#define GM_PF_ONES 69u   /* countOnes of the radius-5 disk */

/* The float version's four kernels per frame, 512-thread CTAs. data[]
 * holds, per frame k = 1..nfr-1 and particle, the position after
 * likelihood_kernel's move (x then y, 1/256 pixel) and find_index's
 * result: posx[(k-1)*np + i], then posy, then idx, each (nfr-1)*np. */
typedef struct gm_pf_params {
    uint32_t isz_x, isz_y, nfr, np;   /* -x -y -z -np */
    uint32_t blocks, ones;            /* num_blocks, countOnes */
    int8_t objxy[2 * GM_PF_ONES];     /* getneighbors: (y, x) offsets */
    /* cudaMalloc order */
    uint64_t array_x, array_y, xj, yj, cdf, u, likelihood, weights, image, objxy_d, ind,
        seed, partial_sums;
    int32_t data[];
} gm_pf_params;

typedef struct gm_pf_launch {
    const gm_pf_params *pf;
    uint32_t k;                       /* frame */
} gm_pf_launch;

int gm_particlefilter_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err);
int gm_particlefilter_build_dims(gm_workload *w, uint32_t isz_x, uint32_t isz_y, uint32_t nfr,
                                 uint32_t np, uint64_t seed, gm_error *err);

/* ---------------------------------------------------------------- leukocyte */

#define GM_LEUKO_NPOINTS 150u        /* NPOINTS: sample points per circle */
#define GM_LEUKO_NCIRCLES 7u         /* NCIRCLES: radii 8, 10, .. 20 */
#define GM_LEUKO_MAXR 22u            /* MaxR = MAX_RAD + 2: GICOV's margin */
#define GM_LEUKO_STREL 25u           /* strel_m = strel_n = 12 * 2 + 1 */
#define GM_LEUKO_DILATE_TPB 176u     /* dilate_CUDA's threads_per_block */
#define GM_LEUKO_MGVF_TPB 320u       /* IMGVF_kernel's threads_per_block */
#define GM_LEUKO_MAX_CELLS 36u       /* cells of the default run */

enum { GM_LEUKO_GICOV = 0, GM_LEUKO_DILATE, GM_LEUKO_IMGVF };

/* One tracked cell's sub-image (track_ellipse.c: rows v1..v2, columns
 * u1..u2 of the frame, at most 41 x 81) and its place in I_all. */
typedef struct gm_leuko_cell {
    uint32_t x, y;             /* centre in the frame (column, row) */
    uint32_t m, n;             /* rows, columns */
    uint32_t offset;           /* first element in device_I_all / device_IMGVF_all */
} gm_leuko_cell;

/* Detection (GICOV, dilate) on a grad_m x grad_n crop, tracking (one
 * IMGVF launch per frame) of ncells cells in a width x height frame. */
typedef struct gm_leuko_params {
    uint32_t grad_m, grad_n;   /* rows, columns of the detection crop */
    uint32_t width, height;    /* the tracking frame */
    uint32_t ncells, frames;
    uint32_t iterations;       /* IMGVF iterations until convergence (data model) */
    uint32_t total;            /* elements of I_all */
    gm_leuko_cell cell[GM_LEUKO_MAX_CELLS];
    /* the module's constant bank, then the cudaMalloc order */
    uint64_t c_sin, c_cos, c_tx, c_ty, c_strel;
    uint64_t grad_x, grad_y, gicov, dilated;
    uint64_t i_array, imgvf_array, m_array, n_array, i_all, imgvf_all;
} gm_leuko_params;

typedef struct gm_leuko_launch {
    const gm_leuko_params *lk;
    uint32_t kind;             /* GM_LEUKO_* */
} gm_leuko_launch;

/* c_tX / c_tY[k * NPOINTS + n] as compute_constants() fills them. */
int32_t gm_leuko_tx(uint32_t k, uint32_t n);
int32_t gm_leuko_ty(uint32_t k, uint32_t n);
/* (int)((float)x * (1.f / (float)n)): IMGVF_kernel's row index, in
 * integer arithmetic with the float roundings of the CUDA code. */
uint32_t gm_leuko_float_row(uint32_t x, uint32_t n);

int gm_leukocyte_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err);
int gm_leukocyte_build_dims(gm_workload *w, uint32_t grad_m, uint32_t grad_n, uint32_t width,
                            uint32_t height, uint32_t ncells, uint32_t frames,
                            uint32_t iterations, gm_error *err);


/* ---------------------------------------------------------------- heartwall */

#define GM_HW_THREADS 256u           /* NUMBER_THREADS */
#define GM_HW_ENDO 20u               /* ENDO_POINTS */
#define GM_HW_ALL 51u                /* ALL_POINTS */
#define GM_HW_MAX_FRAMES 104u        /* the video's frames */

/* One launch per frame, one CTA per sample point (endo points first).
 * row/col[f][p]: the point's position (d_Row, d_Col) during frame f;
 * loc_row/col[f][p]: what frame f stores in d_tRowLoc / d_tColLoc (the
 * tracked position, a data model: docs/workloads/rodinia.md). */
typedef struct gm_hw_params {
    uint32_t tsize, ssize, maxmove;      /* tSize, sSize, maxMove */
    uint32_t endo, epi, frames;          /* points of each kind; frames processed */
    uint32_t frame_rows, frame_cols, no_frames;
    int16_t row[GM_HW_MAX_FRAMES][GM_HW_ALL], col[GM_HW_MAX_FRAMES][GM_HW_ALL];
    int16_t loc_row[GM_HW_MAX_FRAMES][GM_HW_ALL], loc_col[GM_HW_MAX_FRAMES][GM_HW_ALL];
    /* the constant bank, then the cudaMalloc order; per-point arrays are
     * `points` allocations of the same size, `stride` apart */
    uint64_t cbank, frame, endo_row, endo_col, t_endo_row, t_endo_col, epi_row, epi_col,
        t_epi_row, t_epi_col, endo_t, epi_t;
    uint64_t per_point[12], stride[12];  /* GM_HW_IN2 .. GM_HW_MASK_CONV */
} gm_hw_params;

enum {   /* per-point arrays, in allocation order */
    GM_HW_IN2, GM_HW_CONV, GM_HW_PAD_CUMV, GM_HW_PAD_CUMV_SEL, GM_HW_SUB_CUMH,
    GM_HW_SUB_CUMH_SEL, GM_HW_SUB2, GM_HW_IN2_SQR, GM_HW_IN2_SQR_SUB2, GM_HW_IN_SQR,
    GM_HW_TMASK, GM_HW_MASK_CONV
};

typedef struct gm_hw_launch {
    const gm_hw_params *hw;
    uint32_t frame;
} gm_hw_launch;

int gm_heartwall_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err);
int gm_heartwall_build_dims(gm_workload *w, uint32_t tsize, uint32_t ssize, uint32_t maxmove,
                            uint32_t endo, uint32_t epi, uint32_t frames, uint64_t seed,
                            gm_error *err);

#endif
