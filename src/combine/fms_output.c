/* The output, defined as FRE-NCtools' mppnccombine defines it: the dimensions
 * and variables in the first member's order with its types and attributes,
 * minus domain_decomposition and NumFilesInSet, the filename attribute naming
 * the output; the first member's netCDF kind (CDF-2 for classic) unless -64 or
 * -n4.  netCDF-C writes the header; the values of a classic output are then
 * written at the offsets that header gives (fms_cdf.c), and the record count
 * and size set at the end as netCDF-C's close sets them, so the file is the
 * bytes netCDF-C would write. */
#include "fms_combine.h"
#include "drivers/hdf5_end.h"
#include "drivers/io_util.h"
#include "base/util.h"

#include <errno.h>
#include <fcntl.h>
#include <netcdf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Classic members give a CDF-2 output (mppnccombine 2.2.8), others their own kind. */
static int output_mode(const fms_set *s, const fms_opts *o)
{
    if (o->format) return o->format;
    switch (s->in_format) {
    case NC_FORMAT_NETCDF4: return NC_NETCDF4;
    case NC_FORMAT_NETCDF4_CLASSIC: return NC_NETCDF4 | NC_CLASSIC_MODEL;
    case NC_FORMAT_64BIT_DATA: return NC_64BIT_DATA;
    default: return NC_64BIT_OFFSET;
    }
}

static int copy_var_atts(const fms_set *s, int in, int out, int v)
{
    for (int n = 0; n < s->vars[v].natts; n++) {
        char att[NC_MAX_NAME + 1];
        nc_inq_attname(in, v, n, att);
        if (strcmp(att, "domain_decomposition") == 0) continue;
        int st = nc_copy_att(in, v, att, out, v);
        if (st != NC_NOERR) {
            fprintf(stderr, "Error: cannot copy variable \"%s\"'s attributes! (%s: %s)\n", s->vars[v].name, att,
                    nc_strerror(st));
            return 1;
        }
    }
    return 0;
}

static int copy_global_atts(const fms_set *s, int in, int out)
{
    for (int n = 0; n < s->ngatts; n++) {
        char att[NC_MAX_NAME + 1];
        nc_inq_attname(in, NC_GLOBAL, n, att);
        int st = NC_NOERR;
        if (strcmp(att, "NumFilesInSet") == 0) continue;
        if (strcmp(att, "filename") == 0) st = nc_put_att_text(out, NC_GLOBAL, att, strlen(s->output), s->output);
        else st = nc_copy_att(in, NC_GLOBAL, att, out, NC_GLOBAL);
        if (st != NC_NOERR) {
            fprintf(stderr, "Error: cannot copy the file's global attributes! (%s: %s)\n", att, nc_strerror(st));
            return 1;
        }
    }
    return 0;
}

/* -d N: each variable deflated; one that cannot be (a string) is said, and the
 * rest are deflated as asked, as mppnccombine does. */
static void deflate_vars(const fms_set *s, const fms_opts *o, int out, int mode)
{
    if (o->deflate <= 0) return;
    if (!(mode & NC_NETCDF4)) {     /* no variable of a classic file can be */
        fprintf(stderr, "Error: nc_def_var_deflate failed! Are you setting NETCDF4? (-d needs a netCDF-4 output: -n4, "
                        "or netCDF-4 members; %s is %s, so nothing is deflated)\n",
                s->output, mode & NC_64BIT_DATA ? "CDF-5" : mode & NC_64BIT_OFFSET ? "64-bit offset" : "classic");
        return;
    }
    for (int v = 0; v < s->nvars; v++) {
        int st = nc_def_var_deflate(out, v, o->shuffle, 1, o->deflate);
        if (st != NC_NOERR)
            fprintf(stderr, "Error: nc_def_var_deflate failed! Are you setting NETCDF4? (variable \"%s\": %s; the other "
                            "variables are deflated as asked)\n",
                    s->vars[v].name, nc_strerror(st));
    }
}

static int define_vars(const fms_set *s, int in, int out)
{
    for (int v = 0; v < s->nvars; v++) {
        const fms_var *fv = &s->vars[v];
        int id, st = nc_def_var(out, fv->name, fv->type, fv->ndims, fv->dims, &id);
        if (st != NC_NOERR) {
            fprintf(stderr, "Error: cannot define variable \"%s\" in %s: %s\n", fv->name, s->output, nc_strerror(st));
            return 1;
        }
        if (copy_var_atts(s, in, out, v)) return 1;
    }
    return copy_global_atts(s, in, out);
}

/* A classic output: closed by netCDF-C with its header written, then reopened
 * to be written at its header's offsets. */
