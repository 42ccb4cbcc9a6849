# btsnoop_writer.py: btsnoop captures written by the Python tests, record by record
#
# SPDX-License-Identifier: GPL-3.0-or-later

import struct

UNIX_EPOCH_US = 0x00dcddb30f2f8000

HCI_UNENCAPSULATED = 1001
HCI_UART = 1002
LINUX_MONITOR = 2001

LE_ADVERTISING_REPORT = 0x02
LE_DIRECTED_ADVERTISING_REPORT = 0x0B
LE_EXTENDED_ADVERTISING_REPORT = 0x0D


def address_bytes(address):
    return bytes(reversed(bytes.fromhex(address.replace(':', ''))))


class Writer:
    def __init__(self, datalink):
        self.datalink = datalink
        self.data = bytearray(b'btsnoop\0' + struct.pack('>II', 1, datalink))

    def record(self, packet, flags, unix_us, included_len=None, original_len=None):
        included = len(packet) if included_len is None else included_len
        original = len(packet) if original_len is None else original_len
        self.data += struct.pack('>IIIIq', original, included, flags, 0, unix_us + UNIX_EPOCH_US)
        self.data += packet

    def event(self, event, unix_us):
        if self.datalink == HCI_UART:
            self.record(b'\x04' + event, 3, unix_us)
        else:
            # 1001: received, command or event; 2001: controller 0, opcode 3 (event)
            self.record(event, 3, unix_us)

    def command(self, unix_us):
        command = bytes([0x0c, 0x20, 0x02, 0x01, 0x00])
        if self.datalink == HCI_UART:
            self.record(b'\x01' + command, 2, unix_us)
        else:
            self.record(command, 2, unix_us)

    def save(self, path):
        with open(path, 'wb') as f:
            f.write(self.data)


def le_event(subevent, reports):
    params = bytes([subevent, len(reports)]) + b''.join(reports)
    assert len(params) <= 255
    return bytes([0x3e, len(params)]) + params


def legacy_report(event_type, address_type, address, ad, rssi):
    return (bytes([event_type, address_type]) + address_bytes(address) + bytes([len(ad)]) + ad
            + struct.pack('b', rssi))


def extended_report(event_type, address_type, address, sid, ad, rssi):
    return (struct.pack('<HB', event_type, address_type) + address_bytes(address)
            + bytes([0x01, 0x00, sid, 0x7f]) + struct.pack('b', rssi) + bytes(9)
            + bytes([len(ad)]) + ad)


def directed_report(event_type, address_type, address, rssi):
    return (bytes([event_type, address_type]) + address_bytes(address) + b'\x01'
            + address_bytes('4A:11:22:33:44:55') + struct.pack('b', rssi))


def ad_structure(ad_type, value):
    return bytes([len(value) + 1, ad_type]) + value


# Eddystone-URL's encoding of the few URLs the tests use: scheme byte, then the rest.
SCHEMES = [('http://www.', 0), ('https://www.', 1), ('http://', 2), ('https://', 3)]
SUFFIXES = ['.com/', '.org/', '.edu/', '.net/', '.info/', '.biz/', '.gov/',
            '.com', '.org', '.edu', '.net', '.info', '.biz', '.gov']


def encode_url(url):
    for prefix, code in SCHEMES:
        if url.startswith(prefix):
            rest = url[len(prefix):]
            out = bytearray([code])
            break
    else:
        raise ValueError(url)
    i = 0
    while i < len(rest):
        for n, suffix in enumerate(SUFFIXES):
            if rest.startswith(suffix, i):
                out.append(n)
                i += len(suffix)
                break
        else:
            out += rest[i].encode()
            i += 1
    return bytes(out)


def eddystone_url_service_data(url, tx_power=-20):
    return b'\x10' + struct.pack('b', tx_power) + encode_url(url)


def eddystone_url_ad(url, tx_power=-20):
    return (ad_structure(0x01, b'\x06') + ad_structure(0x03, b'\xaa\xfe')
            + ad_structure(0x16, b'\xaa\xfe' + eddystone_url_service_data(url, tx_power)))


def uribeacon_ad(url, tx_power=-22):
    return ad_structure(0x16, b'\xd8\xfe' + b'\x00' + struct.pack('b', tx_power) + encode_url(url))


def ibeacon_ad(uuid, major, minor, tx_power=-59):
    return (ad_structure(0x01, b'\x06')
            + ad_structure(0xff, b'\x4c\x00\x02\x15' + bytes.fromhex(uuid)
                           + struct.pack('>HHb', major, minor, tx_power)))


def eddystone_tlm_ad(battery_mv, adv_count, uptime_ds):
    return ad_structure(0x16, b'\xaa\xfe' + struct.pack('>BBHhII', 0x20, 0, battery_mv, 0x1680,
                                                       adv_count, uptime_ds))
