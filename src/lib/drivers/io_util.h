/* Helpers shared by the drivers: file-ordered runs (mpiio, hdf5), chunk shapes
 * (netcdf, hdf5), and two error aids (every driver).
 *
 * A request's blocks are packed one after another in the buffer, each row-major,
 * but in the file the rows of different blocks interleave (two slabs of y rows
 * that both span every z level, say).  MPI file types must have nondecreasing
 * offsets and an HDF5 union of hyperslabs is traversed in file order, so both
 * need the request as "runs": contiguous pieces with a file offset and a buffer
 * offset, sorted by file offset. */
#ifndef CLIMIO_IO_UTIL_H
#define CLIMIO_IO_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "base/types.h"

struct cio_dfile;

typedef struct cio_run {
    int64_t off;    /* file (or array) byte offset */
    int64_t src;    /* byte offset in the buffer, or an absolute address */
    int64_t len;    /* bytes */
} cio_run;

typedef struct cio_runs {
    int64_t n, cap;
    cio_run *r;
} cio_runs;

/* Append the runs of one block of a row-major array of `ndims` dimensions with
 * the given shape (shape[0] is not used, so a record dimension can be passed
 * with any length) and `es`-byte elements: file offsets from `base`, buffer
 * offsets from `src`.  ndims 0 is a scalar.  Rows that continue each other in
 * both file and buffer are merged.  Returns the block's bytes. */
int64_t cio_runs_add_block(cio_runs *rs, int ndims, const int64_t *shape, const int64_t *start,
                           const int64_t *count, int64_t es, int64_t base, int64_t src);
/* Sort by file offset and merge runs contiguous in both file and buffer, no run
 * growing above maxlen bytes. */
void cio_runs_sort_merge(cio_runs *rs, int64_t maxlen);
/* 1 when the sorted runs take the buffer from offset 0 in order, without gaps:
 * the packed buffer already is in file order. */
int cio_runs_buffer_in_order(const cio_runs *rs);
void cio_runs_clear(cio_runs *rs);
void cio_runs_free(cio_runs *rs);

/* The `chunking` option: "auto", "contiguous", "default" (the library's own choice:
 * netCDF-C's default chunks; where a library has none, HDF5, as auto) or explicit
 * sizes "c0,c1,...". */
typedef struct cio_chunking {
    int kind;               /* CIO_CHUNK_AUTO, CIO_CHUNK_CONTIGUOUS, CIO_CHUNK_EXPLICIT, CIO_CHUNK_LIBRARY */
    int ndims;              /* explicit: how many sizes */
    int64_t size[8];
} cio_chunking;
enum { CIO_CHUNK_AUTO = 0, CIO_CHUNK_CONTIGUOUS, CIO_CHUNK_EXPLICIT, CIO_CHUNK_LIBRARY };

/* Parse the option; on error returns -1 with a message in err. */
int cio_chunking_parse(const char *spec, cio_chunking *c, char *err, size_t errlen);

/* The default chunk target: a chunk of a record is at most this many bytes. */
#define CIO_CHUNK_TARGET_DEFAULT ((int64_t)64 << 20)

/* The chunk shape of a variable (dims[0] of a record variable is ignored),
 * returns 1 for chunked storage, 0 for contiguous.  Record variables are always
 * chunked (an extendible dataset must be); fixed ones are contiguous unless sizes
 * are given for their rank or `need_chunks` (deflate) asks for chunks.
 * Auto: one record deep and the whole extent of the other dimensions, the
 * outermost ones halved in turn until the chunk is at most target bytes.
 * Explicit sizes apply to variables with that many dimensions (record first),
 * clamped to the dimension lengths; other variables get the automatic shape. */
int cio_chunk_shape(const cio_chunking *c, int ndims, const int64_t *dims, int is_record, int64_t es,
                    int need_chunks, int64_t *chunk);

/* After a failed create or open: append to f->err what is wrong with the
 * file's directory, if anything ("directory D: No such file or directory"),
 * since libraries often say only "Permission denied" or "Unknown error". */
void cio_dir_hint(struct cio_dfile *f);

/* After the library has closed a file this rank wrote to, check that the file
 * is as long as the data written into it: some MPI-IO layers (Open MPI 4.1's
 * OMPIO) print a failed write on stderr and still return success, so a full
 * file system would otherwise go unnoticed.  end: the file offset just past
 * the last byte this rank wrote (-1 unknown); bytes: the data bytes this rank
 * wrote since open.  Collective over f->comm (reductions to rank 0: the other
 * ranks do not wait); returns 0, or -1 with f->err set on rank 0 alone. */
int cio_check_file_size(struct cio_dfile *f, int64_t end, int64_t bytes);

/* fsync a closed output at path (sync_closed, --fsync end): a regular file, or each
 * regular file directly in a folder (an ADIOS2 BP output); *calls counts the
 * fsync calls.  0, or -1 with f->err naming the path. */
int cio_fsync_path(struct cio_dfile *f, const char *path, int *calls);
/* sync_closed for a driver whose file is at the path the engine gave. */
int cio_sync_closed_path(struct cio_dfile *f, int *calls);
/* Where a driver must hold every rank of the file's communicator (after rank 0
 * removed an old file, before the open): the engine's exchange when it left one
 * (cio_dfile agree_*), which holds them as well, else a barrier. */
void cio_dfile_ranks_meet(struct cio_dfile *f);

/* Why a netCDF or HDF5 file would not open, from its size and first bytes, as
 * " (the file is empty: 0 bytes)" and the like ("" when it cannot tell): the
 * libraries' own words for a cut or foreign file are misleading. */
void cio_nc_open_diagnosis(const char *path, char *out, size_t n);

/* szip's pixels per block for a variable of type t whose chunk's fastest dimension
 * (szip's scanline) has n elements: 32, 16 or 8, the largest that divides n (with
 * libaec, a scanline that is no multiple of the block, 40 with 32, gives chunks
 * HDF5 then fails to decompress: "szip_filter: decompression failed"); 0 (no szip
 * for that variable) when none does, and for text (char): szip codes integers and
 * floating-point numbers only, HDF5 refuses a string type. */
int cio_szip_pixels(cio_type t, int64_t n);

/* The same for a chunk whose fastest length the caller may still change: when no
 * block divides *fastest (180 columns, say), *fastest is lowered to the largest
 * multiple of 8 below it (176: blocks of 16), so that szip applies instead of the
 * variable being stored unfiltered; 0 when *fastest < 8 or t is text. */
int cio_szip_fit(cio_type t, int64_t *fastest);

/* After a failed open: append to f->err that the file is truncated, when its
 * HDF5 superblock says so (cio_hdf5_stored_end) ("PATH is N bytes, but its HDF5 superblock says ..."),
 * since the libraries say only "HDF error" or "truncated file". */
void cio_truncation_hint(struct cio_dfile *f);

/* A netCDF type's CDL name ("double", "uint", ...) by its number in the netCDF
 * formats (NC_BYTE 1 ... NC_STRING 12), which netCDF-C and PnetCDF share; other
 * numbers (user-defined netCDF-4 types) as "type N" in buf. */
const char *cio_nc_type_name(int nctype, char *buf, size_t len);

#endif
