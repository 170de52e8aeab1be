/* libiocount: an LD_PRELOAD library that counts what an MPI program hands to
 * the layers every netCDF writer goes through, so that two programs writing
 * the same files can be compared call for call:
 *
 *   netcdf  the data writes handed to netCDF-C (nc_put_var*, from C or through
 *           netCDF-Fortran), per file;
 *   pnetcdf the data writes handed to PnetCDF (ncmpi_put_vara, _all, iput,
 *           bput, ncmpi_put_varn_all), per file;
 *   mpiio   MPI_File_write* and MPI_File_iwrite* (parallel HDF5, PnetCDF),
 *           by either name (MPI_ or PMPI_: a program with a profiling layer of
 *           its own, as climio's, calls the PMPI_ ones), each call once;
 *   posix   write, pwrite, writev and pwritev on files the program opened
 *           for writing (serial HDF5 and everything else ends here);
 *   mpi     the time inside MPI's point-to-point, wait and one-sided calls
 *           (Send, Recv, Isend, Irecv, Wait, Waitall, Probe, Put, Win_fence,
 *           Win_allocate, Win_free of allocated windows; from C and from
 *           Fortran), the time a process is held by its messages.  With
 *           $IOCOUNT_MPI_TAGS=LO-HI it is counted from the first Isend with a
 *           tag in LO..HI or the first Win_allocate on (the first data message
 *           of a protocol that tags its data so; set-up traffic before it is
 *           left out); collectives are never counted.
 *
 * Each process that called MPI_Init writes one report at MPI_Finalize (or at
 * exit) into the folder $IOCOUNT_DIR, iocount.<pid>.txt, one line per level
 * and file:
 *
 *   rank=R spawned=S level=L file=PATH calls=N bytes=B seconds=T sizes=SIZE:N,...
 *
 * rank: in MPI_COMM_WORLD; spawned=1 in processes started by MPI_Comm_spawn;
 * calls and bytes: the requests (netcdf, pnetcdf: bytes in the variable's own type);
 * seconds: the time inside the calls (netcdf: create or open, enddef, the
 * puts and close, so not the program's own work while the file is open);
 * sizes: the distinct request sizes in bytes and how often each occurred,
 * most frequent first (the first 64 sizes seen; requests of any later size as
 * other:N).  $IOCOUNT_MATCH, when set, counts only files whose path contains
 * it.  scripts/iocount builds the library and sums the reports. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <mpi.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

enum { L_NETCDF, L_PNETCDF, L_MPIIO, L_POSIX, L_MPI, NLEVELS };
static const char *level_name[NLEVELS] = {"netcdf", "pnetcdf", "mpiio", "posix", "mpi"};

#define NSIZES 64
#define NC_MAX_VAR_DIMS_HERE 1024
typedef struct {
    char *path;
    int level;
    long long calls, bytes;
    double seconds;
    long long size[NSIZES], size_n[NSIZES], other;
    int nsizes;
} entry;

static entry *entries;
static int nentries, capentries;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static __thread int nc_depth;   /* > 0 inside a netCDF call we wrap: its inner netCDF calls are not counted again */
static __thread int busy;       /* > 0 while this library writes its report */
static int reported;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void *real(const char *name)
{
    void *f = dlsym(RTLD_NEXT, name);
    if (!f) {
        fprintf(stderr, "iocount: %s not found\n", name);
        abort();
    }
    return f;
}
#define REAL(ret, name, args) static ret(*real_##name) args; if (!real_##name) real_##name = real(#name)

static int wanted(const char *path)
{
    const char *m = getenv("IOCOUNT_MATCH");
    if (!path) return 0;
    if (!strncmp(path, "/dev/", 5) || !strncmp(path, "/proc/", 6) || !strncmp(path, "/sys/", 5)) return 0;
    return !m || !*m || strstr(path, m) != NULL;
}

static int my_rank = -1, my_spawned, mpi_seen;

/* this process's rank and origin, noted while MPI is up (the report may come
 * after MPI_Finalize) */
static void note_rank(void)
{
    int init = 0, fin = 0;
    if (my_rank >= 0) return;
    MPI_Initialized(&init);
    MPI_Finalized(&fin);
    if (!init || fin) return;
    MPI_Comm parent = MPI_COMM_NULL;
    PMPI_Comm_rank(MPI_COMM_WORLD, &my_rank);
    PMPI_Comm_get_parent(&parent);
    my_spawned = parent != MPI_COMM_NULL;
    mpi_seen = 1;
}

/* the entry of (level, path); the lock is held */
static entry *find(int level, const char *path)
{
    note_rank();
    for (int i = 0; i < nentries; i++)
        if (entries[i].level == level && !strcmp(entries[i].path, path)) return &entries[i];
    if (nentries == capentries) {
        int cap = capentries ? 2 * capentries : 32;
        entry *e = realloc(entries, (size_t)cap * sizeof *e);
        if (!e) abort();
        entries = e;
        capentries = cap;
    }
    entry *e = &entries[nentries++];
    memset(e, 0, sizeof *e);
    e->path = strdup(path);
    e->level = level;
    return e;
}

