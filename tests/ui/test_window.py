#!/usr/bin/python3
"""The window as a person first meets it: the privacy question, then the status pages."""

import pyatspi

from nearbyui import NearbyTestCase, main


class FirstRunTest(NearbyTestCase):

    def test_first_run_asks_before_looking_anything_up(self):
        self.start_app()
        self.wait_page('Looking Up Pages')
        ask = self.wait_find(name='Ask Me Each Time', role=pyatspi.ROLE_PUSH_BUTTON)
        self.screenshot('first-run')
        self.click(ask)
        self.wait_page('Looking for Nearby Objects…')

    def test_preferences_open_from_the_menu_action(self):
        self.start_app()
        menu = self.wait_find(name='Main Menu', role=pyatspi.ROLE_PUSH_BUTTON)
        self.click(menu)
        item = self.wait_find(name='Preferences', role=pyatspi.ROLE_MENU_ITEM)
        self.click(item)
        self.wait_find(name='Look Up Pages', what='the look-up policy row')
        self.screenshot('preferences')


if __name__ == '__main__':
    main()
