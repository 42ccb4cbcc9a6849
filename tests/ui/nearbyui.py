"""Drives the real Nearby window through AT-SPI, as assistive technology would.

Each test script runs inside its own `dbus-run-session` (so AT-SPI has a private bus) under the
Xvfb display that build-aux/test provides. Nothing here touches the user's files: HOME, the XDG
directories and GSettings (a keyfile backend the test can pre-seed) live in a temporary folder.
"""

import http.server
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import unittest

import dbus
import gi
gi.require_version('Atspi', '2.0')
from gi.repository import Atspi  # noqa: E402
import pyatspi  # noqa: E402
import xfocus  # noqa: E402

TIMEOUT = 20.0
NARROWEST = 360  # the window's width-request: as narrow as a phone
# What `nearby --demo` lists once its pages are looked up: five objects, all on 127.0.0.1.
DEMO_TITLES = [
    'Stop 14 · Market Street',
    'Parking Meter B-2031',
    'Bluebird Café',
    'The Antikythera Mechanism · Gallery 3',
    'Snack Machine · Level 2',
]


class AppExited(AssertionError):
    """The app is gone: waiting longer cannot help."""


def wait_for(predicate, timeout=TIMEOUT, what='condition'):
    """Polls predicate until it returns a true value; fails the test after timeout seconds."""
    deadline = time.monotonic() + timeout
    last_error = None
    while time.monotonic() < deadline:
        try:
            value = predicate()
            if value:
                return value
        except AppExited:
            raise
        except Exception as error:  # the tree changes under us while the app updates
            last_error = error
        time.sleep(0.1)
    raise AssertionError(f'timed out waiting for {what}' + (f' ({last_error})' if last_error else ''))


def walk(node, depth=0, max_depth=40):
    if node is None or depth > max_depth:
        return
    yield node
    try:
        count = node.childCount
    except Exception:
        return
    for i in range(count):
        try:
            child = node.getChildAtIndex(i)
        except Exception:
            continue
        yield from walk(child, depth + 1, max_depth)


def is_showing(node):
    """GTK 4.8 sets no SHOWING state below the window; unmapped widgets have empty extents."""
    try:
        extents = node.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
        return extents.width > 0 and extents.height > 0
    except Exception:
        return False


def name_matches(node_name, wanted):
    """GTK 4.8 names a button with a mnemonic "_Label Label": accept that form too."""
    if node_name is None:
        return False
    if node_name == wanted:
        return True
    plain = node_name.replace('_', '')
    return plain == wanted or plain == f'{wanted} {wanted}'


