/* Output files written through a temporary and a rename (outfile.h). */
#define _XOPEN_SOURCE 700   /* realpath */
#include "sim/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#define MAX_PATH 4096

/* Paths that name a descriptor or a device rather than a file to replace:
 * renaming over them would either fail or do harm (/dev/stdout resolves to
 * whatever stdout is redirected to). */
static int is_special_path(const char *path)
{
    return strncmp(path, "/dev/", 5) == 0 || strncmp(path, "/proc/", 6) == 0;
}

static char *copy_string(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    if (p)
        memcpy(p, s, n);
    return p;
}

static void release(gm_outfile *o)
{
    free(o->path);
    free(o->tmp);
    o->path = o->tmp = NULL;
    o->f = NULL;
}

static int open_in_place(gm_outfile *o, const char *path, gm_error *err)
{
    o->f = fopen(path, "w");
    if (!o->f)
        return gm_fail(err, "%s: cannot create: %s", path, strerror(errno));
    o->path = copy_string(path);
    if (!o->path) {
        fclose(o->f);
        o->f = NULL;
        return gm_fail(err, "%s: out of memory", path);
    }
    return 0;
}

/* The file to replace: path itself, or the file a symbolic link names (a
 * dangling link is replaced by the new file). */
static char *target_of(const char *path)
{
    struct stat lst;
    if (lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode)) {
        char *real = realpath(path, NULL);
        if (real)
            return real;
    }
    return copy_string(path);
}

/* Creates a new file ".NAME.tmp-PID-N" in the target's directory and
 * returns its descriptor. The mode 0666 goes through the umask like that
 * of any created file. */
static int create_temp(gm_outfile *o, gm_error *err)
{
    const char *slash = strrchr(o->path, '/');
    int dir_len = slash ? (int)(slash - o->path) + 1 : 0;
    const char *base = o->path + dir_len;
    size_t cap = strlen(o->path) + 48;
    o->tmp = malloc(cap);
    if (!o->tmp)
        return gm_fail(err, "%s: out of memory", o->path);
    for (unsigned n = 0; n < 1000; n++) {
        snprintf(o->tmp, cap, "%.*s.%s.tmp-%ld-%u", dir_len, o->path, base, (long)getpid(), n);
        int fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0)
            return fd;
        if (errno != EEXIST)
            break;
    }
    int e = errno;
    free(o->tmp);
    o->tmp = NULL;
    return gm_fail(err, "%s: cannot create: %s", o->path, strerror(e));
}

int gm_outfile_open(gm_outfile *o, const char *path, gm_error *err)
{
    struct stat st;
    o->f = NULL;
    o->path = o->tmp = NULL;
    if (strcmp(path, "-") == 0) {
        o->path = copy_string("stdout");
        if (!o->path)
            return gm_fail(err, "out of memory");
        o->f = stdout;
        return 0;
    }
    if (path[0] == '\0')
        return gm_fail(err, "'': an empty file name");
    if (strlen(path) >= MAX_PATH)
        return gm_fail(err, "%.200s...: path too long", path);
    int exists = stat(path, &st) == 0;
    if (exists && S_ISDIR(st.st_mode))
        return gm_fail(err, "%s: is a directory", path);
    if (is_special_path(path) || (exists && !S_ISREG(st.st_mode)))
        return open_in_place(o, path, err);
    o->path = target_of(path);
    if (!o->path)
        return gm_fail(err, "%s: out of memory", path);
    int fd = create_temp(o, err);
    if (fd < 0) {
        release(o);
        return -1;
    }
    /* The replacement keeps the permissions of the file it replaces. */
    if (exists)
        (void)fchmod(fd, st.st_mode & 07777);
    o->f = fdopen(fd, "w");
    if (!o->f) {
        int e = errno;
        close(fd);
        gm_fail(err, "%s: cannot create: %s", o->path, strerror(e));
        gm_outfile_discard(o);
        return -1;
    }
    return 0;
}

/* Ends a failed close: the temporary goes, the target stays. */
static int close_failed(gm_outfile *o, int e, gm_error *err)
{
    const char *kept = o->tmp ? " (the file is unchanged)" : "";
    if (e)
        gm_fail(err, "%s: write error: %s%s", o->path, strerror(e), kept);
    else
        gm_fail(err, "%s: write error%s", o->path, kept);
    gm_outfile_discard(o);
    return -1;
}

int gm_outfile_close(gm_outfile *o, gm_error *err)
{
    if (!o->f)
        return gm_fail(err, "%s: not open for writing", o->path ? o->path : "output file");
    /* An earlier failed write leaves only the stream's error flag, not
     * the reason; a failing flush gives the reason in errno. */
    errno = 0;
    int e = fflush(o->f) != 0 ? (errno ? errno : EIO) : 0;
    int bad = e || ferror(o->f);
    if (o->f == stdout)
        return bad ? close_failed(o, e, err) : (o->f = NULL, 0);
    if (!bad && o->tmp && fsync(fileno(o->f)) != 0) {
        e = errno;
        bad = 1;
    }
    if (bad)
        return close_failed(o, e, err);
    FILE *f = o->f;
    o->f = NULL;
    if (fclose(f) != 0)
        return close_failed(o, errno, err);
    return 0;
}

int gm_outfile_rename(gm_outfile *o, gm_error *err)
{
    if (o->tmp && rename(o->tmp, o->path) != 0) {
        gm_fail(err, "%s: cannot replace: %s (the file is unchanged)", o->path,
                strerror(errno));
        gm_outfile_discard(o);
        return -1;
    }
    release(o);
    return 0;
}

int gm_outfile_commit(gm_outfile *o, gm_error *err)
{
    if (gm_outfile_close(o, err) != 0)
        return -1;
    return gm_outfile_rename(o, err);
}

void gm_outfile_discard(gm_outfile *o)
{
    if (o->f && o->f != stdout)
        fclose(o->f);
    if (o->tmp)
        unlink(o->tmp);
    release(o);
}
