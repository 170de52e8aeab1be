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
#include "data/schema.h"
#include "base/types.h"
#include "base/util.h"

/* I/O modes, by the names GCRM users know: the one list the enum, the names and
 * the parameter choices (CIO_MODE_CHOICES, in this order) are built from. */
#define CIO_MODE_LIST(X)                                          \
    X(NONBLOCKING_COLLECTIVE, 2, "nonblocking_collective")        \
    X(NONBLOCKING_INDEPENDENT, 3, "nonblocking_independent")      \
    X(BLOCKING_COLLECTIVE, 0, "blocking_collective")              \
    X(BLOCKING_INDEPENDENT, 1, "blocking_independent")

typedef enum cio_mode {
#define CIO_MODE_ENUM_(id, value, name) CIO_MODE_##id = value,
    CIO_MODE_LIST(CIO_MODE_ENUM_)
    CIO_NMODES = 4
} cio_mode;
/* "a|b|c": the list joined (a leading '|' skipped) */
#define CIO_MODE_CHOICE_(id, value, name) "|" name
#define CIO_MODE_CHOICES (CIO_MODE_LIST(CIO_MODE_CHOICE_) + 1)

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

/* File formats: the one list of their names (CIO_FORMAT_CHOICES for parameters)
 * and of the suffix a kernel gives a file of the format.  A BP output is named
 * for the netCDF file it stands for (the adios2 driver adds ".bp": NAME.nc.bp,
 * which climio_bp2nc turns into NAME.nc); the null driver's names are only said. */
#define CIO_FORMAT_LIST(X)                                      \
    X(CDF1, "cdf1", ".nc")    /* classic */                     \
    X(CDF2, "cdf2", ".nc")    /* 64-bit offset */               \
    X(CDF5, "cdf5", ".nc")    /* 64-bit data */                 \
    X(NC4, "nc4", ".nc")      /* netCDF-4 (HDF5) */             \
    X(NC4C, "nc4c", ".nc")    /* netCDF-4 classic model */      \
    X(HDF5, "hdf5", ".h5")    /* plain HDF5 */                  \
    X(RAW, "raw", ".raw")     /* raw bytes (MPI-IO baseline): netCDF tools cannot read them */ \
    X(BP, "bp", ".nc")        /* ADIOS2 BP */                   \
    X(NONE, "none", ".nc")    /* nothing stored (null driver) */

typedef enum cio_format {
#define CIO_FORMAT_ENUM_(id, name, suffix) CIO_FMT_##id,
    CIO_FORMAT_LIST(CIO_FORMAT_ENUM_)
    CIO_NFORMATS
} cio_format;
#define CIO_FORMAT_CHOICE_(id, name, suffix) "|" name
#define CIO_FORMAT_CHOICES (CIO_FORMAT_LIST(CIO_FORMAT_CHOICE_) + 1)
#define CIO_FMT_BIT(f) (1u << (f))
const char *cio_format_name(cio_format f);
/* The file name suffix kernels give a file of this format (CIO_FORMAT_LIST). */
const char *cio_format_suffix(cio_format f);
/* Whether f is a netCDF-4 format (nc4, nc4c). */
int cio_format_is_netcdf4(cio_format f);
int cio_format_from_name(const char *s, cio_format *f);

struct cio_params;

/* What every driver may read (filled from the parameters by cio_app_setup_engine).
 * A driver's own settings are its parameters (cio_driver.params), read from
 * `params` by its configure hook or when it opens a file. */
typedef struct cio_driver_opts {
    cio_format format;
    cio_mode mode;
    cio_format kernel_format;   /* the kernel's own default format (CIO_FMT_NONE: the driver's); the
                                 * adios2 driver records it so climio_bp2nc writes the same files */
    int nofill;                 /* netcdf/pnetcdf/hdf5: do not pre-fill (default true, as benchmarks do) */
    const char *chunking;       /* netcdf/hdf5: "auto", "contiguous", or "d0,d1,..." explicit chunk sizes */
    const char *chunking_origin;    /* where it came from, for messages */
    int deflate;                /* netcdf/hdf5: deflate level (needs chunking); 0 = off */
    int shuffle;                /* netcdf/hdf5: byte shuffle before the other filters */
    int szip;                   /* netcdf/hdf5: szip, nearest-neighbour coding (compress.h) */
    int quantize;               /* netcdf: CIO_QUANTIZE_* of float and double data variables */
    int quantize_digits;        /* significant decimal digits quantization keeps */
    int serial;                 /* a driver with serial_api: one-rank files through the library's serial
                                 * API (as --nc_serial does) */
    int size_hint_env;          /* with serial: each file's size hint from the environment, as FMS */
    int64_t size_hint;          /* with serial: the kernel's size hint (0: the driver's own parameter) */
    int64_t header_pad;         /* netcdf/pnetcdf, classic formats: free bytes after the header
                                 * (nc__enddef / ncmpi__enddef h_minfree), 0 = library default */
    int64_t round_bytes;        /* set by the engine: the most bytes one rank posts in one wait round
                                 * (max_request_size), so a bput buffer never needs more */
    const struct cio_params *params;  /* the run's parameters (NULL: every driver parameter at its default) */
    const void *conf;           /* what the driver's configure hook made of its parameters */
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
    int one_call;               /* the variable is CIO_VAR_ONE_CALL: a driver with posts_varn makes one
                                 * call of all the blocks (none: an empty call), in every mode */
} cio_req;

