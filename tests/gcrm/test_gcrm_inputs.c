/* The desc and fcfg parsers: our shipped inputs describe exactly what GCRM-IO's
 * own files describe (when the reference copy is at hand), every fcfg parses,
 * the derived dimensions are GCRM-IO's, and malformed lines fail with
 * "file:line: expected ..., found ...". */
/* sanitizers: yes */
#include "config.h"
#include "../check.h"
#include "gcrm_fcfg.h"
#include "gcrm_fields.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *slurp(const char *dir, const char *name)
{
    char path[8300];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    cio_err e = {0};
    size_t len;
    return cio_read_file(path, &len, &e);
}

static int same_str(const char *a, const char *b) { return (!a && !b) || (a && b && strcmp(a, b) == 0); }

/* Every descriptor of `ref` has an identical twin in `ours` (duplicates: the first). */
static void compare_desc_sets(const gcrm_desc_set *ours, const gcrm_desc_set *ref)
{
    CHECK_EQ_INT(ours->nprops, ref->nprops);
    for (int i = 0; i < ref->nprops && i < ours->nprops; i++) {
        CHECK(same_str(ours->props[i].name, ref->props[i].name));
        CHECK(same_str(ours->props[i].value, ref->props[i].value));
    }
    int last = -1;
    for (int i = 0; i < ref->n; i++) {
        const gcrm_desc *r = &ref->d[i];
        if (gcrm_desc_find(ref, r->name) != i) continue;
        int k = gcrm_desc_find(ours, r->name);
        if (k < 0) {
            fprintf(stderr, "descriptor %s missing from our ZGrd.desc\n", r->name);
            check_failures++;
            continue;
        }
        CHECK(k > last);        /* same order: grid and restart files follow it */
        last = k;
        const gcrm_desc *o = &ours->d[k];
        int ok = o->type == r->type && same_str(o->long_name, r->long_name) && same_str(o->units, r->units) &&
                 same_str(o->standard_name, r->standard_name) && same_str(o->output_name, r->output_name) &&
                 memcmp(o->slot, r->slot, sizeof o->slot) == 0 && o->slice_component == r->slice_component &&
                 o->index_all == r->index_all && o->no_data == r->no_data && o->isgridvar == r->isgridvar &&
                 o->restart == r->restart && o->natts == r->natts;
        for (int a = 0; ok && a < r->natts; a++)
            ok = same_str(o->atts[a].name, r->atts[a].name) && same_str(o->atts[a].value, r->atts[a].value);
        if (!ok) {
            fprintf(stderr, "descriptor %s differs from GCRM-IO's\n", r->name);
            check_failures++;
        }
    }
}

static void expect_desc_error(const char *text, const char *msg)
{
    gcrm_desc_set ds;
    cio_err e = {0};
    int rc = gcrm_desc_parse(&ds, text, "bad.desc", &e);
    CHECK(rc != 0);
    if (rc == 0) gcrm_desc_free(&ds);
    CHECK_CONTAINS(e.msg, msg);
}

static void expect_fcfg_error(gcrm_desc_set *ds, const char *text, const char *msg)
{
    gcrm_fcfg fc;
    cio_err e = {0};
    int rc = gcrm_fcfg_parse(&fc, text, "bad.fcfg", ds, &e);
    CHECK(rc != 0);
    if (rc == 0) gcrm_fcfg_free(&fc);
    CHECK_CONTAINS(e.msg, msg);
}

