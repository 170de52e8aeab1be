/* The combine's steps: list the set (rank 0), read the members' headers (each
 * reader its own), agree on which members take part, define the output, copy
 * the data, close, and report (--bench) or stay silent as mppnccombine does. */
#include "fms_combine.h"
#include "app/outputs.h"
#include "base/inputs.h"
#include "base/json.h"

#include <errno.h>
#include <math.h>
#include <netcdf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

/* -M: the resident size now and at most so far (KiB). */
void fms_mem_report(void)
{
    static long prev;
    long rss = 0, pages = 0, dummy = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (f) {
        if (fscanf(f, "%ld %ld", &dummy, &pages) == 2) rss = pages * (sysconf(_SC_PAGESIZE) / 1024);
        fclose(f);
    }
    struct rusage ru;
    long maxrss = getrusage(RUSAGE_SELF, &ru) == 0 ? ru.ru_maxrss : 0;
    printf("rss=%ld KB, delta=%ld KB, maxrss=%ld KB\n", rss, rss - prev, maxrss);
    prev = rss;
}

/* Rank 0's list of members to every rank. */
static void share_list(fms_set *s, MPI_Comm comm, int rank)
{
    int hdr[4] = {s->nmem, s->first, s->width, s->numbered};
    fms_bcast(hdr, 4, MPI_INT, comm);
    size_t len = 0;
    if (rank == 0)
        for (int i = 0; i < s->nmem; i++) len += strlen(s->mem[i].path) + 1;
    unsigned long long l = len;
    fms_bcast(&l, 1, MPI_UNSIGNED_LONG_LONG, comm);
    char *buf = malloc((size_t)l + 1);
    int *present = malloc((size_t)(hdr[0] + 1) * sizeof *present);
    if (rank == 0)
        for (int i = 0, at = 0; i < s->nmem; i++) {
            strcpy(buf + at, s->mem[i].path);
            at += (int)strlen(s->mem[i].path) + 1;
            present[i] = s->mem[i].present;
        }
    fms_bcast(buf, (int)l, MPI_CHAR, comm);
    fms_bcast(present, hdr[0], MPI_INT, comm);
    if (rank != 0) {
        s->nmem = hdr[0], s->first = hdr[1], s->width = hdr[2], s->numbered = hdr[3];
        s->mem = calloc((size_t)s->nmem, sizeof *s->mem);
        for (int i = 0, at = 0; i < s->nmem; i++) {
            s->mem[i].path = strdup(buf + at);
            at += (int)strlen(buf + at) + 1;
            s->mem[i].present = present[i];
            s->mem[i].ncid = -1;
        }
    }
    free(buf);
    free(present);
}

/* Every rank's members' placements to every rank (the rows are disjoint: a sum). */
static void share_placements(fms_set *s, MPI_Comm comm, const int *mine)
{
    int nd = s->ndims, w = 2 + 2 * nd;
    int64_t *rows = calloc((size_t)s->nmem * (size_t)w + 1, sizeof *rows), *all = malloc(((size_t)s->nmem * w + 1) * 8);
    for (int i = 0; i < s->nmem; i++) {
        const fms_member *m = &s->mem[i];
        if (!mine[i]) continue;
        int64_t *r = rows + (size_t)i * w;
        r[0] = m->present ? 1 : 2;
        r[1] = m->nrec;
        for (int d = 0; d < nd && m->present; d++) r[2 + d] = m->start[d], r[2 + nd + d] = m->count[d];
    }
    fms_allreduce(rows, all, s->nmem * w, sizeof *rows, MPI_INT64_T, MPI_SUM, comm);
    for (int i = 0; i < s->nmem; i++) {
        fms_member *m = &s->mem[i];
        const int64_t *r = all + (size_t)i * w;
        if (r[0] == 0) continue;        /* listed as missing: nobody read it */
        m->present = r[0] == 1;
        m->nrec = r[1];
        if (!m->start) {
            m->start = calloc((size_t)nd + 1, sizeof *m->start);
            m->count = calloc((size_t)nd + 1, sizeof *m->count);
        }
        for (int d = 0; d < nd; d++) m->start[d] = r[2 + d], m->count[d] = r[2 + nd + d];
    }
    free(rows);
    free(all);
}

/* Each rank reads the headers of the members it will read (rank 0 the first
 * member too: it defines the output); members that fail are left out. */
