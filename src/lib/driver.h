/* The driver interface: NetCDF-shaped verbs, one C file per storage library, one
 * entry in the table in drivers.c.  A driver only makes library calls: the engine
 * owns timing, byte counts, request splitting and error propagation.
 *
 * Every verb returns 0 on success; on failure it returns non-zero and writes the
 * failing call and the library's own message into f->err (cio_driver_err()). */
#ifndef CLIMIO_DRIVER_H
#define CLIMIO_DRIVER_H

#include <mpi.h>
#include <stdint.h>
#include "types.h"
#include "util.h"

/* I/O modes, by the names GCRM users know. */
typedef enum cio_mode {
    CIO_MODE_BLOCKING_COLLECTIVE = 0,
    CIO_MODE_BLOCKING_INDEPENDENT,
    CIO_MODE_NONBLOCKING_COLLECTIVE,
    CIO_MODE_NONBLOCKING_INDEPENDENT,
    CIO_NMODES
} cio_mode;

#define CIO_MODE_BIT(m) (1u << (m))
#define CIO_MODES_ALL 0xFu
#define CIO_MODES_BLOCKING (CIO_MODE_BIT(CIO_MODE_BLOCKING_COLLECTIVE) | CIO_MODE_BIT(CIO_MODE_BLOCKING_INDEPENDENT))

static inline int cio_mode_collective(cio_mode m)
{
    return m == CIO_MODE_BLOCKING_COLLECTIVE || m == CIO_MODE_NONBLOCKING_COLLECTIVE;
}
static inline int cio_mode_nonblocking(cio_mode m)
{
    return m == CIO_MODE_NONBLOCKING_COLLECTIVE || m == CIO_MODE_NONBLOCKING_INDEPENDENT;
}
const char *cio_mode_name(cio_mode m);
int cio_mode_from_name(const char *s, cio_mode *m);

/* File formats. */
typedef enum cio_format {
    CIO_FMT_CDF1 = 0,   /* classic */
    CIO_FMT_CDF2,       /* 64-bit offset */
    CIO_FMT_CDF5,       /* 64-bit data */
    CIO_FMT_NC4,        /* netCDF-4 (HDF5) */
    CIO_FMT_NC4C,       /* netCDF-4 classic model */
    CIO_FMT_HDF5,       /* plain HDF5 */
    CIO_FMT_RAW,        /* raw bytes (MPI-IO baseline) */
    CIO_FMT_BP,         /* ADIOS2 BP */
    CIO_FMT_NONE,       /* nothing stored (null driver) */
    CIO_NFORMATS
} cio_format;
#define CIO_FMT_BIT(f) (1u << (f))
const char *cio_format_name(cio_format f);
int cio_format_from_name(const char *s, cio_format *f);

/* Options a driver may read (filled by the engine from parameters). */
typedef struct cio_driver_opts {
    cio_format format;
    cio_mode mode;
    int use_bput;               /* pnetcdf: buffered nonblocking puts */
    int64_t bput_bytes;         /* pnetcdf: attached buffer size for the file */
    int nc4_fallback_blocking;  /* netcdf: a nonblocking mode runs as blocking (explicitly asked) */
    int nofill;                 /* netcdf/pnetcdf: set NOFILL (default true, as benchmarks do) */
    int64_t chunk_bytes;        /* netcdf/hdf5: target chunk size, 0 = contiguous where possible */
    const char *chunking;       /* "auto", "contiguous", or "d0,d1,..." explicit chunk sizes */
    int deflate;                /* netcdf/hdf5: deflate level (needs chunking); 0 = off */
    const char *adios2_params;  /* adios2: more engine parameters, "Key=Value,Key=Value" */
    cio_format kernel_format;   /* the kernel's own default format (CIO_FMT_NONE: the driver's); the
                                 * adios2 driver records it so climio_bp2nc writes the same files */
    const char *adios2_engine;  /* adios2: "BP5" */
    int adios2_aggregators;     /* adios2: number of aggregators, 0 = engine default */
    int64_t round_bytes;        /* set by the engine: the most bytes one rank posts in one wait round
                                 * (max_request_size), so a bput buffer never needs more */
} cio_driver_opts;

