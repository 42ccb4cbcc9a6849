/* test-cli-scan.c: `nearby scan` as a developer runs it, against a mock bluetoothd on a
 * private bus
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gio/gio.h>
#include <json-glib/json-glib.h>
#include <signal.h>
#include <string.h>

#include "bluez-mock-beacons.h"
#include "nearby-replay.h"

typedef struct {
  BluezMock  mock;
  char      *staying;  /* a device the test keeps heard */
} Fixture;

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
  bluez_mock_tear_down (&f->mock);
  g_free (f->staying);
}

static void
test_cli_scan_json (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *url = NULL;
  g_autofree char *tlm = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GRegex) time_format = g_regex_new ("^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z$",
                                               0, 0, NULL);
  guint n_url_lines = 0;
  int status;

  bluez_mock_start (&f->mock);
  bluez_mock_add_adapter (&f->mock, "hci0", TRUE);
  url = add_beacon (&f->mock, "C0:FF:EE:00:01:01",
                    props ("RSSI", g_variant_new_int16 (-61),
                           "ServiceData", url_service_data ("https://example.com/cli", -20),
                           NULL));
  tlm = add_beacon (&f->mock, "C0:FF:EE:00:01:02",
                    props ("RSSI", g_variant_new_int16 (-70),
                           "ServiceData", tlm_service_data (),
                           NULL));

  process = nearby_test_spawn_nearby (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE,
                                  &error, "scan", "--json", "--duration", "3", NULL);
  g_assert_no_error (error);
  WAIT_UNTIL (bluez_mock_count_calls (&f->mock, "hci0", "StartDiscovery") == 1);
  update_device (&f->mock, url, props ("RSSI", g_variant_new_int16 (-81), NULL), NULL);
  update_device (&f->mock, tlm, props ("RSSI", g_variant_new_int16 (-71), NULL), NULL);

  status = nearby_test_finish_nearby (process, NULL, &out, &err);
  g_test_message ("stdout:\n%sstderr:\n%s", out, err);
  g_assert_cmpint (status, ==, 0);

  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i] != NULL && lines[i][0] != '\0'; i++)
    {
      g_autoptr(JsonParser) parser = json_parser_new ();
      JsonObject *object;

      g_autoptr(NearbySighting) replayed = NULL;

      g_assert_true (json_parser_load_from_data (parser, lines[i], -1, &error));
      g_assert_no_error (error);
      object = json_node_get_object (json_parser_get_root (parser));

      /* A capture replays as what was seen. */
      replayed = nearby_replay_parse_line (lines[i], &error);
      g_assert_no_error (error);
      g_assert_cmpstr (replayed->address, ==, "C0:FF:EE:00:01:01");
      g_assert_cmpstr (replayed->frame.url, ==, "https://example.com/cli");
      g_assert_cmpint (replayed->rssi, ==, json_object_get_int_member (object, "rssi"));

      g_assert_true (g_regex_match (time_format, json_object_get_string_member (object, "time"),
                                    0, NULL));
      /* Without --all only URL frames are printed. */
      g_assert_cmpstr (json_object_get_string_member (object, "address"), ==,
                       "C0:FF:EE:00:01:01");
      g_assert_cmpstr (json_object_get_string_member (object, "url"), ==,
                       "https://example.com/cli");
      g_assert_cmpstr (json_object_get_string_member (object, "uuid"), ==, "feaa");
      g_assert_true (g_str_has_prefix (json_object_get_string_member (object, "raw"), "10ec"));
      g_assert_cmpint (json_object_get_int_member (object, "tx_power"), ==, -20);
      if (json_object_get_int_member (object, "rssi") == -61)
        g_assert_cmpfloat_with_epsilon (json_object_get_double_member (object, "distance_m"),
                                        1.0, 0.01);
      else
        g_assert_cmpfloat_with_epsilon (json_object_get_double_member (object, "distance_m"),
                                        10.0, 0.01);
      n_url_lines++;
    }
  g_assert_cmpuint (n_url_lines, ==, 2);

  /* Discovery was stopped before the process ended. */
  g_assert_cmpuint (bluez_mock_count_calls (&f->mock, "hci0", "StopDiscovery"), ==, 1);
}

