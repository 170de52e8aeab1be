# user documentation
dist_doc_DATA += doc/measurement.md doc/internals.md doc/results-schema.md doc/aggregation.md doc/planning.md doc/testing.md doc/scaling.md doc/building.md
# the driver doc/internals.md's recipe copies (tests/test_driver_template.sh builds it)
EXTRA_DIST += doc/driver_template.c
# compression and quantization of --data model (issue 18)
dist_doc_DATA += doc/compression.md
