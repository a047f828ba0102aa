/* Loading, overriding, checking and writing a gm_config. Everything
 * per-key comes from the table in config_keys.c; this file has no code for
 * any particular key except the cross-key rules of gm_config_validate. */
#include "config/config.h"

#include <errno.h>
#include <ini.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "config/config_keys.h"
#include "designs/design.h"
#include "dram/dram_standard.h"
#include "dram/dram_timing.h"
#include "sim/hash.h"

#define KIB 1024u
#define MIB (1024u * 1024u)
/* The model fixes 128 B lines (GM_LINE_BYTES of sim/req.h); the key
 * exists so that configs state it and a future change has one place. */
#define LINE_BYTES 128u

void gm_config_defaults(gm_config *c)
{
    memset(c, 0, sizeof *c);
    for (size_t i = 0; i < gm_config_key_count(); i++) {
        const gm_config_key *k = gm_config_key_at(i);
        if (k->source != GM_SRC_HYNIX)
            gm_config_key_put(c, k, k->def);
    }
    /* the DRAM timing defaults are the default standard's (gddr5) */
    gm_dram_standard_load(&c->dram);
}

/* ---- values ---------------------------------------------------------- */

static void enum_list(const gm_config_key *k, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; k->names[i] && used < len; i++) {
        int w = snprintf(buf + used, len - used, "%s%s", i ? ", " : "", k->names[i]);
        if (w < 0)
            break;
        used += (size_t)w;
    }
}

/* "must be in lo..hi" or "must be one of a, b", for messages. */
static void allowed_text(const gm_config_key *k, char *buf, size_t len)
{
    if (k->type == GM_KEY_ENUM) {
        char names[128];
        enum_list(k, names, sizeof names);
        snprintf(buf, len, "must be one of %s", names);
    } else {
        char lo[GM_CONFIG_VALUE_LEN], hi[GM_CONFIG_VALUE_LEN];
        snprintf(buf, len, "must be in %s..%s",
                 gm_config_format_value(k, k->min, lo, sizeof lo),
                 gm_config_format_value(k, k->max, hi, sizeof hi));
    }
}

/* Reads the digits of an unsigned integer (decimal; hexadecimal after 0x
 * when hex_ok). Returns 0, -1 if there is no digit, -2 on overflow; *end
 * is the first character not read. */
static int read_uint(const char *s, int hex_ok, uint64_t *v, const char **end)
{
    unsigned base = 10;
    if (hex_ok && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s += 2;
    }
    uint64_t x = 0;
    int digits = 0, overflow = 0;
    for (;; s++) {
        unsigned d;
        if (*s >= '0' && *s <= '9')
            d = (unsigned)(*s - '0');
        else if (base == 16 && *s >= 'a' && *s <= 'f')
            d = (unsigned)(*s - 'a' + 10);
        else if (base == 16 && *s >= 'A' && *s <= 'F')
            d = (unsigned)(*s - 'A' + 10);
        else
            break;
        if (x > (UINT64_MAX - d) / base)
            overflow = 1;
        else
            x = x * base + d;
        digits++;
    }
    *v = x;
    *end = s;
    return digits == 0 ? -1 : overflow ? -2 : 0;
}

static const struct {
    const char *suffix;
    uint64_t mult;
} size_suffixes[] = {
    { "", 1 }, { "B", 1 }, { "K", KIB }, { "KB", KIB }, { "M", MIB }, { "MB", MIB },
};

/* Parses text as a value of k. On failure returns -1 and puts the reason,
 * without the location, in why. */