static void
test_cli_scan_all (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(NearbyTestRun) run = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *tlm = NULL;
  g_autoptr(NearbySighting) replayed = NULL;

  bluez_mock_start (&f->mock);
  bluez_mock_add_adapter (&f->mock, "hci0", TRUE);
  tlm = add_beacon (&f->mock, "C0:FF:EE:00:01:03",
                    props ("RSSI", g_variant_new_int16 (-70),
                           "ServiceData", tlm_service_data (),
                           NULL));

  run = nearby_test_run_nearby (NULL, "scan", "--json", "--all", "--duration", "1", NULL);
  g_assert_cmpint (run->status, ==, 0);
  g_assert_nonnull (strstr (run->out, "\"frame\":\"tlm\""));
  g_assert_nonnull (strstr (run->out, "\"battery_mv\":3000"));

  /* The TLM frame survives a capture and replay. */
  replayed = nearby_replay_parse_line (run->out, &error);
  g_assert_no_error (error);
  g_assert_cmpint (replayed->frame.kind, ==, NEARBY_FRAME_KIND_TLM);
  g_assert_cmpuint (replayed->frame.battery_mv, ==, 3000);
}

/* A watch (no beacon) and a museum's Eddystone-URL beacon, added anew: bluetoothd forgets its
 * devices when discovery stops. */
static void
add_watch_and_museum (Fixture *f)
{
  g_autofree char *watch = NULL;
  g_autofree char *museum = NULL;

  watch = add_beacon (&f->mock, "1F:00:00:00:00:06",
                      props ("RSSI", g_variant_new_int16 (-64),
                             "ManufacturerData",
                             g_variant_new_parsed ("{uint16 117: <[byte 0x01, 0x02, 0x03]>}"),
                             "UUIDs",
                             g_variant_new_parsed ("['0000180d-0000-1000-8000-00805f9b34fb']"),
                             "AdvertisingData",
                             g_variant_new_parsed ("{byte 0x09: <[byte 0x57, 0x61, 0x74, 0x63, "
                                                   "0x68]>}"),
                             NULL));
  museum = add_beacon (&f->mock, "C0:FF:EE:00:01:07",
                       props ("RSSI", g_variant_new_int16 (-60),
                              "ServiceData", url_service_data ("https://example.com/m", -20),
                              NULL));
}

/* With --all a live scan lists the devices that are no beacon too, from what bluetoothd keeps
 * of them: company, service UUIDs, address type; without it, only beacons. */
