#include "stats/report.h"

#include <cjson/cJSON.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "sim/hash.h"
#include "sim/version.h"
#include "config/config_keys.h"
#include "workload/walk.h"

/* ---- small helpers ------------------------------------------------------ */

static double ratio(uint64_t num, uint64_t den)
{
    return den ? (double)num / (double)den : 0.0;
}

/* cJSON stores numbers as doubles, exact below 2^53; larger values (a
 * seed, a long run's counters) are written as integer literals so they
 * survive the round trip (docs/stats.md). */
static void put_u64(cJSON *o, const char *k, uint64_t v)
{
    if (v <= (UINT64_C(1) << 53)) {
        cJSON_AddNumberToObject(o, k, (double)v);
        return;
    }
    char buf[24];
    snprintf(buf, sizeof buf, "%" PRIu64, v);
    cJSON_AddRawToObject(o, k, buf);
}

static void put_f(cJSON *o, const char *k, double v)
{
    cJSON_AddNumberToObject(o, k, v);
}

static const char *status_name(gm_run_status st)
{
    switch (st) {
    case GM_RUN_DONE: return "done";
    case GM_RUN_MAX_CYCLES: return "max_cycles";
    case GM_RUN_DEADLOCK: return "deadlock";
    case GM_RUN_INTERRUPTED: return "interrupted";
    default: return "error";
    }
}

/* ---- totals over blocks -------------------------------------------------- */

typedef struct totals {
    gm_core_stats core;
    gm_l1d_stats l1;
    uint64_t l1_accesses, l1_loads;
    double l1_port_mean, l1_port_max;
    gm_l2_stats l2;
    uint64_t l2_accesses, l2_hits, l2_misses;
    gm_dram_stats dram;
    uint64_t event_hash;
} totals;

static void add_core(gm_core_stats *t, const gm_core_stats *c)
{
    t->cycles += c->cycles;
    t->warp_insts += c->warp_insts;
    t->thread_insts += c->thread_insts;
    t->mem_insts += c->mem_insts;
    t->line_reqs += c->line_reqs;
    t->sector_reqs += c->sector_reqs;
    t->stall_scoreboard += c->stall_scoreboard;
    t->stall_ldst += c->stall_ldst;
    t->stall_barrier += c->stall_barrier;
    t->idle_slots += c->idle_slots;
    t->l1_refusals += c->l1_refusals;
    t->ctas_done += c->ctas_done;
    t->mem_latency_sum += c->mem_latency_sum;
    t->mem_latency_n += c->mem_latency_n;
    if (c->mem_latency_max > t->mem_latency_max)
        t->mem_latency_max = c->mem_latency_max;
}

static void add_l1(gm_l1d_stats *t, const gm_l1d_stats *c)
{
    for (int k = 0; k < GM_REQ_KIND_COUNT; k++) {
        t->accesses[k] += c->accesses[k];
        t->sectors[k] += c->sectors[k];
    }
    t->load_hits += c->load_hits;
    t->load_misses += c->load_misses;
    t->mshr_merges += c->mshr_merges;
    t->write_evicts += c->write_evicts;
    t->store_misses += c->store_misses;
    t->fills += c->fills;
    t->evictions += c->evictions;
    for (int k = 0; k < GM_L1D_FAIL_COUNT; k++)
        t->res_fail[k] += c->res_fail[k];
    t->port_busy_cycles += c->port_busy_cycles;
    t->fill_port_waits += c->fill_port_waits;
    t->miss_resident_elsewhere += c->miss_resident_elsewhere;
    t->residency_errors += c->residency_errors;
    t->sector_hits += c->sector_hits;
    t->sector_merges += c->sector_merges;
    t->sector_misses += c->sector_misses;
    t->sector_miss_lines += c->sector_miss_lines;
    t->fill_sectors += c->fill_sectors;
}

