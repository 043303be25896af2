#!/bin/bash
# bigtree.sh MIRROR_ROOT OUT [COPIES]
#
# Builds the large tree hone's index is measured on: the newest tree (HEAD) of
# each public repository below, side by side in OUT/<owner>+<name>, without git
# history. MIRROR_ROOT holds a bare git mirror of each as <owner>+<name>/repo
# (or a clone as <owner>+<name>). With COPIES > 1 the whole set is written
# that many times side by side (OUT/copy1/..., OUT/copy2/...): four copies make
# the 200,000-file tree.
#
# It prints the commit of each repository used, so that a figure measured on
# the tree names exactly what it was measured on.
set -euo pipefail
root=${1:?usage: bigtree.sh MIRROR_ROOT OUT [COPIES]}
out=${2:?usage: bigtree.sh MIRROR_ROOT OUT [COPIES]}
copies=${3:-1}
repos=(
  apprent1c3+django sympy+sympy williamlus+matplotlib Agent-Benchmarking+scikit-learn
  astropy+astropy sphinx-doc+sphinx pydata+xarray pylint-dev+pylint pytest-dev+pytest
  psf+requests pallets+flask mwaskom+seaborn
  spring-projects+spring-framework rails+rails apache+kafka hashicorp+terraform ansible+ansible
)
for c in $(seq 1 "$copies"); do
  dest=$out
  [[ $copies -gt 1 ]] && dest=$out/copy$c
  for r in "${repos[@]}"; do
    git=$root/$r/repo
    [[ -d $git ]] || git=$root/$r
    [[ -d $git ]] || { echo "bigtree: no mirror of $r under $root" >&2; exit 1; }
    [[ $c -eq 1 ]] && echo "$r $(git --git-dir="$git" rev-parse HEAD)"
    mkdir -p "$dest/$r"
    git --git-dir="$git" archive --format=tar HEAD | tar -x -C "$dest/$r"
  done
done
find "$out" -type f | wc -l | xargs echo files:
du -sb "$out" | awk '{printf "bytes: %d (%.0f MB)\n", $1, $1/1e6}'
