/* test-cli-scan-filter.c: `nearby scan`'s filters and --all, over captures read with --from
 * (the filters over a live scan are in test-cli-scan.c)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <gio/gio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "nearby-test-utils.h"

#define EDDYSTONE_NEAR "C0:FF:EE:00:00:01"  /* https://example.com, -60 dBm */
#define URIBEACON      "D4:3A:2C:11:22:33"  /* http://museum.test/3, -77 dBm */
#define IBEACON        "C0:FF:EE:00:00:03"  /* no URL, -70 dBm */
#define EDDYSTONE_FAR  "C0:FF:EE:00:00:04"  /* https://example.com, -90 dBm */

static const char capture[] =
  "{\"time\":\"2026-12-03T05:28:22.000Z\",\"address\":\"" EDDYSTONE_NEAR "\",\"rssi\":-60,"
  "\"uuid\":\"feaa\",\"raw\":\"10ec036578616d706c6507\"}\n"
  "{\"time\":\"2026-12-03T05:28:22.100Z\",\"address\":\"" URIBEACON "\",\"rssi\":-77,"
  "\"uuid\":\"fed8\",\"raw\":\"00e7026d757365756d2e746573742f33\"}\n"
  "{\"time\":\"2026-12-03T05:28:22.200Z\",\"address\":\"" IBEACON "\",\"rssi\":-70,"
  "\"company_id\":76,\"raw\":\"0215e2c56db5dffb48d2b060d0f5a71096e000010002c5\"}\n"
  "{\"time\":\"2026-12-03T05:28:22.300Z\",\"address\":\"" EDDYSTONE_FAR "\",\"rssi\":-90,"
  "\"uuid\":\"feaa\",\"raw\":\"10ec036578616d706c6507\"}\n";

static char *capture_path;

/* Runs `nearby scan --from CAPTURE ARGS…` and checks that its table lists exactly @expected
 * (a NULL-terminated list of addresses). */
static void
assert_rows (const char * const *expected,
             const char         *first_arg,
             ...)
{
  g_autoptr(GPtrArray) args = g_ptr_array_new ();
  g_autoptr(NearbyTestRun) run = NULL;
  g_auto(GStrv) lines = NULL;
  const char *arg;
  guint n_rows = 0;
  va_list list;

  g_ptr_array_add (args, (char *) "scan");
  g_ptr_array_add (args, (char *) "--from");
  g_ptr_array_add (args, capture_path);
  va_start (list, first_arg);
  for (arg = first_arg; arg != NULL; arg = va_arg (list, const char *))
    g_ptr_array_add (args, (char *) arg);
  va_end (list);
  g_ptr_array_add (args, NULL);

  run = nearby_test_run_nearbyv (NULL, (const char **) args->pdata);
  g_test_message ("%s%s", run->out, run->err);
  g_assert_cmpint (run->status, ==, 0);
  g_assert_cmpstr (run->err, ==, "");

  lines = g_strsplit (run->out, "\n", -1);
  g_assert_nonnull (strstr (lines[0], "ADDRESS"));
  if (expected[0] == NULL)
    {
      g_assert_cmpstr (lines[1], ==, "(no beacons seen)");
      return;
    }
  for (guint i = 1; lines[i] != NULL && lines[i][0] != '\0'; i++)
    {
      gboolean found = FALSE;

      for (guint j = 0; expected[j] != NULL; j++)
        found |= strstr (lines[i], expected[j]) != NULL;
      if (!found)
        g_error ("unexpected row: %s", lines[i]);
      n_rows++;
    }
  g_assert_cmpuint (n_rows, ==, g_strv_length ((char **) expected));
}

static void
test_filter_none (void)
{
  /* What the app would list: the beacons with a URL, however weak. */
  const char *listed[] = { EDDYSTONE_NEAR, URIBEACON, EDDYSTONE_FAR, NULL };
  const char *all[] = { EDDYSTONE_NEAR, URIBEACON, IBEACON, EDDYSTONE_FAR, NULL };

  assert_rows (listed, NULL);
  assert_rows (all, "--all", NULL);
}

