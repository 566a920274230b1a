#!/usr/bin/env python3
"""words.py VOICE PATTERN letters|marks: which characters X make the word PATTERN (X in it, as
in "X'X" or "ΣXΣ") fault with VOICE, libespeak-ng 1.51 under valgrind.

letters: three letters (Lu, Ll, Lt, Lo) of every 128 code points from U+0080 to U+1EFFF (the
first, middle and last), each line alone. marks: every mark and decimal digit of the BMP (Mn,
Mc, Me, Nd), in groups of 16 words, then each of a faulting group alone. Prints
'VOICE PATTERN U+XXXX NAME' per fault, and a '#' line with the count tried."""
import os, subprocess, sys, tempfile, unicodedata

voice, pattern, mode = sys.argv[1], sys.argv[2], sys.argv[3]
PROBE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "probe")

def probe(lines):
    with tempfile.NamedTemporaryFile('w', suffix='.txt', delete=False, encoding='utf-8') as f:
        f.write('\n'.join(lines) + '\n')
        name = f.name
    r = subprocess.run(['valgrind', '-q', '--undef-value-errors=no', '--error-exitcode=9', PROBE, voice, name, 'x'],
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    os.unlink(name)
    results = [line.split('\t', 1)[0] != '0' for line in r.stdout.splitlines()]
    assert len(results) == len(lines), (len(results), len(lines), r.returncode)
    return results

def word(c):
    return pattern.replace('X', chr(c))

def report(c):
    print(f'{voice} {pattern} U+{c:04X} {unicodedata.name(chr(c), "?")}', flush=True)

if mode == 'letters':
    tried = []
    for start in range(0x0080, 0x1F000, 0x80):
        letters = [c for c in range(start, start + 0x80) if unicodedata.category(chr(c)) in ('Lu', 'Ll', 'Lt', 'Lo')]
        if letters:
            tried += sorted({letters[0], letters[len(letters) // 2], letters[-1]})
    for c, bad in zip(tried, probe([word(c) for c in tried])):
        if bad:
            report(c)
elif mode == 'marks':
    tried = [c for c in range(0x80, 0x10000) if unicodedata.category(chr(c)) in ('Mn', 'Mc', 'Me', 'Nd')]
    groups = [tried[i:i + 16] for i in range(0, len(tried), 16)]
    for g, bad in zip(groups, probe([' '.join(word(c) for c in g) for g in groups])):
        if bad:
            for c, alone in zip(g, probe([word(c) for c in g])):
                if alone:
                    report(c)
else:
    sys.exit('usage: words.py VOICE PATTERN letters|marks')
print(f'# {voice} {pattern} {mode}: {len(tried)} tried', flush=True)
