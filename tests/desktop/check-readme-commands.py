#!/usr/bin/python3
# Runs the README's examples that need no Bluetooth hardware against this build, as a reader
# would paste them. A fenced block right after the line
#
#   <!-- checked by tests/desktop/check-readme-commands.py -->
#
# is one such example:
# - a `console` block is a transcript: each `$ COMMAND` runs in sh with the built `nearby` first
#   on PATH, and the lines up to the next `$ ` are what it prints (stdout and stderr, in either
#   order between the two; blank lines before the next `$ ` only separate). `$ echo $?` and the
#   number after it is the exit status of the command before; without it the command must
#   succeed. Times (`6 ms`, `"total_ms":9`) may differ, and a JSON line with `…` shows only some
#   members of the object printed.
# - an `sh` block that starts with `dbus-run-session -- bash` is typed into that shell, on a
#   private bus; the shell must exit with status 0.
# The resolve examples name a server at 127.0.0.1:8042: this starts one serving those pages on a
# free port and puts that port in their place.

import argparse
import http.server
import json
import os
import re
import struct
import subprocess
import sys
import threading
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import taptest  # noqa: E402

parser = argparse.ArgumentParser()
parser.add_argument('--source-root', required=True)
parser.add_argument('--build-root', required=True)
options = parser.parse_args()

MARKER = '<!-- checked by tests/desktop/check-readme-commands.py -->'
README_PORT = '127.0.0.1:8042'
nearby_dir = os.path.join(options.build_root, 'src')


def png(width, height):
    def chunk(kind, data):
        return (struct.pack('>I', len(data)) + kind + data +
                struct.pack('>I', zlib.crc32(kind + data) & 0xffffffff))
    rows = b''.join(b'\x00' + b'\x20\x60\xc0' * width for _ in range(height))
    return (b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', width, height, 8, 2, 0, 0, 0)) +
            chunk(b'IDAT', zlib.compress(rows)) + chunk(b'IEND', b''))


STOP_PAGE = '''<!DOCTYPE html>
<html><head><meta charset="utf-8">
<title>Bus stop 42 – Main Street</title>
<meta name="description" content="Next buses from this stop, live.">
<link rel="icon" href="/icon.png">
<link rel="manifest" href="/manifest.json">
</head><body><h1>Bus stop 42</h1></body></html>
'''.encode()
MANIFEST = json.dumps({
    'name': 'Transit 42',
    'shortcuts': [{'name': 'Timetable', 'url': '/timetable'},
                  {'name': 'Report a problem', 'url': '/report'}],
}).encode()


