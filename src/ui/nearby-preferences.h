/* nearby-preferences.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define NEARBY_TYPE_PREFERENCES (nearby_preferences_get_type ())
G_DECLARE_FINAL_TYPE (NearbyPreferences, nearby_preferences, NEARBY, PREFERENCES, AdwPreferencesWindow)

/* @hidden_sites: a GListModel of GtkStringObject, one per hidden host. */
NearbyPreferences *nearby_preferences_new (GtkWindow  *parent,
                                           GListModel *hidden_sites);

G_END_DECLS
