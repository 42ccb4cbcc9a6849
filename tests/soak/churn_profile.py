"""soak-app's churn through the app without the accessibility bus, for a profiler.

The same waves as soak-app (distinct objects, each with its own address, URL, page and icon on a
server on [::1], looked up in developer mode), but nothing walks the window, nothing opens Details
or Preferences, and the app runs with GTK_A11Y=none unless CHURN_A11Y=1: what it keeps after each
wave is what the look-up path keeps. It prints the app's RSS once each wave has left the list, and
the growth per object after the first wave.

    CHURN_PREFIX="heaptrack -o /tmp/churn" meson test -C _build --benchmark churn-profile -v
    CHURN_PREFIX="valgrind --tool=massif --vgdb=yes" ...   # a massif snapshot after each wave

CHURN_WAVES (6), CHURN_OBJECTS (1 200 a wave), CHURN_WAVE_SECONDS (30),
CHURN_SETTLE_SECONDS (20), CHURN_ICONS=0 (pages without an icon), CHURN_A11Y=1 (the accessibility
bridge on), CHURN_WALK=1 (with it, the window's accessible tree read in the middle of each wave, as
soak-app does), CHURN_OUT (where the app's log and massif's snapshots go).
"""

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import test_soak_app as soak  # noqa: E402

WAVES = int(os.environ.get('CHURN_WAVES', '6'))
OBJECTS = int(os.environ.get('CHURN_OBJECTS', '1200'))
WAVE_SECONDS = float(os.environ.get('CHURN_WAVE_SECONDS', '30'))
SETTLE_SECONDS = float(os.environ.get('CHURN_SETTLE_SECONDS', '20'))
ICONS = os.environ.get('CHURN_ICONS', '1') != '0'
A11Y = os.environ.get('CHURN_A11Y', '0') == '1'
WALK = A11Y and os.environ.get('CHURN_WALK', '0') == '1'
PREFIX = os.environ.get('CHURN_PREFIX', '').split()


class IconlessHandler(soak.PageHandler):
    def do_GET(self):
        path = self.path.strip('/')
        if not path.isdigit():
            self.send_response(404)
            self.send_header('Content-Length', '0')
            self.end_headers()
            return
        body = (f'<!DOCTYPE html><html><head><meta charset="utf-8"><title>Object {path}</title>'
                f'<meta name="description" content="Soak page number {path}, one of many">'
                f'</head><body><p>{path}</p></body></html>')
        self.reply('text/html; charset=utf-8', body.encode())


def write_capture(path, base):
    lines = []
    for wave in range(WAVES):
        wave_start = 3.0 + wave * (WAVE_SECONDS + SETTLE_SECONDS)
        for i in range(OBJECTS):
            n = wave * OBJECTS + i
            address = 'C0:%02X:%02X:%02X:00:02' % ((n >> 16) & 255, (n >> 8) & 255, n & 255)
            raw = soak.eddystone_url_raw(f'{base}/{n}')
            appears = wave_start + i * WAVE_SECONDS / OBJECTS
            for k in range(soak.ADVERT_COUNT):
                lines.append((appears + k * soak.ADVERT_EVERY, address, -55 - n % 30, raw))
    lines.sort()
    start = 1_700_000_000.0
    with open(path, 'w') as capture:
        for when, address, rssi, raw in lines:
            stamp = time.strftime('%Y-%m-%dT%H:%M:%S', time.gmtime(start + when))
            millis = int(round((when % 1) * 1000)) % 1000
            capture.write(json.dumps({'time': f'{stamp}.{millis:03d}Z', 'address': address,
                                      'rssi': rssi, 'uuid': 'feaa', 'raw': raw},
                                     separators=(',', ':')) + '\n')


def walk_window(pid):
    """Reads every accessible of the app once, as soak-app's search for rows does."""
    import pyatspi
    from nearbyui import walk
    desktop = pyatspi.Registry.getDesktop(0)
    for i in range(desktop.childCount):
        app = desktop.getChildAtIndex(i)
        try:
            if app is None or app.get_process_id() != pid:
                continue
        except Exception:
            continue
        read = 0
        for node in walk(app):
            try:
                node.name
            except Exception:
                continue
            read += 1
        return read
    return 0


