#!/usr/bin/python3
"""The Details window: for everyone, a summary (title, description, site, distance, security)
with Open and Add to Favourites; for a beacon developer, under Developer Details, the URL, every
frame each address sent (a TLM frame's battery included), the signal graph, the page log,
copying it all as JSON, Escape and Ctrl+W.

It is opened from the keyboard: Tab into the list and the arrows to a row, then Ctrl+I
(developer mode) opens the inspector of that row's object, as the row menu's “Details” does."""

import os
import time

import pyatspi
from nearbyui import NearbyTestCase, main, wait_for, walk

KEY_ESCAPE = 0xff1b


class InspectorTestCase(NearbyTestCase):
    """Finding, opening and closing the inspector."""

    def inspectors(self):
        return [node for node in self.find_all(self.app, role=pyatspi.ROLE_FRAME)
                if node.name == 'Details']

    def labels_in(self, root):
        texts = []
        for node in walk(root):
            try:
                if node.name and node.getRole() == pyatspi.ROLE_LABEL:
                    texts.append(node.name)
            except Exception:
                continue
        return texts

    def open_details(self, row_name):
        """Ctrl+I on the row button called @row_name: returns the inspector it opens."""
        self.wait_find(self.window, name=row_name, role=pyatspi.ROLE_PUSH_BUTTON,
                       what=f'the row button “{row_name}”')
        self.focus_row_button(row_name)
        self.press_control_i()
        return self.wait_for_inspector()

    def wait_for_inspector(self):
        """The inspector, once it shows its object's web address (or that it has none): AT-SPI
        can list a new window before its labels, and a look at it then would find none."""
        def filled_in():
            for inspector in self.inspectors():
                texts = self.labels_in(inspector)
                if 'No web address' in texts or any('://' in text for text in texts):
                    return inspector
            return None
        return wait_for(filled_in, what='the inspector with its object')

    def close_with_escape(self, inspector):
        """Escape in the focused inspector closes it. It is pressed again, three times at most,
        if the inspector is still open after 6 s: a toast on show takes an Escape of its own."""
        for _ in range(3):
            if not self.inspectors():
                return
            self.give_focus(inspector)
            pyatspi.Registry.generateKeyboardEvent(KEY_ESCAPE, None, pyatspi.KEY_SYM)
            try:
                wait_for(lambda: not self.inspectors(), timeout=6, what='the inspector to close')
                return
            except AssertionError:
                continue
        raise AssertionError('Escape does not close the inspector')


