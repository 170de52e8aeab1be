/* What this climio was built from and with (src/lib/app/buildinfo.c, generated at
 * every `make` by buildinfo.sh from what configure recorded, or from the git
 * checkout itself, so a new commit shows without re-running configure). */
#ifndef CLIMIO_BUILDINFO_H
#define CLIMIO_BUILDINFO_H

extern const char cio_build_version[];          /* "v0.1-12-gabc1234-dirty", or the release version */
extern const char cio_build_version_origin[];   /* "git describe", "tarball (...)", "configure (...)",
                                                 * ", recorded by configure" added when not read at make */
extern const char cio_build_commit[];           /* the commit (git rev-parse HEAD, "-dirty" when modified), or
                                                 * "unknown: " and why */
extern const char cio_build_cc[];               /* the compiler command (e.g. mpicc) */
extern const char cio_build_cflags[];           /* CFLAGS and climio's own flags */

#endif
