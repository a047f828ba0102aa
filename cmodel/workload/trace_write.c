/* Accel-Sim trace writer and stream comparison. The writer walks the
 * workload (gm_workload_walk: kernel, CTA, warp order) and writes one
 * kernel file per kernel; a warp's lines are held until its EXIT, because
 * the "insts = n" line comes before them. */
#include "workload/trace_write.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "sim/outfile.h"
#include "workload/sass_map.h"
#include "workload/trace_read.h"
#include "workload/walk.h"

#define MAX_WIDTH 128u
#define TRACE_VERSION 4

/* ---- one instruction -------------------------------------------------- */

typedef struct text {
    char *p;
    size_t len, cap;
} text;

static int text_printf(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int text_printf(text *t, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        size_t room = t->cap - t->len;
        va_start(ap, fmt);
        int n = vsnprintf(t->p ? t->p + t->len : NULL, t->p ? room : 0, fmt, ap);
        va_end(ap);
        if (n < 0)
            return -1;
        if (t->p && (size_t)n < room) {
            t->len += (size_t)n;
            return 0;
        }
        size_t cap = t->cap ? t->cap * 2 : 4096;
        while (cap < t->len + (size_t)n + 1)
            cap *= 2;
        char *q = realloc(t->p, cap);
        if (!q)
            return -1;
        t->p = q;
        t->cap = cap;
    }
}

/* Is this op one the core sends to memory (so it needs a width)? */
static int core_memory_op(int op)
{
    return op >= GM_OP_GLOBAL_LD && op <= GM_OP_CONST_LD;
}

static int contiguous_run(uint32_t m)
{
    m >>= __builtin_ctz(m);
    return (m & (m + 1)) == 0;
}

/* The address part, as the tracer compresses it: base+stride when the
 * active lanes are one run of at least two lanes with a constant stride
 * that fits Accel-Sim's int, base+delta otherwise. */
static int format_addresses(text *t, const gm_inst *in)
{
    uint32_t m = in->mask;
    if (!m)
        return text_printf(t, " 1 0x0 0");
    int n = __builtin_popcount(m), k = 0;
    uint64_t base = in->addr[__builtin_ctz(m)], prev = base;
    int64_t stride = 0;
    int strided = n >= 2 && contiguous_run(m);
    for (uint32_t r = m; r; r &= r - 1, k++) {
        uint64_t a = in->addr[__builtin_ctz(r)];
        if (k == 1)
            stride = (int64_t)(a - base);
        else if (k > 1 && a - prev != (uint64_t)stride)
            strided = 0;
        prev = a;
    }
    if (strided && stride >= INT32_MIN && stride <= INT32_MAX)
        return text_printf(t, " 1 0x%" PRIx64 " %" PRId64, base, stride);
    if (text_printf(t, " 2 0x%" PRIx64, base))
        return -1;
    prev = base;
    for (uint32_t r = m & (m - 1); r; r &= r - 1) {
        uint64_t a = in->addr[__builtin_ctz(r)];
        if (text_printf(t, " %" PRId64, (int64_t)(a - prev)))
            return -1;
        prev = a;
    }
    return 0;
}

static int format_inst(text *t, const gm_inst *in, unsigned pc, gm_error *err)
{
    char opcode[32];
    int op = in->op;
    int mem = gm_op_is_mem(op);
    unsigned width = mem ? in->width : 0;

    if (op >= GM_OP_COUNT)
        return gm_fail(err, "instruction with op %d: not a gm_op", op);
    if (core_memory_op(op) && (width == 0 || width > MAX_WIDTH))
        return gm_fail(err, "memory instruction (op %d) with width %u: a trace carries 1 to %u",
                       op, width, MAX_WIDTH);
    if (width > MAX_WIDTH)
        return gm_fail(err, "shared-memory instruction with width %u: a trace carries up to %u",
                       width, MAX_WIDTH);
    gm_sass_export_opcode((gm_op)op, width, opcode, sizeof opcode);
    if (text_printf(t, "%04x %08" PRIx32, pc, in->mask))
        return gm_fail(err, "trace export: out of memory");
    int rc = in->dst == GM_REG_NONE ? text_printf(t, " 0") : text_printf(t, " 1 R%u", in->dst);
    /* Sources keep their slots: an empty slot before a used one is
     * written as RZ (R255), which the reader turns back into an empty
     * slot at the same place. */
    int nsrc = GM_MAX_SRC;
    while (nsrc > 0 && in->src[nsrc - 1] == GM_REG_NONE)
        nsrc--;
    rc = rc || text_printf(t, " %s %d", opcode, nsrc);
    for (int i = 0; i < nsrc; i++)
        rc = rc || text_printf(t, " R%u", in->src[i]);
    rc = rc || text_printf(t, " %u", width);
    if (width)
        rc = rc || format_addresses(t, in);
    return rc ? gm_fail(err, "trace export: out of memory") : 0;
}

