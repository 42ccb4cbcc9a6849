#!/usr/bin/python3
"""Rows a person can tell apart: before its look-up an object shows its host and its path, with a
neutral icon and a way to look it up; the demo's objects show the street's made-up hosts; a
screen reader hears the whole row on the list item it focuses; favourites carry a star; the
host and its badge stay whole in a 360-pixel window."""

import time

import pyatspi

from nearbyui import DEMO_TITLES, NearbyTestCase, main, wait_for

DEMO_HOSTS = {
    'Stop 14 · Market Street': 'citybus.example',
    'Parking Meter B-2031': 'parkmarket.example',
    'Bluebird Café': 'bluebird-cafe.example',
    'The Antikythera Mechanism · Gallery 3': 'harbour-museum.example',
    'Snack Machine · Level 2': 'snackco.example',
}


class RowsTestCase(NearbyTestCase):
    def list_items(self):
        items = []
        for node in self.find_all(self.window, role=pyatspi.ROLE_LIST_ITEM):
            try:
                items.append((node.name or '', node.description or ''))
            except Exception:
                continue
        return items

    def list_item(self, starts_with):
        """The (name, description) of the list item whose spoken name starts with @starts_with."""
        for name, description in self.list_items():
            if name.startswith(starts_with):
                return name, description
        return None

    def wait_list_item(self, starts_with, what=None):
        return wait_for(lambda: self.list_item(starts_with),
                        what=what or f'a list item “{starts_with}…” (have {self.list_items()})')


class NotLookedUpTest(RowsTestCase):
    """Ask mode: nothing is fetched, so every row is what its beacon broadcasts."""
    settings = {'privacy-choice-made': 'true', 'lookup-policy': "'ask'"}

    def test_host_and_path_tell_objects_apart(self):
        bluez = self.start_bluez()
        bluez.AddAdapter('hci0', True)
        self.start_app()
        # Port 9 (discard): nothing is fetched before the person asks.
        self.add_url_beacon('C0:FF:EE:00:00:01', 'http://127.0.0.1:9/o/17', -50)
        self.add_url_beacon('C0:FF:EE:00:00:02', 'http://127.0.0.1:9/o/18', -55)
        self.add_url_beacon('C0:FF:EE:00:00:03', 'http://[::1]:9/1140', -60)
        self.wait_page('Nearby objects')
        wait_for(lambda: {'/o/17', '/o/18', '/1140'} <= set(self.texts(self.window)),
                 what=f'each path under its host (have {self.texts(self.window)})')
        labels = self.texts(self.window)

        # The host once per row, as its title; an IPv6 host without brackets.
        self.assertEqual(labels.count('127.0.0.1'), 2, labels)
        self.assertIn('::1', labels)
        self.assertFalse(any(label.startswith('[') for label in labels),
                         f'no “[” initial or “[::1]” title: {labels}')
        # Initials would only repeat the host's first character: no initial on any row.
        self.assertFalse(any(label in ('1', '?', ':') for label in labels), labels)
        self.screenshot('rows-not-looked-up')

        # The screen reader hears which object it is on: title, distance word, path.
        name, description = self.wait_list_item('127.0.0.1, ')
        self.assertTrue(name.endswith(', /o/17') or name.endswith(', /o/18'), name)
        self.assertIn('This computer.', description)
        self.assertIn('Activate to open the page in the web browser.', description)

        # Looking one up is in its menu, first after Open.
        self.open_row_menu('::1')
        items = [node.name for node in self.find_all(self.app, role=pyatspi.ROLE_MENU_ITEM)]
        self.assertEqual(items[:2], ['Open', 'Look Up Page'], items)
        self.press_keys('Escape')

        # Its favourite toast names it as its row does: host and path, not "[::1]/1140".
        wait_for(lambda: self.find(self.app, role=pyatspi.ROLE_MENU_ITEM) is None,
                 what='the menu to close')
        self.open_row_menu('::1')
        self.click(self.wait_find(name='Add to Favourites', role=pyatspi.ROLE_MENU_ITEM))
        self.wait_find(self.window, name='::1/1140 was added to favourites',
                       what='the toast naming the untitled page as its row does')


