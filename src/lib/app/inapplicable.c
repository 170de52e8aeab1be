/* The settings given that have no effect in this run, or apply only in part:
 * the applicability table's rows (applicability.h), the common ones and the
 * kernel's, asked at each point of the run where their mode can be told; each
 * key said once, one line, and recorded for the JSON (not_applied,
 * partly_applied), so a run is never believed to have used a setting it
 * ignored. */
#include "config.h"
#include "app/app.h"
#include "app/applicability.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static void record(cio_app *a, const char *key, int partly, const char *text)
{
    a->unused = cio_realloc(a->unused, (size_t)(a->nunused + 1) * sizeof *a->unused);
    a->unused[a->nunused].key = cio_strdup(key);
    a->unused[a->nunused].note = cio_strdup(text);
    a->unused[a->nunused].partly = partly;
    a->nunused++;
}

void cio_app_note_unused(cio_app *a, const char *key, const char *fmt, ...)
{
    char text[1000];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    record(a, key, 0, text);
}

static int noted(const cio_app *a, const char *key)
{
    for (int i = 0; i < a->nunused; i++)
        if (strcmp(a->unused[i].key, key) == 0) return 1;
    return 0;
}

static const cio_param_spec *spec_of(const cio_params *p, const char *key)
{
    for (int i = 0; i < cio_params_count(p); i++)
        if (strcmp(cio_params_spec_at(p, i)->key, key) == 0) return cio_params_spec_at(p, i);
    return NULL;
}

/* The value given equals v, compared as the key's type. */
static int value_is(const cio_params *p, const cio_param_spec *s, const char *v)
{
    switch (s->type) {
    case CIO_P_BOOL: return cio_param_bool(p, s->key) == (strcmp(v, "true") == 0);
    case CIO_P_INT:
    case CIO_P_SIZE: return cio_param_int(p, s->key) == strtoll(v, NULL, 10);
    case CIO_P_DOUBLE: return cio_param_double(p, s->key) == strtod(v, NULL);
    default: return cio_param_str(p, s->key) && cio_strcaseeq(cio_param_str(p, s->key), v);
    }
}

/* "deflate 1 (command line)", "shuffle (command line)" for a switch turned on. */
static void key_text(const cio_params *p, const cio_param_spec *s, char *buf, size_t n)
{
    const char *origin = cio_param_origin(p, s->key);
    if (s->type == CIO_P_BOOL && cio_param_bool(p, s->key)) snprintf(buf, n, "%s (%s)", s->key, origin);
    else if (s->type == CIO_P_BOOL) snprintf(buf, n, "%s false (%s)", s->key, origin);
    else snprintf(buf, n, "%s %s (%s)", s->key, cio_param_str(p, s->key), origin);
}

/* Row r for key, if it speaks in this run: recorded, and said at once when say. */
static void ask(cio_app *a, const cio_applicability *r, const char *key, cio_applies_when when)
{
    const cio_params *p = a->params;
    const cio_param_spec *s = spec_of(p, key);
    if (!s || r->mode->when != when || !cio_params_is_set(p, key) || noted(a, key)) return;
    if ((r->inert && value_is(p, s, r->inert)) || (r->only && !value_is(p, s, r->only))) return;
    char why[600], what[300];
    if (!r->mode->holds(a, a->kctx, r, key, why, sizeof why)) return;
    key_text(p, s, what, sizeof what);
    char text[1000];
    snprintf(text, sizeof text, "%s %s%s", what, r->mode->partly ? "applies only in part" : "has no effect", why);
    record(a, key, r->mode->partly, text);
}

static void ask_table(cio_app *a, const cio_applicability *t, cio_applies_when when)
{
    for (; t && t->mode; t++) {
        if (t->key) {
            ask(a, t, t->key, when);
            continue;
        }
        for (int i = 0; i < cio_params_count(a->params); i++) {
            const cio_param_spec *s = cio_params_spec_at(a->params, i);
            if (s->type != CIO_P_ALIAS && t->family(a->params, s->key)) ask(a, t, s->key, when);
        }
    }
}

/* quiet silences the notes when the user set it, not when the program's built-in
 * parameters do for its report (mom_combine --mom5 prints nothing, as mppnccombine,
 * yet says what it leaves unused) */
static int notes_silenced(const cio_app *a)
{
    const char *origin = cio_param_origin(a->params, "quiet");
    size_t l = a->param_file ? strlen(a->param_file) : 0;
    return cio_param_bool(a->params, "quiet") && !(a->param_file_builtin && l && origin && !strncmp(origin, a->param_file, l));
}

void cio_app_notes_at(cio_app *a, cio_applies_when when)
{
    /* the kernel's rows first: a mode of its own (a generator) may leave every setting idle */
    ask_table(a, a->facts.applicability, when);
    ask_table(a, cio_common_applicability, when);
    /* the kernel's own notes (cio_app_note_unused) are said with the first table's */
    if (a->rank == 0 && !notes_silenced(a))
        for (int i = a->nsaid; i < a->nunused; i++) fprintf(stderr, "%s: note: %s\n", a->kernel, a->unused[i].note);
    a->nsaid = a->nunused;
}

const char *cio_app_unused_note(const cio_app *a, const char *key)
{
    for (int i = 0; i < a->nunused; i++)
        if (strcmp(a->unused[i].key, key) == 0 && !a->unused[i].partly) return a->unused[i].note;
    return NULL;
}
