/* The map readers and writers from the command line, for the tests:
 *
 *   dmap_tool dump FILE [c_order] [fill] [shifted]   load at this many ranks, print every task's
 *                                          entries 1-based (0 = hole) in task order
 *   dmap_tool text OUT FILE [c_order]      read FILE (1 rank), write it as PIO text
 *   dmap_tool e3sm OUT CMDLINE [raw] FILE...  read the files, write one E3SM-IO map */
#include "config.h"
#include "dmap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A task's entries as text, "1 2 0 5". */
static char *part_text(const dmap_part *p, int64_t t, size_t *len)
{
    size_t cap = 64, n = 0;
    char *s = malloc(cap);
    s[0] = 0;
    int64_t r = 0;
    for (int64_t i = 0; i < t; i++) r += p->task_nruns[i];
    for (int64_t j = 0; j < p->task_nruns[t]; j++, r++)
        for (int64_t k = 0; k < p->len[r]; k++) {
            if (cap - n < 32) s = realloc(s, cap *= 2);
            n += (size_t)snprintf(s + n, cap - n, "%s%lld", n ? " " : "",
                                  p->start[r] < 0 ? 0LL : (long long)(p->start[r] + k + 1));
        }
    *len = n;
    return s;
}

static int dump(const char *path, int argc, char **argv)
{
    dmap_opts o = {0};
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "c_order")) o.text_c_order = 1;
        if (!strcmp(argv[i], "fill")) o.e3sm_fill = 1;
        if (!strcmp(argv[i], "shifted")) o.e3sm_shifted = 1;
    }
    int rank, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    dmap_loaded l;
    cio_err e = {0};
    if (dmap_load(path, &o, MPI_COMM_WORLD, &l, &e) != 0) {
        if (rank == 0) fprintf(stderr, "dmap_tool: error: %s\n", e.msg);
        return 2;
    }
    if (rank == 0) {
        printf("format %s ntasks %lld ndecomps %d\n", dmap_format_name(l.format), (long long)l.ntasks, l.ndecomps);
        for (int k = 0; k < l.ndecomps; k++) {
            printf("D%d dims", k + 1);
            for (int i = 0; i < l.desc[k].ndims; i++) printf(" %lld", (long long)l.desc[k].dims[i]);
            printf("\n");
        }
    }
    for (int k = 0; k < l.ndecomps; k++)
        for (int r = 0; r < n; r++) {
            /* rank r's tasks, printed by rank 0 */
            int64_t t0, cnt;
            dmap_tasks_of_rank(l.ntasks, r, n, &t0, &cnt);
            for (int64_t t = 0; t < cnt; t++) {
                size_t len = 0;
                char *s = NULL;
                if (rank == r) s = part_text(&l.part[k], t, &len);
                if (r != 0) {
                    int ln = (int)len;
                    if (rank == r) {
                        MPI_Send(&ln, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
                        MPI_Send(s, ln, MPI_CHAR, 0, 1, MPI_COMM_WORLD);
                    } else if (rank == 0) {
                        MPI_Recv(&ln, 1, MPI_INT, r, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                        s = malloc((size_t)ln + 1);
                        MPI_Recv(s, ln, MPI_CHAR, r, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                        s[ln] = 0;
                    }
                }
                if (rank == 0) printf("D%d task %lld: %s\n", k + 1, (long long)(t0 + t), s);
                free(s);
            }
        }
    dmap_loaded_free(&l);
    return 0;
}

/* Writers read their source maps whole: this is a test tool with tiny maps. */
typedef struct src {
    int n;
    dmap_file *f[DMAP_MAX_DECOMPS];
    dmap_part p[DMAP_MAX_DECOMPS];
} src;

static int64_t task_entries(void *ctx, int k, int64_t t, int64_t **out, cio_err *e)
{
    (void)e;
    src *s = ctx;
    dmap_part *p = &s->p[k];
    int64_t r = 0, n = p->task_len[t], j = 0;
    for (int64_t i = 0; i < t; i++) r += p->task_nruns[i];
    int64_t *m = cio_malloc((size_t)(n ? n : 1) * sizeof(int64_t));
    for (int64_t q = 0; q < p->task_nruns[t]; q++, r++)
        for (int64_t i = 0; i < p->len[r]; i++) m[j++] = p->start[r] < 0 ? -1 : p->start[r] + i;
    *out = m;
    return n;
}

static int load_src(src *s, int nfiles, char **files, const dmap_opts *o, cio_err *e)
{
    s->n = 0;
    for (int i = 0; i < nfiles; i++) {
        dmap_file *f = dmap_open(files[i], o, e);
        if (!f) return -1;
        for (int k = 0; k < dmap_ndecomps(f) && s->n < DMAP_MAX_DECOMPS; k++) {
            s->f[s->n] = f;
            if (dmap_read(f, k, 0, dmap_ntasks(f), &s->p[s->n], e)) return -1;
            s->n++;
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    cio_set_progname("dmap_tool");
    int rc = 2;
    cio_err e = {0};
    if (argc >= 3 && !strcmp(argv[1], "dump")) {
        rc = dump(argv[2], argc - 3, argv + 3);
    } else if (argc >= 4 && !strcmp(argv[1], "text")) {
        dmap_opts o = {0};
        int c_order = argc > 4 && !strcmp(argv[4], "c_order");
        src s;
        if (load_src(&s, 1, argv + 3, &o, &e) == 0 &&
            dmap_write_text(argv[2], dmap_decomp(s.f[0], 0), c_order, dmap_ntasks(s.f[0]), task_entries, &s, &e) == 0)
            rc = 0;
        else fprintf(stderr, "dmap_tool: error: %s\n", e.msg);
    } else if (argc >= 5 && !strcmp(argv[1], "e3sm")) {
        int raw = !strcmp(argv[4], "raw"), first = raw ? 5 : 4;
        dmap_opts o = {0};
        src s;
        dmap_desc d[DMAP_MAX_DECOMPS];
        if (load_src(&s, argc - first, argv + first, &o, &e) == 0) {
            for (int k = 0; k < s.n; k++) d[k] = *dmap_decomp(s.f[k], 0);
            if (dmap_write_e3sm(argv[2], s.n, d, dmap_ntasks(s.f[0]), raw, argv[3], task_entries, &s, &e) == 0) rc = 0;
        }
        if (rc) fprintf(stderr, "dmap_tool: error: %s\n", e.msg);
    } else {
        fprintf(stderr, "usage: dmap_tool dump FILE [c_order] [fill] | text OUT FILE [c_order] | e3sm OUT CMDLINE [raw] FILE...\n");
    }
    MPI_Finalize();
    return rc;
}
