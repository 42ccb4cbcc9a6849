/* nearby-frame.c: Eddystone, UriBeacon and iBeacon frames: their names, their errors in words,
 * and URL encoding
 *
 * Pure C99: no GLib, no allocation.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <stdio.h>
#include <string.h>

#include "nearby-frame-private.h"

/* The longest text one encoded byte can stand for (".info/"). */
#define EXPANSION_MAX_CHARS 6
/* Past this many characters after the scheme, a URL can never fit in 17 bytes. */
#define ENCODABLE_CHARS_MAX ((NEARBY_FRAME_ENCODED_URL_MAX - 1) * EXPANSION_MAX_CHARS)

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
