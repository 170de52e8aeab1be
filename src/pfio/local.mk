# pfio_io: the GEOS MAPL PFIO client/server output kernel.
bin_PROGRAMS += src/pfio/pfio_io
RUN_EXES += src/pfio/pfio_io
src_pfio_pfio_io_SOURCES = \
	src/pfio/main.c src/pfio/pfio.h \
	src/pfio/options.c src/pfio/nodes.c src/pfio/layout.c \
	src/pfio/workload.c src/pfio/protocol.c \
	src/pfio/serve.c src/pfio/serve.h src/pfio/client.c \
	src/pfio/mpiserver.c src/pfio/multigroup.c src/pfio/writer.c \
	src/pfio/compute.c src/pfio/prof.c src/pfio/prof.h src/pfio/report.c
src_pfio_pfio_io_LDADD = $(CLIMIO_LIBS) $(CLIMIO_IO_LIBADD)
