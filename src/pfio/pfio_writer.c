/* Writing a collection, as PFIO's writers do it: one process per file, the
 * whole global array of every (variable, record) assembled in memory, the file
 * created with its metadata and coordinates when this phase holds its first
 * record and reopened otherwise, then one write per request, then close.
 * Storage goes through the climio engine on MPI_COMM_SELF, so any driver and
 * format works (netCDF-4 by default, as MAPL writes). */
#include "config.h"
#include "pfio.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>

void pf_place_block(const pf_stage *s, const void *block, void *global)
{
    size_t ts = cio_type_size(s->type);
    int nd = s->ndims;
    if (pf_stage_local_elems(s) == 0) return;
    if (nd == 0) {
        memcpy(global, block, ts);
        return;
    }
    int64_t idx[3] = {0, 0, 0};
    size_t row = (size_t)s->count[nd - 1] * ts;
    const char *in = block;
    for (;;) {
        int64_t off = 0;
        for (int i = 0; i < nd; i++) off = off * s->global_count[i] + s->start[i] + (i < nd - 1 ? idx[i] : 0);
        memcpy((char *)global + (size_t)off * ts, in, row);
        in += row;
        int d = nd - 2;
        while (d >= 0 && ++idx[d] == s->count[d]) idx[d--] = 0;
        if (d < 0) break;
    }
}

/* Coordinates of the demo: 1-degree longitudes from -180, latitudes -90..90, levels 1..KM. */
static void fill_coord(void *ctx, const cio_var *v, int64_t record, const cio_box *box, void *buf)
{
    (void)ctx;
    (void)record;
    float *out = buf;
    int64_t n = box->count[0], len = box->shape[0];
    for (int64_t i = 0; i < n; i++) {
        int64_t k = box->start[0] + i;
        double x;
        if (!strcmp(v->name, "lon")) x = -180.0 + 360.0 * (double)k / (double)len;
        else if (!strcmp(v->name, "lat")) x = len > 1 ? -90.0 + 180.0 * (double)k / (double)(len - 1) : 0.0;
        else x = (double)(k + 1);
        out[i] = (float)x;
    }
}

/* The time coordinate: 3 hours a record (time_increment 30000, HHMMSS), in the
 * units' minutes, counted from the first record of the run; ctx holds the
 * index, over the run, of this file's first record. */
static void fill_time(void *ctx, const cio_var *v, int64_t record, const cio_box *box, void *buf)
{
    (void)v;
    (void)box;
    *(float *)buf = (float)(((intptr_t)ctx + record) * 180);
}

static void whole(cio_schema *s, int var, int ndims, const int64_t *shape)
{
    cio_decomp *d = cio_decomp_new(ndims, shape);
    int64_t zero[3] = {0, 0, 0};
    cio_decomp_add(d, zero, shape);
    cio_decomp_commit(d, MPI_COMM_SELF);
    cio_schema_set_decomp(s, var, d);
    cio_decomp_release(d);
}

static void att_typed(cio_schema *s, int v, const char *name, cio_type t, int n, const double *vals)
{
    if (t == CIO_DOUBLE) {
        cio_schema_att(s, v, name, CIO_DOUBLE, n, vals);
    } else {
        float f[2];
        for (int i = 0; i < n; i++) f[i] = (float)vals[i];
        cio_schema_att(s, v, name, CIO_FLOAT, n, f);
    }
}

static int cmp_att(const void *a, const void *b)
{
    return strcmp(((const cio_att *)a)->name, ((const cio_att *)b)->name);
}

/* Every variable's attributes and the global ones in byte order of their
 * names, as PFIO's StringAttributeMap (a gFTL map) hands them to netCDF. */
static void sort_atts(cio_schema *s)
{
    for (int v = 0; v < s->nvars; v++) qsort(s->vars[v].atts, (size_t)s->vars[v].natts, sizeof(cio_att), cmp_att);
    qsort(s->gatts, (size_t)s->ngatts, sizeof(cio_att), cmp_att);
}

