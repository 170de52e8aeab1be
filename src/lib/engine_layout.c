/* Verification checks the shape of each file before its values: the records it
 * holds against the records the plan wrote (--verify_only included), and its size
 * against what its own header says it may hold (a file appended to after the run
 * fails, as it fails ncvalidator).  Each problem counts as one mismatch. */
#include "config.h"
#include "engine_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

static void problem(cio_readback *out, const char *fmt, ...) CIO_PRINTF(2, 3);
static void problem(cio_readback *out, const char *fmt, ...)
{
    out->mismatches++;
    if (out->first_mismatch[0]) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out->first_mismatch, sizeof out->first_mismatch, fmt, ap);
    va_end(ap);
}

int64_t eng_check_layout(cio_file *f, int64_t planned_nrecs, int has_records, cio_readback *out)
{
    const cio_driver *d = f->e->cfg.drv;
    /* every rank of the file asks (netCDF-4's record count is collective); its first rank reports */
    int64_t nrecs = 0, most = 0;
    int have_nrecs = has_records && d->inq_nrecs && d->inq_nrecs(&f->df, &nrecs) == 0;
    int have_most = d->max_extent && d->max_extent(&f->df, &most) == 0;
    int64_t readable = have_nrecs ? nrecs : -1;
    if (f->df.rank != 0) return readable;
    /* planned_nrecs 0: this run only read the file (mom_combine's members) */
    if (have_nrecs && planned_nrecs > 0 &&
        (nrecs < planned_nrecs || (nrecs > planned_nrecs && !f->s->records_shared)))
        problem(out, "%s: holds %lld records, the plan writes %lld", f->path, (long long)nrecs,
                (long long)planned_nrecs);
    struct stat st;
    if (have_most && stat(f->path, &st) == 0 && (int64_t)st.st_size > most)
        problem(out, "%s: %lld bytes, %lld more than its header and records account for (%lld): data after the end "
                "of the file", f->path, (long long)st.st_size, (long long)st.st_size - most, (long long)most);
    return readable;
}
