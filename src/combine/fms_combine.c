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
        }
    }
    for (int i = 0; i < s->nmem; i++) s->mem[i].ncid = s->mem[i].fd = -1;
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

/* The axes that differ in length from member to member: said once, by rank 0. */
static void note_varying_axes(fms_set *s, MPI_Comm comm, int rank)
{
    int *any = calloc((size_t)s->ndims + 1, sizeof *any);
    fms_allreduce(s->dimvaries, any, s->ndims, sizeof *any, MPI_INT, MPI_MAX, comm);
    for (int d = 0; d < s->ndims; d++) {
        s->dimvaries[d] = any[d];
        if (!any[d] || rank != 0) continue;
        fprintf(stderr, "Note: axis %s is not decomposed, yet its length differs from member to member (a compressed "
                        "index, as a land restart's): as FRE-NCtools' mppnccombine, the output takes the first member's "
                        "(\"%s\", %lld points) with the variables on it, which then hold that member's points only; "
                        "FRE-NCtools' combine-ncc concatenates compressed axes\n",
                s->dimname[d], s->mem[s->first].path, (long long)s->dimfull[d]);
    }
    free(any);
}

/* Each rank reads and checks the headers of the members it reads (every rank the
 * first: it defines the output).  Returns the members refused on every rank; -1
 * when the first member itself cannot describe the set. */
static int read_headers(fms_set *s, const fms_opts *o, MPI_Comm comm, int rank, int nprocs, double *t_open)
{
    double t0 = fms_now();
    for (;;) {      /* -f: a refused first member is left out like a missing one */
        if (o->verbose && rank == 0) printf("  processing \"%s\"\n", s->mem[s->first].path);
        if (o->mem_stats && rank == 0) fms_mem_report();
        int bad = fms_member_read(s, s->first, o) ? 1 + s->set_refused : 0, anybad = 0;
        fms_allreduce(&bad, &anybad, 1, sizeof bad, MPI_INT, MPI_MAX, comm);
        if (!anybad) break;
        if (!o->force || anybad == 2) return -1;
        s->mem[s->first].present = 0;
        s->errors += rank == 0;
        free(s->vars);
        s->vars = NULL;
        int next = -1;
        for (int i = s->first + 1; i < s->nmem && next < 0; i++)
            if (s->mem[i].present) next = i;
        if (next < 0) {
            if (rank == 0) fprintf(stderr, "Error: no member of the set can be read; nothing to combine\n");
            return -1;
        }
        s->first = next;
    }
    int *mine = calloc((size_t)s->nmem + 1, sizeof *mine);
    int refused = 0;
    for (int i = 0; i < s->nmem; i++) {
        mine[i] = fms_reader_of(i, nprocs) == rank;
        if (!mine[i] || i == s->first || !s->mem[i].present) continue;
        if (o->verbose) printf("  processing \"%s\"\n", s->mem[i].path);
        if (o->mem_stats && nprocs == 1) fms_mem_report();
        if (fms_member_read(s, i, o)) {
            s->mem[i].present = 0;
            refused++;
        }
    }
    if (nprocs > 1) share_placements(s, comm, mine);
    free(mine);
    int all = 0;
    fms_allreduce(&refused, &all, 1, sizeof refused, MPI_INT, MPI_SUM, comm);
    note_varying_axes(s, comm, rank);
    *t_open += fms_now() - t0;
    return all;
}

/* Rank 0: the set as a whole (records, tiling); every rank learns who takes
 * part.  The members refused, or -1 when the whole set is. */
static int check_set(fms_set *s, const fms_opts *o, MPI_Comm comm, int rank)
{
    int refused = rank == 0 ? fms_check_set(s, o) : 0;
    int *present = malloc((size_t)s->nmem * sizeof *present);
    for (int i = 0; i < s->nmem; i++) present[i] = s->mem[i].present;
    fms_bcast(present, s->nmem, MPI_INT, comm);
    fms_bcast(&refused, 1, MPI_INT, comm);
    long long nrec = s->nrec;
    fms_bcast(&nrec, 1, MPI_LONG_LONG, comm);
    s->nrec = nrec;
    for (int i = 0; i < s->nmem; i++) s->mem[i].present = present[i];
    free(present);
    return refused;
}

/* -x: the peak this combine needs: its largest group of variable blocks and one piece. */
static void print_estimate(const fms_set *s, const fms_opts *o)
{
    int64_t bf = fms_block_records(s, o), blocks, piece;
    fms_memory_need(s, o, &blocks, &piece);
    double most = (double)(blocks + piece);
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

static void free_set(fms_set *s)
{
    for (int i = 0; i < s->nmem; i++) {
        free(s->mem[i].path);
        free(s->mem[i].start);
        free(s->mem[i].count);
        free(s->mem[i].begin);
    }
    free(s->mem);
    free(s->vars);
    free(s->times);
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
    cio_json_arr(&j, "command_line");
    for (int i = 0; i < o->argc; i++) cio_json_str(&j, NULL, o->argv[i]);
    cio_json_arr_end(&j);
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
        ok = out != -1;
    }
    t->open += fms_now() - t0;
    int st[2] = {ok, s->out_raw};      /* the readers send pieces in the output's byte order */
    fms_bcast(st, 2, MPI_INT, comm);
    s->out_raw = st[1];
    return st[0] ? (rank == 0 ? out : -2) : -1;
}

