/* Rodinia 3.1 b+tree (gpu-app-collection src/cuda/rodinia/3.1/cuda/b+tree/
 * {main.c, kernel/kernel_gpu_cuda{,_2}.cu, kernel/kernel_gpu_cuda_wrapper{,_2}.cu})
 * as an address-stream emulator. Run: `b+tree.out file mil.txt command
 * command.txt` with the command file `j 6000 3000` then `k 10000`.
 *
 * Input: mil.txt holds "1000000" and a permutation of 0..999999 (its size,
 * 6,888,898 B, fits nothing else); the order is unknown, so the keys are a
 * seeded shuffle of 0..size-1 (the substitute the research notes suggest).
 * They are inserted one by one with the host B+ tree code of main.c (order
 * 256: leaves split at cut(255) = 128, internal nodes at cut(256) = 128,
 * k_prime moves up) and converted by transform_to_cuda: knodes in BFS
 * order from the root, knode = {int location; int indices[257]; int
 * keys[257]; bool is_leaf; int num_keys;} = 2068 B, keys[0] = INT_MIN,
 * keys[1..n] the node's keys, INT_MAX after; indices[j] the BFS id of child
 * j or, in a leaf, the record index (records in key order). keys[256] is
 * never written by the host unless the node is full; it is taken as
 * INT_MAX, which no search result depends on.
 *
 * findK<<<count, 256>>> (thid = threadIdx.x, bid = blockIdx.x):
 *   for (i = 0; i < height; i++) {
 *       if (knodesD[currKnodeD[bid]].keys[thid] <= keysD[bid] &&
 *           knodesD[currKnodeD[bid]].keys[thid+1] > keysD[bid])
 *           if (knodesD[offsetD[bid]].indices[thid] < knodes_elem)
 *               offsetD[bid] = knodesD[offsetD[bid]].indices[thid];
 *       __syncthreads();
 *       if (thid == 0) currKnodeD[bid] = offsetD[bid];
 *       __syncthreads();
 *   }
 *   if (knodesD[currKnodeD[bid]].keys[thid] == keysD[bid])
 *       ansD[bid].value = recordsD[knodesD[currKnodeD[bid]].indices[thid]].value;
 * findRangeK<<<count, 256>>> does the same descent twice per level (start
 * key with currKnodeD/offsetD, end key with lastKnodeD/offset_2D, indices
 * read through currKnodeD/lastKnodeD), then RecstartD[bid] = the start
 * record's index, __syncthreads(), ReclenD[bid] = end index - RecstartD[bid] + 1.
 *
 * The && is evaluated lazily: only lanes with keys[thid] <= key load
 * keys[thid+1]; exactly one lane per CTA matches. Every CTA reads the
 * root, and the top levels are shared by all cores. Query keys (rand() in
 * main.c) come from the seed: k draws keys uniformly in [0, size); j draws
 * a start and sets end = start + rSize, shifted down to end at size-1 as
 * main.c does. Each command's wrapper cudaMallocs and cudaFrees its own
 * arrays, so each launch's layout starts at the base: findRangeK: knodes,
 * currKnode, offset, lastKnode, offset_2 (8 B each), start, end, Recstart,
 * Reclen (4 B); findK: records, knodes, currKnode, offset (8 B), keys, ans.
 * Read-only: knodes, records, keys, start, end. */
#include "workload/kernels/kernels_rodinia.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sim/prng.h"
#include "workload/build.h"
#include "workload/kernels/gen_exit.h"

#define ORDER GM_BTREE_ORDER
#define SLOTS GM_BTREE_SLOTS
#define KB GM_BTREE_KNODE_BYTES
#define TPB ORDER   /* threadsPerBlock = order < 1024 ? order : 1024 */

/* ---------------------------------------------------------------- host tree */

/* A node of main.c's pointer tree, with pool indices for pointers. A leaf
 * keeps only keys: its record pointers carry the key itself. */
typedef struct bnode {
    int32_t keys[ORDER];
    int32_t child[ORDER + 1];
    int32_t parent;
    int32_t num_keys;
    int32_t is_leaf;
} bnode;

typedef struct btree {
    bnode *node;
    uint32_t n, cap;
    int32_t root;
} btree;

static int cut(int length)
{
    return length % 2 == 0 ? length / 2 : length / 2 + 1;
}

static int32_t make_node(btree *t, int leaf)
{
    if (t->n == t->cap) {
        uint32_t cap = t->cap ? 2 * t->cap : 64;
        bnode *p = realloc(t->node, cap * sizeof *p);
        if (!p)
            return -1;
        t->node = p;
        t->cap = cap;
    }
    bnode *b = &t->node[t->n];
    b->num_keys = 0;
    b->parent = -1;
    b->is_leaf = leaf;
    return (int32_t)t->n++;
}

static int32_t find_leaf(const btree *t, int32_t key)
{
    int32_t c = t->root;
    while (!t->node[c].is_leaf) {
        const bnode *b = &t->node[c];
        int lo = 0, hi = b->num_keys;   /* i = number of keys <= key */
        while (lo < hi) {
            int mid = (lo + hi) / 2;
            if (key >= b->keys[mid])
                lo = mid + 1;
            else
                hi = mid;
        }
        c = b->child[lo];
    }
    return c;
}

static int insert_into_parent(btree *t, int32_t left, int32_t key, int32_t right);

