/* nearby-demo.h: a made-up street scene, for trying Nearby without beacons
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "nearby-source.h"

G_BEGIN_DECLS

#define NEARBY_TYPE_DEMO (nearby_demo_get_type ())
G_DECLARE_FINAL_TYPE (NearbyDemo, nearby_demo, NEARBY, DEMO, GObject)

NearbyDemo *nearby_demo_new          (void);
/* Starts the local web server for the demo pages and the simulated walk. */
gboolean    nearby_demo_start        (NearbyDemo  *self,
                                      GError     **error);
/* "http://127.0.0.1:PORT/", or NULL before start. */
const char *nearby_demo_get_base_url (NearbyDemo  *self);

G_END_DECLS
