#include "config.h"
#include "mom_schema.h"
#include "data/data.h"
#include "mom_model.h"
#include "data/pattern.h"

#include <stdio.h>
#include <string.h>

static const char *const TIME_UNITS = "days since 0001-01-01 00:00:00";

/* What MOM5 registers its usual diagnostics with (register_diag_field and
 * register_static_field in ocean_tracer.F90, ocean_velocity.F90,
 * ocean_barotropic.F90, ocean_grids.F90): long name, units, range (written as
 * valid_range) and CF standard name; other names get generic ones and neither
 * range nor standard name. */
static const struct mom_known {
    const char *name, *long_name, *units, *standard_name;
    double range[2];
} known[] = {
    {"temp", "Conservative temperature", "deg_C", "sea_water_conservative_temperature", {-10.0, 500.0}},
    {"salt", "Practical Salinity", "psu", "sea_water_salinity", {-10.0, 100.0}},
    {"u", "i-current", "m/sec", "sea_water_x_velocity", {-10.0, 10.0}},
    {"v", "j-current", "m/sec", "sea_water_y_velocity", {-10.0, 10.0}},
    {"age_global", "Age (global)", "yr", "sea_water_age_since_surface_contact", {0.0, 1.0e20}},
    {"eta_t", "surface height on T cells [Boussinesq (volume conserving) model]", "meter", NULL, {-1.0e3, 1.0e3}},
    {"surface_temp", "Conservative temperature", "deg_C", "sea_surface_conservative_temperature", {-10.0, 500.0}},
    {"geolon_t", "tracer longitude", "degrees_E", NULL, {-281.0, 361.0}},
    {"geolat_t", "tracer latitude", "degrees_N", NULL, {-91.0, 91.0}},
    {"geolon_c", "uv longitude", "degrees_E", NULL, {-281.0, 361.0}},
    {"geolat_c", "uv latitude", "degrees_N", NULL, {-91.0, 91.0}},
};

static const struct mom_known *known_field(const char *name)
{
    for (size_t k = 0; k < sizeof known / sizeof *known; k++)
        if (strcmp(known[k].name, name) == 0) return &known[k];
    return NULL;
}

/* ---------------------------------------------------------------- values */
/* Edge i of the depth levels (0..nk): the surface, then halfway between levels,
 * the bottom one as far below the last level as the edge above it. */
static double depth_edge(const mom_config *c, int64_t i)
{
    if (i <= 0) return 0.0;
    if (i < c->nk) return 0.5 * (mom_depth(c, i - 1) + mom_depth(c, i));
    return 2.0 * mom_depth(c, c->nk - 1) - depth_edge(c, c->nk - 1);
}

/* Synthetic but smooth axes: a 360-degree band from 280 W (as on MOM's tripolar
 * grids), pole to pole, depths stretched with level. */
static double axis_value(const mom_config *c, const char *name, int64_t i)
{
    if (strcmp(name, "xt_ocean") == 0) return -280.0 + ((double)i + 0.5) * 360.0 / (double)c->ni;
    if (strcmp(name, "xu_ocean") == 0) return -280.0 + ((double)i + 1.0) * 360.0 / (double)c->ni;
    if (strcmp(name, "yt_ocean") == 0) return -90.0 + ((double)i + 0.5) * 180.0 / (double)c->nj;
    if (strcmp(name, "yu_ocean") == 0) return -90.0 + ((double)i + 1.0) * 180.0 / (double)c->nj;
    if (strcmp(name, "st_ocean") == 0) return mom_depth(c, i);
    if (strcmp(name, "st_edges_ocean") == 0) return depth_edge(c, i);
    return (double)(i + 1);     /* nv */
}

static void fill_axis(void *ctx, const cio_var *v, int64_t record, const cio_box *box, void *buf)
{
    (void)record;
    const mom_fill *f = ctx;
    int64_t off = 0;
    if (v->name[0] == 'x') off = f->ox;
    else if (v->name[0] == 'y') off = f->oy;
    double *out = buf;
    for (int64_t k = 0; k < box->count[0]; k++) out[k] = axis_value(f->c, v->name, box->start[0] + k + off);
}

