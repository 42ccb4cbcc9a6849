/* test-advertiser.c: NearbyAdvertiser and `nearby advertise` against a mock bluetoothd
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gio/gio.h>
#include <signal.h>
#include <string.h>

#include "bluez-mock-harness.h"
#include "nearby-advertiser.h"
#include "nearby-frame.h"

#define HCI0            "/org/bluez/hci0"

#define UUID_FEAA "0000feaa-0000-1000-8000-00805f9b34fb"
#define UUID_FED8 "0000fed8-0000-1000-8000-00805f9b34fb"

#define SHORT_URL "https://example.com"
/* 43 bytes once encoded: 25 over the limit of 18. */
#define LONG_URL  "https://example.com/a-very-long-path-that-does-not-fit"

typedef struct {
  BluezMock         mock;
  NearbyAdvertiser *advertiser;
  GAsyncResult     *result;
} Fixture;

/* The mock */

/* What the mock bluetoothd holds on an adapter: path -> the properties it read at registration. */
static GVariant *
advertisements_on (Fixture    *f,
                   const char *adapter)
{
  g_autoptr(GVariant) reply = bluez_mock_call (&f->mock, "/", BLUEZ_MOCK_IFACE,
                                               "GetAdvertisements",
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

typedef gboolean (*AdvertiserFinish) (NearbyAdvertiser *, GAsyncResult *, GError **);

/* Waits for the call just started with result_cb, and finishes it. */
static gboolean
finish_call (Fixture           *f,
             AdvertiserFinish   finish,
             GError           **error)
{
  gboolean ok;

  WAIT_UNTIL (f->result != NULL);
  ok = finish (f->advertiser, f->result, error);
  g_clear_object (&f->result);

  return ok;
}

static gboolean
start (Fixture  *f,
       GError  **error)
{
  nearby_advertiser_start_async (f->advertiser, NULL, result_cb, f);
  return finish_call (f, nearby_advertiser_start_finish, error);
}

static gboolean
stop (Fixture  *f,
      GError  **error)
{
  nearby_advertiser_stop_async (f->advertiser, NULL, result_cb, f);
  return finish_call (f, nearby_advertiser_stop_finish, error);
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

  reply = g_dbus_connection_call_sync (f->mock.bus,
                                       g_dbus_connection_get_unique_name (f->mock.bus),
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
  bluez_mock_set_up (&f->mock);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  if (f->advertiser != NULL)
    g_assert_finalize_object (f->advertiser);
  bluez_mock_tear_down (&f->mock);
}

/* bluetoothd running with hci0 powered, and an advertiser of SHORT_URL (Eddystone, -20 dBm) for
 * the default adapter, not started. */
static void
advertiser_on_hci0 (Fixture *f)
{
  bluez_mock_start (&f->mock);
  bluez_mock_add_adapter (&f->mock, "hci0", TRUE);
  f->advertiser = nearby_advertiser_new (SHORT_URL, NEARBY_PROTOCOL_EDDYSTONE, -20, NULL);
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
  g_assert_cmpstr (owner, ==, g_dbus_connection_get_unique_name (f->mock.bus));

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

  advertiser_on_hci0 (f);
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
  g_assert_cmpuint (bluez_mock_count_calls (&f->mock, "hci0", "UnregisterAdvertisement"), ==, 1);
  g_assert_cmpuint (n_advertisements (f), ==, 0);
  g_assert_false (object_exported (f));

  /* A second stop has nothing left to do. */
  g_assert_true (stop (f, &error));
  g_assert_cmpuint (bluez_mock_count_calls (&f->mock, "hci0", "UnregisterAdvertisement"), ==, 1);
}

static void
test_uribeacon (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  bluez_mock_start (&f->mock);
  bluez_mock_add_adapter (&f->mock, "hci0", TRUE);
  bluez_mock_add_adapter (&f->mock, "hci1", TRUE);

  /* The adapter asked for, not the default one (hci0). */
  f->advertiser = nearby_advertiser_new ("http://www.gnome.org/", NEARBY_PROTOCOL_URIBEACON, 4,
                                         "hci1");
  g_assert_true (start (f, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (nearby_advertiser_get_adapter_path (f->advertiser), ==, "/org/bluez/hci1");
  check_registered (f, NEARBY_PROTOCOL_URIBEACON, "http://www.gnome.org/", 4, UUID_FED8);
  g_assert_cmpuint (bluez_mock_count_calls (&f->mock, "hci0", "RegisterAdvertisement"), ==, 0);
  g_assert_true (stop (f, &error));
  g_assert_cmpuint (bluez_mock_count_calls (&f->mock, "hci1", "UnregisterAdvertisement"), ==, 1);
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

  advertiser_on_hci0 (f);
  g_assert_true (start (f, &error));
  g_assert_cmpuint (n_advertisements (f), ==, 1);

  /* This process stays on the bus: only an explicit UnregisterAdvertisement removes it. */
  g_assert_finalize_object (g_steal_pointer (&f->advertiser));
  WAIT_UNTIL (bluez_mock_count_calls (&f->mock, "hci0", "UnregisterAdvertisement") == 1);
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
  bluez_mock_start (&f->mock);
  bluez_mock_add_adapter (&f->mock, "hci0", TRUE);

  /* The adapter says every instance is taken. */
  bluez_mock_control (&f->mock, "SetAdvertisingInstances", g_variant_new ("(sy)", "hci0", 0));
  f->advertiser = nearby_advertiser_new (SHORT_URL, NEARBY_PROTOCOL_EDDYSTONE, -20, NULL);
  expect_start_error (f, NEARBY_ADVERTISER_ERROR_NO_INSTANCES, "taken");
  g_assert_cmpuint (bluez_mock_count_calls (&f->mock, "hci0", "RegisterAdvertisement"), ==, 0);
  g_clear_object (&f->advertiser);

  /* Another program took the last one between our look and our registration. */
  bluez_mock_control (&f->mock, "SetAdvertisingInstances", g_variant_new ("(sy)", "hci0", 4));
  bluez_mock_control (&f->mock, "FailRegisterAdvertisement",
                      g_variant_new ("(s^as)", "hci0",
                                     (const char *[]) { "org.bluez.Error.NotPermitted", NULL }));
  f->advertiser = nearby_advertiser_new (SHORT_URL, NEARBY_PROTOCOL_EDDYSTONE, -20, NULL);
  expect_start_error (f, NEARBY_ADVERTISER_ERROR_NO_INSTANCES, "taken");
  g_assert_cmpuint (n_advertisements (f), ==, 0);
}

static void
test_bluez_errors (Fixture       *f,
                   gconstpointer  data)
{
  bluez_mock_start (&f->mock);
  bluez_mock_add_adapter (&f->mock, "hci0", TRUE);

  bluez_mock_control (&f->mock, "FailRegisterAdvertisement",
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
  bluez_mock_start (&f->mock);
  bluez_mock_add_adapter (&f->mock, "hci0", FALSE);

  f->advertiser = nearby_advertiser_new (SHORT_URL, NEARBY_PROTOCOL_EDDYSTONE, -20, NULL);
  expect_start_error (f, NEARBY_ADVERTISER_ERROR_OFF, "Bluetooth is off");
  g_clear_object (&f->advertiser);

  bluez_mock_control (&f->mock, "SetBlocked", g_variant_new ("(sb)", "hci0", TRUE));
  f->advertiser = nearby_advertiser_new (SHORT_URL, NEARBY_PROTOCOL_EDDYSTONE, -20, NULL);
  expect_start_error (f, NEARBY_ADVERTISER_ERROR_RFKILL_BLOCKED, "blocked");
  g_assert_cmpuint (bluez_mock_count_calls (&f->mock, "hci0", "RegisterAdvertisement"), ==, 0);
}

static void
test_default_adapter_powered (Fixture       *f,
                              gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  bluez_mock_start (&f->mock);
  bluez_mock_add_adapter (&f->mock, "hci0", FALSE);
  bluez_mock_add_adapter (&f->mock, "hci1", TRUE);

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
  bluez_mock_start (&f->mock);

  f->advertiser = nearby_advertiser_new (SHORT_URL, NEARBY_PROTOCOL_EDDYSTONE, -20, NULL);
  expect_start_error (f, NEARBY_ADVERTISER_ERROR_NO_ADAPTER, "No Bluetooth adapter");
  g_clear_object (&f->advertiser);

  bluez_mock_add_adapter (&f->mock, "hci0", TRUE);
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
  bluez_mock_start (&f->mock);
  bluez_mock_add_adapter (&f->mock, "hci0", TRUE);
  bluez_mock_control (&f->mock, "RemoveAdvertisingManager", g_variant_new ("(s)", "hci0"));

  f->advertiser = nearby_advertiser_new (SHORT_URL, NEARBY_PROTOCOL_EDDYSTONE, -20, NULL);
  expect_start_error (f, NEARBY_ADVERTISER_ERROR_NOT_SUPPORTED, "cannot advertise");
}

static void
test_url_too_long (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;

  bluez_mock_start (&f->mock);
  bluez_mock_add_adapter (&f->mock, "hci0", TRUE);

  f->advertiser = nearby_advertiser_new (LONG_URL, NEARBY_PROTOCOL_EDDYSTONE, -20, NULL);
  bytes = nearby_advertiser_dup_service_data (f->advertiser, &error);
  g_assert_null (bytes);
  g_assert_error (error, NEARBY_ADVERTISER_ERROR, NEARBY_ADVERTISER_ERROR_URL_TOO_LONG);
  g_assert_nonnull (strstr (error->message, "by 25 bytes"));
  g_assert_nonnull (strstr (error->message, "shortener"));

  expect_start_error (f, NEARBY_ADVERTISER_ERROR_URL_TOO_LONG, "by 25 bytes");
  g_assert_cmpuint (bluez_mock_count_calls (&f->mock, "hci0", "RegisterAdvertisement"), ==, 0);
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

  advertiser_on_hci0 (f);
  g_assert_true (start (f, &error));

  bluez_mock_control (&f->mock, "ReleaseAdvertisement",
                      g_variant_new ("(so)", "hci0",
                                     nearby_advertiser_get_object_path (f->advertiser)));
  WAIT_UNTIL (state (f) == NEARBY_ADVERTISER_STATE_RELEASED);
  g_assert_cmpuint (n_advertisements (f), ==, 0);

  /* Nothing is left to unregister: stopping succeeds without asking bluetoothd. */
  g_assert_true (stop (f, &error));
  g_assert_no_error (error);
  g_assert_cmpint (state (f), ==, NEARBY_ADVERTISER_STATE_STOPPED);
  g_assert_false (object_exported (f));
  g_assert_cmpuint (bluez_mock_count_calls (&f->mock, "hci0", "UnregisterAdvertisement"), ==, 0);
}

static void
test_bluetoothd_stops (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  advertiser_on_hci0 (f);
  g_assert_true (start (f, &error));

  bluez_mock_stop (&f->mock);
  WAIT_UNTIL (state (f) == NEARBY_ADVERTISER_STATE_RELEASED);

  /* bluetoothd comes back, and its adapter a moment later: the broadcast resumes. */
  bluez_mock_start (&f->mock);
  bluez_mock_add_adapter (&f->mock, "hci0", TRUE);
  WAIT_UNTIL (state (f) == NEARBY_ADVERTISER_STATE_BROADCASTING);
  check_registered (f, NEARBY_PROTOCOL_EDDYSTONE, SHORT_URL, -20, UUID_FEAA);

  g_assert_true (stop (f, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (bluez_mock_count_calls (&f->mock, "hci0", "UnregisterAdvertisement"), ==, 1);
  g_assert_cmpuint (n_advertisements (f), ==, 0);
  g_assert_false (object_exported (f));
}

static void
test_start_twice (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  advertiser_on_hci0 (f);
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

  advertiser_on_hci0 (f);
  nearby_advertiser_start_async (f->advertiser, cancellable, result_cb, f);
  g_cancellable_cancel (cancellable);
  g_assert_false (finish_call (f, nearby_advertiser_start_finish, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpint (state (f), ==, NEARBY_ADVERTISER_STATE_FAILED);
  g_assert_false (object_exported (f));
  WAIT_UNTIL (n_advertisements (f) == 0);
}

/* `nearby advertise` end to end */

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
  g_autoptr(NearbyTestRun) run = NULL;

  bluez_mock_start (&f->mock);
  bluez_mock_add_adapter (&f->mock, "hci0", TRUE);

  run = nearby_test_run_nearby (NULL, "advertise", "--duration", "2", SHORT_URL, NULL);
  g_assert_cmpint (run->status, ==, 0);

  assert_contains (run->out, SHORT_URL);
  assert_contains (run->out, "10ec036578616d706c6507");
  assert_contains (run->out, "-20 dBm");
  assert_contains (run->out, "press Ctrl+C to stop");
  g_assert_cmpuint (bluez_mock_count_calls (&f->mock, "hci0", "RegisterAdvertisement"), ==, 1);
  g_assert_cmpuint (bluez_mock_count_calls (&f->mock, "hci0", "UnregisterAdvertisement"), ==, 1);
  g_assert_cmpuint (n_advertisements (f), ==, 0);
}

static void
test_cli_interrupted (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  bluez_mock_start (&f->mock);
  bluez_mock_add_adapter (&f->mock, "hci0", TRUE);

  process = nearby_test_spawn_nearby (PIPES, &error, "advertise", "--uribeacon", "--tx-power", "-12",
                                  "https://gnome.org", NULL);
  g_assert_no_error (error);
  WAIT_UNTIL (n_advertisements (f) == 1);

  /* Ctrl-C: the advertisement is unregistered, then the process exits normally. */
  g_subprocess_send_signal (process, SIGINT);
  g_assert_cmpint (nearby_test_finish_nearby (process, NULL, &out, &err), ==, 0);
  assert_contains (out, "UriBeacon");
  assert_contains (out, "-12 dBm");
  g_assert_cmpuint (bluez_mock_count_calls (&f->mock, "hci0", "UnregisterAdvertisement"), ==, 1);
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

  bluez_mock_start (&f->mock);
  bluez_mock_add_adapter (&f->mock, "hci0", TRUE);

  process = nearby_test_spawn_nearby (PIPES, &error, "advertise", "--duration", "3", SHORT_URL, NULL);
  g_assert_no_error (error);
  WAIT_UNTIL (n_advertisements (f) == 1);

  adverts = advertisements (f);
  g_variant_iter_init (&iter, adverts);
  g_assert_true (g_variant_iter_next (&iter, "{&o@a{sv}}", &path, NULL));
  bluez_mock_control (&f->mock, "ReleaseAdvertisement", g_variant_new ("(so)", "hci0", path));

  /* It says so and waits to register again, until the end of --duration. */
  g_assert_cmpint (nearby_test_finish_nearby (process, NULL, &out, &err), ==, 0);
  assert_contains (err, "ended the broadcast");
  g_assert_cmpuint (bluez_mock_count_calls (&f->mock, "hci0", "UnregisterAdvertisement"), ==, 0);
}

static void
test_cli_too_long (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(NearbyTestRun) run = NULL;

  bluez_mock_start (&f->mock);
  bluez_mock_add_adapter (&f->mock, "hci0", TRUE);

  run = nearby_test_run_nearby (NULL, "advertise", LONG_URL, NULL);
  g_assert_cmpint (run->status, ==, 1);
  assert_contains (run->err, "by 25 bytes");
  assert_contains (run->err, "shortener");
  g_assert_cmpuint (bluez_mock_count_calls (&f->mock, "hci0", "RegisterAdvertisement"), ==, 0);
}

/* `nearby advertise SHORT_URL` ends at once with @status, saying @message. */
static void
assert_advertise_fails (int         status,
                        const char *message)
{
  g_autoptr(NearbyTestRun) run = nearby_test_run_nearby (NULL, "advertise", SHORT_URL, NULL);

  g_assert_cmpint (run->status, ==, status);
  assert_contains (run->err, message);
}

static void
test_cli_unavailable (Fixture       *f,
                      gconstpointer  data)
{
  /* bluetoothd not running */
  assert_advertise_fails (3, "The Bluetooth service is not running — start it with");

  /* adapter off */
  bluez_mock_start (&f->mock);
  bluez_mock_add_adapter (&f->mock, "hci0", FALSE);
  assert_advertise_fails (3, "Bluetooth is off — run `bluetoothctl power on`");

  /* every instance taken */
  bluez_mock_control (&f->mock, "SetPowered", g_variant_new ("(sb)", "hci0", TRUE));
  bluez_mock_control (&f->mock, "SetAdvertisingInstances", g_variant_new ("(sy)", "hci0", 0));
  assert_advertise_fails (1, "taken by other programs");

  /* no LEAdvertisingManager1 */
  bluez_mock_control (&f->mock, "RemoveAdvertisingManager", g_variant_new ("(s)", "hci0"));
  assert_advertise_fails (3, "cannot advertise");
  g_assert_cmpuint (bluez_mock_count_calls (&f->mock, "hci0", "RegisterAdvertisement"), ==, 0);
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
      g_autoptr(NearbyTestRun) run = nearby_test_run_nearby (NULL, cases[i][0], cases[i][1],
                                                             cases[i][2], NULL);

      g_assert_cmpint (run->status, ==, 2);
      /* The message names the command it is about. */
      assert_contains (run->err, "nearby advertise: ");
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

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

  return harness_run_tests_on_private_system_bus ();
}
