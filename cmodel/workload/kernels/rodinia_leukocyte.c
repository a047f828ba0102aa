/* Rodinia 3.1 leukocyte (cuda/leukocyte/CUDA/{detect_main.c,find_ellipse.c,
 * find_ellipse_kernel.cu,track_ellipse.c,track_ellipse_kernel.cu}) as an
 * address-stream emulator of its three kernels, in program order: GICOV
 * and dilate on frame 0 (detection), then one IMGVF launch per tracked
 * frame.
 *
 * GICOV_kernel<<<grad_n - 44, grad_m - 44>>>, per thread
 *   i = blockIdx.x + 22, j = threadIdx.x + 22
 *   for k < 7, n < 150:
 *     y = j + c_tY[k*150 + n];  x = i + c_tX[k*150 + n];  addr = x*grad_m + y
 *     p = tex1Dfetch(t_grad_x, addr) * c_cos_angle[n] + tex1Dfetch(t_grad_y, addr) * c_sin_angle[n]
 *   gicov[i*grad_m + j] = max over k of mean^2 / var
 * dilate_kernel<<<round(m*n / 176), 176>>>, per thread
 *   tid = blockIdx.x*176 + threadIdx.x;  i = tid % m;  j = tid / m
 *   for el_i < 25: y = i - 12 + el_i; if (0 <= y < m)
 *     for el_j < 25: x = j - 12 + el_j
 *       if (0 <= x < n && c_strel[el_i*25 + el_j] != 0) max(tex1Dfetch(t_img, x*m + y))
 *   dilated[i*n + j] = max           (no bounds guard: the grid rounds to nearest)
 * IMGVF_kernel<<<cells, 320>>>, per CTA (cell c) and thread tid
 *   IMGVF_global = IMGVF_array[c]; I = I_array[c]; m = m_array[c]; n = n_array[c]
 *   blocks = ceil(m*n / 320)
 *   copy IMGVF_global[e] to shared IMGVF[e] for e = tid + 320 b < m*n
 *   while (!converged && iterations < 500):
 *     for b < blocks: i = (int)((tid + 320 b) * (1.f/n)) (float!), j = (tid + 320 b) % n
 *       if (i < m): 9 shared reads around (i, j), 8 heavisides, I[i*n + j]
 *       buffered write-back of the previous block's value, __syncthreads
 *     block tree reduction of the change over buffer[320]; thread 0 sets converged
 *   copy shared IMGVF back to IMGVF_global
 *
 * Data model (docs/workloads/rodinia.md): the video is data, so sizes and
 * cell positions are parameters: standard is the default run's geometry
 * (640 x 480 frames, rows 110..328 cropped for detection: grad_m 219,
 * grad_n 640; the 36 cells of the reference output, result.txt, rounded;
 * 5 frames, the run script's); the IMGVF iteration count until
 * convergence, data-dependent in the real run (at most 500), is a fixed
 * parameter, reached by every cell. Cells keep their detected positions
 * in every frame, and each frame's tracking arrays reuse the previous
 * frame's device addresses (cudaFree then cudaMalloc of the same sizes).
 *
 * Spaces as the library models them: texture fetches are TEX loads and
 * __constant__ reads CONST loads (both non-L1, read-only), at addresses in
 * one constant bank allocated before the first cudaMalloc, holding the
 * module's arrays in declaration order: c_sin_angle, c_cos_angle, c_tX,
 * c_tY, c_strel. Shared memory of IMGVF_kernel: IMGVF[41*81] at 0,
 * buffer[320] at 13284, cell_converged at 14564. Instruction letters are
 * segprog.h's. */
#include "workload/kernels/kernels_rodinia.h"

#include <stdint.h>

#include "workload/build.h"
#include "workload/kernels/segprog.h"

#define NPTS GM_LEUKO_NPOINTS
#define NCIR GM_LEUKO_NCIRCLES
#define STREL GM_LEUKO_STREL
#define MGVF_TPB GM_LEUKO_MGVF_TPB
#define DIL_TPB GM_LEUKO_DILATE_TPB
#define MAX_ITER 500u      /* MGVF's iterations */
#define SH_BUFFER 13284u   /* 41 * 81 * 4 */
#define SH_CONVERGED 14564u
#define CONST_BYTES 12100u /* 2 x 600 + 2 x 4200 + 2500 */

/* compute_constants(): (int)(cos(theta[n]) * rad) and (int)(sin(..) *
 * rad), rad = 8 + 2k, theta[n] = (float)(n * 2 * 3.14159 / 150) (PI is
 * 3.14159 in misc_math.h); generated once in double precision, the
 * nearest product to an integer 2.6e-11 away from it. */
