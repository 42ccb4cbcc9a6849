"""`nearby scan` over hours of simulated churn: its memory and its table stay bounded.

A capture is written to `nearby scan --from -` as fast as it reads: devices appear two a second,
each heard once a second for 20 s with an Eddystone-URL frame and a TLM frame whose counters
change with every advert, then never again. An hour of it and two hours of it must end with the
same table (only the devices heard within the expiry) and about the same peak memory.
NEARBY_SOAK_SCAN_MINUTES sets the longer run (default 120 simulated minutes).
"""

import os
import subprocess
import sys
import threading
import time
import unittest

NEW_PER_SECOND = 2
HEARD_FOR = 20           # seconds each device is heard
EXPIRY = 30              # nearby scan's default --expiry
START = 1_700_000_000    # capture time of the first advert


def url_raw(n):
    return '10ec02' + f'k.example/{n % 100000}'.encode().hex()


def tlm_raw(count, seconds):
    return f'20000bb81400{count:08x}{seconds * 10:08x}'


def capture_lines(minutes):
    """Yields the capture's lines in time order, one simulated second at a time."""
    seconds = int(minutes * 60)
    for second in range(seconds):
        stamp = _stamp(START + second)
        first = max(0, (second - HEARD_FOR + 1) * NEW_PER_SECOND)
        last = (second + 1) * NEW_PER_SECOND
        for n in range(first, last):
            address = 'C0:%02X:%02X:%02X:00:03' % ((n >> 16) & 255, (n >> 8) & 255, n & 255)
            age = second - n // NEW_PER_SECOND
            rssi = -50 - n % 40
            yield (f'{{"time":"{stamp}","address":"{address}","rssi":{rssi},'
                   f'"uuid":"feaa","raw":"{url_raw(n)}"}}\n')
            yield (f'{{"time":"{stamp}","address":"{address}","rssi":{rssi},'
                   f'"uuid":"feaa","raw":"{tlm_raw(age + 1, age)}"}}\n')


def _stamp(unix_seconds):
    return time.strftime('%Y-%m-%dT%H:%M:%S.000Z', time.gmtime(unix_seconds))


def watch_peak(process, peak):
    """Follows the child's VmHWM until it exits.

    Not wait4()'s ru_maxrss: that counts the child from fork, when it was a copy of this Python
    process (13-15 MiB by the second run, more than nearby scan itself), so it measured the test.
    The kernel's high-water mark is monotonic and starts again at exec, so the last reading is the
    peak of nearby scan up to a few milliseconds before its exit."""
    path = f'/proc/{process.pid}/status'
    while process.poll() is None:
        try:
            with open(path) as status:
                for line in status:
                    if line.startswith('VmHWM:'):
                        peak[0] = max(peak[0], int(line.split()[1]) * 1024)
        except (FileNotFoundError, ProcessLookupError, ValueError):
            pass
        time.sleep(0.005)


def run_scan(minutes):
    """Runs nearby scan over the capture; returns (peak RSS in bytes, table rows at the end)."""
    binary = os.environ['NEARBY_BINARY']
    process = subprocess.Popen([binary, 'scan', '--all', '--from', '-'], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out = []
    reader = threading.Thread(target=lambda: out.append(process.stdout.read()), daemon=True)
    reader.start()
    peak = [0]
    watcher = threading.Thread(target=watch_peak, args=(process, peak), daemon=True)
    watcher.start()
    chunk = []
    for line in capture_lines(minutes):
        chunk.append(line)
        if len(chunk) >= 4096:
            process.stdin.write(''.join(chunk).encode())
            chunk = []
    process.stdin.write(''.join(chunk).encode())
    process.stdin.close()
    process.wait()
    watcher.join()
    reader.join()
    error = process.stderr.read().decode()
    process.stdout.close()
    process.stderr.close()
    if process.returncode != 0:
        raise AssertionError(f'nearby scan exited with {process.returncode}: {error}')
    rows = [line for line in out[0].decode().splitlines() if ':00:03' in line]
    return peak[0], rows


class ScanSoakTest(unittest.TestCase):
    def setUp(self):
        if not os.environ.get('NEARBY_BINARY'):
            raise unittest.SkipTest('NEARBY_BINARY is not built')

    def test_table_and_memory_stay_bounded(self):
        longer = float(os.environ.get('NEARBY_SOAK_SCAN_MINUTES', '120'))
        shorter = longer / 2
        peak_short, rows_short = run_scan(shorter)
        peak_long, rows_long = run_scan(longer)
        devices = int(longer * 60 * NEW_PER_SECOND)
        sys.stderr.write(f'{shorter:g} min: peak RSS {peak_short / 2**20:.1f} MiB, '
                         f'{len(rows_short)} rows; {longer:g} min ({devices} devices, '
                         f'{devices * HEARD_FOR * 2} adverts): peak RSS '
                         f'{peak_long / 2**20:.1f} MiB, {len(rows_long)} rows\n')

        # Only devices heard within the expiry are left, one row per device and frame kind: the
        # TLM's changing counters are values in its row, not new rows.
        alive = (HEARD_FOR + EXPIRY) * NEW_PER_SECOND
        self.assertLessEqual(len(rows_long), 2 * alive)
        self.assertEqual(len(rows_long), len(rows_short))
        tlm_rows = [row for row in rows_long if 'TLM' in row]
        self.assertLessEqual(len(tlm_rows), alive)
        # Twice the devices ever seen, the same memory (within 10 %).
        self.assertLessEqual(peak_long, peak_short * 1.10,
                             'nearby scan keeps memory for every device it has seen')


if __name__ == '__main__':
    unittest.main(verbosity=2)
