/* Rodinia 3.1 BFS (gpu-app-collection src/cuda/rodinia/3.1/cuda/bfs/
 * {bfs.cu,kernel.cu,kernel2.cu}) as an address-stream emulator.
 *
 * Kernel (tid = blockIdx.x*512 + threadIdx.x):
 *   if (tid < no_of_nodes && g_graph_mask[tid]) {
 *       g_graph_mask[tid] = false;
 *       for (i = g_graph_nodes[tid].starting;
 *            i < g_graph_nodes[tid].no_of_edges + g_graph_nodes[tid].starting; i++) {
 *           id = g_graph_edges[i];
 *           if (!g_graph_visited[id]) {
 *               g_cost[id] = g_cost[tid] + 1;  g_updating_graph_mask[id] = true;
 *           }
 *       }
 *   }
 * Kernel2:
 *   if (tid < no_of_nodes && g_updating_graph_mask[tid]) {
 *       g_graph_mask[tid] = true; g_graph_visited[tid] = true; *g_over = true;
 *       g_updating_graph_mask[tid] = false;
 *   }
 * Host: do { Kernel; Kernel2; } while (over), grid ceil(n/512) x 512.
 *
 * The graph is built from the seed with Rodinia graphgen's distribution
 * (inputGen/graphgen.cpp): node i in order draws 2..4 edges to uniformly
 * random nodes (self loops and repeats allowed), each stored in both
 * directions; a node's edge list is in the order the edges were drawn
 * (graph[i].push_back(j) then graph[j].push_back(i)). The host runs the BFS
 * from node 0 once, so every launch's frontier is known: in trip L the
 * mask holds the nodes at level L, a neighbour is unvisited exactly when
 * it is at level L+1, and Kernel2 of trip L finds the level L+1 nodes in
 * updating. The host loop runs depth+1 trips (the last finds nothing).
 *
 * g_cost is int and may alias Node's int fields, so after a store to
 * g_cost the loop bound must be read again: the loop test loads both
 * fields of the Node in every trip. Widths: Node fields, edges and cost
 * 4 B; the bool arrays and *over 1 B. cudaMalloc order: nodes, edges,
 * mask, updating, visited, cost, over. Read-only in Kernel: nodes, edges,
 * visited; Kernel2 loads only updating, which it also stores. */
#include "workload/kernels/kernels_rodinia.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sim/prng.h"
#include "workload/build.h"
#include "workload/kernels/gen_exit.h"

#define TPB GM_BFS_THREADS
#define PRNG_ID 0xbf5u

enum {   /* registers */
    R_TX, R_BX, R_TID, R_P, R_MA, R_M, R_NA, R_I, R_DEG, R_ST, R_END, R_EA, R_ID, R_VA,
    R_V, R_C, R_CA, R_U, R_ONE
};

enum {   /* Kernel program points */
    A_S2R_TX = 0, A_S2R_BX, A_TID, A_GUARD, A_GBRA,
    A_MA, A_LDM, A_MSETP, A_MBRA,
    A_STM, A_NA, A_LDS,
    A_LDD, A_LDS2, A_END, A_LSETP, A_LBRA,
    A_EA, A_LDE, A_VA, A_LDV, A_VSETP, A_VBRA,
    A_LDC, A_ADD, A_CA, A_STC, A_STU,
    A_INC,
    A_EXIT, A_DONE
};

enum {   /* Kernel2 program points */
    B_S2R_TX = 0, B_S2R_BX, B_TID, B_GUARD, B_GBRA,
    B_UA, B_LDU, B_USETP, B_UBRA,
    B_ONE, B_STM, B_STV, B_STO, B_STU,
    B_EXIT, B_DONE
};

typedef struct lanes {
    uint32_t in;        /* tid < no_of_nodes */
    uint32_t front;     /* in the frontier: mask[tid] */
    uint32_t next;      /* at the next level: updating[tid] in Kernel2 */
    uint32_t tid0;
    uint32_t start[GM_WARP_SIZE], deg[GM_WARP_SIZE];
} lanes;

static void lanes_compute(const gm_bfs_launch *lp, const gm_warp_gen *g, lanes *L)
{
    const gm_bfs_graph *gr = lp->g;
    L->tid0 = g->cta * TPB + g->warp * GM_WARP_SIZE;
    L->in = L->front = L->next = 0;
    for (uint32_t l = 0; l < GM_WARP_SIZE; l++) {
        uint32_t tid = L->tid0 + l;
        L->start[l] = L->deg[l] = 0;
        if (tid >= gr->n)
            continue;
        L->in |= 1u << l;
        if (gr->level[tid] == lp->level) {
            L->front |= 1u << l;
            L->start[l] = gr->start[tid];
            L->deg[l] = gr->start[tid + 1] - gr->start[tid];
        }
        if (gr->level[tid] == lp->level + 1)
            L->next |= 1u << l;
    }
}