int gm_trace_format_inst(const gm_inst *in, unsigned pc, char *buf, size_t cap, gm_error *err)
{
    text t = {0};
    int rc = format_inst(&t, in, pc, err);
    if (rc == 0 && t.len + 1 > cap)
        rc = gm_fail(err, "trace line of %zu bytes does not fit %zu", t.len, cap);
    if (rc == 0)
        memcpy(buf, t.p, t.len + 1);
    free(t.p);
    return rc ? -1 : (int)t.len;
}

/* ---- files -------------------------------------------------------------- */

/* Every file of an export goes to a temporary beside its target
 * (sim/outfile.h); the temporaries are renamed only once all of them are
 * written, the kernel files first and the list last, so a failed export
 * leaves the directory as it was. */
typedef struct exporter {
    const gm_workload *w;
    const char *dir;
    gm_error *err;
    gm_outfile *files;       /* kernel 1..n, then kernelslist.g */
    gm_outfile *out;         /* the file being written, NULL none */
    int64_t kernel;          /* kernel whose file is open, -1 none */
    int64_t cta;             /* thread block open in it, -1 none */
    text warp;               /* lines of the warp being generated */
    uint64_t ninsts;         /* in it */
    gm_trace_export_stats st;
} exporter;

static int ex_write(exporter *x, const char *s, size_t n)
{
    if (n && fwrite(s, 1, n, x->out->f) != n)
        return gm_fail(x->err, "%s: write error: %s", x->out->path, strerror(errno));
    x->st.bytes += n;
    return 0;
}

