#!/usr/bin/python3
# What may include what in src/, as README.md's Layout section says, and how long a file may be.
# The layers are also separate static libraries, so a wrong include usually fails to link; these
# checks name the file and the line instead, and catch what links all the same (a header-only
# use, an include cycle, the web layer's order inside core).
#
# Usage: check-layering.py SOURCE_ROOT

import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), 'desktop'))
import taptest  # noqa: E402

ROOT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), '..')
SRC = os.path.join(ROOT, 'src')
TESTS = os.path.join(ROOT, 'tests')

# The one cycle allowed: the window asks the application for its services, the application
# creates the window.
ALLOWED_CYCLES = [{'nearby-application', 'nearby-window'}]

# The frame codec is C99 and libc: firmware and fuzzers take it alone.
LIBC_HEADERS = {'ctype.h', 'limits.h', 'math.h', 'stdbool.h', 'stddef.h', 'stdint.h', 'stdio.h',
                'stdlib.h', 'string.h'}

# The web layer inside core, lowest first: a file may include its own rank or lower.
WEB_RANKS = {
    'nearby-text': 0,
    'nearby-resolve-error': 0,
    'nearby-url-policy': 1,
    'nearby-page-meta': 2,
    'nearby-manifest': 2,
    'nearby-icon': 3,
    'nearby-proxy-cache': 0,
    'nearby-resolver': 4,
}

LONG_FILE_LINES = 900

INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.MULTILINE)


def sources(folder):
    for directory, _, names in os.walk(folder):
        for name in sorted(names):
            if name.endswith(('.c', '.h')):
                yield os.path.join(directory, name)


def layer_of(path):
    return os.path.relpath(path, SRC).split(os.sep)[0]


FILES = {os.path.basename(path): path for path in sources(SRC)}


def includes(path):
    with open(path, encoding='utf-8') as source:
        text = source.read()
    for match in INCLUDE.finditer(text):
        line = text.count('\n', 0, match.start()) + 1
        yield match.group(1) == '<', match.group(2), line


def module_of(path):
    """A class spread over files through a -private.h is one module: nearby-object-devices.c,
    which includes nearby-object-private.h, and that header belong to nearby-object."""
    name = os.path.splitext(os.path.basename(path))[0]
    if name.endswith('-private'):
        return name[:-len('-private')]
    for system, included, _ in includes(path):
        stem = os.path.splitext(included)[0]
        if not system and stem.endswith('-private') and name.startswith(stem[:-len('-private')]):
            return stem[:-len('-private')]
    return name


def where(path, line):
    return f'{os.path.relpath(path, ROOT)}:{line}'


def include_graph():
    """Modules and the modules they include."""
    graph = {}
    for path in FILES.values():
        here = module_of(path)
        for system, name, _ in includes(path):
            if system or name not in FILES:
                continue
            there = module_of(FILES[name])
            if there != here:
                graph.setdefault(here, set()).add(there)
    return graph


def cycles(graph):
    """Strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph.get(node, ())):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = set()
            while True:
                other = stack.pop()
                on_stack.discard(other)
                component.add(other)
                if other == node:
                    break
            if len(component) > 1:
                found.append(component)

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def no_include_cycle_but_application_and_window():
    unexpected = [c for c in cycles(include_graph()) if c not in ALLOWED_CYCLES]
    assert not unexpected, 'include cycles: ' + '; '.join(
        ' <-> '.join(sorted(c)) for c in unexpected)


def frame_library_is_libc_only():
    problems = []
    for path in sources(os.path.join(SRC, 'libnearby-frame')):
        for system, name, line in includes(path):
            if system and name not in LIBC_HEADERS:
                problems.append(f'{where(path, line)}: <{name}> is not libc')
            if not system and (name not in FILES or layer_of(FILES[name]) != 'libnearby-frame'):
                problems.append(f'{where(path, line)}: "{name}" is outside the library')
    assert not problems, '\n'.join(problems)


def layer_includes_only_below(layer, allowed_layers, forbidden_system):
    problems = []
    for path in sources(os.path.join(SRC, layer)):
        for system, name, line in includes(path):
            if system and any(name.startswith(prefix) for prefix in forbidden_system):
                problems.append(f'{where(path, line)}: <{name}> in {layer}/')
            if not system and name in FILES and layer_of(FILES[name]) not in allowed_layers:
                problems.append(f'{where(path, line)}: {layer}/ includes {layer_of(FILES[name])}/'
                                f' ({name})')
    assert not problems, '\n'.join(problems)


def core_has_no_gtk_and_no_ui_or_cli():
    layer_includes_only_below('core', {'core', 'libnearby-frame'},
                              ('gtk/', 'gdk/', 'adwaita.h'))


def cli_has_no_gtk_and_no_ui():
    layer_includes_only_below('cli', {'cli', 'core', 'libnearby-frame'},
                              ('gtk/', 'gdk/', 'adwaita.h'))


def ui_includes_no_cli():
    layer_includes_only_below('ui', {'ui', 'core', 'libnearby-frame'}, ())


def web_layer_includes_only_below():
    problems = []
    for path in sources(os.path.join(SRC, 'core')):
        here = module_of(path)
        rank = WEB_RANKS.get(here)
        if rank is None:
            continue
        for system, name, line in includes(path):
            there = os.path.splitext(name)[0]
            if not system and WEB_RANKS.get(there, -1) > rank:
                problems.append(f'{where(path, line)}: {here} includes {there}, which is above it')
    assert not problems, '\n'.join(problems)


def opening_comment(path):
    with open(path, encoding='utf-8') as source:
        text = source.read()
    match = re.match(r'\s*/\*(.*?)\*/', text, re.DOTALL)
    return match.group(1) if match else ''


def long_files_say_why():
    problems = []
    for folder in (SRC, TESTS):
        for path in sources(folder):
            with open(path, encoding='utf-8') as source:
                length = sum(1 for _ in source)
            if length > LONG_FILE_LINES and f'{LONG_FILE_LINES} lines' not in opening_comment(path):
                problems.append(f'{os.path.relpath(path, ROOT)}: {length} lines, and its opening'
                                f' comment does not say why it is over {LONG_FILE_LINES} lines')
    assert not problems, '\n'.join(problems)


if __name__ == '__main__':
    taptest.run([
        no_include_cycle_but_application_and_window,
        frame_library_is_libc_only,
        core_has_no_gtk_and_no_ui_or_cli,
        cli_has_no_gtk_and_no_ui,
        ui_includes_no_cli,
        web_layer_includes_only_below,
        long_files_say_why,
    ])
