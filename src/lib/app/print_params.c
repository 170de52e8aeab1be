#include "config.h"
#include "app/print_params.h"
#include "drivers/driver.h"
#include "base/json.h"
#include "app/settings.h"
#include "app/iotype_effective.h"
#include "drivers/compress.h"

#include <stdlib.h>
#include <string.h>

static const char *type_name(cio_ptype t)
{
    switch (t) {
    case CIO_P_INT: return "int";
    case CIO_P_DOUBLE: return "number";
    case CIO_P_BOOL: return "bool";
    case CIO_P_CHOICE: return "choice";
    case CIO_P_SIZE: return "size";
    case CIO_P_ALIAS: return "alias";
    default: return "string";
    }
}

/* The key an option given on the command line sets: an alias's target. */
static const char *canonical(const cio_params *p, const char *key)
{
    for (int i = 0; i < cio_params_count(p); i++) {
        const cio_param_spec *s = cio_params_spec_at(p, i);
        if (strcmp(s->key, key) == 0) return s->type == CIO_P_ALIAS ? s->def : key;
    }
    return key;
}

static void print_parameters(cio_json *j, const cio_params *p)
{
    cio_json_obj(j, "parameters");
    for (int i = 0; i < cio_params_count(p); i++) {
        const cio_param_spec *s = cio_params_spec_at(p, i);
        cio_json_obj(j, s->key);
        cio_json_str(j, "type", type_name(s->type));
        if (s->type == CIO_P_CHOICE) cio_json_str(j, "choices", s->choices);
        if (s->type == CIO_P_ALIAS) cio_json_str(j, "alias_of", s->def);
        cio_json_str(j, "value", cio_params_value_at(p, i));
        cio_json_str(j, "origin", cio_params_origin_at(p, i));
        cio_json_bool(j, "set", cio_params_isset_at(p, i));
        cio_json_bool(j, "command_line_only", (s->flags & CIO_PF_CMDLINE) != 0);
        cio_json_bool(j, "ignored", (s->flags & CIO_PF_IGNORED) != 0);
        cio_json_obj_end(j);
    }
    cio_json_obj_end(j);
    /* the command-line options in the order given, by the names the kernel knows them */
    cio_json_arr(j, "command_line");
    for (int i = 0; i < cio_params_cmdline_count(p); i++) {
        cio_json_obj(j, NULL);
        cio_json_str(j, "key", canonical(p, cio_params_cmdline_key(p, i)));
        cio_json_str(j, "value", cio_params_cmdline_value(p, i));
        cio_json_obj_end(j);
    }
    cio_json_arr_end(j);
}

static void print_drivers(cio_json *j)
{
    cio_json_obj(j, "drivers");
    for (int d = 0; cio_drivers[d]; d++) {
        const cio_driver *drv = cio_drivers[d];
        cio_json_obj(j, drv->name);
        cio_json_arr(j, "iotypes");
        for (int m = 0; m < CIO_NMODES; m++)
            if (drv->modes & CIO_MODE_BIT(m)) cio_json_str(j, NULL, cio_mode_name((cio_mode)m));
        cio_json_arr_end(j);
        cio_json_arr(j, "formats");
        for (int f = 0; f < CIO_NFORMATS; f++)
            if (drv->formats & CIO_FMT_BIT(f)) cio_json_str(j, NULL, cio_format_name((cio_format)f));
        cio_json_arr_end(j);
        cio_json_obj_end(j);
    }
    cio_json_obj_end(j);
}

/* The driver x iotype x format check and the mode that runs, as the run makes
 * them (the same functions), from what the parameters alone decide: what the
 * kernel asks of the settings from its inputs or its ranks (its setup step) only
 * a run or a dry run knows. */
static int resolve_io(const cio_params *p, const char *kernel, const cio_kernel_facts *f, int chosen, cio_settings *s, cio_mode *mode,
                      const char **cause, cio_err *e)
{
    cio_kernel_asks k = {.kernel = kernel, .kernel_format = CIO_FMT_NONE};
    if (f->asks) f->asks(p, &k);
    char note[512];
    if (cio_settings_driver(p, &k, s, e) || cio_settings_iotype(p, chosen, s, note, sizeof note, e) ||
        cio_settings_format(p, &k, s, e) || cio_settings_serial(p, &k, s, e) || cio_settings_deflate(p, &k, s, e) ||
        cio_settings_shuffle(p, &k, s, e) || cio_settings_hints(p, &k, s, e) || cio_settings_data(p, s, e))
        return -1;
    cio_driver_opts o = {.format = s->format, .deflate = s->deflate, .shuffle = s->shuffle, .serial = s->serial};
    if (cio_iotype_effective(p, s, f->iotype_rule, &o, mode, cause, note, sizeof note, e) != 0) return -1;
    return cio_compress_refuse_szip(p, s->driver, &o, s->data == CIO_DATA_PATTERN && !k.data_from_input, e);
}