static void
test_filter_min_rssi (void)
{
  const char *strong[] = { EDDYSTONE_NEAR, NULL };
  const char *at_limit[] = { EDDYSTONE_NEAR, URIBEACON, NULL };
  const char *all_strong[] = { EDDYSTONE_NEAR, IBEACON, NULL };

  assert_rows (strong, "--min-rssi", "-75", NULL);
  /* At least: a beacon at exactly the limit stays. */
  assert_rows (at_limit, "--min-rssi=-77", NULL);
  assert_rows (all_strong, "--all", "--min-rssi", "-70", NULL);
}

static void
test_filter_protocol (void)
{
  const char *uribeacon[] = { URIBEACON, NULL };
  const char *eddystone[] = { EDDYSTONE_NEAR, EDDYSTONE_FAR, NULL };
  const char *ibeacon[] = { IBEACON, NULL };
  const char *both[] = { EDDYSTONE_NEAR, URIBEACON, EDDYSTONE_FAR, NULL };

  assert_rows (uribeacon, "--protocol", "uribeacon", NULL);
  assert_rows (eddystone, "--protocol", "Eddystone", NULL);
  /* iBeacon frames never carry a URL: asking for them by name shows them without --all. */
  assert_rows (ibeacon, "--protocol", "ibeacon", NULL);
  assert_rows (both, "--protocol", "eddystone", "--protocol", "uribeacon", NULL);
  assert_rows (both, "--protocol", "eddystone,uribeacon", NULL);
}

static void
test_filter_address (void)
{
  const char *one[] = { EDDYSTONE_FAR, NULL };
  const char *two[] = { EDDYSTONE_FAR, URIBEACON, NULL };
  const char *none[] = { NULL };

  assert_rows (one, "--address", "c0:ff:ee:00:00:04", NULL);
  assert_rows (two, "--address", EDDYSTONE_FAR, "--address", "d4:3a:2c:11:22:33", NULL);
  /* The iBeacon is not listed without --all, whatever its address. */
  assert_rows (none, "--address", IBEACON, NULL);
}

static void
test_filter_url_contains (void)
{
  const char *museum[] = { URIBEACON, NULL };
  const char *example[] = { EDDYSTONE_NEAR, EDDYSTONE_FAR, NULL };

  assert_rows (museum, "--url-contains", "MUSEUM.test", NULL);
  /* A frame without a URL never contains the text, even with --all. */
  assert_rows (example, "--all", "--url-contains", "example", NULL);
}

/* --json prints the same choice, with each line's time as captured. */
static void
test_filter_json (void)
{
  g_autoptr(NearbyTestRun) run = nearby_test_run_nearby (NULL, "scan", "--from", capture_path,
                                                         "--json", "--min-rssi", "-80",
                                                         "--url-contains", "example", NULL);
  g_autoptr(GPtrArray) objects = NULL;
  JsonObject *object;

  g_assert_cmpint (run->status, ==, 0);
  objects = nearby_test_parse_json_lines (run->out);
  g_assert_cmpuint (objects->len, ==, 1);
  object = g_ptr_array_index (objects, 0);
  g_assert_cmpstr (json_object_get_string_member (object, "address"), ==, EDDYSTONE_NEAR);
  g_assert_cmpstr (json_object_get_string_member (object, "url"), ==, "https://example.com");
  g_assert_cmpstr (json_object_get_string_member (object, "time"), ==,
                   "2026-12-03T05:28:22.000Z");
}

/* `nearby scan --json | nearby scan --from - …` */
static void
test_filter_stdin (void)
{
  g_autoptr(NearbyTestRun) run = nearby_test_run_nearby (capture, "scan", "--from", "-",
                                                         "--protocol", "uribeacon", NULL);

  g_assert_cmpint (run->status, ==, 0);
  g_assert_nonnull (strstr (run->out, URIBEACON "  http://museum.test/3\n"));
  g_assert_null (strstr (run->out, EDDYSTONE_NEAR));
}

