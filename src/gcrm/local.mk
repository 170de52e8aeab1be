# gcrm_io: the GCRM icosahedral-grid kernel, a drop-in for PnetCDF's GCRM-IO benchmark.
noinst_LIBRARIES += src/gcrm/libgcrm.a
src_gcrm_libgcrm_a_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src/gcrm
# no FMA contraction: cell positions (and --data model's values placed by them)
# must be the same bits on every machine
src_gcrm_libgcrm_a_CFLAGS = $(AM_CFLAGS) -ffp-contract=off
src_gcrm_libgcrm_a_SOURCES = \
	src/gcrm/gcrm_geom.c src/gcrm/gcrm_geom.h \
	src/gcrm/gcrm_datageom.c src/gcrm/gcrm_datageom.h \
	src/gcrm/gcrm_gridvars.c src/gcrm/gcrm_gridvars.h \
	src/gcrm/gcrm_desc.c src/gcrm/gcrm_desc.h \
	src/gcrm/gcrm_fcfg.c src/gcrm/gcrm_fcfg.h \
	src/gcrm/gcrm_fields.c src/gcrm/gcrm_fields.h \
	src/gcrm/gcrm_settings.c src/gcrm/gcrm_settings.h \
	src/gcrm/gcrm_plan.c src/gcrm/gcrm_plan.h src/gcrm/gcrm_cf.c src/gcrm/gcrm_cf.h \
	src/gcrm/gcrm_model.c src/gcrm/gcrm_model.h \
	src/gcrm/gcrm_output.c src/gcrm/gcrm_output.h \
	src/gcrm/gcrm_report.c src/gcrm/gcrm_report.h \
	src/gcrm/gcrm_builtin.h
nodist_src_gcrm_libgcrm_a_SOURCES = src/gcrm/gcrm_builtin.c

# The default run's inputs compiled in, so gcrm_io runs from an empty directory.
GCRM_BUILTIN_INPUTS = $(srcdir)/inputs/zgrd.in $(srcdir)/inputs/ZGrd.desc $(srcdir)/inputs/ZGrd.LZ.fcfg.nophys
src/gcrm/gcrm_builtin.c: $(GCRM_BUILTIN_INPUTS) $(srcdir)/src/embed.sh
	$(AM_V_GEN)$(MKDIR_P) src/gcrm && $(SHELL) $(srcdir)/src/embed.sh gcrm_builtin $(GCRM_BUILTIN_INPUTS) >$@-t && mv -f $@-t $@
CLEANFILES += src/gcrm/gcrm_builtin.c

bin_PROGRAMS += src/gcrm/gcrm_io
src_gcrm_gcrm_io_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src/gcrm
src_gcrm_gcrm_io_SOURCES = src/gcrm/gcrm_main.c
src_gcrm_gcrm_io_LDADD = src/gcrm/libgcrm.a src/grids/libcio_grids.a $(CLIMIO_LIBS) $(CLIMIO_IO_LIBADD)
RUN_EXES += src/gcrm/gcrm_io

# scripts/bench-gcrm: the benchmark table of doc/gcrm.md
dist_bin_SCRIPTS += scripts/bench-gcrm
dist_doc_DATA += doc/gcrm.md
