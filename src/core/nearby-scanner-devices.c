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


/* A frame as its bytes: a device of thousands keeps one per kind, and a decoded NearbyFrame is
 * eight times their size. Decoded again only when an advert repeats it without its bytes. */
typedef struct {
  guint16 id;             /* the service data's UUID, or the manufacturer's company */
  guint8  manufacturer;
  guint8  raw_len;
  guint8  raw[NEARBY_ADV_MAX];
} StoredFrame;

static void
stored_frame_decode (const StoredFrame *stored,
                     NearbyFrame       *frame)
{
  if (stored->manufacturer)
    nearby_frame_decode_manufacturer_data (stored->id, stored->raw, stored->raw_len, frame);
  else
    nearby_frame_decode_service_data (stored->id, stored->raw, stored->raw_len, frame);
}

/* Every Device1 under the adapter in use has one: a phone or headphones cost a record of a few
 * dozen bytes, a beacon its frames as well. */
typedef struct {
  char            *address;
  int              rssi;
  NearbyFrameKind  last_kind;
  guint            config_offer;   /* NearbyConfigOffer */
  /* What it is (see the "other-device" signal), only while anyone listens to that. */
  GVariant        *described;
  /* A slot only for each kind the device sent: most send one or two of the seven. None: it
   * sent no beacon frame (since the adapter was last powered). */
  StoredFrame     *frames[NEARBY_FRAME_N_KINDS];
} Device;

static void
device_forget_frames (Device *device)
{
  for (guint i = 0; i < G_N_ELEMENTS (device->frames); i++)
    g_clear_pointer (&device->frames[i], g_free);
  device->last_kind = NEARBY_FRAME_KIND_NONE;
}

static gboolean
device_is_beacon (Device *device)
{
  for (guint i = 0; i < G_N_ELEMENTS (device->frames); i++)
    {
      if (device->frames[i] != NULL)
        return TRUE;
    }
  return FALSE;
}

