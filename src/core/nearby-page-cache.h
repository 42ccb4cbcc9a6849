/* nearby-page-cache.h: where resolved pages and their icons are kept between look-ups
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* What is kept for one URL. A page is stored as the JSON of nearby_page_to_json() plus the icon
 * bytes, so a persistent store (NearbyHistory) needs to know nothing about NearbyPage. */
typedef struct {
  char   *page_json;      /* the resolver's own serialisation of the page metadata, or NULL */
  GBytes *icon;           /* the icon's bytes, or NULL */
  char   *icon_type;      /* e.g. "image/png", or NULL */
  gint64  expires_at_us;  /* wall-clock time (g_get_real_time()) after which it is stale */
  gint64  fetched_at_us;  /* when it was stored: the cache sets it, storing ignores it */
} NearbyCacheEntry;

#define NEARBY_TYPE_CACHE_ENTRY (nearby_cache_entry_get_type ())
GType             nearby_cache_entry_get_type (void) G_GNUC_CONST;
NearbyCacheEntry *nearby_cache_entry_new      (const char             *page_json,
                                               GBytes                 *icon,
                                               const char             *icon_type,
                                               gint64                  expires_at_us);
NearbyCacheEntry *nearby_cache_entry_copy     (const NearbyCacheEntry *entry);
void              nearby_cache_entry_free     (NearbyCacheEntry       *entry);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (NearbyCacheEntry, nearby_cache_entry_free)

#define NEARBY_TYPE_PAGE_CACHE (nearby_page_cache_get_type ())
G_DECLARE_INTERFACE (NearbyPageCache, nearby_page_cache, NEARBY, PAGE_CACHE, GObject)

struct _NearbyPageCacheInterface
{
  GTypeInterface parent_iface;

  /* The cache keeps its own copy of entry. */
  void               (*store_async)   (NearbyPageCache         *self,
                                       const char              *url,
                                       const NearbyCacheEntry  *entry,
                                       GCancellable            *cancellable,
                                       GAsyncReadyCallback      callback,
                                       gpointer                 user_data);
  gboolean           (*store_finish)  (NearbyPageCache         *self,
                                       GAsyncResult            *result,
                                       GError                 **error);
  void               (*lookup_async)  (NearbyPageCache         *self,
                                       const char              *url,
                                       GCancellable            *cancellable,
                                       GAsyncReadyCallback      callback,
                                       gpointer                 user_data);
  /* NULL without an error: nothing fresh is stored for this URL */
  NearbyCacheEntry * (*lookup_finish) (NearbyPageCache         *self,
                                       GAsyncResult            *result,
                                       GError                 **error);
};

void              nearby_page_cache_store_async   (NearbyPageCache         *self,
                                                   const char              *url,
                                                   const NearbyCacheEntry  *entry,
                                                   GCancellable            *cancellable,
                                                   GAsyncReadyCallback      callback,
                                                   gpointer                 user_data);
gboolean          nearby_page_cache_store_finish  (NearbyPageCache         *self,
                                                   GAsyncResult            *result,
                                                   GError                 **error);
void              nearby_page_cache_lookup_async  (NearbyPageCache         *self,
                                                   const char              *url,
                                                   GCancellable            *cancellable,
                                                   GAsyncReadyCallback      callback,
                                                   gpointer                 user_data);
NearbyCacheEntry *nearby_page_cache_lookup_finish (NearbyPageCache         *self,
                                                   GAsyncResult            *result,
                                                   GError                 **error);

G_END_DECLS
