/* Accel-Sim trace reader. Layers, bottom up:
 *   src     bytes of a file or a memory buffer, through liblzma when they
 *           start with the xz magic;
 *   lines   one line at a time, with its number (for messages) and its
 *           decoded offset, and seeking to an offset;
 *   kparse  one kernel-N.traceg into a compact image (a stream of
 *           instruction records and an index from (CTA, warp) to the
 *           warp's first record), or into an index of where each warp
 *           starts in the file, or the warps of one CTA from that index;
 *   arena   the workload's heap block (w->priv): descriptors, file paths
 *           and every image (resident), or the streamed kernel's index and
 *           its CTAs in flight, each in a block of its own (streamed);
 *   gen     decodes a warp's records into gm_inst.
 * The format is documented in docs/traces.md. */
#include "workload/trace_read.h"

#include <errno.h>
#include <lzma.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/hash.h"
#include "workload/build.h"
#include "workload/sass_map.h"
#include "workload/walk.h"

#define IN_CHUNK 65536u
#define MAX_LINE (1u << 20)            /* longer lines are corrupt input */
#define MAX_LIST_BYTES (64u << 20)     /* a kernelslist.g is small */
#define XZ_MEMLIMIT (256ull << 20)     /* xz -9 needs 65 MiB */
#define MAX_BLOCK_THREADS 1024u
#define MAX_GRID_CTAS 0x7fffffffull
#define MAX_DSTS 4
#define MAX_SRCS 8
#define MAX_WIDTH 128u                 /* the coalescer's limit */
#define LINE_SHIFT 7                   /* 128 B lines for the read-only rule */

static const uint8_t xz_magic[6] = {0xfd, '7', 'z', 'X', 'Z', 0x00};

/* ================================================================ bytes */

typedef struct src {
    FILE *f;                 /* NULL when reading memory */
    const uint8_t *in;       /* raw bytes: the memory buffer or inbuf */
    size_t in_len, in_pos;
    uint8_t *inbuf;
    int raw_eof;
    int xz, xz_end;
    lzma_stream lz;
} src;

static int src_refill(src *s, const char *name, gm_error *err)
{
    if (!s->f) {
        s->raw_eof = 1;
        return 0;
    }
    size_t n = fread(s->inbuf, 1, IN_CHUNK, s->f);
    if (n == 0) {
        if (ferror(s->f))
            return gm_fail(err, "%s: read error", name);
        s->raw_eof = 1;
    }
    s->in = s->inbuf;
    s->in_len = n;
    s->in_pos = 0;
    return 0;
}

static int src_start_xz(src *s, const char *name, gm_error *err)
{
    s->xz = 1;
    s->lz = (lzma_stream)LZMA_STREAM_INIT;
    if (lzma_stream_decoder(&s->lz, XZ_MEMLIMIT, LZMA_CONCATENATED) != LZMA_OK) {
        s->xz = 0;
        return gm_fail(err, "%s: cannot start the xz decoder", name);
    }
    return 0;
}

static void src_close(src *s)
{
    if (s->xz)
        lzma_end(&s->lz);
    if (s->f)
        fclose(s->f);
    free(s->inbuf);
    memset(s, 0, sizeof *s);
}

static int src_open_file(src *s, const char *path, gm_error *err)
{
    memset(s, 0, sizeof *s);
    s->f = fopen(path, "rb");
    if (!s->f)
        return gm_fail(err, "%s: cannot open: %s", path, strerror(errno));
    s->inbuf = malloc(IN_CHUNK);
    if (!s->inbuf) {
        src_close(s);
        return gm_fail(err, "%s: out of memory", path);
    }
    if (src_refill(s, path, err)) {
        src_close(s);
        return -1;
    }
    if (s->in_len >= sizeof xz_magic && memcmp(s->in, xz_magic, sizeof xz_magic) == 0 &&
        src_start_xz(s, path, err)) {
        src_close(s);
        return -1;
    }
    return 0;
}

static int src_open_mem(src *s, const void *buf, size_t len, const char *name, gm_error *err)
{
    memset(s, 0, sizeof *s);
    s->in = buf;
    s->in_len = len;
    s->raw_eof = 1;
    if (len >= sizeof xz_magic && memcmp(buf, xz_magic, sizeof xz_magic) == 0)
        return src_start_xz(s, name, err);
    return 0;
}

static int xz_error(lzma_ret r, const char *name, gm_error *err)
{
    switch (r) {
    case LZMA_MEM_ERROR: return gm_fail(err, "%s: out of memory decoding xz data", name);
    case LZMA_MEMLIMIT_ERROR:
        return gm_fail(err, "%s: xz data needs more than %llu MiB to decode", name,
                       (unsigned long long)(XZ_MEMLIMIT >> 20));
    case LZMA_BUF_ERROR: return gm_fail(err, "%s: truncated xz data", name);
    default: return gm_fail(err, "%s: corrupt xz data (liblzma error %d)", name, (int)r);
    }
}

/* Reads up to cap decoded bytes; *got = 0 at the end. */
static int src_read(src *s, uint8_t *out, size_t cap, size_t *got, const char *name,
                    gm_error *err)
{
    *got = 0;
    if (!s->xz) {
        if (s->in_pos == s->in_len && !s->raw_eof && src_refill(s, name, err))
            return -1;
        size_t n = s->in_len - s->in_pos;
        if (n > cap)
            n = cap;
        if (n)
            memcpy(out, s->in + s->in_pos, n);
        s->in_pos += n;
        *got = n;
        return 0;
    }
    while (!s->xz_end) {
        if (s->in_pos == s->in_len && !s->raw_eof && src_refill(s, name, err))
            return -1;
        s->lz.next_in = s->in + s->in_pos;
        s->lz.avail_in = s->in_len - s->in_pos;
        s->lz.next_out = out;
        s->lz.avail_out = cap;
        lzma_ret r = lzma_code(&s->lz, s->raw_eof ? LZMA_FINISH : LZMA_RUN);
        s->in_pos = s->in_len - s->lz.avail_in;
        *got = cap - s->lz.avail_out;
        if (r == LZMA_STREAM_END)
            s->xz_end = 1;
        else if (r != LZMA_OK)
            return xz_error(r, name, err);
        if (*got)
            return 0;
        /* No output yet: liblzma wants more input (or, at the end of the
         * input, reports LZMA_BUF_ERROR on the next call). */
    }
    return 0;
}

/* ================================================================ lines */

typedef struct lines {
    src s;
    const char *name;        /* for messages */
    uint8_t *chunk;
    size_t chunk_len, chunk_pos;
    int eof;
    char *line;              /* the current line, NUL-terminated, no '\n' */
    size_t len, cap;
    unsigned long no;        /* its 1-based number */
    uint64_t off;            /* decoded offset of its first byte */
    uint64_t next_off;       /* decoded offset of the next line */
    uint64_t rewinds;        /* xz data decoded again from the start */
} lines;

static void lines_close(lines *L)
{
    src_close(&L->s);
    free(L->chunk);
    free(L->line);
    memset(L, 0, sizeof *L);
}

static int lines_init(lines *L, const char *name, gm_error *err)
{
    L->name = name;
    L->chunk = malloc(IN_CHUNK);
    L->cap = 256;
    L->line = malloc(L->cap);
    if (!L->chunk || !L->line) {
        lines_close(L);
        return gm_fail(err, "%s: out of memory", name);
    }
    return 0;
}

static int lines_open_file(lines *L, const char *path, gm_error *err)
{
    memset(L, 0, sizeof *L);
    if (src_open_file(&L->s, path, err))
        return -1;
    return lines_init(L, path, err);
}

static int lines_open_mem(lines *L, const void *buf, size_t len, const char *name,
                          gm_error *err)
{
    memset(L, 0, sizeof *L);
    if (src_open_mem(&L->s, buf, len, name, err))
        return -1;
    return lines_init(L, name, err);
}

static int line_append(lines *L, const uint8_t *p, size_t n, gm_error *err)
{
    if (L->len + n + 1 > MAX_LINE)
        return gm_fail(err, "%s:%lu: line longer than %u bytes", L->name, L->no + 1, MAX_LINE);
    if (L->len + n + 1 > L->cap) {
        size_t cap = L->cap;
        while (cap < L->len + n + 1)
            cap *= 2;
        char *q = realloc(L->line, cap);
        if (!q)
            return gm_fail(err, "%s: out of memory", L->name);
        L->line = q;
        L->cap = cap;
    }
    memcpy(L->line + L->len, p, n);
    L->len += n;
    return 0;
}

/* 1: a line is in L->line; 0: end of input; -1: error. */
static int lines_next(lines *L, gm_error *err)
{
    L->len = 0;
    L->off = L->next_off;
    for (;;) {
        if (L->chunk_pos == L->chunk_len) {
            if (L->eof)
                break;
            if (src_read(&L->s, L->chunk, IN_CHUNK, &L->chunk_len, L->name, err))
                return -1;
            L->chunk_pos = 0;
            if (L->chunk_len == 0) {
                L->eof = 1;
                break;
            }
        }
        const uint8_t *p = L->chunk + L->chunk_pos;
        size_t avail = L->chunk_len - L->chunk_pos;
        const uint8_t *nl = memchr(p, '\n', avail);
        size_t take = nl ? (size_t)(nl - p) : avail;
        if (line_append(L, p, take, err))
            return -1;
        L->chunk_pos += take + (nl ? 1 : 0);
        L->next_off += take + (nl ? 1 : 0);
        if (nl)
            goto got;
    }
    if (L->len == 0)
        return 0;   /* no unterminated last line */
got:
    L->no++;
    if (L->len && L->line[L->len - 1] == '\r')
        L->len--;
    L->line[L->len] = '\0';
    return 1;
}

