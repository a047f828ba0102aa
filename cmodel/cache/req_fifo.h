/* gm_req_fifo: a first-in first-out list of requests linked through
 * gm_req.next. Costs no memory of its own, so a block can hold any number
 * of requests in order (a cache's hit pipeline, its completed requests). A
 * request is in at most one such list at a time: pushing overwrites next. */
#ifndef GM_CACHE_REQ_FIFO_H
#define GM_CACHE_REQ_FIFO_H

#include <stdbool.h>

#include "sim/req.h"

typedef struct gm_req_fifo {
    gm_req *head;   /* oldest, NULL when empty */
    gm_req *tail;
} gm_req_fifo;

static inline bool gm_req_fifo_empty(const gm_req_fifo *f)
{
    return !f->head;
}

static inline void gm_req_fifo_push(gm_req_fifo *f, gm_req *r)
{
    r->next = 0;
    if (f->tail)
        f->tail->next = r;
    else
        f->head = r;
    f->tail = r;
}

/* Removes and returns the oldest request, or NULL when empty. */
static inline gm_req *gm_req_fifo_pop(gm_req_fifo *f)
{
    gm_req *r = f->head;
    if (r) {
        f->head = r->next;
        if (!f->head)
            f->tail = 0;
        r->next = 0;
    }
    return r;
}

#endif
