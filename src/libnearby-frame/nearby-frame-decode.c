/* nearby-frame-decode.c: Eddystone, UriBeacon and iBeacon frames and whole advertising
 * payloads, decoded
 *
 * Pure C99: no GLib, no allocation. Every read is checked against the length it was given, so
 * the decoders can take any bytes a radio (or a fuzzer) hands them.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <string.h>

#include "nearby-frame-private.h"

static NearbyFrameError
fail_length (NearbyFrame *frame,
             size_t       length,
             size_t       required)
{
  return fail (frame, length < required ? NEARBY_FRAME_ERROR_TRUNCATED : NEARBY_FRAME_ERROR_TOO_LONG,
               length < required ? length : required, 0, length, required);
}

static void
set_tx_power (NearbyFrame *frame,
              uint8_t      byte)
{
  frame->tx_power = (int8_t) byte;
  frame->tx_power_known = frame->tx_power >= NEARBY_TX_POWER_MIN &&
                          frame->tx_power <= NEARBY_TX_POWER_MAX;
}

static uint16_t
read_be16 (const uint8_t *p)
{
  return (uint16_t) ((unsigned) p[0] << 8 | p[1]);
}

static uint32_t
read_be32 (const uint8_t *p)
{
  return (uint32_t) p[0] << 24 | (uint32_t) p[1] << 16 | (uint32_t) p[2] << 8 | p[3];
}

static void
append_text (NearbyFrame *frame,
             size_t      *used,
             const char  *text)
{
  size_t len = strlen (text);

  /* Cannot happen within 18 bytes (at most 114 characters), but the buffer is never overrun. */
  if (*used + len >= sizeof frame->url)
    len = sizeof frame->url - 1 - *used;
  memcpy (frame->url + *used, text, len);
  *used += len;
  frame->url[*used] = '\0';
}

static void
format_uuid (char          *out,
             const uint8_t *uuid)
{
  static const char digits[] = "0123456789abcdef";
  size_t o = 0;

  for (size_t i = 0; i < UUID_LEN; i++)
    {
      if (i == 4 || i == 6 || i == 8 || i == 10)
        out[o++] = '-';
      out[o++] = digits[uuid[i] >> 4];
      out[o++] = digits[uuid[i] & 0xF];
    }
  out[o] = '\0';
}

/* @data starts at the scheme byte, which is @offset bytes into the frame. */
static NearbyFrameError
decode_url (NearbyFrame   *frame,
            const uint8_t *data,
            size_t         len,
            size_t         offset,
            size_t         n_schemes)
{
  size_t used = 0;
  uint8_t scheme;

  if (len < 1)
    return fail (frame, NEARBY_FRAME_ERROR_TRUNCATED, offset, 0, offset, offset + 2);
  if (len > NEARBY_FRAME_ENCODED_URL_MAX)
    return fail (frame, NEARBY_FRAME_ERROR_TOO_LONG, offset + NEARBY_FRAME_ENCODED_URL_MAX, 0,
                 offset + len, offset + NEARBY_FRAME_ENCODED_URL_MAX);

  scheme = data[0];
  if (scheme >= n_schemes)
    return fail (frame, NEARBY_FRAME_ERROR_UNKNOWN_SCHEME, offset, scheme, offset + len, 0);

  if (scheme == URIBEACON_SCHEME_URN_UUID)
    {
      if (len == 1)
        return fail (frame, NEARBY_FRAME_ERROR_EMPTY_URL, offset + 1, scheme, offset + len, 0);
      if (len - 1 != UUID_LEN)
        {
          fail_length (frame, offset + len, offset + 1 + UUID_LEN);
          frame->error_byte = scheme;
          return frame->error;
        }
      append_text (frame, &used, url_schemes[scheme]);
      format_uuid (frame->url + used, data + 1);
      return NEARBY_FRAME_OK;
    }

  if (len == 1)
    return fail (frame, NEARBY_FRAME_ERROR_EMPTY_URL, offset + 1, scheme, offset + len, 0);

  append_text (frame, &used, url_schemes[scheme]);
  for (size_t i = 1; i < len; i++)
    {
      uint8_t byte = data[i];

      if (byte < N_EXPANSIONS)
        append_text (frame, &used, url_expansions[byte]);
      else if (byte > 0x20 && byte < 0x7F)
        {
          char text[2] = { (char) byte, '\0' };
          append_text (frame, &used, text);
        }
      else
        {
          frame->url[0] = '\0';
          return fail (frame, NEARBY_FRAME_ERROR_RESERVED_BYTE, offset + i, byte, offset + len, 0);
        }
    }

  return NEARBY_FRAME_OK;
}

