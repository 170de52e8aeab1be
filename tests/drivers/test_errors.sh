#!/bin/sh
# sanitizers: yes
# Errors, with every driver built: a missing output directory, an unwritable one
# (a path under a regular file; a read-only tmpfs where mounting is allowed), a
# full file system (a 1 MiB tmpfs), a file deleted between the write and
# --verify_only (which passes on the intact file, read by 3 ranks in another
# mode), a truncated netCDF-4 or HDF5 file, and a flipped data byte that
# --verify_only finds and names.
# Every case must end all ranks non-zero within seconds (expect_fail's time
# limit is lowered to 60 s and each case must take under 20 s) and name the
# file, the library call and its message.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/drivers/common.sh"
set -e
CLIMIO_TEST_TIMEOUT=60
combos="mpiio:raw:nonblocking_collective"
have_driver pnetcdf && combos="$combos pnetcdf:cdf5:nonblocking_collective pnetcdf:cdf2:blocking_independent"
have_driver netcdf && combos="$combos netcdf:nc4:blocking_collective"
have_driver hdf5 && combos="$combos hdf5:hdf5:blocking_independent"

call_of() {
    case $1 in
    pnetcdf) echo ncmpi_create ;; netcdf) echo nc_create_par ;; hdf5) echo H5Fcreate ;; mpiio) echo MPI_File_open ;;
    esac
}

# timed_fail NP "message" ARGS...: expect_fail, and it must be quick
timed_fail() {
    t0=$(date +%s)
    expect_fail "$@"
    [ $(( $(date +%s) - t0 )) -lt 20 ] || fail "took $(( $(date +%s) - t0 )) s to fail: $*"
}

# mounts are removed on any exit
mnt_ro="$TESTTMP/ro" mnt_full="$TESTTMP/full"
mkdir -p "$mnt_ro" "$mnt_full"
cleanup() { umount "$mnt_ro" 2>/dev/null || true; umount "$mnt_full" 2>/dev/null || true; }
trap cleanup EXIT
can_mount=yes
mount -t tmpfs -o size=1m,ro tmpfs "$mnt_ro" 2>/dev/null && mount -t tmpfs -o size=1m tmpfs "$mnt_full" 2>/dev/null || can_mount=no
[ $can_mount = yes ] || echo "SKIPPED PART: mount -t tmpfs is not permitted here: no read-only or full file system cases"
touch "$TESTTMP/regular"

for c in $combos; do
    IFS=: read drv fmt mode <<EOF2
$c
EOF2
    sfx=$(suffix_of $fmt)
    args="$PLAN --driver $drv --format $fmt --iotype $mode --mkdir false"
    # missing directory
    timed_fail 2 "$drv driver: create failed on $TESTTMP/none/sub/exercise.$sfx: $(call_of $drv): " "$EX" $args --out "$TESTTMP/none/sub"
    grep -qF "(directory $TESTTMP/none/sub: No such file or directory)" "$TESTTMP/err.txt" || fail "$c: missing directory not named"
    # a directory under a regular file
    timed_fail 2 "$drv driver: create failed on $TESTTMP/regular/sub/exercise.$sfx: $(call_of $drv): " "$EX" $args --out "$TESTTMP/regular/sub"
    grep -qF "(directory $TESTTMP/regular/sub: Not a directory)" "$TESTTMP/err.txt" || fail "$c: not a directory not named"
    if [ $can_mount = yes ]; then
        # a read-only file system
        timed_fail 2 "$drv driver: create failed on $mnt_ro/exercise.$sfx: $(call_of $drv): " "$EX" $args --out "$mnt_ro"
        grep -qF "(directory $mnt_ro: Read-only file system)" "$TESTTMP/err.txt" || fail "$c: read-only not named"
        # a full one: 3 records of 768 KiB on 1 MiB, written in one session (see doc/drivers.md for reopened files)
        rm -rf "$mnt_full"/*
        timed_fail 2 "$drv driver: " "$EX" $args --out "$mnt_full" --nx 64 --ny 64 --nz 16 --reopen false
        grep -q "failed on $mnt_full/exercise.$sfx: .* -- the file is incomplete" "$TESTTMP/err.txt" \
            || { cat "$TESTTMP/err.txt"; fail "$c: full file system: file not named"; }
        echo "$c full: $(grep -m1 "failed on" "$TESTTMP/err.txt")"
    fi
    # a file deleted before --verify_only, and a flipped byte
    out="$TESTTMP/ok-$drv-$fmt"
    run 2 "$EX" $args --mkdir true --out "$out" --quiet >"$TESTTMP/log" 2>&1 || { cat "$TESTTMP/log"; fail "$c: write"; }
    f="$out/exercise.$sfx"
    # first, --verify_only passes on the intact file, at another process count and mode
    case $mode in blocking_independent) other=blocking_collective ;; *) other=blocking_independent ;; esac
    run 3 "$EX" $PLAN --driver $drv --format $fmt --iotype $other --out "$out" --verify_only true \
        --json "$out.json" --quiet >"$TESTTMP/log" 2>&1 || { cat "$TESTTMP/log"; fail "$c: --verify_only on the intact file"; }
    [ "$(json_get "$out.json" 'd["verify"]["verdict"]')" = pass ] || fail "$c: --verify_only verdict"
    [ "$(json_get "$out.json" 'd["write"]["bytes"]["written"]')" = 0 ] || fail "$c: --verify_only wrote"
    cp "$f" "$f.keep"
    rm "$f"
    timed_fail 2 "$drv driver: open failed on $f: " "$EX" $args --out "$out" --verify_only true
    mv "$f.keep" "$f"
    # a truncated netCDF-4 or HDF5 file: said to be, with the end its HDF5 superblock records
    case $fmt in nc4|hdf5)
        size=$(wc -c <"$f")
        cp "$f" "$f.keep"
        truncate -s -1000 "$f"
        timed_fail 2 "$f is $((size - 1000)) bytes, but its HDF5 superblock says the file ends at byte $size: the file is truncated (1000 bytes missing)" \
            "$EX" $args --out "$out" --verify_only true
        mv "$f.keep" "$f" ;;
    esac
    # element 17 of mask (int, fixed: first in the data section of classic and raw
    # files, a contiguous dataset in HDF5 files)
    case $fmt in
    cdf*) off=$("$NCOFFSETS" -v mask "$f" | awk '/start file offset/{print $5; exit}') ;;
    raw) off=4096 ;;
    *) off=$("$H5DUMP" -p -H -d /mask "$f" | sed -n 's/.*OFFSET \([0-9]*\).*/\1/p' | head -1) ;;
    esac
    [ -n "$off" ] || fail "$c: no offset of mask"
    printf '\125' | dd of="$f" bs=1 seek=$(( off + 4 * 17 + 1 )) conv=notrunc 2>/dev/null
    timed_fail 2 "verification FAILED: 1 mismatched elements; first: $f: variable mask, record 0, element 17: read" \
        "$EX" $args --out "$out" --verify_only true
    [ "$rc" = 3 ] || fail "$c: a failed verification exits $rc, expected 3"
done
cleanup
pass
