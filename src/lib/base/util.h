/* Small shared helpers: error reporting that ends every rank, tracked memory,
 * strings.  Everything in climio that can fail reports through here. */
#ifndef CLIMIO_UTIL_H
#define CLIMIO_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdarg.h>
#include <mpi.h>

#if defined(__GNUC__)
#define CIO_PRINTF(a, b) __attribute__((format(printf, a, b)))
#define CIO_NORETURN __attribute__((noreturn))
#else
#define CIO_PRINTF(a, b)
#define CIO_NORETURN
#endif

#define CIO_ERRMSG_LEN 1024
/* A macro's value as a string literal: CIO_XSTR(N) -> "N's value". */
#define CIO_STR_(x) #x
#define CIO_XSTR(x) CIO_STR_(x)

/* An error message being built by a parser or a driver call. */
typedef struct cio_err {
    int code;                   /* 0: no error */
    char msg[CIO_ERRMSG_LEN];
} cio_err;

/* Record an error (first one wins) and return -1 so callers can `return cio_seterr(...)`. */
int cio_seterr(cio_err *e, const char *fmt, ...) CIO_PRINTF(2, 3);

/* The program name used as message prefix ("gcrm_io", "mom_io", ...). */
void cio_set_progname(const char *name);
const char *cio_progname(void);

/* A write past the file size limit (ulimit -f) raises SIGXFSZ, whose default
 * kills the process where it stands: the partial file keeps its name, a lock
 * stays, nothing is said.  Every program ignores it at its start, so such a
 * write fails with EFBIG and the program's error path runs (names the file,
 * removes or renames what it must, exits from every rank). */
void cio_file_size_limit_as_error(void);
/* A fatal error on this rank: print "<prog>: error: ..." and end every rank of
 * MPI_COMM_WORLD with a non-zero status (MPI_Abort), so no rank is left waiting in
 * a collective.  Without MPI initialised it exits(1). */
CIO_NORETURN void cio_die(const char *fmt, ...) CIO_PRINTF(1, 2);
/* What cio_die runs before MPI_Abort, which skips atexit(): removing this
 * process's lock files, naming an output it leaves incomplete.  Each function
 * registered runs once, the last registered first (at most 8). */
void cio_on_abort(void (*fn)(void));
/* An output a program is writing, from its creation to its close: a rank that
 * ends the run with cio_die renames it PATH.incomplete (as above) and says so,
 * so a failed run leaves no file under the name a complete one would have.
 * Only one at a time; cio_output_complete(path) after its close. */
void cio_output_incomplete_on_abort(const char *path);
void cio_output_complete(const char *path);
/* What a file that is not a regular one is, for messages: "a directory", "a
 * FIFO (named pipe)", "a socket", "a character device", ... */
const char *cio_file_kind(unsigned mode);
/* A file a failed run leaves half-written, renamed PATH.incomplete (or
 * PATH.incomplete.2, ... when that name is taken: nothing is replaced), its new
 * name in to; 0, or -1 with errno. */
int cio_rename_incomplete(const char *path, char *to, size_t len);

/* A fatal error that every rank has detected the same way (a bad parameter file,
 * an unusable process count): rank 0 prints, all ranks finalise MPI and exit(2). */
CIO_NORETURN void cio_die_all(MPI_Comm comm, const char *fmt, ...) CIO_PRINTF(2, 3);

/* Agree on an error across ranks: if any rank has e->code != 0, every rank gets
 * the message of the lowest failing rank and returns non-zero.  Collective. */
int cio_agree(MPI_Comm comm, cio_err *e);

void cio_warn(const char *fmt, ...) CIO_PRINTF(1, 2);      /* any rank */
void cio_warn0(const char *fmt, ...) CIO_PRINTF(1, 2);     /* rank 0 of WORLD only */

