#!/usr/bin/python3
"""Every page as it looks in the light and dark styles, in high contrast and 360 pixels wide:
the first-run question, Bluetooth's pages, the list, its row menu, Preferences and Details; and
Details in German and right to left. The screenshots (`look-STYLE-PAGE.png`) are for people to
look at; what the test asserts is that each page comes up, with every label inside the window,
and that Details' buttons and labels neither overlap nor run out of it in either language."""

import tempfile

import pyatspi

import pseudo_rtl
import test_i18n
from nearbyui import NARROWEST, NearbyTestCase, main, wait_for

CHOSEN = {'privacy-choice-made': 'true', 'lookup-policy': "'automatic'"}


class LooksTestCase(NearbyTestCase):
    style = 'light'
    environment = {}
    width = None

    def setUp(self):
        super().setUp()
        self.env.update(self.environment)

    def write_settings(self, values):
        if self.width is not None:
            values = dict(values, **{'window-width': self.width})
        super().write_settings(values)

    def shot(self, page):
        if self.width is not None:
            self.assertLessEqual(self.window_extents().width, self.width)
            self.assert_labels_inside_window()
        self.screenshot(f'look-{self.style}-{page}')

    def test_first_run_and_no_service(self):
        self.start_app()
        self.wait_page('When May Nearby Look Up Pages?')
        self.shot('first-run')
        self.click(self.wait_find(name='Ask Me Each Time', role=pyatspi.ROLE_PUSH_BUTTON))
        self.wait_page('Bluetooth Service Not Running')
        self.shot('no-service')

    def test_bluetooth_pages(self):
        self.write_settings(CHOSEN)
        bluez = self.start_bluez()
        self.start_app()
        self.wait_page('No Bluetooth Adapter')
        self.shot('no-adapter')
        bluez.AddAdapter('hci0', False)
        self.wait_page('Bluetooth Is Off')
        self.shot('bluetooth-off')
        bluez.SetPowered('hci0', True)
        self.wait_page('Looking for Nearby Objects…')
        self.shot('searching')

    def test_list_menu_preferences_and_details(self):
        self.write_settings(CHOSEN)
        self.start_app('--demo')
        self.wait_page('Nearby objects')
        self.wait_for_every_demo_row()
        self.shot('list')

        self.open_row_menu('Bluebird Café')
        self.screenshot(f'look-{self.style}-row-menu')
        self.click(self.wait_find(self.app, name='Details', role=pyatspi.ROLE_MENU_ITEM))
        details = self.wait_find(self.app, name='Details', role=pyatspi.ROLE_FRAME)
        wait_for(lambda: self.find(details, name='Open', role=pyatspi.ROLE_PUSH_BUTTON),
                 what='the summary of Details')
        self.screenshot(f'look-{self.style}-details')
        self.give_focus(details)
        self.press_control('w')
        wait_for(lambda: self.find(self.app, name='Details', role=pyatspi.ROLE_FRAME) is None,
                 what='Ctrl+W to close Details')

        self.click(self.wait_find(self.window, name='Main Menu', role=pyatspi.ROLE_PUSH_BUTTON))
        self.click(self.wait_find(name='Preferences', role=pyatspi.ROLE_MENU_ITEM))
        self.wait_find(name='Preferences', role=pyatspi.ROLE_FRAME)
        self.wait_find(name='Surroundings', what='the Surroundings row')
        self.screenshot(f'look-{self.style}-preferences')


class LightTest(LooksTestCase):
    style = 'light'
    environment = {'ADW_DEBUG_COLOR_SCHEME': 'prefer-light'}


class DarkTest(LooksTestCase):
    style = 'dark'
    environment = {'ADW_DEBUG_COLOR_SCHEME': 'prefer-dark'}


class HighContrastTest(LooksTestCase):
    style = 'high-contrast'
    environment = {'ADW_DEBUG_COLOR_SCHEME': 'prefer-light', 'ADW_DEBUG_HIGH_CONTRAST': '1'}


class NarrowTest(LooksTestCase):
    style = '360px'
    environment = {'ADW_DEBUG_COLOR_SCHEME': 'prefer-light'}
    width = NARROWEST


