#!/usr/bin/env bash
# Installs the Debian 12 packages ltlkit uses, skipping those already installed; through sudo when
# not root. See ../shared/DEPENDENCIES.md for why each one (and why OpenMP OpenBLAS, not pthread).
set -euo pipefail
PACKAGES=(build-essential cmake ninja-build pkg-config
  libtorch-dev libopenblas0-openmp
  libboost-graph-dev libeigen3-dev libcli11-dev catch2 nlohmann-json3-dev
  graphviz mona python3-torch chromium
  pybind11-dev python3-dev python3-numpy python3-pytest
  munge slurmctld slurmd slurm-client)  # tests/cli/slurm.sh runs a one-node Slurm cluster
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
if ((${#missing[@]})); then
  echo "ltlkit: installing ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
# LibTorch is ~9x slower with reference BLAS; use the OpenMP OpenBLAS (never the pthread one).
omp=/usr/lib/x86_64-linux-gnu/openblas-openmp
if [ -e "$omp/libblas.so.3" ]; then
  cur=$(readlink -f /usr/lib/x86_64-linux-gnu/libblas.so.3 || true)
  case "$cur" in
    "$omp"/*) ;;
    *) $SUDO update-alternatives --set libblas.so.3-x86_64-linux-gnu "$omp/libblas.so.3"
       $SUDO update-alternatives --set liblapack.so.3-x86_64-linux-gnu "$omp/liblapack.so.3" ;;
  esac
fi
