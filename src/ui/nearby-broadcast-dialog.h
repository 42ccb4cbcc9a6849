/* nearby-broadcast-dialog.h: asks developers for a URL to broadcast, and says whether it fits
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define NEARBY_TYPE_BROADCAST_DIALOG (nearby_broadcast_dialog_get_type ())
G_DECLARE_FINAL_TYPE (NearbyBroadcastDialog, nearby_broadcast_dialog, NEARBY, BROADCAST_DIALOG,
                      AdwMessageDialog)

/* Emits "response" with "broadcast" (enabled only while the URL fits in a frame) or "cancel". */
NearbyBroadcastDialog *nearby_broadcast_dialog_new     (GtkWindow             *parent);
/* The URL as typed so far. */
const char            *nearby_broadcast_dialog_get_url (NearbyBroadcastDialog *self);

G_END_DECLS
