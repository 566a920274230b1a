#!/usr/bin/env python3
"""Intelligibility bench: word error rate of a speech recogniser listening to our renders.

The corpus's English prompts (Tests/Fixtures/directions; all of them, or a fixed sample) are
rendered twice from the same SSML: by `voiceguide render` and by `espeak-ng -m` (same eSpeak voice and rate as
the voice profile). pocketsphinx (`pip install pocketsphinx`, its default US English acoustic
model and dictionary) transcribes both with a language model built from the wording of every
corpus prompt, and the word error rates are printed side by side: over the whole sample, and
over the prompts our normalisation rewrites (road numbers, say-as), where reading them right
is the point. `espeak-ng` on the plain text is printed as a third reference.

The reference transcript is the prompt's text spelled as a US listener expects to hear it,
by rules of this script, independent of the normaliser: route numbers and exits as addresses
("I-580" "i five eighty", "exit 16" "exit sixteen", "US-101" "u s one oh one"), other numbers
as cardinals ("1000 feet" "one thousand feet"), ordinals as words ("2nd" "second").

A measurement, not a test: `make bench` runs it when pocketsphinx is installed.
  usage: intelligibility.py --voiceguide PATH [--count N] [--keep DIR]
"""

import argparse
import glob
import json
import os
import re
import subprocess
import sys
import tempfile
import wave

MODEL_RATE = 16_000
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ONES = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
        "fifteen sixteen seventeen eighteen nineteen").split()
TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()
ORDINAL_ENDINGS = {"one": "first", "two": "second", "three": "third", "five": "fifth",
                   "eight": "eighth", "nine": "ninth", "twelve": "twelfth"}


