/* Model-like data; see model_data.h.  This file is compiled with -ffp-contract=off
 * (src/lib/local.mk) and calls no libm function: every rank computes the same bits. */
#include "config.h"
#include "data/model_data.h"

#include <ctype.h>
#include <string.h>

/* ---------------------------------------------------------------- arithmetic */
/* sin(2*pi*t): reduce to |r| <= 1/4 turn, then an odd Taylor polynomial in
 * x = 2*pi*r up to x^17 (error below 1e-14 on [-pi/2, pi/2]). */
double cio_model_sin_turns(double t)
{
    if (!(t > -4.0e15 && t < 4.0e15)) return 0.0;  /* NaN or too big to reduce */
    int64_t n = (int64_t)(t >= 0 ? t + 0.5 : t - 0.5);
    double r = t - (double)n;          /* [-1/2, 1/2] */
    if (r > 0.25) r = 0.5 - r;
    else if (r < -0.25) r = -0.5 - r;
    double x = 6.283185307179586 * r, x2 = x * x;
    double p = 1.0 / 355687428096000.0;                 /* 1/17! */
    p = -1.0 / 1307674368000.0 + x2 * p;                /* 1/15! */
    p = 1.0 / 6227020800.0 + x2 * p;                    /* 1/13! */
    p = -1.0 / 39916800.0 + x2 * p;
    p = 1.0 / 362880.0 + x2 * p;
    p = -1.0 / 5040.0 + x2 * p;
    p = 1.0 / 120.0 + x2 * p;
    p = -1.0 / 6.0 + x2 * p;
    p = 1.0 + x2 * p;
    return x * p;
}

static double cos_turns(double t) { return cio_model_sin_turns(t + 0.25); }

/* The square root by Newton's iteration from a fixed start: every step is an IEEE
 * operation, so the result does not depend on the C library. */
static double root(double a)
{
    if (!(a > 0)) return 0.0;
    double x = a > 1 ? a : 1.0;
    for (int i = 0; i < 200; i++) {
        double nx = 0.5 * (x + a / x);
        if (nx >= x) break;
        x = nx;
    }
    return x;
}

static uint64_t mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/* Small-scale detail of one element: uniform in [-1, 1). */
static double detail(uint64_t key, int64_t record, uint64_t gidx)
{
    uint64_t h = mix64(key ^ mix64(gidx * 0x9E3779B97F4A7C15ULL + (uint64_t)record * 0xD1B54A32D192ED03ULL));
    return (double)(h >> 11) * (2.0 / 9007199254740992.0) - 1.0;
}

/* ---------------------------------------------------------------- profiles */
typedef enum pkind {
    P_GENERIC, P_TEMP_K, P_TEMP_C, P_SALT, P_U, P_V, P_W, P_PRES, P_HUMID, P_HEIGHT, P_VORT, P_TEND, P_FLUX, P_AGE,
    P_LON, P_LAT        /* the coordinates themselves (MOM's geolon_t, ...) */
} pkind;

typedef struct profile {
    pkind kind;
    double scale;       /* unit conversion (hPa: 0.01, per-second tendencies: 1/86400, ...) */
    double detail;      /* amplitude of the small-scale detail, relative to the value */
    int ocean;
} profile;

static int word_in(const char *name, const char *const *list)
{
    for (; *list; list++)
        if (strcmp(name, *list) == 0) return 1;
    return 0;
}

static int has(const char *s, const char *sub) { return s && strstr(s, sub) != NULL; }

static void lower(char *out, size_t len, const char *in)
{
    size_t i = 0;
    for (; in && in[i] && i + 1 < len; i++) out[i] = (char)tolower((unsigned char)in[i]);
    out[i] = '\0';
}

