#!/usr/bin/python3
# Checks flatpak/io.github.nearbyweb.Nearby.json against the project it packages: flatpak-builder
# reads it, it asks for exactly the permissions Nearby needs, it builds this meson project under
# the same app id and command, and every library Nearby links comes from the GNOME runtime or from
# a module of the manifest (the runtime's libraries are listed in flatpak/gnome-platform-libraries.txt).

import argparse
import json
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import taptest  # noqa: E402

# What Nearby does, and nothing more: fetch pages, draw on Wayland (X11 only without it), use the
# GPU, share memory with X11, and talk to BlueZ on the system bus. Opening a page goes through the
# OpenURI portal, which needs no permission; there is no file access at all.
NEEDED_FINISH_ARGS = [
    '--share=network',
    '--share=ipc',
    '--socket=wayland',
    '--socket=fallback-x11',
    '--device=dri',
    '--system-talk-name=org.bluez',
]
OLDEST_SUPPORTED_RUNTIME = 47

parser = argparse.ArgumentParser()
parser.add_argument('--source-root', required=True)
parser.add_argument('--build-root', required=True)
parser.add_argument('--app-id', required=True)
parser.add_argument('--desktop-file', required=True, help='the merged .desktop file in the build tree')
parser.add_argument('--binary', required=True, help='the built nearby executable')
options = parser.parse_args()

manifest_path = os.path.join(options.source_root, 'flatpak', options.app_id + '.json')
runtime_list_path = os.path.join(options.source_root, 'flatpak', 'gnome-platform-libraries.txt')


def load_manifest():
    try:
        with open(manifest_path, encoding='utf-8') as manifest_file:
            return json.load(manifest_file)
    except (OSError, ValueError) as error:
        raise AssertionError(f'{manifest_path} is not readable JSON: {error}')


def all_modules(modules, base_dir):
    """Every module of a manifest, nested ones and ones kept in their own JSON file included."""
    for module in modules:
        if isinstance(module, str):
            module_path = os.path.join(base_dir, module)
            with open(module_path, encoding='utf-8') as module_file:
                module = json.load(module_file)
            yield from all_modules([module], os.path.dirname(module_path))
            continue
        yield module
        yield from all_modules(module.get('modules', []), base_dir)


def read_runtime_list(path):
    """soname -> element, and pkg-config module -> element, from the runtime list file."""
    sonames = {}
    pkgconfig = {}
    with open(path, encoding='utf-8') as list_file:
        for line in list_file:
            line = line.strip()
            if not line or line.startswith('#'):
                continue
            fields = line.split(None, 2)
            assert len(fields) == 3, f'{path}: "{line}" needs three columns: soname, pkg-config, element'
            soname, modules, element = fields
            sonames[soname] = element
            if modules != '-':
                for module in modules.split(','):
                    pkgconfig[module] = element
    return sonames, pkgconfig


def link_name(soname):
    """libxml2.so.2 -> libxml2.so: what `-lxml2` asks for when Nearby is rebuilt in the SDK."""
    match = re.match(r'^(.*?\.so)(\.[0-9.]+)?$', soname)
    return match.group(1) if match else soname


def bare_name(name):
    """libgumbo.so.1, gumbo, libgumbo -> gumbo: how a library is matched to a manifest module."""
    name = link_name(name)
    name = re.sub(r'\.so$', '', name)
    name = re.sub(r'^lib', '', name)
    return name.lower()


def module_names_for(name):
    """The module names that count as building a library: libadwaita-1.so.0 -> adwaita-1, adwaita;
    libxml2.so.2 -> xml2, xml; libxml-2.0 (pkg-config) -> xml-2.0, xml."""
    bare = bare_name(name)
    return {bare, re.sub(r'-?[0-9.]+$', '', bare)}


def missing_from_runtime(names, runtime_names, module_names, describe):
    """The names neither the runtime nor a manifest module provides, as sentences for the user."""
    runtime_link_names = {link_name(name) for name in runtime_names}
    built = {bare_name(module) for module in module_names}
    problems = []
    for name in names:
        if link_name(name) in runtime_link_names or name in runtime_names:
            continue
        if module_names_for(name) & built:
            continue
        problems.append(f'{describe(name)} is neither in the GNOME runtime '
                        f'(flatpak/gnome-platform-libraries.txt) nor built by a module of '
                        f'flatpak/{options.app_id}.json: add a module named "{min(module_names_for(name), key=len)}" '
                        f'that builds it, or stop using it')
    return problems