static int ex_printf(exporter *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int ex_printf(exporter *x, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vfprintf(x->out->f, fmt, ap);
    va_end(ap);
    if (n < 0)
        return gm_fail(x->err, "%s: write error: %s", x->out->path, strerror(errno));
    x->st.bytes += (uint64_t)n;
    return 0;
}

/* Finishes the open file; its temporary waits for the final renames. */
static int ex_close_file(exporter *x)
{
    int rc = 0;
    if (!x->out)
        return 0;
    if (x->cta >= 0)
        rc = ex_printf(x, "#END_TB\n\n");
    if (rc == 0)
        rc = gm_outfile_close(x->out, x->err);
    x->out = NULL;
    x->cta = -1;
    return rc;
}

static int ex_open_file(exporter *x, gm_outfile *o, const char *name)
{
    char path[GM_TRACE_DIR_MAX + 64];
    snprintf(path, sizeof path, "%s/%s", x->dir, name);
    if (gm_outfile_open(o, path, x->err))
        return -1;
    x->out = o;
    return 0;
}

/* Kernel names go into a "-kernel name = ..." line: keep them on it. */
static void clean_name(const char *in, char *out, size_t cap)
{
    size_t n = 0;
    for (; *in && n + 1 < cap; in++)
        out[n++] = (unsigned char)*in < 0x20 || *in == 0x7f ? '_' : *in;
    out[n] = '\0';
    if (n == 0)
        snprintf(out, cap, "kernel");
}

static int ex_open_kernel(exporter *x, uint32_t ki)
{
    const gm_kernel *k = &x->w->kernels[ki];
    char name[sizeof k->name];
    char file[32];
    if (ex_close_file(x))
        return -1;
    snprintf(file, sizeof file, "kernel-%u.traceg", ki + 1);
    if (ex_open_file(x, &x->files[ki], file))
        return -1;
    x->kernel = ki;
    x->cta = -1;
    x->st.kernels++;
    clean_name(k->name, name, sizeof name);
    return ex_printf(x,
                     "-kernel name = %s\n"
                     "-kernel id = %u\n"
                     "-grid dim = (%u,%u,%u)\n"
                     "-block dim = (%u,%u,%u)\n"
                     "-shmem = 0\n"
                     "-nregs = 32\n"
                     "-binary version = 70\n"
                     "-cuda stream id = 0\n"
                     "-shmem base_addr = 0x0000000000000000\n"
                     "-local mem base_addr = 0x0000000000000000\n"
                     "-nvbit version = gmsim\n"
                     "-accelsim tracer version = %d\n"
                     "-enable lineinfo = 0\n"
                     "\n"
                     "#traces format = [line_num] PC mask dest_num [reg_dests] opcode "
                     "src_num [reg_srcs] mem_width [adrrescompress?] [mem_addresses]\n"
                     "\n",
                     name, ki + 1, k->grid.x, k->grid.y, k->grid.z, k->block.x, k->block.y,
                     k->block.z, TRACE_VERSION);
}

static int ex_chunk(const gm_kernel *k, uint32_t ki, const gm_warp_gen *g, const gm_inst *in,
                    int n, void *arg)
{
    exporter *x = arg;
    if ((int64_t)ki != x->kernel && ex_open_kernel(x, ki))
        return -1;
    if ((int64_t)g->cta != x->cta) {
        uint32_t c = g->cta;
        if (x->cta >= 0 && ex_printf(x, "#END_TB\n\n"))
            return -1;
        if (ex_printf(x, "#BEGIN_TB\n\nthread block = %u,%u,%u\n\n", c % k->grid.x,
                      c / k->grid.x % k->grid.y, c / k->grid.x / k->grid.y))
            return -1;
        x->cta = g->cta;
    }
    for (int i = 0; i < n; i++) {
        if (format_inst(&x->warp, &in[i], (unsigned)(x->ninsts * 16), x->err))
            return -1;
        if (text_printf(&x->warp, "\n"))
            return gm_fail(x->err, "trace export: out of memory");
        x->ninsts++;
        if (in[i].op != GM_OP_EXIT)
            continue;
        /* The warp is complete (walk checks that EXIT comes last). */
        if (ex_printf(x, "warp = %u\ninsts = %" PRIu64 "\n", g->warp, x->ninsts) ||
            ex_write(x, x->warp.p, x->warp.len) || ex_printf(x, "\n"))
            return -1;
        x->st.warps++;
        x->st.insts += x->ninsts;
        x->warp.len = 0;
        x->ninsts = 0;
    }
    return 0;
}

static int check_shapes(const gm_workload *w, gm_error *err)
{
    if (w->nkernels == 0)
        return gm_fail(err, "trace export: the workload has no kernel");
    for (uint32_t i = 0; i < w->nkernels; i++) {
        const gm_kernel *k = &w->kernels[i];
        uint64_t threads = (uint64_t)k->block.x * k->block.y * k->block.z;
        if (!k->grid.x || !k->grid.y || !k->grid.z || !threads || threads > 1024)
            return gm_fail(err, "trace export: kernel %u (%s): grid (%u,%u,%u) block "
                                "(%u,%u,%u) cannot be written (every dimension at least 1, "
                                "at most 1024 threads)",
                           i + 1, k->name, k->grid.x, k->grid.y, k->grid.z, k->block.x,
                           k->block.y, k->block.z);
    }
    return 0;
}

/* mkdir -p: dir and every missing parent. */
static int make_dirs(const char *dir, gm_error *err)
{
    char p[GM_TRACE_DIR_MAX];
    struct stat st;
    size_t n = strlen(dir);
    memcpy(p, dir, n + 1);
    for (size_t i = 1; i <= n; i++) {
        if (p[i] != '/' && p[i] != '\0')
            continue;
        char c = p[i];
        p[i] = '\0';
        if (mkdir(p, 0777) != 0 && errno != EEXIST)
            return gm_fail(err, "%s: cannot create directory: %s", p, strerror(errno));
        p[i] = c;
    }
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        return gm_fail(err, "%s: not a directory", dir);
    return 0;
}

/* A name of the form kernel-<digits>.traceg or kernel-<digits>.traceg.xz
 * that this export did not write (kernel-1 .. kernel-n, plain). */
static int stale_kernel_name(const char *name, uint32_t n)
{
    const char *p = name + 7;
    uint64_t v = 0;
    if (strncmp(name, "kernel-", 7) != 0 || *p < '0' || *p > '9')
        return 0;
    int leading_zero = *p == '0';
    for (; *p >= '0' && *p <= '9'; p++)
        v = v > UINT32_MAX ? v : v * 10 + (uint64_t)(*p - '0');
    if (strcmp(p, ".traceg") == 0)
        return leading_zero || v < 1 || v > n;
    return strcmp(p, ".traceg.xz") == 0;
}

/* Removes the kernel files of an earlier export that this one did not
 * replace, so that the directory holds one trace. */
static int remove_stale(const char *dir, uint32_t n, gm_error *err)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int rc = 0;
    if (!d)
        return gm_fail(err, "%s: cannot read: %s", dir, strerror(errno));
    while (rc == 0 && (e = readdir(d)) != NULL) {
        char path[GM_TRACE_DIR_MAX + 300];
        if (!stale_kernel_name(e->d_name, n))
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (unlink(path) != 0)
            rc = gm_fail(err, "%s: cannot remove the stale kernel file: %s", path,
                         strerror(errno));
    }
    closedir(d);
    return rc;
}

