# -*- coding: utf-8 -*-
'''A bluetoothd stand-in for Nearby's D-Bus tests (a python-dbusmock template)

Run it with `/usr/bin/python3 -m dbusmock --system --template tests/bluez_nearby.py`.

It publishes the object manager at / and the org.bluez.Mock interface on /, which tests use to:
add and remove adapters and beacons, publish ServiceData / ManufacturerData / RSSI with any
variant type (the real a{sv} / a{qv} and the aa{sv} / aa{qv} the stock template uses), change
and invalidate properties in one PropertiesChanged, make StartDiscovery fail (InProgress,
NotReady) or never answer, power adapters off and on, and flood RSSI updates from a timer
inside the mock.

Radio noise, from a timer inside the mock (one RSSI signal per device per advert, as bluetoothd
sends with a discovery filter set):
- JitterRssi(adapter, rate_hz, duration_ms, sigma_db, seed): every device on the adapter
  advertises RATE_HZ times a second for DURATION_MS; each RSSI is the device's mean plus a
  Gaussian draw of SIGMA_DB (rounded, kept within -127..-1 dBm). The draws come from one
  random.Random(SEED) in path order, so a run is the same every time. A device's mean starts as
  its RSSI property when the call is made. Ends with FloodFinished like FloodRssi.
- WalkRssi(device_path, to_rssi, duration_ms): the device's mean moves in a straight line (in
  dB) from where it is now to TO_RSSI over DURATION_MS, then stays there: a person walking up
  to the beacon (a higher TO_RSSI) or away from it. Without a JitterRssi running, nothing is
  signalled; the walk goes on all the same, on the mock's clock.
- StopRssi(): ends every RSSI timer (FloodRssi, HoldRssi, JitterRssi) at its next tick.

Adapters also carry org.bluez.LEAdvertisingManager1 (missing from dbusmock 0.28.7). Like
bluetoothd, RegisterAdvertisement reads the caller's LEAdvertisement1 properties back with
Properties.GetAll before it answers, and forgets an advertisement when its owner leaves the bus.
Mock methods: SetAdvertisingInstances, FailRegisterAdvertisement, GetAdvertisements,
ReleaseAdvertisement, RemoveAdvertisingManager.

Configurable beacons (AddConfigurableBeacon) can be connected: Device1.Connect and Disconnect,
ServicesResolved, and the Eddystone (a3c87500-…) or UriBeacon (ee0c2080-…) configuration service
as GattService1 and GattCharacteristic1 objects whose ReadValue and WriteValue follow each
specification's state machine (lock state, the AES-128 unlock challenge, a wrong key, slot data
lengths, the tx power table, clamped intervals, factory reset), answering with bluetoothd 5.66's
error names. When the link ends, the device broadcasts what it was set to. Faults: FailConnect
(an error, or a Connect never answered), SetCharacteristicFault (a characteristic that never
answers, or a write during which the link drops), DropLink; stopping the mock while a call is
held is bluetoothd ending mid-write. GetBeaconConfig shows what the beacon holds. The unlock
challenge and EID need python3-cryptography.

Call counts come from dbusmock itself: org.freedesktop.DBus.Mock.GetMethodCalls on an adapter.

SPDX-License-Identifier: GPL-3.0-or-later
'''

import os
import random
import time

import dbus
import dbus.lowlevel
import dbus.service
from gi.repository import GLib

from dbusmock import OBJECT_MANAGER_IFACE, mockobject

BUS_NAME = 'org.bluez'
MAIN_OBJ = '/'
SYSTEM_BUS = True
IS_OBJECT_MANAGER = True

MOCK_IFACE = 'org.bluez.Mock'
ADAPTER_IFACE = 'org.bluez.Adapter1'
DEVICE_IFACE = 'org.bluez.Device1'
ADVERTISING_MANAGER_IFACE = 'org.bluez.LEAdvertisingManager1'
ADVERTISEMENT_IFACE = 'org.bluez.LEAdvertisement1'


def load(mock, _parameters):
    mock.nearby_failures = {}   # adapter path -> list of error names for the next StartDiscovery calls
    mock.nearby_floods = []
    mock.nearby_register_failures = {}   # adapter path -> error names for the next registrations
    mock.nearby_rssi_means = {}   # device path -> (from dBm, to dBm, start s, duration s)
    mock.nearby_rssi_timers = []   # the state of each running RSSI timer


def _manager():
    return mockobject.objects['/']


def _adapter_path(name):
    return '/org/bluez/' + name


def _emit_properties_changed(obj, interface, changed, invalidated):
    obj.EmitSignal(dbus.PROPERTIES_IFACE, 'PropertiesChanged', 'sa{sv}as', [
        interface,
        dbus.Dictionary(changed, signature='sv'),
        dbus.Array(invalidated, signature='s'),
    ])


def _set_adapter_props(adapter, changed):
    for key, value in changed.items():
        adapter.props[ADAPTER_IFACE][key] = value
    _emit_properties_changed(adapter, ADAPTER_IFACE, changed, [])


def _devices_of(adapter_path):
    return sorted(path for path in mockobject.objects if path.startswith(adapter_path + '/'))


def _remove_device(path):
    # Beacons are temporary, non-connectable devices: bluetoothd drops them when discovery ends.
    obj = mockobject.objects[path]
    _manager().nearby_rssi_means.pop(path, None)
    obj.remove_from_connection()
    del mockobject.objects[path]
    _manager().EmitSignal(OBJECT_MANAGER_IFACE, 'InterfacesRemoved', 'oas', [
        dbus.ObjectPath(path), dbus.Array([DEVICE_IFACE], signature='s')])


def _stop_discovering(adapter):
    for path in _devices_of(adapter.path):
        _remove_device(path)
    if adapter.props[ADAPTER_IFACE]['Discovering']:
        _set_adapter_props(adapter, {'Discovering': dbus.Boolean(False, variant_level=1)})


def StartDiscovery(adapter):
    failures = _manager().nearby_failures.get(adapter.path, [])
    if failures:
        name = failures.pop(0)
        raise dbus.exceptions.DBusException('Mock failure ' + name, name=name)
    if not adapter.props[ADAPTER_IFACE]['Powered']:
        raise dbus.exceptions.DBusException('Resource Not Ready', name='org.bluez.Error.NotReady')
    if not adapter.props[ADAPTER_IFACE]['Discovering']:
        _set_adapter_props(adapter, {'Discovering': dbus.Boolean(True, variant_level=1)})


def StopDiscovery(adapter):
    if not adapter.props[ADAPTER_IFACE]['Powered']:
        raise dbus.exceptions.DBusException('Resource Not Ready', name='org.bluez.Error.NotReady')
    _stop_discovering(adapter)


def SetDiscoveryFilter(adapter, discovery_filter):
    if not adapter.props[ADAPTER_IFACE]['Powered']:
        raise dbus.exceptions.DBusException('Resource Not Ready', name='org.bluez.Error.NotReady')
    adapter.nearby_filter = discovery_filter


def RemoveDevice(adapter, path):
    if path not in mockobject.objects:
        raise dbus.exceptions.DBusException('Does Not Exist', name='org.bluez.Error.DoesNotExist')
    _remove_device(path)


