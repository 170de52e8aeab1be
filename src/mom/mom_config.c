#include "config.h"
#include "app/settings.h"
#include "base/names.h"
#include "mom_config.h"
#include "grids/mom_domain.h"
#include "drivers/driver.h"
#include "mom_model.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Defaults are the 0.25 degree case of Yang, Ward & Evans (2020): 1440x1080x50,
 * 240 PEs as 16x15 with 8x15 io domains, one record per 30-minute ocean step for
 * one model day.  Without a parameter file mom_io runs the tiny built-in grid. */
const cio_output_folder mom_output_folder = {.def = "out", .alias = "out"};

const cio_param_spec mom_params[] = {
    /* overrides the suite's default: FMS writes each field with one collective put */
    {"iotype", CIO_P_CHOICE, "blocking_collective", "I/O mode",
     CIO_MODE_CHOICES, 0, 0, 0},
    /* FMS's own file settings (mom_main.c fms_file_tuning, mom_combine's mppnccombine defaults) when unset:
     * the suite's defaults stay the keys' values, the help says what runs */
    {"chunking", CIO_P_STRING, "auto",
     "netcdf/hdf5: auto | contiguous | default (netCDF-C's own chunks) | comma-separated chunk sizes [default: "
     "default, as FMS and mppnccombine set no chunks]",
     0, 0, 0, CIO_PF_HELP_DEFAULT},
    {"header_pad", CIO_P_SIZE, "0",
     "netcdf/pnetcdf classic formats: free bytes after the header (nc__enddef h_minfree; 0: library default) "
     "[default: 16384, FMS's header_buffer_val; mom_combine: -h N, else 16384]",
     0, 0, 1073741824, CIO_PF_HELP_DEFAULT},
    {"ni", CIO_P_INT, "1440", "grid points along x (longitude)", 0, 1, 1e9, 0},
    {"nj", CIO_P_INT, "1080", "grid points along y (latitude)", 0, 1, 1e9, 0},
    {"nk", CIO_P_INT, "50", "vertical levels of the 3-D fields", 0, 1, 1e6, 0},
    {"layout", CIO_P_STRING, "1,1",
     "PE layout 'X,Y' (X*Y = process count); 1,1 (MOM5's default) or auto: chosen as mpp_define_layout does", 0, 0,
     0, 0},
    {"io_layout", CIO_P_STRING, "0,0",
     "io domains 'X,Y' (must divide layout); 0,0 (MOM5's default): no io domain, one file per PE; auto: one io "
     "domain per node where the layout allows",
     0, 0, 0, 0},
    {"pattern", CIO_P_CHOICE, "auto",
     "auto: as MOM5 writes by the io_layout (0,0: perpe, 1,1: serial, more io domains: iodomain); serial: gather "
     "to PE 0, one file; iodomain: gather per io domain, file.nc.NNNN each; perpe: one file per PE; parallel: the "
     "io-domain roots write one shared file (FMS's parallel branch); none: write nothing",
     "auto|serial|iodomain|perpe|parallel|none", 0, 0, 0},
    {"fields", CIO_P_STRING, "temp salt u v age_global",
     "3-D fields with a time axis (u and v, or name:u, on the velocity grid)", 0, 0, 0, 0},
    {"fields_2d", CIO_P_STRING, "eta_t surface_temp", "2-D fields with a time axis", 0, 0, 0, 0},
    {"static_fields", CIO_P_STRING, "geolon_t geolat_t geolon_c geolat_c",
     "2-D fields without a time axis, written when the file is closed, after the last record, as diag_manager's "
     "write_static does (names ending in _c: velocity grid)", 0, 0, 0, 0},
    {"pack", CIO_P_CHOICE, "2", "FMS packing of the fields: 2 = float32, 1 = float64", "1|2", 0, 0, 0},
    MOM_PLAIN_PARAMS(CIO_PLAIN_ROW)
    {"file", CIO_P_STRING, "ocean", "file name without .nc (FMS appends .nc and, for sets, .NNNN)", 0, 0, 0, CIO_PF_NONEMPTY},
    {"flush", CIO_P_CHOICE, "field", "complete writes after each field (FMS) or once per record", "field|record", 0,
     0, 0},
    {"read_pattern", CIO_P_CHOICE, "none",
     "read benchmark after writing: serial (PE 0 reads and scatters), parallel (every PE reads its domain), both",
     "none|serial|parallel|both", 0, 0, 0},
    {"read_file", CIO_P_STRING, NULL, "file the read benchmark reads (default: the single file this run wrote)", 0, 0,
     0, CIO_PF_NONEMPTY},
    {"single_writer", CIO_P_CHOICE, "serial",
     "how netCDF files with one writer (patterns serial, iodomain, perpe; drivers netcdf, pnetcdf or the default) "
     "are written: serial = the serial netCDF-C API with FMS's tuning (nc__create 64 KiB hint, nc__enddef 16 KiB "
     "header padding), classic CDF-1 as MOM5 builds (-Duse_netCDF3); mpiio = the chosen driver on MPI_COMM_SELF",
     "serial|mpiio", 0, 0, 0},
    {"env_hints", CIO_P_BOOL, "true",
     "take MPI-IO hints from <hint>_WR / <hint>_RD environment variables, as the FMS parallel branch does", 0, 0, 0, 0},
    CIO_PARAM_END,
};

