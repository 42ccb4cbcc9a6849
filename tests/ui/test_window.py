#!/usr/bin/python3
"""The window as a person first meets it: the privacy question, then a status page for every
state of Bluetooth, each with what the person can do about it."""

import pyatspi

from nearbyui import NARROWEST, NearbyTestCase, main, wait_for

CHOSEN = {'privacy-choice-made': 'true'}


class FirstRunTest(NearbyTestCase):

    def test_first_run_asks_before_looking_anything_up(self):
        self.start_app()
        self.wait_page('When May Nearby Look Up Pages?')
        ask = self.wait_find(name='Ask Me Each Time', role=pyatspi.ROLE_PUSH_BUTTON)
        self.wait_find(name='Secure Pages Automatically', role=pyatspi.ROLE_PUSH_BUTTON)
        self.screenshot('first-run')
        self.click(ask)
        # No bluetoothd on this (private) system bus.
        self.wait_page('Bluetooth Service Not Running')
        self.screenshot('no-service')

    def test_secure_pages_automatically(self):
        import configparser
        import os
        self.start_app()
        self.wait_page('When May Nearby Look Up Pages?')
        self.click(self.wait_find(name='Secure Pages Automatically', role=pyatspi.ROLE_PUSH_BUTTON))
        self.wait_page('Bluetooth Service Not Running')

        def chosen():
            parser = configparser.ConfigParser(interpolation=None)
            parser.read(os.path.join(self.tmp, 'config', 'glib-2.0', 'settings', 'keyfile'))
            group = os.environ['NEARBY_APP_ID'].replace('.', '/')
            return (parser.get(group, 'privacy-choice-made', fallback=None),
                    parser.get(group, 'lookup-policy', fallback=None))
        wait_for(lambda: chosen() == ('true', "'automatic'"), what=f'the choice kept ({chosen()})')

    def test_preferences_open_from_the_menu(self):
        self.start_app()
        menu = self.wait_find(name='Main Menu', role=pyatspi.ROLE_PUSH_BUTTON)
        self.click(menu)
        item = self.wait_find(name='Preferences', role=pyatspi.ROLE_MENU_ITEM)
        self.click(item)
        self.wait_find(name='Look Up Pages', what='the look-up policy row')
        self.screenshot('preferences')


class PhoneWidthTest(NearbyTestCase):
    """A phone is 360 pixels wide: no label may make the window wider than that."""
    settings = {'window-width': 300}

    def test_first_run_fits_a_phone(self):
        self.start_app()
        self.wait_page('When May Nearby Look Up Pages?')
        self.wait_find(name='Secure Pages Automatically', role=pyatspi.ROLE_PUSH_BUTTON)
        self.assertLessEqual(self.window_extents().width, NARROWEST,
                             'the first-run buttons widened the window')
        self.assert_labels_inside_window()

    def test_list_fits_a_phone(self):
        # The demo asks nothing first: its pages come from this computer.
        self.start_app('--demo')
        self.wait_page('Nearby objects')
        wait_for(lambda: 'Bluebird Café' in self.texts(), timeout=30, what='the demo café')
        self.assertLessEqual(self.window_extents().width, NARROWEST,
                             'a row widened the window')
        self.assert_labels_inside_window()
        self.screenshot('phone-list')