/* time is the middle of the averaging period [T1, T2] of record r. */
static void fill_time(void *ctx, const cio_var *v, int64_t record, const cio_box *box, void *buf)
{
    const mom_fill *f = ctx;
    double day = f->c->output_freq / 86400.0;
    double t1 = (double)record * day, t2 = (double)(record + 1) * day;
    double *out = buf;
    if (strcmp(v->name, "time") == 0) out[0] = 0.5 * (t1 + t2);
    else if (strcmp(v->name, "average_T1") == 0) out[0] = t1;
    else if (strcmp(v->name, "average_T2") == 0) out[0] = t2;
    else if (strcmp(v->name, "average_DT") == 0) out[0] = day;
    else
        for (int64_t k = 0; k < box->count[0]; k++) out[k] = box->start[0] + k == 0 ? t1 : t2;   /* time_bnds */
}

/* A part of the grid: the global pattern at global indices. */
static void fill_field_part(void *ctx, const cio_var *v, int64_t record, const cio_box *box, void *buf)
{
    const mom_fill *f = ctx;
    int nd = box->ndims;
    int64_t shape[3], start[3];
    for (int i = 0; i < nd; i++) {
        shape[i] = box->shape[i];
        start[i] = box->start[i];
    }
    shape[nd - 1] = f->c->ni;
    shape[nd - 2] = f->c->nj;
    start[nd - 1] += f->ox;
    start[nd - 2] += f->oy;
    cio_box g = {nd, shape, start, box->count};
    uint64_t sum = 0;
    cio_data_fill(f->c->data, v, record, &g, buf, &sum);
}

/* A field's block as a pattern box over the global grid. */
typedef struct gbox {
    int64_t shape[3], start[3], count[3];
    cio_box box;
} gbox;

static void field_box(const mom_config *c, const mom_field *f, const mom_box *b, gbox *g)
{
    int64_t shape[3] = {c->nk, c->nj, c->ni}, start[3] = {0, b->y, b->x}, count[3] = {c->nk, b->ny, b->nx};
    memcpy(g->shape, shape, sizeof shape);
    memcpy(g->start, start, sizeof start);
    memcpy(g->count, count, sizeof count);
    int off = f->kind == MOM_F3D ? 0 : 1;
    g->box = (cio_box){3 - off, g->shape + off, g->start + off, g->count + off};
}

static uint64_t field_seed(const mom_field *f, int64_t rec)
{
    return cio_pattern_seed(cio_pattern_key(f->name), f->kind == MOM_FSTATIC ? 0 : rec);
}

static const char *field_units(const char *name)
{
    const struct mom_known *k = known_field(name);
    return k ? k->units : "none";
}

/* The model geometry of a field: static fields have diag_manager's default
 * missing value as their fill (mom_config.c). */
static const cio_model_geom *field_geom(const mom_config *c, const mom_field *f)
{
    int u = f->grid == MOM_GRID_U;
    return f->kind == MOM_FSTATIC ? &c->geom_static[u] : &c->geom[u][f->kind == MOM_F3D];
}

/* --data model: the field as the schema's variable describes it (units, geometry). */
static cio_model_var field_model(const mom_config *c, const mom_field *f)
{
    cio_model_var mv = {f->name, field_units(f->name), cio_pattern_key(f->name), field_geom(c, f)};
    return mv;
}

void mom_field_fill(const mom_config *c, const mom_field *f, int64_t rec, const mom_box *b, void *buf,
                    uint64_t *csum)
{
    gbox g;
    field_box(c, f, b, &g);
    if (c->data == CIO_DATA_MODEL) {
        cio_model_var mv = field_model(c, f);
        cio_model_fill(&mv, c->type, f->kind == MOM_FSTATIC ? 0 : rec, &g.box, buf, csum);
    } else {
        cio_pattern_fill(c->type, buf, field_seed(f, rec), &g.box, csum);
    }
}

int64_t mom_field_check(const mom_config *c, const mom_field *f, int64_t rec, const mom_box *b, const void *buf,
                        int64_t *first, double *got, double *want)
{
    gbox g;
    field_box(c, f, b, &g);
    if (c->data == CIO_DATA_MODEL) {
        cio_model_var mv = field_model(c, f);
        return cio_model_check(&mv, c->type, f->kind == MOM_FSTATIC ? 0 : rec, &g.box, buf, 0.0, first, got, want);
    }
    return cio_pattern_check(c->type, buf, field_seed(f, rec), &g.box, NULL, first, got, want);
}

int64_t mom_data_bytes(const mom_config *c, int64_t records)
{
    int64_t ts = (int64_t)cio_type_size(c->type), per_rec = 4 * 8 + 2 * 8;
    int64_t fixed = 8 * (2 * c->ni + 2 * c->nj + c->nk + (c->nk + 1) + 2);     /* the axes, st_edges_ocean, nv */
    for (int i = 0; i < c->nfields; i++) {
        int64_t n = (c->fields[i].kind == MOM_F3D ? c->nk : 1) * c->ni * c->nj * ts;
        if (c->fields[i].kind == MOM_FSTATIC) fixed += n;
        else per_rec += n;
    }
    return fixed + records * per_rec;
}

