/* MAPL's choice of output server for a write step (ClientManager.F90:
 * split_server_pools and set_optimal_server), for a vector of oservers.
 *
 * The servers are sorted by size and split into a "small" and a "large" pool
 * (at n_server_split, else at the middle).  Each step that writes nwriting
 * collections goes to the next server of the large pool when nwriting is above
 * the cutoff and of the small pool when below; the cutoff is the median of the
 * last tsize nwritings (or n_hist_split when given), and a step exactly at the
 * cutoff goes to whichever pool has been less busy per rank.  With one server
 * there is nothing to choose. */
#include "config.h"
#include "pfio.h"
#include "base/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* MAPL_Sort(server_sizes, tmp_position): sizes ascending, positions carried
 * (a stable insertion sort, so equal sizes keep the servers' order) */
static void sort_with_positions(int *v, int *pos, int n)
{
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
            int t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
            t = pos[j];
            pos[j] = pos[j - 1];
            pos[j - 1] = t;
        }
}

void pf_choice_init(pf_server_choice *ch, int nserver, const int *sizes, int n_server_split, int n_hist_split,
                    FILE *log)
{
    memset(ch, 0, sizeof *ch);
    ch->tsize = nserver;
    ch->sizes = cio_calloc((size_t)(nserver ? nserver : 1), sizeof(int));
    if (nserver > 0) memcpy(ch->sizes, sizes, (size_t)nserver * sizeof(int));
    ch->current = 0;
    if (nserver <= 1) {
        if (log && nserver == 1) fprintf(log, " oserver is not split\n");
        return;
    }
    int *v = cio_calloc((size_t)nserver, sizeof(int)), *pos = cio_calloc((size_t)nserver, sizeof(int));
    for (int i = 0; i < nserver; i++) {
        v[i] = sizes[i];
        pos[i] = i;
    }
    sort_with_positions(v, pos, nserver);
    int split;
    if (n_server_split < v[0] || n_server_split > v[nserver - 1]) {
        split = nserver / 2;
    } else {
        split = 0;
        for (int i = 0; i < nserver; i++)
            if (n_server_split < v[i]) {
                split = i;
                break;
            }
        if (split == 0) split = nserver / 2;
    }
    ch->small = cio_calloc((size_t)nserver, sizeof(int));
    ch->large = cio_calloc((size_t)nserver, sizeof(int));
    for (int i = 0; i < split; i++) {
        ch->small[ch->ssize++] = pos[i];
        ch->small_total += sizes[pos[i]];
    }
    for (int i = split; i < nserver; i++) {
        ch->large[ch->lsize++] = pos[i];
        ch->large_total += sizes[pos[i]];
    }
    ch->write_cutoff = n_hist_split;
    ch->nw = cio_calloc((size_t)nserver, sizeof(int));
    ch->nw_large = cio_calloc((size_t)(ch->lsize ? ch->lsize : 1), sizeof(int));
    ch->nw_small = cio_calloc((size_t)(ch->ssize ? ch->ssize : 1), sizeof(int));
    ch->small_cur = ch->large_cur = -1;
    if (log) {
        /* MAPL's list-directed print* lines */
        fprintf(log, " Oservers are split: ");
        for (int i = 0; i < nserver; i++) fprintf(log, "%12d", v[i]);
        fprintf(log, "\n Small pool oserver npes: ");
        for (int i = 0; i < split; i++) fprintf(log, "%12d", v[i]);
        fprintf(log, "\n Large pool oserver npes: ");
        for (int i = split; i < nserver; i++) fprintf(log, "%12d", v[i]);
        fprintf(log, "\n");
    }
    cio_free(v);
    cio_free(pos);
}

static int sum(const int *v, int n)
{
    int s = 0;
    for (int i = 0; i < n; i++) s += v[i];
    return s;
}

int pf_choice_next(pf_server_choice *ch, int nwriting, FILE *log)
{
    if (ch->tsize <= 1 || ch->ssize == 0) {
        /* ClientManager%next(): with no small pool, the next server in turn */
        if (ch->tsize > 1) ch->current = (ch->current + 1) % ch->tsize;
        return ch->current;
    }
    int n = ch->tsize, cutoff = ch->write_cutoff;
    if (cutoff == 0) {
        memmove(ch->nw + 1, ch->nw, (size_t)(n - 1) * sizeof(int));
        ch->nw[0] = nwriting;
        int *order = cio_calloc((size_t)n, sizeof(int));
        memcpy(order, ch->nw, (size_t)n * sizeof(int));
        qsort(order, (size_t)n, sizeof(int), cmp_int);
        cutoff = order[n / 2 - 1];   /* nwritings_order(tsize/2), 1-based; n >= 2 here */
        cio_free(order);
    }
    if (nwriting == cutoff) {
        double l_ratio = (double)sum(ch->nw_large, ch->lsize) / (double)ch->large_total;
        double s_ratio = (double)sum(ch->nw_small, ch->ssize) / (double)ch->small_total;
        cutoff += s_ratio >= l_ratio ? -1 : 1;   /* the busier pool per rank is spared */
    }
    int ith;
    if (nwriting > cutoff) {
        ch->large_cur = (ch->large_cur + 1) % ch->lsize;
        ith = ch->large[ch->large_cur];
        if (log)
            fprintf(log, " Large pool oserver is chosen, nwriting and server size :%12d%12d\n", nwriting, ch->sizes[ith]);
        memmove(ch->nw_large, ch->nw_large + 1, (size_t)(ch->lsize - 1) * sizeof(int));
        ch->nw_large[ch->lsize - 1] = nwriting;
    } else {
        ch->small_cur = (ch->small_cur + 1) % ch->ssize;
        ith = ch->small[ch->small_cur];
        if (log)
            fprintf(log, " Small pool oserver is chosen, nwriting and server size :%12d%12d\n", nwriting, ch->sizes[ith]);
        memmove(ch->nw_small, ch->nw_small + 1, (size_t)(ch->ssize - 1) * sizeof(int));
        ch->nw_small[ch->ssize - 1] = nwriting;
    }
    ch->current = ith;
    return ith;
}

void pf_choice_free(pf_server_choice *ch)
{
    cio_free(ch->sizes);
    cio_free(ch->small);
    cio_free(ch->large);
    cio_free(ch->nw);
    cio_free(ch->nw_large);
    cio_free(ch->nw_small);
    memset(ch, 0, sizeof *ch);
}