struct cio_driver;

/* A variable as an open file holds it (inq_var), which verification compares
 * with what the kernel planned. */
typedef struct cio_var_layout {
    char type[32];                  /* by its netCDF CDL name ("double", "uint", "string", ...) */
    int ndims;                      /* as many as the file says (names and lengths: the first CIO_MAX_DIMS) */
    int is_record;                  /* the first dimension is the record (unlimited) one */
    char dim[CIO_MAX_DIMS][257];    /* names (netCDF: at most NC_MAX_NAME, 256); "" where the file names none
                                     * (an HDF5 dataset without dimension scales) */
    int64_t len[CIO_MAX_DIMS];      /* lengths; the record dimension's is its record count */
} cio_var_layout;

/* A driver-level open file. */
typedef struct cio_dfile {
    const struct cio_driver *drv;
    const cio_driver_opts *opts;
    MPI_Comm comm;
    int rank, nprocs;
    const char *path;
    int writable;
    int64_t plan_bytes;         /* this rank's bytes of one record of every variable (sizes bput buffers) */
    int64_t again_bytes;        /* bytes written again over themselves (the engine's cio_write_again):
                                 * left out of the sum the size check after close expects */
    void *priv;                 /* the driver's own state */
    int extend_collective;      /* set by the driver at create/open: adding a record is collective
                                 * even in the independent modes (HDF5 extends datasets only
                                 * collectively), so the engine makes the same number of put calls
                                 * on every rank for record variables there too, as in the
                                 * collective modes (empty calls where a rank has nothing) */
    /* The engine's exchange at a point where the driver synchronizes the ranks
     * anyway (cio_dfile_ranks_meet): agree_n ints of agree_in reduced with
     * MPI_MAX into agree_out, agree_done set; none (agree_n 0): a barrier. */
    const int *agree_in;
    int *agree_out;
    int agree_n, agree_done;
    char err[CIO_ERRMSG_LEN];   /* "ncmpi_create: <library message>" */
} cio_dfile;

