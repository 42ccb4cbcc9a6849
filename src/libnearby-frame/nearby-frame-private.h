/* nearby-frame-private.h: the wire format and helpers that decoding, encoding and the error
 * descriptions share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <string.h>

#include "nearby-frame.h"

#define EDDYSTONE_TYPE_UID 0x00
#define EDDYSTONE_TYPE_URL 0x10
#define EDDYSTONE_TYPE_TLM 0x20
#define EDDYSTONE_TYPE_EID 0x30

#define EDDYSTONE_UID_LEN       NEARBY_EDDYSTONE_UID_LEN
#define EDDYSTONE_UID_RFU_LEN   20
#define EDDYSTONE_TLM_LEN       14
#define EDDYSTONE_ETLM_LEN      18
#define EDDYSTONE_EID_LEN       10

#define URIBEACON_FLAG_INVISIBLE 0x01
#define URIBEACON_SCHEME_URN_UUID NEARBY_URIBEACON_SCHEME_URN_UUID
#define UUID_LEN 16

#define IBEACON_LEN 23  /* 0x02 0x15, UUID, major, minor, measured power */

#define AD_TYPE_FLAGS              0x01
#define AD_TYPE_UUID16_INCOMPLETE  NEARBY_AD_TYPE_UUID16_INCOMPLETE
#define AD_TYPE_UUID16_COMPLETE    NEARBY_AD_TYPE_UUID16_COMPLETE
#define AD_TYPE_SERVICE_DATA16     0x16
#define AD_TYPE_MANUFACTURER_DATA  0xFF

/* A URL frame's scheme byte indexes the first table; its other bytes below N_EXPANSIONS index
 * the second. Eddystone defines the first four schemes; UriBeacon adds urn:uuid:. */
#define N_EDDYSTONE_SCHEMES 4
#define N_URIBEACON_SCHEMES 5
#define N_EXPANSIONS        14

static const char *const url_schemes[N_URIBEACON_SCHEMES] = {
  "http://www.",
  "https://www.",
  "http://",
  "https://",
  "urn:uuid:",   /* UriBeacon only */
};

static const char *const url_expansions[N_EXPANSIONS] = {
  ".com/", ".org/", ".edu/", ".net/", ".info/", ".biz/", ".gov/",
  ".com", ".org", ".edu", ".net", ".info", ".biz", ".gov",
};

/* Records in @frame which error was found where, and returns it. */
static inline NearbyFrameError
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

static inline void
reset_frame (NearbyFrame *frame)
{
  memset (frame, 0, sizeof *frame);
}