static void print_io(cio_json *j, const cio_params *p, const char *kernel, int param_file_given,
                     const cio_kernel_facts *f)
{
    cio_settings s = {0};
    cio_err e = {0};
    cio_mode mode = CIO_MODE_BLOCKING_COLLECTIVE;
    const char *cause = NULL;
    int refused = resolve_io(p, kernel, f, cio_settings_iotype_chosen(p, param_file_given), &s, &mode, &cause, &e) != 0;
    cio_json_obj(j, "io");
    if (refused) {
        cio_json_null(j, "driver");
        cio_json_str(j, "refused", e.msg);
    } else {
        cio_json_str(j, "driver", s.driver->name);
        cio_json_str(j, "iotype", cio_mode_name(s.iotype));
        cio_json_str(j, "iotype_effective", cio_mode_name(mode));
        if (cause) cio_json_str(j, "iotype_cause", cause);
        else cio_json_null(j, "iotype_cause");
        cio_json_str(j, "format", cio_format_name(s.format));
        cio_json_null(j, "refused");
    }
    cio_json_obj_end(j);
    cio_settings_free(&s);
}

static void print_output_folder(cio_json *j, const cio_params *p, const cio_output_folder *f)
{
    if (!f) {
        cio_json_null(j, "output_folder");
        return;
    }
    cio_json_obj(j, "output_folder");
    cio_json_str(j, "key", "output_dir");
    cio_json_arr(j, "names");
    cio_json_str(j, NULL, "output_dir");
    for (int i = 0; i < cio_params_count(p); i++) {
        const cio_param_spec *s = cio_params_spec_at(p, i);
        if (s->type == CIO_P_ALIAS && strcmp(s->def, "output_dir") == 0) cio_json_str(j, NULL, s->key);
    }
    cio_json_arr_end(j);
    cio_json_str(j, "default", f->def);
    cio_json_arr(j, "env");
    if (f->env) cio_json_str(j, NULL, f->env);
    cio_json_arr_end(j);
    cio_json_obj_end(j);
}

/* A value that shows a key of a family acting (the walk's probe): a switch
 * turned over, another choice, another number. */
static void family_probe(const cio_param_spec *s, char *buf, size_t n)
{
    const char *def = s->def ? s->def : "";
    if (s->type == CIO_P_BOOL) {
        snprintf(buf, n, "%s", strcmp(def, "true") == 0 ? "false" : "true");
    } else if (s->type == CIO_P_CHOICE) {
        const char *c = s->choices, *bar;
        for (;; c = bar + 1) {
            bar = strchr(c, '|');
            size_t l = bar ? (size_t)(bar - c) : strlen(c);
            if (l != strlen(def) || strncmp(c, def, l) != 0 || !bar) {
                snprintf(buf, n, "%.*s", (int)l, c);
                return;
            }
        }
    } else if (s->type == CIO_P_INT || s->type == CIO_P_SIZE || s->type == CIO_P_DOUBLE) {
        double d = atof(def), v = d + 1;      /* one more, inside the bounds */
        if (s->min < s->max && (v > s->max || v < s->min)) v = d - 1 >= s->min ? d - 1 : s->min;
        snprintf(buf, n, "%.0f", v);
    } else {
        snprintf(buf, n, "x");
    }
}

static void print_row(cio_json *j, const cio_applicability *r, const cio_param_spec *s, int own)
{
    char probe[64];
    if (!r->probe) family_probe(s, probe, sizeof probe);
    static const char *const when[] = {"setup", "inputs", "end"};
    cio_json_obj(j, NULL);
    cio_json_str(j, "key", s->key);
    cio_json_str(j, "mode", r->mode->name);
    cio_json_str(j, "when", when[r->mode->when]);
    cio_json_bool(j, "partly", r->mode->partly);
    cio_json_bool(j, "kernel", own);
    cio_json_bool(j, "family", r->key == NULL);
    cio_json_str(j, "inert", r->inert);
    cio_json_str(j, "only", r->only);
    cio_json_str(j, "probe", r->probe ? r->probe : probe);
    cio_json_str(j, "base", r->base);
    cio_json_str(j, "cells", r->mode->cells);
    cio_json_obj_end(j);
}

/* The applicability table's rows for this program's keys, families expanded. */
static void print_applicability(cio_json *j, const cio_params *p, const cio_applicability *const *tables)
{
    cio_json_arr(j, "applicability");
    for (int t = 0; t < 2; t++)
        for (const cio_applicability *r = tables[t]; r && r->mode; r++)
            for (int i = 0; i < cio_params_count(p); i++) {
                const cio_param_spec *s = cio_params_spec_at(p, i);
                if (s->type != CIO_P_ALIAS && (r->key ? strcmp(r->key, s->key) == 0 : r->family(p, s->key)))
                    print_row(j, r, s, t == 1);
            }
    cio_json_arr_end(j);
}

void cio_print_params(FILE *out, const char *kernel, const char *param_file, const cio_params *p,
                      int param_file_given, const cio_kernel_facts *facts)
{
    cio_json j;
    cio_json_begin(&j, out, 1);
    cio_json_obj(&j, NULL);
    cio_json_str(&j, "schema", "climio-params");
    cio_json_int(&j, "schema_version", 1);
    cio_json_str(&j, "kernel", kernel);
    cio_json_str(&j, "parameter_file", param_file);
    print_parameters(&j, p);
    print_drivers(&j);
    print_io(&j, p, kernel, param_file_given, facts);
    print_output_folder(&j, p, facts->output_folder);
    cio_json_str(&j, "no_result", facts->no_result ? facts->no_result(p) : NULL);
    const cio_applicability *const tables[] = {cio_common_applicability, facts->applicability};
    print_applicability(&j, p, tables);
    cio_json_obj_end(&j);
    cio_json_end(&j);
}
