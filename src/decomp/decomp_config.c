/* decomp_io's parameters, and pioperf's built-in BLOCK and ROUNDROBIN maps. */
#include "config.h"
#include "base/inputs.h"
#include "base/names.h"
#include "decomp.h"
#include "engine/aggregate.h"
#include "drivers/driver.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const cio_output_folder decomp_output_folder = {.def = "out", .alias = "out"};

const cio_param_spec decomp_params[] = {
    {"decomp", CIO_P_STRING, "BLOCK",
     "the map to replay: a PIO text (version 2001), PIO netCDF, SCORPIO logger or E3SM-IO map file, or pioperf's "
     "BLOCK / ROUNDROBIN (varsize elements per rank)", 0, 0, 0, 0},
    {"decomp_format", CIO_P_CHOICE, "auto", "the map file's format (auto: from its first bytes and contents)",
     "auto|pio_text|pio_nc|scorpio_nc|e3sm", 0, 0, 0},
    {"decomp_order", CIO_P_CHOICE, "fortran",
     "PIO text maps: the order the dimension lengths are listed in (fortran: fastest first, as E3SM/SCORPIO save "
     "them and pioperf and dat2nc read them; c: as PIOc_write_decomp writes them)", "fortran|c", 0, 0, 0},
    {"e3sm_fill", CIO_P_BOOL, "false",
     "E3SM-IO maps: also write the fill requests (those past fill_starts), as e3sm_io -u does", 0, 0, 0, 0},
    {"e3sm_shifted", CIO_P_BOOL, "false",
     "E3SM-IO maps with fill pairs: read each task's requests from the fill_starts prefix sums, as e3sm_io without -u "
     "does (every task after the first one with fill pairs then replays other tasks' pairs; the default replays "
     "each task's own)", 0, 0, 0, 0},
    DECOMP_PLAIN_PARAMS(CIO_PLAIN_ROW)
    {"var_type", CIO_P_CHOICE, "double", "element type of the variables (pioperf compiles double)",
     "double|float|int", 0, 0, 0},
    {"fill_holes", CIO_P_CHOICE, "auto",
     "write each variable's _FillValue into the elements no task holds, as PIO does (each rank the unheld elements "
     "in its own range of indices); false: leave them unwritten, as e3sm_io does without -u; auto: true, except "
     "for E3SM-IO maps", "auto|true|false", 0, 0, 0},
    {"pio_values", CIO_P_BOOL, "false",
     "write the values pioperf writes instead of the data pattern: element i (0-based, row-major) holds i + 1 "
     "(int), 1e5 * (i + 1) (float) or (i + 1) / 1e6 computed in single precision (double), in every variable and "
     "record, so a file can be compared byte for byte with pioperf's", 0, 0, 0, 0},
    {"var_names", CIO_P_STRING, NULL,
     "names of the first variables, comma-separated, instead of pioperf's vard0001, ... (the data pattern follows "
     "the name, so a replay of a kernel's map with its variable's name writes that kernel's values)", 0, 0, 0, 0},
    {"e3sm_case", CIO_P_CHOICE, "none",
     "E3SM-IO maps: write E3SM-IO's case files instead of nvars per decomposition: F (h0, h1), G, I (h0, h1) with "
     "E3SM-IO's dimensions, variables, types and attributes, requests cut at rows as E3SM-IO's; auto: from the "
     "number of decompositions (3 F, 6 G, 5 I)", "none|auto|F|G|I", 0, 0, 0},
    {"call_pattern", CIO_P_CHOICE, "auto",
     "the library calls: e3sm: E3SM-IO's, one ncmpi_iput_varn per variable and record (every rank, empty ones "
     "included) and one ncmpi_wait_all per record, the fixed variables posted with the first record's "
     "(nonblocking_collective); varn_all: one ncmpi_put_varn_all per variable and record (blocking_collective); "
     "vara_per_region: one ncmpi_iput_vara per region and one wait per record (nonblocking_collective); iotype: the "
     "engine's calls for --iotype; auto: e3sm with e3sm_case (unless iotype asks another mode), iotype otherwise",
     "auto|e3sm|varn_all|vara_per_region|iotype", 0, 0, 0},
    {"layout", CIO_P_CHOICE, "canonical",
     "canonical: the arrays as the model has them (pioperf, e3sm_io -x canonical); blob: each rank's elements "
     "contiguous, its requests stored beside them (e3sm_io -x blob; the file depends on the process count)",
     "canonical|blob", 0, 0, 0},
    {"file", CIO_P_STRING, "decomp_io", "output file name without the format's suffix (.nc, .h5, .raw)", 0, 0, 0,
     CIO_PF_NONEMPTY},
    {"pioperf", CIO_P_STRING, NULL,
     "run pioperf's experiment from this namelist (pioperf.nl): its decompositions, iotypes, rearrangers, I/O "
     "task counts, variables and RESULT lines", 0, 0, 0, 0},
    {"pioperf_read", CIO_P_BOOL, "false",
     "--pioperf: print pioperf's RESULT read lines (PIO2's pioperf prints them only when built with DOREAD; the "
     "read-back and its check run either way, for climio's line)", 0, 0, 0, 0},
    {"make_decomp", CIO_P_CHOICE, "none",
     "write a generated map and exit: block, roundrobin, random (a permutation), holes (block with every "
     "gen_hole_every-th slot a hole), cubed_sphere (E3SM-like columns on a cubed sphere, Hilbert-curve elements), "
     "mom (mom_io's 2-D domain layout), gcrm (gcrm_io's cell fields: its icosahedral blocks per rank), convert "
     "(the map given by decomp, rewritten)",
     "none|block|roundrobin|random|holes|cubed_sphere|mom|gcrm|convert", 0, 0, 0},
    {"gen_out", CIO_P_STRING, NULL, "--make_decomp: the file to write", 0, 0, 0, CIO_PF_NONEMPTY},
    {"gen_format", CIO_P_CHOICE, "pio_text", "--make_decomp: the format written", "pio_text|e3sm", 0, 0, 0},
    {"gen_tasks", CIO_P_INT, "4", "--make_decomp: tasks the map is recorded at", 0, 1, 1e7, 0},
    {"gen_dims", CIO_P_STRING, "8,96",
     "--make_decomp block/roundrobin/random/holes: the array's lengths, C order (slowest first)", 0, 0, 0, 0},
    {"gen_hole_every", CIO_P_INT, "7", "--make_decomp holes: every n-th buffer slot is a hole", 0, 2, 1e9, 0},
    {"gen_seed", CIO_P_INT, "1", "--make_decomp random: the permutation's seed", 0, 0, 1e18, 0},
    {"gen_ne", CIO_P_INT, "4", "--make_decomp cubed_sphere: elements along a cube face edge (a power of 2)", 0, 1,
     4096, 0},
    {"gen_nlev", CIO_P_INT, "8",
     "--make_decomp cubed_sphere: vertical levels (0: columns only); gcrm: layers of the cell field (cells, layers) "
     "(0: a 2-D field (cells))", 0, 0, 1e5, 0},
    {"gen_level", CIO_P_INT, "4",
     "--make_decomp gcrm: gcrm_io's level_max (10 * 4^level + 2 cells); gen_tasks must be a process count gcrm_io "
     "accepts at that level", 0, 2, 14, 0},
    {"gen_ni", CIO_P_INT, "40", "--make_decomp mom: grid points along x", 0, 1, 1e9, 0},
    {"gen_nj", CIO_P_INT, "30", "--make_decomp mom: grid points along y", 0, 1, 1e9, 0},
    {"gen_nk", CIO_P_INT, "5", "--make_decomp mom: levels (1: a 2-D field)", 0, 1, 1e6, 0},
    {"gen_raw", CIO_P_BOOL, "true", "--make_decomp e3sm: include D*.raw_nreqs / raw_offsets (dat2nc -r)", 0, 0, 0,
     0},
    CIO_PARAM_END,
};