typedef struct cio_driver {
    const char *name;
    const char *description;
    unsigned modes;             /* CIO_MODE_BIT set */
    unsigned formats;           /* CIO_FMT_BIT set */
    cio_format default_format;
    int stores_data;            /* 0: nothing is stored (null), so nothing can be read back */
    /* What else it can do: the suite asks these, never the driver's name. */
    unsigned filter_formats;    /* CIO_FMT_BIT set: formats whose variables it chunks and filters
                                 * (--chunking, --deflate, --shuffle, --szip); elsewhere they are off */
    unsigned quantize_formats;  /* formats whose float data it quantizes (--quantize) */
    int filters_collective;     /* filtered variables are written collectively only (parallel HDF5):
                                 * an independent iotype runs as its collective counterpart */
    int serial_api;             /* writes a one-rank file through the library's serial API when
                                 * cio_driver_opts.serial asks (FMS's and MAPL's single writers) */
    int no_char;                /* its library has no text type: CIO_CHAR variables are refused */
    int posts_varn;             /* writes a request's blocks in one library call (cio_req.one_call) in every
                                 * mode (PnetCDF's iput_varn, put_varn); elsewhere each block is a call, or
                                 * what the library's own collective call makes of them */
    unsigned fill_formats;      /* formats whose variables it pre-fills unless --nofill (nc_set_fill,
                                 * H5Pset_fill_time); elsewhere --nofill has no effect */
    unsigned pad_formats;       /* formats where --header_pad reaches the file (or, for a format that is
                                 * converted later, the recorded setting the converter uses) */
    unsigned hint_formats;      /* formats it writes through MPI-IO with the run's hints (or records them
                                 * for a later conversion); elsewhere --hints has no effect */
    const char *hint_prefix;    /* hints its library reads itself and lists back (PnetCDF: "nc_") */
    const char *ior_api;        /* IOR's -a for the same library ("NCMPI", "HDF5"); NULL: MPIIO */
    const char *(*version)(void);   /* library version text */

    /* Optional: the driver's own parameters ("<driver>: ..." in their help),
     * ending with CIO_PARAM_END; every kernel accepts them whichever driver runs. */
    const struct cio_param_spec *params;
    /* Optional: read and check the driver's parameters before any file is
     * opened (every rank, same result); *conf (freed with cio_free at exit, may
     * stay NULL) is passed to the verbs as f->opts->conf.  Non-zero with e set
     * (naming the parameter's origin) stops the run. */
    int (*configure)(const struct cio_params *p, const cio_driver_opts *o, void **conf, cio_err *e);
    /* Optional: 1 when its own parameter `key`, given, has no effect with the
     * other settings (o) and parameters of this run, with the words after "has
     * no effect" in why (": --bput is off"); 0 when it acts.  The applicability
     * table (app/applicability.h) asks it. */
    int (*param_idle)(const struct cio_params *p, const cio_driver_opts *o, const char *key, char *why, size_t n);
    /* Optional: why mode m (not in `modes`) is refused and what to use instead,
     * appended to the error in parentheses; NULL for no explanation. */
    const char *(*refusal)(cio_mode m);

    int (*create)(cio_dfile *f, MPI_Info info);
    int (*open)(cio_dfile *f, MPI_Info info);   /* existing file, f->writable says how */
    int (*def_dim)(cio_dfile *f, const char *name, int64_t len, int *dimid);  /* len CIO_UNLIMITED = record */
    /* Every driver accepts every cio_type, CIO_CHAR included: a character variable
     * (NC_CHAR; HDF5 1-byte strings as netCDF-4 stores them; raw bytes) whose put
     * and get move the text's bytes.  A driver whose library has no such type
     * refuses it here with a message naming the variable (adios2). */
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
    /* Make everything written so far durable (--fsync): the library's flush, then
     * MPI_File_sync; collective over the file's communicator.  NULL: the library
     * offers no such call, and --fsync is refused for the driver. */
    int (*sync)(cio_dfile *f);
    /* Make a file this rank wrote, now closed, durable (--fsync end: once per file,
     * after the output phase's last write, as IOR's -e): what the library handed
     * the operating system at its close reaches storage.  No file is open: f->path
     * is the path the engine gave (the driver knows where it put the file), f->comm
     * MPI_COMM_SELF; not collective.  *calls: the fsync calls made (a folder
     * output: one a file; 0 where nothing is stored).  NULL: --fsync end is
     * refused for the driver. */
    int (*sync_closed)(cio_dfile *f, int *calls);
    /* The hints the MPI-IO layer applied (caller frees with MPI_Info_free). */
    int (*file_info)(cio_dfile *f, MPI_Info *info);
    /* Optional: what the library writes on disk for the engine's path (ADIOS2:
     * the folder NAME.bp), for the files a repetition removes; NULL: the path. */
    void (*stored_path)(const char *path, char *out, size_t n);
    /* Optional: why the file at path would not open, from its bytes, as " (the file
     * is empty: 0 bytes)" ("" when it cannot tell), appended to the open error. */
    void (*open_diagnosis)(const char *path, char *out, size_t n);
    /* Optional: size in bytes of the file's header/metadata (classic formats). */
    int (*header_size)(cio_dfile *f, int64_t *bytes);
    /* Optional: the most bytes the open file may hold, as its own header says (the
     * end of its last variable with its current records, padding included), so
     * that data past the end (a file appended to) fails verification as it fails
     * ncvalidator.  Formats whose size the library does not define leave it NULL. */
    int (*max_extent)(cio_dfile *f, int64_t *bytes);
    /* Optional: read an attribute (varid -1: global) of an open file, converting to
     * type t; at most maxlen elements into vals, the stored length in *len.  Returns
     * 1 (no error message) when the attribute does not exist. */
    int (*get_att)(cio_dfile *f, int varid, const char *name, cio_type t, int64_t maxlen, void *vals, int64_t *len);
    /* Optional: one line on what the driver saw, for the report (e.g. the I/O
     * mode HDF5 really used); empty when there is nothing to say. */
    void (*describe)(char *buf, size_t len);
    /* Optional, for checking an input file before using it: the length of a
     * dimension by name (1, no message, when there is none; the record dimension
     * gives its record count) and the bytes the file must hold to contain all the
     * data its header declares (-1: the library cannot say, e.g. netCDF-4). */
    int (*inq_dimlen)(cio_dfile *f, const char *name, int64_t *len);
    int (*data_end)(cio_dfile *f, int64_t *bytes);
    /* What the open file holds for a variable (a varid from inq_varid): its type
     * and dimensions, which read-back checks against the plan before reading any
     * value.  Every driver that stores data has it; only metadata is read (every
     * rank may call it, independently). */
    int (*inq_var)(cio_dfile *f, int varid, cio_var_layout *out);
} cio_driver;

/* The table: every driver built, NULL-terminated. */
extern const cio_driver *const cio_drivers[];
const cio_driver *cio_driver_find(const char *name);
/* The first driver (in the table's order of preference) that writes format f, or NULL. */
const cio_driver *cio_driver_for_format(cio_format f);
/* The first driver with a serial API (serial_api), or NULL. */
const cio_driver *cio_driver_with_serial_api(void);
/* Whether d writes netCDF files (a classic or netCDF-4 format). */
int cio_driver_writes_netcdf(const cio_driver *d);
/* "null mpiio pnetcdf ..." */
const char *cio_driver_names(void);

/* For drivers: record "call: message" in f->err and return -1. */
int cio_driver_err(cio_dfile *f, const char *call, const char *fmt, ...) CIO_PRINTF(3, 4);

#endif