void mom_member_path(char *buf, size_t len, const char *prefix, int n, int nfiles)
{
    snprintf(buf, len, nfiles > 10000 ? "%s.%06d" : "%s.%04d", prefix, n);
}

/* ---------------------------------------------------------------- schema */
static void set_block(cio_schema *s, int varid, int nd, const int64_t *shape, const int64_t *start,
                      const int64_t *count, int mine)
{
    cio_decomp *d = cio_decomp_new(nd, shape);
    if (mine) cio_decomp_add(d, start, count);
    cio_schema_set_decomp(s, varid, d);
    cio_decomp_release(d);
}

static int axis_var(cio_schema *s, const char *name, const char *long_name, const char *units, const char *cart,
                    const mom_fileview *v, int64_t gsize, int64_t gstart)
{
    const char *dims[] = {name};
    int id = cio_schema_var(s, name, CIO_DOUBLE, 1, dims);
    cio_schema_att_text(s, id, "long_name", long_name);
    cio_schema_att_text(s, id, "units", units);
    cio_schema_att_text(s, id, "cartesian_axis", cart);
    if (v->nfiles > 0 && gsize > 0) {
        /* FMS: (global first, global last, this file's first, this file's last), 1-based */
        int64_t len = s->dims[cio_schema_find_dim(s, name)].len;
        int dd[4] = {1, (int)gsize, (int)(gstart + 1), (int)(gstart + len)};
        cio_schema_att(s, id, "domain_decomposition", CIO_INT, 4, dd);
    }
    return id;
}

static void time_var(cio_schema *s, int id, const char *long_name, const char *units)
{
    cio_schema_att_text(s, id, "long_name", long_name);
    cio_schema_att_text(s, id, "units", units);
}

/* The dimensions, the axes (their long names, units and cartesian axes) and the
 * time variables' metadata.  MOM5 registers st_ocean with edges (ocean_grids.F90
 * axes_info), so diag_manager writes the axis st_edges_ocean (nk + 1 depths)
 * after it and names it in st_ocean:edges. */
static void axes_and_time(cio_schema *s, const mom_config *c, const mom_fileview *v, mom_vars *ids)
{
    const mom_box *a = &v->area;
    cio_schema_dim(s, "xt_ocean", a->nx);
    cio_schema_dim(s, "yt_ocean", a->ny);
    cio_schema_dim(s, "st_ocean", c->nk);
    cio_schema_dim(s, "st_edges_ocean", c->nk + 1);
    cio_schema_dim(s, "time", CIO_UNLIMITED);
    cio_schema_dim(s, "nv", 2);
    cio_schema_dim(s, "xu_ocean", a->nx);
    cio_schema_dim(s, "yu_ocean", a->ny);

    ids->xt = axis_var(s, "xt_ocean", "tcell longitude", "degrees_E", "X", v, c->ni, a->x);
    ids->yt = axis_var(s, "yt_ocean", "tcell latitude", "degrees_N", "Y", v, c->nj, a->y);
    ids->st = axis_var(s, "st_ocean", "tcell zstar depth", "meters", "Z", v, 0, 0);
    cio_schema_att_text(s, ids->st, "positive", "down");
    cio_schema_att_text(s, ids->st, "edges", "st_edges_ocean");
    ids->se = axis_var(s, "st_edges_ocean", "tcell zstar depth edges", "meters", "Z", v, 0, 0);
    cio_schema_att_text(s, ids->se, "positive", "down");
    const char *dt[] = {"time"}, *dn[] = {"nv"};
    ids->time = cio_schema_var(s, "time", CIO_DOUBLE, 1, dt);
    time_var(s, ids->time, "time", TIME_UNITS);
    cio_schema_att_text(s, ids->time, "cartesian_axis", "T");
    /* diag_output.F90 write_axis_meta_data: both valid_calendar_types(calendar), the
     * upper-case name; mpp_io lower-cases 'calendar' only with cf_compliance, which
     * mpp_io_nml leaves .false. */
    cio_schema_att_text(s, ids->time, "calendar_type", "NOLEAP");
    cio_schema_att_text(s, ids->time, "calendar", "NOLEAP");
    cio_schema_att_text(s, ids->time, "bounds", "time_bnds");
    ids->nv = cio_schema_var(s, "nv", CIO_DOUBLE, 1, dn);
    time_var(s, ids->nv, "vertex number", "none");
    cio_schema_att_text(s, ids->nv, "cartesian_axis", "N");
    ids->xu = axis_var(s, "xu_ocean", "ucell longitude", "degrees_E", "X", v, c->ni, a->x);
    ids->yu = axis_var(s, "yu_ocean", "ucell latitude", "degrees_N", "Y", v, c->nj, a->y);
}

