"""What a point will really run, said before any run: the iotype a kernel
runs can differ from the one asked (doc/results-schema.md lists every
cause, which the run's JSON names under io.iotype_cause).  The planner
prints one note per point that will run as something else; the report
labels what ran, with what was asked in parentheses."""

CAUSES = {
    "gcrm_original_blocking": "gcrm_io's call_pattern original: GCRM-IO's blocking_collective is iput + wait_all "
                              "per field, the engine's nonblocking_collective with a wait after each field "
                              "(call_pattern = \"textbook\" keeps put_vara_all)",
    "nc4_nonblocking_fallback": "the driver has no nonblocking calls and nc4_nonblocking_fallback is true: the "
                                "blocking mode of the same collectivity ran",
    "adjusted_for_driver": "the kernel's default iotype is not one of the driver's modes: its blocking mode of the "
                           "same collectivity ran",
    "filters_need_collective": "parallel HDF5 writes filtered (compressed) datasets only with collective I/O: the "
                               "collective mode ran",
}


def label(effective, asked):
    """'effective (asked X)' where they differ, else the value."""
    if asked and effective and asked != effective:
        return "%s (asked %s)" % (effective, asked)
    return effective or asked


def notes(sweep):
    """One line per point of the sweep that will run as something else, as the
    kernel answered for that point's parameters (--print_params' io:
    iotype_effective, iotype_cause; kernel.check_parameters asks it):
    'POINT: asked blocking_collective, runs nonblocking_collective: CAUSE'.
    No line under --no-check, where the kernel is not asked."""
    from .plan import points, point_name
    answers = getattr(sweep, "point_io", None) or {}
    out = []
    for settings in points(sweep):
        name = point_name(sweep, settings)
        (asked, origin), io = answers.get(name, ((None, None), {}))
        ran = io.get("iotype_effective")
        if not asked or not ran or ran == asked or io.get("refused"):
            continue
        cause = io.get("iotype_cause")
        out.append("%s: asked %s%s, runs %s: %s" % (name, asked, " (the default)" if origin == "default" else "",
                                                   ran, CAUSES.get(cause, cause or "the kernel gives no cause")))
    return out
