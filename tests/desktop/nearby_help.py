# What `nearby` says about itself: its commands and the options each one's --help shows, for the
# checks that the man page and the shell completion cover all of them.

import os
import re
import subprocess


def run(binary, *args):
    environment = dict(os.environ, LC_ALL='C.UTF-8', LANGUAGE='C')
    result = subprocess.run([binary, *args], capture_output=True, text=True, env=environment,
                            timeout=30)
    assert result.returncode == 0, \
        f'nearby {" ".join(args)} exited with {result.returncode}:\n{result.stdout}{result.stderr}'
    return result.stdout


def commands(binary):
    '''The commands `nearby help` lists, in its order, without "help" itself.'''
    text = run(binary, 'help')
    listed = re.findall(r'^  ([a-z]+)  +\S', text, re.MULTILINE)
    assert len(listed) >= 5, f'nearby help lists too few commands:\n{text}'
    return [name for name in listed if name != 'help']


def options(binary, command=None):
    '''{long name: short letter or None} of the options `nearby [COMMAND] --help` shows.'''
    text = run(binary, *([command] if command else []), '--help')
    found = {}
    for short, long in re.findall(r'^  (?:-(\w), )?--([a-z][a-z-]*)', text, re.MULTILINE):
        found[long] = short or None
    assert 'help' in found, f'no options found in:\n{text}'
    return found
