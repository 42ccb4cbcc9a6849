/* nearby-frame.c: Eddystone, UriBeacon and iBeacon frames: their names, and their errors
 * in words
 *
 * Pure C99: no GLib, no allocation.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <stdio.h>

#include "nearby-frame-private.h"

/* Too short and too long alike: a urn:uuid: URI has one exact length. */
#define URN_UUID_LENGTH_MESSAGE \
  "The %s is %u bytes long; a urn:uuid: URI needs exactly %u (a 16-byte UUID)."

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
        snprintf (buffer, size, URN_UUID_LENGTH_MESSAGE, name, length, limit);
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
        snprintf (buffer, size, URN_UUID_LENGTH_MESSAGE, name, length, limit);
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
