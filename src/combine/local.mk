# mom_combine: the mppnccombine stand-in.  Its default form (FRE-NCtools'
# mppnccombine for any FMS set, fms_*.c) reads and writes through netCDF-C;
# --mom5 and climio's own form go through the engine (mom_combine.c).
bin_PROGRAMS += src/combine/mom_combine
RUN_EXES += src/combine/mom_combine
src_combine_mom_combine_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src/mom
src_combine_mom_combine_SOURCES = $(MOM_COMMON) src/combine/mom_combine.c src/combine/mom_combine.h src/combine/mom_combine_set.c \
	src/combine/mom_combine_copy.c src/combine/mom_combine_cli.c src/combine/mom_combine_cli.h \
	src/combine/mom_combine_tiles.c src/combine/mom_combine_tiles.h src/combine/fms_main.h \
	src/combine/member_pool.c src/combine/member_pool.h
FMS_COMBINE_LIB =
if HAVE_NETCDF
noinst_LIBRARIES += src/combine/libfms_combine.a
src_combine_libfms_combine_a_SOURCES = src/combine/fms_combine.h src/combine/fms_main.c src/combine/fms_set.c \
	src/combine/fms_header.c src/combine/fms_cover.c src/combine/fms_output.c src/combine/fms_pool.c src/combine/fms_cdf.c src/combine/fms_cdf.h \
	src/combine/fms_data.c src/combine/fms_combine.c src/combine/fms_mpi.c
src_combine_libfms_combine_a_CPPFLAGS = $(AM_CPPFLAGS) $(NETCDF_CFLAGS)
FMS_COMBINE_LIB += src/combine/libfms_combine.a
endif
src_combine_mom_combine_LDADD = $(FMS_COMBINE_LIB) src/mom/libmom_model.a src/grids/libcio_grids.a $(CLIMIO_LIBS) $(CLIMIO_IO_LIBADD)

dist_bin_SCRIPTS += scripts/peer-mppnccombine scripts/bench-combine
