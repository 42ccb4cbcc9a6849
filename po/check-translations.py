#!/usr/bin/python3
"""Fails when a translation in po/LINGUAS is incomplete against the strings in the sources
today (untranslated or fuzzy messages), when msgfmt --check rejects it, or when its
compiled catalogue was not built.

Usage: check-translations.py SOURCE_ROOT BUILD_PO_DIR"""

import os
import re
import subprocess
import sys
import tempfile

top, build_po = sys.argv[1], sys.argv[2]
po_dir = os.path.join(top, 'po')

# The same keywords as meson's glib preset, so the template matches `nearby-pot`.
KEYWORDS = ['_', 'N_', 'C_:1c,2', 'NC_:1c,2', 'g_dcgettext:2', 'g_dngettext:2,3',
            'g_dpgettext2:2c,3']


def languages():
    with open(os.path.join(po_dir, 'LINGUAS')) as linguas:
        for line in linguas:
            line = line.split('#', 1)[0].strip()
            yield from line.split()


problems = []
with tempfile.TemporaryDirectory() as scratch:
    template = os.path.join(scratch, 'nearby.pot')
    subprocess.run(['xgettext', '--package-name=nearby', '--from-code=UTF-8', '--add-comments',
                    '--directory', top, '--files-from', os.path.join(po_dir, 'POTFILES.in'),
                    '--output', template] + [f'--keyword={k}' for k in KEYWORDS],
                   check=True, stderr=subprocess.DEVNULL)

    for language in languages():
        catalogue = os.path.join(po_dir, f'{language}.po')
        merged = os.path.join(scratch, f'{language}.po')
        subprocess.run(['msgmerge', '--quiet', '--no-fuzzy-matching', '--output-file', merged,
                        catalogue, template], check=True)
        result = subprocess.run(['msgfmt', '--check', '--statistics', '--output-file', '/dev/null',
                                 merged], capture_output=True, text=True)
        statistics = result.stderr.strip()
        print(f'{language}: {statistics}')
        if result.returncode != 0:
            problems.append(f'{language}: msgfmt --check failed')
        if re.search(r'fuzzy|untranslated', statistics):
            problems.append(f'{language}.po is incomplete: run `meson compile nearby-update-po` '
                            'and translate the new messages')
        if not os.path.exists(os.path.join(build_po, language, 'LC_MESSAGES', 'nearby.mo')):
            problems.append(f'{language}: the compiled catalogue was not built')

for problem in problems:
    print(problem)
sys.exit(1 if problems else 0)
