#include "config.h"
#include "app/output_folder.h"
#include "app/app.h"
#include "base/env.h"

#include <stdio.h>
#include <string.h>

static const cio_param_spec *common_row(void)
{
    for (const cio_param_spec *s = cio_common_params; s->key; s++)
        if (strcmp(s->key, "output_dir") == 0) return s;
    cio_die("internal: the common table has no output_dir");
}

void cio_output_folder_rows(const cio_output_folder *f, cio_param_spec rows[3])
{
    int n = 0;
    rows[n] = *common_row();
    rows[n].def = f->def;
    if (f->help) rows[n].help = f->help;
    if (f->empty_means) rows[n].flags &= ~(unsigned)CIO_PF_NONEMPTY;
    n++;
    if (f->alias) rows[n++] = (cio_param_spec){f->alias, CIO_P_ALIAS, "output_dir", NULL, 0, 0, 0, 0};
    memset(&rows[n], 0, sizeof rows[n]);
}

int cio_output_folder_resolve(const cio_params *p, const cio_output_folder *f, const char **dir, char *origin,
                              size_t n, cio_err *e)
{
    const char *v = cio_param_str(p, "output_dir"), *o = cio_param_origin(p, "output_dir");
    if (!v) {   /* a program that reads a kernel's table without its descriptor */
        v = f->def;
        o = "default";
    }
    const char *env = f->env ? cio_getenv(f->env) : NULL;
    if (env && *env && strcmp(o, "command line") != 0) {
        snprintf(origin, n, "environment %s", f->env);
        v = env;
    } else {
        snprintf(origin, n, "%s", o);
    }
    if (!*v) {
        if (!f->empty_means) return cio_seterr(e, "%s: output_dir: expected a folder, found ''", origin);
        v = f->empty_means;
    }
    *dir = v;
    return 0;
}
