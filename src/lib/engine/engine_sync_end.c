/* --fsync end: every file this rank wrote is synced once, after its last write,
 * as IOR's -e does for its one file: the closes do not sync; the files written
 * are remembered (each once) and handed to the driver's sync_closed verb together
 * when the output phase ends, inside the end-to-end window (the sync timer, one
 * call per fsync the driver made). */
#include "config.h"
#include "engine/engine_int.h"
#include "base/util.h"

#include <string.h>

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

int cio_engine_sync_written(cio_engine *e, cio_err *err)
{
    const cio_driver *d = e->cfg.drv;
    int rc = 0;
    for (int i = 0; i < e->nsync; i++) {
        cio_dfile df = {.drv = d, .opts = &e->cfg.opts, .comm = MPI_COMM_SELF, .nprocs = 1, .path = e->sync_paths[i]};
        int calls = 0;
        cio_timer_begin(e->stats, CIO_T_SYNC);
        int code = d->sync_closed(&df, &calls);
        cio_timer_end(e->stats, CIO_T_SYNC);
        e->stats->t[CIO_T_SYNC].calls += calls - 1;   /* the timer counted one */
        if (code && !rc)
            rc = cio_seterr(err, "%s driver: --fsync end: cannot sync %s: %s", d->name, e->sync_paths[i], df.err);
    }
    if (e->nsync > 0) e->stats->last_close = cio_stats_now(e->stats);
    for (int i = 0; i < e->nsync; i++) cio_free(e->sync_paths[i]);
    e->nsync = 0;
    return rc;
}