static void add_l2(gm_l2_stats *t, const gm_l2_stats *c)
{
    for (int k = 0; k < GM_REQ_KIND_COUNT; k++) {
        t->accesses[k] += c->accesses[k];
        t->hits[k] += c->hits[k];
        t->misses[k] += c->misses[k];
    }
    t->sector_misses += c->sector_misses;
    t->mshr_merges += c->mshr_merges;
    t->sector_hits += c->sector_hits;
    t->sector_merges += c->sector_merges;
    t->sectors_missed += c->sectors_missed;
    t->fill_sectors += c->fill_sectors;
    t->atomics += c->atomics;
    t->dram_reads += c->dram_reads;
    t->fills += c->fills;
    t->writebacks += c->writebacks;
    t->writeback_sectors += c->writeback_sectors;
    t->evictions += c->evictions;
    for (int k = 0; k < GM_L2_FAIL_COUNT; k++)
        t->res_fail[k] += c->res_fail[k];
    t->input_stalls += c->input_stalls;
    t->fill_stalls += c->fill_stalls;
}

static void add_dram(gm_dram_stats *t, const gm_dram_stats *c)
{
    t->cycles += c->cycles;
    t->reads += c->reads;
    t->writes += c->writes;
    t->rd_cmds += c->rd_cmds;
    t->wr_cmds += c->wr_cmds;
    t->activates += c->activates;
    t->precharges += c->precharges;
    t->refreshes += c->refreshes;
    t->row_hits += c->row_hits;
    t->row_misses += c->row_misses;
    t->row_conflicts += c->row_conflicts;
    t->bus_busy += c->bus_busy;
    t->read_latency_sum += c->read_latency_sum;
    t->read_latency_count += c->read_latency_count;
    if (c->max_queue > t->max_queue)
        t->max_queue = c->max_queue;
}

static void sum_totals(const gm_system *s, totals *t)
{
    memset(t, 0, sizeof *t);
    t->event_hash = 0xcbf29ce484222325ULL;
    for (uint32_t i = 0; i < s->ncores; i++) {
        const gm_core *c = &s->cores[i];
        add_core(&t->core, &c->stats);
        t->event_hash = gm_fnv1a_u64(t->event_hash, c->stats.event_hash);
    }
    /* The "L1" level: the caches the design registered (gm_system_add_l1). */
    uint32_t nl1 = s->nl1;
    for (uint32_t i = 0; i < nl1; i++) {
        const gm_l1d_stats *l = s->l1[i];
        add_l1(&t->l1, l);
        double u = ratio(l->port_busy_cycles, s->core_cycle);
        t->l1_port_mean += u / nl1;
        if (u > t->l1_port_max)
            t->l1_port_max = u;
    }
    for (int k = 0; k < GM_REQ_KIND_COUNT; k++)
        t->l1_accesses += t->l1.accesses[k];
    t->l1_loads = t->l1.load_hits + t->l1.load_misses + t->l1.mshr_merges;
    for (uint32_t i = 0; i < s->nslices; i++)
        add_l2(&t->l2, &s->slices[i].stats);
    for (int k = 0; k < GM_REQ_KIND_COUNT; k++) {
        t->l2_accesses += t->l2.accesses[k];
        t->l2_hits += t->l2.hits[k];
        t->l2_misses += t->l2.misses[k];
    }
    for (uint32_t i = 0; i < s->nchannels; i++)
        add_dram(&t->dram, gm_dram_channel_stats(&s->chans[i]));
}

/* Load misses over load accesses; a merged miss is a miss that did not
 * go out (GPGPU-Sim's HIT_RESERVED counts as a miss here). */
static double l1_miss_rate(const totals *t)
{
    return ratio(t->l1.load_misses + t->l1.mshr_merges, t->l1_loads);
}

static double copies_mean(const gm_copies_stats *c)
{
    return ratio(c->resident_sum, c->distinct_sum);
}