/* A bad line is told with its file and number; the rest is still shown; the exit status says. */
static void
test_bad_lines (void)
{
  g_autofree char *dir = nearby_test_make_temp_dir ("nearby-scan-filter");
  g_autofree char *path = g_build_filename (dir, "bad.jsonl", NULL);
  g_autofree char *expected = NULL;
  g_autoptr(NearbyTestRun) run = NULL;
  g_autoptr(NearbyTestRun) missing = NULL;
  g_autoptr(GError) error = NULL;
  const char *lines =
    "{\"time\":\"2026-12-03T05:28:22.000Z\",\"address\":\"" EDDYSTONE_NEAR "\",\"rssi\":-60,"
    "\"uuid\":\"feaa\",\"raw\":\"10ec036578616d706c6507\"}\n"
    "{\"time\":\"2026-12-03T05:28:22.100Z\",\"address\":\"" URIBEACON "\",\"rssi\":-77,"
    "\"uuid\":\"fed8\",\"raw\":\"zz\"}\n";

  g_file_set_contents (path, lines, -1, &error);
  g_assert_no_error (error);

  run = nearby_test_run_nearby (NULL, "scan", "--from", path, NULL);
  expected = g_strdup_printf ("nearby scan: %s:2: raw is not hexadecimal\n", path);
  g_assert_cmpint (run->status, ==, 1);
  g_assert_cmpstr (run->err, ==, expected);
  g_assert_nonnull (strstr (run->out, EDDYSTONE_NEAR));

  missing = nearby_test_run_nearby (NULL, "scan", "--from", "/nonexistent/capture.jsonl", NULL);
  g_assert_cmpint (missing->status, ==, 1);
  g_assert_cmpstr (missing->out, ==, "");
  g_assert_nonnull (strstr (missing->err, "/nonexistent/capture.jsonl"));

  nearby_test_remove_tree (dir);
}

/* A btsnoop capture (an Android phone's HCI snoop log) converts to the JSON Lines --json writes,
 * which read back as they came out; its bad record is said with its number. */
static void
test_btsnoop (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "capture-street.btsnoop",
                                                 NULL);
  g_autofree char *expected_err = g_strdup_printf ("nearby scan: %s: record 13: the event says 48 "
                                                   "bytes of parameters, the record holds 2\n",
                                                   path);
  g_autoptr(NearbyTestRun) run = nearby_test_run_nearby (NULL, "scan", "--from", path, "--json",
                                                         NULL);
  g_autoptr(NearbyTestRun) again = NULL;
  g_autoptr(NearbyTestRun) paced = NULL;
  g_autoptr(NearbyTestRun) table = NULL;
  g_autoptr(GPtrArray) objects = NULL;
  JsonObject *object;

  g_assert_cmpint (run->status, ==, 1);
  g_assert_cmpstr (run->err, ==, expected_err);
  objects = nearby_test_parse_json_lines (run->out);
  /* Four rounds of the three beacons with a URL (the iBeacon and the TLM frames need --all). */
  g_assert_cmpuint (objects->len, ==, 12);
  object = g_ptr_array_index (objects, 0);
  g_assert_cmpstr (json_object_get_string_member (object, "time"), ==, "2026-05-04T12:00:00.005Z");
  g_assert_cmpstr (json_object_get_string_member (object, "address"), ==, "C0:FF:EE:00:00:01");
  g_assert_cmpint (json_object_get_int_member (object, "rssi"), ==, -58);
  g_assert_cmpstr (json_object_get_string_member (object, "uuid"), ==, "feaa");
  g_assert_cmpstr (json_object_get_string_member (object, "raw"), ==,
                   "10ec036578616d706c65006d757365756d");
  g_assert_cmpstr (json_object_get_string_member (object, "url"), ==,
                   "https://example.com/museum");
  object = g_ptr_array_index (objects, 2);
  g_assert_cmpstr (json_object_get_string_member (object, "address"), ==, "5A:3B:00:00:00:02");
  g_assert_cmpstr (json_object_get_string_member (object, "url"), ==,
                   "https://example.org/bus/12");

  /* The conversion is a capture of Nearby's own. */
  again = nearby_test_run_nearby (run->out, "scan", "--from", "-", "--json", NULL);
  g_assert_cmpint (again->status, ==, 0);
  g_assert_cmpstr (again->out, ==, run->out);

  /* At ten times its pace it shows the same. */
  paced = nearby_test_run_nearby (NULL, "scan", "--from", path, "--json", "--speed", "10", NULL);
  g_assert_cmpstr (paced->out, ==, run->out);

  /* --all shows the iBeacon and the museum's telemetry too, and every device heard. */
  table = nearby_test_run_nearby (NULL, "scan", "--from", path, "--all", NULL);
  g_assert_nonnull (strstr (table->out, "D4:00:00:00:00:04  iBeacon f7826da64fa24e988024bc5b71e0893e 100/7"));
  g_assert_nonnull (strstr (table->out, "C0:FF:EE:00:00:01  Eddystone-TLM 2950 mV"));
  g_assert_nonnull (strstr (table->out, "    ?    -88     0s  E8:00:00:00:00:07  no beacon\n"));
  g_assert_nonnull (strstr (table->out, "1F:00:00:00:00:06  no beacon: company 0x0075, services "
                                        "180d\n"));
}

