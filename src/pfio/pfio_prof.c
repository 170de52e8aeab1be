/* The PFIO profiler: timer tree, reduction, report format (see prof.h). */
#include "config.h"
#include "pfio_prof.h"
#include "base/util.h"

#include <stdio.h>
#include <string.h>

void pf_prof_init(pf_prof *p, const char *root, int enabled)
{
    memset(p, 0, sizeof *p);
    p->enabled = enabled;
    if (!enabled) return;
    snprintf(p->node[0].name, sizeof p->node[0].name, "%s", root);
    p->node[0].parent = -1;
    p->node[0].t0 = MPI_Wtime();
    p->node[0].running = 1;
    p->n = 1;
    p->stack[0] = 0;
    p->sp = 1;
}

void pf_prof_start(pf_prof *p, const char *name)
{
    if (!p->enabled) return;
    if (p->sp >= PF_PROF_DEPTH) cio_die("internal: profiler timers nested too deep at '%s'", name);
    int parent = p->stack[p->sp - 1], k;
    for (k = 0; k < p->n; k++)
        if (p->node[k].parent == parent && strcmp(p->node[k].name, name) == 0) break;
    if (k == p->n) {
        if (p->n == PF_PROF_MAX) cio_die("internal: more than %d profiler timers", PF_PROF_MAX);
        memset(&p->node[k], 0, sizeof p->node[k]);
        snprintf(p->node[k].name, sizeof p->node[k].name, "%s", name);
        p->node[k].parent = parent;
        p->node[k].depth = p->node[parent].depth + 1;
        p->n++;
    }
    p->node[k].t0 = MPI_Wtime();
    p->node[k].running = 1;
    p->stack[p->sp++] = k;
}

void pf_prof_stop(pf_prof *p, const char *name)
{
    if (!p->enabled) return;
    int k = p->stack[p->sp - 1];
    if (p->sp <= 1 || strcmp(p->node[k].name, name) != 0)
        cio_die("internal: profiler stop of '%s' while '%s' runs", name, p->node[k].name);
    p->node[k].incl += MPI_Wtime() - p->node[k].t0;
    p->node[k].running = 0;
    p->sp--;
}

void pf_prof_finish(pf_prof *p)
{
    if (!p->enabled || !p->node[0].running) return;
    while (p->sp > 1) pf_prof_stop(p, p->node[p->stack[p->sp - 1]].name);
    p->node[0].incl += MPI_Wtime() - p->node[0].t0;
    p->node[0].running = 0;
    p->sp = 0;
}

/* "root/child/grandchild" of node k */
static void node_path(const pf_prof *p, int k, char *buf, size_t len)
{
    int chain[PF_PROF_DEPTH + 1], n = 0;
    for (int i = k; i >= 0 && n <= PF_PROF_DEPTH; i = p->node[i].parent) chain[n++] = i;
    buf[0] = '\0';
    size_t used = 0;
    for (int i = n - 1; i >= 0; i--)
        used += (size_t)snprintf(buf + used, used < len ? len - used : 0, "%s%s", i == n - 1 ? "" : "/",
                                 p->node[chain[i]].name);
}

double pf_prof_get(const pf_prof *p, const char *path)
{
    char buf[PF_PROF_NAME * (PF_PROF_DEPTH + 1)];
    for (int k = 0; k < p->n; k++) {
        node_path(p, k, buf, sizeof buf);
        if (strcmp(buf, path) == 0) return p->node[k].incl;
    }
    return 0;
}

/* ---------------------------------------------------------------- reduction */
typedef struct prec {
    char path[PF_PROF_NAME * (PF_PROF_DEPTH + 1)];
    int depth;
    double incl, excl;
} prec;

typedef struct acc {
    prec r;                     /* path, depth; incl/excl summed */
    int npes;
    double emax, emin;
    int max_pe, min_pe;
} acc;

static int is_in_subtree(const char *path, const char *parent)
{
    size_t l = strlen(parent);
    return strncmp(path, parent, l) == 0 && (path[l] == '/' || path[l] == '\0');
}