class DemoInspectorTest(InspectorTestCase):
    app_args = ['--demo', '--developer']
    settings = {'privacy-choice-made': 'true', 'lookup-policy': "'ask'"}

    def test_details_of_a_url_beacon_that_sends_telemetry(self):
        self.start_app()
        self.wait_page('Nearby objects')
        inspector = self.open_details('More about Stop 14 · Market Street')
        bus_stop = next((text for text in self.labels_in(inspector) if text.endswith('/bus-stop/')),
                        None)
        self.assertIsNotNone(bus_stop, 'the bus stop’s URL in its inspector')
        self.assertTrue(bus_stop.startswith('http://127.0.0.1:'))

        # The URL in full, the address it came from, and the TLM frame's battery.
        self.assertIn(bus_stop, self.labels_in(inspector))
        self.assertIn('02:4E:42:00:00:01', self.labels_in(inspector))
        wait_for(lambda: any('2950 mV' in text for text in self.labels_in(inspector)),
                 what='the TLM frame with its battery voltage')
        self.assertIn('Eddystone-TLM', self.labels_in(inspector))
        self.assertIn('Eddystone-URL', self.labels_in(inspector))
        # The demo's pages are looked up (they come from this computer): the page log says how.
        wait_for(lambda: any(text == f'HTTP 200 from {bus_stop}' for text in self.labels_in(inspector)),
                 what='the page log with the answer of the demo server')
        self.assertIn('Heard now', self.labels_in(inspector))

        graph = wait_for(lambda: self.find(inspector, role=pyatspi.ROLE_IMAGE, contains='dBm'),
                         what='the signal graph to describe the last value')
        self.assertIn('over the last minute', graph.name)
        time.sleep(3)  # a few seconds of signal in the graph, for the people looking at it
        self.screenshot('inspector')

        # The icon button says what it does; copying confirms with a toast.
        self.click(self.find(inspector, name='Copy as JSON', role=pyatspi.ROLE_PUSH_BUTTON))
        self.wait_find(inspector, name='Copied as JSON', role=pyatspi.ROLE_LABEL,
                       what='the toast after copying')

        # As everywhere in libadwaita, Escape first dismisses the toast; the next one closes.
        # (Should the toast have timed out already, the first Escape closes the inspector.)
        self.give_focus(inspector)
        pyatspi.Registry.generateKeyboardEvent(KEY_ESCAPE, None, pyatspi.KEY_SYM)
        wait_for(lambda: not self.find(inspector, name='Copied as JSON', role=pyatspi.ROLE_LABEL,
                                       showing=False) or not self.inspectors(),
                 what='Escape to dismiss the toast')
        self.close_with_escape(inspector)

    def test_details_of_a_beacon_without_a_web_page(self):
        self.start_app()
        self.wait_page('Nearby objects')
        self.wait_find(self.window, role=pyatspi.ROLE_LABEL, name='Eddystone-UID beacon',
                       what='the asset tag, shown in developer mode')
        inspector = self.open_details('More about Eddystone-UID beacon')

        texts = self.labels_in(inspector)
        self.assertIn('Eddystone-UID beacon', texts, 'the heading names it as its row does')
        self.assertIn('No web address', texts)
        self.assertIn('Eddystone-UID', texts)
        self.assertIn('Not looked up: no web page to look up', texts)
        self.assertIn('02:4E:42:00:00:06', texts)
        self.assertTrue(any('4e 45 41 52 42 59 44 45 4d 4f' in text for text in texts),
                        'the namespace in hex')
        self.screenshot('inspector-uid')
        self.close_with_escape(inspector)



class EveryoneInspectorTest(InspectorTestCase):
    """Details without developer mode, from the row menu: the summary first, the developer
    details closed until asked for."""
    app_args = ['--demo']
    settings = {'privacy-choice-made': 'true', 'lookup-policy': "'automatic'"}

    def setUp(self):
        super().setUp()
        self.install_fake_browser()

    def test_summary_with_open_and_favourite(self):
        self.start_app()
        self.wait_for_every_demo_row()
        self.open_row_menu('Bluebird Café')
        self.click(self.wait_find(self.app, name='Details', role=pyatspi.ROLE_MENU_ITEM))
        inspector = self.wait_for_inspector()

        texts = self.labels_in(inspector)
        self.assertIn('Bluebird Café', texts)
        self.assertTrue(any(text.startswith('Order ahead and skip the queue') for text in texts),
                        f'the page’s description in the summary (have {texts})')
        # The site as the café's row shows it: the demo's made-up host, and then where the page
        # really comes from.
        self.assertIn('bluebird-cafe.example', texts, 'the site')
        self.assertNotIn('127.0.0.1', texts, 'the demo’s real host in the summary')
        self.assertIn('Made up for the demo: the page comes from this computer', texts,
                      'the security, said in full')
        self.assertTrue(any(text.endswith(' m') and 'about' in text for text in texts),
                        'the distance')
        # The frames and the page log are for developers: closed, so not on screen.
        self.assertNotIn('Eddystone-URL', texts)
        self.assertFalse(any(text.startswith('HTTP 200 from') for text in texts))
        expander = self.wait_find(inspector, name='Developer Details', role=pyatspi.ROLE_PUSH_BUTTON,
                                  what='the expander')
        self.assertFalse(expander.getState().contains(pyatspi.STATE_EXPANDED))
        self.screenshot('inspector-summary')

        # Add to Favourites says it did: the button turns into its opposite, and so does the
        # row menu's item.
        self.click(self.wait_find(inspector, name='Add to Favourites',
                                  role=pyatspi.ROLE_PUSH_BUTTON))
        self.wait_find(inspector, name='Remove From Favourites', role=pyatspi.ROLE_PUSH_BUTTON,
                       what='the button after adding the favourite')

        self.click(self.wait_find(inspector, name='Open', role=pyatspi.ROLE_PUSH_BUTTON))
        wait_for(lambda: any(url.endswith('/cafe/') for url in self.opened_urls()),
                 what=f'the café’s page opened in the browser (have {self.opened_urls()})')

        # The developer details open when asked for.
        self.click(expander)
        wait_for(lambda: 'Eddystone-URL' in self.labels_in(inspector),
                 what='the frames once Developer Details is open')
        self.assertTrue(any(text.startswith('HTTP 200 from') for text in self.labels_in(inspector)),
                        'the page log')

        # Ctrl+W closes Details, as any GNOME window.
        for _ in range(3):
            self.give_focus(inspector)
            self.press_control('w')
            try:
                wait_for(lambda: not self.inspectors(), timeout=6, what='Ctrl+W to close Details')
                break
            except AssertionError:
                continue
        self.assertFalse(self.inspectors(), 'Ctrl+W does not close Details')

        self.open_row_menu('Bluebird Café')
        self.wait_find(self.app, name='Remove From Favourites', role=pyatspi.ROLE_MENU_ITEM,
                       what='the favourite in the row menu')


