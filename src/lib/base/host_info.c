#include "config.h"
#include "base/host_info.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

extern char **environ;

void cio_host_loadavg(double load[3])
{
    load[0] = load[1] = load[2] = -1;
    FILE *f = fopen("/proc/loadavg", "r");
    if (!f) return;
    if (fscanf(f, "%lf %lf %lf", &load[0], &load[1], &load[2]) != 3) load[0] = load[1] = load[2] = -1;
    fclose(f);
}

/* The value after "key" and a separator on the first line of path starting with
 * key, quotes and trailing blanks removed; 0 when found. */
static int line_value(const char *path, const char *key, const char *sep, char *out, size_t len)
{
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    char line[512];
    int found = -1;
    size_t n = strlen(key);
    while (found && fgets(line, sizeof line, f)) {
        if (strncmp(line, key, n) != 0) continue;
        char *v = line + n + strspn(line + n, sep);
        v[strcspn(v, "\n")] = '\0';
        if (*v == '"') {
            v++;
            char *q = strchr(v, '"');
            if (q) *q = '\0';
        }
        snprintf(out, len, "%s", v);
        found = 0;
    }
    fclose(f);
    return found;
}

void cio_host_info_read(cio_host_info *h)
{
    if (gethostname(h->name, sizeof h->name - 1) != 0) snprintf(h->name, sizeof h->name, "unknown");
    if (line_value("/etc/os-release", "PRETTY_NAME", "=", h->os, sizeof h->os) != 0)
        snprintf(h->os, sizeof h->os, "unknown");
    struct utsname u;
    if (uname(&u) == 0)
        snprintf(h->kernel, sizeof h->kernel, "%s %s %s %s", u.sysname, u.release, u.version, u.machine);
    else
        snprintf(h->kernel, sizeof h->kernel, "unknown");
    if (line_value("/proc/cpuinfo", "model name", " \t:", h->cpu_model, sizeof h->cpu_model) != 0)
        snprintf(h->cpu_model, sizeof h->cpu_model, "unknown");
    h->cpus_online = (int)sysconf(_SC_NPROCESSORS_ONLN);
    char mem[64];
    h->mem_total = line_value("/proc/meminfo", "MemTotal:", " \t", mem, sizeof mem) == 0
                       ? strtoll(mem, NULL, 10) * 1024 : -1;
    cio_host_loadavg(h->load_end);
}

static void json_load(cio_json *j, const char *key, const double load[3])
{
    if (load[0] < 0) {
        cio_json_null(j, key);
        return;
    }
    cio_json_arr(j, key);
    for (int i = 0; i < 3; i++) cio_json_num(j, NULL, load[i]);
    cio_json_arr_end(j);
}

static int steers_mpi_io(const char *name)
{
    /* Open MPI's I/O frameworks (the launcher sets many other OMPI_MCA_*), ROMIO's, Cray MPICH's, PnetCDF's */
    static const char *const prefixes[] = {"OMPI_MCA_io", "OMPI_MCA_fs", "OMPI_MCA_fbtl", "OMPI_MCA_fcoll",
                                           "OMPI_MCA_sharedfp", "ROMIO_", "MPICH_MPIIO_", "PNETCDF_HINTS=", NULL};
    for (int i = 0; prefixes[i]; i++)
        if (strncmp(name, prefixes[i], strlen(prefixes[i])) == 0) return 1;
    return 0;
}

void cio_host_info_json(cio_json *j, const cio_host_info *h)
{
    cio_json_obj(j, "host");
    cio_json_str(j, "name", h->name);
    cio_json_str(j, "os", h->os);
    cio_json_str(j, "kernel", h->kernel);
    cio_json_str(j, "cpu_model", h->cpu_model);
    cio_json_int(j, "cpus_online", h->cpus_online);
    if (h->mem_total >= 0) cio_json_int(j, "memory_bytes", h->mem_total);
    else cio_json_null(j, "memory_bytes");
    json_load(j, "load_average_start", h->load_start);
    json_load(j, "load_average_end", h->load_end);
    cio_json_obj_end(j);
    cio_json_obj(j, "mpi_io_environment");
    for (char **e = environ; e && *e; e++) {
        if (!steers_mpi_io(*e)) continue;
        const char *eq = strchr(*e, '=');
        char name[256];
        snprintf(name, sizeof name, "%.*s", (int)(eq - *e), *e);
        cio_json_str(j, name, eq + 1);
    }
    cio_json_obj_end(j);
}