static int parse_value(const gm_config_key *k, const char *text, uint64_t *out, char *why,
                       size_t whylen)
{
    char allowed[160];
    allowed_text(k, allowed, sizeof allowed);

    if (k->type == GM_KEY_ENUM) {
        for (size_t i = 0; k->names[i]; i++) {
            if (strcmp(text, k->names[i]) == 0) {
                *out = i;
                return 0;
            }
        }
        snprintf(why, whylen, "%s", allowed);
        return -1;
    }

    uint64_t v;
    const char *end;
    int neg = k->type == GM_KEY_I64 && text[0] == '-';
    int r = read_uint(text + neg, k->type != GM_KEY_SIZE, &v, &end);
    if (r == -1) {
        snprintf(why, whylen, "not a number (%s)", allowed);
        return -1;
    }
    if (k->type == GM_KEY_SIZE) {
        size_t i, n = sizeof size_suffixes / sizeof size_suffixes[0];
        for (i = 0; i < n; i++)
            if (strcasecmp(end, size_suffixes[i].suffix) == 0)
                break;
        if (i == n) {
            snprintf(why, whylen, "bad size suffix \"%.16s\" (use bytes, K, KB, M or MB; %s)",
                     end, allowed);
            return -1;
        }
        if (r == 0 && v > UINT64_MAX / size_suffixes[i].mult)
            r = -2;
        else
            v *= size_suffixes[i].mult;
    } else if (*end != '\0') {
        snprintf(why, whylen, "not a number (%s)", allowed);
        return -1;
    }
    if (k->type == GM_KEY_I64 && r == 0) {
        /* magnitude up to 2^63 - 1, or 2^63 when negative; unsigned
         * negation gives the two's complement pattern */
        if (v > (uint64_t)INT64_MAX + (uint64_t)neg)
            r = -2;
        else if (neg)
            v = 0 - v;
    }
    if (r == -2 || !gm_config_key_allows(k, v)) {
        snprintf(why, whylen, "%s", allowed);
        return -1;
    }
    *out = v;
    return 0;
}

/* Parses text and stores it in c; c is untouched on error. `where` is
 * "file:line" or "-o". */
static int apply(gm_config *c, const gm_config_key *k, const char *text, const char *where,
                 gm_error *err)
{
    uint64_t v;
    char why[256];
    if (parse_value(k, text, &v, why, sizeof why) != 0)
        return gm_fail(err, "%s: [%s] %s = %.80s: %s", where, k->section, k->name, text, why);
    gm_config_key_put(c, k, v);
    return 0;
}

static int is_dram_standard(const gm_config_key *k)
{
    return k->offset == offsetof(gm_config, dram.standard);
}

/* After [dram] standard is set: the chosen standard's clock, organisation
 * and timing replace the [dram] keys it owns, as gm_config_defaults loads
 * GDDR5's, except the keys set earlier in the same file (set_on_line, NULL
 * for -o), so the order of lines inside one file does not matter. Keys set
 * later, or by a later file or -o, win as usual. */
static void load_dram_standard(gm_config *c, const int *set_on_line)
{
    gm_config std = *c;
    gm_dram_standard_load(&std.dram);
    for (size_t i = 0; i < gm_config_key_count(); i++) {
        const gm_config_key *k = gm_config_key_at(i);
        if (strcmp(k->section, "dram") == 0 && !(set_on_line && set_on_line[i]))
            gm_config_key_put(c, k, gm_config_key_get(&std, k));
    }
}

static void section_list(char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < gm_config_section_count() && used < len; i++) {
        int w = snprintf(buf + used, len - used, "%s%s", i ? ", " : "",
                         gm_config_section_at(i)->name);
        if (w < 0)
            break;
        used += (size_t)w;
    }
}

static void key_list(const char *section, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < gm_config_key_count() && used < len; i++) {
        const gm_config_key *k = gm_config_key_at(i);
        if (strcmp(k->section, section) != 0)
            continue;
        int w = snprintf(buf + used, len - used, "%s%s", used ? ", " : "", k->name);
        if (w < 0)
            break;
        used += (size_t)w;
    }
}

static int fail_unknown_section(gm_error *err, const char *where, const char *section)
{
    char list[128];
    section_list(list, sizeof list);
    return gm_fail(err, "%s: unknown section [%.40s] (sections: %s)", where, section, list);
}

