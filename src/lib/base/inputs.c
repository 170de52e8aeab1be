#include "config.h"
#include "base/inputs.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>


typedef struct input {
    dev_t dev;
    ino_t ino;
    int is_dir;
    char *real;         /* resolved path */
    char *what;         /* "decomp (command line): 'map.txt'" */
    cio_input_role role;
} input;

static int n, cap;

/* Rank-local and below util.c (which records what it reads): no cio_die here. */
static void *need(void *p)
{
    if (!p) {
        fprintf(stderr, "out of memory recording the run's input files\n");
        exit(1);
    }
    return p;
}
static input *list;

static char *describe(const char *path, const char *source)
{
    size_t len = strlen(path) + (source ? strlen(source) : 0) + 32;
    char *s = need(malloc(len));
    if (source) snprintf(s, len, "%s '%s'", source, path);
    else snprintf(s, len, "the input '%s'", path);
    return s;
}

void cio_inputs_add(const char *path, const char *source, cio_input_role role)
{
    struct stat st;
    if (!path || !*path || stat(path, &st) != 0) return;
    for (int i = 0; i < n; i++)
        if (list[i].dev == st.st_dev && list[i].ino == st.st_ino) {
            if (source && strncmp(list[i].what, "the input ", 10) == 0) {
                free(list[i].what);
                list[i].what = describe(path, source);
            }
            /* one file in two roles (a member that is also -a's output): read only */
            if (role != list[i].role) list[i].role = CIO_INPUT_READ;
            return;
        }
    if (n == cap) {
        cap = cap ? 2 * cap : 16;
        list = need(realloc(list, (size_t)cap * sizeof *list));
    }
    char real[PATH_MAX];
    input *in = &list[n++];
    in->dev = st.st_dev;
    in->ino = st.st_ino;
    in->is_dir = S_ISDIR(st.st_mode);
    in->real = need(strdup(realpath(path, real) ? real : path));
    in->what = describe(path, source);
    in->role = role;
}

const char *cio_inputs_find(dev_t dev, ino_t ino, const char *resolved, cio_input_role *role)
{
    for (int i = 0; i < n; i++) {
        size_t l = strlen(list[i].real);
        int same = ino != 0 && list[i].dev == dev && list[i].ino == ino;
        int under = list[i].is_dir && resolved && strncmp(resolved, list[i].real, l) == 0 && resolved[l] == '/';
        if (same || under) {
            if (role) *role = under && !same ? CIO_INPUT_READ : list[i].role;
            return list[i].what;
        }
    }
    return NULL;
}

int cio_inputs_removable(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) return 0;
    for (int i = 0; i < n; i++)
        if (list[i].dev == st.st_dev && list[i].ino == st.st_ino) return list[i].role == CIO_INPUT_REMOVED;
    return 0;
}

void cio_inputs_clear(void)
{
    for (int i = 0; i < n; i++) {
        free(list[i].real);
        free(list[i].what);
    }
    free(list);
    list = NULL;
    n = cap = 0;
}
