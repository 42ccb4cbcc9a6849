/* test-frame-json.c: frames as `nearby decode` and `nearby scan --json` print them
 *
 * Scripts read these members; the ones every frame has (tx_power, url) must be there even when
 * unknown, and the others only where they mean something.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "nearby-frame-json.h"

/* The members of @frame, as one JSON object. */
static JsonObject *
frame_as_json (const NearbyFrame *frame)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;

  json_builder_begin_object (builder);
  nearby_frame_add_json_members (frame, builder);
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);

  return json_object_ref (json_node_get_object (root));
}

static JsonObject *
decode_as_json (guint16       uuid16,
                const guint8 *data,
                gsize         len)
{
  NearbyFrame frame;

  nearby_frame_decode_service_data (uuid16, data, len, &frame);
  return frame_as_json (&frame);
}

static gboolean
member_is_null (JsonObject *object,
                const char *name)
{
  g_assert_true (json_object_has_member (object, name));
  return json_object_get_null_member (object, name);
}

/* The README's example beacon: an Eddystone-URL frame. */
static void
test_url (void)
{
  static const guint8 data[] = { 0x10, 0xee, 0x03, 'g', 'o', 'o', '.', 'g', 'l', '/',
                                 'A', 'q', '1', '8', 'z', 'F' };
  g_autoptr(JsonObject) object = decode_as_json (NEARBY_UUID16_EDDYSTONE, data, sizeof data);

  g_assert_true (json_object_get_boolean_member (object, "valid"));
  g_assert_cmpstr (json_object_get_string_member (object, "protocol"), ==, "eddystone");
  g_assert_cmpstr (json_object_get_string_member (object, "frame"), ==, "url");
  g_assert_cmpint (json_object_get_int_member (object, "tx_power"), ==, -18);
  g_assert_cmpstr (json_object_get_string_member (object, "url"), ==, "https://goo.gl/Aq18zF");
  g_assert_false (json_object_has_member (object, "error"));
  /* Only UriBeacon has flags. */
  g_assert_false (json_object_has_member (object, "invisible"));
}

/* A UriBeacon that asks not to be listed says so. */
static void
test_uribeacon_invisible (void)
{
  static const guint8 data[] = { 0x01, 0xf4, 0x00, 'g', 'n', 'o', 'm', 'e', 0x01 };
  g_autoptr(JsonObject) object = decode_as_json (NEARBY_UUID16_URIBEACON, data, sizeof data);

  g_assert_cmpstr (json_object_get_string_member (object, "protocol"), ==, "uribeacon");
  g_assert_cmpstr (json_object_get_string_member (object, "url"), ==, "http://www.gnome.org/");
  g_assert_true (json_object_get_boolean_member (object, "invisible"));
  g_assert_cmpint (json_object_get_int_member (object, "flags"), ==, 1);
}

/* A frame without a URL still has "url" (null) and "tx_power", and its own members. */
static void
test_uid_and_tlm (void)
{
  static const guint8 uid[] = { 0x00, 0xe7, 0x4e, 0x45, 0x41, 0x52, 0x42, 0x59, 0x44, 0x45,
                                0x4d, 0x4f, 0x00, 0x00, 0x00, 0x00, 0x00, 0x2a, 0x00, 0x00 };
  static const guint8 tlm[] = { 0x20, 0x00, 0x0b, 0xb8, 0x17, 0x80, 0x00, 0x00, 0x10, 0x00,
                                0x00, 0x00, 0x27, 0x10 };
  g_autoptr(JsonObject) uid_object = decode_as_json (NEARBY_UUID16_EDDYSTONE, uid, sizeof uid);
  g_autoptr(JsonObject) tlm_object = decode_as_json (NEARBY_UUID16_EDDYSTONE, tlm, sizeof tlm);

  g_assert_cmpstr (json_object_get_string_member (uid_object, "frame"), ==, "uid");
  g_assert_true (member_is_null (uid_object, "url"));
  g_assert_cmpint (json_object_get_int_member (uid_object, "tx_power"), ==, -25);
  g_assert_cmpstr (json_object_get_string_member (uid_object, "namespace"), ==,
                   "4e454152425944454d4f");
  g_assert_cmpstr (json_object_get_string_member (uid_object, "instance"), ==, "00000000002a");

  g_assert_cmpstr (json_object_get_string_member (tlm_object, "frame"), ==, "tlm");
  g_assert_true (member_is_null (tlm_object, "url"));
  g_assert_true (member_is_null (tlm_object, "tx_power"));
  g_assert_cmpint (json_object_get_int_member (tlm_object, "battery_mv"), ==, 3000);
  g_assert_cmpfloat (json_object_get_double_member (tlm_object, "temperature_c"), ==, 23.5);
  g_assert_cmpint (json_object_get_int_member (tlm_object, "adv_count"), ==, 4096);
  g_assert_cmpfloat (json_object_get_double_member (tlm_object, "uptime_s"), ==, 1000.0);
  g_assert_false (json_object_has_member (tlm_object, "namespace"));
}

/* A rejected frame says why, in a sentence and as a stable code; what could be read stays. */
static void
test_invalid (void)
{
  static const guint8 data[] = { 0x10, 0xee, 0x03, 'a', 'b', 'c', 0x1f };
  g_autoptr(JsonObject) object = decode_as_json (NEARBY_UUID16_EDDYSTONE, data, sizeof data);

  g_assert_false (json_object_get_boolean_member (object, "valid"));
  g_assert_cmpstr (json_object_get_string_member (object, "frame"), ==, "url");
  g_assert_true (member_is_null (object, "url"));
  g_assert_cmpstr (json_object_get_string_member (object, "error_code"), ==, "reserved-byte");
  g_assert_nonnull (strstr (json_object_get_string_member (object, "error"), "0x1F"));
}

/* Bytes that are no beacon at all: null where there is nothing to say. */
static void
test_not_a_beacon (void)
{
  static const guint8 data[] = { 0x42 };
  g_autoptr(JsonObject) object = decode_as_json (0x180f, data, sizeof data);

  g_assert_false (json_object_get_boolean_member (object, "valid"));
  g_assert_true (member_is_null (object, "protocol"));
  g_assert_true (member_is_null (object, "frame"));
  g_assert_true (member_is_null (object, "tx_power"));
  g_assert_true (member_is_null (object, "url"));
  g_assert_cmpstr (json_object_get_string_member (object, "error_code"), ==, "not-a-beacon");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/frame-json/url", test_url);
  g_test_add_func ("/frame-json/uribeacon-invisible", test_uribeacon_invisible);
  g_test_add_func ("/frame-json/uid-and-tlm", test_uid_and_tlm);
  g_test_add_func ("/frame-json/invalid", test_invalid);
  g_test_add_func ("/frame-json/not-a-beacon", test_not_a_beacon);

  return g_test_run ();
}
