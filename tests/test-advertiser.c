/* test-advertiser.c: NearbyAdvertiser and `nearby advertise` against a mock bluetoothd
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gio/gio.h>
#include <signal.h>
#include <string.h>

#include "nearby-advertiser.h"
#include "nearby-frame.h"

#define MOCK_IFACE      "org.bluez.Mock"
#define DBUSMOCK_IFACE  "org.freedesktop.DBus.Mock"
#define HCI0            "/org/bluez/hci0"
#define WAIT_SECONDS    60

#define UUID_FEAA "0000feaa-0000-1000-8000-00805f9b34fb"
#define UUID_FED8 "0000fed8-0000-1000-8000-00805f9b34fb"

#define SHORT_URL "https://example.com"
/* 43 bytes once encoded: 25 over the limit of 18. */
#define LONG_URL  "https://example.com/a-very-long-path-that-does-not-fit"

typedef struct {
  GSubprocess      *mock;
  GDBusConnection  *bus;
  NearbyAdvertiser *advertiser;
  GAsyncResult     *result;
} Fixture;

/* Waiting (as in test-scanner.c) */

static gboolean
set_flag (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

static gboolean
wake_up (gpointer data)
{
  return G_SOURCE_CONTINUE;
}

/* Conditions that ask the mock (a method call) need the loop to wake up now and then. */
#define WAIT_UNTIL(condition)                                                     \
  G_STMT_START {                                                                  \
    gboolean timed_out_ = FALSE;                                                  \
    guint timeout_id_ = g_timeout_add_seconds (WAIT_SECONDS, set_flag, &timed_out_); \
    guint poll_id_ = g_timeout_add (20, wake_up, NULL);                           \
    while (!(condition) && !timed_out_)                                           \
      g_main_context_iteration (NULL, TRUE);                                      \
    if (!timed_out_)                                                              \
      g_source_remove (timeout_id_);                                              \
    g_source_remove (poll_id_);                                                   \
    g_assert_true (condition);                                                    \
  } G_STMT_END

/* The mock */

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

static void
start_mock (Fixture *f)
{
  g_autofree char *template = g_test_build_filename (G_TEST_DIST, "bluez_nearby.py", NULL);
  g_autoptr(GError) error = NULL;
  gboolean owned = FALSE;
  guint watch;

  f->mock = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE, &error,
                              PYTHON3, "-m", "dbusmock", "--system", "--template", template,
                              NULL);
  g_assert_no_error (error);

  watch = g_bus_watch_name_on_connection (f->bus, "org.bluez", G_BUS_NAME_WATCHER_FLAGS_NONE,
                                          on_name_appeared, on_name_vanished, &owned, NULL);
  WAIT_UNTIL (owned);
  g_bus_unwatch_name (watch);
}

static void
stop_mock (Fixture *f)
{
  gboolean owned = TRUE;
  guint watch;

  if (f->mock == NULL)
    return;

  g_subprocess_send_signal (f->mock, SIGTERM);
  g_subprocess_wait (f->mock, NULL, NULL);
  g_clear_object (&f->mock);

  watch = g_bus_watch_name_on_connection (f->bus, "org.bluez", G_BUS_NAME_WATCHER_FLAGS_NONE,
                                          on_name_appeared, on_name_vanished, &owned, NULL);
  WAIT_UNTIL (!owned);
  g_bus_unwatch_name (watch);
}

static GVariant *
call (Fixture    *f,
      const char *path,
      const char *interface,
      const char *method,
      GVariant   *parameters,
      const char *reply_type)
{
  g_autoptr(GError) error = NULL;
  GVariant *reply;

  reply = g_dbus_connection_call_sync (f->bus, "org.bluez", path, interface, method, parameters,
                                       reply_type != NULL ? G_VARIANT_TYPE (reply_type) : NULL,
                                       G_DBUS_CALL_FLAGS_NO_AUTO_START, 30000, NULL, &error);
  g_assert_no_error (error);

  return reply;
}

static void
call_mock (Fixture    *f,
           const char *method,
           GVariant   *parameters)
{
  g_autoptr(GVariant) reply = call (f, "/", MOCK_IFACE, method, parameters, NULL);
}

