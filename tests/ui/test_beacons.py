#!/usr/bin/python3
"""Beacons seen by (mock) bluetoothd become rows with their pages' titles, nearest first;
walking changes the order between distance buckets, but radio jitter never does."""

import http.server
import os
import socket
import threading
import time
import unittest

import pyatspi
from nearbyui import NearbyTestCase, main, wait_for

PAGES = {
    '/k': ('Ticket Kiosk', 'Buy a day pass without queueing.'),
    '/m': ('Parking Meter 7', 'Pay by the hour from your phone.'),
    '/s': ('Bus Stop Elm Road', 'Next bus in 4 minutes.'),
}

# Pages as they are, from the corpus of real page shapes, and one without any title.
CORPUS = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'data', 'pages')
RAW_PAGES = {
    '/i': os.path.join(CORPUS, 'iframe-in-head.html'),
    '/u': os.path.join(CORPUS, 'js-redirect.html'),
}


class PageHandler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        if self.path in RAW_PAGES:
            with open(RAW_PAGES[self.path], 'rb') as f:
                data = f.read()
            self.send_response(200)
            self.send_header('Content-Type', 'text/html')
            self.send_header('Content-Length', str(len(data)))
            self.end_headers()
            self.wfile.write(data)
            return
        page = PAGES.get(self.path)
        if page is None:
            self.send_response(404)
            self.end_headers()
            return
        body = (f'<!DOCTYPE html><html><head><meta charset="utf-8"><title>{page[0]}</title>'
                f'<meta name="description" content="{page[1]}"></head><body></body></html>')
        data = body.encode()
        self.send_response(200)
        self.send_header('Content-Type', 'text/html; charset=utf-8')
        self.send_header('Content-Length', str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


class BeaconListTest(NearbyTestCase):
    # Developer mode: pages on this computer (the test server) are looked up without asking.
    app_args = ['--developer']

    def setUp(self):
        super().setUp()
        self.server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), PageHandler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.addCleanup(self.server.shutdown)
        # An Eddystone-URL frame carries 17 bytes after the scheme: "127.0.0.1:PORT/x" fits.
        self.base = f'http://127.0.0.1:{self.server.server_address[1]}'

    def titles_in_order(self):
        """Row titles as the list shows them, top to bottom."""
        wanted = {title for title, _ in PAGES.values()}
        shown = []
        for node in self.find_all(self.window):
            name = node.name if node.name else ''
            if name in wanted and name not in shown:
                shown.append(name)
        return shown

    def test_rows_in_distance_order_and_stable_under_jitter(self):
        bluez = self.start_bluez()
        bluez.AddAdapter('hci0', True)
        # Calibrated -20 dBm at 0 m: -55 dBm is ~0.6 m ("Right here"), -75 ~6 m, -90 ~30 m.
        kiosk = self.add_url_beacon('C0:FF:EE:00:00:01', self.base + '/k', -90)
        meter = self.add_url_beacon('C0:FF:EE:00:00:02', self.base + '/m', -55)
        stop = self.add_url_beacon('C0:FF:EE:00:00:03', self.base + '/s', -72)
        self.start_app()

        expected = ['Parking Meter 7', 'Bus Stop Elm Road', 'Ticket Kiosk']
        wait_for(lambda: self.titles_in_order() == expected, timeout=30,
                 what=f'three rows, nearest first (have {self.titles_in_order()})')
        self.screenshot('beacons')

        # Jitter of a few dB inside each bucket, for a while: nothing moves.
        for i in range(12):
            self.set_rssi(meter, -55 + (i % 3))
            self.set_rssi(stop, -72 - (i % 4))
            self.set_rssi(kiosk, -90 + (i % 3))
            wait_for(lambda: True, timeout=0.3)
            self.assertEqual(self.titles_in_order(), expected)

        # The person walks over to the kiosk, over a few seconds: it moves to the top, and the
        # meter left behind drops out of "Right here".
        for step in range(25):
            self.set_rssi(kiosk, max(-90 + 4 * step, -50))
            self.set_rssi(meter, min(-55 - step, -75))
            self.set_rssi(stop, -72)
            time.sleep(0.2)
        wait_for(lambda: self.titles_in_order()[:1] == ['Ticket Kiosk'], timeout=15,
                 what=f'the kiosk first once near (have {self.titles_in_order()})')

    def log_count(self, text):
        self.app_log.flush()
        with open(self.app_log.name) as log:
            return log.read().count(text)

    def test_minimized_window_catches_up_when_shown_again(self):
        """Minimized, the window updates nothing; shown again, it lists what arrived meanwhile,
        with its titles, nearest first."""
        self.env['G_MESSAGES_DEBUG'] = 'nearby-window'
        bluez = self.start_bluez()
        bluez.AddAdapter('hci0', True)
        self.add_url_beacon('C0:FF:EE:00:00:01', self.base + '/k', -90)
        self.start_app()
        wait_for(lambda: self.titles_in_order() == ['Ticket Kiosk'], timeout=30,
                 what=f'the kiosk (have {self.titles_in_order()})')

        name = self.minimize()
        wait_for(lambda: self.log_count('The window is hidden') == 1,
                 what='the app to see its window minimized')
        self.add_url_beacon('C0:FF:EE:00:00:02', self.base + '/m', -55)
        self.add_url_beacon('C0:FF:EE:00:00:03', self.base + '/s', -72)
        # Several ticks pass, and the pages are looked up: the hidden list does not change.
        time.sleep(2)
        self.assertEqual(self.titles_in_order(), ['Ticket Kiosk'])

        shown_before = self.log_count('The window is on screen')
        self.restore(name)
        wait_for(lambda: self.log_count('The window is on screen') > shown_before,
                 what='the app to see its window shown again')
        expected = ['Parking Meter 7', 'Bus Stop Elm Road', 'Ticket Kiosk']
        wait_for(lambda: self.titles_in_order() == expected, timeout=15,
                 what=f'the newcomers, nearest first (have {self.titles_in_order()})')

    def test_keyboard_focus_stays_with_its_object_when_the_list_resorts(self):
        """A row keeps the keyboard focus when its object moves while the window is in the
        background (here behind its Details): back in the window, the person is where they
        were, not at the top of the window."""
        bluez = self.start_bluez()
        bluez.AddAdapter('hci0', True)
        kiosk = self.add_url_beacon('C0:FF:EE:00:00:01', self.base + '/k', -90)
        meter = self.add_url_beacon('C0:FF:EE:00:00:02', self.base + '/m', -55)
        self.add_url_beacon('C0:FF:EE:00:00:03', self.base + '/s', -72)
        self.start_app()
        expected = ['Parking Meter 7', 'Bus Stop Elm Road', 'Ticket Kiosk']
        wait_for(lambda: self.titles_in_order() == expected, timeout=30,
                 what=f'three rows, nearest first (have {self.titles_in_order()})')

        self.focus_row_button('More about Ticket Kiosk')
        self.press_control_i()
        details = self.wait_find(self.app, name='Details', role=pyatspi.ROLE_FRAME,
                                 what='the Details of the kiosk')
        self.give_focus(details)

        # Walking over to the kiosk while reading its details: the list re-sorts behind them.
        for step in range(25):
            self.set_rssi(kiosk, max(-90 + 4 * step, -50))
            self.set_rssi(meter, min(-55 - step, -75))
            time.sleep(0.2)
        wait_for(lambda: self.titles_in_order()[:1] == ['Ticket Kiosk'], timeout=15,
                 what=f'the kiosk first once near (have {self.titles_in_order()})')

        self.press_keys('Escape')
        wait_for(lambda: not self.find(self.app, name='Details', role=pyatspi.ROLE_FRAME),
                 what='Escape to close the Details')
        self.give_focus()
        focused = wait_for(self.focused, what='the keyboard focus back in the window')
        self.assertEqual(self.row_button_in(focused), 'More about Ticket Kiosk')

    def test_titles_of_real_heads(self):
        """A page whose head has an <iframe> before its <title> (libxml2 ends the head there,
        a browser does not) shows its title; a page without any title shows its host and path,
        with the host still below it."""
        bluez = self.start_bluez()
        bluez.AddAdapter('hci0', True)
        self.add_url_beacon('C0:FF:EE:00:00:04', self.base + '/i', -55)
        self.add_url_beacon('C0:FF:EE:00:00:05', self.base + '/u', -72)
        self.start_app()

        self.wait_find(self.window, name='Kiosk 7 – Visitor information',
                       what='the title after the iframe')
        self.wait_find(self.window,
                       name='Maps, opening hours and events for visitors to the old town.',
                       what='the description after the iframe')
        # The untitled page as an object not looked up: its host, its path beneath.
        self.wait_find(self.window, name='/u', role=pyatspi.ROLE_LABEL,
                       what='the untitled page’s path')
        self.assertIsNotNone(self.find(self.window, name='127.0.0.1'), 'the host as its title')
        self.assertIsNone(self.find(self.window, name='127.0.0.1/u'),
                          'the resolver’s host-and-path name, which repeated the host')
        self.assertIsNone(self.find(self.window, name='/i'),
                          'no path under the page with a title')