/* The profile of a variable from its name and units (both matched case-blind). */
static profile choose_profile(const char *name_in, const char *units_in, int ocean)
{
    char n[64], u[64];
    lower(n, sizeof n, name_in);
    lower(u, sizeof u, units_in ? units_in : "");
    static const char *const temp_names[] = {"t", "ta", "tas", "ts", "tk", "t2m", "sst", "tsurf", "theta", "pt", NULL};
    static const char *const salt_names[] = {"s", "so", "sss", "salt", "sal", NULL};
    static const char *const u_names[] = {"u", "ua", "uas", "uo", "u10", "uvel", "us", NULL};
    static const char *const v_names[] = {"v", "va", "vas", "vo", "v10", "vvel", "vs", NULL};
    static const char *const w_names[] = {"w", "wa", "wo", "omega", "wvel", "w_vert", "wt", NULL};
    static const char *const p_names[] = {"p", "ps", "pres", "press", "slp", "psl", "prs", "pressure", NULL};
    static const char *const q_names[] = {"q", "qv", "hus", "sphum", "qvapor", NULL};
    static const char *const h_names[] = {"eta", "eta_t", "ssh", "zos", "sea_level", "h", "z", "zg", NULL};
    profile p = {P_GENERIC, 1.0, 0.0, ocean};
    int temp_units = strcmp(u, "k") == 0 || has(u, "deg_c") || has(u, "degc") || has(u, "degrees_c") ||
                     has(u, "celsius");
    int per_time = has(u, "sec^-1") || has(u, "s^-1") || has(u, "s-1") || has(u, "/sec") || has(u, "day^-1") ||
                   has(u, "/s");
    if (has(n, "lon") && (has(u, "degree") || !*u)) {
        p.kind = P_LON;
    } else if (has(n, "lat") && (has(u, "degree") || !*u)) {
        p.kind = P_LAT;
    } else if (has(n, "tend") || (per_time && (strcmp(u, "sec**-1") != 0) && !has(u, "m/s") && !has(u, "m s") &&
                           !has(u, "m/sec") && !has(u, "mm s"))) {
        p.kind = P_TEND;
        p.scale = has(u, "day") ? 1.0 : 1.0 / 86400.0;
        if (has(u, "kg")) p.scale *= 1.0e-3;    /* mixing-ratio tendencies */
    } else if (strcmp(u, "sec**-1") == 0 || strcmp(u, "s-1") == 0 || strcmp(u, "s**-1") == 0 || has(n, "vort") ||
               has(n, "div")) {
        p.kind = P_VORT;
    } else if (temp_units || has(n, "temp") || word_in(n, temp_names)) {
        int celsius = temp_units ? strcmp(u, "k") != 0 : ocean || has(n, "sst");
        p.kind = celsius ? P_TEMP_C : P_TEMP_K;
    } else if (has(n, "salin") || word_in(n, salt_names) || has(u, "psu")) {
        p.kind = P_SALT;
    } else if (word_in(n, w_names) || has(n, "w_vert") || has(n, "omega")) {
        p.kind = P_W;
    } else if (word_in(n, u_names) || has(n, "zonal") || (n[0] == 'u' && n[1] == '_')) {
        p.kind = P_U;
    } else if (word_in(n, v_names) || has(n, "merid") || (n[0] == 'v' && n[1] == '_') || has(n, "wind") ||
               has(n, "current") || has(n, "vel")) {
        p.kind = has(n, "wind") || has(n, "vel") || has(n, "current") ? P_U : P_V;
    } else if (word_in(n, p_names) || has(n, "pressure") || strcmp(u, "pa") == 0 || strcmp(u, "hpa") == 0) {
        p.kind = P_PRES;
        if (strcmp(u, "hpa") == 0 || strcmp(u, "mb") == 0) p.scale = 0.01;
    } else if (word_in(n, q_names) || has(n, "vapor") || has(n, "humid") || has(n, "mmr") || has(u, "kg kg") ||
               has(u, "kg/kg")) {
        p.kind = P_HUMID;
        if (!has(n, "vapor") && !word_in(n, q_names) && !has(n, "humid")) p.scale = 0.05;  /* condensate */
    } else if (word_in(n, h_names) || has(n, "height") || has(n, "geopot")) {
        p.kind = P_HEIGHT;
    } else if (has(u, "w m") || has(u, "w/m") || has(n, "flux") || has(n, "rad") || has(n, "swinc")) {
        p.kind = P_FLUX;
    } else if (has(n, "age")) {
        p.kind = P_AGE;
    }
    /* small-scale detail: 2e-5 of the value, below four significant digits and far
     * above float's seven, so it limits lossless compression as model noise does */
    p.detail = p.kind == P_LON || p.kind == P_LAT ? 0.0 : 2.0e-5;
    return p;
}