class StatusPagesTest(NearbyTestCase):
    settings = CHOSEN

    def test_no_adapter_offers_the_demo(self):
        self.start_bluez()
        self.start_app()
        self.wait_page('No Bluetooth Adapter')
        self.screenshot('no-adapter')
        self.click(self.wait_find(name='Show Demo Objects', role=pyatspi.ROLE_PUSH_BUTTON))
        self.wait_page('Nearby objects')
        wait_for(lambda: 'Bluebird Café' in self.texts(), timeout=30,
                 what='the demo café with its title')

    def test_adapter_off_and_the_turn_on_button(self):
        self.start_bluez().AddAdapter('hci0', False)
        self.start_app()
        self.wait_page('Bluetooth Is Off')
        self.screenshot('bluetooth-off')
        self.click(self.wait_find(name='Turn On', role=pyatspi.ROLE_PUSH_BUTTON))
        wait_for(self.adapter_powered, what='the adapter to be powered on')
        self.wait_page('Looking for Nearby Objects…')
        self.screenshot('searching')

    def test_adapter_plugged_in_later(self):
        bluez = self.start_bluez()
        self.start_app()
        self.wait_page('No Bluetooth Adapter')
        bluez.AddAdapter('hci0', True)
        self.wait_page('Looking for Nearby Objects…')

    def install_fake_settings(self):
        """A gnome-control-center that only writes down the panel it is asked to open."""
        import os
        folder = os.path.join(self.tmp, 'bin')
        os.makedirs(folder, exist_ok=True)
        self.settings_log = os.path.join(self.tmp, 'settings-panels')
        script = os.path.join(folder, 'gnome-control-center')
        with open(script, 'w') as f:
            f.write(f'#!/bin/sh\nprintf "%s\\n" "$*" >> {self.settings_log}\n')
        os.chmod(script, 0o755)
        self.env['PATH'] = folder + os.pathsep + self.env.get('PATH', os.defpath)

    def settings_panels(self):
        try:
            with open(self.settings_log) as f:
                return [line.strip() for line in f if line.strip()]
        except FileNotFoundError:
            return []

    def test_listening_is_said_by_a_still_icon(self):
        bluez = self.start_bluez()
        bluez.AddAdapter('hci0', True)
        self.start_app()
        self.wait_page('Looking for Nearby Objects…')
        indicator = self.wait_find(name='Listening for nearby objects',
                                   what='the listening indicator in the header bar')
        # An icon, not a spinner (a progress bar to AT-SPI): nothing animates while the app
        # listens, so an open window at rest costs no more than any other.
        self.assertEqual(indicator.getRole(), pyatspi.ROLE_IMAGE)
        self.assertIsNone(self.find(self.app, role=pyatspi.ROLE_PROGRESS_BAR),
                          'no spinner anywhere in the window')
        self.assertIsNone(self.find(self.app, role=pyatspi.ROLE_ANIMATION))

        # Not listening: no indicator.
        bluez.SetPowered('hci0', False)
        self.wait_page('Bluetooth Is Off')
        wait_for(lambda: self.find(self.app, name='Listening for nearby objects') is None,
                 what='the listening indicator to go')

    def test_rfkill_blocked_adapter(self):
        import os
        # No Settings app to open (as inside a sandbox): the page's text says what to do.
        empty = os.path.join(self.tmp, 'empty-bin')
        os.makedirs(empty)
        self.env['PATH'] = empty
        bluez = self.start_bluez()
        bluez.AddAdapter('hci0', True)
        bluez.SetBlocked('hci0', True)
        self.start_app()
        self.wait_page('Bluetooth Is Blocked')
        self.wait_find(self.window, contains='Turn it off in the system settings',
                       role=pyatspi.ROLE_LABEL)
        self.assertIsNone(self.find(self.window, name='Open Bluetooth Settings',
                                    role=pyatspi.ROLE_PUSH_BUTTON))

    def test_rfkill_blocked_opens_bluetooth_settings(self):
        self.install_fake_settings()
        bluez = self.start_bluez()
        bluez.AddAdapter('hci0', True)
        bluez.SetBlocked('hci0', True)
        self.start_app()
        self.wait_page('Bluetooth Is Blocked')
        self.screenshot('blocked')
        self.click(self.wait_find(self.window, name='Open Bluetooth Settings',
                                  role=pyatspi.ROLE_PUSH_BUTTON))
        wait_for(lambda: self.settings_panels() == ['bluetooth'],
                 what=f'Settings opened on its Bluetooth panel (got {self.settings_panels()})')
        # Unblocked there, the app notices by itself.
        bluez.SetBlocked('hci0', False)
        bluez.SetPowered('hci0', True)
        self.wait_page('Looking for Nearby Objects…')

    def test_searching_offers_the_demo(self):
        self.start_bluez().AddAdapter('hci0', True)
        self.start_app()
        self.wait_page('Looking for Nearby Objects…')
        self.click(self.wait_find(self.window, name='Show Demo Objects',
                                  role=pyatspi.ROLE_PUSH_BUTTON))
        self.wait_page('Nearby objects')
        wait_for(lambda: 'Bluebird Café' in self.texts(self.window), timeout=30,
                 what='the demo café with its title')
        self.wait_find(self.window, name='Demo — made-up objects', role=pyatspi.ROLE_LABEL)

    def test_discovery_failure_in_plain_words_and_try_again(self):
        import dbus
        bluez = self.start_bluez()
        bluez.AddAdapter('hci0', True)
        # bluetoothd refuses for longer than the test lasts: every retry fails on its own.
        bluez.FailStartDiscovery('hci0', ['org.bluez.Error.Failed'] * 50)
        self.start_app()
        self.wait_page('Cannot Look for Objects')
        self.wait_find(self.window, contains='Bluetooth did not start looking for objects',
                       role=pyatspi.ROLE_LABEL)
        shown = ' '.join(self.texts(self.window))
        self.assertNotIn('org.bluez', shown, 'bluetoothd’s words before Details was opened')

        # The words are there for those who want them, behind Details.
        # GTK 4.8 gives an expander no AT-SPI action: a pointer click, as a person's.
        self.mouse_click(self.wait_find(self.window, name='Details', role=pyatspi.ROLE_LABEL))
        self.wait_find(self.window, contains='Mock failure org.bluez.Error.Failed',
                       role=pyatspi.ROLE_LABEL, what='bluetoothd’s words under Details')
        self.screenshot('cannot-look-for-objects')

        # bluetoothd is well again; Try Again starts looking.
        bluez.FailStartDiscovery('hci0', dbus.Array([], signature='s'))
        self.click(self.wait_find(self.window, name='Try Again', role=pyatspi.ROLE_PUSH_BUTTON))
        self.wait_page('Looking for Nearby Objects…')


