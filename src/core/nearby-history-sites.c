/* nearby-history-sites.c: favourites and hidden sites, the sites the user has marked
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-history"

#include "config.h"

#include "nearby-history-private.h"

/* Favourites and hidden sites: a key and the time it was added */

GHashTable *
_nearby_history_site_set_new (void)
{
  return g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
}

static gboolean
history_load_key_set (sqlite3     *db,
                      const char  *sql,
                      GHashTable  *set,
                      GError     **error)
{
  g_autoptr(sqlite3_stmt) stmt = _nearby_history_prepare (db, sql, error);
  int rc;

  if (stmt == NULL)
    return FALSE;
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    g_hash_table_add (set, g_strdup ((const char *) sqlite3_column_text (stmt, 0)));
  if (rc != SQLITE_DONE)
    return _nearby_history_set_error (db, rc, error);

  return TRUE;
}

gboolean
_nearby_history_load_sites (sqlite3     *db,
                            GHashTable  *favourites,
                            GHashTable  *hidden_sites,
                            GError     **error)
{
  return history_load_key_set (db, "SELECT url FROM favourites", favourites, error) &&
         history_load_key_set (db, "SELECT host FROM hidden_sites", hidden_sites, error);
}

/* Adds or removes job->key: the statement binds it as ?1, and the time as ?2 when @time_us is
 * not 0. */
static gpointer
history_set_key_run (sqlite3            *db,
                     const char         *sql,
                     gint64              time_us,
                     NearbyHistoryJob   *job,
                     GError            **error)
{
  g_autoptr(sqlite3_stmt) stmt = _nearby_history_prepare (db, sql, error);

  if (stmt == NULL)
    return NULL;

  sqlite3_bind_text (stmt, 1, job->key, -1, SQLITE_STATIC);
  if (time_us != 0)
    sqlite3_bind_int64 (stmt, 2, time_us);

  if (!_nearby_history_step_done (stmt, error))
    return NULL;

  if (sqlite3_changes (db) > 0)
    job->changed = job->what;

  return GINT_TO_POINTER (TRUE);
}

static char **
history_list_keys (sqlite3     *db,
                   const char  *sql,
                   GError     **error)
{
  g_autoptr(sqlite3_stmt) stmt = _nearby_history_prepare (db, sql, error);
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  int rc;

  if (stmt == NULL)
    return NULL;

  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    g_strv_builder_add (builder, (const char *) sqlite3_column_text (stmt, 0));

  if (rc != SQLITE_DONE)
    {
      _nearby_history_set_error (db, rc, error);
      return NULL;
    }

  return g_strv_builder_end (builder);
}

/* Favourites and hidden sites are both sets of keys the user marks, each with a table and a
 * snapshot; the same jobs serve both, told apart by job->what. */

typedef struct {
  const char *add_sql;
  const char *remove_sql;
  const char *list_sql;
} HistoryKeyTable;

static const HistoryKeyTable favourites_table = {
  "INSERT INTO favourites (url, added_us) VALUES (?1, ?2) ON CONFLICT (url) DO NOTHING",
  "DELETE FROM favourites WHERE url = ?1",
  "SELECT url FROM favourites ORDER BY added_us DESC, rowid DESC",
};

static const HistoryKeyTable hidden_sites_table = {
  "INSERT INTO hidden_sites (host, hidden_us) VALUES (?1, ?2) ON CONFLICT (host) DO NOTHING",
  "DELETE FROM hidden_sites WHERE host = ?1",
  "SELECT host FROM hidden_sites ORDER BY hidden_us DESC, rowid DESC",
};

static const HistoryKeyTable *
history_key_table (NearbyHistoryJob *job)
{
  return job->what == NEARBY_HISTORY_DATA_FAVOURITES ? &favourites_table : &hidden_sites_table;
}

static GHashTable *
history_key_snapshot (NearbyHistory    *self,
                      NearbyHistoryJob *job)
{
  return job->what == NEARBY_HISTORY_DATA_FAVOURITES ? self->favourites : self->hidden_sites;
}