def cardinal(n):
    """n as English words, without "and" (US usage): 934 "nine hundred thirty four"."""
    if n < 20:
        return [ONES[n]]
    if n < 100:
        return [TENS[n // 10]] + ([ONES[n % 10]] if n % 10 else [])
    if n < 1000:
        return [ONES[n // 100], "hundred"] + (cardinal(n % 100) if n % 100 else [])
    if n < 1_000_000:
        return cardinal(n // 1000) + ["thousand"] + (cardinal(n % 1000) if n % 1000 else [])
    return cardinal(n // 1_000_000) + ["million"] + (cardinal(n % 1_000_000) if n % 1_000_000 else [])


def ordinal(n):
    words = cardinal(n)
    last = words[-1]
    if last in ORDINAL_ENDINGS:
        words[-1] = ORDINAL_ENDINGS[last]
    elif last.endswith("y"):
        words[-1] = last[:-1] + "ieth"
    else:
        words[-1] = last + "th"
    return words


def address_number(text):
    """Road and exit numbers as they are said: 80 "eighty", 580 "five eighty", 101 "one oh one",
    2100 "twenty one hundred"."""
    n = int(text)
    if text.startswith("0"):
        return [ONES[int(d)] for d in text]
    if n < 100:
        return cardinal(n)
    if n < 1000:
        rest = n % 100
        if rest == 0:
            return [ONES[n // 100], "hundred"]
        return [ONES[n // 100]] + (["oh", ONES[rest]] if rest < 10 else cardinal(rest))
    if n < 10000 and n % 1000 != 0 and (n // 100) % 10 != 0:
        high, low = divmod(n, 100)
        return cardinal(high) + (["hundred"] if low == 0 else (["oh", ONES[low]] if low < 10 else cardinal(low)))
    return cardinal(n)


ROUTE = re.compile(r"^([A-Z]{1,3})-(\d{1,4})([A-Z]?)$")
# Route prefixes that take a space before their number ("US 29", "UT 201"), spelled as letters.
SPACED_ROUTE_PREFIXES = {"I", "US", "SR", "CR", "CA", "UT", "NV", "TX", "FM", "RR", "E", "M", "A", "B"}
ORDINAL = re.compile(r"^(\d+)(st|nd|rd|th)$", re.IGNORECASE)


def spoken_words(text):
    """The reference words of a prompt's text (lower case, no punctuation)."""
    words = []
    tokens = text.replace("/", " ").split()
    previous = previous_token = ""
    for raw in tokens:
        token = raw.strip(",.:;!?()\"'#")
        route = ROUTE.match(token)
        if previous_token in SPACED_ROUTE_PREFIXES and re.fullmatch(r"\d{1,4}", token):
            words += address_number(token)
            previous, previous_token = words[-1], token
            continue
        ordinal_match = ORDINAL.match(token)
        if route:
            words += [letter.lower() for letter in route.group(1)] + address_number(route.group(2))
            words += [route.group(3).lower()] if route.group(3) else []
        elif ordinal_match:
            words += ordinal(int(ordinal_match.group(1)))
        elif re.fullmatch(r"\d+([A-Z])?", token) and previous in ("exit", "exits", "route", "highway"):
            words += address_number(re.sub(r"[A-Z]", "", token))
            words += [token[-1].lower()] if token[-1].isalpha() else []
        elif re.fullmatch(r"\d+\.\d+", token):
            whole, fraction = token.split(".")
            words += cardinal(int(whole)) + ["point"] + [ONES[int(d)] for d in fraction]
        elif re.fullmatch(r"\d{1,3}(,\d{3})+|\d+", token):
            words += cardinal(int(token.replace(",", "")))
        else:
            for part in re.split(r"[-–]", token):
                part = re.sub(r"[^\w']", "", part).lower()
                if part:
                    words.append(part)
        previous = words[-1] if words else ""
        previous_token = token
        if token in SPACED_ROUTE_PREFIXES:
            words[-1:] = list(token.lower())
    return words


def corpus():
    """Distinct (ssml, text) prompts of the fixtures whose route speaks English, sorted."""
    found = {}

    def walk(value, locale):
        if isinstance(value, dict):
            locale = value.get("voiceLocale", locale)
            if "ssmlAnnouncement" in value and "announcement" in value:
                if (locale or "en").lower().startswith("en"):
                    found[value["ssmlAnnouncement"]] = value["announcement"]
            for child in value.values():
                walk(child, locale)
        elif isinstance(value, list):
            for child in value:
                walk(child, locale)

    for path in sorted(glob.glob(os.path.join(ROOT, "Tests", "Fixtures", "directions", "*.json"))):
        with open(path, encoding="utf-8") as file:
            walk(json.load(file), None)
    return sorted(found.items())


def word_errors(reference, hypothesis):
    """Levenshtein distance between two word lists."""
    row = list(range(len(hypothesis) + 1))
    for i, ref in enumerate(reference, 1):
        previous, row[0] = row[0], i
        for j, hyp in enumerate(hypothesis, 1):
            current = min(row[j] + 1, row[j - 1] + 1, previous + (ref != hyp))
            previous, row[j] = row[j], current
    return row[len(hypothesis)]


def language_model(prompts, dictionary, folder):
    """An ARPA trigram model of the corpus wording (words the dictionary knows)."""
    from pocketsphinx.lm import ArpaBoLM

    lines = []
    for _, text in prompts:
        words = [w for w in spoken_words(text) if w in dictionary]
        if words:
            lines.append(" ".join(words))
    model = ArpaBoLM(text="\n".join(lines) + "\n", add_start=True, case="lower")
    model.compute()
    path = os.path.join(folder, "corpus.lm")
    model.write_file(path)
    return path


def resampled(frames, rate):
    """Mono 16-bit samples at `rate` Hz resampled to the model's 16 kHz (numpy when installed,
    an FFT with nothing above 8 kHz; else the standard library's linear interpolation)."""
    try:
        import numpy
    except ImportError:
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            import audioop
        return audioop.ratecv(frames, 2, 1, rate, MODEL_RATE, None)[0]
    samples = numpy.frombuffer(frames, dtype=numpy.int16).astype(float)
    count = int(round(len(samples) * MODEL_RATE / rate))
    spectrum = numpy.fft.rfft(samples)[: count // 2 + 1]
    result = numpy.fft.irfft(spectrum, count) * count / max(1, len(samples))
    return numpy.clip(numpy.round(result), -32768, 32767).astype(numpy.int16).tobytes()


def transcribe(decoder, path):
    """The recogniser's words for a WAV file, heard with 300 ms of silence on each side (as a
    recogniser listening to a stream would: the model expects silence around speech)."""
    with wave.open(path, "rb") as audio:
        if audio.getnchannels() != 1 or audio.getsampwidth() != 2:
            raise SystemExit(f"{path}: expected mono 16-bit PCM")
        frames = resampled(audio.readframes(audio.getnframes()), audio.getframerate())
    padding = bytes(2 * MODEL_RATE * 3 // 10)
    frames = padding + frames + padding
    decoder.start_utt()
    decoder.process_raw(frames, full_utt=True)
    decoder.end_utt()
    hypothesis = decoder.hyp()
    return hypothesis.hypstr.split() if hypothesis else []


def render_ours(voiceguide, voice, sample, folder):
    inputs = []
    for index, (ssml, _) in enumerate(sample):
        path = os.path.join(folder, f"ours{index:03}.ssml")
        with open(path, "w", encoding="utf-8") as file:
            file.write(ssml)
        inputs.append(path)
    subprocess.run([voiceguide, "render", "--voice", voice, "--ssml", "--out-dir", folder] + inputs,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    outputs = [os.path.join(folder, f"ours{index:03}.wav") for index in range(len(sample))]
    rejected = [ssml for (ssml, _), path in zip(sample, outputs) if not os.path.exists(path)]
    if rejected:
        raise SystemExit(f"voiceguide could not render {len(rejected)} prompts: {rejected}")
    rewritten = []
    for ssml, text in sample:
        explained = subprocess.run([voiceguide, "explain", "--voice", voice, "--ssml", "--json", ssml],
                                   check=True, capture_output=True, text=True)
        calls = " ".join(json.loads(explained.stdout)["espeak_calls"])
        rewritten.append(re.sub(r"\s+", " ", calls).strip() != re.sub(r"\s+", " ", text).strip())
    return outputs, rewritten


def render_espeak(espeak, profile, sample, folder, name, use_ssml):
    paths = []
    for index, (ssml, text) in enumerate(sample):
        path = os.path.join(folder, f"{name}{index:03}.wav")
        arguments = [espeak, "-v", profile["espeakVoice"], "-s", str(profile.get("rate", 175)), "-w", path]
        subprocess.run(arguments + (["-m", ssml] if use_ssml else [text]), check=True)
        paths.append(path)
    return paths


def accepted(voiceguide, prompts, folder):
    """The prompts `voiceguide check` finds no error in."""
    paths = []
    for index, (ssml, _) in enumerate(prompts):
        paths.append(os.path.join(folder, f"check{index:03}.ssml"))
        with open(paths[-1], "w", encoding="utf-8") as file:
            file.write(ssml)
    checked = subprocess.run([voiceguide, "check"] + paths, capture_output=True, text=True)
    failed = {line.split(":", 1)[0] for line in (checked.stdout + checked.stderr).splitlines() if ": error:" in line}
    return [prompt for prompt, path in zip(prompts, paths) if path not in failed]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--voiceguide", required=True, help="the voiceguide executable")
    parser.add_argument("--voice", default="en-US", help="voice profile (Voices/ID.json)")
    parser.add_argument("--count", type=int, default=0,
                        help="prompts in the sample (default all: on 200 the paired difference between\n                        the columns has a standard deviation of about 0.012, on all 497 about 0.008)")
    parser.add_argument("--keep", help="keep the WAV files in this folder")
    parser.add_argument("--show", action="store_true", help="print each prompt's transcripts")
    args = parser.parse_args()
    try:
        from pocketsphinx import Decoder, get_model_path
    except ImportError:
        print("9. Intelligibility: skipped (pip install pocketsphinx)")
        return
    espeak = next((p for p in ("/usr/bin/espeak-ng", "/usr/local/bin/espeak-ng") if os.access(p, os.X_OK)), None)
    if espeak is None:
        raise SystemExit("espeak-ng not found")
    with open(os.path.join(ROOT, "Voices", f"{args.voice}.json"), encoding="utf-8") as file:
        profile = json.load(file)

    dictionary_path = os.path.join(get_model_path(), "en-us", "cmudict-en-us.dict")
    with open(dictionary_path, encoding="utf-8") as file:
        dictionary = {line.split(" ", 1)[0] for line in file if line.strip()}
    folder = args.keep or tempfile.mkdtemp(prefix="voiceguide-intelligibility-")
    os.makedirs(folder, exist_ok=True)
    # The prompts our parser accepts (the corpus has one malformed one, "<amazon: effectname=…>").
    prompts = accepted(args.voiceguide, corpus(), folder)
    count = args.count if args.count > 0 else len(prompts)
    step = max(1, len(prompts) // count)
    sample = prompts[::step][:count]
    print(f"\n9. Intelligibility: pocketsphinx (US English model, corpus language model) on "
          f"{len(sample)} of {len(prompts)} English corpus prompts")

    ours, rewritten = render_ours(args.voiceguide, args.voice, sample, folder)
    renders = {
        "voiceguide": ours,
        "espeak-ng -m": render_espeak(espeak, profile, sample, folder, "ssml", True),
        "espeak-ng text": render_espeak(espeak, profile, sample, folder, "text", False),
    }
    decoder = Decoder(lm=language_model(prompts, dictionary, folder), dict=dictionary_path,
                      samprate=MODEL_RATE, loglevel="FATAL")
    references = [spoken_words(text) for _, text in sample]
    errors = {name: [word_errors(ref, transcribe(decoder, path)) for ref, path in zip(references, paths)]
              for name, paths in renders.items()}
    if args.show:
        for index, (_, text) in enumerate(sample):
            print(f"  {text}")
            for name, paths in renders.items():
                print(f"    {name:15} {errors[name][index]}  {' '.join(transcribe(decoder, paths[index]))}")

    def rate(name, chosen):
        words = sum(len(references[i]) for i in chosen)
        return sum(errors[name][i] for i in chosen) / max(1, words)

    subsets = [("all prompts", range(len(sample))),
               ("rewritten by normalisation", [i for i in range(len(sample)) if rewritten[i]]),
               ("not rewritten", [i for i in range(len(sample)) if not rewritten[i]])]
    print(f"   {'word error rate':32}" + "".join(f"{name:>16}" for name in renders))
    for label, chosen in subsets:
        print(f"   {label + f' ({len(chosen)})':32}" + "".join(f"{rate(name, chosen):16.3f}" for name in renders))
    if not args.keep:
        for path in glob.glob(os.path.join(folder, "*")):
            os.remove(path)
        os.rmdir(folder)


if __name__ == "__main__":
    sys.exit(main())
