#!/usr/bin/env bash
# Fuzz/run.sh NAME SECONDS [libFuzzer flags…]: builds Fuzz/Targets/NAME.swift with libFuzzer and
# AddressSanitizer, replays every input kept in Fuzz/Crashes/NAME/, then fuzzes for SECONDS.
# Exit status: 0 when nothing crashed, 1 when an input crashed (kept in Fuzz/Crashes/NAME/).
# See Fuzz/README.md.
set -euo pipefail

usage() { echo "usage: Fuzz/run.sh NAME SECONDS [libFuzzer flags…]" >&2; exit 64; }
[ $# -ge 2 ] || usage
name=$1 seconds=$2
shift 2
[[ $seconds =~ ^[0-9]+$ ]] || usage

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
target=Fuzz/Targets/$name.swift
[ -f "$target" ] || { echo "fuzz: no target $target" >&2; exit 64; }
SWIFTC=${SWIFTC:-swiftc}
# Swift's crash handler reads the stack of a crashed target, which AddressSanitizer reports and
# ends; the handler's helper then waits for ever (Fuzz/README.md). libFuzzer reports crashes.
export SWIFT_BACKTRACE=${SWIFT_BACKTRACE:-enable=no}

# What the target declares in its header comments (see Fuzz/README.md).
declared() { sed -n "s|^// fuzz-$1: *||p" "$target" | head -1; }
needs=$(declared needs)
seed_folders=$(declared seeds)
max_len=$(declared max-len)
timeout=$(declared timeout)
coverage=$(declared coverage)
dictionary=$(declared dict)

# The target file, compiled together with the core sources (and the eSpeak backend if it needs it).
sources=("$target")
while IFS= read -r file; do sources+=("$file"); done < <(find Sources/VoiceGuidance -name '*.swift' | sort)
flags=()
# A target may trade libFuzzer's comparison tracing for speed (see Fuzz/README.md).
[ -n "$coverage" ] && flags+=(-sanitize-coverage="$coverage")
for need in $needs; do
  case $need in
    espeak)
      while IFS= read -r file; do sources+=("$file"); done < <(find Sources/ESpeakBackend -name '*.swift' | sort)
      flags+=(-I Sources/CEspeakNG -lespeak-ng)
      ;;
    service)
      while IFS= read -r file; do sources+=("$file"); done < <(find Sources/GuidanceService -name '*.swift' | sort)
      ;;
    *) echo "fuzz: $target needs '$need', which run.sh does not know" >&2; exit 64 ;;
  esac
done

# FUZZ_VARIANT=valgrind (what Fuzz/valgrind.sh asks for): the target built without
# AddressSanitizer and without debug information (valgrind 3.19 cannot read the DWARF 5 that
# swiftc and its runtime carry), beside the fuzzing binary; run.sh then only builds it.
variant=${FUZZ_VARIANT:-}
case $variant in
  '') sanitize=fuzzer,address debug=(-g) ;;
  valgrind) sanitize=fuzzer debug=() ;;
  *) echo "fuzz: FUZZ_VARIANT is empty or 'valgrind', not '$variant'" >&2; exit 64 ;;
esac
work=.build/fuzz/$name
binary=$work/$name${variant:+-$variant}
mkdir -p "$work/corpus" "Fuzz/Crashes/$name"
if [ ! -x "$binary" ] || [ -n "$(find "${sources[@]}" Fuzz/run.sh -newer "$binary" 2>/dev/null | head -1)" ]; then
  echo "fuzz: building $name (${#sources[@]} files)" >&2
  # One module named VoiceGuidance: the backend's `import VoiceGuidance` then names its own
  # module, which swiftc ignores with a warning we filter out.
  # Compiled from inside $work, where swiftc leaves its by-products (the module for the debugger).
  absolute=()
  for file in "${sources[@]}"; do absolute+=("$root/$file"); done
  (cd "$work" && "$SWIFTC" -parse-as-library -sanitize="$sanitize" -O -wmo ${debug[@]+"${debug[@]}"} -swift-version 6 \
    -enable-upcoming-feature ExistentialAny -enable-upcoming-feature InternalImportsByDefault \
    -module-name VoiceGuidance -package-name VoiceGuidance -module-cache-path module-cache \
    "${flags[@]/#Sources/$root/Sources}" "${absolute[@]}" -o "${binary##*/}") 2>&1 \
    | grep -v -e "Cannot export local symbol" -e "is part of module 'VoiceGuidance'; ignoring import" -e '^ *[0-9]* | ' -e '^ *|' -e '^$' >&2 || true
  [ -x "$binary" ] && [ -z "$(find "${sources[@]}" -newer "$binary" | head -1)" ] || {
    echo "fuzz: building $name failed" >&2; exit 1; }
  [ -z "$variant" ] || strip --strip-debug "$binary"