class DamagedHistoryTest(NearbyTestCase):
    app_args = ['--demo']
    settings = CHOSEN

    def test_app_starts_with_a_damaged_history(self):
        import os
        folder = self.history_folder()
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, 'history.db'), 'wb') as f:
            f.write(b'this is not a database' * 500)
        self.start_app()
        # It starts, says so once, and works: the demo objects appear with their titles.
        self.wait_find(contains='history was damaged', what='the toast about the history')
        wait_for(lambda: 'Bluebird Café' in self.texts(), timeout=30, what='the demo café')
        set_aside = [name for name in os.listdir(folder) if name.startswith('history.db.corrupt-')]
        self.assertEqual(len(set_aside), 1, f'the damaged file is kept aside: {os.listdir(folder)}')


class FirstFrameLogTest(NearbyTestCase):
    settings = CHOSEN

    def test_first_frame_is_logged_once_for_developers(self):
        import re
        # What a developer timing startup reads (README.md, tests/bench/bench-startup.c).
        self.env['G_MESSAGES_DEBUG'] = 'nearby-window'
        self.start_app()
        self.wait_page('Bluetooth Service Not Running')

        def first_frame_lines():
            self.app_log.flush()
            with open(self.app_log.name) as log:
                return re.findall(r'First frame painted (\d+) ms after the process started '
                                  r'\(monotonic time (\d+) us\)', log.read())

        lines = wait_for(first_frame_lines, what='the first-frame debug message')
        self.assertEqual(len(lines), 1, f'logged once, not on every frame: {lines}')
        self.assertGreater(int(lines[0][0]), 0, 'the time since the process started')


