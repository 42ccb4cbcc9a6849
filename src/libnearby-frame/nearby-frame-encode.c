/* nearby-frame-encode.c: URLs encoded as the shortest Eddystone-URL and UriBeacon frames
 *
 * Pure C99: no GLib, no allocation.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <string.h>

#include "nearby-frame-private.h"

/* The longest text one encoded byte can stand for (".info/"). */
#define EXPANSION_MAX_CHARS 6
/* Past this many characters after the scheme, a URL can never fit in 17 bytes. */
#define ENCODABLE_CHARS_MAX ((NEARBY_FRAME_ENCODED_URL_MAX - 1) * EXPANSION_MAX_CHARS)

/* The shortest encoding is a shortest path over character positions: from position i
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

/* The short forms report how far over the limit the URL is, not where it failed. */
static NearbyFrameError
encode_url_with_excess (NearbyProtocol  protocol,
                        const char     *url,
                        uint8_t         flags,
                        int8_t          tx_power,
                        uint8_t        *out,
                        size_t         *out_len,
                        size_t         *excess)
{
  NearbyFrame status;
  NearbyFrameError error;

  error = nearby_frame_encode_url (protocol, url, flags, tx_power, out, out_len, &status);
  if (excess != NULL)
    *excess = error == NEARBY_FRAME_ERROR_URL_TOO_LONG ? status.error_length - status.error_limit
                                                       : 0;

  return error;
}

NearbyFrameError
nearby_frame_encode_eddystone_url (const char *url,
                                   int8_t      tx_power,
                                   uint8_t    *out,
                                   size_t     *out_len,
                                   size_t     *excess)
{
  return encode_url_with_excess (NEARBY_PROTOCOL_EDDYSTONE, url, 0, tx_power, out, out_len, excess);
}

NearbyFrameError
nearby_frame_encode_uribeacon (const char *url,
                               uint8_t     flags,
                               int8_t      tx_power,
                               uint8_t    *out,
                               size_t     *out_len,
                               size_t     *excess)
{
  return encode_url_with_excess (NEARBY_PROTOCOL_URIBEACON, url, flags, tx_power, out, out_len,
                                 excess);
}
