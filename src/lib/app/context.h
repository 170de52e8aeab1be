/* The run context a reader needs to trust a figure: the file system of the output
 * folder (type, mount point, capacity, free space, Lustre striping), the nodes and
 * ranks per node, the host names, the MPI library and its MPI-IO component, and
 * the climio version, compiler and flags.  Gathered once per run, after the
 * output files were created, printed in the text report and the JSON. */
#ifndef CLIMIO_CONTEXT_H
#define CLIMIO_CONTEXT_H

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include "base/json.h"

typedef struct cio_fsinfo {
    int known;                  /* 0: no file was written (null driver), or statfs failed */
    char dir[1024];             /* the folder examined: that of the first file written */
    char dir_absolute[1024];    /* the same, absolute (realpath) */
    char type[64];              /* from /proc/self/mountinfo: "ext4", "nfs4", "lustre" */
    char statfs_type[64];       /* from the statfs magic, named as coreutils' `stat -f -c %T` does */
    unsigned long magic;
    char mount_point[1024];
    char source[256];           /* what is mounted: "/dev/vda", "server:/export" */
    int64_t capacity, avail;    /* bytes: size, and free to unprivileged users (f_bavail), at the end of the run */
    int64_t stripe_count, stripe_size;  /* Lustre (`lfs getstripe` on the first file), -1 unknown */
    char why[256];              /* when !known */
} cio_fsinfo;

typedef struct cio_context {
    cio_fsinfo fs;
    int nodes;                  /* distinct shared-memory nodes (MPI_Comm_split_type) */
    int rpn_min, rpn_max;       /* ranks per node */
    char hosts[1024];           /* compressed ranges: "nid[001-004]" */
    char mpi_library[256];      /* first line of MPI_Get_library_version */
    char mpi_io[16];            /* "OMPIO", "ROMIO" or "unknown" */
    char mpi_io_evidence[256];  /* how mpi_io was found */
    char version[128];          /* climio's: release and git describe */
    char version_origin[64];
    char compiler[160];
    char cflags[512];
    /* the page-cache check: the most bytes one node handed to the storage
     * library, and the memory that node had available (MemAvailable) */
    int64_t node_bytes_max, node_mem_available;
    char node_host[256];
    int fits_page_cache;        /* every node's bytes fit in its available memory */
} cio_context;

/* Collective over comm.  first_path: this rank's first file written (NULL if
 * none; the lowest rank with one is examined).  bytes_stored: the bytes this rank
 * handed to the storage library's write calls.  The result is valid on rank 0. */
void cio_context_gather(cio_context *c, MPI_Comm comm, const char *first_path, int64_t bytes_stored);

/* The text block ("run context ...") and the JSON object "context". */
void cio_context_print(FILE *out, const cio_context *c);
void cio_context_json(cio_json *j, const cio_context *c);

/* Memory-backed file systems (tmpfs, ramfs): nothing there survives a reboot. */
int cio_context_fs_in_memory(const cio_context *c);

/* statfs magic -> coreutils' name ("ext2/ext3", "tmpfs", "lustre"), NULL unknown. */
const char *cio_fs_magic_name(unsigned long magic);

#endif
