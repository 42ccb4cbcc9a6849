/* nearby-advert.c: the beacon frames in a Device1's ServiceData and ManufacturerData
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-advert"

#include "config.h"

#include <string.h>

#include "nearby-advert.h"

static guint16
uuid16_from_string (const char *uuid)
{
  static const char base_suffix[] = "-0000-1000-8000-00805f9b34fb";
  guint16 value = 0;

  if (strlen (uuid) != 36 || strncmp (uuid, "0000", 4) != 0
      || g_ascii_strcasecmp (uuid + 8, base_suffix) != 0)
    return 0;

  for (guint i = 4; i < 8; i++)
    {
      int digit = g_ascii_xdigit_value (uuid[i]);

      if (digit < 0)
        return 0;
      value = (guint16) (value << 4 | digit);
    }

  return value;
}

static const guint8 *
bytes_of_variant (GVariant *boxed,
                  gsize    *len)
{
  g_autoptr(GVariant) value = NULL;
  const guint8 *data;

  if (!g_variant_is_of_type (boxed, G_VARIANT_TYPE_VARIANT))
    return NULL;

  value = g_variant_get_variant (boxed);
  if (!g_variant_is_of_type (value, G_VARIANT_TYPE_BYTESTRING))
    return NULL;

  /* The data stays alive with its container, which the caller holds. */
  data = g_variant_get_fixed_array (value, len, 1);
  return *len > 0 ? data : NULL;
}

/* nearby_frame_decode_service_data() or nearby_frame_decode_manufacturer_data() */
typedef NearbyFrameError (*DecodeFunc) (uint16_t       id,
                                        const uint8_t *data,
                                        size_t         len,
                                        NearbyFrame   *frame);

/* Decodes one dictionary entry with @decode; takes @boxed. FALSE when it holds no bytes or no
 * beacon at all. */
static gboolean
decode_entry (DecodeFunc         decode,
              guint16            id,
              GVariant          *boxed,
              NearbyAdvertFrame *advert)
{
  const guint8 *data;
  gsize len = 0;

  data = bytes_of_variant (boxed, &len);
  g_variant_unref (boxed);
  if (data == NULL)
    return FALSE;

  decode (id, data, len, &advert->frame);
  if (advert->frame.error == NEARBY_FRAME_ERROR_NOT_A_BEACON)
    return FALSE;

  advert->raw = data;
  advert->raw_len = len;
  return TRUE;
}

static guint
decode_service_data (GVariant          *service_data,
                     NearbyAdvertFrame *frames,
                     guint              n_frames)
{
  GVariantIter iter;
  const char *key;
  GVariant *boxed;

  if (service_data == NULL || !g_variant_is_of_type (service_data, G_VARIANT_TYPE ("a{sv}")))
    return n_frames;

  g_variant_iter_init (&iter, service_data);
  while (n_frames < NEARBY_ADVERT_MAX_FRAMES
         && g_variant_iter_next (&iter, "{&s@v}", &key, &boxed))
    {
      guint16 uuid16 = uuid16_from_string (key);

      if (uuid16 != NEARBY_UUID16_EDDYSTONE && uuid16 != NEARBY_UUID16_URIBEACON)
        {
          g_variant_unref (boxed);
          continue;
        }

      if (!decode_entry (nearby_frame_decode_service_data, uuid16, boxed, &frames[n_frames]))
        continue;
      if (frames[n_frames].frame.service_uuid == 0)
        frames[n_frames].frame.service_uuid = uuid16;
      n_frames++;
    }

  return n_frames;
}

static guint
decode_manufacturer_data (GVariant          *manufacturer_data,
                          NearbyAdvertFrame *frames,
                          guint              n_frames)
{
  GVariantIter iter;
  guint16 company_id;
  GVariant *boxed;

  if (manufacturer_data == NULL
      || !g_variant_is_of_type (manufacturer_data, G_VARIANT_TYPE ("a{qv}")))
    return n_frames;

  g_variant_iter_init (&iter, manufacturer_data);
  while (n_frames < NEARBY_ADVERT_MAX_FRAMES
         && g_variant_iter_next (&iter, "{q@v}", &company_id, &boxed))
    {
      if (company_id != NEARBY_COMPANY_APPLE)
        {
          g_variant_unref (boxed);
          continue;
        }

      /* Most Apple data is AirDrop, Handoff and the like: not ours. */
      if (!decode_entry (nearby_frame_decode_manufacturer_data, company_id, boxed,
                         &frames[n_frames]))
        continue;
      frames[n_frames].frame.service_uuid = 0;
      n_frames++;
    }

  return n_frames;
}

guint
nearby_advert_decode (GVariant          *service_data,
                      GVariant          *manufacturer_data,
                      NearbyAdvertFrame  frames[NEARBY_ADVERT_MAX_FRAMES])
{
  guint n_frames = decode_service_data (service_data, frames, 0);

  return decode_manufacturer_data (manufacturer_data, frames, n_frames);
}

#define AD_TYPE_SERVICE_DATA16    0x16
#define AD_TYPE_MANUFACTURER_DATA 0xFF

guint
nearby_advert_decode_payload (const guint8      *payload,
                              gsize              len,
                              NearbyAdvertFrame  frames[NEARBY_ADVERT_MAX_FRAMES])
{
  guint n_frames = 0;
  gsize pos = 0;

  while (pos < len && n_frames < NEARBY_ADVERT_MAX_FRAMES)
    {
      gsize ad_len = payload[pos];
      const guint8 *value = payload + pos + 2;
      gsize value_len;
      NearbyAdvertFrame *advert = &frames[n_frames];
      guint16 id;

      /* Zeros pad a legacy advertisement to its 31 bytes. */
      if (ad_len == 0)
        {
          pos++;
          continue;
        }
      if (ad_len > len - pos - 1)
        break;
      pos += 1 + ad_len;

      value_len = ad_len - 1;
      if (value_len < 2)
        continue;
      id = (guint16) (value[0] | value[1] << 8);

      if (value[-1] == AD_TYPE_SERVICE_DATA16
          && (id == NEARBY_UUID16_EDDYSTONE || id == NEARBY_UUID16_URIBEACON))
        {
          nearby_frame_decode_service_data (id, value + 2, value_len - 2, &advert->frame);
          if (advert->frame.service_uuid == 0)
            advert->frame.service_uuid = id;
        }
      else if (value[-1] == AD_TYPE_MANUFACTURER_DATA && id == NEARBY_COMPANY_APPLE)
        {
          nearby_frame_decode_manufacturer_data (id, value + 2, value_len - 2, &advert->frame);
          advert->frame.service_uuid = 0;
        }
      else
        continue;

      if (advert->frame.error == NEARBY_FRAME_ERROR_NOT_A_BEACON)
        continue;

      advert->raw = value + 2;
      advert->raw_len = value_len - 2;
      n_frames++;
    }

  return n_frames;
}
