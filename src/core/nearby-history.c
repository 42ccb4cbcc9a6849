/* nearby-history.c: NearbyHistory itself: its worker thread, the job queue, clearing
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-history"

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "nearby-history-private.h"

/* The history is where the resolver keeps pages between runs. */
G_DEFINE_FINAL_TYPE_WITH_CODE (NearbyHistory, nearby_history, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (NEARBY_TYPE_PAGE_CACHE,
                                                      _nearby_history_page_cache_iface_init))

enum {
  PROP_0,
  PROP_PATH,
  PROP_IS_OPEN,
  PROP_PROBLEM,
  PROP_WRITE_PROBLEM,
  PROP_PERSISTENT,
  PROP_SET_ASIDE_PATH,
  PROP_CACHE_LIMIT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* Types */

GType
nearby_history_data_get_type (void)
{
  static gsize type_id;

  if (g_once_init_enter (&type_id))
    {
      static const GFlagsValue values[] = {
        { NEARBY_HISTORY_DATA_VISITS, "NEARBY_HISTORY_DATA_VISITS", "visits" },
        { NEARBY_HISTORY_DATA_FAVOURITES, "NEARBY_HISTORY_DATA_FAVOURITES", "favourites" },
        { NEARBY_HISTORY_DATA_HIDDEN_SITES, "NEARBY_HISTORY_DATA_HIDDEN_SITES", "hidden-sites" },
        { NEARBY_HISTORY_DATA_CACHE, "NEARBY_HISTORY_DATA_CACHE", "cache" },
        { 0, NULL, NULL }
      };
      GType type = g_flags_register_static (g_intern_static_string ("NearbyHistoryData"), values);

      g_once_init_leave (&type_id, type);
    }

  return type_id;
}

/* The worker thread */

static void
history_job_free (NearbyHistoryJob *job)
{
  g_clear_object (&job->task);
  g_free (job->key);
  g_free (job->text);
  g_clear_pointer (&job->entry, nearby_cache_entry_free);
  if (job->result != NULL && job->result_destroy != NULL)
    job->result_destroy (job->result);
  g_clear_error (&job->error);
  g_clear_error (&job->write_error);
  g_free (job);
}

/* The file went bad under us. Swapping it while jobs are queued would mix two histories;
 * the check at the next start sets it aside. */
static void
history_report_damage (NearbyHistory *self)
{
  if (self->damage_reported)
    return;

  self->damage_reported = TRUE;
  _nearby_history_writes_dispose (self);
  g_free (self->problem);
  self->problem = g_strdup (_("Your history is damaged. Nearby will set it aside and start a "
                              "new one the next time it starts."));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROBLEM]);
}

static gboolean
history_job_complete (gpointer data)
{
  NearbyHistoryJob *job = data;
  NearbyHistory *self = g_task_get_source_object (job->task);

  _nearby_history_note_write (self, job);

  if (job->error != NULL)
    {
      if (job->run != _nearby_history_open_run &&
          g_error_matches (job->error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA))
        history_report_damage (self);
      g_task_return_error (job->task, g_steal_pointer (&job->error));
    }
  else
    {
      if (job->held && job->apply_held != NULL)
        job->apply_held (self, job);
      else if (job->apply != NULL)
        job->apply (self, job);
      if (job->changed != 0)
        g_signal_emit (self, signals[CHANGED], 0, job->changed);
      g_task_return_pointer (job->task, g_steal_pointer (&job->result), job->result_destroy);
    }

  history_job_free (job);

  return G_SOURCE_REMOVE;
}

static void
history_worker_run_job (NearbyHistoryWorker *worker,
                        NearbyHistoryJob    *job)
{
  /* Opening goes ahead even if its caller stopped waiting: the jobs behind it need it. */
  if (job->run == _nearby_history_open_run)
    {
      job->result = job->run (worker, job, &job->error);
      return;
    }

  if (g_cancellable_set_error_if_cancelled (g_task_get_cancellable (job->task), &job->error))
    return;

  if (worker->db == NULL)
    {
      g_set_error_literal (&job->error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED,
                           "The history is not open");
      return;
    }

  _nearby_history_worker_run_write (worker, job);
}

/* The task is completed and released on its own context, so the history object is never
 * finalized on this thread. */
static void
history_worker_complete (NearbyHistoryJob *job)
{
  GSource *source = g_idle_source_new ();

  g_source_set_priority (source, g_task_get_priority (job->task));
  g_source_set_callback (source, history_job_complete, job, NULL);
  g_source_set_static_name (source, "[nearby] history job complete");
  g_source_attach (source, g_task_get_context (job->task));
  g_source_unref (source);
}