/* Frontier lanes still in the edge loop in trip t. */
static uint32_t trip_mask(const lanes *L, uint32_t t)
{
    uint32_t m = 0;
    for (uint32_t l = 0; l < GM_WARP_SIZE; l++)
        if ((L->front >> l & 1) && L->deg[l] > t)
            m |= 1u << l;
    return m;
}

/* Lanes of a whose trip-t neighbour is not visited yet. */
static uint32_t unvisited_mask(const gm_bfs_launch *lp, const lanes *L, uint32_t a, uint32_t t)
{
    uint32_t m = 0;
    for (uint32_t l = 0; l < GM_WARP_SIZE; l++)
        if ((a >> l & 1) && lp->g->level[lp->g->adj[L->start[l] + t]] == lp->level + 1)
            m |= 1u << l;
    return m;
}

static void byte_addr(gm_inst *in, uint64_t base, uint32_t tid0)
{
    for (uint32_t l = 0; l < GM_WARP_SIZE; l++)
        in->addr[l] = (in->mask >> l & 1) ? base + tid0 + l : 0;
}

static int kernel1_gen(const gm_kernel *kern, gm_warp_gen *g, gm_inst *out, int max)
{
    const gm_bfs_launch *lp = kern->params;
    const gm_bfs_graph *gr = lp->g;
    lanes L;
    int n = 0;

    if (g->pc == A_DONE)
        return 0;
    lanes_compute(lp, g, &L);
    uint32_t e = gm_warp_exist_mask(gm_kernel_threads_per_cta(kern), g->warp);
    uint32_t t_in = L.in & e, f = L.front & e;
    /* trip t of the edge loop; lanes in it (a), lanes that evaluated its
     * test (c), lanes whose neighbour is unvisited (u, from A_VBRA on) */
    uint32_t t = (uint32_t)g->v[0], u = (uint32_t)g->v[1];
    uint32_t a = (uint32_t)g->v[2], c = (uint32_t)g->v[3];

    while (n < max) {
        gm_inst *in = &out[n++];
        switch (g->pc) {
        case A_S2R_TX: gm_emit(in, GM_OP_ALU, e, R_TX, R_NONE, R_NONE, R_NONE); break;
        case A_S2R_BX: gm_emit(in, GM_OP_ALU, e, R_BX, R_NONE, R_NONE, R_NONE); break;
        case A_TID:    gm_emit(in, GM_OP_ALU, e, R_TID, R_BX, R_TX, R_NONE); break;
        case A_GUARD:  gm_emit(in, GM_OP_ALU, e, R_P, R_TID, R_NONE, R_NONE); break;
        case A_GBRA:
            gm_emit(in, GM_OP_BRANCH, e, R_NONE, R_P, R_NONE, R_NONE);
            g->pc = t_in ? A_MA : A_EXIT;
            continue;
        case A_MA:  gm_emit(in, GM_OP_ALU, t_in, R_MA, R_TID, R_NONE, R_NONE); break;
        case A_LDM:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, t_in, R_M, R_MA, R_NONE, 1, 0);
            byte_addr(in, gr->mask, L.tid0);
            break;
        case A_MSETP: gm_emit(in, GM_OP_ALU, t_in, R_P, R_M, R_NONE, R_NONE); break;
        case A_MBRA:
            gm_emit(in, GM_OP_BRANCH, t_in, R_NONE, R_P, R_NONE, R_NONE);
            g->pc = f ? A_STM : A_EXIT;
            continue;
        case A_STM:
            gm_emit_mem(in, GM_OP_GLOBAL_ST, f, R_NONE, R_MA, R_NONE, 1, 0);
            byte_addr(in, gr->mask, L.tid0);
            break;
        case A_NA:
            gm_emit(in, GM_OP_ALU, f, R_NA, R_TID, R_NONE, R_NONE);
            g->v[2] = a = trip_mask(&L, 0);
            g->v[3] = c = f;
            break;
        case A_LDS: case A_LDS2: case A_LDD: {
            int deg = g->pc == A_LDD;
            uint32_t m = g->pc == A_LDS ? f : c;
            gm_emit_mem(in, GM_OP_GLOBAL_LD, m,
                        g->pc == A_LDS ? R_I : deg ? R_DEG : R_ST, R_NA, R_NONE, 4,
                        GM_INST_READ_ONLY);
            for (uint32_t l = 0; l < GM_WARP_SIZE; l++)
                in->addr[l] = (m >> l & 1) ? gr->nodes + 8ull * (L.tid0 + l) + 4 * deg : 0;
            break;
        }
        case A_END:   gm_emit(in, GM_OP_ALU, c, R_END, R_DEG, R_ST, R_NONE); break;
        case A_LSETP: gm_emit(in, GM_OP_ALU, c, R_P, R_I, R_END, R_NONE); break;
        case A_LBRA:
            gm_emit(in, GM_OP_BRANCH, c, R_NONE, R_P, R_NONE, R_NONE);
            g->pc = a ? A_EA : A_EXIT;
            continue;
        case A_EA:  gm_emit(in, GM_OP_ALU, a, R_EA, R_I, R_NONE, R_NONE); break;
        case A_LDE:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, a, R_ID, R_EA, R_NONE, 4, GM_INST_READ_ONLY);
            for (uint32_t l = 0; l < GM_WARP_SIZE; l++)
                in->addr[l] = (a >> l & 1) ? gr->edges + 4ull * (L.start[l] + t) : 0;
            break;
        case A_VA:  gm_emit(in, GM_OP_ALU, a, R_VA, R_ID, R_NONE, R_NONE); break;
        case A_LDV:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, a, R_V, R_VA, R_NONE, 1, GM_INST_READ_ONLY);
            for (uint32_t l = 0; l < GM_WARP_SIZE; l++)
                in->addr[l] = (a >> l & 1) ? gr->visited + gr->adj[L.start[l] + t] : 0;
            break;
        case A_VSETP: gm_emit(in, GM_OP_ALU, a, R_P, R_V, R_NONE, R_NONE); break;
        case A_VBRA:
            gm_emit(in, GM_OP_BRANCH, a, R_NONE, R_P, R_NONE, R_NONE);
            g->v[1] = u = unvisited_mask(lp, &L, a, t);
            g->pc = u ? A_LDC : A_INC;
            continue;
        case A_LDC:   /* g_cost[tid] */
            gm_emit_mem(in, GM_OP_GLOBAL_LD, u, R_C, R_TID, R_NONE, 4, 0);
            for (uint32_t l = 0; l < GM_WARP_SIZE; l++)
                in->addr[l] = (u >> l & 1) ? gr->cost + 4ull * (L.tid0 + l) : 0;
            break;
        case A_ADD: gm_emit(in, GM_OP_ALU, u, R_C, R_C, R_NONE, R_NONE); break;
        case A_CA:  gm_emit(in, GM_OP_ALU, u, R_CA, R_ID, R_NONE, R_NONE); break;
        case A_STC: case A_STU: {   /* g_cost[id], g_updating_graph_mask[id] */
            int cost = g->pc == A_STC;
            gm_emit_mem(in, GM_OP_GLOBAL_ST, u, R_NONE, cost ? R_CA : R_VA,
                        cost ? R_C : R_NONE, cost ? 4 : 1, 0);
            for (uint32_t l = 0; l < GM_WARP_SIZE; l++) {
                uint64_t id = gr->adj[L.start[l] + t];
                in->addr[l] = (u >> l & 1) ? (cost ? gr->cost + 4 * id : gr->updating + id)
                                           : 0;
            }
            break;
        }
        case A_INC:
            gm_emit(in, GM_OP_ALU, a, R_I, R_I, R_NONE, R_NONE);
            g->v[0] = ++t;
            g->v[3] = c = a;
            g->v[2] = a = trip_mask(&L, t);
            g->pc = A_LDD;
            continue;
        case A_EXIT:
            return gm_gen_exit(g, in, e, A_DONE, n);
        default:   /* not reachable: pc is only ever set above */
            return gm_gen_stop(g, A_DONE, n);
        }
        g->pc++;
    }
    return n;
}

