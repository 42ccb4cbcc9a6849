/* nearby-history-visits.c: the visits table, and the visit counts that ranking reads
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-history"

#include "config.h"

#include "nearby-history-private.h"

typedef struct {
  guint  count;
  gint64 last_visit_us;
} VisitStats;

G_DEFINE_BOXED_TYPE (NearbyVisit, nearby_visit, nearby_visit_copy, nearby_visit_free)

NearbyVisit *
nearby_visit_copy (const NearbyVisit *visit)
{
  NearbyVisit *copy;

  g_return_val_if_fail (visit != NULL, NULL);

  copy = g_new0 (NearbyVisit, 1);
  copy->url = g_strdup (visit->url);
  copy->host = g_strdup (visit->host);
  copy->count = visit->count;
  copy->first_visit_us = visit->first_visit_us;
  copy->last_visit_us = visit->last_visit_us;

  return copy;
}

void
nearby_visit_free (NearbyVisit *visit)
{
  if (visit == NULL)
    return;

  g_free (visit->url);
  g_free (visit->host);
  g_free (visit);
}

GHashTable *
_nearby_history_visit_stats_new (void)
{
  return g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
}

gboolean
_nearby_history_load_visit_stats (sqlite3     *db,
                                  GHashTable  *visit_stats,
                                  GError     **error)
{
  g_autoptr(sqlite3_stmt) visits = NULL;
  int rc;

  visits = _nearby_history_prepare (db, "SELECT url, visit_count, last_visit_us FROM visits",
                                    error);
  if (visits == NULL)
    return FALSE;
  while ((rc = sqlite3_step (visits)) == SQLITE_ROW)
    {
      VisitStats *stats = g_new0 (VisitStats, 1);

      stats->count = (guint) CLAMP (sqlite3_column_int64 (visits, 1), 0, G_MAXUINT);
      stats->last_visit_us = sqlite3_column_int64 (visits, 2);
      g_hash_table_replace (visit_stats,
                            g_strdup ((const char *) sqlite3_column_text (visits, 0)), stats);
    }
  if (rc != SQLITE_DONE)
    return _nearby_history_set_error (db, rc, error);

  return TRUE;
}

static char *
history_host_of_url (const char *url)
{
  g_autoptr(GUri) uri = NULL;
  const char *host;

  if (!_nearby_history_key_is_acceptable (url))
    return NULL;

  uri = g_uri_parse (url, G_URI_FLAGS_NONE, NULL);
  if (uri == NULL)
    return NULL;

  host = g_uri_get_host (uri);
  if (host == NULL || *host == '\0')
    return NULL;

  return g_utf8_strdown (host, -1);
}

static gpointer
history_record_visit_run (NearbyHistoryWorker  *worker,
                          NearbyHistoryJob     *job,
                          GError              **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  int rc;

  stmt = _nearby_history_prepare (worker->db,
                                  "INSERT INTO visits"
                                  " (url, host, visit_count, first_visit_us, last_visit_us)"
                                  " VALUES (?1, ?2, 1, ?3, ?3)"
                                  " ON CONFLICT (url) DO UPDATE SET"
                                  "  visit_count = visit_count + 1,"
                                  "  first_visit_us = min(first_visit_us, excluded.first_visit_us),"
                                  "  last_visit_us = max(last_visit_us, excluded.last_visit_us)"
                                  " RETURNING visit_count, last_visit_us",
                                  error);
  if (stmt == NULL)
    return NULL;

  sqlite3_bind_text (stmt, 1, job->key, -1, SQLITE_STATIC);
  sqlite3_bind_text (stmt, 2, job->text, -1, SQLITE_STATIC);
  sqlite3_bind_int64 (stmt, 3, job->time_us);

  rc = sqlite3_step (stmt);
  if (rc != SQLITE_ROW)
    {
      _nearby_history_set_error (worker->db, rc, error);
      return NULL;
    }

  job->visit_count = (guint) CLAMP (sqlite3_column_int64 (stmt, 0), 0, G_MAXUINT);
  job->last_visit_us = sqlite3_column_int64 (stmt, 1);

  if (!_nearby_history_step_done (stmt, error))
    return NULL;

  job->changed = NEARBY_HISTORY_DATA_VISITS;
  return GINT_TO_POINTER (TRUE);
}

static void
history_record_visit_apply (NearbyHistory    *self,
                            NearbyHistoryJob *job)
{
  VisitStats *stats = g_new0 (VisitStats, 1);

  stats->count = job->visit_count;
  stats->last_visit_us = job->last_visit_us;
  g_hash_table_replace (self->visit_stats, g_strdup (job->key), stats);
}

/* A visit kept in memory while the disk is full counts as one all the same. */
static void
history_record_visit_apply_held (NearbyHistory    *self,
                                 NearbyHistoryJob *job)
{
  VisitStats *stats = g_hash_table_lookup (self->visit_stats, job->key);

  if (stats == NULL)
    {
      stats = g_new0 (VisitStats, 1);
      g_hash_table_insert (self->visit_stats, g_strdup (job->key), stats);
    }
  stats->count++;
  stats->last_visit_us = MAX (stats->last_visit_us, job->time_us);
}