/* Pages come back a few milliseconds apart while a batch is resolved: their cache stores are
 * gathered for this long, and written in one transaction rather than one each (a commit
 * writes every B-tree page it touched to the write-ahead log again). Any other job ends the
 * gathering at once, so that it runs in order and without waiting. */
#define STORE_GATHER_US  (20 * 1000)
#define STORE_BATCH_MAX  64

static void
history_worker_run_stores (NearbyHistoryWorker  *worker,
                           NearbyHistoryJob     *first,
                           NearbyHistoryJob    **next)
{
  g_autoptr(GPtrArray) batch = g_ptr_array_new ();
  gint64 until = g_get_monotonic_time () + STORE_GATHER_US;
  gint64 now;

  g_ptr_array_add (batch, first);
  while (batch->len < STORE_BATCH_MAX && (now = g_get_monotonic_time ()) < until)
    {
      NearbyHistoryJob *job = g_async_queue_timeout_pop (worker->queue, until - now);

      if (job == NULL)
        break;
      if (!_nearby_history_job_is_cache_store (job))
        {
          *next = job;
          break;
        }
      g_ptr_array_add (batch, job);
    }

  /* What history_worker_run_job checks first, for each. */
  for (guint i = batch->len; i-- > 0; )
    {
      NearbyHistoryJob *job = g_ptr_array_index (batch, i);

      if (!g_cancellable_set_error_if_cancelled (g_task_get_cancellable (job->task), &job->error)
          && worker->db == NULL)
        g_set_error_literal (&job->error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED,
                             "The history is not open");
      if (job->error != NULL)
        history_worker_complete (g_ptr_array_steal_index (batch, i));
    }

  if (batch->len > 0)
    _nearby_history_cache_store_batch (worker, batch);
  for (guint i = 0; i < batch->len; i++)
    history_worker_complete (g_ptr_array_index (batch, i));
}

static gpointer
history_worker_main (gpointer data)
{
  NearbyHistoryWorker *worker = data;
  NearbyHistoryJob *next = NULL;

  for (;;)
    {
      NearbyHistoryJob *job = next != NULL ? g_steal_pointer (&next)
                                           : g_async_queue_pop (worker->queue);

      if (job->run == NULL)
        {
          history_job_free (job);
          break;
        }

      if (_nearby_history_job_is_cache_store (job))
        {
          history_worker_run_stores (worker, job, &next);
          continue;
        }

      history_worker_run_job (worker, job);
      history_worker_complete (job);
    }

  _nearby_history_worker_clear_held (worker);
  _nearby_history_forget_statements (worker);
  if (worker->db != NULL)
    sqlite3_close (worker->db);
  g_async_queue_unref (worker->queue);
  g_free (worker->path);
  g_free (worker);

  return NULL;
}

NearbyHistoryJob *
_nearby_history_job_new (NearbyHistory         *self,
                         NearbyHistoryJobRun    run,
                         NearbyHistoryJobApply  apply,
                         gpointer               source_tag,
                         GCancellable          *cancellable,
                         GAsyncReadyCallback    callback,
                         gpointer               user_data)
{
  NearbyHistoryJob *job = g_new0 (NearbyHistoryJob, 1);

  job->run = run;
  job->apply = apply;
  job->task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (job->task, source_tag);

  return job;
}

void
_nearby_history_job_queue (NearbyHistory    *self,
                           NearbyHistoryJob *job)
{
  g_async_queue_push (self->queue, job);
}

gboolean
_nearby_history_propagate_boolean (NearbyHistory  *self,
                                   GAsyncResult   *result,
                                   gpointer        source_tag,
                                   GError        **error)
{
  g_autoptr(GError) local_error = NULL;

  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == source_tag, FALSE);

  g_task_propagate_pointer (G_TASK (result), &local_error);
  if (local_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }

  return TRUE;
}

