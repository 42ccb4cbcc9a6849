#!/usr/bin/python3
"""The list in parts: headings "Right here", "Nearby", "Farther away" (and "Favourites") over
the rows they head, read as headings by screen readers; a beacon walked up to moves to
"Right here"; while the pointer rests on the list the order holds, the window says so, and the
order catches up when the pointer leaves."""

import time

import pyatspi
from nearbyui import NearbyTestCase, main, serve_titled_pages, wait_for

PAGES = {
    '/k': 'Ticket Kiosk',
    '/m': 'Parking Meter 7',
    '/s': 'Bus Stop Elm Road',
}
HEADINGS = ['Favourites', 'Right here', 'Nearby', 'Farther away', 'Distance unknown']
PAUSED = 'Order paused while you point at the list'
PAUSED_FOCUS = 'Order paused while you move through the list'


class SectionsTest(NearbyTestCase):
    # Developer mode: pages on this computer (the test server) are looked up without asking.
    app_args = ['--developer']

    def setUp(self):
        super().setUp()
        self.base = serve_titled_pages(self, PAGES)
        self.install_fake_browser()
        # The pointer starts away from the window: over the list it would pause the order.
        self.pointer_away()

    def pointer_away(self):
        pyatspi.Registry.generateMouseEvent(1270, 790, 'abs')

    def pointer_on(self, node):
        extents = node.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
        pyatspi.Registry.generateMouseEvent(extents.x + extents.width // 2,
                                            extents.y + extents.height // 2, 'abs')

    def reading(self):
        """The list as a screen reader reads it, top to bottom: ('heading', name) for each
        heading, ('row', title) for each row's title."""
        read = []
        titles = set(PAGES.values())
        for node in self.find_all(self.window):
            try:
                role, name = node.getRole(), node.name
            except Exception:
                continue
            if role == pyatspi.ROLE_HEADING:
                read.append(('heading', name))
            elif role == pyatspi.ROLE_LABEL and name in titles:
                read.append(('row', name))
        return read

    def row_item(self, title):
        """The list item of the row titled @title (its name starts with the title)."""
        return next(item for item in self.find_all(self.window, role=pyatspi.ROLE_LIST_ITEM)
                    if (item.name or '').startswith(f'{title}, '))

    def sections(self):
        """Each row's title with the heading it is under, in the list's order."""
        under = []
        heading = None
        for kind, name in self.reading():
            if kind == 'heading':
                heading = name
            else:
                under.append((heading, name))
        return under

    def start_three(self):
        bluez = self.start_bluez()
        bluez.AddAdapter('hci0', True)
        # Calibrated -20 dBm at 0 m: -55 dBm is ~0.6 m ("Right here"), -72 ~4 m, -90 ~30 m.
        self.kiosk = self.add_url_beacon('C0:FF:EE:00:00:01', self.base + '/k', -90)
        self.meter = self.add_url_beacon('C0:FF:EE:00:00:02', self.base + '/m', -55)
        self.stop = self.add_url_beacon('C0:FF:EE:00:00:03', self.base + '/s', -72)
        self.start_app()

    def walk_up_to_kiosk(self):
        # From -90 dBm to -50 (about 0.3 m) in 2 s, then standing there for 2 s: the kiosk
        # advertises only when the test sets its signal, and the list moves a row on several
        # adverts at its new level (a jump to -50 from the first step was no walk).
        for step in range(20):
            self.set_rssi(self.kiosk, min(-90 + 4 * step, -50))
            self.set_rssi(self.meter, -55)
            self.set_rssi(self.stop, -72)
            time.sleep(0.2)

    def test_headings_over_their_rows(self):
        self.start_three()
        expected = [('heading', 'Right here'), ('row', 'Parking Meter 7'),
                    ('heading', 'Nearby'), ('row', 'Bus Stop Elm Road'),
                    ('heading', 'Farther away'), ('row', 'Ticket Kiosk')]
        wait_for(lambda: self.reading() == expected, timeout=30,
                 what=f'three rows under their headings (have {self.reading()})')
        self.screenshot('sections')

        # Headings are read as headings.
        for heading in self.find_all(self.window, role=pyatspi.ROLE_HEADING):
            self.assertIn(heading.name, HEADINGS)

        # A row under its heading does not show the heading's words again ("Nearby" under
        # "Nearby"); a screen reader still hears them with the row's name.
        for title, distance in (('Parking Meter 7', 'Right here'),
                                ('Bus Stop Elm Road', 'Nearby'),
                                ('Ticket Kiosk', 'Farther away')):
            row = self.row_item(title)
            self.assertNotIn(distance, self.texts(row), f'{title} shows {self.texts(row)}')
            self.assertIn(f', {distance}, ', row.name)

        # The kiosk is walked up to: it leaves "Farther away", and its heading with it.
        self.walk_up_to_kiosk()
        wait_for(lambda: ('Right here', 'Ticket Kiosk') in self.sections(), timeout=15,
                 what=f'the kiosk under “Right here” (have {self.sections()})')
        self.assertEqual(sorted(self.sections()),
                         sorted([('Right here', 'Ticket Kiosk'),
                                 ('Right here', 'Parking Meter 7'),
                                 ('Nearby', 'Bus Stop Elm Road')]))
        self.assertNotIn(('heading', 'Farther away'), self.reading())

        # A favourite heads the list under a heading of its own.
        self.open_row_menu('Bus Stop Elm Road')
        self.click(self.wait_find(name='Add to Favourites', role=pyatspi.ROLE_MENU_ITEM))
        # The focus is back on the row's menu button, put there by a menu used with the pointer:
        # that holds the order only while the pointer is on the list (focus the person moves
        # with the keyboard holds it too; the window's own at start does not).
        wait_for(lambda: self.find(self.app, role=pyatspi.ROLE_MENU_ITEM) is None,
                 what='the menu to close')
        for _ in range(10):
            if self.find(self.window, role=pyatspi.ROLE_STATUS_BAR) is None:
                break
            self.give_focus()
            self.press_tab()
            time.sleep(0.5)
        wait_for(lambda: self.sections()[:1] == [('Favourites', 'Bus Stop Elm Road')], timeout=15,
                 what=f'the bus stop first, under “Favourites” (have {self.sections()}, '
                      f'{self.texts(self.window, role=pyatspi.ROLE_STATUS_BAR)}, '
                      f'focus on {self.describe_focus()})')
        # Among favourites the distance is news: the row says it.
        wait_for(lambda: 'Nearby' in self.texts(self.row_item('Bus Stop Elm Road')),
                 what=f'the favourite to say “Nearby” (shows '
                      f'{self.texts(self.row_item("Bus Stop Elm Road"))})')

        # A heading opens nothing when clicked.
        self.mouse_click(self.find(self.window, name='Right here', role=pyatspi.ROLE_HEADING))
        time.sleep(1)
        self.assertEqual(self.opened_urls(), [])

    def test_order_paused_while_pointing(self):
        self.start_three()
        expected = [('Right here', 'Parking Meter 7'), ('Nearby', 'Bus Stop Elm Road'),
                    ('Farther away', 'Ticket Kiosk')]
        wait_for(lambda: self.sections() == expected, timeout=30,
                 what=f'three rows under their headings (have {self.sections()})')
        self.assertIsNone(self.find(self.window, name=PAUSED))

        # The pointer rests on the bus stop's row: the window says the order holds...
        self.pointer_on(self.wait_find(self.window, name='Bus Stop Elm Road',
                                       role=pyatspi.ROLE_LABEL))
        paused = self.wait_find(self.window, name=PAUSED, what='the paused notice')
        self.assertEqual(paused.getRole(), pyatspi.ROLE_STATUS_BAR)
        self.screenshot('sections-paused')

        # ...and holds it while the kiosk is walked up to.
        self.walk_up_to_kiosk()
        time.sleep(2)
        self.assertEqual(self.sections(), expected)

        # The pointer leaves: the notice goes, and the kiosk takes its place right here.
        self.pointer_away()
        wait_for(lambda: self.find(self.window, name=PAUSED) is None, timeout=10,
                 what='the paused notice to go')
        wait_for(lambda: ('Right here', 'Ticket Kiosk') in self.sections(), timeout=15,
                 what=f'the kiosk under “Right here” (have {self.sections()})')


class PausedBoundTest(SectionsTest):
    """A pointer that rests on the list does not keep what has gone for ever."""
    settings = {'stale-seconds': '3', 'expiry-seconds': '5'}

    # The tests of the base class run with the default timeouts there, not here again.
    test_headings_over_their_rows = None
    test_order_paused_while_pointing = None

    def test_gone_object_leaves_a_paused_list(self):
        self.start_three()
        wait_for(lambda: len(self.sections()) == 3, timeout=30,
                 what=f'three rows (have {self.sections()})')
        self.pointer_on(self.wait_find(self.window, name='Parking Meter 7',
                                       role=pyatspi.ROLE_LABEL))
        self.wait_find(self.window, name=PAUSED, what='the paused notice')

        # The kiosk goes; the others are still heard. Paused, the kiosk's row stays a while
        # (5 s to expire, then at most another 5 s), then leaves all the same.
        self.bluez.RemoveBeacon(self.kiosk)
        deadline = time.monotonic() + 40
        while ('Farther away', 'Ticket Kiosk') in self.sections():
            self.assertLess(time.monotonic(), deadline, 'the kiosk never leaves the paused list')
            self.set_rssi(self.meter, -55)
            self.set_rssi(self.stop, -72)
            time.sleep(0.5)
        self.assertIsNotNone(self.find(self.window, name=PAUSED), 'the list was not paused')
        self.assertEqual(self.sections(), [('Right here', 'Parking Meter 7'),
                                           ('Nearby', 'Bus Stop Elm Road')])


if __name__ == '__main__':
    main()
