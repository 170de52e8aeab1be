# h5dump's text with the values of netCDF-style dimension scales left out: a
# dimension without a coordinate variable is an HDF5 dataset that nothing writes
# (netCDF-4's convention), so its storage holds whatever the MPI-IO layer left
# there (zeros with Open MPI's OMPIO, a collective buffer's old bytes with ROMIO).
function flush(i) {
    for (i = 1; i <= n; i++)
        if (!dim || i < ds || i > de) print buf[i]
        else if (i == ds) print ind "   DATA { (not written: a dimension without a variable) }"
    n = 0; ind = ""; inside = 0
}
!inside && /^ *DATASET "/ { inside = 1; ind = $0; sub(/DATASET.*/, "", ind); n = 0; dim = 0; ds = 0; de = 0 }
!inside { print; next }
{
    buf[++n] = $0
    if (!ds && $0 == ind "   DATA {") ds = n
    else if (ds && !de && $0 == ind "   }") de = n
    if (index($0, "This is a netCDF dimension but not a netCDF variable")) dim = 1
    if ($0 == ind "}") flush()
}
END { if (n) flush() }