const char decomp_builtin_name[] = "<built-in parameters>";
/* It sets nothing (decomp's default is BLOCK): a key set here would count as
 * given wherever it is copied, as into a sweep's parameter file, and there
 * clash with --pioperf, which owns decomp. */
const char decomp_builtin_text[] =
    "! no parameter file given: pioperf's BLOCK map, 1024 doubles per rank, 10 variables (the defaults)\n";

/* A relative map path given in a parameter file that is not found from the
 * current folder is looked up beside that file (how sweeps and shipped inputs
 * name their maps). */
static const char *beside_param_file(const char *path, const char *origin)
{
    static char buf[4096];
    const char *colon = strrchr(origin, ':');
    if (path[0] == '/' || access(path, F_OK) == 0 || !colon) return path;
    const char *slash = NULL;
    for (const char *q = origin; q < colon; q++)
        if (*q == '/') slash = q;
    if (!slash) return path;
    snprintf(buf, sizeof buf, "%.*s/%s", (int)(slash - origin), origin, path);
    return access(buf, F_OK) == 0 ? buf : path;
}

/* The names var_names gives must be usable as they stand: not longer than a
 * variable's name may be here (they would be cut, and two could become one), each
 * once, and none another variable's: rundate, or the default name (vard0003, ...)
 * of a variable the list does not name. */