class IPv6Server(http.server.ThreadingHTTPServer):
    address_family = socket.AF_INET6


class UntitledIPv6PageTest(NearbyTestCase):
    """A page without a title on an IPv6 host is shown as its host without brackets, as the row
    shows it before the look-up ("::1"), with its path beneath: not "[::1]/1140", and no "["
    initial."""
    app_args = ['--developer']

    def setUp(self):
        super().setUp()
        try:
            self.server = IPv6Server(('::1', 0), PageHandler)
        except OSError:
            raise unittest.SkipTest('no IPv6 loopback here')
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.addCleanup(self.server.shutdown)
        self.url = f'http://[::1]:{self.server.server_address[1]}/u'

    def test_untitled_page_on_an_ipv6_host(self):
        bluez = self.start_bluez()
        bluez.AddAdapter('hci0', True)
        self.add_url_beacon('C0:FF:EE:00:00:06', self.url, -55)
        self.start_app()
        self.wait_find(self.window, name='/u', role=pyatspi.ROLE_LABEL, what='the path')
        # Looked up: Details has the page log of the fetch.
        self.open_row_menu('::1')
        self.click(self.wait_find(self.app, name='Details', role=pyatspi.ROLE_MENU_ITEM))
        details = self.wait_find(self.app, name='Details', role=pyatspi.ROLE_FRAME)
        wait_for(lambda: any(text.startswith('HTTP 200') for text in self.texts(details)),
                 what=f'the page looked up (Details shows {self.texts(details)})')

        labels = self.texts(self.window)
        self.assertIn('::1', labels)
        self.assertFalse(any(label.startswith('[') for label in labels),
                         f'no “[::1]…” title and no “[” initial: {labels}')
        self.assertFalse(any(len(label) == 1 for label in labels), f'no initial: {labels}')

        texts = self.texts(details)
        self.assertIn('::1', texts, 'Details headed by the host')
        self.assertIn('/u', texts, 'the path under it')
        self.assertFalse(any(text.startswith('[::1]') for text in texts
                             if not text.startswith('http')), texts)
        self.screenshot('untitled-ipv6-details')


if __name__ == '__main__':
    main()