void gm_stats_collect(const gm_system *s, const gm_run_info *info, gm_run_result *r)
{
    totals t;
    sum_totals(s, &t);
    memset(r, 0, sizeof *r);
    snprintf(r->workload, sizeof r->workload, "%s", info->workload);
    r->status = status_name(s->status);
    r->core_cycles = s->core_cycle;
    r->warp_insts = t.core.warp_insts;
    r->thread_insts = t.core.thread_insts;
    r->line_reqs = t.core.line_reqs;
    r->sector_reqs = t.core.sector_reqs;
    r->ipc = ratio(t.core.warp_insts, s->core_cycle);
    r->l1_miss_rate = l1_miss_rate(&t);
    r->l2_miss_rate = ratio(t.l2_misses + t.l2.sector_misses, t.l2_accesses);
    r->replication_ratio = ratio(t.l1.miss_resident_elsewhere, t.l1.load_misses);
    r->copies_per_line = copies_mean(&s->copies);
    r->avg_mem_latency = ratio(t.core.mem_latency_sum, t.core.mem_latency_n) /
                         (double)gm_system_core_period(s);
    r->dram_row_hit_rate = ratio(t.dram.row_hits,
                                 t.dram.row_hits + t.dram.row_misses + t.dram.row_conflicts);
    r->cpu_seconds = info->cpu_seconds;
}

/* ---- JSON ------------------------------------------------------------------ */

static cJSON *json_config(const gm_config *c)
{
    cJSON *root = cJSON_CreateObject();
    for (size_t si = 0; si < gm_config_section_count(); si++) {
        const char *sec = gm_config_section_at(si)->name;
        cJSON *o = cJSON_AddObjectToObject(root, sec);
        for (size_t i = 0; i < gm_config_key_count(); i++) {
            const gm_config_key *k = gm_config_key_at(i);
            if (strcmp(k->section, sec) != 0)
                continue;
            uint64_t v = gm_config_key_get(c, k);
            if (k->type == GM_KEY_ENUM) {
                char buf[GM_CONFIG_VALUE_LEN];
                cJSON_AddStringToObject(o, k->name, gm_config_format_value(k, v, buf, sizeof buf));
            } else if (k->type == GM_KEY_I64) {
                cJSON_AddNumberToObject(o, k->name, (double)(int64_t)v);
            } else {
                put_u64(o, k->name, v);
            }
        }
    }
    return root;
}

static const char *const kind_keys[GM_REQ_KIND_COUNT] = {
    "load", "store", "atomic", "nonl1", "writeback"};

static cJSON *json_by_kind(const uint64_t *v)
{
    cJSON *o = cJSON_CreateObject();
    for (int k = 0; k < GM_REQ_KIND_COUNT; k++)
        put_u64(o, kind_keys[k], v[k]);
    return o;
}

static cJSON *json_core(const gm_system *s, const totals *t)
{
    cJSON *o = cJSON_CreateObject();
    const gm_core_stats *c = &t->core;
    put_u64(o, "warp_insts", c->warp_insts);
    put_u64(o, "thread_insts", c->thread_insts);
    put_u64(o, "mem_insts", c->mem_insts);
    put_u64(o, "line_requests", c->line_reqs);
    put_u64(o, "sector_requests", c->sector_reqs);
    put_u64(o, "ctas_done", c->ctas_done);
    put_u64(o, "active_core_cycles", c->cycles);
    put_u64(o, "stall_scoreboard", c->stall_scoreboard);
    put_u64(o, "stall_ldst", c->stall_ldst);
    put_u64(o, "stall_barrier", c->stall_barrier);
    put_u64(o, "idle_issue_slots", c->idle_slots);
    put_u64(o, "l1_refusals", c->l1_refusals);
    uint64_t period = gm_system_core_period(s);
    put_f(o, "avg_mem_latency", ratio(c->mem_latency_sum, c->mem_latency_n) / (double)period);
    put_u64(o, "max_mem_latency", c->mem_latency_max / period);
    return o;
}

