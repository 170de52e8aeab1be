/* A test helper, loaded with LD_PRELOAD: logs every PnetCDF write and wait call
 * a process makes, one line each, to $PNC_CALLS_DIR/<world rank>.log:
 *
 *     <file> <call> <variable> <regions> [<start>:<count>]
 *
 * (the file's base name, the PnetCDF function, the variable's name or "-" for a
 * wait, the regions handed over: a varn call's count, 1 for vara and var calls,
 * the requests for a wait; a vara call's region, e.g. 0,4:1,3), so a test counts
 * the calls a program really made and compares them with what a map implies.
 * The real functions are found with dlsym(RTLD_NEXT). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpi.h>
#include <pnetcdf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXFILES 64

static struct {
    int ncid;
    char name[256];
} files[MAXFILES];
static FILE *logf;

static void log_call_at(int ncid, const char *call, int varid, long long regions, const MPI_Offset *start,
                        const MPI_Offset *count);
static void log_call(int ncid, const char *call, int varid, long long regions)
{
    log_call_at(ncid, call, varid, regions, NULL, NULL);
}

static void log_call_at(int ncid, const char *call, int varid, long long regions, const MPI_Offset *start,
                        const MPI_Offset *count)
{
    if (!logf) {
        const char *dir = getenv("PNC_CALLS_DIR");
        int rank = 0;
        char path[4096];
        if (!dir) return;
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        snprintf(path, sizeof path, "%s/%d.log", dir, rank);
        if (!(logf = fopen(path, "a"))) return;
    }
    const char *file = "?";
    for (int i = 0; i < MAXFILES; i++)
        if (files[i].name[0] && files[i].ncid == ncid) file = files[i].name;
    char var[NC_MAX_NAME + 1] = "-";
    typedef int (*inq_fn)(int, int, char *);
    static inq_fn inq;
    if (!inq) inq = (inq_fn)dlsym(RTLD_NEXT, "ncmpi_inq_varname");
    if (varid >= 0 && inq(ncid, varid, var) != NC_NOERR) strcpy(var, "?");
    fprintf(logf, "%s %s %s %lld", file, call, var, regions);
    typedef int (*ndims_fn)(int, int, int *);
    static ndims_fn inq_ndims;
    if (!inq_ndims) inq_ndims = (ndims_fn)dlsym(RTLD_NEXT, "ncmpi_inq_varndims");
    int nd = 0;
    if (start && count && inq_ndims(ncid, varid, &nd) == NC_NOERR && nd > 0) {
        for (int i = 0; i < nd; i++) fprintf(logf, "%s%lld", i ? "," : " ", (long long)start[i]);
        for (int i = 0; i < nd; i++) fprintf(logf, "%s%lld", i ? "," : ":", (long long)count[i]);
    }
    fputc('\n', logf);
    fflush(logf);
}

#define REAL(name, type) \
    static type real_;    \
    if (!real_) real_ = (type)dlsym(RTLD_NEXT, name)

typedef int (*create_fn)(MPI_Comm, const char *, int, MPI_Info, int *);
typedef int (*close_fn)(int);
typedef int (*var_fn)(int, int, const void *, MPI_Offset, MPI_Datatype, int *);
typedef int (*wait_fn)(int, int, int *, int *);

int ncmpi_create(MPI_Comm comm, const char *path, int cmode, MPI_Info info, int *ncidp)
{
    REAL("ncmpi_create", create_fn);
    int rc = real_(comm, path, cmode, info, ncidp);
    if (rc == NC_NOERR) {
        const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
        for (int i = 0; i < MAXFILES; i++)
            if (!files[i].name[0] || files[i].ncid == *ncidp) {
                files[i].ncid = *ncidp;
                snprintf(files[i].name, sizeof files[i].name, "%s", base);
                break;
            }
    }
    return rc;
}

int ncmpi_close(int ncid)
{
    REAL("ncmpi_close", close_fn);
    for (int i = 0; i < MAXFILES; i++)
        if (files[i].name[0] && files[i].ncid == ncid) files[i].name[0] = 0;
    return real_(ncid);
}

typedef int (*varn_fn)(int, int, int, MPI_Offset *const *, MPI_Offset *const *, const void *, MPI_Offset,
                       MPI_Datatype, int *);
typedef int (*varn_blk_fn)(int, int, int, MPI_Offset *const *, MPI_Offset *const *, const void *, MPI_Offset,
                           MPI_Datatype);
typedef int (*vara_fn)(int, int, const MPI_Offset *, const MPI_Offset *, const void *, MPI_Offset, MPI_Datatype, int *);
typedef int (*vara_blk_fn)(int, int, const MPI_Offset *, const MPI_Offset *, const void *, MPI_Offset, MPI_Datatype);

int ncmpi_iput_varn(int ncid, int varid, int num, MPI_Offset *const *starts, MPI_Offset *const *counts,
                    const void *buf, MPI_Offset bufcount, MPI_Datatype t, int *req)
{
    REAL("ncmpi_iput_varn", varn_fn);
    log_call(ncid, "ncmpi_iput_varn", varid, num);
    return real_(ncid, varid, num, starts, counts, buf, bufcount, t, req);
}

int ncmpi_bput_varn(int ncid, int varid, int num, MPI_Offset *const *starts, MPI_Offset *const *counts,
                    const void *buf, MPI_Offset bufcount, MPI_Datatype t, int *req)
{
    REAL("ncmpi_bput_varn", varn_fn);
    log_call(ncid, "ncmpi_bput_varn", varid, num);
    return real_(ncid, varid, num, starts, counts, buf, bufcount, t, req);
}

int ncmpi_put_varn_all(int ncid, int varid, int num, MPI_Offset *const *starts, MPI_Offset *const *counts,
                       const void *buf, MPI_Offset bufcount, MPI_Datatype t)
{
    REAL("ncmpi_put_varn_all", varn_blk_fn);
    log_call(ncid, "ncmpi_put_varn_all", varid, num);
    return real_(ncid, varid, num, starts, counts, buf, bufcount, t);
}

int ncmpi_put_varn(int ncid, int varid, int num, MPI_Offset *const *starts, MPI_Offset *const *counts,
                   const void *buf, MPI_Offset bufcount, MPI_Datatype t)
{
    REAL("ncmpi_put_varn", varn_blk_fn);
    log_call(ncid, "ncmpi_put_varn", varid, num);
    return real_(ncid, varid, num, starts, counts, buf, bufcount, t);
}

int ncmpi_iput_vara(int ncid, int varid, const MPI_Offset *start, const MPI_Offset *count, const void *buf,
                    MPI_Offset bufcount, MPI_Datatype t, int *req)
{
    REAL("ncmpi_iput_vara", vara_fn);
    log_call_at(ncid, "ncmpi_iput_vara", varid, 1, start, count);
    return real_(ncid, varid, start, count, buf, bufcount, t, req);
}

int ncmpi_bput_vara(int ncid, int varid, const MPI_Offset *start, const MPI_Offset *count, const void *buf,
                    MPI_Offset bufcount, MPI_Datatype t, int *req)
{
    REAL("ncmpi_bput_vara", vara_fn);
    log_call_at(ncid, "ncmpi_bput_vara", varid, 1, start, count);
    return real_(ncid, varid, start, count, buf, bufcount, t, req);
}

int ncmpi_put_vara(int ncid, int varid, const MPI_Offset *start, const MPI_Offset *count, const void *buf,
                   MPI_Offset bufcount, MPI_Datatype t)
{
    REAL("ncmpi_put_vara", vara_blk_fn);
    log_call_at(ncid, "ncmpi_put_vara", varid, 1, start, count);
    return real_(ncid, varid, start, count, buf, bufcount, t);
}

int ncmpi_put_vara_all(int ncid, int varid, const MPI_Offset *start, const MPI_Offset *count, const void *buf,
                       MPI_Offset bufcount, MPI_Datatype t)
{
    REAL("ncmpi_put_vara_all", vara_blk_fn);
    log_call_at(ncid, "ncmpi_put_vara_all", varid, 1, start, count);
    return real_(ncid, varid, start, count, buf, bufcount, t);
}

int ncmpi_iput_var(int ncid, int varid, const void *buf, MPI_Offset bufcount, MPI_Datatype t, int *req)
{
    REAL("ncmpi_iput_var", var_fn);
    log_call(ncid, "ncmpi_iput_var", varid, 1);
    return real_(ncid, varid, buf, bufcount, t, req);
}

int ncmpi_wait_all(int ncid, int num, int *reqs, int *st)
{
    REAL("ncmpi_wait_all", wait_fn);
    log_call(ncid, "ncmpi_wait_all", -1, num);
    return real_(ncid, num, reqs, st);
}

int ncmpi_wait(int ncid, int num, int *reqs, int *st)
{
    REAL("ncmpi_wait", wait_fn);
    log_call(ncid, "ncmpi_wait", -1, num);
    return real_(ncid, num, reqs, st);
}