/* One write or read: `nblocks` blocks of variable `varid` (all the variable's
 * dimensions, the record dimension first for record variables), packed one after
 * another in buf, each block row-major. */
typedef struct cio_req {
    int varid;
    cio_type type;
    int ndims;
    int nblocks;
    const int64_t *start;       /* nblocks x ndims */
    const int64_t *count;       /* nblocks x ndims */
    int max_nblocks;            /* over the file's communicator (equal collective call counts) */
    void *buf;
    int64_t nelems;
} cio_req;

struct cio_driver;

/* A driver-level open file. */
typedef struct cio_dfile {
    const struct cio_driver *drv;
    const cio_driver_opts *opts;
    MPI_Comm comm;
    int rank, nprocs;
    const char *path;
    int writable;
    int64_t plan_bytes;         /* this rank's bytes of one record of every variable (sizes bput buffers) */
    void *priv;                 /* the driver's own state */
    int extend_collective;      /* set by the driver at create/open: adding a record is collective
                                 * even in the independent modes (HDF5 extends datasets only
                                 * collectively), so the engine makes the same number of put calls
                                 * on every rank for record variables there too, as in the
                                 * collective modes (empty calls where a rank has nothing) */
    char err[CIO_ERRMSG_LEN];   /* "ncmpi_create: <library message>" */
} cio_dfile;

typedef struct cio_driver {
    const char *name;
    const char *description;
    unsigned modes;             /* CIO_MODE_BIT set */
    unsigned formats;           /* CIO_FMT_BIT set */
    cio_format default_format;
    const char *(*version)(void);   /* library version text */

    int (*create)(cio_dfile *f, MPI_Info info);
    int (*open)(cio_dfile *f, MPI_Info info);   /* existing file, f->writable says how */
    int (*def_dim)(cio_dfile *f, const char *name, int64_t len, int *dimid);  /* len CIO_UNLIMITED = record */
    int (*def_var)(cio_dfile *f, const char *name, cio_type t, int ndims, const int *dimids, int *varid);
    int (*put_att)(cio_dfile *f, int varid, const char *name, cio_type t, int64_t len, const void *vals);
    int (*enddef)(cio_dfile *f);
    /* After open: the id of a variable by name and the current number of records. */
    int (*inq_varid)(cio_dfile *f, const char *name, int *varid);
    int (*inq_nrecs)(cio_dfile *f, int64_t *nrecs);
    /* Write or read per f->opts->mode: blocking modes complete the call; the
     * nonblocking modes post it and wait() completes everything posted. */
    int (*put)(cio_dfile *f, const cio_req *r);
    int (*get)(cio_dfile *f, const cio_req *r);
    int (*wait)(cio_dfile *f);
    /* Bytes the library says it moved since open (header included), -1 if unknown. */
    int (*inq_put_size)(cio_dfile *f, int64_t *bytes);
    int (*inq_get_size)(cio_dfile *f, int64_t *bytes);
    int (*close)(cio_dfile *f);
    /* The hints the MPI-IO layer applied (caller frees with MPI_Info_free). */
    int (*file_info)(cio_dfile *f, MPI_Info *info);
    /* Optional: size in bytes of the file's header/metadata (classic formats). */
    int (*header_size)(cio_dfile *f, int64_t *bytes);
    /* Optional: read an attribute (varid -1: global) of an open file, converting to
     * type t; at most maxlen elements into vals, the stored length in *len.  Returns
     * 1 (no error message) when the attribute does not exist. */
    int (*get_att)(cio_dfile *f, int varid, const char *name, cio_type t, int64_t maxlen, void *vals, int64_t *len);
    /* Optional: one line on what the driver saw, for the report (e.g. the I/O
     * mode HDF5 really used); empty when there is nothing to say. */
    void (*describe)(char *buf, size_t len);
} cio_driver;

/* The table: every driver built, NULL-terminated. */
extern const cio_driver *const cio_drivers[];
const cio_driver *cio_driver_find(const char *name);
/* "null mpiio pnetcdf ..." */
const char *cio_driver_names(void);

/* For drivers: record "call: message" in f->err and return -1. */
int cio_driver_err(cio_dfile *f, const char *call, const char *fmt, ...) CIO_PRINTF(3, 4);

#endif