static int insert_into_new_root(btree *t, int32_t left, int32_t key, int32_t right)
{
    int32_t r = make_node(t, 0);
    if (r < 0)
        return -1;
    bnode *b = &t->node[r];
    b->keys[0] = key;
    b->child[0] = left;
    b->child[1] = right;
    b->num_keys = 1;
    t->node[left].parent = r;
    t->node[right].parent = r;
    t->root = r;
    return 0;
}

static int insert_into_node_after_splitting(btree *t, int32_t old, int left_index, int32_t key,
                                            int32_t right)
{
    int32_t temp_child[ORDER + 1], temp_keys[ORDER];
    bnode *o = &t->node[old];
    int i, j;
    for (i = 0, j = 0; i < o->num_keys + 1; i++, j++) {
        if (j == left_index + 1)
            j++;
        temp_child[j] = o->child[i];
    }
    for (i = 0, j = 0; i < o->num_keys; i++, j++) {
        if (j == left_index)
            j++;
        temp_keys[j] = o->keys[i];
    }
    temp_child[left_index + 1] = right;
    temp_keys[left_index] = key;

    int split = cut(ORDER);
    int32_t nn = make_node(t, 0);
    if (nn < 0)
        return -1;
    o = &t->node[old];   /* the pool may have moved */
    bnode *nw = &t->node[nn];
    o->num_keys = 0;
    for (i = 0; i < split - 1; i++) {
        o->child[i] = temp_child[i];
        o->keys[i] = temp_keys[i];
        o->num_keys++;
    }
    o->child[i] = temp_child[i];
    int32_t k_prime = temp_keys[split - 1];
    for (++i, j = 0; i < (int)ORDER; i++, j++) {
        nw->child[j] = temp_child[i];
        nw->keys[j] = temp_keys[i];
        nw->num_keys++;
    }
    nw->child[j] = temp_child[i];
    nw->parent = o->parent;
    for (i = 0; i <= nw->num_keys; i++)
        t->node[nw->child[i]].parent = nn;
    return insert_into_parent(t, old, k_prime, nn);
}

static int insert_into_parent(btree *t, int32_t left, int32_t key, int32_t right)
{
    int32_t parent = t->node[left].parent;
    if (parent < 0)
        return insert_into_new_root(t, left, key, right);
    bnode *p = &t->node[parent];
    int left_index = 0;
    while (left_index <= p->num_keys && p->child[left_index] != left)
        left_index++;
    if (p->num_keys < (int)ORDER - 1) {   /* insert_into_node */
        for (int i = p->num_keys; i > left_index; i--) {
            p->child[i + 1] = p->child[i];
            p->keys[i] = p->keys[i - 1];
        }
        p->child[left_index + 1] = right;
        p->keys[left_index] = key;
        p->num_keys++;
        return 0;
    }
    return insert_into_node_after_splitting(t, parent, left_index, key, right);
}

static int insert(btree *t, int32_t key)
{
    if (t->root < 0) {   /* start_new_tree */
        int32_t r = make_node(t, 1);
        if (r < 0)
            return -1;
        t->node[r].keys[0] = key;
        t->node[r].num_keys = 1;
        t->root = r;
        return 0;
    }
    int32_t leaf = find_leaf(t, key);
    bnode *l = &t->node[leaf];
    if (l->num_keys < (int)ORDER - 1) {   /* insert_into_leaf */
        int ip = 0;
        while (ip < l->num_keys && l->keys[ip] < key)
            ip++;
        for (int i = l->num_keys; i > ip; i--)
            l->keys[i] = l->keys[i - 1];
        l->keys[ip] = key;
        l->num_keys++;
        return 0;
    }
    /* insert_into_leaf_after_splitting */
    int32_t temp_keys[ORDER];
    int ins = 0, i, j;
    while (ins < (int)ORDER - 1 && l->keys[ins] < key)
        ins++;
    for (i = 0, j = 0; i < l->num_keys; i++, j++) {
        if (j == ins)
            j++;
        temp_keys[j] = l->keys[i];
    }
    temp_keys[ins] = key;
    int32_t nl = make_node(t, 1);
    if (nl < 0)
        return -1;
    l = &t->node[leaf];
    bnode *n = &t->node[nl];
    int split = cut(ORDER - 1);
    l->num_keys = 0;
    for (i = 0; i < split; i++)
        l->keys[l->num_keys++] = temp_keys[i];
    for (i = split; i < (int)ORDER; i++)
        n->keys[n->num_keys++] = temp_keys[i];
    n->parent = l->parent;
    return insert_into_parent(t, leaf, n->keys[0], nl);
}

/* transform_to_cuda: BFS from the root into knode keys/indices. */
static void transform(const btree *t, int32_t *keys, int32_t *indices, uint8_t *is_leaf,
                      uint16_t *num_keys, int32_t *queue)
{
    uint32_t head = 0, tail = 0;
    int32_t nodeindex = 1, recordindex = 0;
    queue[tail++] = t->root;
    while (head < tail) {
        uint32_t q = head;
        const bnode *b = &t->node[queue[head++]];
        int32_t *k = keys + (size_t)q * SLOTS, *x = indices + (size_t)q * SLOTS;
        int nk = b->num_keys + 2, i;
        for (i = 0; i < (int)SLOTS; i++) {
            k[i] = INT_MAX;   /* also keys[256], never written by the host */
            x[i] = 0;
        }
        is_leaf[q] = (uint8_t)b->is_leaf;
        num_keys[q] = (uint16_t)nk;
        k[0] = INT_MIN;
        if (!b->is_leaf) {
            x[0] = nodeindex++;
            for (i = 1; i < nk - 1; i++) {
                k[i] = b->keys[i - 1];
                queue[tail++] = b->child[i - 1];
                x[i] = nodeindex++;
            }
            queue[tail++] = b->child[i - 1];
        } else {
            for (i = 1; i < nk - 1; i++) {
                k[i] = b->keys[i - 1];
                x[i] = recordindex++;
            }
        }
        x[nk - 1] = (int32_t)q + 1;   /* indices[num_keys-1] = queueindex */
    }
}