static gpointer
history_add_key_run (NearbyHistoryWorker  *worker,
                     NearbyHistoryJob     *job,
                     GError              **error)
{
  return history_set_key_run (worker->db, history_key_table (job)->add_sql, job->time_us, job,
                              error);
}

static void
history_add_key_apply (NearbyHistory    *self,
                       NearbyHistoryJob *job)
{
  g_hash_table_add (history_key_snapshot (self, job), g_strdup (job->key));
}

static gpointer
history_remove_key_run (NearbyHistoryWorker  *worker,
                        NearbyHistoryJob     *job,
                        GError              **error)
{
  return history_set_key_run (worker->db, history_key_table (job)->remove_sql, 0, job, error);
}

static void
history_remove_key_apply (NearbyHistory    *self,
                          NearbyHistoryJob *job)
{
  g_hash_table_remove (history_key_snapshot (self, job), job->key);
}

static gpointer
history_list_keys_run (NearbyHistoryWorker  *worker,
                       NearbyHistoryJob     *job,
                       GError              **error)
{
  job->result_destroy = (GDestroyNotify) g_strfreev;
  return history_list_keys (worker->db, history_key_table (job)->list_sql, error);
}

static void
history_queue_key_job (NearbyHistory         *self,
                       NearbyHistoryJobRun    run,
                       NearbyHistoryJobApply  apply,
                       NearbyHistoryData      what,
                       gpointer               source_tag,
                       const char            *key,
                       GCancellable          *cancellable,
                       GAsyncReadyCallback    callback,
                       gpointer               user_data)
{
  NearbyHistoryJob *job;

  if (key != NULL && !_nearby_history_key_is_acceptable (key))
    {
      g_task_report_new_error (self, callback, user_data, source_tag,
                               G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                               "Not stored: empty, too long or not UTF-8");
      return;
    }

  job = _nearby_history_job_new (self, run, apply, source_tag, cancellable, callback, user_data);
  job->what = what;
  job->key = g_strdup (key);
  job->time_us = g_get_real_time ();
  /* Adding and removing change the person's data; listing only reads. */
  if (apply != NULL)
    job->write = NEARBY_HISTORY_WRITE_KEEP;
  _nearby_history_job_queue (self, job);
}

static gboolean
history_finish_key_job (NearbyHistory  *self,
                        GAsyncResult   *result,
                        gpointer        source_tag,
                        GError        **error)
{
  g_return_val_if_fail (g_async_result_is_tagged (result, source_tag), FALSE);

  return _nearby_history_propagate_boolean (self, result, source_tag, error);
}

void
nearby_history_add_favourite_async (NearbyHistory       *self,
                                    const char          *url,
                                    GCancellable        *cancellable,
                                    GAsyncReadyCallback  callback,
                                    gpointer             user_data)
{
  g_return_if_fail (NEARBY_IS_HISTORY (self));
  g_return_if_fail (url != NULL);

  history_queue_key_job (self, history_add_key_run, history_add_key_apply,
                         NEARBY_HISTORY_DATA_FAVOURITES, nearby_history_add_favourite_async, url,
                         cancellable, callback, user_data);
}

gboolean
nearby_history_add_favourite_finish (NearbyHistory  *self,
                                     GAsyncResult   *result,
                                     GError        **error)
{
  return history_finish_key_job (self, result, nearby_history_add_favourite_async, error);
}

void
nearby_history_remove_favourite_async (NearbyHistory       *self,
                                       const char          *url,
                                       GCancellable        *cancellable,
                                       GAsyncReadyCallback  callback,
                                       gpointer             user_data)
{
  g_return_if_fail (NEARBY_IS_HISTORY (self));
  g_return_if_fail (url != NULL);

  history_queue_key_job (self, history_remove_key_run, history_remove_key_apply,
                         NEARBY_HISTORY_DATA_FAVOURITES, nearby_history_remove_favourite_async, url,
                         cancellable, callback, user_data);
}

