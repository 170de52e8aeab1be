/* alter_var: give one variable of a netCDF-4 or HDF5 file another type or shape,
 * through the libraries themselves, for the tests of --verify's layout check
 * (tests/test_verify_layout.sh):
 *
 *   alter_var netcdf FILE VAR type=T     VAR becomes of type T over the same dimensions
 *   alter_var netcdf FILE VAR dim=NAME   VAR's last dimension becomes the dimension NAME
 *   alter_var hdf5   FILE VAR type=T     the dataset VAR becomes of type T, the same shape
 *   alter_var hdf5   FILE VAR shrink     the dataset VAR's last dimension one shorter
 *
 * T is one of byte, short, int, float, double, int64.
 *
 * The old variable stays in the file, renamed VAR_old; the new one holds no data.
 * Exit 0 done, 77 the library is not built in, 1 anything else. */
#include "config.h"

#include <mpi.h>
#include <stdio.h>
#include <string.h>

static const char *const type_names[] = {"byte", "short", "int", "float", "double", "int64"};

/* HOW's type=T as an index into type_names, -1 when HOW is not type=T */
static int type_of(const char *how)
{
    if (strncmp(how, "type=", 5) != 0) return -1;
    for (int i = 0; i < 6; i++)
        if (strcmp(how + 5, type_names[i]) == 0) return i;
    return -1;
}

#if HAVE_NETCDF
#include <netcdf.h>

#define NC(call)                                                                        \
    do {                                                                                \
        int rc_ = (call);                                                               \
        if (rc_ != NC_NOERR) {                                                          \
            fprintf(stderr, "alter_var: %s: %s: %s\n", path, #call, nc_strerror(rc_)); \
            return 1;                                                                   \
        }                                                                               \
    } while (0)

static int alter_netcdf(const char *path, const char *var, const char *how)
{
    int id, v, nd, dims[NC_MAX_VAR_DIMS], nv;
    nc_type t;
    char old[NC_MAX_NAME + 1];
    snprintf(old, sizeof old, "%s_old", var);
    /* the rename reaches HDF5 at close: the new variable is defined after it */
    NC(nc_open(path, NC_WRITE, &id));
    NC(nc_inq_varid(id, var, &v));
    NC(nc_inq_var(id, v, NULL, &t, &nd, dims, NULL));
    NC(nc_redef(id));
    NC(nc_rename_var(id, v, old));
    NC(nc_close(id));
    static const nc_type nct[] = {NC_BYTE, NC_SHORT, NC_INT, NC_FLOAT, NC_DOUBLE, NC_INT64};
    if (type_of(how) >= 0) t = nct[type_of(how)];
    else if (strncmp(how, "dim=", 4) == 0 && nd > 0) {
        NC(nc_open(path, NC_NOWRITE, &id));
        NC(nc_inq_dimid(id, how + 4, &dims[nd - 1]));
        NC(nc_close(id));
    } else {
        fprintf(stderr, "alter_var: netcdf: '%s' is neither type=T nor dim=NAME\n", how);
        return 1;
    }
    NC(nc_open(path, NC_WRITE, &id));
    NC(nc_redef(id));
    NC(nc_def_var(id, var, t, nd, dims, &nv));
    NC(nc_close(id));
    return 0;
}
#else
static int alter_netcdf(const char *path, const char *var, const char *how)
{
    (void)path, (void)var, (void)how;
    fprintf(stderr, "alter_var: this climio was built without netCDF-C\n");
    return 77;
}
#endif

#if HAVE_HDF5
#include <hdf5.h>

static int alter_hdf5(const char *path, const char *var, const char *how)
{
    char old[1024];
    snprintf(old, sizeof old, "%s_old", var);
    int shrink = strcmp(how, "shrink") == 0, t = type_of(how);
    if (!shrink && t < 0) {
        fprintf(stderr, "alter_var: hdf5: '%s' is neither type=T nor shrink\n", how);
        return 1;
    }
    hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    if (f < 0 || H5Lmove(f, var, f, old, H5P_DEFAULT, H5P_DEFAULT) < 0) {
        fprintf(stderr, "alter_var: %s: cannot open it or move %s\n", path, var);
        return 1;
    }
    hid_t d = H5Dopen2(f, old, H5P_DEFAULT);
    hid_t type = H5Dget_type(d), space = H5Dget_space(d), dcpl = H5Dget_create_plist(d);
    hsize_t cur[H5S_MAX_RANK], max[H5S_MAX_RANK], chunk[H5S_MAX_RANK];
    int nd = H5Sget_simple_extent_dims(space, cur, max);
    if (shrink && nd > 0) {
        cur[nd - 1]--;
        if (max[nd - 1] != H5S_UNLIMITED) max[nd - 1] = cur[nd - 1];
        H5Sclose(space);
        space = H5Screate_simple(nd, cur, max);
        if (H5Pget_layout(dcpl) == H5D_CHUNKED) {       /* a chunk no larger than the new extent */
            for (int k = 0; k < nd; k++) chunk[k] = cur[k] ? cur[k] : 1;
            H5Pset_chunk(dcpl, nd, chunk);
        }
    }
    hid_t h5t[] = {H5T_NATIVE_SCHAR, H5T_NATIVE_SHORT, H5T_NATIVE_INT, H5T_NATIVE_FLOAT, H5T_NATIVE_DOUBLE,
                   H5T_NATIVE_INT64};
    hid_t newtype = H5Tcopy(shrink ? type : h5t[t]);
    H5Pset_fill_time(dcpl, H5D_FILL_TIME_NEVER);
    hid_t n = H5Dcreate2(f, var, newtype, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    int rc = n < 0;
    if (rc) fprintf(stderr, "alter_var: %s: cannot create the new %s\n", path, var);
    else H5Dclose(n);
    H5Tclose(newtype);
    H5Pclose(dcpl);
    H5Sclose(space);
    H5Tclose(type);
    H5Dclose(d);
    H5Fclose(f);
    return rc;
}
#else
static int alter_hdf5(const char *path, const char *var, const char *how)
{
    (void)path, (void)var, (void)how;
    fprintf(stderr, "alter_var: this climio was built without HDF5\n");
    return 77;
}
#endif

int main(int argc, char **argv)
{
    if (argc != 5 || (strcmp(argv[1], "netcdf") != 0 && strcmp(argv[1], "hdf5") != 0)) {
        fprintf(stderr, "usage: alter_var netcdf|hdf5 FILE VAR HOW (see tests/alter_var.c)\n");
        return 1;
    }
    MPI_Init(&argc, &argv);
    int rc = argv[1][0] == 'n' ? alter_netcdf(argv[2], argv[3], argv[4]) : alter_hdf5(argv[2], argv[3], argv[4]);
    MPI_Finalize();
    return rc;
}