static void
add_adapter (Fixture    *f,
             const char *name,
             gboolean    powered)
{
  call_mock (f, "AddAdapter", g_variant_new ("(sb)", name, powered));
}

static guint
count_calls (Fixture    *f,
             const char *adapter_path,
             const char *method)
{
  g_autoptr(GVariant) reply = call (f, adapter_path, DBUSMOCK_IFACE, "GetMethodCalls",
                                    g_variant_new ("(s)", method), "(a(tav))");
  g_autoptr(GVariant) calls = g_variant_get_child_value (reply, 0);

  return g_variant_n_children (calls);
}

/* What the mock bluetoothd holds on an adapter: path -> the properties it read at registration. */
static GVariant *
advertisements_on (Fixture    *f,
                   const char *adapter)
{
  g_autoptr(GVariant) reply = call (f, "/", MOCK_IFACE, "GetAdvertisements",
                                    g_variant_new ("(s)", adapter), "(a{oa{sv}})");

  return g_variant_get_child_value (reply, 0);
}

static GVariant *
advertisements (Fixture *f)
{
  return advertisements_on (f, "hci0");
}

static guint
n_advertisements (Fixture *f)
{
  g_autoptr(GVariant) adverts = advertisements (f);

  return g_variant_n_children (adverts);
}

/* The advertiser */

static void
result_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      data)
{
  Fixture *f = data;

  g_assert_null (f->result);
  f->result = g_object_ref (result);
}

static gboolean
start (Fixture  *f,
       GError  **error)
{
  gboolean ok;

  nearby_advertiser_start_async (f->advertiser, NULL, result_cb, f);
  WAIT_UNTIL (f->result != NULL);
  ok = nearby_advertiser_start_finish (f->advertiser, f->result, error);
  g_clear_object (&f->result);

  return ok;
}

static gboolean
stop (Fixture  *f,
      GError  **error)
{
  gboolean ok;

  nearby_advertiser_stop_async (f->advertiser, NULL, result_cb, f);
  WAIT_UNTIL (f->result != NULL);
  ok = nearby_advertiser_stop_finish (f->advertiser, f->result, error);
  g_clear_object (&f->result);

  return ok;
}

static NearbyAdvertiserState
state (Fixture *f)
{
  return nearby_advertiser_get_state (f->advertiser);
}

/* Whether our LEAdvertisement1 object is still on the bus. */
static gboolean
object_exported (Fixture *f)
{
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) error = NULL;

  reply = g_dbus_connection_call_sync (f->bus, g_dbus_connection_get_unique_name (f->bus),
                                       nearby_advertiser_get_object_path (f->advertiser),
                                       "org.freedesktop.DBus.Properties", "GetAll",
                                       g_variant_new ("(s)", "org.bluez.LEAdvertisement1"),
                                       NULL, G_DBUS_CALL_FLAGS_NONE, 30000, NULL, &error);
  return reply != NULL;
}

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  f->bus = g_bus_get_sync (G_BUS_TYPE_SYSTEM, NULL, &error);
  g_assert_no_error (error);
  g_dbus_connection_set_exit_on_close (f->bus, FALSE);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  if (f->advertiser != NULL)
    g_assert_finalize_object (f->advertiser);
  stop_mock (f);
  g_clear_object (&f->bus);
}

/* Tests */