static const int8_t c_tx[GM_LEUKO_NCIRCLES * GM_LEUKO_NPOINTS] = {
    /* rad 8 */
    8, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 6, 6,
    6, 6, 6, 5, 5, 5, 5, 4, 4, 4, 4, 3, 3, 3, 2,
    2, 2, 1, 1, 1, 0, 0, 0, 0, 0, 0, -1, -1, -1, -2,
    -2, -2, -3, -3, -3, -3, -4, -4, -4, -5, -5, -5, -5, -6, -6,
    -6, -6, -6, -7, -7, -7, -7, -7, -7, -7, -7, -7, -7, -7, -7,
    -7, -7, -7, -7, -7, -7, -7, -7, -7, -7, -7, -7, -7, -6, -6,
    -6, -6, -6, -5, -5, -5, -5, -4, -4, -4, -4, -3, -3, -3, -2,
    -2, -2, -1, -1, -1, 0, 0, 0, 0, 0, 0, 1, 1, 1, 2,
    2, 2, 3, 3, 3, 3, 4, 4, 4, 5, 5, 5, 5, 6, 6,
    6, 6, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7,
    /* rad 10 */
    10, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 8, 8, 8, 8,
    8, 7, 7, 7, 6, 6, 6, 6, 5, 5, 5, 4, 4, 3, 3,
    3, 2, 2, 1, 1, 1, 0, 0, 0, 0, -1, -1, -1, -2, -2,
    -3, -3, -3, -4, -4, -4, -5, -5, -6, -6, -6, -6, -7, -7, -7,
    -8, -8, -8, -8, -8, -9, -9, -9, -9, -9, -9, -9, -9, -9, -9,
    -9, -9, -9, -9, -9, -9, -9, -9, -9, -9, -9, -8, -8, -8, -8,
    -8, -7, -7, -7, -6, -6, -6, -6, -5, -5, -5, -4, -4, -3, -3,
    -3, -2, -2, -1, -1, -1, 0, 0, 0, 0, 1, 1, 1, 2, 2,
    3, 3, 3, 4, 4, 4, 5, 5, 6, 6, 6, 6, 7, 7, 7,
    8, 8, 8, 8, 8, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9,
    /* rad 12 */
    12, 11, 11, 11, 11, 11, 11, 11, 11, 11, 10, 10, 10, 10, 9,
    9, 9, 9, 8, 8, 8, 7, 7, 6, 6, 6, 5, 5, 4, 4,
    3, 3, 2, 2, 1, 1, 0, 0, 0, 0, -1, -1, -2, -2, -3,
    -3, -4, -4, -5, -5, -5, -6, -6, -7, -7, -8, -8, -8, -9, -9,
    -9, -9, -10, -10, -10, -10, -11, -11, -11, -11, -11, -11, -11, -11, -11,
    -11, -11, -11, -11, -11, -11, -11, -11, -11, -11, -10, -10, -10, -10, -9,
    -9, -9, -9, -8, -8, -8, -7, -7, -6, -6, -6, -5, -5, -4, -4,
    -3, -3, -2, -2, -1, -1, 0, 0, 0, 0, 1, 1, 2, 2, 3,
    3, 4, 4, 5, 5, 5, 6, 6, 7, 7, 8, 8, 8, 9, 9,
    9, 9, 10, 10, 10, 10, 11, 11, 11, 11, 11, 11, 11, 11, 11,
    /* rad 14 */
    14, 13, 13, 13, 13, 13, 13, 13, 13, 13, 12, 12, 12, 11, 11,
    11, 10, 10, 10, 9, 9, 8, 8, 7, 7, 7, 6, 5, 5, 4,
    4, 3, 3, 2, 2, 1, 0, 0, 0, 0, -1, -2, -2, -3, -3,
    -4, -4, -5, -5, -6, -6, -7, -7, -8, -8, -9, -9, -10, -10, -10,
    -11, -11, -11, -12, -12, -12, -13, -13, -13, -13, -13, -13, -13, -13, -13,
    -13, -13, -13, -13, -13, -13, -13, -13, -13, -13, -12, -12, -12, -11, -11,
    -11, -10, -10, -10, -9, -9, -8, -8, -7, -7, -7, -6, -5, -5, -4,
    -4, -3, -3, -2, -2, -1, 0, 0, 0, 0, 1, 2, 2, 3, 3,
    4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 10,
    11, 11, 11, 12, 12, 12, 13, 13, 13, 13, 13, 13, 13, 13, 13,
    /* rad 16 */
    16, 15, 15, 15, 15, 15, 15, 15, 15, 14, 14, 14, 14, 13, 13,
    12, 12, 12, 11, 11, 10, 10, 9, 9, 8, 8, 7, 6, 6, 5,
    4, 4, 3, 2, 2, 1, 1, 0, 0, -1, -1, -2, -2, -3, -4,
    -4, -5, -6, -6, -7, -7, -8, -9, -9, -10, -10, -11, -11, -12, -12,
    -12, -13, -13, -14, -14, -14, -14, -15, -15, -15, -15, -15, -15, -15, -15,
    -15, -15, -15, -15, -15, -15, -15, -15, -15, -14, -14, -14, -14, -13, -13,
    -12, -12, -12, -11, -11, -10, -10, -9, -9, -8, -8, -7, -6, -6, -5,
    -4, -4, -3, -2, -2, -1, -1, 0, 0, 1, 1, 2, 2, 3, 4,
    4, 5, 6, 6, 7, 7, 8, 9, 9, 10, 10, 11, 11, 12, 12,
    12, 13, 13, 14, 14, 14, 14, 15, 15, 15, 15, 15, 15, 15, 15,
    /* rad 18 */
    18, 17, 17, 17, 17, 17, 17, 17, 16, 16, 16, 16, 15, 15, 14,
    14, 14, 13, 13, 12, 12, 11, 10, 10, 9, 9, 8, 7, 6, 6,
    5, 4, 4, 3, 2, 1, 1, 0, 0, -1, -1, -2, -3, -4, -4,
    -5, -6, -6, -7, -8, -8, -9, -10, -10, -11, -12, -12, -13, -13, -14,
    -14, -14, -15, -15, -16, -16, -16, -16, -17, -17, -17, -17, -17, -17, -17,
    -17, -17, -17, -17, -17, -17, -17, -17, -16, -16, -16, -16, -15, -15, -14,
    -14, -14, -13, -13, -12, -12, -11, -10, -10, -9, -9, -8, -7, -6, -6,
    -5, -4, -4, -3, -2, -1, -1, 0, 0, 1, 1, 2, 3, 4, 4,
    5, 6, 6, 7, 8, 8, 9, 10, 10, 11, 12, 12, 13, 13, 14,
    14, 14, 15, 15, 16, 16, 16, 16, 17, 17, 17, 17, 17, 17, 17,
    /* rad 20 */
    20, 19, 19, 19, 19, 19, 19, 19, 18, 18, 18, 17, 17, 17, 16,
    16, 15, 15, 14, 13, 13, 12, 12, 11, 10, 10, 9, 8, 7, 6,
    6, 5, 4, 3, 2, 2, 1, 0, 0, -1, -2, -2, -3, -4, -5,
    -6, -6, -7, -8, -9, -9, -10, -11, -12, -12, -13, -13, -14, -15, -15,
    -16, -16, -17, -17, -17, -18, -18, -18, -19, -19, -19, -19, -19, -19, -19,
    -19, -19, -19, -19, -19, -19, -19, -19, -18, -18, -18, -17, -17, -17, -16,
    -16, -15, -15, -14, -13, -13, -12, -12, -11, -10, -10, -9, -8, -7, -6,
    -6, -5, -4, -3, -2, -2, -1, 0, 0, 1, 2, 2, 3, 4, 5,
    6, 6, 7, 8, 9, 9, 10, 11, 12, 12, 13, 13, 14, 15, 15,
    16, 16, 17, 17, 17, 18, 18, 18, 19, 19, 19, 19, 19, 19, 19,
};

