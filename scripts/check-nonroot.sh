#!/usr/bin/env bash
# `make check` as a user who is not root (issue 15): root may write where a
# user cannot (into read-only files, over device nodes, into the source
# tree), so a test can pass in CI, which runs as root, and fail for
# everyone else. This copies the build directory to a scratch directory
# owned by an unprivileged user (default `nobody`), points the copy's lit
# and ctest files at it, and runs scripts/run-tests.sh on it as that user.
# The source tree is only read (it must be readable by that user, as
# /work/... and a usual checkout are).
#
# usage: scripts/check-nonroot.sh [BUILD]   (as root; BUILD defaults to build)
# env:   NONROOT_USER (nobody), NONROOT_DIR (a scratch directory under
#        $TMPDIR, removed at the end)
set -euo pipefail
cd "$(dirname "$0")/.."
src=$(pwd)
build=$(cd "${1:-build}" && pwd)
user=${NONROOT_USER:-nobody}

if [ "$(id -u)" -ne 0 ]; then
  echo "check-nonroot: already not root; running the suite as $(id -un)"
  exec scripts/run-tests.sh "$build"
fi
uid=$(id -u "$user")
gid=$(id -g "$user")
if ! setpriv --reuid="$uid" --regid="$gid" --clear-groups \
     test -r "$src/test/lit/lit.cfg.py"; then
  echo "check-nonroot: $user cannot read the source tree $src" >&2
  exit 1
fi

scratch=${NONROOT_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/npuc-nonroot.XXXXXX")}
trap 'rm -rf "$scratch"' EXIT
copy=$scratch/build
# The build as built: the configured lit and ctest files name the original
# directory, so every text file of the copy is pointed at the copy (the
# tools keep reading the runtimes and headers from the original, which
# they only read).
cp -a "$build" "$copy"
rm -rf "$copy/test/lit/Output" "$copy"/test/lit/*/Output
grep -rlIF --null "$build" "$copy" --include='*.py' --include='*.cmake' |
  xargs -0 -r sed -i "s|$build|$copy|g"
chown -R "$uid:$gid" "$scratch"

setpriv --reuid="$uid" --regid="$gid" --clear-groups \
  env HOME="$scratch" TMPDIR="$scratch" scripts/run-tests.sh "$copy"
