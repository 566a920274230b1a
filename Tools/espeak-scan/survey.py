#!/usr/bin/env python3
"""survey.py SCAN-LOG…: which installed voices speak samples.txt clean under valgrind, once the
characters scan.py found faulting with the scanned voices are taken out (as
ESpeakUnsafeCharacters does for a voice not scanned: all of them but the voice's own alphabet's).

Prints 'clean VOICE' or 'faults VOICE: SAMPLE' per voice."""
import os, subprocess, sys, tempfile, unicodedata
here = os.path.dirname(os.path.abspath(__file__))
sys.argv, logs = sys.argv[:1], sys.argv[1:]
from table import ranges  # noqa: E402

union = ranges(logs)[0]
# ESpeakUnsafeCharacters.ownAlphabets
own = {'el': [(0x370, 0x3FF), (0x1F00, 0x1FFF)], 'grc': [(0x370, 0x3FF), (0x1F00, 0x1FFF)],
       'hy': [(0x530, 0x58F)], 'hyw': [(0x530, 0x58F)], 'hi': [(0x900, 0x97F)], 'mr': [(0x900, 0x97F)],
       'ne': [(0x900, 0x97F)], 'kok': [(0x900, 0x97F)], 'bn': [(0x980, 0x9FF)], 'as': [(0x980, 0x9FF)],
       'bpy': [(0x980, 0x9FF)], 'pa': [(0xA00, 0xA7F)], 'gu': [(0xA80, 0xAFF)], 'or': [(0xB00, 0xB7F)],
       'ta': [(0xB80, 0xBFF)], 'te': [(0xC00, 0xC7F)], 'kn': [(0xC80, 0xCFF)], 'ml': [(0xD00, 0xD7F)],
       'si': [(0xD80, 0xDFF)], 'ka': [(0x10A0, 0x10FF), (0x1C90, 0x1CBF)],
       'ko': [(0x1100, 0x11FF), (0x3130, 0x318F), (0xAC00, 0xD7AF)]}

def language(voice):
    return voice.split('+')[0].split('/')[-1].lower().replace('_', '-').split('-')[0]

def safe(text, voice):
    mine = own.get(language(voice), [])
    def unsafe(c):
        v = ord(c)
        if unicodedata.category(c) == 'Cn':
            return True
        return any(lo <= v <= hi for lo, hi in union) and not any(lo <= v <= hi for lo, hi in mine)
    return ''.join(' ' if unsafe(c) else c for c in text)

voices = subprocess.run(['espeak-ng', '--voices'], capture_output=True, text=True).stdout.splitlines()[1:]
names = sorted({line.split()[4] for line in voices if not line.split()[4].startswith('mb')})
samples = [line.rstrip('\n') for line in open(os.path.join(here, 'samples.txt'), encoding='utf-8')]
# PART=i/n surveys every n-th voice from the i-th (to run n at once).
part, parts = (int(x) for x in os.environ.get('PART', '1/1').split('/'))
for voice in names[part - 1::parts]:
    lines = [safe(s, voice) for s in samples]
    with tempfile.NamedTemporaryFile('w', suffix='.txt', delete=False, encoding='utf-8') as f:
        f.write('\n'.join(lines) + '\n')
    out = subprocess.run(['valgrind', '-q', '--undef-value-errors=no', '--error-exitcode=9', os.path.join(here, 'probe'), voice, f.name, 'x'],
                         capture_output=True, text=True).stdout
    os.unlink(f.name)
    results = out.splitlines()
    assert len(results) == len(lines), f'{voice}: {len(results)} results for {len(lines)} lines'
    bad = [line.split('\t', 1)[1] for line in results if not line.startswith('0\t')]
    print(f'faults {voice}: ' + ' | '.join(bad) if bad else f'clean {voice}', flush=True)
