/* nearby-scanner-devices.c: the scanner's beacon devices: the last frame of each kind each one
 * sent, and the sightings its adverts make
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-scanner"

#include "config.h"

#include <string.h>

#include "nearby-advert.h"
#include "nearby-bluez.h"
#include "nearby-scanner-private.h"


typedef struct {
  NearbyFrame frame;
  guint8      raw[NEARBY_ADV_MAX];
  gsize       raw_len;
} StoredFrame;

/* Only devices that sent a beacon frame get one: phones and headphones cost a hash miss. */
typedef struct {
  char            *address;
  int              rssi;
  NearbyFrameKind  last_kind;
  guint            config_offer;   /* NearbyConfigOffer */
  /* A slot only for each kind the device sent: most send one or two of the seven. */
  StoredFrame     *frames[NEARBY_FRAME_N_KINDS];
} Device;

static void
device_free (gpointer data)
{
  Device *device = data;

  for (guint i = 0; i < G_N_ELEMENTS (device->frames); i++)
    g_free (device->frames[i]);
  g_free (device->address);
  g_free (device);
}

GHashTable *
_nearby_scanner_devices_new (void)
{
  return g_hash_table_new_full (g_str_hash, g_str_equal, g_free, device_free);
}

static gboolean
path_is_under (const char *path,
               const char *parent)
{
  gsize len = strlen (parent);

  return strncmp (path, parent, len) == 0 && path[len] == '/';
}

static void
emit_sighting (NearbyScanner     *self,
               Device            *device,
               const NearbyFrame *frame,
               const guint8      *raw,
               gsize              raw_len)
{
  NearbySighting sighting = { 0 };

  sighting.address = device->address;
  sighting.time_us = g_get_real_time ();
  sighting.rssi = device->rssi;
  sighting.frame = *frame;
  sighting.raw_len = MIN (raw_len, sizeof sighting.raw);
  memcpy (sighting.raw, raw, sighting.raw_len);
  sighting.config_offer = device->config_offer;

  nearby_source_emit_sighting (NEARBY_SOURCE (self), &sighting);
}

/* What a receiver can report, in dBm; 127 is the Core spec's "not available", and values
 * further out (an int16 can hold -32768) are not measurements either. */
#define RSSI_MIN (-127)
#define RSSI_MAX 20

static int
rssi_of_variant (GVariant *value)
{
  if (value != NULL && g_variant_is_of_type (value, G_VARIANT_TYPE_INT16))
    {
      int rssi = g_variant_get_int16 (value);

      if (rssi >= RSSI_MIN && rssi <= RSSI_MAX)
        return rssi;
    }

  return NEARBY_RSSI_UNKNOWN;
}

/* "C0:FF:EE:00:00:01" from bluetoothd's ".../dev_C0_FF_EE_00_00_01", or NULL when the path is
 * not of that form. */
static char *
address_of_path (const char *path)
{
  const char *name = strrchr (path, '/');
  char address[18];

  if (name == NULL || !g_str_has_prefix (name, "/dev_") || strlen (name) != 5 + 17)
    return NULL;

  name += 5;
  for (guint i = 0; i < 17; i++)
    {
      if (i % 3 == 2)
        {
          if (name[i] != '_')
            return NULL;
          address[i] = ':';
        }
      else
        {
          if (!g_ascii_isxdigit (name[i]))
            return NULL;
          address[i] = g_ascii_toupper (name[i]);
        }
    }
  address[17] = '\0';

  return g_strdup (address);
}

/* The device's address as the object path names it: bluetoothd derives the path from the
 * address, so an Address property that says otherwise (say, "<script>") is not believed. */
static char *
device_address (GDBusProxy *proxy)
{
  const char *path = g_dbus_proxy_get_object_path (proxy);
  g_autoptr(GVariant) property = g_dbus_proxy_get_cached_property (proxy, "Address");
  g_autofree char *from_path = address_of_path (path);

  if (from_path != NULL)
    return g_steal_pointer (&from_path);

  /* Not a path bluetoothd would make: its Address when that is one, else the path's last
   * element, which D-Bus limits to [A-Za-z0-9_]. */
  if (property != NULL && g_variant_is_of_type (property, G_VARIANT_TYPE_STRING))
    {
      g_autofree char *as_path = g_strconcat ("/dev_", g_variant_get_string (property, NULL),
                                              NULL);
      g_autofree char *address = NULL;

      g_strdelimit (as_path, ":", '_');
      address = address_of_path (as_path);
      if (address != NULL)
        return g_steal_pointer (&address);
    }

  return g_path_get_basename (path);
}