/* The sector-level counters of one cache level (docs/stats.md): every
 * sector a read asks for is one of hits, merges, misses. */
typedef struct sector_counts {
    uint64_t hits, merges, misses, miss_lines, fill_sectors;
} sector_counts;

static cJSON *json_sectors(cJSON *parent, sector_counts c)
{
    cJSON *sc = cJSON_AddObjectToObject(parent, "sectors");
    put_u64(sc, "accesses", c.hits + c.merges + c.misses);
    put_u64(sc, "hits", c.hits);
    put_u64(sc, "merges", c.merges);
    put_u64(sc, "misses", c.misses);
    put_u64(sc, "sector_miss_lines", c.miss_lines);
    put_u64(sc, "fill_sectors", c.fill_sectors);
    put_u64(sc, "fill_bytes", c.fill_sectors * GM_SECTOR_BYTES);
    return sc;
}

static cJSON *json_l1(const gm_system *s, const totals *t)
{
    cJSON *o = cJSON_CreateObject();
    const gm_l1d_stats *l = &t->l1;
    static const char *const fail_keys[GM_L1D_FAIL_COUNT] = {"ok", "port", "mshr", "merge",
                                                             "miss_queue", "sector_pending"};
    put_u64(o, "accesses", t->l1_accesses);
    cJSON_AddItemToObject(o, "accesses_by_kind", json_by_kind(l->accesses));
    cJSON_AddItemToObject(o, "sectors_by_kind", json_by_kind(l->sectors));
    put_u64(o, "hits", l->load_hits);
    put_u64(o, "misses", l->load_misses);
    put_u64(o, "mshr_merges", l->mshr_merges);
    put_u64(o, "store_hits", l->write_evicts);
    put_u64(o, "store_misses", l->store_misses);
    put_u64(o, "bypass", l->accesses[GM_REQ_ATOMIC] + l->accesses[GM_REQ_NONL1]);
    put_u64(o, "fills", l->fills);
    put_u64(o, "evictions", l->evictions);
    put_f(o, "miss_rate", l1_miss_rate(t));
    put_u64(o, "misses_resident_elsewhere", l->miss_resident_elsewhere);
    put_f(o, "replication_ratio", ratio(l->miss_resident_elsewhere, l->load_misses));
    cJSON *rf = cJSON_AddObjectToObject(o, "reservation_fails");
    for (int k = 1; k < GM_L1D_FAIL_COUNT; k++)
        put_u64(rf, fail_keys[k], l->res_fail[k]);
    json_sectors(o, (sector_counts){l->sector_hits, l->sector_merges, l->sector_misses,
                                    l->sector_miss_lines, l->fill_sectors});
    put_u64(o, "port_busy_cycles", l->port_busy_cycles);
    put_f(o, "port_utilization_mean", t->l1_port_mean);
    put_f(o, "port_utilization_max", t->l1_port_max);
    (void)s;
    return o;
}

static cJSON *json_copies(const gm_system *s)
{
    cJSON *o = cJSON_CreateObject();
    const gm_copies_stats *c = &s->copies;
    double mean = copies_mean(c);
    put_u64(o, "samples", c->samples);
    put_u64(o, "sample_interval_cycles", s->cfg.sim.sample_cycles);
    put_f(o, "copies_per_line", mean);
    put_f(o, "replicas_per_line", mean > 0 ? mean - 1.0 : 0.0);
    put_u64(o, "final_resident_lines", c->final_resident);
    put_u64(o, "final_distinct_lines", c->final_distinct);
    put_f(o, "final_copies_per_line", ratio(c->final_resident, c->final_distinct));
    put_u64(o, "max_copies", c->max_copies);
    put_u64(o, "max_copies_allowed", c->max_allowed);
    return o;
}

