/* nearby-frame.c: Eddystone, UriBeacon and iBeacon frames, decoded and encoded
 *
 * Pure C99: no GLib, no allocation. Every read is checked against the length it was given, so
 * the decoders can take any bytes a radio (or a fuzzer) hands them.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <stdio.h>
#include <string.h>

#include "nearby-frame.h"

#define EDDYSTONE_TYPE_UID 0x00
#define EDDYSTONE_TYPE_URL 0x10
#define EDDYSTONE_TYPE_TLM 0x20
#define EDDYSTONE_TYPE_EID 0x30

#define EDDYSTONE_UID_LEN       18
#define EDDYSTONE_UID_RFU_LEN   20
#define EDDYSTONE_TLM_LEN       14
#define EDDYSTONE_ETLM_LEN      18
#define EDDYSTONE_EID_LEN       10

#define URIBEACON_FLAG_INVISIBLE 0x01
#define URIBEACON_SCHEME_URN_UUID 0x04
#define UUID_LEN 16

#define IBEACON_LEN 23  /* 0x02 0x15, UUID, major, minor, measured power */

#define AD_TYPE_FLAGS              0x01
#define AD_TYPE_UUID16_INCOMPLETE  0x02
#define AD_TYPE_UUID16_COMPLETE    0x03
#define AD_TYPE_SERVICE_DATA16     0x16
#define AD_TYPE_MANUFACTURER_DATA  0xFF

/* The longest text one encoded byte can stand for (".info/"). */
#define EXPANSION_MAX_CHARS 6
/* Past this many characters after the scheme, a URL can never fit in 17 bytes. */
#define ENCODABLE_CHARS_MAX ((NEARBY_FRAME_ENCODED_URL_MAX - 1) * EXPANSION_MAX_CHARS)

static const char *const url_schemes[] = {
  "http://www.",
  "https://www.",
  "http://",
  "https://",
  "urn:uuid:",   /* UriBeacon only */
};
#define N_EDDYSTONE_SCHEMES 4
#define N_URIBEACON_SCHEMES 5

static const char *const url_expansions[] = {
  ".com/", ".org/", ".edu/", ".net/", ".info/", ".biz/", ".gov/",
  ".com", ".org", ".edu", ".net", ".info", ".biz", ".gov",
};
#define N_EXPANSIONS (sizeof url_expansions / sizeof url_expansions[0])

static const struct {
  const char *code;
  const char *message;
} error_texts[NEARBY_FRAME_N_ERRORS] = {
  [NEARBY_FRAME_OK] = { "ok", "The frame is valid." },
  [NEARBY_FRAME_ERROR_TRUNCATED] =
    { "truncated", "The frame is shorter than its frame type requires." },
  [NEARBY_FRAME_ERROR_TOO_LONG] =
    { "too-long", "The frame is longer than its frame type allows." },
  [NEARBY_FRAME_ERROR_UNKNOWN_FRAME_TYPE] =
    { "unknown-frame-type",
      "The Eddystone frame type is not defined: use 0x00 (UID), 0x10 (URL), 0x20 (TLM) or 0x30 (EID)." },
  [NEARBY_FRAME_ERROR_RESERVED_NIBBLE] =
    { "reserved-nibble", "The low four bits of the Eddystone frame type are reserved and must be zero." },
  [NEARBY_FRAME_ERROR_UNKNOWN_SCHEME] =
    { "unknown-scheme",
      "The URL scheme prefix byte is not defined: use 0x00–0x03 (and 0x04 urn:uuid: in UriBeacon)." },
  [NEARBY_FRAME_ERROR_RESERVED_BYTE] =
    { "reserved-byte",
      "The URL holds a reserved byte: only expansion codes 0x00–0x0D and printable ASCII 0x21–0x7E are allowed." },
  [NEARBY_FRAME_ERROR_EMPTY_URL] =
    { "empty-url", "The URL frame holds a scheme prefix but no address after it." },
  [NEARBY_FRAME_ERROR_RESERVED_FLAGS] =
    { "reserved-flags",
      "UriBeacon flag bits 1–7 are reserved and must be zero; only bit 0 (Invisible Hint) is defined." },
  [NEARBY_FRAME_ERROR_UNKNOWN_TLM_VERSION] =
    { "unknown-tlm-version", "The TLM version is not defined: use 0x00 (plain) or 0x01 (encrypted)." },
  [NEARBY_FRAME_ERROR_MALFORMED_AD] =
    { "malformed-ad", "An AD structure runs past the end of the payload or is too short for its type." },
  [NEARBY_FRAME_ERROR_NOT_A_BEACON] =
    { "not-a-beacon", "The data holds no Eddystone, UriBeacon or iBeacon frame." },
  [NEARBY_FRAME_ERROR_UNSUPPORTED_CHARACTER] =
    { "unsupported-character",
      "The URL has a character no frame can carry: only printable ASCII 0x21–0x7E is allowed; percent-encode the rest." },
  [NEARBY_FRAME_ERROR_URL_TOO_LONG] =
    { "url-too-long",
      "The encoded URL is longer than the 17 bytes a frame carries after its scheme prefix: use a URL shortener." },
  [NEARBY_FRAME_ERROR_UNSUPPORTED_SCHEME] =
    { "unsupported-scheme",
      "The URL must start with http:// or https:// (or urn:uuid: for UriBeacon)." },
  [NEARBY_FRAME_ERROR_INVALID_UUID] =
    { "invalid-uuid",
      "A urn:uuid: URI must be followed by a UUID such as b1e13d51-5fc9-4d5b-902b-ab668dd54981." },
};