static int read_headers(fms_set *s, const fms_opts *o, MPI_Comm comm, int rank, int nprocs, double *t_open)
{
    double t0 = fms_now();
    if (o->verbose && rank == 0) printf("  processing \"%s\"\n", s->mem[s->first].path);
    if (o->mem_stats && rank == 0) fms_mem_report();
    int bad = fms_member_read(s, s->first, o);     /* every rank: the set's description */
    int anybad = 0;
    fms_allreduce(&bad, &anybad, 1, sizeof bad, MPI_INT, MPI_MAX, comm);
    if (anybad) return 1;
    int lo = 0, hi = s->nmem;
    if (nprocs > 1) {
        int w = nprocs - 1;
        lo = rank == 0 ? 0 : (int)((int64_t)(rank - 1) * s->nmem / w);
        hi = rank == 0 ? 0 : (int)((int64_t)rank * s->nmem / w);
    }
    int *mine = calloc((size_t)s->nmem + 1, sizeof *mine);
    for (int i = lo; i < hi; i++) {
        mine[i] = 1;
        if (i == s->first || !s->mem[i].present) continue;
        if (o->verbose) printf("  processing \"%s\"\n", s->mem[i].path);
        if (o->mem_stats && nprocs == 1) fms_mem_report();
        if (fms_member_read(s, i, o)) {
            s->mem[i].present = 0;
            s->errors++;
        }
    }
    if (nprocs > 1) share_placements(s, comm, mine);
    if (rank != 0 && !(lo <= s->first && s->first < hi)) {
        nc_close(s->mem[s->first].ncid);
        s->mem[s->first].ncid = -1;
    }
    free(mine);
    *t_open += fms_now() - t0;
    return 0;
}

/* Rank 0: members with other record counts than the first are left out. */
static void check_records(fms_set *s, MPI_Comm comm, int rank)
{
    int *present = malloc((size_t)s->nmem * sizeof *present);
    if (rank == 0) {
        s->nrec = s->mem[s->first].nrec;
        for (int i = 0; i < s->nmem; i++) {
            fms_member *m = &s->mem[i];
            if (m->present && m->nrec != s->nrec) {
                fprintf(stderr, "Error: different number of records than the first input file! (%s: %lld, %s: "
                                "%lld)\n",
                        m->path, (long long)m->nrec, s->mem[s->first].path, (long long)s->nrec);
                m->present = 0;
                s->errors++;
            }
            present[i] = m->present;
        }
    }
    fms_bcast(present, s->nmem, MPI_INT, comm);
    long long nrec = s->nrec;
    fms_bcast(&nrec, 1, MPI_LONG_LONG, comm);
    s->nrec = nrec;
    for (int i = 0; i < s->nmem; i++) {
        if (!present[i] && s->mem[i].present && s->mem[i].ncid >= 0) {
            nc_close(s->mem[i].ncid);
            s->mem[i].ncid = -1;
        }
        s->mem[i].present = present[i];
    }
    free(present);
}

/* -x: the peak this combine needs: one block of the largest variable, and its pieces. */
static void print_estimate(const fms_set *s, const fms_opts *o)
{
    double most = 0;
    int64_t bf = fms_block_records(s, o);
    for (int v = 0; v < s->nvars; v++) {
        const fms_var *fv = &s->vars[v];
        double n = (double)fv->tsize * (fv->is_record ? (double)bf : 1);
        for (int d = fv->is_record; d < fv->ndims; d++) n *= (double)s->dimfull[fv->dims[d]];
        if (fv->decomposed) n *= 2;     /* the block and the pieces put into it */
        if (n > most) most = n;
    }
    if (o->verbose) {
        printf("Estimated peak memory resident size (k=%lld) : %.1f MB\n", (long long)bf, most / 1048576.0);
        printf("For estimating RSS for a different value of k, multiply above usage by k.\n");
    } else
        printf("%.0f\n", ceil(most / 1048576.0));
}

static void note_block(const fms_set *s, const fms_opts *o)
{
    if (o->block > 0 && o->block > s->nrec && s->recdim >= 0)
        fprintf(stderr, "blocking factor (k) > total records (%lld). Setting blocking factor to %lld.\n",
                (long long)s->nrec, (long long)s->nrec);
    if (o->verbose)
        fprintf(stderr, "blocking factor=%lld, num. records=%lld\n", (long long)fms_block_records(s, o),
                (long long)s->nrec);
}

/* --json FILE must be writable: said before the combine, not after it. */
static int json_writable(const char *path, cio_err *e)
{
    struct stat st;
    if (!path) return 0;
    int existed = stat(path, &st) == 0;
    if (existed && S_ISDIR(st.st_mode)) return cio_seterr(e, "--json %s: is a directory, expected a file name", path);
    FILE *f = fopen(path, "a");
    if (!f) return cio_seterr(e, "--json %s: cannot write: %s", path, strerror(errno));
    fclose(f);
    if (!existed) unlink(path);
    return 0;
}

