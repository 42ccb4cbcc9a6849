#!/usr/bin/python3
"""The window in other languages: German, whose long words must wrap instead of widening the
window, and a right-to-left pseudo-translation, in which the whole window must mirror."""

import gettext
import os
import tempfile

import pyatspi

import pseudo_rtl
from nearbyui import NARROWEST, NearbyTestCase, main, walk, wait_for

CHOSEN = {'privacy-choice-made': 'true'}


class TranslatedTestCase(NearbyTestCase):
    language = None
    locale_dir = os.environ.get('NEARBY_TEST_LOCALEDIR')

    def setUp(self):
        super().setUp()
        self.env.update({'LANGUAGE': self.language, 'NEARBY_LOCALEDIR': self.locale_dir})
        catalogue = gettext.translation('nearby', self.locale_dir, languages=[self.language])
        self.catalogue = catalogue
        self.tr = lambda message: catalogue.gettext(message).replace('_', '')
        self.assertNotEqual(self.tr('Main Menu'), 'Main Menu', 'the catalogue is translated')

    def current_page(self):
        for node in walk(self.window):
            try:
                if node.description == self.tr('What Nearby shows'):
                    return node.name
            except Exception:
                continue
        return None


class GermanTest(TranslatedTestCase):
    language = 'de'
    settings = {'window-width': NARROWEST}

    def test_first_run_in_german_fits_a_narrow_window(self):
        self.start_app()
        self.wait_page(self.tr('When May Nearby Look Up Pages?'))
        ask = self.wait_find(name=self.tr('_Ask Me Each Time'), role=pyatspi.ROLE_PUSH_BUTTON)
        self.wait_find(name=self.tr('_Secure Pages Automatically'),
                       role=pyatspi.ROLE_PUSH_BUTTON)
        self.assertLessEqual(self.window_extents().width, NARROWEST,
                             'long German words widened the window')
        self.assert_labels_inside_window()
        self.screenshot('de-first-run')
        self.click(ask)
        self.wait_page(self.tr('Bluetooth Service Not Running'))
        self.assertLessEqual(self.window_extents().width, NARROWEST)
        self.assert_labels_inside_window()
        self.screenshot('de-no-service')

    def test_command_line_in_german(self):
        import subprocess
        result = subprocess.run([self.binary, 'encode', 'https://example.com/k'], env=self.env,
                                capture_output=True, text=True, timeout=60)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn('Eddystone-URL-Dienstdaten (0xfeaa), 12 Bytes', result.stdout)
        self.assertIn(self.tr('To broadcast it from this computer, paste into bluetoothctl:'),
                      result.stdout)
        self.assertIn('\nmenu advertise\n', result.stdout, 'bluetoothctl commands stay as they are')

        result = subprocess.run([self.binary, 'decode', 'zz'], env=self.env,
                                capture_output=True, text=True, timeout=60)
        self.assertEqual(result.returncode, 2)
        self.assertIn('ist nicht hexadezimal', result.stderr)

    def test_demo_list_and_preferences_in_german(self):
        self.write_settings(dict(CHOSEN, **{'window-width': NARROWEST}))
        self.start_app('--demo')
        self.wait_page(self.tr('Nearby objects'))
        wait_for(lambda: 'Bluebird Café' in self.texts(), timeout=30, what='the demo café')
        self.assertLessEqual(self.window_extents().width, NARROWEST,
                             'long German words widened the window')
        self.assert_labels_inside_window()
        self.screenshot('de-list')

        self.click(self.wait_find(name=self.tr('Main Menu'), role=pyatspi.ROLE_PUSH_BUTTON))
        self.click(self.wait_find(name=self.tr('_Preferences'), role=pyatspi.ROLE_MENU_ITEM))
        self.wait_find(name=self.tr('_Surroundings'), what='the surroundings row')
        self.screenshot('de-preferences')