/* One of the collection's fields, with the demo's attributes (add_fvar). */
static void add_field(cio_schema *s, const pf_collection *coll, const pf_varspec *vs, int file)
{
    const double one = 1.0, zero = 0.0, undef = 1.0e15, range[2] = {-1.0e15, 1.0e15}, vmin = -1.0e15, vmax = 1.0e15;
    const char *d3[] = {"time", "lev", "lat", "lon"}, *d2[] = {"time", "lat", "lon"};
    int id = cio_schema_var(s, vs->name, coll->type, vs->is3d ? 4 : 3, vs->is3d ? d3 : d2);
    cio_schema_att_text(s, id, "units", pf_var_units(vs->name));
    cio_schema_att_text(s, id, "long_name", vs->name);
    att_typed(s, id, "scale_factor", coll->type, 1, &one);
    att_typed(s, id, "add_offset", coll->type, 1, &zero);
    att_typed(s, id, "missing_value", coll->type, 1, &undef);
    att_typed(s, id, "_FillValue", coll->type, 1, &undef);
    att_typed(s, id, "valid_range", coll->type, 2, range);
    att_typed(s, id, "vmin", coll->type, 1, &vmin);
    att_typed(s, id, "vmax", coll->type, 1, &vmax);
    int64_t shape[2][3] = {{coll->jm, coll->im, 0}, {coll->km, coll->jm, coll->im}};
    whole(s, id, vs->is3d ? 3 : 2, shape[vs->is3d]);
    s->vars[id].pattern_key = pf_pattern_key(coll->id, vs->name, file);
}

/* The file's layout, as pfio_MAPL_demo defines it. */
static cio_schema *build_schema(const pf_collection *coll, int file, int64_t first_record, int time_values)
{
    char name[64];
    snprintf(name, sizeof name, "collection_%d", coll->id);
    cio_schema *s = cio_schema_new(name);
    s->records_shared = 1;      /* several writers add the records of one file, each with its own engine */
    int any3d = 0;
    for (int v = 0; v < coll->nvars; v++) any3d |= coll->vars[v].is3d;
    /* PFIO's FileMetadata keeps dimensions and attributes in maps ordered by
     * name, and its formatter defines them in that order (variables keep the
     * order they were added in): the dimensions are defined sorted here, and
     * sort_atts() orders the attributes at the end */
    cio_schema_dim(s, "lat", coll->jm);
    if (any3d) cio_schema_dim(s, "lev", coll->km);
    cio_schema_dim(s, "lon", coll->im);
    cio_schema_dim(s, "time", CIO_UNLIMITED);
    const char *d_lon[] = {"lon"}, *d_lat[] = {"lat"}, *d_lev[] = {"lev"}, *d_time[] = {"time"};
    int vlon = cio_schema_var(s, "lon", CIO_FLOAT, 1, d_lon);
    cio_schema_att_text(s, vlon, "long_name", "Longitude");
    cio_schema_att_text(s, vlon, "units", "degrees_east");
    int vlat = cio_schema_var(s, "lat", CIO_FLOAT, 1, d_lat);
    cio_schema_att_text(s, vlat, "long_name", "Latitude");
    cio_schema_att_text(s, vlat, "units", "degrees_north");
    int vlev = -1;
    if (any3d) {
        vlev = cio_schema_var(s, "lev", CIO_FLOAT, 1, d_lev);
        cio_schema_att_text(s, vlev, "long_name", "Vertical level");
        cio_schema_att_text(s, vlev, "units", "layer");
        cio_schema_att_text(s, vlev, "positive", "down");
        cio_schema_att_text(s, vlev, "coordinate", "eta");
        cio_schema_att_text(s, vlev, "standard_name", "model_layers");
    }
    /* pfio_MAPL_demo defines time and never writes it, which leaves fill values
     * that no client can decode as times; MAPL's HISTORY writes them, and so
     * does pfio_io (one value a record, with the record's data) unless
     * time_values is false */
    int vtime = cio_schema_var(s, "time", CIO_FLOAT, 1, d_time);
    cio_schema_att_text(s, vtime, "long_name", "time");
    cio_schema_att_text(s, vtime, "units", "minutes since 2010-01-03 00:00:00");
    int ti = 30000, bd = 20100103, bt = 0;
    cio_schema_att(s, vtime, "time_increment", CIO_INT, 1, &ti);
    cio_schema_att(s, vtime, "begin_date", CIO_INT, 1, &bd);
    cio_schema_att(s, vtime, "begin_time", CIO_INT, 1, &bt);
    int64_t scalar[1] = {0};
    if (time_values) {
        whole(s, vtime, 0, scalar);
        cio_schema_set_fill(s, vtime, fill_time, (void *)(intptr_t)first_record);
    }
    int64_t sh_lon[1] = {coll->im}, sh_lat[1] = {coll->jm}, sh_lev[1] = {coll->km};
    whole(s, vlon, 1, sh_lon);
    whole(s, vlat, 1, sh_lat);
    cio_schema_set_fill(s, vlon, fill_coord, NULL);
    cio_schema_set_fill(s, vlat, fill_coord, NULL);
    if (vlev >= 0) {
        whole(s, vlev, 1, sh_lev);
        cio_schema_set_fill(s, vlev, fill_coord, NULL);
    }
    for (int v = 0; v < coll->nvars; v++) add_field(s, coll, &coll->vars[v], file);
    cio_schema_att_text(s, -1, "Convention", "COARDS");
    cio_schema_att_text(s, -1, "Source", "GMAO");
    cio_schema_att_text(s, -1, "Title", "Sample code to test PFIO");
    cio_schema_att_text(s, -1, "HISTORY", "File written by climio pfio_io (after PFIO's pfio_MAPL_demo)");
    sort_atts(s);
    return s;
}

