"""A file a tool writes at the user's request (a bench script's --json,
collect's --csv and --json): what may not be that file, said before anything
runs or is written, so that neither a result nor an input is lost to it."""

import os
import stat


def _kind(path):
    m = os.lstat(path).st_mode
    return ("a FIFO" if stat.S_ISFIFO(m) else "a socket" if stat.S_ISSOCK(m) else "a character device"
            if stat.S_ISCHR(m) else "a block device" if stat.S_ISBLK(m) else "a symbolic link to no file"
            if stat.S_ISLNK(m) else "not a regular file")


def _program(path):
    """A program: an ELF binary or a script with '#!' (an executable bit alone
    says little: on some mounts every file has it)."""
    try:
        with open(path, "rb") as f:
            head = f.read(4)
    except OSError:
        return False
    return head == b"\x7fELF" or head[:2] == b"#!"


def problem(path, inputs=(), inside=()):
    """What is wrong with writing path, in words that follow 'FLAG PATH: ', or
    None.  inputs: files the tool reads, never overwritten; inside: folders
    whose files belong to something else (a sweep's runs/ and jobs/)."""
    if not path:
        return "expected a file name, found ''"
    if os.path.isdir(path):
        return "is a directory, expected a file name"
    if os.path.lexists(path) and not os.path.isfile(path):
        return "expected a regular file, found %s" % _kind(path)
    if os.path.isfile(path) and _program(path):
        return "is a program (an executable or a script), not a results file: it would be overwritten"
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        return "expected a file in an existing folder, found no folder %s" % folder
    if not os.access(folder, os.W_OK | os.X_OK):
        return "the folder %s is not writable" % folder
    for given in inputs:
        if given and os.path.exists(path) and os.path.exists(given) and os.path.samefile(path, given):
            return "is an input of this run (%s): it would be overwritten" % given
    real = os.path.realpath(path)
    for d in inside:
        rd = os.path.realpath(d)
        if os.path.commonpath([real, rd]) == rd:
            return "lies in %s, which holds the sweep's own files (its runs' results and logs): it would " \
                   "overwrite them" % d
    return None
