#!/usr/bin/python3
"""Preferences as a person uses them: every button there does what it says. A site hidden from
the list comes back from its row in Hidden Sites, and Clear History (after its question) forgets
the hidden sites, the favourites and the visits, in the open window as on disk."""

import configparser
import os
import time

import pyatspi

import xfocus
from nearbyui import NearbyTestCase, main, serve_titled_pages, wait_for, walk


class PreferencesTestCase(NearbyTestCase):

    def settings_value(self, key):
        parser = configparser.ConfigParser(interpolation=None)
        parser.read(os.path.join(self.tmp, 'config', 'glib-2.0', 'settings', 'keyfile'))
        group = os.environ['NEARBY_APP_ID'].replace('.', '/')
        return parser.get(group, key, fallback=None)

    def menu_item(self, contains):
        return self.wait_find(contains=contains, role=pyatspi.ROLE_MENU_ITEM,
                              what=f'the menu item “{contains}…”')

    def hide_demo_site(self):
        """Hides the café's made-up site: the demo's objects each stand for a site of their own."""
        self.open_row_menu('Bluebird Café')
        self.click(self.menu_item('Hide Site “bluebird-cafe.example”'))
        wait_for(lambda: 'Bluebird Café' not in self.demo_row_titles(), what='the café to go')

    def open_preferences(self):
        self.click(self.wait_find(self.window, name='Main Menu', role=pyatspi.ROLE_PUSH_BUTTON))
        self.click(self.wait_find(name='Preferences', role=pyatspi.ROLE_MENU_ITEM))
        return self.wait_find(name='Preferences', role=pyatspi.ROLE_FRAME, what='Preferences')

    def preferences_open(self):
        return self.find(self.app, name='Preferences', role=pyatspi.ROLE_FRAME) is not None

    def close_preferences(self, preferences):
        """Escape closes Preferences, as a person would; a toast still shown takes an Escape of
        its own first, so it is pressed again (three times at most). Not the Close button: GTK
        4.8 crashes answering an AT-SPI click that destroys the clicked button's window."""
        for _ in range(3):
            self.give_focus(preferences)
            self.press_keys('Escape')
            try:
                wait_for(lambda: not self.preferences_open(), timeout=6, what='Preferences to close')
                return
            except AssertionError:
                continue
        raise AssertionError('Escape does not close Preferences')

    def assert_sensitive(self, node):
        self.assertTrue(node.getState().contains(pyatspi.STATE_SENSITIVE),
                        f'“{node.name}” is greyed out')

    def focused_in(self, root):
        for node in walk(root):
            try:
                if node.getState().contains(pyatspi.STATE_FOCUSED):
                    return node
            except Exception:
                continue
        return None

    def choose(self, preferences, row, position):
        """Chooses the item at @position in the combo row titled @row from the keyboard, as a
        person would: Tab to it, Return opens its choices, the arrows, Return."""
        self.give_focus(preferences)
        for _ in range(20):
            focused = self.focused_in(preferences)
            if focused is not None and row in (focused.name or '').replace('_', ''):
                break
            self.press_tab()
            time.sleep(0.3)
        else:
            raise AssertionError(f'Tab never reaches {row}')
        row_node = focused
        self.press_keys('Return')
        # The arrows go to the list of choices once it has the focus, not to the rows around.
        wait_for(lambda: self.focused_in(preferences) not in (None, row_node),
                 what=f'the choices of {row}')
        # GTK 4.8 focuses the first choice, whichever is chosen; Up from there stays.
        self.press_keys('Up', 'Up', 'Up')
        for _ in range(position):
            before = self.focused_in(preferences)
            for attempt in range(4):
                # A key pressed as the list of choices maps can be lost: press it again.
                self.press_keys('Down')
                try:
                    wait_for(lambda: self.focused_in(preferences) not in (None, before),
                             timeout=2, what='the arrow to move through the choices')
                    break
                except AssertionError:
                    if attempt == 3:
                        raise
        self.press_keys('Return')

    def switch(self, preferences, title):
        return wait_for(lambda: next((node for node in self.find_all(preferences)
                                      if node.getRoleName() in ('switch', 'toggle button',
                                                                'check box')
                                      and title in (node.name or '').replace('_', '')), None),
                        what=f'the switch “{title}”')

    def close_with_the_close_button(self, preferences):
        """The Close button of the header bar, clicked with the pointer. Not through AT-SPI's
        action: GTK 4.8 sometimes crashes when a window's Close button is activated over AT-SPI
        while a client walks the window's tree (as these tests do all the time)."""
        close = self.wait_find(preferences, name='Close', role=pyatspi.ROLE_PUSH_BUTTON,
                               what='the Close button of Preferences')
        self.pointer_click(close, preferences)
        # Not left resting where Preferences was: over the list, it would pause the order and
        # raise the rows' tooltips while the window's tree is read.
        pyatspi.Registry.generateMouseEvent(1279, 799, 'abs')
        wait_for(lambda: not self.preferences_open(), what='the Close button to close Preferences')