/* ---------------------------------------------------------------- kernels */

/* The thread whose [keys[thid], keys[thid+1]) holds key. */
static uint32_t match(const gm_btree_tree *t, uint32_t node, int32_t key)
{
    const int32_t *k = t->keys + (size_t)node * SLOTS;
    uint32_t lo = 0, hi = SLOTS - 1;   /* keys[0] = INT_MIN <= key < keys[hi] */
    while (hi - lo > 1) {
        uint32_t mid = (lo + hi) / 2;
        if (k[mid] <= key)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* The node the kernel's descent for key is at before level `level`. */
static uint32_t descend(const gm_btree_tree *t, int32_t key, uint32_t level)
{
    uint32_t node = 0;
    for (uint32_t i = 0; i < level; i++) {
        int32_t next = t->indices[(size_t)node * SLOTS + match(t, node, key)];
        if (next >= 0 && (uint32_t)next < t->nodes)
            node = (uint32_t)next;
    }
    return node;
}

/* Lane holding thread thid of this warp, or none. */
static uint32_t lane_bit(uint32_t warp, uint32_t thid)
{
    return thid / GM_WARP_SIZE == warp ? 1u << (thid % GM_WARP_SIZE) : 0;
}

/* Lanes with thid <= last (keys[thid] <= key in a sorted node). */
static uint32_t lanes_upto(uint32_t warp, uint32_t last)
{
    uint32_t first = warp * GM_WARP_SIZE;
    if (last < first)
        return 0;
    if (last - first >= GM_WARP_SIZE - 1)
        return 0xffffffffu;
    return (2u << (last - first)) - 1;
}

/* Lane of the thread whose key equals key in a leaf, or none. */
static uint32_t found_lane(const gm_btree_tree *t, uint32_t node, int32_t key, uint32_t warp)
{
    uint32_t th = match(t, node, key);
    return t->keys[(size_t)node * SLOTS + th] == key ? lane_bit(warp, th) : 0;
}

static void node_field(gm_inst *in, uint64_t knodes, uint32_t node, uint32_t field,
                       uint32_t warp, uint32_t plus)
{
    uint64_t base = knodes + (uint64_t)node * KB + field;
    for (uint32_t l = 0; l < GM_WARP_SIZE; l++)
        in->addr[l] = (in->mask >> l & 1)
                          ? base + 4ull * (warp * GM_WARP_SIZE + l + plus) : 0;
}

enum {   /* registers */
    R_T, R_B, R_I, R_P, R_CUR, R_KA, R_K0, R_KEY, R_K1, R_OFF, R_IA, R_IDX, R_RA, R_REC,
    R_AA, R_LAST, R_KEY2, R_RS
};

enum {   /* findK program points */
    K_S2R_T = 0, K_S2R_B, K_I0, K_GSETP, K_GBRA,
    K_LD_CUR, K_KA, K_LD_K0, K_LD_KEY, K_SETP1, K_BRA1, K_LD_K1, K_SETP2, K_BRA2,
    K_LD_OFF, K_IA, K_LD_IDX, K_SETP3, K_BRA3, K_ST_OFF,
    K_BAR1, K_SETP0, K_BRA0, K_LD_OFF2, K_ST_CUR, K_BAR2,
    K_INC, K_LSETP, K_LBRA,
    K_F_LD_CUR, K_F_KA, K_F_LD_K, K_F_LD_KEY, K_F_SETP, K_F_BRA,
    K_F_IA, K_F_LD_IDX, K_F_RA, K_F_LD_REC, K_F_AA, K_F_ST_ANS,
    K_EXIT, K_DONE
};

static int findk_gen(const gm_kernel *kern, gm_warp_gen *g, gm_inst *out, int max)
{
    const gm_btree_launch *lp = kern->params;
    const gm_btree_tree *t = lp->t;
    uint32_t e = gm_warp_exist_mask(TPB, g->warp), bid = g->cta, w = g->warp;
    uint32_t z = w == 0 ? 1u : 0u;   /* thid == 0 */
    int32_t key = lp->start[bid];
    int n = 0;

    if (g->pc == K_DONE)
        return 0;
    uint32_t level = (uint32_t)g->v[0];
    uint32_t cur = descend(t, key, level);
    uint32_t th = match(t, cur, key);
    uint32_t a = lanes_upto(w, th) & e, m = lane_bit(w, th) & e;
    int32_t child = t->indices[(size_t)cur * SLOTS + th];
    uint32_t c = child >= 0 && (uint32_t)child < t->nodes ? m : 0;

    while (n < max) {
        gm_inst *in = &out[n++];
        switch (g->pc) {
        case K_S2R_T: gm_emit(in, GM_OP_ALU, e, R_T, R_NONE, R_NONE, R_NONE); break;
        case K_S2R_B: gm_emit(in, GM_OP_ALU, e, R_B, R_NONE, R_NONE, R_NONE); break;
        case K_I0:    gm_emit(in, GM_OP_ALU, e, R_I, R_NONE, R_NONE, R_NONE); break;
        case K_GSETP: gm_emit(in, GM_OP_ALU, e, R_P, R_I, R_NONE, R_NONE); break;
        case K_GBRA:
            gm_emit(in, GM_OP_BRANCH, e, R_NONE, R_P, R_NONE, R_NONE);
            g->pc = t->height ? K_LD_CUR : K_F_LD_CUR;
            continue;
        case K_LD_CUR: case K_F_LD_CUR:   /* currKnodeD[bid] */
            gm_emit_mem(in, GM_OP_GLOBAL_LD, e, R_CUR, R_B, R_NONE, 8, 0);
            gm_rod_bcast(in, lp->curr_knode + 8ull * bid);
            break;
        case K_KA: case K_F_KA:
            gm_emit(in, GM_OP_ALU, e, R_KA, R_CUR, R_T, R_NONE);
            break;
        case K_LD_K0: case K_F_LD_K:   /* knodesD[cur].keys[thid] */
            gm_emit_mem(in, GM_OP_GLOBAL_LD, e, R_K0, R_KA, R_NONE, 4, GM_INST_READ_ONLY);
            node_field(in, lp->knodes, cur, GM_BTREE_KEYS_OFF, w, 0);
            break;
        case K_LD_KEY: case K_F_LD_KEY:   /* keysD[bid] */
            gm_emit_mem(in, GM_OP_GLOBAL_LD, e, R_KEY, R_B, R_NONE, 4, GM_INST_READ_ONLY);
            gm_rod_bcast(in, lp->keys_d + 4ull * bid);
            break;
        case K_SETP1: gm_emit(in, GM_OP_ALU, e, R_P, R_K0, R_KEY, R_NONE); break;
        case K_BRA1:
            gm_emit(in, GM_OP_BRANCH, e, R_NONE, R_P, R_NONE, R_NONE);
            g->pc = a ? K_LD_K1 : K_BAR1;
            continue;
        case K_LD_K1:   /* keys[thid+1] */
            gm_emit_mem(in, GM_OP_GLOBAL_LD, a, R_K1, R_KA, R_NONE, 4, GM_INST_READ_ONLY);
            node_field(in, lp->knodes, cur, GM_BTREE_KEYS_OFF, w, 1);
            break;
        case K_SETP2: gm_emit(in, GM_OP_ALU, a, R_P, R_K1, R_KEY, R_NONE); break;
        case K_BRA2:
            gm_emit(in, GM_OP_BRANCH, a, R_NONE, R_P, R_NONE, R_NONE);
            g->pc = m ? K_LD_OFF : K_BAR1;
            continue;
        case K_LD_OFF:   /* offsetD[bid], equal to currKnodeD[bid] here */
            gm_emit_mem(in, GM_OP_GLOBAL_LD, m, R_OFF, R_B, R_NONE, 8, 0);
            gm_rod_bcast(in, lp->offset + 8ull * bid);
            break;
        case K_IA:    gm_emit(in, GM_OP_ALU, m, R_IA, R_OFF, R_T, R_NONE); break;
        case K_LD_IDX:   /* knodesD[offsetD[bid]].indices[thid] */
            gm_emit_mem(in, GM_OP_GLOBAL_LD, m, R_IDX, R_IA, R_NONE, 4, GM_INST_READ_ONLY);
            node_field(in, lp->knodes, cur, GM_BTREE_INDICES_OFF, w, 0);
            break;
        case K_SETP3: gm_emit(in, GM_OP_ALU, m, R_P, R_IDX, R_NONE, R_NONE); break;
        case K_BRA3:
            gm_emit(in, GM_OP_BRANCH, m, R_NONE, R_P, R_NONE, R_NONE);
            g->pc = c ? K_ST_OFF : K_BAR1;
            continue;
        case K_ST_OFF:
            gm_emit_mem(in, GM_OP_GLOBAL_ST, c, R_NONE, R_B, R_IDX, 8, 0);
            gm_rod_bcast(in, lp->offset + 8ull * bid);
            break;
        case K_BAR1: case K_BAR2:
            gm_emit(in, GM_OP_BARRIER, e, R_NONE, R_NONE, R_NONE, R_NONE);
            break;
        case K_SETP0: gm_emit(in, GM_OP_ALU, e, R_P, R_T, R_NONE, R_NONE); break;
        case K_BRA0:
            gm_emit(in, GM_OP_BRANCH, e, R_NONE, R_P, R_NONE, R_NONE);
            g->pc = z ? K_LD_OFF2 : K_BAR2;
            continue;
        case K_LD_OFF2:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, z, R_OFF, R_B, R_NONE, 8, 0);
            gm_rod_bcast(in, lp->offset + 8ull * bid);
            break;
        case K_ST_CUR:
            gm_emit_mem(in, GM_OP_GLOBAL_ST, z, R_NONE, R_B, R_OFF, 8, 0);
            gm_rod_bcast(in, lp->curr_knode + 8ull * bid);
            break;
        case K_INC:   gm_emit(in, GM_OP_ALU, e, R_I, R_I, R_NONE, R_NONE); break;
        case K_LSETP: gm_emit(in, GM_OP_ALU, e, R_P, R_I, R_NONE, R_NONE); break;
        case K_LBRA:
            gm_emit(in, GM_OP_BRANCH, e, R_NONE, R_P, R_NONE, R_NONE);
            g->v[0] = ++level;
            cur = descend(t, key, level);
            if (level < t->height) {
                th = match(t, cur, key);
                a = lanes_upto(w, th) & e;
                m = lane_bit(w, th) & e;
                child = t->indices[(size_t)cur * SLOTS + th];
                c = child >= 0 && (uint32_t)child < t->nodes ? m : 0;
            }
            g->pc = level < t->height ? K_LD_CUR : K_F_LD_CUR;
            continue;
        case K_F_SETP: gm_emit(in, GM_OP_ALU, e, R_P, R_K0, R_KEY, R_NONE); break;
        case K_F_BRA:
            gm_emit(in, GM_OP_BRANCH, e, R_NONE, R_P, R_NONE, R_NONE);
            g->pc = found_lane(t, cur, key, w) & e ? K_F_IA : K_EXIT;
            continue;
        case K_F_IA:
            gm_emit(in, GM_OP_ALU, found_lane(t, cur, key, w), R_IA, R_CUR, R_T, R_NONE);
            break;
        case K_F_LD_IDX:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, found_lane(t, cur, key, w), R_IDX, R_IA, R_NONE,
                        4, GM_INST_READ_ONLY);
            node_field(in, lp->knodes, cur, GM_BTREE_INDICES_OFF, w, 0);
            break;
        case K_F_RA:
            gm_emit(in, GM_OP_ALU, found_lane(t, cur, key, w), R_RA, R_IDX, R_NONE, R_NONE);
            break;
        case K_F_LD_REC: {   /* recordsD[indices[thid]].value */
            uint32_t th2 = match(t, cur, key);
            int32_t rec = t->indices[(size_t)cur * SLOTS + th2];
            gm_emit_mem(in, GM_OP_GLOBAL_LD, found_lane(t, cur, key, w), R_REC, R_RA,
                        R_NONE, 4, GM_INST_READ_ONLY);
            gm_rod_bcast(in, lp->records + 4ull * (uint32_t)rec);
            break;
        }
        case K_F_AA:
            gm_emit(in, GM_OP_ALU, found_lane(t, cur, key, w), R_AA, R_B, R_NONE, R_NONE);
            break;
        case K_F_ST_ANS:
            gm_emit_mem(in, GM_OP_GLOBAL_ST, found_lane(t, cur, key, w), R_NONE, R_AA, R_REC,
                        4, 0);
            gm_rod_bcast(in, lp->ans + 4ull * bid);
            break;
        case K_EXIT:
            return gm_gen_exit(g, in, e, K_DONE, n);
        default:   /* not reachable: pc is only ever set above */
            return gm_gen_stop(g, K_DONE, n);
        }
        g->pc++;
    }
    return n;
}

