/* nearby-frame-json.c: frames as the JSON the command line prints and captures hold
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-frame-json"

#include "config.h"

#include "nearby-frame-json.h"
#include "nearby-hex.h"

static void
add_hex (JsonBuilder  *builder,
         const char   *name,
         const guint8 *data,
         gsize         len)
{
  g_autofree char *hex = nearby_hex_format (data, len);

  json_builder_set_member_name (builder, name);
  json_builder_add_string_value (builder, hex);
}

static void
add_int (JsonBuilder *builder,
         const char  *name,
         gint64       value)
{
  json_builder_set_member_name (builder, name);
  json_builder_add_int_value (builder, value);
}

static void
add_uuid (JsonBuilder  *builder,
          const char   *name,
          const guint8  uuid[16])
{
  g_autofree char *text =
    g_strdup_printf ("%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
                     uuid[0], uuid[1], uuid[2], uuid[3], uuid[4], uuid[5], uuid[6], uuid[7],
                     uuid[8], uuid[9], uuid[10], uuid[11], uuid[12], uuid[13], uuid[14], uuid[15]);

  json_builder_set_member_name (builder, name);
  json_builder_add_string_value (builder, text);
}

void
nearby_frame_add_json_members (const NearbyFrame *frame,
                               JsonBuilder       *builder)
{
  gboolean valid = frame->error == NEARBY_FRAME_OK;

  json_builder_set_member_name (builder, "valid");
  json_builder_add_boolean_value (builder, valid);

  json_builder_set_member_name (builder, "protocol");
  if (frame->protocol != NEARBY_PROTOCOL_NONE)
    json_builder_add_string_value (builder, nearby_protocol_to_string (frame->protocol));
  else
    json_builder_add_null_value (builder);

  json_builder_set_member_name (builder, "frame");
  if (frame->kind != NEARBY_FRAME_KIND_NONE)
    json_builder_add_string_value (builder, nearby_frame_kind_to_string (frame->kind));
  else
    json_builder_add_null_value (builder);

  json_builder_set_member_name (builder, "tx_power");
  if (valid && frame->tx_power_known)
    json_builder_add_int_value (builder, frame->tx_power);
  else
    json_builder_add_null_value (builder);

  json_builder_set_member_name (builder, "url");
  if (valid && frame->kind == NEARBY_FRAME_KIND_URL)
    json_builder_add_string_value (builder, frame->url);
  else
    json_builder_add_null_value (builder);

  if (!valid)
    {
      char message[NEARBY_FRAME_MESSAGE_MAX];

      json_builder_set_member_name (builder, "error");
      json_builder_add_string_value (builder,
                                     nearby_frame_format_error (frame, message, sizeof message));
      json_builder_set_member_name (builder, "error_code");
      json_builder_add_string_value (builder, nearby_frame_error_code (frame->error));
      return;
    }

  switch (frame->kind)
    {
    case NEARBY_FRAME_KIND_URL:
      if (frame->protocol == NEARBY_PROTOCOL_URIBEACON)
        {
          json_builder_set_member_name (builder, "invisible");
          json_builder_add_boolean_value (builder, frame->invisible);
          add_int (builder, "flags", frame->flags);
        }
      break;

    case NEARBY_FRAME_KIND_UID:
      add_hex (builder, "namespace", frame->namespace_id, sizeof frame->namespace_id);
      add_hex (builder, "instance", frame->instance_id, sizeof frame->instance_id);
      break;

    case NEARBY_FRAME_KIND_TLM:
      json_builder_set_member_name (builder, "battery_mv");
      if (frame->battery_mv != 0)
        json_builder_add_int_value (builder, frame->battery_mv);
      else
        json_builder_add_null_value (builder);
      json_builder_set_member_name (builder, "temperature_c");
      if (frame->temperature_known)
        json_builder_add_double_value (builder, frame->temperature_c);
      else
        json_builder_add_null_value (builder);
      add_int (builder, "adv_count", frame->adv_count);
      json_builder_set_member_name (builder, "uptime_s");
      json_builder_add_double_value (builder, frame->uptime_ds / 10.0);
      break;

    case NEARBY_FRAME_KIND_ETLM:
      add_hex (builder, "etlm", frame->etlm, sizeof frame->etlm);
      add_int (builder, "salt", frame->etlm_salt);
      add_int (builder, "mic", frame->etlm_mic);
      break;

    case NEARBY_FRAME_KIND_EID:
      add_hex (builder, "eid", frame->eid, sizeof frame->eid);
      break;

    case NEARBY_FRAME_KIND_IBEACON:
      add_uuid (builder, "uuid", frame->ibeacon_uuid);
      add_int (builder, "major", frame->ibeacon_major);
      add_int (builder, "minor", frame->ibeacon_minor);
      break;

    case NEARBY_FRAME_KIND_NONE:
    default:
      break;
    }
}
