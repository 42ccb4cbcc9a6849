#!/usr/bin/python3
# test-btsnoop-tshark.py: Nearby reads btsnoop captures as Wireshark does. Captures written here
# record by record (legacy, extended and directed reports, several per event, extended data in
# pieces, every address type, every datalink) are read by `nearby scan --from FILE --json --all`
# and by `tshark -r FILE -T json`, and every line Nearby writes is compared with the advertising
# report tshark decoded: time, address, RSSI, service UUID or company, and bytes (the frame's for
# a beacon, the whole advertising data for a device that is no beacon).
#
# SPDX-License-Identifier: GPL-3.0-or-later

import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, 'desktop'))

import taptest  # noqa: E402
from btsnoop_writer import (HCI_UART, HCI_UNENCAPSULATED, LE_ADVERTISING_REPORT,  # noqa: E402
                            LE_DIRECTED_ADVERTISING_REPORT, LE_EXTENDED_ADVERTISING_REPORT,
                            LINUX_MONITOR, Writer, ad_structure, directed_report,
                            eddystone_tlm_ad, eddystone_url_ad, extended_report, ibeacon_ad,
                            le_event, legacy_report, uribeacon_ad)

NEARBY = os.environ.get('NEARBY_BINARY', 'nearby')
TSHARK = shutil.which('tshark')
T0 = 1777896000000000
MS = 1000

BEACON_UUIDS = (0xfeaa, 0xfed8)
APPLE = 0x004c


def run_nearby(path, *args, stdin=None):
    return subprocess.run([NEARBY, 'scan', '--from', path, '--json', '--all', *args],
                          stdin=stdin, capture_output=True, text=True, timeout=120)


def nearby_sightings(path):
    run = run_nearby(path)
    sightings = []
    for line in run.stdout.splitlines():
        obj = json.loads(line)
        # An iBeacon line has its company and, among its decoded members, its own "uuid"; a
        # device that is no beacon has "protocol": null and its whole advertising data as raw.
        if 'protocol' in obj and obj['protocol'] is None:
            kind = None
        elif 'company_id' in obj:
            kind = 'company %d' % obj['company_id']
        else:
            kind = obj['uuid']
        sightings.append((obj['time'], obj['address'], obj['rssi'], kind, obj['raw']))
    return run, sightings


def pairs(value):
    """tshark's JSON repeats keys: each object is kept as its list of pairs."""
    return value


def tshark_packets(path):
    out = subprocess.run([TSHARK, '-n', '-r', path, '-T', 'json', '-x'], capture_output=True,
                         text=True, timeout=300, check=True).stdout
    return json.loads(out, object_pairs_hook=pairs)


def get(obj, key, default=None):
    for k, v in obj:
        if k == key:
            return v
    return default


def tshark_reports(path):
    """Every advertising report tshark shows, extended pieces joined as the controller meant:
    (time, address, rssi, AD bytes), and the frame numbers tshark calls malformed."""
    reports = []
    malformed = []   # their times
    pieces = {}
    for packet in tshark_packets(path):
        layers = get(get(packet, '_source'), 'layers')
        frame = get(layers, 'frame')
        epoch = get(frame, 'frame.time_epoch')
        seconds, _, fraction = epoch.partition('.')
        time_us = int(seconds) * 1000000 + int((fraction + '000000')[:6])
        if get(layers, '_ws.malformed') is not None:
            malformed.append(time_us)
        event = get(layers, 'bthci_evt')
        if event is None or get(event, 'bthci_evt.code') != '0x3e':
            continue
        subevent = get(event, 'bthci_evt.le_meta_subevent')
        if subevent == '0x0b':
            # Wireshark 4.0 names the advertiser's address (the first) direct_bd_addr.
            for key, value in event:
                if key == 'bthci_evt.report':
                    reports.append((time_us, get(value, 'bthci_evt.direct_bd_addr').upper(),
                                    int(get(value, 'bthci_evt.le_rssi')), b''))
            continue
        if subevent not in ('0x02', '0x0d'):
            continue
        current = None
        for key, value in event:
            if key in ('bthci_evt.le_advts_event_type', 'bthci_evt.le_ext_advts_event_type'):
                current = {'event_type': int(value, 16), 'data': b'', 'sid': None}
            elif current is None:
                continue
            elif key == 'bthci_evt.le_peer_address_type':
                current['address_type'] = value
            elif key == 'bthci_evt.bd_addr':
                current['address'] = value.upper()
            elif key == 'bthci_evt.advertising_sid':
                current['sid'] = value
            elif key == 'btcommon.eir_ad.advertising_data_raw':
                current['data'] = bytes.fromhex(value[0])
            elif key == 'bthci_evt.data_length':
                current['data_length'] = int(value)
            elif key == 'bthci_evt.rssi':
                current['rssi'] = int(value)
            # A legacy report ends with its RSSI; an extended one with its data.
            if (subevent == '0x02' and key == 'bthci_evt.rssi') or \
               (subevent == '0x0d' and key == 'bthci_evt.data_length' and current['data_length'] == 0) or \
               (subevent == '0x0d' and key == 'btcommon.eir_ad.advertising_data_raw'):
                report = current
                current = None
                assert len(report['data']) == report.get('data_length', len(report['data'])), report
                if subevent == '0x0d':
                    status = (report['event_type'] >> 5) & 3
                    piece_key = (report['address'], report['address_type'], report['sid'])
                    data = pieces.pop(piece_key, b'') + report['data']
                    if status == 1:
                        pieces[piece_key] = data
                        continue
                    report['data'] = data
                reports.append((time_us, report['address'], report['rssi'], report['data']))
    return reports, malformed


