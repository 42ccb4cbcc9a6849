/* nearby-scanner.h: beacon sightings from BlueZ
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "nearby-source.h"

G_BEGIN_DECLS

#define NEARBY_TYPE_SCANNER (nearby_scanner_get_type ())
G_DECLARE_FINAL_TYPE (NearbyScanner, nearby_scanner, NEARBY, SCANNER, GObject)

/* @adapter: an adapter name such as "hci1", or NULL for the default adapter. */
NearbyScanner *nearby_scanner_new                (const char           *adapter);
const char    *nearby_scanner_get_adapter        (NearbyScanner        *self);
/* The object path of the adapter in use, or NULL while there is none. */
const char    *nearby_scanner_get_adapter_path   (NearbyScanner        *self);
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
