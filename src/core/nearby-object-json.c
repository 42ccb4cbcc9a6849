/* nearby-object-json.c
 *
 * Without GTK, so that the command line can write the same records the inspector copies.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-object-json"

#include "config.h"

#include <json-glib/json-glib.h>
#include <math.h>

#include "nearby-frame-json.h"
#include "nearby-hex.h"
#include "nearby-json.h"
#include "nearby-object-json.h"

static void
add_time_member (JsonBuilder *builder,
                 const char  *name,
                 gint64       time_us)
{
  g_autoptr(GDateTime) time = time_us > 0 ? g_date_time_new_from_unix_utc (time_us / G_USEC_PER_SEC)
                                          : NULL;
  g_autofree char *text = time != NULL ? g_date_time_format_iso8601 (time) : NULL;

  json_builder_set_member_name (builder, name);
  if (text != NULL)
    json_builder_add_string_value (builder, text);
  else
    json_builder_add_null_value (builder);
}

static void
add_device (JsonBuilder              *builder,
            const NearbyObjectDevice *device)
{
  json_builder_begin_object (builder);
  nearby_json_add_string_member (builder, "address", nearby_object_device_get_address (device));
  add_time_member (builder, "last_seen", nearby_object_device_get_last_seen (device));
  json_builder_set_member_name (builder, "frames");
  json_builder_begin_array (builder);
  for (int kind = NEARBY_FRAME_KIND_URL; kind < NEARBY_FRAME_N_KINDS; kind++)
    {
      const NearbyFrame *frame = nearby_object_device_get_frame (device, kind);
      const guint8 *raw;
      gsize raw_len = 0;

      if (frame == NULL)
        continue;

      json_builder_begin_object (builder);
      raw = nearby_object_device_get_raw (device, kind, &raw_len);
      if (raw != NULL)
        {
          g_autofree char *hex = nearby_hex_format (raw, raw_len);

          nearby_json_add_string_member (builder, "raw", hex);
        }
      else
        nearby_json_add_string_member (builder, "raw", NULL);
      nearby_frame_add_json_members (frame, builder);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_end_object (builder);
}

char *
nearby_object_to_json (NearbyObject *object,
                       gboolean      pretty)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  double distance, rssi;
  int tx_power;

  g_return_val_if_fail (NEARBY_IS_OBJECT (object), NULL);

  distance = nearby_object_get_distance (object);
  rssi = nearby_object_get_rssi (object);
  tx_power = nearby_object_get_tx_power (object);

  json_builder_begin_object (builder);
  nearby_json_add_string_member (builder, "key", nearby_object_get_key (object));
  nearby_json_add_string_member (builder, "url", nearby_object_get_url (object));
  nearby_json_add_string_member (builder, "title", nearby_object_get_title (object));
  json_builder_set_member_name (builder, "distance_m");
  if (distance >= 0)
    json_builder_add_double_value (builder, round (distance * 100) / 100);
  else
    json_builder_add_null_value (builder);
  json_builder_set_member_name (builder, "rssi");
  if (rssi != NEARBY_RSSI_UNKNOWN)
    json_builder_add_double_value (builder, round (rssi * 10) / 10);
  else
    json_builder_add_null_value (builder);
  json_builder_set_member_name (builder, "tx_power");
  if (tx_power != NEARBY_RSSI_UNKNOWN)
    json_builder_add_int_value (builder, tx_power);
  else
    json_builder_add_null_value (builder);
  add_time_member (builder, "first_seen", nearby_object_get_first_seen (object));
  add_time_member (builder, "last_seen", nearby_object_get_last_seen (object));
  json_builder_set_member_name (builder, "stale");
  json_builder_add_boolean_value (builder, nearby_object_get_stale (object));

  json_builder_set_member_name (builder, "page");
  if (nearby_object_get_page (object) != NULL)
    {
      g_autofree char *page_json = nearby_page_to_json (nearby_object_get_page (object));
      JsonNode *page_node = json_from_string (page_json, NULL);

      if (page_node != NULL)
        json_builder_add_value (builder, page_node);
      else
        json_builder_add_null_value (builder);
    }
  else
    json_builder_add_null_value (builder);

  json_builder_set_member_name (builder, "devices");
  json_builder_begin_array (builder);
  for (guint i = 0; i < nearby_object_get_n_devices (object); i++)
    add_device (builder, nearby_object_get_device (object, i));
  json_builder_end_array (builder);
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  return json_to_string (root, pretty);
}
