#!/usr/bin/python3
# Configures a development build (-Dprofile=development) beside this one and checks what makes it
# an app of its own, installable beside a release: its id in the desktop file, metainfo, D-Bus
# service, icon and settings schema, all valid; and, from test-profile built in that
# configuration, its own D-Bus name, settings and history, and the "devel" style of its window.
# Only those targets are built, not the whole development build.

import argparse
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ElementTree

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import taptest  # noqa: E402
import validators  # noqa: E402

RELEASE_ID = 'io.github.nearbyweb.Nearby'
DEVEL_ID = RELEASE_ID + '.Devel'

parser = argparse.ArgumentParser()
parser.add_argument('--source-root', required=True)
parser.add_argument('--build-root', required=True)
options = parser.parse_args()

build_dir = os.path.join(options.build_root, 'profile-development')
data_dir = os.path.join(build_dir, 'data')
built = {}


def data_file(name):
    return os.path.join(data_dir, name)


def build():
    """Configures and builds the development targets once; the result is kept for every check."""
    if 'result' not in built:
        environment = {key: value for key, value in os.environ.items() if key != 'DESTDIR'}
        steps = []
        # Once configured, `meson compile` reconfigures by itself when a meson.build changed.
        if not os.path.isfile(os.path.join(build_dir, 'build.ninja')):
            steps.append(['meson', 'setup', build_dir, options.source_root,
                          '-Dprofile=development', '-Dtests=true'])
        steps.append(['meson', 'compile', '-C', build_dir,
                      f'{DEVEL_ID}.desktop', f'{DEVEL_ID}.metainfo.xml', 'gschemas.compiled',
                      'tests/test-profile'])
        output = []
        for step in steps:
            result = subprocess.run(step, env=environment, capture_output=True, text=True,
                                    timeout=900)
            output.append(f'$ {" ".join(step)}\n{result.stdout[-4000:]}{result.stderr[-4000:]}')
            if result.returncode != 0:
                built['result'] = '\n'.join(output)
                break
        else:
            built['result'] = None
    assert built['result'] is None, f'the development build failed:\n{built["result"]}'


def desktop_value(path, key):
    with open(path, encoding='utf-8') as entry:
        for line in entry:
            if line.startswith(key + '='):
                return line[len(key) + 1:].strip()
    return None


def the_development_build_configures_and_builds():
    build()


def the_desktop_file_is_the_development_app():
    build()
    path = data_file(DEVEL_ID + '.desktop')
    assert os.path.isfile(path), f'no {DEVEL_ID}.desktop in {data_dir}: {sorted(os.listdir(data_dir))}'
    assert desktop_value(path, 'Icon') == DEVEL_ID, f'Icon is {desktop_value(path, "Icon")!r}'
    assert desktop_value(path, 'DBusActivatable') == 'true'
    assert not os.path.exists(data_file(RELEASE_ID + '.desktop')), \
        'the development build also makes the release desktop file'
    problems = validators.desktop_file_problems(path)
    assert not problems, '\n'.join(problems)


def the_metainfo_is_the_development_app():
    build()
    path = data_file(DEVEL_ID + '.metainfo.xml')
    component = ElementTree.parse(path).getroot()
    assert component.findtext('id') == DEVEL_ID, f'the metainfo id is {component.findtext("id")!r}'
    launchables = [launchable.text for launchable in component.iterfind('launchable')]
    assert launchables == [DEVEL_ID + '.desktop'], f'launchables: {launchables}'
    problems = validators.metainfo_problems(path)
    assert not problems, '\n'.join(problems)


def the_d_bus_service_has_the_development_name():
    build()
    with open(data_file(DEVEL_ID + '.service'), encoding='utf-8') as service:
        lines = [line.strip() for line in service]
    assert f'Name={DEVEL_ID}' in lines, f'the service file says {lines}'


def the_schema_has_its_own_id_and_path():
    build()
    path = data_file(DEVEL_ID + '.gschema.xml')
    root = ElementTree.parse(path).getroot()
    schemas = [(schema.get('id'), schema.get('path')) for schema in root.iterfind('schema')]
    assert schemas == [(DEVEL_ID, '/io/github/nearbyweb/Nearby/Devel/')], f'schemas: {schemas}'
    enums = [enum.get('id') for enum in root.iterfind('enum')]
    assert all(enum.startswith(DEVEL_ID + '.') for enum in enums), f'enums: {enums}'
    problems = validators.schema_problems(data_dir)
    assert not problems, '\n'.join(problems)
    assert os.path.isfile(data_file('gschemas.compiled')), 'the schema was not compiled'


def the_icon_is_a_development_variant():
    icons = os.path.join(options.source_root, 'data', 'icons', 'hicolor', 'scalable', 'apps')
    with open(os.path.join(icons, DEVEL_ID + '.svg'), 'rb') as devel_icon:
        devel = devel_icon.read()
    with open(os.path.join(icons, RELEASE_ID + '.svg'), 'rb') as release_icon:
        release = release_icon.read()
    assert devel != release, 'the development icon looks like the release icon'
    root = ElementTree.fromstring(devel)
    assert root.get('viewBox') == '0 0 128 128', f'viewBox {root.get("viewBox")}'


def the_application_window_and_history_follow_the_profile():
    build()
    environment = dict(os.environ)
    environment.update({
        'GSETTINGS_SCHEMA_DIR': data_dir,
        'GSETTINGS_BACKEND': 'memory',
        'G_TEST_BUILDDIR': os.path.join(build_dir, 'tests'),
    })
    result = subprocess.run([os.path.join(build_dir, 'tests', 'test-profile'), '--tap'],
                            env=environment, capture_output=True, text=True, timeout=120)
    report = result.stdout + result.stderr
    assert result.returncode == 0, f'test-profile failed in the development build:\n{report}'
    results = re.findall(r'^(ok|not ok) \d+ (/profile/\S+)(.*)$', result.stdout, re.MULTILINE)
    assert len(results) == 4 and all(status == 'ok' for status, _, _ in results), report
    skipped = [name for _, name, rest in results if '# SKIP' in rest]
    if skipped:
        raise taptest.Skip(f'{", ".join(skipped)} needs a display (run the suite under Xvfb)')


taptest.run([
    the_development_build_configures_and_builds,
    the_desktop_file_is_the_development_app,
    the_metainfo_is_the_development_app,
    the_d_bus_service_has_the_development_name,
    the_schema_has_its_own_id_and_path,
    the_icon_is_a_development_variant,
    the_application_window_and_history_follow_the_profile,
])
