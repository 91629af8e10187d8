#!/bin/sh
# Install what totex needs on a fresh Debian machine (run as root; no-op when present).
set -e
PKGS="build-essential cmake pkg-config libcmocka-dev libglpk-dev coinor-libcbc-dev libigraph-dev libjson-c-dev libcairo2-dev libxml2-dev libopenmpi-dev openmpi-bin libfftw3-dev libfftw3-mpi-dev python3"
missing=""
for p in $PKGS; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
    echo "totex: installing$missing" >&2
    SUDO=""
    [ "$(id -u)" -ne 0 ] && SUDO=sudo
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >/dev/null
fi
