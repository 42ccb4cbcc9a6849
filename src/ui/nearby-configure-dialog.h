/* nearby-configure-dialog.h: reads a beacon's configuration over Bluetooth, and changes it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define NEARBY_TYPE_CONFIGURE_DIALOG (nearby_configure_dialog_get_type ())
G_DECLARE_FINAL_TYPE (NearbyConfigureDialog, nearby_configure_dialog, NEARBY, CONFIGURE_DIALOG,
                      AdwWindow)

/* Reads the beacon at @address once shown; writes only when Write is pressed. */
NearbyConfigureDialog *nearby_configure_dialog_new         (GtkWindow             *parent,
                                                            const char            *address);
const char            *nearby_configure_dialog_get_address (NearbyConfigureDialog *self);

G_END_DECLS
