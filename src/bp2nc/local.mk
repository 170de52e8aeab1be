# climio_bp2nc (issue 11): BP outputs of the adios2 driver back to netCDF, timed
# (doc/adios2.md); built only when configure found ADIOS2.
if HAVE_ADIOS2
bin_PROGRAMS += src/bp2nc/climio_bp2nc
src_bp2nc_climio_bp2nc_SOURCES = src/bp2nc/bp2nc.c
src_bp2nc_climio_bp2nc_CPPFLAGS = $(AM_CPPFLAGS) $(ADIOS2_CFLAGS)
src_bp2nc_climio_bp2nc_LDADD = $(CLIMIO_LIBS) $(CLIMIO_IO_LIBADD)
RUN_EXES += src/bp2nc/climio_bp2nc
endif
# ADIOS2 set-up and the ADIOS2 vs PnetCDF vs MPI-IO benchmark
EXTRA_DIST += scripts/build-adios2
dist_bin_SCRIPTS += scripts/bench-adios2
dist_doc_DATA += doc/adios2.md
