#include "sim/req.h"

#include <stdlib.h>
#include <string.h>

#define CHUNK_REQS 4096u

static const char *const loc_names[GM_LOC_COUNT] = {
    [GM_LOC_FREE] = "free",
    [GM_LOC_CORE] = "core LD/ST unit",
    [GM_LOC_L1] = "L1 pipeline/MSHR",
    [GM_LOC_L1_MISSQ] = "L1 miss queue",
    [GM_LOC_NOC_REQ] = "request network",
    [GM_LOC_L2_IN] = "L2 input queue",
    [GM_LOC_L2] = "L2 pipeline/MSHR",
    [GM_LOC_DRAM] = "DRAM controller",
    [GM_LOC_L2_OUT] = "L2 reply queue",
    [GM_LOC_NOC_REP] = "reply network",
    [GM_LOC_CORE_REPLY] = "core reply path",
    [GM_LOC_NODE] = "L1-level node",
};

static const char *const kind_names[GM_REQ_KIND_COUNT] = {
    "load", "store", "atomic", "non-L1", "writeback",
};

const char *gm_loc_name(gm_loc loc)
{
    return loc < GM_LOC_COUNT ? loc_names[loc] : "?";
}

const char *gm_req_kind_name(gm_req_kind kind)
{
    return kind < GM_REQ_KIND_COUNT ? kind_names[kind] : "?";
}

void gm_req_pool_init(gm_req_pool *p)
{
    memset(p, 0, sizeof *p);
}

void gm_req_pool_free(gm_req_pool *p)
{
    for (uint32_t i = 0; i < p->nchunks; i++)
        free(p->chunks[i]);
    free(p->chunks);
    memset(p, 0, sizeof *p);
}

static int pool_grow(gm_req_pool *p)
{
    gm_req **chunks = realloc(p->chunks, (p->nchunks + 1) * sizeof *chunks);
    if (!chunks)
        return -1;
    p->chunks = chunks;
    gm_req *c = calloc(CHUNK_REQS, sizeof *c);
    if (!c)
        return -1;
    p->chunks[p->nchunks++] = c;
    /* Thread in reverse so allocation order follows memory order. */
    for (uint32_t i = CHUNK_REQS; i-- > 0;) {
        c[i].next = p->free_list;
        p->free_list = &c[i];
    }
    return 0;
}

gm_req *gm_req_alloc(gm_req_pool *p, gm_time now)
{
    if (!p->free_list && pool_grow(p) != 0)
        return 0;
    gm_req *r = p->free_list;
    p->free_list = r->next;
    memset(r, 0, sizeof *r);
    r->id = ++p->next_id;
    r->t_create = now;
    r->t_loc = now;
    r->loc = GM_LOC_CORE;
    p->allocated++;
    p->live++;
    return r;
}

void gm_req_release(gm_req_pool *p, gm_req *r)
{
    r->loc = GM_LOC_FREE;
    r->next = p->free_list;
    p->free_list = r;
    p->completed++;
    p->live--;
}

void gm_req_pool_foreach_live(const gm_req_pool *p,
                              void (*fn)(const gm_req *, void *), void *arg)
{
    for (uint32_t c = 0; c < p->nchunks; c++)
        for (uint32_t i = 0; i < CHUNK_REQS; i++)
            if (p->chunks[c][i].loc != GM_LOC_FREE)
                fn(&p->chunks[c][i], arg);
}