static const int8_t c_ty[GM_LEUKO_NCIRCLES * GM_LEUKO_NPOINTS] = {
    /* rad 8 */
    0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4,
    4, 4, 5, 5, 5, 5, 6, 6, 6, 6, 6, 7, 7, 7, 7,
    7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7,
    7, 7, 7, 7, 7, 6, 6, 6, 6, 6, 5, 5, 5, 5, 4,
    4, 4, 4, 3, 3, 3, 2, 2, 2, 1, 1, 1, 1, 0, 0,
    0, 0, 0, -1, -1, -1, -1, -2, -2, -2, -3, -3, -3, -4, -4,
    -4, -4, -5, -5, -5, -5, -6, -6, -6, -6, -6, -7, -7, -7, -7,
    -7, -7, -7, -7, -7, -7, -7, -7, -7, -7, -7, -7, -7, -7, -7,
    -7, -7, -7, -7, -7, -6, -6, -6, -6, -6, -5, -5, -5, -5, -4,
    -4, -4, -4, -3, -3, -3, -2, -2, -2, -1, -1, -1, -1, 0, 0,
    /* rad 10 */
    0, 0, 0, 1, 1, 2, 2, 2, 3, 3, 4, 4, 4, 5, 5,
    5, 6, 6, 6, 7, 7, 7, 7, 8, 8, 8, 8, 9, 9, 9,
    9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9,
    9, 9, 9, 9, 8, 8, 8, 8, 7, 7, 7, 7, 6, 6, 6,
    5, 5, 5, 4, 4, 4, 3, 3, 2, 2, 2, 1, 1, 0, 0,
    0, 0, 0, -1, -1, -2, -2, -2, -3, -3, -4, -4, -4, -5, -5,
    -5, -6, -6, -6, -7, -7, -7, -7, -8, -8, -8, -8, -9, -9, -9,
    -9, -9, -9, -9, -9, -9, -9, -9, -9, -9, -9, -9, -9, -9, -9,
    -9, -9, -9, -9, -8, -8, -8, -8, -7, -7, -7, -7, -6, -6, -6,
    -5, -5, -5, -4, -4, -4, -3, -3, -2, -2, -2, -1, -1, 0, 0,
    /* rad 12 */
    0, 0, 1, 1, 2, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6,
    7, 7, 7, 8, 8, 8, 9, 9, 9, 10, 10, 10, 10, 11, 11,
    11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11, 11,
    11, 11, 11, 10, 10, 10, 10, 9, 9, 9, 8, 8, 8, 7, 7,
    7, 6, 6, 5, 5, 4, 4, 3, 3, 2, 2, 2, 1, 1, 0,
    0, 0, -1, -1, -2, -2, -2, -3, -3, -4, -4, -5, -5, -6, -6,
    -7, -7, -7, -8, -8, -8, -9, -9, -9, -10, -10, -10, -10, -11, -11,
    -11, -11, -11, -11, -11, -11, -11, -11, -11, -11, -11, -11, -11, -11, -11,
    -11, -11, -11, -10, -10, -10, -10, -9, -9, -9, -8, -8, -8, -7, -7,
    -7, -6, -6, -5, -5, -4, -4, -3, -3, -2, -2, -2, -1, -1, 0,
    /* rad 14 */
    0, 0, 1, 1, 2, 2, 3, 4, 4, 5, 5, 6, 6, 7, 7,
    8, 8, 9, 9, 10, 10, 10, 11, 11, 11, 12, 12, 12, 12, 13,
    13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13, 13,
    13, 13, 12, 12, 12, 12, 11, 11, 11, 10, 10, 10, 9, 9, 8,
    8, 7, 7, 6, 6, 5, 5, 4, 4, 3, 2, 2, 1, 1, 0,
    0, 0, -1, -1, -2, -2, -3, -4, -4, -5, -5, -6, -6, -7, -7,
    -8, -8, -9, -9, -10, -10, -10, -11, -11, -11, -12, -12, -12, -12, -13,
    -13, -13, -13, -13, -13, -13, -13, -13, -13, -13, -13, -13, -13, -13, -13,
    -13, -13, -12, -12, -12, -12, -11, -11, -11, -10, -10, -10, -9, -9, -8,
    -8, -7, -7, -6, -6, -5, -5, -4, -4, -3, -2, -2, -1, -1, 0,
    /* rad 16 */
    0, 0, 1, 2, 2, 3, 3, 4, 5, 5, 6, 7, 7, 8, 8,
    9, 9, 10, 10, 11, 11, 12, 12, 13, 13, 13, 14, 14, 14, 14,
    15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15,
    15, 14, 14, 14, 14, 13, 13, 13, 12, 12, 11, 11, 10, 10, 9,
    9, 8, 8, 7, 7, 6, 5, 5, 4, 3, 3, 2, 2, 1, 0,
    0, 0, -1, -2, -2, -3, -3, -4, -5, -5, -6, -7, -7, -8, -8,
    -9, -9, -10, -10, -11, -11, -12, -12, -13, -13, -13, -14, -14, -14, -14,
    -15, -15, -15, -15, -15, -15, -15, -15, -15, -15, -15, -15, -15, -15, -15,
    -15, -14, -14, -14, -14, -13, -13, -13, -12, -12, -11, -11, -10, -10, -9,
    -9, -8, -8, -7, -7, -6, -5, -5, -4, -3, -3, -2, -2, -1, 0,
    /* rad 18 */
    0, 0, 1, 2, 3, 3, 4, 5, 5, 6, 7, 8, 8, 9, 9,
    10, 11, 11, 12, 12, 13, 13, 14, 14, 15, 15, 15, 16, 16, 16,
    17, 17, 17, 17, 17, 17, 17, 17, 17, 17, 17, 17, 17, 17, 17,
    17, 16, 16, 16, 15, 15, 15, 14, 14, 13, 13, 12, 12, 11, 11,
    10, 9, 9, 8, 8, 7, 6, 5, 5, 4, 3, 3, 2, 1, 0,
    0, 0, -1, -2, -3, -3, -4, -5, -5, -6, -7, -8, -8, -9, -9,
    -10, -11, -11, -12, -12, -13, -13, -14, -14, -15, -15, -15, -16, -16, -16,
    -17, -17, -17, -17, -17, -17, -17, -17, -17, -17, -17, -17, -17, -17, -17,
    -17, -16, -16, -16, -15, -15, -15, -14, -14, -13, -13, -12, -12, -11, -11,
    -10, -9, -9, -8, -8, -7, -6, -5, -5, -4, -3, -3, -2, -1, 0,
    /* rad 20 */
    0, 0, 1, 2, 3, 4, 4, 5, 6, 7, 8, 8, 9, 10, 11,
    11, 12, 13, 13, 14, 14, 15, 15, 16, 16, 17, 17, 18, 18, 18,
    19, 19, 19, 19, 19, 19, 19, 19, 19, 19, 19, 19, 19, 19, 19,
    19, 18, 18, 18, 17, 17, 16, 16, 15, 15, 14, 14, 13, 13, 12,
    11, 11, 10, 9, 8, 8, 7, 6, 5, 4, 4, 3, 2, 1, 0,
    0, 0, -1, -2, -3, -4, -4, -5, -6, -7, -8, -8, -9, -10, -11,
    -11, -12, -13, -13, -14, -14, -15, -15, -16, -16, -17, -17, -18, -18, -18,
    -19, -19, -19, -19, -19, -19, -19, -19, -19, -19, -19, -19, -19, -19, -19,
    -19, -18, -18, -18, -17, -17, -16, -16, -15, -15, -14, -14, -13, -13, -12,
    -11, -11, -10, -9, -8, -8, -7, -6, -5, -4, -4, -3, -2, -1, 0,
};

