#include "config.h"
#include "grids/mom_domain.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* FMS mpp_compute_extent (mpp_domains_define.inc): divisions of the lower half
 * take ceil(remaining points / remaining divisions); when the point and
 * division counts allow it (both even, both odd, or an odd count of divisions
 * fewer than half the points) each such division's mirror image about the
 * centre gets the same width, so uneven extents are symmetric: 41 points over 3
 * give 14, 13, 14 (not 14, 14, 13). */
void mom_extents(int64_t n, int ndivs, int64_t *begin, int64_t *len)
{
    int64_t *end = cio_malloc((size_t)ndivs * sizeof *end);
    int sym = (ndivs % 2 == 0 && n % 2 == 0) || (ndivs % 2 == 1 && n % 2 == 1) ||
              (ndivs % 2 == 1 && n % 2 == 0 && ndivs < n / 2);
    int64_t is = 0, imax = n - 1, ie;
    int ndmax = ndivs;
    for (int k = 0; k < ndivs; k++) {
        if (k < (ndivs - 1) / 2 + 1) {
            ie = is + (imax - is + 1 + (ndmax - k) - 1) / (ndmax - k) - 1;
            int mirror = ndivs - 1 - k;
            if (mirror > k && sym) {
                int64_t mb = n - 1 - ie, me = n - 1 - is;
                begin[mirror] = mb > ie + 1 ? mb : ie + 1;
                end[mirror] = me > ie + 1 ? me : ie + 1;
                imax = begin[mirror] - 1;
                ndmax--;
            }
        } else if (sym) {
            is = begin[k];
            ie = end[k];
        } else {
            ie = is + (imax - is + 1 + (ndmax - k) - 1) / (ndmax - k) - 1;
        }
        begin[k] = is;
        end[k] = ie;
        is = ie + 1;
    }
    for (int k = 0; k < ndivs; k++) len[k] = end[k] - begin[k] + 1;
    cio_free(end);
}

void mom_auto_layout(int64_t ni, int64_t nj, int npes, int layout[2])
{
    int x = (int)lround(sqrt((double)npes * (double)ni / (double)nj));
    if (x < 1) x = 1;
    if (x > npes) x = npes;
    while (npes % x != 0) x--;
    layout[0] = x;
    layout[1] = npes / x;
}

int mom_auto_io_layout(const int layout[2], int npes, int ppn, int io_layout[2])
{
    int npx = layout[0], npy = layout[1];
    io_layout[0] = io_layout[1] = 1;
    if (ppn <= 0 || ppn >= npes) return 0;
    if (npx % ppn == 0) {               /* a node holds part of one PE row */
        io_layout[0] = npx / ppn;
        io_layout[1] = npy;
        return 0;
    }
    if (ppn % npx == 0 && npy % (ppn / npx) == 0) {   /* a node holds whole PE rows */
        io_layout[1] = npy / (ppn / npx);
        return 0;
    }
    return -1;
}