gpointer
_nearby_history_propagate_pointer (NearbyHistory  *self,
                                   GAsyncResult   *result,
                                   gpointer        source_tag,
                                   GError        **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == source_tag, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* Beacon addresses are short, and even resolved ones are far below this: anything longer is
 * hostile, and would only bloat the snapshot and the file. */
#define HISTORY_MAX_KEY_LENGTH 8192

gboolean
_nearby_history_key_is_acceptable (const char *key)
{
  return key != NULL && *key != '\0' &&
         strnlen (key, HISTORY_MAX_KEY_LENGTH + 1) <= HISTORY_MAX_KEY_LENGTH &&
         g_utf8_validate (key, -1, NULL);
}

/* Clearing */

static gpointer
history_clear_run (NearbyHistoryWorker  *worker,
                   NearbyHistoryJob     *job,
                   GError              **error)
{
  static const struct {
    NearbyHistoryData  what;
    const char        *sql;
  } tables[] = {
    { NEARBY_HISTORY_DATA_VISITS, "DELETE FROM visits" },
    { NEARBY_HISTORY_DATA_FAVOURITES, "DELETE FROM favourites" },
    { NEARBY_HISTORY_DATA_HIDDEN_SITES, "DELETE FROM hidden_sites" },
    { NEARBY_HISTORY_DATA_CACHE, "DELETE FROM page_cache" },
  };
  g_autoptr(sqlite3_stmt) checkpoint = NULL;
  int rc;

  if (!_nearby_history_begin (worker->db, error))
    return NULL;

  for (guint i = 0; i < G_N_ELEMENTS (tables); i++)
    {
      if ((job->what & tables[i].what) != 0 &&
          !_nearby_history_exec (worker->db, tables[i].sql, error))
        return GINT_TO_POINTER (_nearby_history_rollback (worker->db));
    }

  if (!_nearby_history_commit (worker->db, error))
    return NULL;

  job->changed = job->what;

  /* secure_delete zeroes the freed pages, but the write-ahead log still holds the old ones
   * until it is checkpointed and truncated; VACUUM also drops the freed pages from the file. */
  if (!_nearby_history_exec (worker->db, "VACUUM", error))
    return NULL;

  checkpoint = _nearby_history_prepare (worker->db, "PRAGMA wal_checkpoint(TRUNCATE)", error);
  if (checkpoint == NULL)
    return NULL;

  rc = sqlite3_step (checkpoint);
  if (rc != SQLITE_ROW)
    {
      _nearby_history_set_error (worker->db, rc, error);
      return NULL;
    }

  if (sqlite3_column_int (checkpoint, 0) != 0)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_BUSY,
                           "History database: the log could not be emptied, it is in use");
      return NULL;
    }

  return GINT_TO_POINTER (TRUE);
}

static void
history_clear_apply (NearbyHistory    *self,
                     NearbyHistoryJob *job)
{
  if ((job->what & NEARBY_HISTORY_DATA_VISITS) != 0)
    g_hash_table_remove_all (self->visit_stats);
  if ((job->what & NEARBY_HISTORY_DATA_FAVOURITES) != 0)
    g_hash_table_remove_all (self->favourites);
  if ((job->what & NEARBY_HISTORY_DATA_HIDDEN_SITES) != 0)
    g_hash_table_remove_all (self->hidden_sites);
}

void
nearby_history_clear_async (NearbyHistory       *self,
                            NearbyHistoryData    what,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  NearbyHistoryJob *job;

  g_return_if_fail (NEARBY_IS_HISTORY (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  job = _nearby_history_job_new (self, history_clear_run, history_clear_apply,
                                 nearby_history_clear_async, cancellable, callback, user_data);
  job->what = what & NEARBY_HISTORY_DATA_ALL;
  job->write = NEARBY_HISTORY_WRITE_REPORT;
  _nearby_history_job_queue (self, job);
}

gboolean
nearby_history_clear_finish (NearbyHistory  *self,
                             GAsyncResult   *result,
                             GError        **error)
{
  return _nearby_history_propagate_boolean (self, result, nearby_history_clear_async, error);
}

/* Waiting for what was asked before */

static gpointer
history_sync_run (NearbyHistoryWorker  *worker,
                  NearbyHistoryJob     *job,
                  GError              **error)
{
  return NULL;
}

void
nearby_history_sync_async (NearbyHistory       *self,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  NearbyHistoryJob *job;

  g_return_if_fail (NEARBY_IS_HISTORY (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  job = _nearby_history_job_new (self, history_sync_run, NULL, nearby_history_sync_async,
                                 cancellable, callback, user_data);
  _nearby_history_job_queue (self, job);
}

gboolean
nearby_history_sync_finish (NearbyHistory  *self,
                            GAsyncResult   *result,
                            GError        **error)
{
  return _nearby_history_propagate_boolean (self, result, nearby_history_sync_async, error);
}

/* Opening */

static void
history_open_apply (NearbyHistory    *self,
                    NearbyHistoryJob *job)
{
  NearbyHistoryOpenResult *result = job->result;

  g_clear_pointer (&self->visit_stats, g_hash_table_unref);
  g_clear_pointer (&self->favourites, g_hash_table_unref);
  g_clear_pointer (&self->hidden_sites, g_hash_table_unref);
  self->visit_stats = g_steal_pointer (&result->visit_stats);
  self->favourites = g_steal_pointer (&result->favourites);
  self->hidden_sites = g_steal_pointer (&result->hidden_sites);

  g_object_freeze_notify (G_OBJECT (self));

  self->is_open = TRUE;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_IS_OPEN]);

  if (self->persistent != result->persistent)
    {
      self->persistent = result->persistent;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PERSISTENT]);
    }

  if (g_strcmp0 (self->problem, result->problem) != 0)
    {
      g_free (self->problem);
      self->problem = g_steal_pointer (&result->problem);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROBLEM]);
    }

  if (g_strcmp0 (self->set_aside_path, result->set_aside_path) != 0)
    {
      g_free (self->set_aside_path);
      self->set_aside_path = g_steal_pointer (&result->set_aside_path);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SET_ASIDE_PATH]);
    }

  g_object_thaw_notify (G_OBJECT (self));

  /* The caller only learns that it is open; the rest was taken over above. */
  g_clear_pointer (&job->result, _nearby_history_open_result_free);
  job->result = GINT_TO_POINTER (TRUE);
  job->result_destroy = NULL;
}

