/* decomp_io's rows of the applicability table (app/applicability.h): the
 * settings that do nothing in the generator (--make_decomp), in pioperf's
 * experiment (--pioperf), or in a replay of a map of some format; said once each
 * and recorded for the JSON's not_applied, as the suite's own. */
#include "config.h"
#include "decomp_kernel.h"

#include <stdio.h>
#include <string.h>

static const decomp_kernel *kernel_of(const void *kctx) { return kctx; }
static int generating(const cio_app *a) { return decomp_run_kind_of(a->params) == DECOMP_RUN_GENERATOR; }
static int experiment(const cio_app *a) { return decomp_run_kind_of(a->params) == DECOMP_RUN_PIOPERF; }
static int replaying(const cio_app *a, const void *kctx) { return kctx && !generating(a) && !experiment(a); }
static int is_gen_key(const char *key) { return !strncmp(key, "gen_", 4); }

/* ---------------------------------------------------------------- the generator */
/* The keys the generator reads for --make_decomp KIND. */
static int generator_reads(const cio_params *p, const char *key)
{
    const char *kind = cio_param_str(p, "make_decomp");
    static const char *const always[] = {"make_decomp", "gen_out", "gen_format", "quiet", NULL};
    static const struct {
        const char *kind, *keys;
    } by_kind[] = {
        {"block", " gen_tasks gen_dims "}, {"roundrobin", " gen_tasks gen_dims "},
        {"random", " gen_tasks gen_dims gen_seed "}, {"holes", " gen_tasks gen_dims gen_hole_every "},
        {"cubed_sphere", " gen_tasks gen_ne gen_nlev "}, {"mom", " gen_tasks gen_ni gen_nj gen_nk "},
        {"gcrm", " gen_tasks gen_level gen_nlev "},
        {"convert", " decomp decomp_format decomp_order e3sm_fill e3sm_shifted "},
    };
    for (int i = 0; always[i]; i++)
        if (!strcmp(key, always[i])) return 1;
    if (!strcmp(key, "gen_raw")) return cio_strcaseeq(cio_param_str(p, "gen_format"), "e3sm");
    char padded[80];
    snprintf(padded, sizeof padded, " %s ", key);
    for (size_t i = 0; i < sizeof by_kind / sizeof by_kind[0]; i++)
        if (cio_strcaseeq(kind, by_kind[i].kind)) return strstr(by_kind[i].keys, padded) != NULL;
    return 0;
}

/* every key the generator may leave unread: not its own, nor those that end the
 * program before any mode (--help, ...) */
static int any_key(const cio_params *p, const char *key)
{
    static const char *const never[] = {"make_decomp", "gen_out", "gen_format", "quiet", "help", "version",
                                        "print_params", NULL};
    (void)p;
    for (int i = 0; never[i]; i++)
        if (!strcmp(key, never[i])) return 0;
    return 1;
}

static int generator_holds(const cio_app *a, const void *kctx, const cio_applicability *row, const char *key,
                           char *why, size_t n)
{
    (void)kctx, (void)row;
    if (!generating(a) || generator_reads(a->params, key)) return 0;
    const char *kind = cio_param_str(a->params, "make_decomp");
    if (is_gen_key(key))
        snprintf(why, n, ": --make_decomp %s does not use it%s", kind,
                 !strcmp(key, "gen_raw") ? " (it is for --gen_format e3sm)" : "");
    else if (!strcmp(key, "decomp"))
        snprintf(why, n, ": --make_decomp %s generates its map (only --make_decomp convert reads one)", kind);
    else
        snprintf(why, n, ": --make_decomp writes a map file and exits: no benchmark file, report or JSON");
    return 1;
}
static const cio_applies_mode generator = {"the generator (--make_decomp), for what its kind does not read",
                                           CIO_APPLIES_AT_SETUP, 0, generator_holds,
                                           "--make_decomp block --gen_dims 4,6 --gen_out g.dat"};

static int gen_key(const cio_params *p, const char *key)
{
    (void)p;
    return is_gen_key(key);
}
static int no_generator_holds(const cio_app *a, const void *kctx, const cio_applicability *row, const char *key,
                              char *why, size_t n)
{
    (void)kctx, (void)row, (void)key;
    if (generating(a)) return 0;
    snprintf(why, n, ": it is a setting of --make_decomp, which this run does not use");
    return 1;
}
static const cio_applies_mode no_generator = {"a run that generates no map", CIO_APPLIES_AT_SETUP, 0,
                                              no_generator_holds, "--decomp m.dat|--pioperf p.nl"};

