/* test-cli-decode.c: `nearby decode` and `nearby encode` as a developer runs them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <gio/gio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "nearby-test-utils.h"

typedef struct {
  int        status;
  char      *out;
  char      *err;
  GPtrArray *objects;  /* JsonObject*, one per line of standard output */
} Run;

static void
run_free (Run *run)
{
  g_free (run->out);
  g_free (run->err);
  g_ptr_array_unref (run->objects);
  g_free (run);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Run, run_free)

/* Runs `nearby ARGS…` with @input on standard input; parses each output line as JSON when
 * @json is set. */
static Run *
run_nearby (const char *input,
            gboolean    json,
            ...)
{
  g_autoptr(GPtrArray) args = g_ptr_array_new ();
  g_autoptr(NearbyTestRun) process = NULL;
  Run *run = g_new0 (Run, 1);
  const char *arg;
  va_list list;

  va_start (list, json);
  while ((arg = va_arg (list, const char *)) != NULL)
    g_ptr_array_add (args, (char *) arg);
  va_end (list);
  g_ptr_array_add (args, NULL);

  process = nearby_test_run_nearbyv (input, (const char **) args->pdata);
  run->status = process->status;
  run->out = g_steal_pointer (&process->out);
  run->err = g_steal_pointer (&process->err);
  run->objects = json ? nearby_test_parse_json_lines (run->out)
                      : g_ptr_array_new_with_free_func ((GDestroyNotify) json_object_unref);

  return run;
}

static JsonObject *
object_at (Run   *run,
           guint  index)
{
  g_assert_cmpuint (index, <, run->objects->len);
  return g_ptr_array_index (run->objects, index);
}

static const char *
string_member (JsonObject *object,
               const char *name)
{
  g_assert_true (json_object_has_member (object, name));
  if (json_object_get_null_member (object, name))
    return NULL;
  return json_object_get_string_member (object, name);
}

/* A btmon-style Eddystone-URL advertisement, with the README's example URL. */
#define GOO_GL_PAYLOAD "02 01 06 03 03 aa fe 13 16 aa fe 10 ee 03 67 6f 6f 2e 67 6c 2f 41 71 31 38 7a 46"

static void
test_decode_url (void)
{
  g_autoptr(Run) run = run_nearby (NULL, TRUE, "decode", GOO_GL_PAYLOAD, NULL);
  JsonObject *object;

  g_assert_cmpint (run->status, ==, 0);
  g_assert_cmpuint (run->objects->len, ==, 1);
  object = object_at (run, 0);
  g_assert_cmpstr (string_member (object, "input"), ==, GOO_GL_PAYLOAD);
  g_assert_true (json_object_get_boolean_member (object, "valid"));
  g_assert_cmpstr (string_member (object, "protocol"), ==, "eddystone");
  g_assert_cmpstr (string_member (object, "frame"), ==, "url");
  g_assert_cmpstr (string_member (object, "url"), ==, "https://goo.gl/Aq18zF");
  g_assert_cmpint (json_object_get_int_member (object, "tx_power"), ==, -18);
}

/* The same bytes as hcidump (colons), nRF Connect (0x prefix) or with dashes decode the same;
 * unquoted "02 01 06 …" (one byte per argument) is one payload. */
static void
test_decode_separators (void)
{
  static const char *const forms[] = {
    "02:01:06:03:03:aa:fe:13:16:aa:fe:10:ee:03:67:6f:6f:2e:67:6c:2f:41:71:31:38:7a:46",
    "0x0201060303AAFE1316AAFE10EE03676F6F2E676C2F417131387A46",
    "02-01-06-03-03-aa-fe-13-16-aa-fe-10-ee-03-67-6f-6f-2e-67-6c-2f-41-71-31-38-7a-46",
  };

  for (guint i = 0; i < G_N_ELEMENTS (forms); i++)
    {
      g_autoptr(Run) run = run_nearby (NULL, TRUE, "decode", forms[i], NULL);

      g_assert_cmpint (run->status, ==, 0);
      g_assert_cmpuint (run->objects->len, ==, 1);
      g_assert_cmpstr (string_member (object_at (run, 0), "url"), ==, "https://goo.gl/Aq18zF");
    }

  {
    g_autoptr(Run) run = run_nearby (NULL, TRUE, "decode", "02", "01", "06", "03", "03", "aa", "fe", "0a",
                                     "16", "aa", "fe", "10", "ee", "03", "61", "62", "63", "07", NULL);

    g_assert_cmpint (run->status, ==, 0);
    g_assert_cmpuint (run->objects->len, ==, 1);
    g_assert_cmpstr (string_member (object_at (run, 0), "url"), ==, "https://abc.com");
  }
}