static void add(entry *e, long long bytes, double seconds)
{
    e->calls++;
    e->bytes += bytes;
    e->seconds += seconds;
    for (int i = 0; i < e->nsizes; i++)
        if (e->size[i] == bytes) {
            e->size_n[i]++;
            return;
        }
    if (e->nsizes < NSIZES) {
        e->size[e->nsizes] = bytes;
        e->size_n[e->nsizes++] = 1;
    } else {
        e->other++;
    }
}

/* ---- handle tables: netCDF ids, POSIX descriptors, MPI file handles, PnetCDF ids ---- */

typedef struct {
    long long key;
    char *path;
} handle;
static handle handles[4][1024];

static void handle_set(int table, long long key, const char *path)
{
    for (int i = 0; i < 1024; i++)
        if (!handles[table][i].path) {
            handles[table][i].key = key;
            handles[table][i].path = strdup(path);
            return;
        }
}

static const char *handle_get(int table, long long key)
{
    for (int i = 0; i < 1024; i++)
        if (handles[table][i].path && handles[table][i].key == key) return handles[table][i].path;
    return NULL;
}

static void handle_drop(int table, long long key)
{
    for (int i = 0; i < 1024; i++)
        if (handles[table][i].path && handles[table][i].key == key) {
            free(handles[table][i].path);
            handles[table][i].path = NULL;
        }
}

/* ---- the report ---- */

static int cmp_count(const void *a, const void *b)
{
    const long long *x = a, *y = b;
    return (x[1] < y[1]) - (x[1] > y[1]);
}

static void report(void)
{
    const char *dir = getenv("IOCOUNT_DIR");
    if (reported || !dir) return;
    note_rank();
    if (!mpi_seen) return;      /* mpiexec and other helpers */
    reported = 1;
    int rank = my_rank, spawned = my_spawned;
    char name[4096];
    snprintf(name, sizeof name, "%s/iocount.%ld.txt", dir, (long)getpid());
    busy++;
    FILE *f = fopen(name, "w");
    if (!f) {
        fprintf(stderr, "iocount: cannot write %s\n", name);
        busy--;
        return;
    }
    pthread_mutex_lock(&lock);
    fprintf(f, "rank=%d spawned=%d level=process file=- calls=0 bytes=0 seconds=0 sizes=\n", rank, spawned);
    for (int i = 0; i < nentries; i++) {
        entry *e = &entries[i];
        if (!e->calls && e->level != L_NETCDF && e->level != L_PNETCDF) continue;
        long long pairs[NSIZES][2];
        for (int k = 0; k < e->nsizes; k++) {
            pairs[k][0] = e->size[k];
            pairs[k][1] = e->size_n[k];
        }
        qsort(pairs, (size_t)e->nsizes, sizeof pairs[0], cmp_count);
        fprintf(f, "rank=%d spawned=%d level=%s file=%s calls=%lld bytes=%lld seconds=%.6f sizes=", rank, spawned,
                level_name[e->level], e->path, e->calls, e->bytes, e->seconds);
        long long other = e->other;
        for (int k = 0; k < e->nsizes; k++) fprintf(f, "%s%lld:%lld", k ? "," : "", pairs[k][0], pairs[k][1]);
        if (other) fprintf(f, "%sother:%lld", e->nsizes ? "," : "", other);
        fputc('\n', f);
    }
    pthread_mutex_unlock(&lock);
    fclose(f);
    busy--;
}

__attribute__((destructor)) static void at_exit_report(void) { report(); }

int MPI_Finalize(void)
{
    report();
    return PMPI_Finalize();
}

/* Fortran's bindings call PMPI_Finalize themselves: their entry point too */
void mpi_finalize_(MPI_Fint *ierr);
void mpi_finalize_(MPI_Fint *ierr)
{
    report();
    int rc = PMPI_Finalize();
    if (ierr) *ierr = (MPI_Fint)rc;
}

/* ---- netCDF-C ---- */

static void nc_opened(int status, const char *path, const int *ncidp, double t0)
{
    if (status != 0 || !wanted(path)) return;
    double dt = now() - t0;
    pthread_mutex_lock(&lock);
    handle_set(0, *ncidp, path);
    find(L_NETCDF, path)->seconds += dt;
    pthread_mutex_unlock(&lock);
}

/* time inside a netCDF call on an open file, added to the file's seconds */
static void nc_timed(int ncid, double t0)
{
    double dt = now() - t0;
    pthread_mutex_lock(&lock);
    const char *path = handle_get(0, ncid);
    if (path) find(L_NETCDF, path)->seconds += dt;
    pthread_mutex_unlock(&lock);
}

#define NC_OPEN_WRAP(decl, call, pathv, ncidv) \
    decl                                       \
    {                                          \
        double t0 = now();                     \
        nc_depth++;                            \
        int st = call;                         \
        nc_depth--;                            \
        if (nc_depth == 0) nc_opened(st, pathv, ncidv, t0); \
        return st;                             \
    }

typedef int (*nc_create_t)(const char *, int, int *);
NC_OPEN_WRAP(int nc_create(const char *path, int mode, int *ncidp),
             (((nc_create_t)real("nc_create"))(path, mode, ncidp)), path, ncidp)
