# pfio_io: the GEOS MAPL PFIO client/server output kernel.  Everything but
# main() is in a small library so the unit tests can link it.
noinst_LIBRARIES += src/pfio/libpfio.a
src_pfio_libpfio_a_SOURCES = \
	src/pfio/pfio.h src/pfio/serve.h src/pfio/prof.h \
	src/pfio/options.c src/pfio/nodes.c src/pfio/layout.c \
	src/pfio/workload.c src/pfio/protocol.c src/pfio/pack.c src/pfio/pack.h \
	src/pfio/serve.c src/pfio/client.c \
	src/pfio/mpiserver.c src/pfio/multigroup.c src/pfio/writer.c \
	src/pfio/compute.c src/pfio/prof.c src/pfio/report.c

bin_PROGRAMS += src/pfio/pfio_io
RUN_EXES += src/pfio/pfio_io
src_pfio_pfio_io_SOURCES = src/pfio/main.c
src_pfio_pfio_io_LDADD = src/pfio/libpfio.a $(CLIMIO_LIBS) $(CLIMIO_IO_LIBADD)

# parameter files users start from (copied into run/)
RUN_INPUTS += inputs/pfio.in inputs/pfio.in.c720 inputs/pfio.in.overlap
climioinputs_DATA += inputs/pfio.in inputs/pfio.in.c720 inputs/pfio.in.overlap
EXTRA_DIST += inputs/pfio.in inputs/pfio.in.c720 inputs/pfio.in.overlap

# the wiki's tables at a size that fits (scripts/bench-pfio --help)
dist_bin_SCRIPTS += scripts/bench-pfio
dist_doc_DATA += doc/pfio.md
RUN_INPUTS += inputs/sweep.pfio.toml
climioinputs_DATA += inputs/sweep.pfio.toml
EXTRA_DIST += inputs/sweep.pfio.toml
