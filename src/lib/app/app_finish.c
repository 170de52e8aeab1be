/* The end of a run: read-back, reduced statistics, storage figures, the closing
 * lines and the reports. */
#include "config.h"
#include "app/app.h"
#include "base/util.h"
#include "drivers/io_util.h"

#include <stdio.h>

/* The bytes this rank handed to the storage library's write calls (the I/O tasks'
 * share under aggregation; nothing for a driver that stores nothing). */
static int64_t bytes_stored(const cio_app *a)
{
    if (!a->ecfg.drv || !a->ecfg.drv->stores_data) return 0;
    return a->stats.t[CIO_T_PUT].bytes + a->stats.t[CIO_T_IPUT].bytes;
}

static void human_bytes(char *buf, size_t len, double b)
{
    const char *unit[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    int u = 0;
    while (b >= 1024 && u < 5) {
        b /= 1024;
        u++;
    }
    snprintf(buf, len, u ? "%.1f %s" : "%.0f %s", b, unit[u]);
}

/* Durability, the page-cache note and the headline, from the reduced statistics
 * and the run context (rank 0). */
static void closing_lines(cio_app *a)
{
    const cio_context *c = &a->context;
    const cio_summary *s = &a->summary;
    int stores = a->ecfg.drv && a->ecfg.drv->stores_data && s->bytes_written > 0 &&
                 !a->ecfg.verify_only;
    a->durable = stores && a->ecfg.fsync && !cio_context_fs_in_memory(c);
    a->closing_note[0] = '\0';
    if (stores && cio_context_fs_in_memory(c)) {
        snprintf(a->closing_note, sizeof a->closing_note,
                 "note: the output folder %.400s is on %s, which is memory: this bandwidth measures memory, not storage "
                 "(write to a disk or parallel file system to measure storage)",
                 c->fs.dir, c->fs.type);
    } else if (stores && !a->ecfg.fsync && c->fits_page_cache) {
        char nb[32], avail[32];
        human_bytes(nb, sizeof nb, (double)c->node_bytes_max);
        human_bytes(avail, sizeof avail, (double)c->node_mem_available);
        snprintf(a->closing_note, sizeof a->closing_note,
                 "note: the %s a node wrote fit in its page cache (%s available on %s, /proc/meminfo): this bandwidth "
                 "measures memory more than storage; --fsync true makes every file durable before its close, timed "
                 "inside end to end",
                 nb, avail, c->node_host);
    }
    cio_app_headline(a, a->headline, sizeof a->headline);
}

/* The ranks of the variables written in a chunked format, every rank's, for the
 * table's rows told at the end (a --chunking list of another rank).  Collective. */
static void gather_chunked_ranks(cio_app *a)
{
    unsigned mine = a->engine && !cio_engine_is_virtual(a->engine) ? cio_engine_chunked_var_ranks(a->engine) : 0;
    MPI_Allreduce(&mine, &a->chunked_ranks, 1, MPI_UNSIGNED, MPI_BOR, a->comm);
}

int cio_app_finish(cio_app *a, cio_json_fn kernel_json, void *ctx)
{
    cio_params *p = a->params;
    int verify = a->set.verify, readb = a->set.read;
    if (a->nreps == 0) {    /* a kernel that wrote once, outside cio_app_repeat: its phase ends here */
        a->nreps = 1;
        a->reps = cio_calloc(1, sizeof *a->reps);
        cio_app_end_phase(a, &a->reps[0]);
    }
    cio_stats_reduce(&a->stats, a->comm, &a->summary);
    gather_chunked_ranks(a);
    cio_app_notes_at(a, CIO_APPLIES_AT_END);
    cio_rep_summarise(a->reps, a->nreps, &a->rep_summary);
    int stores = a->ecfg.drv && a->ecfg.drv->stores_data;
    cio_context_gather(&a->context, a->comm, a->engine && stores ? cio_engine_first_path(a->engine) : NULL,
                       bytes_stored(a));
    if (a->rank == 0) {
        closing_lines(a);
        cio_host_info_read(&a->host);
    }
    a->finished = 1;
    if ((verify || readb) && a->engine) {
        if (a->ecfg.drv->stores_data) {   /* else said by cio_app_note_inapplicable */
            int shift = cio_param_bool(p, "verify_shift");
            int check = verify || cio_param_bool(p, "read_check");
            cio_stats_mark_start(&a->rstats, a->comm);
            cio_engine_readback(a->engine, shift, check, &a->rstats, &a->rb);
            cio_stats_reduce(&a->rstats, a->comm, &a->rsummary);
            a->did_readback = 1;
            a->rb_checked = check;
            if (check && a->rb.mismatches) a->exit_code = 3;
        }
    }
    if (a->storage_report && a->engine && a->ecfg.drv->stores_data && !a->ecfg.verify_only) {
        /* each file measured by its first rank, after every timer */
        cio_storage mine = {0, NULL};
        for (int i = 0; i < cio_engine_nfiles(a->engine); i++) {
            const char *path;
            cio_engine_file_at(a->engine, i, &path, NULL, NULL, NULL);
            if (!cio_engine_file_leader(a->engine, i)) continue;
            mine.files = cio_realloc(mine.files, (size_t)(mine.nfiles + 1) * sizeof *mine.files);
            cio_storage_measure(path, &mine.files[mine.nfiles++]);
        }
        cio_storage_gather(&mine, a->comm, &a->storage);
        a->did_storage = 1;
        const cio_storage_file *sf;
        const cio_storage_var *sv;
        if (a->rank == 0 && cio_storage_first_uncoded(&a->storage, &sf, &sv)) {
            fprintf(stderr, "%s: error: %s cannot be read back: %lld of its chunks of %s are stored as raw data but marked as "
                    "szip-coded (szip could not code them smaller than their data, and parallel HDF5 then marks them "
                    "wrongly); no reader can read them: use deflate, or data szip compresses\n", a->kernel, sf->path,
                    (long long)sv->uncoded, sv->name);
            a->exit_code = 3;
        }
    }
    const char **names = NULL;
    const uint64_t *sums = NULL;
    int nsums = a->engine ? cio_engine_checksums(a->engine, &names, &sums) : 0;
    if (a->rank == 0) {
        if (!cio_param_bool(p, "quiet")) cio_report_summary(stdout, a, &a->summary);
        if (a->did_storage && !cio_param_bool(p, "quiet")) cio_storage_print(stdout, &a->storage);
        if (a->rb_checked && a->did_readback && a->rb.mismatches)
            fprintf(stderr, "%s: verification FAILED: %lld mismatched elements; first: %s\n", a->kernel,
                    (long long)a->rb.mismatches, a->rb.first_mismatch);
        const char *jpath = cio_param_str(p, "json");
        if (jpath) cio_app_write_json(a, jpath, kernel_json, ctx, nsums, names, sums);
    }
    MPI_Bcast(&a->exit_code, 1, MPI_INT, 0, a->comm);
    return a->exit_code;
}