def environment(tmp, system_bus):
    env = dict(os.environ)
    for name in ('config', 'data', 'cache', 'state'):
        os.makedirs(os.path.join(tmp, name))
    env.update({'HOME': tmp, 'XDG_CONFIG_HOME': f'{tmp}/config', 'XDG_DATA_HOME': f'{tmp}/data',
                'XDG_CACHE_HOME': f'{tmp}/cache', 'XDG_STATE_HOME': f'{tmp}/state',
                'GSETTINGS_BACKEND': 'keyfile', 'GSK_RENDERER': 'cairo', 'GDK_BACKEND': 'x11',
                'LC_ALL': 'C.UTF-8', 'DBUS_SYSTEM_BUS_ADDRESS': system_bus})
    # The tests' allocator checks would be measured too.
    env.pop('MALLOC_CHECK_', None)
    env.pop('MALLOC_PERTURB_', None)
    if not A11Y:
        env.update({'GTK_A11Y': 'none', 'NO_AT_BRIDGE': '1'})
    folder = os.path.join(tmp, 'config', 'glib-2.0', 'settings')
    os.makedirs(folder)
    with open(os.path.join(folder, 'keyfile'), 'w') as keyfile:
        keyfile.write(f"[{env['NEARBY_APP_ID'].replace('.', '/')}]\n")
        for key, value in soak.SoakTest.settings.items():
            keyfile.write(f'{key}={value}\n')
    return env


def main():
    if not os.environ.get('DISPLAY'):
        print('churn-profile needs an X display (xvfb-run)')
        return 77
    out = os.environ.get('CHURN_OUT') or tempfile.mkdtemp(prefix='nearby-churn-out-')
    os.makedirs(out, exist_ok=True)
    server = soak.PageServer(('::1', 0), soak.PageHandler if ICONS else IconlessHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    tmp = tempfile.mkdtemp(prefix='nearby-churn-')
    capture = os.path.join(tmp, 'churn.jsonl')
    write_capture(capture, f'http://[::1]:{server.server_address[1]}')
    bus = subprocess.Popen(['dbus-daemon', '--session', '--nofork', '--print-address=1'],
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    env = environment(tmp, bus.stdout.readline().decode().strip())
    binary = env['NEARBY_BINARY']
    log = open(os.path.join(out, 'app.log'), 'w')
    process = subprocess.Popen(PREFIX + [binary, '--developer', '--replay', capture],
                               env=env, stdout=log, stderr=subprocess.STDOUT)

    def app_pid():
        # heaptrack's script runs the app as its child; valgrind runs it in its own process.
        if PREFIX and PREFIX[0].endswith('heaptrack'):
            found = subprocess.run(['pgrep', '-P', str(process.pid), '-x',
                                    os.path.basename(binary)],
                                   capture_output=True, text=True).stdout.split()
            if found:
                return int(found[0])
        return process.pid

    started = time.monotonic()
    after_wave = []
    print(f'{WAVES} waves of {OBJECTS} objects, icons {"on" if ICONS else "off"}, '
          f'accessibility {"on" if A11Y else "off"}', flush=True)
    for wave in range(WAVES):
        if WALK:
            middle = started + 3.0 + wave * (WAVE_SECONDS + SETTLE_SECONDS) + WAVE_SECONDS / 2
            time.sleep(max(0.0, middle - time.monotonic()))
            print(f'wave {wave + 1}: {walk_window(app_pid())} accessibles read', flush=True)
        read_at = started + 3.0 + (wave + 1) * (WAVE_SECONDS + SETTLE_SECONDS) - 1.0
        time.sleep(max(0.0, read_at - time.monotonic()))
        pid = app_pid()
        after_wave.append(soak.rss_bytes(pid))
        print(f'wave {wave + 1}: RSS after it left {after_wave[-1] / 2**20:.1f} MiB', flush=True)
        if PREFIX and 'valgrind' in PREFIX[0]:
            subprocess.run(['vgdb', f'--pid={pid}', 'detailed_snapshot',
                            os.path.join(out, f'massif-wave-{wave + 1}.txt')],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=300)
    # The first wave's objects fill what fills once (allocator arenas, GTK's caches, the
    # rows): what grows with objects shows from the second wave on.
    for first in (0, 1):
        if WAVES > first + 1:
            growth = after_wave[-1] - after_wave[first]
            objects = (WAVES - 1 - first) * OBJECTS
            print(f'growth after wave {first + 1}: {growth / 2**20:.1f} MiB over {objects} '
                  f'objects ({growth / objects:.0f} bytes each)', flush=True)
    print(f'app log and profiles in {out}', flush=True)
    # A clean exit (the app quits on SIGTERM), so that a profiler writes its last data.
    os.kill(app_pid(), signal.SIGTERM)
    try:
        process.wait(300)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    bus.terminate()
    server.shutdown()
    shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == '__main__':
    sys.exit(main())
