/* nearby-settings.h: the app's settings as an earlier version left them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* Carries a choice the person made under a key that has since been renamed over to its new
 * name, once, and resets the old key. Call before anything reads @settings. */
void nearby_settings_migrate (GSettings *settings);

G_END_DECLS
