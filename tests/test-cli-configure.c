/* test-cli-configure.c: `nearby configure` against the mock bluetoothd's configurable beacons
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <json-glib/json-glib.h>
#include <signal.h>
#include <string.h>

#include "bluez-mock-harness.h"

#define KEY "000102030405060708090a0b0c0d0e0f"

typedef struct {
  BluezMock mock;
  char     *path;
} Fixture;

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  static const guint8 key[16] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 };

  bluez_mock_set_up (&f->mock);
  bluez_mock_start (&f->mock);
  bluez_mock_add_adapter (&f->mock, "hci0", TRUE);
  f->path = bluez_mock_add_configurable_beacon (&f->mock, "C0:FF:EE:00:00:01", data, TRUE, key);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  g_free (f->path);
  bluez_mock_tear_down (&f->mock);
}

static void
assert_contains (const char *haystack,
                 const char *needle)
{
  if (strstr (haystack, needle) == NULL)
    g_error ("“%s” does not contain “%s”", haystack, needle);
}

static guint
count_connects (Fixture *f)
{
  return bluez_mock_count_object_calls (&f->mock, f->path, "Connect");
}

static void
test_read_locked (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(NearbyTestRun) run = nearby_test_run_nearby (NULL, "configure", "C0:FF:EE:00:00:01",
                                                         NULL);

  g_assert_cmpint (run->status, ==, 0);
  assert_contains (run->out, "C0:FF:EE:00:00:01: Eddystone configuration service");
  assert_contains (run->out, "Lock state:        locked");
  assert_contains (run->out, "--unlock KEY");
}

static void
test_write (Fixture       *f,
            gconstpointer  data)
{
  g_autoptr(NearbyTestRun) run = nearby_test_run_nearby (NULL, "configure", "C0:FF:EE:00:00:01",
                                                         "--unlock", KEY,
                                                         "--url", "https://www.gnome.org",
                                                         "--tx-power", "-10",
                                                         "--interval", "500", NULL);
  const char *after;

  g_assert_cmpint (run->status, ==, 0);
  after = strstr (run->out, "After (read back from the beacon):");
  g_assert_nonnull (after);
  assert_contains (run->out, "Broadcasts:        URL https://example.com");
  assert_contains (after, "Broadcasts:        URL https://www.gnome.org");
  assert_contains (after, "Interval:          500 ms");
  assert_contains (after, "Radio tx power:    -8 dBm");
  g_assert_null (strstr (after, "example.com"));
}

/* What the beacon holds, as the mock tells it. */
static GVariant *
beacon_state (Fixture    *f,
              const char *key)
{
  g_autoptr(GVariant) reply = bluez_mock_call (&f->mock, "/", BLUEZ_MOCK_IFACE, "GetBeaconConfig",
                                               g_variant_new ("(o)", f->path), "(a{sv})");
  g_autoptr(GVariant) state = g_variant_get_child_value (reply, 0);
  GVariant *value = g_variant_lookup_value (state, key, NULL);

  g_assert_nonnull (value);
  return value;
}

/* The section of @out after "After", so that an assertion on it cannot be met by "Before". */
static const char *
after_of (const NearbyTestRun *run)
{
  const char *after = strstr (run->out, "After (read back from the beacon):");

  if (after == NULL)
    g_error ("no After section in “%s” (stderr “%s”)", run->out, run->err);
  return after;
}