int32_t gm_leuko_tx(uint32_t k, uint32_t n)
{
    return c_tx[k * NPTS + n];
}

int32_t gm_leuko_ty(uint32_t k, uint32_t n)
{
    return c_ty[k * NPTS + n];
}

static uint32_t bit_length(uint64_t x)
{
    return x ? 64 - (uint32_t)__builtin_clzll(x) : 0;
}

/* x rounded to a multiple of 2^sh, ties to even (IEEE round to nearest). */
static uint64_t round_low_bits(uint64_t x, uint32_t sh)
{
    if (!sh)
        return x;
    uint64_t q = x >> sh, rem = x & ((1ull << sh) - 1), half = 1ull << (sh - 1);
    if (rem > half || (rem == half && (q & 1)))
        q++;
    return q << sh;
}

/* one_nth = 1.f / n is R / 2^S with R of 24 bits; the product x * one_nth
 * is rounded to 24 bits, then truncated. x and n are below 2^24, so both
 * convert to float exactly. */
uint32_t gm_leuko_float_row(uint32_t x, uint32_t n)
{
    uint32_t b = bit_length(n);
    uint32_t s = (n & (n - 1)) ? 23 + b : 22 + b;
    uint64_t q = (1ull << s) / n, rem = (1ull << s) % n;
    if (2 * rem > n || (2 * rem == n && (q & 1)))
        q++;
    uint64_t t = (uint64_t)x * q;
    uint32_t len = bit_length(t);
    if (len > 24)
        t = round_low_bits(t, len - 24);
    return (uint32_t)(t >> s);
}

static int strel_set(uint32_t el_i, uint32_t el_j)
{
    /* structuring_element(12): sqrt(d2) <= 12 with d2 an integer <= 288
     * is d2 <= 144 exactly */
    int32_t di = (int32_t)el_i - 12, dj = (int32_t)el_j - 12;
    return di * di + dj * dj <= 144;
}

static uint32_t lanes_where(const gm_warp_gen *g, uint32_t exist, int (*pred)(const gm_kernel *,
                            const gm_warp_gen *, uint32_t), const gm_kernel *k)
{
    uint32_t m = 0;
    for (uint32_t l = 0; l < GM_WARP_SIZE; l++)
        if ((exist >> l & 1) && pred(k, g, g->warp * GM_WARP_SIZE + l))
            m |= 1u << l;
    return m;
}

static const gm_leuko_params *lk_of(const gm_kernel *k)
{
    return ((const gm_leuko_launch *)k->params)->lk;
}

/* ---------------------------------------------------------------- GICOV */

enum { G_START, G_CIRCLE, G_POINT, G_SCORE, G_STORE };

static const char *const gicov_prog[] = {
    "II" "Z",                          /* i, j; max_GICOV = 0 */
    "ZZZZ",                            /* sum, M2, mean, n = 0 */
    "CCI" "EECC" "AAAA" "ISAAAA" "PB", /* offsets, address, fetches, running mean */
    "AAASAPA" "IPB",                   /* mean^2 / var, running max; k++ */
    "IIT" "X",
};

static void gicov_seg(const gm_kernel *k, const gm_warp_gen *g, int s, gm_seg *out)
{
    out->prog = gicov_prog[s];
    out->mask = gm_warp_exist_mask(k->block.x, g->warp);
}

static int gicov_next(const gm_kernel *k, gm_warp_gen *g, int s)
{
    (void)k;
    switch (s) {
    case G_START: g->v[1] = 0; return G_CIRCLE;
    case G_CIRCLE: g->v[2] = 0; return G_POINT;
    case G_POINT: return ++g->v[2] < NPTS ? G_POINT : G_SCORE;
    case G_SCORE: return ++g->v[1] < NCIR ? G_CIRCLE : G_STORE;
    default: return GM_SEG_DONE;
    }
}

