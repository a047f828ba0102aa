/* One DRAM channel: an FR-FCFS (or FCFS) controller with an open-page
 * policy driving `banks` banks in `bank_groups` groups, all-bank refresh,
 * and the timing table of the configured standard ([dram] standard,
 * dram_standard.h: GDDR5 or HBM). Ticked once per DRAM command-clock edge;
 * issues at most one command per tick on the command bus.
 *
 * Ports: one request link in and one return link out per L2 slice served
 * by the channel (index = slice % slices_per_channel). Every request that
 * enters comes back exactly once on the return link of the same index,
 * GM_REQ_WRITEBACK as a write acknowledgement, every other kind as a read.
 * A request moves one whole 128 B line, or, with sector access on (a
 * sectored L2), only the atoms covering its r->sectors. The scheduling and refresh rules are in docs/dram.md. */
#ifndef GM_DRAM_DRAM_CHANNEL_H
#define GM_DRAM_DRAM_CHANNEL_H

#include <stdbool.h>
#include <stdint.h>

#include "config/config.h"
#include "dram/addr_map.h"
#include "dram/dram_timing.h"
#include "sim/clock.h"
#include "sim/error.h"
#include "sim/link.h"
#include "sim/req.h"

typedef struct gm_dram_ports {
    gm_link **req_in;   /* [n] from the L2 slices, consumer = DRAM domain */
    gm_link **rep_out;  /* [n] back to the L2 slices */
    uint32_t n;         /* slices per channel */
} gm_dram_ports;

typedef struct gm_dram_stats {
    uint64_t cycles;          /* ticks */
    uint64_t reads;           /* read requests completed */
    uint64_t writes;          /* write requests completed */
    uint64_t rd_cmds;         /* column commands */
    uint64_t wr_cmds;
    uint64_t activates;
    uint64_t precharges;
    uint64_t refreshes;
    uint64_t row_hits;        /* per request, see docs/dram.md */
    uint64_t row_misses;
    uint64_t row_conflicts;
    uint64_t bus_busy;        /* data-bus busy cycles (tBURST per column cmd) */
    uint64_t read_latency_sum;   /* DRAM cycles, accept -> last data beat */
    uint64_t read_latency_count;
    uint32_t max_queue;       /* highest controller queue occupancy */
} gm_dram_stats;

/* Test and debug hook: the last GM_DRAM_LOG_SIZE commands issued. */
#define GM_DRAM_LOG_SIZE 1024u
typedef struct gm_dram_cmd_rec {
    uint64_t cycle;   /* channel tick index (0 = first tick) */
    uint64_t row;     /* ACT: row opened; others 0 */
    uint32_t bank;    /* REF: 0 */
    uint8_t cmd;      /* gm_dram_cmd */
} gm_dram_cmd_rec;

/* A queued request. */
typedef struct gm_dram_entry {
    gm_req *r;
    uint64_t row;
    uint64_t t_accept;    /* channel cycle */
    uint32_t bank;
    uint16_t link;        /* input link index = return link index */
    uint8_t write;
    uint8_t cols;         /* column commands needed (line / atom) */
    uint8_t cols_done;
    uint8_t classified;   /* counted as row hit / miss / conflict */
} gm_dram_entry;

/* A request whose last column command has issued. */
typedef struct gm_dram_done {
    gm_req *r;
    uint64_t done;        /* channel cycle at which its data has moved */
    uint64_t t_accept;
    uint16_t link;
    uint8_t write;
} gm_dram_done;

typedef struct gm_dram_bank {
    uint64_t row;         /* open row, valid when open */
    uint32_t hits;        /* queued requests to the open row */
    uint32_t partial;     /* queued requests with some column commands issued */
    uint8_t open;
} gm_dram_bank;

typedef struct gm_dram_channel {
    gm_dram_cfg cfg;
    uint32_t id;
    gm_addr_map map;          /* rebuilt by connect (slices = n * channels) */
    gm_dram_ports ports;
    gm_dram_timer timer;
    gm_dram_bank *bank;       /* [cfg.banks] */
    uint32_t open_banks;
    gm_dram_entry *q;         /* [cfg.queue], oldest first */
    uint32_t qn;
    gm_dram_done *done;       /* [cfg.queue] return buffer, issue order */
    uint32_t dn;
    uint32_t started;         /* requests with column commands issued, not done */
    uint32_t rr;              /* next input link to look at first */
    uint32_t cols_per_line;
    bool sector_access;       /* move r->sectors' atoms only (sectored L2) */
    uint64_t cycle;           /* ticks so far = index of the next tick */
    uint64_t next_ref;        /* cycle at which the next REF falls due */
    bool ref_pending;
    bool fault_stalled;       /* fault injection: accept, never issue */
    gm_dram_cmd_rec *log;     /* [GM_DRAM_LOG_SIZE] ring */
    uint64_t log_n;           /* commands issued so far */
    gm_dram_stats stats;
} gm_dram_channel;

int gm_dram_channel_init(gm_dram_channel *ch, const gm_dram_cfg *cfg, uint32_t id,
                         gm_error *err);
void gm_dram_channel_free(gm_dram_channel *ch);
/* ports.n >= 1 links each way; the arrays must outlive the channel. */
void gm_dram_channel_connect(gm_dram_channel *ch, gm_dram_ports ports);
/* One command-clock edge at global time now. Must be called on every edge
 * of the DRAM domain: the channel counts ticks as its cycle. */
void gm_dram_channel_tick(gm_dram_channel *ch, gm_time now);
/* A request waits in an input link, the queue or the return buffer.
 * A pending refresh alone is not busy. */
bool gm_dram_channel_busy(const gm_dram_channel *ch);
const gm_dram_stats *gm_dram_channel_stats(const gm_dram_channel *ch);
/* Sector access (a sectored L2, [l2] sectored = 1): from now on a request
 * moves only the atoms covering its r->sectors, not the whole line. */
void gm_dram_channel_set_sector_access(gm_dram_channel *ch, bool on);
/* Column commands (atoms of atom_bytes) that move the 32 B sectors in
 * mask `sectors` of one line. */
uint32_t gm_dram_cols_for_sectors(uint32_t atom_bytes, uint8_t sectors);
/* Fault injection (sim.fault_stall_dram): from now on the channel still
 * accepts requests into its queue but never issues a command, so the
 * requests stay in the controller and the deadlock watchdog must find
 * them there. */
void gm_dram_channel_inject_stall(gm_dram_channel *ch);

/* Test hooks. Earliest cycle the timing table allows cmd on bank (state
 * conditions such as "row open" are not included). */
uint64_t gm_dram_channel_earliest(const gm_dram_channel *ch, gm_dram_cmd cmd,
                                  uint32_t bank);
/* The k-th command issued since init (k from 0), or NULL if it has not
 * issued yet or has left the ring. */
const gm_dram_cmd_rec *gm_dram_channel_cmd_log(const gm_dram_channel *ch, uint64_t k);

#endif
