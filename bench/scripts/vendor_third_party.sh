#!/usr/bin/env bash
# Copies the header-only dependencies that ltlkit's sources actually include (Boost.Graph's closure,
# Eigen, CLI11, nlohmann-json, Catch2 v2 with its CMake package) from this Debian machine into
# third_party/ (git-ignored), for a machine without the Debian packages: the GPU machine, where
# bench/scripts/gpu_check.sh builds with -DLTLKIT_THIRD_PARTY=third_party.
# Usage: bench/scripts/vendor_third_party.sh [BUILD_DIR (default build)] [DEST (default third_party)]
# The header list comes from `g++ -M` over BUILD_DIR/compile_commands.json, so BUILD_DIR must be a
# configured (not necessarily built) tree of the full project.
set -euo pipefail
build=${1:-build}
dest=${2:-third_party}
db=$build/compile_commands.json
[[ -f $db ]] || { echo "vendor_third_party: $db not found (configure first: make configure)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# One dependency list per translation unit: the compile command with -M instead of -o OUT.
python3 - "$db" >"$tmp/cmds" <<'PY'
import json, shlex, sys
for e in json.load(open(sys.argv[1])):
    args = shlex.split(e["command"])
    if "-o" in args:
        i = args.index("-o")
        del args[i:i + 2]
    print(e["directory"] + "\t" + shlex.join(args + ["-M"]))
PY
n=0
while IFS=$'\t' read -r dir cmd; do
    (cd "$dir" && eval "$cmd") >>"$tmp/deps" || { echo "vendor_third_party: g++ -M failed in $dir" >&2; exit 1; }
    n=$((n + 1))
done <"$tmp/cmds"
tr ' \\' '\n\n' <"$tmp/deps" | grep -E '^/usr/include/(boost|eigen3|CLI|nlohmann|catch2)/' | sort -u >"$tmp/headers"
# Boost's configuration picks headers by compiler and standard library: take all of boost/config.
find /usr/include/boost/config -type f >>"$tmp/headers"
echo /usr/include/boost/version.hpp >>"$tmp/headers"
rm -rf "$dest.tmp"
mkdir -p "$dest.tmp/include" "$dest.tmp/lib/cmake"
sort -u "$tmp/headers" | sed 's|^/usr/include/||' | (cd /usr/include && xargs cp --parents -t "$OLDPWD/$dest.tmp/include")
cp -r /usr/lib/cmake/Catch2 "$dest.tmp/lib/cmake/"
# (its package checks that the prebuilt Catch2WithMain exists, although ltlkit has its own main)
cp /usr/lib/libCatch2WithMain.a "$dest.tmp/lib/"
rm -rf "$dest"
mv "$dest.tmp" "$dest"
echo "vendor_third_party: $(sort -u "$tmp/headers" | wc -l) headers from $n translation units -> $dest ($(du -sh "$dest" | cut -f1))"