def finish_arg_problems(finish_args):
    problems = []
    for arg in sorted(set(finish_args) - set(NEEDED_FINISH_ARGS)):
        problems.append(f'finish-args asks for {arg}, which Nearby does not need')
    for arg in NEEDED_FINISH_ARGS:
        if arg not in finish_args:
            problems.append(f'finish-args lacks {arg}, which Nearby needs')
    for arg in sorted({arg for arg in finish_args if finish_args.count(arg) > 1}):
        problems.append(f'finish-args names {arg} more than once')
    return problems


def needed_libraries(binary):
    assert os.path.exists(binary), f'{binary} is not built'
    readelf = shutil.which('readelf')
    if readelf is None:
        raise taptest.Skip('readelf is not installed')
    output = subprocess.run([readelf, '--dynamic', binary], check=True,
                            capture_output=True, text=True).stdout
    return re.findall(r'\(NEEDED\)\s+Shared library: \[([^\]]+)\]', output)


def app_module(manifest):
    modules = list(all_modules(manifest.get('modules', []), os.path.dirname(manifest_path)))
    assert modules, 'the manifest builds no module'
    # flatpak-builder builds modules in order: the app comes last, after what it needs.
    return modules[-1], modules


def manifest_is_valid_json():
    manifest = load_manifest()
    assert isinstance(manifest, dict), 'the manifest is not a JSON object'


