/* nearby-frame.h: beacon frames, decoded and encoded
 *
 * Pure C99 with no GLib, so that the fuzzers and firmware authors can take this folder alone.
 * Nothing here allocates: every result is written into caller-owned storage.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define NEARBY_UUID16_EDDYSTONE 0xFEAA
#define NEARBY_UUID16_URIBEACON 0xFED8
#define NEARBY_COMPANY_APPLE    0x004C

/* A legacy advertisement is 31 bytes; with its scan response, 62. */
#define NEARBY_ADV_MAX          31
#define NEARBY_ADV_SCAN_MAX     62

/* The longest URL a frame can expand to: "https://www." + 17 codes of up to 6 characters each
 * (Eddystone), or a UriBeacon scheme plus 17 codes. Rounded up, plus the NUL. */
#define NEARBY_FRAME_URL_MAX    128

/* Calibrated power outside this range, in dBm, means "unknown" rather than an error. */
#define NEARBY_TX_POWER_MIN     (-100)
#define NEARBY_TX_POWER_MAX     20

/* Wire facts an explanation of a rejected frame needs (the GLib side's nearby-frame-error): an
 * Eddystone-UID frame's length, UriBeacon's urn:uuid scheme byte, and the AD types of a list of
 * 16-bit UUIDs. */
#define NEARBY_EDDYSTONE_UID_LEN          18
#define NEARBY_URIBEACON_SCHEME_URN_UUID  0x04
#define NEARBY_AD_TYPE_UUID16_INCOMPLETE  0x02
#define NEARBY_AD_TYPE_UUID16_COMPLETE    0x03

typedef enum {
  NEARBY_PROTOCOL_NONE = 0,
  NEARBY_PROTOCOL_EDDYSTONE,
  NEARBY_PROTOCOL_URIBEACON,
  NEARBY_PROTOCOL_IBEACON,
} NearbyProtocol;

typedef enum {
  NEARBY_FRAME_KIND_NONE = 0,
  NEARBY_FRAME_KIND_URL,
  NEARBY_FRAME_KIND_UID,
  NEARBY_FRAME_KIND_TLM,
  NEARBY_FRAME_KIND_ETLM,
  NEARBY_FRAME_KIND_EID,
  NEARBY_FRAME_KIND_IBEACON,
} NearbyFrameKind;

/* Kinds are small consecutive numbers from NONE: an array indexed by kind has this many slots. */
#define NEARBY_FRAME_N_KINDS (NEARBY_FRAME_KIND_IBEACON + 1)

/* Every way a frame can be rejected. The values are stable: they are printed as `error_code`. */
typedef enum {
  NEARBY_FRAME_OK = 0,
  NEARBY_FRAME_ERROR_TRUNCATED,           /* shorter than its frame type requires */
  NEARBY_FRAME_ERROR_TOO_LONG,            /* longer than its frame type allows */
  NEARBY_FRAME_ERROR_UNKNOWN_FRAME_TYPE,  /* Eddystone frame type not URL/UID/TLM/EID */
  NEARBY_FRAME_ERROR_RESERVED_NIBBLE,     /* Eddystone frame type low nibble is not 0 */
  NEARBY_FRAME_ERROR_UNKNOWN_SCHEME,      /* URL scheme prefix byte is not defined */
  NEARBY_FRAME_ERROR_RESERVED_BYTE,       /* URL byte 0x0E-0x20 or 0x7F-0xFF */
  NEARBY_FRAME_ERROR_EMPTY_URL,           /* a URL frame whose URL is only a scheme */
  NEARBY_FRAME_ERROR_RESERVED_FLAGS,      /* UriBeacon flag bits other than Invisible Hint */
  NEARBY_FRAME_ERROR_UNKNOWN_TLM_VERSION, /* TLM version other than 0 (plain) or 1 (encrypted) */
  NEARBY_FRAME_ERROR_MALFORMED_AD,        /* an AD structure runs past the payload or is too short */
  NEARBY_FRAME_ERROR_NOT_A_BEACON,        /* well-formed, but holds no frame Nearby knows */
  NEARBY_FRAME_ERROR_UNSUPPORTED_CHARACTER, /* encode: the URL has a byte no frame can carry */
  NEARBY_FRAME_ERROR_URL_TOO_LONG,        /* encode: the encoded URL is over the limit */
  NEARBY_FRAME_ERROR_UNSUPPORTED_SCHEME,  /* encode: no scheme prefix matches the URL */
  NEARBY_FRAME_ERROR_INVALID_UUID,        /* encode: "urn:uuid:" is not followed by a UUID */
  NEARBY_FRAME_N_ERRORS
} NearbyFrameError;