static void
test_tlm_and_clear (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(NearbyTestRun) tlm = nearby_test_run_nearby (NULL, "configure", "C0:FF:EE:00:00:01",
                                                         "--unlock", KEY, "--slot", "1",
                                                         "--tlm", NULL);
  g_autoptr(NearbyTestRun) clear = NULL;
  g_autoptr(GVariant) slots = NULL;
  g_autoptr(GVariant) slot0 = NULL;
  g_autoptr(GVariant) slot1 = NULL;
  g_autoptr(GVariant) frame_type = NULL;

  g_assert_cmpint (tlm->status, ==, 0);
  assert_contains (tlm->out, "Slot:              1 of 3\n"
                             "  Broadcasts:        nothing (the slot is empty)");
  assert_contains (after_of (tlm), "Slot:              1 of 3\n  Broadcasts:        TLM");

  clear = nearby_test_run_nearby (NULL, "configure", "C0:FF:EE:00:00:01", "--unlock", KEY,
                                  "--clear", NULL);
  g_assert_cmpint (clear->status, ==, 0);
  assert_contains (clear->out, "Broadcasts:        URL https://example.com");
  assert_contains (after_of (clear), "Broadcasts:        nothing (the slot is empty)");

  slots = beacon_state (f, "slots");
  slot0 = g_variant_get_child_value (slots, 0);
  slot1 = g_variant_get_child_value (slots, 1);
  g_assert_cmpuint (g_variant_n_children (slot0), ==, 0);
  g_assert_cmpuint (g_variant_n_children (slot1), >, 0);
  frame_type = g_variant_get_child_value (slot1, 0);
  g_assert_cmpuint (g_variant_get_byte (frame_type), ==, 0x20);
}

static void
test_advertised_power_and_remain_connectable (Fixture       *f,
                                              gconstpointer  data)
{
  g_autoptr(NearbyTestRun) run = nearby_test_run_nearby (NULL, "configure", "C0:FF:EE:00:00:01",
                                                         "--unlock", KEY,
                                                         "--advertised-power", "-21",
                                                         "--remain-connectable", "yes", NULL);
  g_autoptr(GVariant) remain = NULL;
  const char *after;

  g_assert_cmpint (run->status, ==, 0);
  after = after_of (run);
  assert_contains (run->out, "Advertised power:  0 dBm");
  assert_contains (run->out, "Connectable:       can stop once let go");
  /* The frames say -21 dBm; the radio's power is not changed. */
  assert_contains (after, "Radio tx power:    0 dBm");
  assert_contains (after, "Advertised power:  -21 dBm");
  assert_contains (after, "Stays connectable: yes (written; the beacon does not report it)");
  remain = beacon_state (f, "remain-connectable");
  g_assert_cmpuint (g_variant_get_byte (remain), ==, 1);
}

static void
test_uribeacon_flags_levels_mode (Fixture       *f,
                                  gconstpointer  data)
{
  g_autoptr(NearbyTestRun) run = nearby_test_run_nearby (NULL, "configure", "C0:FF:EE:00:00:01",
                                                         "--unlock", KEY, "--flags", "0x01",
                                                         "--tx-levels", "-20,-10,0,4",
                                                         "--tx-mode", "1", NULL);
  g_autoptr(GVariant) mode = NULL;
  const char *after;

  g_assert_cmpint (run->status, ==, 0);
  after = after_of (run);
  assert_contains (run->out, "Tx power:          -4 dBm (mode 2 of the levels -30 -16 -4 4)");
  assert_contains (run->out, "Flags:             0x00");
  assert_contains (after, "Tx power:          -10 dBm (mode 1 of the levels -20 -10 0 4)");
  assert_contains (after, "Flags:             0x01");
  mode = beacon_state (f, "mode");
  g_assert_cmpuint (g_variant_get_byte (mode), ==, 1);
}

/* An EID slot: what registration with a resolver takes, the identity key unwrapped. */
static void
test_eid (Fixture       *f,
          gconstpointer  data)
{
  g_autofree char *eid = g_strconcat ("8f40c5adb68f25624ae5b214ea767a6e",
                                      "c94d829d3d7b5e1ad1ba6f3e2138285f", ":10", NULL);
  g_autoptr(NearbyTestRun) run = nearby_test_run_nearby (NULL, "configure", "C0:FF:EE:00:00:01",
                                                         "--unlock", KEY, "--slot", "2",
                                                         "--eid", eid, NULL);
  g_autoptr(GVariant) identity_keys = NULL;
  g_autoptr(GVariant) identity_key = NULL;
  g_autofree char *identity_line = NULL;
  GString *hex = g_string_new (NULL);
  const guint8 *bytes;
  const char *after;
  gsize len;

  g_assert_cmpint (run->status, ==, 0);
  after = after_of (run);
  assert_contains (run->out, "Public ECDH key:   ");
  assert_contains (after, "Broadcasts:        EID ");
  assert_contains (after, "EID exponent:      10 (a new EID every 1024 s)");
  assert_contains (after, "EID clock:         ");

  identity_keys = beacon_state (f, "identity-keys");
  identity_key = g_variant_get_child_value (identity_keys, 2);
  bytes = g_variant_get_fixed_array (identity_key, &len, 1);
  g_assert_cmpuint (len, ==, 16);
  for (gsize i = 0; i < len; i++)
    g_string_append_printf (hex, "%02x", bytes[i]);
  identity_line = g_strconcat ("Identity key:      ", hex->str, "\n", NULL);
  assert_contains (after, identity_line);
  g_string_free (hex, TRUE);
}

