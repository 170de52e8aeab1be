# Decompositions several programs share: FMS's lat-lon domains (mom_io, the map
# generator) and the icosahedral grid (gcrm_io, the map generator).  Built
# without floating-point contraction: cell positions must be the same bits on
# every machine.
noinst_LIBRARIES += src/grids/libcio_grids.a
src_grids_libcio_grids_a_CFLAGS = $(AM_CFLAGS) -ffp-contract=off
src_grids_libcio_grids_a_SOURCES = \
	src/grids/gcrm_grid.c src/grids/gcrm_grid.h \
	src/grids/mom_domain.c src/grids/mom_domain.h