def flatpak_builder_reads_the_manifest():
    builder = shutil.which('flatpak-builder')
    if builder is None:
        raise taptest.Skip('flatpak-builder is not installed (build-aux/deps.sh installs it)')
    # flatpak-builder warns about its own deprecated properties: not fatal here.
    environment = {key: value for key, value in os.environ.items() if key != 'G_DEBUG'}
    result = subprocess.run([builder, '--show-manifest', manifest_path], env=environment,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, f'flatpak-builder --show-manifest failed:\n{result.stderr}'
    shown = json.loads(result.stdout)
    manifest = load_manifest()
    for key in ('runtime', 'runtime-version', 'sdk', 'command', 'finish-args'):
        assert shown.get(key) == manifest.get(key), \
            f'flatpak-builder reads {key} as {shown.get(key)!r}, the file says {manifest.get(key)!r}'
    # An unknown key is ignored by flatpak-builder, so a misspelt one would silently do nothing.
    ignored = {key for key in manifest if key not in shown and not (key == 'app-id' and 'id' in shown)}
    assert not ignored, f'flatpak-builder ignores {sorted(ignored)}: misspelt keys?'


def runtime_is_a_stable_gnome_platform():
    manifest = load_manifest()
    assert manifest.get('runtime') == 'org.gnome.Platform', f'runtime is {manifest.get("runtime")!r}'
    assert manifest.get('sdk') == 'org.gnome.Sdk', f'sdk is {manifest.get("sdk")!r}'
    version = manifest.get('runtime-version')
    assert isinstance(version, str) and re.fullmatch(r'[0-9]+', version), \
        f'runtime-version {version!r} is not a stable GNOME release such as "50" (no master, no beta)'
    assert int(version) >= OLDEST_SUPPORTED_RUNTIME, \
        f'org.gnome.Platform {version} is out of support; use {OLDEST_SUPPORTED_RUNTIME} or newer'


def finish_args_are_exactly_the_needed_permissions():
    problems = finish_arg_problems(load_manifest().get('finish-args', []))
    assert not problems, '\n'.join(problems)


def the_permission_check_rejects_more_or_fewer_permissions():
    wider = NEEDED_FINISH_ARGS + ['--filesystem=home']
    assert finish_arg_problems(wider) == ['finish-args asks for --filesystem=home, which Nearby does not need']
    narrower = [arg for arg in NEEDED_FINISH_ARGS if arg != '--system-talk-name=org.bluez']
    assert finish_arg_problems(narrower) == ['finish-args lacks --system-talk-name=org.bluez, which Nearby needs']


def builds_this_meson_project():
    module, _ = app_module(load_manifest())
    assert module.get('buildsystem') == 'meson', \
        f'module {module.get("name")!r} builds with {module.get("buildsystem")!r}, not meson'
    assert '-Dtests=false' in module.get('config-opts', []), \
        f'module {module.get("name")!r} does not pass -Dtests=false (the test suites need the host)'
    dir_sources = [source for source in module.get('sources', [])
                   if isinstance(source, dict) and source.get('type') == 'dir']
    assert len(dir_sources) == 1, f'module {module.get("name")!r} needs one "dir" source, has {len(dir_sources)}'
    source_dir = os.path.realpath(os.path.join(os.path.dirname(manifest_path), dir_sources[0].get('path', '')))
    assert source_dir == os.path.realpath(options.source_root), \
        f'the "dir" source points at {source_dir}, not at the checkout {options.source_root}'
    with open(os.path.join(source_dir, 'meson.build'), encoding='utf-8') as meson_build:
        assert re.match(r"\s*project\('nearby'", meson_build.read()), 'the "dir" source is not the nearby project'


def app_id_and_command_match_the_desktop_file_and_meson():
    manifest = load_manifest()
    manifest_id = manifest.get('id', manifest.get('app-id'))
    assert manifest_id == options.app_id, f'the manifest id is {manifest_id!r}, meson says {options.app_id!r}'
    desktop_name = os.path.basename(options.desktop_file)
    assert desktop_name == options.app_id + '.desktop', \
        f'the desktop file is {desktop_name}: GNOME and Flatpak find it by the app id'
    exec_line = None
    with open(options.desktop_file, encoding='utf-8') as desktop_file:
        for line in desktop_file:
            if line.startswith('Exec='):
                exec_line = line[len('Exec='):].strip()
                break
    assert exec_line, f'{desktop_name} has no Exec line'
    command = manifest.get('command')
    assert exec_line.split()[0] == command, \
        f'{desktop_name} runs {exec_line.split()[0]!r}, the Flatpak runs {command!r}'
    introspection = subprocess.run(['meson', 'introspect', options.build_root, '--installed'],
                                   check=True, capture_output=True, text=True).stdout
    installed = json.loads(introspection).values()
    installed_commands = {os.path.basename(path) for path in installed
                          if os.path.basename(os.path.dirname(path)) == 'bin'}
    assert command in installed_commands, \
        f'meson installs {sorted(installed_commands)} in bin, not the manifest command {command!r}'


def every_linked_library_is_in_the_runtime_or_built_by_a_module():
    sonames, _ = read_runtime_list(runtime_list_path)
    _, modules = app_module(load_manifest())
    needed = needed_libraries(options.binary)
    assert needed, f'readelf found no NEEDED entry in {options.binary}'
    problems = missing_from_runtime(needed, sonames, [module.get('name', '') for module in modules],
                                    lambda soname: f'{soname} (linked by src/nearby)')
    assert not problems, '\n'.join(problems)


def every_declared_dependency_is_in_the_runtime_or_built_by_a_module():
    _, pkgconfig = read_runtime_list(runtime_list_path)
    _, modules = app_module(load_manifest())
    introspection = subprocess.run(['meson', 'introspect', options.build_root, '--dependencies'],
                                   check=True, capture_output=True, text=True).stdout
    declared = [dependency['name'] for dependency in json.loads(introspection)]
    assert declared, 'meson declares no dependency: is this the right build directory?'
    problems = missing_from_runtime(declared, pkgconfig, [module.get('name', '') for module in modules],
                                    lambda module: f'dependency(\'{module}\') in meson.build')
    assert not problems, '\n'.join(problems)


def the_library_check_names_a_library_nobody_provides():
    sonames, _ = read_runtime_list(runtime_list_path)
    problems = missing_from_runtime(['libgumbo.so.2', 'libxml2.so.16'], sonames, ['nearby'],
                                    lambda soname: soname)
    assert len(problems) == 1 and problems[0].startswith('libgumbo.so.2 is neither in the GNOME runtime'), problems
    assert not missing_from_runtime(['libgumbo.so.2', 'libfoo-1.so.0'], sonames, ['gumbo', 'libfoo', 'nearby'],
                                    lambda soname: soname), \
        'a library built by a module of the same name must count as provided'


taptest.run([
    manifest_is_valid_json,
    flatpak_builder_reads_the_manifest,
    runtime_is_a_stable_gnome_platform,
    finish_args_are_exactly_the_needed_permissions,
    the_permission_check_rejects_more_or_fewer_permissions,
    builds_this_meson_project,
    app_id_and_command_match_the_desktop_file_and_meson,
    every_linked_library_is_in_the_runtime_or_built_by_a_module,
    every_declared_dependency_is_in_the_runtime_or_built_by_a_module,
    the_library_check_names_a_library_nobody_provides,
])
