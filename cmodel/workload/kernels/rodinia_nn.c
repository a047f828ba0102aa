/* Rodinia 3.1 nn (cuda/nn/nn_cuda.cu, kernel euclid) as an address-stream
 * emulator. Host: cudaMalloc d_locations (numRecords LatLong {float lat,
 * lng}, 8 B each), d_distances (numRecords floats); threadsPerBlock 256,
 * blocks = ceil(numRecords/256), gridY = ceil(blocks/65535), gridX =
 * ceil(blocks/gridY). Per thread:
 *
 *   globalId = blockDim.x * (gridDim.x * blockIdx.y + blockIdx.x) + threadIdx.x
 *   latLong = d_locations + globalId
 *   if (globalId < numRecords)
 *       d_distances[globalId] = sqrt((lat-latLong->lat)^2 + (lng-latLong->lng)^2)
 *
 * Addresses depend only on numRecords: the loader keeps one record per
 * line of the hurricane_gen files (a 48-character line: fgets(.., 49, ..)
 * takes it whole, fgetc the newline), and hurricane_gen N F writes F
 * files of N/F + 1 lines, so `hurricane_gen 42760 4` (gen_dataset.sh,
 * filelist_4) gives 42764 records. Record values never decide an address.
 *
 * Instructions: 3 S2R + 2 IMAD, the lat/lng arguments (Z), ISETP + BRA;
 * lanes with a record: LD lat, LD lng, FADD, FADD, FMUL, FFMA, SQRT (SFU),
 * ST; EXIT. d_locations is read-only. */
#include "workload/kernels/kernels_rodinia.h"

#include <stdint.h>

#include "workload/build.h"
#include "workload/kernels/segprog.h"

#define TPB 256u

static const char *const prog[] = {"IIIII" "Z" "PB", "LL" "AAAAS" "T", "X"};

static uint64_t nn_gid(const gm_kernel *k, const gm_warp_gen *g, int lane)
{
    uint64_t bx = g->cta % k->grid.x, by = g->cta / k->grid.x;
    return TPB * (k->grid.x * by + bx) + g->warp * GM_WARP_SIZE + (uint64_t)lane;
}

static void nn_seg(const gm_kernel *k, const gm_warp_gen *g, int s, gm_seg *out)
{
    const gm_nn_params *p = k->params;
    out->prog = prog[s];
    out->mask = 0xffffffffu;
    if (s == 1) {
        uint32_t m = 0;
        for (int lane = 0; lane < GM_WARP_SIZE; lane++)
            m |= (uint32_t)(nn_gid(k, g, lane) < p->records) << lane;
        out->mask = m;
    }
}

static int nn_next(const gm_kernel *k, gm_warp_gen *g, int s)
{
    (void)k;
    (void)g;
    return s < 2 ? s + 1 : GM_SEG_DONE;
}

static void nn_addr(const gm_kernel *k, const gm_warp_gen *g, int s, int m, gm_inst *in)
{
    const gm_nn_params *p = k->params;
    (void)s;
    in->flags = m < 2 ? GM_INST_READ_ONLY : 0;
    for (int lane = 0; lane < GM_WARP_SIZE; lane++) {
        uint64_t gid = nn_gid(k, g, lane);
        uint64_t a = m < 2 ? p->locations + 8 * gid + 4 * (uint64_t)m : p->distances + 4 * gid;
        in->addr[lane] = (in->mask >> lane & 1) ? a : 0;
    }
}

static const gm_segprog nn_sp = {1, nn_seg, nn_next, nn_addr};

static int nn_gen(const gm_kernel *k, gm_warp_gen *g, gm_inst *out, int max)
{
    return gm_segprog_gen(&nn_sp, k, g, out, max);
}

int gm_nn_build_dims(gm_workload *w, uint32_t records, gm_error *err)
{
    if (!records || records > (1u << 28))
        return gm_fail(err, "nn: bad size records=%u (1..2^28)", records);
    if (gm_workload_alloc(w, "nn", 1, sizeof(gm_nn_params), err))
        return -1;
    gm_nn_params *p = w->priv;
    gm_devmem mem;
    gm_devmem_init(&mem);
    uint32_t blocks = (records + TPB - 1) / TPB;
    uint32_t gy = (blocks + 65534) / 65535, gx = (blocks + gy - 1) / gy;
    p->records = records;
    p->locations = gm_devmem_alloc(&mem, 8ull * records);
    p->distances = gm_devmem_alloc(&mem, 4ull * records);
    gm_kernel_set(&w->kernels[0], "euclid", gm_dim3_make(gx, gy, 1), gm_dim3_make(TPB, 1, 1), p,
                  nn_gen);
    return 0;
}

int gm_nn_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err)
{
    /* hurricane_gen 15690 1, 21380 2, 42760 4 (gen_dataset.sh): N/F + 1 per file */
    static const uint32_t records[] = {15691, 21382, 42764, 42764};

    (void)seed;   /* record values never decide an address */
    if ((unsigned)size > GM_SIZE_FILL)
        return gm_fail(err, "nn: bad size %d", (int)size);
    return gm_nn_build_dims(w, records[size], err);
}