const char *
nearby_frame_error_code (NearbyFrameError error)
{
  if ((unsigned) error >= NEARBY_FRAME_N_ERRORS)
    return "unknown-error";
  return error_texts[error].code;
}

const char *
nearby_frame_error_message (NearbyFrameError error)
{
  if ((unsigned) error >= NEARBY_FRAME_N_ERRORS)
    return "Unknown error.";
  return error_texts[error].message;
}

const char *
nearby_protocol_to_string (NearbyProtocol protocol)
{
  switch (protocol)
    {
    case NEARBY_PROTOCOL_EDDYSTONE: return "eddystone";
    case NEARBY_PROTOCOL_URIBEACON: return "uribeacon";
    case NEARBY_PROTOCOL_IBEACON:   return "ibeacon";
    case NEARBY_PROTOCOL_NONE:
    default:                        return "none";
    }
}

const char *
nearby_frame_kind_to_string (NearbyFrameKind kind)
{
  switch (kind)
    {
    case NEARBY_FRAME_KIND_URL:     return "url";
    case NEARBY_FRAME_KIND_UID:     return "uid";
    case NEARBY_FRAME_KIND_TLM:     return "tlm";
    case NEARBY_FRAME_KIND_ETLM:    return "etlm";
    case NEARBY_FRAME_KIND_EID:     return "eid";
    case NEARBY_FRAME_KIND_IBEACON: return "ibeacon";
    case NEARBY_FRAME_KIND_NONE:
    default:                        return "none";
    }
}

static const char *
frame_name (const NearbyFrame *frame)
{
  if (frame->protocol == NEARBY_PROTOCOL_URIBEACON)
    return "UriBeacon frame";
  if (frame->protocol == NEARBY_PROTOCOL_IBEACON)
    return "iBeacon frame";
  if (frame->protocol != NEARBY_PROTOCOL_EDDYSTONE)
    return "payload";

  switch (frame->kind)
    {
    case NEARBY_FRAME_KIND_URL:  return "Eddystone-URL frame";
    case NEARBY_FRAME_KIND_UID:  return "Eddystone-UID frame";
    case NEARBY_FRAME_KIND_TLM:  return "Eddystone-TLM frame";
    case NEARBY_FRAME_KIND_ETLM: return "Eddystone-TLM (encrypted) frame";
    case NEARBY_FRAME_KIND_EID:  return "Eddystone-EID frame";
    case NEARBY_FRAME_KIND_IBEACON:
    case NEARBY_FRAME_KIND_NONE:
    default:                     return "Eddystone frame";
    }
}