/* The instances of one network in one direction (every crossbar of
 * NoC#1's request side, say), described as one. */
static cJSON *json_net_group(const gm_system *s, const char *network, bool request)
{
    cJSON *o = cJSON_CreateObject();
    uint64_t pin = 0, pout = 0, fin = 0, fout = 0, lat = 0, lat_max = 0, cycles = 0;
    uint32_t n = 0, routers = 0, nin = 0, nout = 0, in0 = 0, out0 = 0;
    double in_sum = 0, in_max = 0, out_sum = 0, out_max = 0;
    for (uint32_t k = 0; k < s->nnets; k++) {
        const gm_net_ref *r = &s->nets[k];
        if (strcmp(r->network, network) != 0 || r->request != request)
            continue;
        const gm_net *x = r->net;
        const gm_net_stats *st = &x->st;
        if (n++ == 0) {
            in0 = x->n_sources;
            out0 = x->n_sinks;
        }
        routers += gm_net_router_count(x);
        cycles = st->cycles; /* every instance of a network ticks the same edges */
        pin += st->packets_in;
        pout += st->packets_out;
        fin += st->flits_in;
        fout += st->flits_out;
        lat += st->lat_sum;
        if (st->lat_max > lat_max)
            lat_max = st->lat_max;
        for (uint32_t i = 0; i < x->n_sources; i++) {
            double u = ratio(st->in_flits[i], st->cycles);
            in_sum += u;
            if (u > in_max)
                in_max = u;
        }
        for (uint32_t j = 0; j < x->n_sinks; j++) {
            double u = ratio(st->out_flits[j], st->cycles);
            out_sum += u;
            if (u > out_max)
                out_max = u;
        }
        nin += x->n_sources;
        nout += x->n_sinks;
    }
    put_u64(o, "instances", n);
    put_u64(o, "routers", routers);
    put_u64(o, "sources_per_instance", in0);
    put_u64(o, "sinks_per_instance", out0);
    put_u64(o, "cycles", cycles);
    put_u64(o, "packets_injected", pin);
    put_u64(o, "packets_ejected", pout);
    put_u64(o, "flits_injected", fin);
    put_u64(o, "flits_ejected", fout);
    put_f(o, "avg_packet_latency", ratio(lat, pout));
    put_u64(o, "max_packet_latency", lat_max);
    put_f(o, "input_link_utilization_mean", nin ? in_sum / nin : 0.0);
    put_f(o, "input_link_utilization_max", in_max);
    put_f(o, "output_link_utilization_mean", nout ? out_sum / nout : 0.0);
    put_f(o, "output_link_utilization_max", out_max);
    return o;
}

/* Every network the design registered: "<name>_request", "<name>_reply",
 * in registration order. */
static cJSON *json_networks(const gm_system *s)
{
    cJSON *o = cJSON_CreateObject();
    char key[48];
    for (uint32_t k = 0; k < s->nnets; k++) {
        const gm_net_ref *r = &s->nets[k];
        snprintf(key, sizeof key, "%s_%s", r->network, r->request ? "request" : "reply");
        if (!cJSON_GetObjectItemCaseSensitive(o, key))
            cJSON_AddItemToObject(o, key, json_net_group(s, r->network, r->request));
    }
    return o;
}

static cJSON *json_design(const gm_system *s)
{
    cJSON *o = cJSON_CreateObject();
    char name[64];
    s->design->point_name(s->design_state, name, sizeof name);
    cJSON_AddStringToObject(o, "kind", s->design->name);
    cJSON_AddStringToObject(o, "name", name);
    return o;
}

