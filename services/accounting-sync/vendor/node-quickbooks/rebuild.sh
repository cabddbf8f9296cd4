#!/usr/bin/env bash
# Rebuilds node-quickbooks-2.0.50-abort-signal.tgz from the npm registry's node-quickbooks 2.0.50 and
# abort-signal.patch, and says whether it matches the checked-in tarball (npm pack is reproducible).
#   services/accounting-sync/vendor/node-quickbooks/rebuild.sh          check
#   services/accounting-sync/vendor/node-quickbooks/rebuild.sh --write  replace the checked-in tarball
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
version=2.0.50
tarball="node-quickbooks-${version}-abort-signal.tgz"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
npm pack "node-quickbooks@${version}" --silent >/dev/null
tar xzf "node-quickbooks-${version}.tgz"
(cd package && patch -p1 --forward --silent <"$here/abort-signal.patch")
mkdir out
(cd package && npm pack --silent --pack-destination ../out >/dev/null)
if [ "${1:-}" = "--write" ]; then
  cp "out/node-quickbooks-${version}.tgz" "$here/$tarball"
  echo "wrote $tarball"
elif cmp -s "out/node-quickbooks-${version}.tgz" "$here/$tarball"; then
  echo "$tarball = node-quickbooks@${version} + abort-signal.patch"
else
  echo "$tarball differs from node-quickbooks@${version} + abort-signal.patch" >&2
  exit 1
fi