class BroadcastTest(NearbyTestCase):
    app_args = ['--developer']

    def test_developer_broadcasts_a_url(self):
        bluez = self.start_bluez()
        bluez.AddAdapter('hci0', True)
        self.start_app()
        self.click(self.wait_find(name='Main Menu', role=pyatspi.ROLE_PUSH_BUTTON))
        self.click(self.wait_find(name='Broadcast a URL…', role=pyatspi.ROLE_MENU_ITEM))
        entry = self.wait_find(name='Address to broadcast', role=pyatspi.ROLE_TEXT)

        # Too long for a frame: the dialog says by how much, and will not broadcast it.
        entry.queryEditableText().setTextContents('https://example.com/a/very/long/path/to/a/kiosk')
        self.wait_find(contains='too long by', what='the too-long explanation')
        self.screenshot('broadcast-too-long')

        entry.queryEditableText().setTextContents('https://example.com/k')
        self.wait_find(contains='Fits in an Eddystone-URL frame', what='the fits message')
        self.click(self.wait_find(name='Broadcast', role=pyatspi.ROLE_PUSH_BUTTON))

        adverts = wait_for(lambda: bluez.GetAdvertisements('hci0'), what='a registered advertisement')
        properties = list(adverts.values())[0]
        self.assertEqual(str(properties['Type']), 'broadcast')
        data = bytes(properties['ServiceData']['0000feaa-0000-1000-8000-00805f9b34fb'])
        self.assertEqual(data[0], 0x10, 'an Eddystone-URL frame')

        # Stop it from the toast.
        self.click(self.wait_find(name='Stop', role=pyatspi.ROLE_PUSH_BUTTON))
        wait_for(lambda: len(bluez.GetAdvertisements('hci0')) == 0,
                 what='the advertisement to be unregistered')

    def test_cancel_broadcasts_nothing(self):
        """Cancel closes the dialog with nothing on air, and the window stays whole for a screen
        reader: GTK 4.8 once answered the question for the closed dialog's place with a window
        never shown (the keyboard shortcuts, built at start), logged a g_variant_new_object_path
        critical, and the main window's contents were gone from the accessibility bus."""
        bluez = self.start_bluez()
        bluez.AddAdapter('hci0', True)
        self.start_app()
        self.click(self.wait_find(name='Main Menu', role=pyatspi.ROLE_PUSH_BUTTON))
        self.click(self.wait_find(name='Broadcast a URL…', role=pyatspi.ROLE_MENU_ITEM))
        entry = self.wait_find(name='Address to broadcast', role=pyatspi.ROLE_TEXT)
        entry.queryEditableText().setTextContents('https://example.com/k')
        self.wait_find(contains='Fits in an Eddystone-URL frame', what='the fits message')
        self.click(self.wait_find(name='Cancel', role=pyatspi.ROLE_PUSH_BUTTON))
        wait_for(lambda: self.find(self.app, name='Address to broadcast',
                                   role=pyatspi.ROLE_TEXT) is None,
                 what='the dialog to close')
        self.assertEqual(len(bluez.GetAdvertisements('hci0')), 0, 'nothing broadcast')
        self.assertIsNone(self.find(self.window, contains='Broadcasting'), 'a toast says it broadcasts')
        # The main window's tree, walked again: its menu still offers to broadcast.
        items = self.menu_items()
        self.assertIn('Broadcast a URL…', items)
        self.assertNotIn('Stop Broadcasting', items)
        with open(self.app_log.name) as log:
            self.assertNotIn('g_variant_new_object_path', log.read())

    def open_menu(self):
        self.click(self.wait_find(self.window, name='Main Menu', role=pyatspi.ROLE_PUSH_BUTTON))
        self.wait_find(name='Preferences', role=pyatspi.ROLE_MENU_ITEM)

    def menu_items(self):
        """The items of the primary menu, which is closed again."""
        self.open_menu()
        items = [node.name for node in self.find_all(self.app, role=pyatspi.ROLE_MENU_ITEM)]
        self.give_focus()
        self.press_keys('Escape')
        wait_for(lambda: self.find(self.app, name='Preferences', role=pyatspi.ROLE_MENU_ITEM)
                 is None, what='the menu to close')
        return items

    def test_stop_broadcasting_from_the_menu(self):
        bluez = self.start_bluez()
        bluez.AddAdapter('hci0', True)
        self.start_app()
        # Nothing to stop yet: the menu offers only to broadcast.
        items = self.menu_items()
        self.assertIn('Broadcast a URL…', items)
        self.assertNotIn('Stop Broadcasting', items)
        self.open_menu()
        self.click(self.wait_find(name='Broadcast a URL…', role=pyatspi.ROLE_MENU_ITEM))
        entry = self.wait_find(name='Address to broadcast', role=pyatspi.ROLE_TEXT)
        entry.queryEditableText().setTextContents('https://example.com/k')
        self.wait_find(contains='Fits in an Eddystone-URL frame', what='the fits message')
        self.click(self.wait_find(name='Broadcast', role=pyatspi.ROLE_PUSH_BUTTON))
        wait_for(lambda: bluez.GetAdvertisements('hci0'), what='a registered advertisement')

        # Broadcasting: the menu offers to stop, and no second broadcast.
        wait_for(lambda: 'Stop Broadcasting' in self.menu_items(),
                 what='Stop Broadcasting in the menu')
        self.assertNotIn('Broadcast a URL…', self.menu_items())
        self.open_menu()
        self.click(self.wait_find(name='Stop Broadcasting', role=pyatspi.ROLE_MENU_ITEM))
        wait_for(lambda: len(bluez.GetAdvertisements('hci0')) == 0,
                 what='the advertisement to be unregistered')
        self.wait_find(self.window, name='Broadcast stopped', role=pyatspi.ROLE_LABEL,
                       what='the toast saying so')
        items = self.menu_items()
        self.assertIn('Broadcast a URL…', items)
        self.assertNotIn('Stop Broadcasting', items)


if __name__ == '__main__':
    main()
