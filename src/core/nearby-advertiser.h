/* nearby-advertiser.h: broadcast a URL from this computer through BlueZ
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "nearby-frame.h"

G_BEGIN_DECLS

/* NearbyAdvertiser: one URL, broadcast as an Eddystone-URL or UriBeacon frame.
 *
 * It exports an org.bluez.LEAdvertisement1 object (Type "broadcast", the frame's service UUID in
 * ServiceUUIDs and the encoded frame in ServiceData) on the system bus and registers it with the
 * adapter's org.bluez.LEAdvertisingManager1. BlueZ reads the properties once, at registration:
 * the URL, protocol and tx power are therefore construct-only.
 *
 * "state" goes idle -> starting -> broadcasting -> stopping -> stopped, or to "failed" when
 * starting fails. It becomes "released" when BlueZ ends the broadcast by itself (its Release
 * call, or bluetoothd going away), and "broadcasting" again once the advertisement is registered
 * again: when bluetoothd comes back, or an adapter that can advertise appears. Disposing a
 * broadcasting advertiser unregisters it. */

#define NEARBY_ADVERTISER_ERROR (nearby_advertiser_error_quark ())

typedef enum {
  NEARBY_ADVERTISER_ERROR_URL_TOO_LONG,       /* the message says by how many bytes */
  NEARBY_ADVERTISER_ERROR_INVALID_URL,        /* a character or scheme no frame can carry */
  NEARBY_ADVERTISER_ERROR_NO_SERVICE,         /* bluetoothd is not running */
  NEARBY_ADVERTISER_ERROR_NO_ADAPTER,         /* none at all, or not the one asked for */
  NEARBY_ADVERTISER_ERROR_OFF,
  NEARBY_ADVERTISER_ERROR_RFKILL_BLOCKED,     /* airplane mode or a radio switch */
  NEARBY_ADVERTISER_ERROR_NOT_SUPPORTED,      /* the adapter has no LEAdvertisingManager1 */
  NEARBY_ADVERTISER_ERROR_NO_INSTANCES,       /* every advertising instance is taken */
  NEARBY_ADVERTISER_ERROR_INVALID_ARGUMENTS,  /* BlueZ rejected the advertisement */
  NEARBY_ADVERTISER_ERROR_FAILED,
} NearbyAdvertiserError;

typedef enum {
  NEARBY_ADVERTISER_STATE_IDLE,
  NEARBY_ADVERTISER_STATE_STARTING,
  NEARBY_ADVERTISER_STATE_BROADCASTING,
  NEARBY_ADVERTISER_STATE_STOPPING,
  NEARBY_ADVERTISER_STATE_STOPPED,
  NEARBY_ADVERTISER_STATE_RELEASED,
  NEARBY_ADVERTISER_STATE_FAILED,
} NearbyAdvertiserState;

/* Eddystone frames usually come with a -20 dBm calibration at 0 m (-61 dBm at 1 m). */
#define NEARBY_ADVERTISER_DEFAULT_TX_POWER (-20)

#define NEARBY_TYPE_ADVERTISER (nearby_advertiser_get_type ())
G_DECLARE_FINAL_TYPE (NearbyAdvertiser, nearby_advertiser, NEARBY, ADVERTISER, GObject)

GQuark                 nearby_advertiser_error_quark        (void);
const char            *nearby_advertiser_state_to_string    (NearbyAdvertiserState  state);

/* @protocol: NEARBY_PROTOCOL_EDDYSTONE or NEARBY_PROTOCOL_URIBEACON.
 * @tx_power: calibrated power at 0 m, in dBm, written into the frame.
 * @adapter: "hciN", or NULL for the first powered adapter. */
NearbyAdvertiser      *nearby_advertiser_new                (const char            *url,
                                                             NearbyProtocol         protocol,
                                                             int                    tx_power,
                                                             const char            *adapter);
const char            *nearby_advertiser_get_url            (NearbyAdvertiser      *self);
NearbyProtocol         nearby_advertiser_get_protocol       (NearbyAdvertiser      *self);
int                    nearby_advertiser_get_tx_power       (NearbyAdvertiser      *self);
const char            *nearby_advertiser_get_adapter        (NearbyAdvertiser      *self);
NearbyAdvertiserState  nearby_advertiser_get_state          (NearbyAdvertiser      *self);
/* The adapter's object path once starting found it, else NULL. */
const char            *nearby_advertiser_get_adapter_path   (NearbyAdvertiser      *self);
/* The path of the exported LEAdvertisement1 object. */
const char            *nearby_advertiser_get_object_path    (NearbyAdvertiser      *self);
/* 0xFEAA or 0xFED8, and its 128-bit form as BlueZ writes it. */
guint16                nearby_advertiser_get_service_uuid   (NearbyAdvertiser      *self);
const char            *nearby_advertiser_get_service_uuid128 (NearbyAdvertiser     *self);

/* The service data that will be broadcast, or NULL with URL_TOO_LONG / INVALID_URL: usable
 * before starting, to show the user what goes on the air or why the URL does not fit. */
GBytes                *nearby_advertiser_dup_service_data   (NearbyAdvertiser      *self,
                                                             GError               **error);

/* Finds the adapter, exports the advertisement and registers it. Fails with a
 * NEARBY_ADVERTISER_ERROR, or G_IO_ERROR_CANCELLED. Call once. */
void                   nearby_advertiser_start_async        (NearbyAdvertiser      *self,
                                                             GCancellable          *cancellable,
                                                             GAsyncReadyCallback    callback,
                                                             gpointer               user_data);
gboolean               nearby_advertiser_start_finish       (NearbyAdvertiser      *self,
                                                             GAsyncResult          *result,
                                                             GError               **error);

/* Unregisters the advertisement and waits for BlueZ to confirm; the state becomes "stopped".
 * Succeeds at once when nothing is registered (never started, failed, released). While
 * starting, fails with G_IO_ERROR_PENDING: cancel the start instead. */
void                   nearby_advertiser_stop_async         (NearbyAdvertiser      *self,
                                                             GCancellable          *cancellable,
                                                             GAsyncReadyCallback    callback,
                                                             gpointer               user_data);
gboolean               nearby_advertiser_stop_finish        (NearbyAdvertiser      *self,
                                                             GAsyncResult          *result,
                                                             GError               **error);

G_END_DECLS
