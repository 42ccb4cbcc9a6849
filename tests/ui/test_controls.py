#!/usr/bin/python3
"""The window's smaller controls, each checked by what a person sees afterwards: the refresh
button and Ctrl+R say what they did, on the list and on an empty page; Ctrl+W closes the window;
the demo asks no first-run question; a replay of bad lines says it replayed nothing and why;
Preferences shows its times with their unit and the distance calibration as surroundings."""

import configparser
import os

import time

import pyatspi

from nearbyui import NearbyTestCase, main, wait_for, walk

CHOSEN = {'privacy-choice-made': 'true'}
DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'data')


class ControlsTestCase(NearbyTestCase):

    def toast(self, text):
        return self.wait_find(self.window, name=text, role=pyatspi.ROLE_LABEL,
                              what=f'the toast “{text}”')

    def press_in_window(self, letter):
        """Ctrl+@letter in the main window, once it has the keyboard focus."""
        self.give_focus()
        self.press_control(letter)

    def find_focused(self, root):
        for node in walk(root):
            try:
                if node.getState().contains(pyatspi.STATE_FOCUSED):
                    return node
            except Exception:
                continue
        return None

    def settings_value(self, key):
        parser = configparser.ConfigParser(interpolation=None)
        parser.read(os.path.join(self.tmp, 'config', 'glib-2.0', 'settings', 'keyfile'))
        group = os.environ['NEARBY_APP_ID'].replace('.', '/')
        return parser.get(group, key, fallback=None)


class RefreshTest(ControlsTestCase):
    app_args = ['--demo']
    settings = dict(CHOSEN, **{'lookup-policy': "'automatic'"})

    def test_refresh_says_how_many_pages_it_looked_up(self):
        self.start_app()
        self.wait_for_every_demo_row()
        self.click(self.wait_find(self.window, name='Look Up Pages Again',
                                  role=pyatspi.ROLE_PUSH_BUTTON))
        self.toast('Looked up 5 pages')
        self.screenshot('refresh-toast')
        # The toast's close button takes it away before its time.
        self.click(self.wait_find(self.window, name='Dismiss', role=pyatspi.ROLE_PUSH_BUTTON,
                                  what='the toast’s close button'))
        wait_for(lambda: self.find(self.window, name='Looked up 5 pages') is None,
                 what='the toast to go')


class EmptyPageTest(ControlsTestCase):
    settings = CHOSEN

    def test_refresh_on_an_empty_page_and_ctrl_w(self):
        self.start_bluez().AddAdapter('hci0', True)
        self.start_app()
        self.wait_page('Looking for Nearby Objects…')
        # The refresh button stays where it was, and says there was nothing to do.
        self.wait_find(self.window, name='Look Up Pages Again', role=pyatspi.ROLE_PUSH_BUTTON)
        self.press_in_window('r')
        self.toast('Nothing to look up')
        # The listening indicator says what it means.
        self.wait_find(self.window, name='Listening for nearby objects', role=pyatspi.ROLE_IMAGE)

        # Ctrl+W closes the window, and with its last window the app ends.
        self.press_in_window('w')
        wait_for(lambda: self.process.poll() is not None, what='Ctrl+W to close the window')
        self.assertEqual(self.process.returncode, 0)


class DemoAsksNothingTest(ControlsTestCase):
    settings = {}

    def test_demo_shows_its_objects_without_the_question(self):
        self.start_app('--demo')
        self.wait_page('Nearby objects')
        self.wait_for_every_demo_row()
        self.assertIsNone(self.find(self.window, name='When May Nearby Look Up Pages?'),
                          'the first-run question in the demo')
        # Nothing was chosen for the person: real beacons will still ask.
        self.assertNotEqual(self.settings_value('privacy-choice-made'), 'true')


class ReplayOfBadLinesTest(ControlsTestCase):
    settings = CHOSEN

    def test_a_replay_of_bad_lines_says_so(self):
        self.start_app('--replay', os.path.join(DATA, 'capture-all-bad.jsonl'))
        self.wait_page('Replay Finished')
        said = ' '.join(self.texts(self.window))
        self.assertIn('Nothing was replayed: all 3 lines of the capture were skipped.', said)
        self.assertIn('line 1: not JSON', said, 'the first line’s reason')
        self.assertNotIn('Every sighting in the capture has been replayed', said)
        self.screenshot('replay-nothing-replayed')

    def test_a_missing_capture_is_named_even_with_markup_in_its_name(self):
        missing = os.path.join(self.tmp, 'Tom & Jerry <1>.jsonl')
        self.start_app('--replay', missing)
        self.wait_page('Cannot Look for Objects')
        wait_for(lambda: any('Tom & Jerry <1>.jsonl' in text for text in self.texts(self.window)),
                 what=f'the file named on the error page (have {self.texts(self.window)})')