static int kernel2_gen(const gm_kernel *kern, gm_warp_gen *g, gm_inst *out, int max)
{
    const gm_bfs_launch *lp = kern->params;
    const gm_bfs_graph *gr = lp->g;
    lanes L;
    int n = 0;

    if (g->pc == B_DONE)
        return 0;
    lanes_compute(lp, g, &L);
    uint32_t e = gm_warp_exist_mask(gm_kernel_threads_per_cta(kern), g->warp);
    uint32_t t_in = L.in & e, u = L.next & e;

    while (n < max) {
        gm_inst *in = &out[n++];
        switch (g->pc) {
        case B_S2R_TX: gm_emit(in, GM_OP_ALU, e, R_TX, R_NONE, R_NONE, R_NONE); break;
        case B_S2R_BX: gm_emit(in, GM_OP_ALU, e, R_BX, R_NONE, R_NONE, R_NONE); break;
        case B_TID:    gm_emit(in, GM_OP_ALU, e, R_TID, R_BX, R_TX, R_NONE); break;
        case B_GUARD:  gm_emit(in, GM_OP_ALU, e, R_P, R_TID, R_NONE, R_NONE); break;
        case B_GBRA:
            gm_emit(in, GM_OP_BRANCH, e, R_NONE, R_P, R_NONE, R_NONE);
            g->pc = t_in ? B_UA : B_EXIT;
            continue;
        case B_UA:  gm_emit(in, GM_OP_ALU, t_in, R_MA, R_TID, R_NONE, R_NONE); break;
        case B_LDU:
            gm_emit_mem(in, GM_OP_GLOBAL_LD, t_in, R_U, R_MA, R_NONE, 1, 0);
            byte_addr(in, gr->updating, L.tid0);
            break;
        case B_USETP: gm_emit(in, GM_OP_ALU, t_in, R_P, R_U, R_NONE, R_NONE); break;
        case B_UBRA:
            gm_emit(in, GM_OP_BRANCH, t_in, R_NONE, R_P, R_NONE, R_NONE);
            g->pc = u ? B_ONE : B_EXIT;
            continue;
        case B_ONE: gm_emit(in, GM_OP_ALU, u, R_ONE, R_NONE, R_NONE, R_NONE); break;
        case B_STM:
            gm_emit_mem(in, GM_OP_GLOBAL_ST, u, R_NONE, R_MA, R_ONE, 1, 0);
            byte_addr(in, gr->mask, L.tid0);
            break;
        case B_STV:
            gm_emit_mem(in, GM_OP_GLOBAL_ST, u, R_NONE, R_MA, R_ONE, 1, 0);
            byte_addr(in, gr->visited, L.tid0);
            break;
        case B_STO:
            gm_emit_mem(in, GM_OP_GLOBAL_ST, u, R_NONE, R_NONE, R_ONE, 1, 0);
            gm_rod_bcast(in, gr->over);
            break;
        case B_STU:
            gm_emit_mem(in, GM_OP_GLOBAL_ST, u, R_NONE, R_MA, R_NONE, 1, 0);
            byte_addr(in, gr->updating, L.tid0);
            break;
        case B_EXIT:
            return gm_gen_exit(g, in, e, B_DONE, n);
        default:   /* not reachable: pc is only ever set above */
            return gm_gen_stop(g, B_DONE, n);
        }
        g->pc++;
    }
    return n;
}