static int fail_unknown(gm_error *err, const char *where, const char *section,
                        const char *name)
{
    if (!gm_config_section_find(section))
        return fail_unknown_section(err, where, section);
    /* Configs written before designs had sections of their own. */
    if (strcmp(section, "design") == 0 && strcmp(name, "design") == 0)
        return gm_fail(err, "%s: [design] design is now [design] kind (same values; "
                            "gmsim list-designs)", where);
    for (size_t d = 0; strcmp(section, "design") == 0 && d < gm_design_count(); d++) {
        const gm_design_ops *o = gm_design_at(d);
        for (size_t i = 0; i < o->nkeys; i++)
            if (strcmp(o->keys[i].name, name) == 0)
                return gm_fail(err, "%s: [design] %.40s moved to [%s] %s", where, name,
                               o->keys[i].section, name);
    }
    char list[320];
    key_list(section, list, sizeof list);
    return gm_fail(err, "%s: unknown key [%s] %.40s (keys of [%s]: %s)", where, section, name,
                   section, list);
}

/* ---- INI files --------------------------------------------------------- */

typedef struct load_state {
    gm_config cfg;    /* work copy, committed only if the whole file is good */
    const char *path;
    FILE *f;
    int line;         /* line last handed to inih, 1-based */
    int failed_line;  /* 0, or the line of the error already in err */
    int *set_on_line; /* per key: line that set it in this file, 0 = none */
    long bytes;       /* read so far */
    gm_error *err;
} load_state;

/* A configuration is a few kilobytes. The bound also ends the reading of
 * a FIFO or device that never stops (/dev/zero stops sooner, at its first
 * NUL). */
#define MAX_INI_BYTES (1L << 20)

static void where_text(const load_state *ld, char *buf, size_t len)
{
    snprintf(buf, len, "%s:%d", ld->path, ld->line);
}

/* inih passes every key = value here. The line inih is processing is the
 * line read_line returned last, as inih never reads ahead. */
static int on_key(void *user, const char *section, const char *name, const char *value)
{
    load_state *ld = user;
    char where[300];
    if (ld->failed_line)
        return 0;
    where_text(ld, where, sizeof where);
    ld->failed_line = ld->line; /* cleared below once the key is applied */
    if (section[0] == '\0') {
        gm_fail(ld->err, "%s: %.40s = %.80s comes before any [section]", where, name, value);
        return 0;
    }
    const gm_config_key *k = gm_config_key_find(section, name);
    if (!k) {
        fail_unknown(ld->err, where, section, name);
        return 0;
    }
    size_t i = gm_config_key_index(k);
    if (ld->set_on_line[i]) {
        gm_fail(ld->err, "%s: [%s] %s is set again (first on line %d)", where, k->section,
                k->name, ld->set_on_line[i]);
        return 0;
    }
    if (apply(&ld->cfg, k, value, where, ld->err) != 0)
        return 0;
    if (is_dram_standard(k))
        load_dram_standard(&ld->cfg, ld->set_on_line);
    ld->set_on_line[i] = ld->line;
    ld->failed_line = 0;
    return 1;
}

/* Rejects a [section] line naming no known section, even if no key
 * follows (inih calls on_key only for keys). Returns -1 on error. */
static int check_section_line(load_state *ld, const char *line)
{
    const char *close = strchr(line + 1, ']');
    if (!close)
        return 0; /* inih reports the syntax error */
    char name[64];
    size_t n = (size_t)(close - (line + 1));
    if (n >= sizeof name)
        n = sizeof name - 1;
    memcpy(name, line + 1, n);
    name[n] = '\0';
    if (gm_config_section_find(name))
        return 0;
    char where[300];
    where_text(ld, where, sizeof where);
    ld->failed_line = ld->line;
    return fail_unknown_section(ld->err, where, name);
}

static char *read_failed(load_state *ld, const char *what)
{
    char where[300];
    where_text(ld, where, sizeof where);
    ld->failed_line = ld->line;
    gm_fail(ld->err, "%s: %s", where, what);
    return NULL;
}

/* The line reader given to inih: counts lines (so messages can name them
 * whatever INI_HANDLER_LINENO the library was built with), refuses lines
 * inih would silently split, NUL bytes (which would end a line early
 * without a word) and files beyond MAX_INI_BYTES, and stops the parse at
 * the first error. */
