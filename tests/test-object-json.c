/* test-object-json.c: an object as the inspector's "Copy as JSON" gives it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <json-glib/json-glib.h>
#include <string.h>

#include "nearby-object-json.h"
#include "nearby-object-list.h"
#include "nearby-test-utils.h"

static NearbyTestClock test_clock;

static const guint8 url_bytes[] = { 0x10, 0xee, 0x03, 'b', 'u', 's', 0x07 };

static void
hear (NearbyObjectList *list,
      const char       *address,
      gboolean          tlm)
{
  g_autoptr(NearbySighting) sighting = NULL;
  NearbyFrame frame = { 0 };

  frame.protocol = NEARBY_PROTOCOL_EDDYSTONE;
  frame.service_uuid = NEARBY_UUID16_EDDYSTONE;
  if (tlm)
    {
      frame.kind = NEARBY_FRAME_KIND_TLM;
      frame.battery_mv = 3000;
      frame.adv_count = 42;
      sighting = nearby_sighting_new (address, test_clock.now_us, -70, &frame, NULL, 0);
    }
  else
    {
      frame = nearby_test_url_frame ("https://bus.example/", -18);
      sighting = nearby_sighting_new (address, test_clock.now_us, -70, &frame,
                                      url_bytes, sizeof url_bytes);
    }
  nearby_object_list_add_sighting (list, sighting);
}

static NearbyObjectList *
new_list (void)
{
  NearbyObjectList *list = nearby_object_list_new (NULL);

  test_clock.now_us = 1000 * NEARBY_TEST_SECOND;
  nearby_object_list_set_clock (list, nearby_test_clock_now, &test_clock);
  return list;
}

static JsonObject *
parse (JsonParser   *parser,
       NearbyObject *object,
       gboolean      pretty)
{
  g_autofree char *json = nearby_object_to_json (object, pretty);
  g_autoptr(GError) error = NULL;

  g_assert_true (json_parser_load_from_data (parser, json, -1, &error));
  g_assert_no_error (error);
  return json_node_get_object (json_parser_get_root (parser));
}

/* Every frame of every address, with the bytes it came from. */
static void
test_frames_of_every_device (void)
{
  g_autoptr(NearbyObjectList) list = new_list ();
  g_autoptr(JsonParser) parser = json_parser_new ();
  NearbyObject *object;
  JsonObject *root, *device, *frame;
  JsonArray *devices, *frames;

  hear (list, "C0:FF:EE:00:00:01", FALSE);
  hear (list, "C0:FF:EE:00:00:01", TRUE);
  nearby_object_list_flush (list);
  object = nearby_object_list_get_object_by_key (list, "https://bus.example/");
  g_assert_nonnull (object);

  root = parse (parser, object, TRUE);
  g_assert_cmpstr (json_object_get_string_member (root, "url"), ==, "https://bus.example/");
  g_assert_cmpint (json_object_get_int_member (root, "tx_power"), ==, -18);
  g_assert_true (json_object_get_null_member (root, "title"));
  g_assert_cmpstr (json_object_get_string_member (root, "first_seen"), ==, "1970-01-01T00:16:40Z");
  g_assert_false (json_object_get_boolean_member (root, "stale"));
  devices = json_object_get_array_member (root, "devices");
  g_assert_cmpuint (json_array_get_length (devices), ==, 1);
  device = json_array_get_object_element (devices, 0);
  g_assert_cmpstr (json_object_get_string_member (device, "address"), ==, "C0:FF:EE:00:00:01");
  frames = json_object_get_array_member (device, "frames");
  g_assert_cmpuint (json_array_get_length (frames), ==, 2);

  frame = json_array_get_object_element (frames, 0);
  g_assert_cmpstr (json_object_get_string_member (frame, "frame"), ==, "url");
  g_assert_cmpstr (json_object_get_string_member (frame, "raw"), ==, "10ee03627573" "07");
  frame = json_array_get_object_element (frames, 1);
  g_assert_cmpstr (json_object_get_string_member (frame, "frame"), ==, "tlm");
  g_assert_cmpint (json_object_get_int_member (frame, "battery_mv"), ==, 3000);
  /* The demo and old captures give no bytes: null, not an empty string. */
  g_assert_true (json_object_get_null_member (frame, "raw"));
  g_assert_true (json_object_get_null_member (root, "page"));
}

/* Once resolved, what the resolver found comes along, redirects included. */
static void
test_page (void)
{
  g_autoptr(NearbyObjectList) list = new_list ();
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(NearbyPage) page = nearby_page_new ("https://bus.example/");
  g_autofree char *json = NULL;
  NearbyObject *object;
  JsonObject *page_object;

  hear (list, "C0:FF:EE:00:00:01", FALSE);
  nearby_object_list_flush (list);
  object = nearby_object_list_get_object_by_key (list, "https://bus.example/");

  nearby_page_add_redirect (page, "https://bus.example/", 301);
  page->final_url = g_strdup ("https://bus.example/stop/42");
  page->status = 200;
  page->title = g_strdup ("Stop 42");
  nearby_object_set_page (object, page);

  page_object = json_object_get_object_member (parse (parser, object, TRUE), "page");
  g_assert_nonnull (page_object);
  json = nearby_object_to_json (object, TRUE);
  g_assert_nonnull (strstr (json, "https://bus.example/stop/42"));
  g_assert_nonnull (strstr (json, "301"));
}

/* A beacon that only sends telemetry: no address, no distance, no power, all null. */
static void
test_unknowns_are_null (void)
{
  g_autoptr(NearbyObjectList) list = new_list ();
  g_autoptr(JsonParser) parser = json_parser_new ();
  NearbyObject *object;
  JsonObject *root;

  nearby_object_list_set_show_non_browsable (list, TRUE);
  hear (list, "C0:FF:EE:00:00:02", TRUE);
  nearby_object_list_flush (list);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (list)), ==, 1);
  object = g_list_model_get_item (G_LIST_MODEL (list), 0);
  g_object_unref (object);

  root = parse (parser, object, TRUE);
  g_assert_cmpstr (json_object_get_string_member (root, "key"), ==, "address:C0:FF:EE:00:00:02");
  g_assert_true (json_object_get_null_member (root, "url"));
  g_assert_true (json_object_get_null_member (root, "distance_m"));
  g_assert_true (json_object_get_null_member (root, "tx_power"));
}

/* Not pretty: one line, as a command line writes JSON Lines. */
static void
test_compact (void)
{
  g_autoptr(NearbyObjectList) list = new_list ();
  g_autofree char *json = NULL;
  NearbyObject *object;

  hear (list, "C0:FF:EE:00:00:01", FALSE);
  nearby_object_list_flush (list);
  object = nearby_object_list_get_object_by_key (list, "https://bus.example/");

  json = nearby_object_to_json (object, FALSE);
  g_assert_null (strchr (json, '\n'));
  g_assert_true (g_str_has_prefix (json, "{\"key\":\"https://bus.example/\""));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/object-json/frames-of-every-device", test_frames_of_every_device);
  g_test_add_func ("/object-json/page", test_page);
  g_test_add_func ("/object-json/unknowns-are-null", test_unknowns_are_null);
  g_test_add_func ("/object-json/compact", test_compact);

  return g_test_run ();
}