typedef int (*nc_open_t)(const char *, int, int *);
NC_OPEN_WRAP(int nc_open(const char *path, int mode, int *ncidp),
             (((nc_open_t)real("nc_open"))(path, mode, ncidp)), path, ncidp)
typedef int (*nc__create_t)(const char *, int, size_t, size_t *, int *);
NC_OPEN_WRAP(int nc__create(const char *path, int mode, size_t initialsz, size_t *chunk, int *ncidp),
             (((nc__create_t)real("nc__create"))(path, mode, initialsz, chunk, ncidp)), path, ncidp)
typedef int (*nc__open_t)(const char *, int, size_t *, int *);
NC_OPEN_WRAP(int nc__open(const char *path, int mode, size_t *chunk, int *ncidp),
             (((nc__open_t)real("nc__open"))(path, mode, chunk, ncidp)), path, ncidp)
typedef int (*nc_create_par_t)(const char *, int, MPI_Comm, MPI_Info, int *);
NC_OPEN_WRAP(int nc_create_par(const char *path, int mode, MPI_Comm comm, MPI_Info info, int *ncidp),
             (((nc_create_par_t)real("nc_create_par"))(path, mode, comm, info, ncidp)), path, ncidp)
typedef int (*nc_open_par_t)(const char *, int, MPI_Comm, MPI_Info, int *);
NC_OPEN_WRAP(int nc_open_par(const char *path, int mode, MPI_Comm comm, MPI_Info info, int *ncidp),
             (((nc_open_par_t)real("nc_open_par"))(path, mode, comm, info, ncidp)), path, ncidp)
/* netCDF-Fortran's nf90_create_par / nf90_open_par */
typedef int (*nc_par_fortran_t)(const char *, int, int, int, int *);
NC_OPEN_WRAP(int nc_create_par_fortran(const char *path, int mode, int comm, int info, int *ncidp),
             (((nc_par_fortran_t)real("nc_create_par_fortran"))(path, mode, comm, info, ncidp)), path, ncidp)
NC_OPEN_WRAP(int nc_open_par_fortran(const char *path, int mode, int comm, int info, int *ncidp),
             (((nc_par_fortran_t)real("nc_open_par_fortran"))(path, mode, comm, info, ncidp)), path, ncidp)

int nc_close(int ncid)
{
    REAL(int, nc_close, (int));
    double t0 = now();
    nc_depth++;
    int st = real_nc_close(ncid);
    nc_depth--;
    if (nc_depth == 0) {
        nc_timed(ncid, t0);
        pthread_mutex_lock(&lock);
        handle_drop(0, ncid);
        pthread_mutex_unlock(&lock);
    }
    return st;
}

int nc_enddef(int ncid)
{
    REAL(int, nc_enddef, (int));
    double t0 = now();
    nc_depth++;
    int st = real_nc_enddef(ncid);
    nc_depth--;
    if (nc_depth == 0) nc_timed(ncid, t0);
    return st;
}

int nc__enddef(int ncid, size_t a, size_t b, size_t c, size_t d)
{
    REAL(int, nc__enddef, (int, size_t, size_t, size_t, size_t));
    double t0 = now();
    nc_depth++;
    int st = real_nc__enddef(ncid, a, b, c, d);
    nc_depth--;
    if (nc_depth == 0) nc_timed(ncid, t0);
    return st;
}

/* netCDF's inquiries, looked up at run time so that the library loads into
 * programs without netCDF too */
#define NC_INQ(ret, name, args) static ret(*name##_p) args; if (!name##_p) name##_p = real(#name)

/* bytes in the file of count[] elements of variable varid, in its own type
 * (count NULL: the whole variable; ones: one element) */
static long long nc_bytes(int ncid, int varid, const size_t *count, int one)
{
    int nd = 0, t = 0, dims[NC_MAX_VAR_DIMS_HERE];
    char tn[256];
    size_t elem = 0, len;
    NC_INQ(int, nc_inq_vartype, (int, int, int *));
    NC_INQ(int, nc_inq_type, (int, int, char *, size_t *));
    NC_INQ(int, nc_inq_varndims, (int, int, int *));
    NC_INQ(int, nc_inq_vardimid, (int, int, int *));
    NC_INQ(int, nc_inq_dimlen, (int, int, size_t *));
    if (nc_inq_vartype_p(ncid, varid, &t) || nc_inq_type_p(ncid, t, tn, &elem)) return 0;
    if (one) return (long long)elem;
    if (nc_inq_varndims_p(ncid, varid, &nd) || nd > NC_MAX_VAR_DIMS_HERE) return 0;
    long long n = 1;
    if (!count && nc_inq_vardimid_p(ncid, varid, dims)) return 0;
    for (int i = 0; i < nd; i++) {
        if (count) {
            len = count[i];
        } else if (nc_inq_dimlen_p(ncid, dims[i], &len)) {
            return 0;
        }
        n *= (long long)len;
    }
    return n * (long long)elem;
}

static void nc_count(int ncid, int varid, const size_t *count, int one, double t0)
{
    double dt = now() - t0;
    pthread_mutex_lock(&lock);
    const char *path = handle_get(0, ncid);
    if (path) add(find(L_NETCDF, path), nc_bytes(ncid, varid, count, one), dt);
    pthread_mutex_unlock(&lock);
}