static int reopen_raw(fms_set *s, int out)
{
    int st = nc_close(out);
    if (st != NC_NOERR) {
        fprintf(stderr, "Error: cannot write the header of %s: %s\n", s->output, nc_strerror(st));
        return -1;
    }
    s->out_fd = open(s->output, O_RDWR);
    char err[400] = "";
    struct stat sb;
    if (s->out_fd < 0 || fstat(s->out_fd, &sb) != 0 ||
        fms_cdf_read(s->out_fd, (int64_t)sb.st_size, &s->out_layout, err, sizeof err) != 0) {
        fprintf(stderr, "Error: cannot reopen %s after writing its header: %s\n", s->output,
                err[0] ? err : strerror(errno));
        if (s->out_fd >= 0) close(s->out_fd);
        s->out_fd = -1;
        return -1;
    }
    s->out_raw = 1;
    return 0;
}

int fms_output_define(fms_set *s, const fms_opts *o)
{
    int mode = output_mode(s, o), out, st, old;
    size_t blksz = 65536;
    s->out_fd = -1;
    if (o->verbose) printf("    Creating output \"%s\"\n", s->output);
    if ((st = nc__create(s->output, NC_NOCLOBBER | mode, 0, &blksz, &out)) != NC_NOERR) {
        char why[400];
        fms_open_error(s->output, st, errno, why, sizeof why);
        fprintf(stderr, "Error: cannot create the output netCDF file! (%s: %s)\n", s->output, why);
        return -1;
    }
    s->created = 1;
    nc_set_fill(out, NC_NOFILL, &old);
    int in, bad = 0;
    errno = 0;
    if ((st = nc_open(s->mem[s->first].path, NC_NOWRITE, &in)) != NC_NOERR) {
        char why[400];
        fms_open_error(s->mem[s->first].path, st, errno, why, sizeof why);
        fprintf(stderr, "Error: cannot open input file \"%s\" again to copy its attributes (%s)\n",
                s->mem[s->first].path, why);
        bad = 1;
    }
    for (int d = 0; d < s->ndims && !bad; d++) {
        int id;
        st = nc_def_dim(out, s->dimname[d], d == s->recdim ? NC_UNLIMITED : (size_t)s->dimfull[d], &id);
        if (st != NC_NOERR) {
            fprintf(stderr, "Error: cannot define dimension %s in %s: %s\n", s->dimname[d], s->output,
                    nc_strerror(st));
            bad = 1;
        }
    }
    if (!bad) bad = define_vars(s, in, out);
    if (!bad) deflate_vars(s, o, out, mode);
    if (!bad) nc_close(in);
    if (!bad && (st = nc__enddef(out, (size_t)o->headerpad, 4, 0, 4)) != NC_NOERR) {
        fprintf(stderr, "Error: cannot write the header of %s: %s\n", s->output, nc_strerror(st));
        bad = 1;
    }
    if (bad) {
        nc_close(out);
        remove(s->output);
        s->created = 0;
        return -1;
    }
    if (!(mode & NC_NETCDF4)) {
        if (reopen_raw(s, out) != 0) {
            remove(s->output);
            s->created = 0;
            return -1;
        }
        return -3;      /* no netCDF id: the raw descriptor is s->out_fd */
    }
    return out;
}

/* -a: the existing output, whose variables must be the set's by name and number,
 * of the set's types, with the set's dimensions at their lengths. */
/* -a's output shorter than its header promises (a classic header's values, an
 * HDF5 superblock's end of file): 1 with what is wrong, else 0. */
static int shorter_than_promised(const char *path, int64_t size, char *what, size_t n)
{
    int64_t need = -1;
    int fd = open(path, O_RDONLY);
    unsigned char magic[4] = {0};
    if (fd >= 0 && pread(fd, magic, 4, 0) == 4 && memcmp(magic, "CDF", 3) == 0) {
        fms_cdf h;
        char err[300];
        if (fms_cdf_read(fd, size, &h, err, sizeof err) == 0) {
            need = h.need;
            fms_cdf_free(&h);
        }
    } else if (fd >= 0) {
        need = cio_hdf5_stored_end(path);
    }
    if (fd >= 0) close(fd);
    if (need <= size) return 0;
    snprintf(what, n, "is cut short: it is %lld bytes, but its header promises %lld (%lld bytes missing)",
             (long long)size, (long long)need, (long long)(need - size));
    return 1;
}

