/* nearby-scanner.h: beacon sightings from BlueZ
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "nearby-source.h"

G_BEGIN_DECLS

/* NearbyScanner: a NearbySource over BlueZ's D-Bus API (org.bluez on the system bus).
 *
 * It picks the default adapter (a powered one, then the first by name) or the one named by the
 * "adapter" property, asks for LE discovery with DuplicateData, and emits a sighting for every
 * Eddystone (FEAA), UriBeacon (FED8) or iBeacon (Apple 0x004C) frame it decodes from ServiceData
 * and ManufacturerData, invalid beacon frames included. An RSSI change re-emits the device's last
 * URL frame (or its last frame when it never sent a URL) with the new RSSI.
 *
 * "state" tells why there are no sightings: no-service, no-adapter, off, rfkill-blocked, error
 * (with "state-message" in words), starting, scanning, or finished after
 * nearby_scanner_stop_async().
 * It recovers by itself: a restarted bluetoothd, a power cycle, an adapter unplugged and plugged
 * back, discovery stopped by someone else, or nothing heard for "stall-timeout" ms (doubling up
 * to 8 times while it stays quiet). Failed attempts are retried after "retry-interval" ms,
 * doubling up to "retry-interval-max"; InProgress is never retried at once. */

#define NEARBY_TYPE_SCANNER (nearby_scanner_get_type ())
G_DECLARE_FINAL_TYPE (NearbyScanner, nearby_scanner, NEARBY, SCANNER, GObject)

/* @adapter: an adapter name such as "hci1", or NULL for the default adapter. */
NearbyScanner *nearby_scanner_new                (const char           *adapter);
const char    *nearby_scanner_get_adapter        (NearbyScanner        *self);
/* The object path of the adapter in use, or NULL while there is none. */
const char    *nearby_scanner_get_adapter_path   (NearbyScanner        *self);
/* What reads bluetoothd's Device1 signals: "sd-bus" or "gdbus"; NULL until they are followed.
 * NEARBY_SCANNER_SIGNALS=gdbus in the environment chooses GDBus. */
const char    *nearby_scanner_get_signal_reader (NearbyScanner        *self);
/* With @hold_steady, a device's advert becomes a sighting only when it says something new: a
 * changed frame, an RSSI more than 3 dB above the lowest since its last sighting or below that
 * sighting's, or once a hold of at most 6 s ran out (see nearby_scanner_set_hold_timeouts());
 * for 3 s after a device is first heard or its RSSI moved, every advert is one. For a window
 * that shows where beacons are; off (every advert a sighting) by default, and for whatever
 * shows each. */
void           nearby_scanner_set_hold_steady    (NearbyScanner        *self,
                                                  gboolean              hold_steady);
gboolean       nearby_scanner_get_hold_steady    (NearbyScanner        *self);
/* The stale and expiry times (ms) of the list the sightings go to: the hold is at most 60 % of
 * the shorter, so that a held beacon never fades there. Default: 10 000 and 30 000. */
void           nearby_scanner_set_hold_timeouts  (NearbyScanner        *self,
                                                  guint                 stale_ms,
                                                  guint                 expiry_ms);
/* How many times discovery was restarted because it stopped or stalled. */
guint          nearby_scanner_get_restart_count  (NearbyScanner        *self);

/* Powers the adapter on (for the "off" state). */
void           nearby_scanner_power_on_async     (NearbyScanner        *self,
                                                  GCancellable         *cancellable,
                                                  GAsyncReadyCallback   callback,
                                                  gpointer              user_data);
gboolean       nearby_scanner_power_on_finish    (NearbyScanner        *self,
                                                  GAsyncResult         *result,
                                                  GError              **error);

/* Starts discovery again now, rather than at the next retry, after it failed (the person
 * pressed Try Again). The back-off is kept, so pressing it again and again is no tight loop.
 * FALSE, and nothing done, without a powered adapter or once stopped. */
gboolean       nearby_scanner_retry              (NearbyScanner        *self);

/* Ends our discovery session and waits for bluetoothd to confirm, so that a process can exit
 * right after. No more sightings are emitted, and the state becomes "finished". */
void           nearby_scanner_stop_async         (NearbyScanner        *self,
                                                  GCancellable         *cancellable,
                                                  GAsyncReadyCallback   callback,
                                                  gpointer              user_data);
gboolean       nearby_scanner_stop_finish        (NearbyScanner        *self,
                                                  GAsyncResult         *result,
                                                  GError              **error);

G_END_DECLS