static NearbyFrameError
decode_eddystone (const uint8_t *data,
                  size_t         len,
                  NearbyFrame   *frame)
{
  uint8_t type;

  if (len < 1)
    return fail (frame, NEARBY_FRAME_ERROR_TRUNCATED, 0, 0, 0, 2);

  type = data[0];
  switch (type & 0xF0)
    {
    case EDDYSTONE_TYPE_UID: frame->kind = NEARBY_FRAME_KIND_UID; break;
    case EDDYSTONE_TYPE_URL: frame->kind = NEARBY_FRAME_KIND_URL; break;
    case EDDYSTONE_TYPE_TLM: frame->kind = NEARBY_FRAME_KIND_TLM; break;
    case EDDYSTONE_TYPE_EID: frame->kind = NEARBY_FRAME_KIND_EID; break;
    default:
      return fail (frame, NEARBY_FRAME_ERROR_UNKNOWN_FRAME_TYPE, 0, type, len, 0);
    }
  if ((type & 0x0F) != 0)
    return fail (frame, NEARBY_FRAME_ERROR_RESERVED_NIBBLE, 0, type, len, 0);

  switch (type)
    {
    case EDDYSTONE_TYPE_URL:
      if (len < 3)
        return fail (frame, NEARBY_FRAME_ERROR_TRUNCATED, len, 0, len, 4);
      set_tx_power (frame, data[1]);
      return decode_url (frame, data + 2, len - 2, 2, N_EDDYSTONE_SCHEMES);

    case EDDYSTONE_TYPE_UID:
      /* The two reserved bytes are optional in practice; their value is ignored, as a receiver
       * should do with fields reserved for future use. */
      if (len != EDDYSTONE_UID_LEN && len != EDDYSTONE_UID_RFU_LEN)
        return fail_length (frame, len, len < EDDYSTONE_UID_LEN ? EDDYSTONE_UID_LEN : EDDYSTONE_UID_RFU_LEN);
      set_tx_power (frame, data[1]);
      memcpy (frame->namespace_id, data + 2, sizeof frame->namespace_id);
      memcpy (frame->instance_id, data + 12, sizeof frame->instance_id);
      return NEARBY_FRAME_OK;

    case EDDYSTONE_TYPE_TLM:
      if (len < 2)
        return fail (frame, NEARBY_FRAME_ERROR_TRUNCATED, len, 0, len, EDDYSTONE_TLM_LEN);
      if (data[1] == 0x00)
        {
          int16_t temperature;

          if (len != EDDYSTONE_TLM_LEN)
            return fail_length (frame, len, EDDYSTONE_TLM_LEN);
          frame->battery_mv = read_be16 (data + 2);
          temperature = (int16_t) read_be16 (data + 4);
          frame->temperature_known = read_be16 (data + 4) != 0x8000;
          frame->temperature_c = frame->temperature_known ? temperature / 256.0 : 0.0;
          frame->adv_count = read_be32 (data + 6);
          frame->uptime_ds = read_be32 (data + 10);
          return NEARBY_FRAME_OK;
        }
      if (data[1] == 0x01)
        {
          frame->kind = NEARBY_FRAME_KIND_ETLM;
          if (len != EDDYSTONE_ETLM_LEN)
            return fail_length (frame, len, EDDYSTONE_ETLM_LEN);
          memcpy (frame->etlm, data + 2, sizeof frame->etlm);
          frame->etlm_salt = read_be16 (data + 14);
          frame->etlm_mic = read_be16 (data + 16);
          return NEARBY_FRAME_OK;
        }
      return fail (frame, NEARBY_FRAME_ERROR_UNKNOWN_TLM_VERSION, 1, data[1], len, 0);

    case EDDYSTONE_TYPE_EID:
      if (len != EDDYSTONE_EID_LEN)
        return fail_length (frame, len, EDDYSTONE_EID_LEN);
      set_tx_power (frame, data[1]);
      memcpy (frame->eid, data + 2, sizeof frame->eid);
      return NEARBY_FRAME_OK;

    default:
      return fail (frame, NEARBY_FRAME_ERROR_UNKNOWN_FRAME_TYPE, 0, type, len, 0);
    }
}

