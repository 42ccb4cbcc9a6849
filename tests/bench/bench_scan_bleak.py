#!/usr/bin/python3
# bench_scan_bleak.py: the peer column of bench-scan, a BleakScanner decoding Eddystone-URL
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Run by bench-scan on its private system bus, with the beacons already on the mock's adapter:
# starts scanning on hci0 and prints "ready"; counts the detection callbacks from then on; reads
# "sent N" on its standard input once the mock's flood is over, waits until N callbacks arrived
# (or none came for STALL_SECONDS), and prints "done CALLBACKS CPU_SECONDS URLS_DECODED".
# CPU_SECONDS is this process's CPU time (every thread) from "ready" to the last callback counted.
# Exits 77 when bleak is not installed.

import asyncio
import resource
import sys
import time

try:
    from bleak import BleakScanner
except ImportError:
    print('bleak is not installed', file=sys.stderr)
    sys.exit(77)

EDDYSTONE_UUID = '0000feaa-0000-1000-8000-00805f9b34fb'
SCHEMES = ['http://www.', 'https://www.', 'http://', 'https://']
EXPANSIONS = ['.com/', '.org/', '.edu/', '.net/', '.info/', '.biz/', '.gov/',
              '.com', '.org', '.edu', '.net', '.info', '.biz', '.gov']
STALL_SECONDS = 20
START_SECONDS = 30


def decode_eddystone_url(data):
    if len(data) < 4 or data[0] != 0x10 or data[2] >= len(SCHEMES):
        return None
    parts = [SCHEMES[data[2]]]
    for byte in data[3:]:
        if byte < len(EXPANSIONS):
            parts.append(EXPANSIONS[byte])
        elif 0x20 < byte < 0x7f:
            parts.append(chr(byte))
        else:
            return None
    return ''.join(parts)


def cpu_seconds():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def main():
    loop = asyncio.get_running_loop()
    state = {'counting': False, 'callbacks': 0, 'urls': 0, 'expected': None,
             'last_callback': time.monotonic()}
    done = asyncio.Event()

    def on_advertisement(device, advertisement):
        data = advertisement.service_data.get(EDDYSTONE_UUID)
        url = decode_eddystone_url(data) if data is not None else None
        if not state['counting']:
            return
        state['callbacks'] += 1
        if url is not None:
            state['urls'] += 1
        state['last_callback'] = time.monotonic()
        if state['expected'] is not None and state['callbacks'] >= state['expected']:
            done.set()

    scanner = BleakScanner(detection_callback=on_advertisement, adapter='hci0')
    # bench-scan waits for "ready": never leave it waiting on a bus that does not answer.
    await asyncio.wait_for(scanner.start(), timeout=START_SECONDS)
    # Let StartDiscovery's own PropertiesChanged (on the adapter) pass before counting.
    await asyncio.sleep(1)

    state['counting'] = True
    cpu_before = cpu_seconds()
    print('ready', flush=True)

    line = await loop.run_in_executor(None, sys.stdin.readline)
    if not line.startswith('sent '):
        print('expected "sent N" on stdin, got {!r}'.format(line), file=sys.stderr)
        sys.exit(1)
    state['expected'] = int(line.split()[1])
    if state['callbacks'] >= state['expected']:
        done.set()

    while not done.is_set():
        try:
            await asyncio.wait_for(done.wait(), timeout=1)
        except asyncio.TimeoutError:
            if time.monotonic() - state['last_callback'] > STALL_SECONDS:
                break
    cpu = cpu_seconds() - cpu_before
    await scanner.stop()
    print('done {} {:.3f} {}'.format(state['callbacks'], cpu, state['urls']), flush=True)


if __name__ == '__main__':
    asyncio.run(main())