static void
test_cli_scan_all_devices (Fixture       *f,
                           gconstpointer  data)
{
  g_autoptr(NearbyTestRun) run = NULL;
  g_autoptr(NearbyTestRun) beacons = NULL;
  g_autoptr(NearbyTestRun) table = NULL;
  g_autoptr(GPtrArray) objects = NULL;
  JsonObject *object = NULL;
  JsonArray *uuids;

  bluez_mock_start (&f->mock);
  bluez_mock_add_adapter (&f->mock, "hci0", TRUE);

  add_watch_and_museum (f);
  /* Properties of the wrong types are left out, not trusted. */
  g_free (add_beacon (&f->mock, "EF:00:00:00:00:08",
                      props ("RSSI", g_variant_new_int16 (-70),
                             "ManufacturerData", g_variant_new_string ("lamp"),
                             "UUIDs", g_variant_new_uint32 (7),
                             "AdvertisingData", g_variant_new_parsed ("{byte 0x09: <'Lamp'>}"),
                             NULL)));
  run = nearby_test_run_nearby (NULL, "scan", "--json", "--all", "--duration", "1", NULL);
  g_assert_cmpint (run->status, ==, 0);
  g_assert_nonnull (strstr (run->out, "{\"time\":"));
  g_assert_nonnull (strstr (run->out, "\"address\":\"EF:00:00:00:00:08\","
                                      "\"address_type\":\"random-static\",\"rssi\":-70,"
                                      "\"distance_m\":null,\"protocol\":null,\"raw\":null,"
                                      "\"ad\":[],\"service_uuids\":[]}\n"));
  objects = nearby_test_parse_json_lines (run->out);
  for (guint i = 0; i < objects->len; i++)
    {
      JsonObject *line = g_ptr_array_index (objects, i);

      if (g_strcmp0 (json_object_get_string_member (line, "address"), "1F:00:00:00:00:06") == 0)
        object = line;
    }
  g_assert_nonnull (object);
  g_assert_true (json_object_get_null_member (object, "protocol"));
  g_assert_cmpstr (json_object_get_string_member (object, "address_type"), ==, "non-resolvable");
  g_assert_cmpint (json_object_get_int_member (object, "rssi"), ==, -64);
  /* bluetoothd hands over properties, not the advertising data. */
  g_assert_true (json_object_get_null_member (object, "raw"));
  g_assert_cmpint (json_object_get_int_member (object, "company_id"), ==, 117);
  uuids = json_object_get_array_member (object, "service_uuids");
  g_assert_cmpuint (json_array_get_length (uuids), ==, 1);
  g_assert_cmpstr (json_array_get_string_element (uuids, 0), ==, "180d");
  /* Its name, as bluetoothd passes on the AD structures it deems safe. */
  g_assert_nonnull (strstr (run->out, "\"ad\":[{\"type\":9,\"data\":\"5761746368\"}]"));
  g_assert_nonnull (strstr (run->out, "\"url\":\"https://example.com/m\""));

  add_watch_and_museum (f);
  beacons = nearby_test_run_nearby (NULL, "scan", "--json", "--duration", "1", NULL);
  g_assert_cmpint (beacons->status, ==, 0);
  g_assert_null (strstr (beacons->out, "1F:00:00:00:00:06"));
  g_assert_nonnull (strstr (beacons->out, "\"url\":\"https://example.com/m\""));

  add_watch_and_museum (f);
  table = nearby_test_run_nearby (NULL, "scan", "--all", "--duration", "1", NULL);
  g_assert_cmpint (table->status, ==, 0);
  g_assert_nonnull (strstr (table->out, "1F:00:00:00:00:06  no beacon: company 0x0075, services "
                                        "180d\n"));
}

static void
test_cli_scan_table (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(NearbyTestRun) run = NULL;
  g_autofree char *near = NULL;
  g_autofree char *far = NULL;
  const char *near_line, *far_line;

  bluez_mock_start (&f->mock);
  bluez_mock_add_adapter (&f->mock, "hci0", TRUE);
  far = add_beacon (&f->mock, "C0:FF:EE:00:01:04",
                    props ("RSSI", g_variant_new_int16 (-81),
                           "ServiceData", url_service_data ("https://example.com/far", -20),
                           NULL));
  near = add_beacon (&f->mock, "C0:FF:EE:00:01:05",
                     props ("RSSI", g_variant_new_int16 (-61),
                            "ServiceData", url_service_data ("https://example.com/near", -20),
                            NULL));

  run = nearby_test_run_nearby (NULL, "scan", "--duration", "1", NULL);
  g_assert_cmpint (run->status, ==, 0);
  g_test_message ("%s", run->out);

  /* Not a terminal: one table at the end, nearest first. */
  near_line = strstr (run->out, "https://example.com/near");
  far_line = strstr (run->out, "https://example.com/far");
  g_assert_nonnull (near_line);
  g_assert_nonnull (far_line);
  g_assert_true (near_line < far_line);
  g_assert_nonnull (strstr (run->out, "1.0 m"));
  g_assert_nonnull (strstr (run->out, "10.0 m"));
  g_assert_null (strstr (run->out, "\033["));
}

