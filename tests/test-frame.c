/* test-frame.c: the beacon frame codec against the published spec vectors, every decoding
 * error, and the decoders' properties over generated input
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib.h>
#include <string.h>

#include "nearby-frame.h"
#include "nearby-hex.h"

#define SEED 0x6e656172  /* fixed, so that a failure reproduces */

static GBytes *
hex (const char *text)
{
  g_autoptr(GError) error = NULL;
  GBytes *bytes = nearby_hex_parse (text, &error);

  g_assert_no_error (error);
  return bytes;
}

static NearbyFrameError
decode_hex (guint16      uuid,
            const char  *text,
            NearbyFrame *frame)
{
  g_autoptr(GBytes) bytes = hex (text);
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);

  return nearby_frame_decode_service_data (uuid, data, len, frame);
}

static size_t
decode_payload_hex (const char  *text,
                    NearbyFrame *frames,
                    size_t       max_frames,
                    NearbyFrame *status)
{
  g_autoptr(GBytes) bytes = hex (text);
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);

  return nearby_frame_decode_advertisement_detailed (data, len, frames, max_frames, status);
}

static char *
message_of (const NearbyFrame *frame)
{
  char buffer[NEARBY_FRAME_MESSAGE_MAX];

  return g_strdup (nearby_frame_format_error (frame, buffer, sizeof buffer));
}

/* Spec vectors ------------------------------------------------------------------------------ */

/* google/uribeacon android-uribeacon/uribeacon-library/src/androidTest/assets/testdata.json:
 * each URL with the scan record the reference library builds for it (tx power 20 unless
 * given, flags 0 unless given). Strings in the JSON arrays are written out as hex here. */
static const struct {
  const char *url;
  int tx;
  int flags;
  const char *scan_record;  /* NULL: the reference refuses to encode the URL */
} uribeacon_vectors[] = {
  { "http://123.com", 20, 0, "0303d8fe 0a16d8fe 0014 02 313233 07" },
  { "http://www.abcdefghijklmnop.org", 20, 0,
    "0303d8fe 1716d8fe 0014 00 6162636465666768696a6b6c6d6e6f70 08" },
  { "http://www.abcdefghijklmnopq.org", 20, 0, NULL },
  { "https://123.com/123", 20, 0, "0303d8fe 0d16d8fe 0014 03 313233 00 313233" },
  { "http://123.com", 8, 0, "0303d8fe 0a16d8fe 0008 02 313233 07" },
  { "http://123.com", 13, 0, "0303d8fe 0a16d8fe 000d 02 313233 07" },
  { "http://123.com", 17, 0, "0303d8fe 0a16d8fe 0011 02 313233 07" },
  { "http://123.com", 67, 0, "0303d8fe 0a16d8fe 0043 02 313233 07" },
  { "http://123.com", 20, 1, "0303d8fe 0a16d8fe 0114 02 313233 07" },
  { "http://www.uribeacon.org", 20, 0, "0303d8fe 1016d8fe 0014 00 757269626561636f6e 08" },
  { "https://123.com", 20, 0, "0303d8fe 0a16d8fe 0014 03 313233 07" },
  { "http://web.mit.edu/", 20, 0, "0303d8fe 0e16d8fe 0014 02 7765622e6d6974 02" },
  { "urn:uuid:B1E13D51-5FC9-4D5B-902B-AB668DD54981", 20, 0,
    "0303d8fe 1616d8fe 0014 04 b1e13d515fc94d5b902bab668dd54981" },
};

static void
test_spec_uribeacon_testdata (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (uribeacon_vectors); i++)
    {
      NearbyFrame frames[4];
      NearbyFrame status;
      guint8 out[NEARBY_FRAME_URL_SERVICE_DATA_MAX];
      size_t out_len = 0, excess = 0;
      NearbyFrameError error;
      size_t n;

      g_test_message ("vector %u: %s", i, uribeacon_vectors[i].url);
      error = nearby_frame_encode_uribeacon (uribeacon_vectors[i].url, uribeacon_vectors[i].flags,
                                             (int8_t) uribeacon_vectors[i].tx, out, &out_len, &excess);
      if (uribeacon_vectors[i].scan_record == NULL)
        {
          g_assert_cmpint (error, ==, NEARBY_FRAME_ERROR_URL_TOO_LONG);
          g_assert_cmpuint (excess, ==, 1);
          continue;
        }

      /* Decoding the reference scan record gives back the URL... */
      n = decode_payload_hex (uribeacon_vectors[i].scan_record, frames, G_N_ELEMENTS (frames), &status);
      g_assert_cmpuint (n, ==, 1);
      g_assert_cmpint (status.error, ==, NEARBY_FRAME_OK);
      g_assert_cmpint (frames[0].error, ==, NEARBY_FRAME_OK);
      g_assert_cmpint (frames[0].protocol, ==, NEARBY_PROTOCOL_URIBEACON);
      g_assert_cmpint (frames[0].kind, ==, NEARBY_FRAME_KIND_URL);
      g_assert_cmpint (g_ascii_strcasecmp (frames[0].url, uribeacon_vectors[i].url), ==, 0);
      g_assert_cmpint (frames[0].invisible, ==, uribeacon_vectors[i].flags == 1);
      /* ...and tx power 67 dBm is out of range: unknown, not an error. */
      g_assert_cmpint (frames[0].tx_power_known, ==, uribeacon_vectors[i].tx <= 20);
      if (frames[0].tx_power_known)
        g_assert_cmpint (frames[0].tx_power, ==, uribeacon_vectors[i].tx);

      /* ...and encoding the URL gives the reference bytes (the service data after the UUID). */
      {
        g_autoptr(GBytes) record = hex (uribeacon_vectors[i].scan_record);
        gsize record_len;
        const guint8 *bytes = g_bytes_get_data (record, &record_len);

        g_assert_cmpint (error, ==, NEARBY_FRAME_OK);
        g_assert_cmpmem (out, out_len, bytes + 8, record_len - 8);
      }
    }
}

