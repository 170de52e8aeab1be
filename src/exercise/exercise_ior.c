/* engine_exercise's "ior" shape (exercise_ior.h). */
#include "config.h"
#include "exercise_ior.h"
#include "data/schema.h"

#include <stdio.h>

void exercise_ior_path(const exercise_ior *x, int64_t k, char *path, size_t len)
{
    snprintf(path, len, "%s/ior.%lld%s", x->folder, (long long)k, x->ext);
}

/* One file's schema: `vars` byte variables data0.. of nprocs x share elements
 * (a record dimension first when there are several records), each rank owning
 * `segments` runs of share / segments elements, run k at (k x nprocs + rank) x
 * run (one contiguous share at rank x share when segments is 1: IOR's layout). */
static cio_schema *ior_schema(const exercise_ior *x, int rank, int nprocs, int *varids)
{
    int64_t share = x->block / (x->vars * x->records), run = share / x->segments;
    cio_schema *s = cio_schema_new("ior");
    int rec = x->records > 1;
    if (rec) cio_schema_dim(s, "time", CIO_UNLIMITED);
    cio_schema_dim(s, "n", share * nprocs);
    const char *dims[] = {"time", "n"};
    for (int64_t k = 0; k < x->vars; k++) {
        char name[32];
        snprintf(name, sizeof name, "data%lld", (long long)k);
        varids[k] = cio_schema_var(s, name, CIO_BYTE, rec ? 2 : 1, rec ? dims : dims + 1);
        int64_t shape[1] = {share * nprocs};
        cio_decomp *d = cio_decomp_new(1, shape);
        for (int64_t seg = 0; seg < x->segments; seg++) {
            int64_t st[1] = {(seg * nprocs + rank) * run}, ct[1] = {run};
            cio_decomp_add(d, st, ct);
        }
        cio_schema_set_decomp(s, varids[k], d);
        cio_decomp_release(d);
    }
    return s;
}

void exercise_ior_plan(const exercise_ior *x, cio_engine *eng, int rank, int nprocs)
{
    int *varids = cio_calloc((size_t)x->vars, sizeof *varids);
    cio_schema *s = ior_schema(x, rank, nprocs, varids);
    char path[4200];
    for (int64_t k = 0; k < x->files; k++) {
        cio_engine_event(eng);
        exercise_ior_path(x, k, path, sizeof path);
        for (int64_t r = 0; r < x->records; r++) {
            cio_file *f = r == 0 ? cio_create(eng, path, s, x->comm) : cio_open(eng, path, s, x->comm);
            for (int64_t v = 0; v < x->vars; v++) cio_write(f, varids[v], r);
            cio_close(f);
        }
    }
    cio_schema_free(s);
    cio_free(varids);
}