gboolean
nearby_history_remove_favourite_finish (NearbyHistory  *self,
                                        GAsyncResult   *result,
                                        GError        **error)
{
  return history_finish_key_job (self, result, nearby_history_remove_favourite_async, error);
}

void
nearby_history_list_favourites_async (NearbyHistory       *self,
                                      GCancellable        *cancellable,
                                      GAsyncReadyCallback  callback,
                                      gpointer             user_data)
{
  g_return_if_fail (NEARBY_IS_HISTORY (self));

  history_queue_key_job (self, history_list_keys_run, NULL,
                         NEARBY_HISTORY_DATA_FAVOURITES, nearby_history_list_favourites_async, NULL,
                         cancellable, callback, user_data);
}

char **
nearby_history_list_favourites_finish (NearbyHistory  *self,
                                       GAsyncResult   *result,
                                       GError        **error)
{
  return _nearby_history_propagate_pointer (self, result, nearby_history_list_favourites_async,
                                            error);
}

gboolean
nearby_history_is_favourite (NearbyHistory *self,
                             const char    *url)
{
  g_return_val_if_fail (NEARBY_IS_HISTORY (self), FALSE);

  return url != NULL && g_hash_table_contains (self->favourites, url);
}

void
nearby_history_hide_site_async (NearbyHistory       *self,
                                 const char          *host,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  g_autofree char *key = NULL;

  g_return_if_fail (NEARBY_IS_HISTORY (self));
  g_return_if_fail (host != NULL);

  key = g_utf8_strdown (host, -1);
  history_queue_key_job (self, history_add_key_run, history_add_key_apply,
                         NEARBY_HISTORY_DATA_HIDDEN_SITES, nearby_history_hide_site_async, key,
                         cancellable, callback, user_data);
}

gboolean
nearby_history_hide_site_finish (NearbyHistory  *self,
                                  GAsyncResult   *result,
                                  GError        **error)
{
  return history_finish_key_job (self, result, nearby_history_hide_site_async, error);
}

void
nearby_history_show_site_async (NearbyHistory       *self,
                                   const char          *host,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  g_autofree char *key = NULL;

  g_return_if_fail (NEARBY_IS_HISTORY (self));
  g_return_if_fail (host != NULL);

  key = g_utf8_strdown (host, -1);
  history_queue_key_job (self, history_remove_key_run, history_remove_key_apply,
                         NEARBY_HISTORY_DATA_HIDDEN_SITES, nearby_history_show_site_async, key,
                         cancellable, callback, user_data);
}

gboolean
nearby_history_show_site_finish (NearbyHistory  *self,
                                    GAsyncResult   *result,
                                    GError        **error)
{
  return history_finish_key_job (self, result, nearby_history_show_site_async, error);
}

void
nearby_history_list_hidden_sites_async (NearbyHistory       *self,
                                         GCancellable        *cancellable,
                                         GAsyncReadyCallback  callback,
                                         gpointer             user_data)
{
  g_return_if_fail (NEARBY_IS_HISTORY (self));

  history_queue_key_job (self, history_list_keys_run, NULL,
                         NEARBY_HISTORY_DATA_HIDDEN_SITES, nearby_history_list_hidden_sites_async,
                         NULL,
                         cancellable, callback, user_data);
}

char **
nearby_history_list_hidden_sites_finish (NearbyHistory  *self,
                                          GAsyncResult   *result,
                                          GError        **error)
{
  return _nearby_history_propagate_pointer (self, result, nearby_history_list_hidden_sites_async,
                                            error);
}

gboolean
nearby_history_is_site_hidden (NearbyHistory *self,
                                const char    *host)
{
  g_autofree char *key = NULL;

  g_return_val_if_fail (NEARBY_IS_HISTORY (self), FALSE);

  if (host == NULL)
    return FALSE;

  key = g_utf8_strdown (host, -1);
  return g_hash_table_contains (self->hidden_sites, key);
}