class GermanDistanceTest(TranslatedTestCase):
    """"Nearby" is the app's name, kept in German, and a distance, translated: each its own."""
    language = 'de'
    settings = dict(CHOSEN, **{'lookup-policy': "'never'"})

    def test_distance_words_are_not_the_app_name(self):
        bluez = self.start_bluez()
        bluez.AddAdapter('hci0', True)
        # Calibrated -20 dBm at 0 m: -55 dBm is ~0.6 m, -65 dBm ~2 m, -90 dBm ~30 m.
        self.add_url_beacon('C0:FF:EE:00:00:01', 'http://127.0.0.1:9/near', -55)
        self.add_url_beacon('C0:FF:EE:00:00:02', 'http://127.0.0.1:9/mid', -65)
        self.add_url_beacon('C0:FF:EE:00:00:03', 'http://127.0.0.1:9/far', -90)
        self.start_app()
        words = {
            'right here': self.catalogue.pgettext('distance', 'Right here'),
            'nearby': self.catalogue.pgettext('distance', 'Nearby'),
            'farther away': self.catalogue.pgettext('distance', 'Farther away'),
        }
        self.assertEqual(words['nearby'], 'In der Nähe')

        def row_of(path):
            return next((item for item in self.find_all(self.window, role=pyatspi.ROLE_LIST_ITEM)
                         if (item.name or '').endswith(f', /{path}')), None)

        def distance_of(path):
            """The distance word the row of the object at @path is read with (not looked up,
            the list item is named "127.0.0.1, distance, /path" for screen readers)."""
            row = row_of(path)
            if row is None:
                return None
            return next((word for word in words.values() if f', {word}, ' in row.name), None)

        wait_for(lambda: distance_of('mid') == 'In der Nähe', timeout=30,
                 what=f'the middle row to say “In der Nähe” (says {distance_of("mid")!r})')
        wait_for(lambda: distance_of('near') == words['right here'], timeout=30,
                 what=f'the near row (says {distance_of("near")!r})')
        wait_for(lambda: distance_of('far') == words['farther away'], timeout=30,
                 what=f'the far row (says {distance_of("far")!r})')
        # The app's name stays the app's name.
        self.assertEqual(self.window.name, 'Nearby')
        self.assertIn('Nearby', self.texts(self.window))
        self.assertNotIn('Nearby', [distance_of(path) for path in ('near', 'mid', 'far')])
        # The list's headings are the same words, in the list's order, read as headings.
        headings = [words['right here'], words['nearby'], words['farther away']]
        wait_for(lambda: self.texts(self.window, role=pyatspi.ROLE_HEADING) == headings,
                 what=f'the German headings (have '
                      f'{self.texts(self.window, role=pyatspi.ROLE_HEADING)})')
        # Under its heading a row does not say its distance again.
        for path in ('near', 'mid', 'far'):
            shown = set(self.texts(row_of(path)))
            self.assertFalse(shown & set(words.values()), f'the {path} row shows {shown}')
        self.screenshot('de-distances')


class RightToLeftTest(TranslatedTestCase):
    language = 'he'
    settings = CHOSEN

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.pseudo_dir = tempfile.TemporaryDirectory(prefix='nearby-rtl-')
        cls.locale_dir = cls.pseudo_dir.name
        pseudo_rtl.build(cls.locale_dir, 'he')

    @classmethod
    def tearDownClass(cls):
        cls.pseudo_dir.cleanup()
        super().tearDownClass()

    def centre_x(self, node):
        extents = node.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
        return extents.x + extents.width / 2

    def test_window_mirrors(self):
        self.start_app('--demo')
        self.wait_page(self.tr('Nearby objects'))
        wait_for(lambda: 'Bluebird Café' in self.texts(), timeout=30, what='the demo café')
        width = self.window_extents().width

        # The main menu sits at the end of the header bar: on the left when text runs right
        # to left.
        menu = self.wait_find(name=self.tr('Main Menu'), role=pyatspi.ROLE_PUSH_BUTTON)
        self.assertLess(self.centre_x(menu), width / 2, 'the main menu did not move to the left')

        # A row's title starts at the right, its menu button sits on the left.
        title = self.wait_find(name='Bluebird Café', role=pyatspi.ROLE_LABEL)
        more = self.wait_find(name=self.tr('More about %s') % 'Bluebird Café',
                              role=pyatspi.ROLE_PUSH_BUTTON)
        self.assertLess(self.centre_x(more), self.centre_x(title),
                        'the row menu is not on the left of the title')
        self.assert_labels_inside_window()
        self.screenshot('rtl-list')

        self.click(menu)
        self.wait_find(name=self.tr('_Preferences'), role=pyatspi.ROLE_MENU_ITEM)
        self.screenshot('rtl-menu')


class LeftToRightControlTest(NearbyTestCase):
    """The same measurements in English, so the mirrored ones above mean something."""
    settings = CHOSEN

    def test_window_is_not_mirrored_in_english(self):
        self.start_app('--demo')
        wait_for(lambda: 'Bluebird Café' in self.texts(), timeout=30, what='the demo café')
        width = self.window.queryComponent().getExtents(pyatspi.WINDOW_COORDS).width
        menu = self.wait_find(name='Main Menu', role=pyatspi.ROLE_PUSH_BUTTON)
        extents = menu.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
        self.assertGreater(extents.x + extents.width / 2, width / 2)


if __name__ == '__main__':
    main()
