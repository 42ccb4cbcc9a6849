/* nearby-frame.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <string.h>

#include "nearby-frame.h"

/* Placeholder until the codec lands: everything is "not a beacon". */

const char *
nearby_frame_error_code (NearbyFrameError error)
{
  return error == NEARBY_FRAME_OK ? "ok" : "not-a-beacon";
}

const char *
nearby_frame_error_message (NearbyFrameError error)
{
  return error == NEARBY_FRAME_OK ? "" : "Not a beacon frame";
}

const char *
nearby_protocol_to_string (NearbyProtocol protocol)
{
  return "none";
}

const char *
nearby_frame_kind_to_string (NearbyFrameKind kind)
{
  return "none";
}

NearbyFrameError
nearby_frame_decode_service_data (uint16_t       uuid16,
                                  const uint8_t *data,
                                  size_t         len,
                                  NearbyFrame   *frame)
{
  memset (frame, 0, sizeof *frame);
  frame->error = NEARBY_FRAME_ERROR_NOT_A_BEACON;
  return frame->error;
}

NearbyFrameError
nearby_frame_decode_manufacturer_data (uint16_t       company_id,
                                       const uint8_t *data,
                                       size_t         len,
                                       NearbyFrame   *frame)
{
  return nearby_frame_decode_service_data (0, data, len, frame);
}

size_t
nearby_frame_decode_advertisement (const uint8_t    *payload,
                                   size_t            len,
                                   NearbyFrame      *frames,
                                   size_t            max_frames,
                                   NearbyFrameError *payload_error)
{
  *payload_error = NEARBY_FRAME_ERROR_NOT_A_BEACON;
  return 0;
}

NearbyFrameError
nearby_frame_encode_eddystone_url (const char *url,
                                   int8_t      tx_power,
                                   uint8_t    *out,
                                   size_t     *out_len,
                                   size_t     *excess)
{
  *out_len = 0;
  return NEARBY_FRAME_ERROR_UNSUPPORTED_SCHEME;
}

NearbyFrameError
nearby_frame_encode_uribeacon (const char *url,
                               uint8_t     flags,
                               int8_t      tx_power,
                               uint8_t    *out,
                               size_t     *out_len,
                               size_t     *excess)
{
  *out_len = 0;
  return NEARBY_FRAME_ERROR_UNSUPPORTED_SCHEME;
}