@dbus.service.method(MOCK_IFACE, in_signature='sb', out_signature='o')
def AddAdapter(self, name, powered):
    '''Adds /org/bluez/NAME, powered or not, and announces it with InterfacesAdded.'''
    path = _adapter_path(name)
    properties = {
        'Address': dbus.String('00:11:22:33:44:' + name[-2:].replace('i', '0'), variant_level=1),
        'AddressType': dbus.String('public', variant_level=1),
        'Name': dbus.String('nearby-test', variant_level=1),
        'Alias': dbus.String('nearby-test', variant_level=1),
        'Class': dbus.UInt32(0x10c, variant_level=1),
        'Powered': dbus.Boolean(powered, variant_level=1),
        'PowerState': dbus.String('on' if powered else 'off', variant_level=1),
        'Discoverable': dbus.Boolean(False, variant_level=1),
        'Pairable': dbus.Boolean(True, variant_level=1),
        'Discovering': dbus.Boolean(False, variant_level=1),
        'UUIDs': dbus.Array([], signature='s', variant_level=1),
    }
    self.AddObject(path, ADAPTER_IFACE, properties, [
        ('StartDiscovery', '', '', StartDiscovery),
        ('StopDiscovery', '', '', StopDiscovery),
        ('SetDiscoveryFilter', 'a{sv}', '', SetDiscoveryFilter),
        ('RemoveDevice', 'o', '', RemoveDevice),
    ])
    adapter = mockobject.objects[path]
    adapter.nearby_filter = None
    manager_properties = _add_advertising_manager(adapter)
    self.EmitSignal(OBJECT_MANAGER_IFACE, 'InterfacesAdded', 'oa{sa{sv}}', [
        dbus.ObjectPath(path), {ADAPTER_IFACE: properties,
                                ADVERTISING_MANAGER_IFACE: manager_properties}])
    return path


@dbus.service.method(MOCK_IFACE, in_signature='s', out_signature='')
def RemoveAdapter(self, name):
    '''Unplugs an adapter: its devices go first, then the adapter.'''
    path = _adapter_path(name)
    for device in _devices_of(path):
        _remove_device(device)
    self.RemoveObject(path)
    self.EmitSignal(OBJECT_MANAGER_IFACE, 'InterfacesRemoved', 'oas', [
        dbus.ObjectPath(path), dbus.Array([ADAPTER_IFACE], signature='s')])


@dbus.service.method(MOCK_IFACE, in_signature='sb', out_signature='')
def SetPowered(self, name, powered):
    '''Powers an adapter off (discovery sessions and beacons end) or on.'''
    adapter = mockobject.objects[_adapter_path(name)]
    if not powered:
        _stop_discovering(adapter)
        adapter.nearby_filter = None
    _set_adapter_props(adapter, {
        'Powered': dbus.Boolean(powered, variant_level=1),
        'PowerState': dbus.String('on' if powered else 'off', variant_level=1),
    })


@dbus.service.method(MOCK_IFACE, in_signature='sb', out_signature='')
def SetBlocked(self, name, blocked):
    '''rfkill: the adapter is off and cannot be powered.'''
    adapter = mockobject.objects[_adapter_path(name)]
    if blocked:
        _stop_discovering(adapter)
    _set_adapter_props(adapter, {
        'Powered': dbus.Boolean(False, variant_level=1),
        'PowerState': dbus.String('off-blocked' if blocked else 'off', variant_level=1),
    })


@dbus.service.method(MOCK_IFACE, in_signature='sas', out_signature='')
def FailStartDiscovery(self, name, errors):
    '''The next len(ERRORS) StartDiscovery calls on adapter NAME fail with these error names.'''
    self.nearby_failures[_adapter_path(name)] = list(errors)


@dbus.service.method(MOCK_IFACE, in_signature='s', out_signature='')
def HangStartDiscovery(self, name):
    '''From now on StartDiscovery on adapter NAME is logged but never answered, as by a
    bluetoothd that hangs; every other method still answers.'''
    adapter = mockobject.objects[_adapter_path(name)]

    # Like RegisterAdvertisement: dbusmock's own methods cannot leave a call unanswered.
    def start_discovery(obj, reply, error):
        obj.call_log.append((int(time.time()), 'StartDiscovery', []))
        obj.nearby_unanswered.append(reply)

    start_discovery = dbus.service.method(ADAPTER_IFACE, in_signature='', out_signature='',
                                          async_callbacks=('reply', 'error'))(start_discovery)
    start_discovery.__name__ = 'StartDiscovery'
    adapter.nearby_unanswered = []
    adapter.methods[ADAPTER_IFACE]['StartDiscovery'] = ('', '', '', start_discovery)


@dbus.service.method(MOCK_IFACE, in_signature='s', out_signature='a{sv}')
def GetDiscoveryFilter(self, name):
    '''The filter the last SetDiscoveryFilter call on adapter NAME set (empty when none).'''
    adapter = mockobject.objects[_adapter_path(name)]
    if adapter.nearby_filter is None:
        return dbus.Dictionary({}, signature='sv')
    return dbus.Dictionary(adapter.nearby_filter, signature='sv')


@dbus.service.method(MOCK_IFACE, in_signature='ssa{sv}', out_signature='o')
def AddBeacon(self, adapter_name, address, properties):
    '''Adds a Device1 with the given extra properties, typed exactly as the caller sent them.

    With no extra properties this is a device whose advert data arrives later, through
    UpdateDevice, as bluetoothd often does.'''
    adapter_path = _adapter_path(adapter_name)
    if adapter_path not in mockobject.objects:
        raise dbus.exceptions.DBusException('No adapter ' + adapter_name,
                                            name=MOCK_IFACE + '.NoSuchAdapter')
    path = adapter_path + '/dev_' + address.replace(':', '_').upper()
    props = {
        'Address': dbus.String(address, variant_level=1),
        'AddressType': dbus.String('random', variant_level=1),
        'Alias': dbus.String(address.replace(':', '-'), variant_level=1),
        'Adapter': dbus.ObjectPath(adapter_path, variant_level=1),
        'Paired': dbus.Boolean(False, variant_level=1),
        'Connected': dbus.Boolean(False, variant_level=1),
        'Trusted': dbus.Boolean(False, variant_level=1),
        'Blocked': dbus.Boolean(False, variant_level=1),
        'UUIDs': dbus.Array([], signature='s', variant_level=1),
    }
    for key, value in properties.items():
        props[key] = value
    self.AddObject(path, DEVICE_IFACE, props, [])
    self.EmitSignal(OBJECT_MANAGER_IFACE, 'InterfacesAdded', 'oa{sa{sv}}', [
        dbus.ObjectPath(path), {DEVICE_IFACE: props}])
    return path


@dbus.service.method(MOCK_IFACE, in_signature='oa{sv}as', out_signature='')
def UpdateDevice(self, path, changed, invalidated):
    '''Changes and invalidates Device1 properties in one PropertiesChanged, as bluetoothd does.'''
    device = mockobject.objects[path]
    for key, value in changed.items():
        device.props[DEVICE_IFACE][key] = value
    for key in invalidated:
        device.props[DEVICE_IFACE].pop(key, None)
    _emit_properties_changed(device, DEVICE_IFACE, changed, invalidated)


@dbus.service.method(MOCK_IFACE, in_signature='oa{sv}', out_signature='')
def Advert(self, path, advert):
    '''One advert heard from the device at PATH, carrying ADVERT (RSSI, ServiceData,
    ManufacturerData): signalled as bluetoothd 5.66 does under the adapter's discovery filter
    (see _advert_changes); nothing is signalled when nothing is to be.'''
    device = mockobject.objects[path]
    adapter = mockobject.objects[str(device.props[DEVICE_IFACE]['Adapter'])]
    changed = _advert_changes(adapter, device, advert)
    if changed:
        _emit_properties_changed(device, DEVICE_IFACE, changed, [])


@dbus.service.method(MOCK_IFACE, in_signature='s', out_signature='')
def RemoveBeacon(self, path):
    '''The beacon went out of range (TemporaryTimeout expired).'''
    _remove_device(path)


_ADVERT_DATA = ('ManufacturerData', 'ServiceData')


def _duplicate_data(adapter):
    # SetDiscoveryFilter's DuplicateData is true unless a client says otherwise.
    return adapter.nearby_filter is not None \
        and bool(adapter.nearby_filter.get('DuplicateData', True))


