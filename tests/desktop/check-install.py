#!/usr/bin/python3
# Installs the build into a temporary DESTDIR and checks that each file lands where GNOME looks
# for it: the shell reads share/applications, GNOME Software share/metainfo, GSettings
# share/glib-2.0/schemas, the session bus share/dbus-1/services and the icon theme
# share/icons/hicolor. A file installed anywhere else is one the desktop never finds.

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import taptest  # noqa: E402

parser = argparse.ArgumentParser()
parser.add_argument('--build-root', required=True)
parser.add_argument('--app-id', required=True)
options = parser.parse_args()


def build_option(name):
    introspection = subprocess.run(['meson', 'introspect', options.build_root, '--buildoptions'],
                                   check=True, capture_output=True, text=True).stdout
    return next(option['value'] for option in json.loads(introspection) if option['name'] == name)


prefix = build_option('prefix')
bindir = build_option('bindir')
datadir = build_option('datadir')
destdir = tempfile.mkdtemp(prefix='nearby-install-', dir=options.build_root)
install_result = None


def installed(*parts):
    return os.path.join(destdir, prefix.lstrip('/'), *parts)


def share(*parts):
    return installed(datadir, *parts)


def install():
    global install_result
    if install_result is None:
        environment = {key: value for key, value in os.environ.items() if key != 'DESTDIR'}
        install_result = subprocess.run(
            ['meson', 'install', '-C', options.build_root, '--no-rebuild', '--quiet', '--destdir', destdir],
            env=environment, capture_output=True, text=True, timeout=300)
    assert install_result.returncode == 0, \
        f'meson install failed:\n{install_result.stdout}\n{install_result.stderr}'


def installed_files():
    install()
    for directory, _, files in os.walk(destdir):
        for name in files:
            yield os.path.relpath(os.path.join(directory, name), destdir)


def assert_installed(path, what):
    install()
    relative = os.path.relpath(path, destdir)
    assert os.path.isfile(path), \
        f'{what} is not installed as /{relative}; installed: {sorted(installed_files())}'


def desktop_value(path, key):
    with open(path, encoding='utf-8') as entry:
        for line in entry:
            if line.startswith(key + '='):
                return line[len(key) + 1:].strip()
    return None


def meson_install_succeeds():
    install()


def everything_stays_inside_the_prefix():
    outside = [path for path in installed_files() if not ('/' + path).startswith(prefix.rstrip('/') + '/')]
    assert not outside, f'installed outside {prefix}: {outside}'


def the_command_is_in_bindir():
    path = installed(bindir, 'nearby')
    assert_installed(path, 'the nearby command')
    assert os.access(path, os.X_OK), f'/{os.path.relpath(path, destdir)} is not executable'


