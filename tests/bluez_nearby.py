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

Call counts come from dbusmock itself: org.freedesktop.DBus.Mock.GetMethodCalls on an adapter.

SPDX-License-Identifier: GPL-3.0-or-later
'''

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


@dbus.service.method(MOCK_IFACE, in_signature='s', out_signature='')
def RemoveBeacon(self, path):
    '''The beacon went out of range (TemporaryTimeout expired).'''
    _remove_device(path)


def _flood_rssi(device_path, tick, ticks, index):
    # The last tick carries a value that identifies the device, so a test can check that it
    # arrived; the others sweep through a range.
    if tick == ticks - 1:
        return -40 - (index % 50)
    return -60 - ((tick + index) % 30)


def _start_rssi_timer(mock, adapter_name, rate_hz, duration_ms, value):
    devices = _devices_of(_adapter_path(adapter_name))
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
            device.props[DEVICE_IFACE]['RSSI'] = dbus.Int16(rssi, variant_level=1)
            message = dbus.lowlevel.SignalMessage(path, dbus.PROPERTIES_IFACE, 'PropertiesChanged')
            message.append(DEVICE_IFACE, {'RSSI': dbus.Int16(rssi, variant_level=1)},
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
    '''Changes the RSSI of every device on the adapter RATE_HZ times a second for DURATION_MS.

    A timer inside the mock sends the signals, so the test process does no round trip per
    update. Each device's last value is -40 - (index % 50), index being its place in path order.
    Emits org.bluez.Mock.FloodFinished(u signals_sent) at the end. Returns the number of ticks.'''
    return _start_rssi_timer(self, adapter_name, rate_hz, duration_ms, _flood_rssi)


@dbus.service.method(MOCK_IFACE, in_signature='suun', out_signature='u')
def HoldRssi(self, adapter_name, rate_hz, duration_ms, rssi):
    '''Signals the RSSI of every device on the adapter RATE_HZ times a second for DURATION_MS,
    each value within 1 dB of RSSI: beacons that stay where they are, as bluetoothd reports them
    with a discovery filter set (an RSSI on every advertisement).

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
