/* nearby-history-writes.c: writes that fail for want of a writable disk (full, read-only,
 * locked, an I/O error) are said once, and those of the person's own data (visits, favourites,
 * hidden sites) are kept in memory and written, in order, when the disk lets them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-history"

#include "config.h"

#include <glib/gi18n.h>

#include "nearby-history-private.h"

/* How often kept writes are tried again while nothing else is written. */
#define RETRY_INTERVAL_S 10

/* Errors that say the disk would not take the write, as opposed to bad input or a damaged
 * file (set aside at the next start). */
static gboolean
is_storage_error (const GError *error)
{
  return error->domain == G_IO_ERROR
         && (error->code == G_IO_ERROR_NO_SPACE || error->code == G_IO_ERROR_READ_ONLY
             || error->code == G_IO_ERROR_PERMISSION_DENIED || error->code == G_IO_ERROR_BUSY
             || error->code == G_IO_ERROR_FAILED);
}

static NearbyHistoryJob *
held_copy (NearbyHistoryJob *job)
{
  NearbyHistoryJob *copy = g_new0 (NearbyHistoryJob, 1);

  copy->run = job->run;
  copy->key = g_strdup (job->key);
  copy->text = g_strdup (job->text);
  copy->time_us = job->time_us;
  copy->what = job->what;

  return copy;
}

static void
held_free (NearbyHistoryJob *job)
{
  g_free (job->key);
  g_free (job->text);
  g_clear_error (&job->error);
  g_free (job);
}

/* A write that failed for want of space can leave its transaction open, and the connection
 * then fails every write after it, even once there is room. */
static void
end_failed_transaction (NearbyHistoryWorker *worker)
{
  if (worker->db != NULL && !sqlite3_get_autocommit (worker->db))
    _nearby_history_rollback (worker->db);
}

/* Returns FALSE, with @error set, at the first one that still fails. */
static gboolean
retry_held (NearbyHistoryWorker  *worker,
            GError              **error)
{
  NearbyHistoryJob *held;

  if (!g_queue_is_empty (&worker->held) && !_nearby_history_reconnect (worker, error))
    return FALSE;

  while ((held = g_queue_peek_head (&worker->held)) != NULL)
    {
      held->run (worker, held, error);
      if (*error != NULL)
        {
          end_failed_transaction (worker);
          return FALSE;
        }
      held_free (g_queue_pop_head (&worker->held));
    }

  return TRUE;
}

static void
hold (NearbyHistoryWorker *worker,
      NearbyHistoryJob    *job)
{
  g_queue_push_tail (&worker->held, held_copy (job));
  job->held = TRUE;
  job->changed = job->what;
  g_clear_error (&job->error);
}

void
_nearby_history_worker_run_write (NearbyHistoryWorker *worker,
                                  NearbyHistoryJob    *job)
{
  g_autoptr(GError) held_error = NULL;
  gboolean had_held = !g_queue_is_empty (&worker->held);

  if (had_held && retry_held (worker, &held_error))
    job->all_written = TRUE;
  if (held_error != NULL)
    g_debug ("Kept changes still cannot be written: %s", held_error->message);

  /* Behind writes still waiting, a new one waits too: the disk gets them in order. */
  if (held_error != NULL && job->write == NEARBY_HISTORY_WRITE_KEEP)
    {
      job->write_error = g_steal_pointer (&held_error);
      hold (worker, job);
      return;
    }

  job->result = job->run (worker, job, &job->error);
  if (job->error == NULL && job->write != NEARBY_HISTORY_WRITE_NONE
      && g_queue_is_empty (&worker->held))
    job->all_written = TRUE;
  if (job->error == NULL || job->write == NEARBY_HISTORY_WRITE_NONE
      || !is_storage_error (job->error))
    return;

  end_failed_transaction (worker);
  job->write_error = g_error_copy (job->error);
  if (job->write == NEARBY_HISTORY_WRITE_KEEP)
    hold (worker, job);
}

void
_nearby_history_worker_clear_held (NearbyHistoryWorker *worker)
{
  if (!g_queue_is_empty (&worker->held))
    g_warning ("%u changes to the history could not be written", worker->held.length);
  g_queue_clear_full (&worker->held, (GDestroyNotify) held_free);
}

static char *
describe_write_error (const GError *error)
{
  switch (error->code)
    {
    case G_IO_ERROR_NO_SPACE:
      return g_strdup (_("Nearby could not save your history: the disk is full"));
    case G_IO_ERROR_READ_ONLY:
    case G_IO_ERROR_PERMISSION_DENIED:
      return g_strdup (_("Nearby could not save your history: its folder cannot be written to"));
    case G_IO_ERROR_BUSY:
      return g_strdup (_("Nearby could not save your history: another program is using it"));
    default:
      return g_strdup_printf (_("Nearby could not save your history: %s"), error->message);
    }
}

static gboolean
retry_cb (gpointer user_data)
{
  NearbyHistory *self = user_data;

  /* Any job retries what is kept before it runs; this one does nothing else. */
  nearby_history_sync_async (self, NULL, NULL, NULL);

  return G_SOURCE_CONTINUE;
}

void
_nearby_history_note_write (NearbyHistory    *self,
                            NearbyHistoryJob *job)
{
  if (job->write_error != NULL)
    {
      /* Once per spell of trouble: a person told the disk is full does not need it again at
       * every visit. */
      if (self->write_problem == NULL)
        {
          self->write_problem = describe_write_error (job->write_error);
          g_debug ("%s (%s)", self->write_problem, job->write_error->message);
          _nearby_history_notify_write_problem (self);
        }
      if (job->held && self->retry_source == 0)
        self->retry_source = g_timeout_add_seconds (RETRY_INTERVAL_S, retry_cb, self);
    }
  else if (job->all_written && self->write_problem != NULL)
    {
      g_clear_handle_id (&self->retry_source, g_source_remove);
      g_clear_pointer (&self->write_problem, g_free);
      _nearby_history_notify_write_problem (self);
    }
}

void
_nearby_history_writes_dispose (NearbyHistory *self)
{
  g_clear_handle_id (&self->retry_source, g_source_remove);
  g_clear_pointer (&self->write_problem, g_free);
}