/* The same file's last vector: "" gives service data with flags and tx power only. The
 * reference library accepts it; a browser has nothing to open, so Nearby says so. */
static void
test_spec_uribeacon_empty (void)
{
  NearbyFrame frames[2];
  NearbyFrame status;
  g_autofree char *message = NULL;

  g_assert_cmpuint (decode_payload_hex ("0303d8fe 0516d8fe 0014", frames, 2, &status), ==, 1);
  g_assert_cmpint (frames[0].error, ==, NEARBY_FRAME_ERROR_EMPTY_URL);
  g_assert_cmpstr (nearby_frame_error_code (frames[0].error), ==, "empty-url");
  message = message_of (&frames[0]);
  g_assert_nonnull (strstr (message, "no address"));
}

/* google/uribeacon android-uribeacon/uribeacon-library/src/androidTest/java/org/uribeacon/beacon/
 * TestData.java: adv_1 (flags and a local name) is not a UriBeacon; adv_2 is, with tx 0x20. */
static void
test_spec_uribeacon_test_data_java (void)
{
  NearbyFrame frames[2];
  NearbyFrame status;
  guint8 out[NEARBY_FRAME_URL_SERVICE_DATA_MAX];
  size_t out_len, excess;
  g_autoptr(GBytes) expected = NULL;

  g_assert_cmpuint (decode_payload_hex ("020101 0a09 5065646f6d65746572", frames, 2, &status), ==, 0);
  g_assert_cmpint (status.error, ==, NEARBY_FRAME_ERROR_NOT_A_BEACON);

  g_assert_cmpuint (decode_payload_hex ("020104 0303d8fe 1016d8fe 00 20 00 757269626561636f6e 08",
                                        frames, 2, &status), ==, 1);
  g_assert_cmpint (frames[0].error, ==, NEARBY_FRAME_OK);
  g_assert_cmpstr (frames[0].url, ==, "http://www.uribeacon.org");
  g_assert_cmpint (frames[0].flags, ==, 0);
  g_assert_false (frames[0].tx_power_known);  /* 0x20 = 32 dBm is above +20 */

  /* urlTestByteArray */
  g_assert_cmpint (decode_hex (NEARBY_UUID16_URIBEACON, "00 00 01 757269626561636f6e 01 74657374",
                               &frames[0]), ==, NEARBY_FRAME_OK);
  g_assert_cmpstr (frames[0].url, ==, "https://www.uribeacon.org/test");
  g_assert_cmpint (nearby_frame_encode_uribeacon ("https://www.uribeacon.org/test", 0, 0, out, &out_len,
                                                  &excess), ==, NEARBY_FRAME_OK);
  expected = hex ("00 00 01 757269626561636f6e 01 74657374");
  g_assert_cmpmem (out, out_len, g_bytes_get_data (expected, NULL), g_bytes_get_size (expected));

  /* longButValidUrlString / longButInvalidUrlString: 17 and 18 bytes after the scheme */
  g_assert_cmpint (nearby_frame_encode_uribeacon ("http://23456789111315171", 0, 0, out, &out_len, &excess),
                   ==, NEARBY_FRAME_OK);
  g_assert_cmpuint (out_len, ==, 2 + 18);
  g_assert_cmpint (nearby_frame_encode_uribeacon ("http://234567891113151719", 0, 0, out, &out_len, &excess),
                   ==, NEARBY_FRAME_ERROR_URL_TOO_LONG);
  g_assert_cmpuint (excess, ==, 1);

  /* malformedUrlString */
  g_assert_cmpint (nearby_frame_encode_uribeacon ("wrong://wrong", 0, 0, out, &out_len, &excess),
                   ==, NEARBY_FRAME_ERROR_UNSUPPORTED_SCHEME);
}

/* google/eddystone eddystone-url/README.md: the example URL, the tx power examples (0x12 is
 * +18 dBm, 0xEE is -18 dBm) and the scheme and expansion tables. */