class TitledPageHandler(http.server.BaseHTTPRequestHandler):
    """Serves a page with just a title at each path of `titles`; 404 elsewhere. Every path asked
    for is written down in `requested`."""
    titles = {}
    requested = None

    def do_GET(self):
        if self.requested is not None:
            self.requested.append(self.path)
        title = self.titles.get(self.path)
        if title is None:
            self.send_response(404)
            self.end_headers()
            return
        data = (f'<!DOCTYPE html><html><head><meta charset="utf-8"><title>{title}</title>'
                '</head><body></body></html>').encode()
        self.send_response(200)
        self.send_header('Content-Type', 'text/html; charset=utf-8')
        self.send_header('Content-Length', str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


def serve_titled_pages(testcase, titles):
    """A web server on 127.0.0.1 for the length of @testcase whose page at each path of @titles
    has that title. Returns its base URL; "http://127.0.0.1:PORT/x" fits an Eddystone-URL frame
    (17 bytes after the scheme) for one-letter paths. The paths asked for are in the test case's
    `page_requests`."""
    testcase.page_requests = []
    handler = type('Pages', (TitledPageHandler,), {'titles': dict(titles),
                                                   'requested': testcase.page_requests})
    server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    testcase.addCleanup(server.shutdown)
    return f'http://127.0.0.1:{server.server_address[1]}'


class NearbyTestCase(unittest.TestCase):
    app_args = []
    settings = {}

    @classmethod
    def setUpClass(cls):
        cls.binary = os.environ.get('NEARBY_BINARY')
        if not cls.binary or not os.path.exists(cls.binary):
            raise unittest.SkipTest('NEARBY_BINARY is not built')
        if not os.environ.get('DISPLAY'):
            raise AssertionError('UI tests need an X display (build-aux/test runs them under Xvfb)')

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix='nearby-ui-')
        self.screenshot_dir = os.environ.get('NEARBY_SCREENSHOT_DIR',
                                             os.path.join(self.tmp, 'screenshots'))
        os.makedirs(self.screenshot_dir, exist_ok=True)
        self.env = dict(os.environ)
        for name in ('config', 'data', 'cache', 'state'):
            os.makedirs(os.path.join(self.tmp, name), exist_ok=True)
        self.env.update({
            'HOME': self.tmp,
            'XDG_CONFIG_HOME': os.path.join(self.tmp, 'config'),
            'XDG_DATA_HOME': os.path.join(self.tmp, 'data'),
            'XDG_CACHE_HOME': os.path.join(self.tmp, 'cache'),
            'XDG_STATE_HOME': os.path.join(self.tmp, 'state'),
            'GSETTINGS_BACKEND': 'keyfile',
            'GSK_RENDERER': 'cairo',
            'GDK_BACKEND': 'x11',
            'LC_ALL': 'C.UTF-8',
            'LANGUAGE': '',
        })
        self.env.pop('NO_AT_BRIDGE', None)
        self.env.pop('GTK_A11Y', None)
        self.write_settings(self.settings)
        self.process = None
        self.bluez_process = None
        self.start_system_bus()

    def tearDown(self):
        if getattr(self, 'app_log', None) is not None:
            self.app_log.seek(0)
            sys.stderr.write(self.app_log.read())
            self.app_log.close()
        for process in (self.process, self.bluez_process, self.system_bus):
            if process is not None and process.poll() is None:
                process.terminate()
                try:
                    process.wait(10)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
        shutil.rmtree(self.tmp, ignore_errors=True)

    def start_system_bus(self):
        """A private bus stands in for the system bus: the app never sees the real bluetoothd."""
        self.system_bus = subprocess.Popen(['dbus-daemon', '--session', '--nofork',
                                            '--print-address=1'],
                                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.system_bus_address = self.system_bus.stdout.readline().decode().strip()
        self.env['DBUS_SYSTEM_BUS_ADDRESS'] = self.system_bus_address

    def start_bluez(self):
        """The project's mock bluetoothd (tests/bluez_nearby.py) on the private system bus."""
        template = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'bluez_nearby.py')
        env = dict(os.environ, DBUS_SYSTEM_BUS_ADDRESS=self.system_bus_address)
        self.bluez_process = subprocess.Popen(
            ['/usr/bin/python3', '-m', 'dbusmock', '--system', '--template', template],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        bus = dbus.bus.BusConnection(self.system_bus_address)
        wait_for(lambda: bus.name_has_owner('org.bluez'), what='the mock bluetoothd')
        self.bluez = dbus.Interface(bus.get_object('org.bluez', '/'), 'org.bluez.Mock')
        self.bluez_bus = bus
        return self.bluez

    def adapter_powered(self, name='hci0'):
        adapter = self.bluez_bus.get_object('org.bluez', f'/org/bluez/{name}')
        return bool(adapter.Get('org.bluez.Adapter1', 'Powered',
                                dbus_interface='org.freedesktop.DBus.Properties'))

    @staticmethod
    def eddystone_url(url, tx_power=-20):
        """Service data of an Eddystone-URL frame for a plain http:// or https:// URL."""
        schemes = [('http://www.', 0), ('https://www.', 1), ('http://', 2), ('https://', 3)]
        for prefix, code in schemes:
            if url.startswith(prefix):
                body = url[len(prefix):].encode('ascii')
                return bytes([0x10, tx_power & 0xff, code]) + body
        raise ValueError(url)

    def add_url_beacon(self, address, url, rssi, adapter='hci0'):
        service_data = dbus.Dictionary({
            '0000feaa-0000-1000-8000-00805f9b34fb':
                dbus.Array(self.eddystone_url(url), signature='y', variant_level=1),
        }, signature='sv', variant_level=1)
        return self.bluez.AddBeacon(adapter, address, {
            'ServiceData': service_data,
            'RSSI': dbus.Int16(rssi, variant_level=1),
        })

    def add_uribeacon(self, address, url, rssi, invisible=False, adapter='hci0'):
        """A UriBeacon, whose flags can ask browsers not to list it (the invisible hint)."""
        frame = self.eddystone_url(url)
        data = bytes([0x01 if invisible else 0x00]) + frame[1:]
        service_data = dbus.Dictionary({
            '0000fed8-0000-1000-8000-00805f9b34fb':
                dbus.Array(data, signature='y', variant_level=1),
        }, signature='sv', variant_level=1)
        return self.bluez.AddBeacon(adapter, address, {
            'ServiceData': service_data,
            'RSSI': dbus.Int16(rssi, variant_level=1),
        })

    def set_rssi(self, device_path, rssi):
        self.bluez.UpdateDevice(device_path, {'RSSI': dbus.Int16(rssi, variant_level=1)},
                                dbus.Array([], signature='s'))

    def install_fake_browser(self):
        """A web browser that only writes down the URLs it is asked to open."""
        self.opened_log = os.path.join(self.tmp, 'opened-urls')
        script = os.path.join(self.tmp, 'fake-browser')
        with open(script, 'w') as f:
            f.write(f'#!/bin/sh\nprintf "%s\\n" "$1" >> {self.opened_log}\n')
        os.chmod(script, 0o755)
        apps = os.path.join(self.tmp, 'data', 'applications')
        os.makedirs(apps, exist_ok=True)
        with open(os.path.join(apps, 'fake-browser.desktop'), 'w') as f:
            f.write('[Desktop Entry]\nType=Application\nName=Fake Browser\n'
                    f'Exec={script} %u\n'
                    'MimeType=x-scheme-handler/http;x-scheme-handler/https;text/html;\n')
        with open(os.path.join(self.tmp, 'config', 'mimeapps.list'), 'w') as f:
            f.write('[Default Applications]\n'
                    'x-scheme-handler/http=fake-browser.desktop\n'
                    'x-scheme-handler/https=fake-browser.desktop\n')

    def opened_urls(self):
        try:
            with open(self.opened_log) as f:
                return [line.strip() for line in f if line.strip()]
        except FileNotFoundError:
            return []

    def watch_notifications(self):
        """Records every notification request on the session bus (there must be none)."""
        self.notification_log = os.path.join(self.tmp, 'notifications')
        self.monitor = subprocess.Popen(
            ['dbus-monitor', '--session',
             "interface='org.freedesktop.Notifications'",
             "interface='org.gtk.Notifications'",
             "interface='org.freedesktop.portal.Notification'"],
            stdout=open(self.notification_log, 'w'), stderr=subprocess.DEVNULL)
        self.addCleanup(self.monitor.terminate)

    def notifications_sent(self):
        with open(self.notification_log) as f:
            return [line for line in f
                    if line.startswith('method call') and 'Notification' in line]

    def history_folder(self):
        """Where the app under test keeps its history: its profile's folder in XDG_DATA_HOME."""
        return os.path.join(self.tmp, 'data', os.environ['NEARBY_USER_DATA_DIR_NAME'])

    def history_visits(self):
        import sqlite3
        path = os.path.join(self.history_folder(), 'history.db')
        if not os.path.exists(path):
            return []
        connection = sqlite3.connect(f'file:{path}?mode=ro', uri=True)
        try:
            return connection.execute('SELECT url, visit_count FROM visits').fetchall()
        except sqlite3.Error:
            return []
        finally:
            connection.close()

    def write_settings(self, values):
        """Pre-seeds GSettings through the keyfile backend, as if the user had chosen them."""
        folder = os.path.join(self.tmp, 'config', 'glib-2.0', 'settings')
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, 'keyfile'), 'w') as keyfile:
            # The keyfile backend names a schema's group by its path without the slashes around.
            keyfile.write(f"[{os.environ['NEARBY_APP_ID'].replace('.', '/')}]\n")
            for key, value in values.items():
                keyfile.write(f'{key}={value}\n')

    def start_app(self, *args):
        # On a busy machine the first X connection of a fresh Xvfb is sometimes refused
        # ("cannot open display"); that is the test display, not the app, so try again.
        for attempt in range(3):
            log_path = os.path.join(self.tmp, f'app-{attempt}.log')
            self.app_log = open(log_path, 'w+')
            self.process = subprocess.Popen([self.binary, *self.app_args, *args], env=self.env,
                                            stdout=self.app_log, stderr=subprocess.STDOUT)
            try:
                self.app = wait_for(self.find_app, what='the app on the accessibility bus')
                break
            except AssertionError:
                self.app_log.seek(0)
                output = self.app_log.read()
                sys.stderr.write(output)
                if 'cannot open display' not in output or attempt == 2:
                    raise
                time.sleep(1)
        self.window = wait_for(lambda: self.find(self.app, role=pyatspi.ROLE_FRAME),
                               what='the main window')
        return self.app

    def find_app(self):
        # By process, not only by name: the app of the previous test can still be listed on the
        # accessibility bus for a moment after it exited, with its last page and no focus.
        desktop = pyatspi.Registry.getDesktop(0)
        for i in range(desktop.childCount):
            app = desktop.getChildAtIndex(i)
            if app is not None and app.name == 'nearby' and self.is_our_process(app):
                if self.process.poll() is not None:
                    raise AppExited(f'nearby exited with {self.process.returncode}')
                return app
        if self.process.poll() is not None:
            raise AppExited(f'nearby exited with {self.process.returncode}')
        return None

    def is_our_process(self, app):
        try:
            return app.get_process_id() == self.process.pid
        except Exception:
            return False

    def find(self, root, name=None, role=None, showing=True, contains=None):
        for node in walk(root):
            try:
                if role is not None and node.getRole() != role:
                    continue
                if name is not None and not name_matches(node.name, name):
                    continue
                if contains is not None and contains not in (node.name or ''):
                    continue
            except Exception:
                continue
            if showing and not is_showing(node):
                continue
            return node
        return None

    def find_all(self, root, role=None, showing=True):
        found = []
        for node in walk(root):
            try:
                if role is not None and node.getRole() != role:
                    continue
            except Exception:
                continue
            if showing and not is_showing(node):
                continue
            found.append(node)
        return found

    def wait_find(self, root=None, what=None, **kwargs):
        root = root or self.app
        try:
            return wait_for(lambda: self.find(root, **kwargs), what=what or repr(kwargs))
        except AssertionError as error:
            # What the window showed when the wait gave up, for whoever reads the failure
            path = self.screenshot(f'timed-out-{self.id()}')
            raise AssertionError(f'{error}; the screen then: {path}') from None

    def current_page(self):
        """The title of what the content area shows (the window names it for screen readers)."""
        for node in walk(self.window):
            try:
                if node.description == 'What Nearby shows':
                    return node.name
            except Exception:
                continue
        return None

    def wait_page(self, title):
        wait_for(lambda: self.current_page() == title,
                 what=f'the page “{title}” (showing “{self.current_page()}”)')

    def texts(self, root=None, role=pyatspi.ROLE_LABEL):
        names = []
        for node in self.find_all(root or self.app, role=role):
            # A row that goes while the tree is read (the list changes under the walk) is
            # skipped, not an error.
            try:
                name = node.name
            except Exception:
                continue
            if name:
                names.append(name)
        return names

    def click(self, node):
        """Activates a widget by its default action, as a screen reader user would."""
        action = node.queryAction()
        if action.nActions == 0:
            # A GtkMenuButton's accessible wraps the button that carries the action.
            for child in walk(node):
                if child is not node and child.queryAction().nActions > 0:
                    return self.click(child)
            raise AssertionError(f'{node.name} cannot be activated')
        for i in range(action.nActions):
            if action.getName(i) in ('click', 'activate', 'press'):
                action.doAction(i)
                return
        action.doAction(0)

    KEYCODE_SHIFT_L = 50
    KEYCODE_CONTROL_L = 37
    KEYSYMS = {'Return': 0xff0d, 'Escape': 0xff1b, 'Tab': 0xff09, 'Up': 0xff52, 'Down': 0xff54,
               'Left': 0xff51, 'Right': 0xff53, 'space': 0x20, 'F10': 0xffc7}

    def press_keys(self, *names):
        """Synthesizes key presses through XTest, as a keyboard would."""
        for name in names:
            pyatspi.Registry.generateKeyboardEvent(self.KEYSYMS[name], None, pyatspi.KEY_SYM)
            time.sleep(0.15)

    def mouse_click(self, node):
        """A real pointer click. GTK 4.8 reports no screen coordinates, but without a window
        manager the window sits at the origin of the Xvfb screen, so window coordinates do."""
        extents = node.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
        x = extents.x + extents.width // 2
        y = extents.y + extents.height // 2
        pyatspi.Registry.generateMouseEvent(x, y, 'b1c')

    def click_row_label(self, name, what=None):
        """A real pointer click on the row label @name in the main window. The pointer rests on
        it first and the click waits for the window to say the order is paused: a row can move
        as the list reorders, and a click the moment it moves opens the object now in its place."""
        label = self.wait_find(self.window, name=name, role=pyatspi.ROLE_LABEL, what=what)
        extents = label.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
        pyatspi.Registry.generateMouseEvent(extents.x + extents.width // 2,
                                            extents.y + extents.height // 2, 'abs')
        self.wait_find(self.window, name='Order paused while you point at the list',
                       what='the order paused under the pointer')
        self.mouse_click(self.wait_find(self.window, name=name, role=pyatspi.ROLE_LABEL,
                                        what=what))

    def pointer_click(self, node, window):
        """A real pointer click on @node in the toplevel @window, wherever X placed that window."""
        origin = wait_for(lambda: xfocus.toplevel_origin(self.process.pid, window.name),
                          what=f'the window “{window.name}” on the screen')
        extents = node.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
        x = origin[0] + extents.x + extents.width // 2
        y = origin[1] + extents.y + extents.height // 2
        pyatspi.Registry.generateMouseEvent(x, y, 'b1c')

    def pointer_to(self, node, window=None):
        """Moves the pointer over @node (in the main window by default) and leaves it there."""
        window = window or self.window
        origin = xfocus.toplevel_origin(self.process.pid, window.name) or (0, 0)
        extents = node.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
        pyatspi.Registry.generateMouseEvent(origin[0] + extents.x + extents.width // 2,
                                            origin[1] + extents.y + extents.height // 2, 'abs')

    def give_focus(self, window=None):
        """Gives @window (the main window by default) the keyboard focus, as a window manager
        would (see xfocus.py), and waits until GTK reports it active."""
        window = window or self.window

        def active():
            if window.getState().contains(pyatspi.STATE_ACTIVE):
                return True
            xfocus.focus_toplevel(self.process.pid, window.name)
            return False
        wait_for(active, what=f'the window “{window.name}” to have the keyboard focus')

    def minimize(self, window=None):
        """Minimizes @window (the main window by default) as an X window manager would."""
        window = window or self.window
        name = window.name
        self.assertTrue(xfocus.minimize_toplevel(self.process.pid, name), f'no window “{name}”')
        return name

    def restore(self, name):
        """Shows a window minimized by minimize() again."""
        self.assertTrue(xfocus.restore_toplevel(self.process.pid, name), f'no window “{name}”')

    def row_button_in(self, node):
        """The name of the row button (“More about …”) inside @node, a focused list item."""
        if node is None:
            return None
        for child in walk(node):
            try:
                if (child.name or '').startswith('More about '):
                    return child.name
            except Exception:
                continue
        return None

    def focus_row_button(self, name):
        """Moves the keyboard focus to the row whose button is called @name, and returns the
        focused list item. The list is one Tab stop: Tab until the focus is in it, then the
        arrows, down first and up once the last row is reached."""
        for _ in range(10):
            self.give_focus()
            focused = self.focused()
            if self.in_list(focused):
                break
            self.press_tab()
            # A key pressed before the window has the keyboard focus is lost: press again.
            try:
                wait_for(lambda: self.in_list(self.focused()), timeout=3,
                         what='Tab into the list')
                break
            except AssertionError:
                continue
        else:
            raise AssertionError(f'Tab never reaches the list; focus is on {self.describe_focus()}')

        key = 'Down'
        for _ in range(60):
            focused = self.focused()
            current = self.row_button_in(focused)
            if current == name:
                return focused
            self.give_focus()
            self.press_keys(key)
            try:
                wait_for(lambda: self.row_button_in(self.focused()) != current, timeout=2,
                         what='the arrow to move the focus')
            except AssertionError:
                key = 'Up' if key == 'Down' else 'Down'
        raise AssertionError(f'the arrows never reach “{name}”; focus is on {self.describe_focus()}')

    def in_list(self, node):
        """Whether @node, the focused node, is an item of the list: a row or a heading."""
        return self.row_button_in(node) is not None or self.is_heading(node)

    @staticmethod
    def is_heading(node):
        """A heading of the list (its item takes the focus, so that the keys pass through)."""
        try:
            return node.getRole() == pyatspi.ROLE_HEADING or any(
                child.getRole() == pyatspi.ROLE_HEADING for child in node)
        except Exception:
            return False

    def press_tab(self, backwards=False):
        if backwards:
            pyatspi.Registry.generateKeyboardEvent(self.KEYCODE_SHIFT_L, None, pyatspi.KEY_PRESS)
        pyatspi.Registry.generateKeyboardEvent(self.KEYSYMS['Tab'], None, pyatspi.KEY_SYM)
        if backwards:
            pyatspi.Registry.generateKeyboardEvent(self.KEYCODE_SHIFT_L, None, pyatspi.KEY_RELEASE)

    def press_control_i(self):
        """Ctrl+I: in developer mode, the Details of the focused row's object."""
        self.press_control('i')

    def press_control(self, letter):
        """Ctrl and a letter (Ctrl+W, Ctrl+R), in the window that has the keyboard focus."""
        pyatspi.Registry.generateKeyboardEvent(self.KEYCODE_CONTROL_L, None, pyatspi.KEY_PRESS)
        pyatspi.Registry.generateKeyboardEvent(ord(letter), None, pyatspi.KEY_SYM)
        pyatspi.Registry.generateKeyboardEvent(self.KEYCODE_CONTROL_L, None, pyatspi.KEY_RELEASE)

    def describe_focus(self):
        """Where the keyboard focus is in the whole app, for a failure message."""
        for node in walk(self.app):
            try:
                if node.getState().contains(pyatspi.STATE_FOCUSED):
                    return f'{node.getRoleName()} “{node.name}”'
            except Exception:
                continue
        return 'nothing in the app'

    def demo_row_titles(self):
        """The demo's titles the window shows, in DEMO_TITLES' order."""
        shown = set(self.texts(self.window))
        return [title for title in DEMO_TITLES if title in shown]

    def wait_for_every_demo_row(self):
        """The demo adds its objects over a few seconds: a row menu opened before the last one
        is there counts, and hides, fewer objects than the test means."""
        wait_for(lambda: len(self.demo_row_titles()) == len(DEMO_TITLES), timeout=30,
                 what=f'every demo object with its title (have {self.demo_row_titles()})')

    def open_row_menu(self, title):
        """Opens the row's ⋮ menu and waits until its items are on the accessibility bus. A click
        that lands while the list reorders (the row then stands for another object) is made
        again on the button that now names the object."""
        for attempt in range(3):
            self.click(self.wait_find(self.window, name=f'More about {title}',
                                      role=pyatspi.ROLE_PUSH_BUTTON))
            try:
                wait_for(lambda: self.find(self.app, role=pyatspi.ROLE_MENU_ITEM), timeout=5,
                         what=f'the menu of “{title}”')
                return
            except AssertionError:
                if attempt == 2:
                    raise

    def focused(self):
        for node in walk(self.window):
            try:
                if node.getState().contains(pyatspi.STATE_FOCUSED):
                    return node
            except Exception:
                continue
        return None

    def window_extents(self):
        """The main window's size, as the accessibility bus reports it."""
        return self.window.queryComponent().getExtents(pyatspi.WINDOW_COORDS)

    def assert_labels_inside_window(self):
        window = self.window_extents()
        for label in self.find_all(self.window, role=pyatspi.ROLE_LABEL):
            extents = label.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
            self.assertLessEqual(extents.x + extents.width, window.width + 1,
                                 f'“{label.name}” runs past the window')
            self.assertGreaterEqual(extents.x, -1, f'“{label.name}” starts outside the window')

    def screenshot(self, name):
        """Saves what the user would see, for people to look at (not compared)."""
        time.sleep(0.6)  # let the page's crossfade finish
        path = os.path.join(self.screenshot_dir, f'{name}.png')
        result = subprocess.run(['import', '-window', 'root', path],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return path if result.returncode == 0 else None


def main():
    unittest.main(verbosity=2)
