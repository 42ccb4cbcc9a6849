/* nearby-bluez.h: BlueZ's D-Bus names, and which adapter to use
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define NEARBY_BLUEZ_BUS_NAME                  "org.bluez"
#define NEARBY_BLUEZ_ADAPTER_IFACE             "org.bluez.Adapter1"
#define NEARBY_BLUEZ_DEVICE_IFACE              "org.bluez.Device1"
#define NEARBY_BLUEZ_ADVERTISING_MANAGER_IFACE "org.bluez.LEAdvertisingManager1"
#define NEARBY_BLUEZ_ADVERTISEMENT_IFACE       "org.bluez.LEAdvertisement1"
/* bluetoothd publishes its adapters and devices through the standard object manager. */
#define NEARBY_BLUEZ_OBJECT_MANAGER_IFACE      "org.freedesktop.DBus.ObjectManager"

/* The beacon configuration services (GATT primary services) */
#define NEARBY_BLUEZ_EDDYSTONE_CONFIG_UUID     "a3c87500-8ed3-4bdf-8a39-a01bebede295"
#define NEARBY_BLUEZ_URIBEACON_CONFIG_UUID     "ee0c2080-8786-40ba-ab96-99b91ac981d8"

/* What the choice needs to know of one adapter. */
typedef struct {
  const char *object_path;  /* "/org/bluez/hci0" */
  gboolean    powered;
} NearbyBluezAdapter;

/* The adapter the scanner and the advertiser use among @adapters: the one called @name (the
 * last element of its path, "hci1") when @name is not NULL; otherwise a powered one if there is
 * one, and among those the first by path. Returns its index in @adapters, or -1 when there is
 * none: no adapter at all, or none called @name. */
int nearby_bluez_choose_adapter (const NearbyBluezAdapter *adapters,
                                 guint                     n_adapters,
                                 const char               *name);

G_END_DECLS