/* Rank 0: the registry of the run's files.  The members are inputs (-r: removed
 * after success), -a's output is read and appended on purpose; the output may be
 * no member, whatever its spelling or link. */
static int claim_files(const fms_set *s, const fms_opts *o)
{
    for (int i = 0; i < s->nmem; i++)
        if (s->mem[i].present)
            cio_inputs_add(s->mem[i].path, "a member of the set", o->remove_inputs ? CIO_INPUT_REMOVED : CIO_INPUT_READ);
    if (o->append) cio_inputs_add(s->output, "-a's output", CIO_INPUT_APPENDED);
    cio_outputs *out = cio_outputs_new();
    cio_outputs_add(out, s->output, "the output file", NULL, 0);
    if (o->json) cio_outputs_add(out, o->json, "--json (the figures)", NULL, 0);
    cio_err e = {0};
    int rc = json_writable(o->json, &e) || cio_outputs_check(out, &e);
    cio_outputs_free(out);
    if (rc) fprintf(stderr, "Error: %s\n", e.msg);
    return rc ? 1 : 0;
}

static void remove_inputs(const fms_set *s, const fms_opts *o)
{
    for (int i = 0; i < s->nmem; i++) {
        if (!s->mem[i].present) continue;
        if (o->verbose) printf("Removing \"%s\"\n", s->mem[i].path);
        if (!cio_inputs_removable(s->mem[i].path))
            fprintf(stderr, "Warning: \"%s\" is not removed: it is not only a member of the set\n", s->mem[i].path);
        else if (unlink(s->mem[i].path) != 0)
            fprintf(stderr, "Warning: cannot remove \"%s\": %s\n", s->mem[i].path, strerror(errno));
    }
}

static void close_members(fms_set *s)
{
    for (int i = 0; i < s->nmem; i++)
        if (s->mem[i].ncid >= 0) {
            nc_close(s->mem[i].ncid);
            s->mem[i].ncid = -1;
        }
}

static void free_set(fms_set *s)
{
    for (int i = 0; i < s->nmem; i++) {
        free(s->mem[i].path);
        free(s->mem[i].start);
        free(s->mem[i].count);
    }
    free(s->mem);
    free(s->vars);
}

static int write_json(const fms_set *s, const fms_opts *o, const fms_times *t, int nprocs)
{
    FILE *f = fopen(o->json, "w");
    if (!f) {
        fprintf(stderr, "Error: cannot write %s: %s\n", o->json, strerror(errno));
        return 1;
    }
    cio_json j;
    cio_json_begin(&j, f, 1);
    cio_json_obj(&j, NULL);
    cio_json_str(&j, "kernel", "mom_combine");
    cio_json_int(&j, "nprocs", nprocs);
    cio_json_obj(&j, "kernel_report");
    cio_json_str(&j, "input", s->output);
    cio_json_str(&j, "output", s->output);
    cio_json_int(&j, "members", s->nmem);
    cio_json_int(&j, "records", s->nrec);
    cio_json_int(&j, "ranks", nprocs);
    cio_json_obj(&j, "combine");
    cio_json_num(&j, "seconds", t->total);
    cio_json_num(&j, "open_seconds", t->open);
    cio_json_num(&j, "read_seconds", t->read);
    cio_json_num(&j, "transfer_seconds", t->transfer);
    cio_json_num(&j, "write_seconds", t->write);
    cio_json_num(&j, "close_seconds", t->close);
    cio_json_int(&j, "data_bytes", t->bytes);
    cio_json_num(&j, "bandwidth_MiBps", t->total > 0 ? (double)t->bytes / 1048576.0 / t->total : 0);
    cio_json_obj_end(&j);
    cio_json_obj_end(&j);
    cio_json_obj_end(&j);
    cio_json_end(&j);
    if (ferror(f) | (fclose(f) != 0)) {
        fprintf(stderr, "Error: cannot write %s: %s\n", o->json, strerror(errno));
        return 1;
    }
    return 0;
}