char *
nearby_frame_format_error (const NearbyFrame *frame,
                           char              *buffer,
                           size_t             size)
{
  const char *name = frame_name (frame);
  unsigned offset = (unsigned) frame->error_offset;
  unsigned byte = frame->error_byte;
  unsigned length = (unsigned) frame->error_length;
  unsigned limit = (unsigned) frame->error_limit;

  if (size == 0)
    return buffer;

  switch (frame->error)
    {
    case NEARBY_FRAME_ERROR_TRUNCATED:
      if (length == 0 && frame->protocol == NEARBY_PROTOCOL_NONE)
        snprintf (buffer, size, "The payload is empty: paste the advertising data as hex.");
      else if (frame->kind == NEARBY_FRAME_KIND_UID && length < EDDYSTONE_UID_LEN)
        snprintf (buffer, size,
                  "The Eddystone-UID frame is %u bytes long; it needs 18 (20 with the two reserved bytes).",
                  length);
      else if (frame->kind == NEARBY_FRAME_KIND_URL && byte == URIBEACON_SCHEME_URN_UUID)
        snprintf (buffer, size, "The %s is %u bytes long; a urn:uuid: URI needs exactly %u (a 16-byte UUID).",
                  name, length, limit);
      else
        snprintf (buffer, size, "The %s is %u byte%s long; it needs %s%u.",
                  name, length, length == 1 ? "" : "s",
                  frame->kind == NEARBY_FRAME_KIND_URL ? "at least " : "", limit);
      break;

    case NEARBY_FRAME_ERROR_TOO_LONG:
      if (frame->protocol == NEARBY_PROTOCOL_NONE)
        snprintf (buffer, size,
                  "The payload is %u bytes long; an advertisement with its scan response holds at most %u.",
                  length, limit);
      else if (frame->kind == NEARBY_FRAME_KIND_UID)
        snprintf (buffer, size,
                  "The Eddystone-UID frame is %u bytes long; it must be 18, or 20 with the two reserved bytes.",
                  length);
      else if (frame->kind == NEARBY_FRAME_KIND_URL && byte == URIBEACON_SCHEME_URN_UUID)
        snprintf (buffer, size, "The %s is %u bytes long; a urn:uuid: URI needs exactly %u (a 16-byte UUID).",
                  name, length, limit);
      else
        snprintf (buffer, size, "The %s is %u bytes long; it allows at most %u.", name, length, limit);
      break;

    case NEARBY_FRAME_ERROR_UNKNOWN_FRAME_TYPE:
      snprintf (buffer, size,
                "Eddystone frame type 0x%02X is not defined: expected 0x00 (UID), 0x10 (URL), 0x20 (TLM) or 0x30 (EID).",
                byte);
      break;

    case NEARBY_FRAME_ERROR_RESERVED_NIBBLE:
      snprintf (buffer, size,
                "Eddystone frame type byte 0x%02X has its reserved low four bits set: they must be zero (0x%02X).",
                byte, byte & 0xF0);
      break;

    case NEARBY_FRAME_ERROR_UNKNOWN_SCHEME:
      snprintf (buffer, size,
                "Byte %u, the URL scheme prefix, is 0x%02X, which is not defined: %s allows %s.",
                offset, byte, name,
                frame->protocol == NEARBY_PROTOCOL_URIBEACON
                  ? "0x00 http://www., 0x01 https://www., 0x02 http://, 0x03 https:// and 0x04 urn:uuid:"
                  : "0x00 http://www., 0x01 https://www., 0x02 http:// and 0x03 https://");
      break;

    case NEARBY_FRAME_ERROR_RESERVED_BYTE:
      snprintf (buffer, size,
                "Byte %u of the URL frame is 0x%02X, which is reserved: only expansion codes 0x00–0x0D and printable ASCII 0x21–0x7E are allowed.",
                offset, byte);
      break;

    case NEARBY_FRAME_ERROR_EMPTY_URL:
      snprintf (buffer, size,
                "The %s holds no address after byte %u: there is nothing to open.",
                name, offset > 0 ? offset - 1 : 0);
      break;

    case NEARBY_FRAME_ERROR_RESERVED_FLAGS:
      snprintf (buffer, size,
                "UriBeacon flags are 0x%02X: only bit 0 (Invisible Hint, 0x01) is defined; bits 1–7 must be zero.",
                byte);
      break;

    case NEARBY_FRAME_ERROR_UNKNOWN_TLM_VERSION:
      snprintf (buffer, size,
                "TLM version 0x%02X is not defined: use 0x00 (plain) or 0x01 (encrypted).", byte);
      break;

    case NEARBY_FRAME_ERROR_MALFORMED_AD:
      if (byte == AD_TYPE_UUID16_INCOMPLETE || byte == AD_TYPE_UUID16_COMPLETE)
        snprintf (buffer, size,
                  "The 16-bit UUID list at byte %u has an odd length (%u): each UUID takes two bytes.",
                  offset, length);
      else if (length > limit)
        snprintf (buffer, size,
                  "The AD structure at byte %u says it is %u bytes long, but only %u byte%s follow%s it.",
                  offset, length, limit, limit == 1 ? "" : "s", limit == 1 ? "s" : "");
      else
        snprintf (buffer, size,
                  "The AD structure at byte %u (type 0x%02X) is %u bytes long, too short for its type (at least %u).",
                  offset, byte, length, limit);
      break;

    case NEARBY_FRAME_ERROR_URL_TOO_LONG:
      snprintf (buffer, size,
                "The URL needs %u bytes with its scheme prefix, %u more than the %u a frame carries: use a URL shortener.",
                length, length - limit, limit);
      break;

    case NEARBY_FRAME_ERROR_UNSUPPORTED_CHARACTER:
      if (byte > 0x20 && byte < 0x7F)
        snprintf (buffer, size, "Character %u of the URL, “%c”, cannot be carried by a frame.", offset + 1, byte);
      else
        snprintf (buffer, size,
                  "Character %u of the URL is byte 0x%02X, which no frame can carry: only printable ASCII 0x21–0x7E is allowed; percent-encode it.",
                  offset + 1, byte);
      break;

    case NEARBY_FRAME_OK:
    case NEARBY_FRAME_ERROR_NOT_A_BEACON:
    case NEARBY_FRAME_ERROR_UNSUPPORTED_SCHEME:
    case NEARBY_FRAME_ERROR_INVALID_UUID:
    case NEARBY_FRAME_N_ERRORS:
    default:
      snprintf (buffer, size, "%s", nearby_frame_error_message (frame->error));
      break;
    }

  return buffer;
}