/* A URL frame and a TLM frame in one advertisement + scan response: two objects. */
static void
test_decode_multi_frame (void)
{
  g_autoptr(Run) run = run_nearby (NULL, TRUE, "decode",
                                   "0201060303aafe0a16aafe10ec0361626307 1116aafe20000bb8178000001000000027 10",
                                   NULL);
  JsonObject *tlm;

  g_assert_cmpint (run->status, ==, 0);
  g_assert_cmpuint (run->objects->len, ==, 2);
  g_assert_cmpstr (string_member (object_at (run, 0), "url"), ==, "https://abc.com");
  tlm = object_at (run, 1);
  g_assert_cmpstr (string_member (tlm, "frame"), ==, "tlm");
  g_assert_cmpint (json_object_get_int_member (tlm, "battery_mv"), ==, 3000);
  g_assert_cmpfloat (json_object_get_double_member (tlm, "temperature_c"), ==, 23.5);
  g_assert_cmpint (json_object_get_int_member (tlm, "adv_count"), ==, 4096);
  g_assert_cmpfloat (json_object_get_double_member (tlm, "uptime_s"), ==, 1000.0);
  g_assert_true (json_object_get_null_member (tlm, "url"));
}

static void
test_decode_service_data (void)
{
  g_autoptr(Run) uid = run_nearby (NULL, TRUE, "decode", "--service-data", "feaa",
                                   "00e78b0ca750095477cb3e770102030405060000", NULL);
  g_autoptr(Run) uri = run_nearby (NULL, TRUE, "decode", "--service-data", "0xFED8",
                                   "01 14 02 313233 07", NULL);
  g_autoptr(Run) bluez = run_nearby (NULL, TRUE, "decode",
                                     "--service-data=0000feaa-0000-1000-8000-00805f9b34fb",
                                     "30f6a1b2c3d4e5f60718", NULL);

  g_assert_cmpint (uid->status, ==, 0);
  g_assert_cmpstr (string_member (object_at (uid, 0), "namespace"), ==, "8b0ca750095477cb3e77");
  g_assert_cmpstr (string_member (object_at (uid, 0), "instance"), ==, "010203040506");

  g_assert_cmpint (uri->status, ==, 0);
  g_assert_cmpstr (string_member (object_at (uri, 0), "protocol"), ==, "uribeacon");
  g_assert_cmpstr (string_member (object_at (uri, 0), "url"), ==, "http://123.com");
  g_assert_true (json_object_get_boolean_member (object_at (uri, 0), "invisible"));

  g_assert_cmpint (bluez->status, ==, 0);
  g_assert_cmpstr (string_member (object_at (bluez, 0), "frame"), ==, "eid");
}

/* Invalid input: exit 1, and each object says what is wrong in a sentence and a code. */
static void
test_decode_invalid (void)
{
  g_autoptr(Run) run = run_nearby (NULL, TRUE, "decode", "--service-data", "feaa",
                                   "10ee03616263 1f", "10ee03616263", NULL);
  JsonObject *bad;

  g_assert_cmpint (run->status, ==, 1);
  g_assert_cmpuint (run->objects->len, ==, 2);
  bad = object_at (run, 0);
  g_assert_false (json_object_get_boolean_member (bad, "valid"));
  g_assert_cmpstr (string_member (bad, "error_code"), ==, "reserved-byte");
  g_assert_nonnull (strstr (string_member (bad, "error"), "Byte 6 of the URL frame is 0x1F"));
  g_assert_true (json_object_get_null_member (bad, "url"));
  g_assert_true (json_object_get_boolean_member (object_at (run, 1), "valid"));
}

static void
test_decode_not_a_beacon (void)
{
  g_autoptr(Run) run = run_nearby (NULL, TRUE, "decode", "020106 0a095065646f6d65746572", NULL);

  g_assert_cmpint (run->status, ==, 1);
  g_assert_cmpuint (run->objects->len, ==, 1);
  g_assert_cmpstr (string_member (object_at (run, 0), "error_code"), ==, "not-a-beacon");
}

/* A capture piped in: one payload per line, blank lines and comments skipped; a line that is
 * not hex is reported and the rest still decoded. */
