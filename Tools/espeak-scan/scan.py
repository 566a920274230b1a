#!/usr/bin/env python3
"""scan.py VOICE RANGE… (hex, 0370-03FF): characters libespeak-ng 1.51 reads freed memory on, with VOICE.

One valgrind process (probe forks a child per line): groups of GROUP characters first, each a
sentence of its own (SEP, '. ': a lone letter faults as the last word of a clause, where eSpeak
speaks it by its name; the first scans' groups, one clause of words separated by ' ', hid such
characters, U+10FB with en-us), then each character of a faulting group alone. PREFIX (default
none) goes before each character, groups and alone: `PREFIX=, ` scans `,X` (a digit of the
Saurashtra script faults only after a punctuation mark, `,꣑` or `-꣑`, with every voice). Prints
'VOICE U+XXXX NAME' per fault."""
import subprocess, sys, unicodedata, os, tempfile
voice = sys.argv[1]
# A range is hex (0370-03FF): its assigned characters, those of Python's unicodedata and those of
# logs/additions.txt (additions.swift: assigned since, up to the Swift toolchain's version);
# @LOG: the code points a scan log lists (to check them again); or +RANGES: every code point of a
# file of hex ranges (+logs/additions.txt scans all that Unicode assigned after Python's version).
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from table import ASSIGNED_LATER as ADDITIONS, listed_ranges  # noqa: E402
ranges = []
for argument in sys.argv[2:]:
    if argument.startswith('+'):
        ranges.append(listed_ranges(argument[1:]))
    elif argument.startswith('@'):
        listed = sorted({int(line.split()[1][2:], 16) for line in open(argument[1:], encoding='utf-8')
                         if len(line.split()) > 1 and line.split()[1].startswith('U+')})
        ranges.append(listed)
    else:
        ranges.append(tuple(int(x, 16) for x in argument.split('-')))
PROBE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "probe")
group = int(os.environ.get('GROUP', '32'))
separator = os.environ.get('SEP', '. ')
prefix = os.environ.get('PREFIX', '')
mode = ['x'] if os.environ.get('MODE', 'x') == 'x' else []

def probe(lines):
    with tempfile.NamedTemporaryFile('w', suffix='.txt', delete=False, encoding='utf-8') as f:
        f.write('\n'.join(lines) + '\n')
        name = f.name
    r = subprocess.run(['valgrind', '-q', '--undef-value-errors=no', '--error-exitcode=9', PROBE, voice, name] + mode,
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    os.unlink(name)
    results = [line.split('\t', 1) for line in r.stdout.splitlines()]
    assert len(results) == len(lines), (len(results), len(lines), r.returncode)
    return [code != '0' for code, _ in results]

skip = ('Cn', 'Cs', 'Co', 'Cc', 'Zs', 'Zl', 'Zp', 'Cf')
for chosen in ranges:
    if isinstance(chosen, list):
        lo, hi, cps = chosen[0], chosen[-1], chosen
    else:
        lo, hi = chosen
        cps = [c for c in range(lo, hi + 1) if unicodedata.category(chr(c)) not in skip or c in ADDITIONS]
    groups = [cps[i:i + group] for i in range(0, len(cps), group)]
    bad = [g for g, f in zip(groups, probe([separator.join(prefix + chr(c) for c in g) for g in groups])) if f]
    found = 0
    for g in bad:
        faults = probe([prefix + chr(c) for c in g])
        for c, f in zip(g, faults):
            if f:
                found += 1
                print(f'{voice} U+{c:04X} {unicodedata.name(chr(c), "?")}', flush=True)
        if not any(faults):
            print(f'{voice} context-only fault in U+{g[0]:04X}..U+{g[-1]:04X}', flush=True)
    context = f' after {prefix!r}' if prefix else ''
    print(f'# {voice} {lo:04X}-{hi:04X}{context}: {len(cps)} chars, {found} faulting', flush=True)