static void
test_spec_eddystone_url (void)
{
  static const char *const expansions[] = {
    ".com/", ".org/", ".edu/", ".net/", ".info/", ".biz/", ".gov/",
    ".com", ".org", ".edu", ".net", ".info", ".biz", ".gov",
  };
  static const char *const schemes[] = { "http://www.", "https://www.", "http://", "https://" };
  NearbyFrame frame;

  g_assert_cmpint (decode_hex (NEARBY_UUID16_EDDYSTONE, "10 12 03 676f6f2e676c2f417131387a46", &frame),
                   ==, NEARBY_FRAME_OK);
  g_assert_cmpstr (frame.url, ==, "https://goo.gl/Aq18zF");
  g_assert_true (frame.tx_power_known);
  g_assert_cmpint (frame.tx_power, ==, 18);
  g_assert_cmpint (decode_hex (NEARBY_UUID16_EDDYSTONE, "10 ee 03 676f6f2e676c2f417131387a46", &frame),
                   ==, NEARBY_FRAME_OK);
  g_assert_cmpint (frame.tx_power, ==, -18);

  for (guint s = 0; s < G_N_ELEMENTS (schemes); s++)
    for (guint code = 0; code < G_N_ELEMENTS (expansions); code++)
      {
        guint8 data[] = { 0x10, 0xee, (guint8) s, 'a', (guint8) code };
        g_autofree char *expected = g_strconcat (schemes[s], "a", expansions[code], NULL);

        g_assert_cmpint (nearby_frame_decode_service_data (NEARBY_UUID16_EDDYSTONE, data, sizeof data,
                                                           &frame), ==, NEARBY_FRAME_OK);
        g_assert_cmpstr (frame.url, ==, expected);
      }

  /* 0x04 urn:uuid: is UriBeacon's; Eddystone-URL stops at 0x03. */
  g_assert_cmpint (decode_hex (NEARBY_UUID16_EDDYSTONE, "10 ee 04 b1e13d515fc94d5b902bab668dd54981", &frame),
                   ==, NEARBY_FRAME_ERROR_UNKNOWN_SCHEME);
}

/* google/eddystone eddystone-uid/README.md: 20 bytes (18 without the reserved bytes), namespace
 * from the elided UUID example 8b0ca750-e7a7-4e14-bd99-095477cb3e77 -> 8b0ca750095477cb3e77. */
static void
test_spec_eddystone_uid (void)
{
  NearbyFrame frame;
  g_autofree char *namespace_hex = NULL;
  g_autofree char *instance_hex = NULL;

  g_assert_cmpint (decode_hex (NEARBY_UUID16_EDDYSTONE, "00 e7 8b0ca750095477cb3e77 010203040506 0000",
                               &frame), ==, NEARBY_FRAME_OK);
  g_assert_cmpint (frame.kind, ==, NEARBY_FRAME_KIND_UID);
  g_assert_cmpint (frame.tx_power, ==, -25);
  namespace_hex = nearby_hex_format (frame.namespace_id, sizeof frame.namespace_id);
  instance_hex = nearby_hex_format (frame.instance_id, sizeof frame.instance_id);
  g_assert_cmpstr (namespace_hex, ==, "8b0ca750095477cb3e77");
  g_assert_cmpstr (instance_hex, ==, "010203040506");

  /* "Existing UID implementations that truncate the frame to omit the RFU bytes" */
  g_assert_cmpint (decode_hex (NEARBY_UUID16_EDDYSTONE, "00 e7 8b0ca750095477cb3e77 010203040506",
                               &frame), ==, NEARBY_FRAME_OK);
  g_assert_cmpint (decode_hex (NEARBY_UUID16_EDDYSTONE, "00 e7 8b0ca750095477cb3e77 0102030405",
                               &frame), ==, NEARBY_FRAME_ERROR_TRUNCATED);
  /* One reserved byte of two: cut short. */
  g_assert_cmpint (decode_hex (NEARBY_UUID16_EDDYSTONE, "00 e7 8b0ca750095477cb3e77 010203040506 00",
                               &frame), ==, NEARBY_FRAME_ERROR_TRUNCATED);
  g_assert_cmpint (decode_hex (NEARBY_UUID16_EDDYSTONE, "00 e7 8b0ca750095477cb3e77 010203040506 000000",
                               &frame), ==, NEARBY_FRAME_ERROR_TOO_LONG);
}

/* google/eddystone eddystone-tlm/tlm-plain.md and tlm-encrypted.md: big-endian fields, 8.8
 * temperature, 0x8000 for "no sensor", battery 0 for "not battery powered", fixed lengths
 * (service data length 0x11 = 14 bytes of frame; 18 bytes encrypted). */
