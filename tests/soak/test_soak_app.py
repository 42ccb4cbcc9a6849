"""The app under object churn: memory comes back once the objects are gone.

Thousands of distinct objects (each with its own address, URL, page and icon, looked up from a
server on 127.0.0.1) appear and leave in waves, while Details and Preferences are opened and
closed. After each wave has left the list, the app's RSS is sampled. A wave must not leave memory
behind: the RSS after the last wave stays within a margin of the RSS after the first one, and the
growth per object ever seen stays small; in a long run, the RSS from the second wave on has no
upward trend. Preferences opened and closed again and again keeps
nothing either. NEARBY_SOAK_MINUTES makes the run longer (the default is
a short run of two waves).
"""

import http.server
import json
import os
import socket
import struct
import sys
import threading
import time
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'ui'))
import pyatspi  # noqa: E402
from nearbyui import NearbyTestCase, main, wait_for  # noqa: E402

WAVE_OBJECTS = 2400          # distinct objects per wave
WAVE_SECONDS = 40            # over which they appear (60 a second, about 500 in the list at once)
ADVERT_EVERY = 0.5           # each object is heard every half second...
ADVERT_COUNT = 8             # ...for 4 s, then never again
EXPIRY_SECONDS = 5           # the shortest the settings allow
SETTLE_SECONDS = 40          # between waves: the last objects expire and the list is empty
# The RSS after the last wave stays within this much of the RSS after the first one. The second
# wave may read several MiB more than the first (GTK's and the allocator's arenas and caches that
# the first crowd did not reach: 127.3 then 138.7 MiB in one 30-minute run), and from then on the
# RSS is flat (132 - 143 MiB over 22 waves in two runs), so 10 % is that one-off plus the
# wave-to-wave noise ...
MARGIN = 0.10
# ... and no more than this per object seen since: the bug this guards against kept ~7 KB. One
# wave's RSS moves by up to ~4 MiB either way (the allocator; 2 400 objects; a list that keeps
# its rows while it has the focus), so a short run cannot tell much less than this. What the
# long run once kept (~340 bytes per object) was Preferences, which the test below catches.
BYTES_PER_OBJECT = 3072
# ... and in a long run (at least this many waves), the RSS from the second wave on does not
# trend upwards: the least-squares slope over those waves, per object, stays under this. Two
# 30-minute runs without a leak read -7 and 87 bytes per object (a wave whose rows stayed on
# screen reads 2 - 6 MiB high); the Preferences leak that a 25-minute run once showed was about
# 340.
SLOPE_MIN_WAVES = 6
SLOPE_BYTES_PER_OBJECT = 256
# Preferences opened and closed: a few times first (what fills once), then counted. Each opening
# of a window that was destroyed on close kept 830 - 860 KiB (libadwaita 1.2 never frees a
# destroyed preferences window's groups; see tests/bench/README.md); one kept window keeps
# nothing (0 KiB an opening), and RSS moves by about 1 MiB either way over the counted ones.
PREFERENCES_WARM_UP = 5
PREFERENCES_OPENINGS = 20
PREFERENCES_BYTES_PER_OPENING = 64 * 1024


def least_squares_slope(values):
    """The slope of the least-squares line through (i, values[i])."""
    n = len(values)
    mean_x = (n - 1) / 2
    mean_y = sum(values) / n
    numerator = sum((i - mean_x) * (v - mean_y) for i, v in enumerate(values))
    denominator = sum((i - mean_x) ** 2 for i in range(n))
    return numerator / denominator


def png(seed):
    """A 16×16 opaque PNG of one colour, different for each object."""
    colour = bytes(((seed * 37) % 256, (seed * 91) % 256, (seed * 53) % 256))
    rows = b''.join(b'\x00' + colour * 16 for _ in range(16))

    def chunk(kind, data):
        return (struct.pack('>I', len(data)) + kind + data +
                struct.pack('>I', zlib.crc32(kind + data) & 0xffffffff))
    return (b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', 16, 16, 8, 2, 0, 0, 0)) +
            chunk(b'IDAT', zlib.compress(rows)) + chunk(b'IEND', b''))


