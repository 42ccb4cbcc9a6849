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
        self.wait_page(self.tr('Looking Up Pages'))
        ask = self.wait_find(name=self.tr('_Ask Me Each Time'), role=pyatspi.ROLE_PUSH_BUTTON)
        self.wait_find(name=self.tr('_Look Up Secure Pages Automatically'),
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
        self.wait_find(name=self.tr('_Distance Calibration'), what='the calibration row')
        self.screenshot('de-preferences')


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
