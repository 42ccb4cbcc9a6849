#!/usr/bin/python3
"""The list in real radio noise: 25 beacons whose signal jitters by 6 dB (sigma) from advert to
advert, as BLE indoors does, and a person standing still: no row moves for 30 seconds. Then
the person walks up to a beacon at the far end: it comes to the top."""

import math
import string
import time

import pyatspi
from nearbyui import NearbyTestCase, main, serve_titled_pages, wait_for

# One letter a page: "127.0.0.1:PORT/x" fits the 17 bytes of an Eddystone-URL frame.
LETTERS = string.ascii_lowercase[:25]
TITLES = {f'/{letter}': f'Beacon {letter.upper()}' for letter in LETTERS}
SEED = 15
SIGMA_DB = 6.0
RATE_HZ = 5


def rssi_at(metres):
    """The mean RSSI of a beacon calibrated at -20 dBm at 0 m, @metres away (n = 2)."""
    return round(-20 - 41 - 20 * math.log10(metres))


class CalmListTest(NearbyTestCase):
    app_args = ['--developer']

    def setUp(self):
        super().setUp()
        self.base = serve_titled_pages(self, TITLES)
        # Over the list, the pointer would pause the order and hide what this test looks for.
        pyatspi.Registry.generateMouseEvent(1270, 790, 'abs')

    def titles_in_order(self):
        """The titles of the rows on screen, top to bottom."""
        wanted = set(TITLES.values())
        shown = []
        for node in self.find_all(self.window, role=pyatspi.ROLE_LABEL):
            try:
                name = node.name
            except Exception:
                continue
            if name in wanted and name not in shown:
                shown.append(name)
        return shown

    def test_still_among_25_jittering_beacons_then_walk_up(self):
        bluez = self.start_bluez()
        bluez.AddAdapter('hci0', True)
        # From 0.5 m to 15 m; the last one, the farthest, is the one walked up to.
        devices = []
        for i, letter in enumerate(LETTERS):
            metres = 0.5 + i * (15.0 - 0.5) / (len(LETTERS) - 1)
            devices.append(self.add_url_beacon(f'C0:FF:EE:00:01:{i:02X}',
                                               f'{self.base}/{letter}', rssi_at(metres)))
        bluez.JitterRssi('hci0', RATE_HZ, 120000, SIGMA_DB, SEED)
        self.start_app()

        # Every row has its title once its page is looked up; the list then settles.
        wait_for(lambda: 'Beacon A' in self.titles_in_order(), timeout=60,
                 what=f'the nearest beacon listed (have {self.titles_in_order()})')
        time.sleep(10)

        # Standing still for 30 s: the rows on screen keep their order.
        orders = []
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            orders.append(self.titles_in_order())
            time.sleep(1)
        # A row whose title comes late, or that scrolls into view, is no reorder: two rows
        # that swap places are.
        changes = []
        for before, after in zip(orders, orders[1:]):
            kept_before = [title for title in before if title in after]
            kept_after = [title for title in after if title in before]
            if kept_before != kept_after:
                changes.append((kept_before, kept_after))
        self.assertEqual(changes, [], f'{len(changes)} reorders in 30 s among {len(orders)} looks')

        # The person walks up to the farthest beacon, from 15 m to 0.3 m in 8 s: it comes to
        # the top.
        far = devices[-1]
        bluez.WalkRssi(far, rssi_at(0.3), 8000)
        wait_for(lambda: self.titles_in_order()[:1] == [f'Beacon {LETTERS[-1].upper()}'],
                 timeout=30,
                 what=f'the beacon walked up to at the top (have {self.titles_in_order()[:3]})')


if __name__ == '__main__':
    main()