/* Draws graphgen's edges: pass 0 counts degrees, pass 1 fills the lists
 * (pos[] = next free slot of each node); the same seed gives the same
 * draws in both passes. */
static void draw_edges(uint32_t n, uint64_t seed, uint32_t *deg, uint32_t *pos, uint32_t *adj)
{
    gm_prng r;
    gm_prng_seed(&r, seed, PRNG_ID);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t ne = 2 + (uint32_t)gm_prng_below(&r, 3);   /* MIN_EDGES..MAX_INIT_EDGES */
        for (uint32_t k = 0; k < ne; k++) {
            uint32_t j = (uint32_t)gm_prng_below(&r, n);
            if (adj) {
                adj[pos[i]++] = j;
                adj[pos[j]++] = i;
            } else {
                deg[i]++;
                deg[j]++;
            }
        }
    }
}

/* BFS from node 0: level[] and the number of levels. */
static uint32_t bfs_levels(uint32_t n, const uint32_t *start, const uint32_t *adj,
                           uint16_t *level, uint32_t *queue)
{
    uint32_t head = 0, tail = 0, depth = 0;
    for (uint32_t i = 0; i < n; i++)
        level[i] = GM_BFS_UNREACHED;
    level[0] = 0;
    queue[tail++] = 0;
    while (head < tail) {
        uint32_t v = queue[head++];
        for (uint32_t k = start[v]; k < start[v + 1]; k++) {
            uint32_t u = adj[k];
            if (level[u] == GM_BFS_UNREACHED) {
                level[u] = (uint16_t)(level[v] + 1);
                depth = level[u] > depth ? level[u] : depth;
                queue[tail++] = u;
            }
        }
    }
    return depth + 1;
}