const char mom_builtin_name[] = "<built-in tiny grid>";
const char mom_builtin_text[] =
    "! no parameter file given: a tiny grid that runs in a second\n"
    "ni 40\nnj 30\nnk 5\nrecords 4\n";

const char *mom_pattern_name(mom_pattern p)
{
    static const char *names[] = {"serial", "iodomain", "perpe", "parallel", "none", "auto"};
    return (unsigned)p < sizeof names / sizeof *names ? names[p] : "?";
}

int mom_parse_pair(const char *s, int out[2], int allow_zero)
{
    while (isspace((unsigned char)*s)) s++;
    if (strncasecmp(s, "auto", 4) == 0) {
        const char *t = s + 4;
        while (isspace((unsigned char)*t)) t++;
        if (*t) return -1;
        out[0] = out[1] = -1;
        return 0;
    }
    char *end;
    long a = strtol(s, &end, 10);
    if (end == s) return -1;
    while (isspace((unsigned char)*end)) end++;
    if (*end == ',' || *end == 'x' || *end == 'X' || *end == '*') end++;
    const char *b0 = end;
    long b = strtol(b0, &end, 10);
    if (end == b0) return -1;
    while (isspace((unsigned char)*end)) end++;
    long lo = allow_zero ? 0 : 1;
    if (*end || a < lo || b < lo || a > 1000000 || b > 1000000) return -1;
    out[0] = (int)a;
    out[1] = (int)b;
    return 0;
}

/* MOM5's rules for what the io_layout means, and the FMS parallel branch's. */
int mom_pattern_resolve(mom_config *c, const mom_domain *d, const char *pattern_origin, cio_err *e)
{
    int ntiles = d->iox * d->ioy;
    char itxt[128];
    snprintf(itxt, sizeof itxt, "io_layout %d,%d (%s)", d->io_given[0], d->io_given[1], c->io_layout_origin);
    if (c->pattern == MOM_PAT_AUTO) {   /* as MOM5's diag_manager files come out */
        c->pattern = d->no_io ? MOM_PAT_PERPE : ntiles == 1 ? MOM_PAT_SERIAL : MOM_PAT_IODOMAIN;
        return 0;
    }
    if (c->pattern == MOM_PAT_PARALLEL && d->no_io)
        return cio_seterr(e, "%s: pattern parallel writes one shared file from the io-domain roots, and %s defines no "
                             "io domain (in MOM5 a 0 means one file per PE); give an io_layout with more than one io "
                             "domain (e.g. %d,%d, every PE a root)",
                          pattern_origin, itxt, d->npx, d->npy);
    if (c->pattern == MOM_PAT_PARALLEL && ntiles == 1)
        return cio_seterr(e, "%s: pattern parallel with %s, which FMS's parallel branch refuses: \"MPP_OPEN: "
                             "Parallel_netcdf conficts with io_layout (1,1).\" (mom-ocean/FMS with-parallel-netcdf, "
                             "mpp/include/mpp_io_connect.inc, mpp_open): one io domain means one writer; give an "
                             "io_layout with more than one io domain (e.g. %d,%d, every PE a root), or pattern serial",
                          pattern_origin, itxt, d->npx, d->npy);
    if (c->pattern == MOM_PAT_IODOMAIN && d->no_io)
        return cio_seterr(e, "%s: pattern iodomain writes one file per io domain, and %s defines none (MOM5 then "
                             "writes one file per PE: pattern perpe, or auto)",
                          pattern_origin, itxt);
    return 0;
}

