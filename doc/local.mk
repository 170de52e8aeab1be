# user documentation
dist_doc_DATA += doc/internals.md doc/results-schema.md doc/aggregation.md doc/planning.md doc/testing.md
