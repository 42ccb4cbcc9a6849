#!/usr/bin/python3
# The bash completion of nearby, sourced in bash as bash-completion would and asked as readline
# asks (COMP_WORDS, COMP_CWORD): it offers every command and every option that `nearby COMMAND
# --help` shows (and no other), and the values that can be listed.

import argparse
import os
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

script = os.path.abspath(os.path.join(options.source_root, 'data', 'nearby.bash'))
bash = shutil.which('bash')


def complete(line, cwd=None):
    '''COMPREPLY for the command line @line, the cursor at its end. The words are split as bash
    splits them for completion: at spaces and at COMP_WORDBREAKS characters such as '='.'''
    if bash is None:
        raise taptest.Skip('bash is not installed')
    program = f'''
source {shell_quote(script)} || exit 1
line={shell_quote(line)}
COMP_LINE=$line
COMP_POINT=${{#line}}
read -r -a COMP_WORDS <<< "${{line//=/ = }}"
[[ $line == *' ' ]] && COMP_WORDS+=('')
COMP_CWORD=$(( ${{#COMP_WORDS[@]}} - 1 ))
_nearby nearby "${{COMP_WORDS[COMP_CWORD]}}" "${{COMP_WORDS[COMP_CWORD - 1]}}"
printf '%s\\n' "${{COMPREPLY[@]}}"
'''
    result = subprocess.run([bash, '--norc', '--noprofile', '-c', program], capture_output=True,
                            text=True, cwd=cwd, timeout=30)
    assert result.returncode == 0 and result.stderr == '', \
        f'completing "{line}" failed ({result.returncode}):\n{result.stderr}'
    return sorted(word for word in result.stdout.split('\n') if word)


def shell_quote(text):
    return "'" + text.replace("'", "'\\''") + "'"


def assert_offers(line, expected, cwd=None):
    offered = complete(line, cwd)
    assert offered == sorted(expected), f'"{line}" offers {offered}, expected {sorted(expected)}'


def the_script_registers_itself_for_nearby():
    result = subprocess.run([bash, '--norc', '--noprofile', '-c',
                             f'source {shell_quote(script)} && complete -p nearby'],
                            capture_output=True, text=True, timeout=30)
    assert result.stdout.strip() == 'complete -F _nearby nearby', result.stdout + result.stderr


def every_command_is_offered():
    commands = nearby_help.commands(options.binary)
    assert_offers('nearby ', commands + ['help'])
    assert_offers('nearby sc', ['scan'])
    assert_offers('nearby help ', commands)
    assert_offers('nearby help re', ['resolve'])


def every_option_of_each_command_is_offered():
    problems = []
    for command in nearby_help.commands(options.binary):
        shown = ['--' + name for name in nearby_help.options(options.binary, command)]
        offered = complete(f'nearby {command} --')
        if offered != sorted(shown):
            problems.append(f'nearby {command} --: offers {offered}, --help shows {sorted(shown)}')
    assert not problems, '\n'.join(problems)


def every_option_of_the_app_is_offered():
    shown = ['--' + name for name in nearby_help.options(options.binary)]
    assert_offers('nearby --', shown)
    assert_offers('nearby --de', ['--demo', '--developer'])


def options_come_after_arguments_too():
    assert_offers('nearby scan --json --mi', ['--min-rssi'])
    assert_offers('nearby encode https://example.com --t', ['--tx-power'])


def protocols_are_offered():
    assert_offers('nearby scan --protocol ', ['eddystone', 'ibeacon', 'uribeacon'])
    assert_offers('nearby scan --protocol u', ['uribeacon'])
    assert_offers('nearby scan --protocol=ib', ['ibeacon'])
    assert_offers('nearby scan --protocol eddystone,u', ['eddystone,uribeacon'])


def service_data_uuids_are_offered():
    assert_offers('nearby decode --service-data ', ['feaa', 'fed8'])
    assert_offers('nearby decode -s fe', ['feaa', 'fed8'])


def files_are_offered_after_from_and_replay():
    with tempfile.TemporaryDirectory() as folder:
        for name in ('capture.jsonl', 'cafe capture.jsonl', 'notes.txt'):
            open(os.path.join(folder, name), 'w').close()
        os.mkdir(os.path.join(folder, 'captures'))
        assert_offers('nearby scan --from ca', ['cafe capture.jsonl', 'capture.jsonl', 'captures'],
                      cwd=folder)
        assert_offers('nearby scan -f no', ['notes.txt'], cwd=folder)
        assert_offers('nearby scan --from=cap', ['capture.jsonl', 'captures'], cwd=folder)
        assert_offers('nearby --replay capture.', ['capture.jsonl'], cwd=folder)


def nothing_is_offered_where_a_value_is_typed():
    for line in ('nearby scan --min-rssi ', 'nearby scan --duration ', 'nearby scan --address ',
                 'nearby encode --tx-power ', 'nearby resolve --timeout ', 'nearby --speed ',
                 'nearby scan --url-contains '):
        assert_offers(line, [])
    assert_offers('nearby bogus --', [])


taptest.run([
    the_script_registers_itself_for_nearby,
    every_command_is_offered,
    every_option_of_each_command_is_offered,
    every_option_of_the_app_is_offered,
    options_come_after_arguments_too,
    protocols_are_offered,
    service_data_uuids_are_offered,
    files_are_offered_after_from_and_replay,
    nothing_is_offered_where_a_value_is_typed,
])