/* Names the file's axes and time variables use: a field may not take them. */
static const char *const reserved[] = {"time", "nv", "xt_ocean", "yt_ocean", "xu_ocean", "yu_ocean", "st_ocean",
                                       "st_edges_ocean", "average_T1", "average_T2", "average_DT", "time_bnds", NULL};

static int valid_name(const char *n)
{
    if (!(isalpha((unsigned char)*n) || *n == '_')) return 0;
    for (; *n; n++)
        if (!(isalnum((unsigned char)*n) || *n == '_')) return 0;
    return 1;
}

static int add_fields(mom_config *c, const cio_params *p, const char *key, mom_kind kind, cio_err *e)
{
    const char *list = cio_param_str(p, key);
    if (!list) return 0;
    char *copy = cio_strdup(list), *save = NULL;
    int rc = 0;
    for (char *tok = strtok_r(copy, " ,\t", &save); tok; tok = strtok_r(NULL, " ,\t", &save)) {
        char *colon = strchr(tok, ':');
        mom_grid grid = MOM_GRID_T;
        if (colon) {
            *colon = '\0';
            if (cio_strcaseeq(colon + 1, "u")) grid = MOM_GRID_U;
            else if (!cio_strcaseeq(colon + 1, "t")) {
                rc = cio_seterr(e, "%s: %s: field '%s' has grid ':%s'; expected ':t' (tracer) or ':u' (velocity)",
                                cio_param_origin(p, key), key, tok, colon + 1);
                break;
            }
        } else if (kind == MOM_FSTATIC) {
            size_t l = strlen(tok);
            if (l > 2 && strcmp(tok + l - 2, "_c") == 0) grid = MOM_GRID_U;
        } else if (strcmp(tok, "u") == 0 || strcmp(tok, "v") == 0) {
            grid = MOM_GRID_U;
        }
        if (!valid_name(tok) || strlen(tok) > 63) {
            rc = cio_seterr(e, "%s: %s: '%s' is not a variable name (letters, digits and _, at most 63)",
                            cio_param_origin(p, key), key, tok);
            break;
        }
        for (int r = 0; reserved[r]; r++)
            if (strcmp(tok, reserved[r]) == 0) {
                rc = cio_seterr(e, "%s: %s: '%s' is the name of an axis or time variable of the file",
                                cio_param_origin(p, key), key, tok);
                break;
            }
        if (rc) break;
        for (int i = 0; i < c->nfields; i++)
            if (strcmp(c->fields[i].name, tok) == 0) {
                rc = cio_seterr(e, "%s: %s: field '%s' is listed twice", cio_param_origin(p, key), key, tok);
                break;
            }
        if (rc) break;
        c->fields = cio_realloc(c->fields, (size_t)(c->nfields + 1) * sizeof *c->fields);
        c->fields[c->nfields++] = (mom_field){cio_strdup(tok), kind, grid};
    }
    cio_free(copy);
    return rc;
}

static void load_plain(mom_config *cfg, const cio_params *prm) { MOM_PLAIN_PARAMS(CIO_PLAIN_LOAD) }