/* ---------------------------------------------------------------- the field */
#define NWAVES 3
static const int WAVE_M[NWAVES] = {1, 2, 3};                 /* zonal wave numbers */
static const double WAVE_N[NWAVES] = {1.3, 0.25, -0.6};      /* turns per unit of sin(latitude) */
static const double WAVE_C[NWAVES] = {0.007, 0.011, 0.017};  /* turns per record */
static const double WAVE_A[NWAVES] = {0.2, 0.5, 0.3};

/* What a field needs at one point, computed once per latitude (or cell) and
 * longitude: sin(latitude), cos^2(latitude), and sin/cos of m * longitude. */
typedef struct point {
    double lon, lat;    /* degrees (lat-lon grids only) */
    double s, c2;
    double sm[NWAVES + 1], cm[NWAVES + 1];  /* sin(m*lon), cos(m*lon), m = 0..3 */
    double sth[NWAVES], cth[NWAVES];        /* sin, cos of each wave's latitude and record phase */
} point;

static void set_lon(point *p, double cl, double sl)
{
    p->cm[0] = 1;
    p->sm[0] = 0;
    for (int m = 1; m <= NWAVES; m++) {
        p->cm[m] = p->cm[m - 1] * cl - p->sm[m - 1] * sl;
        p->sm[m] = p->sm[m - 1] * cl + p->cm[m - 1] * sl;
    }
}

/* `shift` (turns) decorrelates fields of one profile */
static void set_lat(point *p, double s, int64_t record, double shift)
{
    p->s = s;
    p->c2 = 1.0 - s * s;
    for (int k = 0; k < NWAVES; k++) {
        double th = WAVE_N[k] * s + WAVE_C[k] * (double)record + shift * (double)(k + 1);
        p->sth[k] = cio_model_sin_turns(th);
        p->cth[k] = cos_turns(th);
    }
}

/* sum of the waves sin(m * lon + 2 pi th), in [-1, 1] */
static double waves(const point *p)
{
    double w = 0;
    for (int k = 0; k < NWAVES; k++) {
        int m = WAVE_M[k];
        w += WAVE_A[k] * (p->sm[m] * p->cth[k] + p->cm[m] * p->sth[k]);
    }
    return w;
}

/* The value at a point, level fraction z (0 at the surface, 1 at the bottom or
 * model top; -1 for a field without levels) and detail d in [-1, 1). */
/* The ocean's vertical structure: 1 in the mixed layer (the top 1% of the column,
 * 50 m of 5000), falling through the thermocline (about 400 m) toward 0 in the
 * abyss. */
static double thermocline(double z)
{
    double t = (z - 0.01) / 0.08;
    return t <= 0 ? 1.0 : 1.0 / (1.0 + t * t);
}