class TranslatedDetailsTestCase(test_i18n.TranslatedTestCase):
    """Details of the demo's café in another language, in the light style."""
    settings = CHOSEN
    style = None

    def setUp(self):
        super().setUp()
        self.env['ADW_DEBUG_COLOR_SCHEME'] = 'prefer-light'

    @staticmethod
    def extents(node):
        return node.queryComponent().getExtents(pyatspi.WINDOW_COORDS)

    def open_details(self):
        self.start_app('--demo')
        self.wait_page(self.tr('Nearby objects'))
        self.wait_for_every_demo_row()
        self.click(self.wait_find(self.window, name=self.tr('More about %s') % 'Bluebird Café',
                                  role=pyatspi.ROLE_PUSH_BUTTON))
        self.click(self.wait_find(self.app, name=self.tr('_Details'),
                                  role=pyatspi.ROLE_MENU_ITEM))
        details = self.wait_find(self.app, name=self.tr('Details'), role=pyatspi.ROLE_FRAME)
        open_button = self.wait_find(details, name=self.tr('_Open'),
                                     role=pyatspi.ROLE_PUSH_BUTTON, what='the Open button')
        favourite = self.wait_find(details, name=self.tr('_Add to Favourites'),
                                   role=pyatspi.ROLE_PUSH_BUTTON, what='the favourite button')
        self.wait_find(details, name='bluebird-cafe.example', role=pyatspi.ROLE_LABEL,
                       what='the site in the summary')
        self.screenshot(f'look-{self.style}-details')
        return details, open_button, favourite

    def assert_laid_out(self, details, open_button, favourite):
        width = self.extents(details).width
        for label in self.find_all(details, role=pyatspi.ROLE_LABEL):
            extents = self.extents(label)
            self.assertLessEqual(extents.x + extents.width, width + 1,
                                 f'“{label.name}” runs past Details')
            self.assertGreaterEqual(extents.x, -1, f'“{label.name}” starts outside Details')
        first, second = sorted((self.extents(open_button), self.extents(favourite)),
                               key=lambda extents: extents.x)
        self.assertLessEqual(first.x + first.width, second.x, 'Open and the favourite overlap')
        # The title fits on one line: a heading's line, not two.
        title = self.wait_find(details, name='Bluebird Café', role=pyatspi.ROLE_LABEL)
        self.assertLess(self.extents(title).height, 2 * self.extents(open_button).height / 1.5,
                        'the short title wrapped or was cut')
        return first, second


class GermanDetailsTest(TranslatedDetailsTestCase):
    language = 'de'
    style = 'de'

    def test_details_in_german(self):
        details, open_button, favourite = self.open_details()
        self.assert_laid_out(details, open_button, favourite)
        # The longest German words of the summary, whole.
        self.wait_find(details, name=self.tr('Made up for the demo: the page comes from this '
                                             'computer'), role=pyatspi.ROLE_LABEL)


class RightToLeftDetailsTest(TranslatedDetailsTestCase):
    language = 'he'
    style = 'rtl'

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        # The right-to-left pseudo-translation test_i18n builds from the sources.
        cls.pseudo_dir = tempfile.TemporaryDirectory(prefix='nearby-rtl-')
        cls.locale_dir = cls.pseudo_dir.name
        pseudo_rtl.build(cls.locale_dir, 'he')

    @classmethod
    def tearDownClass(cls):
        cls.pseudo_dir.cleanup()
        super().tearDownClass()

    def test_details_mirror(self):
        details, open_button, favourite = self.open_details()
        first, second = self.assert_laid_out(details, open_button, favourite)
        # Open comes first in reading order: on the right.
        self.assertEqual((first.x, first.width), (self.extents(favourite).x,
                                                  self.extents(favourite).width),
                         'Open is not to the right of the favourite button')
        # What starts a line starts at the right: the expander of the developer details (a
        # label of its own width; the rows' titles take the whole row either way).
        expander = self.wait_find(details, name=self.tr('Developer Details'),
                                  role=pyatspi.ROLE_LABEL)
        self.assertGreater(self.extents(expander).x, self.extents(details).width / 2,
                           'the developer details did not move to the right')


# The styles above run the pages; the base classes alone are no style of their own.
del LooksTestCase
del TranslatedDetailsTestCase

if __name__ == '__main__':
    main()
