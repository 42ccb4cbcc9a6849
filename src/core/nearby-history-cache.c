/* nearby-history-cache.c: the page cache table, and NearbyHistory as a NearbyPageCache
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-history"

#include "config.h"

#include <string.h>

#include "nearby-history-private.h"

static gboolean
history_cache_prune (NearbyHistoryWorker  *worker,
                     gint64                max_bytes,
                     GError              **error)
{
  g_autoptr(sqlite3_stmt) oldest = NULL;
  gint64 total_bytes = 0;

  {
    g_autoptr(NearbyHistoryStatement) expired =
      _nearby_history_statement (worker, "DELETE FROM page_cache WHERE expires_us <= ?1", error);

    if (expired == NULL)
      return FALSE;
    sqlite3_bind_int64 (expired, 1, g_get_real_time ());
    if (!_nearby_history_step_done (expired, error))
      return FALSE;
  }

  /* Adding up is cheap (a covering index); ranking every entry is not, so only when needed. */
  {
    g_autoptr(NearbyHistoryStatement) total =
      _nearby_history_statement (worker, "SELECT total(size_bytes) FROM page_cache", error);
    int rc;

    if (total == NULL)
      return FALSE;
    rc = sqlite3_step (total);
    if (rc != SQLITE_ROW)
      return _nearby_history_set_error (worker->db, rc, error);
    total_bytes = sqlite3_column_int64 (total, 0);
  }
  if (total_bytes <= max_bytes)
    return TRUE;

  /* Keep the newest entries whose sizes add up to the limit. */
  oldest = _nearby_history_prepare (worker->db,
                                    "DELETE FROM page_cache WHERE rowid IN ("
                                    " SELECT id FROM ("
                                    "  SELECT rowid AS id, sum(size_bytes) OVER"
                                    "   (ORDER BY fetched_us DESC, rowid DESC) AS running"
                                    "  FROM page_cache)"
                                    " WHERE running > ?1)",
                                    error);
  if (oldest == NULL)
    return FALSE;
  sqlite3_bind_int64 (oldest, 1, MAX (max_bytes, 0));

  return _nearby_history_step_done (oldest, error);
}

/* The row of one entry, inside the caller's transaction. */
static gboolean
history_cache_store_one (NearbyHistoryWorker  *worker,
                         NearbyHistoryJob     *job,
                         GError              **error)
{
  g_autoptr(NearbyHistoryStatement) stmt = NULL;
  NearbyCacheEntry *entry = job->entry;
  gsize icon_size = entry->icon != NULL ? g_bytes_get_size (entry->icon) : 0;
  gsize json_size = entry->page_json != NULL ? strlen (entry->page_json) : 0;

  stmt = _nearby_history_statement (worker,
                                    "INSERT INTO page_cache"
                                    " (url, page_json, icon, icon_type, fetched_us, expires_us,"
                                    "  size_bytes)"
                                    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)"
                                    " ON CONFLICT (url) DO UPDATE SET"
                                    "  page_json = excluded.page_json, icon = excluded.icon,"
                                    "  icon_type = excluded.icon_type,"
                                    "  fetched_us = excluded.fetched_us,"
                                    "  expires_us = excluded.expires_us,"
                                    "  size_bytes = excluded.size_bytes",
                                    error);
  if (stmt == NULL)
    return FALSE;

  sqlite3_bind_text (stmt, 1, job->key, -1, SQLITE_STATIC);
  if (entry->page_json != NULL)
    sqlite3_bind_text (stmt, 2, entry->page_json, -1, SQLITE_STATIC);
  if (entry->icon != NULL)
    sqlite3_bind_blob64 (stmt, 3, g_bytes_get_data (entry->icon, NULL), icon_size, SQLITE_STATIC);
  if (entry->icon_type != NULL)
    sqlite3_bind_text (stmt, 4, entry->icon_type, -1, SQLITE_STATIC);
  sqlite3_bind_int64 (stmt, 5, entry->fetched_at_us);
  sqlite3_bind_int64 (stmt, 6, entry->expires_at_us);
  sqlite3_bind_int64 (stmt, 7, (gint64) (icon_size + json_size));

  return _nearby_history_step_done (stmt, error);
}

static gpointer
history_cache_store_run (NearbyHistoryWorker  *worker,
                         NearbyHistoryJob     *job,
                         GError              **error)
{
  if (!_nearby_history_begin (worker->db, error))
    return NULL;

  if (!history_cache_store_one (worker, job, error) ||
      !history_cache_prune (worker, job->cache_limit, error) ||
      !_nearby_history_commit (worker->db, error))
    return GINT_TO_POINTER (_nearby_history_rollback (worker->db));

  job->changed = NEARBY_HISTORY_DATA_CACHE;
  return GINT_TO_POINTER (TRUE);
}

