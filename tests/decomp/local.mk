# decomp_io: the map readers and writers on the specification's worked examples,
# generated maps and bad files.
check_PROGRAMS += tests/decomp/dmap_tool
tests_decomp_dmap_tool_SOURCES = tests/decomp/dmap_tool.c
tests_decomp_dmap_tool_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src/decomp
tests_decomp_dmap_tool_LDADD = $(DMAP_LIBS)
check_PROGRAMS += tests/decomp/e3sm_case_dump
tests_decomp_e3sm_case_dump_SOURCES = tests/decomp/e3sm_case_dump.c
nodist_tests_decomp_e3sm_case_dump_SOURCES = src/decomp/e3sm_case_data.c
tests_decomp_e3sm_case_dump_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src/decomp
# the PnetCDF calls a process makes, logged (LD_PRELOAD) for tests/decomp/test_decomp_calls.sh
check_PROGRAMS += tests/decomp/pnc_calls.so
tests_decomp_pnc_calls_so_SOURCES = tests/decomp/pnc_calls.c
tests_decomp_pnc_calls_so_CFLAGS = $(AM_CFLAGS) -fPIC
tests_decomp_pnc_calls_so_LDFLAGS = -shared
tests_decomp_pnc_calls_so_LDADD = -ldl
TESTS += tests/decomp/test_dmap_formats.sh tests/decomp/test_decomp_io.sh tests/decomp/test_pioperf.sh \
  tests/decomp/test_decomp_holes.sh tests/decomp/test_pio_box.sh tests/decomp/test_pio_subset.sh tests/decomp/test_pio_values.sh tests/decomp/test_bench_decomp.sh \
  tests/decomp/test_bench_decomp_pioperf.sh tests/decomp/test_e3sm_cases.sh tests/decomp/test_e3sm_case_table.sh \
  tests/decomp/test_decomp_calls.sh tests/decomp/test_decomp_dry_run.sh tests/decomp/test_decomp_modes.sh \
  tests/decomp/test_pio_fill.sh
EXTRA_DIST += tests/decomp/test_dmap_formats.sh tests/decomp/test_decomp_io.sh tests/decomp/test_pioperf.sh tests/decomp/data \
  tests/decomp/test_decomp_holes.sh tests/decomp/test_pio_box.sh tests/decomp/test_pio_subset.sh tests/decomp/test_pio_values.sh tests/decomp/test_bench_decomp.sh \
  tests/decomp/test_bench_decomp_pioperf.sh tests/decomp/test_e3sm_cases.sh tests/decomp/test_e3sm_case_table.sh \
  tests/decomp/test_decomp_calls.sh tests/decomp/pnc_calls.c tests/decomp/test_decomp_dry_run.sh \
  tests/decomp/test_decomp_modes.sh tests/decomp/test_pio_fill.sh tests/decomp/common.sh
