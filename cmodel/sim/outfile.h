/* Output files that are either written whole or not at all.
 *
 * gm_outfile_open creates a temporary file beside the target (same
 * directory, so the final rename cannot cross file systems); everything is
 * written there; gm_outfile_commit flushes it to disk and renames it over
 * the target. Until the rename the target keeps its old contents, so a
 * failed or interrupted write (disk full, a file-size limit, a crash)
 * never leaves a truncated file where a good one was. Opening also proves
 * early that the target can be written: callers open before the work that
 * produces the contents (a simulation) and commit after it. Several files
 * that belong together (a trace export) are each closed first and renamed
 * only when all of them are written (gm_outfile_close, gm_outfile_rename).
 *
 * Targets that are not regular files are written in place: "-" (stdout),
 * paths under /dev/ and /proc/ (/dev/null, /dev/stdout, /dev/fd/N), and
 * existing FIFOs and devices. A symbolic link to a regular file is
 * followed: the file it names is replaced and the link kept. An existing
 * file's permission bits carry over to its replacement. A process killed
 * outright (SIGKILL, power loss) can leave its temporary behind: a file
 * named .NAME.tmp-PID-N beside the target. */
#ifndef GM_SIM_OUTFILE_H
#define GM_SIM_OUTFILE_H

#include <stdio.h>

#include "sim/error.h"

typedef struct gm_outfile {
    FILE *f;       /* write here between open and close */
    char *path;    /* the target, links resolved (malloc'd) */
    char *tmp;     /* the temporary (malloc'd); NULL when written in place */
} gm_outfile;

/* Opens o for the target `path` ("-" for stdout). Fails, leaving nothing
 * behind, when path is empty or a directory, or its directory is missing
 * or not writable. */
int gm_outfile_open(gm_outfile *o, const char *path, gm_error *err);

/* gm_outfile_close and then gm_outfile_rename. */
int gm_outfile_commit(gm_outfile *o, gm_error *err);

/* Flushes, syncs and closes the file; a temporary stays where it is until
 * gm_outfile_rename or gm_outfile_discard. On failure the temporary is
 * removed (the target is as it was) and err names the target and the
 * reason. */
int gm_outfile_close(gm_outfile *o, gm_error *err);

/* Renames the closed temporary over the target and releases o. On
 * failure the temporary is removed and the target left as it was. */
int gm_outfile_rename(gm_outfile *o, gm_error *err);

/* Closes and removes the temporary without touching the target, and
 * releases o. Does nothing on a released (or zeroed) o. */
void gm_outfile_discard(gm_outfile *o);

#endif
