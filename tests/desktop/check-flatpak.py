#!/usr/bin/python3
# Checks the two Flatpak manifests against the project they package: the release
# (flatpak/io.github.nearbyweb.Nearby.json, the tagged commit from git, as Flathub builds it) and
# the development build (flatpak/io.github.nearbyweb.Nearby.Devel.json, this checkout in the
# development profile). flatpak-builder reads each, each asks for exactly the permissions Nearby
# needs, builds this meson project in the profile of its app id with the same command, and every
# library Nearby links comes from the GNOME runtime or from a module of the manifest (the runtime's
# libraries are listed in flatpak/gnome-platform-libraries.txt).

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
# The runtime Nearby is built and tested against (build-aux/test builds against its libxml2 and
# libsoup): a manifest on another one would ship an untested combination.
RUNTIME_VERSION = '50'

RELEASE_ID = 'io.github.nearbyweb.Nearby'
DEVEL_ID = RELEASE_ID + '.Devel'
# Each manifest's meson profile (-Dprofile) and where its source comes from.
MANIFESTS = {
    RELEASE_ID: {'profile': 'default', 'source': 'git'},
    DEVEL_ID: {'profile': 'development', 'source': 'dir'},
}
# Flathub builds a release from the project's git repository, at a tag and the commit it names.
RELEASE_URL = 'https://github.com/nearbyweb/nearby.git'

parser = argparse.ArgumentParser()
parser.add_argument('--source-root', required=True)
parser.add_argument('--build-root', required=True)
parser.add_argument('--app-id', required=True)
parser.add_argument('--desktop-file', required=True, help='the merged .desktop file in the build tree')
parser.add_argument('--binary', required=True, action='append',
                    help='the built nearby executable, and again the app\'s module it opens')
options = parser.parse_args()

runtime_list_path = os.path.join(options.source_root, 'flatpak', 'gnome-platform-libraries.txt')


def manifest_path(app_id):
    return os.path.join(options.source_root, 'flatpak', app_id + '.json')


def load_manifest(app_id):
    try:
        with open(manifest_path(app_id), encoding='utf-8') as manifest_file:
            return json.load(manifest_file)
    except (OSError, ValueError) as error:
        raise AssertionError(f'{manifest_path(app_id)} is not readable JSON: {error}')


def each_manifest(check):
    """Runs @check(app_id, manifest) on every manifest; fails with every manifest's problems."""
    problems = []
    for app_id in MANIFESTS:
        try:
            check(app_id, load_manifest(app_id))
        except AssertionError as problem:
            problems.append(f'flatpak/{app_id}.json: {problem}')
    assert not problems, '\n'.join(problems)


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


def missing_from_runtime(names, runtime_names, module_names, describe, app_id=RELEASE_ID):
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
                        f'flatpak/{app_id}.json: add a module named "{min(module_names_for(name), key=len)}" '
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


def app_module(manifest, app_id):
    modules = list(all_modules(manifest.get('modules', []), os.path.dirname(manifest_path(app_id))))
    assert modules, 'the manifest builds no module'
    # flatpak-builder builds modules in order: the app comes last, after what it needs.
    return modules[-1], modules


def manifests_are_valid_json_named_by_their_app_id():
    def check(app_id, manifest):
        assert isinstance(manifest, dict), 'the manifest is not a JSON object'
        manifest_id = manifest.get('id', manifest.get('app-id'))
        assert manifest_id == app_id, f'the id is {manifest_id!r}: flatpak-builder and Flathub expect {app_id!r}'
    each_manifest(check)


def flatpak_builder_reads_the_manifests():
    builder = shutil.which('flatpak-builder')
    if builder is None:
        raise taptest.Skip('flatpak-builder is not installed (build-aux/deps.sh installs it)')
    # flatpak-builder warns about its own deprecated properties: not fatal here.
    environment = {key: value for key, value in os.environ.items() if key != 'G_DEBUG'}

    def check(app_id, manifest):
        result = subprocess.run([builder, '--show-manifest', manifest_path(app_id)], env=environment,
                                capture_output=True, text=True, timeout=60)
        assert result.returncode == 0, f'flatpak-builder --show-manifest failed:\n{result.stderr}'
        shown = json.loads(result.stdout)
        for key in ('runtime', 'runtime-version', 'sdk', 'command', 'finish-args'):
            assert shown.get(key) == manifest.get(key), \
                f'flatpak-builder reads {key} as {shown.get(key)!r}, the file says {manifest.get(key)!r}'
        # An unknown key is ignored by flatpak-builder, so a misspelt one would silently do nothing.
        ignored = {key for key in manifest if key not in shown and not (key == 'app-id' and 'id' in shown)}
        assert not ignored, f'flatpak-builder ignores {sorted(ignored)}: misspelt keys?'
    each_manifest(check)


