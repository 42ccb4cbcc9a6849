/* nearby-cli-bluetooth.h: what `nearby scan` and `nearby advertise` share: the way out of
 * Bluetooth trouble
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "nearby-source.h"

G_BEGIN_DECLS

/* What the user can type about Bluetooth in @state ("run `rfkill unblock bluetooth`"), to follow
 * the description of the trouble; NULL when there is nothing to type. The advertiser's errors
 * name the same troubles as the scanner's states. */
const char *nearby_cli_bluetooth_advice (NearbySourceState state);

G_END_DECLS