def beacon_frames(data):
    """The AD structures a live scan would hand the frame codec: service data of the beacon
    UUIDs and Apple's manufacturer data that is an iBeacon."""
    frames = []
    pos = 0
    while pos < len(data):
        length = data[pos]
        if length == 0:
            pos += 1
            continue
        if pos + 1 + length > len(data):
            break
        ad_type = data[pos + 1]
        value = data[pos + 2:pos + 1 + length]
        pos += 1 + length
        if len(value) < 2:
            continue
        ident = value[0] | value[1] << 8
        if ad_type == 0x16 and ident in BEACON_UUIDS:
            frames.append(('%04x' % ident, value[2:].hex()))
        elif ad_type == 0xff and ident == APPLE and value[2:4] == b'\x02\x15':
            frames.append(('company %d' % APPLE, value[2:].hex()))
    return frames


def iso_ms(time_us):
    seconds, micro = divmod(time_us, 1000000)
    import datetime
    when = datetime.datetime.fromtimestamp(seconds, datetime.timezone.utc)
    return when.strftime('%Y-%m-%dT%H:%M:%S') + '.%03dZ' % (micro // 1000)


def expected_sightings(reports):
    """What `nearby scan --all --json` lists of tshark's reports: a line per beacon frame, or
    the report itself when it holds none."""
    expected = []
    for time_us, address, rssi, data in reports:
        rssi = None if rssi == 127 else rssi
        frames = beacon_frames(data)
        for kind, raw in frames:
            expected.append((iso_ms(time_us), address, rssi, kind, raw))
        if not frames:
            expected.append((iso_ms(time_us), address, rssi, None, data.hex()))
    return expected


def compare(path):
    """Every report tshark shows is Nearby's, in order, field by field. Where tshark stopped at
    a malformed packet, Nearby may have read on: such extra lines are returned."""
    reports, malformed = tshark_reports(path)
    run, sightings = nearby_sightings(path)
    expected = expected_sightings(reports)
    malformed_times = {iso_ms(t) for t in malformed}
    extra = []
    n = 0
    for ours in sightings:
        theirs = expected[n] if n < len(expected) else None
        if theirs != ours and ours[0] in malformed_times:
            extra.append(ours)
            continue
        assert theirs is not None, f'{path}: Nearby reports {ours}, which tshark does not'
        for field, a, b in zip(('time', 'address', 'rssi', 'uuid or company', 'raw'), ours, theirs):
            assert a == b, f'{path}: sighting {n + 1}: {field} is {a!r} in Nearby, {b!r} in tshark'
        n += 1
    assert n == len(expected), \
        f'{path}: Nearby reports {n} of the {len(expected)} lines of tshark\'s reports\n' \
        f'{run.stderr}'
    return run, reports, malformed, sightings, extra


# Every address type: public, random static, resolvable and non-resolvable private.
PUBLIC = ('00:1A:7D:DA:71:13', 0x00)
STATIC = ('C0:FF:EE:00:00:01', 0x01)
RESOLVABLE = ('5A:3B:00:00:00:02', 0x01)
NON_RESOLVABLE = ('1F:00:00:00:00:06', 0x01)
IDENTITY = ('D4:00:00:00:00:04', 0x03)


def mixed_capture(datalink, rounds=3):
    w = Writer(datalink)
    w.command(T0)
    bus_ad = (eddystone_url_ad('https://example.org/bus/12', tx_power=-18)
              + ad_structure(0x09, b'Bus stop 12, Market Street, northbound')
              + ad_structure(0xff, b'\xff\xff' + bytes(range(60))))
    for i in range(rounds):
        t = T0 + 10 * MS + i * 100 * MS
        w.event(le_event(LE_ADVERTISING_REPORT, [
            legacy_report(0x03, STATIC[1], STATIC[0],
                          eddystone_url_ad('https://example.com/museum'), -58 - i),
            legacy_report(0x00, PUBLIC[1], PUBLIC[0], uribeacon_ad('https://example.net/b'), -71),
            legacy_report(0x04, RESOLVABLE[1], RESOLVABLE[0],
                          ad_structure(0xff, b'\x4c\x00\x10\x05\x01\x18\x4a\x5e\x2b'), -64),
            legacy_report(0x00, NON_RESOLVABLE[1], NON_RESOLVABLE[0],
                          ibeacon_ad('f7826da64fa24e988024bc5b71e0893e', 100, i), 127),
        ]), t)
        w.event(le_event(LE_ADVERTISING_REPORT, [
            legacy_report(0x03, IDENTITY[1], IDENTITY[0], eddystone_tlm_ad(2950, 1000 + i, 36000),
                          -80),
            # An Eddystone frame of a reserved type: an invalid frame, still reported.
            legacy_report(0x03, STATIC[1], 'C0:FF:EE:00:00:09',
                          ad_structure(0x16, b'\xaa\xfe\x50\x00\x01'), -90),
        ]), t + 5 * MS)
        # Extended: in two pieces, with a whole one of another advertiser between them.
        # Wireshark stops an event at a piece that ends inside an AD structure (it calls it
        # malformed), so the whole reports come before the pieces in their events.
        w.event(le_event(LE_EXTENDED_ADVERTISING_REPORT, [
            extended_report(0x0000, 0xff, '00:00:00:00:00:00', 2,
                            eddystone_url_ad('https://example.com/anon'), -75),
            extended_report(0x0020, RESOLVABLE[1], RESOLVABLE[0], 1, bus_ad[:70], -66),
        ]), t + 10 * MS)
        w.event(le_event(LE_EXTENDED_ADVERTISING_REPORT, [
            extended_report(0x0010, STATIC[1], STATIC[0], 0,
                            uribeacon_ad('https://example.net/x'), -77),
            extended_report(0x0000, RESOLVABLE[1], RESOLVABLE[0], 1, bus_ad[70:], -67),
        ]), t + 11 * MS)
        w.event(le_event(LE_DIRECTED_ADVERTISING_REPORT, [
            directed_report(0x01, 0x01, '7A:00:00:00:00:03', -40),
        ]), t + 20 * MS)
    return w


def check_datalink(datalink):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, f'mixed-{datalink}.btsnoop')
        mixed_capture(datalink).save(path)
        run, reports, malformed, sightings, extra = compare(path)
        assert run.returncode == 0, run.stderr
        assert not extra, extra
        # 3 rounds: museum, bakery, iBeacon, TLM, invalid, anonymous, extended UriBeacon, bus stop;
        # a phone and a directed report, which are no beacons.
        assert len(sightings) == 30, len(sightings)
        assert len(reports) == 30, len(reports)


