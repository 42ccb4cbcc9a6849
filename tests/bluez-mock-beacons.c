/* bluez-mock-beacons.c: beacons for the mock bluetoothd
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "bluez-mock-beacons.h"
#include "nearby-frame.h"

#define UUID_FEAA "0000feaa-0000-1000-8000-00805f9b34fb"

GVariant *
url_service_data (const char *url,
                  int         tx_power)
{
  guint8 frame[NEARBY_FRAME_URL_SERVICE_DATA_MAX];
  gsize len = 0;
  gsize excess = 0;

  g_assert_cmpint (nearby_frame_encode_eddystone_url (url, tx_power, frame, &len, &excess),
                   ==, NEARBY_FRAME_OK);

  return nearby_test_service_data (UUID_FEAA, frame, len);
}

GVariant *
tlm_service_data (void)
{
  static const guint8 tlm[] = {
    0x20, 0x00, 0x0b, 0xb8, 0x16, 0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00, 0x64
  };

  return nearby_test_service_data (UUID_FEAA, tlm, sizeof tlm);
}

char *
add_beacon (BluezMock  *mock,
            const char *address,
            GVariant   *properties)
{
  g_autoptr(GVariant) reply = NULL;
  char *path = NULL;

  reply = bluez_mock_call (mock, "/", BLUEZ_MOCK_IFACE, "AddBeacon",
                           g_variant_new ("(ss@a{sv})", "hci0", address, properties), "(o)");
  g_variant_get (reply, "(o)", &path);

  return path;
}

GVariant *
props (const char *first_name,
       ...)
{
  GVariantBuilder builder;
  const char *name = first_name;
  va_list args;

  g_variant_builder_init (&builder, G_VARIANT_TYPE_VARDICT);
  va_start (args, first_name);
  while (name != NULL)
    {
      g_variant_builder_add (&builder, "{sv}", name, va_arg (args, GVariant *));
      name = va_arg (args, const char *);
    }
  va_end (args);

  return g_variant_builder_end (&builder);
}

void
update_device (BluezMock  *mock,
               const char *path,
               GVariant   *changed,
               const char *invalidated)
{
  const char *none[] = { NULL };
  const char *one[] = { invalidated, NULL };

  bluez_mock_control (mock, "UpdateDevice",
                      g_variant_new ("(o@a{sv}^as)", path, changed,
                                     invalidated != NULL ? one : none));
}
