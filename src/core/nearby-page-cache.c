/* nearby-page-cache.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-page-cache"

#include "config.h"

#include "nearby-page-cache.h"

G_DEFINE_BOXED_TYPE (NearbyCacheEntry, nearby_cache_entry,
                     nearby_cache_entry_copy, nearby_cache_entry_free)

NearbyCacheEntry *
nearby_cache_entry_new (const char *page_json,
                        GBytes     *icon,
                        const char *icon_type,
                        gint64      expires_at_us)
{
  NearbyCacheEntry *entry = g_new0 (NearbyCacheEntry, 1);

  entry->page_json = g_strdup (page_json);
  entry->icon = icon != NULL ? g_bytes_ref (icon) : NULL;
  entry->icon_type = g_strdup (icon_type);
  entry->expires_at_us = expires_at_us;

  return entry;
}

NearbyCacheEntry *
nearby_cache_entry_copy (const NearbyCacheEntry *entry)
{
  NearbyCacheEntry *copy;

  g_return_val_if_fail (entry != NULL, NULL);

  copy = nearby_cache_entry_new (entry->page_json, entry->icon, entry->icon_type,
                                 entry->expires_at_us);
  copy->fetched_at_us = entry->fetched_at_us;

  return copy;
}

void
nearby_cache_entry_free (NearbyCacheEntry *entry)
{
  if (entry == NULL)
    return;

  g_free (entry->page_json);
  g_clear_pointer (&entry->icon, g_bytes_unref);
  g_free (entry->icon_type);
  g_free (entry);
}

G_DEFINE_INTERFACE (NearbyPageCache, nearby_page_cache, G_TYPE_OBJECT)

static void
nearby_page_cache_default_init (NearbyPageCacheInterface *iface)
{
}

void
nearby_page_cache_store_async (NearbyPageCache        *self,
                               const char             *url,
                               const NearbyCacheEntry *entry,
                               GCancellable           *cancellable,
                               GAsyncReadyCallback     callback,
                               gpointer                user_data)
{
  g_return_if_fail (NEARBY_IS_PAGE_CACHE (self));
  g_return_if_fail (url != NULL);
  g_return_if_fail (entry != NULL);
  g_return_if_fail (entry->page_json != NULL);

  NEARBY_PAGE_CACHE_GET_IFACE (self)->store_async (self, url, entry, cancellable, callback,
                                                   user_data);
}

gboolean
nearby_page_cache_store_finish (NearbyPageCache  *self,
                                GAsyncResult     *result,
                                GError          **error)
{
  g_return_val_if_fail (NEARBY_IS_PAGE_CACHE (self), FALSE);

  return NEARBY_PAGE_CACHE_GET_IFACE (self)->store_finish (self, result, error);
}

void
nearby_page_cache_lookup_async (NearbyPageCache     *self,
                                const char          *url,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_return_if_fail (NEARBY_IS_PAGE_CACHE (self));
  g_return_if_fail (url != NULL);

  NEARBY_PAGE_CACHE_GET_IFACE (self)->lookup_async (self, url, cancellable, callback, user_data);
}

NearbyCacheEntry *
nearby_page_cache_lookup_finish (NearbyPageCache  *self,
                                 GAsyncResult     *result,
                                 GError          **error)
{
  g_return_val_if_fail (NEARBY_IS_PAGE_CACHE (self), NULL);

  return NEARBY_PAGE_CACHE_GET_IFACE (self)->lookup_finish (self, result, error);
}
