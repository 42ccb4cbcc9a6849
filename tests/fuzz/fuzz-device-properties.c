/* fuzz-device-properties.c: Device1 properties of any shape, as bluetoothd (or anyone on the
 * system bus) might send them, through the advert decoder the scanner uses
 *
 * The input is a serialized a{sv}, like the Device1 entry of InterfacesAdded. GVariant must stay
 * safe on untrusted data; the decoder must ignore wrong types and never read out of bounds.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib.h>
#include <stdint.h>
#include <string.h>

#include "nearby-advert.h"

static void
check_frames (GVariant *service_data,
              GVariant *manufacturer_data)
{
  NearbyAdvertFrame frames[NEARBY_ADVERT_MAX_FRAMES];
  guint n_frames = nearby_advert_decode (service_data, manufacturer_data, frames);

  g_assert_cmpuint (n_frames, <=, NEARBY_ADVERT_MAX_FRAMES);
  for (guint i = 0; i < n_frames; i++)
    {
      const NearbyFrame *frame = &frames[i].frame;
      volatile guint8 sum = 0;

      g_assert_nonnull (frames[i].raw);
      g_assert_cmpuint (frames[i].raw_len, >, 0);
      /* Touch every byte: AddressSanitizer catches a pointer past its variant. */
      for (gsize j = 0; j < frames[i].raw_len; j++)
        sum += frames[i].raw[j];

      g_assert_cmpint (frame->error, !=, NEARBY_FRAME_ERROR_NOT_A_BEACON);
      if (frame->error == NEARBY_FRAME_OK && frame->kind == NEARBY_FRAME_KIND_URL)
        g_assert_cmpuint (strlen (frame->url), <, NEARBY_FRAME_URL_MAX);
      g_assert_true (frame->service_uuid == 0
                     || frame->service_uuid == NEARBY_UUID16_EDDYSTONE
                     || frame->service_uuid == NEARBY_UUID16_URIBEACON);
    }
}

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(GBytes) bytes = g_bytes_new (data, size);
  g_autoptr(GVariant) properties = g_variant_new_from_bytes (G_VARIANT_TYPE_VARDICT, bytes, FALSE);
  g_autoptr(GVariant) service_data = g_variant_lookup_value (properties, "ServiceData", NULL);
  g_autoptr(GVariant) manufacturer_data =
    g_variant_lookup_value (properties, "ManufacturerData", NULL);

  g_variant_ref_sink (properties);
  check_frames (service_data, manufacturer_data);
  /* The dict itself as ServiceData: keys are strings, values anything. */
  check_frames (properties, NULL);

  return 0;
}