int gm_trace_export(const gm_workload *w, const char *dir, gm_trace_export_stats *stats,
                    gm_error *err)
{
    exporter x = {.w = w, .dir = dir, .err = err, .kernel = -1, .cta = -1};
    if (stats)
        memset(stats, 0, sizeof *stats);
    if (check_shapes(w, err))
        return -1;
    if (strlen(dir) >= GM_TRACE_DIR_MAX)
        return gm_fail(err, "%.200s...: directory name too long", dir);
    if (make_dirs(dir, err))
        return -1;
    uint32_t n = w->nkernels;
    x.files = calloc((size_t)n + 1, sizeof *x.files);
    if (!x.files)
        return gm_fail(err, "trace export: out of memory");
    int rc = gm_workload_walk(w, 256, ex_chunk, &x, err);
    if (rc == 0)
        rc = ex_close_file(&x);
    for (uint32_t i = 0; rc == 0 && i < n; i++)
        if (!x.files[i].path)
            rc = gm_fail(err, "trace export: kernel %u generated no warp", i + 1);
    if (rc == 0)
        rc = ex_open_file(&x, &x.files[n], "kernelslist.g");
    for (uint32_t i = 0; i < n && rc == 0; i++)
        rc = ex_printf(&x, "kernel-%u.traceg\n", i + 1);
    if (rc == 0)
        rc = ex_close_file(&x);
    for (uint32_t i = 0; i <= n && rc == 0; i++)
        rc = gm_outfile_rename(&x.files[i], err);
    if (rc == 0)
        rc = remove_stale(dir, n, err);
    for (uint32_t i = 0; i <= n; i++)
        gm_outfile_discard(&x.files[i]);
    free(x.files);
    free(x.warp.p);
    if (rc == 0 && stats)
        *stats = x.st;
    return rc ? -1 : 0;
}

/* Whether `dir` is the directory holding `file` (compared as files, so
 * other spellings and links of the same directory count). */
static int holds(const struct stat *dir, const char *file, size_t file_len)
{
    char parent[GM_TRACE_DIR_MAX + 16];
    struct stat st;
    const char *slash = NULL;
    for (size_t i = 0; i < file_len; i++)
        if (file[i] == '/')
            slash = file + i;
    if (!slash)
        snprintf(parent, sizeof parent, ".");
    else if (slash == file)
        snprintf(parent, sizeof parent, "/");
    else
        snprintf(parent, sizeof parent, "%.*s", (int)(slash - file), file);
    return stat(parent, &st) == 0 && st.st_dev == dir->st_dev && st.st_ino == dir->st_ino;
}

typedef struct source_check {
    const struct stat *dir;
    const char *list;
    size_t list_dir_len;     /* with its '/' */
    int hit;
} source_check;