def runtime_is_gnome_50():
    def check(app_id, manifest):
        assert manifest.get('runtime') == 'org.gnome.Platform', f'runtime is {manifest.get("runtime")!r}'
        assert manifest.get('sdk') == 'org.gnome.Sdk', f'sdk is {manifest.get("sdk")!r}'
        version = manifest.get('runtime-version')
        assert isinstance(version, str) and re.fullmatch(r'[0-9]+', version), \
            f'runtime-version {version!r} is not a stable GNOME release such as "50" (no master, no beta)'
        assert int(version) >= OLDEST_SUPPORTED_RUNTIME, \
            f'org.gnome.Platform {version} is out of support; use {OLDEST_SUPPORTED_RUNTIME} or newer'
        assert version == RUNTIME_VERSION, \
            f'runtime-version is {version!r}; Nearby is built and tested against GNOME {RUNTIME_VERSION}'
    each_manifest(check)


def finish_args_are_exactly_the_needed_permissions():
    each_manifest(lambda app_id, manifest: _assert_no_problems(finish_arg_problems(manifest.get('finish-args', []))))


def _assert_no_problems(problems):
    assert not problems, '\n'.join(problems)


def the_permission_check_rejects_more_or_fewer_permissions():
    wider = NEEDED_FINISH_ARGS + ['--filesystem=home']
    assert finish_arg_problems(wider) == ['finish-args asks for --filesystem=home, which Nearby does not need']
    narrower = [arg for arg in NEEDED_FINISH_ARGS if arg != '--system-talk-name=org.bluez']
    assert finish_arg_problems(narrower) == ['finish-args lacks --system-talk-name=org.bluez, which Nearby needs']


def profile_options():
    """The choices of meson's profile option, as this build reads meson_options.txt."""
    introspection = subprocess.run(['meson', 'introspect', options.build_root, '--buildoptions'],
                                   check=True, capture_output=True, text=True).stdout
    profile = next((option for option in json.loads(introspection) if option['name'] == 'profile'), None)
    assert profile is not None, 'meson has no profile option'
    return profile['choices']


def config_opts_problems(app_id, config_opts, choices):
    """What is wrong with a module's config-opts for the manifest of @app_id."""
    problems = []
    if '-Dtests=false' not in config_opts:
        problems.append('config-opts lack -Dtests=false (the test suites need the host)')
    profiles = [opt[len('-Dprofile='):] for opt in config_opts if opt.startswith('-Dprofile=')]
    profile = profiles[-1] if profiles else 'default'
    expected = MANIFESTS[app_id]['profile']
    if profile not in choices:
        problems.append(f'config-opts ask for profile {profile!r}, which meson does not have ({choices})')
    elif profile != expected:
        problems.append(f'config-opts build the {profile!r} profile; {app_id} is the {expected!r} one'
                        f'{" (-Dprofile=" + expected + ")" if expected != "default" else ""}')
    return problems


def builds_this_meson_project_in_the_profile_of_its_id():
    choices = profile_options()

    def check(app_id, manifest):
        module, _ = app_module(manifest, app_id)
        assert module.get('buildsystem') == 'meson', \
            f'module {module.get("name")!r} builds with {module.get("buildsystem")!r}, not meson'
        _assert_no_problems(config_opts_problems(app_id, module.get('config-opts', []), choices))
    each_manifest(check)


def the_profile_check_rejects_a_mismatch():
    choices = ['default', 'development']
    assert config_opts_problems(DEVEL_ID, ['-Dtests=false'], choices) == \
        [f"config-opts build the 'default' profile; {DEVEL_ID} is the 'development' one (-Dprofile=development)"]
    assert config_opts_problems(RELEASE_ID, ['-Dtests=false', '-Dprofile=nightly'], choices) == \
        ["config-opts ask for profile 'nightly', which meson does not have (['default', 'development'])"]
    assert config_opts_problems(RELEASE_ID, ['-Dprofile=default'], choices) == \
        ['config-opts lack -Dtests=false (the test suites need the host)']


