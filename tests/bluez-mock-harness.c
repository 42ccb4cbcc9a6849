/* bluez-mock-harness.c: a private system bus and the mock bluetoothd on it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <signal.h>

#include "bluez-mock-harness.h"

/* The private bus */

/* Runs the tests added so far with a private bus standing in for the system bus, for this process
 * and its children. Returns g_test_run()'s status. */
int
harness_run_tests_on_private_system_bus (void)
{
  g_autoptr(GTestDBus) bus = NULL;
  GDBusConnection *connection;
  int status;

  bus = g_test_dbus_new (G_TEST_DBUS_NONE);
  g_test_dbus_up (bus);
  g_setenv ("DBUS_SYSTEM_BUS_ADDRESS", g_test_dbus_get_bus_address (bus), TRUE);

  status = g_test_run ();

  /* The private bus goes away: the system bus connection must not take the process with it. */
  connection = g_bus_get_sync (G_BUS_TYPE_SYSTEM, NULL, NULL);
  if (connection != NULL)
    {
      g_dbus_connection_set_exit_on_close (connection, FALSE);
      g_object_unref (connection);
    }
  g_test_dbus_down (bus);

  return status;
}

/* The mock bluetoothd */

void
bluez_mock_set_up (BluezMock *mock)
{
  g_autoptr(GError) error = NULL;

  mock->bus = g_bus_get_sync (G_BUS_TYPE_SYSTEM, NULL, &error);
  g_assert_no_error (error);
  g_dbus_connection_set_exit_on_close (mock->bus, FALSE);
}

void
bluez_mock_tear_down (BluezMock *mock)
{
  bluez_mock_stop (mock);
  g_clear_object (&mock->bus);
}

static void
on_name_appeared (GDBusConnection *connection,
                  const char      *name,
                  const char      *owner,
                  gpointer         data)
{
  *(gboolean *) data = TRUE;
}

static void
on_name_vanished (GDBusConnection *connection,
                  const char      *name,
                  gpointer         data)
{
  *(gboolean *) data = FALSE;
}

/* Returns once the mock owns org.bluez. */
void
bluez_mock_start (BluezMock *mock)
{
  g_autofree char *template = g_test_build_filename (G_TEST_DIST, "bluez_nearby.py", NULL);
  g_autoptr(GError) error = NULL;
  gboolean owned = FALSE;
  guint watch;

  mock->process = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE, &error,
                                    PYTHON3, "-m", "dbusmock", "--system", "--template", template,
                                    NULL);
  g_assert_no_error (error);

  watch = g_bus_watch_name_on_connection (mock->bus, "org.bluez", G_BUS_NAME_WATCHER_FLAGS_NONE,
                                          on_name_appeared, on_name_vanished, &owned, NULL);
  WAIT_UNTIL (owned);
  g_bus_unwatch_name (watch);
}

/* Returns once org.bluez has left the bus. Does nothing when the mock is not running. */
void
bluez_mock_stop (BluezMock *mock)
{
  gboolean owned = TRUE;
  guint watch;

  if (mock->process == NULL)
    return;

  g_subprocess_send_signal (mock->process, SIGTERM);
  g_subprocess_wait (mock->process, NULL, NULL);
  g_clear_object (&mock->process);

  watch = g_bus_watch_name_on_connection (mock->bus, "org.bluez", G_BUS_NAME_WATCHER_FLAGS_NONE,
                                          on_name_appeared, on_name_vanished, &owned, NULL);
  WAIT_UNTIL (!owned);
  g_bus_unwatch_name (watch);
}

/* A method call on org.bluez that must succeed. @parameters is floating; @reply_type may be NULL.
 * Returns the reply, owned by the caller. */
GVariant *
bluez_mock_call (BluezMock  *mock,
                 const char *path,
                 const char *interface,
                 const char *method,
                 GVariant   *parameters,
                 const char *reply_type)
{
  g_autoptr(GError) error = NULL;
  GVariant *reply;

  reply = g_dbus_connection_call_sync (mock->bus, "org.bluez", path, interface, method,
                                       parameters,
                                       reply_type != NULL ? G_VARIANT_TYPE (reply_type) : NULL,
                                       G_DBUS_CALL_FLAGS_NO_AUTO_START, 30000, NULL, &error);
  g_assert_no_error (error);

  return reply;
}