int main(void)
{
    const char *src = getenv("top_srcdir") ? getenv("top_srcdir") : ".";
    char inputs[4096];
    snprintf(inputs, sizeof inputs, "%s/inputs", src);
    char *text = slurp(inputs, "ZGrd.desc");
    CHECK(text != NULL);
    if (!text) return CHECK_DONE();
    gcrm_desc_set ds;
    cio_err e = {0};
    CHECK(gcrm_desc_parse(&ds, text, "ZGrd.desc", &e) == 0);
    if (e.code) fprintf(stderr, "%s\n", e.msg);
    cio_free(text);

    /* GCRM-IO's dimensions for a few descriptors */
    gcrm_dimkind dims[GCRM_NSLOTS];
    int n = gcrm_desc_dims(&ds.d[gcrm_desc_find(&ds, "u")], dims);
    CHECK(n == 3 && dims[0] == GCRM_DIM_TIME && dims[1] == GCRM_DIM_CORNERS && dims[2] == GCRM_DIM_LAYERS);
    n = gcrm_desc_dims(&ds.d[gcrm_desc_find(&ds, "vorticity")], dims);    /* nprog dropped */
    CHECK(n == 3 && dims[1] == GCRM_DIM_CELLS);
    n = gcrm_desc_dims(&ds.d[gcrm_desc_find(&ds, "dbl_eta_f")], dims);    /* index all keeps ntend */
    CHECK(n == 4 && dims[1] == GCRM_DIM_NTEND && dims[2] == GCRM_DIM_CELLS && dims[3] == GCRM_DIM_LAYERS);
    n = gcrm_desc_dims(&ds.d[gcrm_desc_find(&ds, "edge_corners")], dims);
    CHECK(n == 2 && dims[0] == GCRM_DIM_EDGES && dims[1] == GCRM_DIM_ENDPOINTS);
    n = gcrm_desc_dims(&ds.d[gcrm_desc_find(&ds, "grid_corner_lat")], dims);   /* the later slot-3 token wins */
    CHECK(n == 1 && dims[0] == GCRM_DIM_CORNERS);
    const gcrm_desc *eta = &ds.d[gcrm_desc_find(&ds, "dbl_eta")];
    CHECK(eta->restart && eta->natts == 4 && strcmp(eta->atts[2].value, "center ") == 0);   /* GIO's trailing blank */
    CHECK(strcmp(ds.d[gcrm_desc_find(&ds, "area")].units, "square radians") == 0);
    /* produced fields: 21 restart fields without physics, 36 with (time aside) */
    int r0 = 0, r1 = 0;
    for (int i = 0; i < ds.n; i++)
        if (ds.d[i].restart && strcmp(ds.d[i].name, "time") != 0) {
            r0 += gcrm_field_produced(&ds, i, 0);
            r1 += gcrm_field_produced(&ds, i, 1);
        }
    CHECK_EQ_INT(r0, 21);
    CHECK_EQ_INT(r1, 36);

    /* every shipped fcfg parses */
    const char *fcfgs[] = {"ZGrd.LZ.fcfg.nophys", "ZGrd.CP.lyr.fcfg", "ZGrd.CP.lyr.fcfg.groups", "ZGrd.CP.lyr.fcfg.one",
                           "ZGrd.CP.fcfg"};
    const int kinds[] = {11, 38, 12, 1, 38}, vars[] = {22, 76, 50, 39, 76};
    for (int f = 0; f < 5; f++) {
        char *t = slurp(inputs, fcfgs[f]);
        gcrm_fcfg fc;
        cio_err fe = {0};
        CHECK(t && gcrm_fcfg_parse(&fc, t, fcfgs[f], &ds, &fe) == 0);
        if (fe.code) fprintf(stderr, "%s\n", fe.msg);
        else {
            CHECK_EQ_INT(fc.n, kinds[f]);
            int nv = 0;
            for (int k = 0; k < fc.n; k++) nv += fc.k[k].nfields;
            CHECK_EQ_INT(nv, vars[f]);
            gcrm_fcfg_free(&fc);
        }
        cio_free(t);
    }
    CHECK(gcrm_desc_find(&ds, "heating_sw_lyr_avg") >= 0);
    CHECK(strcmp(ds.d[gcrm_desc_find(&ds, "prec_tot_avg")].output_name, "prec_tot_avg") == 0);

    /* GCRM-IO's own files describe the same variables */
    char ref[4096] = "";
    if (getenv("GCRM_REFERENCE")) snprintf(ref, sizeof ref, "%s/inputs", getenv("GCRM_REFERENCE"));
    if (ref[0] && access(ref, R_OK) == 0) {
        char *rt = slurp(ref, "ZGrd.desc");
        gcrm_desc_set rds;
        cio_err re = {0};
        CHECK(rt && gcrm_desc_parse(&rds, rt, "reference ZGrd.desc", &re) == 0);
        if (re.code) fprintf(stderr, "%s\n", re.msg);
        else {
            compare_desc_sets(&ds, &rds);
            for (int f = 0; f < 5; f++) {
                char *t = slurp(ref, fcfgs[f]), *o = slurp(inputs, fcfgs[f]);
                gcrm_fcfg a, b;
                cio_err fe = {0};
                CHECK(t && o && gcrm_fcfg_parse(&a, t, fcfgs[f], &rds, &fe) == 0 &&
                      gcrm_fcfg_parse(&b, o, fcfgs[f], &ds, &fe) == 0);
                if (!fe.code) {
                    CHECK_EQ_INT(a.n, b.n);
                    for (int k = 0; k < a.n && k < b.n; k++) {
                        CHECK(strcmp(a.k[k].prefix, b.k[k].prefix) == 0);
                        CHECK_EQ_INT(a.k[k].nfields, b.k[k].nfields);
                        for (int v = 0; v < a.k[k].nfields && v < b.k[k].nfields; v++)
                            CHECK(strcmp(rds.d[a.k[k].fields[v].desc].name, ds.d[b.k[k].fields[v].desc].name) == 0);
                    }
                    gcrm_fcfg_free(&a);
                    gcrm_fcfg_free(&b);
                }
                cio_free(t);
                cio_free(o);
            }
            gcrm_desc_free(&rds);
        }
        cio_free(rt);
    } else {
        fprintf(stderr, "$GCRM_REFERENCE/inputs (%s) not found: GCRM-IO's inputs ship in tests/gcrm/original\n", ref);
        CHECK(0);
    }

    /* malformed descriptors */
    expect_desc_error("title \"x\"\n", "bad.desc:1: expected 'property NAME VALUE' or 'name VARIABLE'");
    expect_desc_error("name x\ntype float\ndimension time cells\nname y\n", "bad.desc:4: descriptor 'x' (line 1) is incomplete: expected a 'long_name");
    expect_desc_error("name x\ntype float\nlong_name \"X\"\n", "bad.desc:3: descriptor 'x' (line 1) is incomplete: expected a 'dimension");
    expect_desc_error("name x\ntype quad\n", "bad.desc:2: expected 'type integer', 'type float' or 'type double', found 'type quad'");
    expect_desc_error("name x\ndimension time cellz\n", "bad.desc:2: expected a dimension name");
    expect_desc_error("name x\nslice component 1\n", "bad.desc:2: expected 'slice' after the 'dimension' line");
    expect_desc_error("name x\nlong_name \"open\n", "bad.desc:2: value of 'long_name' has no closing quote");
    expect_desc_error("name x\nunits\n", "bad.desc:2: expected a value after 'units'");
    expect_desc_error("# nothing\n", "expected descriptors ('name' lines), found none");
    expect_desc_error("name x\nindex some\n", "bad.desc:2: expected 'index all', found 'index some'");
    /* malformed fcfg lines */
    expect_fcfg_error(&ds, "file_prefix \"a_\"\nfield vorticty\n", "bad.fcfg:2: expected a field described in ZGrd.desc, found 'vorticty' (did you mean 'vorticity'?)");
    expect_fcfg_error(&ds, "field time\n", "bad.fcfg:1: expected 'file_prefix' before 'field'");
    expect_fcfg_error(&ds, "file_prefix \"a_\"\nfeild time\n", "bad.fcfg:2: expected file_prefix, field, frequency, nsamples, base_directory, grid_only or coarsen, found 'feild'");
    expect_fcfg_error(&ds, "file_prefix \"a_\"\nfield time mean\n", "bad.fcfg:2: expected 'avg' or nothing after 'field time', found 'mean'");
    expect_fcfg_error(&ds, "file_prefix \"a_\"\nfrequency soon\n", "bad.fcfg:2: expected a frequency in seconds");
    expect_fcfg_error(&ds, "file_prefix\n", "bad.fcfg:1: expected a value after 'file_prefix'");
    expect_fcfg_error(&ds, "# empty\n", "expected at least one 'file_prefix' line");
    gcrm_desc_free(&ds);
    return CHECK_DONE();
}