static char *read_line(char *buf, int size, void *stream)
{
    load_state *ld = stream;
    char what[80];
    int n = 0, ch;
    if (ld->failed_line)
        return NULL;
    while (n < size - 1 && (ch = getc(ld->f)) != EOF) {
        if (n == 0)
            ld->line++;
        if (ch == '\0') {
            snprintf(what, sizeof what, "NUL byte in column %d: not a text file", n + 1);
            return read_failed(ld, what);
        }
        if (++ld->bytes > MAX_INI_BYTES) {
            snprintf(what, sizeof what, "more than %ld bytes: not a configuration file",
                     MAX_INI_BYTES);
            return read_failed(ld, what);
        }
        buf[n++] = (char)ch;
        if (ch == '\n')
            break;
    }
    if (n == 0)
        return NULL;   /* end of file, or a read error (ferror) */
    buf[n] = '\0';
    if (buf[n - 1] != '\n' && n == size - 1 && (ch = getc(ld->f)) != EOF) {
        snprintf(what, sizeof what, "line longer than %d characters", size - 2);
        return read_failed(ld, what);
    }
    /* A UTF-8 byte order mark and leading blanks are dropped: inih would
     * take an indented line as the continuation of the previous value,
     * and gmsim has no multi-line values. */
    size_t skip = 0;
    if (ld->line == 1 && strncmp(buf, "\xEF\xBB\xBF", 3) == 0)
        skip = 3;
    skip += strspn(buf + skip, " \t");
    if (skip)
        memmove(buf, buf + skip, n - skip + 1);
    if (buf[0] == '[' && check_section_line(ld, buf) != 0)
        return NULL;
    return buf;
}

int gm_config_load_file(gm_config *c, const char *path, gm_error *err)
{
    load_state ld;
    memset(&ld, 0, sizeof ld);
    ld.cfg = *c;
    ld.path = path;
    ld.err = err;
    ld.f = fopen(path, "r");
    if (!ld.f)
        return gm_fail(err, "%s: cannot open: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fileno(ld.f), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(ld.f);
        return gm_fail(err, "%s: is a directory", path);
    }
    ld.set_on_line = calloc(gm_config_key_count(), sizeof *ld.set_on_line);
    if (!ld.set_on_line) {
        fclose(ld.f);
        return gm_fail(err, "%s: out of memory", path);
    }

    int r = ini_parse_stream(read_line, &ld, on_key, &ld);
    int read_errno = ferror(ld.f) ? errno : 0;
    fclose(ld.f);
    free(ld.set_on_line);

    /* inih keeps going after a syntax error, so an error of ours may come
     * from a later line; report whichever is first. */
    if (r > 0 && (!ld.failed_line || r < ld.failed_line))
        return gm_fail(err, "%s:%d: syntax error: expected [section], key = value or a comment",
                       path, r);
    if (ld.failed_line)
        return -1;
    if (read_errno)
        return gm_fail(err, "%s: read error: %s", path, strerror(read_errno));
    if (r < 0)
        return gm_fail(err, "%s: out of memory", path);
    *c = ld.cfg;
    return 0;
}

/* ---- -o overrides ------------------------------------------------------ */

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        s[--n] = '\0';
    return s;
}

int gm_config_set(gm_config *c, const char *assignment, gm_error *err)
{
    char buf[256];
    if (strlen(assignment) >= sizeof buf)
        return gm_fail(err, "-o: \"%.60s...\" is too long", assignment);
    strcpy(buf, assignment);
    char *eq = strchr(buf, '=');
    char *dot = eq ? memchr(buf, '.', (size_t)(eq - buf)) : NULL;
    if (!eq || !dot)
        return gm_fail(err, "-o: \"%s\" is not section.key=value (e.g. l1.size=32K)",
                       assignment);
    *eq = '\0';
    *dot = '\0';
    const char *section = trim(buf), *name = trim(dot + 1), *value = trim(eq + 1);
    const gm_config_key *k = gm_config_key_find(section, name);
    if (!k)
        return fail_unknown(err, "-o", section, name);
    if (apply(c, k, value, "-o", err) != 0)
        return -1;
    if (is_dram_standard(k))
        load_dram_standard(c, NULL);
    return 0;
}

/* ---- cross-key rules ----------------------------------------------------- */

