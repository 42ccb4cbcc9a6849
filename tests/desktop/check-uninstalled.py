#!/usr/bin/python3
# Runs the built `nearby` as a person does before installing it: started bare, the app says in
# one sentence how to run it instead of aborting on its missing GSettings schema; the command
# line needs no schema at all; and `meson devenv -C BUILD` gives a shell where `nearby` is the
# built one, with its schema, icons and translations.

import argparse
import glob
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import taptest  # noqa: E402

parser = argparse.ArgumentParser()
parser.add_argument('--source-root', required=True)
parser.add_argument('--build-root', required=True)
parser.add_argument('--app-id', required=True)
parser.add_argument('--version', required=True)
options = parser.parse_args()

nearby = os.path.join(options.build_root, 'src', 'nearby')
work = tempfile.mkdtemp(prefix='nearby-uninstalled-', dir=options.build_root)
SENTENCE = (f'Nearby’s settings schema {options.app_id} is not installed: run Nearby from its '
            'build directory with “meson devenv -C _build nearby”, or install it')


def system_schemas_without_ours():
    """A data directory with every schema of this system except Nearby's, compiled: the app's
    situation on a machine where it was built but not installed, whatever is installed here."""
    data = os.path.join(work, 'system-data')
    schemas = os.path.join(data, 'glib-2.0', 'schemas')
    if not os.path.isdir(schemas):
        os.makedirs(schemas)
        for directory in ['/usr/local/share', '/usr/share']:
            for path in glob.glob(os.path.join(directory, 'glib-2.0', 'schemas', '*')):
                name = os.path.basename(path)
                if name != 'gschemas.compiled' and not name.startswith(options.app_id):
                    shutil.copy(path, schemas)
        subprocess.run(['glib-compile-schemas', schemas], check=True)
    return data


def bare_environment(data_dirs):
    environment = {key: value for key, value in os.environ.items()
                   if key not in ('GSETTINGS_SCHEMA_DIR', 'NEARBY_LOCALEDIR', 'LANGUAGE', 'MESON_DEVENV')}
    environment['XDG_DATA_DIRS'] = data_dirs
    environment['GSETTINGS_BACKEND'] = 'memory'
    return environment


def run(arguments, environment, **keywords):
    return subprocess.run(arguments, env=environment, capture_output=True, text=True, timeout=60,
                          **keywords)


def assert_says_how_to_run_it(result):
    assert result.returncode == 1, \
        f'exit status {result.returncode}, not 1\nstdout: {result.stdout}\nstderr: {result.stderr}'
    assert result.stderr.strip() == SENTENCE, f'stderr is not the sentence:\n{result.stderr}'
    assert result.stdout == '', f'stdout is not empty:\n{result.stdout}'


def the_app_without_its_schema_says_how_to_run_it():
    empty = os.path.join(work, 'empty-data')
    os.makedirs(empty, exist_ok=True)
    # No display is needed: the app stops before it opens one.
    environment = bare_environment(empty)
    environment.pop('DISPLAY', None)
    environment.pop('WAYLAND_DISPLAY', None)
    assert_says_how_to_run_it(run([nearby, '--demo'], environment))


def the_app_says_it_when_other_schemas_are_there():
    assert_says_how_to_run_it(run([nearby], bare_environment(system_schemas_without_ours())))


def the_version_needs_no_schema():
    result = run([nearby, '--version'], bare_environment(os.path.join(work, 'empty-data')))
    assert result.returncode == 0 and result.stdout == f'nearby {options.version}\n', \
        f'nearby --version: {result.returncode}\n{result.stdout}{result.stderr}'


def the_command_line_needs_no_schema():
    environment = bare_environment(system_schemas_without_ours())
    # No bus: scan and advertise must say that Bluetooth is not there, not abort.
    environment['DBUS_SYSTEM_BUS_ADDRESS'] = 'unix:path=' + os.path.join(work, 'no-bus')
    commands = [
        (['decode', '0201060303aafe0a16aafe10ec0361626307'], 0, '"url":"https://abc.com"'),
        (['encode', 'https://example.com'], 0, 'Eddystone-URL service data'),
        # Port 9 (discard) on this computer: nothing listens, the look-up fails as a network error.
        (['resolve', '--json', '--timeout', '5', 'http://127.0.0.1:9/'], 1, '"error_code":"network"'),
        (['scan', '--duration', '1'], 3, None),
        (['advertise', '--duration', '1', 'https://example.com'], 3, None),
    ]
    for arguments, status, expected in commands:
        result = run([nearby] + arguments, environment)
        shown = ' '.join(['nearby'] + arguments)
        assert result.returncode == status, \
            f'{shown}: exit status {result.returncode}, not {status}\n{result.stdout}{result.stderr}'
        assert 'schema' not in result.stderr.lower(), f'{shown} asked for a schema:\n{result.stderr}'
        if expected is not None:
            assert expected in result.stdout, f'{shown} did not print {expected}:\n{result.stdout}'