typedef struct {
  NearbyProtocol   protocol;
  NearbyFrameKind  kind;
  NearbyFrameError error;          /* NEARBY_FRAME_OK when every field below is meaningful */
  uint16_t         service_uuid;   /* 0xFEAA, 0xFED8, or 0 (iBeacon) */

  /* Calibrated power: at 0 m for Eddystone and UriBeacon, at 1 m for iBeacon. */
  bool             tx_power_known;
  int8_t           tx_power;

  /* URL frames (Eddystone-URL, UriBeacon) */
  char             url[NEARBY_FRAME_URL_MAX];
  bool             invisible;      /* UriBeacon Invisible Hint flag */
  uint8_t          flags;          /* UriBeacon flags byte as broadcast */

  /* Eddystone-UID */
  uint8_t          namespace_id[10];
  uint8_t          instance_id[6];

  /* Eddystone-TLM v0 (plain) */
  uint16_t         battery_mv;     /* 0: not supported by the beacon */
  bool             temperature_known; /* false when the beacon sends 0x8000 */
  double           temperature_c;  /* signed 8.8 fixed point, converted */
  uint32_t         adv_count;
  uint32_t         uptime_ds;      /* tenths of a second since boot */

  /* Eddystone-TLM v1 (encrypted): opaque bytes as broadcast */
  uint8_t          etlm[12];
  uint16_t         etlm_salt;
  uint16_t         etlm_mic;

  /* Eddystone-EID: opaque ephemeral identifier */
  uint8_t          eid[8];

  /* iBeacon */
  uint8_t          ibeacon_uuid[16];
  uint16_t         ibeacon_major;
  uint16_t         ibeacon_minor;

  /* Where a rejected frame (or payload, or URL to encode) went wrong, for
   * nearby_frame_format_error(). Offsets count from the start of the bytes given to the decoder
   * (or the characters of the URL given to the encoder). */
  size_t           error_offset;
  uint8_t          error_byte;     /* the byte (or character) found at error_offset */
  size_t           error_length;   /* the length found: frame, AD structure or encoded URL */
  size_t           error_limit;    /* the length required or allowed */

  /* Where this frame's bytes start inside an advertising payload (0 when decoded alone) */
  size_t           payload_offset;
} NearbyFrame;

/* A legacy advertisement carries at most this many frames (one per 4-byte AD structure). */
#define NEARBY_FRAME_MAX_PER_PAYLOAD (NEARBY_ADV_SCAN_MAX / 4)

/* Scheme prefix plus encoded URL: at most 18 bytes in both Eddystone-URL and UriBeacon. */
#define NEARBY_FRAME_ENCODED_URL_MAX 18
/* Service data of an encoded URL frame: two header bytes plus the encoded URL. */
#define NEARBY_FRAME_URL_SERVICE_DATA_MAX (2 + NEARBY_FRAME_ENCODED_URL_MAX)

/* A stable, lower-case identifier for an error ("truncated", "reserved-byte", ...). */
const char      *nearby_frame_error_code       (NearbyFrameError  error);
/* A sentence a developer can act on. */
const char      *nearby_frame_error_message    (NearbyFrameError  error);
const char      *nearby_protocol_to_string     (NearbyProtocol    protocol);
const char      *nearby_frame_kind_to_string   (NearbyFrameKind   kind);