static void
test_decode_stdin (void)
{
  g_autoptr(Run) run = run_nearby ("# capture\n"
                                   GOO_GL_PAYLOAD "\n"
                                   "\n"
                                   "not hex at all\n"
                                   "\xff\xfe binary junk\n"
                                   "0201061aff4c000215e2c56db5dffb48d2b060d0f5a71096e000010002c5\r\n",
                                   TRUE, "decode", NULL);
  JsonObject *ibeacon;

  g_assert_cmpint (run->status, ==, 1);
  g_assert_cmpuint (run->objects->len, ==, 4);
  g_assert_cmpstr (string_member (object_at (run, 0), "url"), ==, "https://goo.gl/Aq18zF");
  g_assert_cmpstr (string_member (object_at (run, 1), "error_code"), ==, "not-hex");
  g_assert_cmpstr (string_member (object_at (run, 2), "error_code"), ==, "not-hex");
  ibeacon = object_at (run, 3);
  g_assert_cmpstr (string_member (ibeacon, "protocol"), ==, "ibeacon");
  g_assert_cmpstr (string_member (ibeacon, "uuid"), ==, "e2c56db5-dffb-48d2-b060-d0f5a71096e0");
  g_assert_cmpint (json_object_get_int_member (ibeacon, "major"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (ibeacon, "tx_power"), ==, -59);
}

static void
test_decode_stdin_all_valid (void)
{
  g_autoptr(Run) run = run_nearby (GOO_GL_PAYLOAD "\n" GOO_GL_PAYLOAD, TRUE, "decode", NULL);

  g_assert_cmpint (run->status, ==, 0);
  g_assert_cmpuint (run->objects->len, ==, 2);
}

static void
test_decode_pretty (void)
{
  g_autoptr(Run) run = run_nearby (NULL, FALSE, "decode", "--pretty", GOO_GL_PAYLOAD, NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (run->status, ==, 0);
  g_assert_nonnull (strstr (run->out, "\n  \"url\" : \"https://goo.gl/Aq18zF\""));
  json_parser_load_from_data (parser, run->out, -1, &error);
  g_assert_no_error (error);
}

static void
test_decode_usage_errors (void)
{
  g_autoptr(Run) not_hex = run_nearby (NULL, TRUE, "decode", GOO_GL_PAYLOAD, "10zz", NULL);
  g_autoptr(Run) odd = run_nearby (NULL, TRUE, "decode", "0201060", NULL);
  g_autoptr(Run) bad_uuid = run_nearby (NULL, TRUE, "decode", "--service-data", "180f", "00", NULL);
  g_autoptr(Run) bad_option = run_nearby (NULL, TRUE, "decode", "--frobnicate", NULL);

  /* A typo in any argument stops everything before any output. */
  g_assert_cmpint (not_hex->status, ==, 2);
  g_assert_cmpstr (not_hex->out, ==, "");
  g_assert_nonnull (strstr (not_hex->err, "“10zz” is not hexadecimal: unexpected “z” at position 3"));
  g_assert_nonnull (strstr (not_hex->err, "Usage:"));

  g_assert_cmpint (odd->status, ==, 2);
  g_assert_nonnull (strstr (odd->err, "lone hex digit"));

  g_assert_cmpint (bad_uuid->status, ==, 2);
  g_assert_nonnull (strstr (bad_uuid->err, "--service-data must be feaa (Eddystone) or fed8 (UriBeacon)"));

  g_assert_cmpint (bad_option->status, ==, 2);
}

static void
test_encode (void)
{
  g_autoptr(Run) run = run_nearby (NULL, FALSE, "encode", "--tx-power", "-18", "https://goo.gl/Aq18zF", NULL);

  g_assert_cmpint (run->status, ==, 0);
  g_assert_nonnull (strstr (run->out, "Eddystone-URL service data (0xfeaa), 16 bytes: "
                                      "10 ee 03 67 6f 6f 2e 67 6c 2f 41 71 31 38 7a 46\n"));
  g_assert_nonnull (strstr (run->out, "UriBeacon service data (0xfed8), 16 bytes: 00 ee 03 67"));
  g_assert_nonnull (strstr (run->out, "menu advertise\nuuids 0xfeaa\n"
                                      "service 0xfeaa 0x10 0xee 0x03 0x67 0x6f 0x6f 0x2e 0x67 0x6c 0x2f "
                                      "0x41 0x71 0x31 0x38 0x7a 0x46\nback\nadvertise broadcast\n"));
}

/* What encode prints, decode reads back. */
static void
test_encode_then_decode (void)
{
  g_autoptr(Run) encoded = run_nearby (NULL, TRUE, "encode", "--json", "--invisible", "--tx-power", "4",
                                       "https://www.example.org/menu", NULL);
  JsonObject *object = object_at (encoded, 0);
  const char *eddystone = string_member (json_object_get_object_member (object, "eddystone"), "service_data");
  const char *uribeacon = string_member (json_object_get_object_member (object, "uribeacon"), "service_data");
  g_autoptr(Run) eddystone_run = run_nearby (NULL, TRUE, "decode", "-s", "feaa", eddystone, NULL);
  g_autoptr(Run) uribeacon_run = run_nearby (NULL, TRUE, "decode", "-s", "fed8", uribeacon, NULL);

  g_assert_cmpint (encoded->status, ==, 0);
  g_assert_cmpstr (eddystone, ==, "1004016578616d706c65016d656e75");
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (object, "eddystone"), "length"),
                   ==, 15);
  g_assert_cmpstr (string_member (object_at (eddystone_run, 0), "url"), ==, "https://www.example.org/menu");
  g_assert_cmpint (json_object_get_int_member (object_at (eddystone_run, 0), "tx_power"), ==, 4);
  g_assert_cmpstr (string_member (object_at (uribeacon_run, 0), "url"), ==, "https://www.example.org/menu");
  g_assert_true (json_object_get_boolean_member (object_at (uribeacon_run, 0), "invisible"));
}

