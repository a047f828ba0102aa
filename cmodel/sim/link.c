#include "sim/link.h"

#include <assert.h>
#include <stdlib.h>

int gm_link_init(gm_link *l, uint32_t cap, uint32_t latency,
                 const gm_clock_domain *consumer)
{
    *l = (gm_link){0};
    l->item = calloc(cap, sizeof *l->item);
    l->ready = calloc(cap, sizeof *l->ready);
    if (!l->item || !l->ready) {
        gm_link_free(l);
        return -1;
    }
    l->cap = cap;
    l->latency = latency;
    l->consumer = consumer;
    l->last_pop_time = UINT64_MAX;
    return 0;
}

void gm_link_free(gm_link *l)
{
    free(l->item);
    free(l->ready);
    l->item = 0;
    l->ready = 0;
}

void gm_link_push(gm_link *l, void *it, gm_time now)
{
    assert(gm_link_can_push(l, now));
    uint32_t tail = (l->head + l->count) % l->cap;
    l->item[tail] = it;
    l->ready[tail] = gm_clock_edge_after(l->consumer, now, l->latency);
    l->count++;
    l->pushes++;
}

void *gm_link_pop(gm_link *l, gm_time now)
{
    void *it = l->item[l->head];
    l->head = (l->head + 1) % l->cap;
    l->count--;
    if (l->last_pop_time == now) {
        l->pops_at_last_time++;
    } else {
        l->last_pop_time = now;
        l->pops_at_last_time = 1;
    }
    return it;
}

int gm_link_array_new(gm_link **out, uint32_t n, uint32_t cap, uint32_t latency,
                      const gm_clock_domain *consumer, gm_error *err)
{
    *out = calloc(n ? n : 1, sizeof **out);
    if (!*out)
        return gm_fail(err, "out of memory");
    for (uint32_t i = 0; i < n; i++)
        if (gm_link_init(&(*out)[i], cap, latency, consumer) != 0) {
            gm_link_array_free(*out, i);
            *out = NULL;
            return gm_fail(err, "out of memory");
        }
    return 0;
}

void gm_link_array_free(gm_link *l, uint32_t n)
{
    if (!l)
        return;
    for (uint32_t i = 0; i < n; i++)
        gm_link_free(&l[i]);
    free(l);
}

int gm_link_array_check_empty(const gm_link *l, uint32_t n, const char *what, gm_error *err)
{
    for (uint32_t i = 0; i < n; i++)
        if (!gm_link_empty(&l[i]))
            return gm_fail(err, "drain check: %s link %u still holds %u items", what, i,
                           l[i].count);
    return 0;
}