static int check_var_names(const decomp_cfg *c, int64_t n, const char *origin, cio_err *e)
{
    const char *prefix = c->type == CIO_DOUBLE ? "vard" : c->type == CIO_FLOAT ? "varr" : "vari";
    const char *q = c->var_names;
    for (int64_t i = 1; i <= n; i++) {
        size_t len = strcspn(q, ",");
        char name[DECOMP_VAR_NAME_MAX + 1];
        if (len > DECOMP_VAR_NAME_MAX)
            return cio_seterr(e, "%s: var_names: name %lld (\"%.*s...\") has %zu characters: at most %d", origin,
                              (long long)i, 20, q, len, DECOMP_VAR_NAME_MAX);
        snprintf(name, sizeof name, "%.*s", (int)len, q);
        for (const char *r = c->var_names; r < q; r += strcspn(r, ",") + 1)
            if (strcspn(r, ",") == len && strncmp(r, q, len) == 0)
                return cio_seterr(e, "%s: var_names names %s twice: each variable needs its own name", origin, name);
        /* the file's own names: its record dimension, pioperf's date variable, its
         * map dimensions (dim000001, D2.dim000001, ...) */
        static const char *const taken[] = {"time", "rundate", NULL};
        char what[600];
        snprintf(what, sizeof what, "%s: var_names: name %lld", origin, (long long)i);
        if (cio_check_name_free(name, taken, what, e) != 0) return -1;
        const char *dim = name[0] == 'D' && strchr(name, '.') ? strchr(name, '.') + 1 : name;
        if (strncmp(dim, "dim", 3) == 0 && strlen(dim) == 9 && strspn(dim + 3, "0123456789") == 6)
            return cio_seterr(e, "%s: \"%s\" is the name of one of the file's map dimensions: choose another name",
                              what, name);
        if (strncmp(name, prefix, 4) == 0 && strlen(name) == 8 && strspn(name + 4, "0123456789") == 4) {
            long long v = atoll(name + 4);
            if (v > n && v <= c->nvars)
                return cio_seterr(e, "%s: var_names: %s is the name variable %lld takes (var_names names only %lld of "
                                     "the %lld): choose another name, or name that variable too", origin, name, v,
                                  (long long)n, (long long)c->nvars);
        }
        q += len + 1;
    }
    return 0;
}

static const char *const pattern_names[] = {"iotype", "e3sm", "varn_all", "vara_per_region"};

