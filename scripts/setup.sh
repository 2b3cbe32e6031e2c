#!/usr/bin/env bash
# Installs what daekit needs from Debian's packages, but only what is missing.
set -euo pipefail

packages=(g++ cmake ninja-build pkg-config
          libboost-dev libboost-filesystem-dev libboost-program-options-dev
          libeigen3-dev libopenblas-serial-dev catch2 nlohmann-json3-dev libsundials-dev libsuitesparse-dev libmetis-dev libopenmpi-dev openmpi-bin libzip-dev libpugixml-dev libceres-dev libhypre-dev petsc-dev
          gnuplot-nox librsvg2-bin libxml2-utils procps universal-ctags ccache
          python3-dev pybind11-dev python3-numpy python3-pytest)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -gt 0 ]; then
  echo "daekit setup: installing ${missing[*]}"
  if [ "$(id -u)" -ne 0 ]; then
    echo "daekit setup: run as root (or install: ${missing[*]})" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