enum {   /* findRangeK program points: S_* for the start key, E_* for the end key */
    Q_S2R_T = 0, Q_S2R_B, Q_I0, Q_GSETP, Q_GBRA,
    S_LD_CUR, S_KA, S_LD_K0, S_LD_KEY, S_SETP1, S_BRA1, S_LD_K1, S_SETP2, S_BRA2,
    S_IA, S_LD_IDX, S_SETP3, S_BRA3, S_ST_OFF,
    E_LD_CUR, E_KA, E_LD_K0, E_LD_KEY, E_SETP1, E_BRA1, E_LD_K1, E_SETP2, E_BRA2,
    E_IA, E_LD_IDX, E_SETP3, E_BRA3, E_ST_OFF,
    Q_BAR1, Q_SETP0, Q_BRA0, Q_LD_OFF, Q_ST_CUR, Q_LD_OFF2, Q_ST_LAST, Q_BAR2,
    Q_INC, Q_LSETP, Q_LBRA,
    FS_LD_CUR, FS_KA, FS_LD_K, FS_LD_KEY, FS_SETP, FS_BRA, FS_IA, FS_LD_IDX, FS_AA, FS_ST,
    Q_BAR3,
    FE_LD_CUR, FE_KA, FE_LD_K, FE_LD_KEY, FE_SETP, FE_BRA, FE_IA, FE_LD_IDX, FE_LD_RS,
    FE_SUB, FE_AA, FE_ST,
    Q_EXIT, Q_DONE
};

