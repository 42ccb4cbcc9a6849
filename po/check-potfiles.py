#!/usr/bin/python3
"""Fails when a source file with strings marked for translation is missing from POTFILES.in,
or when POTFILES.in names a file that does not exist."""

import os
import re
import sys

top = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), '..')
marked = re.compile(r'''(\b_\(|\bN_\(|\bC_\(|\bNC_\(|\bg_dngettext\s*\(|\bngettext\s*\(|translatable="yes")''')

with open(os.path.join(top, 'po', 'POTFILES.in')) as potfiles:
    listed = {line.strip() for line in potfiles if line.strip() and not line.startswith('#')}

problems = []
for name in sorted(listed):
    if not os.path.exists(os.path.join(top, name)):
        problems.append(f'po/POTFILES.in names {name}, which does not exist')

for folder in ('src', 'data'):
    for root, _dirs, files in os.walk(os.path.join(top, folder)):
        for file in files:
            if not file.endswith(('.c', '.ui', '.in', '.xml')) or file.endswith('.gresource.xml'):
                continue
            path = os.path.join(root, file)
            relative = os.path.relpath(path, top)
            with open(path, encoding='utf-8', errors='replace') as source:
                if marked.search(source.read()) and relative not in listed:
                    problems.append(f'{relative} has translatable strings but is not in po/POTFILES.in')

for problem in problems:
    print(problem)
print(f'{len(listed)} files listed, {len(problems)} problems')
sys.exit(1 if problems else 0)
