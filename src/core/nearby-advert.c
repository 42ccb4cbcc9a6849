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

gboolean
nearby_advert_next_structure (const guint8      *payload,
                              gsize              len,
                              gsize             *pos,
                              NearbyAdStructure *ad)
{
  gsize ad_len;

  /* Zeros pad a legacy advertisement to its 31 bytes. */
  while (*pos < len && payload[*pos] == 0)
    (*pos)++;
  if (*pos >= len)
    return FALSE;

  ad_len = payload[*pos];
  if (ad_len > len - *pos - 1)
    return FALSE;

  ad->type = payload[*pos + 1];
  ad->value = payload + *pos + 2;
  ad->len = ad_len - 1;
  *pos += 1 + ad_len;

  return TRUE;
}

guint
nearby_advert_decode_payload (const guint8      *payload,
                              gsize              len,
                              NearbyAdvertFrame  frames[NEARBY_ADVERT_MAX_FRAMES])
{
  NearbyAdStructure ad;
  guint n_frames = 0;
  gsize pos = 0;

  while (n_frames < NEARBY_ADVERT_MAX_FRAMES
         && nearby_advert_next_structure (payload, len, &pos, &ad))
    {
      NearbyAdvertFrame *advert = &frames[n_frames];
      guint16 id;

      if (ad.len < 2)
        continue;
      id = (guint16) (ad.value[0] | ad.value[1] << 8);

      if (ad.type == AD_TYPE_SERVICE_DATA16
          && (id == NEARBY_UUID16_EDDYSTONE || id == NEARBY_UUID16_URIBEACON))
        {
          nearby_frame_decode_service_data (id, ad.value + 2, ad.len - 2, &advert->frame);
          if (advert->frame.service_uuid == 0)
            advert->frame.service_uuid = id;
        }
      else if (ad.type == AD_TYPE_MANUFACTURER_DATA && id == NEARBY_COMPANY_APPLE)
        {
          nearby_frame_decode_manufacturer_data (id, ad.value + 2, ad.len - 2, &advert->frame);
          advert->frame.service_uuid = 0;
        }
      else
        continue;

      if (advert->frame.error == NEARBY_FRAME_ERROR_NOT_A_BEACON)
        continue;

      advert->raw = ad.value + 2;
      advert->raw_len = ad.len - 2;
      n_frames++;
    }

  return n_frames;
}
