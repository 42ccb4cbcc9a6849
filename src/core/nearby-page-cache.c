/* nearby-page-cache.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-page-cache"

#include "config.h"

#include "nearby-page-cache.h"

G_DEFINE_INTERFACE (NearbyPageCache, nearby_page_cache, G_TYPE_OBJECT)

static void
nearby_page_cache_default_init (NearbyPageCacheInterface *iface)
{
}

void
nearby_page_cache_store_async (NearbyPageCache     *self,
                               const char          *url,
                               const char          *page_json,
                               GBytes              *icon,
                               const char          *icon_type,
                               gint64               expires_at_us,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  g_return_if_fail (NEARBY_IS_PAGE_CACHE (self));
  g_return_if_fail (url != NULL);
  g_return_if_fail (page_json != NULL);

  NEARBY_PAGE_CACHE_GET_IFACE (self)->store_async (self, url, page_json, icon, icon_type,
                                                   expires_at_us, cancellable, callback, user_data);
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

gboolean
nearby_page_cache_lookup_finish (NearbyPageCache  *self,
                                 GAsyncResult     *result,
                                 char            **page_json,
                                 GBytes          **icon,
                                 char            **icon_type,
                                 gint64           *expires_at_us,
                                 GError          **error)
{
  g_return_val_if_fail (NEARBY_IS_PAGE_CACHE (self), FALSE);

  return NEARBY_PAGE_CACHE_GET_IFACE (self)->lookup_finish (self, result, page_json, icon,
                                                            icon_type, expires_at_us, error);
}
