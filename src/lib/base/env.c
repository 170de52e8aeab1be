#include "config.h"
#include "base/env.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>

extern char **environ;

static char *shared;            /* "NAME=value\0NAME=value\0...\0" from rank 0 */
static size_t shared_len;

/* Read by the libraries from each process's own environment, not through us. */
static const char *const library_vars[] = {"PNETCDF_HINTS", NULL};

void cio_env_share(MPI_Comm comm)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    long long n = 0;
    char *buf = NULL;
    if (rank == 0) {
        for (char **v = environ; v && *v; v++) n += (long long)strlen(*v) + 1;
        buf = malloc((size_t)n + 1);
        if (!buf) cio_die("out of memory copying the environment (%lld bytes)", n);
        size_t at = 0;
        for (char **v = environ; v && *v; v++) {
            size_t l = strlen(*v) + 1;
            memcpy(buf + at, *v, l);
            at += l;
        }
        buf[at] = '\0';
    }
    MPI_Bcast(&n, 1, MPI_LONG_LONG, 0, comm);
    if (n + 1 > (long long)INT32_MAX) cio_die("the environment is too large to share (%lld bytes)", n);
    if (rank != 0) {
        buf = malloc((size_t)n + 1);
        if (!buf) cio_die("out of memory receiving the environment (%lld bytes)", n);
    }
    MPI_Bcast(buf, (int)n + 1, MPI_CHAR, 0, comm);
    free(shared);
    shared = buf;
    shared_len = (size_t)n;
    if (rank != 0)
        for (int i = 0; library_vars[i]; i++) {
            const char *v = cio_getenv(library_vars[i]);
            if (v) setenv(library_vars[i], v, 1);
            else unsetenv(library_vars[i]);
        }
}

const char *cio_getenv(const char *name)
{
    if (!shared) return getenv(name);
    size_t nl = strlen(name);
    for (size_t at = 0; at < shared_len;) {
        const char *v = shared + at;
        size_t l = strlen(v);
        if (l > nl && strncmp(v, name, nl) == 0 && v[nl] == '=') return v + nl + 1;
        at += l + 1;
    }
    return NULL;
}

const char *cio_env_entry(size_t i)
{
    if (!shared) {
        for (size_t k = 0; environ && environ[k]; k++)
            if (k == i) return environ[k];
        return NULL;
    }
    size_t k = 0;
    for (size_t at = 0; at < shared_len; k++) {
        const char *v = shared + at;
        if (k == i) return v;
        at += strlen(v) + 1;
    }
    return NULL;
}

void cio_env_free(void)
{
    free(shared);
    shared = NULL;
    shared_len = 0;
}
