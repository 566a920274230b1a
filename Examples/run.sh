#!/usr/bin/env bash
# `make run`: render every SSML sample to WAV and show a table, then drive the example route,
# playing through ALSA when a device opens and writing drive.wav otherwise.
set -euo pipefail
voiceguide=$1
out=$2
mkdir -p "$out/samples"

echo "== Rendering ssml-samples/ into $out/samples"
"$voiceguide" render --out-dir "$out/samples" ssml-samples/*.ssml \
    > "$out/samples/rendered.txt" 2> "$out/samples/warnings.txt"
awk -v warnings="$out/samples/warnings.txt" '
        BEGIN {
            # "ssml-samples/NAME.ssml:LINE:COL: warning: …" → the warnings of NAME.
            while ((getline line < warnings) > 0) {
                # Cut at the position first: a message may hold paths and URLs with slashes.
                name = line; sub(/\.ssml:[0-9]+:[0-9]+: .*$/, "", name); sub(/^.*\//, "", name)
                text = line; sub(/^[^ ]* warning: /, "", text)
                if (name in said) said[name] = said[name] "; " text; else said[name] = text
            }
            printf "%-34s %9s  %s\n", "FILE", "DURATION", "WARNINGS"
        }
        {
            file = $1; sub(/^.*\//, "", file)
            name = file; sub(/\.wav$/, "", name)
            printf "%-34s %8.2fs  %s\n", file, $2, (name in said) ? substr(said[name], 1, 70) : "-"
        }' "$out/samples/rendered.txt"

route=Examples/routes/airport-cargo.json
echo
echo "== Driving $route at each step's routed speed"
if "$voiceguide" devices --check >/dev/null 2>&1; then
    "$voiceguide" drive "$route" --speed route --play --speedup 8
else
    echo "(no audio device opens here: writing the drive's audio to $out/drive.wav instead)"
    "$voiceguide" drive "$route" --speed route --output "$out/drive.wav"
fi