def source_problems(app_id, sources):
    """What is wrong with the app module's sources: the release takes the tagged commit from git,
    the development build this checkout."""
    problems = []
    sources = [source for source in sources if isinstance(source, dict)]
    kind = MANIFESTS[app_id]['source']
    if len(sources) != 1 or sources[0].get('type') != kind:
        return [f'the module needs one "{kind}" source, has {[source.get("type") for source in sources]}']
    source = sources[0]
    if kind == 'git':
        if source.get('url') != RELEASE_URL:
            problems.append(f'the git url is {source.get("url")!r}, not {RELEASE_URL!r}')
        if source.get('tag') != 'v' + project_version():
            problems.append(f'the tag is {source.get("tag")!r}; this is Nearby {project_version()}, '
                            f'tagged v{project_version()}')
        if not re.fullmatch(r'[0-9a-f]{40}', source.get('commit') or ''):
            problems.append(f'the commit is {source.get("commit")!r}, not the 40 hex digits of a commit')
        if 'branch' in source:
            problems.append('a git source with a branch builds whatever the branch holds: Flathub needs tag and commit')
    else:
        source_dir = os.path.realpath(os.path.join(os.path.dirname(manifest_path(app_id)), source.get('path', '')))
        if source_dir != os.path.realpath(options.source_root):
            problems.append(f'the "dir" source points at {source_dir}, not at the checkout {options.source_root}')
        else:
            with open(os.path.join(source_dir, 'meson.build'), encoding='utf-8') as meson_build:
                if not re.match(r"\s*project\('nearby'", meson_build.read()):
                    problems.append('the "dir" source is not the nearby project')
    return problems


def project_version():
    introspection = subprocess.run(['meson', 'introspect', options.build_root, '--projectinfo'],
                                   check=True, capture_output=True, text=True).stdout
    return json.loads(introspection)['version']


def the_release_builds_a_tagged_commit_and_the_development_build_this_checkout():
    def check(app_id, manifest):
        module, _ = app_module(manifest, app_id)
        _assert_no_problems(source_problems(app_id, module.get('sources', [])))
    each_manifest(check)


def the_source_check_rejects_a_branch_or_a_short_commit():
    tag = 'v' + project_version()
    branch = [{'type': 'git', 'url': RELEASE_URL, 'branch': 'main'}]
    assert any('40 hex digits' in problem for problem in source_problems(RELEASE_ID, branch)), \
        source_problems(RELEASE_ID, branch)
    assert any('Flathub needs tag and commit' in problem for problem in source_problems(RELEASE_ID, branch))
    short = [{'type': 'git', 'url': RELEASE_URL, 'tag': tag, 'commit': 'd0eac15'}]
    assert source_problems(RELEASE_ID, short) == ["the commit is 'd0eac15', not the 40 hex digits of a commit"]
    assert source_problems(RELEASE_ID, [{'type': 'dir', 'path': '..'}]) == \
        ['the module needs one "git" source, has [\'dir\']']


def the_release_commit_is_in_this_history():
    """The commit the release manifest names is one this checkout has, and the tag, once made, names
    it. Without git or outside a clone (a tarball) there is nothing to compare with."""
    git = shutil.which('git')
    if git is None or not os.path.exists(os.path.join(options.source_root, '.git')):
        raise taptest.Skip('not a git checkout')
    module, _ = app_module(load_manifest(RELEASE_ID), RELEASE_ID)
    source = module['sources'][0]
    # A shallow clone (as some CI systems make) may simply not have the commit: that says nothing
    # about the manifest, while a full clone without it does.
    shallow = subprocess.run([git, '-C', options.source_root, 'rev-parse',
                              '--is-shallow-repository'], capture_output=True, text=True)
    have_commit = subprocess.run([git, '-C', options.source_root, 'cat-file', '-e',
                                  source['commit'] + '^{commit}'], capture_output=True)
    if shallow.stdout.strip() == 'true' and have_commit.returncode != 0:
        raise taptest.Skip(f'a shallow clone without commit {source["commit"]}')
    in_history = subprocess.run([git, '-C', options.source_root, 'merge-base', '--is-ancestor',
                                 source['commit'], 'HEAD'], capture_output=True, text=True)
    assert in_history.returncode == 0, \
        f'commit {source["commit"]} of flatpak/{RELEASE_ID}.json is not in the history of HEAD: ' \
        f'the release process sets it to the commit of tag {source["tag"]}'
    tagged = subprocess.run([git, '-C', options.source_root, 'rev-parse', '--verify', '--quiet',
                             source['tag'] + '^{commit}'], capture_output=True, text=True)
    if tagged.returncode == 0:
        assert tagged.stdout.strip() == source['commit'], \
            f'tag {source["tag"]} is commit {tagged.stdout.strip()}, the manifest says {source["commit"]}'


