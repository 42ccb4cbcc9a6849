/* nearby-window.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "nearby-application.h"

G_BEGIN_DECLS

#define NEARBY_TYPE_WINDOW (nearby_window_get_type ())
G_DECLARE_FINAL_TYPE (NearbyWindow, nearby_window, NEARBY, WINDOW, AdwApplicationWindow)

NearbyWindow *nearby_window_new (NearbyApplication *application);

G_END_DECLS