static NearbyFrameError
fail (NearbyFrame      *frame,
      NearbyFrameError  error,
      size_t            offset,
      uint8_t           byte,
      size_t            length,
      size_t            limit)
{
  frame->error = error;
  frame->error_offset = offset;
  frame->error_byte = byte;
  frame->error_length = length;
  frame->error_limit = limit;
  return error;
}

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

static void
reset_frame (NearbyFrame *frame)
{
  memset (frame, 0, sizeof *frame);
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

/* Encoding. The shortest encoding is a shortest path over character positions: from position i
 * one byte reaches i + 1 (a literal character) or i + strlen (expansion) when that expansion's
 * text starts at i. Costs are computed from the end, so cost[i] is the fewest bytes that encode
 * text[i..n). Greedy longest-match is not enough: "http://www.info/" takes five bytes after the
 * longest scheme prefix "http://www." ("info/" is literal), but four after "http://" ("www" and
 * ".info/"). So every scheme prefix is tried, each with the shortest path after it. */

static bool
is_literal (unsigned char c)
{
  return c > 0x20 && c < 0x7F;
}

static size_t
expansion_matches (const char *text,
                   size_t      remaining,
                   size_t      code)
{
  size_t len = strlen (url_expansions[code]);

  if (len <= remaining && memcmp (text, url_expansions[code], len) == 0)
    return len;
  return 0;
}

/* The fewest bytes that encode @text (all literal-able), in O(1) memory: a URL of any length
 * gets its exact excess. */
static size_t
shortest_cost (const char *text,
               size_t      n)
{
  size_t ring[EXPANSION_MAX_CHARS + 1];

  ring[n % (EXPANSION_MAX_CHARS + 1)] = 0;
  for (size_t i = n; i-- > 0;)
    {
      size_t best = ring[(i + 1) % (EXPANSION_MAX_CHARS + 1)] + 1;

      for (size_t code = 0; code < N_EXPANSIONS; code++)
        {
          size_t len = expansion_matches (text + i, n - i, code);

          if (len > 0 && ring[(i + len) % (EXPANSION_MAX_CHARS + 1)] + 1 < best)
            best = ring[(i + len) % (EXPANSION_MAX_CHARS + 1)] + 1;
        }
      ring[i % (EXPANSION_MAX_CHARS + 1)] = best;
    }

  return ring[0];
}

/* Writes the shortest encoding of @text (n <= ENCODABLE_CHARS_MAX) and returns its length. */
static size_t
shortest_encoding (const char *text,
                   size_t      n,
                   uint8_t    *out)
{
  size_t cost[ENCODABLE_CHARS_MAX + 1];
  size_t out_len = 0;
  size_t i = 0;

  cost[n] = 0;
  for (size_t j = n; j-- > 0;)
    {
      cost[j] = cost[j + 1] + 1;
      for (size_t code = 0; code < N_EXPANSIONS; code++)
        {
          size_t len = expansion_matches (text + j, n - j, code);

          if (len > 0 && cost[j + len] + 1 < cost[j])
            cost[j] = cost[j + len] + 1;
        }
    }

  /* Walk the path; on ties prefer the longest expansion, as hand encoders do. */
  while (i < n)
    {
      size_t best_code = N_EXPANSIONS;
      size_t best_len = 0;

      for (size_t code = 0; code < N_EXPANSIONS; code++)
        {
          size_t len = expansion_matches (text + i, n - i, code);

          if (len > best_len && cost[i + len] + 1 == cost[i])
            {
              best_code = code;
              best_len = len;
            }
        }
      if (best_code < N_EXPANSIONS)
        {
          out[out_len++] = (uint8_t) best_code;
          i += best_len;
        }
      else
        out[out_len++] = (uint8_t) text[i++];
    }

  return out_len;
}

static int
hex_value (char c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

static bool
parse_uuid (const char *text,
            uint8_t    *uuid)
{
  size_t o = 0;

  if (strlen (text) != 36)
    return false;
  for (size_t i = 0; i < 36;)
    {
      int high, low;

      if (i == 8 || i == 13 || i == 18 || i == 23)
        {
          if (text[i] != '-')
            return false;
          i++;
          continue;
        }
      high = hex_value (text[i]);
      low = hex_value (text[i + 1]);
      if (high < 0 || low < 0)
        return false;
      uuid[o++] = (uint8_t) (high << 4 | low);
      i += 2;
    }

  return o == UUID_LEN;
}

NearbyFrameError
nearby_frame_encode_url (NearbyProtocol  protocol,
                         const char     *url,
                         uint8_t         flags,
                         int8_t          tx_power,
                         uint8_t        *out,
                         size_t         *out_len,
                         NearbyFrame    *status)
{
  NearbyFrame scratch;
  size_t n_schemes;
  size_t best_scheme = N_URIBEACON_SCHEMES;
  size_t best_cost = (size_t) -1;
  size_t url_len;

  if (status == NULL)
    status = &scratch;
  reset_frame (status);
  status->protocol = protocol;
  status->kind = NEARBY_FRAME_KIND_URL;
  *out_len = 0;

  if (protocol == NEARBY_PROTOCOL_EDDYSTONE)
    n_schemes = N_EDDYSTONE_SCHEMES;
  else if (protocol == NEARBY_PROTOCOL_URIBEACON)
    n_schemes = N_URIBEACON_SCHEMES;
  else
    return fail (status, NEARBY_FRAME_ERROR_UNSUPPORTED_SCHEME, 0, 0, 0, 0);

  if (protocol == NEARBY_PROTOCOL_URIBEACON && (flags & ~URIBEACON_FLAG_INVISIBLE) != 0)
    return fail (status, NEARBY_FRAME_ERROR_RESERVED_FLAGS, 0, flags, 0, 0);

  if (url == NULL)
    url = "";
  url_len = strlen (url);

  out[0] = protocol == NEARBY_PROTOCOL_EDDYSTONE ? EDDYSTONE_TYPE_URL : flags;
  out[1] = (uint8_t) tx_power;

  if (protocol == NEARBY_PROTOCOL_URIBEACON &&
      strncmp (url, url_schemes[URIBEACON_SCHEME_URN_UUID],
               strlen (url_schemes[URIBEACON_SCHEME_URN_UUID])) == 0)
    {
      if (!parse_uuid (url + strlen (url_schemes[URIBEACON_SCHEME_URN_UUID]), out + 3))
        return fail (status, NEARBY_FRAME_ERROR_INVALID_UUID, 0, 0, url_len, 0);
      out[2] = URIBEACON_SCHEME_URN_UUID;
      *out_len = 3 + UUID_LEN;
      return NEARBY_FRAME_OK;
    }

  for (size_t i = 0; i < url_len; i++)
    {
      if (!is_literal ((unsigned char) url[i]))
        return fail (status, NEARBY_FRAME_ERROR_UNSUPPORTED_CHARACTER, i, (uint8_t) url[i], 0, 0);
    }

  for (size_t scheme = 0; scheme < n_schemes && scheme != URIBEACON_SCHEME_URN_UUID; scheme++)
    {
      size_t prefix_len = strlen (url_schemes[scheme]);
      size_t cost;

      /* A scheme that leaves nothing after it would make an empty-URL frame. */
      if (url_len <= prefix_len || memcmp (url, url_schemes[scheme], prefix_len) != 0)
        continue;
      cost = 1 + shortest_cost (url + prefix_len, url_len - prefix_len);
      if (cost < best_cost)
        {
          best_cost = cost;
          best_scheme = scheme;
        }
    }

  if (best_scheme == N_URIBEACON_SCHEMES)
    {
      bool bare_scheme = strcmp (url, "http://") == 0 || strcmp (url, "https://") == 0;

      return fail (status,
                   bare_scheme ? NEARBY_FRAME_ERROR_EMPTY_URL : NEARBY_FRAME_ERROR_UNSUPPORTED_SCHEME,
                   0, 0, url_len, 0);
    }

  if (best_cost > NEARBY_FRAME_ENCODED_URL_MAX)
    return fail (status, NEARBY_FRAME_ERROR_URL_TOO_LONG, 0, 0, best_cost, NEARBY_FRAME_ENCODED_URL_MAX);

  out[2] = (uint8_t) best_scheme;
  *out_len = 3 + shortest_encoding (url + strlen (url_schemes[best_scheme]),
                                    url_len - strlen (url_schemes[best_scheme]), out + 3);

  return NEARBY_FRAME_OK;
}

NearbyFrameError
nearby_frame_encode_eddystone_url (const char *url,
                                   int8_t      tx_power,
                                   uint8_t    *out,
                                   size_t     *out_len,
                                   size_t     *excess)
{
  NearbyFrame status;
  NearbyFrameError error;

  error = nearby_frame_encode_url (NEARBY_PROTOCOL_EDDYSTONE, url, 0, tx_power, out, out_len, &status);
  if (excess != NULL)
    *excess = error == NEARBY_FRAME_ERROR_URL_TOO_LONG ? status.error_length - status.error_limit : 0;

  return error;
}

NearbyFrameError
nearby_frame_encode_uribeacon (const char *url,
                               uint8_t     flags,
                               int8_t      tx_power,
                               uint8_t    *out,
                               size_t     *out_len,
                               size_t     *excess)
{
  NearbyFrame status;
  NearbyFrameError error;

  error = nearby_frame_encode_url (NEARBY_PROTOCOL_URIBEACON, url, flags, tx_power, out, out_len, &status);
  if (excess != NULL)
    *excess = error == NEARBY_FRAME_ERROR_URL_TOO_LONG ? status.error_length - status.error_limit : 0;

  return error;
}