static void gicov_addr(const gm_kernel *k, const gm_warp_gen *g, int s, int m, gm_inst *in)
{
    const gm_leuko_params *p = lk_of(k);
    uint32_t c = (uint32_t)g->v[1], n = (uint32_t)g->v[2];
    int64_t i = g->cta + GM_LEUKO_MAXR;
    uint64_t grad = m == 2 ? p->grad_x : p->grad_y;

    in->flags = GM_INST_READ_ONLY;
    for (uint32_t l = 0; l < GM_WARP_SIZE; l++) {
        int64_t j = g->warp * GM_WARP_SIZE + l + GM_LEUKO_MAXR;
        uint64_t a;
        if (s == G_STORE)
            a = p->gicov + 4 * (uint64_t)(i * p->grad_m + j);
        else if (m == 0 || m == 1)
            a = (m ? p->c_tx : p->c_ty) + 4ull * (c * NPTS + n);
        else if (m == 2 || m == 3)
            a = grad + 4 * (uint64_t)((i + c_tx[c * NPTS + n]) * p->grad_m + j +
                                      c_ty[c * NPTS + n]);
        else
            a = (m == 4 ? p->c_cos : p->c_sin) + 4ull * n;
        in->addr[l] = (in->mask >> l & 1) ? a : 0;
    }
    if (s == G_STORE)
        in->flags = 0;
}

static const gm_segprog gicov_sp = {4, gicov_seg, gicov_next, gicov_addr};

/* ---------------------------------------------------------------- dilate */

enum { D_START, D_ROW, D_COL, D_STREL, D_FETCH, D_COL_NEXT, D_ROW_NEXT, D_STORE };

static const char *const dilate_prog[] = {
    "IIIIZI",   /* element centre, thread id, i, j; max = 0; el_i = 0 */
    "IIPB",     /* y, el_j = 0; 0 <= y < m */
    "IPB",      /* x; 0 <= x < n */
    "CPB",      /* c_strel[el_i][el_j] != 0 */
    "EA",       /* tex1Dfetch, running max */
    "IPB",      /* el_j++ */
    "IPB",      /* el_i++ */
    "IIT" "X",
};

/* Each lane's pixel (i, j): consecutive threads walk down a column, so
 * one division serves the warp. */
static void dilate_lanes(const gm_kernel *k, const gm_warp_gen *g, int64_t i[], int64_t j[])
{
    const gm_leuko_params *p = lk_of(k);
    uint64_t tid = (uint64_t)g->cta * DIL_TPB + g->warp * GM_WARP_SIZE;
    int64_t r = (int64_t)(tid % p->grad_m), c = (int64_t)(tid / p->grad_m);
    for (uint32_t l = 0; l < GM_WARP_SIZE; l++) {
        i[l] = r;
        j[l] = c;
        if (++r == p->grad_m) {
            r = 0;
            c++;
        }
    }
}

/* Lanes whose element row y (and, with cols, column x) is in the image. */
static uint32_t dilate_mask(const gm_kernel *k, const gm_warp_gen *g, int cols)
{
    const gm_leuko_params *p = lk_of(k);
    uint32_t e = gm_warp_exist_mask(DIL_TPB, g->warp), m = 0;
    int64_t i[GM_WARP_SIZE], j[GM_WARP_SIZE];
    dilate_lanes(k, g, i, j);
    for (uint32_t l = 0; l < GM_WARP_SIZE; l++) {
        int64_t y = i[l] - STREL / 2 + g->v[1], x = j[l] - STREL / 2 + g->v[2];
        int ok = y >= 0 && y < p->grad_m && (!cols || (x >= 0 && x < p->grad_n));
        m |= (uint32_t)(ok && (e >> l & 1)) << l;
    }
    return m;
}

static void dilate_seg(const gm_kernel *k, const gm_warp_gen *g, int s, gm_seg *out)
{
    out->prog = dilate_prog[s];
    out->mask = gm_warp_exist_mask(DIL_TPB, g->warp);
    if (s == D_COL || s == D_COL_NEXT)
        out->mask = dilate_mask(k, g, 0);
    else if (s == D_STREL)
        out->mask = dilate_mask(k, g, 1);
    else if (s == D_FETCH)
        out->mask = strel_set((uint32_t)g->v[1], (uint32_t)g->v[2]) ? dilate_mask(k, g, 1) : 0;
}

static int dilate_next(const gm_kernel *k, gm_warp_gen *g, int s)
{
    (void)k;
    switch (s) {
    case D_START: g->v[1] = 0; return D_ROW;
    case D_ROW: g->v[2] = 0; return D_COL;
    case D_COL_NEXT: return ++g->v[2] < STREL ? D_COL : D_ROW_NEXT;
    case D_ROW_NEXT: return ++g->v[1] < STREL ? D_ROW : D_STORE;
    case D_STORE: return GM_SEG_DONE;
    default: return s + 1;
    }
}

static void dilate_addr(const gm_kernel *k, const gm_warp_gen *g, int s, int m, gm_inst *in)
{
    const gm_leuko_params *p = lk_of(k);
    int64_t i[GM_WARP_SIZE], j[GM_WARP_SIZE];
    (void)m;
    dilate_lanes(k, g, i, j);
    in->flags = s == D_STORE ? 0 : GM_INST_READ_ONLY;
    for (uint32_t l = 0; l < GM_WARP_SIZE; l++) {
        int64_t y = i[l] - STREL / 2 + g->v[1], x = j[l] - STREL / 2 + g->v[2];
        uint64_t a;
        if (s == D_STREL)
            a = p->c_strel + 4ull * (uint64_t)(g->v[1] * STREL + g->v[2]);
        else if (s == D_FETCH)
            a = p->gicov + 4 * (uint64_t)(x * p->grad_m + y);
        else
            a = p->dilated + 4 * (uint64_t)(i[l] * p->grad_n + j[l]);
        in->addr[l] = (in->mask >> l & 1) ? a : 0;
    }
}

static const gm_segprog dilate_sp = {1, dilate_seg, dilate_next, dilate_addr};

/* ---------------------------------------------------------------- IMGVF */

enum {
    M_START, M_LOAD_HEAD, M_LOAD, M_LOAD_NEXT, M_SYNC, M_FLAG_INIT, M_CONSTS,
    M_WHILE, M_ITER_INIT, M_BLOCK, M_POINT, M_WRITE_BACK, M_BUFFER, M_LAST, M_BLOCK_NEXT,
    M_SUM, M_FOLD, M_FOLD_SYNC, M_TREE_HEAD, M_TREE, M_TREE_NEXT,
    M_MEAN_HEAD, M_MEAN, M_CONVERGED, M_ITER_NEXT,
    M_STORE_HEAD, M_STORE, M_STORE_NEXT, M_EXIT
};

