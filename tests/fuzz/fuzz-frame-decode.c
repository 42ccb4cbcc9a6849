/* fuzz-frame-decode.c: every decoder of nearby-frame-decode.c on the same bytes
 *
 * The input is read as Eddystone and UriBeacon service data, Apple manufacturer data and a
 * whole advertising payload. Besides memory errors (ASan), it aborts when a decoder breaks its
 * promises: an error code out of range, a URL that is not a NUL-terminated http(s) or urn:uuid
 * string, a valid frame without a kind, or more frames than there was room for.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nearby-frame.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static void
check_frame (const NearbyFrame *frame)
{
  char message[NEARBY_FRAME_MESSAGE_MAX];

  if ((unsigned) frame->error >= NEARBY_FRAME_N_ERRORS)
    abort ();
  if (memchr (frame->url, '\0', sizeof frame->url) == NULL)
    abort ();
  nearby_frame_format_error (frame, message, sizeof message);
  if (memchr (message, '\0', sizeof message) == NULL || message[0] == '\0')
    abort ();

  if (frame->error != NEARBY_FRAME_OK)
    {
      if (frame->url[0] != '\0' || frame->tx_power_known)
        abort ();
      return;
    }
  if (frame->kind == NEARBY_FRAME_KIND_NONE || frame->protocol == NEARBY_PROTOCOL_NONE)
    abort ();
  if (frame->kind == NEARBY_FRAME_KIND_URL &&
      strncmp (frame->url, "http://", 7) != 0 && strncmp (frame->url, "https://", 8) != 0 &&
      strncmp (frame->url, "urn:uuid:", 9) != 0)
    abort ();
  if (frame->tx_power_known &&
      (frame->tx_power < NEARBY_TX_POWER_MIN || frame->tx_power > NEARBY_TX_POWER_MAX))
    abort ();
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  NearbyFrame frames[NEARBY_FRAME_MAX_PER_PAYLOAD];
  NearbyFrame frame;
  NearbyFrame status;
  size_t n;

  nearby_frame_decode_service_data (NEARBY_UUID16_EDDYSTONE, data, size, &frame);
  check_frame (&frame);
  nearby_frame_decode_service_data (NEARBY_UUID16_URIBEACON, data, size, &frame);
  check_frame (&frame);
  nearby_frame_decode_manufacturer_data (NEARBY_COMPANY_APPLE, data, size, &frame);
  check_frame (&frame);

  /* Few slots, so that the "no room for more frames" path is reached too. */
  n = nearby_frame_decode_advertisement_detailed (data, size, frames, 3, &status);
  if (n > 3 || (n == 0 && status.error == NEARBY_FRAME_OK))
    abort ();
  if ((unsigned) status.error >= NEARBY_FRAME_N_ERRORS)
    abort ();
  for (size_t i = 0; i < n; i++)
    {
      check_frame (&frames[i]);
      if (frames[i].payload_offset > size)
        abort ();
    }

  return 0;
}
