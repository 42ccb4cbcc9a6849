#!/usr/bin/python3
"""Configure Beacon… in a beacon's Details (developer mode): the dialog reads the beacon of the
mock bluetoothd, the person changes its URL and presses Write, the dialog says what changed, and
the list shows the new page once the beacon broadcasts it."""

import http.server
import threading

import dbus
import pyatspi
from nearbyui import NearbyTestCase, main, name_matches, wait_for

PAGES = {'/a': 'Old Kiosk', '/b': 'New Kiosk'}


class PageHandler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        title = PAGES.get(self.path)
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


class ConfigureBeaconTest(NearbyTestCase):
    app_args = ['--developer']

    def setUp(self):
        super().setUp()
        self.server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), PageHandler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.addCleanup(self.server.shutdown)
        self.host = f'127.0.0.1:{self.server.server_address[1]}'

    def frames_named(self, name):
        return [node for node in self.find_all(self.app, role=pyatspi.ROLE_FRAME)
                if node.name == name]

    def open_configure_dialog(self, **options):
        """A configurable beacon broadcasting /a, its row, its Details, and Configure Beacon….
        Returns the mock bluetoothd, the beacon's path and the dialog."""
        bluez = self.start_bluez()
        bluez.AddAdapter('hci0', True)
        # Slot 0 as written over GATT: frame type 0x10, scheme 0x02 (http://), the rest.
        options['slot0'] = dbus.ByteArray(bytes([0x10, 0x02]) + f'{self.host}/a'.encode())
        path = bluez.AddConfigurableBeacon('hci0', 'C0:FF:EE:00:00:01', options)
        self.start_app()

        row = 'More about Old Kiosk'
        self.wait_find(self.window, name=row, role=pyatspi.ROLE_PUSH_BUTTON,
                       what='the beacon’s row with its page title')
        self.focus_row_button(row)
        self.press_control_i()
        details = wait_for(lambda: next(iter(self.frames_named('Details')), None),
                           what='the Details window')
        self.click(self.wait_find(details, name='Configure Beacon…',
                                  role=pyatspi.ROLE_PUSH_BUTTON, what='Configure Beacon…'))
        dialog = wait_for(lambda: next(iter(self.frames_named('Configure Beacon')), None),
                          what='the Configure Beacon dialog')
        return bluez, path, dialog

    def test_change_the_url_of_a_beacon(self):
        bluez, path, dialog = self.open_configure_dialog()

        # Read when shown: the current URL, and nothing written.
        self.wait_find(dialog, contains='Nothing is written until you press Write',
                       what='the configuration read from the beacon')
        self.assertTrue(any(text == f'http://{self.host}/a' or f'\nhttp://{self.host}/a\n' in text
                            for text in self.texts(dialog)), self.texts(dialog))

        entry = self.wait_find(dialog, role=pyatspi.ROLE_TEXT, what='the URL field')
        entry.queryEditableText().setTextContents(f'http://{self.host}/b')
        self.wait_find(dialog, contains='of 20 bytes', what='the encoded frame and its size')
        self.screenshot('configure-beacon')
        self.assertEqual(bytes(bluez.GetBeaconConfig(path)['slot0'])[3:],
                         f'{self.host}/a'.encode(), 'nothing written before Write')

        self.click(self.find(dialog, name='Write', role=pyatspi.ROLE_PUSH_BUTTON))
        self.wait_find(dialog, contains=f'URL http://{self.host}/a → http://{self.host}/b',
                       what='what changed, as read back')
        self.assertEqual(bytes(bluez.GetBeaconConfig(path)['slot0'])[3:],
                         f'{self.host}/b'.encode())

        # The beacon broadcasts its new URL once let go: the list shows the new page.
        self.wait_find(self.window, name='More about New Kiosk', role=pyatspi.ROLE_PUSH_BUTTON,
                       what='the new page in the list')

    def set_spin(self, dialog, name, value):
        spin = self.wait_find(dialog, name=name, role=pyatspi.ROLE_SPIN_BUTTON, what=name)
        spin.queryValue().currentValue = value
        wait_for(lambda: spin.queryValue().currentValue == value,
                 what=f'“{name}” at {value} (have {spin.queryValue().currentValue})')
        return spin

    def test_change_the_radio_power_and_interval(self):
        bluez, path, dialog = self.open_configure_dialog()
        self.wait_find(dialog, contains='Radio power 0 dBm, every 1000 ms',
                       what='the power and interval read from the beacon')
        config = bluez.GetBeaconConfig(path)
        self.assertEqual((int(config['radio-tx0']), int(config['interval0'])), (0, 1000))

        # -10 dBm is not among this beacon's levels (-12, -8, …): it takes the next one up,
        # and the dialog says what the beacon read back, not what was asked.
        power = self.set_spin(dialog, 'Radio Power (dBm)', -10)
        interval = self.set_spin(dialog, 'Interval (ms)', 500)
        self.assertEqual(int(bluez.GetBeaconConfig(path)['interval0']), 1000,
                         'nothing written before Write')

        self.click(self.find(dialog, name='Write', role=pyatspi.ROLE_PUSH_BUTTON))
        self.wait_find(dialog, contains='radio power 0 → -8 dBm; interval 1000 → 500 ms',
                       what='what changed, as read back')
        self.screenshot('configure-beacon-power-interval')
        config = bluez.GetBeaconConfig(path)
        self.assertEqual((int(config['radio-tx0']), int(config['interval0'])), (-8, 500))
        self.assertEqual(bytes(config['slot0'])[3:], f'{self.host}/a'.encode(),
                         'the URL left as it was')
        # The fields show what the beacon holds now.
        wait_for(lambda: power.queryValue().currentValue == -8,
                 what=f'the power field at -8 (have {power.queryValue().currentValue})')
        self.assertEqual(interval.queryValue().currentValue, 500)

    def test_locked_beacon_and_a_wrong_key(self):
        _, _, dialog = self.open_configure_dialog(locked=True,
                                                  key=dbus.ByteArray(bytes(range(16))))
        self.wait_find(dialog, contains='The beacon is locked: enter its lock key',
                       what='the request for the lock key')

        # The URL field comes first, the lock key's last.
        key = wait_for(lambda: self.find_all(dialog, role=pyatspi.ROLE_TEXT)[1:][-1:],
                       what='the lock key field')[0]
        key.queryEditableText().setTextContents('ff' * 16)
        self.click(self.find(dialog, name='Read Again', role=pyatspi.ROLE_PUSH_BUTTON))
        self.wait_find(dialog, contains='The beacon refused the lock key',
                       what='the wrong key said as a sentence')

        key.queryEditableText().setTextContents(bytes(range(16)).hex())
        self.click(self.find(dialog, name='Read Again', role=pyatspi.ROLE_PUSH_BUTTON))
        self.wait_find(dialog, contains='Nothing is written until you press Write',
                       what='the configuration read with the right key')

    def test_only_a_beacon_that_offers_configuration_has_the_button(self):
        bluez = self.start_bluez()
        bluez.AddAdapter('hci0', True)
        url = f'http://{self.host}/a'
        options = {'slot0': dbus.ByteArray(bytes([0x10, 0x02]) + f'{self.host}/a'.encode())}
        bluez.AddConfigurableBeacon('hci0', 'C0:FF:EE:00:00:01', options)
        # The same page from a beacon that advertises its frame only, no configuration service.
        plain = self.add_url_beacon('C0:FF:EE:00:00:02', url, -60)
        self.start_app()

        row = 'More about Old Kiosk'
        self.wait_find(self.window, name=row, role=pyatspi.ROLE_PUSH_BUTTON,
                       what='the beacons’ row with its page title')
        self.focus_row_button(row)
        self.press_control_i()
        details = wait_for(lambda: next(iter(self.frames_named('Details')), None),
                           what='the Details window')
        self.wait_find(details, name='C0:FF:EE:00:00:02', what='the plain beacon in Details')
        self.wait_find(details, name='C0:FF:EE:00:00:01', what='the configurable one')

        def buttons():
            return [node for node in self.find_all(details, role=pyatspi.ROLE_PUSH_BUTTON)
                    if name_matches(node.name, 'Configure Beacon…')]
        self.assertEqual(len(buttons()), 1, 'one Configure Beacon…, for the configurable beacon')

        # Once the plain beacon advertises the Eddystone configuration service (its
        # configuration mode), its next advert brings the button.
        bluez.UpdateDevice(plain, {'UUIDs': dbus.Array(
            ['0000feaa-0000-1000-8000-00805f9b34fb', 'a3c87500-8ed3-4bdf-8a39-a01bebede295'],
            signature='s', variant_level=1)}, dbus.Array([], signature='s'))
        self.set_rssi(plain, -61)
        wait_for(lambda: len(buttons()) == 2 or None,
                 what='Configure Beacon… for the beacon now in its configuration mode')


if __name__ == '__main__':
    main()
