/* nearby-window.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "nearby-application.h"
#include "nearby-source.h"

G_BEGIN_DECLS

#define NEARBY_TYPE_WINDOW (nearby_window_get_type ())
G_DECLARE_FINAL_TYPE (NearbyWindow, nearby_window, NEARBY, WINDOW, AdwApplicationWindow)

/* @objects is what the list shows; @all_objects (or NULL) the same before hidden sites are
 * left out, for the page that says how many objects are hidden. */
NearbyWindow *nearby_window_new         (NearbyApplication *application,
                                         NearbySource      *source,
                                         GListModel        *objects,
                                         GListModel        *all_objects,
                                         gboolean           needs_privacy_choice);
NearbySource *nearby_window_get_source  (NearbyWindow      *self);
void          nearby_window_set_source  (NearbyWindow      *self,
                                         NearbySource      *source);
void          nearby_window_show_toast  (NearbyWindow      *self,
                                         const char        *message);
void          nearby_window_add_toast   (NearbyWindow      *self,
                                         AdwToast          *toast);
/* TRUE (the default) shows the first-run question instead of any other page. */
gboolean      nearby_window_get_needs_privacy_choice (NearbyWindow *self);
void          nearby_window_set_needs_privacy_choice (NearbyWindow *self,
                                                      gboolean      needs_privacy_choice);
/* TRUE while the pointer or the keyboard focus is on the list. */
gboolean      nearby_window_get_list_engaged (NearbyWindow *self);
/* TRUE while the window is mapped and not minimized. */
gboolean      nearby_window_get_on_screen    (NearbyWindow *self);

/* Which stack page to show; pure, so that it can be tested without a display. */
const char   *nearby_window_page_for    (NearbySourceState  state,
                                         guint              n_objects,
                                         guint              n_hidden,
                                         gboolean           privacy_choice_made);
/* The icon a status page of the window shows (set when the page is first shown), or NULL. */
const char   *nearby_window_page_icon   (const char        *page);

G_END_DECLS