static void
test_spec_eddystone_tlm (void)
{
  NearbyFrame frame;
  g_autofree char *etlm_hex = NULL;

  g_assert_cmpint (decode_hex (NEARBY_UUID16_EDDYSTONE, "20 00 0bb8 1780 00001000 00002710", &frame),
                   ==, NEARBY_FRAME_OK);
  g_assert_cmpint (frame.kind, ==, NEARBY_FRAME_KIND_TLM);
  g_assert_cmpuint (frame.battery_mv, ==, 3000);
  g_assert_true (frame.temperature_known);
  g_assert_cmpfloat (frame.temperature_c, ==, 23.5);
  g_assert_cmpuint (frame.adv_count, ==, 4096);
  g_assert_cmpuint (frame.uptime_ds, ==, 10000);

  g_assert_cmpint (decode_hex (NEARBY_UUID16_EDDYSTONE, "20 00 0000 8000 ffffffff 00000001", &frame),
                   ==, NEARBY_FRAME_OK);
  g_assert_cmpuint (frame.battery_mv, ==, 0);
  g_assert_false (frame.temperature_known);
  g_assert_cmpuint (frame.adv_count, ==, 0xffffffff);

  g_assert_cmpint (decode_hex (NEARBY_UUID16_EDDYSTONE, "20 00 0bb8 ff80 00000000 00000000", &frame),
                   ==, NEARBY_FRAME_OK);
  g_assert_cmpfloat (frame.temperature_c, ==, -0.5);

  g_assert_cmpint (decode_hex (NEARBY_UUID16_EDDYSTONE, "20 01 0102030405060708090a0b0c 1234 abcd", &frame),
                   ==, NEARBY_FRAME_OK);
  g_assert_cmpint (frame.kind, ==, NEARBY_FRAME_KIND_ETLM);
  etlm_hex = nearby_hex_format (frame.etlm, sizeof frame.etlm);
  g_assert_cmpstr (etlm_hex, ==, "0102030405060708090a0b0c");
  g_assert_cmpuint (frame.etlm_salt, ==, 0x1234);
  g_assert_cmpuint (frame.etlm_mic, ==, 0xabcd);

  g_assert_cmpint (decode_hex (NEARBY_UUID16_EDDYSTONE, "20 00 0bb8 1780 00001000 000027", &frame),
                   ==, NEARBY_FRAME_ERROR_TRUNCATED);
  g_assert_cmpint (decode_hex (NEARBY_UUID16_EDDYSTONE, "20 00 0bb8 1780 00001000 0000271000", &frame),
                   ==, NEARBY_FRAME_ERROR_TOO_LONG);
  g_assert_cmpint (decode_hex (NEARBY_UUID16_EDDYSTONE, "20 01 0102030405060708090a0b0c 1234 ab", &frame),
                   ==, NEARBY_FRAME_ERROR_TRUNCATED);
}

/* google/eddystone eddystone-eid/README.md: 0x30, ranging data, 8-byte EID, nothing after. */
static void
test_spec_eddystone_eid (void)
{
  NearbyFrame frame;
  g_autofree char *eid_hex = NULL;

  g_assert_cmpint (decode_hex (NEARBY_UUID16_EDDYSTONE, "30 f6 a1b2c3d4e5f60718", &frame), ==, NEARBY_FRAME_OK);
  g_assert_cmpint (frame.kind, ==, NEARBY_FRAME_KIND_EID);
  g_assert_cmpint (frame.tx_power, ==, -10);
  eid_hex = nearby_hex_format (frame.eid, sizeof frame.eid);
  g_assert_cmpstr (eid_hex, ==, "a1b2c3d4e5f60718");
  g_assert_cmpint (decode_hex (NEARBY_UUID16_EDDYSTONE, "30 f6 a1b2c3d4e5f607", &frame),
                   ==, NEARBY_FRAME_ERROR_TRUNCATED);
  g_assert_cmpint (decode_hex (NEARBY_UUID16_EDDYSTONE, "30 f6 a1b2c3d4e5f6071800", &frame),
                   ==, NEARBY_FRAME_ERROR_TOO_LONG);
}

/* The iBeacon layout: Apple manufacturer data (4c00), then 02 15, UUID, major, minor
 * (big-endian), measured power at 1 m. The UUID is the one Apple's AirLocate sample uses. */
static void
test_ibeacon (void)
{
  NearbyFrame frames[2];
  NearbyFrame status;
  g_autofree char *message = NULL;

  g_assert_cmpuint (decode_payload_hex ("0201061aff4c000215e2c56db5dffb48d2b060d0f5a71096e000010002c5",
                                        frames, 2, &status), ==, 1);
  g_assert_cmpint (frames[0].error, ==, NEARBY_FRAME_OK);
  g_assert_cmpint (frames[0].protocol, ==, NEARBY_PROTOCOL_IBEACON);
  g_assert_cmpuint (frames[0].ibeacon_major, ==, 1);
  g_assert_cmpuint (frames[0].ibeacon_minor, ==, 2);
  g_assert_cmpint (frames[0].tx_power, ==, -59);
  g_assert_cmpuint (frames[0].ibeacon_uuid[0], ==, 0xe2);

  /* Other Apple records are not beacons; a cut iBeacon is a truncated frame. */
  g_assert_cmpuint (decode_payload_hex ("0bff4c001006031d1a0b0c0d", frames, 2, &status), ==, 0);
  g_assert_cmpint (status.error, ==, NEARBY_FRAME_ERROR_NOT_A_BEACON);
  g_assert_cmpuint (decode_payload_hex ("0bff4c000215e2c56db5dffb", frames, 2, &status), ==, 1);
  g_assert_cmpint (frames[0].error, ==, NEARBY_FRAME_ERROR_TRUNCATED);
  message = message_of (&frames[0]);
  g_assert_cmpstr (message, ==, "The iBeacon frame is 8 bytes long; it needs 23.");
}