/* Drops decoded bytes up to offset `off`. */
static int lines_skip_to(lines *L, uint64_t off, gm_error *err)
{
    while (L->next_off < off) {
        if (L->chunk_pos == L->chunk_len) {
            if (src_read(&L->s, L->chunk, IN_CHUNK, &L->chunk_len, L->name, err))
                return -1;
            L->chunk_pos = 0;
            if (L->chunk_len == 0)
                return gm_fail(err, "%s: shorter than when the workload was built", L->name);
        }
        size_t n = L->chunk_len - L->chunk_pos;
        if (n > off - L->next_off)
            n = (size_t)(off - L->next_off);
        L->chunk_pos += n;
        L->next_off += n;
    }
    return 0;
}

/* Positions L so that the next line read starts at decoded offset `off`
 * and is numbered `no`. A plain file seeks; xz data cannot, so it is
 * decoded on from where it is, or from the start again when `off` lies
 * behind (CTAs are asked for in the order the file holds them, usually,
 * so that is rare). */
static int lines_seek(lines *L, const char *path, uint64_t off, unsigned long no,
                      gm_error *err)
{
    /* The next CTA usually starts a few lines on, inside the bytes
     * already read: skip them rather than read them again. */
    int near = off >= L->next_off && off - L->next_off <= L->chunk_len - L->chunk_pos;
    if (off != L->next_off) {
        if (L->s.f && !L->s.xz && !near) {
            if (off > INT64_MAX || fseeko(L->s.f, (off_t)off, SEEK_SET) != 0)
                return gm_fail(err, "%s: cannot seek: %s", path, strerror(errno));
            L->s.in_pos = L->s.in_len = 0;
            L->s.raw_eof = 0;
            L->chunk_pos = L->chunk_len = 0;
            L->eof = 0;
            L->next_off = off;
        } else {
            if (off < L->next_off) {
                L->rewinds++;
                src_close(&L->s);
                if (src_open_file(&L->s, path, err))
                    return -1;
                L->chunk_pos = L->chunk_len = 0;
                L->eof = 0;
                L->next_off = 0;
            }
            if (lines_skip_to(L, off, err))
                return -1;
        }
    }
    L->no = no - 1;
    return 0;
}

/* ================================================================ tokens */

typedef struct tok {
    const char *p;
    size_t n;
} tok;

typedef struct cursor {
    const char *p, *end;
} cursor;

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static int next_tok(cursor *c, tok *t)
{
    while (c->p < c->end && is_space(*c->p))
        c->p++;
    t->p = c->p;
    t->n = 0;
    if (c->p == c->end)
        return 0;
    while (c->p < c->end && !is_space(*c->p))
        c->p++;
    t->n = (size_t)(c->p - t->p);
    return 1;
}

static int tok_is(tok t, const char *s)
{
    return t.n == strlen(s) && memcmp(t.p, s, t.n) == 0;
}

static int parse_dec(const char *p, size_t n, uint64_t *v)
{
    uint64_t x = 0;
    if (n == 0)
        return -1;
    for (size_t i = 0; i < n; i++) {
        if (p[i] < '0' || p[i] > '9')
            return -1;
        unsigned d = (unsigned)(p[i] - '0');
        if (x > (UINT64_MAX - d) / 10)
            return -1;
        x = x * 10 + d;
    }
    *v = x;
    return 0;
}

static int parse_sdec(const char *p, size_t n, int64_t *v)
{
    int neg = 0;
    uint64_t x;
    if (n && (p[0] == '-' || p[0] == '+')) {
        neg = p[0] == '-';
        p++;
        n--;
    }
    if (parse_dec(p, n, &x))
        return -1;
    if (neg ? x > (uint64_t)INT64_MAX + 1 : x > (uint64_t)INT64_MAX)
        return -1;
    *v = neg ? (int64_t)(0 - x) : (int64_t)x;
    return 0;
}

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Hexadecimal with or without 0x, at most 64 bits. */
static int parse_hex(const char *p, size_t n, uint64_t *v)
{
    uint64_t x = 0;
    if (n >= 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
        p += 2;
        n -= 2;
    }
    while (n > 1 && *p == '0') {   /* leading zeros do not count */
        p++;
        n--;
    }
    if (n == 0 || n > 16)
        return -1;
    for (size_t i = 0; i < n; i++) {
        int d = hex_digit(p[i]);
        if (d < 0)
            return -1;
        x = x << 4 | (uint64_t)d;
    }
    *v = x;
    return 0;
}

/* Text of a token for messages, cut short. */
static const char *tok_text(tok t, char *buf, size_t cap)
{
    size_t n = t.n < cap - 1 ? t.n : cap - 1;
    memcpy(buf, t.p, n);
    buf[n] = '\0';
    return buf;
}

/* ================================================================ buffers */

typedef struct bytes {
    uint8_t *p;
    size_t len, cap;
} bytes;

static int bytes_reserve(bytes *b, size_t more)
{
    if (more > SIZE_MAX / 2 - b->len)
        return -1;
    if (b->len + more <= b->cap)
        return 0;
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->len + more)
        cap *= 2;
    uint8_t *q = realloc(b->p, cap);
    if (!q)
        return -1;
    b->p = q;
    b->cap = cap;
    return 0;
}

static int bytes_put(bytes *b, const void *p, size_t n)
{
    if (n == 0)
        return 0;
    if (bytes_reserve(b, n))
        return -1;
    memcpy(b->p + b->len, p, n);
    b->len += n;
    return 0;
}

static void put_u64(uint8_t *p, uint64_t v)
{
    memcpy(p, &v, 8);
}

static uint64_t get_u64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}


/* A set of 128 B line numbers (open addressing; slots hold line + 1, so
 * 0 is free: line numbers are addresses >> 7, below 2^57). */
typedef struct line_set {
    uint64_t *slot;
    size_t cap, n;     /* cap is a power of two */
} line_set;

static size_t line_hash(uint64_t key, size_t cap)
{
    return (size_t)((key * 0x9e3779b97f4a7c15ull) >> 17) & (cap - 1);
}

static int line_set_add(line_set *s, uint64_t line)
{
    uint64_t key = line + 1;
    if ((s->n + 1) * 2 > s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 1024;
        uint64_t *t = calloc(cap, sizeof *t);
        if (!t)
            return -1;
        for (size_t i = 0; i < s->cap; i++) {
            if (!s->slot[i])
                continue;
            size_t j = line_hash(s->slot[i], cap);
            while (t[j])
                j = (j + 1) & (cap - 1);
            t[j] = s->slot[i];
        }
        free(s->slot);
        s->slot = t;
        s->cap = cap;
    }
    size_t j = line_hash(key, s->cap);
    while (s->slot[j] && s->slot[j] != key)
        j = (j + 1) & (s->cap - 1);
    if (!s->slot[j]) {
        s->slot[j] = key;
        s->n++;
    }
    return 0;
}

static int line_set_has(const line_set *s, uint64_t line)
{
    if (!s->n)
        return 0;
    uint64_t key = line + 1;
    size_t j = line_hash(key, s->cap);
    while (s->slot[j]) {
        if (s->slot[j] == key)
            return 1;
        j = (j + 1) & (s->cap - 1);
    }
    return 0;
}

/* ================================================================ records */

/* One instruction in an image:
 *   0 op, 1 dst, 2..4 src, 5 width, 6 flags, 7 address encoding,
 *   8..11 mask (little endian), then for encoding
 *   ENC_STRIDE: base, stride (2 x u64): active lane k at base + k*stride;
 *   ENC_LIST:   one u64 per active lane, lowest lane first. */
#define REC_HEAD 12
enum { ENC_NONE = 0, ENC_STRIDE = 1, ENC_LIST = 2 };

static size_t rec_size(const uint8_t *r)
{
    uint32_t mask;
    memcpy(&mask, r + 8, 4);
    switch (r[7]) {
    case ENC_STRIDE: return REC_HEAD + 16;
    case ENC_LIST: return REC_HEAD + 8u * (unsigned)__builtin_popcount(mask);
    default: return REC_HEAD;
    }
}

static int rec_put(bytes *b, const gm_inst *in)
{
    uint8_t h[REC_HEAD];
    int n = __builtin_popcount(in->mask);
    uint64_t base = 0, stride = 0;
    int enc = ENC_NONE;

    if (gm_op_is_mem(in->op) && in->width && n) {
        int k = 0, strided = 1;
        for (uint32_t m = in->mask; m; m &= m - 1, k++) {
            uint64_t a = in->addr[__builtin_ctz(m)];
            if (k == 0)
                base = a;
            else if (k == 1)
                stride = a - base;
            else if (a != base + (uint64_t)k * stride)
                strided = 0;
        }
        enc = strided ? ENC_STRIDE : ENC_LIST;
    }
    h[0] = in->op;
    h[1] = in->dst;
    h[2] = in->src[0];
    h[3] = in->src[1];
    h[4] = in->src[2];
    h[5] = in->width;
    h[6] = in->flags;
    h[7] = (uint8_t)enc;
    memcpy(h + 8, &in->mask, 4);
    if (bytes_reserve(b, REC_HEAD + 8u * GM_WARP_SIZE))
        return -1;
    bytes_put(b, h, REC_HEAD);
    if (enc == ENC_STRIDE) {
        put_u64(b->p + b->len, base);
        put_u64(b->p + b->len + 8, stride);
        b->len += 16;
    } else if (enc == ENC_LIST) {
        for (uint32_t m = in->mask; m; m &= m - 1) {
            put_u64(b->p + b->len, in->addr[__builtin_ctz(m)]);
            b->len += 8;
        }
    }
    return 0;
}

/* Decodes the record at r into *in; returns its size. */
static size_t rec_get(const uint8_t *r, gm_inst *in)
{
    in->op = r[0];
    in->dst = r[1];
    in->src[0] = r[2];
    in->src[1] = r[3];
    in->src[2] = r[4];
    in->width = r[5];
    in->flags = r[6];
    memcpy(&in->mask, r + 8, 4);
    if (gm_op_is_mem(in->op)) {
        memset(in->addr, 0, sizeof in->addr);
        const uint8_t *a = r + REC_HEAD;
        uint64_t base = r[7] == ENC_STRIDE ? get_u64(a) : 0;
        uint64_t stride = r[7] == ENC_STRIDE ? get_u64(a + 8) : 0;
        uint64_t k = 0;
        for (uint32_t m = in->mask; m && r[7] != ENC_NONE; m &= m - 1, k++)
            in->addr[__builtin_ctz(m)] = r[7] == ENC_STRIDE ? base + k * stride : get_u64(a + 8 * k);
    }
    return rec_size(r);
}

