/* nearby-application.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define NEARBY_TYPE_APPLICATION (nearby_application_get_type ())
G_DECLARE_FINAL_TYPE (NearbyApplication, nearby_application, NEARBY, APPLICATION, AdwApplication)

NearbyApplication *nearby_application_new (void);

G_END_DECLS