/* Calls one of the mock's own org.bluez.Mock methods (AddAdapter, SetPowered, Fail…). */
void
bluez_mock_control (BluezMock  *mock,
                    const char *method,
                    GVariant   *parameters)
{
  g_autoptr(GVariant) reply = bluez_mock_call (mock, "/", BLUEZ_MOCK_IFACE, method, parameters,
                                               NULL);
}

void
bluez_mock_add_adapter (BluezMock  *mock,
                        const char *name,
                        gboolean    powered)
{
  bluez_mock_control (mock, "AddAdapter", g_variant_new ("(sb)", name, powered));
}

/* How many times bluetoothd's @adapter ("hci0") was asked to run @method, as dbusmock logged. */
guint
bluez_mock_count_calls (BluezMock  *mock,
                        const char *adapter,
                        const char *method)
{
  g_autofree char *path = g_strconcat ("/org/bluez/", adapter, NULL);
  g_autoptr(GVariant) reply = bluez_mock_call (mock, path, BLUEZ_MOCK_DBUSMOCK_IFACE,
                                               "GetMethodCalls", g_variant_new ("(s)", method),
                                               "(a(tav))");
  g_autoptr(GVariant) calls = g_variant_get_child_value (reply, 0);

  return g_variant_n_children (calls);
}

/* How many times bluetoothd's object at @path (a device) was asked to run @method. */
guint
bluez_mock_count_object_calls (BluezMock  *mock,
                               const char *path,
                               const char *method)
{
  g_autoptr(GVariant) reply = bluez_mock_call (mock, path, BLUEZ_MOCK_DBUSMOCK_IFACE,
                                               "GetMethodCalls", g_variant_new ("(s)", method),
                                               "(a(tav))");
  g_autoptr(GVariant) calls = g_variant_get_child_value (reply, 0);

  return g_variant_n_children (calls);
}

char *
bluez_mock_add_configurable_beacon (BluezMock    *mock,
                                    const char   *address,
                                    const char   *service,
                                    gboolean      locked,
                                    const guint8  key[16])
{
  g_autoptr(GVariant) reply = NULL;
  GVariantBuilder options;
  char *path = NULL;

  g_variant_builder_init (&options, G_VARIANT_TYPE_VARDICT);
  g_variant_builder_add (&options, "{sv}", "service", g_variant_new_string (service));
  g_variant_builder_add (&options, "{sv}", "locked", g_variant_new_boolean (locked));
  g_variant_builder_add (&options, "{sv}", "key",
                         g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, key, 16, 1));
  reply = bluez_mock_call (mock, "/", BLUEZ_MOCK_IFACE, "AddConfigurableBeacon",
                           g_variant_new ("(ss@a{sv})", "hci0", address,
                                          g_variant_builder_end (&options)),
                           "(o)");
  g_variant_get (reply, "(o)", &path);

  return path;
}

static void
on_flood_finished (GDBusConnection *connection,
                   const char      *sender,
                   const char      *path,
                   const char      *interface,
                   const char      *signal,
                   GVariant        *parameters,
                   gpointer         data)
{
  g_variant_get (parameters, "(u)", (guint *) data);
}

guint
bluez_mock_watch_flood (BluezMock *mock,
                        guint     *n_sent)
{
  return g_dbus_connection_signal_subscribe (mock->bus, "org.bluez", BLUEZ_MOCK_IFACE,
                                             "FloodFinished", "/", NULL,
                                             G_DBUS_SIGNAL_FLAGS_NONE,
                                             on_flood_finished, n_sent, NULL);
}

guint
bluez_mock_flood_rssi (BluezMock *mock,
                       guint      rate_hz,
                       guint      duration_ms)
{
  g_autoptr(GVariant) ticks = NULL;
  guint signals_sent = 0;
  guint subscription;

  subscription = bluez_mock_watch_flood (mock, &signals_sent);
  ticks = bluez_mock_call (mock, "/", BLUEZ_MOCK_IFACE, "FloodRssi",
                           g_variant_new ("(suu)", "hci0", rate_hz, duration_ms), "(u)");
  WAIT_UNTIL (signals_sent > 0);
  g_dbus_connection_signal_unsubscribe (mock->bus, subscription);

  return signals_sent;
}