/* Calls fn for every 128 B line an access of the active lanes touches. */
static int inst_lines(const gm_inst *in, int (*fn)(void *, uint64_t), void *arg)
{
    uint64_t last = in->width ? in->width - 1u : 0;
    for (uint32_t m = in->mask; m; m &= m - 1) {
        uint64_t a = in->addr[__builtin_ctz(m)];
        uint64_t l0 = a >> LINE_SHIFT, l1 = (a + last) >> LINE_SHIFT;
        int rc = fn(arg, l0);
        if (!rc && l1 != l0)
            rc = fn(arg, l1);
        if (rc)
            return rc;
    }
    return 0;
}

static int is_store_class(int op)
{
    return op == GM_OP_GLOBAL_ST || op == GM_OP_ATOMIC || op == GM_OP_LOCAL_ST;
}

static int add_line_cb(void *arg, uint64_t line)
{
    return line_set_add(arg, line) ? -1 : 0;
}

static int stored_line_cb(void *arg, uint64_t line)
{
    return line_set_has(arg, line);
}

/* The read-only rule: a global load gets GM_INST_READ_ONLY when no store,
 * atomic or local store of the same kernel (any warp, any CTA, any time)
 * touches a byte of any 128 B line the load touches. */
static void mark_read_only(uint8_t *stream, size_t len, const line_set *stored)
{
    gm_inst in;
    for (size_t off = 0; off < len;) {
        size_t sz = rec_get(stream + off, &in);
        if (in.op == GM_OP_GLOBAL_LD && !inst_lines(&in, stored_line_cb, (void *)stored))
            stream[off + 6] |= GM_INST_READ_ONLY;
        off += sz;
    }
}

/* ================================================================ kernels */

typedef struct kinfo {
    char name[64];
    gm_dim3 grid, block;
    unsigned version;        /* 0: no "-accelsim tracer version" line */
    int lineinfo;
    gm_sass_windows win;
} kinfo;

typedef struct warp_entry {
    uint64_t key;            /* linear CTA * warps per CTA + warp */
    uint64_t off;            /* first record in the stream; KP_INDEX: decoded
                              * file offset of its "warp =" line */
    unsigned long line;      /* of its "warp =" line */
    uint64_t hash;           /* KP_INDEX: of its records (before the
                              * read-only flags) */
} warp_entry;

/* What a parse keeps. KP_IMAGE: the whole kernel's records (resident
 * traces, memory buffers). KP_INDEX: only where each warp starts, a hash
 * of its records and the lines stores touch, so that memory does not grow
 * with the file. KP_WARPS: the records of warps read one at a time from
 * the offsets of a KP_INDEX pass. */
typedef enum kp_mode { KP_IMAGE, KP_INDEX, KP_WARPS } kp_mode;

typedef struct kimage {
    kinfo info;
    uint32_t ctas, warps;    /* CTAs; warps per CTA */
    bytes stream;
    uint64_t *index;         /* [ctas * warps] stream offsets */
} kimage;

static void kimage_free(kimage *im)
{
    free(im->stream.p);
    free(im->index);
    memset(im, 0, sizeof *im);
}

static uint64_t kimage_bytes(const kimage *im)
{
    return (uint64_t)im->ctas * im->warps * 8 + im->stream.len;
}

/* Writes index then stream (the image layout) to dst; returns its hash. */
static uint64_t kimage_emit(const kimage *im, uint8_t *dst)
{
    size_t ib = (size_t)im->ctas * im->warps * 8;
    for (size_t i = 0; i < (size_t)im->ctas * im->warps; i++)
        put_u64(dst + 8 * i, im->index[i]);
    if (im->stream.len)
        memcpy(dst + ib, im->stream.p, im->stream.len);
    return gm_fnv1a_bytes(GM_FNV1A_INIT, dst, ib + im->stream.len);
}

typedef struct kparse {
    lines *L;
    gm_error *err;
    kimage *im;
    kp_mode mode;
    int in_header;
    int have_grid, have_block;
    /* the thread block being read */
    int in_tb, have_tb;
    uint32_t tb[3];
    uint32_t cta;
    /* the warp being read */
    int in_warp, want_insts, have_warp;
    uint32_t warp, exist;
    uint64_t insts_left;
    unsigned long warp_lineno;   /* of its "warp =" line */
    uint64_t warp_fileoff;       /* and its decoded offset */
    size_t warp_start;           /* its first record in im->stream */
    int last_exit;           /* the warp's last record so far is its EXIT */
    warp_entry *ent;
    size_t nent, capent;
    line_set stored;
} kparse;