/* Errors ------------------------------------------------------------------------------------ */

static const struct {
  guint16 uuid;
  const char *hex;
  NearbyFrameError error;
  const char *code;
  const char *message;
} error_vectors[] = {
  { NEARBY_UUID16_EDDYSTONE, "", NEARBY_FRAME_ERROR_TRUNCATED, "truncated",
    "The Eddystone frame is 0 bytes long; it needs 2." },
  { NEARBY_UUID16_EDDYSTONE, "10 ee", NEARBY_FRAME_ERROR_TRUNCATED, "truncated",
    "The Eddystone-URL frame is 2 bytes long; it needs at least 4." },
  { NEARBY_UUID16_EDDYSTONE, "10 ee 03 6162636465666768696a6b6c6d6e6f707172", NEARBY_FRAME_ERROR_TOO_LONG,
    "too-long", "The Eddystone-URL frame is 21 bytes long; it allows at most 20." },
  { NEARBY_UUID16_EDDYSTONE, "40 ee", NEARBY_FRAME_ERROR_UNKNOWN_FRAME_TYPE, "unknown-frame-type",
    "Eddystone frame type 0x40 is not defined: expected 0x00 (UID), 0x10 (URL), 0x20 (TLM) or 0x30 (EID)." },
  { NEARBY_UUID16_EDDYSTONE, "11 ee 03 61", NEARBY_FRAME_ERROR_RESERVED_NIBBLE, "reserved-nibble",
    "Eddystone frame type byte 0x11 has its reserved low four bits set: they must be zero (0x10)." },
  { NEARBY_UUID16_EDDYSTONE, "10 ee 05 61", NEARBY_FRAME_ERROR_UNKNOWN_SCHEME, "unknown-scheme",
    "Byte 2, the URL scheme prefix, is 0x05, which is not defined: Eddystone-URL frame allows "
    "0x00 http://www., 0x01 https://www., 0x02 http:// and 0x03 https://." },
  { NEARBY_UUID16_URIBEACON, "00 ee 05 61", NEARBY_FRAME_ERROR_UNKNOWN_SCHEME, "unknown-scheme", NULL },
  { NEARBY_UUID16_EDDYSTONE, "10 ee 03 61 62 1f", NEARBY_FRAME_ERROR_RESERVED_BYTE, "reserved-byte",
    "Byte 5 of the URL frame is 0x1F, which is reserved: only expansion codes 0x00–0x0D and printable "
    "ASCII 0x21–0x7E are allowed." },
  { NEARBY_UUID16_EDDYSTONE, "10 ee 03 20", NEARBY_FRAME_ERROR_RESERVED_BYTE, "reserved-byte", NULL },
  { NEARBY_UUID16_EDDYSTONE, "10 ee 03 0e", NEARBY_FRAME_ERROR_RESERVED_BYTE, "reserved-byte", NULL },
  { NEARBY_UUID16_EDDYSTONE, "10 ee 03 7f", NEARBY_FRAME_ERROR_RESERVED_BYTE, "reserved-byte", NULL },
  { NEARBY_UUID16_URIBEACON, "00 ee 03 61 ff", NEARBY_FRAME_ERROR_RESERVED_BYTE, "reserved-byte", NULL },
  { NEARBY_UUID16_EDDYSTONE, "10 ee 03", NEARBY_FRAME_ERROR_EMPTY_URL, "empty-url",
    "The Eddystone-URL frame holds no address after byte 2: there is nothing to open." },
  { NEARBY_UUID16_URIBEACON, "00 ee 04", NEARBY_FRAME_ERROR_EMPTY_URL, "empty-url", NULL },
  { NEARBY_UUID16_URIBEACON, "00 ee 04 b1e13d51", NEARBY_FRAME_ERROR_TRUNCATED, "truncated",
    "The UriBeacon frame is 7 bytes long; a urn:uuid: URI needs exactly 19 (a 16-byte UUID)." },
  { NEARBY_UUID16_URIBEACON, "00 ee 04 b1e13d515fc94d5b902bab668dd5498100", NEARBY_FRAME_ERROR_TOO_LONG,
    "too-long", "The UriBeacon frame is 20 bytes long; a urn:uuid: URI needs exactly 19 (a 16-byte UUID)." },
  { NEARBY_UUID16_URIBEACON, "02 ee 03 61", NEARBY_FRAME_ERROR_RESERVED_FLAGS, "reserved-flags",
    "UriBeacon flags are 0x02: only bit 0 (Invisible Hint, 0x01) is defined; bits 1–7 must be zero." },
  { NEARBY_UUID16_URIBEACON, "00", NEARBY_FRAME_ERROR_TRUNCATED, "truncated", NULL },
  { NEARBY_UUID16_EDDYSTONE, "20 02 0bb8 1780 00001000 00002710", NEARBY_FRAME_ERROR_UNKNOWN_TLM_VERSION,
    "unknown-tlm-version", "TLM version 0x02 is not defined: use 0x00 (plain) or 0x01 (encrypted)." },
  { NEARBY_UUID16_EDDYSTONE, "00 e7 8b0ca750", NEARBY_FRAME_ERROR_TRUNCATED, "truncated",
    "The Eddystone-UID frame is 6 bytes long; it needs 18 (20 with the two reserved bytes)." },
  { 0x180f, "64", NEARBY_FRAME_ERROR_NOT_A_BEACON, "not-a-beacon", NULL },
};

