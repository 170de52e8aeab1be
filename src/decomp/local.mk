# decomp_io: replays decomposition maps saved by PIO, SCORPIO and E3SM-IO (issue 19).
# libdmap: the map readers and writers (PnetCDF reads the classic netCDF
# containers, netCDF-C the netCDF-4 ones; each library's header in its own file).
noinst_LIBRARIES += src/decomp/libdmap.a
src_decomp_libdmap_a_CPPFLAGS = $(AM_CPPFLAGS) $(PNETCDF_CFLAGS) $(NETCDF_CFLAGS)
src_decomp_libdmap_a_SOURCES = \
	src/decomp/dmap.c src/decomp/dmap.h src/decomp/dmap_impl.h src/decomp/dmap_part.c \
	src/decomp/dmap_text.c src/decomp/dmap_nc.c src/decomp/dmap_e3sm_write.c \
	src/decomp/dmap_nclib_pnc.c src/decomp/dmap_nclib_nc.c
DMAP_LIBS = src/decomp/libdmap.a $(CLIMIO_LIBS) $(CLIMIO_IO_LIBADD)

bin_PROGRAMS += src/decomp/decomp_io
RUN_EXES += src/decomp/decomp_io
src_decomp_decomp_io_SOURCES = src/decomp/decomp.h src/decomp/decomp_ctx.h \
	src/decomp/decomp_main.c src/decomp/decomp_config.c \
	src/decomp/decomp_blocks.c src/decomp/decomp_schema.c src/decomp/decomp_blob.c src/decomp/decomp_dry_run.c \
	src/decomp/decomp_gen.c src/decomp/decomp_pioperf.c src/decomp/decomp_applicability.c src/decomp/decomp_kernel.h \
	src/decomp/decomp_e3sm.c src/decomp/decomp_e3sm.h src/decomp/decomp_e3sm_blob.c src/decomp/e3sm_case.h
nodist_src_decomp_decomp_io_SOURCES = src/decomp/e3sm_case_data.c
# the generated source, in the build tree, includes e3sm_case.h from the source tree
src_decomp_decomp_io_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src/decomp
src_decomp_decomp_io_LDADD = src/grids/libcio_grids.a $(DMAP_LIBS)

# E3SM-IO's case files as data (written by scripts/e3sm-case-table), compiled in:
# every file of the folder, found by its name (cases.tsv names the parts)
E3SM_CASE_TABLE = $(sort $(wildcard $(srcdir)/src/decomp/e3sm_cases/*.tsv))
src/decomp/e3sm_case_data.c: $(E3SM_CASE_TABLE) $(srcdir)/src/embed.sh
	$(AM_V_GEN)$(MKDIR_P) src/decomp && $(SHELL) $(srcdir)/src/embed.sh --lines e3sm_case $(E3SM_CASE_TABLE) >$@-t && \
	  mv -f $@-t $@
CLEANFILES += src/decomp/e3sm_case_data.c
EXTRA_DIST += src/decomp/e3sm_cases src/embed.sh

# generated maps (decomp_io --make_decomp; doc/decomp.md says how), pioperf's
# namelist, a parameter file and a sample sweep
DECOMP_INPUTS = inputs/decomp.cubed_sphere.4p.dat inputs/decomp.holes.4p.dat inputs/decomp.random.4p.dat \
	inputs/decomp.mom.4p.dat inputs/map_cs_case_4p.nc inputs/pioperf.nl inputs/decomp_io.in.sample \
	inputs/sweep.decomp.toml
RUN_INPUTS += $(DECOMP_INPUTS)
climioinputs_DATA += $(DECOMP_INPUTS)
EXTRA_DIST += $(DECOMP_INPUTS)
dist_doc_DATA += doc/decomp.md
