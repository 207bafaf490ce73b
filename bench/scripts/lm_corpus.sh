#!/usr/bin/env bash
# A real English corpus for `ltlkit lm` without network: CMake's reference documentation (the
# reStructuredText files under /usr/share/cmake-*/Help, Debian package cmake-data, installed with
# cmake by .ci/install-deps.sh), split by document, deterministically: the files in byte order
# (LC_ALL=C), file i goes to valid.txt when i % 20 == 0, to test.txt when i % 20 == 1, else to
# train.txt (about 90% / 5% / 5%), each file's text followed by one newline.
# Usage: bench/scripts/lm_corpus.sh OUTDIR   (prints the SHA-256 and size of each split)
set -euo pipefail
out=${1:?usage: lm_corpus.sh OUTDIR}
help=$(ls -d /usr/share/cmake-*/Help 2>/dev/null | LC_ALL=C sort -V | tail -n 1 || true)
if [ -z "$help" ]; then
  echo "lm_corpus.sh: error: no /usr/share/cmake-*/Help (install cmake-data: .ci/install-deps.sh)" >&2
  exit 2
fi
mkdir -p "$out"
tmp=$(mktemp -d "$out/.split.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
: >"$tmp/train.txt"; : >"$tmp/valid.txt"; : >"$tmp/test.txt"
i=0
while IFS= read -r -d '' f; do
  case $((i % 20)) in
    0) dst=valid ;;
    1) dst=test ;;
    *) dst=train ;;
  esac
  cat "$f" >>"$tmp/$dst.txt"
  printf '\n' >>"$tmp/$dst.txt"
  i=$((i + 1))
done < <(cd "$help" && find . -name '*.rst' -type f -print0 | LC_ALL=C sort -z | sed -z "s|^\./|$help/|")
for s in train valid test; do mv "$tmp/$s.txt" "$out/$s.txt"; done
echo "source: $help ($i files, cmake-data $(dpkg-query -W -f='${Version}' cmake-data 2>/dev/null || echo '?'))"
for s in train valid test; do
  printf '%s  %s bytes  %s\n' "$(sha256sum "$out/$s.txt" | cut -d' ' -f1)" "$(wc -c <"$out/$s.txt")" "$out/$s.txt"
done