static gboolean
keep_heard_cb (gpointer data)
{
  Fixture *f = data;
  static int rssi = -60;
  const char *none[] = { NULL };

  /* Not update_device (), which must succeed: once nearby scan stops discovering, bluetoothd
   * drops its temporary devices, and this timer may still fire before the process is reaped. */
  rssi = rssi == -60 ? -61 : -60;
  g_dbus_connection_call (f->mock.bus, "org.bluez", "/", BLUEZ_MOCK_IFACE, "UpdateDevice",
                          g_variant_new ("(o@a{sv}^as)", f->staying,
                                         props ("RSSI", g_variant_new_int16 (rssi), NULL), none),
                          NULL, G_DBUS_CALL_FLAGS_NO_AUTO_START, -1, NULL, NULL, NULL);

  return G_SOURCE_CONTINUE;
}

/* A device that is no longer heard leaves the table after the expiry; one still heard stays. */
static void
test_cli_scan_table_expiry (Fixture       *f,
                            gconstpointer  data)
{
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *leaving = NULL;
  guint keep_heard;

  bluez_mock_start (&f->mock);
  bluez_mock_add_adapter (&f->mock, "hci0", TRUE);
  leaving = add_beacon (&f->mock, "C0:FF:EE:00:01:09",
                        props ("RSSI", g_variant_new_int16 (-61),
                               "ServiceData", url_service_data ("https://example.com/left", -20),
                               NULL));
  f->staying = add_beacon (&f->mock, "C0:FF:EE:00:01:0A",
                           props ("RSSI", g_variant_new_int16 (-60),
                                  "ServiceData", url_service_data ("https://example.com/stays", -20),
                                  NULL));

  /* Heard once at the start, then not for the 3 s the scan lasts: longer than the expiry. */
  process = nearby_test_spawn_nearby (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE,
                                      &error, "scan", "--duration", "3", "--expiry", "1", NULL);
  g_assert_no_error (error);
  keep_heard = g_timeout_add (100, keep_heard_cb, f);
  g_assert_cmpint (nearby_test_finish_nearby (process, NULL, &out, &err), ==, 0);
  g_source_remove (keep_heard);
  g_test_message ("stdout:\n%sstderr:\n%s", out, err);

  g_assert_nonnull (strstr (out, "https://example.com/stays"));
  g_assert_null (strstr (out, "https://example.com/left"));
}

/* bluetoothd's RSSI is an int16: values no receiver reports (127 is the spec's "not available")
 * are unknown, so that what --json writes, --replay and --from read back. */
