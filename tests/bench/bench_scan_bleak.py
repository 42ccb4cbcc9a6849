#!/usr/bin/python3
# bench_scan_bleak.py: the peer column of bench-scan, a BleakScanner decoding Eddystone-URL
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Run by bench-scan on its private system bus: starts scanning, prints "ready", then counts advertisement callbacks until EXPECTED more arrived and
# prints "done CALLBACKS CPU_SECONDS URLS_DECODED". Exits 77 when bleak is not installed.

import asyncio
import resource
import sys

try:
    from bleak import BleakScanner
except ImportError:
    print('bleak is not installed', file=sys.stderr)
    sys.exit(77)

EDDYSTONE_UUID = '0000feaa-0000-1000-8000-00805f9b34fb'
SCHEMES = ['http://www.', 'https://www.', 'http://', 'https://']
EXPANSIONS = ['.com/', '.org/', '.edu/', '.net/', '.info/', '.biz/', '.gov/',
              '.com', '.org', '.edu', '.net', '.info', '.biz', '.gov']


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


async def main(n_devices, expected):
    state = {'counting': False, 'callbacks': 0, 'urls': 0}
    done = asyncio.Event()

    def on_advertisement(device, advertisement):
        data = advertisement.service_data.get(EDDYSTONE_UUID)
        url = decode_eddystone_url(data) if data is not None else None
        if not state['counting']:
            return
        state['callbacks'] += 1
        if url is not None:
            state['urls'] += 1
        if state['callbacks'] >= expected:
            done.set()

    scanner = BleakScanner(detection_callback=on_advertisement, adapter='hci0')
    await scanner.start()
    # Devices already known when the scan starts are reported on their next change, not at once:
    # give the scanner a moment to settle instead of waiting for each device.
    await asyncio.sleep(1)

    state['counting'] = True
    cpu_before = cpu_seconds()
    print('ready', flush=True)
    try:
        await asyncio.wait_for(done.wait(), timeout=120)
    except asyncio.TimeoutError:
        pass
    cpu = cpu_seconds() - cpu_before
    await scanner.stop()
    print('done {} {:.3f} {}'.format(state['callbacks'], cpu, state['urls']), flush=True)


if __name__ == '__main__':
    asyncio.run(main(int(sys.argv[1]), int(sys.argv[2])))
