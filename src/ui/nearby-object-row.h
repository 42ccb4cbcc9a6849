/* nearby-object-row.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "nearby-object.h"
#include "nearby-source.h"
#include "nearby-url-policy.h"

G_BEGIN_DECLS

#define NEARBY_TYPE_OBJECT_ROW (nearby_object_row_get_type ())
G_DECLARE_FINAL_TYPE (NearbyObjectRow, nearby_object_row, NEARBY, OBJECT_ROW, GtkWidget)

NearbyObject *nearby_object_row_get_object (NearbyObjectRow *self);
void          nearby_object_row_set_object (NearbyObjectRow *self,
                                            NearbyObject    *object);

void          nearby_object_row_popup_menu (NearbyObjectRow *self);

/* What a row, and the Details window, are headed with: the page's title; for a beacon without a
 * web address, what it is (and who it is in @identity, optional); else @host (the host its row
 * shows, or NULL when the URL has none) and the URL's path, the URL or the object's key. */
char         *nearby_object_row_name       (NearbyObject    *object,
                                            const char      *host,
                                            char           **identity);

/* The title @object's page gave, or NULL: also for a page without one, which the resolver names
 * by its host and path ("[::1]/1140") and which a row and Details show as an object not looked up
 * yet, its host ("::1") with its path beneath, and no initials. */
const char   *nearby_object_row_page_title (NearbyObject    *object);

/* The host a row shows for @object: the one @source (or NULL) makes up for it (the demo's, and
 * then @made_up is TRUE), else its URL's; NULL without a URL. */
char         *nearby_object_row_dup_host   (NearbyObject          *object,
                                            NearbySource          *source,
                                            gboolean              *made_up,
                                            NearbyUrlDisplayFlags *flags);

/* The site hiding @object would hide: the host @source (or NULL) makes up for it (the demo's
 * street, so that hiding one of its objects hides that made-up site, not every page this computer
 * serves), else its URL's registrable domain (nearby_url_site()); NULL without a URL. */
char         *nearby_object_row_dup_site   (NearbyObject          *object,
                                            NearbySource          *source);

/* The words a row uses for a distance bucket ("Right here", "Nearby", "Farther away"). */
const char   *nearby_object_row_bucket_label (NearbyBucket bucket);

G_END_DECLS