const char *decomp_call_pattern_name(decomp_call_pattern cp) { return pattern_names[cp]; }

/* The pattern's own mode (nonblocking_collective: e3sm, vara_per_region;
 * blocking_collective: varn_all), which runs whatever iotype was asked (the
 * cause says so); iotype has none (returns 0). */
static int pattern_mode(decomp_call_pattern cp, cio_mode *m)
{
    if (cp == DECOMP_CALLS_IOTYPE) return 0;
    *m = cp == DECOMP_CALLS_VARN_ALL ? CIO_MODE_BLOCKING_COLLECTIVE : CIO_MODE_NONBLOCKING_COLLECTIVE;
    return 1;
}

decomp_run_kind decomp_run_kind_of(const cio_params *p)
{
    if (strcmp(cio_param_str(p, "make_decomp"), "none") != 0) return DECOMP_RUN_GENERATOR;
    return cio_param_str(p, "pioperf") ? DECOMP_RUN_PIOPERF : DECOMP_RUN_REPLAY;
}

int decomp_call_pattern_of(const cio_params *p, decomp_call_pattern *cp)
{
    const char *v = cio_param_str(p, "call_pattern");
    cio_mode asked = CIO_MODE_NONBLOCKING_COLLECTIVE;
    int iotype_set = cio_params_is_set(p, "iotype");
    if (iotype_set) cio_mode_from_name(cio_param_str(p, "iotype"), &asked);
    *cp = DECOMP_CALLS_IOTYPE;
    if (cio_param_str(p, "pioperf")) return 0;   /* pioperf's experiment makes the engine's calls for the iotype */
    if (!strcmp(v, "auto")) {
        /* E3SM-IO's calls for its case files, unless the iotype asks another mode */
        if (strcmp(cio_param_str(p, "e3sm_case"), "none") != 0 && asked == CIO_MODE_NONBLOCKING_COLLECTIVE)
            *cp = DECOMP_CALLS_E3SM;
        return 0;
    }
    for (int i = 0; i < 4; i++)
        if (!strcmp(v, pattern_names[i])) *cp = (decomp_call_pattern)i;
    return 0;
}

const char *decomp_iotype_rule(const cio_params *p, const cio_driver *d, cio_mode iotype, cio_mode *mode)
{
    decomp_call_pattern cp;
    cio_mode own;
    (void)iotype;
    if (decomp_call_pattern_of(p, &cp) != 0 || !pattern_mode(cp, &own) || own == *mode ||
        !(d->modes & CIO_MODE_BIT(own)))
        return NULL;
    *mode = own;
    return "decomp_call_pattern";
}

static void load_plain(decomp_cfg *cfg, const cio_params *prm) { DECOMP_PLAIN_PARAMS(CIO_PLAIN_LOAD) }

