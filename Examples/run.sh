#!/usr/bin/env bash
# `make run`: render every SSML sample to WAV and show a table, then drive the example route,
# playing through ALSA when a device opens and writing drive.wav otherwise.
set -euo pipefail
voiceguide=$1
out=$2
mkdir -p "$out/samples"

echo "== Rendering ssml-samples/ into $out/samples"
printf '%-40s %9s  %s\n' FILE DURATION WARNINGS
"$voiceguide" render --out-dir "$out/samples" --json ssml-samples/*.ssml | python3 -c '
import json, os, sys
for line in sys.stdin:
    o = json.loads(line)
    w = "; ".join(o["warnings"]) or "-"
    print("%-40s %8.2fs  %s" % (os.path.basename(o["path"]), o["duration_s"], w[:80]))
'

route=Examples/routes/airport-cargo.json
echo
echo "== Driving $route at each step's routed speed"
if "$voiceguide" devices --check >/dev/null 2>&1; then
    "$voiceguide" drive "$route" --speed route --play --speedup 8
else
    echo "(no audio device opens here: writing the drive's audio to $out/drive.wav instead)"
    "$voiceguide" drive "$route" --speed route --output "$out/drive.wav"
fi