/* ---------------------------------------------------------------- pioperf's experiment */
static int experiment_holds(const cio_app *a, const void *kctx, const cio_applicability *row, const char *key,
                            char *why, size_t n)
{
    (void)kctx, (void)row, (void)key;
    if (generating(a) || !experiment(a)) return 0;
    snprintf(why, n, ": --pioperf writes pioperf's files, not a replay's");
    return 1;
}
static const cio_applies_mode in_experiment = {"pioperf's experiment (--pioperf)", CIO_APPLIES_AT_SETUP, 0,
                                               experiment_holds, "--pioperf p.nl|--decomp f.nc"};

static int no_experiment_holds(const cio_app *a, const void *kctx, const cio_applicability *row, const char *key,
                               char *why, size_t n)
{
    (void)row, (void)key;
    if (!replaying(a, kctx)) return 0;
    snprintf(why, n, ": it is a setting of --pioperf's experiment");
    return 1;
}
static const cio_applies_mode no_experiment = {"a replay (no --pioperf)", CIO_APPLIES_AT_SETUP, 0,
                                               no_experiment_holds, "--decomp m.dat|--pioperf p.nl"};

/* ---------------------------------------------------------------- a replay */
static int e3sm_case_holds(const cio_app *a, const void *kctx, const cio_applicability *row, const char *key,
                           char *why, size_t n)
{
    (void)row, (void)key;
    if (!replaying(a, kctx) || !kernel_of(kctx)->c.e3sm_case) return 0;
    snprintf(why, n, ": E3SM-IO's case files (e3sm_case %s) have the case's own variables on each decomposition",
             cio_param_str(a->params, "e3sm_case"));
    return 1;
}
static const cio_applies_mode e3sm_case = {"a replay of an E3SM-IO case (--e3sm_case)", CIO_APPLIES_AT_SETUP, 0,
                                           e3sm_case_holds, "--decomp f.nc --e3sm_case F|--decomp f.nc"};

/* E3SM-IO's G case writes double whatever var_type says (e3sm_io -j makes F and I float). */
static int e3sm_g_holds(const cio_app *a, const void *kctx, const cio_applicability *row, const char *key, char *why,
                        size_t n)
{
    (void)row, (void)key;
    const decomp_kernel *k = kernel_of(kctx);
    if (!replaying(a, kctx) || !k->c.e3sm_case || k->nfiles < 1 || k->files[0].ecase != 'G') return 0;
    snprintf(why, n, ": E3SM-IO's G case writes its variables as double whatever var_type says");
    return 1;
}
static const cio_applies_mode e3sm_g = {"a replay of E3SM-IO's G case", CIO_APPLIES_AT_INPUTS, 0, e3sm_g_holds,
                                        "--decomp gcase.nc --e3sm_case G|--decomp f.nc --e3sm_case F"};

static int blob_holds(const cio_app *a, const void *kctx, const cio_applicability *row, const char *key, char *why,
                      size_t n)
{
    (void)row, (void)key;
    if (!replaying(a, kctx) || !kernel_of(kctx)->c.blob) return 0;
    snprintf(why, n, ": the blob layout writes each rank's own elements, one block a rank: no element lies outside "
             "the blobs");
    return 1;
}
static const cio_applies_mode blob = {"the blob layout (--layout blob)", CIO_APPLIES_AT_SETUP, 0, blob_holds,
                                      "--decomp f.nc --layout blob|--decomp h.dat"};

static int integer_holds(const cio_app *a, const void *kctx, const cio_applicability *row, const char *key,
                         char *why, size_t n)
{
    (void)row, (void)key;
    const decomp_cfg *c = kctx ? &kernel_of(kctx)->c : NULL;
    if (!replaying(a, kctx) || c->type == CIO_FLOAT || c->type == CIO_DOUBLE || c->e3sm_case) return 0;
    snprintf(why, n, ": it applies to float and double variables, and var_type is %s",
             cio_param_str(a->params, "var_type"));
    return 1;
}
static const cio_applies_mode integer = {"a replay of integer variables (--var_type)", CIO_APPLIES_AT_SETUP, 0,
                                         integer_holds, "--decomp m.dat --var_type int|--decomp m.dat --var_type float"};