void
nearby_history_record_visit_async (NearbyHistory       *self,
                                   const char          *url,
                                   gint64               time_us,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  g_autofree char *host = NULL;
  NearbyHistoryJob *job;

  g_return_if_fail (NEARBY_IS_HISTORY (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  host = history_host_of_url (url);
  if (host == NULL)
    {
      g_task_report_new_error (self, callback, user_data, nearby_history_record_visit_async,
                               G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                               "“%s” is not a web address", url != NULL ? url : "");
      return;
    }

  job = _nearby_history_job_new (self, history_record_visit_run, history_record_visit_apply,
                                 nearby_history_record_visit_async,
                                 cancellable, callback, user_data);
  job->key = g_strdup (url);
  job->text = g_steal_pointer (&host);
  job->time_us = time_us > 0 ? time_us : g_get_real_time ();
  job->write = NEARBY_HISTORY_WRITE_KEEP;
  job->what = NEARBY_HISTORY_DATA_VISITS;
  job->apply_held = history_record_visit_apply_held;
  _nearby_history_job_queue (self, job);
}

gboolean
nearby_history_record_visit_finish (NearbyHistory  *self,
                                    GAsyncResult   *result,
                                    GError        **error)
{
  return _nearby_history_propagate_boolean (self, result, nearby_history_record_visit_async, error);
}

static gpointer
history_list_visits_run (NearbyHistoryWorker  *worker,
                         NearbyHistoryJob     *job,
                         GError              **error)
{
  g_autoptr(sqlite3_stmt) stmt = NULL;
  g_autoptr(GPtrArray) visits = g_ptr_array_new_with_free_func ((GDestroyNotify) nearby_visit_free);
  int rc;

  stmt = _nearby_history_prepare (worker->db,
                                  "SELECT url, host, visit_count, first_visit_us, last_visit_us"
                                  " FROM visits ORDER BY last_visit_us DESC, id DESC LIMIT ?1",
                                  error);
  if (stmt == NULL)
    return NULL;

  sqlite3_bind_int64 (stmt, 1, job->limit > 0 ? job->limit : -1);

  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      NearbyVisit *visit = g_new0 (NearbyVisit, 1);

      visit->url = g_strdup ((const char *) sqlite3_column_text (stmt, 0));
      visit->host = g_strdup ((const char *) sqlite3_column_text (stmt, 1));
      visit->count = (guint) CLAMP (sqlite3_column_int64 (stmt, 2), 0, G_MAXUINT);
      visit->first_visit_us = sqlite3_column_int64 (stmt, 3);
      visit->last_visit_us = sqlite3_column_int64 (stmt, 4);
      g_ptr_array_add (visits, visit);
    }

  if (rc != SQLITE_DONE)
    {
      _nearby_history_set_error (worker->db, rc, error);
      return NULL;
    }

  job->result_destroy = (GDestroyNotify) g_ptr_array_unref;
  return g_steal_pointer (&visits);
}

void
nearby_history_list_visits_async (NearbyHistory       *self,
                                  guint                limit,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  NearbyHistoryJob *job;

  g_return_if_fail (NEARBY_IS_HISTORY (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  job = _nearby_history_job_new (self, history_list_visits_run, NULL,
                                 nearby_history_list_visits_async,
                                 cancellable, callback, user_data);
  job->limit = limit;
  _nearby_history_job_queue (self, job);
}

GPtrArray *
nearby_history_list_visits_finish (NearbyHistory  *self,
                                   GAsyncResult   *result,
                                   GError        **error)
{
  return _nearby_history_propagate_pointer (self, result, nearby_history_list_visits_async, error);
}

gboolean
nearby_history_get_visit_stats (NearbyHistory *self,
                                const char    *url,
                                guint         *count,
                                gint64        *last_visit_us)
{
  VisitStats *stats;

  g_return_val_if_fail (NEARBY_IS_HISTORY (self), FALSE);

  stats = url != NULL ? g_hash_table_lookup (self->visit_stats, url) : NULL;

  if (count != NULL)
    *count = stats != NULL ? stats->count : 0;
  if (last_visit_us != NULL)
    *last_visit_us = stats != NULL ? stats->last_visit_us : 0;

  return stats != NULL;
}
