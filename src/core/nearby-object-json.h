/* nearby-object-json.h: one object, with every frame its devices sent, as JSON
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "nearby-object.h"

G_BEGIN_DECLS

/* What the inspector's "Copy as JSON" copies: `key`, `url`, `title`, `distance_m`, `rssi`,
 * `tx_power`, `first_seen`, `last_seen` (ISO 8601, UTC), `stale`, the resolved `page` (as
 * nearby_page_to_json() writes it) and `devices`, each with its `address`, `last_seen` and the
 * last frame of each kind: the `raw` bytes in hex and the fields of nearby_frame_add_json_members().
 * Unknown values are null. */
char *nearby_object_to_json (NearbyObject *object,
                             gboolean      pretty);

G_END_DECLS
