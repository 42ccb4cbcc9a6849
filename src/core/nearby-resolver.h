/* nearby-resolver.h: beacon URL -> page title, description, icon and actions
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "nearby-page.h"
#include "nearby-page-cache.h"
#include "nearby-resolve-error.h"
#include "nearby-url-policy.h"

G_BEGIN_DECLS

#define NEARBY_RESOLVER_MAX_REDIRECTS    5
#define NEARBY_RESOLVER_MAX_MANIFEST     (64 * 1024)
#define NEARBY_RESOLVER_DEFAULT_DEADLINE 20000   /* ms, for everything one look-up does */

typedef enum {
  NEARBY_RESOLVE_FLAGS_NONE    = 0,
  NEARBY_RESOLVE_FLAGS_REFRESH = 1 << 0,  /* skip the cache; the fresh result replaces it */
} NearbyResolveFlags;

/* Lower values go first, as with GLib priorities: pass the object's distance rank. */
#define NEARBY_RESOLVE_PRIORITY_DEFAULT 0

typedef NearbyAddressClass (*NearbyAddressClassifier) (GInetSocketAddress *address,
                                                       gpointer            user_data);

#define NEARBY_TYPE_RESOLVER (nearby_resolver_get_type ())
G_DECLARE_FINAL_TYPE (NearbyResolver, nearby_resolver, NEARBY, RESOLVER, GObject)

NearbyResolver  *nearby_resolver_new                    (void);
void             nearby_resolver_resolve_async          (NearbyResolver          *self,
                                                         const char              *url,
                                                         NearbyUrlPolicy          policy,
                                                         NearbyResolveFlags       flags,
                                                         int                      priority,
                                                         GCancellable            *cancellable,
                                                         GAsyncReadyCallback      callback,
                                                         gpointer                 user_data);
NearbyPage      *nearby_resolver_resolve_finish         (NearbyResolver          *self,
                                                         GAsyncResult            *result,
                                                         GError                 **error);
NearbyPageCache *nearby_resolver_get_cache              (NearbyResolver          *self);
void             nearby_resolver_set_cache              (NearbyResolver          *self,
                                                         NearbyPageCache         *cache);
guint            nearby_resolver_get_deadline           (NearbyResolver          *self);
void             nearby_resolver_set_deadline           (NearbyResolver          *self,
                                                         guint                    deadline_ms);
guint            nearby_resolver_get_in_flight          (NearbyResolver          *self);

/* Decides what class a connected address is. Tests use it to let a server on 127.0.0.1 play a
 * public host; NULL restores nearby_url_policy_classify_address(). */
void             nearby_resolver_set_address_classifier (NearbyResolver          *self,
                                                         NearbyAddressClassifier  classifier,
                                                         gpointer                 user_data);

G_END_DECLS