/* A value attribute in the field's own type (float fields: float values). */
static void att_typed(cio_schema *s, int id, const char *name, cio_type t, int n, const double *vals)
{
    float fv[2];
    for (int k = 0; k < n; k++) fv[k] = (float)vals[k];
    cio_schema_att(s, id, name, t, n, t == CIO_FLOAT ? (const void *)fv : (const void *)vals);
}

/* Field i: its variable, attributes, model geometry and this rank's block.  The
 * attributes and their order are what diag_manager writes (diag_output.F90
 * write_field_meta_data through mpp_write_meta): long_name, units, valid_range,
 * missing_value, _FillValue, cell_methods, time_avg_info, coordinates (the
 * axes' aux names, which MOM5 gives every horizontal axis), standard_name. */
static int field_var(cio_schema *s, const mom_config *c, const mom_fileview *v, const mom_share *sh, mom_fill *fill,
                     int i)
{
    const mom_box *a = &v->area;
    const mom_field *f = &c->fields[i];
    const struct mom_known *k = known_field(f->name);
    int part = a->x != 0 || a->y != 0 || a->nx != c->ni || a->ny != c->nj;
    int ugrid = f->grid == MOM_GRID_U, is_static = f->kind == MOM_FSTATIC;
    const char *xd = ugrid ? "xu_ocean" : "xt_ocean";
    const char *yd = ugrid ? "yu_ocean" : "yt_ocean";
    const char *d3[] = {"time", "st_ocean", yd, xd}, *d2[] = {"time", yd, xd}, *ds[] = {yd, xd};
    int id = f->kind == MOM_F3D   ? cio_schema_var(s, f->name, c->type, 4, d3)
             : f->kind == MOM_F2D ? cio_schema_var(s, f->name, c->type, 3, d2)
                                  : cio_schema_var(s, f->name, c->type, 2, ds);
    cio_schema_att_text(s, id, "long_name", k ? k->long_name : f->name);
    cio_schema_att_text(s, id, "units", field_units(f->name));
    if (k) att_typed(s, id, "valid_range", c->type, 2, k->range);
    double fv = field_geom(c, f)->fill;     /* MOM_MISSING_VALUE, static: MOM_DIAG_DEFAULT_MISSING */
    att_typed(s, id, "missing_value", c->type, 1, &fv);
    att_typed(s, id, "_FillValue", c->type, 1, &fv);
    cio_schema_att_text(s, id, "cell_methods", is_static ? "time: point" : "time: mean");
    if (!is_static) cio_schema_att_text(s, id, "time_avg_info", "average_T1,average_T2,average_DT");
    cio_schema_att_text(s, id, "coordinates", ugrid ? "geolon_c geolat_c" : "geolon_t geolat_t");
    if (k && k->standard_name) cio_schema_att_text(s, id, "standard_name", k->standard_name);
    cio_schema_set_model(s, id, field_geom(c, f));
    if (part) cio_schema_set_fill(s, id, fill_field_part, fill);
    int64_t shape[3] = {c->nk, a->ny, a->nx};
    int64_t start[3] = {0, sh->box.y - a->y, sh->box.x - a->x}, count[3] = {c->nk, sh->box.ny, sh->box.nx};
    int off = f->kind == MOM_F3D ? 0 : 1;
    set_block(s, id, 3 - off, shape + off, start + off, count + off, sh->fields);
    return id;
}

/* One time-average variable: diag_manager registers them with its default
 * missing value (diag_util.F90 opening_file). */
static int average_var(cio_schema *s, const char *name, int nd, const char *const *dims, const char *long_name,
                       const char *units)
{
    int id = cio_schema_var(s, name, CIO_DOUBLE, nd, dims);
    time_var(s, id, long_name, units);
    double mv = MOM_DIAG_DEFAULT_MISSING;
    cio_schema_att(s, id, "missing_value", CIO_DOUBLE, 1, &mv);
    cio_schema_att(s, id, "_FillValue", CIO_DOUBLE, 1, &mv);
    return id;
}

