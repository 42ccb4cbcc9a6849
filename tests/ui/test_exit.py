#!/usr/bin/python3
"""The kill drill: SIGTERM, SIGINT or SIGHUP at a random moment after the person opened objects
(a logout, `systemctl --user stop`, Ctrl-C in a terminal). The app quits normally, and every
visit whose page the browser opened is in the history afterwards. And with the history on a
full disk: the person is told, and the visit is written once there is room."""

import os
import random
import signal
import subprocess
import time

import dbus

from nearbyui import NearbyTestCase, main, wait_for

APP_ID = 'io.github.nearbyweb.Nearby'
APP_PATH = '/io/github/nearbyweb/Nearby'
# How many times the app is started and signalled. Each run takes about a second, so the suite
# runs 25 (a lost visit showed within 40 runs without the flush); 100 on request.
RUNS = int(os.environ.get('NEARBY_KILL_DRILL_RUNS', '25'))


class OpenPagesTestCase(NearbyTestCase):
    """The app as a person starts it (a demo runs apart, without the bus name the actions are
    reached by); without a bluetoothd it says so, and opening a page works all the same."""
    settings = {'privacy-choice-made': 'true', 'lookup-policy': "'never'"}

    def setUp(self):
        super().setUp()
        self.install_fake_browser()
        self.session_bus = dbus.SessionBus()

    def open_url(self, url):
        """What a click on a row does: the app.open-url action, here over D-Bus."""
        app = self.session_bus.get_object(APP_ID, APP_PATH)
        app.Activate('open-url', [dbus.String(url, variant_level=1)], {},
                     dbus_interface='org.gtk.Actions')

    def wait_opened(self, count, retry_url):
        """Until the browser has opened `count` pages; the first action can come before the
        window exists (then nothing opens), so it is asked again."""
        deadline = time.monotonic() + 20
        asked = time.monotonic()
        while len(self.opened_urls()) < count:
            self.assertIsNone(self.process.poll(), 'the app exited on its own')
            self.assertLess(time.monotonic(), deadline, 'the browser was never asked')
            if retry_url is not None and time.monotonic() - asked > 1.0:
                self.open_url(retry_url)
                asked = time.monotonic()
            time.sleep(0.01)

    def recorded_visits(self):
        return sum(count for _url, count in self.history_visits())


class KillDrillTest(OpenPagesTestCase):
    def test_no_visit_lost(self):
        rng = random.Random(os.environ.get('NEARBY_KILL_DRILL_SEED', 'nearby'))
        log = open(os.path.join(self.tmp, 'app.log'), 'w+')
        self.app_log = log
        for run in range(RUNS):
            self.process = subprocess.Popen(
                [self.binary], env=self.env, stdout=log, stderr=log)
            wait_for(lambda: self.session_bus.name_has_owner(APP_ID)
                     or self.process.poll() is not None, what='the app on the session bus')
            self.assertIsNone(self.process.poll(), f'run {run}: the app did not start')

            # The first page is opened once the window is up; then one to three more, the
            # signal coming at a random point after the last of them opened.
            first = f'http://127.0.0.1:9/run/{run}/0'
            before = len(self.opened_urls())
            self.open_url(first)
            self.wait_opened(before + 1, first)
            for visit in range(1, rng.randint(1, 3) + 1):
                self.open_url(f'http://127.0.0.1:9/run/{run}/{visit}')
                self.wait_opened(before + visit + 1, None)
            time.sleep(rng.choice([0, 0, 0.001, 0.005, 0.02, rng.uniform(0, 0.2)]))
            signum = rng.choice([signal.SIGTERM, signal.SIGTERM, signal.SIGINT, signal.SIGHUP])
            self.process.send_signal(signum)
            self.assertEqual(self.process.wait(30), 0,
                             f'run {run}: {signal.Signals(signum).name} is a normal exit')
            wait_for(lambda: not self.session_bus.name_has_owner(APP_ID),
                     what='the app gone from the session bus')

            opened = len(self.opened_urls())
            self.assertGreaterEqual(self.recorded_visits(), opened,
                                    f'run {run}: every page the browser opened is a visit '
                                    f'(after {signal.Signals(signum).name})')
        self.assertEqual(self.recorded_visits(), len(self.opened_urls()))


class FullDiskTest(OpenPagesTestCase):
    def setUp(self):
        super().setUp()
        if os.getuid() != 0:
            self.skipTest('mounting a small tmpfs for the history needs root')
        self.disk = os.path.join(self.tmp, 'data', 'nearby')
        os.makedirs(self.disk)
        subprocess.run(['mount', '-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', self.disk],
                       check=True)
        # Cleanups run after tearDown, which ends the app first.
        self.addCleanup(subprocess.run, ['umount', self.disk], check=True)

    def fill_disk(self):
        filler = os.path.join(self.disk, 'filler')
        with open(filler, 'wb', buffering=0) as f:
            for size in (65536, 4096, 512, 1):
                try:
                    while True:
                        f.write(b'\0' * size)
                except OSError:
                    pass
        return filler

    def test_full_disk_is_told_and_nothing_lost(self):
        message = 'Nearby could not save your history: the disk is full'
        self.start_app()
        history = os.path.join(self.disk, 'history.db')
        wait_for(lambda: os.path.exists(history + '-wal'), what='the history opened')
        filler = self.fill_disk()

        url = 'http://127.0.0.1:9/while-full'
        self.open_url(url)
        self.wait_opened(1, url)
        wait_for(lambda: message in self.texts(), what=f'the toast “{message}”')

        # Room again, and a normal quit: the kept visit is written on the way out.
        os.unlink(filler)
        self.process.send_signal(signal.SIGTERM)
        self.assertEqual(self.process.wait(30), 0)
        self.assertEqual(self.recorded_visits(), len(self.opened_urls()))
        self.assertIn(url, [visit_url for visit_url, _count in self.history_visits()])


if __name__ == '__main__':
    main()
