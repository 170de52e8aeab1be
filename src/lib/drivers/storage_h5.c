/* cio_storage_measure: the storage HDF5 allocated for each dataset of a netCDF-4 or
 * HDF5 file (see storage.h). */
#include "config.h"
#include "drivers/storage.h"
#include "base/util.h"

#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#if HAVE_HDF5
#include <hdf5.h>

/* netCDF-4 keeps dimensions without a coordinate variable as datasets whose NAME
 * attribute says so: they are not data. */
static int is_bare_dimension(hid_t ds)
{
    if (H5Aexists(ds, "NAME") <= 0) return 0;
    hid_t a = H5Aopen(ds, "NAME", H5P_DEFAULT);
    hid_t t = H5Aget_type(a);
    char buf[128] = "";
    int bare = 0;
    if (H5Tget_class(t) == H5T_STRING && !H5Tis_variable_str(t) && H5Tget_size(t) < sizeof buf) {
        hid_t mt = H5Tcopy(t);
        if (H5Aread(a, mt, buf) >= 0) bare = strncmp(buf, "This is a netCDF dimension but not a netCDF variable", 52) == 0;
        H5Tclose(mt);
    }
    H5Tclose(t);
    H5Aclose(a);
    return bare;
}

/* The index of the szip filter when it is the dataset's last one (its output is what
 * the chunk holds), else -1. */
static int szip_last(hid_t dcpl)
{
    int n = H5Pget_nfilters(dcpl);
    if (n <= 0) return -1;
    unsigned flags, conf;
    size_t nc = 0;
    H5Z_filter_t id = H5Pget_filter2(dcpl, (unsigned)(n - 1), &flags, &nc, NULL, 0, NULL, &conf);
    return id == H5Z_FILTER_SZIP ? n - 1 : -1;
}

/* Chunks of an szip-coded dataset that do not start with szip's header (the chunk's
 * byte length, 4 bytes little endian) although their filter mask says szip coded
 * them: raw data no reader decodes.  Walks every chunk of the dataset. */
static int64_t szip_uncoded(hid_t ds, int fd)
{
    int64_t bad = 0;
#if H5_VERSION_GE(1, 10, 5)
    hid_t dcpl = H5Dget_create_plist(ds);
    int k = H5Pget_layout(dcpl) == H5D_CHUNKED ? szip_last(dcpl) : -1;
    hsize_t cd[H5S_MAX_RANK], dims[H5S_MAX_RANK], off[H5S_MAX_RANK] = {0};
    int nd = k >= 0 ? H5Pget_chunk(dcpl, H5S_MAX_RANK, cd) : 0;
    H5Pclose(dcpl);
    if (nd <= 0) return 0;
    hid_t sp = H5Dget_space(ds), t = H5Dget_type(ds);
    uint64_t raw = H5Tget_size(t);
    H5Tclose(t);
    int ok = H5Sget_simple_extent_dims(sp, dims, NULL) == nd;
    H5Sclose(sp);
    for (int i = 0; ok && i < nd; i++) {
        raw *= cd[i];
        if (dims[i] == 0) ok = 0;
    }
    while (ok) {
        unsigned mask = 0;
        haddr_t addr = HADDR_UNDEF;
        hsize_t size = 0;
        unsigned char h[4];
        if (H5Dget_chunk_info_by_coord(ds, off, &mask, &addr, &size) >= 0 && addr != HADDR_UNDEF &&
            !(mask & (1u << k)) && pread(fd, h, 4, (off_t)addr) == 4 &&
            (h[0] | (uint64_t)h[1] << 8 | (uint64_t)h[2] << 16 | (uint64_t)h[3] << 24) != raw)
            bad++;
        int d = nd - 1;     /* the next chunk, row-major */
        while (d >= 0 && (off[d] += cd[d]) >= dims[d]) off[d--] = 0;
        ok = d >= 0;
    }
#else
    (void)ds;
    (void)fd;
#endif
    return bad;
}

typedef struct visit_ctx {
    cio_storage_file *f;
    int fd;
} visit_ctx;

static herr_t visit(hid_t group, const char *name, const H5L_info_t *info, void *op)
{
    (void)info;
    visit_ctx *c = op;
    cio_storage_file *f = c->f;
    H5O_info_t oi;
    if (H5Oget_info_by_name(group, name, &oi, H5P_DEFAULT) < 0 || oi.type != H5O_TYPE_DATASET) return 0;
    hid_t ds = H5Dopen2(group, name, H5P_DEFAULT);
    if (ds < 0) return 0;
    if (!is_bare_dimension(ds)) {
        hid_t sp = H5Dget_space(ds), t = H5Dget_type(ds);
        hssize_t n = H5Sget_simple_extent_npoints(sp);
        f->vars = cio_realloc(f->vars, (size_t)(f->nvars + 1) * sizeof *f->vars);
        cio_storage_var *v = &f->vars[f->nvars++];
        v->name = cio_strdup(name);
        v->data = (int64_t)(n > 0 ? n : 0) * (int64_t)H5Tget_size(t);
        v->stored = (int64_t)H5Dget_storage_size(ds);
        v->uncoded = c->fd >= 0 ? szip_uncoded(ds, c->fd) : 0;
        f->data += v->data;
        f->stored += v->stored;
        H5Tclose(t);
        H5Sclose(sp);
    }
    H5Dclose(ds);
    return 0;
}

int cio_storage_measure(const char *path, cio_storage_file *f)
{
    memset(f, 0, sizeof *f);
    f->path = cio_strdup(path);
    struct stat st;
    if (stat(path, &st) == 0) f->file_bytes = (int64_t)st.st_size;
    H5E_BEGIN_TRY { /* a file that is not HDF5 (classic netCDF) is reported, not an error on the console */
        hid_t fid = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
        if (fid >= 0) {
            visit_ctx c = {f, open(path, O_RDONLY)};
            H5Literate(fid, H5_INDEX_NAME, H5_ITER_INC, NULL, visit, &c);
            if (c.fd >= 0) close(c.fd);
            H5Fclose(fid);
        } else {
            f->error = cio_strdup("not an HDF5 file (storage is reported for netCDF-4 and HDF5 files)");
        }
    } H5E_END_TRY;
    return f->error ? -1 : 0;
}
#else
int cio_storage_measure(const char *path, cio_storage_file *f)
{
    memset(f, 0, sizeof *f);
    f->path = cio_strdup(path);
    struct stat st;
    if (stat(path, &st) == 0) f->file_bytes = (int64_t)st.st_size;
    f->error = cio_strdup("this climio was built without HDF5, which reading the storage needs");
    return -1;
}
#endif