/* The detailed sentence for @frame->error, naming the offending byte, offset or length when
 * known ("Byte 5 is 0x1F, which is reserved: ..."). Writes at most @size bytes including the NUL
 * (truncating if needed) and returns @buffer. Use a buffer of NEARBY_FRAME_MESSAGE_MAX. */
#define NEARBY_FRAME_MESSAGE_MAX 256
char            *nearby_frame_format_error     (const NearbyFrame *frame,
                                                char              *buffer,
                                                size_t             size);

/* Decodes the value of one 16-bit service-data UUID (the bytes after the UUID).
 * Unknown UUIDs yield NEARBY_FRAME_ERROR_NOT_A_BEACON. Always fills @frame (zeroed first). */
NearbyFrameError nearby_frame_decode_service_data (uint16_t        uuid16,
                                                   const uint8_t  *data,
                                                   size_t          len,
                                                   NearbyFrame    *frame);

/* Decodes manufacturer data (the bytes after the company identifier). */
NearbyFrameError nearby_frame_decode_manufacturer_data (uint16_t        company_id,
                                                        const uint8_t  *data,
                                                        size_t          len,
                                                        NearbyFrame    *frame);

/* Decodes a whole advertising payload (AD structures; up to 62 bytes with a scan response).
 * Writes up to @max_frames frames, one per service-data or manufacturer-data structure that
 * names a known beacon (invalid frames included, with their error), and returns how many.
 * @payload_error says whether the AD structure itself is malformed, too long, or holds no
 * beacon; frames found before a malformed structure are still returned. A length byte of 0 is
 * padding (the non-significant part of a 31-byte advertisement) and is skipped, so that an
 * advertisement padded with zeros and followed by its scan response still parses. */
size_t           nearby_frame_decode_advertisement (const uint8_t    *payload,
                                                    size_t            len,
                                                    NearbyFrame      *frames,
                                                    size_t            max_frames,
                                                    NearbyFrameError *payload_error);

/* The same, with the payload's own problem (and its offset) described in @status, so that
 * nearby_frame_format_error (@status, ...) can explain it. @status->kind is always NONE. */
size_t           nearby_frame_decode_advertisement_detailed (const uint8_t *payload,
                                                             size_t         len,
                                                             NearbyFrame   *frames,
                                                             size_t         max_frames,
                                                             NearbyFrame   *status);

/* Encodes @url as the shortest Eddystone-URL service data (frame type, tx power, scheme, URL).
 * On NEARBY_FRAME_ERROR_URL_TOO_LONG, *@excess says by how many bytes it is over.
 * @out needs 20 bytes. */
NearbyFrameError nearby_frame_encode_eddystone_url (const char *url,
                                                    int8_t      tx_power,
                                                    uint8_t    *out,
                                                    size_t     *out_len,
                                                    size_t     *excess);

/* The same for UriBeacon service data (flags, tx power, scheme, URI). @out needs 20 bytes. */
NearbyFrameError nearby_frame_encode_uribeacon (const char *url,
                                                uint8_t     flags,
                                                int8_t      tx_power,
                                                uint8_t    *out,
                                                size_t     *out_len,
                                                size_t     *excess);

/* Encodes @url as the shortest service data of @protocol (EDDYSTONE: frame type 0x10, tx power;
 * URIBEACON: @flags, tx power; then the scheme prefix and the encoded URL). @out needs
 * NEARBY_FRAME_URL_SERVICE_DATA_MAX bytes. On error, @status (optional) says where: the offending
 * character (error_offset, error_byte) or the encoded length against the limit
 * (error_length, error_limit). */
NearbyFrameError nearby_frame_encode_url          (NearbyProtocol  protocol,
                                                   const char     *url,
                                                   uint8_t         flags,
                                                   int8_t          tx_power,
                                                   uint8_t        *out,
                                                   size_t         *out_len,
                                                   NearbyFrame    *status);

#ifdef __cplusplus
}
#endif
