"""What a point will really run, said before any run: the iotype a kernel
runs can differ from the one asked (doc/results-schema.md lists every
cause, which the run's JSON names under io.iotype_cause).  The planner
prints one note per point that will run as something else; the report
labels what ran, with what was asked in parentheses."""

NONBLOCKING_TO_BLOCKING = {"nonblocking_collective": "blocking_collective",
                           "nonblocking_independent": "blocking_independent"}
INDEPENDENT_TO_COLLECTIVE = {"blocking_independent": "blocking_collective",
                             "nonblocking_independent": "nonblocking_collective"}
HDF5_FORMATS = ("netcdf4", "netcdf4_classic", "nc4", "nc4c", "hdf5")

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


def _text(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    return None if v is None else str(v)


def predict(kernel, params, driver_iotypes=None, iotype_set=True):
    """(effective iotype, cause key) for a point, or None when it runs as asked.
    params: the point's kernel parameters (name -> value, as the kernel reads
    them: driver, iotype, call_pattern, nc4_nonblocking_fallback, format,
    deflate, shuffle, szip, quantize); driver_iotypes: the modes the point's
    driver has, None when unknown (the kernel could not be asked)."""
    p = {k: _text(v) for k, v in params.items()}
    asked = p.get("iotype") or "nonblocking_collective"
    have = set(driver_iotypes) if driver_iotypes is not None else None
    mode, cause = asked, None
    if have is not None and mode not in have:
        blocking = NONBLOCKING_TO_BLOCKING.get(mode)
        if blocking in have and not iotype_set:
            mode, cause = blocking, "adjusted_for_driver"
        elif blocking in have and p.get("nc4_nonblocking_fallback") == "true":
            mode, cause = blocking, "nc4_nonblocking_fallback"
        else:
            return None     # the kernel refuses it (kernel.io_problem says so before any run)
    filtered = any(p.get(k) not in (None, "0", "false", "none") for k in ("deflate", "shuffle", "szip", "quantize"))
    if filtered and p.get("driver") in ("netcdf", "hdf5") and (p.get("format") or "").lower() in HDF5_FORMATS \
            and mode in INDEPENDENT_TO_COLLECTIVE:
        mode, cause = INDEPENDENT_TO_COLLECTIVE[mode], "filters_need_collective"
    if kernel == "gcrm_io" and mode == "blocking_collective" and p.get("call_pattern", "original") != "textbook" \
            and (have is None or "nonblocking_collective" in have):
        mode, cause = "nonblocking_collective", "gcrm_original_blocking"
    return (mode, cause) if mode != asked else None


def label(effective, asked):
    """'effective (asked X)' where they differ, else the value."""
    if asked and effective and asked != effective:
        return "%s (asked %s)" % (effective, asked)
    return effective or asked


def notes(sweep, base=None):
    """One line per point of the sweep that will run as something else:
    'POINT: asked blocking_collective, runs nonblocking_collective: CAUSE'."""
    from .plan import points, point_name
    out = []
    for settings in points(sweep):
        params = dict(sweep.fixed["param"])
        for a in sweep.axes:
            if a.kind == "param":
                params[a.name] = settings[a.key]
        names = getattr(sweep, "param_names", {}) or {}
        params = {names.get(k, k): v for k, v in params.items()}
        if base is not None:
            for k in ("driver", "iotype", "call_pattern", "nc4_nonblocking_fallback", "format"):
                if k not in params and base.is_set(k):
                    params[k] = base.value(k)
        iotype_set = "iotype" in params
        iotypes = None
        if base is not None and base.drivers:
            drv = params.get("driver") or next(iter(base.drivers))
            iotypes = (base.drivers.get(drv) or {}).get("iotypes")
        got = predict(sweep.kernel, params, iotypes, iotype_set)
        if got:
            out.append("%s: asked %s, runs %s: %s" % (point_name(sweep, settings), params.get("iotype") or
                                                      "nonblocking_collective (the default)", got[0], CAUSES[got[1]]))
    return out
