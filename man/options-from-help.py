#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Print the OPTIONS entries of a man page (scdoc) from `idlelab help CMD`.

    man/options-from-help.py build/idlelab CMD

When a command gains an option, tests/cli/man.t fails until its page has it: this prints
every option of the help text as scdoc, to paste into man/idlelab-CMD.1.scd (and edit).
"""
import re
import subprocess
import sys


def esc(text):
    # man cannot break a long word: a long comma list gets a space after each comma
    text = ' '.join(re.sub(r',(?=\S)', ', ', w) if len(w) > 36 else w for w in text.split(' '))
    text = text.replace('\\', '\\\\').replace('*', '\\*')
    return re.sub(r'(?<![A-Za-z0-9])_', r'\\_', text)


def is_placeholder(tok):
    t = re.sub(r'(\[)?\.[a-z]+(\])?$', '', tok.rstrip(','))
    return bool(re.search(r'[A-Z]', t)) and not re.search(r'[a-z]', t)


def split_spec(line):
    toks = line.split(' ')
    spec = []
    for i, tok in enumerate(toks):
        if tok and (tok.startswith('-') or (spec and is_placeholder(tok))):
            spec.append(tok)
            continue
        return spec, ' '.join(toks[i:]).strip()
    return spec, ''


def spec_fmt(spec):
    out = []
    for tok in spec:
        core = tok.rstrip(',')
        f = ('*%s*' if core.startswith('-') else '_%s_') % esc(core)
        out.append(f + (',' if tok.endswith(',') else ''))
    return ' '.join(out)


OPTION = re.compile(r'^  (-[A-Za-z0-9], --[\w-]+|-[A-Za-z0-9]\b|    --[\w-]+|--[\w-]+)')


def main():
    text = subprocess.run([sys.argv[1], 'help', sys.argv[2]], capture_output=True, text=True,
                          check=True).stdout
    entries = []
    for line in text.splitlines():
        if OPTION.match(line):
            entries.append(list(split_spec(line.strip())))
        elif entries and line.startswith('        ') and line.strip():
            entries[-1][1] += ' ' + line.strip()
        elif not line.strip():
            continue
        elif entries and not line.startswith(' '):
            break
    for spec, desc in entries:
        print(spec_fmt(spec))
        print('\t' + esc(desc[:1].upper() + desc[1:]))
        print()


if __name__ == '__main__':
    main()
