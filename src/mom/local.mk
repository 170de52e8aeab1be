# mom_io (the MOM5 ocean output kernel) and mom_combine (its mppnccombine).
bin_PROGRAMS += src/mom/mom_io
RUN_EXES += src/mom/mom_io
MOM_COMMON = \
	src/mom/mom.h \
	src/mom/mom_config.c src/mom/mom_config.h \
	src/mom/mom_domain.c src/mom/mom_domain.h \
	src/mom/mom_schema.c src/mom/mom_schema.h
src_mom_mom_io_SOURCES = $(MOM_COMMON) \
	src/mom/mom_main.c \
	src/mom/mom_gather.c src/mom/mom_gather.h \
	src/mom/mom_clock.c src/mom/mom_clock.h \
	src/mom/mom_hints.c \
	src/mom/mom_write.c src/mom/mom_read.c \
	src/mom/mom_report.c src/mom/mom_report.h
src_mom_mom_io_LDADD = src/mom/libmom_model.a $(CLIMIO_LIBS) $(CLIMIO_IO_LIBADD)

# --data model's MOM geometry and land mask, built without floating-point
# contraction like src/lib/model_data.c (bit-identical on every CPU)
noinst_LIBRARIES += src/mom/libmom_model.a
src_mom_libmom_model_a_SOURCES = src/mom/mom_model.c src/mom/mom_model.h
src_mom_libmom_model_a_CFLAGS = $(AM_CFLAGS) -ffp-contract=off

MOM_INPUTS = inputs/mom.in.025deg inputs/mom.in.01deg inputs/mom.in.tiny
RUN_INPUTS += $(MOM_INPUTS)
climioinputs_DATA += $(MOM_INPUTS)
EXTRA_DIST += $(MOM_INPUTS)

bin_PROGRAMS += src/mom/mom_combine
RUN_EXES += src/mom/mom_combine
src_mom_mom_combine_SOURCES = $(MOM_COMMON) src/mom/mom_combine.c src/mom/mom_combine_cli.c src/mom/mom_combine_cli.h \
	src/mom/mom_combine_tiles.c src/mom/mom_combine_tiles.h
src_mom_mom_combine_LDADD = src/mom/libmom_model.a $(CLIMIO_LIBS) $(CLIMIO_IO_LIBADD)

dist_bin_SCRIPTS += scripts/bench-mom
dist_doc_DATA += doc/mom.md