/* heaviside(): two FMULs for the argument, atanf (one SFU and five FP32
 * ops), then * ONE_OVER_PI + 0.5 in double and back to float. */
#define HEAVISIDE "AA" "SAAAAA" "QQQQ"

static const char *const mgvf_prog[] = {
    "IZZLLLLAAI",        /* cell; IMGVF_array, I_array, m_array, n_array; blocks; b = 0 */
    "IIPB",              /* i, j of the copy-in; i < m */
    "LW",
    "IPB",
    "R",
    "ZW",                /* thread 0: cell_converged = 0 */
    "RASAAQQZ",          /* one_nth, tid_mod, tbsize_mod, one_over_e; iterations = 0 */
    "DAPB",              /* !cell_converged && iterations < 500 */
    "ZI",                /* total_diff = 0; j = tid_mod - tbsize_mod */
    "IAAAIAPB",          /* i = (tid + offset) * one_nth; j += tbsize_mod, wrap; i < m */
    "IIIIIIII" "DDDDDDDDD" "AAAAAAAA"          /* neighbours, the 8 differences */
    HEAVISIDE HEAVISIDE HEAVISIDE HEAVISIDE HEAVISIDE HEAVISIDE HEAVISIDE HEAVISIDE
    "AAAAAAAA" "QQQQ" "IL" "QQQQQQ",           /* the update, I[i*n + j] */
    "DW",                /* previous block's value from buffer */
    "W",                 /* buffer[tid] = new_val */
    "W",                 /* last block: IMGVF[i*n + j] = new_val */
    "AARIPB",            /* total_diff += fabs(); __syncthreads; b++ */
    "WR",                /* buffer[tid] = total_diff */
    "IDDAW",             /* tid >= 256: fold into the lower 256 */
    "R",
    "IPB",               /* tid < th */
    "DDAW",
    "RIPB",              /* th /= 2 */
    "PB",                /* thread 0 */
    "DAAPB",             /* mean < cutoff */
    "ZW",                /* cell_converged = 1 */
    "RI",                /* iterations++ */
    "IIPB",              /* copy-out */
    "DT",
    "IPB",
    "X",
};

#define TREE_TRIPS 8u    /* th = 128, 64, .. 1 */

static const gm_leuko_cell *cell_of(const gm_kernel *k, const gm_warp_gen *g)
{
    return &lk_of(k)->cell[g->cta];
}

static uint32_t mgvf_blocks(const gm_leuko_cell *c)
{
    return (c->m * c->n + MGVF_TPB - 1) / MGVF_TPB;
}

/* Element tid + 320 b; the iteration loop's row comes from the float
 * multiply, the copy loops' from an integer division. */
static uint32_t elem(uint32_t t, int64_t b)
{
    return t + MGVF_TPB * (uint32_t)b;
}

static int copy_ok(const gm_kernel *k, const gm_warp_gen *g, uint32_t t)
{
    const gm_leuko_cell *c = cell_of(k, g);
    return elem(t, g->v[2]) / c->n < c->m;
}

static int row_ok(const gm_kernel *k, const gm_warp_gen *g, uint32_t t)
{
    const gm_leuko_cell *c = cell_of(k, g);
    return gm_leuko_float_row(elem(t, g->v[2]), c->n) < c->m;
}

static int prev_row_ok(const gm_kernel *k, const gm_warp_gen *g, uint32_t t)
{
    const gm_leuko_cell *c = cell_of(k, g);
    return gm_leuko_float_row(elem(t, g->v[2] - 1), c->n) < c->m;
}

static int below_th(const gm_kernel *k, const gm_warp_gen *g, uint32_t t)
{
    (void)k;
    return t < (128u >> g->v[2]);
}

static void mgvf_seg(const gm_kernel *k, const gm_warp_gen *g, int s, gm_seg *out)
{
    const gm_leuko_cell *c = cell_of(k, g);
    uint32_t all = 0xffffffffu, b = (uint32_t)g->v[2], last = mgvf_blocks(c) - 1;
    uint32_t t0 = g->warp == 0 ? 1u : 0u;
    out->prog = mgvf_prog[s];
    switch (s) {
    case M_LOAD: case M_STORE: out->mask = lanes_where(g, all, copy_ok, k); break;
    case M_POINT: out->mask = lanes_where(g, all, row_ok, k); break;
    case M_WRITE_BACK: out->mask = b ? lanes_where(g, all, prev_row_ok, k) : 0; break;
    case M_BUFFER: out->mask = b < last ? all : 0; break;
    case M_LAST: out->mask = b == last ? lanes_where(g, all, row_ok, k) : 0; break;
    case M_FOLD: out->mask = g->warp >= 256 / GM_WARP_SIZE ? all : 0; break;
    case M_TREE: out->mask = lanes_where(g, all, below_th, k); break;
    case M_FLAG_INIT: case M_MEAN: out->mask = t0; break;
    case M_CONVERGED:
        out->mask = g->v[1] + 1 == lk_of(k)->iterations ? t0 : 0;
        break;
    default: out->mask = all; break;
    }
}

static int mgvf_next(const gm_kernel *k, gm_warp_gen *g, int s)
{
    uint32_t blocks = mgvf_blocks(cell_of(k, g));
    switch (s) {
    case M_START: g->v[2] = 0; return M_LOAD_HEAD;
    case M_LOAD_NEXT: return ++g->v[2] < blocks ? M_LOAD_HEAD : M_SYNC;
    case M_CONSTS: g->v[1] = 0; return M_WHILE;
    case M_WHILE:
        g->v[2] = 0;
        return g->v[1] < lk_of(k)->iterations ? M_ITER_INIT : M_STORE_HEAD;
    case M_WRITE_BACK: return g->v[2] + 1 < blocks ? M_BUFFER : M_LAST;
    case M_BUFFER: return M_BLOCK_NEXT;
    case M_BLOCK_NEXT: return ++g->v[2] < blocks ? M_BLOCK : M_SUM;
    case M_FOLD_SYNC: g->v[2] = 0; return M_TREE_HEAD;
    case M_TREE_NEXT: return ++g->v[2] < TREE_TRIPS ? M_TREE_HEAD : M_MEAN_HEAD;
    case M_ITER_NEXT: g->v[1]++; return M_WHILE;
    case M_STORE_NEXT: return ++g->v[2] < blocks ? M_STORE_HEAD : M_EXIT;
    case M_EXIT: return GM_SEG_DONE;
    default: return s + 1;
    }
}