static void
test_cli_scan_rssi_bounds (Fixture       *f,
                           gconstpointer  data)
{
  g_autoptr(NearbyTestRun) run = NULL;
  g_autoptr(GPtrArray) objects = NULL;
  g_autofree char *changing = NULL;
  struct {
    const char *address;
    int         rssi;
    gboolean    known;
  } cases[] = {
    { "C0:FF:EE:00:02:01", -32768, FALSE },
    { "C0:FF:EE:00:02:02", -128, FALSE },
    { "C0:FF:EE:00:02:03", -127, TRUE },
    { "C0:FF:EE:00:02:04", 20, TRUE },
    { "C0:FF:EE:00:02:05", 21, FALSE },
    { "C0:FF:EE:00:02:06", 127, FALSE },
    { "C0:FF:EE:00:02:07", 32767, FALSE },
  };

  bluez_mock_start (&f->mock);
  bluez_mock_add_adapter (&f->mock, "hci0", TRUE);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    g_free (add_beacon (&f->mock, cases[i].address,
                        props ("RSSI", g_variant_new_int16 (cases[i].rssi),
                               "ServiceData", url_service_data ("https://example.com/rssi", -20),
                               NULL)));

  run = nearby_test_run_nearby (NULL, "scan", "--json", "--duration", "1", NULL);
  g_test_message ("%s%s", run->out, run->err);
  g_assert_cmpint (run->status, ==, 0);

  objects = nearby_test_parse_json_lines (run->out);
  g_assert_cmpuint (objects->len, ==, G_N_ELEMENTS (cases));
  for (guint i = 0; i < objects->len; i++)
    {
      JsonObject *object = g_ptr_array_index (objects, i);
      const char *address = json_object_get_string_member (object, "address");
      g_autoptr(JsonGenerator) generator = json_generator_new ();
      g_autoptr(JsonNode) root = json_node_init_object (json_node_alloc (), object);
      g_autoptr(NearbySighting) replayed = NULL;
      g_autoptr(GError) error = NULL;
      g_autofree char *line = NULL;

      for (guint j = 0; j < G_N_ELEMENTS (cases); j++)
        {
          if (!g_str_equal (cases[j].address, address))
            continue;
          if (cases[j].known)
            g_assert_cmpint (json_object_get_int_member (object, "rssi"), ==, cases[j].rssi);
          else
            g_assert_true (json_object_get_null_member (object, "rssi"));
        }

      json_generator_set_root (generator, root);
      line = json_generator_to_data (generator, NULL);
      replayed = nearby_replay_parse_line (line, &error);
      g_assert_no_error (error);
    }

  /* The same for a change of RSSI. */
  changing = add_beacon (&f->mock, "C0:FF:EE:00:02:08",
                         props ("RSSI", g_variant_new_int16 (-60),
                                "ServiceData", url_service_data ("https://example.com/rssi", -20),
                                NULL));
  {
    g_autoptr(GSubprocess) process = NULL;
    g_autoptr(GError) error = NULL;
    g_autofree char *out = NULL;
    g_autofree char *err = NULL;

    process = nearby_test_spawn_nearby (G_SUBPROCESS_FLAGS_STDOUT_PIPE
                                        | G_SUBPROCESS_FLAGS_STDERR_PIPE,
                                        &error, "scan", "--json", "--duration", "2", NULL);
    g_assert_no_error (error);
    WAIT_UNTIL (bluez_mock_count_calls (&f->mock, "hci0", "StartDiscovery") == 2);
    update_device (&f->mock, changing, props ("RSSI", g_variant_new_int16 (-32768), NULL), NULL);
    g_assert_cmpint (nearby_test_finish_nearby (process, NULL, &out, &err), ==, 0);
    g_test_message ("%s%s", out, err);
    g_assert_nonnull (strstr (out, "\"rssi\":-60,"));
    g_assert_nonnull (strstr (out, "\"rssi\":null,"));
    g_assert_null (strstr (out, "-32768"));
  }
}

/* bluetoothd names a device's object after its address: an Address property that says
 * otherwise is not shown. */
static void
test_cli_scan_address_from_path (Fixture       *f,
                                 gconstpointer  data)
{
  g_autoptr(NearbyTestRun) table = NULL;
  g_autoptr(NearbyTestRun) json = NULL;

  bluez_mock_start (&f->mock);
  bluez_mock_add_adapter (&f->mock, "hci0", TRUE);
  g_free (add_beacon (&f->mock, "C0:FF:EE:00:03:01",
                      props ("Address", g_variant_new_string ("<script>alert(1)</script>"),
                             "RSSI", g_variant_new_int16 (-60),
                             "ServiceData", url_service_data ("https://example.com/a", -20),
                             NULL)));
  g_free (add_beacon (&f->mock, "C0:FF:EE:00:03:02",
                      props ("Address", g_variant_new_string ("11:22:33:44:55:66"),
                             "RSSI", g_variant_new_int16 (-60),
                             "ServiceData", url_service_data ("https://example.com/b", -20),
                             NULL)));
  g_free (add_beacon (&f->mock, "c0:ff:ee:00:03:0a",
                      props ("RSSI", g_variant_new_int16 (-60),
                             "ServiceData", url_service_data ("https://example.com/c", -20),
                             NULL)));

  table = nearby_test_run_nearby (NULL, "scan", "--duration", "1", NULL);
  g_test_message ("%s%s", table->out, table->err);
  g_assert_cmpint (table->status, ==, 0);
  g_assert_nonnull (strstr (table->out, "C0:FF:EE:00:03:01  https://example.com/a\n"));
  g_assert_nonnull (strstr (table->out, "C0:FF:EE:00:03:02  https://example.com/b\n"));
  g_assert_nonnull (strstr (table->out, "C0:FF:EE:00:03:0A  https://example.com/c\n"));
  g_assert_null (strstr (table->out, "script"));
  g_assert_null (strstr (table->out, "11:22:33"));

  g_free (add_beacon (&f->mock, "C0:FF:EE:00:03:01",
                      props ("Address", g_variant_new_string ("<script>alert(1)</script>"),
                             "RSSI", g_variant_new_int16 (-60),
                             "ServiceData", url_service_data ("https://example.com/a", -20),
                             NULL)));
  json = nearby_test_run_nearby (NULL, "scan", "--json", "--duration", "1", NULL);
  g_assert_cmpint (json->status, ==, 0);
  g_assert_nonnull (strstr (json->out, "\"address\":\"C0:FF:EE:00:03:01\""));
  g_assert_null (strstr (json->out, "script"));
}

