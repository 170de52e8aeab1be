/* CF-valid metadata for gcrm_io's files: see gcrm_cf.h.  The descriptor format
 * is GCRM-IO's, and so are its spellings ("no leap year", "unitless", "square
 * radians", a standard_name of latitude on values in radians, coordinates that
 * live in grid.nc): each is mapped here, not in the descriptor, so GCRM-IO's
 * own descriptor keeps working and a run without cf_metadata keeps GCRM-IO's
 * headers. */
#include "config.h"
#include "gcrm_cf.h"
#include "base/util.h"

#include <string.h>

static const char *text_of(const cio_att *a) { return a->type == CIO_CHAR ? (const char *)a->vals : NULL; }

/* text may point into a->vals (a value rewritten from itself): copy it first */
static void set_text(cio_att *a, const char *text)
{
    char *copy = cio_strdup(text);
    cio_free(a->vals);
    a->type = CIO_CHAR;
    a->len = (int64_t)strlen(copy);
    a->vals = copy;
}

static void rename_att(cio_att *a, const char *name)
{
    cio_free(a->name);
    a->name = cio_strdup(name);
}

static void drop(cio_att *list, int *n, int i)
{
    cio_free(list[i].name);
    cio_free(list[i].vals);
    memmove(&list[i], &list[i + 1], (size_t)(*n - i - 1) * sizeof *list);
    (*n)--;
}

static const cio_att *find(const cio_att *list, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(list[i].name, name) == 0) return &list[i];
    return NULL;
}

/* CF's calendar names (CF 1.8, 4.4.1) for the spellings GIO descriptors use */
static const char *cf_calendar(const char *c)
{
    static const char *const map[][2] = {
        {"no leap year", "noleap"}, {"no_leap", "noleap"}, {"365 day", "365_day"}, {"360 day", "360_day"},
        {"all leap", "all_leap"},   {"366 day", "366_day"}, {"gregorian", "standard"},
    };
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (strcmp(c, map[i][0]) == 0) return map[i][1];
    return c;
}

/* UDUNITS spellings for GIO's unit strings */
static const char *cf_units(const char *u)
{
    if (strcmp(u, "unitless") == 0 || strcmp(u, "none") == 0) return "1";
    if (strcmp(u, "square radians") == 0) return "sr";     /* an area on the unit sphere */
    return u;
}

/* A standard name whose canonical units these are not is dropped: CF requires
 * latitude in degrees_north, and GCRM's geometry is in radians. */
static int fits(const char *standard_name, const char *units)
{
    if (strcmp(standard_name, "latitude") == 0) return units && strncmp(units, "degree", 6) == 0;
    if (strcmp(standard_name, "longitude") == 0) return units && strncmp(units, "degree", 6) == 0;
    return 1;
}

/* Keep only the names of a blank-separated list that are variables of this file. */
static int filter_names(const cio_schema *sc, cio_att *a)
{
    const char *t = text_of(a);
    if (!t) return 1;
    char *out = cio_calloc(strlen(t) + 1, 1), *copy = cio_strdup(t);
    for (char *tok = strtok(copy, " "); tok; tok = strtok(NULL, " "))
        if (cio_schema_find_var(sc, tok) >= 0) {
            if (*out) strcat(out, " ");
            strcat(out, tok);
        }
    int kept = *out != '\0';
    if (kept) set_text(a, out);
    cio_free(out);
    cio_free(copy);
    return kept;
}

static void fix_var(const cio_schema *sc, cio_var *v)
{
    for (int i = 0; i < v->natts;) {
        /* looked up each time: rewriting the units attribute frees its old text */
        const cio_att *u = find(v->atts, v->natts, "units");
        const char *units = u ? text_of(u) : NULL;
        cio_att *a = &v->atts[i];
        const char *t = text_of(a);
        if (t && strcmp(a->name, "calendar") == 0) {
            set_text(a, cf_calendar(t));
        } else if (t && strcmp(a->name, "units") == 0) {
            set_text(a, cf_units(t));
        } else if (t && strcmp(a->name, "standard_name") == 0) {
            if (strcmp(t, "mesh_topology") == 0) rename_att(a, "cf_role");     /* UGRID's spelling */
            else if (!fits(t, units)) {
                drop(v->atts, &v->natts, i);
                continue;
            }
        } else if (strcmp(a->name, "coordinates") == 0 || strcmp(a->name, "bounds") == 0) {
            if (!filter_names(sc, a)) {
                drop(v->atts, &v->natts, i);
                continue;
            }
        }
        i++;
    }
}

void gcrm_cf_schema(cio_schema *sc, const char *history)
{
    for (int v = 0; v < sc->nvars; v++) fix_var(sc, &sc->vars[v]);
    int have_conventions = 0;
    for (int i = 0; i < sc->ngatts; i++) {
        cio_att *a = &sc->gatts[i];
        if (strcmp(a->name, "history") == 0) set_text(a, history);
        if (strcmp(a->name, "Conventions") == 0) {
            set_text(a, "CF-1.8");
            have_conventions = 1;
        }
    }
    if (!have_conventions) cio_schema_att_text(sc, -1, "Conventions", "CF-1.8");
}