/* MemAvailable of this node in bytes (/proc/meminfo), or -1 where it cannot be read. */
int64_t cio_mem_available(void);
/* Tracked allocation: the program's own high-water mark, as the original GIO reports
 * it, kept beside the resident-set high-water mark.  Failure is fatal with the size;
 * a request above the node's available memory is refused before it is made. */
void *cio_malloc(size_t n);
void *cio_calloc(size_t nmemb, size_t size);
void *cio_realloc(void *p, size_t n);
void cio_free(void *p);
/* Bytes asked for when p was allocated. */
size_t cio_msize(const void *p);
char *cio_strdup(const char *s);
char *cio_strndup(const char *s, size_t n);
/* What drives the sizes of the big buffers ("ni 1440 (mom.in:3) x nj 1080 (...)"),
 * named by an allocation failure or an overflow, so the message says which
 * parameter to change.  Set by each kernel once its parameters are read. */
void cio_set_alloc_hint(const char *what);
/* Checked 64-bit arithmetic for every size product: 0, or -1 on overflow. */
int cio_mul64(int64_t a, int64_t b, int64_t *r);
int cio_add64(int64_t a, int64_t b, int64_t *r);
/* The product of n sizes; an overflow is fatal, naming `what` and the hint. */
int64_t cio_product(const int64_t *v, int n, const char *what);
CIO_NORETURN void cio_die_overflow(const char *what);
size_t cio_mem_current(void);
size_t cio_mem_peak(void);
/* Start a new high-water mark from what is in use now (the dry run measures each
 * virtual rank's plan on its own). */
void cio_mem_reset_peak(void);
/* Resident-set high-water mark of this process in bytes (VmHWM), 0 if unknown. */
size_t cio_rss_peak(void);

/* Strings */
int cio_strcaseeq(const char *a, const char *b);
char *cio_trim(char *s);
/* Levenshtein distance, for "did you mean" suggestions. */
int cio_edit_distance(const char *a, const char *b);
/* Parse an integer with an optional k/m/g/t (1024-based) suffix; 0 on success. */
int cio_parse_size(const char *s, int64_t *out);
int cio_parse_int(const char *s, int64_t *out);
int cio_parse_double(const char *s, double *out);
int cio_parse_bool(const char *s, int *out);

/* Read a whole file into a NUL-terminated buffer (tracked); NULL + e on failure.
 * *len (when len is not NULL): its bytes, a NUL inside counted.  The file is
 * opened once (a FIFO: once something writes to it, waited on 10 s at most). */
char *cio_read_file(const char *path, size_t *len, cio_err *e);
/* Rank 0 reads, all ranks receive the text (and its length, as above, when len
 * is not NULL) or the same error.  Collective. */
char *cio_read_file_bcast(const char *path, MPI_Comm comm, size_t *len, cio_err *e);

/* A text read line by line, the one splitter every input parser uses:
 *     cio_lines L;
 *     cio_lines_init(&L, text);
 *     for (char *line; (line = cio_lines_next(&L));) ... L.lineno, L.len, L.bad ...
 *     cio_lines_free(&L);
 * Each line comes without its "\n" or "\r\n", as a copy the caller may change
 * (valid until the next call); bad is its first control character other than a
 * tab (0: none), so a parser can refuse binary input naming the line. */
typedef struct cio_lines {
    const char *cur;
    int lineno;         /* of the line last returned, from 1 */
    char *line;
    size_t len;         /* its length */
    int bad;
} cio_lines;
void cio_lines_init(cio_lines *l, const char *text);
char *cio_lines_next(cio_lines *l);
void cio_lines_free(cio_lines *l);

/* 1 when a and b name the same existing file (by device and inode, so a link or
 * another spelling of the path is caught too), else 0: an output that is one of
 * the inputs would destroy it when created. */
int cio_same_file(const char *a, const char *b);

/* Make a directory and its parents; 0 on success. */
int cio_mkdir_p(const char *path, cio_err *e);

#endif
