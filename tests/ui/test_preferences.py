#!/usr/bin/python3
"""Preferences as a person uses them: every button there does what it says. A site hidden from
the list comes back from its row in Hidden Sites, and Clear History (after its question) forgets
the hidden sites, the favourites and the visits, in the open window as on disk."""

import pyatspi

from nearbyui import NearbyTestCase, main, wait_for

class DemoTestCase(NearbyTestCase):
    """The demo's five objects, every one served from 127.0.0.1, with their pages looked up."""
    app_args = ['--demo']
    settings = {'privacy-choice-made': 'true', 'lookup-policy': "'automatic'"}

    def menu_item(self, contains):
        return self.wait_find(contains=contains, role=pyatspi.ROLE_MENU_ITEM,
                              what=f'the menu item “{contains}…”')

    def hide_demo_site(self):
        self.open_row_menu('Bluebird Café')
        self.click(self.menu_item('Hide Site'))
        self.wait_page('5 Objects Are Hidden')

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


class HiddenSitesTest(DemoTestCase):

    def test_show_a_hidden_site_again_from_preferences(self):
        self.start_app()
        self.wait_for_every_demo_row()
        self.hide_demo_site()

        preferences = self.open_preferences()
        # Long after the Undo toast is gone, Preferences can still bring the site back.
        self.wait_find(preferences, name='127.0.0.1', what='the hidden site in Preferences')
        show = self.wait_find(preferences, name='Show objects from 127.0.0.1 again',
                              role=pyatspi.ROLE_PUSH_BUTTON)
        self.assert_sensitive(show)
        self.screenshot('preferences-hidden-site')
        self.click(show)
        self.wait_find(preferences, name='No hidden sites', what='the emptied Hidden Sites list')
        self.wait_find(preferences, name='Objects from 127.0.0.1 are shown again',
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
        self.mouse_click(self.wait_find(self.window, name='Bluebird Café', role=pyatspi.ROLE_LABEL))
        wait_for(lambda: any(url.endswith('/cafe/') for url, _ in self.history_visits()),
                 what='the visit to the café recorded')
        self.open_row_menu('Parking Meter B-2031')
        self.click(self.menu_item('Add to Favourites'))
        self.open_row_menu('Parking Meter B-2031')
        self.menu_item('Remove From Favourites')
        self.open_row_menu('Parking Meter B-2031')
        # The favourite stays when its site is hidden.
        self.open_row_menu('Bluebird Café')
        self.click(self.menu_item('Hide Site “127.0.0.1” (4 Objects)'))
        wait_for(lambda: self.demo_row_titles() == ['Parking Meter B-2031'],
                 what=f'the parking meter alone in the list (have {self.demo_row_titles()})')

        preferences = self.open_preferences()
        self.wait_find(preferences, name='127.0.0.1', what='the hidden site in Preferences')
        clear = self.wait_find(preferences, contains='Clear…', role=pyatspi.ROLE_PUSH_BUTTON)
        self.assert_sensitive(clear)
        self.click(clear)

        # The question first; Cancel keeps everything.
        self.wait_find(name='Clear History?', what='the confirmation')
        self.screenshot('clear-history-question')
        self.click(self.wait_find(name='Cancel', role=pyatspi.ROLE_PUSH_BUTTON))
        wait_for(lambda: self.find(self.app, name='Clear History?') is None,
                 what='the question to go away')
        self.wait_find(preferences, name='127.0.0.1', what='the hidden site kept after Cancel')
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


if __name__ == '__main__':
    main()
