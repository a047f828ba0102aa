#include "dram/dram_channel.h"

#include <stdlib.h>
#include <string.h>

#include "dram/dram_standard.h"

int gm_dram_channel_init(gm_dram_channel *ch, const gm_dram_cfg *cfg, uint32_t id,
                         gm_error *err)
{
    memset(ch, 0, sizeof *ch);
    if (cfg->channels == 0 || id >= cfg->channels)
        return gm_fail(err, "dram channel %u: only %u channels configured", id,
                       cfg->channels);
    if (cfg->queue == 0)
        return gm_fail(err, "dram: queue must have at least 1 entry");
    if (cfg->sched != GM_DRAM_FRFCFS && cfg->sched != GM_DRAM_FCFS)
        return gm_fail(err, "dram: unknown scheduler %u", cfg->sched);
    if (cfg->atom_bytes == 0 || GM_LINE_BYTES % cfg->atom_bytes)
        return gm_fail(err, "dram: atom of %u B does not divide a %u B line",
                       cfg->atom_bytes, GM_LINE_BYTES);
    /* A line must sit in one slice and one row. */
    if (cfg->row_bytes == 0 || cfg->row_bytes % GM_LINE_BYTES ||
        cfg->partition_bytes == 0 || cfg->partition_bytes % GM_LINE_BYTES)
        return gm_fail(err, "dram: row_bytes (%u) and partition_bytes (%u) must be"
                            " multiples of the %u B line", cfg->row_bytes,
                       cfg->partition_bytes, GM_LINE_BYTES);
    if (gm_dram_timing_check(&cfg->t, err) || gm_dram_standard_check(cfg, err))
        return -1;
    const gm_dram_standard *std = gm_dram_standard_at(cfg->standard);
    if (gm_addr_map_init(&ch->map, cfg->partition_bytes, cfg->channels, cfg->channels,
                         cfg->banks, cfg->bank_groups, cfg->row_bytes, cfg->atom_bytes,
                         err) ||
        gm_addr_map_set_hash(&ch->map, cfg->slice_hash, cfg->bank_hash, err))
        return -1;
    if (gm_dram_timer_init(&ch->timer, std->rules, std->nrules, &cfg->t, cfg->banks,
                           cfg->bank_groups, err))
        return -1;
    ch->cfg = *cfg;
    ch->id = id;
    ch->cols_per_line = GM_LINE_BYTES / cfg->atom_bytes;
    ch->next_ref = cfg->t.tREFI;
    ch->bank = calloc(cfg->banks, sizeof *ch->bank);
    ch->q = calloc(cfg->queue, sizeof *ch->q);
    ch->done = calloc(cfg->queue, sizeof *ch->done);
    ch->log = calloc(GM_DRAM_LOG_SIZE, sizeof *ch->log);
    if (!ch->bank || !ch->q || !ch->done || !ch->log) {
        gm_dram_channel_free(ch);
        return gm_fail(err, "dram channel %u: out of memory", id);
    }
    return 0;
}

void gm_dram_channel_free(gm_dram_channel *ch)
{
    gm_dram_timer_free(&ch->timer);
    free(ch->bank);
    free(ch->q);
    free(ch->done);
    free(ch->log);
    ch->bank = 0;
    ch->q = 0;
    ch->done = 0;
    ch->log = 0;
}

void gm_dram_channel_connect(gm_dram_channel *ch, gm_dram_ports ports)
{
    ch->ports = ports;
    ch->rr = 0;
    /* The links are the slices of this channel, so the system has
     * n * channels slices. Inputs were validated by init, so this cannot
     * fail for n >= 1; the system has checked the hash against its
     * n * channels slices (gm_system_init). */
    if (ports.n) {
        gm_addr_map_init(&ch->map, ch->cfg.partition_bytes, ports.n * ch->cfg.channels,
                         ch->cfg.channels, ch->cfg.banks, ch->cfg.bank_groups,
                         ch->cfg.row_bytes, ch->cfg.atom_bytes, 0);
        gm_addr_map_set_hash(&ch->map, ch->cfg.slice_hash, ch->cfg.bank_hash, 0);
    }
}

const gm_dram_stats *gm_dram_channel_stats(const gm_dram_channel *ch)
{
    return &ch->stats;
}

