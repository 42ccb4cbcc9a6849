/* nearby-memory-page-cache.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-page-cache"

#include "config.h"

#include "nearby-memory-page-cache.h"

#define MAX_ENTRIES 1000

struct _NearbyMemoryPageCache
{
  GObject     parent_instance;
  GHashTable *entries;   /* url -> NearbyCacheEntry */
};

static void page_cache_iface_init (NearbyPageCacheInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (NearbyMemoryPageCache, nearby_memory_page_cache, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (NEARBY_TYPE_PAGE_CACHE, page_cache_iface_init))

static void
drop_expired (NearbyMemoryPageCache *self)
{
  GHashTableIter iter;
  NearbyCacheEntry *entry;
  gint64 now = g_get_real_time ();

  g_hash_table_iter_init (&iter, self->entries);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &entry))
    {
      if (entry->expires_at_us <= now)
        g_hash_table_iter_remove (&iter);
    }
}

static void
memory_store_async (NearbyPageCache        *cache,
                    const char             *url,
                    const NearbyCacheEntry *entry,
                    GCancellable           *cancellable,
                    GAsyncReadyCallback     callback,
                    gpointer                user_data)
{
  NearbyMemoryPageCache *self = NEARBY_MEMORY_PAGE_CACHE (cache);
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  NearbyCacheEntry *copy;

  g_task_set_source_tag (task, memory_store_async);

  if (g_hash_table_size (self->entries) >= MAX_ENTRIES)
    drop_expired (self);
  if (g_hash_table_size (self->entries) >= MAX_ENTRIES)
    g_hash_table_remove_all (self->entries);

  copy = nearby_cache_entry_copy (entry);
  copy->fetched_at_us = g_get_real_time ();
  g_hash_table_replace (self->entries, g_strdup (url), copy);

  g_task_return_boolean (task, TRUE);
}

static gboolean
memory_store_finish (NearbyPageCache  *cache,
                     GAsyncResult     *result,
                     GError          **error)
{
  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
memory_lookup_async (NearbyPageCache     *cache,
                     const char          *url,
                     GCancellable        *cancellable,
                     GAsyncReadyCallback  callback,
                     gpointer             user_data)
{
  NearbyMemoryPageCache *self = NEARBY_MEMORY_PAGE_CACHE (cache);
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);

  g_task_set_source_tag (task, memory_lookup_async);
  g_task_set_task_data (task, g_strdup (url), g_free);
  g_task_return_boolean (task, g_hash_table_contains (self->entries, url));
}

static NearbyCacheEntry *
memory_lookup_finish (NearbyPageCache  *cache,
                      GAsyncResult     *result,
                      GError          **error)
{
  NearbyMemoryPageCache *self = NEARBY_MEMORY_PAGE_CACHE (cache);
  const char *url = g_task_get_task_data (G_TASK (result));
  NearbyCacheEntry *entry;

  if (!g_task_propagate_boolean (G_TASK (result), error))
    return NULL;

  /* Read at finish time: the entry may have changed since the look-up started. Nothing stale
   * is handed out, as from the history: the page loader shows what it gets as it is. */
  entry = g_hash_table_lookup (self->entries, url);
  if (entry == NULL || entry->expires_at_us <= g_get_real_time ())
    return NULL;

  return nearby_cache_entry_copy (entry);
}

static void
page_cache_iface_init (NearbyPageCacheInterface *iface)
{
  iface->store_async = memory_store_async;
  iface->store_finish = memory_store_finish;
  iface->lookup_async = memory_lookup_async;
  iface->lookup_finish = memory_lookup_finish;
}

static void
nearby_memory_page_cache_finalize (GObject *object)
{
  NearbyMemoryPageCache *self = (NearbyMemoryPageCache *) object;

  g_clear_pointer (&self->entries, g_hash_table_unref);

  G_OBJECT_CLASS (nearby_memory_page_cache_parent_class)->finalize (object);
}

static void
nearby_memory_page_cache_class_init (NearbyMemoryPageCacheClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = nearby_memory_page_cache_finalize;
}

static void
nearby_memory_page_cache_init (NearbyMemoryPageCache *self)
{
  self->entries = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                         (GDestroyNotify) nearby_cache_entry_free);
}

NearbyPageCache *
nearby_memory_page_cache_new (void)
{
  return g_object_new (NEARBY_TYPE_MEMORY_PAGE_CACHE, NULL);
}

guint
nearby_memory_page_cache_get_size (NearbyMemoryPageCache *self)
{
  g_return_val_if_fail (NEARBY_IS_MEMORY_PAGE_CACHE (self), 0);

  return g_hash_table_size (self->entries);
}
