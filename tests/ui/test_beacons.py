#!/usr/bin/python3
"""Beacons seen by (mock) bluetoothd become rows with their pages' titles, nearest first;
walking changes the order between distance buckets, but radio jitter never does."""

import http.server
import threading
import time

import pyatspi
from nearbyui import NearbyTestCase, main, wait_for

PAGES = {
    '/k': ('Ticket Kiosk', 'Buy a day pass without queueing.'),
    '/m': ('Parking Meter 7', 'Pay by the hour from your phone.'),
    '/s': ('Bus Stop Elm Road', 'Next bus in 4 minutes.'),
}


class PageHandler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
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
        self.assertEqual(focused.name, 'More about Ticket Kiosk')


if __name__ == '__main__':
    main()