/* Which configuration services Device1's UUIDs (as); 0 for anything else.
 *
 * bluetoothd 5.66 tells nothing else before a connection that would say a beacon can be
 * configured: it does not say whether the advert was connectable (ADV_IND or ADV_NONCONN_IND),
 * and AdvertisingFlags is the Flags field (discoverable modes), which non-connectable beacons
 * send too. Both specifications ask a beacon in its configuration mode to advertise the
 * service's UUID, which bluetoothd adds to UUIDs; it keeps it there while the device is known,
 * so a beacon once heard in that mode keeps its Configure Beacon… after it left the mode. */
static guint
config_offer_of_uuids (GVariant *uuids)
{
  GVariantIter iter;
  const char *uuid;
  guint offer = 0;

  if (uuids == NULL || !g_variant_is_of_type (uuids, G_VARIANT_TYPE_STRING_ARRAY))
    return 0;

  g_variant_iter_init (&iter, uuids);
  while (g_variant_iter_next (&iter, "&s", &uuid))
    {
      if (g_ascii_strcasecmp (uuid, NEARBY_BLUEZ_EDDYSTONE_CONFIG_UUID) == 0)
        offer |= NEARBY_CONFIG_OFFER_EDDYSTONE;
      else if (g_ascii_strcasecmp (uuid, NEARBY_BLUEZ_URIBEACON_CONFIG_UUID) == 0)
        offer |= NEARBY_CONFIG_OFFER_URIBEACON;
    }
  return offer;
}

static Device *
device_new_for_proxy (GDBusProxy *proxy)
{
  g_autoptr(GVariant) rssi = g_dbus_proxy_get_cached_property (proxy, "RSSI");
  g_autoptr(GVariant) uuids = g_dbus_proxy_get_cached_property (proxy, "UUIDs");
  Device *device = g_new0 (Device, 1);

  device->address = device_address (proxy);
  device->rssi = rssi_of_variant (rssi);
  /* What the device listed until it sent a beacon frame, as both signal readers keep the
   * proxy's cache (nearby-scanner-batch.c, nearby-scanner-sdbus.c); later changes are passed
   * to _nearby_scanner_device_advert() as @uuids. */
  device->config_offer = config_offer_of_uuids (uuids);

  return device;
}

static int
rssi_of_int (gboolean has_rssi,
             int      value)
{
  if (has_rssi && value >= RSSI_MIN && value <= RSSI_MAX)
    return value;

  return NEARBY_RSSI_UNKNOWN;
}

/* A device without a beacon frame: said only to whoever asks (`nearby scan --all`). */
static void
other_device_heard (NearbyScanner *self,
                    GDBusProxy    *proxy,
                    gboolean       has_rssi,
                    int            rssi,
                    gboolean       rssi_invalidated)
{
  g_autofree char *address = NULL;

  if (!_nearby_scanner_wants_other_devices (self))
    return;

  address = device_address (proxy);
  if (!has_rssi)
    {
      g_autoptr(GVariant) cached_rssi = g_dbus_proxy_get_cached_property (proxy, "RSSI");

      has_rssi = cached_rssi != NULL && g_variant_is_of_type (cached_rssi, G_VARIANT_TYPE_INT16);
      if (has_rssi)
        rssi = g_variant_get_int16 (cached_rssi);
    }

  _nearby_scanner_emit_other_device (self, proxy, address,
                                     rssi_invalidated ? NEARBY_RSSI_UNKNOWN
                                                      : rssi_of_int (has_rssi, rssi));
}

gboolean
_nearby_scanner_device_is_beacon (NearbyScanner *self,
                                  const char    *path)
{
  return g_hash_table_contains (self->devices, path);
}

