#!/usr/bin/env bash
# Tests and CI only (not for users, who build `FROM node:20-bookworm-slim`): podman on machines
# without a container registry. Sourced by scripts/container/base-image.sh and the container test.
# - runc instead of crun (crun cannot set rlimits or use hybrid cgroups here) and no default ulimits;
# - `cpodman …` runs podman with those settings.
CONTAINER_CONF_DIR="${TMPDIR:-/tmp}/scheduler-podman"
mkdir -p "$CONTAINER_CONF_DIR"
[ -f "$CONTAINER_CONF_DIR/containers.conf" ] || printf '[containers]\ndefault_ulimits = []\n' >"$CONTAINER_CONF_DIR/containers.conf"
export CONTAINERS_CONF="$CONTAINER_CONF_DIR/containers.conf"
cpodman() { podman --runtime /usr/sbin/runc "$@"; }
