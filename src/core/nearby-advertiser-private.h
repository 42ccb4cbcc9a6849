/* nearby-advertiser-private.h: the advertiser's instance and the calls between its files
 *
 * nearby-advertiser.c exports the advertisement and registers it; nearby-advertiser-adapter.c
 * picks the adapter, checks that it can advertise and puts BlueZ's refusals in words;
 * nearby-advertiser-resume.c registers it again after BlueZ let go of it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "nearby-advertiser.h"

G_BEGIN_DECLS

/* bluetoothd answers in milliseconds; these only bound a hung daemon. Registration includes
 * bluetoothd reading our properties back. */
#define ADVERTISER_CALL_TIMEOUT_MS 25000


struct _NearbyAdvertiser
{
  GObject                parent_instance;

  char                  *url;
  NearbyProtocol         protocol;
  int                    tx_power;
  char                  *adapter;
  NearbyAdvertiserState  state;

  GDBusConnection       *bus;
  char                  *adapter_path;
  char                  *object_path;
  GBytes                *service_data;
  guint                  registration_id;
  guint                  bluez_watch_id;
  /* TRUE from a successful RegisterAdvertisement until BlueZ lets go of it. */
  gboolean               registered;
  /* Registering again after bluetoothd came back. */
  GCancellable          *resume_cancellable;
  guint                  interfaces_added_id;
  /* bluetoothd called Release before it answered RegisterAdvertisement. */
  gboolean               released_while_starting;
};

/* nearby-advertiser.c */
void      _nearby_advertiser_set_state        (NearbyAdvertiser       *self,
                                               NearbyAdvertiserState   state);
/* BlueZ let go of the advertisement by itself. */
void      _nearby_advertiser_released         (NearbyAdvertiser       *self);
/* GetManagedObjects on bluetoothd's root: its adapters and what they offer. */
void      _nearby_advertiser_call_get_objects (NearbyAdvertiser       *self,
                                               GCancellable           *cancellable,
                                               GAsyncReadyCallback     callback,
                                               gpointer                user_data);
/* RegisterAdvertisement of the exported object on self->adapter_path. */
void      _nearby_advertiser_call_register    (NearbyAdvertiser       *self,
                                               GCancellable           *cancellable,
                                               GAsyncReadyCallback     callback,
                                               gpointer                user_data);

/* nearby-advertiser-adapter.c */
/* "hci0": the adapter in use, else the one asked for, else "?". */
char     *_nearby_advertiser_dup_adapter_name (NearbyAdvertiser       *self);
/* A NEARBY_ADVERTISER_ERROR for a D-Bus error from bluetoothd. */
GError   *_nearby_advertiser_error_from_bluez (const GError           *error,
                                               const char             *adapter_name);
/* Picks the adapter among @objects (GetManagedObjects' answer), sets self->adapter_path and
 * returns the adapter's interfaces; NULL with NO_ADAPTER when there is none to pick. */
GVariant *_nearby_advertiser_choose_adapter   (NearbyAdvertiser       *self,
                                               GVariant               *objects,
                                               GError                **error);
/* Whether the adapter with @interfaces can take an advertisement now: powered, with an
 * LEAdvertisingManager1 and a free instance. */
gboolean  _nearby_advertiser_check_adapter    (NearbyAdvertiser       *self,
                                               GVariant               *interfaces,
                                               GError                **error);

/* nearby-advertiser-resume.c */
/* Follows bluetoothd and its adapters while the advertisement is exported, to register it
 * again once it was released. */
void      _nearby_advertiser_watch_bluez      (NearbyAdvertiser       *self);
void      _nearby_advertiser_unwatch_bluez    (NearbyAdvertiser       *self);

G_END_DECLS