class DemoTestCase(PreferencesTestCase):
    """The demo's five objects, each on its made-up host, with their pages looked up."""
    app_args = ['--demo']
    settings = {'privacy-choice-made': 'true', 'lookup-policy': "'automatic'"}


class HiddenSitesTest(DemoTestCase):

    def test_show_a_hidden_site_again_from_preferences(self):
        self.start_app()
        self.wait_for_every_demo_row()
        self.hide_demo_site()

        preferences = self.open_preferences()
        # Long after the Undo toast is gone, Preferences can still bring the site back; the
        # demo's site by the name its row showed, not the address that serves every demo page.
        self.wait_find(preferences, name='bluebird-cafe.example',
                       what='the hidden site in Preferences')
        self.assertIsNone(self.find(preferences, name='127.0.0.1'))
        show = self.wait_find(preferences, name='Show objects from bluebird-cafe.example again',
                              role=pyatspi.ROLE_PUSH_BUTTON)
        self.assert_sensitive(show)
        self.screenshot('preferences-hidden-site')
        self.click(show)
        self.wait_find(preferences, name='No hidden sites', what='the emptied Hidden Sites list')
        self.wait_find(preferences, name='Objects from bluebird-cafe.example are shown again',
                       what='the toast in Preferences')

        self.close_preferences(preferences)
        self.wait_page('Nearby objects')
        self.wait_for_every_demo_row()


class ClearHistoryTest(DemoTestCase):

    def setUp(self):
        super().setUp()
        self.install_fake_browser()

    def test_clear_history_after_its_question(self):
        self.start_app()
        self.wait_for_every_demo_row()

        # Something to forget: a visit, a favourite and a hidden site.
        self.click_row_label('Bluebird Café')
        wait_for(lambda: any(url.endswith('/cafe/') for url, _ in self.history_visits()),
                 what='the visit to the café recorded')
        self.open_row_menu('Parking Meter B-2031')
        self.click(self.menu_item('Add to Favourites'))
        self.open_row_menu('Parking Meter B-2031')
        self.menu_item('Remove From Favourites')
        self.press_keys('Escape')
        wait_for(lambda: self.find(self.app, role=pyatspi.ROLE_MENU_ITEM) is None,
                 what='the menu to close')
        self.hide_demo_site()

        preferences = self.open_preferences()
        self.wait_find(preferences, name='bluebird-cafe.example',
                       what='the hidden site in Preferences')
        clear = self.wait_find(preferences, contains='Clear…', role=pyatspi.ROLE_PUSH_BUTTON)
        self.assert_sensitive(clear)
        self.click(clear)

        # The question first; Cancel keeps everything.
        self.wait_find(name='Clear History?', what='the confirmation')
        # Its buttons named once, without the underscore of their mnemonics.
        answers = [node.name for node in self.find_all(self.app, role=pyatspi.ROLE_PUSH_BUTTON)
                   if node.name.replace('_', '').split(' ')[0] in ('Cancel', 'Clear')]
        self.assertEqual(sorted(answers), ['Cancel', 'Clear'])
        self.screenshot('clear-history-question')
        self.click(self.wait_find(name='Cancel', role=pyatspi.ROLE_PUSH_BUTTON))
        wait_for(lambda: self.find(self.app, name='Clear History?') is None,
                 what='the question to go away')
        self.wait_find(preferences, name='bluebird-cafe.example',
                       what='the hidden site kept after Cancel')
        self.assertNotEqual(self.history_visits(), [], 'Cancel cleared the visits')

        self.click(clear)
        self.click(self.wait_find(name='Clear', role=pyatspi.ROLE_PUSH_BUTTON,
                                  what='the Clear button of the question'))
        self.wait_find(preferences, name='History cleared', what='the toast in Preferences')
        self.wait_find(preferences, name='No hidden sites', what='the emptied Hidden Sites list')
        self.screenshot('preferences-cleared')
        wait_for(lambda: self.history_visits() == [], what='the visits gone from the disk')

        self.close_preferences(preferences)
        # The site is no longer hidden, and the parking meter no longer a favourite.
        self.wait_page('Nearby objects')
        self.wait_for_every_demo_row()
        self.open_row_menu('Parking Meter B-2031')
        self.menu_item('Add to Favourites')


