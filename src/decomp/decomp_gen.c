/* decomp_io --make_decomp KIND: maps generated task by task (one task's map in
 * memory at a time), written as PIO text or as an E3SM-IO map file.
 *
 *   block         consecutive index ranges, E3SM-IO's block rule over the array
 *   roundrobin    index i on task i mod P
 *   random        a pseudo-random permutation of the indices, cut into blocks
 *   holes         block, with every gen_hole_every-th buffer slot a hole
 *   cubed_sphere  E3SM-like physics columns: 6 faces of ne x ne elements of 2 x 2
 *                 columns (pg2), columns numbered face by face, row by row; each
 *                 task takes consecutive elements along a Hilbert curve on each
 *                 face, every level of its columns (levels slowest)
 *   mom           mom_io's decomposition: FMS's automatic PE layout of an ni x nj
 *                 grid, nk levels
 *   gcrm          gcrm_io's cell fields (cells, layers): task t holds what gcrm_io's
 *                 rank t of P writes (the poles it owns, then its blocks of the
 *                 icosahedral grid at gen_level), built from that rank's blocks
 *                 alone, as gcrm_io builds it
 *   convert       the map named by decomp, rewritten in gen_format */
#include "config.h"
#include "app/outputs.h"
#include "base/inputs.h"
#include "decomp.h"
#include "grids/mom_domain.h"
#include "grids/gcrm_grid.h"

#include <stdio.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

typedef enum { G_BLOCK, G_RR, G_RANDOM, G_HOLES, G_CUBED, G_MOM, G_CONVERT, G_GCRM } gen_kind;

typedef struct gen {
    gen_kind kind;
    int64_t ntasks;
    int ndecomps;
    dmap_desc desc[DMAP_MAX_DECOMPS];
    int64_t hole_every;
    uint64_t seed;
    int bits;                   /* random: the permutation works on 2^bits */
    int64_t ne, nlev;           /* cubed_sphere */
    mom_domain dom;             /* mom */
    int level, iota;            /* gcrm: level_max and sbdmn_iota for ntasks */
    dmap_file *src;             /* convert */
} gen;

/* ---- a permutation of [0, n): a Feistel network on 2^bits, walked until inside */
static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    return x ^ (x >> 33);
}

static int64_t permute(const gen *g, int64_t i, int64_t n)
{
    int h = (g->bits + 1) / 2;
    uint64_t mask = ((uint64_t)1 << h) - 1, x = (uint64_t)i;
    do {
        uint64_t l = x >> h, r = x & mask;
        for (int round = 0; round < 4; round++) {
            uint64_t t = l ^ (mix(r ^ g->seed * 0x9e3779b97f4a7c15ULL ^ (uint64_t)round << 56) & mask);
            l = r;
            r = t;
        }
        x = l << h | r;
    } while (x >= (uint64_t)n);
    return (int64_t)x;
}

/* ---- Hilbert curve: position d on an n x n grid (n a power of 2) */
static void hilbert(int64_t n, int64_t d, int64_t *x, int64_t *y)
{
    int64_t rx, ry, t = d;
    *x = *y = 0;
    for (int64_t s = 1; s < n; s *= 2) {
        rx = 1 & (t / 2);
        ry = 1 & (t ^ rx);
        if (ry == 0) {
            if (rx == 1) {
                *x = s - 1 - *x;
                *y = s - 1 - *y;
            }
            int64_t tmp = *x;
            *x = *y;
            *y = tmp;
        }
        *x += s * rx;
        *y += s * ry;
        t /= 4;
    }
}

static int64_t *map_alloc(int64_t len) { return cio_malloc((size_t)(len ? len : 1) * sizeof(int64_t)); }

/* block, random, holes and roundrobin: task t's indices of an array of n */
static int64_t map_linear(const gen *g, int64_t n, int64_t t, int64_t **out)
{
    int64_t t0, cnt, len;
    if (g->kind == G_RR) {
        len = n / g->ntasks + (t < n % g->ntasks);
        int64_t *m = *out = map_alloc(len);
        for (int64_t j = 0; j < len; j++) m[j] = t + j * g->ntasks;
        return len;
    }
    dmap_tasks_of_rank(n, (int)t, (int)g->ntasks, &t0, &cnt);
    len = g->kind == G_HOLES ? cnt + cnt / (g->hole_every - 1) : cnt;
    int64_t *m = *out = map_alloc(len);
    for (int64_t i = 0, j = 0; j < len; j++) {
        if (g->kind == G_HOLES && (j + 1) % g->hole_every == 0) m[j] = -1;
        else m[j] = g->kind == G_RANDOM ? permute(g, t0 + i++, n) : t0 + i++;
    }
    return len;
}

