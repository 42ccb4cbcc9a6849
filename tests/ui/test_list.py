#!/usr/bin/python3
"""The list as a person uses it: objects appear nearest first with their pages' titles, and
activating one opens its web app in the browser and remembers the visit. Never a notification."""

import pyatspi

from nearbyui import NearbyTestCase, main, wait_for


class DemoListTest(NearbyTestCase):
    app_args = ['--demo']
    settings = {'privacy-choice-made': 'true', 'lookup-policy': "'automatic'"}

    def setUp(self):
        super().setUp()
        self.install_fake_browser()
        self.watch_notifications()

    def test_rows_show_titles_and_open_in_the_browser(self):
        self.start_app()
        self.wait_page('Nearby objects')
        self.wait_for_every_demo_row()
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
    """Hiding says which site and how many objects go, and an empty list says why it is empty."""
    app_args = ['--demo']
    settings = {'privacy-choice-made': 'true', 'lookup-policy': "'automatic'"}

    def test_hide_a_site_and_undo(self):
        self.start_app()
        self.wait_for_every_demo_row()
        self.open_row_menu('Bluebird Café')
        # Every demo object is served from 127.0.0.1: the menu says so before anything goes.
        item = self.wait_find(name='Hide Site “127.0.0.1” (5 Objects)', role=pyatspi.ROLE_MENU_ITEM)
        self.screenshot('row-menu')
        self.click(item)
        self.wait_page('5 Objects Are Hidden')
        self.wait_find(self.window, name='Show Hidden Objects', role=pyatspi.ROLE_PUSH_BUTTON)
        self.screenshot('objects-hidden')
        self.click(self.wait_find(name='Undo', role=pyatspi.ROLE_PUSH_BUTTON))
        self.wait_page('Nearby objects')
        self.wait_for_every_demo_row()

    def test_show_hidden_objects_from_the_empty_page(self):
        self.start_app()
        self.wait_for_every_demo_row()
        self.open_row_menu('Snack Machine · Level 2')
        self.click(self.wait_find(name='Hide Site “127.0.0.1” (5 Objects)',
                                  role=pyatspi.ROLE_MENU_ITEM))
        self.wait_page('5 Objects Are Hidden')
        self.assertEqual(self.demo_row_titles(), [])

        self.click(self.wait_find(self.window, name='Show Hidden Objects',
                                  role=pyatspi.ROLE_PUSH_BUTTON))
        self.wait_page('Nearby objects')
        self.wait_for_every_demo_row()
        self.wait_find(self.window, name='Objects from 127.0.0.1 are shown again',
                       what='the toast saying which site is back')

    def test_a_favourite_stays_when_its_site_is_hidden(self):
        self.start_app()
        self.wait_for_every_demo_row()
        self.open_row_menu('Bluebird Café')
        self.click(self.wait_find(name='Add to Favourites', role=pyatspi.ROLE_MENU_ITEM))

        # The café is chosen one by one: hiding its site takes the four others, not the café.
        self.open_row_menu('Snack Machine · Level 2')
        self.click(self.wait_find(name='Hide Site “127.0.0.1” (4 Objects)',
                                  role=pyatspi.ROLE_MENU_ITEM))
        wait_for(lambda: self.demo_row_titles() == ['Bluebird Café'],
                 what=f'the café alone in the list (have {self.demo_row_titles()})')
        self.wait_page('Nearby objects')
        self.screenshot('favourite-of-hidden-site')

        # No longer a favourite, it goes the way of its site.
        self.open_row_menu('Bluebird Café')
        self.click(self.wait_find(name='Remove From Favourites', role=pyatspi.ROLE_MENU_ITEM))
        self.wait_page('5 Objects Are Hidden')


if __name__ == '__main__':
    main()