/* `nearby scan --all --json` over a btsnoop capture lists every advertising report: a device
 * that is no beacon with "protocol": null, its address type, AD structures, company and service
 * UUIDs. Read back, such lines are passed over. */
static void
test_btsnoop_all (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "capture-street.btsnoop",
                                                 NULL);
  g_autoptr(NearbyTestRun) run = nearby_test_run_nearby (NULL, "scan", "--from", path, "--json",
                                                         "--all", "--address",
                                                         "1f:00:00:00:00:06", NULL);
  g_autoptr(NearbyTestRun) all = nearby_test_run_nearby (NULL, "scan", "--from", path, "--json",
                                                         "--all", NULL);
  g_autoptr(NearbyTestRun) again = NULL;
  g_autoptr(NearbyTestRun) beacons_only = NULL;
  g_autoptr(GPtrArray) objects = NULL;
  JsonObject *object;
  JsonArray *ad;
  JsonArray *uuids;

  g_assert_cmpint (run->status, ==, 1);
  objects = nearby_test_parse_json_lines (run->out);
  g_assert_cmpuint (objects->len, ==, 4);
  object = g_ptr_array_index (objects, 0);
  g_assert_cmpstr (json_object_get_string_member (object, "time"), ==, "2026-05-04T12:00:00.045Z");
  g_assert_cmpstr (json_object_get_string_member (object, "address"), ==, "1F:00:00:00:00:06");
  g_assert_cmpstr (json_object_get_string_member (object, "address_type"), ==, "non-resolvable");
  /* The watch's RSSI is 127, "not available". */
  g_assert_true (json_object_get_null_member (object, "rssi"));
  g_assert_true (json_object_get_null_member (object, "protocol"));
  g_assert_cmpstr (json_object_get_string_member (object, "raw"), ==, "03030d1806ff7500010203");
  ad = json_object_get_array_member (object, "ad");
  g_assert_cmpuint (json_array_get_length (ad), ==, 2);
  g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (ad, 1), "type"), ==,
                   0xff);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (ad, 1), "data"),
                   ==, "7500010203");
  g_assert_cmpint (json_object_get_int_member (object, "company_id"), ==, 0x0075);
  uuids = json_object_get_array_member (object, "service_uuids");
  g_assert_cmpuint (json_array_get_length (uuids), ==, 1);
  g_assert_cmpstr (json_array_get_string_element (uuids, 0), ==, "180d");

  /* 20 beacon frames, 12 adverts of the phone, watch and lamp, one directed advert. */
  g_clear_pointer (&objects, g_ptr_array_unref);
  objects = nearby_test_parse_json_lines (all->out);
  g_assert_cmpuint (objects->len, ==, 33);

  /* Read back, the beacons are all there, and the rest passed over without a complaint. */
  again = nearby_test_run_nearby (all->out, "scan", "--from", "-", "--json", "--all", NULL);
  beacons_only = nearby_test_run_nearby (NULL, "scan", "--from", path, "--json", "--all",
                                         "--protocol", "eddystone,uribeacon,ibeacon", NULL);
  g_assert_cmpint (again->status, ==, 0);
  g_assert_cmpstr (again->err, ==, "");
  g_assert_cmpstr (again->out, ==, beacons_only->out);
}

