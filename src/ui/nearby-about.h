/* nearby-about.h: the About window, with what a bug report needs to say
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "nearby-source.h"

G_BEGIN_DECLS

/* @bluetooth is the scanner, or NULL when the app shows a demo or a replay instead. */
GtkWindow *nearby_about_window_new     (GtkWindow    *parent,
                                        NearbySource *bluetooth);
/* The version, profile and sandbox of this build, the state of Bluetooth, and the versions of the
 * libraries it runs with: one "Name: value" per line, as the About window's Troubleshooting page
 * shows and saves it. */
char      *nearby_about_dup_debug_info (NearbySource *bluetooth);

G_END_DECLS