class LookUpPagesTest(PreferencesTestCase):
    """Each choice of Look Up Pages, by what it changes: Never leaves a row as its beacon sent it
    even when it is opened (the browser fetches the page, Nearby does not), while Look Up Page
    still asks for one; Ask looks a page up when it is opened. What Automatic adds (secure pages
    on public addresses looked up as they appear) takes a public https server: test-page-loader
    has it; here the choice is kept and an http page of this computer still waits."""
    settings = {'privacy-choice-made': 'true', 'lookup-policy': "'ask'"}

    @staticmethod
    def width_of(node):
        return node.queryComponent().getExtents(pyatspi.WINDOW_COORDS).width

    def row_menu_of(self, path):
        """Opens the menu of the row whose spoken name ends with @path (the rows of one host
        are told apart by their paths only)."""
        def button():
            for item in self.find_all(self.window, role=pyatspi.ROLE_LIST_ITEM):
                if (item.name or '').endswith(f', {path}'):
                    return next((child for child in walk(item)
                                 if (child.name or '').startswith('More about ')), None)
            return None
        self.click(wait_for(button, what=f'the row of {path}'))
        wait_for(lambda: self.find(self.app, role=pyatspi.ROLE_MENU_ITEM), timeout=5,
                 what=f'the menu of {path}')

    def test_never_ask_and_automatic(self):
        self.install_fake_browser()
        base = serve_titled_pages(self, {'/a': 'Kiosk A', '/b': 'Kiosk B', '/c': 'Kiosk C'})
        bluez = self.start_bluez()
        bluez.AddAdapter('hci0', True)
        self.start_app()
        for i, path in enumerate('abc'):
            self.add_url_beacon(f'C0:FF:EE:00:01:0{i}', f'{base}/{path}', -50 - 5 * i)
        wait_for(lambda: {'/a', '/b', '/c'} <= set(self.texts(self.window)),
                 what=f'each path under its host (have {self.texts(self.window)})')

        preferences = self.open_preferences()
        self.wait_find(preferences, name='Ask me each time', what='the choice made')
        self.choose(preferences, 'Look Up Pages', 2)
        wait_for(lambda: self.settings_value('lookup-policy') == "'never'",
                 what=f'Never kept (have {self.settings_value("lookup-policy")})')
        self.wait_find(preferences, name='Never', role=pyatspi.ROLE_LABEL, what='Never shown')
        self.close_preferences(preferences)

        # Never: opening the object opens the browser, and the row stays as it was broadcast.
        self.click_row_label('/a', what=f'A’s path (have {self.texts(self.window)})')
        wait_for(lambda: f'{base}/a' in self.opened_urls(),
                 what=f'the page of A opened (have {self.opened_urls()})')
        # The person can still ask for one page: Look Up Page in its menu.
        self.row_menu_of('/b')
        self.click(self.wait_find(name='Look Up Page', role=pyatspi.ROLE_MENU_ITEM))
        self.wait_find(self.window, name='Kiosk B', role=pyatspi.ROLE_LABEL,
                       what='the page of B looked up when asked')
        self.assertNotIn('/a', self.page_requests, 'A was looked up when opened, under Never')
        self.assertIn('/a', self.texts(self.window), 'A’s row as its beacon sent it')
        self.assertNotIn('Kiosk A', self.texts(self.window))

        # Ask: opening an object looks its page up too.
        preferences = self.open_preferences()
        self.choose(preferences, 'Look Up Pages', 1)
        wait_for(lambda: self.settings_value('lookup-policy') == "'ask'",
                 what=f'Ask kept (have {self.settings_value("lookup-policy")})')
        self.close_preferences(preferences)
        self.click_row_label('/c')
        self.wait_find(self.window, name='Kiosk C', role=pyatspi.ROLE_LABEL,
                       what='the page of C looked up as it was opened')

        # Automatic: kept, and shown; a plain-http page of this computer is not automatic.
        preferences = self.open_preferences()
        self.choose(preferences, 'Look Up Pages', 0)
        wait_for(lambda: self.settings_value('lookup-policy') == "'automatic'",
                 what=f'Automatic kept (have {self.settings_value("lookup-policy")})')
        value = self.wait_find(preferences, name='Secure pages automatically',
                               role=pyatspi.ROLE_LABEL, what='the automatic choice shown')
        self.screenshot('preferences-look-up-automatic')
        # Whole in a 640-pixel Preferences (AdwComboRow's own labels stopped at 20 characters,
        # "Secure pages automat…", 21 characters' worth): about as wide per character as the
        # unit "seconds" below it, a label of its natural width.
        unit = self.wait_find(preferences, name='seconds', role=pyatspi.ROLE_LABEL)
        self.assertLessEqual(self.width_of(preferences), 640)
        per_char = self.width_of(unit) / len(unit.name)
        self.assertGreater(self.width_of(value), 0.85 * per_char * len(value.name),
                           'the chosen value is cut')
        self.close_preferences(preferences)
        self.assertIn('/a', self.texts(self.window))


