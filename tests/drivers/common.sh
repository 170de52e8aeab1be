# Shared by the driver tests (sourced after tests/lib.sh).  The plan is
# src/exercise/engine_exercise with --extras: a record coordinate written by rank 0, two
# 4-D record variables under interleaved decompositions, a fixed int variable, a
# fixed scalar owned by the last rank, a short record variable whose records
# need CDF padding, and an int64 variable (formats that have int64 only), over 3
# records, the file reopened for every record.
EX="$top_builddir/src/exercise/engine_exercise"
NCOFFSETS="${NCVALIDATOR%/*}/ncoffsets"     # PnetCDF's tool, beside ncvalidator
NX=16 NY=12 NZ=3 NREC=3
PLAN="--nx $NX --ny $NY --nz $NZ --nrec $NREC --extras true"

# Bytes of the plan (what the API writes): time, temp, salt per record; mask;
# gmean; level per record; cells where the format has int64.
plan_bytes() {
    b=$(( NREC * (8 + 12 * NZ * NY * NX) + 4 * NY * NX + 8 + NREC * 2 * NZ ))
    case $1 in cdf1|cdf2|nc4c) ;; *) b=$(( b + 8 * NX )) ;; esac
    echo $b
}

modes_of() {
    case $1 in
    netcdf|hdf5) echo "blocking_collective blocking_independent" ;;
    *) echo "blocking_collective blocking_independent nonblocking_collective nonblocking_independent" ;;
    esac
}

suffix_of() { case $1 in raw) echo raw ;; hdf5) echo h5 ;; *) echo nc ;; esac; }

# The checksums of the plan from the null driver (no storage): every driver,
# mode and process count must give these for the variables its format has.
REF_SUMS="$TESTTMP/ref-sums.json"
make_reference() {
    run 1 "$EX" $PLAN --driver null --out "$TESTTMP/null" --json "$TESTTMP/null.json" --quiet >"$TESTTMP/log" 2>&1 \
        || { cat "$TESTTMP/log"; fail "null reference run"; }
    json_get "$TESTTMP/null.json" 'json.dumps(d["checksums"])' >"$REF_SUMS"
}

# exercise NP DRIVER FORMAT MODE DIR [more options]: one run with --verify; checks
# the verdict, the bytes of the plan and the checksums.  The file is DIR/exercise.*
exercise() {
    np=$1 drv=$2 fmt=$3 mode=$4 dir=$5
    shift 5
    j="$dir.json"
    rm -rf "$dir"
    run "$np" "$EX" $PLAN --driver "$drv" --format "$fmt" --iotype "$mode" --out "$dir" --verify true \
        --json "$j" --quiet "$@" >"$TESTTMP/log" 2>&1 || { cat "$TESTTMP/log"; fail "$drv $fmt $mode np=$np: run failed"; }
    what="$drv $fmt $mode np=$np"
    [ "$(json_get "$j" 'd["verify"]["verdict"]')" = pass ] || fail "$what: verify $(json_get "$j" 'd["verify"]')"
    [ "$(json_get "$j" 'd["verify"]["mismatches"]')" = 0 ] || fail "$what: mismatches"
    [ "$(json_get "$j" 'd["verify"]["shifted"]')" = "$([ "$np" -gt 1 ] && echo True || echo False)" ] \
        || fail "$what: the read-back was not shifted"
    got=$(json_get "$j" 'd["write"]["bytes"]["written"]')
    [ "$got" = "$(plan_bytes "$fmt")" ] || fail "$what: bytes written $got, plan $(plan_bytes "$fmt")"
    [ "$(json_get "$j" 'd["readback"]["bytes"]["read"]')" = "$got" ] || fail "$what: bytes read back differ from written"
    bad=$("$PYTHON" -c "
import json,sys
ref=json.load(open(sys.argv[1])); got=json.load(open(sys.argv[2]))['checksums']
print(' '.join(k for k in ref if k in got and got[k]!=ref[k]) or ' '.join(k for k in ('time','temp','salt','mask','gmean','level') if k not in got))
" "$REF_SUMS" "$j")
    [ -z "$bad" ] || fail "$what: checksums differ from the null driver's (or are missing) for: $bad"
    FILE="$dir/exercise.$(suffix_of "$fmt")"
    [ -f "$FILE" ] || fail "$what: no file $FILE"
}

# The data section of ncdump output (the header names the file).
ncdump_data() { "$NCDUMP" -p 9,17 "$1" | sed -n '/^data:/,$p'; }

# h5dump of every dataset's values (exact: the pattern's values are integers).
h5dump_data() {
    for v in time temp salt mask gmean level cells; do
        "$H5DUMP" -y -w 0 -m %.17g -d "/$v" "$1" 2>/dev/null | sed -n '/^   DATA {/,/^   }/p'
    done
}

# Classic files: ncvalidator accepts the file, the variables' ranges (ncoffsets
# -r) hold exactly the plan's bytes, and the file ends where the last range ends
# (NOFILL leaves the last record's padding unwritten).
check_classic() {
    file=$1 fmt=$2 what=$3
    "$NCVALIDATOR" "$file" >"$TESTTMP/val" 2>&1 || { cat "$TESTTMP/val"; fail "$what: ncvalidator rejects $file"; }
    grep -q "is a valid NetCDF" "$TESTTMP/val" || { cat "$TESTTMP/val"; fail "$what: ncvalidator: $file"; }
    set -- $("$NCOFFSETS" -r "$file" | awk '/start file offset/{s=$5} /end +file offset/{n+=$5-s; if($5>m)m=$5} END{print n, m}')
    [ "$1" = "$(plan_bytes "$fmt")" ] || fail "$what: ncoffsets gives $1 data bytes, plan $(plan_bytes "$fmt")"
    size=$(stat -c %s "$file")
    [ "$size" = "$2" ] || fail "$what: $file is $size bytes, its last variable ends at $2"
}
