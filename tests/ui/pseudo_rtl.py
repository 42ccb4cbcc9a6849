#!/usr/bin/python3
"""Builds a right-to-left pseudo-translation of Nearby from the sources as they are now.

Every letter of every message is swapped for a Hebrew one, so the text is written right to
left, while format directives, escapes, markup and mnemonics keep working. Installed as the
`he` catalogue of a scratch locale folder, it shows how the app looks in a right-to-left
language without anyone having translated it (GTK takes the direction from its own Hebrew
catalogue).

Usage: pseudo_rtl.py LOCALE_DIR [LANGUAGE]   (writes LOCALE_DIR/LANGUAGE/LC_MESSAGES/nearby.mo)
"""

import os
import re
import subprocess
import sys
import tempfile

SOURCE_ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')
KEYWORDS = ['_', 'N_', 'C_:1c,2', 'NC_:1c,2', 'g_dcgettext:2', 'g_dngettext:2,3',
            'g_dpgettext2:2c,3']
HEBREW = 'אבגדהוזחטיכלמנסעפצקרשתםןףץ'
# Kept as they are: escapes, printf directives, markup tags and entities.
KEEP = re.compile(r'\\.|%(?:\d+\$)?[-+ #0]*\d*(?:\.\d+)?(?:hh|h|ll|l|z|j|t|L)?[diouxXeEfFgGcsp%]'
                  r'|<[^>]*>|&[#\w]+;')


def transliterate(text):
    def letters(chunk):
        return ''.join(HEBREW[ord(c.lower()) - ord('a')] if 'a' <= c.lower() <= 'z' else c
                       for c in chunk)

    out, position = [], 0
    for match in KEEP.finditer(text):
        out.append(letters(text[position:match.start()]))
        out.append(match.group(0))
        position = match.end()
    out.append(letters(text[position:]))
    return ''.join(out)


def pseudo_catalogue(english_po):
    """Rewrites every msgstr of a msgen catalogue (one message per line, as msgcat
    --no-wrap leaves it), leaving the header alone."""
    lines, in_header, in_msgstr = [], False, False
    for line in english_po.splitlines():
        if line == '#, fuzzy' and not lines:
            continue  # the template's header is fuzzy; the catalogue's is not
        if line.startswith('msgid '):
            in_header = line == 'msgid ""' and not any(l.startswith('msgid ') for l in lines)
            in_msgstr = False
        elif line.startswith('msgstr'):
            in_msgstr = True
        elif not line.startswith('"'):
            in_msgstr = False
        if in_msgstr and not in_header:
            quote = line.index('"')
            line = line[:quote + 1] + transliterate(line[quote + 1:-1]) + '"'
        lines.append(line)
    text = '\n'.join(lines) + '\n'
    text = text.replace('"Language: \\n"', '"Language: he\\n"')
    text = re.sub(r'"PO-Revision-Date: [^"]*"', r'"PO-Revision-Date: 2026-01-01 00:00+0000\\n"', text)
    text = re.sub(r'"Last-Translator: [^"]*"', r'"Last-Translator: pseudo_rtl.py\\n"', text)
    text = re.sub(r'"Language-Team: [^"]*"', r'"Language-Team: pseudo_rtl.py\\n"', text)
    text = re.sub(r'"Plural-Forms: [^"]*"', r'"Plural-Forms: nplurals=2; plural=(n != 1);\\n"', text)
    return text


def build(locale_dir, language='he'):
    with tempfile.TemporaryDirectory() as scratch:
        template = os.path.join(scratch, 'nearby.pot')
        subprocess.run(['xgettext', '--package-name=nearby', '--from-code=UTF-8',
                        '--directory', SOURCE_ROOT,
                        '--files-from', os.path.join(SOURCE_ROOT, 'po', 'POTFILES.in'),
                        '--output', template] + [f'--keyword={k}' for k in KEYWORDS],
                       check=True, stderr=subprocess.DEVNULL)
        english = subprocess.run(['msgen', '--no-wrap', '--no-location', template],
                                 check=True, capture_output=True, text=True).stdout
        catalogue = os.path.join(scratch, f'{language}.po')
        with open(catalogue, 'w') as po:
            po.write(pseudo_catalogue(english))
        folder = os.path.join(locale_dir, language, 'LC_MESSAGES')
        os.makedirs(folder, exist_ok=True)
        subprocess.run(['msgfmt', '--check', '--output-file', os.path.join(folder, 'nearby.mo'),
                        catalogue], check=True)


if __name__ == '__main__':
    build(sys.argv[1], *sys.argv[2:3])
