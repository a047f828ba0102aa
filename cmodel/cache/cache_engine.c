#include "cache/cache_engine.h"

#include <assert.h>

int gm_cache_engine_bind(gm_cache_engine *e, const gm_cache_cfg *cfg, gm_residency *res,
                         gm_tag_array *tags, gm_mshr *mshr, gm_cache_stats *st,
                         gm_error *err)
{
    *e = (gm_cache_engine){0};
    if (cfg->port_bytes == 0)
        return gm_fail(err, "cache data port must be at least 1 byte wide");
    e->tags = tags;
    e->mshr = mshr;
    e->st = st;
    e->res = res;
    e->latency = cfg->latency;
    e->sectored = cfg->sectored != 0;
    /* A sector is a quarter line; the port moves port_bytes per cycle. */
    uint32_t sector_bytes = tags->line_bytes / GM_TAG_SECTORS;
    e->sector_bytes = sector_bytes;
    for (uint32_t n = 0; n <= GM_TAG_SECTORS; n++)
        e->port_cycles[n] = (n * sector_bytes + cfg->port_bytes - 1) / cfg->port_bytes;
    return 0;
}

int gm_cache_engine_init(gm_cache_engine *e, const gm_cache_cfg *cfg, gm_residency *res,
                         gm_tag_array *tags, gm_mshr *mshr, gm_cache_stats *st,
                         gm_error *err)
{
    *e = (gm_cache_engine){0};
    if (gm_tag_array_init(tags, cfg->size_bytes, cfg->line_bytes, cfg->assoc, err))
        return -1;
    if (gm_mshr_init(mshr, cfg->mshr_entries, cfg->mshr_merge, err) ||
        gm_cache_engine_bind(e, cfg, res, tags, mshr, st, err)) {
        gm_tag_array_free(tags);
        gm_mshr_free(mshr);
        *e = (gm_cache_engine){0};
        return -1;
    }
    e->owns_storage = true;
    return 0;
}

void gm_cache_engine_free(gm_cache_engine *e)
{
    if (e->owns_storage) {
        gm_tag_array_free(e->tags);
        gm_mshr_free(e->mshr);
    }
    e->owns_storage = false;
}

void gm_cache_use_port(gm_cache_engine *e, uint32_t cycles, gm_time now)
{
    e->port_free_at = gm_clock_edge_after(e->dom, now, cycles);
    e->st->port_busy_cycles += cycles;
}

/* ---- reads -------------------------------------------------------------- */

static void hit_enter(gm_cache_engine *e, gm_req *r)
{
    if (gm_req_fifo_empty(&e->hits))
        e->hit_ready = gm_clock_edge_after(e->dom, r->t_loc, e->latency);
    gm_req_fifo_push(&e->hits, r);
}

void gm_cache_read(gm_cache_engine *e, const gm_cache_probe *p, gm_req *r, gm_time now)
{
    assert(p->fail == GM_CACHE_OK);
    e->st->sector_hits += gm_tag_sector_count(r->sectors & (uint8_t)~p->missing);
    switch (p->outcome) {
    case GM_CACHE_HIT:
        assert(r->t_loc == now); /* the latency counts from t_loc */
        gm_tag_touch(e->tags, p->way);
        e->st->load_hits++;
        gm_cache_use_port(e, gm_cache_port_cycles(e, r->sectors), now);
        hit_enter(e, r);
        break;
    case GM_CACHE_MERGE: {
        int rc = gm_mshr_merge(e->mshr, p->entry, r);
        assert(rc == 0);
        (void)rc;
        e->st->mshr_merges++;
        e->st->sector_merges += gm_tag_sector_count(p->missing);
        break;
    }
    default: {
        e->st->load_misses++;
        if (e->res && gm_residency_count(e->res, r->addr) > 0)
            e->st->miss_resident_elsewhere++;
        e->st->sector_misses += gm_tag_sector_count(p->missing);
        if (p->way >= 0)
            e->st->sector_miss_lines++;
        int32_t entry = gm_mshr_allocate(e->mshr, r->addr, r);
        assert(entry >= 0);
        r->req_bytes = 0;
        if (e->sectored) { /* the missing sectors only; the entry kept what r asked */
            e->mshr->e[entry].fetch = p->missing;
            r->sectors = p->missing;
            r->reply_bytes = gm_tag_sector_count(p->missing) * e->sector_bytes;
        } else {
            r->reply_bytes = e->tags->line_bytes; /* whole-line fetch */
        }
        break;
    }
    }
}

/* ---- writes -------------------------------------------------------------- */

bool gm_cache_invalidate(gm_cache_engine *e, uint64_t addr)
{
    int32_t way = gm_tag_probe(e->tags, addr);
    if (way < 0)
        return false;
    gm_tag_invalidate(e->tags, way);
    if (e->res)
        gm_residency_remove(e->res, addr);
    return true;
}

void gm_cache_write_evict(gm_cache_engine *e, uint64_t addr)
{
    if (gm_cache_invalidate(e, addr))
        e->st->write_evicts++;
    else
        e->st->store_misses++;
}

void gm_cache_write_evict_sectors(gm_cache_engine *e, uint64_t addr, uint8_t sectors)
{
    if (!e->sectored) {
        gm_cache_write_evict(e, addr);
        return;
    }
    int32_t way = gm_tag_probe(e->tags, addr);
    gm_tag_line *l = way >= 0 ? gm_tag_line_at(e->tags, way) : 0;
    if (!l || !(l->valid & sectors)) {
        e->st->store_misses++; /* GPGPU-Sim: a sector miss, nothing allocated */
        return;
    }
    e->st->write_evicts++;
    l->valid &= (uint8_t)~sectors;
    if (!l->valid)
        gm_cache_invalidate(e, addr);
}

/* ---- fills --------------------------------------------------------------- */

static void install(gm_cache_engine *e, uint64_t addr, uint8_t sectors, gm_cache_filled *f)
{
    *f = (gm_cache_filled){.way = gm_tag_probe(e->tags, addr)};
    if (f->way < 0) {
        f->allocated = true;
        f->way = gm_tag_allocate(e->tags, addr, &f->victim);
        if (f->victim.evicted) {
            e->st->evictions++;
            if (e->res)
                gm_residency_remove(e->res, f->victim.addr);
        }
        if (e->res) {
            f->tracked = gm_residency_add(e->res, addr) == 0;
            if (!f->tracked)
                e->st->residency_errors++;
        }
    } else {
        gm_tag_touch(e->tags, f->way);
    }
    gm_tag_line_at(e->tags, f->way)->valid |= sectors;
    e->st->fills++;
    e->st->fill_sectors += gm_tag_sector_count(sectors);
}

bool gm_cache_fill(gm_cache_engine *e, gm_req *r, uint8_t sectors, gm_time now,
                   gm_cache_filled *out)
{
    if (gm_cache_port_busy(e, now)) {
        e->st->fill_port_waits++;
        return false;
    }
    gm_cache_use_port(e, gm_cache_port_cycles(e, sectors), now);
    install(e, r->addr, sectors, out);
    int32_t entry = gm_mshr_lookup(e->mshr, r->addr);
    assert(entry >= 0 && gm_mshr_entry_at(e->mshr, entry)->primary == r);
    if (entry >= 0) {
        r->sectors = gm_mshr_entry_at(e->mshr, entry)->asked;
        out->waiters = gm_mshr_release(e->mshr, entry);
    } else {
        r->next = 0;
        out->waiters = r;
    }
    return true;
}