static uint64_t gcd_u64(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static int check_ranges(const gm_config *c, gm_error *err)
{
    for (size_t i = 0; i < gm_config_key_count(); i++) {
        const gm_config_key *k = gm_config_key_at(i);
        uint64_t v = gm_config_key_get(c, k);
        if (!gm_config_key_allows(k, v)) {
            char allowed[160], text[GM_CONFIG_VALUE_LEN];
            allowed_text(k, allowed, sizeof allowed);
            /* an enum out of range has no name: show the number */
            if (k->type == GM_KEY_ENUM)
                snprintf(text, sizeof text, "%" PRIu64, v);
            else
                gm_config_format_value(k, v, text, sizeof text);
            return gm_fail(err, "[%s] %s = %s: %s", k->section, k->name, text, allowed);
        }
    }
    return 0;
}

static int check_cache(const gm_cache_cfg *cc, const char *sec, gm_error *err)
{
    if (cc->line_bytes != LINE_BYTES)
        return gm_fail(err, "[%s] line = %u: must be %u (the model fixes %u B lines)", sec,
                       cc->line_bytes, LINE_BYTES, LINE_BYTES);
    uint64_t way_set = (uint64_t)cc->line_bytes * cc->assoc;
    if (cc->size_bytes % way_set != 0)
        return gm_fail(err,
                       "[%s] size = %u is not a multiple of [%s] line * [%s] assoc = %" PRIu64
                       " (a whole number of sets)",
                       sec, cc->size_bytes, sec, sec, way_set);
    return 0;
}

static int check_core(const gm_core_cfg *k, gm_error *err)
{
    if (k->num_cores % k->clusters != 0)
        return gm_fail(err, "[core] num_cores = %u is not a multiple of [core] clusters = %u",
                       k->num_cores, k->clusters);
    if (k->max_ctas > k->max_warps)
        return gm_fail(err,
                       "[core] max_ctas = %u exceeds [core] max_warps = %u (every CTA needs "
                       "at least one warp slot)",
                       k->max_ctas, k->max_warps);
    if (k->schedulers > k->max_warps)
        return gm_fail(err,
                       "[core] schedulers = %u exceeds [core] max_warps = %u (a scheduler "
                       "would have no warp)",
                       k->schedulers, k->max_warps);
    if (k->cta_policy == GM_CTA_BLOCK && k->cta_block > k->max_ctas)
        return gm_fail(err,
                       "[core] cta_block = %u exceeds [core] max_ctas = %u under "
                       "[core] cta_policy = block",
                       k->cta_block, k->max_ctas);
    return 0;
}

/* The longest latency among the standard's rules prev -> next, at least 1
 * (the channel issues one command per cycle, so even a zero latency costs
 * a cycle); *which gets the rule, for the message. */
static uint32_t longest_rule(const gm_dram_standard *s, const gm_dram_timing *t,
                             gm_dram_cmd prev, gm_dram_cmd next, const gm_dram_rule **which)
{
    uint32_t best = 0;
    *which = NULL;
    for (uint32_t i = 0; i < s->nrules; i++) {
        const gm_dram_rule *r = &s->rules[i];
        uint32_t v = gm_dram_rule_latency(r, t);
        if (r->prev == prev && r->next == next && (!*which || v > best)) {
            best = v;
            *which = r;
        }
    }
    return best ? best : 1;
}

/* One term of the refresh rule's message: "tRAS 28". */
static void term_text(const gm_dram_rule *r, uint32_t v, char *buf, size_t len)
{
    char name[64] = "-";
    if (r)
        gm_dram_rule_text(r, name, sizeof name);
    snprintf(buf, len, "%s %u", name, v);
}

/* Refresh must leave every interval room for one access, or a channel can
 * livelock: rows opened, closed again for the refresh, and no column
 * command ever issued (docs/reliability.md, "Configurations that cannot
 * make progress"). dram_channel.c issues no ACT and no first column
 * command while a refresh is due, and the due times stay k * tREFI however
 * late a refresh was. Worst case, from the standard's own rules: rows
 * opened up to the last cycle before a refresh falls due stay open for
 * ACT->PRE (tRAS) and are then precharged one per cycle (up to `banks` of
 * them), the precharge and the refresh take PRE->REF (tRP) and REF->ACT
 * (tRFC), and no ACT->ACT rule (tRC, tRRD, tFAW) may hold the next ACT
 * longer than that; that row's first column command then needs ACT->RD or
 * ACT->WR (tRCD, tRCDWR) more. All of it must fit in tREFI: then after an
 * interval without an access the next one has one. Every term is at least
 * 1, as the channel issues one command per cycle. */
static int check_refresh_window(const gm_dram_cfg *d, gm_error *err)
{
    const gm_dram_timing *t = &d->t;
    const gm_dram_standard *s = gm_dram_standard_at(d->standard);
    if (t->tREFI == 0 || !s)
        return 0;
    const gm_dram_rule *r_pre, *r_ref, *r_act, *r_aa, *r_rd, *r_wr;
    uint32_t hold = longest_rule(s, t, GM_DRAM_ACT, GM_DRAM_PRE, &r_pre);
    uint32_t close = longest_rule(s, t, GM_DRAM_PRE, GM_DRAM_REF, &r_ref);
    uint32_t refresh = longest_rule(s, t, GM_DRAM_REF, GM_DRAM_ACT, &r_act);
    uint32_t act_act = longest_rule(s, t, GM_DRAM_ACT, GM_DRAM_ACT, &r_aa);
    uint32_t rd = longest_rule(s, t, GM_DRAM_ACT, GM_DRAM_RD, &r_rd);
    uint32_t wr = longest_rule(s, t, GM_DRAM_ACT, GM_DRAM_WR, &r_wr);
    uint64_t cycle = (uint64_t)hold + (d->banks - 1) + close + refresh;
    uint64_t column = rd > wr ? rd : wr;
    uint64_t need = (cycle > act_act ? cycle : act_act) + column;
    if (t->tREFI >= need)
        return 0;
    char a[80], b[80], c[80], e[80], why[640];
    term_text(rd >= wr ? r_rd : r_wr, (uint32_t)column, e, sizeof e);
    if (cycle >= act_act) {
        term_text(r_pre, hold, a, sizeof a);
        term_text(r_ref, close, b, sizeof b);
        term_text(r_act, refresh, c, sizeof c);
        snprintf(why, sizeof why,
                 "rows opened just before a refresh falls due stay open %s and are precharged "
                 "one per cycle, %u banks, then %s and %s pass before the next activate, "
                 "whose first column command needs %s: %u + %u + %u + %u + %u",
                 a, d->banks, b, c, e, hold, d->banks - 1, close, refresh, (uint32_t)column);
    } else {
        term_text(r_aa, act_act, a, sizeof a);
        snprintf(why, sizeof why,
                 "an activate just before a refresh falls due holds the next one back %s, "
                 "whose first column command needs %s: %u + %u",
                 a, e, act_act, (uint32_t)column);
    }
    const gm_config_key *k = gm_config_key_find("dram", "tREFI");
    return gm_fail(err,
                   "[dram] tREFI = %u leaves no time for an access between refreshes: must "
                   "be 0 (no refresh) or in %" PRIu64 "..%" PRIu64 " with [dram] standard = "
                   "%s and these timings (%s; a shorter interval can keep the channel "
                   "opening and closing rows without ever reading)",
                   t->tREFI, need, k ? k->max : (uint64_t)UINT32_MAX, s->name, why);
}

static int check_dram(const gm_config *c, gm_error *err)
{
    const gm_dram_cfg *d = &c->dram;
    const gm_dram_timing *t = &d->t;
    if (c->l2.slices % d->channels != 0)
        return gm_fail(err, "[l2] slices = %u is not a multiple of [dram] channels = %u",
                       c->l2.slices, d->channels);
    if (d->banks % d->bank_groups != 0)
        return gm_fail(err, "[dram] banks = %u is not a multiple of [dram] bank_groups = %u",
                       d->banks, d->bank_groups);
    if (c->l2.cache.line_bytes % d->atom_bytes != 0)
        return gm_fail(err,
                       "[l2] line = %u is not a multiple of [dram] atom_bytes = %u (a line "
                       "moves in whole column commands)",
                       c->l2.cache.line_bytes, d->atom_bytes);
    if (d->row_bytes % d->atom_bytes != 0)
        return gm_fail(err, "[dram] row_bytes = %u is not a multiple of [dram] atom_bytes = %u",
                       d->row_bytes, d->atom_bytes);
    if (d->partition_bytes % c->l2.cache.line_bytes != 0)
        return gm_fail(err, "[dram] partition_bytes = %u is not a multiple of [l2] line = %u",
                       d->partition_bytes, c->l2.cache.line_bytes);
    if ((uint64_t)t->tRC < (uint64_t)t->tRAS + t->tRP)
        return gm_fail(err, "[dram] tRC = %u is less than [dram] tRAS + [dram] tRP = %u + %u",
                       t->tRC, t->tRAS, t->tRP);
    if (t->tRAS < t->tRCD)
        return gm_fail(err, "[dram] tRAS = %u is less than [dram] tRCD = %u", t->tRAS, t->tRCD);
    if (t->tCCDL < t->tCCDS)
        return gm_fail(err, "[dram] tCCDL = %u is less than [dram] tCCDS = %u", t->tCCDL,
                       t->tCCDS);
    if (t->tRRDL < t->tRRDS)
        return gm_fail(err, "[dram] tRRDL = %u is less than [dram] tRRDS = %u", t->tRRDL,
                       t->tRRDS);
    if (t->tWTRL < t->tWTRS)
        return gm_fail(err, "[dram] tWTRL = %u is less than [dram] tWTRS = %u", t->tWTRL,
                       t->tWTRS);
    if (t->tREFI != 0 && t->tREFI <= t->tRFC)
        return gm_fail(err,
                       "[dram] tREFI = %u is not greater than [dram] tRFC = %u (the channel "
                       "would never leave refresh; tREFI = 0 disables refresh)",
                       t->tREFI, t->tRFC);
    /* the standard's own limits (dram/dram_std_<name>.c) */
    if (gm_dram_standard_check(d, err))
        return -1;
    return check_refresh_window(d, err);
}

/* The capacity of a whole cache level: its tag arrays are what a
 * configuration can make large (24 bytes or so per 128 B line), so besides
 * the per-cache ranges of the key table each level is bounded as a whole
 * (docs/reliability.md, "Resource bounds"). 1 GiB is four times the
 * largest last-level cache of a real GPU (AMD MI300X: 256 MB) and thirty
 * times the largest L1 total (NVIDIA H100: 132 x 256 KB). */
#define MAX_LEVEL_BYTES (UINT64_C(1) << 30)

static int check_level_capacity(const gm_config *c, gm_error *err)
{
    uint64_t l1 = (uint64_t)c->core.num_cores * c->l1.size_bytes;
    if (l1 > MAX_LEVEL_BYTES)
        return gm_fail(err,
                       "[core] num_cores x [l1] size = %u x %u = %" PRIu64 " bytes: the L1s "
                       "together must be at most 1G (%" PRIu64 " bytes); lower [l1] size to "
                       "%" PRIu64 " or less",
                       c->core.num_cores, c->l1.size_bytes, l1, MAX_LEVEL_BYTES,
                       MAX_LEVEL_BYTES / c->core.num_cores);
    uint64_t l2 = (uint64_t)c->l2.slices * c->l2.cache.size_bytes;
    if (l2 > MAX_LEVEL_BYTES)
        return gm_fail(err,
                       "[l2] slices x [l2] size = %u x %u = %" PRIu64 " bytes: the L2 slices "
                       "together must be at most 1G (%" PRIu64 " bytes); lower [l2] size to "
                       "%" PRIu64 " or less",
                       c->l2.slices, c->l2.cache.size_bytes, l2, MAX_LEVEL_BYTES,
                       MAX_LEVEL_BYTES / c->l2.slices);
    return 0;
}

static int check_sim(const gm_config *c, gm_error *err)
{
    if (c->sim.fault_stall_dram >= (int64_t)c->dram.channels)
        return gm_fail(err,
                       "[sim] fault_stall_dram = %" PRId64 " is not a channel of "
                       "[dram] channels = %u (-1 = no fault)",
                       c->sim.fault_stall_dram, c->dram.channels);
    return 0;
}

/* The router's VC allocator is one iSLIP over every input VC of the
 * router (noc/islip.h: at most GM_ISLIP_MAX requesters). The widest
 * router of the baseline has num_cores inputs (request network) or
 * l2 slices inputs (reply network). */
static int check_noc(const gm_config *c, gm_error *err)
{
    uint32_t widest = c->core.num_cores > c->l2.slices ? c->core.num_cores : c->l2.slices;
    if ((uint64_t)widest * c->noc.vcs > 1024)
        return gm_fail(err,
                       "[noc] vcs = %u with %u router inputs ([core] num_cores / [l2] slices)"
                       " gives %" PRIu64 " input VCs; the VC allocator supports at most 1024",
                       c->noc.vcs, widest, (uint64_t)widest * c->noc.vcs);
    return 0;
}

/* The global time base is the lcm of the domain frequencies and must fit
 * in 32 bits (sim/clock.c). A design may add domains of its own (DC-L1's
 * boosted NoC#1 runs at twice the interconnect clock). */
static int check_clocks(const gm_config *c, gm_error *err)
{
    uint32_t f[8] = { c->core.clock_mhz, c->noc.clock_mhz, c->l2.clock_mhz,
                      c->dram.clock_mhz };
    unsigned n = 4;
    const gm_design_ops *d = gm_design_of(c);
    if (d && d->extra_clocks)
        n += d->extra_clocks(c, f + 4);
    uint64_t l = 1;
    for (unsigned i = 0; i < n; i++) {
        l = l / gcd_u64(l, f[i]) * f[i];
        if (l > (UINT64_C(1) << 32))
            return gm_fail(err,
                           "[core] clock_mhz = %u, [noc] clock_mhz = %u, [l2] clock_mhz = %u "
                           "and [dram] clock_mhz = %u%s have a least common multiple above "
                           "2^32; choose frequencies with more common factors",
                           f[0], f[1], f[2], f[3],
                           n > 4 ? " (and the clocks of the selected design)" : "");
    }
    return 0;
}

static int check_design_kind(const gm_config *c, gm_error *err)
{
    return gm_design_of(c) ? 0 : gm_fail(err, "[design] kind = %u: no such design",
                                         c->design.kind);
}

/* The selected design's own section. */
static int check_design(const gm_config *c, gm_error *err)
{
    const gm_design_ops *d = gm_design_of(c);
    return d->validate ? d->validate(c, err) : 0;
}

int gm_config_validate(const gm_config *c, gm_error *err)
{
    if (check_ranges(c, err) || check_design_kind(c, err) || check_core(&c->core, err) ||
        check_cache(&c->l1, "l1", err) || check_cache(&c->l2.cache, "l2", err) ||
        check_level_capacity(c, err) || check_dram(c, err) || check_clocks(c, err) ||
        check_sim(c, err) || check_noc(c, err) || check_design(c, err))
        return -1;
    return 0;
}

/* ---- writing ------------------------------------------------------------- */

int gm_config_write_ini(const gm_config *c, FILE *f)
{
    const char *section = NULL;
    fputs("; gmsim configuration (every key; see docs/config.md)\n", f);
    for (size_t i = 0; i < gm_config_key_count(); i++) {
        const gm_config_key *k = gm_config_key_at(i);
        char v[GM_CONFIG_VALUE_LEN];
        if (!section || strcmp(section, k->section) != 0) {
            fprintf(f, "\n[%s]\n", k->section);
            section = k->section;
        }
        fprintf(f, "%s = %s\n", k->name,
                gm_config_format_value(k, gm_config_key_get(c, k), v, sizeof v));
    }
    return ferror(f) ? -1 : 0;
}

char *gm_config_to_ini(const gm_config *c)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return NULL;
    int r = gm_config_write_ini(c, f);
    if (fclose(f) != 0 || r != 0) {
        free(text);
        return NULL;
    }
    return text;
}

uint64_t gm_config_hash(const gm_config *c)
{
    char *text = gm_config_to_ini(c);
    if (!text)
        return 0;
    uint64_t h = gm_fnv1a_bytes(GM_FNV1A_INIT, (const uint8_t *)text, strlen(text));
    free(text);
    return h;
}
