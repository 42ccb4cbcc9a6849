#!/usr/bin/python3
"""The list as a person uses it: objects appear nearest first with their pages' titles, and
activating one opens its web app in the browser and remembers the visit. Never a notification."""

import pyatspi

from nearbyui import DEMO_TITLES, NearbyTestCase, main, serve_titled_pages, wait_for


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
        self.click_row_label('Bluebird Café')
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
    """Hiding says which site and how many objects go, and an empty list says why it is empty.
    Three kiosks served from 127.0.0.1, looked up with the refresh button (the demo's objects
    each stand for a site of their own)."""
    settings = {'privacy-choice-made': 'true', 'lookup-policy': "'ask'"}
    KIOSKS = ['Kiosk A', 'Kiosk B', 'Kiosk C']

    def start_three(self):
        base = serve_titled_pages(self, {'/a': 'Kiosk A', '/b': 'Kiosk B', '/c': 'Kiosk C'})
        bluez = self.start_bluez()
        bluez.AddAdapter('hci0', True)
        self.start_app()
        for i, path in enumerate('abc'):
            self.add_url_beacon(f'C0:FF:EE:00:04:0{i}', f'{base}/{path}', -50 - 5 * i)
        wait_for(lambda: {'/a', '/b', '/c'} <= set(self.texts(self.window)),
                 what=f'the three kiosks (have {self.texts(self.window)})')
        self.click(self.wait_find(self.window, name='Look Up Pages Again',
                                  role=pyatspi.ROLE_PUSH_BUTTON))
        self.wait_kiosks(self.KIOSKS)

    def kiosks(self):
        shown = set(self.texts(self.window))
        return [title for title in self.KIOSKS if title in shown]

    def wait_kiosks(self, titles):
        wait_for(lambda: self.kiosks() == titles, what=f'the kiosks {titles} (have {self.kiosks()})')

    def test_hide_a_site_and_undo(self):
        self.start_three()
        self.open_row_menu('Kiosk B')
        # The menu says which site and how many objects go, before anything goes.
        item = self.wait_find(name='Hide Site “127.0.0.1” (3 Objects)', role=pyatspi.ROLE_MENU_ITEM)
        self.screenshot('row-menu')
        self.click(item)
        self.wait_page('3 Objects Are Hidden')
        self.wait_find(self.window, name='Show Hidden Objects', role=pyatspi.ROLE_PUSH_BUTTON)
        self.screenshot('objects-hidden')
        self.click(self.wait_find(name='Undo', role=pyatspi.ROLE_PUSH_BUTTON))
        self.wait_page('Nearby objects')
        self.wait_kiosks(self.KIOSKS)

    def test_show_hidden_objects_from_the_empty_page(self):
        self.start_three()
        self.open_row_menu('Kiosk C')
        self.click(self.wait_find(name='Hide Site “127.0.0.1” (3 Objects)',
                                  role=pyatspi.ROLE_MENU_ITEM))
        self.wait_page('3 Objects Are Hidden')
        self.assertEqual(self.kiosks(), [])

        self.click(self.wait_find(self.window, name='Show Hidden Objects',
                                  role=pyatspi.ROLE_PUSH_BUTTON))
        self.wait_page('Nearby objects')
        self.wait_kiosks(self.KIOSKS)
        self.wait_find(self.window, name='Objects from 127.0.0.1 are shown again',
                       what='the toast saying which site is back')

    def test_a_favourite_stays_when_its_site_is_hidden(self):
        self.start_three()
        self.open_row_menu('Kiosk A')
        self.click(self.wait_find(name='Add to Favourites', role=pyatspi.ROLE_MENU_ITEM))

        # Kiosk A is chosen one by one: hiding its site takes the two others, not it.
        self.open_row_menu('Kiosk C')
        self.click(self.wait_find(name='Hide Site “127.0.0.1” (2 Objects)',
                                  role=pyatspi.ROLE_MENU_ITEM))
        self.wait_kiosks(['Kiosk A'])
        self.wait_page('Nearby objects')
        self.screenshot('favourite-of-hidden-site')

        # No longer a favourite, it goes the way of its site.
        self.open_row_menu('Kiosk A')
        self.click(self.wait_find(name='Remove From Favourites', role=pyatspi.ROLE_MENU_ITEM))
        self.wait_page('3 Objects Are Hidden')


class DemoHideSiteTest(NearbyTestCase):
    """The demo's objects stand for a street: each is on a made-up site of its own, and hiding
    one hides that site (never 127.0.0.1, which every demo page really comes from)."""
    app_args = ['--demo']
    settings = {'privacy-choice-made': 'true', 'lookup-policy': "'automatic'"}

    def test_hiding_a_demo_object_hides_its_made_up_site(self):
        self.start_app()
        self.wait_for_every_demo_row()
        self.open_row_menu('Bluebird Café')
        items = [node.name for node in self.find_all(self.app, role=pyatspi.ROLE_MENU_ITEM)]
        self.assertIn('Hide Site “bluebird-cafe.example” (1 Object)', items)
        self.assertFalse(any('127.0.0.1' in name for name in items), items)
        self.click(self.wait_find(name='Hide Site “bluebird-cafe.example” (1 Object)',
                                  role=pyatspi.ROLE_MENU_ITEM))
        self.wait_find(self.window, name='Objects from bluebird-cafe.example are hidden',
                       what='the toast naming the made-up site')
        wait_for(lambda: 'Bluebird Café' not in self.demo_row_titles(),
                 what='the café to go')
        self.assertEqual(len(self.demo_row_titles()), len(DEMO_TITLES) - 1,
                         f'only the café goes (have {self.demo_row_titles()})')
        self.screenshot('demo-site-hidden')


if __name__ == '__main__':
    main()