gboolean
_nearby_history_job_is_cache_store (NearbyHistoryJob *job)
{
  return job->run == history_cache_store_run;
}

void
_nearby_history_cache_store_batch (NearbyHistoryWorker *worker,
                                   GPtrArray           *jobs)
{
  g_autoptr(GError) error = NULL;
  NearbyHistoryJob *last = g_ptr_array_index (jobs, jobs->len - 1);
  gboolean written;

  /* Writes kept for later go first, one by one, as they always do. */
  if (jobs->len == 1 || !g_queue_is_empty (&worker->held))
    {
      for (guint i = 0; i < jobs->len; i++)
        _nearby_history_worker_run_write (worker, g_ptr_array_index (jobs, i));
      return;
    }

  written = _nearby_history_begin (worker->db, &error);
  for (guint i = 0; written && i < jobs->len; i++)
    written = history_cache_store_one (worker, g_ptr_array_index (jobs, i), &error);
  written = written && history_cache_prune (worker, last->cache_limit, &error) &&
            _nearby_history_commit (worker->db, &error);
  if (!written)
    {
      g_debug ("Writing %u cache entries at once failed, one by one now: %s", jobs->len,
               error->message);
      _nearby_history_rollback (worker->db);
      for (guint i = 0; i < jobs->len; i++)
        _nearby_history_worker_run_write (worker, g_ptr_array_index (jobs, i));
      return;
    }

  g_debug ("Wrote %u cache entries in one transaction", jobs->len);
  for (guint i = 0; i < jobs->len; i++)
    {
      NearbyHistoryJob *job = g_ptr_array_index (jobs, i);

      job->result = GINT_TO_POINTER (TRUE);
      job->changed = NEARBY_HISTORY_DATA_CACHE;
      job->all_written = TRUE;
    }
}

