/* nearby-cli-scan-report.c: what `nearby scan --all` shows of a device heard without a beacon
 * frame
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-cli"

#include "config.h"

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "nearby-advert.h"
#include "nearby-cli-scan-report.h"
#include "nearby-hex.h"
#include "nearby-source.h"

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

static const char base_uuid_suffix[] = "-0000-1000-8000-00805f9b34fb";

static NearbyCliScanOther *
other_new (const char *address,
           int         rssi,
           gint64      time_us)
{
  NearbyCliScanOther *other = g_new0 (NearbyCliScanOther, 1);

  other->address = g_strdup (address);
  other->rssi = rssi;
  other->time_us = time_us;
  other->ad = g_ptr_array_new_with_free_func ((GDestroyNotify) json_node_unref);
  other->uuids = g_ptr_array_new_with_free_func (g_free);
  other->company_id = -1;

  return other;
}

void
nearby_cli_scan_other_free (NearbyCliScanOther *other)
{
  if (other == NULL)
    return;

  g_free (other->address);
  g_free (other->address_type);
  g_clear_pointer (&other->raw, g_bytes_unref);
  g_ptr_array_unref (other->ad);
  g_ptr_array_unref (other->uuids);
  g_free (other);
}

static void
add_ad_structure (NearbyCliScanOther *other,
                  guint8              type,
                  const guint8       *value,
                  gsize               len)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autofree char *hex = nearby_hex_format (value, len);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "type");
  json_builder_add_int_value (builder, type);
  json_builder_set_member_name (builder, "data");
  json_builder_add_string_value (builder, hex);
  json_builder_end_object (builder);
  g_ptr_array_add (other->ad, json_builder_get_root (builder));
}

/* A UUID as it is written: "180d", "0000feaa", or the 128-bit form (from little-endian bytes,
 * as on air), the base UUID's written short. */
static void
add_uuid (NearbyCliScanOther *other,
          char               *uuid)
{
  if (strlen (uuid) == 36 && strncmp (uuid, "0000", 4) == 0
      && g_ascii_strcasecmp (uuid + 8, base_uuid_suffix) == 0)
    {
      uuid[8] = '\0';
      memmove (uuid, uuid + 4, 5);
    }

  for (guint i = 0; i < other->uuids->len; i++)
    if (g_ascii_strcasecmp (other->uuids->pdata[i], uuid) == 0)
      {
        g_free (uuid);
        return;
      }

  g_ptr_array_add (other->uuids, g_ascii_strdown (uuid, -1));
  g_free (uuid);
}

static void
add_uuids_of_bytes (NearbyCliScanOther *other,
                    const guint8       *value,
                    gsize               len,
                    gsize               size)
{
  for (gsize i = 0; i + size <= len; i += size)
    {
      guint8 be[16];

      for (gsize j = 0; j < size; j++)
        be[j] = value[i + size - 1 - j];

      if (size != 16)
        add_uuid (other, nearby_hex_format (be, size));
      else
        add_uuid (other, g_strdup_printf ("%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
                                          "%02x%02x%02x%02x%02x%02x",
                                          be[0], be[1], be[2], be[3], be[4], be[5], be[6], be[7],
                                          be[8], be[9], be[10], be[11], be[12], be[13], be[14],
                                          be[15]));
    }
}

NearbyCliScanOther *
nearby_cli_scan_other_new_for_report (const NearbyBtsnoopReport *report,
                                      int                        rssi)
{
  NearbyCliScanOther *other = other_new (report->address, rssi, report->time_us);
  NearbyAdStructure ad;
  gsize pos = 0;

  other->address_type = g_strdup (nearby_btsnoop_address_type_to_string (report->address_type));
  other->raw = g_bytes_new (report->data, report->data_len);

  while (nearby_advert_next_structure (report->data, report->data_len, &pos, &ad))
    {
      add_ad_structure (other, ad.type, ad.value, ad.len);

      switch (ad.type)
        {
        case AD_UUID16_INCOMPLETE:
        case AD_UUID16_COMPLETE:
          add_uuids_of_bytes (other, ad.value, ad.len, 2);
          break;
        case AD_UUID32_INCOMPLETE:
        case AD_UUID32_COMPLETE:
          add_uuids_of_bytes (other, ad.value, ad.len, 4);
          break;
        case AD_UUID128_INCOMPLETE:
        case AD_UUID128_COMPLETE:
          add_uuids_of_bytes (other, ad.value, ad.len, 16);
          break;
        case AD_SERVICE_DATA16:
          add_uuids_of_bytes (other, ad.value, MIN (ad.len, 2), 2);
          break;
        case AD_SERVICE_DATA32:
          add_uuids_of_bytes (other, ad.value, MIN (ad.len, 4), 4);
          break;
        case AD_SERVICE_DATA128:
          add_uuids_of_bytes (other, ad.value, MIN (ad.len, 16), 16);
          break;
        case AD_MANUFACTURER_DATA:
          if (other->company_id < 0 && ad.len >= 2)
            other->company_id = ad.value[0] | ad.value[1] << 8;
          break;
        default:
          break;
        }
    }

  return other;
}

/* bluetoothd says "public" or "random"; a random address says its kind in its two top bits. */
static char *
address_type_of (const char *address,
                 GVariant   *properties)
{
  const char *type = NULL;
  int top;

  if (!g_variant_lookup (properties, "AddressType", "&s", &type))
    return NULL;
  if (g_strcmp0 (type, "random") != 0 || !g_ascii_isxdigit (address[0]))
    return g_strdup (type);

  top = g_ascii_xdigit_value (address[0]) >> 2;
  return g_strdup (top == 3 ? "random-static" : top == 1 ? "resolvable" : "non-resolvable");
}