/* --bench: one line of figures; --json FILE: the same as JSON. */
static int bench_report(const fms_set *s, const fms_opts *o, const fms_times *t, int nprocs)
{
    double mib = (double)t->bytes / 1048576.0;
    if (o->bench)
        printf("mom_combine: %d members of %s (%lld records, %.2f MiB) into %s on %d rank%s in %.4f s: %.2f MiB/s "
               "(open %.4f, read %.4f, transfer %.4f, write %.4f, close %.4f; slowest rank each)\n",
               s->nmem, s->output, (long long)s->nrec, mib, s->output, nprocs, nprocs == 1 ? "" : "s", t->total,
               t->total > 0 ? mib / t->total : 0, t->open, t->read, t->transfer, t->write, t->close);
    return o->json ? write_json(s, o, t, nprocs) : 0;
}

/* The slowest rank's time of each phase; the bytes rank 0 wrote. */
static void reduce_times(fms_times *t, MPI_Comm comm)
{
    double in[6] = {t->open, t->read, t->transfer, t->write, t->close, t->total}, out[6];
    fms_allreduce(in, out, 6, sizeof *in, MPI_DOUBLE, MPI_MAX, comm);
    t->open = out[0], t->read = out[1], t->transfer = out[2], t->write = out[3], t->close = out[4], t->total = out[5];
}

/* Rank 0: the output, defined or opened (-a); -1 on every rank when it failed. */
static int make_output(fms_set *s, const fms_opts *o, MPI_Comm comm, int rank, fms_times *t)
{
    int out = -1, ok = 1;
    double t0 = fms_now();
    if (rank == 0) {
        out = o->append ? fms_output_open_append(s, o) : fms_output_define(s, o);
        ok = out >= 0;
    }
    t->open += fms_now() - t0;
    fms_bcast(&ok, 1, MPI_INT, comm);
    return ok ? (rank == 0 ? out : -2) : -1;
}

static int finish(fms_set *s, int out, int rank, fms_times *t)
{
    double t0 = fms_now();
    int bad = 0;
    close_members(s);
    if (rank == 0) {
        int st = nc_sync(out);
        if (st == NC_NOERR) st = nc_close(out);
        else nc_close(out);
        if (st != NC_NOERR) {
            fprintf(stderr, "Error: cannot close %s: %s\n", s->output, nc_strerror(st));
            bad = 1;
        }
    }
    t->close += fms_now() - t0;
    return bad;
}

int fms_combine_main(fms_opts *o, MPI_Comm comm)
{
    static fms_set s;
    fms_times t = {0};
    int rank, nprocs, rc = 0;
    rank = fms_rank(comm);
    nprocs = fms_size(comm);
    fms_barrier(comm);
    double t0 = fms_now();
    snprintf(s.output, sizeof s.output, "%s", o->output);
    size_t l = strlen(s.output);
    if (l > 4 && strcmp(s.output + l - 5, ".0000") == 0) s.output[l - 5] = '\0';
    if (rank == 0) {
        struct stat sb;
        if (!o->append && !o->estimate && stat(s.output, &sb) == 0) {
            fprintf(stderr, "Error: output file seems to exist already!\n");
            rc = 1;
        }
        if (!rc) rc = fms_set_list(&s, o);
        if (!rc) rc = claim_files(&s, o);
    }
    fms_bcast(&rc, 1, MPI_INT, comm);
    if (rc) return rc;
    share_list(&s, comm, rank);
    if (read_headers(&s, o, comm, rank, nprocs, &t.open)) return 1;
    check_records(&s, comm, rank);
    if (rank == 0) note_block(&s, o);
    if (o->estimate) {
        if (rank == 0) print_estimate(&s, o);
        close_members(&s);
        return 0;
    }
    int out = make_output(&s, o, comm, rank, &t);
    if (out == -1) return 1;
    int errs = fms_copy_data(&s, o, out, comm, &t);
    int bad = finish(&s, out, rank, &t), anybad = 0, errors = s.errors + errs, allerr = 0;
    fms_allreduce(&bad, &anybad, 1, sizeof bad, MPI_INT, MPI_MAX, comm);
    fms_allreduce(&s.errors, &allerr, 1, sizeof allerr, MPI_INT, MPI_SUM, comm);
    errors = allerr + errs + anybad;
    t.total = fms_now() - t0;
    reduce_times(&t, comm);
    if (rank == 0 && o->mem_stats) fms_mem_report();
    int jsonbad = rank == 0 && (o->bench || o->json) ? bench_report(&s, o, &t, nprocs) : 0;
    if (rank == 0) {
        if (errors) fprintf(stderr, "Warning: output file may be incomplete!\n");
        else if (o->remove_inputs) remove_inputs(&s, o);
    }
    free_set(&s);
    return errors || jsonbad ? 1 : 0;
}