def app_id_and_command_match_the_desktop_file_and_meson():
    manifest = load_manifest(options.app_id)
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
    introspection = subprocess.run(['meson', 'introspect', options.build_root, '--installed'],
                                   check=True, capture_output=True, text=True).stdout
    installed = json.loads(introspection).values()
    installed_commands = {os.path.basename(path) for path in installed
                          if os.path.basename(os.path.dirname(path)) == 'bin'}

    def check(app_id, other):
        command = other.get('command')
        assert exec_line.split()[0] == command, \
            f'{desktop_name} runs {exec_line.split()[0]!r}, the Flatpak runs {command!r}'
        assert command in installed_commands, \
            f'meson installs {sorted(installed_commands)} in bin, not the manifest command {command!r}'
    assert manifest.get('id', manifest.get('app-id')) == options.app_id
    each_manifest(check)


def every_linked_library_is_in_the_runtime_or_built_by_a_module():
    sonames, _ = read_runtime_list(runtime_list_path)
    needed = {}
    for binary in options.binary:
        linked = needed_libraries(binary)
        assert linked, f'readelf found no NEEDED entry in {binary}'
        for soname in linked:
            needed.setdefault(soname, os.path.relpath(binary, options.build_root))

    def check(app_id, manifest):
        _, modules = app_module(manifest, app_id)
        _assert_no_problems(missing_from_runtime(list(needed), sonames, [module.get('name', '') for module in modules],
                                                 lambda soname: f'{soname} (linked by {needed[soname]})', app_id))
    each_manifest(check)


def every_declared_dependency_is_in_the_runtime_or_built_by_a_module():
    _, pkgconfig = read_runtime_list(runtime_list_path)
    introspection = subprocess.run(['meson', 'introspect', options.build_root, '--dependencies'],
                                   check=True, capture_output=True, text=True).stdout
    declared = [dependency['name'] for dependency in json.loads(introspection)]
    assert declared, 'meson declares no dependency: is this the right build directory?'

    def check(app_id, manifest):
        _, modules = app_module(manifest, app_id)
        _assert_no_problems(missing_from_runtime(declared, pkgconfig, [module.get('name', '') for module in modules],
                                                 lambda module: f'dependency(\'{module}\') in meson.build', app_id))
    each_manifest(check)


def the_library_check_names_a_library_nobody_provides():
    sonames, _ = read_runtime_list(runtime_list_path)
    problems = missing_from_runtime(['libgumbo.so.2', 'libxml2.so.16'], sonames, ['nearby'],
                                    lambda soname: soname)
    assert len(problems) == 1 and problems[0].startswith('libgumbo.so.2 is neither in the GNOME runtime'), problems
    assert not missing_from_runtime(['libgumbo.so.2', 'libfoo-1.so.0'], sonames, ['gumbo', 'libfoo', 'nearby'],
                                    lambda soname: soname), \
        'a library built by a module of the same name must count as provided'


taptest.run([
    manifests_are_valid_json_named_by_their_app_id,
    flatpak_builder_reads_the_manifests,
    runtime_is_gnome_50,
    finish_args_are_exactly_the_needed_permissions,
    the_permission_check_rejects_more_or_fewer_permissions,
    builds_this_meson_project_in_the_profile_of_its_id,
    the_profile_check_rejects_a_mismatch,
    the_release_builds_a_tagged_commit_and_the_development_build_this_checkout,
    the_source_check_rejects_a_branch_or_a_short_commit,
    the_release_commit_is_in_this_history,
    app_id_and_command_match_the_desktop_file_and_meson,
    every_linked_library_is_in_the_runtime_or_built_by_a_module,
    every_declared_dependency_is_in_the_runtime_or_built_by_a_module,
    the_library_check_names_a_library_nobody_provides,
])