class DemoRowsTest(RowsTestCase):
    app_args = ['--demo']
    settings = {'privacy-choice-made': 'true', 'lookup-policy': "'automatic'"}

    def test_demo_rows_show_made_up_hosts_and_speak_the_whole_row(self):
        self.install_fake_browser()
        self.start_app()
        self.wait_for_every_demo_row()
        wait_for(lambda: set(DEMO_HOSTS.values()) <= set(self.texts(self.window)),
                 what=f'the street’s hosts (have {self.texts(self.window)})')
        labels = self.texts(self.window)
        self.assertNotIn('This computer', labels)
        self.assertNotIn('127.0.0.1', labels)

        for title, host in DEMO_HOSTS.items():
            name, description = self.wait_list_item(f'{title}, ')
            self.assertTrue(name.endswith(f', {host}'), name)
            distance = name[len(title) + 2:-len(host) - 2]
            self.assertIn(distance, ('Right here', 'Nearby', 'Farther away', 'Distance unknown'),
                          name)
            self.assertTrue(description.endswith('Activate to open the page in the web browser.'),
                            description)
        # The page's description is heard too, not only seen.
        _, description = self.list_item('Bluebird Café, ')
        self.assertTrue(description.startswith('Order ahead and skip the queue.'), description)

        # What has the keyboard focus after a click on the row is the list item with that name.
        self.click_row_label('Bluebird Café')
        wait_for(lambda: any(url.endswith('/cafe/') for url in self.opened_urls()),
                 what=f'the café page opened (got {self.opened_urls()})')
        focused = wait_for(self.focused, what='a focused row after the click')
        self.assertEqual(focused.getRole(), pyatspi.ROLE_LIST_ITEM)
        self.assertTrue(focused.name.startswith('Bluebird Café, '), focused.name)
        self.assertTrue(focused.name.endswith(', bluebird-cafe.example'), focused.name)

    def test_favourite_star_and_undo(self):
        self.start_app()
        self.wait_for_every_demo_row()
        self.assertIsNone(self.find(self.window, name='Favourite', role=pyatspi.ROLE_IMAGE))

        self.open_row_menu('Bluebird Café')
        self.click(self.wait_find(name='Add to Favourites', role=pyatspi.ROLE_MENU_ITEM))
        self.wait_find(self.window, name='Bluebird Café was added to favourites',
                       what='the toast saying the café is a favourite')
        self.wait_find(self.window, name='Favourite', role=pyatspi.ROLE_IMAGE,
                       what='the star on the café’s row')
        wait_for(lambda: 'Favourite.' in self.list_item('Bluebird Café, ')[1],
                 what='the row’s description to say it is a favourite')
        self.screenshot('favourite-star')
        # The toast's buttons as a screen reader says them: once, and the close button named.
        toast_buttons = wait_for(lambda: (lambda names: names if 'Dismiss' in names else None)(
            [node.name for node in self.find_all(self.window, role=pyatspi.ROLE_PUSH_BUTTON)]),
            what='the toast’s close button named')
        self.assertIn('Undo', toast_buttons)
        self.assertFalse(any('_' in name or name == 'GtkImage' for name in toast_buttons),
                         toast_buttons)

        self.click(self.wait_find(self.window, name='Undo', role=pyatspi.ROLE_PUSH_BUTTON))
        wait_for(lambda: self.find(self.window, name='Favourite', role=pyatspi.ROLE_IMAGE) is None,
                 what='the star to go with Undo')
        self.open_row_menu('Bluebird Café')
        self.wait_find(name='Add to Favourites', role=pyatspi.ROLE_MENU_ITEM,
                       what='the café no longer a favourite')
        self.press_keys('Escape')


class NarrowRowsTest(RowsTestCase):
    """A phone-sized window: the host and its badge stay whole, titles wrap instead of being cut."""
    settings = {'privacy-choice-made': 'true', 'lookup-policy': "'automatic'",
                'window-width': '360'}
    app_args = ['--demo']

    def test_host_whole_at_360_px(self):
        self.start_app()
        self.wait_for_every_demo_row()
        wait_for(lambda: self.window_extents().width <= 370,
                 what=f'a narrow window (width {self.window_extents().width})')
        self.screenshot('rows-360')
        self.assert_labels_inside_window()
        for host in DEMO_HOSTS.values():
            label = self.wait_find(self.window, name=host, role=pyatspi.ROLE_LABEL)
            # An ellipsized label keeps its text for AT-SPI but gets less room than its text
            # needs: the host's label is as wide as the title that wraps above it allows.
            extents = label.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
            self.assertGreater(extents.width, 7 * len(host) * 0.8,
                               f'“{host}” has {extents.width} px: cut to “…”')
        title = self.wait_find(self.window, name='The Antikythera Mechanism · Gallery 3',
                               role=pyatspi.ROLE_LABEL)
        extents = title.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
        self.assertGreater(extents.height, 30, 'the long title wraps to a second line')


class WideRowsTest(RowsTestCase):
    settings = {'privacy-choice-made': 'true', 'lookup-policy': "'automatic'",
                'window-width': '1280'}
    app_args = ['--demo']

    def test_wide_window(self):
        self.start_app()
        self.wait_for_every_demo_row()
        self.screenshot('rows-1280')
        self.assert_labels_inside_window()
        for title in DEMO_TITLES:
            self.wait_find(self.window, name=title, role=pyatspi.ROLE_LABEL)


