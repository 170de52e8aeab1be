/* --fsync end: every file this rank wrote is synced once, after its last write,
 * as IOR's -e does for its one file: the closes do not sync; the files written
 * are remembered (each once) and synced together when the output phase ends,
 * inside the end-to-end window (the sync timer, one call per file; a folder
 * such as an ADIOS2 BP output: each regular file directly in it).  The data of
 * the closed files is in the operating system by then (every library flushed
 * it at its close), so an fsync on a new descriptor makes it durable. */
#include "config.h"
#include "engine/engine_int.h"
#include "base/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void eng_note_for_sync(cio_engine *e, const char *path)
{
    for (int i = 0; i < e->nsync; i++)
        if (strcmp(e->sync_paths[i], path) == 0) return;
    if (e->nsync == e->synccap) {
        e->synccap = e->synccap ? 2 * e->synccap : 16;
        e->sync_paths = cio_realloc(e->sync_paths, (size_t)e->synccap * sizeof *e->sync_paths);
    }
    e->sync_paths[e->nsync++] = cio_strdup(path);
}

/* fsync one regular file; 0 or an errno. */
static int sync_file(const char *path)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0) return errno;
    int err = fsync(fd) == 0 ? 0 : errno;
    close(fd);
    return err;
}

/* A folder: each regular file directly in it. */
static int sync_folder(const char *path, int *calls)
{
    DIR *d = opendir(path);
    if (!d) return errno;
    int err = 0;
    struct dirent *de;
    char sub[4096];
    struct stat st;
    while (!err && (de = readdir(d)) != NULL) {
        snprintf(sub, sizeof sub, "%s/%s", path, de->d_name);
        if (stat(sub, &st) != 0 || !S_ISREG(st.st_mode)) continue;
        err = sync_file(sub);
        (*calls)++;
    }
    closedir(d);
    return err;
}

int cio_engine_sync_written(cio_engine *e, cio_err *err)
{
    int rc = 0;
    for (int i = 0; i < e->nsync; i++) {
        const char *p = e->sync_paths[i];
        struct stat st;
        int calls = 0, code;
        cio_timer_begin(e->stats, CIO_T_SYNC);
        if (stat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
            code = sync_folder(p, &calls);
        } else {
            code = sync_file(p);
            calls = 1;
        }
        cio_timer_end(e->stats, CIO_T_SYNC);
        e->stats->t[CIO_T_SYNC].calls += calls - 1;   /* the timer counted one */
        if (code && !rc) rc = cio_seterr(err, "--fsync end: cannot sync %s: %s", p, strerror(code));
    }
    if (e->nsync > 0) e->stats->last_close = cio_stats_now(e->stats);
    for (int i = 0; i < e->nsync; i++) cio_free(e->sync_paths[i]);
    e->nsync = 0;
    return rc;
}
