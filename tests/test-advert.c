/* test-advert.c: the beacon frames found in Device1 ServiceData and ManufacturerData
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib.h>

#include "nearby-advert.h"
#include "nearby-test-utils.h"

#define UUID_FEAA "0000feaa-0000-1000-8000-00805f9b34fb"

static const guint8 url_frame[] = { 0x10, 0xec, 0x03, 'x', 0x07 };

/* ServiceData as bluetoothd publishes it, owned. */
static GVariant *
service_data (const char   *uuid,
              const guint8 *data,
              gsize         len)
{
  return g_variant_ref_sink (nearby_test_service_data (uuid, data, len));
}

static guint
decode (GVariant          *sd,
        GVariant          *md,
        NearbyAdvertFrame *frames)
{
  return nearby_advert_decode (sd, md, frames);
}

static void
test_service_data_url (void)
{
  NearbyAdvertFrame frames[NEARBY_ADVERT_MAX_FRAMES];
  g_autoptr(GVariant) lower = service_data (UUID_FEAA, url_frame, sizeof url_frame);
  g_autoptr(GVariant) upper = service_data ("0000FEAA-0000-1000-8000-00805F9B34FB",
                                            url_frame, sizeof url_frame);

  g_assert_cmpuint (decode (lower, NULL, frames), ==, 1);
  g_assert_cmpstr (frames[0].frame.url, ==, "https://x.com");
  g_assert_cmpuint (frames[0].frame.service_uuid, ==, 0xfeaa);
  g_assert_cmpmem (frames[0].raw, frames[0].raw_len, url_frame, sizeof url_frame);

  /* BlueZ prints lower case, but UUIDs are case-insensitive. */
  g_assert_cmpuint (decode (upper, NULL, frames), ==, 1);
}

static void
test_service_data_other_uuids (void)
{
  NearbyAdvertFrame frames[NEARBY_ADVERT_MAX_FRAMES];
  /* A 16-bit UUID on another base, a full 128-bit UUID, a short string, a heart-rate UUID. */
  const char *uuids[] = {
    "0000feaa-0000-1000-8000-00805f9b34fc",
    "1234feaa-0000-1000-8000-00805f9b34fb",
    "feaa",
    "0000180d-0000-1000-8000-00805f9b34fb",
    "0000fzaa-0000-1000-8000-00805f9b34fb",
  };

  for (guint i = 0; i < G_N_ELEMENTS (uuids); i++)
    {
      g_autoptr(GVariant) sd = service_data (uuids[i], url_frame, sizeof url_frame);

      g_assert_cmpuint (decode (sd, NULL, frames), ==, 0);
    }
}

static void
test_wrong_types (void)
{
  NearbyAdvertFrame frames[NEARBY_ADVERT_MAX_FRAMES];
  g_autoptr(GVariant) nested = NULL;
  g_autoptr(GVariant) string_value = NULL;
  g_autoptr(GVariant) empty_value = NULL;
  g_autoptr(GVariant) not_a_dict = g_variant_ref_sink (g_variant_new_string ("feaa"));
  GVariantBuilder outer;

  /* dbusmock's aa{sv} */
  g_variant_builder_init (&outer, G_VARIANT_TYPE ("aa{sv}"));
  g_variant_builder_add_value (&outer, service_data (UUID_FEAA, url_frame, sizeof url_frame));
  nested = g_variant_ref_sink (g_variant_builder_end (&outer));
  g_assert_cmpuint (decode (nested, nested, frames), ==, 0);

  {
    GVariantBuilder builder;

    g_variant_builder_init (&builder, G_VARIANT_TYPE ("a{sv}"));
    g_variant_builder_add (&builder, "{sv}", UUID_FEAA, g_variant_new_string ("https://x"));
    string_value = g_variant_ref_sink (g_variant_builder_end (&builder));
  }
  g_assert_cmpuint (decode (string_value, not_a_dict, frames), ==, 0);

  empty_value = service_data (UUID_FEAA, url_frame, 0);
  g_assert_cmpuint (decode (empty_value, NULL, frames), ==, 0);
}

