/* The settings that do nothing in a mode of decomp_io (the generator, pioperf's
 * experiment, a replay), said once each as "KEY (origin) has no effect: why" on
 * stderr and recorded for the JSON's not_applied, one function per mode. */
#include "config.h"
#include "decomp.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Record a note; print it now when the run's notes were printed already (or
 * never will be: the generator ends in its setup). */
static void note(cio_app *a, int print, const char *key, const char *fmt, ...) CIO_PRINTF(4, 5);
static void note(cio_app *a, int print, const char *key, const char *fmt, ...)
{
    char why[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    cio_app_note_unused(a, key, "%s (%s) has no effect: %s", key, cio_param_origin(a->params, key), why);
    if (print && a->rank == 0 && !cio_param_bool(a->params, "quiet"))
        fprintf(stderr, "decomp_io: note: %s\n", cio_app_unused_note(a, key));
}

static int is_gen_key(const char *key) { return !strncmp(key, "gen_", 4); }

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

void decomp_notes_make(cio_app *a)
{
    const cio_params *p = a->params;
    const char *kind = cio_param_str(p, "make_decomp");
    for (int i = 0; i < cio_params_count(p); i++) {
        const cio_param_spec *s = cio_params_spec_at(p, i);
        if (s->type == CIO_P_ALIAS || !cio_params_is_set(p, s->key) || generator_reads(p, s->key)) continue;
        if (is_gen_key(s->key))
            note(a, 1, s->key, "--make_decomp %s does not use it%s", kind,
                 !strcmp(s->key, "gen_raw") ? " (it is for --gen_format e3sm)" : "");
        else if (!strcmp(s->key, "decomp"))
            note(a, 1, s->key, "--make_decomp %s generates its map (only --make_decomp convert reads one)", kind);
        else
            note(a, 1, s->key, "--make_decomp writes a map file and exits: no benchmark file, report or JSON");
    }
}

/* The generator's settings outside --make_decomp. */
static void notes_gen_keys(cio_app *a, int print)
{
    const cio_params *p = a->params;
    for (int i = 0; i < cio_params_count(p); i++) {
        const cio_param_spec *s = cio_params_spec_at(p, i);
        if (s->type != CIO_P_ALIAS && is_gen_key(s->key) && cio_params_is_set(p, s->key))
            note(a, print, s->key, "it is a setting of --make_decomp, which this run does not use");
    }
}

/* (printed with the suite's own notes when the experiment sets up its engine) */
void decomp_notes_pioperf(cio_app *a)
{
    notes_gen_keys(a, 0);
    static const char *const replay_only[] = {"e3sm_case", "layout", "var_names", "call_pattern", NULL};
    for (int i = 0; replay_only[i]; i++)
        if (cio_params_is_set(a->params, replay_only[i]))
            note(a, 0, replay_only[i], "--pioperf writes pioperf's files, not a replay's");
}

void decomp_notes_replay(cio_app *a, const decomp_cfg *c, dmap_format fmt, int print)
{
    const cio_params *p = a->params;
    notes_gen_keys(a, print);
    if (cio_params_is_set(p, "pioperf_read"))
        note(a, print, "pioperf_read", "it is a setting of --pioperf's experiment");
    if (c->e3sm_case && cio_params_is_set(p, "nvars"))
        note(a, print, "nvars", "E3SM-IO's case files (e3sm_case %s) have the case's own variables on each "
             "decomposition", cio_param_str(p, "e3sm_case"));
    if (c->blob && cio_params_is_set(p, "fill_holes"))
        note(a, print, "fill_holes", "the blob layout writes each rank's own elements, one block a rank: no element "
             "lies outside the blobs");
    /* map-format options the map's format does not read */
    if (c->source != DECOMP_FILE || fmt == DMAP_AUTO) return;
    if (cio_params_is_set(p, "e3sm_fill") && fmt != DMAP_E3SM)
        note(a, print, "e3sm_fill", "%s is a %s map, not an E3SM-IO one", c->decomp, dmap_format_name(fmt));
    if (cio_params_is_set(p, "e3sm_shifted") && fmt != DMAP_E3SM)
        note(a, print, "e3sm_shifted", "%s is a %s map, not an E3SM-IO one", c->decomp, dmap_format_name(fmt));
    if (cio_params_is_set(p, "decomp_order") && fmt != DMAP_PIO_TEXT)
        note(a, print, "decomp_order", "%s is a %s map, which says its own order (decomp_order is for PIO text maps)",
             c->decomp, dmap_format_name(fmt));
}