class PreferencesRowsTest(ControlsTestCase):
    app_args = ['--demo']
    settings = dict(CHOSEN, **{'path-loss-exponent': '3.6'})

    def test_times_with_units_and_surroundings(self):
        self.start_app()
        self.click(self.wait_find(self.window, name='Main Menu', role=pyatspi.ROLE_PUSH_BUTTON))
        self.click(self.wait_find(name='Preferences', role=pyatspi.ROLE_MENU_ITEM))
        preferences = self.wait_find(name='Preferences', role=pyatspi.ROLE_FRAME,
                                     what='Preferences')
        texts = self.texts(preferences)
        self.assertEqual(texts.count('seconds'), 2, 'the unit after Fade After and Remove After')
        for name in ('Fade after, in seconds', 'Remove after, in seconds'):
            spin = self.find(preferences, contains=name)
            self.assertIsNotNone(spin, f'a spin button that says its unit: “{name}” (have '
                                       f'{[(n.getRoleName(), n.name) for n in self.find_all(preferences) if n.getRole() == pyatspi.ROLE_SPIN_BUTTON]})')
        # The same words as the first-run question.
        self.assertIn('Ask me each time', self.texts(preferences, role=None))
        # An exponent set by hand shows as the nearest surroundings.
        self.assertIn('Many walls', texts, f'the surroundings of exponent 3.6 (have {texts})')
        self.assertNotIn('Distance Calibration', texts)
        self.screenshot('preferences-rows')

        # Choosing Open space from the keyboard sets the exponent the distances are worked
        # out with: Tab to the row, Return opens its choices, Up twice and Return.
        self.give_focus(preferences)
        for _ in range(20):
            focused = self.find_focused(preferences)
            if focused is not None and 'Surroundings' in (focused.name or '').replace('_', ''):
                break
            self.press_tab()
            time.sleep(0.3)
        else:
            raise AssertionError('Tab never reaches Surroundings')
        self.press_keys('Return', 'Up', 'Up', 'Return')
        wait_for(lambda: self.settings_value('path-loss-exponent') == '2.0',
                 what=f'the exponent of Open space kept (have {self.settings_value("path-loss-exponent")})')
        wait_for(lambda: 'Open space' in self.texts(preferences), what='Open space shown')
        self.give_focus(preferences)
        self.press_keys('Escape')


class MenusTest(ControlsTestCase):
    """The row menu's Copy Link and page actions, the primary menu's Keyboard Shortcuts and
    About, and Preferences' Developer Mode switch."""
    app_args = ['--demo']
    settings = dict(CHOSEN, **{'lookup-policy': "'automatic'"})

    def setUp(self):
        super().setUp()
        self.install_fake_browser()

    def menu_item(self, name):
        return self.wait_find(self.app, name=name, role=pyatspi.ROLE_MENU_ITEM,
                              what=f'the menu item “{name}”')

    def other_frames(self):
        return [node for node in self.find_all(self.app, role=pyatspi.ROLE_FRAME)
                if node.name != 'Nearby']

    def test_row_menu_copy_link_and_a_page_action(self):
        self.start_app()
        self.wait_for_every_demo_row()
        self.open_row_menu('Bluebird Café')
        self.click(self.menu_item('Copy Link'))
        self.toast('Link copied')

        # The page's own links, as the page names them, open in the browser.
        self.open_row_menu('Bluebird Café')
        self.click(self.menu_item('See the menu'))
        wait_for(lambda: any(url.endswith('/menu.html') for url in self.opened_urls()),
                 what=f'the café’s menu page opened (have {self.opened_urls()})')

    def test_keyboard_shortcuts_and_about(self):
        self.start_app()
        self.wait_page('Nearby objects')
        self.click(self.wait_find(self.window, name='Main Menu', role=pyatspi.ROLE_PUSH_BUTTON))
        self.click(self.menu_item('Keyboard Shortcuts'))
        shortcuts = wait_for(lambda: next((frame for frame in self.other_frames()
                                           if 'Close Window' in self.texts(frame)), None),
                             what='the shortcuts window with Close Window')
        texts = self.texts(shortcuts)
        for title in ('Look Up Pages Again', 'Preferences', 'Object Menu', 'Quit'):
            self.assertIn(title, texts)
        self.screenshot('keyboard-shortcuts')
        # The shortcuts window has no title for the X focus helper to find it by; it takes
        # the focus when it opens.
        self.press_keys('Escape')
        wait_for(lambda: not self.other_frames(), what='Escape to close the shortcuts')
        # Ctrl+? opens it too (the app builds it when asked, not GtkApplication at start).
        self.give_focus()
        self.press_control('?')
        wait_for(lambda: any('Close Window' in self.texts(frame) for frame in self.other_frames()),
                 what='Ctrl+? to open the shortcuts window')
        self.press_keys('Escape')
        wait_for(lambda: not self.other_frames(), what='Escape to close the shortcuts again')

        self.click(self.wait_find(self.window, name='Main Menu', role=pyatspi.ROLE_PUSH_BUTTON))
        self.click(self.menu_item('About Nearby'))
        about = wait_for(lambda: next(iter(self.other_frames()), None), what='the About window')
        wait_for(lambda: 'Nearby' in self.texts(about), what='the app’s name in About')
        self.screenshot('about')
        self.give_focus(about)
        self.press_keys('Escape')
        wait_for(lambda: not self.other_frames(), what='Escape to close About')

    def test_developer_mode_switch_lists_beacons_without_pages(self):
        self.start_app()
        self.wait_for_every_demo_row()
        self.assertNotIn('Eddystone-UID beacon', self.texts(self.window))
        self.click(self.wait_find(self.window, name='Main Menu', role=pyatspi.ROLE_PUSH_BUTTON))
        self.click(self.menu_item('Preferences'))
        preferences = self.wait_find(name='Preferences', role=pyatspi.ROLE_FRAME)
        switch = wait_for(lambda: next((node for node in self.find_all(preferences)
                                        if node.getRoleName() in ('switch', 'toggle button',
                                                                  'check box')
                                        and 'Developer Mode' in (node.name or '').replace('_', '')),
                                       None),
                          what='the Developer Mode switch')
        self.click(switch)
        wait_for(lambda: self.settings_value('developer-mode') == 'true',
                 what='developer mode kept in the settings')
        wait_for(lambda: 'Eddystone-UID beacon' in self.texts(self.window), timeout=30,
                 what='the asset tag without a web page, listed in developer mode')
        # Ctrl+W closes Preferences too.
        self.give_focus(preferences)
        self.press_control('w')
        wait_for(lambda: self.find(self.app, name='Preferences', role=pyatspi.ROLE_FRAME) is None,
                 what='Ctrl+W to close Preferences')