static double field(const profile *pr, const point *pt, double z, double d)
{
    double g = pt->c2, w = waves(pt), zz = z < 0 ? 0 : z, f = thermocline(zz), v;
    switch (pr->kind) {
    case P_TEMP_C:
        if (pr->ocean || z < 0) {
            double ts = -1.8 + g * (1.5 + 1.5 * w) + 27.0 * g * g;   /* never below freezing */
            v = 1.5 + (ts - 1.5) * f;
        } else {
            v = -28.0 + 55.0 * g + 4.0 * w - 75.0 * zz;
        }
        break;
    case P_TEMP_K:
        if (pr->ocean) v = 273.15 + 1.5 + (27.0 * g * g + 2.5 * w) * f;
        else v = 245.0 + 55.0 * g + 4.0 * w - 75.0 * zz + 25.0 * zz * zz;
        break;
    case P_SALT: {
        double ss = 34.7 + 1.2 * (g - 0.5) + 0.5 * w;
        v = 34.7 + (ss - 34.7) * (pr->ocean ? f : 1.0 / (1.0 + 4.0 * zz));
        break;
    }
    case P_U: {
        double a = pr->ocean ? 0.4 : 25.0, jet = 4.0 * g * (1.0 - g) - 0.4;
        v = a * (0.6 * jet + 0.4 * w) * (pr->ocean ? 0.1 + 0.9 * f : 0.4 + zz);
        break;
    }
    case P_V: v = (pr->ocean ? 0.2 : 10.0) * w * (pr->ocean ? 0.1 + 0.9 * f : 0.5 + 0.5 * zz); break;
    case P_W: v = (pr->ocean ? 1.0e-4 : 0.05) * w * (z < 0 ? 1.0 : 4.0 * zz * (1.0 - zz)); break;
    case P_PRES:
        if (z < 0) v = 101325.0 - 2500.0 * (1.0 - g) + 1200.0 * w;
        else v = (100000.0 + 1000.0 * w) * (1.0 - 0.95 * zz) * (1.0 - 0.6 * zz);
        break;
    case P_HUMID: v = 0.018 * g * g * (0.8 + 0.2 * w) * (1.0 - zz) * (1.0 - zz) * (1.0 - zz); break;
    case P_HEIGHT: v = 0.8 * (g - 0.6) + 0.4 * w; break;
    case P_VORT: v = 1.0e-4 * (pt->s * (0.5 + 0.5 * w)); break;
    case P_TEND: v = 2.0 * w * (1.0 - zz); break;
    case P_FLUX: v = 60.0 + 280.0 * g * g + 60.0 * w; break;
    case P_AGE: v = 5.0 + 900.0 * (1.0 - f) + 20.0 * (1.0 + w) * f; break;
    case P_LON: v = pt->lon; break;
    case P_LAT: v = pt->lat; break;
    default: v = 0.5 + 0.3 * (g - 0.5) + 0.2 * w; break;
    }
    v += pr->detail * d * (v < 0 ? -v : v);
    return v * pr->scale;
}

/* ---------------------------------------------------------------- geometry */
void cio_model_geom_default(cio_model_geom *g, int ndims, const int64_t *shape)
{
    memset(g, 0, sizeof *g);
    g->xdim = ndims >= 1 ? ndims - 1 : -1;
    g->ydim = ndims >= 2 ? ndims - 2 : -1;
    g->zdim = ndims >= 3 ? ndims - 3 : -1;
    g->celldim = -1;
    if (g->xdim >= 0) {
        g->dx = 360.0 / (double)(shape[g->xdim] > 0 ? shape[g->xdim] : 1);
        g->x0 = 0.5 * g->dx;
    }
    if (g->ydim >= 0) {
        g->dy = 180.0 / (double)(shape[g->ydim] > 0 ? shape[g->ydim] : 1);
        g->y0 = -90.0 + 0.5 * g->dy;
    }
}

static void put_value(cio_type t, void *buf, int64_t k, double v)
{
    switch (t) {
    case CIO_FLOAT: ((float *)buf)[k] = (float)v; return;
    case CIO_DOUBLE: ((double *)buf)[k] = v; return;
    default: break;
    }
    /* integer variables: the value rounded toward zero, clamped to the type */
    double lim = t == CIO_SHORT ? 32767.0 : t == CIO_INT ? 2147483647.0 : t == CIO_INT64 ? 9.2e18 : 127.0;
    if (!(v < lim)) v = lim;
    if (!(v > -lim)) v = -lim;
    switch (t) {
    case CIO_SHORT: ((int16_t *)buf)[k] = (int16_t)v; break;
    case CIO_INT: ((int32_t *)buf)[k] = (int32_t)v; break;
    case CIO_INT64: ((int64_t *)buf)[k] = (int64_t)v; break;
    default: ((int8_t *)buf)[k] = (int8_t)v; break;
    }
}

