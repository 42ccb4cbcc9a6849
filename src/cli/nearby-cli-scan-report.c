/* nearby-cli-scan-report.c: what `nearby scan --all` shows of a captured advertising report
 * without a beacon
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-cli"

#include "config.h"

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "nearby-advert.h"
#include "nearby-cli-scan-report.h"
#include "nearby-hex.h"

#define AD_UUID16_INCOMPLETE   0x02
#define AD_UUID16_COMPLETE     0x03
#define AD_UUID32_INCOMPLETE   0x04
#define AD_UUID32_COMPLETE     0x05
#define AD_UUID128_INCOMPLETE  0x06
#define AD_UUID128_COMPLETE    0x07
#define AD_SERVICE_DATA16      0x16
#define AD_SERVICE_DATA32      0x20
#define AD_SERVICE_DATA128     0x21
#define AD_MANUFACTURER_DATA   0xFF

/* A UUID as it is written: "180d", "0000feaa", or the 128-bit form; little-endian on air. */
static char *
format_uuid (const guint8 *le,
             gsize         len)
{
  guint8 be[16];

  for (gsize i = 0; i < len; i++)
    be[i] = le[len - 1 - i];

  if (len != 16)
    return nearby_hex_format (be, len);

  return g_strdup_printf ("%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
                          be[0], be[1], be[2], be[3], be[4], be[5], be[6], be[7], be[8], be[9],
                          be[10], be[11], be[12], be[13], be[14], be[15]);
}

static void
add_uuids (GPtrArray    *uuids,
           const guint8 *value,
           gsize         len,
           gsize         size)
{
  for (gsize i = 0; i + size <= len; i += size)
    g_ptr_array_add (uuids, format_uuid (value + i, size));
}

typedef struct {
  GPtrArray *uuids;         /* of char *, in order */
  int        company_id;    /* of the first manufacturer data; -1: none */
} Summary;

/* Walks the AD structures, calling @each (when not NULL) with each whole one, and gathers the
 * company and the service UUIDs. A structure that runs past the end ends the walk. */
static void
summarize (const NearbyBtsnoopReport *report,
           JsonBuilder               *each,
           Summary                   *summary)
{
  NearbyAdStructure ad;
  gsize pos = 0;

  summary->uuids = g_ptr_array_new_with_free_func (g_free);
  summary->company_id = -1;

  while (nearby_advert_next_structure (report->data, report->data_len, &pos, &ad))
    {
      const guint8 *value = ad.value;
      gsize value_len = ad.len;
      guint8 type = ad.type;

      if (each != NULL)
        {
          g_autofree char *hex = nearby_hex_format (value, value_len);

          json_builder_begin_object (each);
          json_builder_set_member_name (each, "type");
          json_builder_add_int_value (each, type);
          json_builder_set_member_name (each, "data");
          json_builder_add_string_value (each, hex);
          json_builder_end_object (each);
        }

      switch (type)
        {
        case AD_UUID16_INCOMPLETE:
        case AD_UUID16_COMPLETE:
          add_uuids (summary->uuids, value, value_len, 2);
          break;
        case AD_UUID32_INCOMPLETE:
        case AD_UUID32_COMPLETE:
          add_uuids (summary->uuids, value, value_len, 4);
          break;
        case AD_UUID128_INCOMPLETE:
        case AD_UUID128_COMPLETE:
          add_uuids (summary->uuids, value, value_len, 16);
          break;
        case AD_SERVICE_DATA16:
          add_uuids (summary->uuids, value, MIN (value_len, 2), 2);
          break;
        case AD_SERVICE_DATA32:
          add_uuids (summary->uuids, value, MIN (value_len, 4), 4);
          break;
        case AD_SERVICE_DATA128:
          add_uuids (summary->uuids, value, MIN (value_len, 16), 16);
          break;
        case AD_MANUFACTURER_DATA:
          if (summary->company_id < 0 && value_len >= 2)
            summary->company_id = value[0] | value[1] << 8;
          break;
        default:
          break;
        }
    }
}

char *
nearby_cli_scan_report_json (const NearbyBtsnoopReport *report,
                             const char                *time_text,
                             int                        rssi)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *raw = nearby_hex_format (report->data, report->data_len);
  Summary summary;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "time");
  json_builder_add_string_value (builder, time_text);
  json_builder_set_member_name (builder, "address");
  json_builder_add_string_value (builder, report->address);
  json_builder_set_member_name (builder, "address_type");
  json_builder_add_string_value (builder,
                                 nearby_btsnoop_address_type_to_string (report->address_type));
  json_builder_set_member_name (builder, "rssi");
  if (rssi >= -127 && rssi <= 20)
    json_builder_add_int_value (builder, rssi);
  else
    json_builder_add_null_value (builder);
  json_builder_set_member_name (builder, "distance_m");
  json_builder_add_null_value (builder);
  json_builder_set_member_name (builder, "protocol");
  json_builder_add_null_value (builder);
  json_builder_set_member_name (builder, "raw");
  json_builder_add_string_value (builder, raw);

  json_builder_set_member_name (builder, "ad");
  json_builder_begin_array (builder);
  summarize (report, builder, &summary);
  json_builder_end_array (builder);

  if (summary.company_id >= 0)
    {
      json_builder_set_member_name (builder, "company_id");
      json_builder_add_int_value (builder, summary.company_id);
    }

  json_builder_set_member_name (builder, "service_uuids");
  json_builder_begin_array (builder);
  for (guint i = 0; i < summary.uuids->len; i++)
    json_builder_add_string_value (builder, summary.uuids->pdata[i]);
  json_builder_end_array (builder);
  json_builder_end_object (builder);
  g_ptr_array_unref (summary.uuids);

  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);

  return json_generator_to_data (generator, NULL);
}

char *
nearby_cli_scan_report_describe (const NearbyBtsnoopReport *report)
{
  g_autoptr(GString) text = g_string_new (_("no beacon"));
  Summary summary;
  const char *separator = ": ";

  summarize (report, NULL, &summary);

  if (summary.company_id >= 0)
    {
      /* Translators: a Bluetooth company identifier, such as "company 0x004c" */
      g_string_append (text, separator);
      g_string_append_printf (text, _("company 0x%04x"), (guint) summary.company_id);
      separator = ", ";
    }
  if (summary.uuids->len > 0)
    {
      g_autofree char *uuids = NULL;

      g_ptr_array_add (summary.uuids, NULL);
      uuids = g_strjoinv (" ", (char **) summary.uuids->pdata);
      /* Translators: the service UUIDs a device advertises, such as "services 180d 180f" */
      g_string_append (text, separator);
      g_string_append_printf (text, _("services %s"), uuids);
    }
  g_ptr_array_unref (summary.uuids);

  return g_string_free (g_steal_pointer (&text), FALSE);
}