/* One of the two descents of findRangeK at one level. */
typedef struct search {
    int32_t key;
    uint32_t node, th, a, m, c;
} search;

static void search_at(const gm_btree_tree *t, int32_t key, uint32_t level, uint32_t w,
                      search *s)
{
    s->key = key;
    s->node = descend(t, key, level);
    s->th = match(t, s->node, key);
    s->a = lanes_upto(w, s->th);
    s->m = lane_bit(w, s->th);
    int32_t child = t->indices[(size_t)s->node * SLOTS + s->th];
    s->c = child >= 0 && (uint32_t)child < t->nodes ? s->m : 0;
}

static int findrange_gen(const gm_kernel *kern, gm_warp_gen *g, gm_inst *out, int max)
{
    const gm_btree_launch *lp = kern->params;
    const gm_btree_tree *t = lp->t;
    uint32_t e = gm_warp_exist_mask(TPB, g->warp), bid = g->cta, w = g->warp;
    uint32_t z = w == 0 ? 1u : 0u;
    int n = 0;

    if (g->pc == Q_DONE)
        return 0;
    uint32_t level = (uint32_t)g->v[0];
    search s[2];
    search_at(t, lp->start[bid], level, w, &s[0]);
    search_at(t, lp->end[bid], level, w, &s[1]);

    while (n < max) {
        gm_inst *in = &out[n++];
        int second = g->pc >= E_LD_CUR && g->pc <= E_ST_OFF;
        int fin2 = g->pc >= FE_LD_CUR && g->pc <= FE_ST;
        const search *q = &s[second || fin2];
        uint64_t curp = (second || fin2 ? lp->last_knode : lp->curr_knode) + 8ull * bid;
        uint64_t offp = (second ? lp->offset_2 : lp->offset) + 8ull * bid;
        uint64_t keyp = (second || fin2 ? lp->end_d : lp->start_d) + 4ull * bid;
        uint8_t rcur = second || fin2 ? R_LAST : R_CUR, rkey = second || fin2 ? R_KEY2 : R_KEY;
        uint32_t step = g->pc - (second ? E_LD_CUR : S_LD_CUR);
        uint32_t f = (g->pc >= FS_LD_CUR ? found_lane(t, q->node, q->key, w) : 0) & e;
        switch (g->pc >= S_LD_CUR && g->pc <= E_ST_OFF ? S_LD_CUR + step : g->pc) {
        case Q_S2R_T: gm_emit(in, GM_OP_ALU, e, R_T, R_NONE, R_NONE, R_NONE); break;
        case Q_S2R_B: gm_emit(in, GM_OP_ALU, e, R_B, R_NONE, R_NONE, R_NONE); break;
        case Q_I0:    gm_emit(in, GM_OP_ALU, e, R_I, R_NONE, R_NONE, R_NONE); break;
        case Q_GSETP: gm_emit(in, GM_OP_ALU, e, R_P, R_I, R_NONE, R_NONE); break;
        case Q_GBRA:
            gm_emit(in, GM_OP_BRANCH, e, R_NONE, R_P, R_NONE, R_NONE);
            g->pc = t->height ? S_LD_CUR : FS_LD_CUR;
            continue;
        /* one descent step (start or end) */
        case S_LD_CUR: case FS_LD_CUR: case FE_LD_CUR:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, e, rcur, R_B, R_NONE, 8, 0);
            gm_rod_bcast(in, curp);
            break;
        case S_KA: case FS_KA: case FE_KA:
            gm_emit(in, GM_OP_ALU, e, R_KA, rcur, R_T, R_NONE);
            break;
        case S_LD_K0: case FS_LD_K: case FE_LD_K:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, e, R_K0, R_KA, R_NONE, 4, GM_INST_READ_ONLY);
            node_field(in, lp->knodes, q->node, GM_BTREE_KEYS_OFF, w, 0);
            break;
        case S_LD_KEY: case FS_LD_KEY: case FE_LD_KEY:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, e, rkey, R_B, R_NONE, 4, GM_INST_READ_ONLY);
            gm_rod_bcast(in, keyp);
            break;
        case S_SETP1: gm_emit(in, GM_OP_ALU, e, R_P, R_K0, rkey, R_NONE); break;
        case S_BRA1:
            gm_emit(in, GM_OP_BRANCH, e, R_NONE, R_P, R_NONE, R_NONE);
            g->pc = (q->a & e) ? g->pc + 1 : second ? Q_BAR1 : E_LD_CUR;
            continue;
        case S_LD_K1:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, q->a & e, R_K1, R_KA, R_NONE, 4,
                        GM_INST_READ_ONLY);
            node_field(in, lp->knodes, q->node, GM_BTREE_KEYS_OFF, w, 1);
            break;
        case S_SETP2: gm_emit(in, GM_OP_ALU, q->a & e, R_P, R_K1, rkey, R_NONE); break;
        case S_BRA2:
            gm_emit(in, GM_OP_BRANCH, q->a & e, R_NONE, R_P, R_NONE, R_NONE);
            g->pc = (q->m & e) ? g->pc + 1 : second ? Q_BAR1 : E_LD_CUR;
            continue;
        case S_IA:    gm_emit(in, GM_OP_ALU, q->m & e, R_IA, rcur, R_T, R_NONE); break;
        case S_LD_IDX:   /* knodesD[currKnodeD[bid]].indices[thid] */
            gm_emit_mem(in, GM_OP_GLOBAL_LD, q->m & e, R_IDX, R_IA, R_NONE, 4,
                        GM_INST_READ_ONLY);
            node_field(in, lp->knodes, q->node, GM_BTREE_INDICES_OFF, w, 0);
            break;
        case S_SETP3: gm_emit(in, GM_OP_ALU, q->m & e, R_P, R_IDX, R_NONE, R_NONE); break;
        case S_BRA3:
            gm_emit(in, GM_OP_BRANCH, q->m & e, R_NONE, R_P, R_NONE, R_NONE);
            g->pc = (q->c & e) ? g->pc + 1 : second ? Q_BAR1 : E_LD_CUR;
            continue;
        case S_ST_OFF:   /* offsetD[bid] or offset_2D[bid] */
            gm_emit_mem(in, GM_OP_GLOBAL_ST, q->c & e, R_NONE, R_B, R_IDX, 8, 0);
            gm_rod_bcast(in, offp);
            break;
        case Q_BAR1: case Q_BAR2: case Q_BAR3:
            gm_emit(in, GM_OP_BARRIER, e, R_NONE, R_NONE, R_NONE, R_NONE);
            break;
        case Q_SETP0: gm_emit(in, GM_OP_ALU, e, R_P, R_T, R_NONE, R_NONE); break;
        case Q_BRA0:
            gm_emit(in, GM_OP_BRANCH, e, R_NONE, R_P, R_NONE, R_NONE);
            g->pc = z ? Q_LD_OFF : Q_BAR2;
            continue;
        case Q_LD_OFF: case Q_LD_OFF2:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, z, R_OFF, R_B, R_NONE, 8, 0);
            gm_rod_bcast(in, (g->pc == Q_LD_OFF ? lp->offset : lp->offset_2) + 8ull * bid);
            break;
        case Q_ST_CUR: case Q_ST_LAST:
            gm_emit_mem(in, GM_OP_GLOBAL_ST, z, R_NONE, R_B, R_OFF, 8, 0);
            gm_rod_bcast(in, (g->pc == Q_ST_CUR ? lp->curr_knode : lp->last_knode) +
                                 8ull * bid);
            break;
        case Q_INC:   gm_emit(in, GM_OP_ALU, e, R_I, R_I, R_NONE, R_NONE); break;
        case Q_LSETP: gm_emit(in, GM_OP_ALU, e, R_P, R_I, R_NONE, R_NONE); break;
        case Q_LBRA:
            gm_emit(in, GM_OP_BRANCH, e, R_NONE, R_P, R_NONE, R_NONE);
            g->v[0] = ++level;
            search_at(t, lp->start[bid], level, w, &s[0]);
            search_at(t, lp->end[bid], level, w, &s[1]);
            g->pc = level < t->height ? S_LD_CUR : FS_LD_CUR;
            continue;
        /* RecstartD[bid] = knodesD[currKnodeD[bid]].indices[thid] */
        case FS_SETP: case FE_SETP:
            gm_emit(in, GM_OP_ALU, e, R_P, R_K0, rkey, R_NONE);
            break;
        case FS_BRA:
            gm_emit(in, GM_OP_BRANCH, e, R_NONE, R_P, R_NONE, R_NONE);
            g->pc = f ? FS_IA : Q_BAR3;
            continue;
        case FS_IA: case FE_IA: gm_emit(in, GM_OP_ALU, f, R_IA, rcur, R_T, R_NONE); break;
        case FS_LD_IDX: case FE_LD_IDX:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, f, R_IDX, R_IA, R_NONE, 4, GM_INST_READ_ONLY);
            node_field(in, lp->knodes, q->node, GM_BTREE_INDICES_OFF, w, 0);
            break;
        case FS_AA: case FE_AA: gm_emit(in, GM_OP_ALU, f, R_AA, R_B, R_NONE, R_NONE); break;
        case FS_ST:
            gm_emit_mem(in, GM_OP_GLOBAL_ST, f, R_NONE, R_AA, R_IDX, 4, 0);
            gm_rod_bcast(in, lp->recstart + 4ull * bid);
            break;
        /* ReclenD[bid] = knodesD[lastKnodeD[bid]].indices[thid] - RecstartD[bid] + 1 */
        case FE_BRA:
            gm_emit(in, GM_OP_BRANCH, e, R_NONE, R_P, R_NONE, R_NONE);
            g->pc = f ? FE_IA : Q_EXIT;
            continue;
        case FE_LD_RS:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, f, R_RS, R_B, R_NONE, 4, 0);
            gm_rod_bcast(in, lp->recstart + 4ull * bid);
            break;
        case FE_SUB: gm_emit(in, GM_OP_ALU, f, R_IDX, R_IDX, R_RS, R_NONE); break;
        case FE_ST:
            gm_emit_mem(in, GM_OP_GLOBAL_ST, f, R_NONE, R_AA, R_IDX, 4, 0);
            gm_rod_bcast(in, lp->reclen + 4ull * bid);
            break;
        case Q_EXIT:
            return gm_gen_exit(g, in, e, Q_DONE, n);
        default:   /* not reachable: pc is only ever set above */
            return gm_gen_stop(g, Q_DONE, n);
        }
        g->pc++;
    }
    return n;
}

