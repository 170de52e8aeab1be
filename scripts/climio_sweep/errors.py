"""The one exception the tool reports to users: a message, already in
"file:line: what was expected, what was found" form where a file is involved."""


class SweepError(Exception):
    """A problem the user can fix (bad sweep file, missing program, ...)."""
