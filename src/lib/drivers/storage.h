/* What compression achieved, measured on the files themselves: for every variable
 * of a netCDF-4 or HDF5 file its data bytes (elements x element size) and the bytes
 * HDF5 allocated for it on disk (H5Dget_storage_size), and the file's size.  Files
 * are read after the run by the first rank of each file's communicator, outside
 * every timer, and the figures gathered to rank 0 for the text and JSON reports. */
#ifndef CLIMIO_STORAGE_H
#define CLIMIO_STORAGE_H

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include "base/json.h"

typedef struct cio_storage_var {
    char *name;
    int64_t data, stored;
    int64_t uncoded;            /* szip chunks stored as raw data yet marked as coded: unreadable */
} cio_storage_var;

typedef struct cio_storage_file {
    char *path;
    int64_t file_bytes;         /* the file's size */
    int64_t data, stored;       /* sums over its variables */
    int nvars;
    cio_storage_var *vars;
    char *error;                /* why it could not be read (then no figures), or NULL */
} cio_storage_file;

typedef struct cio_storage {
    int nfiles;
    cio_storage_file *files;
} cio_storage;

/* Measure one file (serial HDF5, read only).  0, or -1 with f->error set.  Each
 * szip-coded dataset's chunks are checked too (their first 4 bytes are szip's
 * length header): a chunk szip could not shrink, which parallel HDF5 1.10 stores
 * raw but marks as coded, no reader can decode; counted in `uncoded`. */
int cio_storage_measure(const char *path, cio_storage_file *f);
/* Gather every rank's measured files to rank 0 of comm (collective); on other
 * ranks *all is left empty.  `mine` is consumed. */
void cio_storage_gather(cio_storage *mine, MPI_Comm comm, cio_storage *all);
void cio_storage_free(cio_storage *s);
/* The first variable with uncoded chunks (file and variable set), or 0. */
int cio_storage_first_uncoded(const cio_storage *s, const cio_storage_file **f, const cio_storage_var **v);

/* Text: per file and per variable data bytes, bytes on disk, ratio. */
void cio_storage_print(FILE *out, const cio_storage *s);
/* JSON: "storage": {"files": [...], "data_bytes", "stored_bytes", "file_bytes", "ratio", "file_ratio"} */
void cio_storage_json(cio_json *j, const cio_storage *s);

#endif