/* ---------------------------------------------------------------- build */

/* Every piece of the workload in one block (w->priv). */
typedef struct btree_data {
    gm_btree_tree tree;
    gm_btree_launch launch[2];
} btree_data;

int gm_btree_build_dims(gm_workload *w, uint32_t size, uint32_t range_count,
                        uint32_t range_size, uint32_t find_count, uint64_t seed,
                        gm_error *err)
{
    if (size < 2 || size > (1u << 26) || !range_count || range_count > 65535 ||
        range_size > size || !find_count || find_count > 65535)
        return gm_fail(err, "btree: bad command: %u records, j %u %u, k %u", size,
                       range_count, range_size, find_count);

    /* the keys: a seeded permutation of 0..size-1, inserted in that order */
    int32_t *perm = malloc(size * sizeof *perm);
    btree bt = {NULL, 0, 0, -1};
    int rc = perm ? 0 : -1;
    gm_prng r;
    gm_prng_seed(&r, seed, 0xb7);
    for (uint32_t i = 0; !rc && i < size; i++)
        perm[i] = (int32_t)i;
    for (uint32_t i = size - 1; !rc && i > 0; i--) {
        uint32_t j = (uint32_t)gm_prng_below(&r, i + 1);
        int32_t x = perm[i];
        perm[i] = perm[j];
        perm[j] = x;
    }
    for (uint32_t i = 0; !rc && i < size; i++)
        rc = insert(&bt, perm[i]);
    free(perm);
    if (rc) {
        free(bt.node);
        return gm_fail(err, "btree: out of memory");
    }

    uint32_t nodes = bt.n;
    size_t slots = (size_t)nodes * SLOTS;
    size_t bytes = sizeof(btree_data) + 2 * slots * sizeof(int32_t) +
                   ((size_t)2 * range_count + find_count) * sizeof(int32_t) +
                   nodes * (sizeof(uint8_t) + sizeof(uint16_t)) + 8;
    int32_t *queue = malloc(nodes * sizeof *queue);
    if (!queue || gm_workload_alloc(w, "btree", 2, bytes, err)) {
        free(bt.node);
        free(queue);
        return queue ? -1 : gm_fail(err, "btree: out of memory");
    }
    btree_data *d = w->priv;
    int32_t *keys = (int32_t *)(d + 1), *indices = keys + slots;
    int32_t *qs = indices + slots, *qe = qs + range_count, *qk = qe + range_count;
    uint16_t *num_keys = (uint16_t *)(qk + find_count);
    uint8_t *is_leaf = (uint8_t *)(num_keys + nodes);
    transform(&bt, keys, indices, is_leaf, num_keys, queue);
    uint32_t height = 0;
    for (int32_t c = bt.root; !bt.node[c].is_leaf; c = bt.node[c].child[0])
        height++;
    free(queue);
    free(bt.node);

    gm_btree_tree *t = &d->tree;
    t->size = size;
    t->nodes = nodes;
    t->height = height;
    t->keys = keys;
    t->indices = indices;
    t->is_leaf = is_leaf;
    t->num_keys = num_keys;

    /* command file: j range_count range_size, then k find_count */
    for (uint32_t i = 0; i < range_count; i++) {
        int64_t s = (int64_t)gm_prng_below(&r, size), e = s + range_size;
        if (e >= size) {
            s -= e - size;
            e = size - 1;
        }
        qs[i] = (int32_t)s;
        qe[i] = (int32_t)e;
    }
    for (uint32_t i = 0; i < find_count; i++)
        qk[i] = (int32_t)gm_prng_below(&r, size);

    uint64_t knodes_bytes = (uint64_t)nodes * KB;
    gm_btree_launch *j = &d->launch[0], *k = &d->launch[1];
    gm_devmem mem;
    gm_devmem_init(&mem);
    j->t = t;
    j->range = 1;
    j->count = range_count;
    j->rsize = range_size;
    j->start = qs;
    j->end = qe;
    j->knodes = gm_devmem_alloc(&mem, knodes_bytes);
    j->curr_knode = gm_devmem_alloc(&mem, 8ull * range_count);
    j->offset = gm_devmem_alloc(&mem, 8ull * range_count);
    j->last_knode = gm_devmem_alloc(&mem, 8ull * range_count);
    j->offset_2 = gm_devmem_alloc(&mem, 8ull * range_count);
    j->start_d = gm_devmem_alloc(&mem, 4ull * range_count);
    j->end_d = gm_devmem_alloc(&mem, 4ull * range_count);
    j->recstart = gm_devmem_alloc(&mem, 4ull * range_count);
    j->reclen = gm_devmem_alloc(&mem, 4ull * range_count);

    gm_devmem_init(&mem);   /* the j wrapper freed everything */
    k->t = t;
    k->range = 0;
    k->count = find_count;
    k->start = qk;
    k->records = gm_devmem_alloc(&mem, 4ull * size);
    k->knodes = gm_devmem_alloc(&mem, knodes_bytes);
    k->curr_knode = gm_devmem_alloc(&mem, 8ull * find_count);
    k->offset = gm_devmem_alloc(&mem, 8ull * find_count);
    k->keys_d = gm_devmem_alloc(&mem, 4ull * find_count);
    k->ans = gm_devmem_alloc(&mem, 4ull * find_count);

    gm_kernel_set(&w->kernels[0], "findRangeK", gm_dim3_make(range_count, 1, 1),
                  gm_dim3_make(TPB, 1, 1), j, findrange_gen);
    gm_kernel_set(&w->kernels[1], "findK", gm_dim3_make(find_count, 1, 1),
                  gm_dim3_make(TPB, 1, 1), k, findk_gen);
    return 0;
}

int gm_btree_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err)
{
    /* standard: mil.txt (1,000,000 keys), `j 6000 3000`, `k 10000` */
    static const uint32_t records[] = {65536, 262144, 1000000, 262144};
    static const uint32_t jcount[] = {100, 1000, 6000, 1000}, jsize[] = {200, 800, 3000, 800};
    static const uint32_t kcount[] = {200, 2000, 10000, 2000};

    if ((unsigned)size > GM_SIZE_FILL)
        return gm_fail(err, "btree: bad size %d", (int)size);
    return gm_btree_build_dims(w, records[size], jcount[size], jsize[size], kcount[size],
                               seed, err);
}