static void
device_free (gpointer data)
{
  Device *device = data;

  device_forget_frames (device);
  g_clear_pointer (&device->described, g_variant_unref);
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
  /* When the advert was read, which may be a batch interval before it is handed over. */
  sighting.time_us = self->advert_time_us != 0 ? self->advert_time_us : g_get_real_time ();
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
 * address, so an Address property (in @properties, which may be NULL) that says otherwise (say,
 * "<script>") is not believed. */
static char *
device_address (const char *path,
                GVariant   *properties)
{
  g_autoptr(GVariant) property = NULL;
  g_autofree char *from_path = address_of_path (path);

  if (from_path != NULL)
    return g_steal_pointer (&from_path);

  /* Not a path bluetoothd would make: its Address when that is one, else the path's last
   * element, which D-Bus limits to [A-Za-z0-9_]. */
  if (properties != NULL)
    property = g_variant_lookup_value (properties, "Address", G_VARIANT_TYPE_STRING);
  if (property != NULL)
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

static const char * const described_names[] = {
  "AddressType", "ManufacturerData", "ServiceData", "UUIDs", "AdvertisingData",
};

/* Brings device->described up to date with @changed (a{sv}, may be NULL) and @invalidated. */
static void
device_describe (Device             *device,
                 GVariant           *changed,
                 const char * const *invalidated)
{
  GVariantBuilder builder;
  gboolean touched = device->described == NULL;

  for (guint i = 0; i < G_N_ELEMENTS (described_names) && !touched; i++)
    {
      g_autoptr(GVariant) value = changed != NULL
                                  ? g_variant_lookup_value (changed, described_names[i], NULL)
                                  : NULL;

      touched = value != NULL
                || (invalidated != NULL && g_strv_contains (invalidated, described_names[i]));
    }
  if (!touched)
    return;

  g_variant_builder_init (&builder, G_VARIANT_TYPE_VARDICT);
  for (guint i = 0; i < G_N_ELEMENTS (described_names); i++)
    {
      const char *name = described_names[i];
      g_autoptr(GVariant) value = changed != NULL
                                  ? g_variant_lookup_value (changed, name, NULL)
                                  : NULL;

      if (value == NULL && device->described != NULL
          && (invalidated == NULL || !g_strv_contains (invalidated, name)))
        value = g_variant_lookup_value (device->described, name, NULL);
      if (value != NULL)
        g_variant_builder_add (&builder, "{sv}", name, value);
    }
  g_clear_pointer (&device->described, g_variant_unref);
  device->described = g_variant_ref_sink (g_variant_builder_end (&builder));
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
                    Device        *device)
{
  g_autoptr(GVariant) empty = NULL;

  if (!_nearby_scanner_wants_other_devices (self))
    return;

  if (device->described == NULL)
    empty = g_variant_ref_sink (g_variant_new_array (G_VARIANT_TYPE ("{sv}"), NULL, 0));
  _nearby_scanner_emit_other_device (self, device->address, device->rssi,
                                     device->described != NULL ? device->described : empty);
}

/* Whether @frame is what @device sent last of its kind, byte for byte, and (unless the advert
 * had several) of the kind it sent last. */
static gboolean
frame_unchanged (Device                  *device,
                 const NearbyAdvertFrame *frame,
                 guint                    n_frames)
{
  const StoredFrame *stored;

  if (frame->frame.error != NEARBY_FRAME_OK || frame->frame.kind == NEARBY_FRAME_KIND_NONE
      || frame->frame.kind >= NEARBY_FRAME_N_KINDS
      || (n_frames == 1 && frame->frame.kind != device->last_kind))
    return FALSE;

  stored = device->frames[frame->frame.kind];
  return stored != NULL && stored->raw_len == MIN (frame->raw_len, sizeof stored->raw)
         && memcmp (stored->raw, frame->raw, stored->raw_len) == 0;
}

/* Whether this advert of @device (its RSSI and UUIDs already taken) says nothing new while
 * held: see nearby-scanner-hold.c. Otherwise its hold starts again. */
static gboolean
advert_held (NearbyScanner           *self,
             const char              *path,
             Device                  *device,
             const NearbyAdvertFrame *frames,
             guint                    n_frames,
             gboolean                 has_rssi,
             gboolean                 offer_changed,
             gint64                   time_us)
{
  if (!self->hold_steady)
    return FALSE;

  /* No sighting now (the RSSI went): the next advert is passed on. */
  if (n_frames == 0 && !has_rssi)
    {
      _nearby_scanner_hold_forget (self->hold, path);
      return FALSE;
    }

  for (guint i = 0; i < n_frames; i++)
    if (!frame_unchanged (device, &frames[i], n_frames))
      goto passed;
  if (!offer_changed && _nearby_scanner_hold_rssi (self->hold, path, time_us, device->rssi))
    return TRUE;

passed:
  _nearby_scanner_hold_passed (self->hold, path, time_us, device->rssi);
  return FALSE;
}

gboolean
_nearby_scanner_device_is_beacon (NearbyScanner *self,
                                  const char    *path)
{
  Device *device = g_hash_table_lookup (self->devices, path);

  return device != NULL && device_is_beacon (device);
}

void
_nearby_scanner_devices_forget_frames (NearbyScanner *self)
{
  GHashTableIter iter;
  Device *device;

  g_hash_table_iter_init (&iter, self->devices);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &device))
    device_forget_frames (device);
}

static gboolean
follows (NearbyScanner *self,
         const char    *path)
{
  return self->adapter != NULL && !self->stopped
         && path_is_under (path, g_dbus_proxy_get_object_path (self->adapter));
}

