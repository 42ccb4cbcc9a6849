/* nearby-page-cache.h: where resolved pages and their icons are kept between look-ups
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define NEARBY_TYPE_PAGE_CACHE (nearby_page_cache_get_type ())
G_DECLARE_INTERFACE (NearbyPageCache, nearby_page_cache, NEARBY, PAGE_CACHE, GObject)

/* A page is stored as the JSON of nearby_page_to_json() plus the icon bytes, so a persistent
 * store (NearbyHistory) needs to know nothing about NearbyPage. */
struct _NearbyPageCacheInterface
{
  GTypeInterface parent_iface;

  void     (*store_async)   (NearbyPageCache      *self,
                             const char           *url,
                             const char           *page_json,
                             GBytes               *icon,
                             const char           *icon_type,
                             gint64                expires_at_us,
                             GCancellable         *cancellable,
                             GAsyncReadyCallback   callback,
                             gpointer              user_data);
  gboolean (*store_finish)  (NearbyPageCache      *self,
                             GAsyncResult         *result,
                             GError              **error);
  void     (*lookup_async)  (NearbyPageCache      *self,
                             const char           *url,
                             GCancellable         *cancellable,
                             GAsyncReadyCallback   callback,
                             gpointer              user_data);
  /* FALSE without an error: nothing stored for this URL */
  gboolean (*lookup_finish) (NearbyPageCache      *self,
                             GAsyncResult         *result,
                             char                **page_json,
                             GBytes              **icon,
                             char                **icon_type,
                             gint64               *expires_at_us,
                             GError              **error);
};

void     nearby_page_cache_store_async   (NearbyPageCache      *self,
                                          const char           *url,
                                          const char           *page_json,
                                          GBytes               *icon,
                                          const char           *icon_type,
                                          gint64                expires_at_us,
                                          GCancellable         *cancellable,
                                          GAsyncReadyCallback   callback,
                                          gpointer              user_data);
gboolean nearby_page_cache_store_finish  (NearbyPageCache      *self,
                                          GAsyncResult         *result,
                                          GError              **error);
void     nearby_page_cache_lookup_async  (NearbyPageCache      *self,
                                          const char           *url,
                                          GCancellable         *cancellable,
                                          GAsyncReadyCallback   callback,
                                          gpointer              user_data);
gboolean nearby_page_cache_lookup_finish (NearbyPageCache      *self,
                                          GAsyncResult         *result,
                                          char                **page_json,
                                          GBytes              **icon,
                                          char                **icon_type,
                                          gint64               *expires_at_us,
                                          GError              **error);

G_END_DECLS