/* nc_put_vara_<T> and friends, every memory type: the bytes counted are the
 * file's (the variable's own type), whatever type the caller hands over */
#define PUT_VARA(name, ctype)                                                                      \
    int name(int ncid, int varid, const size_t *start, const size_t *count, const ctype *op)           \
    {                                                                                                  \
        typedef int (*fn_t)(int, int, const size_t *, const size_t *, const ctype *);                  \
        static fn_t fn;                                                                                \
        if (!fn) fn = (fn_t)real(#name);                                                               \
        double t0 = now();                                                                              \
        nc_depth++;                                                                                    \
        int st = fn(ncid, varid, start, count, op);                                                    \
        nc_depth--;                                                                                    \
        if (nc_depth == 0 && st == 0) nc_count(ncid, varid, count, 0, t0);                              \
        return st;                                                                                     \
    }
#define PUT_VARS(name, ctype)                                                                      \
    int name(int ncid, int varid, const size_t *start, const size_t *count, const ptrdiff_t *stride,   \
             const ctype *op)                                                                          \
    {                                                                                                  \
        typedef int (*fn_t)(int, int, const size_t *, const size_t *, const ptrdiff_t *, const ctype *); \
        static fn_t fn;                                                                                \
        if (!fn) fn = (fn_t)real(#name);                                                               \
        double t0 = now();                                                                              \
        nc_depth++;                                                                                    \
        int st = fn(ncid, varid, start, count, stride, op);                                            \
        nc_depth--;                                                                                    \
        if (nc_depth == 0 && st == 0) nc_count(ncid, varid, count, 0, t0);                              \
        return st;                                                                                     \
    }
#define PUT_VAR(name, ctype)                                                                       \
    int name(int ncid, int varid, const ctype *op)                                                     \
    {                                                                                                  \
        typedef int (*fn_t)(int, int, const ctype *);                                                  \
        static fn_t fn;                                                                                \
        if (!fn) fn = (fn_t)real(#name);                                                               \
        double t0 = now();                                                                              \
        nc_depth++;                                                                                    \
        int st = fn(ncid, varid, op);                                                                  \
        nc_depth--;                                                                                    \
        if (nc_depth == 0 && st == 0) nc_count(ncid, varid, NULL, 0, t0);                               \
        return st;                                                                                     \
    }
#define PUT_VAR1(name, ctype)                                                                      \
    int name(int ncid, int varid, const size_t *index, const ctype *op)                                \
    {                                                                                                  \
        typedef int (*fn_t)(int, int, const size_t *, const ctype *);                                  \
        static fn_t fn;                                                                                \
        if (!fn) fn = (fn_t)real(#name);                                                               \
        double t0 = now();                                                                              \
        nc_depth++;                                                                                    \
        int st = fn(ncid, varid, index, op);                                                           \
        nc_depth--;                                                                                    \
        if (nc_depth == 0 && st == 0) nc_count(ncid, varid, NULL, 1, t0);                               \
        return st;                                                                                     \
    }
#define ALL_TYPES(M, kind)                                              \
    M(nc_put_##kind, void)                                           \
    M(nc_put_##kind##_text, char)                                    \
    M(nc_put_##kind##_schar, signed char)                            \
    M(nc_put_##kind##_uchar, unsigned char)                          \
    M(nc_put_##kind##_short, short)                      \
    M(nc_put_##kind##_ushort, unsigned short)            \
    M(nc_put_##kind##_int, int)                            \
    M(nc_put_##kind##_uint, unsigned int)                  \
    M(nc_put_##kind##_long, long)                                    \
    M(nc_put_##kind##_float, float)                      \
    M(nc_put_##kind##_double, double)                   \
    M(nc_put_##kind##_longlong, long long)           \
    M(nc_put_##kind##_ulonglong, unsigned long long)
ALL_TYPES(PUT_VARA, vara)
ALL_TYPES(PUT_VARS, vars)
ALL_TYPES(PUT_VAR, var)
ALL_TYPES(PUT_VAR1, var1)

/* ---- MPI point-to-point and one-sided: time held ---- */

static int mpi_window = -1;     /* -1: not decided; 0: waiting for the first data message; 1: counting */
static __thread int mpi_depth;
static MPI_Win allocated[256];  /* windows from MPI_Win_allocate, whose Win_free is counted */

static int in_window(int tag, int opens)
{
    if (mpi_window < 0) mpi_window = getenv("IOCOUNT_MPI_TAGS") ? 0 : 1;
    if (mpi_window == 0 && opens) {
        long lo = 0, hi = -1;
        if (sscanf(getenv("IOCOUNT_MPI_TAGS"), "%ld-%ld", &lo, &hi) == 2 && ((tag >= lo && tag <= hi) || tag < 0))
            mpi_window = 1;
    }
    return mpi_window == 1;
}

static void mpi_held(double t0)
{
    double dt = now() - t0;
    pthread_mutex_lock(&lock);
    add(find(L_MPI, "-"), 0, dt);
    pthread_mutex_unlock(&lock);
}

/* HELD(opens, tag, call): run call; count its time when the window is (or
 * the call makes it) open; tag -1 opens the window unconditionally */
#define HELD(opens, tag, call)                                  \
    do {                                                        \
        double t0_ = now();                                     \
        mpi_depth++;                                            \
        call;                                                   \
        mpi_depth--;                                            \
        if (mpi_depth == 0 && in_window((tag), (opens))) mpi_held(t0_); \
    } while (0)

int MPI_Send(const void *b, int n, MPI_Datatype t, int dest, int tag, MPI_Comm c)
{
    int st;
    HELD(0, tag, st = PMPI_Send(b, n, t, dest, tag, c));
    return st;
}
int MPI_Recv(void *b, int n, MPI_Datatype t, int src, int tag, MPI_Comm c, MPI_Status *s)
{
    int st;
    HELD(0, tag, st = PMPI_Recv(b, n, t, src, tag, c, s));
    return st;
}
int MPI_Isend(const void *b, int n, MPI_Datatype t, int dest, int tag, MPI_Comm c, MPI_Request *r)
{
    int st;
    HELD(1, tag, st = PMPI_Isend(b, n, t, dest, tag, c, r));
    return st;
}
int MPI_Irecv(void *b, int n, MPI_Datatype t, int src, int tag, MPI_Comm c, MPI_Request *r)
{
    int st;
    HELD(0, tag, st = PMPI_Irecv(b, n, t, src, tag, c, r));
    return st;
}
int MPI_Wait(MPI_Request *r, MPI_Status *s)
{
    int st;
    HELD(0, 0, st = PMPI_Wait(r, s));
    return st;
}
int MPI_Waitall(int n, MPI_Request *r, MPI_Status *s)
{
    int st;
    HELD(0, 0, st = PMPI_Waitall(n, r, s));
    return st;
}
int MPI_Probe(int src, int tag, MPI_Comm c, MPI_Status *s)
{
    int st;
    HELD(0, tag, st = PMPI_Probe(src, tag, c, s));
    return st;
}
int MPI_Put(const void *o, int on, MPI_Datatype ot, int tr, MPI_Aint td, int tn, MPI_Datatype tt, MPI_Win w)
{
    int st;
    HELD(0, 0, st = PMPI_Put(o, on, ot, tr, td, tn, tt, w));
    return st;
}
int MPI_Win_fence(int a, MPI_Win w)
{
    int st;
    HELD(0, 0, st = PMPI_Win_fence(a, w));
    return st;
}

static void win_allocated(MPI_Win w)
{
    pthread_mutex_lock(&lock);
    for (int i = 0; i < 256; i++)
        if (allocated[i] == MPI_WIN_NULL || allocated[i] == 0) {
            allocated[i] = w;
            break;
        }
    pthread_mutex_unlock(&lock);
}

/* a window from MPI_Win_allocate: forgotten, and 1 returned */
static int win_forget(MPI_Win w)
{
    int found = 0;
    pthread_mutex_lock(&lock);
    for (int i = 0; i < 256; i++)
        if (allocated[i] == w && w != MPI_WIN_NULL) {
            allocated[i] = MPI_WIN_NULL;
            found = 1;
        }
    pthread_mutex_unlock(&lock);
    return found;
}

int MPI_Win_allocate(MPI_Aint size, int unit, MPI_Info info, MPI_Comm c, void *base, MPI_Win *w)
{
    int st;
    HELD(1, -1, st = PMPI_Win_allocate(size, unit, info, c, base, w));
    if (st == MPI_SUCCESS) win_allocated(*w);
    return st;
}
int MPI_Win_free(MPI_Win *w)
{
    int st, mine = win_forget(*w);
    double t0 = now();
    st = PMPI_Win_free(w);
    if (mine && in_window(0, 0)) mpi_held(t0);
    return st;
}

/* Fortran's bindings (mpif.h, use mpi) call the PMPI_ functions themselves:
 * their entry points (gfortran's names) are replaced too */
typedef MPI_Fint F;
#define FWRAP(name, opens, tagexpr, params, args)             \
    void p##name params;                                      \
    void name params;                                         \
    void name params                                          \
    {                                                         \
        HELD(opens, tagexpr, p##name args);                   \
    }
FWRAP(mpi_send_, 0, *tag, (void *b, F *n, F *t, F *d, F *tag, F *c, F *e), (b, n, t, d, tag, c, e))
FWRAP(mpi_recv_, 0, *tag, (void *b, F *n, F *t, F *s, F *tag, F *c, F *st, F *e), (b, n, t, s, tag, c, st, e))
FWRAP(mpi_isend_, 1, *tag, (void *b, F *n, F *t, F *d, F *tag, F *c, F *r, F *e), (b, n, t, d, tag, c, r, e))
FWRAP(mpi_irecv_, 0, *tag, (void *b, F *n, F *t, F *s, F *tag, F *c, F *r, F *e), (b, n, t, s, tag, c, r, e))
FWRAP(mpi_wait_, 0, 0, (F *r, F *st, F *e), (r, st, e))
FWRAP(mpi_waitall_, 0, 0, (F *n, F *r, F *st, F *e), (n, r, st, e))
FWRAP(mpi_probe_, 0, *tag, (F *s, F *tag, F *c, F *st, F *e), (s, tag, c, st, e))
FWRAP(mpi_put_, 0, 0, (void *o, F *on, F *ot, F *tr, MPI_Aint *td, F *tn, F *tt, F *w, F *e),
      (o, on, ot, tr, td, tn, tt, w, e))
FWRAP(mpi_win_fence_, 0, 0, (F *a, F *w, F *e), (a, w, e))

#define FWIN_ALLOC(name)                                                                        \
    void p##name(MPI_Aint *size, F *unit, F *info, F *c, void *base, F *w, F *e);              \
    void name(MPI_Aint *size, F *unit, F *info, F *c, void *base, F *w, F *e);                 \
    void name(MPI_Aint *size, F *unit, F *info, F *c, void *base, F *w, F *e)                  \
    {                                                                                          \
        HELD(1, -1, p##name(size, unit, info, c, base, w, e));                                 \
        if (!e || *e == MPI_SUCCESS) win_allocated(MPI_Win_f2c(*w));                           \
    }
FWIN_ALLOC(mpi_win_allocate_)
FWIN_ALLOC(mpi_win_allocate_cptr_)

void pmpi_win_free_(F *w, F *e);
void mpi_win_free_(F *w, F *e);
void mpi_win_free_(F *w, F *e)
{
    int mine = win_forget(MPI_Win_f2c(*w));
    double t0 = now();
    pmpi_win_free_(w, e);
    if (mine && in_window(0, 0)) mpi_held(t0);
}

/* ---- MPI-IO ---- */
/* Each function under both names: a program with its own profiling layer (a
 * definition of MPI_File_* in the executable, which comes before this library)
 * reaches the PMPI_ name, any other the MPI_ one; both count once and go on to
 * the MPI library's PMPI_ entry point (found past this library). */

static int file_open(MPI_Comm comm, const char *path, int amode, MPI_Info info, MPI_File *fh)
{
    REAL(int, PMPI_File_open, (MPI_Comm, const char *, int, MPI_Info, MPI_File *));
    int st = real_PMPI_File_open(comm, path, amode, info, fh);
    if (st == MPI_SUCCESS && (amode & (MPI_MODE_WRONLY | MPI_MODE_RDWR)) && wanted(path)) {
        pthread_mutex_lock(&lock);
        handle_set(2, (long long)(intptr_t)*fh, path);
        pthread_mutex_unlock(&lock);
    }
    return st;
}
int MPI_File_open(MPI_Comm comm, const char *path, int amode, MPI_Info info, MPI_File *fh)
{
    return file_open(comm, path, amode, info, fh);
}
int PMPI_File_open(MPI_Comm comm, const char *path, int amode, MPI_Info info, MPI_File *fh)
{
    return file_open(comm, path, amode, info, fh);
}

static int file_close(MPI_File *fh)
{
    REAL(int, PMPI_File_close, (MPI_File *));
    long long key = (long long)(intptr_t)*fh;
    int st = real_PMPI_File_close(fh);
    pthread_mutex_lock(&lock);
    handle_drop(2, key);
    pthread_mutex_unlock(&lock);
    return st;
}
int MPI_File_close(MPI_File *fh) { return file_close(fh); }
int PMPI_File_close(MPI_File *fh) { return file_close(fh); }

static void mpiio_count(MPI_File fh, int count, MPI_Datatype type, double t0)
{
    double dt = now() - t0;
    int size = 0;
    PMPI_Type_size(type, &size);
    pthread_mutex_lock(&lock);
    const char *path = handle_get(2, (long long)(intptr_t)fh);
    if (path) add(find(L_MPIIO, path), (long long)count * size, dt);
    pthread_mutex_unlock(&lock);
}

/* MPIIO(name, parameters after the handle, arguments after it): MPI_<name> and PMPI_<name> */
#define MPIIO(name, params, args)                                                                  \
    static int count_##name(MPI_File fh, params)                                                   \
    {                                                                                              \
        REAL(int, PMPI_##name, (MPI_File, params));                                                \
        double t0 = now();                                                                         \
        int st = real_PMPI_##name(fh, args);                                                       \
        mpiio_count(fh, count, type, t0);                                                          \
        return st;                                                                                 \
    }                                                                                              \
    int MPI_##name(MPI_File fh, params) { return count_##name(fh, args); }                         \
    int PMPI_##name(MPI_File fh, params) { return count_##name(fh, args); }
#define P(...) __VA_ARGS__
#define AT_PARAMS(last) P(MPI_Offset off, const void *buf, int count, MPI_Datatype type, last)
#define PARAMS(last) P(const void *buf, int count, MPI_Datatype type, last)
MPIIO(File_write_at, AT_PARAMS(MPI_Status *last), P(off, buf, count, type, last))
MPIIO(File_write_at_all, AT_PARAMS(MPI_Status *last), P(off, buf, count, type, last))
MPIIO(File_iwrite_at, AT_PARAMS(MPI_Request *last), P(off, buf, count, type, last))
MPIIO(File_iwrite_at_all, AT_PARAMS(MPI_Request *last), P(off, buf, count, type, last))
MPIIO(File_write, PARAMS(MPI_Status *last), P(buf, count, type, last))
MPIIO(File_write_all, PARAMS(MPI_Status *last), P(buf, count, type, last))
MPIIO(File_write_shared, PARAMS(MPI_Status *last), P(buf, count, type, last))
MPIIO(File_write_ordered, PARAMS(MPI_Status *last), P(buf, count, type, last))
MPIIO(File_iwrite, PARAMS(MPI_Request *last), P(buf, count, type, last))
MPIIO(File_iwrite_all, PARAMS(MPI_Request *last), P(buf, count, type, last))
MPIIO(File_iwrite_shared, PARAMS(MPI_Request *last), P(buf, count, type, last))

/* ---- PnetCDF ---- */
/* Its calls are looked up at run time and declared here, so that the library
 * builds without pnetcdf.h (whose macros clash with netcdf.h's) and loads into
 * programs without PnetCDF. */
static __thread int pnc_depth;  /* > 0 inside a PnetCDF call we wrap */

static void pnc_opened(int status, const char *path, const int *ncidp)
{
    if (status != 0 || !wanted(path)) return;
    pthread_mutex_lock(&lock);
    handle_set(3, *ncidp, path);
    find(L_PNETCDF, path);
    pthread_mutex_unlock(&lock);
}

int ncmpi_create(MPI_Comm comm, const char *path, int mode, MPI_Info info, int *ncidp)
{
    REAL(int, ncmpi_create, (MPI_Comm, const char *, int, MPI_Info, int *));
    pnc_depth++;
    int st = real_ncmpi_create(comm, path, mode, info, ncidp);
    pnc_depth--;
    if (pnc_depth == 0) pnc_opened(st, path, ncidp);
    return st;
}

int ncmpi_open(MPI_Comm comm, const char *path, int mode, MPI_Info info, int *ncidp)
{
    REAL(int, ncmpi_open, (MPI_Comm, const char *, int, MPI_Info, int *));
    pnc_depth++;
    int st = real_ncmpi_open(comm, path, mode, info, ncidp);
    pnc_depth--;
    if (pnc_depth == 0 && (mode & 0x0001)) pnc_opened(st, path, ncidp);     /* NC_WRITE */
    return st;
}

int ncmpi_close(int ncid)
{
    REAL(int, ncmpi_close, (int));
    pnc_depth++;
    int st = real_ncmpi_close(ncid);
    pnc_depth--;
    if (pnc_depth == 0) {
        pthread_mutex_lock(&lock);
        handle_drop(3, ncid);
        pthread_mutex_unlock(&lock);
    }
    return st;
}

/* bytes of nreq requests of variable varid in its own type: counts[r] (or count for one) */
static long long pnc_bytes(int ncid, int varid, int nreq, MPI_Offset *const *counts, const MPI_Offset *count)
{
    NC_INQ(int, ncmpi_inq_varndims, (int, int, int *));
    NC_INQ(int, ncmpi_inq_vartype, (int, int, int *));
    int nd = 0, t = 0;
    if (ncmpi_inq_varndims_p(ncid, varid, &nd) || ncmpi_inq_vartype_p(ncid, varid, &t)) return 0;
    /* the classic and CDF-5 types: byte char short int float double ubyte ushort uint int64 uint64 */
    static const int size[] = {0, 1, 1, 2, 4, 4, 8, 1, 2, 4, 8, 8};
    long long n = 0;
    for (int r = 0; r < nreq; r++) {
        const MPI_Offset *c = counts ? counts[r] : count;
        long long m = 1;
        for (int i = 0; i < nd && c; i++) m *= (long long)c[i];
        n += m;
    }
    return t > 0 && t < (int)(sizeof size / sizeof *size) ? n * size[t] : 0;
}

static void pnc_count(int ncid, int varid, int nreq, MPI_Offset *const *counts, const MPI_Offset *count, double t0)
{
    double dt = now() - t0;
    pthread_mutex_lock(&lock);
    const char *path = handle_get(3, ncid);
    if (path) add(find(L_PNETCDF, path), pnc_bytes(ncid, varid, nreq, counts, count), dt);
    pthread_mutex_unlock(&lock);
}

/* PNC_VARA(name, extra parameters, extra arguments): a put of one start/count region */
#define PNC_VARA(name, params, args)                                                                        \
    int name(int ncid, int varid, const MPI_Offset *start, const MPI_Offset *count, const void *buf,        \
             MPI_Offset bufcount, MPI_Datatype type params)                                                 \
    {                                                                                                       \
        REAL(int, name, (int, int, const MPI_Offset *, const MPI_Offset *, const void *, MPI_Offset,         \
                         MPI_Datatype params));                                                             \
        double t0 = now();                                                                                  \
        pnc_depth++;                                                                                        \
        int st = real_##name(ncid, varid, start, count, buf, bufcount, type args);                          \
        pnc_depth--;                                                                                        \
        if (pnc_depth == 0 && st == 0) pnc_count(ncid, varid, 1, NULL, count, t0);                          \
        return st;                                                                                          \
    }
PNC_VARA(ncmpi_put_vara_all, , )
PNC_VARA(ncmpi_put_vara, , )
PNC_VARA(ncmpi_iput_vara, P(, int *req), P(, req))
PNC_VARA(ncmpi_bput_vara, P(, int *req), P(, req))

/* a scalar variable's put (climio's PnetCDF driver posts its scalars so) */
int ncmpi_iput_var(int ncid, int varid, const void *buf, MPI_Offset bufcount, MPI_Datatype type, int *req)
{
    REAL(int, ncmpi_iput_var, (int, int, const void *, MPI_Offset, MPI_Datatype, int *));
    double t0 = now();
    pnc_depth++;
    int st = real_ncmpi_iput_var(ncid, varid, buf, bufcount, type, req);
    pnc_depth--;
    if (pnc_depth == 0 && st == 0) pnc_count(ncid, varid, 1, NULL, NULL, t0);
    return st;
}

int ncmpi_put_varn_all(int ncid, int varid, int num, MPI_Offset *const *starts, MPI_Offset *const *counts,
                       const void *buf, MPI_Offset bufcount, MPI_Datatype type)
{
    REAL(int, ncmpi_put_varn_all, (int, int, int, MPI_Offset *const *, MPI_Offset *const *, const void *, MPI_Offset,
                                   MPI_Datatype));
    double t0 = now();
    pnc_depth++;
    int st = real_ncmpi_put_varn_all(ncid, varid, num, starts, counts, buf, bufcount, type);
    pnc_depth--;
    if (pnc_depth == 0 && st == 0) pnc_count(ncid, varid, num, counts, NULL, t0);
    return st;
}

/* ---- POSIX ---- */

static void fd_opened(int fd, const char *path, int flags)
{
    if (fd < 0 || busy || !(flags & (O_WRONLY | O_RDWR)) || !wanted(path)) return;
    pthread_mutex_lock(&lock);
    handle_drop(1, fd);
    handle_set(1, fd, path);
    pthread_mutex_unlock(&lock);
}

static mode_t mode_of(int flags, va_list ap)
{
    return (flags & (O_CREAT | O_TMPFILE)) ? (mode_t)va_arg(ap, int) : 0;
}

#define OPEN(name)                                      \
    int name(const char *path, int flags, ...)          \
    {                                                   \
        REAL(int, name, (const char *, int, ...));      \
        va_list ap;                                     \
        va_start(ap, flags);                            \
        mode_t m = mode_of(flags, ap);                  \
        va_end(ap);                                     \
        int fd = real_##name(path, flags, m);           \
        fd_opened(fd, path, flags);                     \
        return fd;                                      \
    }
OPEN(open)
OPEN(open64)
#define OPENAT(name)                                         \
    int name(int dirfd, const char *path, int flags, ...)    \
    {                                                        \
        REAL(int, name, (int, const char *, int, ...));      \
        va_list ap;                                          \
        va_start(ap, flags);                                 \
        mode_t m = mode_of(flags, ap);                       \
        va_end(ap);                                          \
        int fd = real_##name(dirfd, path, flags, m);         \
        fd_opened(fd, path, flags);                          \
        return fd;                                           \
    }
OPENAT(openat)
OPENAT(openat64)

int creat(const char *path, mode_t mode)
{
    REAL(int, creat, (const char *, mode_t));
    int fd = real_creat(path, mode);
    fd_opened(fd, path, O_WRONLY);
    return fd;
}

int close(int fd)
{
    REAL(int, close, (int));
    if (!busy) {
        pthread_mutex_lock(&lock);
        handle_drop(1, fd);
        pthread_mutex_unlock(&lock);
    }
    return real_close(fd);
}

static void fd_count(int fd, ssize_t n, double t0)
{
    if (busy || n < 0) return;
    double dt = now() - t0;
    pthread_mutex_lock(&lock);
    const char *path = handle_get(1, fd);
    if (path) add(find(L_POSIX, path), (long long)n, dt);
    pthread_mutex_unlock(&lock);
}

/* POSIX_WRITE(name, parameter types, parameters, arguments): a write call, timed and counted */
#define POSIX_WRITE(name, types, params, args)   \
    ssize_t name params                           \
    {                                             \
        REAL(ssize_t, name, types);               \
        double t0 = now();                        \
        ssize_t r = real_##name args;             \
        fd_count(fd, r, t0);                      \
        return r;                                 \
    }
POSIX_WRITE(write, (int, const void *, size_t), (int fd, const void *buf, size_t n), (fd, buf, n))
POSIX_WRITE(pwrite, (int, const void *, size_t, off_t), (int fd, const void *buf, size_t n, off_t off), (fd, buf, n, off))
POSIX_WRITE(pwrite64, (int, const void *, size_t, off64_t), (int fd, const void *buf, size_t n, off64_t off),
            (fd, buf, n, off))
POSIX_WRITE(writev, (int, const struct iovec *, int), (int fd, const struct iovec *iov, int cnt), (fd, iov, cnt))
POSIX_WRITE(pwritev, (int, const struct iovec *, int, off_t), (int fd, const struct iovec *iov, int cnt, off_t off),
            (fd, iov, cnt, off))