static cJSON *json_l2(const gm_system *s, const totals *t)
{
    cJSON *o = cJSON_CreateObject();
    const gm_l2_stats *l = &t->l2;
    put_u64(o, "accesses", t->l2_accesses);
    cJSON_AddItemToObject(o, "accesses_by_kind", json_by_kind(l->accesses));
    put_u64(o, "hits", t->l2_hits);
    put_u64(o, "misses", t->l2_misses);
    put_u64(o, "sector_misses", l->sector_misses);
    put_u64(o, "mshr_merges", l->mshr_merges);
    put_f(o, "miss_rate", ratio(t->l2_misses + l->sector_misses, t->l2_accesses));
    put_u64(o, "atomics", l->atomics);
    put_u64(o, "dram_reads", l->dram_reads);
    put_u64(o, "fills", l->fills);
    put_u64(o, "writebacks", l->writebacks);
    put_u64(o, "evictions", l->evictions);
    put_u64(o, "input_stalls", l->input_stalls);
    cJSON *sc = json_sectors(o, (sector_counts){l->sector_hits, l->sector_merges,
                                                l->sectors_missed, l->sector_misses,
                                                l->fill_sectors});
    put_u64(sc, "pending_stall_cycles", l->res_fail[GM_L2_FAIL_SECTOR]);
    /* L2 traffic on the networks at the L2 slices, in flits of noc.flit_bytes. */
    uint64_t rq = 0, rp = 0;
    for (uint32_t k = 0; k < s->nnets; k++)
        if (s->nets[k].l2_side) {
            if (s->nets[k].request)
                rq += s->nets[k].net->st.flits_in;
            else
                rp += s->nets[k].net->st.flits_in;
        }
    put_u64(o, "request_flits", rq);
    put_u64(o, "reply_flits", rp);
    return o;
}

static cJSON *json_dram(const gm_system *s, const totals *t)
{
    cJSON *o = cJSON_CreateObject();
    const gm_dram_stats *d = &t->dram;
    uint64_t accesses = d->row_hits + d->row_misses + d->row_conflicts;
    put_u64(o, "channels", s->nchannels);
    put_u64(o, "reads", d->reads);
    put_u64(o, "writes", d->writes);
    put_u64(o, "read_bytes", d->rd_cmds * s->cfg.dram.atom_bytes);
    put_u64(o, "write_bytes", d->wr_cmds * s->cfg.dram.atom_bytes);
    put_u64(o, "activates", d->activates);
    put_u64(o, "precharges", d->precharges);
    put_u64(o, "refreshes", d->refreshes);
    put_u64(o, "row_hits", d->row_hits);
    put_u64(o, "row_misses", d->row_misses);
    put_u64(o, "row_conflicts", d->row_conflicts);
    put_f(o, "row_hit_rate", ratio(d->row_hits, accesses));
    put_f(o, "avg_read_latency", ratio(d->read_latency_sum, d->read_latency_count));
    put_u64(o, "max_queue_occupancy", d->max_queue);
    uint64_t cycles = s->nchannels ? d->cycles / s->nchannels : 0;
    put_f(o, "bus_utilization", ratio(d->bus_busy, d->cycles));
    /* bytes / seconds; seconds = cycles / (MHz * 1e6) */
    double bytes = (double)(d->rd_cmds + d->wr_cmds) * s->cfg.dram.atom_bytes;
    put_f(o, "bandwidth_gbs", cycles ? bytes * s->cfg.dram.clock_mhz / (double)cycles / 1e3 : 0);
    return o;
}