/* A setting of the other service: refused, nothing written. */
static void
test_other_service_setting (Fixture       *f,
                            gconstpointer  data)
{
  g_autoptr(NearbyTestRun) flags = nearby_test_run_nearby (NULL, "configure",
                                                           "C0:FF:EE:00:00:01", "--unlock", KEY,
                                                           "--flags", "1", NULL);

  g_assert_cmpint (flags->status, ==, 1);
  assert_contains (flags->err, "An Eddystone beacon has no such setting");
}

static void
test_wrong_key (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(NearbyTestRun) run = nearby_test_run_nearby (NULL, "configure", "C0:FF:EE:00:00:01",
                                                         "--unlock",
                                                         "ffffffffffffffffffffffffffffffff",
                                                         "--url", "https://gnome.org", NULL);

  g_assert_cmpint (run->status, ==, 1);
  assert_contains (run->err, "nearby configure: The beacon refused the lock key");
}

static void
test_too_long (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(NearbyTestRun) run = nearby_test_run_nearby (NULL, "configure", "C0:FF:EE:00:00:01",
                                                         "--url",
                                                         "https://example.com/far-too-long-a-path",
                                                         NULL);

  g_assert_cmpint (run->status, ==, 1);
  assert_contains (run->err, "10 bytes more than the 18");
  g_assert_cmpuint (count_connects (f), ==, 0);
}

static void
test_json (Fixture       *f,
           gconstpointer  data)
{
  g_autoptr(NearbyTestRun) run = nearby_test_run_nearby (NULL, "configure", "--json",
                                                         "C0:FF:EE:00:00:01", "--unlock", KEY,
                                                         "--url", "https://gnome.org", NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *root;
  JsonObject *after;

  g_assert_cmpint (run->status, ==, 0);
  json_parser_load_from_data (parser, run->out, -1, &error);
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpstr (json_object_get_string_member (root, "service"), ==, "uribeacon");
  g_assert_true (json_object_get_null_member (root, "error"));
  after = json_object_get_object_member (root, "after");
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (after, "slot"),
                                                  "url"), ==, "https://gnome.org");
  g_assert_false (json_object_get_boolean_member (after, "locked"));
}

static void
on_call_held (GDBusConnection *connection,
              const char      *sender,
              const char      *path,
              const char      *interface,
              const char      *signal,
              GVariant        *parameters,
              gpointer         data)
{
  *(gboolean *) data = TRUE;
}

/* Ctrl-C while the beacon has not answered a write: said as not done, and the beacon let go. */
static void
test_interrupted (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  gboolean held = FALSE;
  guint subscription;

  bluez_mock_control (&f->mock, "SetCharacteristicFault",
                      g_variant_new ("(oys)", f->path, 0x0a, "hang-write"));
  subscription = g_dbus_connection_signal_subscribe (f->mock.bus, "org.bluez", BLUEZ_MOCK_IFACE,
                                                     "CallHeld", "/", NULL,
                                                     G_DBUS_SIGNAL_FLAGS_NONE, on_call_held,
                                                     &held, NULL);
  process = nearby_test_spawn_nearby (G_SUBPROCESS_FLAGS_STDOUT_PIPE
                                      | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error,
                                      "configure", "C0:FF:EE:00:00:01", "--unlock", KEY,
                                      "--url", "https://gnome.org", NULL);
  g_assert_no_error (error);
  WAIT_UNTIL (held);
  g_subprocess_send_signal (process, SIGINT);

  g_assert_cmpint (nearby_test_finish_nearby (process, NULL, &out, &err), ==, 1);
  assert_contains (err, "nearby configure: Interrupted: what the beacon had not confirmed was "
                        "not done");
  g_assert_cmpuint (bluez_mock_count_object_calls (&f->mock, f->path, "Disconnect"), ==, 1);
  g_dbus_connection_signal_unsubscribe (f->mock.bus, subscription);
}