static NearbyFrameError
decode_uribeacon (const uint8_t *data,
                  size_t         len,
                  NearbyFrame   *frame)
{
  frame->kind = NEARBY_FRAME_KIND_URL;

  if (len < 2)
    return fail (frame, NEARBY_FRAME_ERROR_TRUNCATED, len, 0, len, 4);
  if (len == 2)
    return fail (frame, NEARBY_FRAME_ERROR_EMPTY_URL, 2, 0, len, 0);

  frame->flags = data[0];
  frame->invisible = (data[0] & URIBEACON_FLAG_INVISIBLE) != 0;
  if ((data[0] & ~URIBEACON_FLAG_INVISIBLE) != 0)
    return fail (frame, NEARBY_FRAME_ERROR_RESERVED_FLAGS, 0, data[0], len, 0);
  set_tx_power (frame, data[1]);

  return decode_url (frame, data + 2, len - 2, 2, N_URIBEACON_SCHEMES);
}

NearbyFrameError
nearby_frame_decode_service_data (uint16_t       uuid16,
                                  const uint8_t *data,
                                  size_t         len,
                                  NearbyFrame   *frame)
{
  reset_frame (frame);
  frame->service_uuid = uuid16;

  if (data == NULL)
    len = 0;

  switch (uuid16)
    {
    case NEARBY_UUID16_EDDYSTONE:
      frame->protocol = NEARBY_PROTOCOL_EDDYSTONE;
      frame->error = decode_eddystone (data, len, frame);
      break;

    case NEARBY_UUID16_URIBEACON:
      frame->protocol = NEARBY_PROTOCOL_URIBEACON;
      frame->error = decode_uribeacon (data, len, frame);
      break;

    default:
      frame->service_uuid = 0;
      fail (frame, NEARBY_FRAME_ERROR_NOT_A_BEACON, 0, 0, len, 0);
      break;
    }

  /* A rejected frame carries no half-decoded values, only what identifies it and the error. */
  if (frame->error != NEARBY_FRAME_OK)
    {
      frame->url[0] = '\0';
      frame->tx_power_known = false;
    }

  return frame->error;
}

NearbyFrameError
nearby_frame_decode_manufacturer_data (uint16_t       company_id,
                                       const uint8_t *data,
                                       size_t         len,
                                       NearbyFrame   *frame)
{
  reset_frame (frame);

  if (data == NULL)
    len = 0;

  /* Apple's manufacturer data holds many record types; iBeacon is type 0x02, length 0x15. */
  if (company_id != NEARBY_COMPANY_APPLE || len < 2 || data[0] != 0x02 || data[1] != 0x15)
    return fail (frame, NEARBY_FRAME_ERROR_NOT_A_BEACON, 0, 0, len, 0);

  frame->protocol = NEARBY_PROTOCOL_IBEACON;
  frame->kind = NEARBY_FRAME_KIND_IBEACON;
  if (len != IBEACON_LEN)
    return fail_length (frame, len, IBEACON_LEN);

  memcpy (frame->ibeacon_uuid, data + 2, sizeof frame->ibeacon_uuid);
  frame->ibeacon_major = read_be16 (data + 18);
  frame->ibeacon_minor = read_be16 (data + 20);
  set_tx_power (frame, data[22]);
  frame->error = NEARBY_FRAME_OK;

  return NEARBY_FRAME_OK;
}

