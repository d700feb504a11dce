#!/usr/bin/env bash
# Tests and CI only: better-sqlite3's prebuilt binary for the image build, from this machine's own
# build of it (node_modules/better-sqlite3, compiled by `npm ci` for this Node, which the local base
# image carries — scripts/container/base-image.sh). Where GitHub's release downloads are unreachable,
# the image's `npm ci` would compile it again (minutes on two cores); prebuild-install takes it from
# its cache instead: <npm cache>/_prebuilds/<name prebuild-install gives its download URL>.
# Usage: prebuilds.sh <folder>; fills <folder> (to be mounted at /root/.npm/_prebuilds) and prints
# it, or prints nothing when there is no local build to offer.
set -euo pipefail
cd "$(dirname "$0")/../.."
out="$1"
binary=node_modules/better-sqlite3/build/Release/better_sqlite3.node
[ -f "$binary" ] || exit 0
name="$(node -e '
  const path = require("node:path");
  const pkg = require("better-sqlite3/package.json");
  const util = require("prebuild-install/util");
  const url = util.getDownloadUrl({ ...require("prebuild-install/rc")(pkg), pkg });
  console.log(path.basename(util.cachedPrebuild(url)));')"
mkdir -p "$out"
[ -f "$out/$name" ] || tar -C node_modules/better-sqlite3 -czf "$out/$name" build/Release/better_sqlite3.node
echo "$out"