/* Shared IMGVF[(i + di) * n + j + dj] with the kernel's edge clamps
 * (di, dj in -1..1), for element e. */
static uint64_t neighbour(const gm_leuko_cell *c, uint32_t e, int di, int dj)
{
    uint32_t i = gm_leuko_float_row(e, c->n), j = e % c->n;
    if (!di && !dj)
        return 4ull * ((uint64_t)i * c->n + j);
    uint32_t r = di < 0 ? (i == 0 ? 0 : i - 1) : di > 0 ? (i == c->m - 1 ? c->m - 1 : i + 1) : i;
    uint32_t q = dj < 0 ? (j == 0 ? 0 : j - 1) : dj > 0 ? (j == c->n - 1 ? c->n - 1 : j + 1) : j;
    return 4ull * ((uint64_t)r * c->n + q);
}

/* IMGVF[], U, D, L, R, UR, DR, UL, DL: the kernel's read order */
static const int8_t around[9][2] = {
    {0, 0}, {-1, 0}, {1, 0}, {0, -1}, {0, 1}, {-1, 1}, {1, 1}, {-1, -1}, {1, -1},
};

static uint64_t mgvf_lane_addr(const gm_kernel *k, const gm_warp_gen *g, int s, int m,
                               uint32_t t, gm_inst *in)
{
    const gm_leuko_params *p = lk_of(k);
    const gm_leuko_cell *c = cell_of(k, g);
    uint32_t cell = g->cta, e = elem(t, g->v[2]);
    uint32_t th = 128u >> g->v[2];

    switch (s) {
    case M_START:
        if (m < 2) {
            in->width = 8;
            return (m ? p->i_array : p->imgvf_array) + 8ull * cell;
        }
        return (m == 2 ? p->m_array : p->n_array) + 4ull * cell;
    case M_LOAD:
        return m ? 4ull * e : p->imgvf_all + 4ull * (c->offset + e);
    case M_STORE:
        return m ? p->imgvf_all + 4ull * (c->offset + e) : 4ull * e;
    case M_POINT:
        if (m == 9)   /* I[i*n + j]: the float row, so not always element e */
            return p->i_all +
                   4ull * (c->offset + (uint64_t)gm_leuko_float_row(e, c->n) * c->n + e % c->n);
        return neighbour(c, e, around[m][0], around[m][1]);
    case M_WRITE_BACK:
        return m ? neighbour(c, e - MGVF_TPB, 0, 0) : SH_BUFFER + 4ull * t;
    case M_LAST:
        return neighbour(c, e, 0, 0);
    case M_FOLD:
        return SH_BUFFER + 4ull * (m == 1 ? t : t - 256);
    case M_TREE:
        return SH_BUFFER + 4ull * (m == 1 ? t + th : t);
    case M_MEAN:
        return SH_BUFFER;
    case M_FLAG_INIT: case M_WHILE: case M_CONVERGED:
        return SH_CONVERGED;
    default:   /* M_BUFFER, M_SUM */
        return SH_BUFFER + 4ull * t;
    }
}

static void mgvf_addr(const gm_kernel *k, const gm_warp_gen *g, int s, int m, gm_inst *in)
{
    int global = in->op == GM_OP_GLOBAL_LD || in->op == GM_OP_GLOBAL_ST;
    /* read-only: the pointer and size arrays and I; IMGVF_global is
     * written back by the same kernel */
    in->flags = global && (s == M_START || s == M_POINT) ? GM_INST_READ_ONLY : 0;
    for (uint32_t l = 0; l < GM_WARP_SIZE; l++)
        in->addr[l] = (in->mask >> l & 1)
                          ? mgvf_lane_addr(k, g, s, m, g->warp * GM_WARP_SIZE + l, in)
                          : 0;
}

static const gm_segprog mgvf_sp = {2, mgvf_seg, mgvf_next, mgvf_addr};

/* ---------------------------------------------------------------- build */

static int leukocyte_gen(const gm_kernel *k, gm_warp_gen *g, gm_inst *out, int max)
{
    static const gm_segprog *const sp[] = {&gicov_sp, &dilate_sp, &mgvf_sp};
    return gm_segprog_gen(sp[((const gm_leuko_launch *)k->params)->kind], k, g, out, max);
}

/* The cells of the default run: result.txt of the reference output
 * (x, y in the 640 x 480 frame), rounded. */
static const uint16_t cell_xy[GM_LEUKO_MAX_CELLS][2] = {
    {96, 127}, {252, 127}, {355, 129}, {318, 133}, {407, 134}, {227, 140}, {295, 143},
    {103, 148}, {461, 149}, {488, 153}, {325, 164}, {619, 164}, {487, 168}, {561, 171},
    {216, 174}, {140, 177}, {283, 177}, {500, 183}, {391, 182}, {105, 186}, {193, 185},
    {341, 189}, {620, 194}, {169, 197}, {560, 202}, {377, 208}, {581, 208}, {336, 214},
    {221, 218}, {552, 221}, {82, 224}, {483, 223}, {116, 226}, {237, 253}, {193, 265},
    {246, 264},
};

/* track_ellipse.c's sub-image around an integer centre: u1 = max(x -
 * 40 + 0.5, 0) truncated is x - 40 or 0, and so on. */
static void place_cell(gm_leuko_cell *c, uint32_t x, uint32_t y, uint32_t w, uint32_t h)
{
    uint32_t u1 = x >= 40 ? x - 40 : 0, u2 = x + 40 < w - 1 ? x + 40 : w - 1;
    uint32_t v1 = y >= 19 ? y - 19 : 0, v2 = y + 21 < h - 1 ? y + 21 : h - 1;
    c->x = x;
    c->y = y;
    c->m = v2 - v1 + 1;
    c->n = u2 - u1 + 1;
}