static int64_t map_cubed(const gen *g, const dmap_desc *d, int64_t t, int64_t **out)
{
    int64_t ne = g->ne, nel = 6 * ne * ne, side = 2 * ne, ncol = 6 * side * side, t0, cnt;
    int64_t nlev = d->ndims == 2 ? d->dims[0] : 1;
    dmap_tasks_of_rank(nel, (int)t, (int)g->ntasks, &t0, &cnt);
    int64_t len = cnt * 4 * nlev, j = 0;
    int64_t *m = *out = map_alloc(len);
    for (int64_t lev = 0; lev < nlev; lev++)
        for (int64_t el = t0; el < t0 + cnt; el++) {
            int64_t f = el / (ne * ne), ex, ey;
            hilbert(ne, el % (ne * ne), &ex, &ey);
            for (int q = 0; q < 4; q++) {
                int64_t cx = 2 * ex + (q & 1), cy = 2 * ey + (q >> 1);
                m[j++] = lev * ncol + (f * side + cy) * side + cx;
            }
        }
    return len;
}

static int64_t map_mom(const gen *g, const dmap_desc *d, int64_t t, int64_t **out)
{
    mom_box b = mom_pe_box(&g->dom, (int)t);
    int64_t nk = d->ndims == 3 ? d->dims[0] : 1, ni = g->dom.ni, nj = g->dom.nj;
    int64_t len = nk * b.nx * b.ny, j = 0;
    int64_t *m = *out = map_alloc(len);
    for (int64_t z = 0; z < nk; z++)
        for (int64_t y = b.y; y < b.y + b.ny; y++)
            for (int64_t x = b.x; x < b.x + b.nx; x++) m[j++] = (z * nj + y) * ni + x;
    return len;
}

static int64_t map_gcrm(const gen *g, const dmap_desc *d, int64_t t, int64_t **out)
{
    gcrm_grid gg;
    gcrm_grid_init(&gg, g->level, g->iota, (int)t, (int)g->ntasks);
    int64_t nl = d->ndims == 2 ? d->dims[1] : 1, bcells = gg.bs * gg.bs;
    int64_t len = (gg.owns_north + gg.owns_south + gg.nsdm * bcells) * nl, j = 0;
    int64_t *m = *out = map_alloc(len);
    /* gcrm_io's order: the north pole, the south pole, then each block's cells, all layers of each */
    for (int pole = 0; pole < 2; pole++)
        if (pole ? gg.owns_south : gg.owns_north)
            for (int64_t l = 0; l < nl; l++) m[j++] = pole * nl + l;
    for (int64_t b = 0; b < gg.nsdm; b++)
        for (int64_t c = gg.blk_first[b]; c < gg.blk_first[b] + bcells; c++)
            for (int64_t l = 0; l < nl; l++) m[j++] = c * nl + l;
    gcrm_grid_free(&gg);
    return len;
}

static int64_t map_convert(const gen *g, int k, int64_t t, int64_t **out)
{
    dmap_part p;
    cio_err e = {0};
    if (dmap_read(g->src, k, t, 1, &p, &e) != 0) cio_die("%s", e.msg);
    int64_t len = dmap_part_entries(&p), j = 0;
    int64_t *m = *out = map_alloc(len);
    for (int64_t r = 0; r < p.nruns; r++)
        for (int64_t i = 0; i < p.len[r]; i++) m[j++] = p.start[r] < 0 ? -1 : p.start[r] + i;
    dmap_part_free(&p);
    return len;
}