uint64_t gm_dram_channel_earliest(const gm_dram_channel *ch, gm_dram_cmd cmd,
                                  uint32_t bank)
{
    return gm_dram_timer_earliest(&ch->timer, cmd, bank);
}

const gm_dram_cmd_rec *gm_dram_channel_cmd_log(const gm_dram_channel *ch, uint64_t k)
{
    if (k >= ch->log_n || ch->log_n - k > GM_DRAM_LOG_SIZE)
        return 0;
    return &ch->log[k % GM_DRAM_LOG_SIZE];
}

bool gm_dram_channel_busy(const gm_dram_channel *ch)
{
    if (ch->qn || ch->dn)
        return true;
    for (uint32_t i = 0; i < ch->ports.n; i++)
        if (!gm_link_empty(ch->ports.req_in[i]))
            return true;
    return false;
}

/* ---- commands --------------------------------------------------------- */

static void issue(gm_dram_channel *ch, gm_dram_cmd cmd, uint32_t bank, uint64_t row,
                  uint64_t c)
{
    gm_dram_timer_issue(&ch->timer, cmd, bank, c);
    gm_dram_cmd_rec *rec = &ch->log[ch->log_n++ % GM_DRAM_LOG_SIZE];
    rec->cycle = c;
    rec->row = row;
    rec->bank = bank;
    rec->cmd = (uint8_t)cmd;
}

enum { ROW_HIT, ROW_MISS, ROW_CONFLICT };

/* A request is classified by the first command issued on its behalf:
 * a column command (hit), an ACT (miss) or a PRE (conflict). */
static void classify(gm_dram_channel *ch, gm_dram_entry *e, int kind)
{
    if (e->classified)
        return;
    e->classified = 1;
    if (kind == ROW_HIT)
        ch->stats.row_hits++;
    else if (kind == ROW_MISS)
        ch->stats.row_misses++;
    else
        ch->stats.row_conflicts++;
}

static bool row_open(const gm_dram_channel *ch, const gm_dram_entry *e)
{
    const gm_dram_bank *b = &ch->bank[e->bank];
    return b->open && b->row == e->row;
}

/* The next column command of e may issue now: the timing allows it and, for
 * the first one, a return-buffer slot can be reserved (every started
 * request then always finishes). */
static bool column_ready(const gm_dram_channel *ch, const gm_dram_entry *e, uint64_t c)
{
    gm_dram_cmd cmd = e->write ? GM_DRAM_WR : GM_DRAM_RD;
    if (gm_dram_timer_earliest(&ch->timer, cmd, e->bank) > c)
        return false;
    return e->cols_done > 0 || ch->dn + ch->started < ch->cfg.queue;
}

static void remove_entry(gm_dram_channel *ch, uint32_t i)
{
    memmove(&ch->q[i], &ch->q[i + 1], (ch->qn - i - 1) * sizeof *ch->q);
    ch->qn--;
}

static void issue_column(gm_dram_channel *ch, uint32_t i, uint64_t c)
{
    gm_dram_entry *e = &ch->q[i];
    gm_dram_bank *b = &ch->bank[e->bank];
    const gm_dram_timing *t = &ch->cfg.t;
    classify(ch, e, ROW_HIT);
    issue(ch, e->write ? GM_DRAM_WR : GM_DRAM_RD, e->bank, 0, c);
    if (e->write)
        ch->stats.wr_cmds++;
    else
        ch->stats.rd_cmds++;
    ch->stats.bus_busy += t->tBURST;
    if (e->cols_done++ == 0) {
        ch->started++;
        b->partial++;
    }
    if (e->cols_done < e->cols)
        return;
    ch->started--;
    b->partial--;
    b->hits--;
    gm_dram_done *d = &ch->done[ch->dn++];
    d->r = e->r;
    d->done = c + (e->write ? t->tWL : t->tCL) + t->tBURST;
    d->t_accept = e->t_accept;
    d->link = e->link;
    d->write = e->write;
    remove_entry(ch, i);
}

static void issue_pre(gm_dram_channel *ch, uint32_t bank, uint64_t c)
{
    gm_dram_bank *b = &ch->bank[bank];
    issue(ch, GM_DRAM_PRE, bank, 0, c);
    b->open = 0;
    b->hits = 0;
    ch->open_banks--;
    ch->stats.precharges++;
}

