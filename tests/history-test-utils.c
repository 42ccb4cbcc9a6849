/* history-test-utils.c: what the history tests share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>
#include <sys/stat.h>

#include <glib/gstdio.h>

#include "history-test-utils.h"

#define WAIT_TIMEOUT_SECONDS 60

static gboolean
on_wait_timeout (gpointer data)
{
  gboolean *timed_out = data;

  *timed_out = TRUE;
  return G_SOURCE_REMOVE;
}

void
wait_until (gboolean *done)
{
  gboolean timed_out = FALSE;
  guint timeout_id = g_timeout_add_seconds (WAIT_TIMEOUT_SECONDS, on_wait_timeout, &timed_out);

  while (!*done && !timed_out)
    g_main_context_iteration (NULL, TRUE);

  g_assert_false (timed_out);
  g_source_remove (timeout_id);
}

void
on_result (GObject      *object,
           GAsyncResult *result,
           gpointer      data)
{
  Waiter *waiter = data;

  waiter->result = g_object_ref (result);
  waiter->done = TRUE;
}

GAsyncResult *
wait_result (Waiter *waiter)
{
  wait_until (&waiter->done);
  return waiter->result;
}

NearbyHistory *
open_history (const char *path)
{
  NearbyHistory *history = nearby_history_new (path);
  g_autoptr(GError) error = NULL;
  Waiter waiter = { 0 };
  g_autoptr(GAsyncResult) result = NULL;

  nearby_history_open_async (history, NULL, on_result, &waiter);
  result = wait_result (&waiter);
  g_assert_true (nearby_history_open_finish (history, result, &error));
  g_assert_no_error (error);
  g_assert_true (nearby_history_get_is_open (history));

  return history;
}

void
close_history (NearbyHistory *history)
{
  g_assert_finalize_object (history);
}

gboolean
try_record_visit (NearbyHistory  *history,
                  const char     *url,
                  gint64          time_us,
                  GError        **error)
{
  Waiter waiter = { 0 };
  g_autoptr(GAsyncResult) result = NULL;

  nearby_history_record_visit_async (history, url, time_us, NULL, on_result, &waiter);
  result = wait_result (&waiter);

  return nearby_history_record_visit_finish (history, result, error);
}

void
record_visit (NearbyHistory *history,
              const char    *url,
              gint64         time_us)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (try_record_visit (history, url, time_us, &error));
  g_assert_no_error (error);
}

GPtrArray *
list_visits (NearbyHistory *history,
             guint          limit)
{
  g_autoptr(GError) error = NULL;
  Waiter waiter = { 0 };
  g_autoptr(GAsyncResult) result = NULL;
  GPtrArray *visits;

  nearby_history_list_visits_async (history, limit, NULL, on_result, &waiter);
  result = wait_result (&waiter);
  visits = nearby_history_list_visits_finish (history, result, &error);
  g_assert_no_error (error);
  g_assert_nonnull (visits);

  return visits;
}

void
run_key_job (NearbyHistory *history,
             KeyAsync       start,
             KeyFinish      finish,
             const char    *key)
{
  g_autoptr(GError) error = NULL;
  Waiter waiter = { 0 };
  g_autoptr(GAsyncResult) result = NULL;

  start (history, key, NULL, on_result, &waiter);
  result = wait_result (&waiter);
  g_assert_true (finish (history, result, &error));
  g_assert_no_error (error);
}

char **
run_list_job (NearbyHistory *history,
              ListAsync      start,
              ListFinish     finish)
{
  g_autoptr(GError) error = NULL;
  Waiter waiter = { 0 };
  g_autoptr(GAsyncResult) result = NULL;
  char **list;

  start (history, NULL, on_result, &waiter);
  result = wait_result (&waiter);
  list = finish (history, result, &error);
  g_assert_no_error (error);
  g_assert_nonnull (list);

  return list;
}

void
cache_store (NearbyHistory *history,
             const char    *url,
             const char    *page_json,
             GBytes        *icon,
             const char    *icon_type,
             gint64         expires_at_us)
{
  g_autoptr(NearbyCacheEntry) entry = nearby_cache_entry_new (page_json, icon, icon_type,
                                                              expires_at_us);
  g_autoptr(GError) error = NULL;
  Waiter waiter = { 0 };
  g_autoptr(GAsyncResult) result = NULL;

  nearby_history_cache_store_async (history, url, entry, NULL, on_result, &waiter);
  result = wait_result (&waiter);
  g_assert_true (nearby_history_cache_store_finish (history, result, &error));
  g_assert_no_error (error);
}

NearbyCacheEntry *
cache_lookup (NearbyHistory *history,
              const char    *url)
{
  g_autoptr(GError) error = NULL;
  Waiter waiter = { 0 };
  g_autoptr(GAsyncResult) result = NULL;
  NearbyCacheEntry *entry;

  nearby_history_cache_lookup_async (history, url, NULL, on_result, &waiter);
  result = wait_result (&waiter);
  entry = nearby_history_cache_lookup_finish (history, result, &error);
  g_assert_no_error (error);

  return entry;
}

void
remove_tree (const char *path)
{
  GStatBuf buf;

  if (g_lstat (path, &buf) != 0)
    return;

  if (S_ISDIR (buf.st_mode))
    {
      g_autoptr(GDir) dir = NULL;
      const char *name;

      g_chmod (path, 0700);
      dir = g_dir_open (path, 0, NULL);
      while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *child = g_build_filename (path, name, NULL);

          remove_tree (child);
        }
      g_rmdir (path);
    }
  else
    {
      g_unlink (path);
    }
}

void
temp_history_clear (TempHistory *temp)
{
  remove_tree (temp->dir);
  g_clear_pointer (&temp->dir, g_free);
  g_clear_pointer (&temp->path, g_free);
}

void
temp_history_init (TempHistory *temp)
{
  g_autoptr(GError) error = NULL;

  temp->dir = g_dir_make_tmp ("nearby-history-XXXXXX", &error);
  g_assert_no_error (error);
  temp->path = g_build_filename (temp->dir, "history.db", NULL);
}

void
write_file (const char *path,
            const void *data,
            gsize       length)
{
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, data, length, &error);
  g_assert_no_error (error);
}

gboolean
file_contains (const char *path,
               const char *needle)
{
  g_autofree char *contents = NULL;
  gsize length = 0;

  if (!g_file_get_contents (path, &contents, &length, NULL))
    return FALSE;

  for (gsize i = 0; i + strlen (needle) <= length; i++)
    {
      if (memcmp (contents + i, needle, strlen (needle)) == 0)
        return TRUE;
    }

  return FALSE;
}

sqlite3 *
raw_open (const char *path)
{
  sqlite3 *db = NULL;

  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL),
                   ==, SQLITE_OK);
  sqlite3_busy_timeout (db, 10000);
  return db;
}

void
raw_exec (sqlite3    *db,
          const char *sql)
{
  char *message = NULL;
  int rc = sqlite3_exec (db, sql, NULL, NULL, &message);

  if (rc != SQLITE_OK)
    g_error ("%s: %s", sql, message);
}

gint64
raw_query_int (sqlite3    *db,
               const char *sql)
{
  sqlite3_stmt *stmt = NULL;
  gint64 value;

  g_assert_cmpint (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  value = sqlite3_column_int64 (stmt, 0);
  sqlite3_finalize (stmt);

  return value;
}
