#!/usr/bin/python3
# The man page, nearby(1): it formats without a warning, and it documents every command and
# every option that `nearby COMMAND --help` shows (and no other), so the two cannot drift.

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nearby_help  # noqa: E402
import taptest  # noqa: E402

parser = argparse.ArgumentParser()
parser.add_argument('--source-root', required=True)
parser.add_argument('--binary', required=True)
options = parser.parse_args()

page_path = os.path.join(options.source_root, 'data', 'nearby.1')
with open(page_path, encoding='utf-8') as page_file:
    page = page_file.read()


def section(title):
    '''The source of one .Sh or .Ss section, up to the next one.'''
    match = re.search(r'^\.S[hs] ' + re.escape(title) + r'\b.*?$(.*?)(?=^\.S[hs] |\Z)', page,
                      re.MULTILINE | re.DOTALL)
    assert match, f'the man page has no section "{title}"'
    return match.group(1)


def documented_options(text):
    '''The options a section describes: those that head an item (.It Fl -name), not those its text
    mentions.'''
    return {name for item in re.findall(r'^\.It (.*)$', text, re.MULTILINE)
            for name in re.findall(r'\bFl -([a-z][a-z-]*)', item)}


def mandoc_lints_clean():
    mandoc = shutil.which('mandoc')
    if mandoc is None:
        raise taptest.Skip('mandoc is not installed (Debian package mandoc)')
    # Whether bluetoothctl(1) and btmon(1), which SEE ALSO names, are installed is the machine's
    # business, not the page's: with an empty MANPATH mandoc finds no manual, and that one
    # message (a STYLE note, below the warnings) is set aside; any other note fails.
    with tempfile.TemporaryDirectory() as empty:
        result = subprocess.run([mandoc, '-T', 'lint', '-W', 'style', page_path],
                                capture_output=True, text=True,
                                env=dict(os.environ, MANPATH=empty))
    messages = [line for line in (result.stdout + result.stderr).splitlines()
                if 'STYLE: referenced manual not found: Xr ' not in line]
    assert not messages, 'mandoc -T lint -W style:\n' + '\n'.join(messages)
    warnings = subprocess.run([mandoc, '-T', 'lint', '-W', 'warning', page_path],
                              capture_output=True, text=True, env=dict(os.environ, MANPATH=empty))
    assert warnings.returncode == 0, f'mandoc -T lint:\n{warnings.stdout}{warnings.stderr}'


def groff_formats_without_warning():
    groff = shutil.which('groff')
    if groff is None:
        raise taptest.Skip('groff is not installed')
    result = subprocess.run([groff, '-ww', '-z', '-mandoc', page_path], capture_output=True,
                            text=True)
    messages = (result.stdout + result.stderr).strip()
    assert result.returncode == 0 and not messages, f'groff -ww -z -mandoc:\n{messages}'


def every_command_has_its_section_and_an_example():
    for command in nearby_help.commands(options.binary) + ['help']:
        text = section('nearby ' + command)
        assert re.search(r'^\.Dl nearby ' + command + r'\b', text, re.MULTILINE), \
            f'the section of nearby {command} has no example (.Dl nearby {command} …)'


def every_option_of_each_command_is_documented_there():
    problems = []
    for command in nearby_help.commands(options.binary):
        shown = set(nearby_help.options(options.binary, command)) - {'help'}
        documented = documented_options(section('nearby ' + command))
        for missing in sorted(shown - documented):
            problems.append(f'nearby {command} --{missing} is not in its section of the man page')
        for stale in sorted(documented - shown):
            problems.append(f'the man page documents nearby {command} --{stale}, which --help '
                            'does not show')
    assert not problems, '\n'.join(problems)


def every_option_of_the_app_is_documented():
    shown = set(nearby_help.options(options.binary)) - {'help', 'help-all', 'help-gapplication'}
    documented = documented_options(section('APPLICATION OPTIONS'))
    assert shown == documented, \
        f'nearby --help shows {sorted(shown)}, the man page documents {sorted(documented)}'


def the_short_options_are_listed_with_their_meaning():
    listed = dict(re.findall(r'^\.It Fl (\w)\n\.Fl -([a-z-]+)$', section('SHORT OPTIONS'),
                             re.MULTILINE))
    problems = []
    for command in nearby_help.commands(options.binary):
        for long, short in nearby_help.options(options.binary, command).items():
            if short is not None and listed.get(short) != long:
                problems.append(f'nearby {command}: -{short} is --{long}, the man page lists '
                                f'-{short} as --{listed.get(short)}')
    assert not problems, '\n'.join(problems)


taptest.run([
    mandoc_lints_clean,
    groff_formats_without_warning,
    every_command_has_its_section_and_an_example,
    every_option_of_each_command_is_documented_there,
    every_option_of_the_app_is_documented,
    the_short_options_are_listed_with_their_meaning,
])