static void
payload_fail (NearbyFrame      *status,
              NearbyFrameError  error,
              size_t            offset,
              uint8_t           type,
              size_t            length,
              size_t            limit)
{
  /* The first problem is the one worth reporting. */
  if (status->error == NEARBY_FRAME_OK)
    fail (status, error, offset, type, length, limit);
}

size_t
nearby_frame_decode_advertisement_detailed (const uint8_t *payload,
                                            size_t         len,
                                            NearbyFrame   *frames,
                                            size_t         max_frames,
                                            NearbyFrame   *status)
{
  size_t n_frames = 0;
  size_t pos = 0;

  reset_frame (status);

  if (payload == NULL || len == 0)
    {
      fail (status, NEARBY_FRAME_ERROR_TRUNCATED, 0, 0, 0, 1);
      return 0;
    }
  if (len > NEARBY_ADV_SCAN_MAX)
    {
      fail (status, NEARBY_FRAME_ERROR_TOO_LONG, NEARBY_ADV_SCAN_MAX, 0, len, NEARBY_ADV_SCAN_MAX);
      return 0;
    }

  while (pos < len)
    {
      size_t ad_len = payload[pos];
      const uint8_t *value;
      size_t value_len;
      uint8_t type;

      if (ad_len == 0)
        {
          pos++;
          continue;
        }
      if (ad_len > len - pos - 1)
        {
          payload_fail (status, NEARBY_FRAME_ERROR_MALFORMED_AD, pos, 0, ad_len, len - pos - 1);
          break;
        }

      type = payload[pos + 1];
      value = payload + pos + 2;
      value_len = ad_len - 1;

      switch (type)
        {
        case AD_TYPE_FLAGS:
          if (value_len < 1)
            payload_fail (status, NEARBY_FRAME_ERROR_MALFORMED_AD, pos, type, ad_len, 2);
          break;

        case AD_TYPE_UUID16_INCOMPLETE:
        case AD_TYPE_UUID16_COMPLETE:
          if (value_len % 2 != 0)
            payload_fail (status, NEARBY_FRAME_ERROR_MALFORMED_AD, pos, type, ad_len, ad_len + 1);
          break;

        case AD_TYPE_SERVICE_DATA16:
        case AD_TYPE_MANUFACTURER_DATA:
          {
            NearbyFrame frame;
            uint16_t id;

            if (value_len < 2)
              {
                payload_fail (status, NEARBY_FRAME_ERROR_MALFORMED_AD, pos, type, ad_len, 3);
                break;
              }
            id = (uint16_t) (value[0] | (unsigned) value[1] << 8);
            if (type == AD_TYPE_SERVICE_DATA16)
              nearby_frame_decode_service_data (id, value + 2, value_len - 2, &frame);
            else
              nearby_frame_decode_manufacturer_data (id, value + 2, value_len - 2, &frame);
            if (frame.protocol == NEARBY_PROTOCOL_NONE)
              break;
            frame.payload_offset = pos + 4;
            if (n_frames < max_frames && frames != NULL)
              frames[n_frames++] = frame;
          }
          break;

        default:
          break;
        }

      pos += 1 + ad_len;
    }

  if (n_frames == 0 && status->error == NEARBY_FRAME_OK)
    fail (status, NEARBY_FRAME_ERROR_NOT_A_BEACON, 0, 0, len, 0);

  return n_frames;
}

size_t
nearby_frame_decode_advertisement (const uint8_t    *payload,
                                   size_t            len,
                                   NearbyFrame      *frames,
                                   size_t            max_frames,
                                   NearbyFrameError *payload_error)
{
  NearbyFrame status;
  size_t n_frames;

  n_frames = nearby_frame_decode_advertisement_detailed (payload, len, frames, max_frames, &status);
  if (payload_error != NULL)
    *payload_error = status.error;

  return n_frames;
}
