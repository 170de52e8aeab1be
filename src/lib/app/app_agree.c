/* Every rank must be started with the same arguments: a launcher line that
 * gives ranks different options (mpiexec -n 1 prog A : -n 1 prog B) would
 * otherwise run each rank with its own settings, silently, or hang in the
 * first collective call the ranks disagree on. */
#include "config.h"
#include "app/app.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* FNV-1a over the program's name and the arguments, each ended by a NUL. */
static uint64_t args_hash(const char *kernel, int argc, char **argv)
{
    uint64_t h = 1469598103934665603ull;
    for (int i = 0; i < argc; i++)
        for (const unsigned char *c = (const unsigned char *)(i ? argv[i] : kernel);; c++) {
            h = (h ^ *c) * 1099511628211ull;
            if (!*c) break;
        }
    return h ^ (uint64_t)argc;
}

/* "prog --a 1 --b 2", cut to fit. */
static void args_text(const char *kernel, int argc, char **argv, char *buf, size_t n)
{
    size_t l = (size_t)snprintf(buf, n, "%s", kernel);
    for (int i = 1; i < argc && l < n; i++) l += (size_t)snprintf(buf + l, n - l, " %s", argv[i]);
}

void cio_app_check_same_args(cio_app *a, int argc, char **argv)
{
    uint64_t mine = args_hash(a->kernel, argc, argv), root = mine;
    MPI_Bcast(&root, 1, MPI_UINT64_T, 0, a->comm);
    int differs = mine != root ? a->rank : a->nprocs, first = a->nprocs;
    MPI_Allreduce(&differs, &first, 1, MPI_INT, MPI_MIN, a->comm);
    if (first == a->nprocs) return;
    char theirs[300] = "", ours[300];
    if (a->rank == first) {
        args_text(a->kernel, argc, argv, theirs, sizeof theirs);
        MPI_Send(theirs, (int)sizeof theirs, MPI_CHAR, 0, 0, a->comm);
    } else if (a->rank == 0) {
        MPI_Recv(theirs, (int)sizeof theirs, MPI_CHAR, first, 0, a->comm, MPI_STATUS_IGNORE);
    }
    args_text(a->kernel, argc, argv, ours, sizeof ours);
    cio_die_all(a->comm, "command line: rank %d was started with other arguments than rank 0 (rank 0: '%s'; rank %d: "
                "'%s'): every rank must run the same program with the same command line", first, ours, first, theirs);
}

void cio_app_note_repeated_args(cio_app *a)
{
    const cio_params *p = a->params;
    for (int i = 0; i < cio_params_cmdline_count(p); i++) {
        int k = cio_params_cmdline_overridden(p, i);
        if (k < 0) continue;
        if (a->rank != 0 || cio_param_bool(p, "quiet")) continue;
        fprintf(stderr, "%s: note: --%s %s (command line) has no effect: --%s %s, given after it, is used\n", a->kernel,
                cio_params_cmdline_key(p, i), cio_params_cmdline_value(p, i), cio_params_cmdline_key(p, k),
                cio_params_cmdline_value(p, k));
    }
}