static cJSON *json_kernels(const gm_system *s)
{
    cJSON *a = cJSON_CreateArray();
    for (uint32_t i = 0; i < s->kernel_index && s->krec; i++) {
        const gm_kernel_record *k = &s->krec[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", k->name);
        put_u64(o, "start_cycle", k->start_cycle);
        put_u64(o, "end_cycle", k->end_cycle);
        put_u64(o, "cycles", k->end_cycle - k->start_cycle);
        put_u64(o, "warp_insts", k->warp_insts);
        put_f(o, "ipc", ratio(k->warp_insts, k->end_cycle - k->start_cycle));
        cJSON_AddItemToArray(a, o);
    }
    return a;
}

int gm_stats_write_json(const gm_system *s, const gm_run_info *info, FILE *f, gm_error *err)
{
    totals t;
    gm_run_result r;
    sum_totals(s, &t);
    gm_stats_collect(s, info, &r);
    cJSON *root = cJSON_CreateObject();
    put_u64(root, "schema_version", GM_STATS_SCHEMA_VERSION);
    cJSON_AddStringToObject(root, "gmsim_version", gm_version());
    char config_hash[24];
    snprintf(config_hash, sizeof config_hash, "0x%016" PRIx64, gm_config_hash(&s->cfg));
    cJSON_AddStringToObject(root, "config_hash", config_hash);
    cJSON_AddStringToObject(root, "workload", info->workload);
    cJSON_AddStringToObject(root, "size", info->size);
    put_u64(root, "seed", s->cfg.sim.seed); /* exact: see put_u64 */
    cJSON_AddStringToObject(root, "status", status_name(s->status));
    cJSON_AddItemToObject(root, "config", json_config(&s->cfg));

    cJSON *sum = cJSON_AddObjectToObject(root, "summary");
    put_u64(sum, "core_cycles", s->core_cycle);
    put_u64(sum, "warp_insts", r.warp_insts);
    put_u64(sum, "thread_insts", r.thread_insts);
    put_f(sum, "ipc", r.ipc);
    put_f(sum, "thread_ipc", ratio(r.thread_insts, s->core_cycle));
    put_f(sum, "l1_miss_rate", r.l1_miss_rate);
    put_f(sum, "l2_miss_rate", r.l2_miss_rate);
    put_f(sum, "replication_ratio", r.replication_ratio);
    put_f(sum, "copies_per_line", r.copies_per_line);
    put_f(sum, "avg_mem_latency", r.avg_mem_latency);
    put_f(sum, "dram_row_hit_rate", r.dram_row_hit_rate);

    cJSON_AddItemToObject(root, "kernels", json_kernels(s));
    cJSON_AddItemToObject(root, "core", json_core(s, &t));
    cJSON_AddItemToObject(root, "l1", json_l1(s, &t));
    cJSON_AddItemToObject(root, "copies", json_copies(s));
    cJSON_AddItemToObject(root, "l2", json_l2(s, &t));
    cJSON_AddItemToObject(root, "dram", json_dram(s, &t));
    cJSON *design = json_design(s);
    cJSON_AddItemToObject(root, "design", design);
    if (s->design->stats_json)
        s->design->stats_json(s, s->design_state, design, root);
    cJSON_AddItemToObject(root, "networks", json_networks(s));
    cJSON *c = cJSON_AddObjectToObject(root, "conservation");
    put_u64(c, "requests_created", s->pool.allocated);
    put_u64(c, "requests_completed", s->pool.completed);
    put_u64(c, "requests_in_flight", s->pool.live);
    char hash[24];
    snprintf(hash, sizeof hash, "0x%016" PRIx64, t.event_hash);
    cJSON_AddStringToObject(root, "event_hash", hash);

    char *text = cJSON_Print(root);
    cJSON_Delete(root);
    if (!text)
        return gm_fail(err, "statistics: out of memory");
    int rc = fputs(text, f) < 0 || fputc('\n', f) == EOF ? -1 : 0;
    cJSON_free(text);
    return rc ? gm_fail(err, "statistics: write error") : 0;
}

/* ---- tables for people --------------------------------------------------- */

void gm_stats_print_summary(const gm_system *s, const gm_run_info *info, FILE *f)
{
    gm_run_result r;
    gm_stats_collect(s, info, &r);
    fprintf(f, "workload %s (%s), %u cores, status %s\n", info->workload, info->size,
            s->ncores, r.status);
    if (s->design->stats_text)
        s->design->stats_text(s, s->design_state, f);
    fprintf(f, "  core cycles            %" PRIu64 "\n", r.core_cycles);
    fprintf(f, "  warp instructions      %" PRIu64 "\n", r.warp_insts);
    fprintf(f, "  IPC (warp inst/cycle)  %.3f\n", r.ipc);
    fprintf(f, "  L1 requests / sectors  %" PRIu64 " / %" PRIu64 "\n", r.line_reqs, r.sector_reqs);
    fprintf(f, "  L1 miss rate           %.4f\n", r.l1_miss_rate);
    fprintf(f, "  replication ratio      %.4f\n", r.replication_ratio);
    fprintf(f, "  copies per L1 line     %.3f\n", r.copies_per_line);
    fprintf(f, "  L2 miss rate           %.4f\n", r.l2_miss_rate);
    fprintf(f, "  avg memory latency     %.1f core cycles\n", r.avg_mem_latency);
    fprintf(f, "  DRAM row-hit rate      %.4f\n", r.dram_row_hit_rate);
    fprintf(f, "  CPU time               %.2f s (%.0f core cycles/s)\n", r.cpu_seconds,
            r.cpu_seconds > 0 ? r.core_cycles / r.cpu_seconds : 0.0);
}

void gm_stats_print_table(const gm_run_result *r, size_t n, FILE *f)
{
    fprintf(f, "%-12s %10s %10s %7s %7s %7s %7s %7s %8s %7s %7s\n", "workload", "cycles",
            "warp-inst", "IPC", "L1miss", "repl", "copies", "L2miss", "memlat", "rowhit",
            "CPU-s");
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%-12s %10" PRIu64 " %10" PRIu64 " %7.2f %7.3f %7.3f %7.2f %7.3f %8.1f %7.3f %7.2f\n",
                r[i].workload, r[i].core_cycles, r[i].warp_insts, r[i].ipc, r[i].l1_miss_rate,
                r[i].replication_ratio, r[i].copies_per_line, r[i].l2_miss_rate,
                r[i].avg_mem_latency, r[i].dram_row_hit_rate, r[i].cpu_seconds);
    fputs("\nIPC: warp instructions per core cycle (whole GPU). L1miss: load miss rate.\n"
          "repl: replication ratio (L1 misses whose line another L1 held). copies: L1\n"
          "copies per resident line. memlat: memory round trip, core cycles.\n"
          "See docs/stats.md.\n",
          f);
}