/* This rank's timers as records: path, depth, inclusive and exclusive seconds. */
static prec *local_records(const pf_prof *p, int n)
{
    prec *mine = cio_calloc((size_t)(n ? n : 1), sizeof *mine);
    for (int k = 0; k < n; k++) {
        node_path(p, k, mine[k].path, sizeof mine[k].path);
        mine[k].depth = p->node[k].depth;
        double children = 0;
        for (int c = 0; c < n; c++)
            if (p->node[c].parent == k) children += p->node[c].incl;
        mine[k].incl = p->node[k].incl;
        mine[k].excl = p->node[k].incl - children;
    }
    return mine;
}

/* The row of path x in a (na rows, cap allocated), added where it belongs: a path
 * first seen on another rank goes at the end of its parent's subtree. */
static int row_of(acc **a, int *na, int *cap, const prec *x)
{
    for (int i = 0; i < *na; i++)
        if (strcmp((*a)[i].r.path, x->path) == 0) return i;
    if (*na == *cap) {
        *cap *= 2;
        *a = cio_realloc(*a, (size_t)*cap * sizeof **a);
    }
    char parent[sizeof x->path];
    snprintf(parent, sizeof parent, "%s", x->path);
    char *slash = strrchr(parent, '/');
    int at = *na;
    if (slash) {
        *slash = '\0';
        for (int j = 0; j < *na; j++)
            if (is_in_subtree((*a)[j].r.path, parent)) at = j + 1;
    }
    memmove(&(*a)[at + 1], &(*a)[at], (size_t)(*na - at) * sizeof **a);
    memset(&(*a)[at], 0, sizeof (*a)[at]);
    snprintf((*a)[at].r.path, sizeof (*a)[at].r.path, "%s", x->path);
    (*a)[at].r.depth = x->depth;
    (*na)++;
    return at;
}

/* Rank r's record added to its row: sums, and the extremes with their ranks. */
static void row_add(acc *t, const prec *x, int r)
{
    t->r.incl += x->incl;
    t->r.excl += x->excl;
    if (t->npes == 0 || x->excl > t->emax) {
        t->emax = x->excl;
        t->max_pe = r;
    }
    if (t->npes == 0 || x->excl < t->emin) {
        t->emin = x->excl;
        t->min_pe = r;
    }
    t->npes++;
}

pf_prow *pf_prof_reduce(const pf_prof *p, MPI_Comm comm, int *nrows)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    int n = p->enabled ? p->n : 0;
    prec *mine = local_records(p, n);
    int *counts = NULL, *displs = NULL, bytes = n * (int)sizeof(prec), total = 0;
    if (rank == 0) {
        counts = cio_calloc((size_t)size, sizeof *counts);
        displs = cio_calloc((size_t)size, sizeof *displs);
    }
    MPI_Gather(&bytes, 1, MPI_INT, counts, 1, MPI_INT, 0, comm);
    prec *all = NULL;
    if (rank == 0) {
        for (int i = 0; i < size; i++) {
            displs[i] = total;
            total += counts[i];
        }
        all = cio_malloc((size_t)total + 1);
    }
    MPI_Gatherv(mine, bytes, MPI_BYTE, all, counts, displs, MPI_BYTE, 0, comm);
    cio_free(mine);
    if (rank != 0) {
        *nrows = 0;
        return NULL;
    }
    /* merge by path, keeping tree order */
    int na = 0, cap = 16;
    acc *a = cio_calloc((size_t)cap, sizeof *a);
    for (int r = 0; r < size; r++) {
        prec *recs = (prec *)((char *)all + displs[r]);
        for (int k = 0; k < counts[r] / (int)sizeof(prec); k++) {
            int i = row_of(&a, &na, &cap, &recs[k]);    /* may move a */
            row_add(&a[i], &recs[k], r);
        }
    }
    pf_prow *rows = cio_calloc((size_t)(na ? na : 1), sizeof *rows);
    for (int i = 0; i < na; i++) {
        const char *slash = strrchr(a[i].r.path, '/');
        snprintf(rows[i].name, sizeof rows[i].name, "%s", slash ? slash + 1 : a[i].r.path);
        rows[i].depth = a[i].r.depth;
        rows[i].incl = a[i].r.incl / a[i].npes;
        rows[i].excl = a[i].r.excl / a[i].npes;
        rows[i].excl_max = a[i].emax;
        rows[i].excl_min = a[i].emin;
        rows[i].max_pe = a[i].max_pe;
        rows[i].min_pe = a[i].min_pe;
    }
    cio_free(a);
    cio_free(all);
    cio_free(counts);
    cio_free(displs);
    *nrows = na;
    return rows;
}