/* kernelslist.g callback: kernel file names are relative to the list. */
static int check_kernel_dir(const gm_trace_cmd *c, void *arg, gm_error *err)
{
    source_check *sc = arg;
    char path[GM_TRACE_DIR_MAX + 256];
    (void)err;
    if (c->kind != GM_TRACE_CMD_KERNEL)
        return 0;
    int len = snprintf(path, sizeof path, "%.*s%.*s", (int)sc->list_dir_len, sc->list,
                       (int)(c->text_len < 255 ? c->text_len : 255), c->text);
    if (len > 0 && (size_t)len < sizeof path && holds(sc->dir, path, (size_t)len))
        sc->hit = 1;
    return 0;
}

/* Reads a plain-text kernelslist for check_kernel_dir; NULL when it
 * cannot (the workload build reports why) or it is xz data. */
static char *read_list_text(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    size_t cap = 1 << 16, n = 0;
    char *buf = f ? malloc(cap) : NULL;
    while (buf) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap || cap >= (64u << 20))
            break;
        char *more = realloc(buf, cap * 2);
        if (!more) {
            free(buf);
            buf = NULL;
        } else {
            buf = more;
            cap *= 2;
        }
    }
    if (f && ferror(f)) {
        free(buf);
        buf = NULL;
    }
    if (f)
        fclose(f);
    if (buf && n >= 6 && memcmp(buf, "\xFD" "7zXZ\0", 6) == 0) {
        free(buf);
        buf = NULL;
    }
    *len = n;
    return buf;
}

int gm_trace_export_check(const char *dir, const char *source, int force, gm_error *err)
{
    struct stat st;
    if (stat(dir, &st) != 0) {
        if (errno == ENOENT)
            return 0;   /* created by the export */
        return gm_fail(err, "%s: %s", dir, strerror(errno));
    }
    if (!S_ISDIR(st.st_mode))
        return gm_fail(err, "%s: not a directory", dir);
    if (source) {
        source_check sc = {.dir = &st, .list = source};
        const char *slash = strrchr(source, '/');
        sc.list_dir_len = slash ? (size_t)(slash - source) + 1 : 0;
        size_t len;
        char *text = read_list_text(source, &len);
        sc.hit = holds(&st, source, strlen(source));
        if (text && !sc.hit) {
            gm_error ignored = {{0}};
            gm_trace_parse_kernelslist(text, len, source, check_kernel_dir, &sc, &ignored);
        }
        free(text);
        if (sc.hit)
            return gm_fail(err, "%s: the trace %s is read from this directory; export to "
                                "another one", dir, source);
    }
    if (force)
        return 0;
    DIR *d = opendir(dir);
    if (!d)
        return gm_fail(err, "%s: cannot read: %s", dir, strerror(errno));
    struct dirent *e;
    int empty = 1;
    while (empty && (e = readdir(d)) != NULL)
        empty = strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0;
    closedir(d);
    if (!empty)
        return gm_fail(err, "%s: not empty; export into a new or empty directory, or pass "
                            "--force to replace the trace in it (other files are kept)", dir);
    return 0;
}

/* ---- comparison ----------------------------------------------------------- */

#define CMP_CHUNK 64

typedef struct stream {
    const gm_kernel *k;
    gm_warp_gen g;
    gm_inst buf[CMP_CHUNK];
    int n, pos, done;
} stream;

static void stream_start(stream *s, const gm_kernel *k, uint32_t cta, uint32_t warp)
{
    s->k = k;
    gm_warp_gen_start(&s->g, cta, warp);
    s->n = s->pos = s->done = 0;
}

/* 1: *in is the next instruction; 0: the warp has ended; -1: error. */
static int stream_next(stream *s, const gm_inst **in, gm_error *err)
{
    if (s->done)
        return 0;
    if (s->pos == s->n) {
        s->n = s->k->gen(s->k, &s->g, s->buf, CMP_CHUNK);
        s->pos = 0;
        if (s->n < 0 || s->n > CMP_CHUNK)
            return gm_fail(err, "%s: gen returned %d", s->k->name, s->n);
        if (s->n == 0) {
            s->done = 1;
            return 0;
        }
    }
    *in = &s->buf[s->pos++];
    if ((*in)->op == GM_OP_EXIT)
        s->done = 1;
    return 1;
}