class ShowInvisibleTest(PreferencesTestCase):
    """UriBeacons can ask not to be listed: "Show Objects That Ask to Be Hidden" lists them."""
    settings = {'privacy-choice-made': 'true', 'lookup-policy': "'ask'"}

    def test_the_switch_lists_objects_that_ask_to_be_hidden(self):
        bluez = self.start_bluez()
        bluez.AddAdapter('hci0', True)
        self.start_app()
        # The one that asks first: once the other is listed, it has been heard too.
        self.add_uribeacon('C0:FF:EE:00:02:01', 'http://127.0.0.1:9/shy', -50, invisible=True)
        self.add_uribeacon('C0:FF:EE:00:02:02', 'http://127.0.0.1:9/open', -55)
        self.wait_find(self.window, name='/open', role=pyatspi.ROLE_LABEL, what='the open beacon')
        self.assertNotIn('/shy', self.texts(self.window))

        preferences = self.open_preferences()
        switch = self.switch(preferences, 'Show Objects That Ask to Be Hidden')
        self.assertFalse(switch.getState().contains(pyatspi.STATE_CHECKED))
        self.click(switch)
        wait_for(lambda: self.settings_value('show-invisible') == 'true', what='the choice kept')
        self.wait_find(self.window, name='/shy', role=pyatspi.ROLE_LABEL,
                       what='the beacon that asks to be hidden, listed')
        self.click(switch)
        wait_for(lambda: '/shy' not in self.texts(self.window), what='the shy beacon to go again')
        self.assertIn('/open', self.texts(self.window))
        self.close_preferences(preferences)


class TimesTest(PreferencesTestCase):
    """Fade After and Remove After: a row not heard fades (and says so to a screen reader) after
    the first, and leaves after the second."""
    settings = {'privacy-choice-made': 'true', 'lookup-policy': "'ask'"}

    def set_spin(self, preferences, name, value):
        spin = self.wait_find(preferences, contains=name, role=pyatspi.ROLE_SPIN_BUTTON)
        spin.queryValue().currentValue = value
        wait_for(lambda: spin.queryValue().currentValue == value,
                 what=f'“{name}” at {value} (have {spin.queryValue().currentValue})')

    def row_description(self, path):
        for item in self.find_all(self.window, role=pyatspi.ROLE_LIST_ITEM):
            if (item.name or '').endswith(f', {path}'):
                return item.description or ''
        return None

    def test_fade_after_and_remove_after(self):
        bluez = self.start_bluez()
        bluez.AddAdapter('hci0', True)
        self.start_app()
        self.wait_page('Looking for Nearby Objects…')
        preferences = self.open_preferences()
        # Faded after 3 s; not removed for an hour.
        self.set_spin(preferences, 'Fade after, in seconds', 3)
        self.set_spin(preferences, 'Remove after, in seconds', 3600)
        wait_for(lambda: (self.settings_value('stale-seconds'),
                          self.settings_value('expiry-seconds')) == ('3', '3600'),
                 what='the times kept')
        self.close_preferences(preferences)

        # Heard once, then never again.
        self.add_url_beacon('C0:FF:EE:00:03:01', 'http://127.0.0.1:9/quiet', -50)
        wait_for(lambda: 'Not heard for a while.' in (self.row_description('/quiet') or ''),
                 what=f'the row to fade (description {self.row_description("/quiet")!r})')
        self.screenshot('row-faded')
        # Faded, and still listed: an hour has not passed.
        self.assertIsNotNone(self.row_description('/quiet'))

        preferences = self.open_preferences()
        self.set_spin(preferences, 'Remove after, in seconds', 5)
        self.close_preferences(preferences)
        self.wait_page('Looking for Nearby Objects…')


class CloseButtonTest(DemoTestCase):

    def test_close_button(self):
        self.start_app()
        self.wait_page('Nearby objects')
        preferences = self.open_preferences()
        self.close_with_the_close_button(preferences)
        # It opens again, as it was: with Ctrl+comma, found from the app rather than through
        # the main window's tree, which GTK 4.8 now and then leaves empty after that click (it
        # logs a g_variant_new_object_path critical); the window itself is fine.
        for attempt in range(3):
            # The focus as a window manager gives it, by the window's X title alone.
            xfocus.focus_toplevel(self.process.pid, 'Nearby')
            time.sleep(0.5)
            self.press_control(',')
            try:
                preferences = wait_for(lambda: self.find(self.app, name='Preferences',
                                                         role=pyatspi.ROLE_FRAME),
                                       timeout=5, what='Preferences again, after Ctrl+comma')
                break
            except AssertionError:
                if attempt == 2:
                    raise
        self.wait_find(preferences, name='Look Up Pages', what='Preferences as it was')
        self.close_with_the_close_button(preferences)
        self.assertIsNone(self.process.poll(), 'the app ended')


if __name__ == '__main__':
    main()