static int kfail(kparse *k, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int kfail(kparse *k, const char *fmt, ...)
{
    char msg[384];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return gm_fail(k->err, "%s:%lu: %s", k->L->name, k->L->no, msg);
}

static int koom(kparse *k)
{
    return gm_fail(k->err, "%s: out of memory", k->L->name);
}

/* "( x , y , z )" with positive decimal numbers. */
static int parse_dim3(const char *p, const char *end, gm_dim3 *d)
{
    uint32_t v[3];
    while (p < end && is_space(*p))
        p++;
    if (p == end || *p++ != '(')
        return -1;
    for (int i = 0; i < 3; i++) {
        while (p < end && is_space(*p))
            p++;
        const char *q = p;
        while (q < end && *q >= '0' && *q <= '9')
            q++;
        uint64_t x;
        if (parse_dec(p, (size_t)(q - p), &x) || x == 0 || x > UINT32_MAX)
            return -1;
        v[i] = (uint32_t)x;
        p = q;
        while (p < end && is_space(*p))
            p++;
        if (p == end || *p++ != (i < 2 ? ',' : ')'))
            return -1;
    }
    while (p < end && is_space(*p))
        p++;
    if (p != end)
        return -1;
    *d = gm_dim3_make(v[0], v[1], v[2]);
    return 0;
}

static void trim(const char **p, const char **end)
{
    while (*p < *end && is_space(**p))
        (*p)++;
    while (*end > *p && is_space((*end)[-1]))
        (*end)--;
}

static int value_u64(const char *p, const char *end, int hex, uint64_t *v)
{
    trim(&p, &end);
    return hex ? parse_hex(p, (size_t)(end - p), v) : parse_dec(p, (size_t)(end - p), v);
}

/* "-key = value" */
static int header_line(kparse *k, const char *line, size_t len)
{
    const char *end = line + len, *eq = memchr(line, '=', len);
    if (!eq)
        return kfail(k, "header line without '=': expected '-key = value'");
    const char *key = line + 1, *kend = eq, *val = eq + 1, *vend = end;
    trim(&key, &kend);
    trim(&val, &vend);
    size_t kn = (size_t)(kend - key);
    kinfo *in = &k->im->info;
    uint64_t v;
#define KEY(s) (kn == sizeof(s) - 1 && memcmp(key, s, kn) == 0)
    if (KEY("kernel name")) {
        size_t n = (size_t)(vend - val) < sizeof in->name - 1 ? (size_t)(vend - val)
                                                              : sizeof in->name - 1;
        memcpy(in->name, val, n);
        in->name[n] = '\0';
    } else if (KEY("grid dim")) {
        if (parse_dim3(val, vend, &in->grid))
            return kfail(k, "bad grid dim: expected '(x,y,z)' with positive numbers");
        k->have_grid = 1;
    } else if (KEY("block dim")) {
        if (parse_dim3(val, vend, &in->block))
            return kfail(k, "bad block dim: expected '(x,y,z)' with positive numbers");
        k->have_block = 1;
    } else if (KEY("accelsim tracer version")) {
        if (value_u64(val, vend, 0, &v) || v < 1 || v > 5)
            return kfail(k, "unsupported tracer version '%.*s' (1 to 5 are read)",
                         (int)(vend - val < 32 ? vend - val : 32), val);
        in->version = (unsigned)v;
    } else if (KEY("enable lineinfo")) {
        if (value_u64(val, vend, 0, &v) || v > 1)
            return kfail(k, "bad enable lineinfo: expected 0 or 1");
        in->lineinfo = (int)v;
    } else if (KEY("shmem base_addr")) {
        if (value_u64(val, vend, 1, &in->win.shmem_base))
            return kfail(k, "bad shmem base_addr: expected a hexadecimal address");
    } else if (KEY("local mem base_addr")) {
        if (value_u64(val, vend, 1, &in->win.local_base))
            return kfail(k, "bad local mem base_addr: expected a hexadecimal address");
    } else if (KEY("warp size")) {
        if (value_u64(val, vend, 0, &v) || v != GM_WARP_SIZE)
            return kfail(k, "warp size must be %d", GM_WARP_SIZE);
    }
#undef KEY
    /* Other keys (kernel id, shmem, nregs, binary version, stream id,
     * nvbit version) do not change what the model runs. */
    return 0;
}

static int end_header(kparse *k)
{
    kinfo *in = &k->im->info;
    if (!k->have_grid)
        return kfail(k, "header has no '-grid dim' line");
    if (!k->have_block)
        return kfail(k, "header has no '-block dim' line");
    uint64_t threads = (uint64_t)in->block.x * in->block.y * in->block.z;
    uint64_t ctas = (uint64_t)in->grid.x * in->grid.y * in->grid.z;
    if (in->block.x > MAX_BLOCK_THREADS || in->block.y > MAX_BLOCK_THREADS ||
        in->block.z > MAX_BLOCK_THREADS || threads > MAX_BLOCK_THREADS)
        return kfail(k, "block of %llu threads: at most %u",
                     (unsigned long long)threads, MAX_BLOCK_THREADS);
    if (in->grid.x > MAX_GRID_CTAS || in->grid.y > MAX_GRID_CTAS ||
        in->grid.z > MAX_GRID_CTAS || ctas > MAX_GRID_CTAS)
        return kfail(k, "grid of more than %llu thread blocks", MAX_GRID_CTAS);
    k->im->ctas = (uint32_t)ctas;
    k->im->warps = (uint32_t)((threads + GM_WARP_SIZE - 1) / GM_WARP_SIZE);
    k->in_header = 0;
    return 0;
}

static int put_rec(kparse *k, const gm_inst *in)
{
    if (rec_put(&k->im->stream, in))
        return koom(k);
    if (k->mode != KP_WARPS && is_store_class(in->op) &&
        inst_lines(in, add_line_cb, &k->stored))
        return koom(k);
    return 0;
}

/* The warp's instructions are all read: it must end with its EXIT. */
static int end_warp(kparse *k)
{
    k->in_warp = 0;
    if (!k->last_exit) {
        gm_inst x;
        gm_emit(&x, GM_OP_EXIT, k->exist, GM_REG_NONE, GM_REG_NONE, GM_REG_NONE, GM_REG_NONE);
        if (put_rec(k, &x))
            return -1;
    }
    if (k->mode == KP_INDEX) {
        bytes *b = &k->im->stream;
        k->ent[k->nent - 1].hash =
            gm_fnv1a_bytes(GM_FNV1A_INIT, b->p + k->warp_start, b->len - k->warp_start);
        b->len = k->warp_start;   /* only the hash is kept */
    }
    return 0;
}

static int check_warp_done(kparse *k)
{
    if (k->want_insts)
        return kfail(k, "expected 'insts = <number>' after 'warp = %u'", k->warp);
    if (k->in_warp && k->insts_left)
        return kfail(k, "warp %u of thread block %u,%u,%u: %llu instruction line%s missing",
                     k->warp, k->tb[0], k->tb[1], k->tb[2], (unsigned long long)k->insts_left,
                     k->insts_left == 1 ? "" : "s");
    return 0;
}

static int end_tb(kparse *k)
{
    if (check_warp_done(k))
        return -1;
    if (k->in_tb && !k->have_tb)
        return kfail(k, "thread block without a 'thread block = x,y,z' line");
    k->in_tb = k->have_tb = k->in_warp = k->have_warp = 0;
    return 0;
}

/* "R<n>" (R255 is RZ), or an operand that is not a vector register
 * (RZ, predicates, uniform registers): GM_REG_NONE. */
static int parse_reg(kparse *k, tok t, uint8_t *r)
{
    static const char *const none[] = {"RZ", "PT", "!PT", "URZ", "UPT", "!UPT"};
    char buf[40];
    uint64_t v;
    for (size_t i = 0; i < sizeof none / sizeof *none; i++)
        if (tok_is(t, none[i])) {
            *r = GM_REG_NONE;
            return 0;
        }
    if (t.n >= 2 && t.p[0] == 'R' && !parse_dec(t.p + 1, t.n - 1, &v) && v <= 255) {
        *r = (uint8_t)v;   /* 255 is RZ, which is GM_REG_NONE */
        return 0;
    }
    const char *p = t.p;
    size_t n = t.n;
    if (n && *p == '!') {
        p++;
        n--;
    }
    if (n >= 2 && (p[0] == 'P' || (p[0] == 'U' && (p[1] == 'R' || p[1] == 'P')))) {
        size_t skip = p[0] == 'U' ? 2 : 1;
        if (n > skip && !parse_dec(p + skip, n - skip, &v) && v <= 255) {
            *r = GM_REG_NONE;
            return 0;
        }
    }
    return kfail(k, "bad register operand '%s'", tok_text(t, buf, sizeof buf));
}

static int need(kparse *k, cursor *c, tok *t, const char *what)
{
    if (!next_tok(c, t))
        return kfail(k, "line ends before the %s", what);
    return 0;
}

static int need_dec(kparse *k, cursor *c, const char *what, uint64_t *v)
{
    tok t = {0};
    char buf[40];
    if (need(k, c, &t, what))
        return -1;
    if (parse_dec(t.p, t.n, v))
        return kfail(k, "bad %s '%s': expected a decimal number", what,
                     tok_text(t, buf, sizeof buf));
    return 0;
}

static int need_hex(kparse *k, cursor *c, const char *what, uint64_t *v)
{
    tok t = {0};
    char buf[40];
    if (need(k, c, &t, what))
        return -1;
    if (parse_hex(t.p, t.n, v))
        return kfail(k, "bad %s '%s': expected a hexadecimal number", what,
                     tok_text(t, buf, sizeof buf));
    return 0;
}

static int need_sdec(kparse *k, cursor *c, const char *what, int64_t *v)
{
    tok t = {0};
    char buf[40];
    if (need(k, c, &t, what))
        return -1;
    if (parse_sdec(t.p, t.n, v))
        return kfail(k, "bad %s '%s': expected a signed decimal number", what,
                     tok_text(t, buf, sizeof buf));
    return 0;
}

/* Active lanes form one run of consecutive lanes (or none). */
static int one_run(uint32_t m)
{
    if (!m)
        return 1;
    m >>= __builtin_ctz(m);
    return (m & (m + 1)) == 0;
}

static int read_addresses(kparse *k, cursor *c, uint32_t mask, uint64_t *addr)
{
    uint64_t fmt, base;
    int64_t s;
    memset(addr, 0, GM_WARP_SIZE * sizeof *addr);
    if (need_dec(k, c, "address format", &fmt))
        return -1;
    switch (fmt) {
    case 0:
        for (uint32_t m = mask; m; m &= m - 1)
            if (need_hex(k, c, "address", &addr[__builtin_ctz(m)]))
                return -1;
        return 0;
    case 1:
        if (need_hex(k, c, "base address", &base) || need_sdec(k, c, "stride", &s))
            return -1;
        if (!one_run(mask))
            return kfail(k, "base+stride addresses with lane mask %08x, which is not "
                            "one run of consecutive lanes", mask);
        for (uint64_t i = 0; mask; mask &= mask - 1, i++)
            addr[__builtin_ctz(mask)] = base + i * (uint64_t)s;
        return 0;
    case 2:
        if (need_hex(k, c, "base address", &base))
            return -1;
        for (int i = 0; mask; mask &= mask - 1, i++) {
            if (i > 0) {
                if (need_sdec(k, c, "address delta", &s))
                    return -1;
                base += (uint64_t)s;
            }
            addr[__builtin_ctz(mask)] = base;
        }
        return 0;
    default:
        return kfail(k, "unknown address format %llu (0 list, 1 base+stride, 2 base+delta)",
                     (unsigned long long)fmt);
    }
}

/* Is this class one the core sends to memory (it needs addresses)? */
static int core_memory_op(int op)
{
    return op >= GM_OP_GLOBAL_LD && op <= GM_OP_CONST_LD;
}

/* Fields before the registers: the block and warp (before version 3),
 * the source line (lineinfo), PC and lane mask. */
static int read_line_head(kparse *k, cursor *c, uint32_t *mask)
{
    uint64_t v, m;
    if (k->im->info.version < 3) {
        /* Before tracer version 3 every line starts with its thread block
         * and warp; they must be the ones being read. */
        uint64_t id[4];
        static const char *const what[4] = {"thread block x", "thread block y",
                                            "thread block z", "warp id"};
        for (int i = 0; i < 4; i++)
            if (need_dec(k, c, what[i], &id[i]))
                return -1;
        if (id[0] != k->tb[0] || id[1] != k->tb[1] || id[2] != k->tb[2] || id[3] != k->warp)
            return kfail(k, "line of thread block %llu,%llu,%llu warp %llu inside thread "
                            "block %u,%u,%u warp %u",
                         (unsigned long long)id[0], (unsigned long long)id[1],
                         (unsigned long long)id[2], (unsigned long long)id[3], k->tb[0],
                         k->tb[1], k->tb[2], k->warp);
    }
    if (k->im->info.lineinfo && need_dec(k, c, "source line number", &v))
        return -1;
    if (need_hex(k, c, "PC", &v) || need_hex(k, c, "lane mask", &m))
        return -1;
    if (m > UINT32_MAX)
        return kfail(k, "lane mask %llx has more than 32 lanes", (unsigned long long)m);
    if (m & ~(uint64_t)k->exist)
        return kfail(k, "lane mask %08llx has lanes beyond the block's threads (%08x)",
                     (unsigned long long)m, k->exist);
    *mask = (uint32_t)m;
    return 0;
}

/* "<count> <register>..." for destinations (the first one counts) or
 * sources (they keep their slots, an RZ leaves its slot empty; a fourth or
 * later register takes the first empty slot, if any). */
static int read_registers(kparse *k, cursor *c, int sources, gm_inst *in)
{
    uint64_t n;
    tok t = {0};
    const char *what = sources ? "source" : "destination";
    if (need_dec(k, c, sources ? "source count" : "destination count", &n))
        return -1;
    if (n > (sources ? MAX_SRCS : MAX_DSTS))
        return kfail(k, "%llu %s registers (at most %d)", (unsigned long long)n, what,
                     sources ? MAX_SRCS : MAX_DSTS);
    for (uint64_t i = 0; i < n; i++) {
        uint8_t r = GM_REG_NONE;
        if (need(k, c, &t, sources ? "source register" : "destination register") ||
            parse_reg(k, t, &r))
            return -1;
        if (!sources) {
            if (in->dst == GM_REG_NONE)
                in->dst = r;
        } else if (i < GM_MAX_SRC) {
            in->src[i] = r;
        } else if (r != GM_REG_NONE) {
            for (int j = 0; j < GM_MAX_SRC; j++)
                if (in->src[j] == GM_REG_NONE) {
                    in->src[j] = r;
                    break;
                }
        }
    }
    return 0;
}

/* mem_width, the addresses and the optional immediate, to the end. */
static int read_line_tail(kparse *k, cursor *c, gm_inst *in, uint64_t *width)
{
    tok t = {0};
    char buf[40];
    if (need_dec(k, c, "mem_width", width))
        return -1;
    if (*width > MAX_WIDTH)
        return kfail(k, "mem_width %llu (at most %u bytes per lane)",
                     (unsigned long long)*width, MAX_WIDTH);
    if (*width && read_addresses(k, c, in->mask, in->addr))
        return -1;
    if (next_tok(c, &t)) {   /* the immediate (tracer version 5) */
        int64_t imm;
        if (parse_sdec(t.p, t.n, &imm))
            return kfail(k, "unexpected '%s' after the addresses", tok_text(t, buf, sizeof buf));
        if (next_tok(c, &t))
            return kfail(k, "unexpected '%s' at the end of the line", tok_text(t, buf, sizeof buf));
    }
    return 0;
}

/* The gm_op of an instruction line (docs/traces.md, "From SASS"). */
static int classify(const kparse *k, tok opcode, const gm_inst *in, uint64_t width, int last)
{
    gm_sass_class cls = gm_sass_classify(opcode.p, opcode.n);
    int op = cls.op;
    if (cls.kind != GM_SASS_FIXED && width && in->mask)
        op = gm_sass_resolve(cls.kind, &k->im->info.win, in->addr[__builtin_ctz(in->mask)]);
    /* Without addresses (texture and constant loads never carry any) an
     * access cannot make traffic: it counts by its latency only. */
    if (core_memory_op(op) && !width)
        op = GM_OP_ALU;
    /* Only the warp's last EXIT ends it; an earlier one (predicated off,
     * or some lanes leaving early) is control flow. */
    if (op == GM_OP_EXIT && !last)
        op = GM_OP_BRANCH;
    return op;
}

static int inst_line(kparse *k, const char *line, size_t len)
{
    cursor c = {line, line + len};
    tok opcode = {0};
    uint64_t width = 0;
    uint32_t mask = 0;
    char buf[40];
    gm_inst in;

    if (!k->in_warp && k->have_warp)
        return kfail(k, "more instruction lines than 'insts =' said for warp %u", k->warp);
    if (!k->in_warp)
        return kfail(k, "instruction line outside a warp (no 'warp =' and 'insts =' before it)");
    if (read_line_head(k, &c, &mask))
        return -1;
    gm_emit(&in, GM_OP_ALU, mask, GM_REG_NONE, GM_REG_NONE, GM_REG_NONE, GM_REG_NONE);
    memset(in.addr, 0, sizeof in.addr);
    if (read_registers(k, &c, 0, &in) || need(k, &c, &opcode, "opcode"))
        return -1;
    if (!((opcode.p[0] >= 'A' && opcode.p[0] <= 'Z') || (opcode.p[0] >= 'a' && opcode.p[0] <= 'z')))
        return kfail(k, "bad opcode '%s'", tok_text(opcode, buf, sizeof buf));
    if (read_registers(k, &c, 1, &in) || read_line_tail(k, &c, &in, &width))
        return -1;

    k->insts_left--;
    int op = classify(k, opcode, &in, width, k->insts_left == 0);
    in.op = (uint8_t)op;
    if (gm_op_is_mem(op))
        in.width = (uint8_t)width;
    else
        memset(in.addr, 0, sizeof in.addr);
    k->last_exit = op == GM_OP_EXIT;
    if (put_rec(k, &in))
        return -1;
    return k->insts_left ? 0 : end_warp(k);
}

/* "thread block = x,y,z" */
static int tb_line(kparse *k, const char *line, size_t len)
{
    const char *p = memchr(line, '=', len), *end = line + len;
    uint64_t v[3];
    kinfo *in = &k->im->info;
    if (!k->in_tb)
        return kfail(k, "'thread block' line outside #BEGIN_TB");
    if (k->have_tb)
        return kfail(k, "second 'thread block' line in one #BEGIN_TB");
    if (!p)
        return kfail(k, "bad thread block line: expected 'thread block = x,y,z'");
    p++;
    for (int i = 0; i < 3; i++) {
        const char *q = i < 2 ? memchr(p, ',', (size_t)(end - p)) : end;
        if (!q)
            return kfail(k, "bad thread block line: expected 'thread block = x,y,z'");
        const char *a = p, *b = q;
        trim(&a, &b);
        if (parse_dec(a, (size_t)(b - a), &v[i]))
            return kfail(k, "bad thread block line: expected 'thread block = x,y,z'");
        p = q + 1;
    }
    if (v[0] >= in->grid.x || v[1] >= in->grid.y || v[2] >= in->grid.z)
        return kfail(k, "thread block %llu,%llu,%llu outside the grid (%u,%u,%u)",
                     (unsigned long long)v[0], (unsigned long long)v[1],
                     (unsigned long long)v[2], in->grid.x, in->grid.y, in->grid.z);
    for (int i = 0; i < 3; i++)
        k->tb[i] = (uint32_t)v[i];
    k->cta = k->tb[0] + in->grid.x * (k->tb[1] + in->grid.y * k->tb[2]);
    k->have_tb = 1;
    return 0;
}

/* "warp = w" or "insts = n": the number after '='. */
static int keyword_value(kparse *k, const char *line, size_t len, const char *what,
                         uint64_t *v)
{
    const char *p = memchr(line, '=', len), *end = line + len;
    if (!p)
        return kfail(k, "bad '%s' line: expected '%s = <number>'", what, what);
    p++;
    trim(&p, &end);
    if (parse_dec(p, (size_t)(end - p), v))
        return kfail(k, "bad '%s' line: expected '%s = <number>'", what, what);
    return 0;
}

static int warp_line(kparse *k, const char *line, size_t len)
{
    uint64_t w;
    if (!k->in_tb || !k->have_tb)
        return kfail(k, "'warp' line outside a thread block");
    if (check_warp_done(k) || keyword_value(k, line, len, "warp", &w))
        return -1;
    if (w >= k->im->warps)
        return kfail(k, "warp %llu: the block has %u warps", (unsigned long long)w,
                     k->im->warps);
    const gm_dim3 *b = &k->im->info.block;
    k->warp = (uint32_t)w;
    k->exist = gm_warp_exist_mask(b->x * b->y * b->z, k->warp);
    k->in_warp = 0;
    k->want_insts = 1;
    k->have_warp = 1;
    k->warp_lineno = k->L->no;
    k->warp_fileoff = k->L->off;
    return 0;
}

static int insts_line(kparse *k, const char *line, size_t len)
{
    uint64_t n;
    if (!k->want_insts)
        return kfail(k, "'insts' line without a 'warp' line before it");
    if (keyword_value(k, line, len, "insts", &n))
        return -1;
    if (k->nent == k->capent) {
        size_t cap = k->capent ? k->capent * 2 : 64;
        warp_entry *e = realloc(k->ent, cap * sizeof *e);
        if (!e)
            return koom(k);
        k->ent = e;
        k->capent = cap;
    }
    k->warp_start = k->im->stream.len;
    k->ent[k->nent++] = (warp_entry){(uint64_t)k->cta * k->im->warps + k->warp,
                                     k->mode == KP_INDEX ? k->warp_fileoff : k->warp_start,
                                     k->warp_lineno, 0};
    k->in_warp = 1;
    k->want_insts = 0;
    k->insts_left = n;
    k->last_exit = 0;
    return n ? 0 : end_warp(k);
}

static int body_line(kparse *k, const char *line, size_t len)
{
    cursor c = {line, line + len};
    tok t1 = {0}, t2 = {0};
    if (!next_tok(&c, &t1))
        return 0;
    if (tok_is(t1, "#BEGIN_TB")) {
        if (end_tb(k))
            return -1;
        k->in_tb = 1;
        return 0;
    }
    if (tok_is(t1, "#END_TB")) {
        if (!k->in_tb)
            return kfail(k, "#END_TB without #BEGIN_TB");
        return end_tb(k);
    }
    if (t1.p[0] == '#')
        return 0;   /* a comment, like the "#traces format" line */
    int have2 = next_tok(&c, &t2);
    if (tok_is(t1, "thread") && have2 && tok_is(t2, "block"))
        return tb_line(k, line, len);
    if (tok_is(t1, "warp") || (t1.n > 4 && memcmp(t1.p, "warp=", 5) == 0))
        return warp_line(k, line, len);
    if (tok_is(t1, "insts") || (t1.n > 5 && memcmp(t1.p, "insts=", 6) == 0))
        return insts_line(k, line, len);
    if (k->want_insts)
        return kfail(k, "expected 'insts = <number>' after 'warp = %u'", k->warp);
    return inst_line(k, line, len);
}

/* A body line as parse_kernel hands it over: leading blanks dropped. */
static int body_line_trimmed(kparse *k, const char *line, size_t len)
{
    while (len && is_space(*line)) {
        line++;
        len--;
    }
    return len ? body_line(k, line, len) : 0;
}

static int cmp_entry(const void *a, const void *b)
{
    const warp_entry *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->line < y->line ? -1 : x->line > y->line;
}

/* Every warp of every thread block appears exactly once; builds the index. */
static int finish_kernel(kparse *k)
{
    kimage *im = k->im;
    uint64_t n = (uint64_t)im->ctas * im->warps;
    if (k->nent)
        qsort(k->ent, k->nent, sizeof *k->ent, cmp_entry);
    for (size_t i = 1; i < k->nent; i++)
        if (k->ent[i].key == k->ent[i - 1].key) {
            uint64_t cta = k->ent[i].key / im->warps;
            return gm_fail(k->err, "%s:%lu: warp %llu of thread block %llu,%llu,%llu "
                                   "appears a second time",
                           k->L->name, k->ent[i].line,
                           (unsigned long long)(k->ent[i].key % im->warps),
                           (unsigned long long)(cta % im->info.grid.x),
                           (unsigned long long)(cta / im->info.grid.x % im->info.grid.y),
                           (unsigned long long)(cta / im->info.grid.x / im->info.grid.y));
        }
    if (k->nent != n) {
        uint64_t miss = 0;
        while (miss < k->nent && k->ent[miss].key == miss)
            miss++;
        uint64_t cta = miss / im->warps;
        return gm_fail(k->err, "%s: %llu of the %llu warps are missing (the first is warp %llu "
                               "of thread block %llu,%llu,%llu): truncated trace?",
                       k->L->name, (unsigned long long)(n - k->nent), (unsigned long long)n,
                       (unsigned long long)(miss % im->warps),
                       (unsigned long long)(cta % im->info.grid.x),
                       (unsigned long long)(cta / im->info.grid.x % im->info.grid.y),
                       (unsigned long long)(cta / im->info.grid.x / im->info.grid.y));
    }
    if (k->mode == KP_INDEX)
        return 0;   /* the entries are the index */
    im->index = malloc((size_t)n * sizeof *im->index);
    if (!im->index)
        return koom(k);
    for (size_t i = 0; i < n; i++)
        im->index[i] = k->ent[i].off;
    mark_read_only(im->stream.p, im->stream.len, &k->stored);
    return 0;
}

/* What a KP_INDEX parse leaves for reading the kernel warp by warp. */
typedef struct kindex {
    warp_entry *ent;         /* [ctas * warps], in (CTA, warp) order */
    line_set stored;         /* lines its stores touch */
    uint64_t hash;           /* of every warp's hash, in that order */
} kindex;

static void kindex_free(kindex *x)
{
    free(x->ent);
    free(x->stored.slot);
    memset(x, 0, sizeof *x);
}

/* Parses one kernel file from L into *im (zeroed first); with KP_INDEX,
 * *x receives the index (the image then holds no records). */
static int parse_kernel(lines *L, const char *fallback_name, kp_mode mode, kimage *im,
                        kindex *x, gm_error *err)
{
    kparse k = {.L = L, .err = err, .im = im, .mode = mode, .in_header = 1};
    int rc;
    memset(im, 0, sizeof *im);
    snprintf(im->info.name, sizeof im->info.name, "%s", fallback_name);
    while ((rc = lines_next(L, err)) == 1) {
        const char *line = L->line;
        size_t len = L->len;
        while (len && is_space(*line)) {
            line++;
            len--;
        }
        if (!len)
            continue;
        if (k.in_header) {
            if (line[0] == '-')
                rc = header_line(&k, line, len);
            else if (line[0] == '#')
                rc = end_header(&k) || body_line(&k, line, len) ? -1 : 0;
            else
                rc = kfail(&k, "expected a '-key = value' header line or the '#' line "
                               "that ends the header");
        } else {
            rc = body_line(&k, line, len);
        }
        if (rc)
            break;
    }
    if (rc == 0 && k.in_header)
        rc = gm_fail(err, "%s: the header never ends (no '#' line): not a traceg file?",
                     L->name);
    if (rc == 0)
        rc = end_tb(&k);
    if (rc == 0)
        rc = finish_kernel(&k);
    if (rc == 0 && mode == KP_INDEX) {
        x->ent = k.ent;
        x->stored = k.stored;
        x->hash = GM_FNV1A_INIT;
        for (size_t i = 0; i < k.nent; i++)
            x->hash = gm_fnv1a_u64(x->hash, k.ent[i].hash);
        k.ent = NULL;
        k.stored.slot = NULL;
    }
    free(k.ent);
    free(k.stored.slot);
    if (rc)
        kimage_free(im);
    return rc ? -1 : 0;
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

static int parse_kernel_file(const char *path, kp_mode mode, kimage *im, kindex *x,
                             gm_error *err)
{
    lines L;
    if (lines_open_file(&L, path, err))
        return -1;
    int rc = parse_kernel(&L, base_name(path), mode, im, x, err);
    lines_close(&L);
    return rc;
}

/* Reads the warps of one CTA (KP_WARPS) at the offsets the index gives,
 * in file order, appending their records to im->stream and each warp's
 * first record offset to first[]. The image's info, ctas and warps are
 * the kernel's. Each warp must hash as it did when indexed. */
static int parse_cta(lines *L, const char *path, kimage *im, const kindex *x, uint32_t cta,
                     uint64_t *first, gm_error *err)
{
    kparse k = {.L = L, .err = err, .im = im, .mode = KP_WARPS};
    const warp_entry *e = x->ent + (size_t)cta * im->warps;
    const gm_dim3 *g = &im->info.grid;
    uint32_t done = 0;
    int rc = 0;
    k.tb[0] = cta % g->x;
    k.tb[1] = cta / g->x % g->y;
    k.tb[2] = cta / g->x / g->y;
    k.cta = cta;
    while (rc == 0 && done < im->warps) {
        /* the next warp in file order: warps of a CTA are usually in
         * order, one after the other, so this seeks once per CTA */
        uint32_t w = 0;
        for (uint32_t i = 1; i < im->warps; i++)
            if (first[i] == UINT64_MAX && (first[w] != UINT64_MAX || e[i].off < e[w].off))
                w = i;
        size_t start = im->stream.len;
        first[w] = start;
        k.in_tb = k.have_tb = 1;
        k.in_warp = k.want_insts = k.have_warp = 0;
        rc = lines_seek(L, path, e[w].off, e[w].line, err);
        while (rc == 0 && !(k.have_warp && !k.in_warp && !k.want_insts)) {
            int got = lines_next(L, err);
            if (got < 0)
                rc = -1;
            else if (got == 0)
                rc = gm_fail(err, "%s: shorter than when the workload was built", path);
            else
                rc = body_line_trimmed(&k, L->line, L->len);
        }
        if (rc == 0 && (k.warp != w || gm_fnv1a_bytes(GM_FNV1A_INIT, im->stream.p + start,
                                                      im->stream.len - start) != e[w].hash))
            rc = gm_fail(err, "%s: changed since the workload was built", path);
        done++;
    }
    free(k.ent);
    if (rc == 0)
        mark_read_only(im->stream.p, im->stream.len, &x->stored);
    return rc;
}

/* ================================================================ kernelslist */

int gm_trace_parse_kernelslist(const char *buf, size_t len, const char *name,
                               gm_trace_cmd_fn fn, void *arg, gm_error *err)
{
    if (!buf || !len)
        return 0;
    const char *p = buf, *end = buf + len;
    unsigned no = 0;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *a = p, *b = nl ? nl : end;
        p = nl ? nl + 1 : end;
        no++;
        trim(&a, &b);
        size_t n = (size_t)(b - a);
        if (!n || a[0] == '#')
            continue;
        gm_trace_cmd c = {.line = no, .text = a, .text_len = n};
        if (n >= 10 && memcmp(a, "MemcpyHtoD", 10) == 0) {
            /* MemcpyHtoD,<hex address>,<decimal bytes> */
            const char *c1 = memchr(a, ',', n);
            const char *c2 = c1 ? memchr(c1 + 1, ',', (size_t)(b - c1 - 1)) : NULL;
            int ok = c2 && !memchr(c2 + 1, ',', (size_t)(b - c2 - 1));
            if (ok) {
                const char *f0 = a, *e0 = c1, *f1 = c1 + 1, *e1 = c2, *f2 = c2 + 1, *e2 = b;
                trim(&f0, &e0);
                trim(&f1, &e1);
                trim(&f2, &e2);
                ok = e0 - f0 == 10 && !parse_hex(f1, (size_t)(e1 - f1), &c.addr) &&
                     !parse_dec(f2, (size_t)(e2 - f2), &c.bytes);
            }
            if (!ok)
                return gm_fail(err, "%s:%u: bad copy: expected 'MemcpyHtoD,0x<address>,<bytes>'",
                               name, no);
            c.kind = GM_TRACE_CMD_MEMCPY;
        } else if (n >= 6 && memcmp(a, "Memcpy", 6) == 0) {
            continue;   /* device-to-host and other copies: not simulated */
        } else if (n >= 6 && memcmp(a, "kernel", 6) == 0) {
            if (memchr(a, '\0', n))
                return gm_fail(err, "%s:%u: NUL byte in a kernel file name", name, no);
            c.kind = GM_TRACE_CMD_KERNEL;
        } else {
            return gm_fail(err, "%s:%u: expected a kernel file name ('kernel-<n>.traceg') or "
                                "'MemcpyHtoD,<address>,<bytes>'",
                           name, no);
        }
        if (fn && fn(&c, arg, err))
            return -1;
    }
    return 0;
}

/* Reads a whole (small) file, xz or plain. */
static int read_all(const char *path, bytes *out, gm_error *err)
{
    src s;
    memset(out, 0, sizeof *out);
    if (src_open_file(&s, path, err))
        return -1;
    int rc = 0;
    for (;;) {
        size_t got;
        if (bytes_reserve(out, IN_CHUNK)) {
            rc = gm_fail(err, "%s: out of memory", path);
            break;
        }
        if (src_read(&s, out->p + out->len, IN_CHUNK, &got, path, err)) {
            rc = -1;
            break;
        }
        if (!got)
            break;
        out->len += got;
        if (out->len > MAX_LIST_BYTES) {
            rc = gm_fail(err, "%s: larger than %u MiB: not a kernelslist", path,
                         MAX_LIST_BYTES >> 20);
            break;
        }
    }
    src_close(&s);
    if (rc) {
        free(out->p);
        memset(out, 0, sizeof *out);
    }
    return rc;
}

/* ================================================================ arena */

#define ARENA_MAGIC 0x676d5f7472616365ull   /* "gm_trace" */

typedef struct trace_kdesc {
    uint64_t self_off;       /* this descriptor's offset in the arena */
    uint64_t path_off;       /* NUL-terminated kernel file path */
    uint64_t image_off;      /* resident image (streamed: unused) */
    uint64_t image_len;
    uint64_t image_hash;     /* streamed: the hash of its index */
    uint32_t index;
    uint32_t ctas, warps;
    uint32_t failed;         /* streamed: could not be read again */
    kinfo info;
} trace_kdesc;

/* The records of one CTA while its warps run: first[warps], then the
 * records. Dropped when its last warp has returned its EXIT. */
typedef struct cta_buf {
    uint32_t done;           /* warps that have returned their EXIT */
    uint64_t bytes;          /* size of this block */
    uint64_t first[];        /* each warp's first record in the records */
} cta_buf;

/* The kernel being streamed (one at a time: kernels run one after the
 * other): its index, a reader over its file, and the CTAs in flight. */
typedef struct kstream {
    int64_t kernel;          /* descriptor index, -1 none */
    kimage shape;            /* info, ctas, warps; stream is the scratch */
    kindex x;
    lines L;
    int open;
    cta_buf **cta;           /* [ctas] */
    gm_trace_mem mem;
} kstream;

typedef struct trace_arena {
    uint64_t magic;
    uint32_t nkernels;
    uint32_t streamed;
    kstream ks;
    uint32_t failed;
    char fail_msg[sizeof(((gm_error *)0)->msg)];
    trace_kdesc k[];
} trace_arena;

static size_t align8(size_t n)
{
    return (n + 7) & ~(size_t)7;
}

static trace_arena *arena_of(const trace_kdesc *d)
{
    return (trace_arena *)(void *)((char *)(uintptr_t)d - d->self_off);
}

static const char *kdesc_path(const trace_arena *a, const trace_kdesc *d)
{
    return (const char *)a + d->path_off;
}

static void note_failure(trace_arena *a, trace_kdesc *d, const gm_error *err)
{
    d->failed = 1;
    if (!a->failed) {
        a->failed = 1;
        snprintf(a->fail_msg, sizeof a->fail_msg, "%s", err->msg);
    }
}

static void mem_update(gm_trace_mem *m, int64_t bytes, int ctas)
{
    m->buffered_bytes = (uint64_t)((int64_t)m->buffered_bytes + bytes);
    m->ctas_buffered = (uint32_t)((int)m->ctas_buffered + ctas);
    if (m->buffered_bytes > m->buffered_peak)
        m->buffered_peak = m->buffered_bytes;
    if (m->ctas_buffered > m->ctas_peak)
        m->ctas_peak = m->ctas_buffered;
}

static void ks_drop_cta(kstream *ks, uint32_t cta)
{
    mem_update(&ks->mem, -(int64_t)ks->cta[cta]->bytes, -1);
    free(ks->cta[cta]);
    ks->cta[cta] = NULL;
}

static void ks_close(kstream *ks)
{
    for (uint32_t i = 0; ks->cta && i < ks->shape.ctas; i++)
        if (ks->cta[i])
            ks_drop_cta(ks, i);
    free(ks->cta);
    if (ks->open)
        lines_close(&ks->L);
    mem_update(&ks->mem, -(int64_t)ks->shape.stream.cap, 0);
    kimage_free(&ks->shape);
    kindex_free(&ks->x);
    ks->mem.index_bytes = 0;
    ks->cta = NULL;
    ks->open = 0;
    ks->kernel = -1;
}

/* Makes the kernel parsed by a KP_INDEX pass the streamed one. */
static int ks_adopt(kstream *ks, uint32_t kernel, kimage *im, kindex *x)
{
    ks_close(ks);
    ks->cta = calloc(im->ctas ? im->ctas : 1, sizeof *ks->cta);
    if (!ks->cta)
        return -1;
    ks->shape = *im;
    ks->x = *x;
    memset(im, 0, sizeof *im);
    memset(x, 0, sizeof *x);
    ks->kernel = kernel;
    mem_update(&ks->mem, (int64_t)ks->shape.stream.cap, 0);   /* the scratch */
    ks->mem.index_bytes = (uint64_t)ks->shape.ctas * ks->shape.warps * sizeof(warp_entry) +
                          ks->x.stored.cap * sizeof(uint64_t) +
                          (uint64_t)ks->shape.ctas * sizeof *ks->cta;
    return 0;
}

/* Indexes d's file again when another kernel was streamed until now. */
static int ks_prepare(trace_arena *a, trace_kdesc *d)
{
    kstream *ks = &a->ks;
    gm_error err = {{0}};
    kimage im;
    kindex x = {0};
    if (ks->kernel == (int64_t)d->index)
        return 0;
    ks_close(ks);
    if (parse_kernel_file(kdesc_path(a, d), KP_INDEX, &im, &x, &err) != 0) {
        note_failure(a, d, &err);
        return -1;
    }
    int rc = -1;
    if (x.hash != d->image_hash || im.ctas != d->ctas || im.warps != d->warps)
        gm_fail(&err, "%s: changed since the workload was built", kdesc_path(a, d));
    else if (ks_adopt(ks, d->index, &im, &x) != 0)
        gm_fail(&err, "%s: out of memory", kdesc_path(a, d));
    else
        rc = 0;
    if (rc)
        note_failure(a, d, &err);
    kimage_free(&im);
    kindex_free(&x);
    return rc;
}

/* Reads CTA cta of the streamed kernel d into a buffer of its own. */
static cta_buf *ks_load_cta(trace_arena *a, trace_kdesc *d, uint32_t cta)
{
    kstream *ks = &a->ks;
    gm_error err = {{0}};
    uint64_t first[GM_WARP_SIZE];   /* a block has at most 1024 threads */
    const char *path = kdesc_path(a, d);
    if (!ks->open) {
        if (lines_open_file(&ks->L, path, &err) != 0) {
            note_failure(a, d, &err);
            return NULL;
        }
        ks->open = 1;
    }
    for (uint32_t i = 0; i < d->warps; i++)
        first[i] = UINT64_MAX;
    size_t cap = ks->shape.stream.cap;
    ks->shape.stream.len = 0;
    uint64_t rewinds = ks->L.rewinds;
    int rc = parse_cta(&ks->L, path, &ks->shape, &ks->x, cta, first, &err);
    mem_update(&ks->mem, (int64_t)ks->shape.stream.cap - (int64_t)cap, 0);
    ks->mem.rewinds += ks->L.rewinds - rewinds;
    if (rc != 0) {
        note_failure(a, d, &err);
        return NULL;
    }
    size_t head = sizeof(cta_buf) + d->warps * sizeof(uint64_t);
    cta_buf *cb = malloc(head + ks->shape.stream.len);
    if (!cb) {
        gm_fail(&err, "%s: out of memory", path);
        note_failure(a, d, &err);
        return NULL;
    }
    cb->done = 0;
    cb->bytes = head + ks->shape.stream.len;
    memcpy(cb->first, first, d->warps * sizeof(uint64_t));
    memcpy((uint8_t *)cb + head, ks->shape.stream.p, ks->shape.stream.len);
    ks->cta[cta] = cb;
    mem_update(&ks->mem, (int64_t)cb->bytes, 1);
    return cb;
}

/* Decodes the warp's next records from the records at `stream`. Warp
 * state: v[0] byte offset of the next record, v[1] 0 before the first
 * call, 1 running, 2 finished. */
static int gen_records(const uint8_t *stream, gm_warp_gen *g, gm_inst *out, int max)
{
    int n = 0;
    while (n < max) {
        g->v[0] += (int64_t)rec_get(stream + g->v[0], &out[n]);
        if (out[n++].op == GM_OP_EXIT) {
            g->v[1] = 2;
            break;
        }
    }
    return n;
}

/* A warp whose kernel cannot be read again runs a single EXIT. */
static int gen_exit(const gm_kernel *k, gm_warp_gen *g, gm_inst *out)
{
    uint32_t exist = gm_warp_exist_mask(gm_kernel_threads_per_cta(k), g->warp);
    gm_emit(out, GM_OP_EXIT, exist, GM_REG_NONE, GM_REG_NONE, GM_REG_NONE, GM_REG_NONE);
    g->v[1] = 2;
    return 1;
}

static int stream_gen(trace_arena *a, trace_kdesc *d, const gm_kernel *k, gm_warp_gen *g,
                      gm_inst *out, int max)
{
    kstream *ks = &a->ks;
    cta_buf *cb = NULL;
    if (!d->failed && ks_prepare(a, d) == 0) {
        cb = ks->cta[g->cta];
        if (!cb)
            cb = ks_load_cta(a, d, g->cta);
    }
    if (!cb)
        return gen_exit(k, g, out);
    if (g->v[1] == 0) {
        g->v[0] = (int64_t)cb->first[g->warp];
        g->v[1] = 1;
    }
    int n = gen_records((const uint8_t *)(cb->first + d->warps), g, out, max);
    /* A CTA read again (another run on this workload dropped it) counts
     * its warps from 0, so it may stay until the kernel changes. */
    if (g->v[1] == 2 && ++cb->done == d->warps)
        ks_drop_cta(ks, g->cta);
    return n;
}

static int trace_gen(const gm_kernel *k, gm_warp_gen *g, gm_inst *out, int max)
{
    /* The descriptor lives in the workload's own heap block; streaming
     * a kernel changes what that block holds, which is why the constness
     * of params is cast away. */
    trace_kdesc *d = (trace_kdesc *)(uintptr_t)k->params;
    trace_arena *a = arena_of(d);
    if (g->v[1] == 2 || g->cta >= d->ctas || g->warp >= d->warps)
        return 0;
    if (a->streamed)
        return stream_gen(a, d, k, g, out, max);
    const uint8_t *img = (const uint8_t *)a + d->image_off;
    if (g->v[1] == 0) {
        g->v[0] = (int64_t)get_u64(img + 8 * ((size_t)g->cta * d->warps + g->warp));
        g->v[1] = 1;
    }
    return gen_records(img + (size_t)d->ctas * d->warps * 8, g, out, max);
}

static void arena_release(void *priv)
{
    trace_arena *a = priv;
    if (a && a->streamed)
        ks_close(&a->ks);
    free(a);
}

typedef struct arena_build {
    bytes b;                 /* the arena being built */
    uint32_t n;
    size_t images_off;       /* where the images start, after the paths */
    int streamed;
} arena_build;

static trace_kdesc *ab_desc(arena_build *ab, uint32_t i)
{
    return &((trace_arena *)(void *)ab->b.p)->k[i];
}

static trace_arena *ab_arena(arena_build *ab)
{
    return (trace_arena *)(void *)ab->b.p;
}

static int ab_start(arena_build *ab, uint32_t n, gm_error *err)
{
    memset(ab, 0, sizeof *ab);
    ab->n = n;
    size_t head = align8(sizeof(trace_arena) + (size_t)n * sizeof(trace_kdesc));
    if (bytes_reserve(&ab->b, head))
        return gm_fail(err, "trace: out of memory");
    memset(ab->b.p, 0, head);
    ab->b.len = head;
    trace_arena *a = ab_arena(ab);
    a->magic = ARENA_MAGIC;
    a->nkernels = n;
    a->ks.kernel = -1;
    for (uint32_t i = 0; i < n; i++) {
        a->k[i].self_off = (uint64_t)((char *)&a->k[i] - (char *)a);
        a->k[i].index = i;
    }
    return 0;
}

static int ab_put_string(arena_build *ab, uint32_t i, const char *s, size_t n, gm_error *err)
{
    size_t off = ab->b.len;
    if (bytes_reserve(&ab->b, align8(n + 1)))
        return gm_fail(err, "trace: out of memory");
    memcpy(ab->b.p + off, s, n);
    memset(ab->b.p + off + n, 0, align8(n + 1) - n);
    ab->b.len += align8(n + 1);
    ab_desc(ab, i)->path_off = off;
    ab->images_off = ab->b.len;
    return 0;
}

static void ab_put_shape(arena_build *ab, uint32_t i, const kimage *im)
{
    trace_kdesc *d = ab_desc(ab, i);
    d->ctas = im->ctas;
    d->warps = im->warps;
    d->info = im->info;
}

/* Keeps kernel i's whole image in the arena. */
static int ab_put_image(arena_build *ab, uint32_t i, const kimage *im, gm_error *err)
{
    uint64_t len = kimage_bytes(im);
    size_t off = ab->b.len;
    if (len > SIZE_MAX / 2 || bytes_reserve(&ab->b, align8((size_t)len)))
        return gm_fail(err, "trace: out of memory");
    ab_put_shape(ab, i, im);
    trace_kdesc *d = ab_desc(ab, i);
    d->image_off = off;
    d->image_len = len;
    d->image_hash = kimage_emit(im, ab->b.p + off);
    ab->b.len += align8((size_t)len);
    return 0;
}

/* Streamed: keeps the shape and the index hash; the first kernel's index
 * is kept too, since it runs first. */
static int ab_put_index(arena_build *ab, uint32_t i, kimage *im, kindex *x, gm_error *err)
{
    ab_put_shape(ab, i, im);
    ab_desc(ab, i)->image_hash = x->hash;
    if (i == 0 && ks_adopt(&ab_arena(ab)->ks, 0, im, x) != 0)
        return gm_fail(err, "trace: out of memory");
    return 0;
}

/* Moves the arena into *w and makes one gm_kernel per descriptor. */
static int ab_finish(arena_build *ab, gm_workload *w, const char *wname, gm_error *err)
{
    gm_kernel *ks = calloc(ab->n ? ab->n : 1, sizeof *ks);
    if (!ks)
        return gm_fail(err, "trace: out of memory");
    ab_arena(ab)->streamed = (uint32_t)ab->streamed;
    /* Trim the slack of the doubling growth; the block does not move
     * again, so descriptors can be pointed at now. */
    uint8_t *p = realloc(ab->b.p, ab->b.len);
    if (p)
        ab->b.p = p;
    trace_arena *a = ab_arena(ab);
    for (uint32_t i = 0; i < ab->n; i++)
        gm_kernel_set(&ks[i], a->k[i].info.name, a->k[i].info.grid, a->k[i].info.block,
                      &a->k[i], trace_gen);
    memset(w, 0, sizeof *w);
    snprintf(w->name, sizeof w->name, "%s", wname);
    w->nkernels = ab->n;
    w->kernels = ks;
    w->priv = ab->b.p;
    w->release = arena_release;
    ab->b.p = NULL;
    return 0;
}

static void ab_abort(arena_build *ab)
{
    if (ab->b.p)
        ks_close(&ab_arena(ab)->ks);
    free(ab->b.p);
    memset(ab, 0, sizeof *ab);
}

/* Parses kernel i of the list into *im (and *x for KP_INDEX). */
static int ab_parse_one(arena_build *ab, uint32_t i, kp_mode mode, kimage *im, kindex *x,
                        gm_error *err)
{
    const char *path = (const char *)ab->b.p + ab_desc(ab, i)->path_off;
    return parse_kernel_file(path, mode, im, x, err);
}

/* Keeps every kernel's image while they fit in `budget`: 0, or 1 when
 * they do not (the images kept so far are forgotten), or -1. */
static int ab_parse_resident(arena_build *ab, uint64_t budget, gm_error *err)
{
    uint64_t resident = 0;
    for (uint32_t i = 0; i < ab->n; i++) {
        kimage im;
        if (ab_parse_one(ab, i, KP_IMAGE, &im, NULL, err))
            return -1;
        int over = resident + kimage_bytes(&im) > budget;
        resident += kimage_bytes(&im);
        int rc = over ? 1 : ab_put_image(ab, i, &im, err);
        kimage_free(&im);
        if (rc) {
            ab->b.len = ab->images_off;
            return rc;
        }
    }
    return 0;
}

/* Parses every kernel file: whole images while they fit in `budget`,
 * else (from the first kernel again) an index of each, and the trace is
 * streamed. */
static int ab_parse_kernels(arena_build *ab, uint64_t budget, gm_error *err)
{
    int rc = budget ? ab_parse_resident(ab, budget, err) : 1;
    if (rc <= 0)
        return rc;
    ab->streamed = 1;
    for (uint32_t i = 0; i < ab->n && rc == 1; i++) {
        kimage im;
        kindex x = {0};
        if (ab_parse_one(ab, i, KP_INDEX, &im, &x, err))
            return -1;
        if (ab_put_index(ab, i, &im, &x, err))
            rc = -1;
        kimage_free(&im);
        kindex_free(&x);
    }
    return rc < 0 ? -1 : 0;
}

/* ================================================================ build */

typedef struct list_paths {
    bytes text;              /* NUL-separated file paths */
    uint32_t n;
    size_t dir_len;          /* list directory, with its '/' */
    const char *list_path;
} list_paths;

static int collect_kernel(const gm_trace_cmd *c, void *arg, gm_error *err)
{
    list_paths *lp = arg;
    if (c->kind != GM_TRACE_CMD_KERNEL)
        return 0;   /* copies only pre-fill caches in Accel-Sim; gmsim starts cold */
    if (lp->n == UINT32_MAX - 1 || bytes_put(&lp->text, lp->list_path, lp->dir_len) ||
        bytes_put(&lp->text, c->text, c->text_len) || bytes_put(&lp->text, "", 1))
        return gm_fail(err, "%s: out of memory", lp->list_path);
    lp->n++;
    return 0;
}

int gm_trace_workload_build_opts(gm_workload *w, const char *path, const gm_trace_opts *o,
                                 gm_error *err)
{
    bytes list;
    list_paths lp = {.list_path = path};
    arena_build ab = {0};
    memset(w, 0, sizeof *w);
    if (read_all(path, &list, err))
        return -1;
    const char *slash = strrchr(path, '/');
    lp.dir_len = slash ? (size_t)(slash - path) + 1 : 0;
    int rc = gm_trace_parse_kernelslist((const char *)list.p, list.len, path, collect_kernel,
                                        &lp, err);
    free(list.p);
    if (rc == 0 && lp.n == 0)
        rc = gm_fail(err, "%s: no kernel in the list", path);
    if (rc == 0)
        rc = ab_start(&ab, lp.n, err);
    /* Paths first: the images that follow them are dropped together if
     * the budget runs out. */
    const char *kp = (const char *)lp.text.p;
    for (uint32_t i = 0; rc == 0 && i < lp.n; i++) {
        rc = ab_put_string(&ab, i, kp, strlen(kp), err);
        kp += strlen(kp) + 1;
    }
    if (rc == 0)
        rc = ab_parse_kernels(&ab, o ? o->resident_bytes : GM_TRACE_RESIDENT_DEFAULT, err);
    if (rc == 0) {
        char name[sizeof w->name];
        snprintf(name, sizeof name, "%s%s", GM_TRACE_PREFIX, path);
        rc = ab_finish(&ab, w, name, err);
    }
    if (rc)
        ab_abort(&ab);
    free(lp.text.p);
    return rc;
}

int gm_trace_workload_build(gm_workload *w, const char *path, gm_error *err)
{
    return gm_trace_workload_build_opts(w, path, NULL, err);
}

int gm_trace_workload_from_buffer(gm_workload *w, const void *buf, size_t len,
                                  const char *name, gm_error *err)
{
    lines L;
    kimage im;
    arena_build ab;
    memset(w, 0, sizeof *w);
    if (lines_open_mem(&L, buf, len, name, err))
        return -1;
    int rc = parse_kernel(&L, name, KP_IMAGE, &im, NULL, err);
    lines_close(&L);
    if (rc)
        return -1;
    rc = ab_start(&ab, 1, err);
    if (rc == 0)
        rc = ab_put_string(&ab, 0, name, strlen(name), err);
    if (rc == 0)
        rc = ab_put_image(&ab, 0, &im, err);
    kimage_free(&im);
    if (rc == 0)
        rc = ab_finish(&ab, w, name, err);
    if (rc)
        ab_abort(&ab);
    return rc;
}

static const trace_arena *arena_of_workload(const gm_workload *w)
{
    if (!w || !w->nkernels || !w->kernels || w->kernels[0].gen != trace_gen)
        return NULL;
    return arena_of(w->kernels[0].params);
}

int gm_trace_workload_check(const gm_workload *w, gm_error *err)
{
    const trace_arena *a = arena_of_workload(w);
    if (a && a->failed)
        return gm_fail(err, "%s", a->fail_msg);
    return 0;
}

int gm_trace_workload_info(const gm_workload *w, int *streamed)
{
    const trace_arena *a = arena_of_workload(w);
    if (!a)
        return 0;
    if (streamed)
        *streamed = (int)a->streamed;
    return 1;
}

int gm_trace_workload_memory(const gm_workload *w, gm_trace_mem *m)
{
    const trace_arena *a = arena_of_workload(w);
    memset(m, 0, sizeof *m);
    if (!a)
        return 0;
    *m = a->ks.mem;
    return 1;
}