def nearby_copied_alone_runs_commands_and_names_the_missing_window():
    # The window is a module found beside the built executable: a copy without it still runs
    # every command, and the app says in a line that it cannot start instead of crashing.
    alone = os.path.join(work, 'alone')
    os.makedirs(alone, exist_ok=True)
    copy = shutil.copy(nearby, alone)
    environment = bare_environment(os.path.join(work, 'empty-data'))
    result = run([copy, 'decode', '0201060303aafe0a16aafe10ec0361626307'], environment)
    assert result.returncode == 0 and '"url":"https://abc.com"' in result.stdout, \
        f'the copy cannot decode: {result.returncode}\n{result.stdout}{result.stderr}'
    result = run([copy, '--version'], environment)
    assert result.returncode == 1, f'exit status {result.returncode}, not 1\n{result.stderr}'
    assert result.stderr.startswith('Cannot start Nearby: ') and 'nearby-ui.so' in result.stderr, \
        f'the copy did not say why it cannot start:\n{result.stderr}'


def devenv(arguments, environment=None):
    return run(['meson', 'devenv', '-C', options.build_root] + arguments,
               environment or bare_environment('/usr/local/share:/usr/share'),
               cwd=options.source_root)


def meson_devenv_runs_the_built_nearby():
    result = devenv(['nearby', '--version'])
    assert result.returncode == 0 and result.stdout == f'nearby {options.version}\n', \
        f'meson devenv nearby --version: {result.returncode}\n{result.stdout}{result.stderr}'
    result = devenv(['sh', '-c', 'command -v nearby'])
    assert os.path.realpath(result.stdout.strip()) == os.path.realpath(nearby), \
        f'nearby in meson devenv is {result.stdout.strip()!r}, not {nearby}'


def meson_devenv_has_the_schema():
    result = devenv(['gsettings', 'list-keys', options.app_id],
                    bare_environment(system_schemas_without_ours()))
    assert result.returncode == 0 and 'lookup-policy' in result.stdout.split(), \
        f'the schema is not found in meson devenv:\n{result.stdout}{result.stderr}'


def meson_devenv_has_the_icons():
    result = devenv(['sh', '-c', 'echo "$XDG_DATA_DIRS"'])
    directories = result.stdout.strip().split(':')
    icon = os.path.join('icons', 'hicolor', 'scalable', 'apps', options.app_id + '.svg')
    assert any(os.path.isfile(os.path.join(directory, icon)) for directory in directories), \
        f'no {icon} under XDG_DATA_DIRS={result.stdout.strip()}'
    # The system's own directories stay, or GTK would find neither its schemas nor its icons.
    assert '/usr/share' in directories, f'XDG_DATA_DIRS lost /usr/share: {result.stdout.strip()}'


def meson_devenv_has_the_translations():
    environment = bare_environment('/usr/local/share:/usr/share')
    environment.update({'LANGUAGE': 'de', 'LC_ALL': 'C.UTF-8'})
    result = devenv(['nearby', 'encode', 'https://example.com/a-rather-long-path'], environment)
    assert result.returncode == 1, f'exit status {result.returncode}\n{result.stdout}{result.stderr}'
    assert 'passt in keinen Beacon-Frame' in result.stdout + result.stderr, \
        f'the German catalogue of the build tree was not used:\n{result.stdout}{result.stderr}'


try:
    taptest.run([
        the_app_without_its_schema_says_how_to_run_it,
        the_app_says_it_when_other_schemas_are_there,
        the_version_needs_no_schema,
        the_command_line_needs_no_schema,
        nearby_copied_alone_runs_commands_and_names_the_missing_window,
        meson_devenv_runs_the_built_nearby,
        meson_devenv_has_the_schema,
        meson_devenv_has_the_icons,
        meson_devenv_has_the_translations,
    ])
finally:
    shutil.rmtree(work, ignore_errors=True)
