#!/usr/bin/python3
# Runs the validators of the desktop (desktop-file-validate), of GNOME Software and Flathub
# (appstreamcli validate --pedantic --no-net) and of GSettings (glib-compile-schemas --strict) on
# this build's files: a warning fails unless README.md explains it (tests/desktop/validators.py).

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import taptest  # noqa: E402
import validators  # noqa: E402

parser = argparse.ArgumentParser()
parser.add_argument('--desktop-file', required=True, help='the merged .desktop file in the build tree')
parser.add_argument('--metainfo-file', required=True, help='the merged metainfo in the build tree')
parser.add_argument('--schema-dir', required=True, help='the folder with the configured schema')
options = parser.parse_args()


def the_desktop_file_validates_without_warnings():
    problems = validators.desktop_file_problems(options.desktop_file)
    assert not problems, '\n'.join(problems)


def the_metainfo_validates_with_no_unexplained_issue():
    problems = validators.metainfo_problems(options.metainfo_file)
    assert not problems, '\n'.join(problems)


def the_schema_compiles_strictly():
    problems = validators.schema_problems(options.schema_dir)
    assert not problems, '\n'.join(problems)


def an_unexplained_issue_is_reported():
    issues = [
        {'tag': 'cid-contains-uppercase-letter', 'severity': 'pedantic', 'hint': 'io.github.x.Y'},
        {'tag': 'unknown-tag', 'severity': 'info', 'hint': 'developer', 'line': 55},
        {'tag': 'unknown-tag', 'severity': 'info', 'hint': 'devloper', 'line': 56},
        {'tag': 'screenshot-no-caption', 'severity': 'info', 'line': 30, 'explanation': 'No caption.'},
    ]
    problems = validators.unexplained(issues)
    assert problems == ['info: unknown-tag (devloper) at line 56: ',
                        'info: screenshot-no-caption (None) at line 30: No caption.'], problems


taptest.run([
    the_desktop_file_validates_without_warnings,
    the_metainfo_validates_with_no_unexplained_issue,
    the_schema_compiles_strictly,
    an_unexplained_issue_is_reported,
])
