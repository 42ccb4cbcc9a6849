#!/usr/bin/python3
# capture-street.py: writes capture-street.btsnoop, two seconds of a street as an Android phone's
# HCI snoop log (datalink 1002, HCI UART) has them: beacons, phones, a watch and a lamp, a beacon
# whose extended advertisement comes in two pieces, a directed advertisement, and one record
# cut short as a log copied while written can have.
#
#   /usr/bin/python3 tests/data/capture-street.py tests/data/capture-street.btsnoop
#
# SPDX-License-Identifier: GPL-3.0-or-later

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))

from btsnoop_writer import (HCI_UART, LE_ADVERTISING_REPORT,  # noqa: E402
                            LE_DIRECTED_ADVERTISING_REPORT, LE_EXTENDED_ADVERTISING_REPORT,
                            Writer, ad_structure, directed_report, eddystone_tlm_ad,
                            eddystone_url_ad, extended_report, ibeacon_ad, le_event,
                            legacy_report, uribeacon_ad)

# 2026-05-04T12:00:00Z
T0 = 1777896000000000
MS = 1000

MUSEUM = 'C0:FF:EE:00:00:01'     # random static
BAKERY = '00:1A:7D:DA:71:13'     # public
BUS_STOP = '5A:3B:00:00:00:02'   # resolvable private, an extended advertiser
IBEACON = 'D4:00:00:00:00:04'    # random static
PHONE = '6E:21:9C:00:00:05'      # resolvable private
WATCH = '1F:00:00:00:00:06'      # non-resolvable private
LAMP = 'E8:00:00:00:00:07'       # random static

phone_ad = ad_structure(0x01, b'\x1a') + ad_structure(0xff, b'\x4c\x00\x10\x05\x01\x18\x4a\x5e\x2b')
watch_ad = ad_structure(0x03, b'\x0d\x18') + ad_structure(0xff, b'\x75\x00\x01\x02\x03')
lamp_ad = ad_structure(0x01, b'\x06') + ad_structure(0x09, b'Lamp')
bus_ad = (eddystone_url_ad('https://example.org/bus/12', tx_power=-18)
          + ad_structure(0x09, b'Bus stop 12, Market Street, northbound')
          + ad_structure(0xff, b'\xff\xff' + bytes(range(60))))


def main(path):
    w = Writer(HCI_UART)
    w.command(T0)
    for i in range(4):
        t = T0 + 5 * MS + i * 500 * MS
        # Several devices in one event, as a controller batches them.
        w.event(le_event(LE_ADVERTISING_REPORT, [
            legacy_report(0x03, 0x01, MUSEUM, eddystone_url_ad('https://example.com/museum'),
                          -58 - i),
            legacy_report(0x00, 0x00, BAKERY, uribeacon_ad('https://example.net/bread'), -71),
            legacy_report(0x00, 0x01, PHONE, phone_ad, -64),
        ]), t)
        w.event(le_event(LE_ADVERTISING_REPORT, [
            legacy_report(0x03, 0x01, IBEACON,
                          ibeacon_ad('f7826da64fa24e988024bc5b71e0893e', 100, 7), -80),
            legacy_report(0x00, 0x01, WATCH, watch_ad, 127),
        ]), t + 40 * MS)
        w.event(le_event(LE_ADVERTISING_REPORT, [
            legacy_report(0x03, 0x01, MUSEUM, eddystone_tlm_ad(2950, 1000 + i, 36000 + i * 5),
                          -59),
            legacy_report(0x02, 0x01, LAMP, lamp_ad, -88),
        ]), t + 80 * MS)
        # The bus stop's advertisement is longer than one event carries: two pieces.
        w.event(le_event(LE_EXTENDED_ADVERTISING_REPORT, [
            extended_report(0x0020, 0x01, BUS_STOP, 1, bus_ad[:70], -66),
        ]), t + 120 * MS)
        w.event(le_event(LE_EXTENDED_ADVERTISING_REPORT, [
            extended_report(0x0000, 0x01, BUS_STOP, 1, bus_ad[70:], -67),
        ]), t + 121 * MS)
        if i == 1:
            w.event(le_event(LE_DIRECTED_ADVERTISING_REPORT, [
                directed_report(0x01, 0x01, PHONE, -50),
            ]), t + 200 * MS)
            # Cut short: the event says 48 bytes of parameters and has 2.
            w.event(b'\x3e\x30\x02\x01', t + 210 * MS)
    w.save(path)


if __name__ == '__main__':
    main(sys.argv[1])