class PageHandler(http.server.BaseHTTPRequestHandler):
    protocol_version = 'HTTP/1.1'
    # Headers and body leave in two writes: with Nagle's algorithm each kept-alive response
    # would wait out the client's delayed ACK (40 ms), slower than objects arrive.
    disable_nagle_algorithm = True

    def do_GET(self):
        path = self.path.strip('/')
        if path.startswith('i') and path[1:].isdigit():
            self.reply('image/png', png(int(path[1:])))
        elif path.isdigit():
            body = (f'<!DOCTYPE html><html><head><meta charset="utf-8">'
                    f'<title>Object {path}</title>'
                    f'<meta name="description" content="Soak page number {path}, one of many">'
                    f'<link rel="icon" href="/i{path}"></head><body><p>{path}</p></body></html>')
            self.reply('text/html; charset=utf-8', body.encode())
        else:
            self.send_response(404)
            self.send_header('Content-Length', '0')
            self.end_headers()

    def reply(self, content_type, data):
        self.send_response(200)
        self.send_header('Content-Type', content_type)
        self.send_header('Content-Length', str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


def eddystone_url_raw(url):
    """Eddystone-URL service data for a short http:// URL."""
    assert url.startswith('http://')
    rest = url[len('http://'):].encode()
    assert len(rest) <= 17, url
    return '10ec02' + rest.hex()


def rss_bytes(pid):
    with open(f'/proc/{pid}/status') as status:
        for line in status:
            if line.startswith('VmRSS:'):
                return int(line.split()[1]) * 1024
    raise AssertionError('no VmRSS')


class PageServer(http.server.ThreadingHTTPServer):
    address_family = socket.AF_INET6
    daemon_threads = True


class SoakTest(NearbyTestCase):
    app_args = ['--developer']
    settings = {
        'privacy-choice-made': 'true',
        'lookup-policy': "'automatic'",
        'expiry-seconds': f'uint32 {EXPIRY_SECONDS}',
        'stale-seconds': 'uint32 3',
    }

    def setUp(self):
        super().setUp()
        # On ::1, since "[::1]:PORT/NNNNN" fits an Eddystone-URL frame (17 bytes after the
        # scheme) where 127.0.0.1 leaves no room for thousands of paths.
        self.server = PageServer(('::1', 0), PageHandler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.addCleanup(self.server.shutdown)
        self.base = f'http://[::1]:{self.server.server_address[1]}'
        minutes = float(os.environ.get('NEARBY_SOAK_MINUTES', '0'))
        wave_length = WAVE_SECONDS + SETTLE_SECONDS
        self.waves = max(2, int(minutes * 60 / wave_length))

    def write_capture(self):
        path = os.path.join(self.tmp, 'churn.jsonl')
        start = 1_700_000_000.0
        lines = []
        for wave in range(self.waves):
            wave_start = 3.0 + wave * (WAVE_SECONDS + SETTLE_SECONDS)
            for i in range(WAVE_OBJECTS):
                n = wave * WAVE_OBJECTS + i
                address = 'C0:%02X:%02X:%02X:00:02' % ((n >> 16) & 255, (n >> 8) & 255, n & 255)
                raw = eddystone_url_raw(f'{self.base}/{n}')
                appears = wave_start + i * WAVE_SECONDS / WAVE_OBJECTS
                for k in range(ADVERT_COUNT):
                    lines.append((appears + k * ADVERT_EVERY, address, -55 - n % 30, raw))
        lines.sort()
        with open(path, 'w') as capture:
            for when, address, rssi, raw in lines:
                stamp = time.strftime('%Y-%m-%dT%H:%M:%S', time.gmtime(start + when))
                millis = int(round((when % 1) * 1000)) % 1000
                capture.write(json.dumps({'time': f'{stamp}.{millis:03d}Z', 'address': address,
                                          'rssi': rssi, 'uuid': 'feaa', 'raw': raw},
                                         separators=(',', ':')) + '\n')
        return path

    def rows(self):
        """Titles of looked-up objects in the list (only the rows on screen exist). Rows come
        and go while this reads them: one that is gone by the time it is asked is skipped."""
        titles = []
        for node in self.find_all(self.window, role=pyatspi.ROLE_LABEL, showing=False):
            try:
                name = node.name
            except Exception:
                continue
            if name and name.startswith('Object '):
                titles.append(name)
        return titles

    def press_control(self, keysym):
        pyatspi.Registry.generateKeyboardEvent(self.KEYCODE_CONTROL_L, None, pyatspi.KEY_PRESS)
        pyatspi.Registry.generateKeyboardEvent(keysym, None, pyatspi.KEY_SYM)
        pyatspi.Registry.generateKeyboardEvent(self.KEYCODE_CONTROL_L, None, pyatspi.KEY_RELEASE)

    def windows(self):
        return [node for node in self.find_all(self.app, role=pyatspi.ROLE_FRAME)]

    def open_and_close(self, keysym, what):
        """Ctrl+KEY opens a window over the main one; Escape closes it again."""
        before = len(self.windows())
        self.give_focus()
        self.press_control(keysym)
        wait_for(lambda: len(self.windows()) > before, what=f'{what} to open')
        self.press_keys('Escape')
        wait_for(lambda: len(self.windows()) == before, what=f'{what} to close')

    def test_memory_comes_back_after_each_wave(self):
        capture = self.write_capture()
        # The pointer away from the window, wherever earlier tests on this display left it: a
        # list under the pointer keeps its objects until the pointer leaves (nothing moves
        # under it), and this test measures the list as nobody touches it.
        pyatspi.Registry.generateMouseEvent(1270, 790, 'abs')
        self.start_app('--replay', capture)
        pid = self.process.pid
        wave_length = WAVE_SECONDS + SETTLE_SECONDS
        started = time.monotonic()
        after_wave = []
        seen_titles = 0
        for wave in range(self.waves):
            middle = started + 3.0 + wave * wave_length + WAVE_SECONDS / 2
            time.sleep(max(0.0, middle - time.monotonic()))
            # In the middle of the wave the list is full of looked-up objects.
            rows = wait_for(self.rows, what='looked-up rows in the middle of a wave')
            seen_titles += len(rows)
            self.open_and_close(0x69, 'Details (Ctrl+I)')
            self.open_and_close(0x2c, 'Preferences (Ctrl+,)')
            # The wave's last objects are heard 4 s after it ends and leave 5 s later; the list
            # is then empty, and the window shows another page, until the next wave starts.
            # While the keyboard focus is on the list (Details and Preferences give it back to
            # the main window), the rows on screen stay, faded, until it leaves, so that nothing
            # moves under it: then only those few are left when the RSS is read.
            next_wave = started + 3.0 + (wave + 1) * wave_length
            try:
                wait_for(lambda: self.current_page() not in (None, 'Nearby objects'),
                         timeout=max(1.0, next_wave - time.monotonic() - 2.0),
                         what='the wave to leave the list')
            except AssertionError:
                sys.stderr.write(f'wave {wave + 1}: the rows on screen stayed (the list has '
                                 f'the focus: {self.describe_focus()})\n')
            # The app gives memory back (malloc_trim) 3 s after the last object has gone.
            time.sleep(4.0)
            after_wave.append(rss_bytes(pid))
            sys.stderr.write(f'wave {wave + 1}: {WAVE_OBJECTS} objects, '
                             f'RSS after it left {after_wave[-1] / 2**20:.1f} MiB\n')
        self.assertGreater(seen_titles, 0)

        first, last = after_wave[0], after_wave[-1]
        objects_since = (self.waves - 1) * WAVE_OBJECTS
        growth = last - first
        sys.stderr.write(f'RSS growth after the first wave: {growth / 2**20:.1f} MiB over '
                         f'{objects_since} objects ({growth / objects_since:.0f} bytes each)\n')
        self.assertLessEqual(last, first * (1 + MARGIN),
                             f'RSS went from {first / 2**20:.1f} to {last / 2**20:.1f} MiB')
        self.assertLessEqual(growth / objects_since, BYTES_PER_OBJECT,
                             'memory grows with the number of objects ever seen')
        if self.waves >= SLOPE_MIN_WAVES:
            slope = least_squares_slope(after_wave[1:]) / WAVE_OBJECTS
            sys.stderr.write(f'RSS trend from the second wave on: {slope:.0f} bytes per object\n')
            self.assertLessEqual(slope, SLOPE_BYTES_PER_OBJECT,
                                 'memory grows wave after wave')

    def test_preferences_memory_comes_back(self):
        # Each Preferences window that was closed and destroyed left about 0.75 MiB behind, once
        # a soak-app wave: most of what the 25-minute run kept (18 MiB over 24 waves).
        pyatspi.Registry.generateMouseEvent(1270, 790, 'abs')
        self.start_app('--demo')
        pid = self.process.pid
        for _ in range(PREFERENCES_WARM_UP):
            self.open_and_close(0x2c, 'Preferences (Ctrl+,)')
        before = rss_bytes(pid)
        for _ in range(PREFERENCES_OPENINGS):
            self.open_and_close(0x2c, 'Preferences (Ctrl+,)')
        after = rss_bytes(pid)
        growth = after - before
        sys.stderr.write(f'Preferences opened and closed {PREFERENCES_OPENINGS} times: RSS '
                         f'{before / 2**20:.1f} to {after / 2**20:.1f} MiB '
                         f'({growth / PREFERENCES_OPENINGS / 1024:.0f} KiB each)\n')
        self.assertLessEqual(growth / PREFERENCES_OPENINGS, PREFERENCES_BYTES_PER_OPENING,
                             'memory grows with each opening of Preferences')


if __name__ == '__main__':
    main()