static void
test_usage (Fixture       *f,
            gconstpointer  data)
{
  g_autoptr(NearbyTestRun) short_key = nearby_test_run_nearby (NULL, "configure",
                                                               "C0:FF:EE:00:00:01",
                                                               "--unlock", "0011", NULL);
  g_autoptr(NearbyTestRun) bad_uid = nearby_test_run_nearby (NULL, "configure",
                                                             "C0:FF:EE:00:00:01",
                                                             "--uid", "0011:22", NULL);
  g_autoptr(NearbyTestRun) unknown = nearby_test_run_nearby (NULL, "configure",
                                                             "C0:FF:EE:00:00:09", NULL);
  g_autoptr(NearbyTestRun) two_frames = nearby_test_run_nearby (NULL, "configure",
                                                                "C0:FF:EE:00:00:01", "--tlm",
                                                                "--url", "https://gnome.org",
                                                                NULL);
  g_autoptr(NearbyTestRun) levels = nearby_test_run_nearby (NULL, "configure",
                                                            "C0:FF:EE:00:00:01",
                                                            "--tx-levels", "-20,-10,0", NULL);
  g_autoptr(NearbyTestRun) bad_eid = nearby_test_run_nearby (NULL, "configure",
                                                             "C0:FF:EE:00:00:01",
                                                             "--eid", "0011:16", NULL);
  g_autoptr(NearbyTestRun) remain = nearby_test_run_nearby (NULL, "configure",
                                                            "C0:FF:EE:00:00:01",
                                                            "--remain-connectable", "maybe",
                                                            NULL);

  g_assert_cmpint (short_key->status, ==, 2);
  assert_contains (short_key->err, "--unlock takes a 16-byte key: 32 hex digits");
  g_assert_cmpint (bad_uid->status, ==, 2);
  assert_contains (bad_uid->err, "20 and 12 hex digits");
  g_assert_cmpint (unknown->status, ==, 1);
  assert_contains (unknown->err, "Bluetooth knows no device C0:FF:EE:00:00:09");
  g_assert_cmpint (two_frames->status, ==, 2);
  assert_contains (two_frames->err, "a slot broadcasts one frame");
  g_assert_cmpint (levels->status, ==, 2);
  assert_contains (levels->err, "--tx-levels takes four powers");
  g_assert_cmpint (bad_eid->status, ==, 2);
  assert_contains (bad_eid->err, "--eid takes RESOLVER-KEY:EXPONENT");
  g_assert_cmpint (remain->status, ==, 2);
  assert_contains (remain->err, "--remain-connectable takes yes or no");
  g_assert_cmpuint (count_connects (f), ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, service, func) \
  g_test_add (path, Fixture, service, fixture_set_up, func, fixture_tear_down)

  ADD ("/cli/configure/read-locked", "eddystone", test_read_locked);
  ADD ("/cli/configure/write", "eddystone", test_write);
  ADD ("/cli/configure/wrong-key", "eddystone", test_wrong_key);
  ADD ("/cli/configure/tlm-and-clear", "eddystone", test_tlm_and_clear);
  ADD ("/cli/configure/advertised-power-and-remain-connectable", "eddystone",
       test_advertised_power_and_remain_connectable);
  ADD ("/cli/configure/uribeacon-flags-levels-mode", "uribeacon",
       test_uribeacon_flags_levels_mode);
  ADD ("/cli/configure/eid", "eddystone", test_eid);
  ADD ("/cli/configure/other-service-setting", "eddystone", test_other_service_setting);
  ADD ("/cli/configure/too-long", "eddystone", test_too_long);
  ADD ("/cli/configure/json", "uribeacon", test_json);
  ADD ("/cli/configure/interrupted", "eddystone", test_interrupted);
  ADD ("/cli/configure/usage", "eddystone", test_usage);

#undef ADD

  return harness_run_tests_on_private_system_bus ();
}