int gm_bfs_build_dims(gm_workload *w, uint32_t nodes, uint64_t seed, gm_error *err)
{
    if (nodes < 2 || nodes > (1u << 24))
        return gm_fail(err, "bfs: bad graph size %u nodes", nodes);
    /* temporaries: degrees, then start (n + 1), the edge list, levels, queue */
    uint32_t *start = calloc((size_t)nodes + 1, sizeof *start);
    uint32_t *pos = calloc(nodes, sizeof *pos);
    uint16_t *level = malloc(nodes * sizeof *level);
    if (!start || !pos || !level) {
        free(start);
        free(pos);
        free(level);
        return gm_fail(err, "bfs: out of memory");
    }
    draw_edges(nodes, seed, start + 1, NULL, NULL);
    for (uint32_t i = 0; i < nodes; i++)
        start[i + 1] += start[i];
    uint32_t nedges = start[nodes];
    uint32_t *adj = malloc((size_t)nedges * sizeof *adj);
    if (!adj) {
        free(start);
        free(pos);
        free(level);
        return gm_fail(err, "bfs: out of memory");
    }
    memcpy(pos, start, nodes * sizeof *pos);
    draw_edges(nodes, seed, NULL, pos, adj);
    uint32_t levels = bfs_levels(nodes, start, adj, level, pos);   /* pos: the queue */
    free(pos);

    /* one block: graph header, launches, start, adj, level */
    size_t bytes = sizeof(gm_bfs_graph) + 2 * (size_t)levels * sizeof(gm_bfs_launch) +
                   ((size_t)nodes + 1 + nedges) * sizeof(uint32_t) + nodes * sizeof(uint16_t);
    if (gm_workload_alloc(w, "bfs", 2 * levels, bytes, err)) {
        free(start);
        free(adj);
        free(level);
        return -1;
    }
    gm_bfs_graph *gr = w->priv;
    gm_bfs_launch *launch = (gm_bfs_launch *)(gr + 1);
    uint32_t *s = (uint32_t *)(launch + 2 * levels);
    uint32_t *a = s + nodes + 1;
    uint16_t *lv = (uint16_t *)(a + nedges);
    memcpy(s, start, ((size_t)nodes + 1) * sizeof *s);
    memcpy(a, adj, (size_t)nedges * sizeof *a);
    memcpy(lv, level, nodes * sizeof *lv);
    free(start);
    free(adj);
    free(level);

    gm_devmem mem;
    gm_devmem_init(&mem);
    gr->n = nodes;
    gr->nedges = nedges;
    gr->levels = levels;
    gr->start = s;
    gr->adj = a;
    gr->level = lv;
    gr->nodes = gm_devmem_alloc(&mem, 8ull * nodes);   /* struct Node */
    gr->edges = gm_devmem_alloc(&mem, 4ull * nedges);
    gr->mask = gm_devmem_alloc(&mem, nodes);
    gr->updating = gm_devmem_alloc(&mem, nodes);
    gr->visited = gm_devmem_alloc(&mem, nodes);
    gr->cost = gm_devmem_alloc(&mem, 4ull * nodes);
    gr->over = gm_devmem_alloc(&mem, 1);
    gm_dim3 grid = gm_dim3_make((nodes + TPB - 1) / TPB, 1, 1);
    gm_dim3 block = gm_dim3_make(nodes < TPB ? nodes : TPB, 1, 1);
    for (uint32_t l = 0; l < levels; l++) {
        launch[2 * l].g = launch[2 * l + 1].g = gr;
        launch[2 * l].level = launch[2 * l + 1].level = l;
        gm_kernel_set(&w->kernels[2 * l], "Kernel", grid, block, &launch[2 * l], kernel1_gen);
        gm_kernel_set(&w->kernels[2 * l + 1], "Kernel2", grid, block, &launch[2 * l + 1],
                      kernel2_gen);
    }
    return 0;
}

int gm_bfs_build(gm_workload *w, gm_size size, uint64_t seed, gm_error *err)
{
    /* graph4096, graph65536 and graph1MW_6 (1,000,000 nodes) */
    static const uint32_t nodes[] = {4096, 65536, 1000000, 65536};

    if ((unsigned)size > GM_SIZE_FILL)
        return gm_fail(err, "bfs: bad size %d", (int)size);
    return gm_bfs_build_dims(w, nodes[size], seed, err);
}
