#!/usr/bin/env python3
"""survey.py SCAN-LOG…: which installed voices speak samples.txt clean under valgrind, once the
characters scan.py found faulting with the scanned voices are taken out (as
ESpeakUnsafeCharacters does for a voice not scanned: all of them but the voice's own alphabet's).

Prints 'clean VOICE' or 'faults VOICE: SAMPLE' per voice."""
import os, subprocess, sys, tempfile
here = os.path.dirname(os.path.abspath(__file__))
sys.argv, logs = sys.argv[:1], sys.argv[1:]
from table import OWN_ALPHABETS, faults, language, ranges, unassigned  # noqa: E402

union = ranges(logs)[0]
# What a voice faults on in its own alphabet (logs/own.log, table.py's ownFaults) is taken out too.
own_log = os.path.join(here, 'logs', 'own.log')
own_faults = {}
for scanned_voice, point in faults([own_log] if os.path.exists(own_log) else []):
    own_faults.setdefault(language(scanned_voice), set()).add(point)

def safe(text, voice):
    mine = OWN_ALPHABETS.get(language(voice), [])
    def unsafe(c):
        v = ord(c)
        if unassigned(v) or v in own_faults.get(language(voice), ()):
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
