/* --dry_run: the map's summary (entries, holes, coverage, how fragmented), then
 * each rank's plan of the files it would write. */
#include "config.h"
#include "decomp_ctx.h"

#include <stdio.h>
#include <string.h>

void decomp_plan_rank(decomp_ctx *x, cio_engine *e, int rank, int nprocs)
{
    const decomp_cfg *c = x->dry_cfg;
    dmap_loaded m;
    cio_err err = {0};
    if (!x->dry_map) {
        decomp_ideal(c, rank, nprocs, &m);
    } else {
        memset(&m, 0, sizeof m);
        m.ndecomps = dmap_ndecomps(x->dry_map);
        m.ntasks = dmap_ntasks(x->dry_map);
        int64_t t0, cnt;
        dmap_tasks_of_rank(m.ntasks, rank, nprocs, &t0, &cnt);
        for (int k = 0; k < m.ndecomps; k++) {
            m.desc[k] = *dmap_decomp(x->dry_map, k);
            if (dmap_read(x->dry_map, k, t0, cnt, &m.part[k], &err) != 0) cio_die("%s", err.msg);
        }
    }
    decomp_file df[2];
    int nf = decomp_files(c, m.ndecomps, df, &err);
    if (nf < 0) cio_die("%s", err.msg);
    for (int i = 0; i < nf; i++) {
        char path[4200];
        snprintf(path, sizeof path, "%s/%s%s.nc", c->outdir, c->file, df[i].suffix);
        cio_schema *s = decomp_schema(x, c, &m, &df[i], MPI_COMM_SELF, rank);
        decomp_write(e, s, df[i].records, path, MPI_COMM_SELF);
        cio_schema_free(s);
    }
    dmap_loaded_free(&m);
}

#define NBUCKETS 40

/* The map as recorded: entries, holes, coverage, and how fragmented it is. */
static int map_summary(const decomp_cfg *c, dmap_file *f, int nprocs)
{
    int64_t P = dmap_ntasks(f);
    printf("decomp_io plan: %s (%s), recorded at %lld tasks, replayed at %d rank%s", c->decomp,
           dmap_format_name(dmap_file_format(f)), (long long)P, nprocs, nprocs == 1 ? "" : "s");
    if (nprocs != P) {
        int64_t t0, lo, hi;
        dmap_tasks_of_rank(P, nprocs - 1, nprocs, &t0, &lo);
        dmap_tasks_of_rank(P, 0, nprocs, &t0, &hi);
        printf(" (%lld to %lld recorded tasks per rank)", (long long)lo, (long long)hi);
    }
    printf("\n");
    int64_t named = 0;    /* elements of every decomposition: a map of none is refused, as a real run refuses it */
    for (int k = 0; k < dmap_ndecomps(f); k++) {
        const dmap_desc *d = dmap_decomp(f, k);
        int64_t g = dmap_desc_elems(d), elems = 0, holes = 0, runs = 0;
        int64_t emin = INT64_MAX, emax = 0, rmin = INT64_MAX, rmax = 0;
        int64_t hist[NBUCKETS] = {0}, hbytes[NBUCKETS] = {0};
        cio_err err = {0};
        dmap_part all;      /* every task's runs, for the duplicate check a real run makes */
        dmap_part_init(&all, 0, P);
        for (int64_t t = 0; t < P; t++) {
            dmap_part p;
            if (dmap_read(f, k, t, 1, &p, &err) != 0) {
                dmap_part_free(&p);
                dmap_part_free(&all);
                fprintf(stderr, "decomp_io: error: %s\n", err.msg);
                return 2;
            }
            int64_t nr = 0;
            for (int64_t r = 0; r < p.nruns; r++) {
                if (p.start[r] < 0) continue;
                dmap_part_add_run(&all, t, p.start[r], p.len[r]);
                nr++;
                int b = 0;
                while (b < NBUCKETS - 1 && ((int64_t)1 << (b + 1)) <= p.len[r]) b++;
                hist[b]++;
                hbytes[b] += p.len[r];
            }
            elems += p.nelems;
            holes += p.nholes;
            runs += nr;
            if (p.nelems < emin) emin = p.nelems;
            if (p.nelems > emax) emax = p.nelems;
            if (nr < rmin) rmin = nr;
            if (nr > rmax) rmax = nr;
            dmap_part_free(&p);
        }
        int dup = dmap_check_duplicates(&all, d, c->decomp, MPI_COMM_SELF, &err);
        dmap_part_free(&all);
        if (dup != 0) {
            if (dmap_ndecomps(f) > 1) {
                size_t l = strlen(err.msg);
                if (l + 24 < sizeof err.msg) sprintf(err.msg + l, " (decomposition D%d)", k + 1);
            }
            fprintf(stderr, "decomp_io: error: %s\n", err.msg);
            return 2;
        }
        named += elems;
        if (k == dmap_ndecomps(f) - 1 && named == 0) {
            fprintf(stderr, "decomp_io: error: %s: the map names no element of the array (every entry is a hole, or "
                            "every task's map is empty): nothing would be written\n", c->decomp);
            return 2;
        }
        char dims[128];
        printf("  D%d: %s = %lld elements; %lld named (%.1f%%), %lld holes, %lld unheld (their fill is not planned)\n", k + 1,
               dmap_dims_str(d, dims, sizeof dims), (long long)g, (long long)elems, 100.0 * (double)elems / (double)g,
               (long long)holes, (long long)(g - elems));
        printf("      per recorded task: %lld to %lld elements (mean %.1f), %lld to %lld contiguous runs (mean %.1f)\n",
               (long long)emin, (long long)emax, (double)elems / (double)P, (long long)rmin, (long long)rmax,
               (double)runs / (double)P);
        printf("      contiguous run lengths (elements): count, share of the elements\n");
        for (int b = 0; b < NBUCKETS; b++)
            if (hist[b])
                printf("        %12lld - %-12lld %10lld  %5.1f%%\n", (long long)1 << b, ((long long)2 << b) - 1,
                       (long long)hist[b], 100.0 * (double)hbytes[b] / (double)(elems ? elems : 1));
    }
    printf("  (a run is a stretch of consecutive indices in one task's buffer; the engine writes each as the fewest "
           "boxes of the array, below)\n");
    return 0;
}

int decomp_dry_run_open(decomp_ctx *x, const decomp_cfg *c, int nprocs)
{
    x->dry_cfg = c;
    decomp_rundate_set(x, MPI_COMM_SELF);
    if (c->source != DECOMP_FILE) {
        printf("decomp_io plan: pioperf's %s map, %lld elements per rank, at %d rank%s\n",
               c->source == DECOMP_BLOCK ? "BLOCK" : "ROUNDROBIN", (long long)c->varsize, nprocs, nprocs == 1 ? "" : "s");
        return 0;
    }
    cio_err err = {0};
    x->dry_map = dmap_open(c->decomp, &c->opts, &err);
    if (!x->dry_map) {
        fprintf(stderr, "decomp_io: error: %s\n", err.msg);
        return 2;
    }
    return map_summary(c, x->dry_map, nprocs);
}

void decomp_dry_run_close(decomp_ctx *x)
{
    dmap_close(x->dry_map);
    x->dry_map = NULL;
}
