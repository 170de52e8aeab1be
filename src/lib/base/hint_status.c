#include "config.h"
#include "base/hint_status.h"

#include <stdio.h>
#include <string.h>

static int pnetcdf_hint(const char *key) { return strncmp(key, "nc_", 3) == 0; }

/* The hints ROMIO reads (its romio_* family, and the reserved MPI-IO names it implements). */
static int romio_hint(const char *key)
{
    static const char *const known[] = {"cb_buffer_size", "cb_nodes", "cb_config_list", "ind_rd_buffer_size",
                                        "ind_wr_buffer_size", "striping_factor", "striping_unit", "start_iodevice",
                                        "direct_read", "direct_write", "collective_buffering", NULL};
    if (strncmp(key, "romio_", 6) == 0) return 1;
    for (int i = 0; known[i]; i++)
        if (strcmp(key, known[i]) == 0) return 1;
    return 0;
}

cio_hint_status cio_hint_status_of(const char *key, int read_back, const char *io_component, const char *lib_prefix)
{
    int lib_reads = lib_prefix && *lib_prefix && strncmp(key, lib_prefix, strlen(lib_prefix)) == 0;
    if (pnetcdf_hint(key) && !lib_reads) return CIO_HINT_NOT_APPLICABLE;
    if (!read_back) return CIO_HINT_NOT_REPORTED;
    if (lib_reads) return CIO_HINT_CONFIRMED;   /* PnetCDF lists the nc_* hints it uses */
    if (io_component && strcmp(io_component, "ROMIO") == 0 && romio_hint(key)) return CIO_HINT_CONFIRMED;
    return CIO_HINT_ECHOED;
}

const char *cio_hint_status_name(cio_hint_status s)
{
    static const char *const names[] = {"confirmed", "echoed", "not applicable", "not reported"};
    return names[s];
}

const char *cio_hint_status_why(cio_hint_status s, const char *key, const char *io_component)
{
    switch (s) {
    case CIO_HINT_CONFIRMED:
        return pnetcdf_hint(key) ? "PnetCDF lists the nc_* hints it uses" : "listed by ROMIO, one of ROMIO's hints";
    case CIO_HINT_ECHOED:
        if (io_component && strcmp(io_component, "OMPIO") == 0)
            return "OMPIO lists every key it is given, used or not";
        if (io_component && strcmp(io_component, "ROMIO") == 0) return "listed by ROMIO, but not one of ROMIO's hints";
        return "the MPI-IO component is unknown: listed, not known to be used";
    case CIO_HINT_NOT_APPLICABLE:
        return "a PnetCDF hint, and no PnetCDF opened the files";
    default:
        return "not listed by the MPI-IO layer: ignored";
    }
}

static int read_back(const cio_hints *applied, const char *key)
{
    for (int i = 0; i < applied->n; i++)
        if (strcmp(applied->key[i], key) == 0) return 1;
    return 0;
}

static cio_hint_status status_of(const cio_hints *applied, const char *key, const char *io_component,
                                 const char *lib_prefix, const char *unused)
{
    return unused ? CIO_HINT_NOT_APPLICABLE : cio_hint_status_of(key, read_back(applied, key), io_component, lib_prefix);
}

void cio_hint_status_json(cio_json *j, const cio_hints *asked, const cio_hints *applied, const char *io_component,
                          const char *lib_prefix, const char *unused)
{
    cio_json_obj(j, "status");
    for (int i = 0; i < asked->n; i++) {
        cio_hint_status s = status_of(applied, asked->key[i], io_component, lib_prefix, unused);
        cio_json_obj(j, asked->key[i]);
        cio_json_str(j, "status", cio_hint_status_name(s));
        cio_json_str(j, "why", unused ? unused : cio_hint_status_why(s, asked->key[i], io_component));
        cio_json_obj_end(j);
    }
    cio_json_obj_end(j);
}

void cio_hint_status_print(FILE *out, const cio_hints *asked, const cio_hints *applied, const char *io_component,
                           const char *lib_prefix, const char *unused)
{
    for (int i = 0; i < asked->n; i++) {
        cio_hint_status s = status_of(applied, asked->key[i], io_component, lib_prefix, unused);
        fprintf(out, "hint %-24s %-14s %s (%s)\n", asked->key[i], asked->val[i], cio_hint_status_name(s),
                unused ? unused : cio_hint_status_why(s, asked->key[i], io_component));
    }
}