static void
test_errors (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (error_vectors); i++)
    {
      NearbyFrame frame;
      g_autofree char *message = NULL;

      g_test_message ("error vector %u: %s", i, error_vectors[i].hex);
      g_assert_cmpint (decode_hex (error_vectors[i].uuid, error_vectors[i].hex, &frame), ==,
                       error_vectors[i].error);
      g_assert_cmpint (frame.error, ==, error_vectors[i].error);
      g_assert_cmpstr (nearby_frame_error_code (frame.error), ==, error_vectors[i].code);
      /* A rejected frame never shows a URL or a distance. */
      g_assert_cmpstr (frame.url, ==, "");
      g_assert_false (frame.tx_power_known);
      message = message_of (&frame);
      if (error_vectors[i].message != NULL)
        g_assert_cmpstr (message, ==, error_vectors[i].message);
      g_assert_cmpuint (strlen (message), >, 20);
    }
}

static void
test_error_codes_distinct (void)
{
  for (int a = 0; a < NEARBY_FRAME_N_ERRORS; a++)
    {
      g_assert_cmpuint (strlen (nearby_frame_error_message (a)), >, 10);
      for (int b = a + 1; b < NEARBY_FRAME_N_ERRORS; b++)
        g_assert_cmpstr (nearby_frame_error_code (a), !=, nearby_frame_error_code (b));
    }
  g_assert_cmpstr (nearby_frame_error_code (NEARBY_FRAME_N_ERRORS + 3), ==, "unknown-error");
}