fi
[ -z "$variant" ] || exit 0

options=(-print_final_stats=1 -artifact_prefix="Fuzz/Crashes/$name/")
[ -n "$max_len" ] && options+=(-max_len="$max_len")
[ -n "$timeout" ] && options+=(-timeout="$timeout")
[ -n "$dictionary" ] && options+=(-dict="$dictionary")
options+=(-rss_limit_mb=2048)

# 1. Every input a crash was once found with must now pass.
shopt -s nullglob
kept=(Fuzz/Crashes/"$name"/*)
if [ ${#kept[@]} -gt 0 ]; then
  echo "fuzz: $name: replaying ${#kept[@]} kept input(s) from Fuzz/Crashes/$name/" >&2
  if ! "$binary" "${options[@]}" "${kept[@]}" > "$work/replay.log" 2>&1; then
    cat "$work/replay.log" >&2
    echo "fuzz: $name: a kept input crashes again" >&2
    exit 1
  fi
fi
[ "$seconds" -gt 0 ] || exit 0

# 2. Fuzz from the corpus so far plus the seeds. `-jobs=N` runs N fuzzing processes side by side
# on the one corpus, each with its own log here (libFuzzer's own -jobs would write fuzz-N.log
# files into the current folder, where the counts below would not find them).
seeds=()
[ -d "Fuzz/Seeds/$name" ] && seeds+=("Fuzz/Seeds/$name")
for folder in $seed_folders; do seeds+=("$folder"); done
jobs=1 passed=()
for flag in "$@"; do
  case $flag in
    -jobs=*) jobs=${flag#-jobs=}; [[ $jobs =~ ^[1-9][0-9]*$ ]] || usage ;;
    -workers=*) ;;
    *) passed+=("$flag") ;;
  esac
done
logs=$(mktemp -d "$work/run.XXXXXX")
before=$(ls "Fuzz/Crashes/$name" | wc -l)
pids=()
for ((job = 1; job <= jobs; job++)); do
  "$binary" "${options[@]}" -max_total_time="$seconds" ${passed[@]+"${passed[@]}"} "$work/corpus" "${seeds[@]}" \
    > "$logs/$job.log" 2>&1 &
  pids+=($!)
done
status=0
for pid in "${pids[@]}"; do wait "$pid" || status=$?; done
executions=0
for log in "$logs"/*.log; do
  count=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  executions=$((executions + ${count:-0}))
done
cat "$logs"/*.log > "$work/last.log"
rm -r "$logs"
after=$(ls "Fuzz/Crashes/$name" | wc -l)
found=$((after - before))
line="$(date -u +%FT%TZ) $name ${seconds}s jobs=$jobs executions=$executions crashes=$found exit=$status"
echo "$line" >> "$work/runs.log"
echo "fuzz: $line" >&2
if [ "$status" -ne 0 ] || [ "$found" -gt 0 ]; then
  grep -E "ERROR|SUMMARY|Fatal error|==[0-9]+==|Test unit written" "$work/last.log" | head -20 >&2 || true
  echo "fuzz: $name: crash; input kept in Fuzz/Crashes/$name/ (full log: $work/last.log)" >&2
  exit 1
fi
