#!/usr/bin/env bash
# Fuzz/valgrind.sh NAME [--kept | INPUT…]: replays NAME's corpus (.build/fuzz/NAME/corpus/), its
# seeds and its kept inputs (Fuzz/Crashes/NAME/) under valgrind, or only the seeds and kept inputs
# (--kept, what `make test` does), or the INPUT files; names every input that read or wrote
# memory it must not.
#
# AddressSanitizer sees only code compiled with it: a read of freed memory inside libespeak-ng
# (a Debian library, not instrumented) goes unseen unless it reaches an intercepted libc call.
# valgrind sees every instruction. So the inputs the fuzzer kept are run again through the same
# target built without AddressSanitizer (FUZZ_VARIANT=valgrind Fuzz/run.sh), in one process as
# libFuzzer runs them; only invalid reads and writes count (--undef-value-errors=no: libespeak-ng
# 1.51 branches on uninitialised memory nearly everywhere). About 0.3 s an input.
# Exit status: 0 when every input ran clean, 1 when one did not. See Fuzz/README.md.
set -euo pipefail

[ $# -ge 1 ] || { echo "usage: Fuzz/valgrind.sh NAME [--kept | INPUT…]" >&2; exit 64; }
name=$1
shift
corpus=yes
[ "${1:-}" = --kept ] && { corpus=no; shift; }
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
command -v valgrind > /dev/null || {
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get update -q && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q valgrind > /dev/null
}
FUZZ_VARIANT=valgrind Fuzz/run.sh "$name" 0
work=.build/fuzz/$name

inputs=("$@")
if [ ${#inputs[@]} -eq 0 ]; then
  shopt -s nullglob
  target=Fuzz/Targets/$name.swift
  folders=("Fuzz/Seeds/$name" "Fuzz/Crashes/$name")
  [ $corpus = no ] || folders+=("$work/corpus")
  for folder in $(sed -n 's|^// fuzz-seeds: *||p' "$target" | head -1); do folders+=("$folder"); done
  for folder in "${folders[@]}"; do
    [ -d "$folder" ] && for file in "$folder"/*; do [ -f "$file" ] && inputs+=("$file"); done
  done
fi
[ ${#inputs[@]} -gt 0 ] || { echo "valgrind: $name: no inputs (run Fuzz/run.sh $name SECONDS first)" >&2; exit 64; }

log=$work/valgrind.log
echo "valgrind: $name: ${#inputs[@]} inputs" >&2
status=0
# Many inputs are more than one command line holds: xargs runs as many processes as it needs.
printf '%s\0' "${inputs[@]}" | xargs -0 valgrind -q --undef-value-errors=no --error-exitcode=9 \
  "$work/$name-valgrind" -rss_limit_mb=0 > "$log" 2>&1 || status=$?
# valgrind's reports follow the "Running: FILE" line of the input that made them.
faulty=$(awk '/^Running: / { input = substr($0, 10) } /^==[0-9]+== (Invalid|Source and destination overlap|Mismatched|Syscall param)/ { print input }' "$log" | sort -u)
ran=$(grep -c '^Running: ' "$log" || true)
if [ -n "$faulty" ] || [ "$status" -ne 0 ]; then
  echo "valgrind: $name: $ran inputs run; memory errors (full log: $log) in:" >&2
  echo "${faulty:-(none named: xargs exit $status)}" >&2
  exit 1
fi
echo "valgrind: $name: $ran inputs, no invalid read or write" >&2