class ReplayInspectorTest(InspectorTestCase):
    """A finished replay: the row menu's Details, and the bytes behind every frame. (That an
    expired object keeps its inspector is tested in test-inspector.c: here the list, engaged by
    the focus on the row's button, keeps its expired rows.)"""
    app_args = []
    settings = {'privacy-choice-made': 'true', 'lookup-policy': "'never'",
                'stale-seconds': '3'}
    capture = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'data',
                           'capture-good.jsonl')

    def open_details_from_menu(self, button_name):
        def attempt():
            button = self.find(self.window, name=button_name, role=pyatspi.ROLE_PUSH_BUTTON)
            self.click(button)
            item = wait_for(lambda: self.find(self.app, name='Details', role=pyatspi.ROLE_MENU_ITEM),
                            timeout=2, what='the Details item')
            self.click(item)
            return True
        # Retried because AT-SPI can report the button before the row takes clicks; that an open
        # menu stays open while its row updates is test_list's job.
        wait_for(attempt, timeout=30, what=f'Details from the menu of “{button_name}”')
        return self.wait_for_inspector()

    def test_frames_with_their_bytes(self):
        self.start_app('--replay', self.capture)
        inspector = self.open_details_from_menu('More about example.com')

        texts = self.labels_in(inspector)
        self.assertIn('https://example.com', texts)
        self.assertIn('Unverified: not looked up', texts, 'the security of a page never fetched')
        self.assertNotIn('C0:FF:EE:00:00:01', texts, 'the frames are for developers')
        self.click(self.wait_find(inspector, name='Developer Details', role=pyatspi.ROLE_PUSH_BUTTON,
                                  what='the expander'))
        wait_for(lambda: 'C0:FF:EE:00:00:01' in self.labels_in(inspector),
                 what='the frames under Developer Details')
        texts = self.labels_in(inspector)
        self.assertIn('C0:FF:EE:00:00:02', texts, 'every address that broadcast the URL')
        self.assertIn('Service data 0xFEAA: 10 ec 03 65 78 61 6d 70 6c 65 07', texts)
        self.assertTrue(any(text.startswith('Service data 0xFEAA: 20 00 0b b8') for text in texts),
                        'the TLM frame with its bytes')
        self.assertIn('Not looked up yet', texts)

        self.screenshot('inspector-replay')
        self.close_with_escape(inspector)


if __name__ == '__main__':
    main()