/* Tx power outside -100..+20 is "unknown", not an error. */
static void
test_tx_power_range (void)
{
  static const struct { guint8 byte; gboolean known; int value; } cases[] = {
    { 0x14, TRUE, 20 }, { 0x15, FALSE, 0 }, { 0x9c, TRUE, -100 }, { 0x9b, FALSE, 0 },
    { 0x00, TRUE, 0 }, { 0x7f, FALSE, 0 }, { 0x80, FALSE, 0 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      guint8 data[] = { 0x10, cases[i].byte, 0x03, 'a', 0x07 };
      NearbyFrame frame;

      g_assert_cmpint (nearby_frame_decode_service_data (NEARBY_UUID16_EDDYSTONE, data, sizeof data, &frame),
                       ==, NEARBY_FRAME_OK);
      g_assert_cmpint (frame.tx_power_known, ==, cases[i].known);
      if (cases[i].known)
        g_assert_cmpint (frame.tx_power, ==, cases[i].value);
    }
}

/* Whole payloads ------------------------------------------------------------------------------ */

static void
test_payload_structures (void)
{
  NearbyFrame frames[NEARBY_FRAME_MAX_PER_PAYLOAD];
  NearbyFrame status;
  g_autofree char *message = NULL;
  size_t n;

  /* A URL and a TLM frame in one advertisement plus scan response (62 bytes max), with zero
   * padding between them as a 31-byte advertising buffer has. */
  n = decode_payload_hex ("020106 0303aafe 0a16aafe 10ec 03 616263 07 00000000000000000000000000"
                          "1116aafe 2000 0bb8 1780 00001000 00002710",
                          frames, G_N_ELEMENTS (frames), &status);
  g_assert_cmpint (status.error, ==, NEARBY_FRAME_OK);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpstr (frames[0].url, ==, "https://abc.com");
  g_assert_cmpuint (frames[0].payload_offset, ==, 11);
  g_assert_cmpint (frames[1].kind, ==, NEARBY_FRAME_KIND_TLM);
  g_assert_cmpuint (frames[1].battery_mv, ==, 3000);

  /* Only as many frames as the caller has room for. */
  n = decode_payload_hex ("0a16aafe10ec0361626307 0a16aafe10ec0378797a07", frames, 1, &status);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpstr (frames[0].url, ==, "https://abc.com");

  /* An invalid frame is still a frame, with its error. */
  n = decode_payload_hex ("0303aafe 0616aafe 10ec 03", frames, 2, &status);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpint (frames[0].error, ==, NEARBY_FRAME_ERROR_EMPTY_URL);
  g_assert_cmpint (status.error, ==, NEARBY_FRAME_OK);

  /* A structure running past the end: the frames before it survive. */
  n = decode_payload_hex ("0a16aafe10ec0361626307 1616aafe10", frames, 2, &status);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpstr (frames[0].url, ==, "https://abc.com");
  g_assert_cmpint (status.error, ==, NEARBY_FRAME_ERROR_MALFORMED_AD);
  message = message_of (&status);
  g_assert_cmpstr (message, ==, "The AD structure at byte 11 says it is 22 bytes long, but only 4 bytes follow it.");
  g_clear_pointer (&message, g_free);

  /* Flags and UUID lists are not frames; an odd UUID list is malformed. */
  n = decode_payload_hex ("020106 0303aafe", frames, 2, &status);
  g_assert_cmpuint (n, ==, 0);
  g_assert_cmpint (status.error, ==, NEARBY_FRAME_ERROR_NOT_A_BEACON);
  n = decode_payload_hex ("0403aafed8", frames, 2, &status);
  g_assert_cmpint (status.error, ==, NEARBY_FRAME_ERROR_MALFORMED_AD);
  message = message_of (&status);
  g_assert_cmpstr (message, ==, "The 16-bit UUID list at byte 0 has an odd length (4): each UUID takes two bytes.");
  g_clear_pointer (&message, g_free);
  n = decode_payload_hex ("0201", frames, 2, &status);
  g_assert_cmpint (status.error, ==, NEARBY_FRAME_ERROR_MALFORMED_AD);
  n = decode_payload_hex ("0116", frames, 2, &status);
  g_assert_cmpint (status.error, ==, NEARBY_FRAME_ERROR_MALFORMED_AD);
  message = message_of (&status);
  g_assert_cmpstr (message, ==, "The AD structure at byte 0 (type 0x16) is 1 bytes long, too short for its type (at least 3).");
  g_clear_pointer (&message, g_free);

  /* Only padding, nothing at all, or more than advertisement + scan response. */
  n = decode_payload_hex ("000000", frames, 2, &status);
  g_assert_cmpint (status.error, ==, NEARBY_FRAME_ERROR_NOT_A_BEACON);
  g_assert_cmpuint (nearby_frame_decode_advertisement_detailed (NULL, 0, frames, 2, &status), ==, 0);
  g_assert_cmpint (status.error, ==, NEARBY_FRAME_ERROR_TRUNCATED);
  message = message_of (&status);
  g_assert_cmpstr (message, ==, "The payload is empty: paste the advertising data as hex.");
  g_clear_pointer (&message, g_free);
  {
    guint8 big[NEARBY_ADV_SCAN_MAX + 1] = { 0 };
    NearbyFrameError payload_error;

    g_assert_cmpuint (nearby_frame_decode_advertisement (big, sizeof big, frames, 2, &payload_error), ==, 0);
    g_assert_cmpint (payload_error, ==, NEARBY_FRAME_ERROR_TOO_LONG);
  }
}

/* Robustness ------------------------------------------------------------------------------- */

static void
check_any_bytes (const guint8 *data,
                 size_t        len)
{
  static const guint16 uuids[] = { NEARBY_UUID16_EDDYSTONE, NEARBY_UUID16_URIBEACON, 0x1234 };
  NearbyFrame frames[NEARBY_FRAME_MAX_PER_PAYLOAD];
  NearbyFrame frame;
  NearbyFrame status;
  char message[NEARBY_FRAME_MESSAGE_MAX];
  size_t n;

  /* A private copy of exactly @len bytes: a read past it is caught by valgrind or ASan. */
  g_autofree guint8 *copy = g_memdup2 (data, len);

  for (guint u = 0; u < G_N_ELEMENTS (uuids); u++)
    {
      NearbyFrameError error = nearby_frame_decode_service_data (uuids[u], copy, len, &frame);

      g_assert_cmpint (error, ==, frame.error);
      g_assert_cmpint (error, >=, NEARBY_FRAME_OK);
      g_assert_cmpint (error, <, NEARBY_FRAME_N_ERRORS);
      g_assert_cmpuint (strlen (nearby_frame_format_error (&frame, message, sizeof message)), >, 0);
      g_assert_true (g_utf8_validate (message, -1, NULL));
      if (error == NEARBY_FRAME_OK && frame.kind == NEARBY_FRAME_KIND_URL)
        {
          g_assert_cmpuint (strlen (frame.url), <, NEARBY_FRAME_URL_MAX);
          g_assert_true (g_str_has_prefix (frame.url, "http") || g_str_has_prefix (frame.url, "urn:uuid:"));
        }
    }

  nearby_frame_decode_manufacturer_data (NEARBY_COMPANY_APPLE, copy, len, &frame);
  g_assert_cmpint (frame.error, <, NEARBY_FRAME_N_ERRORS);

  n = nearby_frame_decode_advertisement_detailed (copy, len, frames, G_N_ELEMENTS (frames), &status);
  g_assert_cmpuint (n, <=, G_N_ELEMENTS (frames));
  g_assert_cmpint (status.error, <, NEARBY_FRAME_N_ERRORS);
  g_assert_true (n > 0 || status.error != NEARBY_FRAME_OK);
  nearby_frame_format_error (&status, message, sizeof message);
  for (size_t i = 0; i < n; i++)
    g_assert_cmpuint (frames[i].payload_offset, <=, len);
}

static void
test_all_short_inputs (void)
{
  guint8 data[2] = { 0 };

  check_any_bytes (data, 0);
  for (guint a = 0; a < 256; a++)
    {
      data[0] = (guint8) a;
      check_any_bytes (data, 1);
      for (guint b = 0; b < 256; b++)
        {
          data[1] = (guint8) b;
          check_any_bytes (data, 2);
        }
    }
}

/* Every 3-byte string: no frame is that short, so each one must be rejected, with a code in
 * range, and a payload decode must never report frames out of nothing. */
static void
test_all_three_byte_inputs (void)
{
  NearbyFrame frame;
  NearbyFrame status;
  guint8 data[3];

  for (guint value = 0; value < (1u << 24); value++)
    {
      data[0] = (guint8) (value >> 16);
      data[1] = (guint8) (value >> 8);
      data[2] = (guint8) value;

      if (nearby_frame_decode_service_data (NEARBY_UUID16_EDDYSTONE, data, 3, &frame) == NEARBY_FRAME_OK ||
          nearby_frame_decode_service_data (NEARBY_UUID16_URIBEACON, data, 3, &frame) == NEARBY_FRAME_OK ||
          frame.error >= NEARBY_FRAME_N_ERRORS)
        g_error ("%02x%02x%02x decoded as a frame", data[0], data[1], data[2]);
      if (nearby_frame_decode_advertisement_detailed (data, 3, &frame, 1, &status) != 0 ||
          status.error == NEARBY_FRAME_OK || status.error >= NEARBY_FRAME_N_ERRORS)
        g_error ("payload %02x%02x%02x yielded a frame", data[0], data[1], data[2]);
    }
}

/* Random bytes up to 31 long, biased towards the shapes the decoders look for, so that deep
 * paths are reached and not only the first length check. */
static void
test_random_inputs (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (SEED + 2);
  guint iterations = g_test_slow () ? 2000000 : 200000;

  for (guint i = 0; i < iterations; i++)
    {
      guint8 data[NEARBY_ADV_SCAN_MAX];
      size_t len = g_rand_int_range (rand, 0, NEARBY_ADV_MAX + 1);

      for (size_t j = 0; j < len; j++)
        data[j] = (guint8) g_rand_int_range (rand, 0, 256);
      switch (i % 4)
        {
        case 0:
          if (len > 0)
            data[0] = (guint8) (g_rand_int_range (rand, 0, 4) << 4);
          if (len > 2)
            data[2] = (guint8) g_rand_int_range (rand, 0, 6);
          break;
        case 1:
          if (len > 3)
            {
              data[0] = (guint8) (len - 1);
              data[1] = 0x16;
              data[2] = g_rand_boolean (rand) ? 0xaa : 0xd8;
              data[3] = 0xfe;
            }
          break;
        default:
          break;
        }
      check_any_bytes (data, len);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/frame/spec/uribeacon-testdata", test_spec_uribeacon_testdata);
  g_test_add_func ("/frame/spec/uribeacon-empty", test_spec_uribeacon_empty);
  g_test_add_func ("/frame/spec/uribeacon-test-data-java", test_spec_uribeacon_test_data_java);
  g_test_add_func ("/frame/spec/eddystone-url", test_spec_eddystone_url);
  g_test_add_func ("/frame/spec/eddystone-uid", test_spec_eddystone_uid);
  g_test_add_func ("/frame/spec/eddystone-tlm", test_spec_eddystone_tlm);
  g_test_add_func ("/frame/spec/eddystone-eid", test_spec_eddystone_eid);
  g_test_add_func ("/frame/ibeacon", test_ibeacon);
  g_test_add_func ("/frame/errors", test_errors);
  g_test_add_func ("/frame/error-codes", test_error_codes_distinct);
  g_test_add_func ("/frame/tx-power-range", test_tx_power_range);
  g_test_add_func ("/frame/payload", test_payload_structures);
  g_test_add_func ("/frame/robust/all-short-inputs", test_all_short_inputs);
  g_test_add_func ("/frame/robust/all-three-byte-inputs", test_all_three_byte_inputs);
  g_test_add_func ("/frame/robust/random-inputs", test_random_inputs);

  return g_test_run ();
}
