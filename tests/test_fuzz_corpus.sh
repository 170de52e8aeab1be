#!/bin/sh
# sanitizers: yes
# Replay every input the fuzzers kept (tests/fuzz/corpus) through the parsers:
# no crash, every rejection names the file.  scripts/fuzz grows the corpus.
. "$top_srcdir/tests/lib.sh"
for t in params hints gcrm_desc gcrm_fcfg dmap_text mom_params pfio_params; do
  set -- "$top_srcdir"/tests/fuzz/corpus/$t/*
  [ -e "$1" ] || fail "empty corpus for $t"
  "$top_builddir/tests/fuzz_${t}_replay" "$@" >"$TESTTMP/$t.log" 2>&1 || { cat "$TESTTMP/$t.log"; fail "$t parser failed on its corpus"; }
done
pass
