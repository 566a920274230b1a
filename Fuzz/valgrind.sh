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
command -v valgrind > /dev/null || { echo "valgrind: not installed (make setup installs it)" >&2; exit 69; }
FUZZ_VARIANT=valgrind Fuzz/run.sh "$name" 0
work=.build/fuzz/$name

# Kept inputs (and INPUT files) run each in a process of its own: a fault can depend on what
# eSpeak spoke before (a lone ա with hyw faults in a fresh process, not after some others). The
# seeds and the corpus run together, as libFuzzer runs them.
alone=("$@") together=()
if [ $# -eq 0 ]; then
  shopt -s nullglob
  target=Fuzz/Targets/$name.swift
  for file in "Fuzz/Crashes/$name"/*; do [ -f "$file" ] && alone+=("$file"); done
  folders=("Fuzz/Seeds/$name")
  [ $corpus = no ] || folders+=("$work/corpus")
  for folder in $(sed -n 's|^// fuzz-seeds: *||p' "$target" | head -1); do folders+=("$folder"); done
  for folder in "${folders[@]}"; do
    [ -d "$folder" ] && for file in "$folder"/*; do [ -f "$file" ] && together+=("$file"); done
  done
fi
count=$((${#alone[@]} + ${#together[@]}))
[ $count -gt 0 ] || { echo "valgrind: $name: no inputs (run Fuzz/run.sh $name SECONDS first)" >&2; exit 64; }

log=$work/valgrind.log
: > "$log"
echo "valgrind: $name: $count inputs" >&2
status=0
# replay [-n 1] FILE…: the files under valgrind (xargs: as many processes as the command line needs).
replay() {
  local each=()
  [ "$1" = -n ] && { each=(-n 1); shift 2; }
  printf '%s\0' "$@" | xargs -0 ${each[@]+"${each[@]}"} valgrind -q --undef-value-errors=no \
    --error-exitcode=9 "$work/$name-valgrind" -rss_limit_mb=0 >> "$log" 2>&1 || status=$?
}
[ ${#alone[@]} -eq 0 ] || replay -n 1 "${alone[@]}"
[ ${#together[@]} -eq 0 ] || replay "${together[@]}"
# valgrind's reports follow the "Running: FILE" line of the input that made them.
faulty=$(awk '/^Running: / { input = substr($0, 10) } /^==[0-9]+== (Invalid|Source and destination overlap|Mismatched|Syscall param)/ { print input }' "$log" | sort -u)
ran=$(grep -c '^Running: ' "$log" || true)
if [ -n "$faulty" ] || [ "$status" -ne 0 ]; then
  echo "valgrind: $name: $ran inputs run; memory errors (full log: $log) in:" >&2
  echo "${faulty:-(none named: xargs exit $status)}" >&2
  exit 1
fi
echo "valgrind: $name: $ran inputs, no invalid read or write" >&2