def hci_unencapsulated_as_wireshark_reads_it():
    check_datalink(HCI_UNENCAPSULATED)


def hci_uart_as_android_writes_it():
    check_datalink(HCI_UART)


def linux_monitor_as_btmon_writes_it():
    check_datalink(LINUX_MONITOR)


def a_record_wireshark_calls_malformed_does_not_stop_nearby():
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, 'malformed.btsnoop')
        w = mixed_capture(HCI_UART, rounds=1)
        # Two reports announced, one there.
        w.event(le_event(LE_ADVERTISING_REPORT, [
            legacy_report(0x03, STATIC[1], STATIC[0], eddystone_url_ad('https://example.com/m'),
                          -50)])[:3] + b'\x02' + le_event(LE_ADVERTISING_REPORT, [
                legacy_report(0x03, STATIC[1], STATIC[0],
                              eddystone_url_ad('https://example.com/m'), -50)])[4:],
                T0 + 500 * MS)
        for i in range(2):
            w.event(le_event(LE_ADVERTISING_REPORT, [
                legacy_report(0x03, STATIC[1], STATIC[0],
                              eddystone_url_ad('https://example.com/after'), -52 - i)]),
                T0 + 600 * MS + i)
        w.save(path)
        run, reports, malformed, sightings, extra = compare(path)
        assert malformed, 'tshark found nothing malformed'
        assert run.returncode == 1, run.returncode
        assert run.stderr.endswith(': record 7: advertising report 2 of 2 runs past the end of '
                                   'its event\n'), run.stderr
        # Both read the report that is there, and Nearby goes on to the records after it.
        assert T0 + 500 * MS in malformed, malformed
        assert not extra, extra
        assert sightings[-3][0] == '2026-05-04T12:00:00.500Z', sightings[-3]
        assert sightings[-1][4].endswith('6166746572'), sightings[-1]


def the_street_capture_in_the_readme():
    run, reports, malformed, sightings, extra = compare(os.path.join(HERE, 'data',
                                                                     'capture-street.btsnoop'))
    assert not extra, extra
    # 20 beacon frames; a phone, a watch and a lamp four times, and a directed report.
    assert len(sightings) == 33, len(sightings)
    assert malformed, 'tshark found nothing malformed in the cut record'


def standard_input_reads_as_a_file():
    path = os.path.join(HERE, 'data', 'capture-street.btsnoop')
    with open(path, 'rb') as f:
        piped = run_nearby('-', stdin=f)
    whole = run_nearby(path)
    assert piped.stdout == whole.stdout and piped.stdout, piped.stderr


if __name__ == '__main__':
    if TSHARK is None:
        print('1..0 # SKIP tshark is not installed (build-aux/deps.sh installs it)')
        sys.exit(0)
    taptest.run([
        hci_unencapsulated_as_wireshark_reads_it,
        hci_uart_as_android_writes_it,
        linux_monitor_as_btmon_writes_it,
        a_record_wireshark_calls_malformed_does_not_stop_nearby,
        the_street_capture_in_the_readme,
        standard_input_reads_as_a_file,
    ])