/* ---------------------------------------------------------------- format */
/* A MAPL FormattedTextColumn header: the string cut to the column width, then
 * centred as TextColumn%center does (trim, left gap (w-n)/2, the rest right). */
static int centred(char *out, size_t cap, const char *header, int w)
{
    char cut[64];
    snprintf(cut, sizeof cut, "%.*s", w, header);
    const char *t = cut;
    while (*t == ' ') t++;
    int n = (int)strlen(t);
    while (n > 0 && t[n - 1] == ' ') n--;
    int left = (w - n) / 2, right = w - n - left;
    return snprintf(out, cap, "%*s%.*s%*s", left, "", n, t, right, "");
}

char *pf_prof_format(const pf_prow *rows, int n, pf_prof_style style)
{
    double incl_max = 0, excl_sum = 0;
    for (int i = 0; i < n; i++) {
        if (rows[i].incl > incl_max) incl_max = rows[i].incl;
        excl_sum += rows[i].excl;
    }
    /* the columns of AbstractServer%report_profile: current MAPL (since MAPL#1420,
     * 2022) writes times as f10.2 in 10 characters; the PFIO wiki's 2021 report as
     * f9.6 in 9.  The header strings carry MAPL's stray ')', which a 9-wide
     * column cut off and a 10-wide one shows. */
    int tw = style == PF_PROF_WIKI2021 ? 9 : 10, prec = style == PF_PROF_WIKI2021 ? 6 : 2;
    static const char *const heads[] = {"Inclusive", "% Incl", "Exclusive", "% Excl", " Max Excl)", " Min Excl)",
                                        "Max PE)", "Min PE)"};
    const int widths[] = {tw, 6, tw, 6, tw, tw, 6, 6};
    size_t cap = (size_t)(n + 2) * 160, used = 0;
    char *out = cio_malloc(cap);
    used += (size_t)snprintf(out + used, cap - used, "%-20s", "Name");
    for (int k = 0; k < 8; k++) {
        out[used++] = ' ';
        used += (size_t)centred(out + used, cap - used, heads[k], widths[k]);
    }
    while (used > 0 && out[used - 1] == ' ') used--;   /* Fortran's write of the joined line keeps no tail */
    out[used++] = '\n';
    out[used] = '\0';
    for (int i = 0; i < n; i++) {
        char name[64] = "";
        int d = rows[i].depth;
        for (int k = 0; k < d && 2 * k + 2 < (int)sizeof name; k++) strcat(name, "--");
        strncat(name, rows[i].name, sizeof name - strlen(name) - 1);
        double pi = incl_max > 0 ? 100.0 * rows[i].incl / incl_max : 0;
        double pe = excl_sum > 0 ? 100.0 * rows[i].excl / excl_sum : 0;
        /* (1x,i4.4,1x) for the PE columns */
        used += (size_t)snprintf(out + used, cap - used, "%-20.20s %*.*f %6.2f %*.*f %6.2f %*.*f %*.*f  %04d   %04d\n",
                                 name, tw, prec, rows[i].incl, pi, tw, prec, rows[i].excl, pe, tw, prec,
                                 rows[i].excl_max, tw, prec, rows[i].excl_min, rows[i].max_pe, rows[i].min_pe);
    }
    return out;
}

const char *pf_prof_title(pf_prof_style style)
{
    /* MAPL prints "Final io_server profile" and a rule of 13 '=' above every
     * server's table; the 2021 wiki shows "Final profile" above the server's */
    return style == PF_PROF_WIKI2021 ? "Final profile" : "Final io_server profile";
}
