/* nearby-application-exit.c: a clean exit on SIGTERM, SIGINT and SIGHUP (a logout, `systemctl
 * --user stop`, Ctrl-C in a terminal), with the visits still being recorded written first
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-application"

#include "config.h"

#include <glib-unix.h>
#include <signal.h>

#include "nearby-application-private.h"

/* How long the exit waits for the history: enough for a write on a slow disk, short enough
 * that a session manager does not give up on us and kill the process. */
#define FLUSH_TIMEOUT_MS 2000

static const int quit_signals[] = { SIGTERM, SIGINT, SIGHUP };

G_STATIC_ASSERT (G_N_ELEMENTS (quit_signals)
                 == G_N_ELEMENTS (((NearbyApplication *) NULL)->quit_signal_sources));

static gboolean
on_quit_signal (gpointer user_data)
{
  g_debug ("Quitting on a signal");
  g_application_quit (G_APPLICATION (user_data));

  return G_SOURCE_CONTINUE;
}

void
_nearby_application_exit_init (NearbyApplication *self)
{
  for (guint i = 0; i < G_N_ELEMENTS (quit_signals); i++)
    self->quit_signal_sources[i] = g_unix_signal_add (quit_signals[i], on_quit_signal, self);
}

/* Outlives the wait when the history is too slow: its callback may still come. */
typedef struct {
  gboolean synced;
} FlushWait;

static void
on_history_synced (GObject      *source,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  FlushWait *wait = user_data;

  nearby_history_sync_finish (NEARBY_HISTORY (source), result, NULL);
  wait->synced = TRUE;
  g_rc_box_release (wait);
}

static gboolean
on_flush_timeout (gpointer user_data)
{
  *(gboolean *) user_data = TRUE;

  return G_SOURCE_REMOVE;
}

void
_nearby_application_exit_flush (NearbyApplication *self)
{
  FlushWait *wait;
  gboolean timed_out = FALSE;
  guint timeout_source;

  /* A second signal while we wait ends the process the default way. */
  for (guint i = 0; i < G_N_ELEMENTS (quit_signals); i++)
    g_clear_handle_id (&self->quit_signal_sources[i], g_source_remove);

  if (self->history == NULL)
    return;

  timeout_source = g_timeout_add (FLUSH_TIMEOUT_MS, on_flush_timeout, &timed_out);

  /* A page the browser was just asked to open counts as visited once it opened: its visit is
   * queued when the launch is confirmed. */
  while (self->n_opening > 0 && !timed_out)
    g_main_context_iteration (NULL, TRUE);

  wait = g_rc_box_new0 (FlushWait);
  nearby_history_sync_async (self->history, NULL, on_history_synced, g_rc_box_acquire (wait));
  while (!wait->synced && !timed_out)
    g_main_context_iteration (NULL, TRUE);

  if (timed_out)
    g_warning ("The history was still being written after %d ms: quitting anyway",
               FLUSH_TIMEOUT_MS);
  else
    g_source_remove (timeout_source);
  g_rc_box_release (wait);
}