int mom_domain_init(mom_domain *d, int64_t ni, int64_t nj, int npes, const int layout[2], const char *layout_origin,
                    const int io_layout[2], const char *io_origin, int ppn, cio_err *e)
{
    memset(d, 0, sizeof *d);
    d->ni = ni;
    d->nj = nj;
    d->npes = npes;
    int lay[2] = {layout[0], layout[1]}, io[2] = {io_layout[0], io_layout[1]};
    /* MOM5 (ocean_domains.F90): layout 1,1 asks mpp_define_layout to choose */
    int lay_one = lay[0] == 1 && lay[1] == 1 && npes > 1;
    int lay_auto = lay[0] <= 0 || lay_one, io_auto = io[0] < 0;
    if (lay_auto) mom_auto_layout(ni, nj, npes, lay);
    char ltxt[128];
    snprintf(ltxt, sizeof ltxt, "layout %d,%d (%s%s)", lay[0], lay[1], lay_one ? "chosen for layout 1,1 at " :
             lay_auto ? "auto from " : "", layout_origin);
    if ((int64_t)lay[0] * lay[1] != npes)
        return cio_seterr(e, "%s needs %lld PEs, this run has %d: use layout auto, or X,Y with X*Y = %d", ltxt,
                          (long long)lay[0] * lay[1], npes, npes);
    if (lay[0] > ni || lay[1] > nj)
        return cio_seterr(e, "%s splits the %lld x %lld grid into %d x %d compute domains: at most %lld PEs along x "
                             "and %lld along y",
                          ltxt, (long long)ni, (long long)nj, lay[0], lay[1], (long long)ni, (long long)nj);
    if (io_auto && mom_auto_io_layout(lay, npes, ppn, io) != 0) d->io_fallback = 1;
    /* MOM5: an io_layout entry of 0 defines no io domain (mpp_define_io_domain
     * returns); diagnostics are then written one file per PE */
    d->no_io = io[0] == 0 || io[1] == 0;
    d->io_given[0] = io[0];
    d->io_given[1] = io[1];
    if (d->no_io) {
        io[0] = lay[0];
        io[1] = lay[1];
    }
    char itxt[96];
    snprintf(itxt, sizeof itxt, "io_layout %d,%d (%s%s)", io[0], io[1], io_auto ? "auto from " : "", io_origin);
    if (lay[0] % io[0] != 0 || lay[1] % io[1] != 0) {
        int bad = lay[0] % io[0] != 0 ? 0 : 1;
        return cio_seterr(e, "%s does not divide %s: %d PEs along %c cannot form %d equal io domains "
                             "(each layout extent must be a multiple of the io_layout extent; FMS "
                             "mpp_define_io_domain: \"domain layout(%d) must be divided by io_layout(%d)\")",
                          itxt, ltxt, lay[bad], bad ? 'y' : 'x', io[bad], bad + 1, bad + 1);
    }
    if (!d->no_io && (int64_t)io[0] * io[1] > 9999)
        return cio_seterr(e, "%s makes %lld io domains: FMS file names (.nc.NNNN) allow at most 9999 (FMS mpp_open: "
                             "\"tile_id should be less than 10000 when io_domain exist\")",
                          itxt, (long long)io[0] * io[1]);
    d->npx = lay[0];
    d->npy = lay[1];
    d->iox = io[0];
    d->ioy = io[1];
    d->xb = cio_malloc((size_t)d->npx * sizeof(int64_t));
    d->xn = cio_malloc((size_t)d->npx * sizeof(int64_t));
    d->yb = cio_malloc((size_t)d->npy * sizeof(int64_t));
    d->yn = cio_malloc((size_t)d->npy * sizeof(int64_t));
    mom_extents(ni, d->npx, d->xb, d->xn);
    mom_extents(nj, d->npy, d->yb, d->yn);
    return 0;
}

void mom_domain_free(mom_domain *d)
{
    cio_free(d->xb);
    cio_free(d->xn);
    cio_free(d->yb);
    cio_free(d->yn);
    memset(d, 0, sizeof *d);
}

mom_box mom_pe_box(const mom_domain *d, int pe)
{
    int ix = pe % d->npx, iy = pe / d->npx;
    return (mom_box){d->xb[ix], d->yb[iy], d->xn[ix], d->yn[iy]};
}

int mom_ntiles(const mom_domain *d) { return d->iox * d->ioy; }
int mom_tile_size(const mom_domain *d) { return (d->npx / d->iox) * (d->npy / d->ioy); }

int mom_tile_of(const mom_domain *d, int pe)
{
    int ix = pe % d->npx, iy = pe / d->npx;
    return (iy / (d->npy / d->ioy)) * d->iox + ix / (d->npx / d->iox);
}

int mom_tile_root(const mom_domain *d, int tile)
{
    int ig = tile % d->iox, jg = tile / d->iox;
    return jg * (d->npy / d->ioy) * d->npx + ig * (d->npx / d->iox);
}

mom_box mom_tile_box(const mom_domain *d, int tile)
{
    int px = d->npx / d->iox, py = d->npy / d->ioy;
    int ig = tile % d->iox, jg = tile / d->iox;
    int x0 = ig * px, y0 = jg * py;
    mom_box b = {d->xb[x0], d->yb[y0], 0, 0};
    for (int i = 0; i < px; i++) b.nx += d->xn[x0 + i];
    for (int j = 0; j < py; j++) b.ny += d->yn[y0 + j];
    return b;
}

int mom_tile_members(const mom_domain *d, int tile, int *pes)
{
    int px = d->npx / d->iox, py = d->npy / d->ioy;
    int ig = tile % d->iox, jg = tile / d->iox, n = 0;
    for (int j = 0; j < py; j++)
        for (int i = 0; i < px; i++) pes[n++] = (jg * py + j) * d->npx + ig * px + i;
    return n;
}