void
nearby_history_open_async (NearbyHistory       *self,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  NearbyHistoryJob *job;

  g_return_if_fail (NEARBY_IS_HISTORY (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  job = _nearby_history_job_new (self, _nearby_history_open_run, history_open_apply,
                                 nearby_history_open_async, cancellable, callback, user_data);
  job->result_destroy = (GDestroyNotify) _nearby_history_open_result_free;
  _nearby_history_job_queue (self, job);
}

gboolean
nearby_history_open_finish (NearbyHistory  *self,
                            GAsyncResult   *result,
                            GError        **error)
{
  return _nearby_history_propagate_boolean (self, result, nearby_history_open_async, error);
}

char *
nearby_history_dup_default_path (void)
{
  return g_build_filename (g_get_user_data_dir (), USER_DATA_DIR_NAME, "history.db", NULL);
}

NearbyHistory *
nearby_history_new (const char *path)
{
  g_autofree char *default_path = NULL;

  if (path == NULL)
    path = default_path = nearby_history_dup_default_path ();

  return g_object_new (NEARBY_TYPE_HISTORY, "path", path, NULL);
}

const char *
nearby_history_get_path (NearbyHistory *self)
{
  g_return_val_if_fail (NEARBY_IS_HISTORY (self), NULL);

  return self->path;
}

gboolean
nearby_history_get_is_open (NearbyHistory *self)
{
  g_return_val_if_fail (NEARBY_IS_HISTORY (self), FALSE);

  return self->is_open;
}

const char *
nearby_history_get_problem (NearbyHistory *self)
{
  g_return_val_if_fail (NEARBY_IS_HISTORY (self), NULL);

  return self->problem;
}

const char *
nearby_history_get_write_problem (NearbyHistory *self)
{
  g_return_val_if_fail (NEARBY_IS_HISTORY (self), NULL);

  return self->write_problem;
}

void
_nearby_history_notify_write_problem (NearbyHistory *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_WRITE_PROBLEM]);
}

gboolean
nearby_history_get_persistent (NearbyHistory *self)
{
  g_return_val_if_fail (NEARBY_IS_HISTORY (self), FALSE);

  return self->persistent;
}

const char *
nearby_history_get_set_aside_path (NearbyHistory *self)
{
  g_return_val_if_fail (NEARBY_IS_HISTORY (self), NULL);

  return self->set_aside_path;
}

void
nearby_history_set_cache_limit (NearbyHistory *self,
                                gint64         max_bytes)
{
  g_return_if_fail (NEARBY_IS_HISTORY (self));

  max_bytes = MAX (max_bytes, 0);
  if (self->cache_limit == max_bytes)
    return;

  self->cache_limit = max_bytes;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CACHE_LIMIT]);
}

gint64
nearby_history_get_cache_limit (NearbyHistory *self)
{
  g_return_val_if_fail (NEARBY_IS_HISTORY (self), 0);

  return self->cache_limit;
}

/* GObject */