void
_nearby_scanner_device_advert (NearbyScanner *self,
                               const char    *path,
                               GDBusProxy    *proxy,
                               gboolean       has_rssi,
                               int            rssi,
                               GVariant      *service_data,
                               GVariant      *manufacturer_data,
                               GVariant      *uuids,
                               gboolean       rssi_invalidated)
{
  g_autoptr(GDBusInterface) looked_up = NULL;
  NearbyAdvertFrame frames[NEARBY_ADVERT_MAX_FRAMES];
  Device *device;
  guint n_frames;

  if (self->adapter == NULL || self->stopped
      || !path_is_under (path, g_dbus_proxy_get_object_path (self->adapter)))
    return;

  self->last_activity_us = g_get_monotonic_time ();
  self->stall_factor = 1;

  n_frames = nearby_advert_decode (service_data, manufacturer_data, frames);

  device = g_hash_table_lookup (self->devices, path);
  if (device == NULL)
    {
      /* UUIDs alone (or a device that appeared without advert data) is no advert. */
      if (n_frames == 0 && !has_rssi && !rssi_invalidated && service_data == NULL
          && manufacturer_data == NULL)
        return;
      if (proxy == NULL && self->manager != NULL)
        {
          looked_up = g_dbus_object_manager_get_interface (self->manager, path,
                                                           NEARBY_BLUEZ_DEVICE_IFACE);
          proxy = (GDBusProxy *) looked_up;
        }
      if (proxy == NULL)
        return;
      if (n_frames == 0)
        {
          other_device_heard (self, proxy, has_rssi, rssi, rssi_invalidated);
          return;
        }
      device = device_new_for_proxy (proxy);
      g_hash_table_insert (self->devices, g_strdup (path), device);
    }

  if (uuids != NULL)
    device->config_offer = config_offer_of_uuids (uuids);

  if (has_rssi)
    device->rssi = rssi_of_int (TRUE, rssi);
  if (rssi_invalidated)
    device->rssi = NEARBY_RSSI_UNKNOWN;

  for (guint i = 0; i < n_frames; i++)
    {
      const NearbyFrame *frame = &frames[i].frame;

      if (frame->error == NEARBY_FRAME_OK && frame->kind != NEARBY_FRAME_KIND_NONE
          && frame->kind < NEARBY_FRAME_N_KINDS)
        {
          StoredFrame *stored = device->frames[frame->kind];

          if (stored == NULL)
            stored = device->frames[frame->kind] = g_new (StoredFrame, 1);
          stored->frame = *frame;
          stored->raw_len = MIN (frames[i].raw_len, sizeof stored->raw);
          memcpy (stored->raw, frames[i].raw, stored->raw_len);
          device->last_kind = frame->kind;
        }

      emit_sighting (self, device, frame, frames[i].raw, frames[i].raw_len);
    }

  /* An RSSI change means an advert arrived, even when its bytes were the same as before. */
  if (n_frames == 0 && has_rssi)
    {
      StoredFrame *stored = device->frames[NEARBY_FRAME_KIND_URL];

      if (stored == NULL)
        stored = device->frames[device->last_kind];
      if (stored != NULL)
        emit_sighting (self, device, &stored->frame, stored->raw, stored->raw_len);
    }
}

/* Handles the advert data of one device, from its first appearance or from a PropertiesChanged.
 * Any of @rssi, @service_data, @manufacturer_data, @uuids may be NULL. */
void
_nearby_scanner_device_changed (NearbyScanner *self,
                                GDBusProxy    *proxy,
                                GVariant      *rssi,
                                GVariant      *service_data,
                                GVariant      *manufacturer_data,
                                GVariant      *uuids,
                                gboolean       rssi_invalidated)
{
  gboolean has_rssi = rssi != NULL && g_variant_is_of_type (rssi, G_VARIANT_TYPE_INT16);

  _nearby_scanner_device_advert (self, g_dbus_proxy_get_object_path (proxy), proxy, has_rssi,
                                 has_rssi ? g_variant_get_int16 (rssi) : 0, service_data,
                                 manufacturer_data, uuids, rssi_invalidated);
}

void
_nearby_scanner_device_added (NearbyScanner *self,
                              GDBusProxy    *proxy)
{
  g_autoptr(GVariant) service_data = g_dbus_proxy_get_cached_property (proxy, "ServiceData");
  g_autoptr(GVariant) manufacturer_data =
    g_dbus_proxy_get_cached_property (proxy, "ManufacturerData");

  /* The RSSI is read when the device is created: passing it again would count as a new advert. */
  _nearby_scanner_device_changed (self, proxy, NULL, service_data, manufacturer_data, NULL,
                                  FALSE);
}
