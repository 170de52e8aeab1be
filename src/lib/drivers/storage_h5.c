/* cio_storage_measure: the storage HDF5 allocated for each dataset of a netCDF-4 or
 * HDF5 file (see storage.h). */
#include "config.h"
#include "drivers/storage.h"
#include "base/util.h"

#include <string.h>
#include <sys/stat.h>

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

static herr_t visit(hid_t group, const char *name, const H5L_info_t *info, void *op)
{
    (void)info;
    cio_storage_file *f = op;
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
            H5Literate(fid, H5_INDEX_NAME, H5_ITER_INC, NULL, visit, f);
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