static int cmp_wreq(const void *a, const void *b)
{
    const pf_stage *x = ((const pf_wreq *)a)->st, *y = ((const pf_wreq *)b)->st;
    if (x->file != y->file) return x->file < y->file ? -1 : 1;
    if (x->record != y->record) return x->record < y->record ? -1 : 1;
    return (x->var > y->var) - (x->var < y->var);
}

void pf_create_file(pf_ctx *c, const pf_collection *coll, int file, const char *path)
{
    cio_schema *s = build_schema(coll, file, (int64_t)file * c->o.num_time_records, c->o.time_values);
    cio_file *f = cio_create(c->app->engine, path, s, MPI_COMM_SELF);
    for (int v = 0; v < s->nvars; v++)
        if (!s->vars[v].is_record && s->vars[v].decomp) cio_write(f, v, 0);
    cio_close(f);
    cio_schema_free(s);
}

static int64_t write_files(pf_ctx *c, const pf_collection *coll, pf_wreq *reqs, int nreq, int may_create)
{
    cio_engine *e = c->app->engine;
    int64_t total = 0;
    qsort(reqs, (size_t)nreq, sizeof *reqs, cmp_wreq);
    for (int i = 0; i < nreq;) {
        int file = reqs[i].st->file, j = i, create = 0;
        while (j < nreq && reqs[j].st->file == file) {
            if (reqs[j].st->record == 0 && may_create) create = 1;
            j++;
        }
        if (reqs[i].st->collection_id != coll->id || reqs[i].st->var < 0 || reqs[i].st->var >= coll->nvars)
            cio_die("protocol: request %d names collection %d variable %d, not in collection %d", reqs[i].st->request_id,
                    reqs[i].st->collection_id, reqs[i].st->var, coll->id);
        double t0 = MPI_Wtime();
        if (c->write_first < 0) c->write_first = cio_stats_now(&c->app->stats);
        cio_schema *s = build_schema(coll, file, (int64_t)file * c->o.num_time_records, c->o.time_values);
        const char *path = reqs[i].st->file_name;
        cio_file *f = create ? cio_create(e, path, s, MPI_COMM_SELF) : cio_open(e, path, s, MPI_COMM_SELF);
        if (create)
            for (int v = 0; v < s->nvars; v++)
                if (!s->vars[v].is_record && s->vars[v].decomp) cio_write(f, v, 0);
        int64_t bytes = 0, last_record = -1;
        int vtime = cio_schema_find_var(s, "time");
        for (int k = i; k < j; k++) {
            const pf_stage *st = reqs[k].st;
            int vid = cio_schema_find_var(s, coll->vars[st->var].name);
            cio_write_buf(f, vid, st->record, reqs[k].data);
            bytes += pf_stage_global_elems(st) * (int64_t)cio_type_size(st->type);
            if (c->o.time_values && st->record != last_record) {        /* the requests come sorted by record */
                cio_write(f, vtime, st->record);
                last_record = st->record;
            }
        }
        cio_close(f);
        cio_schema_free(s);
        double dt = MPI_Wtime() - t0;
        c->write_s += dt;
        c->write_last = cio_stats_now(&c->app->stats);
        c->files_written++;
        total += bytes;
        i = j;
    }
    c->written_bytes += total;
    return total;
}

int64_t pf_write_collection(pf_ctx *c, const pf_collection *coll, pf_wreq *reqs, int nreq)
{
    return write_files(c, coll, reqs, nreq, 1);
}

int64_t pf_write_collection_open(pf_ctx *c, const pf_collection *coll, pf_wreq *reqs, int nreq)
{
    return write_files(c, coll, reqs, nreq, 0);
}
