#!/bin/sh
# Prints three lines about the climio source in SRCDIR: its version, where that
# came from, and its commit.  A git checkout: `git describe --tags --always
# --dirty` and `git rev-parse HEAD` ("-dirty" when modified).  A release tarball:
# .tarball-version and .tarball-commit, which `make dist` writes.  A tree from
# `git archive`: .archive-commit, whose $Format placeholders git filled in
# (export-subst in .gitattributes).  Otherwise the commit is "unknown: " and why.  configure records its answer; buildinfo.sh asks
# again at every make and prefers a git checkout's own answer.
# usage: source_version.sh SRCDIR PACKAGE_VERSION
srcdir=$1 pkgver=$2
version="" origin="" commit=""
if test -e "$srcdir/.git" && command -v git >/dev/null 2>&1; then
  version=`git -C "$srcdir" describe --tags --always --dirty 2>/dev/null` && origin="git describe"
  commit=`git -C "$srcdir" rev-parse HEAD 2>/dev/null` &&
    { git -C "$srcdir" diff --quiet HEAD 2>/dev/null || commit="$commit-dirty"; }
fi
if test -z "$version" && test -f "$srcdir/.tarball-version"; then
  version=`sed -n 1p "$srcdir/.tarball-version"` && origin="tarball (.tarball-version)"
fi
if test -z "$commit" && test -f "$srcdir/.tarball-commit"; then
  commit=`sed -n 1p "$srcdir/.tarball-commit"`
fi
if test -f "$srcdir/.archive-commit"; then
  # in a checkout or a copy of one the placeholders are still there: not an archive
  acommit=`sed -n 1p "$srcdir/.archive-commit"`
  adescribe=`sed -n 2p "$srcdir/.archive-commit"`
  case $acommit in *'$Format'*) acommit="" ;; esac
  case $adescribe in *'$Format'*) adescribe="" ;; esac
  if test -z "$commit" && test -n "$acommit"; then commit=$acommit; fi
  if test -z "$version" && test -n "$acommit"; then
    version=${adescribe:-"$pkgver-g`printf '%s' "$acommit" | cut -c1-7`"} origin="git archive (.archive-commit)"
  fi
fi
if test -z "$version"; then version=$pkgver origin="configure (no git, no .tarball-version)"; fi
if test -z "$commit"; then
  if test -f "$srcdir/.tarball-version"; then
    commit="unknown: built from a release tarball without .tarball-commit; its version (git describe when it was made): $version"
  elif test -e "$srcdir/.git"; then
    commit="unknown: git is not installed here to read $srcdir/.git"
  else
    commit="unknown: the source is neither a git checkout (no .git), a release tarball (no .tarball-commit) nor a git archive (no .archive-commit filled in)"
  fi
fi
# one line each, and no quote that would end a Makefile or C string
printf '%s\n' "$version" "$origin" "$commit" | tr -d "'\"\\\\"
