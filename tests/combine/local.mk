# mom_combine as FRE-NCtools' mppnccombine: FMS sets of several models made with
# ncgen (fms_sets.py), their combined files against the real tool's (expected/).
TESTS += tests/combine/test_combine_fms.sh tests/combine/test_combine_options.sh tests/combine/test_bench_combine.sh \
	tests/combine/test_combine_registry.sh tests/combine/test_combine_json_claim.sh tests/combine/test_combine_many.sh \
	tests/combine/test_combine_property.sh tests/combine/test_combine_failures.sh tests/combine/test_combine_mom5_kernel.sh \
	tests/combine/test_combine_unsized.sh tests/combine/test_combine_mom5_many.sh
EXTRA_DIST += tests/combine/test_combine_fms.sh tests/combine/test_combine_options.sh tests/combine/test_bench_combine.sh \
	tests/combine/test_combine_registry.sh tests/combine/test_combine_json_claim.sh tests/combine/test_combine_many.sh \
	tests/combine/test_combine_property.sh tests/combine/test_combine_failures.sh tests/combine/test_combine_mom5_kernel.sh \
	tests/combine/test_combine_unsized.sh tests/combine/test_combine_mom5_many.sh tests/combine/common.sh tests/combine/fms_sets.py tests/combine/fms_property.py \
	tests/combine/expected/mom5.cdl tests/combine/expected/mom6.cdl tests/combine/expected/fv3.cdl \
	tests/combine/expected/fv3-e2.cdl tests/combine/expected/land.cdl tests/combine/expected/edited.cdl \
	tests/combine/expected/nc4.cdl tests/combine/expected/ice-f.cdl tests/combine/expected/ice-fm.cdl \
	tests/combine/expected/am4.cdl tests/combine/expected/fv3-grid.cdl tests/combine/expected/lm4-restart.cdl \
	tests/combine/expected/lm4-history.cdl tests/combine/expected/sis2-restart.cdl tests/combine/expected/mom6-restart.cdl \
	tests/combine/expected/regional-m.cdl tests/combine/expected/crashed-f.cdl tests/combine/expected/truncated-f.cdl \
	tests/combine/expected/cdf5.cdl tests/combine/expected/nc4-strings.cdl tests/combine/expected/fms2-perpe.cdl \
	tests/combine/expected/fms2-perpe-gap-f.cdl tests/combine/expected/regional-perpe.cdl