int fms_output_open_append(fms_set *s, const fms_opts *o)
{
    int out, st;
    struct stat sb;
    (void)o;
    s->out_fd = -1;
    int there = stat(s->output, &sb) == 0;
    if (there && !S_ISREG(sb.st_mode)) {
        fprintf(stderr, "Error: cannot open the output netCDF file for appending! (%s is not a regular file)\n",
                s->output);
        return -1;
    }
    char shortness[300];
    if (there && shorter_than_promised(s->output, (int64_t)sb.st_size, shortness, sizeof shortness)) {
        fprintf(stderr, "Error: -a: %s %s: the values past its end would be read as 0 and written back as if they "
                        "were its own (combine the set into a new file)\n", s->output, shortness);
        return -1;
    }
    if ((st = nc_open(s->output, NC_WRITE, &out)) != NC_NOERR) {
        char why[400];
        fms_open_error(s->output, st, errno, why, sizeof why);
        fprintf(stderr, "Error: cannot open the output netCDF file for appending! (%s: %s)\n", s->output, why);
        return -1;
    }
    int nv = 0;
    nc_inq_nvars(out, &nv);
    for (int v = 0; v < s->nvars; v++) {
        const fms_var *fv = &s->vars[v];
        int id = -1, ndims = -1, dims[NC_MAX_VAR_DIMS];
        nc_type t = NC_NAT;
        const char *why = NULL;
        if (nc_inq_varid(out, fv->name, &id) != NC_NOERR || id != v) why = "it has no such variable by that number";
        else if (nc_inq_var(out, id, NULL, &t, &ndims, dims, NULL) != NC_NOERR || (int)t != fv->type)
            why = "the variable has another type";
        else if (ndims != fv->ndims) why = "the variable has another number of dimensions";
        for (int d = 0; !why && d < ndims; d++) {
            size_t len = 0;
            int unlim = -1;
            nc_inq_unlimdim(out, &unlim);
            nc_inq_dimlen(out, dims[d], &len);
            int isrec = fv->dims[d] == s->recdim;
            if (isrec != (dims[d] == unlim)) why = "the variable's record dimension differs";
            else if (!isrec && (int64_t)len != s->dimfull[fv->dims[d]]) why = "a dimension of the variable has another length";
        }
        if (why) {
            fprintf(stderr, "Error: -a: %s is not a combined file of this set: variable \"%s\" (number %d): %s\n",
                    s->output, fv->name, v, why);
            nc_close(out);
            return -1;
        }
    }
    return out;
}

/* Big-endian bytes of v (n: 4 or 8). */
static void put_be(unsigned char *p, int64_t v, int n)
{
    for (int i = n - 1; i >= 0; i--, v >>= 8) p[i] = (unsigned char)(v & 0xff);
}

/* A raw output's end, as netCDF-C's close leaves a classic file: the record
 * count in the header, and the file at least NC_calcsize long. */
static int close_raw(fms_set *s)
{
    fms_cdf *h = &s->out_layout;
    int rc = 0;
    if (s->recdim >= 0) {
        unsigned char b[8];
        int n = h->version == 5 ? 8 : 4;
        put_be(b, s->nrec, n);
        if (pwrite(s->out_fd, b, (size_t)n, 4) != n) rc = errno ? errno : EIO;
    }
    h->numrecs = s->recdim >= 0 ? s->nrec : h->numrecs;
    int64_t calc = h->nrecvars ? h->begin_rec + h->numrecs * h->recsize : h->calcsize;
    struct stat sb;
    if (!rc && fstat(s->out_fd, &sb) == 0 && (int64_t)sb.st_size < calc && ftruncate(s->out_fd, (off_t)calc) != 0)
        rc = errno;
    if (close(s->out_fd) != 0 && !rc) rc = errno;
    s->out_fd = -1;
    fms_cdf_free(h);
    if (rc) fprintf(stderr, "Error: cannot close %s: %s\n", s->output, strerror(rc));
    return rc ? 1 : 0;
}

int fms_output_close(fms_set *s, int ncid, int failed)
{
    if (s->out_raw) return close_raw(s);
    errno = 0;
    int st = failed ? NC_NOERR : nc_sync(ncid);     /* after a failed write HDF5 cannot flush: just close */
    if (st == NC_NOERR) st = nc_close(ncid);
    else nc_close(ncid);
    if (st != NC_NOERR) {
        int err = errno;
        fprintf(stderr, "Error: cannot close %s: %s%s%s%s\n", s->output, nc_strerror(st), err ? " (" : "",
                err ? strerror(err) : "", err ? ")" : "");
        /* HDF5 keeps a file whose close failed in its tables, and its exit handler
         * then crashes on it: the run ends without that handler */
        s->skip_exit_handlers = 1;
        return 1;
    }
    return 0;
}

void fms_output_discard(fms_set *s)
{
    if (s->out_fd >= 0) close(s->out_fd);
    s->out_fd = -1;
    if (!s->created) return;
    char to[4200];
    if (cio_rename_incomplete(s->output, to, sizeof to) == 0)
        fprintf(stderr, "Error: the combine failed after %s was created: the incomplete file is now %s (remove it, "
                        "then run again)\n",
                s->output, to);
    else if (remove(s->output) == 0)
        fprintf(stderr, "Error: the combine failed after %s was created: the incomplete file is removed\n", s->output);
    else
        fprintf(stderr, "Error: the combine failed after %s was created, and it cannot be renamed or removed (%s): "
                        "it is INCOMPLETE\n",
                s->output, strerror(errno));
    s->created = 0;
}