static void issue_act(gm_dram_channel *ch, uint32_t bank, uint64_t row, uint64_t c)
{
    gm_dram_bank *b = &ch->bank[bank];
    issue(ch, GM_DRAM_ACT, bank, row, c);
    b->open = 1;
    b->row = row;
    b->hits = 0;
    for (uint32_t i = 0; i < ch->qn; i++)
        if (ch->q[i].bank == bank && ch->q[i].row == row)
            b->hits++;
    ch->open_banks++;
    ch->stats.activates++;
}

/* The next command entry i needs (column, PRE or ACT), if it may issue
 * now. guard_hits: a PRE may not close a row that queued requests still
 * want (FR-FCFS); FCFS serves the head regardless. */
static bool try_entry(gm_dram_channel *ch, uint32_t i, uint64_t c, bool guard_hits)
{
    gm_dram_entry *e = &ch->q[i];
    gm_dram_bank *b = &ch->bank[e->bank];
    if (b->open && b->row == e->row) {
        if (!column_ready(ch, e, c))
            return false;
        issue_column(ch, i, c);
        return true;
    }
    if (b->open) {
        if ((guard_hits && b->hits) ||
            gm_dram_timer_earliest(&ch->timer, GM_DRAM_PRE, e->bank) > c)
            return false;
        classify(ch, e, ROW_CONFLICT);
        issue_pre(ch, e->bank, c);
        return true;
    }
    if (gm_dram_timer_earliest(&ch->timer, GM_DRAM_ACT, e->bank) > c)
        return false;
    classify(ch, e, ROW_MISS);
    issue_act(ch, e->bank, e->row, c);
    return true;
}

/* FR-FCFS: (1) the oldest request whose column command can issue now to
 * its open row; (2) else the oldest request whose PRE or ACT can issue
 * now, where a PRE is not allowed while any queued request still targets
 * the bank's open row. */
static void schedule_frfcfs(gm_dram_channel *ch, uint64_t c)
{
    for (uint32_t i = 0; i < ch->qn; i++)
        if (row_open(ch, &ch->q[i]) && column_ready(ch, &ch->q[i], c)) {
            issue_column(ch, i, c);
            return;
        }
    for (uint32_t i = 0; i < ch->qn; i++)
        if (!row_open(ch, &ch->q[i]) && try_entry(ch, i, c, true))
            return;
}

/* Refresh: no new ACT and no new request starts. (1) column commands of
 * requests already started finish, oldest first; (2) else PRE the
 * lowest-numbered open bank with no started request; (3) once every bank is
 * closed, REF. */
static void schedule_refresh(gm_dram_channel *ch, uint64_t c)
{
    for (uint32_t i = 0; i < ch->qn; i++)
        if (ch->q[i].cols_done && column_ready(ch, &ch->q[i], c)) {
            issue_column(ch, i, c);
            return;
        }
    if (ch->open_banks) {
        for (uint32_t b = 0; b < ch->cfg.banks; b++)
            if (ch->bank[b].open && !ch->bank[b].partial &&
                gm_dram_timer_earliest(&ch->timer, GM_DRAM_PRE, b) <= c) {
                issue_pre(ch, b, c);
                return;
            }
        return;
    }
    if (gm_dram_timer_earliest(&ch->timer, GM_DRAM_REF, 0) > c)
        return;
    issue(ch, GM_DRAM_REF, 0, 0, c);
    ch->stats.refreshes++;
    ch->ref_pending = false;
    ch->next_ref += ch->cfg.t.tREFI;
}

/* ---- request flow ----------------------------------------------------- */

static void return_done(gm_dram_channel *ch, gm_time now, uint64_t c)
{
    uint32_t i = 0;
    while (i < ch->dn) {
        gm_dram_done *d = &ch->done[i];
        gm_link *out = ch->ports.rep_out[d->link];
        if (d->done > c || !gm_link_can_push(out, now)) {
            i++;
            continue;
        }
        gm_req *r = d->r;
        r->t_dram_done = now;
        gm_req_move(r, GM_LOC_L2, ch->id * ch->ports.n + d->link, now);
        gm_link_push(out, r, now);
        if (d->write) {
            ch->stats.writes++;
        } else {
            ch->stats.reads++;
            ch->stats.read_latency_sum += d->done - d->t_accept;
            ch->stats.read_latency_count++;
        }
        memmove(d, d + 1, (ch->dn - i - 1) * sizeof *d);
        ch->dn--;
    }
}