static int64_t task_map(void *ctx, int k, int64_t t, int64_t **out)
{
    gen *g = ctx;
    const dmap_desc *d = &g->desc[k];
    switch (g->kind) {
    case G_CUBED: return map_cubed(g, d, t, out);
    case G_MOM: return map_mom(g, d, t, out);
    case G_GCRM: return map_gcrm(g, d, t, out);
    case G_CONVERT: return map_convert(g, k, t, out);
    default: return map_linear(g, dmap_desc_elems(d), t, out);
    }
}

/* "8,96" -> C-order lengths. */
static int parse_dims(const char *s, const char *origin, dmap_desc *d, cio_err *e)
{
    d->ndims = 0;
    int64_t prod = 1;
    for (const char *q = s; *q;) {
        char *end;
        errno = 0;
        long long v = strtoll(q, &end, 10);
        if (end == q || v < 1 || d->ndims == CIO_MAX_DIMS)
            return cio_seterr(e, "%s: gen_dims \"%s\": expected 1 to %d positive lengths separated by commas", origin, s,
                              CIO_MAX_DIMS);
        /* the readers' limit: a map of more elements is refused when it is read */
        if (errno == ERANGE || prod > INT64_MAX / 4 / v)
            return cio_seterr(e, "%s: gen_dims \"%s\": the lengths multiply beyond 2^62 elements, more than a map "
                                 "can hold", origin, s);
        prod *= v;
        d->dims[d->ndims++] = v;
        q = end;
        if (*q == ',' && !q[1])
            return cio_seterr(e, "%s: gen_dims \"%s\": expected a length after the last comma", origin, s);
        if (*q == ',') q++;
        else if (*q) return cio_seterr(e, "%s: gen_dims \"%s\": expected a comma after %lld", origin, s, v);
    }
    if (d->ndims == 0) return cio_seterr(e, "%s: gen_dims is empty", origin);
    return 0;
}

static int setup(gen *g, const cio_params *p, cio_err *e)
{
    static const char *const kinds[] = {"block", "roundrobin", "random", "holes", "cubed_sphere", "mom", "convert", "gcrm"};
    const char *kind = cio_param_str(p, "make_decomp");
    for (int i = 0; i < 8; i++)
        if (cio_strcaseeq(kind, kinds[i])) g->kind = (gen_kind)i;
    g->ntasks = cio_param_int(p, "gen_tasks");
    g->ndecomps = 1;
    g->hole_every = cio_param_int(p, "gen_hole_every");
    g->seed = (uint64_t)cio_param_int(p, "gen_seed");
    int e3sm = cio_strcaseeq(cio_param_str(p, "gen_format"), "e3sm");
    switch (g->kind) {
    case G_CUBED: {
        g->ne = cio_param_int(p, "gen_ne");
        g->nlev = cio_param_int(p, "gen_nlev");
        if (g->ne & (g->ne - 1))
            return cio_seterr(e, "%s: gen_ne %lld: the Hilbert curve needs a power of 2", cio_param_origin(p, "gen_ne"),
                              (long long)g->ne);
        int64_t ncol = 6 * 4 * g->ne * g->ne;
        dmap_desc col = {1, {ncol}}, lev = {2, {g->nlev, ncol}};
        if (e3sm && g->nlev > 0) {   /* E3SM-IO's F case: two column decompositions and one (lev, ncol) */
            g->ndecomps = 3;
            g->desc[0] = g->desc[1] = col;
            g->desc[2] = lev;
        } else g->desc[0] = g->nlev > 0 ? lev : col;
        break;
    }
    case G_MOM: {
        int layout[2] = {0, 0}, io[2] = {1, 1};
        int64_t ni = cio_param_int(p, "gen_ni"), nj = cio_param_int(p, "gen_nj"), nk = cio_param_int(p, "gen_nk");
        if (mom_domain_init(&g->dom, ni, nj, (int)g->ntasks, layout, "auto", io, "1,1", (int)g->ntasks, e) != 0) return -1;
        dmap_desc d2 = {2, {nj, ni}}, d3 = {3, {nk, nj, ni}};
        g->desc[0] = nk > 1 ? d3 : d2;
        break;
    }
    case G_GCRM: {
        g->level = (int)cio_param_int(p, "gen_level");
        int64_t nl = cio_param_int(p, "gen_nlev");
        if (gcrm_choose_iota(g->level, g->ntasks, &g->iota, e) != 0) return -1;   /* names the usable counts */
        gcrm_grid gs;
        gcrm_grid_sizes(&gs, g->level);
        dmap_desc d1 = {1, {gs.cells}}, d2 = {2, {gs.cells, nl}};
        g->desc[0] = nl > 0 ? d2 : d1;
        break;
    }
    case G_CONVERT: {
        decomp_cfg c;
        if (decomp_config_load(&c, p, e) != 0) return -1;
        if (c.source != DECOMP_FILE) return cio_seterr(e, "--make_decomp convert: decomp must name a map file");
        g->src = dmap_open(c.decomp, &c.opts, e);
        if (!g->src) return -1;
        g->ntasks = dmap_ntasks(g->src);
        g->ndecomps = dmap_ndecomps(g->src);
        for (int k = 0; k < g->ndecomps; k++) g->desc[k] = *dmap_decomp(g->src, k);
        break;
    }
    default:
        if (parse_dims(cio_param_str(p, "gen_dims"), cio_param_origin(p, "gen_dims"), &g->desc[0], e) != 0) return -1;
        break;
    }
    if (g->kind == G_RANDOM) {
        int64_t n = dmap_desc_elems(&g->desc[0]);
        while (((int64_t)1 << g->bits) < n) g->bits++;
        if (g->bits < 2) g->bits = 2;
    }
    return 0;
}

