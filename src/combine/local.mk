# mom_combine: the mppnccombine stand-in.
bin_PROGRAMS += src/combine/mom_combine
RUN_EXES += src/combine/mom_combine
src_combine_mom_combine_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src/mom
src_combine_mom_combine_SOURCES = $(MOM_COMMON) src/combine/mom_combine.c src/combine/mom_combine_cli.c src/combine/mom_combine_cli.h \
	src/combine/mom_combine_tiles.c src/combine/mom_combine_tiles.h
src_combine_mom_combine_LDADD = src/mom/libmom_model.a src/grids/libcio_grids.a $(CLIMIO_LIBS) $(CLIMIO_IO_LIBADD)