int decomp_config_load(decomp_cfg *c, const cio_params *p, cio_err *e)
{
    memset(c, 0, sizeof *c);
    load_plain(c, p);
    c->decomp = cio_param_str(p, "decomp");
    c->decomp_origin = cio_param_origin(p, "decomp");
    if (cio_strcaseeq(c->decomp, "BLOCK")) c->source = DECOMP_BLOCK;
    else if (cio_strcaseeq(c->decomp, "ROUNDROBIN")) c->source = DECOMP_ROUNDROBIN;
    else {
        c->source = DECOMP_FILE;
        c->decomp = beside_param_file(c->decomp, c->decomp_origin);
        char src[600];
        snprintf(src, sizeof src, "decomp (%s)", c->decomp_origin);
        cio_inputs_add(c->decomp, src, CIO_INPUT_READ);
    }
    if (!c->decomp[0]) return cio_seterr(e, "%s: decomp is empty: give a map file, BLOCK or ROUNDROBIN", c->decomp_origin);
    if (dmap_format_from_name(cio_param_str(p, "decomp_format"), &c->opts.format) != 0)
        return cio_seterr(e, "%s: unknown decomp_format", cio_param_origin(p, "decomp_format"));
    c->opts.text_c_order = cio_strcaseeq(cio_param_str(p, "decomp_order"), "c");
    c->opts.e3sm_fill = cio_param_bool(p, "e3sm_fill");
    c->opts.e3sm_shifted = cio_param_bool(p, "e3sm_shifted");
    if (c->opts.e3sm_fill && c->opts.e3sm_shifted)
        return cio_seterr(e, "%s: e3sm_shifted is how e3sm_io reads without -u (fill mode); e3sm_fill is -u: choose one",
                          cio_param_origin(p, "e3sm_shifted"));
    if (cio_type_from_name(cio_param_str(p, "var_type"), &c->type) != 0)
        return cio_seterr(e, "%s: unknown var_type", cio_param_origin(p, "var_type"));
    const char *fh = cio_param_str(p, "fill_holes");
    c->fill_holes = cio_strcaseeq(fh, "true") ? 1 : cio_strcaseeq(fh, "false") ? 0 : -1;   /* -1: by the map's format */
    c->gatts = 1;
    c->pio_values = cio_param_bool(p, "pio_values");
    if (c->pio_values && cio_param_isset(p, "data") && strcmp(cio_param_str(p, "data"), "pattern") != 0)
        return cio_seterr(e, "%s: pio_values writes pioperf's values; data %s asks for others: choose one",
                          cio_param_origin(p, "pio_values"), cio_param_str(p, "data"));
    c->var_names = cio_param_str(p, "var_names");
    if (c->var_names) {
        int64_t n = 1;
        for (const char *q = c->var_names; *q; q++) {
            if (*q == ',') n++;
            if (*q == ' ' || *q == '/' || (*q == ',' && (q[1] == ',' || q[1] == 0)) || (q == c->var_names && *q == ','))
                return cio_seterr(e, "%s: var_names \"%s\": expected names separated by commas, without blanks or "
                                     "slashes", cio_param_origin(p, "var_names"), c->var_names);
        }
        if (!c->var_names[0] || n > c->nvars)
            return cio_seterr(e, "%s: var_names names %lld variables, nvars is %lld: give at most nvars names",
                              cio_param_origin(p, "var_names"), (long long)n, (long long)c->nvars);
        if (check_var_names(c, n, cio_param_origin(p, "var_names"), e) != 0) return -1;
    }
    c->blob = cio_strcaseeq(cio_param_str(p, "layout"), "blob");
    if (decomp_call_pattern_of(p, &c->calls) != 0) return -1;
    if (c->calls == DECOMP_CALLS_E3SM && !cio_params_is_set(p, "sorted")) c->sorted = 1;   /* E3SM-IO sorts its requests */
    const char *ec = cio_param_str(p, "e3sm_case");
    c->e3sm_case = cio_strcaseeq(ec, "none") ? 0 : cio_strcaseeq(ec, "auto") ? 'A' : (char)(ec[0] & ~0x20);
    if (c->e3sm_case && c->type != CIO_DOUBLE && c->type != CIO_FLOAT)
        return cio_seterr(e, "%s: var_type %s: E3SM-IO's cases write double, or float (e3sm_io -j); use one of them",
                          cio_param_origin(p, "var_type"), cio_type_name(c->type));
    /* the names are for the canonical layout's nvars variables: the others name theirs */
    if (c->var_names && (c->e3sm_case || c->blob))
        return cio_seterr(e, "%s: var_names names the canonical layout's variables; %s writes its own generic names: "
                             "drop var_names", cio_param_origin(p, "var_names"),
                          c->e3sm_case ? "e3sm_case" : "layout blob");
    char origin[600];
    if (cio_output_folder_resolve(p, &decomp_output_folder, &c->outdir, origin, sizeof origin, e) != 0) return -1;
    c->file = cio_param_str(p, "file");
    char what[600];
    snprintf(what, sizeof what, "%s: file", cio_param_origin(p, "file"));
    if (cio_check_name(c->file, CIO_NAME_FILE, what, e) != 0) return -1;
    /* a driver without a text type (no_char) writes no rundate */
    const char *drv = cio_param_str(p, "driver");
    const cio_driver *d = drv ? cio_driver_find(drv) : cio_drivers[0];
    c->rundate = !(d && d->no_char);
    return 0;
}