def the_app_module_is_in_libdir_and_the_installed_command_opens_it():
    # The window is a module the command opens only to start the app, found from the command's
    # own directory: the installed tree, moved as a whole into DESTDIR, must still start.
    module = installed(build_option('libdir'), 'nearby', 'nearby-ui.so')
    assert_installed(module, 'the app\'s module')
    environment = {key: value for key, value in os.environ.items()
                   if key not in ('LD_LIBRARY_PATH', 'LD_PRELOAD')}
    environment['LD_DEBUG'] = 'files'
    result = subprocess.run([installed(bindir, 'nearby'), '--version'], env=environment,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and result.stdout.startswith('nearby '), \
        f'the installed nearby --version: {result.returncode}\n{result.stdout}{result.stderr[-2000:]}'
    assert f'file={os.path.realpath(module)} ' in result.stderr, \
        f'the installed nearby did not open /{os.path.relpath(module, destdir)}'


def the_desktop_file_is_in_share_applications():
    path = share('applications', options.app_id + '.desktop')
    assert_installed(path, 'the desktop file')
    validator = shutil.which('desktop-file-validate')
    if validator:
        result = subprocess.run([validator, path], capture_output=True, text=True)
        assert result.returncode == 0, f'the installed desktop file is invalid:\n{result.stdout}{result.stderr}'


def the_metainfo_is_in_share_metainfo():
    assert_installed(share('metainfo', options.app_id + '.metainfo.xml'), 'the metainfo')


def the_gsettings_schema_is_in_share_glib_schemas():
    schemas = share('glib-2.0', 'schemas')
    assert_installed(os.path.join(schemas, options.app_id + '.gschema.xml'), 'the GSettings schema')
    compiler = shutil.which('glib-compile-schemas')
    if compiler:
        with tempfile.TemporaryDirectory(dir=options.build_root) as target:
            result = subprocess.run([compiler, '--strict', '--targetdir', target, schemas],
                                    capture_output=True, text=True)
            assert result.returncode == 0, f'the installed schemas do not compile:\n{result.stderr}'


def the_icons_are_in_the_hicolor_theme():
    hicolor = share('icons', 'hicolor')
    assert_installed(os.path.join(hicolor, 'scalable', 'apps', options.app_id + '.svg'), 'the app icon')
    assert_installed(os.path.join(hicolor, 'symbolic', 'apps', options.app_id + '-symbolic.svg'),
                     'the symbolic icon')
    # An icon under another name, or outside an apps context, is one the theme never looks up.
    names = {options.app_id + '.svg', options.app_id + '-symbolic.svg', options.app_id + '.png'}
    stray = sorted(os.path.relpath(os.path.join(directory, name), hicolor)
                   for directory, _, files in os.walk(hicolor) for name in files
                   if name not in names or os.path.basename(directory) != 'apps')
    assert not stray, f'files in the hicolor theme that no icon lookup finds: {stray}'


def the_license_is_in_the_doc_directory():
    path = share('doc', 'nearby', 'COPYING')
    assert_installed(path, 'the license')
    with open(path, encoding='utf-8') as license_text:
        assert 'GNU GENERAL PUBLIC LICENSE' in license_text.read(2000), f'/{path} is not the GPL'


def the_d_bus_service_starts_the_installed_command():
    services = [path for path in installed_files() if path.endswith('.service')]
    desktop = share('applications', options.app_id + '.desktop')
    if not services:
        if os.path.isfile(desktop) and desktop_value(desktop, 'DBusActivatable') == 'true':
            raise taptest.Skip('DBusActivatable=true but no D-Bus service file is installed yet')
        raise taptest.Skip('no D-Bus service file is installed')
    path = share('dbus-1', 'services', options.app_id + '.service')
    assert_installed(path, 'the D-Bus service file')
    assert len(services) == 1, f'more than one service file: {services}'
    with open(path, encoding='utf-8') as service:
        lines = [line.strip() for line in service]
    assert '[D-BUS Service]' in lines, 'the service file has no [D-BUS Service] group'
    assert f'Name={options.app_id}' in lines, f'the service is not named {options.app_id}: {lines}'
    exec_line = next((line[len('Exec='):] for line in lines if line.startswith('Exec=')), '')
    command = os.path.join(prefix, bindir, 'nearby')
    assert exec_line.split()[:1] == [command], f'the service runs {exec_line!r}, not {command}'
    assert '--gapplication-service' in exec_line.split(), \
        'the service does not pass --gapplication-service: activation would open a window twice'


def the_man_page_is_in_mandir_man1():
    assert_installed(installed(build_option('mandir'), 'man1', 'nearby.1'), 'the man page')


def the_bash_completion_is_where_bash_completion_loads_it():
    # bash-completion loads completions/NAME when NAME is first completed.
    assert_installed(share('bash-completion', 'completions', 'nearby'), 'the bash completion')


try:
    taptest.run([
        meson_install_succeeds,
        everything_stays_inside_the_prefix,
        the_command_is_in_bindir,
        the_app_module_is_in_libdir_and_the_installed_command_opens_it,
        the_desktop_file_is_in_share_applications,
        the_metainfo_is_in_share_metainfo,
        the_gsettings_schema_is_in_share_glib_schemas,
        the_icons_are_in_the_hicolor_theme,
        the_license_is_in_the_doc_directory,
        the_d_bus_service_starts_the_installed_command,
        the_man_page_is_in_mandir_man1,
        the_bash_completion_is_where_bash_completion_loads_it,
    ])
finally:
    shutil.rmtree(destdir, ignore_errors=True)