void
_nearby_scanner_device_advert (NearbyScanner      *self,
                               const char         *path,
                               gboolean            has_rssi,
                               int                 rssi,
                               GVariant           *changed,
                               const char * const *invalidated)
{
  g_autoptr(GVariant) service_data = NULL;
  g_autoptr(GVariant) manufacturer_data = NULL;
  g_autoptr(GVariant) uuids = NULL;
  NearbyAdvertFrame frames[NEARBY_ADVERT_MAX_FRAMES];
  gboolean rssi_invalidated = invalidated != NULL && g_strv_contains (invalidated, "RSSI");
  gint64 time_us = self->advert_time_us != 0 ? self->advert_time_us : g_get_real_time ();
  guint config_offer;
  Device *device;
  guint n_frames;

  if (!follows (self, path))
    return;
  /* Not one bluetoothd told of (InterfacesAdded): it is not there for us either. */
  device = g_hash_table_lookup (self->devices, path);
  if (device == NULL)
    return;

  if (changed != NULL)
    {
      service_data = g_variant_lookup_value (changed, "ServiceData", NULL);
      manufacturer_data = g_variant_lookup_value (changed, "ManufacturerData", NULL);
      uuids = g_variant_lookup_value (changed, "UUIDs", NULL);
      if (device->described != NULL || _nearby_scanner_wants_other_devices (self))
        device_describe (device, changed, invalidated);
    }
  config_offer = device->config_offer;
  if (uuids != NULL)
    device->config_offer = config_offer_of_uuids (uuids);
  if (has_rssi)
    device->rssi = rssi_of_int (TRUE, rssi);
  if (rssi_invalidated)
    device->rssi = NEARBY_RSSI_UNKNOWN;

  /* UUIDs alone is no advert: it is kept for the device's next sighting. */
  if (!has_rssi && !rssi_invalidated && service_data == NULL && manufacturer_data == NULL)
    {
      if (config_offer != device->config_offer)
        _nearby_scanner_hold_forget (self->hold, path);
      if (uuids != NULL)
        {
          self->last_activity_us = g_get_monotonic_time ();
          self->stall_factor = 1;
        }
      return;
    }

  self->last_activity_us = g_get_monotonic_time ();
  self->stall_factor = 1;

  n_frames = nearby_advert_decode (service_data, manufacturer_data, frames);
  if (n_frames == 0 && !device_is_beacon (device))
    {
      /* Nobody asked: its RSSI alone need not even reach the main loop for a while. */
      if (self->hold_steady && has_rssi && !_nearby_scanner_wants_other_devices (self)
          && !_nearby_scanner_hold_rssi (self->hold, path, time_us, rssi))
        _nearby_scanner_hold_passed (self->hold, path, time_us, rssi);
      other_device_heard (self, device);
      return;
    }

  if (advert_held (self, path, device, frames, n_frames, has_rssi,
                   config_offer != device->config_offer, time_us))
    return;

  for (guint i = 0; i < n_frames; i++)
    {
      const NearbyFrame *frame = &frames[i].frame;

      if (frame->error == NEARBY_FRAME_OK && frame->kind != NEARBY_FRAME_KIND_NONE
          && frame->kind < NEARBY_FRAME_N_KINDS)
        {
          StoredFrame *stored = device->frames[frame->kind];

          if (stored == NULL)
            stored = device->frames[frame->kind] = g_new (StoredFrame, 1);
          stored->manufacturer = frame->protocol == NEARBY_PROTOCOL_IBEACON;
          stored->id = stored->manufacturer ? NEARBY_COMPANY_APPLE : frame->service_uuid;
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
        {
          NearbyFrame frame;

          stored_frame_decode (stored, &frame);
          emit_sighting (self, device, &frame, stored->raw, stored->raw_len);
        }
    }
}

void
_nearby_scanner_device_properties_changed (NearbyScanner      *self,
                                           const char         *path,
                                           GVariant           *changed,
                                           const char * const *invalidated)
{
  g_autoptr(GVariant) rssi = g_variant_lookup_value (changed, "RSSI", G_VARIANT_TYPE_INT16);

  _nearby_scanner_device_advert (self, path, rssi != NULL,
                                 rssi != NULL ? g_variant_get_int16 (rssi) : 0, changed,
                                 invalidated);
}

void
_nearby_scanner_device_added (NearbyScanner *self,
                              const char    *path,
                              GVariant      *properties)
{
  g_autoptr(GVariant) rssi = NULL;
  g_autoptr(GVariant) uuids = NULL;
  g_autoptr(GVariant) advert = NULL;
  GVariantDict dict;
  Device *device;

  /* Told twice (as python-dbusmock does): what came since is as new. */
  if (!follows (self, path) || g_hash_table_contains (self->devices, path))
    return;

  rssi = g_variant_lookup_value (properties, "RSSI", NULL);
  uuids = g_variant_lookup_value (properties, "UUIDs", NULL);
  device = g_new0 (Device, 1);
  device->address = device_address (path, properties);
  device->rssi = rssi_of_variant (rssi);
  device->config_offer = config_offer_of_uuids (uuids);
  if (_nearby_scanner_wants_other_devices (self))
    device_describe (device, properties, NULL);
  g_hash_table_insert (self->devices, g_strdup (path), device);

  /* Its advert data as an advert; the RSSI was read above: passing it again would count as a
   * new one. */
  g_variant_dict_init (&dict, NULL);
  for (guint i = 0; i < 2; i++)
    {
      const char *name = i == 0 ? "ServiceData" : "ManufacturerData";
      g_autoptr(GVariant) value = g_variant_lookup_value (properties, name, NULL);

      if (value != NULL)
        g_variant_dict_insert_value (&dict, name, value);
    }
  advert = g_variant_ref_sink (g_variant_dict_end (&dict));
  _nearby_scanner_device_advert (self, path, FALSE, 0, advert, NULL);
}