static void
test_cli_scan_unavailable (Fixture       *f,
                           gconstpointer  data)
{
  struct {
    gboolean    with_adapter;
    const char *adapter;
    const char *message;
  } cases[] = {
    { TRUE, NULL, "Bluetooth is off — run `bluetoothctl power on`" },
    { TRUE, "hci7", "Bluetooth adapter “hci7” not found" },
    { FALSE, NULL, "No Bluetooth adapter found" },
  };

  bluez_mock_start (&f->mock);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(NearbyTestRun) run = NULL;

      if (cases[i].with_adapter && i == 0)
        bluez_mock_add_adapter (&f->mock, "hci0", FALSE);
      else if (!cases[i].with_adapter)
        bluez_mock_control (&f->mock, "RemoveAdapter", g_variant_new ("(s)", "hci0"));

      run = nearby_test_run_nearby (NULL, "scan", "--json", "--duration", "3",
                                    cases[i].adapter != NULL ? "--adapter" : NULL,
                                    cases[i].adapter, NULL);
      g_assert_cmpint (run->status, ==, 3);
      g_test_message ("stderr: %s", run->err);
      g_assert_nonnull (strstr (run->err, cases[i].message));
      g_assert_cmpstr (run->out, ==, "");
    }
}

/* A bluetoothd that never answers StartDiscovery does not stretch --duration: the run ends at
 * its deadline, said so, rather than when the 10 s wait for an answer gives up. */
static void
test_cli_scan_duration_unanswered (Fixture       *f,
                                   gconstpointer  data)
{
  g_autoptr(NearbyTestRun) run = NULL;

  bluez_mock_start (&f->mock);
  bluez_mock_add_adapter (&f->mock, "hci0", TRUE);
  bluez_mock_control (&f->mock, "HangStartDiscovery", g_variant_new ("(s)", "hci0"));

  run = nearby_test_run_nearby (NULL, "scan", "--duration", "3", NULL);
  g_test_message ("%s%s", run->out, run->err);
  g_assert_cmpint (run->status, ==, 3);
  g_assert_cmpstr (run->err, ==, "nearby scan: Bluetooth discovery did not start within "
                   "--duration: bluetoothd does not answer\n");
  g_assert_cmpuint (bluez_mock_count_calls (&f->mock, "hci0", "StartDiscovery"), ==, 1);
}

static void
test_cli_scan_no_service (Fixture       *f,
                          gconstpointer  data)
{
  g_autoptr(NearbyTestRun) run = nearby_test_run_nearby (NULL, "scan", NULL);

  g_assert_cmpint (run->status, ==, 3);
  g_assert_nonnull (strstr (run->err, "start it with `systemctl start bluetooth`"));
}