class ExampleServer(http.server.BaseHTTPRequestHandler):
    """The bus stop of the README: a short link, its page, icon and manifest, and a gone page."""

    pages = {
        '/stop/42': ('text/html; charset=utf-8', STOP_PAGE),
        '/icon.png': ('image/png', png(32, 32)),
        '/manifest.json': ('application/manifest+json', MANIFEST),
    }

    def do_GET(self):
        if self.path == '/s/42':
            self.send_response(301)
            self.send_header('Location', '/stop/42')
            self.send_header('Content-Length', '0')
            self.end_headers()
        elif self.path in self.pages:
            content_type, body = self.pages[self.path]
            self.send_response(200)
            self.send_header('Content-Type', content_type)
            self.send_header('Content-Length', str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        else:
            self.send_error(404)

    def log_message(self, *arguments):
        pass


def marked_blocks():
    with open(os.path.join(options.source_root, 'README.md'), encoding='utf-8') as readme:
        lines = readme.read().splitlines()
    blocks = []
    for number, line in enumerate(lines):
        if line.strip() != MARKER:
            continue
        fence = lines[number + 1] if number + 1 < len(lines) else ''
        assert fence.startswith('```'), f'README.md:{number + 1}: the marker is not before a block'
        end = next(i for i in range(number + 2, len(lines)) if lines[i].startswith('```'))
        blocks.append((number + 3, fence[3:].strip(), lines[number + 2:end]))
    return blocks


def transcript(lines):
    """[(command, expected lines, expected status)] of a console block."""
    steps = []
    for line in lines:
        if line.startswith('$ '):
            if line == '$ echo $?':
                steps[-1][2] = None
            else:
                steps.append([line[2:], [], 0])
        elif steps and steps[-1][2] is None:
            steps[-1][2] = int(line)
        elif steps:
            steps[-1][1].append(line)
    # A blank line before the next command separates the two.
    for step in steps:
        while step[1] and step[1][-1] == '':
            step[1].pop()
    return steps


TIMES = [(re.compile(r'\b\d+ ms\b'), 'N ms'),
         (re.compile(r'"(headers_ms|total_ms|fetched_at_us|expires_at_us)":\s*\d+'), r'"\1":N')]


def normalized(line):
    for pattern, replacement in TIMES:
        line = pattern.sub(replacement, line)
    return line.rstrip()


def line_matches(expected, actual):
    if '…' in expected and expected.lstrip().startswith('{'):
        shown = json.loads(re.sub(r',\s*…\s*}$', '}', expected.strip()))
        try:
            printed = json.loads(actual)
        except ValueError:
            return False
        return all(printed.get(key) == value for key, value in shown.items())
    return normalized(expected) == normalized(actual)


def interleaves(expected, stdout, stderr):
    """Whether the expected lines are stdout's and stderr's lines, each in its order."""
    reachable = {(0, 0)}
    for line in expected:
        reachable = ({(o + 1, e) for o, e in reachable if o < len(stdout) and line_matches(line, stdout[o])} |
                     {(o, e + 1) for o, e in reachable if e < len(stderr) and line_matches(line, stderr[e])})
        if not reachable:
            return False
    return (len(stdout), len(stderr)) in reachable


def environment():
    env = {key: value for key, value in os.environ.items() if key not in ('LANGUAGE', 'NEARBY_LOCALEDIR')}
    env['PATH'] = nearby_dir + os.pathsep + env.get('PATH', '/usr/bin:/bin')
    env['LC_ALL'] = 'C.UTF-8'
    return env


def check_console(start, lines, port):
    for command, expected, status in transcript(lines):
        command = command.replace(README_PORT, f'127.0.0.1:{port}')
        expected = [line.replace(README_PORT, f'127.0.0.1:{port}') for line in expected]
        result = subprocess.run(['sh', '-c', command], env=environment(), cwd=options.source_root,
                                capture_output=True, text=True, timeout=60)
        printed = f'stdout:\n{result.stdout}stderr:\n{result.stderr}'
        assert result.returncode == status, \
            f'README.md:{start}: `{command}` exits with {result.returncode}, not {status}\n{printed}'
        assert interleaves(expected, result.stdout.splitlines(), result.stderr.splitlines()), \
            f'README.md:{start}: `{command}` prints otherwise than the README shows\n' \
            f'README:\n' + '\n'.join(expected) + f'\n{printed}'


def check_shell_session(start, lines):
    first = lines[0].split('#')[0].strip()
    assert first == 'dbus-run-session -- bash', f'README.md:{start}: not a shell session: {first}'
    script = '\n'.join(lines[1:]).replace('_build/src/nearby', os.path.join(nearby_dir, 'nearby'))
    result = subprocess.run(['dbus-run-session', '--', 'bash'], input=script + '\n',
                            env=environment(), cwd=options.source_root,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, \
        f'README.md:{start}: the session ends with status {result.returncode}\n' \
        f'stdout:\n{result.stdout}stderr:\n{result.stderr}'
    return result.stdout


def main():
    server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), ExampleServer)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]
    blocks = marked_blocks()
    checks = []

    def every_subcommand_without_hardware_has_a_checked_example():
        commands = ' '.join(line for _, _, lines in blocks for line in lines)
        missing = [name for name in ('decode', 'encode', 'resolve', 'scan')
                   if f'nearby {name}' not in commands]
        assert not missing, f'no checked README example runs: {missing}'
    checks.append(every_subcommand_without_hardware_has_a_checked_example)

    for start, language, lines in blocks:
        def check(start=start, language=language, lines=lines):
            if language == 'console':
                check_console(start, lines, port)
            elif language == 'sh':
                stdout = check_shell_session(start, lines)
                # The beacon the session adds broadcasts https://example.com.
                assert 'https://example.com' in stdout, \
                    f'README.md:{start}: the scan did not list the mock beacon:\n{stdout}'
            else:
                raise AssertionError(f'README.md:{start}: a checked block is console or sh, '
                                     f'not {language!r}')
        first = next((line for line in lines if line.startswith('$ ')), lines[0] if lines else '')
        check.__name__ = f'README line {start} {first.lstrip("$ ")[:60]}'.replace(' ', '_')
        checks.append(check)

    try:
        taptest.run(checks)
    finally:
        server.shutdown()


main()