NearbyCliScanOther *
nearby_cli_scan_other_new_for_properties (const char *address,
                                          int         rssi,
                                          gint64      time_us,
                                          GVariant   *properties)
{
  NearbyCliScanOther *other = other_new (address, rssi, time_us);
  g_autoptr(GVariant) advertising_data = NULL;
  g_autoptr(GVariant) manufacturer_data = NULL;
  g_autoptr(GVariant) service_data = NULL;
  g_autofree const char **uuids = NULL;
  GVariantIter iter;
  GVariant *value;
  const char *key;
  guint8 type;
  guint16 company_id;

  other->address_type = address_type_of (address, properties);

  /* Every variant is checked for its type: bluetoothd and the mock differ. */
  advertising_data = g_variant_lookup_value (properties, "AdvertisingData",
                                             G_VARIANT_TYPE ("a{yv}"));
  if (advertising_data != NULL)
    {
      g_variant_iter_init (&iter, advertising_data);
      while (g_variant_iter_next (&iter, "{yv}", &type, &value))
        {
          if (g_variant_is_of_type (value, G_VARIANT_TYPE_BYTESTRING))
            {
              gsize len;
              const guint8 *bytes = g_variant_get_fixed_array (value, &len, 1);

              add_ad_structure (other, type, bytes, len);
            }
          g_variant_unref (value);
        }
    }

  manufacturer_data = g_variant_lookup_value (properties, "ManufacturerData",
                                              G_VARIANT_TYPE ("a{qv}"));
  if (manufacturer_data != NULL && g_variant_n_children (manufacturer_data) > 0)
    {
      g_variant_get_child (manufacturer_data, 0, "{q@v}", &company_id, &value);
      other->company_id = company_id;
      g_variant_unref (value);
    }

  if (g_variant_lookup (properties, "UUIDs", "^a&s", &uuids))
    for (guint i = 0; uuids[i] != NULL; i++)
      add_uuid (other, g_strdup (uuids[i]));

  service_data = g_variant_lookup_value (properties, "ServiceData", G_VARIANT_TYPE ("a{sv}"));
  if (service_data != NULL)
    {
      g_variant_iter_init (&iter, service_data);
      while (g_variant_iter_next (&iter, "{&sv}", &key, &value))
        {
          add_uuid (other, g_strdup (key));
          g_variant_unref (value);
        }
    }

  return other;
}

char *
nearby_cli_scan_other_to_json (const NearbyCliScanOther *other,
                               const char               *time_text)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "time");
  json_builder_add_string_value (builder, time_text);
  json_builder_set_member_name (builder, "address");
  json_builder_add_string_value (builder, other->address);
  json_builder_set_member_name (builder, "address_type");
  if (other->address_type != NULL)
    json_builder_add_string_value (builder, other->address_type);
  else
    json_builder_add_null_value (builder);
  json_builder_set_member_name (builder, "rssi");
  if (other->rssi != NEARBY_RSSI_UNKNOWN)
    json_builder_add_int_value (builder, other->rssi);
  else
    json_builder_add_null_value (builder);
  json_builder_set_member_name (builder, "distance_m");
  json_builder_add_null_value (builder);
  json_builder_set_member_name (builder, "protocol");
  json_builder_add_null_value (builder);

  json_builder_set_member_name (builder, "raw");
  if (other->raw != NULL)
    {
      gsize len;
      const guint8 *data = g_bytes_get_data (other->raw, &len);
      g_autofree char *hex = nearby_hex_format (data, len);

      json_builder_add_string_value (builder, hex);
    }
  else
    json_builder_add_null_value (builder);

  json_builder_set_member_name (builder, "ad");
  json_builder_begin_array (builder);
  for (guint i = 0; i < other->ad->len; i++)
    json_builder_add_value (builder, json_node_copy (other->ad->pdata[i]));
  json_builder_end_array (builder);

  if (other->company_id >= 0)
    {
      json_builder_set_member_name (builder, "company_id");
      json_builder_add_int_value (builder, other->company_id);
    }

  json_builder_set_member_name (builder, "service_uuids");
  json_builder_begin_array (builder);
  for (guint i = 0; i < other->uuids->len; i++)
    json_builder_add_string_value (builder, other->uuids->pdata[i]);
  json_builder_end_array (builder);
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);

  return json_generator_to_data (generator, NULL);
}

char *
nearby_cli_scan_other_describe (const NearbyCliScanOther *other)
{
  GString *text = g_string_new (_("no beacon"));
  const char *separator = ": ";

  if (other->company_id >= 0)
    {
      g_string_append (text, separator);
      /* Translators: a Bluetooth company identifier, such as "company 0x004c" */
      g_string_append_printf (text, _("company 0x%04x"), (guint) other->company_id);
      separator = ", ";
    }
  if (other->uuids->len > 0)
    {
      g_autofree char *uuids = NULL;

      g_ptr_array_add (other->uuids, NULL);
      uuids = g_strjoinv (" ", (char **) other->uuids->pdata);
      g_ptr_array_remove_index (other->uuids, other->uuids->len - 1);
      g_string_append (text, separator);
      /* Translators: the service UUIDs a device advertises, such as "services 180d 180f" */
      g_string_append_printf (text, _("services %s"), uuids);
    }

  return g_string_free (text, FALSE);
}