int mom_config_load(mom_config *c, const cio_params *p, cio_err *e)
{
    memset(c, 0, sizeof *c);
    c->ni = cio_param_int(p, "ni");
    c->nj = cio_param_int(p, "nj");
    c->nk = cio_param_int(p, "nk");
    c->layout_origin = cio_param_origin(p, "layout");
    c->io_layout_origin = cio_param_origin(p, "io_layout");
    if (mom_parse_pair(cio_param_str(p, "layout"), c->layout, 0) != 0)
        return cio_seterr(e, "%s: layout expects 'X,Y' (PEs along x and y; 1,1 or auto: chosen as MOM5 does), found "
                             "'%s'",
                          c->layout_origin, cio_param_str(p, "layout"));
    if (mom_parse_pair(cio_param_str(p, "io_layout"), c->io_layout, 1) != 0)
        return cio_seterr(e, "%s: io_layout expects 'X,Y' (io domains along x and y; 0,0: none, one file per PE as in "
                             "MOM5) or auto, found '%s'",
                          c->io_layout_origin, cio_param_str(p, "io_layout"));
    const char *pat = cio_param_str(p, "pattern");
    for (int i = 0; i <= MOM_PAT_AUTO; i++)
        if (strcmp(pat, mom_pattern_name((mom_pattern)i)) == 0) c->pattern = (mom_pattern)i;
    if (add_fields(c, p, "fields", MOM_F3D, e) || add_fields(c, p, "fields_2d", MOM_F2D, e) ||
        add_fields(c, p, "static_fields", MOM_FSTATIC, e))
        return -1;
    if (c->nfields == 0)
        return cio_seterr(e, "%s: fields, fields_2d and static_fields are all empty: nothing to write",
                          cio_param_origin(p, "fields"));
    c->type = strcmp(cio_param_str(p, "pack"), "1") == 0 ? CIO_DOUBLE : CIO_FLOAT;
    load_plain(c, p);
    char origin[600];
    if (cio_output_folder_resolve(p, &mom_output_folder, &c->outdir, origin, sizeof origin, e) != 0) return -1;
    c->suffix = ".nc";
    c->base = cio_param_str(p, "file");
    char what[600];
    snprintf(what, sizeof what, "%s: file", cio_param_origin(p, "file"));
    if (cio_check_name(c->base, CIO_NAME_FILE, what, e) != 0) return -1;
    c->flush_record = strcmp(cio_param_str(p, "flush"), "record") == 0;
    const char *rp = cio_param_str(p, "read_pattern");
    c->read_serial = strcmp(rp, "serial") == 0 || strcmp(rp, "both") == 0;
    c->read_parallel = strcmp(rp, "parallel") == 0 || strcmp(rp, "both") == 0;
    c->read_file = cio_param_str(p, "read_file");
    c->env_hints = cio_param_bool(p, "env_hints");
    /* every size downstream is a 64-bit count of bytes */
    double bytes = 0, plane = (double)c->ni * (double)c->nj * (double)cio_type_size(c->type);
    for (int i = 0; i < c->nfields; i++)
        bytes += plane * (c->fields[i].kind == MOM_F3D ? (double)c->nk : 1.0) *
                 (c->fields[i].kind == MOM_FSTATIC ? 1.0 : (double)(c->records > 0 ? c->records : 1));
    if (bytes >= 4611686018427387904.0)
        return cio_seterr(e, "ni %lld (%s) x nj %lld (%s) x nk %lld (%s) makes %.3g bytes of data, more than the "
                          "2^62 a file offset can safely address; make the grid or the record count smaller",
                          (long long)c->ni, cio_param_origin(p, "ni"), (long long)c->nj, cio_param_origin(p, "nj"),
                          (long long)c->nk, cio_param_origin(p, "nk"), bytes);
    cio_settings set = {0};
    if (cio_settings_data(p, &set, e) != 0) return -1;
    c->data = set.data;
    for (int u = 0; u < 2; u++) {
        for (int d3 = 0; d3 < 2; d3++) mom_model_geom(c, u, d3, &c->geom[u][d3]);
        mom_model_geom(c, u, 0, &c->geom_static[u]);
        c->geom_static[u].fill = MOM_DIAG_DEFAULT_MISSING;
    }
    return 0;
}

void mom_config_free(mom_config *c)
{
    for (int i = 0; i < c->nfields; i++) cio_free(c->fields[i].name);
    cio_free(c->fields);
    memset(c, 0, sizeof *c);
}

void mom_config_signature(const mom_config *c, char *buf, size_t len)
{
    static const char *const kinds[] = {"fields", "fields_2d", "static_fields"};
    size_t at = (size_t)snprintf(buf, len, "nk %lld pack %d", (long long)c->nk, c->type == CIO_FLOAT ? 2 : 1);
    for (int k = 0; k < 3; k++) {
        if (at < len) at += (size_t)snprintf(buf + at, len - at, "; %s", kinds[k]);
        for (int i = 0; i < c->nfields; i++)
            if ((int)c->fields[i].kind == k && at < len)
                at += (size_t)snprintf(buf + at, len - at, " %s%s", c->fields[i].name,
                                       c->fields[i].grid == MOM_GRID_U ? ":u" : "");
    }
}

void mom_file_prefix(const mom_config *c, char *buf, size_t len)
{
    snprintf(buf, len, "%s/%s%s", c->outdir, c->base, c->suffix ? c->suffix : ".nc");
}
