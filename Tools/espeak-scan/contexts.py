#!/usr/bin/env python3
"""contexts.py PROFILE [BINARY]: every character libespeak-ng 1.51 hands another language's
translator, after every ASCII punctuation mark and sign (and a few other neighbours), spoken
through the engine's own filter, with the ASan build of libespeak-ng; prints what still faults.

scan.py measures eSpeak alone; this measures what the engine hands it. A character of one of
eSpeak's language-switching ranges (ESpeakUnsafeCharacters.languageSwitching: Greek, Armenian,
the Indic scripts, Georgian, Hangul Jamo, U+A700-U+D7FF) right after a punctuation mark faults
where the character alone does not (`,꣑`, `a-꣑`, U+A8D1 SAURASHTRA DIGIT ONE, with every voice):
so each such character (the Hangul syllables, letters all, one in 64) follows each neighbour, at
the start of a word and after a letter (`-꣑`, `a-꣑`), in sentences of one item each. Texts of
about 30 KB go through `voiceguide explain --voice PROFILE --text` (BINARY, default
.build/debug/voiceguide) with .build/espeak-asan/libespeak-ng.so.1 (Fuzz/espeak-asan.sh) and
AddressSanitizer's runtime preloaded; a text whose run reports anything but a read past a stack
or global array (eSpeak's known one-byte over-reads: `utf8_in`, and `MatchRule` on a lone Tamil
letter in `espeak_TextToPhonemes`) is halved until the faulting items are found. Prints 'PROFILE ITEM U+XXXX
...' per fault and a '#' line with the count tried. Run from the repository's root."""
import os, string, subprocess, sys, tempfile, unicodedata

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from table import ASSIGNED_LATER  # noqa: E402

profile = sys.argv[1]
binary = sys.argv[2] if len(sys.argv) > 2 else '.build/debug/voiceguide'
RANGES = [(0x0380, 0x03FF), (0x0530, 0x058F), (0x0900, 0x0DFF), (0x10A0, 0x11FF), (0xA700, 0xD7FF)]
NEIGHBOURS = list(string.punctuation) + ['\u0661', '\u06F1', '\u0966', '\u00BD', '\u2192']
CLANG = os.path.join(os.path.dirname(os.path.realpath(subprocess.check_output(
    ['which', 'swiftc'], text=True).strip())), 'clang')
RUNTIME = subprocess.check_output([CLANG, '-print-file-name=libclang_rt.asan-x86_64.so'], text=True).strip()
ENV = dict(os.environ, LD_LIBRARY_PATH=os.path.abspath('.build/espeak-asan'), LD_PRELOAD=RUNTIME,
           ASAN_OPTIONS='halt_on_error=0:detect_stack_use_after_return=0:detect_leaks=0:symbolize=0')


def characters():
    for lo, hi in RANGES:
        for c in range(lo, hi + 1):
            category = unicodedata.category(chr(c))
            if category in ('Cn', 'Cs', 'Co') and c not in ASSIGNED_LATER:
                continue
            if 0xAC00 <= c <= 0xD7A3 and (c - 0xAC00) % 64:
                continue
            yield c


def faults(items):
    """Whether speaking `items` (one sentence each) made a report other than a stack read."""
    with tempfile.NamedTemporaryFile('w', suffix='.txt', delete=False, encoding='utf-8') as f:
        f.write('. '.join(text for text, _ in items) + '.\n')
        name = f.name
    run = subprocess.run([binary, 'explain', '--voice', profile, '--text', name], env=ENV,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, errors='replace')
    os.unlink(name)
    reports = run.stderr.split('ERROR: AddressSanitizer: ')[1:]
    known = ('stack-buffer-', 'global-buffer-overflow')
    bad = [r for r in reports if not (r.startswith(known) and '\nREAD of size ' in r)]
    return bool(bad) or run.returncode not in (0, 1)


def bisect(items):
    if not faults(items):
        return
    if len(items) == 1:
        text, c = items[0]
        print(f'{profile} {text} U+{c:04X} {unicodedata.name(chr(c), "?")}', flush=True)
        return
    middle = len(items) // 2
    bisect(items[:middle])
    bisect(items[middle:])


items = [(f'{before}{n}{chr(c)}', c) for c in characters() for n in NEIGHBOURS for before in ('', 'a')]
chunk = []
size = 0
for item in items:
    chunk.append(item)
    size += len(item[0].encode()) + 2
    if size > 30000:
        bisect(chunk)
        chunk, size = [], 0
if chunk:
    bisect(chunk)
print(f'# {profile}: {len(items)} items', flush=True)
