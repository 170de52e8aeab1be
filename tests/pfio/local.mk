# pfio_io: unit tests of the layout, protocol and profiler, and MPI runs of
# every server type (identical data, overlap, refused configurations).
check_PROGRAMS += tests/pfio/test_pfio_unit
tests_pfio_test_pfio_unit_SOURCES = tests/pfio/test_pfio_unit.c tests/check.h
tests_pfio_test_pfio_unit_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src/pfio -I$(top_srcdir)/tests
tests_pfio_test_pfio_unit_LDADD = src/pfio/libpfio.a $(CLIMIO_LIBS) $(CLIMIO_IO_LIBADD)
TESTS += tests/pfio/test_pfio_unit
TESTS += tests/pfio/test_pfio_servers.sh
EXTRA_DIST += tests/pfio/test_pfio_servers.sh
TESTS += tests/pfio/test_pfio_errors.sh
EXTRA_DIST += tests/pfio/test_pfio_errors.sh
TESTS += tests/pfio/test_pfio_multilayer.sh
EXTRA_DIST += tests/pfio/test_pfio_multilayer.sh
TESTS += tests/pfio/test_pfio_overlap.sh
EXTRA_DIST += tests/pfio/test_pfio_overlap.sh
TESTS += tests/pfio/test_pfio_sweep.sh
EXTRA_DIST += tests/pfio/test_pfio_sweep.sh
# scripts/bench-pfio (the shared bench runner) on a tiny grid
TESTS += tests/pfio/test_bench_pfio.sh
EXTRA_DIST += tests/pfio/test_bench_pfio.sh
TESTS += tests/pfio/test_pfio_chunking.sh
EXTRA_DIST += tests/pfio/test_pfio_chunking.sh tests/pfio/chunks_match.py
# beside MAPL's own PFIO (doc/pfio.md): the header its demo writes, the requests
# it makes per rank, and scripts/peer-pfio's comparison against a stand-in
TESTS += tests/pfio/test_pfio_mapl_header.sh tests/pfio/test_pfio_requests.sh tests/pfio/test_peer_pfio.sh
EXTRA_DIST += tests/pfio/test_pfio_mapl_header.sh tests/pfio/mapl_demo_header.cdl tests/pfio/test_pfio_requests.sh \
	tests/pfio/test_peer_pfio.sh