uint32_t gm_dram_cols_for_sectors(uint32_t atom_bytes, uint8_t sectors)
{
    /* Sector k is bytes [32k, 32k + 32) of the line; an atom covering any
     * of its bytes is moved. Sectors are in ascending order, so an atom
     * shared by two sectors is the previous sector's last one. */
    uint32_t cols = 0;
    int64_t last = -1;
    for (uint32_t k = 0; k < GM_LINE_BYTES / GM_SECTOR_BYTES; k++) {
        if (!(sectors & (1u << k)))
            continue;
        int64_t first = (int64_t)(k * GM_SECTOR_BYTES / atom_bytes);
        int64_t end = (int64_t)((k * GM_SECTOR_BYTES + GM_SECTOR_BYTES - 1) / atom_bytes);
        if (first <= last)
            first = last + 1;
        if (end >= first)
            cols += (uint32_t)(end - first + 1);
        if (end > last)
            last = end;
    }
    return cols;
}

static void accept(gm_dram_channel *ch, gm_time now, uint64_t c)
{
    if (ch->qn >= ch->cfg.queue)
        return;
    for (uint32_t k = 0; k < ch->ports.n; k++) {
        uint32_t li = (ch->rr + k) % ch->ports.n;
        gm_link *in = ch->ports.req_in[li];
        if (!gm_link_peek(in, now))
            continue;
        gm_req *r = gm_link_pop(in, now);
        gm_dram_coord co;
        gm_addr_dram_coord(&ch->map, r->addr, &co);
        gm_dram_entry *e = &ch->q[ch->qn++];
        *e = (gm_dram_entry){0};
        e->r = r;
        e->row = co.row;
        e->bank = co.bank;
        e->t_accept = c;
        e->link = (uint16_t)li;
        e->write = r->kind == GM_REQ_WRITEBACK;
        e->cols = (uint8_t)(ch->sector_access
                                ? gm_dram_cols_for_sectors(ch->cfg.atom_bytes, r->sectors)
                                : ch->cols_per_line);
        if (row_open(ch, e))
            ch->bank[e->bank].hits++;
        r->t_dram = now;
        gm_req_move(r, GM_LOC_DRAM, ch->id, now);
        if (ch->qn > ch->stats.max_queue)
            ch->stats.max_queue = ch->qn;
        ch->rr = (li + 1) % ch->ports.n;
        return;
    }
}

static bool input_waiting(const gm_dram_channel *ch, gm_time now)
{
    for (uint32_t i = 0; i < ch->ports.n; i++)
        if (gm_link_peek(ch->ports.req_in[i], now))
            return true;
    return false;
}

/* Order inside a tick: returns (frees return-buffer slots), one command,
 * then at most one new request, which can be scheduled from the next tick
 * on. */
void gm_dram_channel_set_sector_access(gm_dram_channel *ch, bool on)
{
    ch->sector_access = on;
}

void gm_dram_channel_inject_stall(gm_dram_channel *ch)
{
    ch->fault_stalled = true;
}

void gm_dram_channel_tick(gm_dram_channel *ch, gm_time now)
{
    uint64_t c = ch->cycle++;
    ch->stats.cycles++;
    if (ch->cfg.t.tREFI && c >= ch->next_ref)
        ch->ref_pending = true;
    if (!ch->qn && !ch->dn && !ch->ref_pending && !input_waiting(ch, now))
        return;
    if (ch->fault_stalled) {
        accept(ch, now, c);
        return;
    }
    if (ch->dn)
        return_done(ch, now, c);
    if (ch->ref_pending)
        schedule_refresh(ch, c);
    else if (ch->cfg.sched == GM_DRAM_FCFS) {
        if (ch->qn)
            try_entry(ch, 0, c, false);
    } else if (ch->qn) {
        schedule_frfcfs(ch, c);
    }
    accept(ch, now, c);
}
