/* history-test-utils.c: what the history tests share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>
#include <sys/stat.h>

#include <glib/gstdio.h>

#include "history-test-utils.h"

NearbyHistory *
open_history (const char *path)
{
  NearbyHistory *history = nearby_history_new (path);
  g_autoptr(GError) error = NULL;
  NearbyTestWaiter waiter = { 0 };
  g_autoptr(GAsyncResult) result = NULL;

  nearby_history_open_async (history, NULL, nearby_test_on_result, &waiter);
  result = nearby_test_wait_result (&waiter);
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
  NearbyTestWaiter waiter = { 0 };
  g_autoptr(GAsyncResult) result = NULL;

  nearby_history_record_visit_async (history, url, time_us, NULL, nearby_test_on_result, &waiter);
  result = nearby_test_wait_result (&waiter);

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
  NearbyTestWaiter waiter = { 0 };
  g_autoptr(GAsyncResult) result = NULL;
  GPtrArray *visits;

  nearby_history_list_visits_async (history, limit, NULL, nearby_test_on_result, &waiter);
  result = nearby_test_wait_result (&waiter);
  visits = nearby_history_list_visits_finish (history, result, &error);
  g_assert_no_error (error);
  g_assert_nonnull (visits);

  return visits;
}

static void
on_changed (NearbyHistory     *history,
            NearbyHistoryData  what,
            gpointer           data)
{
  guint *seen = data;

  *seen |= what;
}

void
collect_changes (NearbyHistory *history,
                 guint         *seen)
{
  g_signal_connect (history, "changed", G_CALLBACK (on_changed), seen);
}

void
run_key_job (NearbyHistory *history,
             KeyAsync       start,
             KeyFinish      finish,
             const char    *key)
{
  g_autoptr(GError) error = NULL;
  NearbyTestWaiter waiter = { 0 };
  g_autoptr(GAsyncResult) result = NULL;

  start (history, key, NULL, nearby_test_on_result, &waiter);
  result = nearby_test_wait_result (&waiter);
  g_assert_true (finish (history, result, &error));
  g_assert_no_error (error);
}

char **
run_list_job (NearbyHistory *history,
              ListAsync      start,
              ListFinish     finish)
{
  g_autoptr(GError) error = NULL;
  NearbyTestWaiter waiter = { 0 };
  g_autoptr(GAsyncResult) result = NULL;
  char **list;

  start (history, NULL, nearby_test_on_result, &waiter);
  result = nearby_test_wait_result (&waiter);
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
  NearbyTestWaiter waiter = { 0 };
  g_autoptr(GAsyncResult) result = NULL;

  nearby_history_cache_store_async (history, url, entry, NULL, nearby_test_on_result, &waiter);
  result = nearby_test_wait_result (&waiter);
  g_assert_true (nearby_history_cache_store_finish (history, result, &error));
  g_assert_no_error (error);
}

NearbyCacheEntry *
cache_lookup (NearbyHistory *history,
              const char    *url)
{
  g_autoptr(GError) error = NULL;
  NearbyTestWaiter waiter = { 0 };
  g_autoptr(GAsyncResult) result = NULL;
  NearbyCacheEntry *entry;

  nearby_history_cache_lookup_async (history, url, NULL, nearby_test_on_result, &waiter);
  result = nearby_test_wait_result (&waiter);
  entry = nearby_history_cache_lookup_finish (history, result, &error);
  g_assert_no_error (error);

  return entry;
}

void
temp_history_clear (TempHistory *temp)
{
  nearby_test_remove_tree (temp->dir);
  g_clear_pointer (&temp->dir, g_free);
  g_clear_pointer (&temp->path, g_free);
}

void
temp_history_init (TempHistory *temp)
{
  temp->dir = nearby_test_make_temp_dir ("nearby-history");
  temp->path = g_build_filename (temp->dir, "history.db", NULL);
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
