/* nearby-application.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "nearby-history.h"
#include "nearby-object-list.h"

G_BEGIN_DECLS

#define NEARBY_TYPE_APPLICATION (nearby_application_get_type ())
G_DECLARE_FINAL_TYPE (NearbyApplication, nearby_application, NEARBY, APPLICATION, AdwApplication)

NearbyApplication *nearby_application_new                      (void);
NearbyObjectList  *nearby_application_get_objects              (NearbyApplication *self);
NearbyHistory     *nearby_application_get_history              (NearbyApplication *self);
/* The developer-mode setting, or --developer for this run. */
gboolean           nearby_application_get_developer_mode       (NearbyApplication *self);
/* Whether the user still has to say how pages may be looked up (never in developer mode). */
gboolean           nearby_application_get_needs_privacy_choice (NearbyApplication *self);

G_END_DECLS