static uint64_t bits_of(cio_type t, const void *buf, int64_t k)
{
    switch (t) {
    case CIO_FLOAT: {
        uint32_t u;
        memcpy(&u, (const float *)buf + k, 4);
        return u;
    }
    case CIO_DOUBLE: {
        uint64_t u;
        memcpy(&u, (const double *)buf + k, 8);
        return u;
    }
    case CIO_SHORT: return (uint64_t)(int64_t)((const int16_t *)buf)[k];
    case CIO_INT: return (uint64_t)(int64_t)((const int32_t *)buf)[k];
    case CIO_INT64: return (uint64_t)((const int64_t *)buf)[k];
    default: return (uint64_t)(int64_t)((const int8_t *)buf)[k];
    }
}

/* Visit every element of a box in packed order with its global coordinates. */
typedef struct walker {
    const cio_model_var *mv;
    cio_model_geom geom;
    profile pr;
    double shift;
    int64_t record;
    point pt;
    int64_t have_x, have_y;     /* which longitude / latitude index (or cell) pt holds */
} walker;

static void walker_init(walker *w, const cio_model_var *mv, int64_t record, const cio_box *b)
{
    memset(w, 0, sizeof *w);
    w->mv = mv;
    if (mv->geom) w->geom = *mv->geom;
    else cio_model_geom_default(&w->geom, b->ndims, b->shape);
    w->pr = choose_profile(mv->name, mv->units, w->geom.ocean);
    w->shift = (double)(mv->key >> 40) / 16777216.0;   /* a per-variable phase in [0, 1) turns */
    w->record = record;
    w->have_x = w->have_y = -1;
}

/* Sets w->pt for the element at global coordinates idx; on land returns the fill
 * value with *land set. */
static double walker_point(walker *w, const int64_t *idx, double z, int *land)
{
    const cio_model_geom *g = &w->geom;
    double lon = 0, lat = 0;
    *land = 0;
    if (g->celldim >= 0 && g->cell_xyz) {
        int64_t c = idx[g->celldim];
        if (c != w->have_y) {
            double xyz[3];
            g->cell_xyz(g->cell_ctx, c, xyz);
            double r = root(xyz[0] * xyz[0] + xyz[1] * xyz[1]);
            set_lat(&w->pt, xyz[2] > 1 ? 1 : xyz[2] < -1 ? -1 : xyz[2], w->record, w->shift);
            set_lon(&w->pt, r > 0 ? xyz[0] / r : 1.0, r > 0 ? xyz[1] / r : 0.0);
            w->have_y = c;
        }
    } else {
        int64_t j = g->ydim >= 0 ? idx[g->ydim] : 0, i = g->xdim >= 0 ? idx[g->xdim] : 0;
        lat = g->ydim >= 0 ? g->y0 + (double)j * g->dy : 0.0;
        lon = g->xdim >= 0 ? g->x0 + (double)i * g->dx : 0.0;
        if (j != w->have_y) {
            set_lat(&w->pt, cio_model_sin_turns(lat / 360.0), w->record, w->shift);
            w->have_y = j;
        }
        if (i != w->have_x) {
            set_lon(&w->pt, cos_turns(lon / 360.0), cio_model_sin_turns(lon / 360.0));
            w->have_x = i;
        }
        w->pt.lon = lon;
        w->pt.lat = lat;
        if (g->land && w->pr.kind != P_LON && w->pr.kind != P_LAT && g->land(lon, lat, z)) {
            *land = 1;
            return g->fill;
        }
    }
    return 0.0;
}

