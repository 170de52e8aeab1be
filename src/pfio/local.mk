# pfio_io: the GEOS MAPL PFIO client/server output kernel.  Everything but
# main() is in a small library so the unit tests can link it.
noinst_LIBRARIES += src/pfio/libpfio.a
src_pfio_libpfio_a_SOURCES = \
	src/pfio/pfio.h src/pfio/pfio_serve.h src/pfio/pfio_prof.h \
	src/pfio/pfio_options.c src/pfio/pfio_nodes.c src/pfio/pfio_layout.c \
	src/pfio/pfio_workload.c src/pfio/pfio_protocol.c src/pfio/pfio_pack.c src/pfio/pfio_pack.h \
	src/pfio/pfio_serve.c src/pfio/pfio_client.c src/pfio/pfio_optimal.c \
	src/pfio/pfio_mpiserver.c src/pfio/pfio_multigroup.c src/pfio/pfio_multicomm.c src/pfio/pfio_multilayer.c src/pfio/pfio_writer.c \
	src/pfio/pfio_compute.c src/pfio/pfio_prof.c src/pfio/pfio_report.c

bin_PROGRAMS += src/pfio/pfio_io
RUN_EXES += src/pfio/pfio_io
src_pfio_pfio_io_SOURCES = src/pfio/pfio_main.c
src_pfio_pfio_io_LDADD = src/pfio/libpfio.a $(CLIMIO_LIBS) $(CLIMIO_IO_LIBADD)

# parameter files users start from (copied into run/)
RUN_INPUTS += inputs/pfio.in inputs/pfio.in.c720 inputs/pfio.in.overlap
climioinputs_DATA += inputs/pfio.in inputs/pfio.in.c720 inputs/pfio.in.overlap
EXTRA_DIST += inputs/pfio.in inputs/pfio.in.c720 inputs/pfio.in.overlap

# the wiki's tables at a size that fits (scripts/bench-pfio --help)
dist_bin_SCRIPTS += scripts/bench-pfio
# pfio_io beside a user's build of MAPL's pfio_MAPL_demo.x (doc/pfio.md)
dist_bin_SCRIPTS += scripts/peer-pfio
dist_doc_DATA += doc/pfio.md
RUN_INPUTS += inputs/sweep.pfio.toml
climioinputs_DATA += inputs/sweep.pfio.toml
EXTRA_DIST += inputs/sweep.pfio.toml