void decomp_ideal(const decomp_cfg *c, int rank, int nranks, dmap_loaded *out)
{
    memset(out, 0, sizeof *out);
    out->format = DMAP_AUTO;
    out->ndecomps = 1;
    out->ntasks = nranks;
    out->desc[0].ndims = 1;
    out->desc[0].dims[0] = (int64_t)nranks * c->varsize;
    dmap_part *p = &out->part[0];
    dmap_part_init(p, rank, 1);
    if (c->source == DECOMP_BLOCK) dmap_part_add_run(p, rank, (int64_t)rank * c->varsize, c->varsize);
    else
        for (int64_t i = 0; i < c->varsize; i++) dmap_part_add(p, rank, i * nranks + rank);
}

/* PIO's SUBSET fill: I/O task i of T writes the unheld elements of its slice of
 * the array (PIO's subset_rearrange_create: total / T elements each, one more
 * for each of the last total mod T tasks) as regions of their own after its data.
 * From every unheld run (all known here), this rank keeps those of the slices its
 * I/O task writes: set i + 1 for slice i, so that an I/O task that writes several
 * tasks' regions (the serial iotypes) keeps them apart and after the data. */
static void pio_fill_slices(dmap_part *p, const dmap_desc *d, const cio_agg_cfg *agg, int rank, int nprocs)
{
    int aggregated = agg->io_tasks > 0;
    cio_agg_group *g = aggregated ? cio_agg_group_new(agg, MPI_COMM_NULL, rank, nprocs) : NULL;
    int T = agg->gather_groups > 0 ? agg->gather_groups : g ? g->ntasks : nprocs;
    int64_t total = dmap_desc_elems(d), base = total / T, xtra = total - base * T, n = 0;
    int64_t *st = cio_malloc((size_t)(p->nknown + T + 1) * sizeof *st), *ln = cio_malloc((size_t)(p->nknown + T + 1) * sizeof *ln);
    int *set = cio_malloc((size_t)(p->nknown + T + 1) * sizeof *set);
    for (int i = 0, k = 0; i < T; i++) {
        int64_t lo = i * base + (i > T - xtra ? i - (T - xtra) : 0), hi = lo + base + (i >= T - xtra);
        /* serial: I/O task 0 writes every slice; otherwise I/O task i (every rank, without aggregation) */
        int holder = agg->gather_groups > 0 ? g->task_rank[0] : g ? g->task_rank[i] : i;
        while (k > 0 && p->known_start[k - 1] + p->known_len[k - 1] > lo) k--;
        for (; k < p->nknown && p->known_start[k] < hi; k++) {
            int64_t a = p->known_start[k] > lo ? p->known_start[k] : lo;
            int64_t b = p->known_start[k] + p->known_len[k] < hi ? p->known_start[k] + p->known_len[k] : hi;
            if (b > a && holder == rank) {
                st[n] = a, ln[n] = b - a, set[n] = aggregated ? i + 1 : 0;
                n++;
            }
        }
    }
    cio_free(p->unheld_start);
    cio_free(p->unheld_len);
    cio_free(p->unheld_set);
    p->unheld_start = st;
    p->unheld_len = ln;
    p->unheld_set = set;
    p->nunheld = n;
    cio_agg_group_free(g);
}

