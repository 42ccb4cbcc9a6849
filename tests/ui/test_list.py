#!/usr/bin/python3
"""The list as a person uses it: objects appear nearest first with their pages' titles, and
activating one opens its web app in the browser and remembers the visit. Never a notification."""

import pyatspi

from nearbyui import NearbyTestCase, main, wait_for

DEMO_TITLES = [
    'Stop 14 · Market Street',
    'Parking Meter B-2031',
    'Bluebird Café',
    'The Antikythera Mechanism · Gallery 3',
    'Snack Machine · Level 2',
]


class DemoListTest(NearbyTestCase):
    app_args = ['--demo']
    settings = {'privacy-choice-made': 'true', 'lookup-policy': "'automatic'"}

    def setUp(self):
        super().setUp()
        self.install_fake_browser()
        self.watch_notifications()

    def row_titles(self):
        shown = set(self.texts())
        return [title for title in DEMO_TITLES if title in shown]

    def test_rows_show_titles_and_open_in_the_browser(self):
        self.start_app()
        self.wait_page('Nearby objects')
        wait_for(lambda: len(self.row_titles()) == len(DEMO_TITLES),
                 timeout=30, what=f'every demo object with its title (have {self.row_titles()})')
        self.screenshot('list')

        # A click on the café's row opens its page in the browser.
        cafe = self.wait_find(name='Bluebird Café', role=pyatspi.ROLE_LABEL)
        self.mouse_click(cafe)
        wait_for(lambda: any(url.endswith('/cafe/') for url in self.opened_urls()),
                 what=f'the browser to be asked for the café page (got {self.opened_urls()})')
        wait_for(lambda: any(url.endswith('/cafe/') and count == 1
                             for url, count in self.history_visits()),
                 what='the visit to be recorded in the history')

        # The keyboard works as well: the clicked row keeps the focus, and Enter opens it again.
        focused = wait_for(self.focused, what='a focused row after the click')
        self.assertEqual(focused.getRole(), pyatspi.ROLE_LIST_ITEM)
        self.press_keys('Return')
        wait_for(lambda: len(self.opened_urls()) == 2,
                 what=f'a second opening from the keyboard (got {self.opened_urls()})')
        self.assertTrue(self.opened_urls()[1].endswith('/cafe/'))
        wait_for(lambda: any(url.endswith('/cafe/') and count == 2
                             for url, count in self.history_visits()),
                 what='the second visit counted')
        self.assertEqual(self.notifications_sent(), [], 'Nearby never sends notifications')


class HideSiteTest(NearbyTestCase):
    app_args = ['--demo']
    settings = {'privacy-choice-made': 'true'}

    def test_hide_a_site_and_undo(self):
        self.start_app()
        wait_for(lambda: 'Bluebird Café' in self.texts(), timeout=30, what='the demo café')
        self.click(self.wait_find(name='More about Bluebird Café', role=pyatspi.ROLE_PUSH_BUTTON))
        self.screenshot('row-menu')
        self.click(self.wait_find(name='Hide This Site', role=pyatspi.ROLE_MENU_ITEM))
        # Every demo object is served from 127.0.0.1: hiding the site empties the list.
        self.wait_page('Looking for Nearby Objects…')
        self.click(self.wait_find(name='Undo', role=pyatspi.ROLE_PUSH_BUTTON))
        self.wait_page('Nearby objects')
        wait_for(lambda: 'Bluebird Café' in self.texts(), what='the café back after Undo')


if __name__ == '__main__':
    main()