static void
test_cli_scan_interrupted (Fixture       *f,
                           gconstpointer  data)
{
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  bluez_mock_start (&f->mock);
  bluez_mock_add_adapter (&f->mock, "hci0", TRUE);

  process = nearby_test_spawn_nearby (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE,
                                  &error, "scan", "--json", NULL);
  g_assert_no_error (error);
  WAIT_UNTIL (bluez_mock_count_calls (&f->mock, "hci0", "StartDiscovery") == 1);

  /* Ctrl-C: discovery is stopped, then the process exits normally. */
  g_subprocess_send_signal (process, SIGINT);
  g_assert_cmpint (nearby_test_finish_nearby (process, NULL, &out, &err), ==, 0);
  g_assert_cmpuint (bluez_mock_count_calls (&f->mock, "hci0", "StopDiscovery"), ==, 1);
}

static void
read_line_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      data)
{
  g_autoptr(GError) error = NULL;

  *(char **) data = g_data_input_stream_read_line_finish (G_DATA_INPUT_STREAM (object), result,
                                                          NULL, &error);
  g_assert_no_error (error);
}

static void
wait_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      data)
{
  g_autoptr(GError) error = NULL;

  g_subprocess_wait_finish (G_SUBPROCESS (object), result, &error);
  g_assert_no_error (error);
  *(gboolean *) data = TRUE;
}

static void
test_cli_scan_closed_pipe (Fixture       *f,
                           gconstpointer  data)
{
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GDataInputStream) lines = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  g_autofree char *line = NULL;
  gboolean exited = FALSE;

  bluez_mock_start (&f->mock);
  bluez_mock_add_adapter (&f->mock, "hci0", TRUE);
  path = add_beacon (&f->mock, "C0:FF:EE:00:01:06",
                     props ("RSSI", g_variant_new_int16 (-61),
                            "ServiceData", url_service_data ("https://example.com/pipe", -20),
                            NULL));

  /* `nearby scan --json | head -1`: the reader goes away after one line. */
  process = nearby_test_spawn_nearby (G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error, "scan", "--json", NULL);
  g_assert_no_error (error);
  lines = g_data_input_stream_new (g_subprocess_get_stdout_pipe (process));
  g_data_input_stream_read_line_async (lines, G_PRIORITY_DEFAULT, NULL, read_line_cb, &line);
  WAIT_UNTIL (line != NULL);
  g_assert_nonnull (strstr (line, "https://example.com/pipe"));
  g_input_stream_close (g_subprocess_get_stdout_pipe (process), NULL, &error);
  g_assert_no_error (error);

  /* The next sighting finds the pipe closed: discovery is stopped, the exit is clean. */
  update_device (&f->mock, path, props ("RSSI", g_variant_new_int16 (-62), NULL), NULL);
  g_subprocess_wait_async (process, NULL, wait_cb, &exited);
  WAIT_UNTIL (exited);
  g_assert_true (g_subprocess_get_if_exited (process));
  g_assert_cmpint (g_subprocess_get_exit_status (process), ==, 0);
  g_assert_cmpuint (bluez_mock_count_calls (&f->mock, "hci0", "StopDiscovery"), ==, 1);
}

/* Three beacons for the filters; bluetoothd forgets them when discovery stops, so each run
 * adds them again. */
static void
add_filter_beacons (Fixture *f)
{
  guint8 frame[NEARBY_FRAME_URL_SERVICE_DATA_MAX];
  NearbyFrame status;
  size_t len = 0;

  g_assert_cmpint (nearby_frame_encode_url (NEARBY_PROTOCOL_URIBEACON, "http://museum.test/3", 0,
                                            -25, frame, &len, &status), ==, NEARBY_FRAME_OK);

  g_free (add_beacon (&f->mock, "C0:FF:EE:00:01:07",
                      props ("RSSI", g_variant_new_int16 (-61),
                             "ServiceData", url_service_data ("https://example.com/near", -20),
                             NULL)));
  g_free (add_beacon (&f->mock, "C0:FF:EE:00:01:08",
                      props ("RSSI", g_variant_new_int16 (-85),
                             "ServiceData", url_service_data ("https://example.com/far", -20),
                             NULL)));
  g_free (add_beacon (&f->mock, "D4:3A:2C:11:22:33",
                      props ("RSSI", g_variant_new_int16 (-65),
                             "ServiceData",
                             nearby_test_service_data ("0000fed8-0000-1000-8000-00805f9b34fb",
                                                       frame, len),
                             NULL)));
}