static int check_dims(uint32_t grad_m, uint32_t grad_n, uint32_t width, uint32_t height,
                      uint32_t ncells, uint32_t frames, uint32_t iterations, gm_error *err)
{
    if (grad_m < 2 * GM_LEUKO_MAXR + 1 || grad_m > 2 * GM_LEUKO_MAXR + 1024)
        return gm_fail(err, "leukocyte: bad grad_m %u (45..1068: 1..1024 GICOV threads)",
                       grad_m);
    if (grad_n < 2 * GM_LEUKO_MAXR + 1 || grad_n > 4096)
        return gm_fail(err, "leukocyte: bad grad_n %u (45..4096)", grad_n);
    if (width < 1 || width > 4096 || height < 1 || height > 4096)
        return gm_fail(err, "leukocyte: bad frame %ux%u (1..4096 each)", width, height);
    if (ncells < 1 || ncells > GM_LEUKO_MAX_CELLS)
        return gm_fail(err, "leukocyte: bad cells %u (1..%u)", ncells, GM_LEUKO_MAX_CELLS);
    if (frames < 1 || frames > 599)
        return gm_fail(err, "leukocyte: bad frames %u (1..599)", frames);
    if (iterations < 1 || iterations >= MAX_ITER)
        return gm_fail(err, "leukocyte: bad iterations %u (1..499)", iterations);
    return 0;
}

static void place_arrays(gm_leuko_params *p)
{
    gm_devmem mem;
    uint64_t grad = 4ull * p->grad_m * p->grad_n;

    gm_devmem_init(&mem);
    p->c_sin = gm_devmem_alloc(&mem, CONST_BYTES);
    p->c_cos = p->c_sin + 4 * NPTS;
    p->c_tx = p->c_cos + 4 * NPTS;
    p->c_ty = p->c_tx + 4 * NPTS * NCIR;
    p->c_strel = p->c_ty + 4 * NPTS * NCIR;
    p->grad_x = gm_devmem_alloc(&mem, grad);
    p->grad_y = gm_devmem_alloc(&mem, grad);
    p->gicov = gm_devmem_alloc(&mem, grad);
    p->dilated = gm_devmem_alloc(&mem, grad);
    p->i_array = gm_devmem_alloc(&mem, 8ull * p->ncells);
    p->imgvf_array = gm_devmem_alloc(&mem, 8ull * p->ncells);
    p->m_array = gm_devmem_alloc(&mem, 4ull * p->ncells);
    p->n_array = gm_devmem_alloc(&mem, 4ull * p->ncells);
    p->i_all = gm_devmem_alloc(&mem, 4ull * p->total);
    p->imgvf_all = gm_devmem_alloc(&mem, 4ull * p->total);
}

int gm_leukocyte_build_dims(gm_workload *w, uint32_t grad_m, uint32_t grad_n, uint32_t width,
                            uint32_t height, uint32_t ncells, uint32_t frames,
                            uint32_t iterations, gm_error *err)
{
    if (check_dims(grad_m, grad_n, width, height, ncells, frames, iterations, err))
        return -1;
    uint32_t nk = 2 + frames;
    if (gm_workload_alloc(w, "leukocyte", nk, sizeof(gm_leuko_params) +
                          nk * sizeof(gm_leuko_launch), err))
        return -1;

    gm_leuko_params *p = w->priv;
    gm_leuko_launch *lp = (gm_leuko_launch *)(p + 1);
    p->grad_m = grad_m;
    p->grad_n = grad_n;
    p->width = width;
    p->height = height;
    p->ncells = ncells;
    p->frames = frames;
    p->iterations = iterations;
    for (uint32_t c = 0; c < ncells; c++) {
        place_cell(&p->cell[c], cell_xy[c][0] * width / 640, cell_xy[c][1] * height / 480,
                   width, height);
        p->cell[c].offset = p->total;
        p->total += p->cell[c].m * p->cell[c].n;
    }
    place_arrays(p);

    /* dilate_CUDA: (int)((float)(m*n) / 176 + 0.5), exact in integers */
    uint32_t pixels = grad_m * grad_n, dilate_ctas = (2 * pixels + DIL_TPB) / (2 * DIL_TPB);
    for (uint32_t l = 0; l < nk; l++) {
        lp[l].lk = p;
        lp[l].kind = l < 2 ? l : GM_LEUKO_IMGVF;
    }
    gm_kernel_set(&w->kernels[0], "GICOV_kernel",
                  gm_dim3_make(grad_n - 2 * GM_LEUKO_MAXR, 1, 1),
                  gm_dim3_make(grad_m - 2 * GM_LEUKO_MAXR, 1, 1), &lp[0], leukocyte_gen);
    gm_kernel_set(&w->kernels[1], "dilate_kernel", gm_dim3_make(dilate_ctas, 1, 1),
                  gm_dim3_make(DIL_TPB, 1, 1), &lp[1], leukocyte_gen);
    for (uint32_t l = 2; l < nk; l++)
        gm_kernel_set(&w->kernels[l], "IMGVF_kernel", gm_dim3_make(ncells, 1, 1),
                      gm_dim3_make(MGVF_TPB, 1, 1), &lp[l], leukocyte_gen);
    return 0;
}

int gm_leukocyte_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err)
{
    /* standard: the run script's `leukocyte testfile.avi 5` on 640 x 480
     * frames (docs/workloads/rodinia.md) */
    static const uint32_t grad_m[] = {56, 76, 219, 76}, grad_n[] = {46, 96, 640, 96};
    static const uint32_t width[] = {160, 320, 640, 320}, height[] = {96, 240, 480, 240};
    static const uint32_t cells[] = {3, 8, 36, 8}, frames[] = {2, 2, 5, 2}, iters[] = {2, 3, 20, 3};

    (void)seed;
    if ((unsigned)size > GM_SIZE_FILL)
        return gm_fail(err, "leukocyte: bad size %d", (int)size);
    return gm_leukocyte_build_dims(w, grad_m[size], grad_n[size], width[size], height[size],
                                   cells[size], frames[size], iters[size], err);
}
