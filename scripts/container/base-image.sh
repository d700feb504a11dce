#!/usr/bin/env bash
# Tests and CI only: a local stand-in for node:20-bookworm-slim, built without a registry — Debian
# bookworm (debootstrap minbase and CA certificates; no compilers, as in the official slim image)
# plus this machine's Node 20 (binary, headers, npm), laid out as the official image does under
# /usr/local. Skipped when the image exists. Usage: base-image.sh [image name]
# (default localhost/scheduler-base:bookworm-node20). Prints the image name on its last line.
set -euo pipefail
IMAGE="${1:-localhost/scheduler-base:bookworm-node20}"
. "$(dirname "$0")/podman.sh"
if cpodman image exists "$IMAGE"; then echo "base-image: $IMAGE exists (cached)" >&2; echo "$IMAGE"; exit 0; fi
began=$SECONDS
work="$(mktemp -d "${TMPDIR:-/tmp}/scheduler-base.XXXXXX")"
trap 'rm -rf "$work"' EXIT
rootfs="$work/rootfs"
debootstrap --variant=minbase --include=ca-certificates bookworm "$rootfs" http://deb.debian.org/debian >"$work/debootstrap.log" 2>&1 \
  || { tail -20 "$work/debootstrap.log" >&2; exit 1; }
node="$(readlink -f "$(command -v node)")"
prefix="$(dirname "$(dirname "$node")")"   # /usr for Debian's or NodeSource's package, /usr/local for the official layout
mkdir -p "$rootfs/usr/local/bin" "$rootfs/usr/local/lib/node_modules" "$rootfs/usr/local/include"
cp "$node" "$rootfs/usr/local/bin/node"
cp -a "$prefix/lib/node_modules/npm" "$rootfs/usr/local/lib/node_modules/npm"
cp -a "$prefix/include/node" "$rootfs/usr/local/include/node"
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"
rm -rf "$rootfs/var/cache/apt/archives/"*.deb "$rootfs/var/lib/apt/lists/"*
tar -C "$rootfs" -c . | cpodman import -q --change 'CMD ["node"]' - "$IMAGE" >/dev/null
echo "base-image: built $IMAGE in $((SECONDS - began)) s" >&2
echo "$IMAGE"