static void
check_registered (Fixture        *f,
                  NearbyProtocol  protocol,
                  const char     *url,
                  int             tx_power,
                  const char     *uuid)
{
  g_autofree char *adapter = g_path_get_basename (nearby_advertiser_get_adapter_path (f->advertiser));
  g_autoptr(GVariant) adverts = advertisements_on (f, adapter);
  g_autoptr(GVariant) properties = NULL;
  g_autoptr(GVariant) uuids = NULL;
  g_autoptr(GVariant) service_data = NULL;
  g_autoptr(GVariant) bytes = NULL;
  const char *type = NULL;
  const char *owner = NULL;
  guint8 expected[NEARBY_FRAME_URL_SERVICE_DATA_MAX];
  size_t expected_len = 0;
  const guint8 *data;
  gsize len = 0;

  g_assert_cmpuint (g_variant_n_children (adverts), ==, 1);
  properties = g_variant_lookup_value (adverts, nearby_advertiser_get_object_path (f->advertiser),
                                       G_VARIANT_TYPE_VARDICT);
  g_assert_nonnull (properties);

  /* bluetoothd read them from us, the process that registered. */
  g_assert_true (g_variant_lookup (properties, "nearby-owner", "&s", &owner));
  g_assert_cmpstr (owner, ==, g_dbus_connection_get_unique_name (f->bus));

  g_assert_true (g_variant_lookup (properties, "Type", "&s", &type));
  g_assert_cmpstr (type, ==, "broadcast");

  uuids = g_variant_lookup_value (properties, "ServiceUUIDs", G_VARIANT_TYPE_STRING_ARRAY);
  g_assert_nonnull (uuids);
  g_assert_cmpuint (g_variant_n_children (uuids), ==, 1);
  {
    g_autofree const char **strv = g_variant_get_strv (uuids, NULL);

    g_assert_cmpstr (strv[0], ==, uuid);
  }

  service_data = g_variant_lookup_value (properties, "ServiceData", G_VARIANT_TYPE_VARDICT);
  g_assert_nonnull (service_data);
  g_assert_cmpuint (g_variant_n_children (service_data), ==, 1);
  bytes = g_variant_lookup_value (service_data, uuid, G_VARIANT_TYPE_BYTESTRING);
  g_assert_nonnull (bytes);
  data = g_variant_get_fixed_array (bytes, &len, 1);

  g_assert_cmpint (nearby_frame_encode_url (protocol, url, 0, (int8_t) tx_power, expected,
                                            &expected_len, NULL), ==, NEARBY_FRAME_OK);
  g_assert_cmpmem (data, len, expected, expected_len);
}

static void
test_eddystone (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  start_mock (f);
  add_adapter (f, "hci0", TRUE);

  f->advertiser = nearby_advertiser_new (SHORT_URL, NEARBY_PROTOCOL_EDDYSTONE, -20, NULL);
  g_assert_cmpint (state (f), ==, NEARBY_ADVERTISER_STATE_IDLE);
  g_assert_true (start (f, &error));
  g_assert_no_error (error);
  g_assert_cmpint (state (f), ==, NEARBY_ADVERTISER_STATE_BROADCASTING);
  g_assert_cmpstr (nearby_advertiser_get_adapter_path (f->advertiser), ==, HCI0);
  check_registered (f, NEARBY_PROTOCOL_EDDYSTONE, SHORT_URL, -20, UUID_FEAA);

  /* Stopping unregisters and takes the object off the bus. */
  g_assert_true (stop (f, &error));
  g_assert_no_error (error);
  g_assert_cmpint (state (f), ==, NEARBY_ADVERTISER_STATE_STOPPED);
  g_assert_cmpuint (count_calls (f, HCI0, "UnregisterAdvertisement"), ==, 1);
  g_assert_cmpuint (n_advertisements (f), ==, 0);
  g_assert_false (object_exported (f));

  /* A second stop has nothing left to do. */
  g_assert_true (stop (f, &error));
  g_assert_cmpuint (count_calls (f, HCI0, "UnregisterAdvertisement"), ==, 1);
}

