#!/usr/bin/python3
"""Every page as it looks in the light and dark styles, in high contrast and 360 pixels wide:
the first-run question, Bluetooth's pages, the list, its row menu, Preferences and Details.
The screenshots (`look-STYLE-PAGE.png`) are for people to look at; what the test asserts is
that each page comes up, with every label inside the window."""

import pyatspi

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


# The styles above run the pages; the base class alone is no style of its own.
del LooksTestCase

if __name__ == '__main__':
    main()