class SearchTestCase(RowsTestCase):
    app_args = ['--demo']
    settings = {'privacy-choice-made': 'true', 'lookup-policy': "'automatic'"}

    def type_text(self, text):
        for character in text:
            pyatspi.Registry.generateKeyboardEvent(ord(character), None, pyatspi.KEY_SYM)
            time.sleep(0.1)

    def press_control_f(self):
        pyatspi.Registry.generateKeyboardEvent(self.KEYCODE_CONTROL_L, None, pyatspi.KEY_PRESS)
        pyatspi.Registry.generateKeyboardEvent(ord('f'), None, pyatspi.KEY_SYM)
        pyatspi.Registry.generateKeyboardEvent(self.KEYCODE_CONTROL_L, None, pyatspi.KEY_RELEASE)

    def wait_titles(self, titles):
        wait_for(lambda: self.demo_row_titles() == titles,
                 what=f'the rows {titles} (have {self.demo_row_titles()})')

    def search_closed(self):
        button = self.find(self.window, name='Search')
        states = button.getState()
        return not (states.contains(pyatspi.STATE_CHECKED) or
                    states.contains(pyatspi.STATE_PRESSED))

    def search_entry(self):
        return self.find(self.window, name='Search nearby objects', role=pyatspi.ROLE_ENTRY)


class SearchTest(SearchTestCase):
    def test_typing_searches_and_escape_restores(self):
        self.start_app()
        self.wait_for_every_demo_row()
        self.give_focus()
        self.assertTrue(self.search_closed(), 'no search before one is asked for')

        # Typing on the list opens the search; "cafe" finds the Café, accents aside.
        self.type_text('cafe')
        self.wait_find(self.window, name='Search nearby objects', role=pyatspi.ROLE_ENTRY,
                       what='the search bar')
        self.wait_titles(['Bluebird Café'])
        self.screenshot('search')
        self.press_keys('Escape')
        wait_for(self.search_closed, what='the search bar to close')
        self.wait_for_every_demo_row()

        # Ctrl+F, then a host: the made-up host the row shows is searched too.
        self.give_focus()
        self.press_control_f()
        self.wait_find(self.window, name='Search nearby objects', role=pyatspi.ROLE_ENTRY,
                       what='the search bar after Ctrl+F')
        self.type_text('snackco')
        self.wait_titles(['Snack Machine · Level 2'])

        # Nothing matches: a page says so, and Escape brings the list back.
        self.type_text('xyz')
        self.wait_page('No Results')
        self.screenshot('search-no-results')
        self.press_keys('Escape')
        self.wait_page('Nearby objects')
        self.wait_for_every_demo_row()

    def test_the_search_button(self):
        self.start_app()
        self.wait_for_every_demo_row()
        button = self.wait_find(self.window, name='Search')
        self.assertIn(button.getRole(), (pyatspi.ROLE_TOGGLE_BUTTON, pyatspi.ROLE_PUSH_BUTTON))
        self.click(button)
        entry = self.wait_find(self.window, name='Search nearby objects', role=pyatspi.ROLE_ENTRY,
                               what='the search bar after the button')
        entry.queryEditableText().setTextContents('parking')
        self.wait_titles(['Parking Meter B-2031'])
        # Pressed again, the button closes the search and the whole list comes back.
        self.click(button)
        wait_for(self.search_closed, what='the search bar to close')
        self.wait_for_every_demo_row()

    def test_frame_kind_only_in_developer_mode(self):
        self.start_app()
        self.wait_for_every_demo_row()
        self.give_focus()
        self.press_control_f()
        self.wait_find(self.window, name='Search nearby objects', role=pyatspi.ROLE_ENTRY,
                       what='the search bar after Ctrl+F')
        # Frame kinds are a developer's words: "url" finds nothing here.
        self.type_text('url')
        self.wait_page('No Results')


class DeveloperSearchTest(SearchTestCase):
    app_args = ['--demo', '--developer']

    def test_address_and_frame_kind(self):
        self.start_app()
        self.wait_for_every_demo_row()
        self.give_focus()
        self.press_control_f()
        self.wait_find(self.window, name='Search nearby objects', role=pyatspi.ROLE_ENTRY,
                       what='the search bar after Ctrl+F')
        # Every demo object sends URL frames; the asset tag (a UID beacon) does not.
        self.wait_find(self.window, name='Eddystone-UID beacon', role=pyatspi.ROLE_LABEL,
                       what='the asset tag, shown in developer mode')
        self.type_text('url')
        self.wait_titles(DEMO_TITLES)
        wait_for(lambda: self.find(self.window, name='Eddystone-UID beacon',
                                   role=pyatspi.ROLE_LABEL) is None,
                 what='the asset tag to be left out')
        self.press_keys('Escape')
        self.wait_find(self.window, name='Eddystone-UID beacon', role=pyatspi.ROLE_LABEL,
                       what='the asset tag back after Escape')
        self.give_focus()
        self.press_control_f()
        self.wait_find(self.window, name='Search nearby objects', role=pyatspi.ROLE_ENTRY,
                       what='the search bar after Ctrl+F')
        self.type_text('00:00:03')
        self.wait_titles(['Bluebird Café'])


if __name__ == '__main__':
    main()
