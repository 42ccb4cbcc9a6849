/* nearby-page-loader.h: looks up the pages of nearby objects, as the user allowed
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "nearby-object-list.h"
#include "nearby-page-cache.h"
#include "nearby-resolver.h"

G_BEGIN_DECLS

typedef enum {
  NEARBY_LOOKUP_AUTOMATIC, /* secure public pages as objects appear */
  NEARBY_LOOKUP_ASK,       /* only when the user asks (refresh, open) */
  NEARBY_LOOKUP_NEVER,     /* only what is cached */
} NearbyLookupMode;

#define NEARBY_TYPE_LOOKUP_MODE (nearby_lookup_mode_get_type ())
GType nearby_lookup_mode_get_type (void) G_GNUC_CONST;

#define NEARBY_TYPE_PAGE_LOADER (nearby_page_loader_get_type ())
G_DECLARE_FINAL_TYPE (NearbyPageLoader, nearby_page_loader, NEARBY, PAGE_LOADER, GObject)

/* @cache may be NULL. Properties: what the user chose, "mode" (NearbyLookupMode) and "enabled"
 * (FALSE until the user has chosen: then not even automatic look-ups happen); "automatic-policy"
 * (NearbyUrlPolicy flags allowed without asking: none by default); and what overrides them:
 * "developer-mode" (every page, local and insecure ones too, looked up as soon as it is heard)
 * and "demo" (the objects are the demo's, whose pages this computer serves: looked up at once). */
NearbyPageLoader *nearby_page_loader_new              (NearbyObjectList *objects,
                                                       NearbyResolver   *resolver,
                                                       NearbyPageCache  *cache);
NearbyLookupMode  nearby_page_loader_get_mode         (NearbyPageLoader *self);
void              nearby_page_loader_set_mode         (NearbyPageLoader *self,
                                                       NearbyLookupMode  mode);
gboolean          nearby_page_loader_get_enabled      (NearbyPageLoader *self);
void              nearby_page_loader_set_enabled      (NearbyPageLoader *self,
                                                       gboolean          enabled);
guint             nearby_page_loader_get_automatic_policy (NearbyPageLoader *self);
void              nearby_page_loader_set_automatic_policy (NearbyPageLoader *self,
                                                           guint             policy);
gboolean          nearby_page_loader_get_developer_mode (NearbyPageLoader *self);
void              nearby_page_loader_set_developer_mode (NearbyPageLoader *self,
                                                         gboolean          developer_mode);
gboolean          nearby_page_loader_get_demo         (NearbyPageLoader *self);
void              nearby_page_loader_set_demo         (NearbyPageLoader *self,
                                                       gboolean          demo);
/* Whether opening an object looks its page up too: not when the user chose never (and neither
 * developer mode nor the demo overrides it), since the row then shows only what was broadcast. */
gboolean          nearby_page_loader_get_looks_up_when_opened (NearbyPageLoader *self);

/* The user asked: look the object up whatever the mode, with every address allowed.
 * @refresh bypasses the cache. */
void              nearby_page_loader_look_up          (NearbyPageLoader *self,
                                                       NearbyObject     *object,
                                                       gboolean          refresh);
/* The same for every browsable object in the list (the refresh button). Finishes once every
 * look-up has ended: returns how many objects were looked up, and in @n_found how many of them
 * gave a page. */
void              nearby_page_loader_look_up_all_async  (NearbyPageLoader    *self,
                                                         gboolean             refresh,
                                                         GCancellable        *cancellable,
                                                         GAsyncReadyCallback  callback,
                                                         gpointer             user_data);
guint             nearby_page_loader_look_up_all_finish (NearbyPageLoader    *self,
                                                         GAsyncResult        *result,
                                                         guint               *n_found,
                                                         GError             **error);

G_END_DECLS