/* -a writes into a file as it is: the options that make a file cannot apply. */
static int append_refusals(const fms_opts *o)
{
    if (!o->append) return 0;
    const char *what = o->format_given ? (o->format & NC_NETCDF4 ? "-n4" : "-64")
                     : o->deflate > 0 ? "-d" : o->shuffle ? "-s" : o->headerpad_given ? "-h" : NULL;
    if (!what) return 0;
    fprintf(stderr, "Error: %s with -a: -a writes into the existing output as it is, whose kind, compression and header "
                    "are already set, so %s cannot apply (FRE-NCtools' mppnccombine ignores it without a word); drop "
                    "it, or combine into a new file\n",
            what, what);
    return 1;
}

/* Rank 0 before any member is read: the output, the list, the registry. */
static int start_set(fms_set *s, const fms_opts *o)
{
    struct stat sb;
    if (append_refusals(o)) return 1;
    if (!o->append && !o->estimate && stat(s->output, &sb) == 0) {
        fprintf(stderr, "Error: output file seems to exist already!\n");
        return 1;
    }
    int rc = fms_set_list(s, o);
    return rc ? rc : claim_files(s, o);
}

/* The members refused: without -f nothing is combined (1); with -f they are left
 * out as missing ones are. */
static int refusals(fms_set *s, const fms_opts *o, int refused, int rank)
{
    if (!refused) return 0;
    if (!o->force) {
        if (rank == 0)
            fprintf(stderr, "Error: %d member%s of the set %s refused (each is named above); nothing was written (-f "
                            "combines the others, their points 0)\n",
                    refused, refused == 1 ? "" : "s", refused == 1 ? "is" : "are");
        return 1;
    }
    if (rank == 0) s->errors += refused;
    return 0;
}

int fms_combine_main(fms_opts *o, MPI_Comm comm, int *quick_exit)
{
    static fms_set s;
    fms_times t = {0};
    int rank = fms_rank(comm), nprocs = fms_size(comm), rc = 0;
    fms_barrier(comm);
    double t0 = fms_now();
    snprintf(s.output, sizeof s.output, "%s", o->output);
    size_t l = strlen(s.output);
    if (l > 4 && strcmp(s.output + l - 5, ".0000") == 0) s.output[l - 5] = '\0';
    s.out_fd = -1;
    if (rank == 0) rc = start_set(&s, o);
    fms_bcast(&rc, 1, MPI_INT, comm);
    if (rc) return rc;
    share_list(&s, comm, rank);
    int refused = read_headers(&s, o, comm, rank, nprocs, &t.open);
    if (refused < 0) return 1;
    if (!refused || o->force) {     /* else the refusals alone are said */
        int whole = check_set(&s, o, comm, rank);
        if (whole < 0) return 1;
        refused += whole;
    }
    if (refusals(&s, o, refused, rank)) return 1;
    if (rank == 0) note_block(&s, o);
    if (o->estimate) {
        if (rank == 0) print_estimate(&s, o);
        return 0;
    }
    int nomem = fms_copy_reserve(&s, o, rank), anynomem = 0;
    fms_allreduce(&nomem, &anynomem, 1, sizeof nomem, MPI_INT, MPI_MAX, comm);
    if (anynomem) return 1;
    int out = make_output(&s, o, comm, rank, &t);
    if (out == -1) return 1;
    if (rank == 0) fms_fatal_discards(&s);
    int *mine = calloc((size_t)s.nmem + 1, sizeof *mine);
    for (int i = 0; i < s.nmem; i++) mine[i] = fms_reader_of(i, nprocs) == rank || (rank == 0 && i == s.first);
    fms_pool_init(&s, mine);
    free(mine);
    int errs = fms_copy_data(&s, o, out, comm, &t);
    double tc = fms_now();
    fms_pool_close_all(&s);
    int bad = rank == 0 ? fms_output_close(&s, out, errs) : 0, anybad = 0, allerr = 0;
    t.close += fms_now() - tc;
    fms_allreduce(&bad, &anybad, 1, sizeof bad, MPI_INT, MPI_MAX, comm);
    fms_allreduce(&s.errors, &allerr, 1, sizeof allerr, MPI_INT, MPI_SUM, comm);
    if (rank == 0 && (errs || anybad) && !o->append) fms_output_discard(&s);
    else if (rank == 0 && (errs || anybad))
        fprintf(stderr, "Error: -a: %s was partly written before the failure above\n", s.output);
    fms_fatal_discards(NULL);
    t.total = fms_now() - t0;
    reduce_times(&t, comm);
    if (rank == 0 && o->mem_stats) fms_mem_report();
    int failed = errs || anybad;
    int jsonbad = rank == 0 && !failed && (o->bench || o->json) ? bench_report(&s, o, &t, nprocs) : 0;
    if (rank == 0 && !failed) {
        if (allerr) fprintf(stderr, "Warning: output file may be incomplete!\n");
        else if (o->remove_inputs) remove_inputs(&s, o);
    }
    int qe = s.skip_exit_handlers;     /* every rank ends the same way (fms_main.c) */
    fms_allreduce(&qe, quick_exit, 1, sizeof qe, MPI_INT, MPI_MAX, comm);
    free_set(&s);
    return allerr || failed || jsonbad ? 1 : 0;
}