void decomp_resolve_fill(decomp_cfg *c, dmap_loaded *m, cio_data_kind data, const cio_agg_cfg *agg, int pio_subset,
                         MPI_Comm comm)
{
    int rank, nprocs;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &nprocs);
    c->data = data;
    if (c->fill_holes < 0) c->fill_holes = !(c->source == DECOMP_FILE && m->format == DMAP_E3SM);
    if (c->blob) c->fill_holes = 0;   /* the blob layout writes each rank's own elements only */
    /* PIO's SUBSET: through I/O tasks, or (pioperf, ntasks = ranks) each rank its own share as an I/O task */
    pio_subset = agg->rearranger == CIO_REARR_SUBSET && (agg->io_tasks > 0 || pio_subset);
    for (int k = 0; k < m->ndecomps; k++) {
        m->part[k].pio_regions = pio_subset && agg->io_tasks <= 0 && c->sorted;   /* PIO sorts */
        if (!c->fill_holes) continue;
        dmap_find_unheld(&m->part[k], &m->desc[k], comm, agg->io_tasks > 0 || pio_subset);
        if (pio_subset) pio_fill_slices(&m->part[k], &m->desc[k], agg, rank, nprocs);
    }
}

/* E3SM-IO's cases (docs/variables.md): variables per decomposition D1.. and not
 * partitioned, per history file.  F h0 and I h1 hold one record, the others
 * `records`; G is double whatever var_type says. */
int decomp_files(const decomp_cfg *c, const dmap_desc *desc, int ndecomps, decomp_file *f, cio_err *e)
{
    memset(f, 0, 2 * sizeof *f);
    /* the canonical layout's variables are (time, the map's dimensions) */
    for (int k = 0; k < ndecomps && !c->blob; k++)
        if (desc[k].ndims > CIO_MAX_DIMS - 1)
            return cio_seterr(e, "%s: decomposition D%d has %d dimensions: a replayed variable adds the record "
                                 "dimension (time) and holds at most %d, so maps of up to %d dimensions replay "
                                 "(--layout blob writes each as one dimension)", c->decomp, k + 1, desc[k].ndims,
                              CIO_MAX_DIMS, CIO_MAX_DIMS - 1);
    if (!c->e3sm_case) {
        for (int k = 0; k < ndecomps; k++) f[0].nvars[k] = c->nvars;
        f[0].records = c->records;
        f[0].type = c->type;
        return 1;
    }
    char cs = c->e3sm_case;
    if (cs == 'A') cs = ndecomps == 3 ? 'F' : ndecomps == 6 ? 'G' : ndecomps == 5 ? 'I' : 0;
    int want = cs == 'F' ? 3 : cs == 'G' ? 6 : cs == 'I' ? 5 : 0;
    if (!cs)
        return cio_seterr(e, "%s: e3sm_case auto picks E3SM-IO's case from the number of decompositions (F 3, G 6, "
                             "I 5); %s has %d", c->decomp, c->decomp, ndecomps);
    if (ndecomps != want)
        return cio_seterr(e, "%s: e3sm_case %c needs an E3SM-IO map with %d decompositions (F 3, G 6, I 5); %s has %d",
                          c->decomp, cs, want, c->decomp, ndecomps);
    static const int64_t F[2][4] = {{1, 323, 63, 27}, {1, 22, 1, 27}};
    static const int64_t G[7] = {6, 2, 25, 2, 2, 4, 11};
    static const int64_t I[2][6] = {{465, 75, 4, 1, 1, 14}, {465, 69, 2, 1, 1, 14}};
    int n = cs == 'G' ? 1 : 2;
    for (int h = 0; h < n; h++) {
        const int64_t *t = cs == 'F' ? F[h] : cs == 'G' ? G : I[h];
        for (int k = 0; k < want; k++) f[h].nvars[k] = t[k];
        f[h].nonpart = t[want];
        f[h].records = (cs == 'F' && h == 0) || (cs == 'I' && h == 1) ? 1 : c->records;
        f[h].type = cs == 'G' ? CIO_DOUBLE : c->type;
        f[h].ecase = cs;
        if (n == 2) snprintf(f[h].suffix, sizeof f[h].suffix, "_h%d", h);
    }
    return n;
}