void
nearby_history_cache_store_async (NearbyHistory          *self,
                                  const char             *url,
                                  const NearbyCacheEntry *entry,
                                  GCancellable           *cancellable,
                                  GAsyncReadyCallback     callback,
                                  gpointer                user_data)
{
  NearbyHistoryJob *job;

  g_return_if_fail (NEARBY_IS_HISTORY (self));
  g_return_if_fail (url != NULL);
  g_return_if_fail (entry != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  if (!_nearby_history_key_is_acceptable (url) ||
      (entry->page_json != NULL && !g_utf8_validate (entry->page_json, -1, NULL)))
    {
      g_task_report_new_error (self, callback, user_data, nearby_history_cache_store_async,
                               G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                               "Not cached: the address or the page is not acceptable");
      return;
    }

  job = _nearby_history_job_new (self, history_cache_store_run, NULL,
                                 nearby_history_cache_store_async,
                                 cancellable, callback, user_data);
  job->write = NEARBY_HISTORY_WRITE_REPORT;
  job->key = g_strdup (url);
  job->entry = nearby_cache_entry_copy (entry);
  job->entry->fetched_at_us = g_get_real_time ();
  /* The limit travels with the job: the worker shares no state with this thread. */
  job->cache_limit = self->cache_limit;
  job->write = NEARBY_HISTORY_WRITE_REPORT;
  _nearby_history_job_queue (self, job);
}

gboolean
nearby_history_cache_store_finish (NearbyHistory  *self,
                                   GAsyncResult   *result,
                                   GError        **error)
{
  return _nearby_history_propagate_boolean (self, result, nearby_history_cache_store_async, error);
}

static gpointer
history_cache_lookup_run (NearbyHistoryWorker  *worker,
                          NearbyHistoryJob     *job,
                          GError              **error)
{
  g_autoptr(NearbyHistoryStatement) stmt = NULL;
  NearbyCacheEntry *entry;
  int rc;

  stmt = _nearby_history_statement (worker,
                                    "SELECT page_json, icon, icon_type, expires_us, fetched_us"
                                    " FROM page_cache WHERE url = ?1 AND expires_us > ?2",
                                    error);
  if (stmt == NULL)
    return NULL;

  sqlite3_bind_text (stmt, 1, job->key, -1, SQLITE_STATIC);
  sqlite3_bind_int64 (stmt, 2, g_get_real_time ());

  rc = sqlite3_step (stmt);
  if (rc == SQLITE_DONE)
    return NULL;
  if (rc != SQLITE_ROW)
    {
      _nearby_history_set_error (worker->db, rc, error);
      return NULL;
    }

  entry = g_new0 (NearbyCacheEntry, 1);
  entry->page_json = g_strdup ((const char *) sqlite3_column_text (stmt, 0));
  if (sqlite3_column_type (stmt, 1) != SQLITE_NULL)
    {
      const void *icon = sqlite3_column_blob (stmt, 1);

      entry->icon = g_bytes_new (icon, sqlite3_column_bytes (stmt, 1));
    }
  entry->icon_type = g_strdup ((const char *) sqlite3_column_text (stmt, 2));
  entry->expires_at_us = sqlite3_column_int64 (stmt, 3);
  entry->fetched_at_us = sqlite3_column_int64 (stmt, 4);

  job->result_destroy = (GDestroyNotify) nearby_cache_entry_free;
  return entry;
}

void
nearby_history_cache_lookup_async (NearbyHistory       *self,
                                   const char          *url,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  NearbyHistoryJob *job;

  g_return_if_fail (NEARBY_IS_HISTORY (self));
  g_return_if_fail (url != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  job = _nearby_history_job_new (self, history_cache_lookup_run, NULL,
                                 nearby_history_cache_lookup_async,
                                 cancellable, callback, user_data);
  job->key = g_strdup (url);
  _nearby_history_job_queue (self, job);
}

NearbyCacheEntry *
nearby_history_cache_lookup_finish (NearbyHistory  *self,
                                    GAsyncResult   *result,
                                    GError        **error)
{
  return _nearby_history_propagate_pointer (self, result, nearby_history_cache_lookup_async, error);
}

static gpointer
history_cache_prune_run (NearbyHistoryWorker  *worker,
                         NearbyHistoryJob     *job,
                         GError              **error)
{
  int changes_before = sqlite3_total_changes (worker->db);

  if (!_nearby_history_begin (worker->db, error))
    return NULL;

  if (!history_cache_prune (worker, job->cache_limit, error) ||
      !_nearby_history_commit (worker->db, error))
    return GINT_TO_POINTER (_nearby_history_rollback (worker->db));

  if (sqlite3_total_changes (worker->db) != changes_before)
    job->changed = NEARBY_HISTORY_DATA_CACHE;

  return GINT_TO_POINTER (TRUE);
}

void
nearby_history_cache_prune_async (NearbyHistory       *self,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  NearbyHistoryJob *job;

  g_return_if_fail (NEARBY_IS_HISTORY (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  job = _nearby_history_job_new (self, history_cache_prune_run, NULL,
                                 nearby_history_cache_prune_async,
                                 cancellable, callback, user_data);
  job->cache_limit = self->cache_limit;
  job->write = NEARBY_HISTORY_WRITE_REPORT;
  _nearby_history_job_queue (self, job);
}

gboolean
nearby_history_cache_prune_finish (NearbyHistory  *self,
                                   GAsyncResult   *result,
                                   GError        **error)
{
  return _nearby_history_propagate_boolean (self, result, nearby_history_cache_prune_async, error);
}

/* NearbyPageCache */

static void
page_cache_store_async (NearbyPageCache        *cache,
                        const char             *url,
                        const NearbyCacheEntry *entry,
                        GCancellable           *cancellable,
                        GAsyncReadyCallback     callback,
                        gpointer                user_data)
{
  nearby_history_cache_store_async (NEARBY_HISTORY (cache), url, entry, cancellable, callback,
                                    user_data);
}

static gboolean
page_cache_store_finish (NearbyPageCache  *cache,
                         GAsyncResult     *result,
                         GError          **error)
{
  return nearby_history_cache_store_finish (NEARBY_HISTORY (cache), result, error);
}

static void
page_cache_lookup_async (NearbyPageCache     *cache,
                         const char          *url,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  nearby_history_cache_lookup_async (NEARBY_HISTORY (cache), url, cancellable, callback,
                                     user_data);
}

static NearbyCacheEntry *
page_cache_lookup_finish (NearbyPageCache  *cache,
                          GAsyncResult     *result,
                          GError          **error)
{
  return nearby_history_cache_lookup_finish (NEARBY_HISTORY (cache), result, error);
}

void
_nearby_history_page_cache_iface_init (NearbyPageCacheInterface *iface)
{
  iface->store_async = page_cache_store_async;
  iface->store_finish = page_cache_store_finish;
  iface->lookup_async = page_cache_lookup_async;
  iface->lookup_finish = page_cache_lookup_finish;
}