typedef struct visit {
    int mode;           /* 0 fill, 1 check */
    cio_type t;
    void *out;
    const void *in;
    double tol;
    uint64_t csum;
    int64_t bad, first;
    double got, want;
} visit;

static void walk(walker *w, const cio_box *b, visit *vs)
{
    int nd = b->ndims;
    int64_t idx[16], stride[16], k = 0;
    if (nd > 16) return;
    for (int d = 0; d < nd; d++)
        if (b->count[d] <= 0) return;
    if (nd > 0) {
        stride[nd - 1] = 1;
        for (int d = nd - 2; d >= 0; d--) stride[d] = stride[d + 1] * b->shape[d + 1];
    }
    for (int d = 0; d < nd; d++) idx[d] = b->start[d];
    const cio_model_geom *g = &w->geom;
    double zden = g->zdim >= 0 && b->shape[g->zdim] > 0 ? (double)b->shape[g->zdim] : 1.0;
    for (;;) {
        uint64_t gidx = 0;
        for (int d = 0; d < nd; d++) gidx += (uint64_t)(idx[d] * stride[d]);
        int land;
        double z = g->zdim < 0 ? -1.0 : g->zlevel ? g->zlevel(g->zctx, idx[g->zdim]) : ((double)idx[g->zdim] + 0.5) / zden;
        double v = walker_point(w, idx, z, &land);
        if (!land) {
            v = field(&w->pr, &w->pt, z, detail(w->mv->key, w->record, gidx));
        }
        if (vs->mode == 0) {
            put_value(vs->t, vs->out, k, v);
            vs->csum += cio_pattern_csum_term(bits_of(vs->t, vs->out, k), gidx);
        } else {
            char want[8];
            put_value(vs->t, want, 0, v);
            int ok = bits_of(vs->t, want, 0) == bits_of(vs->t, vs->in, k);
            double got = cio_value_as_double(vs->t, vs->in, k), wv = cio_value_as_double(vs->t, want, 0);
            if (!ok && vs->tol > 0 && !land) ok = cio_within_tolerance(vs->t, got, wv, vs->tol);
            if (!ok) {
                if (vs->bad == 0) {
                    vs->first = (int64_t)gidx;
                    vs->got = got;
                    vs->want = wv;
                }
                vs->bad++;
            }
        }
        k++;
        int d = nd - 1;
        while (d >= 0) {
            if (++idx[d] < b->start[d] + b->count[d]) break;
            idx[d] = b->start[d];
            d--;
        }
        if (d < 0) break;
    }
}

void cio_model_fill(const cio_model_var *mv, cio_type t, int64_t record, const cio_box *b, void *buf,
                    uint64_t *csum)
{
    walker w;
    walker_init(&w, mv, record, b);
    visit vs = {0, t, buf, NULL, 0, 0, 0, -1, 0, 0};
    walk(&w, b, &vs);
    if (csum) *csum += vs.csum;
}

int64_t cio_model_check(const cio_model_var *mv, cio_type t, int64_t record, const cio_box *b, const void *buf,
                        double rel_tol, int64_t *first_bad, double *got, double *want)
{
    walker w;
    walker_init(&w, mv, record, b);
    visit vs = {1, t, NULL, buf, rel_tol, 0, 0, -1, 0, 0};
    walk(&w, b, &vs);
    if (first_bad) *first_bad = vs.first;
    if (got) *got = vs.got;
    if (want) *want = vs.want;
    return vs.bad;
}

uint64_t cio_model_csum(cio_type t, const void *buf, const cio_box *b)
{
    int nd = b->ndims;
    int64_t ne = 1;
    for (int d = 0; d < nd; d++) ne *= b->count[d] > 0 ? b->count[d] : 0;
    uint64_t s = 0;
    for (int64_t k = 0; k < ne; k++) s += cio_pattern_csum_term(bits_of(t, buf, k), (uint64_t)cio_box_global_index(b, k));
    return s;
}
