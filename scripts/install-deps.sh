#!/usr/bin/env bash
# Installs every system package hpart needs to build, test and benchmark. Idempotent: installs
# only what is missing, and touches apt only then. Needs root (or sudo) on Debian 12.
set -euo pipefail
packages=(
  build-essential cmake ninja-build pkg-config
  libopenmpi-dev openmpi-bin
  libmetis-dev metis
  libhdf5-openmpi-dev
  libtrilinos-kokkos-dev
  libtrilinos-zoltan-dev libptscotch-dev libscotch-dev   # Zoltan (baseline only) links only with PT-Scotch
  libgtest-dev libbenchmark-dev
  libcli11-dev nlohmann-json3-dev libpng-dev
  libcairo2-dev fonts-dejavu-core                      # the pictures (feature PNG): drawing, text, PNG files
  libhwloc-dev                                         # NUMA domains in detect_topology (optional)
  gfortran                                             # the Fortran module and its tests (optional)
  libscotchparmetis-dev                                # PT-Scotch's ParMETIS layer: baseline of scripts/bench_parmetis.py only
  python3-dev pybind11-dev python3-numpy python3-mpi4py # the Python package hpart (docs/python.md)
  python3-torch python3-pytest python3-matplotlib      # hpart.torch, the Python tests, the plots
  python3-scipy                                        # the scaling suite: permutation and rank tests, NNLS growth fits
  clang libclang-rt-14-dev                             # libFuzzer for tests/fuzz (optional; skipped without)
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]} == 0)); then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi
echo "install-deps: installing ${missing[*]}"
SUDO=""
[[ $(id -u) -eq 0 ]] || SUDO="sudo"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
