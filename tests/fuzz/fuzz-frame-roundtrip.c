/* fuzz-frame-roundtrip.c: whatever URL encodes, decodes to the same URL
 *
 * The input is a URL. When the encoder accepts it (Eddystone-URL or UriBeacon), decoding its
 * output must give the URL back, within the size limits; when it refuses, the error must say
 * why (an in-range code; the offending character for unsupported characters; the excess for
 * URLs that are too long). Anything else aborts.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "nearby-frame.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static void
check_protocol (NearbyProtocol  protocol,
                const char     *url,
                size_t          url_len)
{
  uint8_t out[NEARBY_FRAME_URL_SERVICE_DATA_MAX + 8];
  NearbyFrame status;
  NearbyFrame decoded;
  size_t out_len = 0;
  uint16_t uuid = protocol == NEARBY_PROTOCOL_EDDYSTONE ? NEARBY_UUID16_EDDYSTONE : NEARBY_UUID16_URIBEACON;
  NearbyFrameError error;

  /* Guard bytes: the encoder must never write past the documented 20 bytes. */
  memset (out, 0xA5, sizeof out);
  error = nearby_frame_encode_url (protocol, url, 0x01, -20, out, &out_len, &status);
  for (size_t i = NEARBY_FRAME_URL_SERVICE_DATA_MAX; i < sizeof out; i++)
    if (out[i] != 0xA5)
      abort ();

  if (error != NEARBY_FRAME_OK)
    {
      if ((unsigned) error >= NEARBY_FRAME_N_ERRORS || out_len != 0)
        abort ();
      if (error == NEARBY_FRAME_ERROR_UNSUPPORTED_CHARACTER &&
          (status.error_offset >= url_len || (uint8_t) url[status.error_offset] != status.error_byte))
        abort ();
      if (error == NEARBY_FRAME_ERROR_URL_TOO_LONG && status.error_length <= status.error_limit)
        abort ();
      return;
    }

  if (out_len < 4 || out_len > NEARBY_FRAME_URL_SERVICE_DATA_MAX)
    abort ();
  if (nearby_frame_decode_service_data (uuid, out, out_len, &decoded) != NEARBY_FRAME_OK)
    abort ();
  /* urn:uuid: comes back in the canonical lower case. */
  if (strncmp (url, "urn:uuid:", 9) == 0 ? strcasecmp (decoded.url, url) != 0 : strcmp (decoded.url, url) != 0)
    abort ();
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  char *url;

  /* Long inputs only test the same loops for longer. */
  if (size > 4096)
    return 0;

  url = malloc (size + 1);
  if (url == NULL)
    return 0;
  memcpy (url, data, size);
  url[size] = '\0';

  check_protocol (NEARBY_PROTOCOL_EDDYSTONE, url, strlen (url));
  check_protocol (NEARBY_PROTOCOL_URIBEACON, url, strlen (url));

  free (url);
  return 0;
}