def _advert_changes(adapter, device, advert):
    '''What bluetoothd 5.66 signals for one advert of DEVICE carrying ADVERT (RSSI and advert
    data), and keeps as its properties.

    With a discovery filter (src/adapter.c), the RSSI of every advert. With DuplicateData
    (src/device.c, device_set_service_data and device_set_manufacturer_data), the data is
    cleared and added again, so every signal carries it; without, only data whose bytes changed
    is signalled. Without a filter the mock signals the RSSI all the same.'''
    props = device.props[DEVICE_IFACE]
    changed = {}
    if 'RSSI' in advert:
        changed['RSSI'] = advert['RSSI']
    for key in _ADVERT_DATA:
        if key in advert and (_duplicate_data(adapter) or props.get(key) != advert[key]):
            changed[key] = advert[key]
    for key, data in changed.items():
        props[key] = data
    return changed


def _flood_rssi(device_path, tick, ticks, index):
    # The last tick carries a value that identifies the device, so a test can check that it
    # arrived; the others sweep through a range.
    if tick == ticks - 1:
        return -40 - (index % 50)
    return -60 - ((tick + index) % 30)


def _start_rssi_timer(mock, adapter_name, rate_hz, duration_ms, value):
    adapter = mockobject.objects[_adapter_path(adapter_name)]
    devices = _devices_of(adapter.path)
    ticks = max(1, rate_hz * duration_ms // 1000)
    interval = max(1, 1000 // max(1, rate_hz))
    connection = mock.connection
    state = {'tick': 0, 'sent': 0, 'stopped': False}
    prepared = [(path, mockobject.objects[path]) for path in devices]

    def tick():
        t = state['tick']
        if state['stopped']:
            mock.nearby_rssi_timers.remove(state)
            return False
        for index, (path, device) in enumerate(prepared):
            if path not in mockobject.objects:
                continue   # removed meanwhile: a real beacon out of range sends nothing
            rssi = dbus.Int16(value(path, t, ticks, index))
            # Each tick is an advert with the same data as before.
            changed = _advert_changes(adapter, device, {
                'RSSI': dbus.Int16(rssi, variant_level=1),
                **{key: device.props[DEVICE_IFACE][key] for key in _ADVERT_DATA
                   if key in device.props[DEVICE_IFACE]}})
            message = dbus.lowlevel.SignalMessage(path, dbus.PROPERTIES_IFACE, 'PropertiesChanged')
            message.append(DEVICE_IFACE, dbus.Dictionary(changed, signature='sv'),
                           dbus.Array([], signature='s'), signature='sa{sv}as')
            connection.send_message(message)
            state['sent'] += 1
        state['tick'] = t + 1
        if state['tick'] >= ticks:
            finished = dbus.lowlevel.SignalMessage('/', MOCK_IFACE, 'FloodFinished')
            finished.append(dbus.UInt32(state['sent']), signature='u')
            connection.send_message(finished)
            mock.nearby_rssi_timers.remove(state)
            return False
        return True

    mock.nearby_rssi_timers.append(state)
    GLib.timeout_add(interval, tick)
    return dbus.UInt32(ticks)


@dbus.service.method(MOCK_IFACE, in_signature='suu', out_signature='u')
def FloodRssi(self, adapter_name, rate_hz, duration_ms):
    '''Changes the RSSI of every device on the adapter RATE_HZ times a second for DURATION_MS
    (each change an advert: with DuplicateData, the signal carries the device's data too).

    A timer inside the mock sends the signals, so the test process does no round trip per
    update. Each device's last value is -40 - (index % 50), index being its place in path order.
    Emits org.bluez.Mock.FloodFinished(u signals_sent) at the end. Returns the number of ticks.'''
    return _start_rssi_timer(self, adapter_name, rate_hz, duration_ms, _flood_rssi)


@dbus.service.method(MOCK_IFACE, in_signature='suun', out_signature='u')
def HoldRssi(self, adapter_name, rate_hz, duration_ms, rssi):
    '''Signals the RSSI of every device on the adapter RATE_HZ times a second for DURATION_MS,
    each value within 1 dB of RSSI: beacons that stay where they are, as bluetoothd reports them
    with a discovery filter set (an RSSI on every advertisement; with DuplicateData, their
    ServiceData and ManufacturerData too).

    Like FloodRssi, from a timer inside the mock, ending with FloodFinished. Returns the number
    of ticks.'''
    return _start_rssi_timer(self, adapter_name, rate_hz, duration_ms,
                             lambda path, tick, ticks, index: rssi + (tick + index) % 3 - 1)


def _rssi_mean(mock, path, now):
    start_rssi, to_rssi, start, duration = mock.nearby_rssi_means[path]
    if duration <= 0 or now >= start + duration:
        return to_rssi
    return start_rssi + (to_rssi - start_rssi) * (now - start) / duration


@dbus.service.method(MOCK_IFACE, in_signature='suudu', out_signature='u')
def JitterRssi(self, adapter_name, rate_hz, duration_ms, sigma_db, seed):
    '''Signals the RSSI of every device on the adapter RATE_HZ times a second for DURATION_MS,
    each a Gaussian draw of SIGMA_DB around the device's mean (see WalkRssi): beacons in a room
    where the signal moves by several dB from advert to advert, as BLE indoors does.

    The mean of a device not walked yet is its RSSI property now. Draws come from
    random.Random(SEED), device by device in path order. Ends with FloodFinished; returns the
    number of ticks.'''
    rng = random.Random(seed)
    now = time.monotonic()
    for path in _devices_of(_adapter_path(adapter_name)):
        if path not in self.nearby_rssi_means:
            rssi = float(mockobject.objects[path].props[DEVICE_IFACE].get('RSSI', -70))
            self.nearby_rssi_means[path] = (rssi, rssi, now, 0.0)

    def value(path, _tick, _ticks, _index):
        if path not in self.nearby_rssi_means:
            return -70
        mean = _rssi_mean(self, path, time.monotonic())
        return max(-127, min(-1, round(mean + rng.gauss(0.0, sigma_db))))

    return _start_rssi_timer(self, adapter_name, rate_hz, duration_ms, value)


@dbus.service.method(MOCK_IFACE, in_signature='onu', out_signature='')
def WalkRssi(self, path, to_rssi, duration_ms):
    '''Moves the device's mean RSSI in a straight line from where it is now to TO_RSSI over
    DURATION_MS (0: at once). JitterRssi signals around the mean as it moves.'''
    if path not in mockobject.objects:
        raise dbus.exceptions.DBusException('No device ' + path, name=MOCK_IFACE + '.NoSuchDevice')
    now = time.monotonic()
    if path in self.nearby_rssi_means:
        start_rssi = _rssi_mean(self, path, now)
    else:
        start_rssi = float(mockobject.objects[path].props[DEVICE_IFACE].get('RSSI', -70))
    self.nearby_rssi_means[path] = (start_rssi, float(to_rssi), now, duration_ms / 1000.0)


@dbus.service.method(MOCK_IFACE, in_signature='', out_signature='')
def StopRssi(self):
    '''Ends every RSSI timer (FloodRssi, HoldRssi, JitterRssi) at its next tick, without
    FloodFinished.'''
    for state in self.nearby_rssi_timers:
        state['stopped'] = True


# LE advertising

def _set_manager_props(adapter, changed):
    for key, value in changed.items():
        adapter.props[ADVERTISING_MANAGER_IFACE][key] = value
    _emit_properties_changed(adapter, ADVERTISING_MANAGER_IFACE, changed, [])


def _update_active_instances(adapter):
    _set_manager_props(adapter, {
        'ActiveInstances': dbus.Byte(len(adapter.nearby_adverts), variant_level=1)})


def _forget_advertisement(adapter, path):
    advert = adapter.nearby_adverts.pop(path, None)
    if advert is None:
        return None
    if advert['watch'] is not None:
        advert['watch'].cancel()
    _update_active_instances(adapter)
    return advert


def _register_advertisement(adapter, path, options, sender, reply, error):
    adapter.call_log.append((int(GLib.get_real_time() / 1000000), 'RegisterAdvertisement',
                             [path, options]))
    failures = _manager().nearby_register_failures.get(adapter.path, [])
    if failures:
        name = failures.pop(0)
        error(dbus.exceptions.DBusException('Mock failure ' + name, name=name))
        return
    manager = adapter.props[ADVERTISING_MANAGER_IFACE]
    if int(manager['ActiveInstances']) >= int(manager['SupportedInstances']):
        error(dbus.exceptions.DBusException('Maximum advertisements reached',
                                            name='org.bluez.Error.NotPermitted'))
        return
    if path in adapter.nearby_adverts:
        error(dbus.exceptions.DBusException('Already Exists', name='org.bluez.Error.AlreadyExists'))
        return

    def got_properties(properties):
        if properties.get('Type') not in ('broadcast', 'peripheral'):
            error(dbus.exceptions.DBusException('Invalid Type',
                                                name='org.bluez.Error.InvalidArguments'))
            return
        if path in adapter.nearby_adverts:
            error(dbus.exceptions.DBusException('Already Exists',
                                                name='org.bluez.Error.AlreadyExists'))
            return

        def owner_changed(new_owner):
            # bluetoothd drops a client's advertisements when the client leaves the bus.
            if not new_owner and path in adapter.nearby_adverts \
                    and adapter.nearby_adverts[path]['owner'] == sender:
                _forget_advertisement(adapter, path)

        adapter.nearby_adverts[path] = {'owner': sender, 'properties': properties, 'watch': None}
        adapter.nearby_adverts[path]['watch'] = adapter.connection.watch_name_owner(sender,
                                                                                    owner_changed)
        _update_active_instances(adapter)
        reply()

    def failed(exception):
        error(dbus.exceptions.DBusException('Failed to parse advertisement: ' + str(exception),
                                            name='org.bluez.Error.Failed'))

    adapter.connection.call_async(sender, path, dbus.PROPERTIES_IFACE, 'GetAll', 's',
                                  (ADVERTISEMENT_IFACE,), got_properties, failed)


def _unregister_advertisement(adapter, path):
    if _forget_advertisement(adapter, path) is None:
        raise dbus.exceptions.DBusException('Does Not Exist', name='org.bluez.Error.DoesNotExist')


def _add_advertising_manager(adapter):
    # A decorated method per adapter: dbusmock's AddMethod cannot hand the caller's bus name or
    # answer later, and RegisterAdvertisement needs both to read the caller's properties.
    def register(obj, path, options, sender, reply, error):
        _register_advertisement(obj, path, options, sender, reply, error)

    register = dbus.service.method(ADVERTISING_MANAGER_IFACE, in_signature='oa{sv}',
                                   out_signature='', sender_keyword='sender',
                                   async_callbacks=('reply', 'error'))(register)
    register.__name__ = 'RegisterAdvertisement'

    properties = {
        'ActiveInstances': dbus.Byte(0, variant_level=1),
        'SupportedInstances': dbus.Byte(4, variant_level=1),
        'SupportedIncludes': dbus.Array(['tx-power', 'appearance', 'local-name'], signature='s',
                                        variant_level=1),
    }
    adapter.nearby_adverts = {}
    adapter.AddProperties(ADVERTISING_MANAGER_IFACE, properties)
    adapter.methods.setdefault(ADVERTISING_MANAGER_IFACE, {})['RegisterAdvertisement'] = (
        'oa{sv}', '', '', register)
    adapter.AddMethods(ADVERTISING_MANAGER_IFACE, [
        ('UnregisterAdvertisement', 'o', '', _unregister_advertisement),
    ])
    return properties


@dbus.service.method(MOCK_IFACE, in_signature='sy', out_signature='')
def SetAdvertisingInstances(self, name, supported):
    '''How many advertisements adapter NAME can hold at once (4 by default; 0: all taken).'''
    adapter = mockobject.objects[_adapter_path(name)]
    _set_manager_props(adapter, {'SupportedInstances': dbus.Byte(supported, variant_level=1)})


@dbus.service.method(MOCK_IFACE, in_signature='sas', out_signature='')
def FailRegisterAdvertisement(self, name, errors):
    '''The next len(ERRORS) RegisterAdvertisement calls on NAME fail with these error names.'''
    self.nearby_register_failures[_adapter_path(name)] = list(errors)


@dbus.service.method(MOCK_IFACE, in_signature='s', out_signature='a{oa{sv}}')
def GetAdvertisements(self, name):
    '''The advertisements registered on adapter NAME: path -> the properties read at registration.

    Each also carries the owner's unique bus name as "nearby-owner".'''
    adapter = mockobject.objects[_adapter_path(name)]
    result = dbus.Dictionary({}, signature='oa{sv}')
    for path, advert in adapter.nearby_adverts.items():
        properties = dbus.Dictionary(advert['properties'], signature='sv')
        properties['nearby-owner'] = dbus.String(advert['owner'], variant_level=1)
        result[dbus.ObjectPath(path)] = properties
    return result


@dbus.service.method(MOCK_IFACE, in_signature='so', out_signature='')
def ReleaseAdvertisement(self, name, path):
    '''bluetoothd ends an advertisement by itself: it forgets it and calls its Release.'''
    adapter = mockobject.objects[_adapter_path(name)]
    advert = _forget_advertisement(adapter, path)
    if advert is None:
        raise dbus.exceptions.DBusException('No advertisement ' + path,
                                            name=MOCK_IFACE + '.NoSuchAdvertisement')
    message = dbus.lowlevel.MethodCallMessage(advert['owner'], path, ADVERTISEMENT_IFACE, 'Release')
    message.set_no_reply(True)
    adapter.connection.send_message(message)


@dbus.service.method(MOCK_IFACE, in_signature='s', out_signature='')
def RemoveAdvertisingManager(self, name):
    '''Adapter NAME cannot advertise: it loses its LEAdvertisingManager1 interface.'''
    path = _adapter_path(name)
    adapter = mockobject.objects[path]
    adapter.props.pop(ADVERTISING_MANAGER_IFACE, None)
    adapter.methods.pop(ADVERTISING_MANAGER_IFACE, None)
    self.EmitSignal(OBJECT_MANAGER_IFACE, 'InterfacesRemoved', 'oas', [
        dbus.ObjectPath(path), dbus.Array([ADVERTISING_MANAGER_IFACE], signature='s')])


# Configurable beacons: GATT over a connection
#
# A configurable beacon is a device that can be connected. Connect answers once the link is up;
# the GattService1 and GattCharacteristic1 objects appear after it, and ServicesResolved turns
# true last, as bluetoothd 5.66 does for an LE device it has not cached. Disconnect (or the beacon
# dropping the link) removes them again.
#
# ATT errors reach the client as bluetoothd 5.66's gatt-client.c (create_gatt_dbus_error(),
# unchanged since 5.3x) maps them:
#   0x02 Read Not Permitted         -> org.bluez.Error.NotPermitted "Read not permitted"
#   0x03 Write Not Permitted        -> org.bluez.Error.NotPermitted "Write not permitted"
#   0x05, 0x0c, 0x0f (authentication, key size, encryption)
#                                   -> org.bluez.Error.NotPermitted "Not paired"
#   0x06 Request Not Supported      -> org.bluez.Error.NotSupported "Operation is not supported"
#   0x07 Invalid Offset             -> org.bluez.Error.InvalidArguments "Invalid offset"
#   0x08 Insufficient Authorization -> org.bluez.Error.NotAuthorized "Operation Not Authorized"
#   0x0d Invalid Attribute Length   -> org.bluez.Error.InvalidArguments "Invalid Length"
#   any other                       -> org.bluez.Error.Failed "Operation failed with ATT error: 0xNN"
#   a request ended by the link     -> org.bluez.Error.Failed "Operation failed"
# (The gatt-client of bluetoothd 5.2x named them ReadNotPermitted, WriteNotPermitted, NotPaired
# and InvalidValueLength; InvalidValueLength is also what bluetoothd's GATT server takes from a
# local application, not what its client gives. SetCharacteristicFault's "error" gives any.)

GATT_SERVICE_IFACE = 'org.bluez.GattService1'
GATT_CHARACTERISTIC_IFACE = 'org.bluez.GattCharacteristic1'

EDDYSTONE_CONFIG_UUID = 'a3c87500-8ed3-4bdf-8a39-a01bebede295'
URIBEACON_CONFIG_UUID = 'ee0c2080-8786-40ba-ab96-99b91ac981d8'


def _eddystone_uuid(number):
    return 'a3c875%02x-8ed3-4bdf-8a39-a01bebede295' % number


def _uribeacon_uuid(number):
    return 'ee0c20%02x-8786-40ba-ab96-99b91ac981d8' % number


class AttError(Exception):
    '''An ATT error response from the beacon, as bluetoothd 5.66 turns it into a D-Bus error.'''

    NAMES = {
        0x02: ('org.bluez.Error.NotPermitted', 'Read not permitted'),
        0x03: ('org.bluez.Error.NotPermitted', 'Write not permitted'),
        0x05: ('org.bluez.Error.NotPermitted', 'Not paired'),
        0x06: ('org.bluez.Error.NotSupported', 'Operation is not supported'),
        0x07: ('org.bluez.Error.InvalidArguments', 'Invalid offset'),
        0x08: ('org.bluez.Error.NotAuthorized', 'Operation Not Authorized'),
        0x0c: ('org.bluez.Error.NotPermitted', 'Not paired'),
        0x0d: ('org.bluez.Error.InvalidArguments', 'Invalid Length'),
        0x0f: ('org.bluez.Error.NotPermitted', 'Not paired'),
    }

    def __init__(self, code):
        super().__init__(code)
        self.code = code

    def dbus_exception(self):
        name, message = self.NAMES.get(self.code, ('org.bluez.Error.Failed',
                                                   'Operation failed with ATT error: 0x%02x'
                                                   % self.code))
        return dbus.exceptions.DBusException(message, name=name)


READ_NOT_PERMITTED = 0x02
WRITE_NOT_PERMITTED = 0x03
INSUFFICIENT_AUTHORIZATION = 0x08
INVALID_LENGTH = 0x0d


def _aes_encrypt(key, block):
    # Imported here so that the rest of the mock runs without python3-cryptography.
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
    encryptor = Cipher(algorithms.AES(bytes(key)), modes.ECB()).encryptor()
    return encryptor.update(bytes(block)) + encryptor.finalize()


def _aes_decrypt(key, block):
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
    decryptor = Cipher(algorithms.AES(bytes(key)), modes.ECB()).decryptor()
    return decryptor.update(bytes(block)) + decryptor.finalize()


def _eid_identity_key(private_key, resolver_public):
    '''The Eddystone-EID identity key: HKDF-SHA256 of the X25519 shared secret, salted with the
    resolver's public key then the beacon's, truncated to 128 bits.'''
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PublicKey
    from cryptography.hazmat.primitives.kdf.hkdf import HKDF
    beacon_public = private_key.public_key().public_bytes(serialization.Encoding.Raw,
                                                          serialization.PublicFormat.Raw)
    shared = private_key.exchange(X25519PublicKey.from_public_bytes(bytes(resolver_public)))
    if shared == bytes(32):
        raise AttError(INVALID_LENGTH)
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=bytes(resolver_public) + beacon_public,
                info=None).derive(shared)[:16]


def _eid(identity_key, exponent, counter):
    '''The 8-byte ephemeral identifier for the beacon's time counter, as the Eddystone-EID
    specification computes it: a temporary key from the counter's top 16 bits, then the
    counter with its K lowest bits cleared.'''
    temporary = _aes_encrypt(identity_key, bytes(11) + b'\xff' + bytes(2)
                             + (counter >> 16).to_bytes(2, 'big'))
    cleared = (counter >> exponent) << exponent
    return _aes_encrypt(temporary, bytes(11) + bytes([exponent]) + cleared.to_bytes(4, 'big'))[:8]


class EddystoneConfig:
    '''The Eddystone GATT configuration service's state machine (spec version 0).

    Three slots, one of which can be EID; per-slot interval and tx power (capabilities 0x03);
    UID, URL, TLM and EID. An EID slot's time counter starts at 65280 when it is written (as the
    EID specification suggests) and counts the seconds since.'''

    SERVICE_UUID = EDDYSTONE_CONFIG_UUID
    MAX_EID_SLOTS = 1
    EID_COUNTER_START = 65280
    TX_LEVELS = [-30, -20, -16, -12, -8, -4, 0, 4]
    MAX_SLOTS = 3
    INTERVAL_MIN = 100
    INTERVAL_MAX = 10240
    FACTORY_SLOT = bytes([0x10, 0x03]) + b'example' + bytes([0x07])   # https://example.com

    def __init__(self, options):
        self.key = bytes(options.get('key', bytes(16)))
        self.relocks = bool(options.get('locked', False))
        self.lock_state = 0 if self.relocks else 2
        self.challenge = None
        self.active_slot = 0
        self.remain_connectable = 0
        self._ecdh_key = None
        self.factory_reset()
        if 'slot0' in options:
            self.slots[0]['data'] = bytes(options['slot0'])

    def factory_reset(self):
        self.slots = [{'data': b'', 'interval': 1000, 'radio_tx': 0, 'adv_tx': None,
                       'identity_key': None, 'exponent': 0, 'eid_since': 0.0}
                      for _ in range(self.MAX_SLOTS)]
        self.slots[0]['data'] = self.FACTORY_SLOT

    def connected(self):
        self.active_slot = 0
        self.challenge = None
        if self.lock_state == 1:
            self.lock_state = 0

    def disconnected(self):
        if self.lock_state == 1:
            self.lock_state = 0

    def characteristics(self):
        return [
            (1, ['read']), (2, ['read', 'write']), (3, ['read', 'write']),
            (4, ['read', 'write']), (5, ['read', 'write']), (6, ['read', 'write']),
            (7, ['read', 'write']), (8, ['read']), (9, ['read']), (10, ['read', 'write']),
            (11, ['write']),
            (12, ['read', 'write']),
        ]

    def uuid(self, number):
        return _eddystone_uuid(number)

    def _unlocked(self, code):
        if self.lock_state == 0:
            raise AttError(code)

    def _slot(self):
        return self.slots[self.active_slot]

    def _advertised_tx(self, slot):
        return slot['adv_tx'] if slot['adv_tx'] is not None else slot['radio_tx']

    @property
    def ecdh_key(self):
        '''The beacon's ECDH key pair, made when first needed and kept for its life (a beacon
        may also make one at each registration).'''
        if self._ecdh_key is None:
            from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey
            self._ecdh_key = X25519PrivateKey.generate()
        return self._ecdh_key

    def public_key(self):
        from cryptography.hazmat.primitives import serialization
        return self.ecdh_key.public_key().public_bytes(serialization.Encoding.Raw,
                                                       serialization.PublicFormat.Raw)

    def eid_counter(self, slot):
        return self.EID_COUNTER_START + int(time.monotonic() - slot['eid_since'])

    def eid(self, slot):
        return _eid(slot['identity_key'], slot['exponent'], self.eid_counter(slot))

    def frame(self, slot):
        '''What the slot broadcasts: Eddystone service data without the UUID.'''
        data = slot['data']
        tx = self._advertised_tx(slot) & 0xff
        if not data:
            return b''
        if data[0] == 0x30:
            return bytes([0x30, tx]) + self.eid(slot)
        if data[0] == 0x10:
            return bytes([0x10, tx]) + data[1:]
        if data[0] == 0x00:
            return bytes([0x00, tx]) + data[1:17] + bytes(2)
        # TLM: version 0, 3000 mV, 20.0 °C, counters
        return bytes([0x20, 0x00, 0x0b, 0xb8, 0x14, 0x00, 0, 0, 0x01, 0x00, 0, 0, 0x10, 0x00])

    def read(self, number):
        if number == 1:
            self._unlocked(READ_NOT_PERMITTED)
            return bytes([0, self.MAX_SLOTS, self.MAX_EID_SLOTS, 0x03, 0x00, 0x0f]) + \
                bytes(level & 0xff for level in self.TX_LEVELS)
        if number == 2:
            self._unlocked(READ_NOT_PERMITTED)
            return bytes([self.active_slot])
        if number == 3:
            self._unlocked(READ_NOT_PERMITTED)
            return self._slot()['interval'].to_bytes(2, 'big')
        if number == 4:
            self._unlocked(READ_NOT_PERMITTED)
            return bytes([self._slot()['radio_tx'] & 0xff])
        if number == 5:
            self._unlocked(READ_NOT_PERMITTED)
            return bytes([self._advertised_tx(self._slot()) & 0xff])
        if number == 6:
            return bytes([self.lock_state])
        if number == 7:
            if self.lock_state != 0:
                raise AttError(READ_NOT_PERMITTED)
            self.challenge = os.urandom(16)
            return self.challenge
        if number == 8:
            self._unlocked(READ_NOT_PERMITTED)
            return self.public_key()
        if number == 9:
            self._unlocked(READ_NOT_PERMITTED)
            if self._slot()['identity_key'] is None:
                raise AttError(READ_NOT_PERMITTED)
            # Wrapped under the lock key, so that it does not travel in the clear.
            return _aes_encrypt(self.key, self._slot()['identity_key'])
        if number == 10:
            self._unlocked(READ_NOT_PERMITTED)
            slot = self._slot()
            if slot['data'][:1] == b'\x30':
                # For registration: type, exponent, time counter, EID.
                return bytes([0x30, slot['exponent']]) + \
                    self.eid_counter(slot).to_bytes(4, 'big') + self.eid(slot)
            return self.frame(slot)
        if number == 12:
            return bytes([1])
        raise AttError(READ_NOT_PERMITTED)

    def write(self, number, value):
        value = bytes(value)
        if number == 7:
            if self.lock_state != 0:
                raise AttError(WRITE_NOT_PERMITTED)
            if len(value) != 16:
                raise AttError(INVALID_LENGTH)
            challenge, self.challenge = self.challenge, None
            if challenge is None or value != _aes_encrypt(self.key, challenge):
                raise AttError(INSUFFICIENT_AUTHORIZATION)
            self.lock_state = 1
            return
        if number == 1:
            raise AttError(WRITE_NOT_PERMITTED)
        self._unlocked(WRITE_NOT_PERMITTED)
        if number == 2:
            if len(value) != 1 or value[0] >= self.MAX_SLOTS:
                raise AttError(INVALID_LENGTH)
            self.active_slot = value[0]
        elif number == 3:
            if len(value) != 2:
                raise AttError(INVALID_LENGTH)
            interval = int.from_bytes(value, 'big')
            self._slot()['interval'] = min(max(interval, self.INTERVAL_MIN), self.INTERVAL_MAX)
        elif number == 4:
            if len(value) != 1:
                raise AttError(INVALID_LENGTH)
            wanted = int.from_bytes(value, 'big', signed=True)
            levels = [level for level in self.TX_LEVELS if level >= wanted]
            self._slot()['radio_tx'] = levels[0] if levels else self.TX_LEVELS[-1]
        elif number == 5:
            if len(value) != 1:
                raise AttError(INVALID_LENGTH)
            self._slot()['adv_tx'] = int.from_bytes(value, 'big', signed=True)
        elif number == 6:
            if value == bytes([0x00]):
                self.lock_state = 0
            elif value == bytes([0x02]):
                self.lock_state = 2
            elif len(value) == 17 and value[0] == 0x00:
                self.key = _aes_decrypt(self.key, value[1:])
                self.lock_state = 0
            else:
                raise AttError(INVALID_LENGTH)
        elif number == 10:
            slot = self._slot()
            slot['identity_key'] = None
            if len(value) == 0 or value == bytes([0x00]):
                self._slot()['data'] = b''
            elif value[0] == 0x30 and len(value) in (34, 18):
                if value[-1] > 15:
                    raise AttError(INVALID_LENGTH)
                if sum(1 for other in self.slots if other is not slot
                       and other['identity_key'] is not None) >= self.MAX_EID_SLOTS:
                    raise AttError(INVALID_LENGTH)
                if len(value) == 34:
                    # The resolver's public key: the identity key comes from the key exchange.
                    slot['identity_key'] = _eid_identity_key(self.ecdh_key, value[1:33])
                else:
                    # The identity key itself, wrapped under the lock key.
                    slot['identity_key'] = _aes_decrypt(self.key, value[1:17])
                slot['exponent'] = value[-1]
                slot['eid_since'] = time.monotonic()
                slot['data'] = bytes([0x30])
            elif value[0] == 0x00 and len(value) == 17:
                self._slot()['data'] = value
            elif value[0] == 0x10 and 2 <= len(value) <= 19 and value[1] <= 0x03:
                self._slot()['data'] = value
            elif value == bytes([0x20]):
                self._slot()['data'] = value
            else:
                raise AttError(INVALID_LENGTH)
        elif number == 11:
            if self.lock_state != 1:
                raise AttError(WRITE_NOT_PERMITTED)
            if value == bytes([0x0b]):
                self.factory_reset()
        elif number == 12:
            if len(value) != 1:
                raise AttError(INVALID_LENGTH)
            self.remain_connectable = value[0]
        else:
            raise AttError(WRITE_NOT_PERMITTED)

    def advertisement(self):
        frame = self.frame(self.slots[0])
        if not frame:
            return None
        return ('0000feaa-0000-1000-8000-00805f9b34fb', frame)

    def state(self):
        return {
            'key': dbus.ByteArray(self.key),
            'lock-state': dbus.Byte(self.lock_state),
            'slot0': dbus.ByteArray(self.frame(self.slots[0])),
            'interval0': dbus.UInt16(self.slots[0]['interval']),
            'radio-tx0': dbus.Int16(self.slots[0]['radio_tx']),
            'remain-connectable': dbus.Byte(self.remain_connectable),
            'slots': dbus.Array([dbus.ByteArray(self.frame(slot)) for slot in self.slots],
                                signature='ay'),
            'public-key': dbus.ByteArray(self.public_key()),
            # Each slot's EID identity key in the clear (empty for a slot that is not EID).
            'identity-keys': dbus.Array([dbus.ByteArray(slot['identity_key'] or b'')
                                         for slot in self.slots], signature='ay'),
        }


class UriBeaconConfig:
    '''The UriBeacon configuration service (specification 1.1): the key travels in the clear.'''

    SERVICE_UUID = URIBEACON_CONFIG_UUID
    FACTORY_URI = bytes([0x03]) + b'example' + bytes([0x07])
    FACTORY_LEVELS = [-30 & 0xff, -16 & 0xff, -4 & 0xff, 4]
    PERIOD_MIN = 20

    def __init__(self, options):
        self.key = bytes(options.get('key', bytes(16)))
        self.locked = bool(options.get('locked', False))
        self.reset()
        if 'uri' in options:
            self.uri = bytes(options['uri'])

    def reset(self):
        self.uri = self.FACTORY_URI
        self.flags = 0
        self.levels = bytes(self.FACTORY_LEVELS)
        self.mode = 2
        self.period = 1000

    def connected(self):
        pass

    def disconnected(self):
        pass

    def characteristics(self):
        return [(0x81, ['read']), (0x82, ['write']), (0x83, ['write']),
                (0x84, ['read', 'write']), (0x85, ['read', 'write']), (0x86, ['read', 'write']),
                (0x87, ['read', 'write']), (0x88, ['read', 'write']), (0x89, ['write'])]

    def uuid(self, number):
        return _uribeacon_uuid(number)

    def read(self, number):
        if number == 0x81:
            return bytes([1 if self.locked else 0])
        if number == 0x84:
            return self.uri
        if number == 0x85:
            return bytes([self.flags])
        if number == 0x86:
            return self.levels
        if number == 0x87:
            return bytes([self.mode])
        if number == 0x88:
            return self.period.to_bytes(2, 'little')
        raise AttError(READ_NOT_PERMITTED)

    def write(self, number, value):
        value = bytes(value)
        if number == 0x83:
            if len(value) != 16:
                raise AttError(INVALID_LENGTH)
            if self.locked and value != self.key:
                raise AttError(INSUFFICIENT_AUTHORIZATION)
            self.locked = False
            return
        if self.locked:
            raise AttError(INSUFFICIENT_AUTHORIZATION)
        if number == 0x82:
            if len(value) != 16:
                raise AttError(INVALID_LENGTH)
            self.key = value
            self.locked = True
        elif number == 0x84:
            if len(value) > 18:
                raise AttError(INVALID_LENGTH)
            self.uri = value
        elif number == 0x85:
            if len(value) != 1:
                raise AttError(INVALID_LENGTH)
            self.flags = value[0]
        elif number == 0x86:
            if len(value) != 4:
                raise AttError(INVALID_LENGTH)
            self.levels = value
        elif number == 0x87:
            if len(value) != 1:
                raise AttError(INVALID_LENGTH)
            if value[0] > 3:
                raise AttError(WRITE_NOT_PERMITTED)
            self.mode = value[0]
        elif number == 0x88:
            if len(value) != 2:
                raise AttError(INVALID_LENGTH)
            period = int.from_bytes(value, 'little')
            self.period = period if period == 0 else max(period, self.PERIOD_MIN)
        elif number == 0x89:
            if len(value) != 1:
                raise AttError(INVALID_LENGTH)
            if value[0] != 0:
                self.reset()
        else:
            raise AttError(WRITE_NOT_PERMITTED)

    def advertisement(self):
        if not self.uri:
            return None
        return ('0000fed8-0000-1000-8000-00805f9b34fb',
                bytes([self.flags, self.levels[self.mode]]) + self.uri)

    def state(self):
        return {
            'key': dbus.ByteArray(self.key),
            'locked': dbus.Boolean(self.locked),
            'uri': dbus.ByteArray(self.uri),
            'flags': dbus.Byte(self.flags),
            'levels': dbus.ByteArray(self.levels),
            'mode': dbus.Byte(self.mode),
            'period': dbus.UInt16(self.period),
        }


def _set_device_props(device, changed):
    for key, value in changed.items():
        device.props[DEVICE_IFACE][key] = value
    _emit_properties_changed(device, DEVICE_IFACE, changed, [])


def _async_method(interface, name, in_signature, function):
    '''A method that may answer later, or never; logged in dbusmock's call log all the same.'''
    # dbus-python reads the argument names, so each signature gets its own function.
    if in_signature == '':
        def method(obj, reply, error):
            obj.call_log.append((int(time.time()), name, []))
            function(obj, reply, error)
        out_signature = ''
    elif in_signature == 'a{sv}':
        def method(obj, options, reply, error):
            obj.call_log.append((int(time.time()), name, [options]))
            function(obj, options, reply, error)
        out_signature = 'ay'
    else:
        def method(obj, value, options, reply, error):
            obj.call_log.append((int(time.time()), name, [value, options]))
            function(obj, value, options, reply, error)
        out_signature = ''

    method = dbus.service.method(interface, in_signature=in_signature,
                                 out_signature=out_signature,
                                 async_callbacks=('reply', 'error'))(method)
    method.__name__ = name
    return (in_signature, out_signature, '', method)


def _held(device, path, method, reply, error):
    # A call that is never answered; the test hears of it, so that it can act meanwhile.
    device.nearby_held.append((reply, error))
    _manager().EmitSignal(MOCK_IFACE, 'CallHeld', 'os', [dbus.ObjectPath(path), method])


def _gatt_remove(device):
    for path in reversed(device.nearby_gatt_paths):
        interface = GATT_CHARACTERISTIC_IFACE if '/char' in path else GATT_SERVICE_IFACE
        obj = mockobject.objects.pop(path, None)
        if obj is None:
            continue
        obj.remove_from_connection()
        _manager().EmitSignal(OBJECT_MANAGER_IFACE, 'InterfacesRemoved', 'oas', [
            dbus.ObjectPath(path), dbus.Array([interface], signature='s')])
    device.nearby_gatt_paths = []


def _link_down(device):
    '''The link ends, by Disconnect or by the beacon: pending requests fail, the GATT objects go,
    and what the beacon now broadcasts is heard.'''
    if not device.props[DEVICE_IFACE]['Connected']:
        return
    for reply, error in device.nearby_pending:
        error(dbus.exceptions.DBusException('Operation failed', name='org.bluez.Error.Failed'))
    device.nearby_pending = []
    device.nearby_config.disconnected()
    _gatt_remove(device)
    _set_device_props(device, {'ServicesResolved': dbus.Boolean(False, variant_level=1)})
    _set_device_props(device, {'Connected': dbus.Boolean(False, variant_level=1)})
    advertisement = device.nearby_config.advertisement()
    if advertisement is not None:
        uuid, data = advertisement
        _set_device_props(device, {'ServiceData': dbus.Dictionary(
            {uuid: dbus.Array(data, signature='y', variant_level=1)}, signature='sv',
            variant_level=1)})


def _characteristic_read(device, number, path):
    def read_value(obj, options, reply, error):
        fault = device.nearby_faults.get(number)
        if fault == 'hang':
            _held(device, path, 'ReadValue', reply, error)
            return
        try:
            value = device.nearby_config.read(number)
        except AttError as e:
            error(e.dbus_exception())
            return
        obj.props[GATT_CHARACTERISTIC_IFACE]['Value'] = dbus.Array(value, signature='y')
        reply(dbus.Array(value, signature='y'))
    return read_value


def _characteristic_write(device, number, path):
    def write_value(obj, value, options, reply, error):
        fault = device.nearby_faults.get(number)
        if fault in ('hang', 'hang-write'):
            _held(device, path, 'WriteValue', reply, error)
            return
        if fault and fault.startswith('att '):
            # Once: the beacon answers with this ATT error code, named as bluetoothd 5.66 does.
            del device.nearby_faults[number]
            error(AttError(int(fault.split(' ', 1)[1], 16)).dbus_exception())
            return
        if fault and fault.startswith('error '):
            # Once: the error as bluetoothd would give it, the value not taken.
            del device.nearby_faults[number]
            _, name, message = fault.split(' ', 2)
            error(dbus.exceptions.DBusException(message, name=name))
            return
        if fault == 'disconnect':
            # The link drops before the beacon takes the value: nothing is written.
            del device.nearby_faults[number]
            device.nearby_pending.append((reply, error))
            GLib.idle_add(lambda: _link_down(device) and False)
            return
        try:
            device.nearby_config.write(number, value)
        except AttError as e:
            error(e.dbus_exception())
            return
        reply()
    return write_value


def _gatt_add(device):
    config = device.nearby_config
    service_path = device.path + '/service0010'
    service_props = {
        'UUID': dbus.String(config.SERVICE_UUID, variant_level=1),
        'Device': dbus.ObjectPath(device.path, variant_level=1),
        'Primary': dbus.Boolean(True, variant_level=1),
        'Includes': dbus.Array([], signature='o', variant_level=1),
    }
    _manager().AddObject(service_path, GATT_SERVICE_IFACE, service_props, [])
    device.nearby_gatt_paths = [service_path]
    _manager().EmitSignal(OBJECT_MANAGER_IFACE, 'InterfacesAdded', 'oa{sa{sv}}', [
        dbus.ObjectPath(service_path), {GATT_SERVICE_IFACE: service_props}])
    for index, (number, flags) in enumerate(config.characteristics()):
        path = '%s/char%04x' % (service_path, 0x11 + 2 * index)
        props = {
            'UUID': dbus.String(config.uuid(number), variant_level=1),
            'Service': dbus.ObjectPath(service_path, variant_level=1),
            'Value': dbus.Array([], signature='y', variant_level=1),
            'Flags': dbus.Array(flags, signature='s', variant_level=1),
            'MTU': dbus.UInt16(23, variant_level=1),
        }
        _manager().AddObject(path, GATT_CHARACTERISTIC_IFACE, props, [])
        obj = mockobject.objects[path]
        methods = obj.methods.setdefault(GATT_CHARACTERISTIC_IFACE, {})
        methods['ReadValue'] = _async_method(GATT_CHARACTERISTIC_IFACE, 'ReadValue', 'a{sv}',
                                             _characteristic_read(device, number, path))
        methods['WriteValue'] = _async_method(GATT_CHARACTERISTIC_IFACE, 'WriteValue', 'aya{sv}',
                                              _characteristic_write(device, number, path))
        device.nearby_gatt_paths.append(path)
        _manager().EmitSignal(OBJECT_MANAGER_IFACE, 'InterfacesAdded', 'oa{sa{sv}}', [
            dbus.ObjectPath(path), {GATT_CHARACTERISTIC_IFACE: props}])


def _device_connect(device, reply, error):
    faults = device.nearby_connect_faults
    if faults:
        fault = faults.pop(0)
        if fault == 'hang':
            _held(device, device.path, 'Connect', reply, error)
            return
        name, _, message = fault.partition(' ')
        error(dbus.exceptions.DBusException(message or 'Mock failure', name=name))
        return
    if device.props[DEVICE_IFACE]['Connected']:
        reply()
        return

    def link_up():
        device.nearby_config.connected()
        _set_device_props(device, {'Connected': dbus.Boolean(True, variant_level=1)})
        reply()
        GLib.timeout_add(30, services_resolved)
        return False

    def services_resolved():
        if device.props[DEVICE_IFACE]['Connected']:
            _gatt_add(device)
            _set_device_props(device, {'ServicesResolved': dbus.Boolean(True, variant_level=1)})
        return False

    GLib.timeout_add(20, link_up)


def _device_disconnect(device, reply, error):
    _link_down(device)
    reply()


@dbus.service.method(MOCK_IFACE, in_signature='ssa{sv}', out_signature='o')
def AddConfigurableBeacon(self, adapter_name, address, options):
    '''Adds a connectable beacon with a configuration service, broadcasting what it is set to.

    OPTIONS: "service" is "eddystone" (the default) or "uribeacon"; "key" (ay, 16 bytes, zeros
    by default) is its lock key; "locked" (b) says whether it locks (Eddystone: relocks when the
    link ends; otherwise its lock state is 0x02); "slot0" (Eddystone, ay: the ADV Slot Data as
    written, 0x10 + scheme + URL) or "uri" (UriBeacon, ay: scheme + URI) what it is set to.'''
    kind = str(options.get('service', 'eddystone'))
    config = UriBeaconConfig(options) if kind == 'uribeacon' else EddystoneConfig(options)
    properties = {'UUIDs': dbus.Array(['0000feaa-0000-1000-8000-00805f9b34fb'
                                       if kind != 'uribeacon' else
                                       '0000fed8-0000-1000-8000-00805f9b34fb',
                                       config.SERVICE_UUID], signature='s', variant_level=1)}
    uuid, data = config.advertisement()
    properties['ServiceData'] = dbus.Dictionary(
        {uuid: dbus.Array(data, signature='y', variant_level=1)}, signature='sv', variant_level=1)
    properties['RSSI'] = dbus.Int16(-50, variant_level=1)
    properties['ServicesResolved'] = dbus.Boolean(False, variant_level=1)
    path = AddBeacon(self, adapter_name, address, properties)
    device = mockobject.objects[path]
    device.nearby_config = config
    device.nearby_faults = {}
    device.nearby_connect_faults = []
    device.nearby_held = []
    device.nearby_pending = []
    device.nearby_gatt_paths = []
    methods = device.methods.setdefault(DEVICE_IFACE, {})
    methods['Connect'] = _async_method(DEVICE_IFACE, 'Connect', '',
                                       lambda obj, reply, error: _device_connect(obj, reply, error))
    methods['Disconnect'] = _async_method(DEVICE_IFACE, 'Disconnect', '',
                                          lambda obj, reply, error:
                                          _device_disconnect(obj, reply, error))
    return path


@dbus.service.method(MOCK_IFACE, in_signature='oas', out_signature='')
def FailConnect(self, path, faults):
    '''The next len(FAULTS) Connect calls on device PATH fail: each fault is an error name and
    its message ("org.bluez.Error.Failed le-connection-abort-by-local"), or "hang" for a call
    that is never answered.'''
    mockobject.objects[path].nearby_connect_faults = list(faults)


@dbus.service.method(MOCK_IFACE, in_signature='oys', out_signature='')
def SetCharacteristicFault(self, path, number, fault):
    '''A fault on characteristic NUMBER (Eddystone 0x01-0x0c, UriBeacon 0x81-0x89) of device
    PATH: "hang" (reads and writes are never answered, and the mock emits
    CallHeld(o characteristic, s method) when it holds one), "hang-write" (the same for writes
    only), "disconnect" (the next write drops
    the link before the value is taken: the call fails as bluetoothd fails it, and the device
    disconnects), "att 0xNN" (the beacon answers the next write with this ATT error, which the
    mock names as bluetoothd 5.66 does), "error NAME MESSAGE" (the next write fails with this
    D-Bus error, as another bluetoothd version may answer), or "" for none.'''
    device = mockobject.objects[path]
    if fault:
        device.nearby_faults[int(number)] = str(fault)
    else:
        device.nearby_faults.pop(int(number), None)


@dbus.service.method(MOCK_IFACE, in_signature='o', out_signature='')
def DropLink(self, path):
    '''The beacon ends the connection (out of range, or it reset itself).'''
    _link_down(mockobject.objects[path])


@dbus.service.method(MOCK_IFACE, in_signature='o', out_signature='a{sv}')
def GetBeaconConfig(self, path):
    '''What the beacon at PATH holds now. Eddystone: key, lock-state, slot0 (what slot 0
    broadcasts), interval0, radio-tx0, remain-connectable, slots, public-key (its ECDH key),
    identity-keys (each slot's EID identity key in the clear, or empty). UriBeacon: key, locked,
    uri, flags, levels, mode, period.'''
    return dbus.Dictionary(mockobject.objects[path].nearby_config.state(), signature='sv')