static int same_dim(gm_dim3 a, gm_dim3 b)
{
    return a.x == b.x && a.y == b.y && a.z == b.z;
}

static void note(gm_trace_diff *d, uint32_t ki, uint32_t cta, uint32_t warp, uint64_t i,
                 const char *what)
{
    if (!d->first[0])
        snprintf(d->first, sizeof d->first, "kernel %u CTA %u warp %u instruction %" PRIu64
                 ": %s", ki + 1, cta, warp, i, what);
}

static void compare_inst(gm_trace_diff *d, const gm_inst *a, const gm_inst *b, uint32_t ki,
                         uint32_t cta, uint32_t warp, uint64_t i)
{
    if (a->op != b->op) {
        d->op++;
        note(d, ki, cta, warp, i, "opcode class");
        return;
    }
    if (a->mask != b->mask) {
        d->mask++;
        note(d, ki, cta, warp, i, "lane mask");
    }
    if (a->dst != b->dst || memcmp(a->src, b->src, sizeof a->src) != 0) {
        d->regs++;
        note(d, ki, cta, warp, i, "registers");
    }
    if (gm_op_is_mem(a->op)) {
        if (a->width != b->width) {
            d->width++;
            note(d, ki, cta, warp, i, "width");
        }
        for (uint32_t m = a->mask & b->mask; m; m &= m - 1)
            if (a->addr[__builtin_ctz(m)] != b->addr[__builtin_ctz(m)]) {
                d->addr++;
                note(d, ki, cta, warp, i, "addresses");
                break;
            }
    }
    if (a->flags != b->flags) {
        d->flags++;
        int ra = a->flags & GM_INST_READ_ONLY, rb = b->flags & GM_INST_READ_ONLY;
        d->ro_only_a += ra && !rb;
        d->ro_only_b += rb && !ra;
        note(d, ki, cta, warp, i, "flags (read-only)");
    }
}

int gm_trace_compare(const gm_workload *a, const gm_workload *b, gm_trace_diff *d,
                     gm_error *err)
{
    stream *sa = malloc(sizeof *sa), *sb = malloc(sizeof *sb);
    int rc = 0;
    memset(d, 0, sizeof *d);
    if (!sa || !sb) {
        free(sa);
        free(sb);
        return gm_fail(err, "compare: out of memory");
    }
    if (a->nkernels != b->nkernels) {
        d->shape++;
        snprintf(d->first, sizeof d->first, "%u kernels against %u", a->nkernels, b->nkernels);
    }
    uint32_t nk = a->nkernels < b->nkernels ? a->nkernels : b->nkernels;
    for (uint32_t ki = 0; ki < nk && rc == 0; ki++) {
        const gm_kernel *ka = &a->kernels[ki], *kb = &b->kernels[ki];
        if (!same_dim(ka->grid, kb->grid) || !same_dim(ka->block, kb->block)) {
            d->shape++;
            note(d, ki, 0, 0, 0, "grid or block");
            continue;
        }
        uint32_t ctas = gm_kernel_ctas(ka), warps = gm_kernel_warps_per_cta(ka);
        for (uint32_t c = 0; c < ctas && rc == 0; c++) {
            for (uint32_t wi = 0; wi < warps && rc == 0; wi++) {
                const gm_inst *ia = NULL, *ib = NULL;
                stream_start(sa, ka, c, wi);
                stream_start(sb, kb, c, wi);
                for (uint64_t i = 0;; i++) {
                    int ra = stream_next(sa, &ia, err);
                    int rb = ra < 0 ? 0 : stream_next(sb, &ib, err);
                    if (ra < 0 || rb < 0) {
                        rc = -1;
                        break;
                    }
                    if (ra != rb) {
                        d->length++;
                        note(d, ki, c, wi, i, "one warp ends earlier");
                        break;
                    }
                    if (!ra)
                        break;
                    d->insts++;
                    compare_inst(d, ia, ib, ki, c, wi, i);
                }
            }
        }
    }
    free(sa);
    free(sb);
    return rc;
}