/* The time average variables and the time bounds. */
static void average_vars(cio_schema *s, mom_vars *ids)
{
    const char *dt[] = {"time"}, *dtn[] = {"time", "nv"};
    ids->t1 = average_var(s, "average_T1", 1, dt, "Start time for average period", TIME_UNITS);
    ids->t2 = average_var(s, "average_T2", 1, dt, "End time for average period", TIME_UNITS);
    ids->dt = average_var(s, "average_DT", 1, dt, "Length of average period", "days");
    ids->bnds = average_var(s, "time_bnds", 2, dtn, "time axis boundaries", "days");
}

/* FMS's global attributes. */
static void global_atts(cio_schema *s, const mom_config *c, const mom_fileview *v)
{
    /* FMS mpp_open: the file's own name, ocean.nc.0003 for a member */
    char fname[1024], base[1000];
    snprintf(base, sizeof base, "%s%s", c->base, c->suffix ? c->suffix : ".nc");
    if (v->nfiles > 0) mom_member_path(fname, sizeof fname, base, v->member, v->nfiles);
    else snprintf(fname, sizeof fname, "%s", base);
    cio_schema_att_text(s, -1, "filename", fname);
    if (v->nfiles > 0) {
        int n = v->nfiles;
        cio_schema_att(s, -1, "NumFilesInSet", CIO_INT, 1, &n);
    }
    cio_schema_att_text(s, -1, "title", "climio mom_io: MOM5 ocean diagnostics");
    cio_schema_att_text(s, -1, "grid_type", "regular");
    cio_schema_att_text(s, -1, "grid_tile", "N/A");
    char sig[4096];
    mom_config_signature(c, sig, sizeof sig);
    cio_schema_att_text(s, -1, "climio_mom_fields", sig);
}

/* Who writes the axes and the time variables; values from the fill functions. */
static void axis_blocks(cio_schema *s, const mom_config *c, const mom_fileview *v, const mom_share *sh,
                        mom_fill *fill, const mom_vars *ids)
{
    const mom_box *a = &v->area;
    int64_t zero = 0, two = 2, nk = c->nk, ne = c->nk + 1;
    int axes[] = {ids->xt, ids->xu, ids->yt, ids->yu};
    for (int k = 0; k < 4; k++) {
        int isx = k < 2;
        int64_t shape = isx ? a->nx : a->ny;
        int64_t start = isx ? sh->box.x - a->x : sh->box.y - a->y, count = isx ? sh->box.nx : sh->box.ny;
        if (sh->whole_axes) {
            start = 0;
            count = shape;
        }
        set_block(s, axes[k], 1, &shape, &start, &count, isx ? sh->x_axis : sh->y_axis);
        cio_schema_set_fill(s, axes[k], fill_axis, fill);
    }
    set_block(s, ids->st, 1, &nk, &zero, &nk, sh->scalars);
    cio_schema_set_fill(s, ids->st, fill_axis, fill);
    set_block(s, ids->se, 1, &ne, &zero, &ne, sh->scalars);
    cio_schema_set_fill(s, ids->se, fill_axis, fill);
    set_block(s, ids->nv, 1, &two, &zero, &two, sh->scalars);
    cio_schema_set_fill(s, ids->nv, fill_axis, fill);
    int tvars[] = {ids->time, ids->t1, ids->t2, ids->dt};
    for (int k = 0; k < 4; k++) {
        set_block(s, tvars[k], 0, NULL, NULL, NULL, sh->scalars);
        cio_schema_set_fill(s, tvars[k], fill_time, fill);
    }
    set_block(s, ids->bnds, 1, &two, &zero, &two, sh->scalars);
    cio_schema_set_fill(s, ids->bnds, fill_time, fill);
}

cio_schema *mom_schema_build(const mom_config *c, const mom_fileview *v, const mom_share *sh, mom_fill *fill,
                             mom_vars *ids)
{
    fill->c = c;
    fill->ox = v->area.x;
    fill->oy = v->area.y;
    cio_schema *s = cio_schema_new("mom_ocean");
    axes_and_time(s, c, v, ids);
    ids->field = cio_calloc((size_t)c->nfields, sizeof *ids->field);
    for (int i = 0; i < c->nfields; i++) ids->field[i] = field_var(s, c, v, sh, fill, i);
    average_vars(s, ids);
    global_atts(s, c, v);
    axis_blocks(s, c, v, sh, fill, ids);
    return s;
}

void mom_vars_free(mom_vars *ids)
{
    cio_free(ids->field);
    ids->field = NULL;
}
