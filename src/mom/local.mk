# mom_io, the MOM5 ocean output kernel.
bin_PROGRAMS += src/mom/mom_io
RUN_EXES += src/mom/mom_io
MOM_COMMON = \
	src/mom/mom.h \
	src/mom/mom_config.c src/mom/mom_config.h \
	src/mom/mom_schema.c src/mom/mom_schema.h
src_mom_mom_io_SOURCES = $(MOM_COMMON) \
	src/mom/mom_main.c \
	src/mom/mom_gather.c src/mom/mom_gather.h \
	src/mom/mom_clock.c src/mom/mom_clock.h \
	src/mom/mom_hints.c \
	src/mom/mom_write.c src/mom/mom_read.c \
	src/mom/mom_report.c src/mom/mom_report.h
src_mom_mom_io_LDADD = src/mom/libmom_model.a src/grids/libcio_grids.a $(CLIMIO_LIBS) $(CLIMIO_IO_LIBADD)

# --data model's MOM geometry and land mask, built without floating-point
# contraction like src/lib/data/model_data.c (bit-identical on every CPU)
noinst_LIBRARIES += src/mom/libmom_model.a
src_mom_libmom_model_a_SOURCES = src/mom/mom_model.c src/mom/mom_model.h
src_mom_libmom_model_a_CFLAGS = $(AM_CFLAGS) -ffp-contract=off

MOM_INPUTS = inputs/mom.in.025deg inputs/mom.in.01deg inputs/mom.in.tiny
RUN_INPUTS += $(MOM_INPUTS)
climioinputs_DATA += $(MOM_INPUTS)
EXTRA_DIST += $(MOM_INPUTS)

dist_bin_SCRIPTS += scripts/bench-mom
dist_doc_DATA += doc/mom.md

# peer-fms: mom_io beside a user-built FMS on the same layouts (doc/mom.md); it
# compiles its Fortran driver (peer-fms.d/) against that FMS and runs both under
# the suite's write counter (scripts/libiocount.c)
dist_bin_SCRIPTS += scripts/peer-fms
peerfmsdir = $(datadir)/climio/peer-fms.d
dist_peerfms_DATA = scripts/peer-fms.d/mom_diag_driver.F90