/* E3SM-IO's calls through a driver without PnetCDF's iput_varn: each region its own call. */
static int no_varn_holds(const cio_app *a, const void *kctx, const cio_applicability *row, const char *key, char *why,
                         size_t n)
{
    (void)row, (void)key;
    const decomp_cfg *c = kctx ? &kernel_of(kctx)->c : NULL;
    const cio_driver *d = a->ecfg.drv;
    if (!replaying(a, kctx) || !d || c->calls != DECOMP_CALLS_E3SM || c->blob || d->posts_varn) return 0;
    snprintf(why, n, ": the %s driver has no call that writes several regions of a variable at once (PnetCDF's "
             "iput_varn): each region is its own call", d->name);
    return 1;
}
static const cio_applies_mode no_varn = {"a driver without PnetCDF's iput_varn", CIO_APPLIES_AT_SETUP, 1,
                                         no_varn_holds, "driver"};

/* Map-format options the map's format does not read, told once the map is read. */
static int map_not(const cio_app *a, const void *kctx, dmap_format f, const char *what, char *why, size_t n)
{
    const decomp_kernel *k = kernel_of(kctx);
    if (!replaying(a, kctx) || k->c.source != DECOMP_FILE || k->map_format == DMAP_AUTO || k->map_format == f)
        return 0;
    snprintf(why, n, ": %s is a %s map, %s", k->c.decomp, dmap_format_name(k->map_format), what);
    return 1;
}
static int not_e3sm_holds(const cio_app *a, const void *kctx, const cio_applicability *row, const char *key, char *why,
                          size_t n)
{
    (void)row, (void)key;
    return map_not(a, kctx, DMAP_E3SM, "not an E3SM-IO one", why, n);
}
static int not_pio_text_holds(const cio_app *a, const void *kctx, const cio_applicability *row, const char *key,
                              char *why, size_t n)
{
    (void)row, (void)key;
    return map_not(a, kctx, DMAP_PIO_TEXT, "which says its own order (decomp_order is for PIO text maps)", why, n);
}
/* e3sm_shifted reads each task's requests past the fill pairs of the tasks before it. */
static int no_fill_pairs_holds(const cio_app *a, const void *kctx, const cio_applicability *row, const char *key,
                               char *why, size_t n)
{
    (void)row, (void)key;
    const decomp_kernel *k = kernel_of(kctx);
    if (!replaying(a, kctx) || k->map_format != DMAP_E3SM || k->fill_pairs) return 0;
    snprintf(why, n, ": %s has no fill pairs (every task's fill_starts is its nreqs)", k->c.decomp);
    return 1;
}
static const cio_applies_mode no_fill_pairs = {"an E3SM-IO map without fill pairs", CIO_APPLIES_AT_INPUTS, 0,
                                               no_fill_pairs_holds, "--decomp f.nc"};
static const cio_applies_mode not_e3sm = {"a map that is not E3SM-IO's", CIO_APPLIES_AT_INPUTS, 0, not_e3sm_holds,
                                          "--decomp m.dat|--decomp f.nc"};
static const cio_applies_mode not_pio_text = {"a map that is not a PIO text one", CIO_APPLIES_AT_INPUTS, 0,
                                              not_pio_text_holds, "--decomp f.nc|--decomp m.dat"};

/* the generator's first: outside the map it writes, nothing applies */
const cio_applicability decomp_applicability[] = {
    {0, any_key, &generator, 0, 0, 0, 0, 0},
    {0, gen_key, &no_generator, 0, 0, 0, 0, 0},
    {"e3sm_case", 0, &in_experiment, 0, 0, 0, "F", 0},
    {"layout", 0, &in_experiment, 0, 0, 0, "blob", 0},
    {"call_pattern", 0, &in_experiment, 0, 0, 0, "varn_all", 0},
    {"pioperf_read", 0, &no_experiment, 0, 0, 0, "true", 0},
    {"nvars", 0, &e3sm_case, 0, 0, 0, "3", 0},
    {"var_type", 0, &e3sm_g, 0, 0, 0, "float", 0},
    {"fill_holes", 0, &blob, 0, 0, 0, "false", 0},
    {"quantize", 0, &integer, 0, "none", 0, "bitround:3", 0},
    {"call_pattern", 0, &no_varn, 0, 0, "e3sm", "e3sm", "--decomp m.dat"},
    {"e3sm_fill", 0, &not_e3sm, 0, 0, 0, "true", 0},
    {"e3sm_shifted", 0, &not_e3sm, 0, 0, 0, "true", 0},
    {"e3sm_shifted", 0, &no_fill_pairs, 0, 0, 0, "true", 0},
    {"decomp_order", 0, &not_pio_text, 0, 0, 0, "c", 0},
    CIO_APPLICABILITY_END,
};
