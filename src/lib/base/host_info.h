/* The machine a run ran on, for the JSON's context: operating system and
 * kernel, CPU model and count, node memory, load average at the start and end
 * of the run, and the environment settings that steer MPI-IO (Open MPI's
 * OMPI_MCA_io/fs/fbtl/fcoll/sharedfp*, ROMIO_*, MPICH_MPIIO_*, PNETCDF_HINTS).  Read on rank 0 from /proc and uname. */
#ifndef CLIMIO_HOST_INFO_H
#define CLIMIO_HOST_INFO_H

#include "base/json.h"

typedef struct cio_host_info {
    char name[256];             /* gethostname */
    char os[128];               /* PRETTY_NAME of /etc/os-release, or "unknown" */
    char kernel[300];           /* uname: sysname release version machine */
    char cpu_model[128];        /* /proc/cpuinfo "model name", or "unknown" */
    int cpus_online;            /* sysconf(_SC_NPROCESSORS_ONLN) */
    long long mem_total;        /* bytes, MemTotal of /proc/meminfo; -1 unknown */
    double load_start[3], load_end[3];  /* /proc/loadavg; -1 unknown */
} cio_host_info;

/* /proc/loadavg's three figures into load (each -1 when unreadable). */
void cio_host_loadavg(double load[3]);
/* Everything but the load average at the start, which the caller keeps. */
void cio_host_info_read(cio_host_info *h);
/* "host": {...} and "mpi_io_environment": {...} members of the current object. */
void cio_host_info_json(cio_json *j, const cio_host_info *h);

#endif