class ListeningTooltipTest(ControlsTestCase):
    settings = CHOSEN

    def tooltip(self):
        """The tooltip's text: GTK 4.8 shows it as a label of its own beside the window's."""
        return self.find(self.app, name='Listening for nearby objects', role=pyatspi.ROLE_LABEL)

    def test_the_listening_indicator_says_what_it_means_under_the_pointer(self):
        self.start_bluez().AddAdapter('hci0', True)
        self.start_app()
        self.wait_page('Looking for Nearby Objects…')
        indicator = self.wait_find(self.window, name='Listening for nearby objects',
                                   role=pyatspi.ROLE_IMAGE)
        self.assertIsNone(self.tooltip(), 'a tooltip before the pointer came')
        self.pointer_to(indicator)
        self.wait_find(self.app, name='Listening for nearby objects', role=pyatspi.ROLE_LABEL,
                       what='the tooltip of the listening indicator')
        self.screenshot('listening-tooltip')
        # The pointer leaves: so does the tooltip.
        self.pointer_to(self.wait_find(self.window, name='Looking for Nearby Objects…',
                                       role=pyatspi.ROLE_LABEL))
        wait_for(lambda: self.tooltip() is None, what='the tooltip to go with the pointer')


class RowMenuOpenTest(ControlsTestCase):
    app_args = ['--demo']
    settings = dict(CHOSEN, **{'lookup-policy': "'automatic'"})

    def test_open_from_the_row_menu(self):
        self.install_fake_browser()
        self.start_app()
        self.wait_for_every_demo_row()
        self.open_row_menu('Bluebird Café')
        self.click(self.wait_find(self.app, name='Open', role=pyatspi.ROLE_MENU_ITEM))
        wait_for(lambda: any(url.endswith('/cafe/') for url in self.opened_urls()),
                 what=f'the café page opened (have {self.opened_urls()})')
        self.assertEqual(len(self.opened_urls()), 1, self.opened_urls())
        # Opening counts as a visit.
        wait_for(lambda: any(url.endswith('/cafe/') for url, _ in self.history_visits()),
                 what='the visit recorded')


class KeyboardTest(ControlsTestCase):
    app_args = ['--demo']
    settings = dict(CHOSEN, **{'lookup-policy': "'automatic'"})

    def focused_name(self):
        focused = self.focused()
        return self.row_button_in(focused) or (focused.name if focused else None)

    def test_focus_starts_on_the_list_which_is_one_tab_stop(self):
        self.start_app()
        self.wait_for_every_demo_row()
        self.give_focus()
        wait_for(lambda: self.row_button_in(self.focused()) is not None,
                 what=f'the keyboard focus on a row at start (on {self.describe_focus()})')

        # Tab leaves the list for the header bar and comes back to it: one row, once.
        seen = []
        for _ in range(4):
            before = self.focused_name()
            self.press_tab()
            wait_for(lambda: self.focused_name() != before, timeout=5,
                     what=f'Tab to move the focus from “{before}”')
            seen.append(self.focused_name())
        self.assertEqual(seen[:3], ['Look Up Pages Again', 'Search', 'Main Menu'],
                         f'Tab order {seen}')
        # Back in the list: on a row, or on the heading of its part.
        self.assertTrue(self.in_list(self.focused()), f'Tab order {seen}')

        # Shift+Tab from the list goes back to the header bar, not to the row above.
        self.press_tab(backwards=True)
        wait_for(lambda: self.focused_name() == 'Main Menu', timeout=5,
                 what=f'Shift+Tab to the menu button (on {self.describe_focus()})')


if __name__ == '__main__':
    main()