int decomp_make(const cio_params *p, const char *argv0line)
{
    (void)argv0line;
    gen g;
    memset(&g, 0, sizeof g);
    cio_err e = {0};
    const char *out = cio_param_str(p, "gen_out");
    int rc = 0;
    if (!out) rc = cio_seterr(&e, "--make_decomp %s needs --gen_out FILE, the map file to write",
                              cio_param_str(p, "make_decomp"));
    if (rc == 0) rc = setup(&g, p, &e);
    /* a map named beside another kind is not read, but the user may take it for the source: never written over */
    const char *named = cio_param_str(p, "decomp");
    if (rc == 0 && g.kind != G_CONVERT && cio_params_is_set(p, "decomp") && !cio_strcaseeq(named, "BLOCK") &&
        !cio_strcaseeq(named, "ROUNDROBIN")) {
        char src[600];
        snprintf(src, sizeof src, "decomp (%s)", cio_param_origin(p, "decomp"));
        cio_inputs_add(named, src, CIO_INPUT_READ);
    }
    if (rc == 0) {   /* the registry of the run's files: gen_out is no input */
        cio_outputs *o = cio_outputs_new();
        char src[600];
        snprintf(src, sizeof src, "gen_out (%s)", cio_param_origin(p, "gen_out"));
        cio_outputs_add(o, out, src, NULL, 0);
        rc = cio_outputs_check(o, &e);
        cio_outputs_free(o);
    }
    int e3sm = cio_strcaseeq(cio_param_str(p, "gen_format"), "e3sm");
    if (rc == 0 && !e3sm && g.ndecomps > 1)
        rc = cio_seterr(&e, "%s holds %d decompositions: a PIO text file holds one; use --gen_format e3sm",
                        cio_param_str(p, "decomp"), g.ndecomps);
    if (rc == 0) {
        char cmd[512];
        snprintf(cmd, sizeof cmd, "decomp_io --make_decomp %s --gen_tasks %lld ", cio_param_str(p, "make_decomp"),
                 (long long)g.ntasks);
        rc = e3sm ? dmap_write_e3sm(out, g.ndecomps, g.desc, g.ntasks, cio_param_bool(p, "gen_raw"), cmd, task_map, &g, &e)
                  : dmap_write_text(out, &g.desc[0], 0, g.ntasks, task_map, &g, &e);
    }
    if (g.kind == G_MOM) mom_domain_free(&g.dom);
    dmap_close(g.src);
    if (rc != 0) {
        fprintf(stderr, "decomp_io: error: %s\n", e.msg);
        return 2;
    }
    if (!cio_param_bool(p, "quiet"))
        printf("decomp_io: wrote %s (%s, %d decomposition%s, %lld tasks)\n", out, e3sm ? "e3sm" : "pio_text",
               g.ndecomps, g.ndecomps == 1 ? "" : "s", (long long)g.ntasks);
    return 0;
}