static void
test_manufacturer_data (void)
{
  static const guint8 ibeacon[] = {
    0x02, 0x15,
    0xe2, 0xc5, 0x6d, 0xb5, 0xdf, 0xfb, 0x48, 0xd2, 0xb0, 0x60, 0xd0, 0xf5, 0xa7, 0x10, 0x96, 0xe0,
    0x00, 0x01, 0x00, 0x02, 0xc5
  };
  /* Apple's "Nearby Info" record: Apple data that is not a beacon. */
  static const guint8 nearby_info[] = { 0x10, 0x05, 0x01, 0x18, 0x44, 0x2f, 0x6d };
  NearbyAdvertFrame frames[NEARBY_ADVERT_MAX_FRAMES];
  g_autoptr(GVariant) md = NULL;
  GVariantBuilder builder;

  g_variant_builder_init (&builder, G_VARIANT_TYPE ("a{qv}"));
  g_variant_builder_add (&builder, "{qv}", 0x004c,
                         nearby_test_bytes_variant (nearby_info, sizeof nearby_info));
  g_variant_builder_add (&builder, "{qv}", 0x0006,
                         nearby_test_bytes_variant (ibeacon, sizeof ibeacon));
  g_variant_builder_add (&builder, "{qv}", 0x004c,
                         nearby_test_bytes_variant (ibeacon, sizeof ibeacon));
  md = g_variant_ref_sink (g_variant_builder_end (&builder));

  g_assert_cmpuint (decode (NULL, md, frames), ==, 1);
  g_assert_cmpint (frames[0].frame.kind, ==, NEARBY_FRAME_KIND_IBEACON);
  g_assert_cmpuint (frames[0].frame.service_uuid, ==, 0);
  g_assert_cmpuint (frames[0].frame.ibeacon_major, ==, 1);
  g_assert_cmpuint (frames[0].raw_len, ==, sizeof ibeacon);
}

static void
test_invalid_frames_kept (void)
{
  static const guint8 truncated[] = { 0x10 };
  NearbyAdvertFrame frames[NEARBY_ADVERT_MAX_FRAMES];
  g_autoptr(GVariant) sd = service_data (UUID_FEAA, truncated, sizeof truncated);

  g_assert_cmpuint (decode (sd, NULL, frames), ==, 1);
  g_assert_cmpint (frames[0].frame.error, ==, NEARBY_FRAME_ERROR_TRUNCATED);
  g_assert_cmpuint (frames[0].frame.service_uuid, ==, 0xfeaa);
}

static void
test_many_entries_capped (void)
{
  NearbyAdvertFrame frames[NEARBY_ADVERT_MAX_FRAMES];
  g_autoptr(GVariant) sd = NULL;
  GVariantBuilder builder;

  /* The same key over and over: a hostile dict cannot overrun the array. */
  g_variant_builder_init (&builder, G_VARIANT_TYPE ("a{sv}"));
  for (guint i = 0; i < 50; i++)
    g_variant_builder_add (&builder, "{sv}", UUID_FEAA,
                           nearby_test_bytes_variant (url_frame, sizeof url_frame));
  sd = g_variant_ref_sink (g_variant_builder_end (&builder));

  g_assert_cmpuint (decode (sd, sd, frames), ==, NEARBY_ADVERT_MAX_FRAMES);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/advert/service-data/url", test_service_data_url);
  g_test_add_func ("/advert/service-data/other-uuids", test_service_data_other_uuids);
  g_test_add_func ("/advert/wrong-types", test_wrong_types);
  g_test_add_func ("/advert/manufacturer-data", test_manufacturer_data);
  g_test_add_func ("/advert/invalid-frames-kept", test_invalid_frames_kept);
  g_test_add_func ("/advert/many-entries-capped", test_many_entries_capped);

  return g_test_run ();
}