int gm_stats_list_workloads(FILE *f, gm_size size)
{
    /* filled: the share of warp instructions in launches with at least
     * GM_SIZE_FILL_CTAS CTAs (the rule of size fill, docs/workloads.md). */
    fprintf(f, "%-14s %-18s %-11s %-8s %8s %8s %9s %12s %12s %6s  %s\n", "name", "suite",
            "class", "size", "launches", "CTAs", "warps", "warp-insts", "mem-insts",
            "filled", "stresses");
    for (size_t ci = 0; ci < gm_workload_catalogue_size(); ci++) {
        const gm_workload_info *wi = gm_workload_catalogue_at(ci);
        gm_error err = {{0}};
        gm_workload w;
        gm_workload_counts cnt;
        if (gm_workload_build(&w, wi->name, size, 1, &err) != 0)
            return -1;
        int rc = gm_workload_count(&w, &cnt, &err);
        uint32_t launches = w.nkernels;
        gm_workload_free(&w);
        if (rc != 0)
            return -1;
        unsigned filled = cnt.insts ? (unsigned)(cnt.filled_insts * 100 / cnt.insts) : 0;
        fprintf(f, "%-14s %-18s %-11s %-8s %8u %8" PRIu64 " %9" PRIu64 " %12" PRIu64
                   " %12" PRIu64 " %5u%%  %s\n",
                wi->name, wi->suite, wi->klass, gm_size_name(size), launches, cnt.ctas,
                cnt.warps, cnt.insts, cnt.global_mem, filled, wi->stresses);
    }
    return 0;
}