/* A value that is not one gets an error naming the option, and nothing is shown. */
static void
test_usage_errors (void)
{
  struct {
    const char *option;
    const char *value;
    const char *message;
  } cases[] = {
    { "--min-rssi", "abc", "nearby scan: --min-rssi takes a signal strength in dBm" },
    { "--min-rssi", "-200", "nearby scan: --min-rssi takes a signal strength in dBm" },
    { "--min-rssi", "-70dBm", "nearby scan: --min-rssi takes a signal strength in dBm" },
    { "--protocol", "foo", "nearby scan: --protocol takes eddystone, uribeacon or ibeacon, not “foo”" },
    { "--protocol", "eddystone,", "nearby scan: --protocol takes eddystone, uribeacon or ibeacon" },
    { "--address", "C0:FF:EE:00:00", "nearby scan: --address takes a Bluetooth address" },
    { "--address", "C0-FF-EE-00-00-01", "nearby scan: --address takes a Bluetooth address" },
    { "--address", "G0:FF:EE:00:00:01", "nearby scan: --address takes a Bluetooth address" },
    { "--url-contains", "", "nearby scan: --url-contains takes some text" },
    { "--speed", "-1", "nearby scan: --speed must be 0 (as fast as possible) or more" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(NearbyTestRun) run = nearby_test_run_nearby (NULL, "scan", "--from", capture_path,
                                                             cases[i].option, cases[i].value,
                                                             NULL);

      g_test_message ("%s %s: %s", cases[i].option, cases[i].value, run->err);
      g_assert_cmpint (run->status, ==, 2);
      g_assert_cmpstr (run->out, ==, "");
      g_assert_true (g_str_has_prefix (run->err, cases[i].message));
    }

  /* Pace is for a capture. */
  {
    g_autoptr(NearbyTestRun) run = nearby_test_run_nearby (NULL, "scan", "--speed", "2", NULL);

    g_assert_cmpint (run->status, ==, 2);
    g_assert_true (g_str_has_prefix (run->err, "nearby scan: --speed goes with --from"));
  }

  /* A capture is not a scan. */
  {
    g_autoptr(NearbyTestRun) run = nearby_test_run_nearby (NULL, "scan", "--from", capture_path,
                                                           "--adapter", "hci0", NULL);

    g_assert_cmpint (run->status, ==, 2);
    g_assert_nonnull (strstr (run->err, "--from"));
  }
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *dir = NULL;
  g_autoptr(GError) error = NULL;
  int status;

  g_test_init (&argc, &argv, NULL);

  dir = nearby_test_make_temp_dir ("nearby-scan-filter");
  capture_path = g_build_filename (dir, "capture.jsonl", NULL);
  g_file_set_contents (capture_path, capture, -1, &error);
  g_assert_no_error (error);

  g_test_add_func ("/cli/scan-filter/none", test_filter_none);
  g_test_add_func ("/cli/scan-filter/min-rssi", test_filter_min_rssi);
  g_test_add_func ("/cli/scan-filter/protocol", test_filter_protocol);
  g_test_add_func ("/cli/scan-filter/address", test_filter_address);
  g_test_add_func ("/cli/scan-filter/url-contains", test_filter_url_contains);
  g_test_add_func ("/cli/scan-filter/json", test_filter_json);
  g_test_add_func ("/cli/scan-filter/stdin", test_filter_stdin);
  g_test_add_func ("/cli/scan-filter/bad-lines", test_bad_lines);
  g_test_add_func ("/cli/scan-filter/btsnoop", test_btsnoop);
  g_test_add_func ("/cli/scan-filter/btsnoop-all", test_btsnoop_all);
  g_test_add_func ("/cli/scan-filter/usage-errors", test_usage_errors);

  status = g_test_run ();

  nearby_test_remove_tree (dir);
  g_clear_pointer (&capture_path, g_free);

  return status;
}