static void
test_uribeacon (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  start_mock (f);
  add_adapter (f, "hci0", TRUE);
  add_adapter (f, "hci1", TRUE);

  /* The adapter asked for, not the default one (hci0). */
  f->advertiser = nearby_advertiser_new ("http://www.gnome.org/", NEARBY_PROTOCOL_URIBEACON, 4,
                                         "hci1");
  g_assert_true (start (f, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (nearby_advertiser_get_adapter_path (f->advertiser), ==, "/org/bluez/hci1");
  check_registered (f, NEARBY_PROTOCOL_URIBEACON, "http://www.gnome.org/", 4, UUID_FED8);
  g_assert_cmpuint (count_calls (f, HCI0, "RegisterAdvertisement"), ==, 0);
  g_assert_true (stop (f, &error));
  g_assert_cmpuint (count_calls (f, "/org/bluez/hci1", "UnregisterAdvertisement"), ==, 1);
  {
    g_autoptr(GVariant) adverts = advertisements_on (f, "hci1");

    g_assert_cmpuint (g_variant_n_children (adverts), ==, 0);
  }
}

static void
test_dispose_unregisters (Fixture       *f,
                          gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  start_mock (f);
  add_adapter (f, "hci0", TRUE);

  f->advertiser = nearby_advertiser_new (SHORT_URL, NEARBY_PROTOCOL_EDDYSTONE, -20, NULL);
  g_assert_true (start (f, &error));
  g_assert_cmpuint (n_advertisements (f), ==, 1);

  /* This process stays on the bus: only an explicit UnregisterAdvertisement removes it. */
  g_assert_finalize_object (g_steal_pointer (&f->advertiser));
  WAIT_UNTIL (count_calls (f, HCI0, "UnregisterAdvertisement") == 1);
  g_assert_cmpuint (n_advertisements (f), ==, 0);
}

static void
expect_start_error (Fixture    *f,
                    int         code,
                    const char *fragment)
{
  g_autoptr(GError) error = NULL;

  g_assert_false (start (f, &error));
  g_assert_error (error, NEARBY_ADVERTISER_ERROR, code);
  if (fragment != NULL && strstr (error->message, fragment) == NULL)
    g_error ("“%s” not in “%s”", fragment, error->message);
  g_assert_cmpint (state (f), ==, NEARBY_ADVERTISER_STATE_FAILED);
  g_assert_false (object_exported (f));
}

static void
test_no_instances (Fixture       *f,
                   gconstpointer  data)
{
  start_mock (f);
  add_adapter (f, "hci0", TRUE);

  /* The adapter says every instance is taken. */
  call_mock (f, "SetAdvertisingInstances", g_variant_new ("(sy)", "hci0", 0));
  f->advertiser = nearby_advertiser_new (SHORT_URL, NEARBY_PROTOCOL_EDDYSTONE, -20, NULL);
  expect_start_error (f, NEARBY_ADVERTISER_ERROR_NO_INSTANCES, "taken");
  g_assert_cmpuint (count_calls (f, HCI0, "RegisterAdvertisement"), ==, 0);
  g_clear_object (&f->advertiser);

  /* Another program took the last one between our look and our registration. */
  call_mock (f, "SetAdvertisingInstances", g_variant_new ("(sy)", "hci0", 4));
  call_mock (f, "FailRegisterAdvertisement",
             g_variant_new ("(s^as)", "hci0", (const char *[]) { "org.bluez.Error.NotPermitted",
                                                                 NULL }));
  f->advertiser = nearby_advertiser_new (SHORT_URL, NEARBY_PROTOCOL_EDDYSTONE, -20, NULL);
  expect_start_error (f, NEARBY_ADVERTISER_ERROR_NO_INSTANCES, "taken");
  g_assert_cmpuint (n_advertisements (f), ==, 0);
}

static void
test_bluez_errors (Fixture       *f,
                   gconstpointer  data)
{
  start_mock (f);
  add_adapter (f, "hci0", TRUE);

  call_mock (f, "FailRegisterAdvertisement",
             g_variant_new ("(s^as)", "hci0",
                            (const char *[]) { "org.bluez.Error.InvalidArguments",
                                               "org.bluez.Error.Failed", NULL }));
  f->advertiser = nearby_advertiser_new (SHORT_URL, NEARBY_PROTOCOL_EDDYSTONE, -20, NULL);
  expect_start_error (f, NEARBY_ADVERTISER_ERROR_INVALID_ARGUMENTS, "invalid");
  g_clear_object (&f->advertiser);

  f->advertiser = nearby_advertiser_new (SHORT_URL, NEARBY_PROTOCOL_EDDYSTONE, -20, NULL);
  expect_start_error (f, NEARBY_ADVERTISER_ERROR_FAILED, "Mock failure");
  g_clear_object (&f->advertiser);

  /* The failures are used up: the next one works. */
  f->advertiser = nearby_advertiser_new (SHORT_URL, NEARBY_PROTOCOL_EDDYSTONE, -20, NULL);
  g_assert_true (start (f, NULL));
  g_assert_cmpuint (n_advertisements (f), ==, 1);
}

static void
test_adapter_off (Fixture       *f,
                  gconstpointer  data)
{
  start_mock (f);
  add_adapter (f, "hci0", FALSE);

  f->advertiser = nearby_advertiser_new (SHORT_URL, NEARBY_PROTOCOL_EDDYSTONE, -20, NULL);
  expect_start_error (f, NEARBY_ADVERTISER_ERROR_OFF, "Bluetooth is off");
  g_clear_object (&f->advertiser);

  call_mock (f, "SetBlocked", g_variant_new ("(sb)", "hci0", TRUE));
  f->advertiser = nearby_advertiser_new (SHORT_URL, NEARBY_PROTOCOL_EDDYSTONE, -20, NULL);
  expect_start_error (f, NEARBY_ADVERTISER_ERROR_BLOCKED, "blocked");
  g_assert_cmpuint (count_calls (f, HCI0, "RegisterAdvertisement"), ==, 0);
}

static void
test_default_adapter_powered (Fixture       *f,
                              gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  start_mock (f);
  add_adapter (f, "hci0", FALSE);
  add_adapter (f, "hci1", TRUE);

  /* With no adapter named, the first powered one broadcasts. */
  f->advertiser = nearby_advertiser_new (SHORT_URL, NEARBY_PROTOCOL_EDDYSTONE, -20, NULL);
  g_assert_true (start (f, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (nearby_advertiser_get_adapter_path (f->advertiser), ==, "/org/bluez/hci1");
  check_registered (f, NEARBY_PROTOCOL_EDDYSTONE, SHORT_URL, -20, UUID_FEAA);
}

static void
test_adapter_missing (Fixture       *f,
                      gconstpointer  data)
{
  start_mock (f);

  f->advertiser = nearby_advertiser_new (SHORT_URL, NEARBY_PROTOCOL_EDDYSTONE, -20, NULL);
  expect_start_error (f, NEARBY_ADVERTISER_ERROR_NO_ADAPTER, "No Bluetooth adapter");
  g_clear_object (&f->advertiser);

  add_adapter (f, "hci0", TRUE);
  f->advertiser = nearby_advertiser_new (SHORT_URL, NEARBY_PROTOCOL_EDDYSTONE, -20, "hci1");
  expect_start_error (f, NEARBY_ADVERTISER_ERROR_NO_ADAPTER, "hci1");
}

static void
test_no_service (Fixture       *f,
                 gconstpointer  data)
{
  f->advertiser = nearby_advertiser_new (SHORT_URL, NEARBY_PROTOCOL_EDDYSTONE, -20, NULL);
  expect_start_error (f, NEARBY_ADVERTISER_ERROR_NO_SERVICE, "not running");
}

static void
test_not_supported (Fixture       *f,
                    gconstpointer  data)
{
  start_mock (f);
  add_adapter (f, "hci0", TRUE);
  call_mock (f, "RemoveAdvertisingManager", g_variant_new ("(s)", "hci0"));

  f->advertiser = nearby_advertiser_new (SHORT_URL, NEARBY_PROTOCOL_EDDYSTONE, -20, NULL);
  expect_start_error (f, NEARBY_ADVERTISER_ERROR_NOT_SUPPORTED, "cannot advertise");
}

static void
test_url_too_long (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;

  start_mock (f);
  add_adapter (f, "hci0", TRUE);

  f->advertiser = nearby_advertiser_new (LONG_URL, NEARBY_PROTOCOL_EDDYSTONE, -20, NULL);
  bytes = nearby_advertiser_dup_service_data (f->advertiser, &error);
  g_assert_null (bytes);
  g_assert_error (error, NEARBY_ADVERTISER_ERROR, NEARBY_ADVERTISER_ERROR_URL_TOO_LONG);
  g_assert_nonnull (strstr (error->message, "by 25 bytes"));
  g_assert_nonnull (strstr (error->message, "shortener"));

  expect_start_error (f, NEARBY_ADVERTISER_ERROR_URL_TOO_LONG, "by 25 bytes");
  g_assert_cmpuint (count_calls (f, HCI0, "RegisterAdvertisement"), ==, 0);
  g_clear_object (&f->advertiser);

  f->advertiser = nearby_advertiser_new ("ftp://example.com", NEARBY_PROTOCOL_EDDYSTONE, -20,
                                         NULL);
  expect_start_error (f, NEARBY_ADVERTISER_ERROR_INVALID_URL, "ftp://example.com");
}

static void
test_release (Fixture       *f,
              gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  start_mock (f);
  add_adapter (f, "hci0", TRUE);

  f->advertiser = nearby_advertiser_new (SHORT_URL, NEARBY_PROTOCOL_EDDYSTONE, -20, NULL);
  g_assert_true (start (f, &error));

  call_mock (f, "ReleaseAdvertisement",
             g_variant_new ("(so)", "hci0", nearby_advertiser_get_object_path (f->advertiser)));
  WAIT_UNTIL (state (f) == NEARBY_ADVERTISER_STATE_RELEASED);
  g_assert_cmpuint (n_advertisements (f), ==, 0);

  /* Nothing is left to unregister: stopping succeeds without asking bluetoothd. */
  g_assert_true (stop (f, &error));
  g_assert_no_error (error);
  g_assert_cmpint (state (f), ==, NEARBY_ADVERTISER_STATE_STOPPED);
  g_assert_false (object_exported (f));
  g_assert_cmpuint (count_calls (f, HCI0, "UnregisterAdvertisement"), ==, 0);
}

static void
test_bluetoothd_stops (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  start_mock (f);
  add_adapter (f, "hci0", TRUE);

  f->advertiser = nearby_advertiser_new (SHORT_URL, NEARBY_PROTOCOL_EDDYSTONE, -20, NULL);
  g_assert_true (start (f, &error));

  stop_mock (f);
  WAIT_UNTIL (state (f) == NEARBY_ADVERTISER_STATE_RELEASED);

  /* bluetoothd comes back, and its adapter a moment later: the broadcast resumes. */
  start_mock (f);
  add_adapter (f, "hci0", TRUE);
  WAIT_UNTIL (state (f) == NEARBY_ADVERTISER_STATE_BROADCASTING);
  check_registered (f, NEARBY_PROTOCOL_EDDYSTONE, SHORT_URL, -20, UUID_FEAA);

  g_assert_true (stop (f, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (count_calls (f, HCI0, "UnregisterAdvertisement"), ==, 1);
  g_assert_cmpuint (n_advertisements (f), ==, 0);
  g_assert_false (object_exported (f));
}

static void
test_start_twice (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  start_mock (f);
  add_adapter (f, "hci0", TRUE);

  f->advertiser = nearby_advertiser_new (SHORT_URL, NEARBY_PROTOCOL_EDDYSTONE, -20, NULL);
  g_assert_true (start (f, &error));
  g_assert_false (start (f, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_BUSY);
  g_assert_cmpuint (n_advertisements (f), ==, 1);
  g_assert_cmpint (state (f), ==, NEARBY_ADVERTISER_STATE_BROADCASTING);
}

static void
test_cancel_start (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;

  start_mock (f);
  add_adapter (f, "hci0", TRUE);

  f->advertiser = nearby_advertiser_new (SHORT_URL, NEARBY_PROTOCOL_EDDYSTONE, -20, NULL);
  nearby_advertiser_start_async (f->advertiser, cancellable, result_cb, f);
  g_cancellable_cancel (cancellable);
  WAIT_UNTIL (f->result != NULL);
  g_assert_false (nearby_advertiser_start_finish (f->advertiser, f->result, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_object (&f->result);
  g_assert_cmpint (state (f), ==, NEARBY_ADVERTISER_STATE_FAILED);
  g_assert_false (object_exported (f));
  WAIT_UNTIL (n_advertisements (f) == 0);
}

/* `nearby advertise` end to end */

static GSubprocess *
spawn_nearby (GSubprocessFlags   flags,
              GError           **error,
              ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  const char *binary = g_getenv ("NEARBY_BINARY");
  const char *arg;
  va_list args;

  g_assert_nonnull (binary);
  g_ptr_array_add (argv, (gpointer) binary);
  va_start (args, error);
  while ((arg = va_arg (args, const char *)) != NULL)
    g_ptr_array_add (argv, (gpointer) arg);
  va_end (args);
  g_ptr_array_add (argv, NULL);

  return g_subprocess_newv ((const char * const *) argv->pdata, flags, error);
}

static void
communicate_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      data)
{
  *(GAsyncResult **) data = g_object_ref (result);
}

/* Runs the subprocess to its end while the main loop (and so the test's bus) keeps going. */
static int
finish_nearby (GSubprocess  *process,
               char        **out,
               char        **err)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  g_subprocess_communicate_utf8_async (process, NULL, NULL, communicate_cb, &result);
  WAIT_UNTIL (result != NULL);
  g_subprocess_communicate_utf8_finish (process, result, out, err, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (process));

  return g_subprocess_get_exit_status (process);
}

#define PIPES (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE)

static void
assert_contains (const char *haystack,
                 const char *needle)
{
  if (haystack == NULL || strstr (haystack, needle) == NULL)
    g_error ("“%s” not in “%s”", needle, haystack);
}

static void
test_cli_duration (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  start_mock (f);
  add_adapter (f, "hci0", TRUE);

  process = spawn_nearby (PIPES, &error, "advertise", "--duration", "2", SHORT_URL, NULL);
  g_assert_no_error (error);
  g_assert_cmpint (finish_nearby (process, &out, &err), ==, 0);

  assert_contains (out, SHORT_URL);
  assert_contains (out, "10ec036578616d706c6507");
  assert_contains (out, "-20 dBm");
  assert_contains (out, "press Ctrl+C to stop");
  g_assert_cmpuint (count_calls (f, HCI0, "RegisterAdvertisement"), ==, 1);
  g_assert_cmpuint (count_calls (f, HCI0, "UnregisterAdvertisement"), ==, 1);
  g_assert_cmpuint (n_advertisements (f), ==, 0);
}

static void
test_cli_interrupted (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) adverts = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  start_mock (f);
  add_adapter (f, "hci0", TRUE);

  process = spawn_nearby (PIPES, &error, "advertise", "--uribeacon", "--tx-power", "-12",
                          "https://gnome.org", NULL);
  g_assert_no_error (error);
  WAIT_UNTIL (n_advertisements (f) == 1);

  /* Ctrl-C: the advertisement is unregistered, then the process exits normally. */
  g_subprocess_send_signal (process, SIGINT);
  g_assert_cmpint (finish_nearby (process, &out, &err), ==, 0);
  assert_contains (out, "UriBeacon");
  assert_contains (out, "-12 dBm");
  g_assert_cmpuint (count_calls (f, HCI0, "UnregisterAdvertisement"), ==, 1);
  g_assert_cmpuint (n_advertisements (f), ==, 0);
}

static void
test_cli_released (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) adverts = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  const char *path = NULL;
  GVariantIter iter;

  start_mock (f);
  add_adapter (f, "hci0", TRUE);

  process = spawn_nearby (PIPES, &error, "advertise", "--duration", "3", SHORT_URL, NULL);
  g_assert_no_error (error);
  WAIT_UNTIL (n_advertisements (f) == 1);

  adverts = advertisements (f);
  g_variant_iter_init (&iter, adverts);
  g_assert_true (g_variant_iter_next (&iter, "{&o@a{sv}}", &path, NULL));
  call_mock (f, "ReleaseAdvertisement", g_variant_new ("(so)", "hci0", path));

  /* It says so and waits to register again, until the end of --duration. */
  g_assert_cmpint (finish_nearby (process, &out, &err), ==, 0);
  assert_contains (err, "ended the broadcast");
  g_assert_cmpuint (count_calls (f, HCI0, "UnregisterAdvertisement"), ==, 0);
}

static void
test_cli_too_long (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  start_mock (f);
  add_adapter (f, "hci0", TRUE);

  process = spawn_nearby (PIPES, &error, "advertise", LONG_URL, NULL);
  g_assert_no_error (error);
  g_assert_cmpint (finish_nearby (process, &out, &err), ==, 1);
  assert_contains (err, "by 25 bytes");
  assert_contains (err, "shortener");
  g_assert_cmpuint (count_calls (f, HCI0, "RegisterAdvertisement"), ==, 0);
}

static void
test_cli_unavailable (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  /* bluetoothd not running */
  process = spawn_nearby (PIPES, &error, "advertise", SHORT_URL, NULL);
  g_assert_no_error (error);
  g_assert_cmpint (finish_nearby (process, &out, &err), ==, 3);
  assert_contains (err, "The Bluetooth service is not running — start it with");
  g_clear_object (&process);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  /* adapter off */
  start_mock (f);
  add_adapter (f, "hci0", FALSE);
  process = spawn_nearby (PIPES, &error, "advertise", SHORT_URL, NULL);
  g_assert_no_error (error);
  g_assert_cmpint (finish_nearby (process, &out, &err), ==, 3);
  assert_contains (err, "Bluetooth is off — run `bluetoothctl power on`");
  g_clear_object (&process);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  /* every instance taken */
  call_mock (f, "SetPowered", g_variant_new ("(sb)", "hci0", TRUE));
  call_mock (f, "SetAdvertisingInstances", g_variant_new ("(sy)", "hci0", 0));
  process = spawn_nearby (PIPES, &error, "advertise", SHORT_URL, NULL);
  g_assert_no_error (error);
  g_assert_cmpint (finish_nearby (process, &out, &err), ==, 1);
  assert_contains (err, "taken by other programs");
  g_clear_object (&process);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  /* no LEAdvertisingManager1 */
  call_mock (f, "RemoveAdvertisingManager", g_variant_new ("(s)", "hci0"));
  process = spawn_nearby (PIPES, &error, "advertise", SHORT_URL, NULL);
  g_assert_no_error (error);
  g_assert_cmpint (finish_nearby (process, &out, &err), ==, 3);
  assert_contains (err, "cannot advertise");
  g_assert_cmpuint (count_calls (f, HCI0, "RegisterAdvertisement"), ==, 0);
}

static void
test_cli_usage (Fixture       *f,
                gconstpointer  data)
{
  const char *cases[][3] = {
    { "advertise", NULL, NULL },
    { "advertise", "--tx-power=50", SHORT_URL },
    { "advertise", "--duration=-1", SHORT_URL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GSubprocess) process = NULL;
      g_autoptr(GError) error = NULL;
      g_autofree char *out = NULL;
      g_autofree char *err = NULL;

      process = spawn_nearby (PIPES, &error, cases[i][0], cases[i][1], cases[i][2], NULL);
      g_assert_no_error (error);
      g_assert_cmpint (finish_nearby (process, &out, &err), ==, 2);
      assert_contains (err, "nearby:");
    }
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GTestDBus) bus = NULL;
  GDBusConnection *connection;
  int status;

  g_test_init (&argc, &argv, NULL);

  /* A private bus stands in for the system bus, for this process and its children. */
  bus = g_test_dbus_new (G_TEST_DBUS_NONE);
  g_test_dbus_up (bus);
  g_setenv ("DBUS_SYSTEM_BUS_ADDRESS", g_test_dbus_get_bus_address (bus), TRUE);

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)

  ADD ("/advertiser/eddystone", test_eddystone);
  ADD ("/advertiser/uribeacon", test_uribeacon);
  ADD ("/advertiser/dispose-unregisters", test_dispose_unregisters);
  ADD ("/advertiser/no-instances", test_no_instances);
  ADD ("/advertiser/bluez-errors", test_bluez_errors);
  ADD ("/advertiser/adapter-off", test_adapter_off);
  ADD ("/advertiser/adapter-missing", test_adapter_missing);
  ADD ("/advertiser/default-adapter-powered", test_default_adapter_powered);
  ADD ("/advertiser/no-service", test_no_service);
  ADD ("/advertiser/not-supported", test_not_supported);
  ADD ("/advertiser/url-too-long", test_url_too_long);
  ADD ("/advertiser/release", test_release);
  ADD ("/advertiser/bluetoothd-stops", test_bluetoothd_stops);
  ADD ("/advertiser/start-twice", test_start_twice);
  ADD ("/advertiser/cancel-start", test_cancel_start);
  ADD ("/cli/advertise/duration", test_cli_duration);
  ADD ("/cli/advertise/interrupted", test_cli_interrupted);
  ADD ("/cli/advertise/released", test_cli_released);
  ADD ("/cli/advertise/too-long", test_cli_too_long);
  ADD ("/cli/advertise/unavailable", test_cli_unavailable);
  ADD ("/cli/advertise/usage", test_cli_usage);

#undef ADD

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
