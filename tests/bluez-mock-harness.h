/* bluez-mock-harness.h: a private system bus and the mock bluetoothd on it
 *
 * Shared by the D-Bus tests. The mock is tests/bluez_nearby.py, a dbusmock template; it is
 * driven through its org.bluez.Mock methods and its org.freedesktop.DBus.Mock call log.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "nearby-test-utils.h"

G_BEGIN_DECLS

#define BLUEZ_MOCK_IFACE          "org.bluez.Mock"
#define BLUEZ_MOCK_DBUSMOCK_IFACE "org.freedesktop.DBus.Mock"

/* What a test fixture holds for the mock: the test's own connection to the (private) system bus,
 * and the mock bluetoothd while it runs. */
typedef struct {
  GDBusConnection *bus;
  GSubprocess     *process;
} BluezMock;

/* The private bus */

int harness_run_tests_on_private_system_bus (void);

/* The mock bluetoothd */

void      bluez_mock_set_up       (BluezMock  *mock);
void      bluez_mock_tear_down    (BluezMock  *mock);
void      bluez_mock_start        (BluezMock  *mock);
void      bluez_mock_stop         (BluezMock  *mock);
GVariant *bluez_mock_call         (BluezMock  *mock,
                                   const char *path,
                                   const char *interface,
                                   const char *method,
                                   GVariant   *parameters,
                                   const char *reply_type);
void      bluez_mock_control      (BluezMock  *mock,
                                   const char *method,
                                   GVariant   *parameters);
void      bluez_mock_add_adapter  (BluezMock  *mock,
                                   const char *name,
                                   gboolean    powered);
guint     bluez_mock_count_calls  (BluezMock  *mock,
                                   const char *adapter,
                                   const char *method);
guint     bluez_mock_count_object_calls (BluezMock  *mock,
                                         const char *path,
                                         const char *method);
/* Adds a connectable beacon on hci0 with the configuration service @service ("eddystone" or
 * "uribeacon"), locking with @key when @locked. Returns its object path. */
char     *bluez_mock_add_configurable_beacon (BluezMock    *mock,
                                              const char   *address,
                                              const char   *service,
                                              gboolean      locked,
                                              const guint8  key[16]);
/* Has the mock change the RSSI of every device on hci0 @rate_hz times a second for @duration_ms
 * (its FloodRssi), and returns when it has sent the last change: how many PropertiesChanged
 * signals it sent. */
guint     bluez_mock_flood_rssi   (BluezMock  *mock,
                                   guint       rate_hz,
                                   guint       duration_ms);
/* Sets *@n_sent to how many signals the mock's next flood (FloodRssi, HoldRssi) sent, once it has
 * sent them; returns the subscription for g_dbus_connection_signal_unsubscribe(). */
guint     bluez_mock_watch_flood  (BluezMock  *mock,
                                   guint      *n_sent);

G_END_DECLS
