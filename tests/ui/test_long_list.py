#!/usr/bin/python3
"""A long list: 500 objects. GtkListView 4.8 keeps at most 200 rows and a row makes what it shows
only while it is on screen, so a row far down the list could come up empty or showing another
object. With the keyboard in the list (its order then holds), End, Page Down and Home land on
rows that show and speak their own object, and Enter on a far row opens that object."""

import re
import time

import pyatspi
from nearbyui import NearbyTestCase, main, wait_for

COUNT = 500
HOST = '127.0.0.1'
# Port 9 (discard), in ask mode: nothing is looked up, every row shows its host and its path.
# "127.0.0.1:9/o/499" is 17 bytes, as long as an Eddystone-URL may carry.
URL = 'http://127.0.0.1:9/o/{:03d}'
PATH = re.compile(r'^/o/(\d{3})$')
# The heading above the first row; the space between two rows (both in pixels, with room).
HEADING_ROOM = 80
ROW_SPACING = 16
# Page Down goes this far: past the 200 list items GtkListView 4.8 keeps.
FAR = 240
PAUSED_FOCUS = 'Order paused while you move through the list'


class LongListTest(NearbyTestCase):
    settings = {'privacy-choice-made': 'true', 'lookup-policy': "'ask'",
                # Each object is heard once: it must not fade or leave while the test reads.
                'stale-seconds': '600', 'expiry-seconds': '3600'}
    KEYSYMS = dict(NearbyTestCase.KEYSYMS,
                   Home=0xff50, End=0xff57, Page_Up=0xff55, Page_Down=0xff56)

    def setUp(self):
        super().setUp()
        self.install_fake_browser()
        # The pointer away from the window: over the list it would hold the order too.
        pyatspi.Registry.generateMouseEvent(1270, 790, 'abs')

    def list_node(self):
        return self.find(self.window, role=pyatspi.ROLE_LIST)

    def items(self):
        """The list items GtkListView has now (at most 200 of the 500), on screen or not."""
        items = []
        for i in range(self.list.childCount):
            try:
                item = self.list.getChildAtIndex(i)
                if item is not None and item.getRole() == pyatspi.ROLE_LIST_ITEM:
                    items.append(item)
            except Exception:
                continue
        return items

    def focused_item(self):
        for item in self.items():
            try:
                if item.getState().contains(pyatspi.STATE_FOCUSED):
                    return item
            except Exception:
                continue
        return None

    @staticmethod
    def spoken_number(item):
        """The object a list item names for a screen reader: "127.0.0.1, Nearby, /o/417"."""
        name = item.name or ''
        parts = name.split(', ')
        if len(parts) != 3 or parts[0] != HOST or not PATH.match(parts[2]):
            return None
        return int(PATH.match(parts[2]).group(1))

    def shown_number(self, item):
        """The object the row shows in its labels: its host as title, its path under it."""
        labels = self.texts(item)
        paths = [label for label in labels if PATH.match(label)]
        if HOST not in labels or len(paths) != 1:
            return None
        return int(PATH.match(paths[0]).group(1))

    def row(self, item):
        """(spoken, shown) for a list item; a heading is (None, None)."""
        return self.spoken_number(item), self.shown_number(item)

    def on_screen_rows(self):
        """(spoken, shown, top, bottom) of every row that shows an object inside the list's
        viewport, top to bottom. GtkListView 4.8 hides the items it keeps off screen without
        taking their last place away, so where an item says it is does not tell whether it is
        seen: a row shows its labels only while it is on screen."""
        view = self.list.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
        rows = []
        for item in self.items():
            shown = self.shown_number(item)
            if shown is None:
                continue
            box = item.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
            if box.y + box.height <= view.y or box.y >= view.y + view.height:
                continue
            rows.append((self.spoken_number(item), shown, box.y, box.y + box.height))
        return sorted(rows, key=lambda row: row[2])

    def settled_rows(self, including=None):
        """The rows on screen once each shows the object it speaks, they follow one another
        in the order the objects were found, and together they fill the list's viewport
        (an empty row would leave a gap), but for a heading above the first object."""
        view = self.list.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
        rows = self.on_screen_rows()
        if len(rows) < 3 or any(spoken != shown for spoken, shown, _, _ in rows):
            return None
        numbers = [spoken for spoken, _, _, _ in rows]
        if numbers != list(range(numbers[0], numbers[0] + len(numbers))):
            return None
        if including is not None and including not in numbers:
            return None
        top = view.y + (HEADING_ROOM if numbers[0] == 0 else 0)
        if rows[0][2] > top or rows[-1][3] < view.y + view.height - ROW_SPACING:
            return None
        if any(below[2] - above[3] > ROW_SPACING for above, below in zip(rows, rows[1:])):
            return None
        return rows

    def assert_rows_show_their_objects(self, expect_first=None, expect_last=None,
                                       including=None):
        """Every row on screen shows the object it speaks, one after the other in the order
        they were found, object @including among them; returns the numbers shown."""
        try:
            rows = wait_for(lambda: self.settled_rows(including), timeout=15,
                            what='the rows on screen')
        except AssertionError:
            self.screenshot('long-list-failure')
            view = self.list.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
            raise AssertionError(f'the rows on screen do not each show their own object: '
                                 f'viewport {view.y}..{view.y + view.height}, rows (spoken, '
                                 f'shown, top, bottom) {self.on_screen_rows()}')
        numbers = [spoken for spoken, _, _, _ in rows]
        if expect_first is not None:
            self.assertEqual(numbers[0], expect_first, rows)
        if expect_last is not None:
            self.assertEqual(numbers[-1], expect_last, rows)
        return numbers

    def press(self, key, times=1):
        for _ in range(times):
            self.give_focus()
            self.press_keys(key)

    def wait_focus_on(self, number, after):
        """Waits for the keyboard focus on the row of object @number, showing it."""
        def there():
            item = self.focused_item()
            return item is not None and self.row(item) == (number, number)
        wait_for(there, timeout=15,
                 what=f'the focus on /o/{number:03d} after {after} (focus on '
                      f'{self.describe_row(self.focused_item())})')

    def focus_below(self, number):
        """The object of the focused row when it is further down than object @number."""
        spoken = self.spoken_number(self.focused_item())
        return spoken if spoken is not None and spoken > number else None

    def describe_row(self, item):
        if item is None:
            return 'no row'
        return f'“{item.name}” showing {self.texts(item)}'

    def test_far_rows_show_and_open_their_own_objects(self):
        bluez = self.start_bluez()
        bluez.AddAdapter('hci0', True)
        # All there when the app starts, so that all are listed before the order is held (rows
        # that come while it is held join at the end under a heading of their own). At the same
        # distance, they are listed in the order they are found: /o/000 first, /o/499 last.
        for i in range(COUNT):
            self.add_url_beacon(f'C0:FF:EE:00:{i >> 8:02X}:{i & 0xff:02X}', URL.format(i), -72)
        self.start_app()
        self.wait_page('Nearby objects')
        self.list = wait_for(self.list_node, what='the list')
        wait_for(lambda: [row[:2] for row in self.on_screen_rows()[:1]] == [(0, 0)],
                 timeout=30, what='/o/000 first')

        # The keyboard in the list: its order holds while the test reads it.
        for _ in range(10):
            self.give_focus()
            self.press_keys('Down')
            try:
                self.wait_find(self.window, name=PAUSED_FOCUS, what='the order held by the focus')
                break
            except AssertionError:
                continue
        self.assertIsNotNone(self.focused_item(), 'the focus is not on a row')

        # End: the last object, showing and speaking itself, and the rows above it theirs.
        self.press('End')
        self.wait_focus_on(COUNT - 1, 'End')
        self.assert_rows_show_their_objects(expect_last=COUNT - 1)
        self.screenshot('long-list-end')

        # Home: back to the first rows, which show the right text again.
        self.press('Home')
        wait_for(lambda: self.focused_item() is not None
                 and self.row(self.focused_item()) in ((0, 0), (None, None)), timeout=15,
                 what=f'the focus on the first item after Home '
                      f'(focus on {self.describe_row(self.focused_item())})')
        self.assert_rows_show_their_objects(expect_first=0)

        # Page Down, page after page, to far down: the rows that come on screen as it scrolls
        # are the objects that belong there.
        before = 0
        for page in range(1, 100):
            self.press('Page_Down')
            spoken = wait_for(lambda: self.focus_below(before), timeout=15,
                              what=f'the focus to move down from /o/{before:03d} on Page Down '
                                   f'{page}')
            # The focused row is on screen among the others, each showing its own object.
            self.assert_rows_show_their_objects(including=spoken)
            before = spoken
            if spoken >= FAR:
                break
        self.assertGreaterEqual(before, FAR, 'Page Down never got far down the list')
        self.wait_focus_on(before, 'Page Down')

        # Enter on a row far down opens that object's page, no other.
        self.press('End')
        self.wait_focus_on(COUNT - 1, 'End')
        self.press('Up', 3)
        self.wait_focus_on(COUNT - 4, 'End and Up three times')
        self.press('Return')
        wait_for(lambda: self.opened_urls(), what='a page opened by Enter')
        time.sleep(1)
        self.assertEqual(self.opened_urls(), [URL.format(COUNT - 4)])


if __name__ == '__main__':
    main()