static void
nearby_history_constructed (GObject *object)
{
  NearbyHistory *self = NEARBY_HISTORY (object);
  NearbyHistoryWorker *worker = g_new0 (NearbyHistoryWorker, 1);

  G_OBJECT_CLASS (nearby_history_parent_class)->constructed (object);

  if (self->path == NULL)
    self->path = nearby_history_dup_default_path ();

  worker->path = g_strdup (self->path);
  worker->queue = g_async_queue_ref (self->queue);
  self->worker_thread = g_thread_new ("nearby-history", history_worker_main, worker);
}

static void
nearby_history_finalize (GObject *object)
{
  NearbyHistory *self = NEARBY_HISTORY (object);
  NearbyHistoryJob *stop = g_new0 (NearbyHistoryJob, 1);

  /* Every queued job holds a reference, so the queue is empty: the worker closes the
   * database and ends. Joining makes the file free for whoever opens it next. */
  g_async_queue_push (self->queue, stop);
  if (g_thread_self () != self->worker_thread)
    g_thread_join (self->worker_thread);
  else
    g_thread_unref (self->worker_thread);

  g_async_queue_unref (self->queue);
  g_clear_pointer (&self->visit_stats, g_hash_table_unref);
  g_clear_pointer (&self->favourites, g_hash_table_unref);
  g_clear_pointer (&self->hidden_sites, g_hash_table_unref);
  g_free (self->path);
  g_free (self->problem);
  g_free (self->set_aside_path);

  G_OBJECT_CLASS (nearby_history_parent_class)->finalize (object);
}

static void
nearby_history_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  NearbyHistory *self = NEARBY_HISTORY (object);

  switch (prop_id)
    {
    case PROP_PATH:
      g_value_set_string (value, self->path);
      break;

    case PROP_IS_OPEN:
      g_value_set_boolean (value, self->is_open);
      break;

    case PROP_PROBLEM:
      g_value_set_string (value, self->problem);
      break;

    case PROP_WRITE_PROBLEM:
      g_value_set_string (value, self->write_problem);
      break;

    case PROP_PERSISTENT:
      g_value_set_boolean (value, self->persistent);
      break;

    case PROP_SET_ASIDE_PATH:
      g_value_set_string (value, self->set_aside_path);
      break;

    case PROP_CACHE_LIMIT:
      g_value_set_int64 (value, self->cache_limit);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
nearby_history_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  NearbyHistory *self = NEARBY_HISTORY (object);

  switch (prop_id)
    {
    case PROP_PATH:
      self->path = g_value_dup_string (value);
      break;

    case PROP_CACHE_LIMIT:
      nearby_history_set_cache_limit (self, g_value_get_int64 (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
nearby_history_class_init (NearbyHistoryClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = nearby_history_constructed;
  object_class->finalize = nearby_history_finalize;
  object_class->get_property = nearby_history_get_property;
  object_class->set_property = nearby_history_set_property;

  properties[PROP_PATH] =
    g_param_spec_string ("path", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                          G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties[PROP_IS_OPEN] =
    g_param_spec_boolean ("is-open", NULL, NULL,
                          FALSE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /* A sentence for the user when the history could not be used as it was, else NULL. */
  properties[PROP_PROBLEM] =
    g_param_spec_string ("problem", NULL, NULL,
                         NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /* A sentence for the user while changes cannot be written (they are kept), else NULL. */
  properties[PROP_WRITE_PROBLEM] =
    g_param_spec_string ("write-problem", NULL, NULL,
                         NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /* FALSE while the history lives only in memory. */
  properties[PROP_PERSISTENT] =
    g_param_spec_boolean ("persistent", NULL, NULL,
                          FALSE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties[PROP_SET_ASIDE_PATH] =
    g_param_spec_string ("set-aside-path", NULL, NULL,
                         NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties[PROP_CACHE_LIMIT] =
    g_param_spec_int64 ("cache-limit", NULL, NULL,
                        0, G_MAXINT64, NEARBY_HISTORY_DEFAULT_CACHE_LIMIT,
                        (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[CHANGED] =
    g_signal_new ("changed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0,
                  NULL, NULL,
                  NULL,
                  G_TYPE_NONE, 1,
                  NEARBY_TYPE_HISTORY_DATA);
}

static void
nearby_history_init (NearbyHistory *self)
{
  self->queue = g_async_queue_new ();
  self->cache_limit = NEARBY_HISTORY_DEFAULT_CACHE_LIMIT;
  self->visit_stats = _nearby_history_visit_stats_new ();
  self->favourites = _nearby_history_site_set_new ();
  self->hidden_sites = _nearby_history_site_set_new ();
}