/* The filters over a live scan: what is dropped never reaches the table or the JSON. */
static void
test_cli_scan_filters (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(NearbyTestRun) strong = NULL;
  g_autoptr(NearbyTestRun) uribeacon = NULL;
  g_autoptr(NearbyTestRun) one = NULL;
  g_autoptr(GPtrArray) objects = NULL;

  bluez_mock_start (&f->mock);
  bluez_mock_add_adapter (&f->mock, "hci0", TRUE);

  add_filter_beacons (f);
  strong = nearby_test_run_nearby (NULL, "scan", "--json", "--duration", "1", "--min-rssi", "-70",
                                   NULL);
  g_assert_cmpint (strong->status, ==, 0);
  objects = nearby_test_parse_json_lines (strong->out);
  g_assert_cmpuint (objects->len, >=, 2);
  for (guint i = 0; i < objects->len; i++)
    g_assert_cmpint (json_object_get_int_member (g_ptr_array_index (objects, i), "rssi"), >=, -70);
  g_assert_nonnull (strstr (strong->out, "https://example.com/near"));
  g_assert_nonnull (strstr (strong->out, "http://museum.test/3"));
  g_assert_null (strstr (strong->out, "https://example.com/far"));

  add_filter_beacons (f);
  uribeacon = nearby_test_run_nearby (NULL, "scan", "--duration", "1", "--protocol", "uribeacon",
                                      NULL);
  g_test_message ("%s", uribeacon->out);
  g_assert_cmpint (uribeacon->status, ==, 0);
  g_assert_nonnull (strstr (uribeacon->out, "D4:3A:2C:11:22:33  http://museum.test/3\n"));
  g_assert_null (strstr (uribeacon->out, "example.com"));

  add_filter_beacons (f);
  one = nearby_test_run_nearby (NULL, "scan", "--duration", "1", "--address", "c0:ff:ee:00:01:08",
                                "--url-contains", "FAR", NULL);
  g_test_message ("%s", one->out);
  g_assert_cmpint (one->status, ==, 0);
  g_assert_nonnull (strstr (one->out, "C0:FF:EE:00:01:08  https://example.com/far\n"));
  g_assert_null (strstr (one->out, "near"));
  g_assert_null (strstr (one->out, "museum"));
}

static void
test_cli_scan_usage (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(NearbyTestRun) run = nearby_test_run_nearby (NULL, "scan", "--duration", "-1", NULL);

  g_assert_cmpint (run->status, ==, 2);
  g_assert_nonnull (strstr (run->err, "--duration"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)

  ADD ("/cli/scan/json", test_cli_scan_json);
  ADD ("/cli/scan/all", test_cli_scan_all);
  ADD ("/cli/scan/all-devices", test_cli_scan_all_devices);
  ADD ("/cli/scan/table", test_cli_scan_table);
  ADD ("/cli/scan/table-expiry", test_cli_scan_table_expiry);
  ADD ("/cli/scan/rssi-bounds", test_cli_scan_rssi_bounds);
  ADD ("/cli/scan/address-from-path", test_cli_scan_address_from_path);
  ADD ("/cli/scan/unavailable", test_cli_scan_unavailable);
  ADD ("/cli/scan/duration-unanswered", test_cli_scan_duration_unanswered);
  ADD ("/cli/scan/no-service", test_cli_scan_no_service);
  ADD ("/cli/scan/interrupted", test_cli_scan_interrupted);
  ADD ("/cli/scan/closed-pipe", test_cli_scan_closed_pipe);
  ADD ("/cli/scan/filters", test_cli_scan_filters);
  ADD ("/cli/scan/usage", test_cli_scan_usage);

#undef ADD

  return harness_run_tests_on_private_system_bus ();
}