static void
test_encode_too_long (void)
{
  g_autoptr(Run) run = run_nearby (NULL, FALSE, "encode", "https://example.com/a-rather-long-path", NULL);
  g_autoptr(Run) json = run_nearby (NULL, TRUE, "encode", "--json", "http://www.abcdefghijklmnopq.org", NULL);
  JsonObject *eddystone;

  g_assert_cmpint (run->status, ==, 1);
  g_assert_nonnull (strstr (run->err, "9 more than the 18 a frame carries: use a URL shortener"));
  /* A failure says so on stderr only, once. */
  g_assert_cmpstr (run->out, ==, "");
  g_assert_null (strstr (strstr (run->err, "use a URL shortener") + 1, "use a URL shortener"));

  g_assert_cmpint (json->status, ==, 1);
  eddystone = json_object_get_object_member (object_at (json, 0), "eddystone");
  g_assert_cmpstr (string_member (eddystone, "error_code"), ==, "url-too-long");
  g_assert_cmpint (json_object_get_int_member (eddystone, "excess"), ==, 1);
}

static void
test_encode_errors (void)
{
  g_autoptr(Run) space = run_nearby (NULL, FALSE, "encode", "https://exa mple.com", NULL);
  g_autoptr(Run) tx = run_nearby (NULL, FALSE, "encode", "--tx-power", "30", "https://a.org", NULL);
  g_autoptr(Run) none = run_nearby (NULL, FALSE, "encode", NULL);
  g_autoptr(Run) urn = run_nearby (NULL, FALSE, "encode", "urn:uuid:B1E13D51-5FC9-4D5B-902B-AB668DD54981", NULL);

  g_assert_cmpint (space->status, ==, 1);
  g_assert_nonnull (strstr (space->err, "Character 12 of the URL is byte 0x20"));
  g_assert_cmpint (tx->status, ==, 2);
  g_assert_nonnull (strstr (tx->err, "--tx-power must be between -100 and 20 dBm"));
  g_assert_cmpint (none->status, ==, 2);

  /* Only UriBeacon carries urn:uuid:, so the bluetoothctl lines use 0xfed8. */
  g_assert_cmpint (urn->status, ==, 0);
  g_assert_nonnull (strstr (urn->out, "uuids 0xfed8\nservice 0xfed8 0x00 0xec 0x04 0xb1 0xe1"));
  /* Why there is no Eddystone-URL frame is a failure: stderr, not among the results. */
  g_assert_null (strstr (urn->out, "Eddystone-URL"));
  g_assert_nonnull (strstr (urn->err, "nearby encode: Eddystone-URL: The URL must start with http://"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cli/decode/url", test_decode_url);
  g_test_add_func ("/cli/decode/separators", test_decode_separators);
  g_test_add_func ("/cli/decode/multi-frame", test_decode_multi_frame);
  g_test_add_func ("/cli/decode/service-data", test_decode_service_data);
  g_test_add_func ("/cli/decode/invalid", test_decode_invalid);
  g_test_add_func ("/cli/decode/not-a-beacon", test_decode_not_a_beacon);
  g_test_add_func ("/cli/decode/stdin", test_decode_stdin);
  g_test_add_func ("/cli/decode/stdin-all-valid", test_decode_stdin_all_valid);
  g_test_add_func ("/cli/decode/pretty", test_decode_pretty);
  g_test_add_func ("/cli/decode/usage-errors", test_decode_usage_errors);
  g_test_add_func ("/cli/encode/text", test_encode);
  g_test_add_func ("/cli/encode/then-decode", test_encode_then_decode);
  g_test_add_func ("/cli/encode/too-long", test_encode_too_long);
  g_test_add_func ("/cli/encode/errors", test_encode_errors);

  return g_test_run ();
}
