/* test-history.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <grp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <sqlite3.h>

#include "history-test-utils.h"

#define UNPRIVILEGED_ID 65534

/* Helpers */

static void
clear_history (NearbyHistory     *history,
               NearbyHistoryData  what)
{
  g_autoptr(GError) error = NULL;
  Waiter waiter = { 0 };
  g_autoptr(GAsyncResult) result = NULL;

  nearby_history_clear_async (history, what, NULL, on_result, &waiter);
  result = wait_result (&waiter);
  g_assert_true (nearby_history_clear_finish (history, result, &error));
  g_assert_no_error (error);
}

static char *
raw_query_text (sqlite3    *db,
                const char *sql)
{
  sqlite3_stmt *stmt = NULL;
  char *value;

  g_assert_cmpint (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
  value = g_strdup ((const char *) sqlite3_column_text (stmt, 0));
  sqlite3_finalize (stmt);

  return value;
}

static gint64
file_user_version (const char *path)
{
  sqlite3 *db = raw_open (path);
  gint64 version = raw_query_int (db, "PRAGMA user_version");

  sqlite3_close (db);
  return version;
}

/* Returns the names in dir that start with prefix, sorted. */
static char **
list_dir_prefixed (const char *dir_path,
                   const char *prefix)
{
  g_autoptr(GDir) dir = g_dir_open (dir_path, 0, NULL);
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  const char *name;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      if (g_str_has_prefix (name, prefix))
        g_ptr_array_add (names, g_strdup (name));
    }
  g_ptr_array_sort (names, (GCompareFunc) g_strcmp0);
  g_ptr_array_add (names, NULL);

  return (char **) g_ptr_array_free (g_steal_pointer (&names), FALSE);
}

/* Opening, and the queue of calls */

static void
test_in_memory (void)
{
  g_autoptr(GPtrArray) visits = NULL;
  NearbyHistory *history;

  /* What other tests use: no file, no problem to report. */
  history = open_history (":memory:");
  g_assert_false (nearby_history_get_persistent (history));
  g_assert_null (nearby_history_get_problem (history));
  record_visit (history, "https://memory.example/", 0);
  visits = list_visits (history, 0);
  g_assert_cmpuint (visits->len, ==, 1);
  clear_history (history, NEARBY_HISTORY_DATA_ALL);
  g_assert_false (nearby_history_get_visit_stats (history, "https://memory.example/", NULL, NULL));
  close_history (history);
}

static void
test_not_open (void)
{
  g_auto(TempHistory) temp = { 0 };
  g_autoptr(GError) error = NULL;
  Waiter waiter = { 0 };
  g_autoptr(GAsyncResult) open_result = NULL;
  NearbyHistory *history;

  temp_history_init (&temp);
  history = nearby_history_new (temp.path);

  g_assert_false (try_record_visit (history, "https://early.example/", 0, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED);
  g_clear_error (&error);

  /* Calls made right after asking to open wait for it. */
  nearby_history_open_async (history, NULL, on_result, &waiter);
  record_visit (history, "https://early.example/", 0);
  open_result = wait_result (&waiter);
  g_assert_true (nearby_history_open_finish (history, open_result, &error));
  g_assert_no_error (error);
  g_assert_true (nearby_history_get_visit_stats (history, "https://early.example/", NULL, NULL));

  g_clear_object (&open_result);
  close_history (history);
}

static void
test_cancelled (void)
{
  g_auto(TempHistory) temp = { 0 };
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) visits = NULL;
  Waiter waiter = { 0 };
  g_autoptr(GAsyncResult) result = NULL;
  NearbyHistory *history;

  temp_history_init (&temp);
  history = open_history (temp.path);

  g_cancellable_cancel (cancellable);
  nearby_history_record_visit_async (history, "https://cancelled.example/", 0, cancellable,
                                     on_result, &waiter);
  result = wait_result (&waiter);
  g_assert_false (nearby_history_record_visit_finish (history, result, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);

  visits = list_visits (history, 0);
  g_assert_cmpuint (visits->len, ==, 0);
  g_assert_false (nearby_history_get_visit_stats (history, "https://cancelled.example/",
                                                  NULL, NULL));

  g_clear_object (&result);
  close_history (history);
}

/* Clearing */

static gboolean
database_files_contain (const char *path,
                        const char *needle)
{
  g_autofree char *wal = g_strconcat (path, "-wal", NULL);
  g_autofree char *shm = g_strconcat (path, "-shm", NULL);

  return file_contains (path, needle) || file_contains (wal, needle) || file_contains (shm, needle);
}

static void
test_clear (void)
{
  static const char secret[] = "s3cret-place-4711";
  g_auto(TempHistory) temp = { 0 };
  g_autofree char *secret_url = g_strdup_printf ("https://%s.example/door", secret);
  g_autofree char *secret_json = g_strdup_printf ("{\"title\":\"%s\"}", secret);
  g_autoptr(GBytes) secret_icon = g_bytes_new (secret, strlen (secret));
  g_autoptr(GPtrArray) visits = NULL;
  g_autoptr(NearbyCacheEntry) entry = NULL;
  gint64 tomorrow = g_get_real_time () + G_TIME_SPAN_DAY;
  NearbyHistory *history;

  temp_history_init (&temp);
  history = open_history (temp.path);

  /* Enough other rows that the secret does not sit alone on a page that simply disappears. */
  for (guint i = 0; i < 300; i++)
    {
      g_autofree char *url = g_strdup_printf ("https://filler%u.example/", i);

      record_visit (history, url, 0);
      if (i == 150)
        {
          record_visit (history, secret_url, 0);
          cache_store (history, secret_url, secret_json, secret_icon, "image/png", tomorrow);
        }
    }
  run_key_job (history, nearby_history_add_favourite_async, nearby_history_add_favourite_finish,
               "https://kept.example/");

  /* The check below would see the secret if it were left behind. */
  g_assert_true (database_files_contain (temp.path, secret));

  clear_history (history, NEARBY_HISTORY_DATA_VISITS | NEARBY_HISTORY_DATA_CACHE);

  g_assert_false (database_files_contain (temp.path, secret));
  visits = list_visits (history, 0);
  g_assert_cmpuint (visits->len, ==, 0);
  g_assert_false (nearby_history_get_visit_stats (history, secret_url, NULL, NULL));
  g_assert_null (cache_lookup (history, secret_url));
  /* What was not asked for stays. */
  g_assert_true (nearby_history_is_favourite (history, "https://kept.example/"));

  /* Still a working database afterwards. */
  record_visit (history, "https://after.example/", 0);
  close_history (history);

  g_assert_false (database_files_contain (temp.path, secret));
  history = open_history (temp.path);
  g_clear_pointer (&visits, g_ptr_array_unref);
  visits = list_visits (history, 0);
  g_assert_cmpuint (visits->len, ==, 1);
  g_assert_true (nearby_history_is_favourite (history, "https://kept.example/"));

  clear_history (history, NEARBY_HISTORY_DATA_ALL);
  g_assert_false (nearby_history_is_favourite (history, "https://kept.example/"));
  g_assert_false (database_files_contain (temp.path, "kept.example"));
  g_assert_false (database_files_contain (temp.path, "after.example"));
  close_history (history);
}

/* Migrations */

static const char schema_v1[] =
  "CREATE TABLE visits ("
  "  id INTEGER PRIMARY KEY,"
  "  url TEXT NOT NULL UNIQUE,"
  "  host TEXT NOT NULL,"
  "  visit_count INTEGER NOT NULL DEFAULT 1 CHECK (visit_count >= 1),"
  "  first_visit_us INTEGER NOT NULL,"
  "  last_visit_us INTEGER NOT NULL"
  ");"
  "CREATE INDEX visits_by_last_visit ON visits (last_visit_us);"
  "CREATE INDEX visits_by_host ON visits (host);"
  "CREATE TABLE favourites (url TEXT PRIMARY KEY, added_us INTEGER NOT NULL);"
  "CREATE TABLE blocked_hosts (host TEXT PRIMARY KEY, blocked_us INTEGER NOT NULL);"
  "PRAGMA user_version = 1;";

static void
test_migration_empty_file (void)
{
  g_auto(TempHistory) temp = { 0 };
  NearbyHistory *history;

  temp_history_init (&temp);
  write_file (temp.path, "", 0);

  history = open_history (temp.path);
  g_assert_null (nearby_history_get_problem (history));
  record_visit (history, "https://first.example/", 0);
  cache_store (history, "https://first.example/", "{}", NULL, NULL,
               g_get_real_time () + G_TIME_SPAN_HOUR);
  close_history (history);

  g_assert_cmpint (file_user_version (temp.path), ==, NEARBY_HISTORY_SCHEMA_VERSION);
}

static void
test_migration_v0_with_other_tables (void)
{
  g_auto(TempHistory) temp = { 0 };
  NearbyHistory *history;
  sqlite3 *db;

  temp_history_init (&temp);
  db = raw_open (temp.path);
  raw_exec (db, "CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('keep me');");
  sqlite3_close (db);

  history = open_history (temp.path);
  g_assert_null (nearby_history_get_problem (history));
  record_visit (history, "https://first.example/", 0);
  close_history (history);

  db = raw_open (temp.path);
  g_assert_cmpint (raw_query_int (db, "PRAGMA user_version"), ==, NEARBY_HISTORY_SCHEMA_VERSION);
  g_assert_cmpint (raw_query_int (db, "SELECT count(*) FROM notes"), ==, 1);
  g_assert_cmpint (raw_query_int (db, "SELECT count(*) FROM visits"), ==, 1);
  sqlite3_close (db);
}

static void
test_migration_from_v1 (void)
{
  g_auto(TempHistory) temp = { 0 };
  g_autoptr(NearbyCacheEntry) entry = NULL;
  g_autoptr(GPtrArray) visits = NULL;
  NearbyHistory *history;
  guint count = 0;
  gint64 last = 0;
  sqlite3 *db;

  temp_history_init (&temp);
  db = raw_open (temp.path);
  raw_exec (db, schema_v1);
  raw_exec (db,
            "INSERT INTO visits (url, host, visit_count, first_visit_us, last_visit_us)"
            " VALUES ('https://old.example/', 'old.example', 7, 100, 900);"
            "INSERT INTO favourites VALUES ('https://old.example/', 5);"
            "INSERT INTO blocked_hosts VALUES ('bad.example', 6);");
  sqlite3_close (db);
  g_assert_cmpint (file_user_version (temp.path), ==, 1);

  history = open_history (temp.path);
  g_assert_null (nearby_history_get_problem (history));
  g_assert_true (nearby_history_get_visit_stats (history, "https://old.example/", &count, &last));
  g_assert_cmpuint (count, ==, 7);
  g_assert_cmpint (last, ==, 900);
  g_assert_true (nearby_history_is_favourite (history, "https://old.example/"));
  g_assert_true (nearby_history_is_host_blocked (history, "bad.example"));
  record_visit (history, "https://old.example/", 1000);
  visits = list_visits (history, 0);
  g_assert_cmpuint (visits->len, ==, 1);
  g_assert_cmpuint (((NearbyVisit *) visits->pdata[0])->count, ==, 8);

  /* The table version 2 added works. */
  cache_store (history, "https://old.example/", "{}", NULL, NULL,
               g_get_real_time () + G_TIME_SPAN_HOUR);
  entry = cache_lookup (history, "https://old.example/");
  g_assert_nonnull (entry);
  close_history (history);

  g_assert_cmpint (file_user_version (temp.path), ==, NEARBY_HISTORY_SCHEMA_VERSION);
}

/* Damaged, unreadable and foreign files */

/* Opens path, expecting the old file moved aside and a working new history in its place. */
static void
assert_set_aside (const char *path,
                  const char *expected_problem_part)
{
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *base = g_path_get_basename (path);
  g_autofree char *prefix = g_strconcat (base, ".corrupt-", NULL);
  g_auto(GStrv) aside = NULL;
  g_autoptr(GPtrArray) visits = NULL;
  NearbyHistory *history;
  const char *problem;

  history = open_history (path);
  problem = nearby_history_get_problem (history);
  g_assert_nonnull (problem);
  g_test_message ("problem: %s", problem);
  g_assert_nonnull (strstr (problem, "set aside"));
  g_assert_nonnull (strstr (problem, expected_problem_part));
  g_assert_true (nearby_history_get_persistent (history));
  g_assert_nonnull (nearby_history_get_set_aside_path (history));
  g_assert_true (g_file_test (nearby_history_get_set_aside_path (history), G_FILE_TEST_EXISTS));

  aside = list_dir_prefixed (dir, prefix);
  g_assert_cmpuint (g_strv_length (aside), >=, 1);

  record_visit (history, "https://fresh.example/", 0);
  visits = list_visits (history, 0);
  g_assert_cmpuint (visits->len, ==, 1);
  close_history (history);

  /* The new one is healthy: opening it again reports nothing. */
  history = open_history (path);
  g_assert_null (nearby_history_get_problem (history));
  g_assert_true (nearby_history_get_visit_stats (history, "https://fresh.example/", NULL, NULL));
  close_history (history);
}

static void
test_corrupt_garbage (void)
{
  g_auto(TempHistory) temp = { 0 };
  g_autoptr(GString) garbage = g_string_new (NULL);
  g_autofree char *aside_contents = NULL;
  g_auto(GStrv) aside = NULL;
  g_autofree char *aside_path = NULL;
  g_autofree char *wal_path = NULL;
  gsize length = 0;

  temp_history_init (&temp);
  for (guint i = 0; i < 8192; i++)
    g_string_append_c (garbage, (char) g_test_rand_int_range (0, 256));
  write_file (temp.path, garbage->str, garbage->len);
  /* Its log goes with it: left beside the new database, it would be replayed into it. */
  wal_path = g_strconcat (temp.path, "-wal", NULL);
  write_file (wal_path, "not a log", 9);

  assert_set_aside (temp.path, "damaged");

  /* Set aside untouched, for whoever wants to look. */
  aside = list_dir_prefixed (temp.dir, "history.db.corrupt-");
  aside_path = g_build_filename (temp.dir, aside[0], NULL);
  g_assert_true (g_file_get_contents (aside_path, &aside_contents, &length, NULL));
  g_assert_cmpmem (aside_contents, length, garbage->str, garbage->len);
  /* (SQLite itself may already have dropped a log that was not one.) */
  g_assert_false (file_contains (wal_path, "not a log"));
}

static void
test_corrupt_text (void)
{
  g_auto(TempHistory) temp = { 0 };
  static const char text[] = "This is not a database, it is a shopping list.\n";

  temp_history_init (&temp);
  write_file (temp.path, text, sizeof text - 1);
  assert_set_aside (temp.path, "damaged");
}

static void
test_corrupt_truncated (void)
{
  g_auto(TempHistory) source = { 0 };
  g_autofree char *full = NULL;
  gsize full_length = 0;
  NearbyHistory *history;

  temp_history_init (&source);
  history = open_history (source.path);
  for (guint i = 0; i < 400; i++)
    {
      g_autofree char *url = g_strdup_printf ("https://site%u.example/some/longer/path/%u", i, i);

      record_visit (history, url, 0);
    }
  close_history (history);
  g_assert_true (g_file_get_contents (source.path, &full, &full_length, NULL));
  g_assert_cmpuint (full_length, >, 4 * 4096);

  {
    const gsize lengths[] = { 60, 4096, full_length / 2, full_length - 4096 };

    for (guint i = 0; i < G_N_ELEMENTS (lengths); i++)
      {
        g_auto(TempHistory) temp = { 0 };

        g_test_message ("truncated to %" G_GSIZE_FORMAT " of %" G_GSIZE_FORMAT " bytes",
                        lengths[i], full_length);
        temp_history_init (&temp);
        write_file (temp.path, full, lengths[i]);
        assert_set_aside (temp.path, "damaged");
      }
  }
}

static void
test_corrupt_directory (void)
{
  g_auto(TempHistory) temp = { 0 };

  temp_history_init (&temp);
  g_assert_cmpint (g_mkdir (temp.path, 0700), ==, 0);
  assert_set_aside (temp.path, "damaged");
}

static void
test_corrupt_future_version (void)
{
  g_auto(TempHistory) temp = { 0 };
  sqlite3 *db;

  temp_history_init (&temp);
  db = raw_open (temp.path);
  raw_exec (db, "CREATE TABLE visits (x); PRAGMA user_version = 99;");
  sqlite3_close (db);

  assert_set_aside (temp.path, "newer version");
}

static void
test_corrupt_foreign_schema (void)
{
  g_auto(TempHistory) temp = { 0 };
  sqlite3 *db;

  /* Version 0 with a table of ours in another shape: the migration cannot proceed. */
  temp_history_init (&temp);
  db = raw_open (temp.path);
  raw_exec (db, "CREATE TABLE visits (something_else TEXT);");
  sqlite3_close (db);
  assert_set_aside (temp.path, "damaged");

  /* The right version but a missing table. */
  remove_tree (temp.dir);
  g_assert_cmpint (g_mkdir (temp.dir, 0700), ==, 0);
  db = raw_open (temp.path);
  raw_exec (db, "CREATE TABLE visits (x); PRAGMA user_version = 2;");
  sqlite3_close (db);
  assert_set_aside (temp.path, "damaged");
}

static void
on_notify_problem (GObject    *object,
                   GParamSpec *pspec,
                   gpointer    data)
{
  guint *notifications = data;

  (*notifications)++;
}

static void
test_damaged_while_open (void)
{
  g_auto(TempHistory) temp = { 0 };
  g_autoptr(GError) error = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  Waiter waiter = { 0 };
  guint notifications = 0;
  NearbyHistory *history;
  sqlite3 *db;

  temp_history_init (&temp);
  history = open_history (temp.path);
  g_signal_connect (history, "notify::problem", G_CALLBACK (on_notify_problem), &notifications);
  record_visit (history, "https://one.example/", 0);
  record_visit (history, "https://two.example/", 0);

  /* Another program makes the visits table point at an index's pages. */
  db = raw_open (temp.path);
  {
    gint64 version = raw_query_int (db, "PRAGMA schema_version");
    gint64 index_root = raw_query_int (db, "SELECT rootpage FROM sqlite_master"
                                           " WHERE name = 'visits_by_host'");
    g_autofree char *sql = g_strdup_printf ("PRAGMA writable_schema = ON;"
                                            "UPDATE sqlite_master SET rootpage = %" G_GINT64_FORMAT
                                            " WHERE name = 'visits';"
                                            "PRAGMA schema_version = %" G_GINT64_FORMAT ";"
                                            "PRAGMA writable_schema = OFF;",
                                            index_root, version + 1);

    raw_exec (db, sql);
  }
  sqlite3_close (db);

  nearby_history_list_visits_async (history, 0, NULL, on_result, &waiter);
  result = wait_result (&waiter);
  g_assert_null (nearby_history_list_visits_finish (history, result, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_assert_cmpuint (notifications, ==, 1);
  g_assert_nonnull (nearby_history_get_problem (history));
  g_assert_nonnull (strstr (nearby_history_get_problem (history), "damaged"));
  g_clear_object (&result);
  close_history (history);

  /* The next start does what it promised. */
  assert_set_aside (temp.path, "damaged");
}

static void
test_no_directory_possible (void)
{
  g_auto(TempHistory) temp = { 0 };
  g_autofree char *blocker = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GPtrArray) visits = NULL;
  NearbyHistory *history;

  /* The folder for the history cannot exist: a file has its name. */
  temp_history_init (&temp);
  blocker = g_build_filename (temp.dir, "nearby", NULL);
  write_file (blocker, "x", 1);
  path = g_build_filename (blocker, "history.db", NULL);

  history = open_history (path);
  g_assert_false (nearby_history_get_persistent (history));
  g_assert_nonnull (nearby_history_get_problem (history));
  g_assert_nonnull (strstr (nearby_history_get_problem (history), "forgotten"));
  record_visit (history, "https://memory.example/", 0);
  visits = list_visits (history, 0);
  g_assert_cmpuint (visits->len, ==, 1);
  close_history (history);
}

static void
test_in_use (void)
{
  g_auto(TempHistory) temp = { 0 };
  g_auto(GStrv) aside = NULL;
  NearbyHistory *history;
  sqlite3 *blocker;

  temp_history_init (&temp);
  history = open_history (temp.path);
  record_visit (history, "https://precious.example/", 0);
  close_history (history);

  /* Another program holds the database for itself: that is no damage, so nothing is moved. */
  blocker = raw_open (temp.path);
  raw_exec (blocker, "PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE;"
                     " INSERT INTO favourites VALUES ('https://locked.example/', 1);");

  history = open_history (temp.path);
  g_assert_false (nearby_history_get_persistent (history));
  g_assert_nonnull (nearby_history_get_problem (history));
  g_test_message ("problem: %s", nearby_history_get_problem (history));
  g_assert_nonnull (strstr (nearby_history_get_problem (history), "in use"));
  g_assert_null (nearby_history_get_set_aside_path (history));
  record_visit (history, "https://meanwhile.example/", 0);
  close_history (history);

  aside = list_dir_prefixed (temp.dir, "history.db.corrupt-");
  g_assert_cmpuint (g_strv_length (aside), ==, 0);

  raw_exec (blocker, "ROLLBACK");
  sqlite3_close (blocker);

  history = open_history (temp.path);
  g_assert_null (nearby_history_get_problem (history));
  g_assert_true (nearby_history_get_persistent (history));
  g_assert_true (nearby_history_get_visit_stats (history, "https://precious.example/", NULL, NULL));
  close_history (history);
}

/* Read-only and unreadable files need an unprivileged process: root ignores permissions. */

static void
drop_privileges_if_root (void)
{
  if (geteuid () != 0)
    return;

  if (setgroups (0, NULL) != 0 || setgid (UNPRIVILEGED_ID) != 0 || setuid (UNPRIVILEGED_ID) != 0)
    g_error ("Cannot drop privileges: %s", g_strerror (errno));
}

/* Makes path unwritable (and unreadable when asked) for the unprivileged test process. */
static void
restrict_path (const char *path,
               gboolean    readable)
{
  if (geteuid () == 0)
    {
      /* Owned by root, so the mode bits bind the unprivileged process. */
      g_assert_cmpint (g_chmod (path, readable ? 0644 : 0600), ==, 0);
    }
  else
    {
      g_assert_cmpint (g_chmod (path, readable ? 0444 : 0000), ==, 0);
    }
}

static void
make_writable_for_child (const char *dir)
{
  if (geteuid () == 0)
    g_assert_cmpint (chown (dir, UNPRIVILEGED_ID, UNPRIVILEGED_ID), ==, 0);
  g_assert_cmpint (g_chmod (dir, 0755), ==, 0);
}

static void
create_healthy_history (const char *path)
{
  NearbyHistory *history = open_history (path);

  record_visit (history, "https://precious.example/", 0);
  close_history (history);
}

/* The unprivileged child re-runs the test: it finds its files under the root made in main(),
 * passed down in the environment before any thread started. */
static char *
shared_test_dir (const char *name)
{
  return g_build_filename (g_getenv ("NEARBY_TEST_ROOT"), name, NULL);
}

static void
prepare_shared_dir (const char *dir)
{
  remove_tree (dir);
  g_assert_cmpint (g_mkdir (dir, 0700), ==, 0);
}

static void
child_expect_set_aside (const char *path,
                        const char *expected_problem_part)
{
  drop_privileges_if_root ();
  assert_set_aside (path, expected_problem_part);
}

static void
child_expect_in_memory (const char *path)
{
  g_autoptr(GPtrArray) visits = NULL;
  NearbyHistory *history;

  drop_privileges_if_root ();
  history = open_history (path);
  g_assert_false (nearby_history_get_persistent (history));
  g_assert_nonnull (nearby_history_get_problem (history));
  g_test_message ("problem: %s", nearby_history_get_problem (history));
  g_assert_nonnull (strstr (nearby_history_get_problem (history), "forgotten"));
  record_visit (history, "https://memory.example/", 0);
  visits = list_visits (history, 0);
  g_assert_cmpuint (visits->len, ==, 1);
  close_history (history);
}

/* The unprivileged child must be able to walk down to its files. */
static gboolean
reachable_by_others (const char *path)
{
  g_autofree char *current = g_strdup (path);

  while (strcmp (current, "/") != 0 && strcmp (current, ".") != 0)
    {
      g_autofree char *parent = g_path_get_dirname (current);
      GStatBuf buf;

      if (g_stat (current, &buf) != 0 || (buf.st_mode & S_IXOTH) == 0)
        return FALSE;

      g_free (current);
      current = g_steal_pointer (&parent);
    }

  return TRUE;
}

static void
run_unprivileged (void)
{
  if (geteuid () == 0 && !reachable_by_others (g_getenv ("NEARBY_TEST_ROOT")))
    {
      g_test_skip ("The temporary folder is closed to an unprivileged user");
      return;
    }

  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

static void
test_readonly_file (void)
{
  g_autofree char *dir = shared_test_dir ("read-only-file");
  g_autofree char *path = g_build_filename (dir, "history.db", NULL);

  if (g_test_subprocess ())
    {
      child_expect_set_aside (path, "could not be written to");
      return;
    }

  prepare_shared_dir (dir);
  create_healthy_history (path);
  restrict_path (path, TRUE);
  make_writable_for_child (dir);
  run_unprivileged ();
  remove_tree (dir);
}

static void
test_unreadable_file (void)
{
  g_autofree char *dir = shared_test_dir ("unreadable-file");
  g_autofree char *path = g_build_filename (dir, "history.db", NULL);

  if (g_test_subprocess ())
    {
      child_expect_set_aside (path, "could not be read");
      return;
    }

  prepare_shared_dir (dir);
  create_healthy_history (path);
  restrict_path (path, FALSE);
  make_writable_for_child (dir);
  run_unprivileged ();
  remove_tree (dir);
}

static void
test_readonly_directory_with_history (void)
{
  g_autofree char *dir = shared_test_dir ("read-only-folder");
  g_autofree char *path = g_build_filename (dir, "history.db", NULL);
  sqlite3 *db;

  if (g_test_subprocess ())
    {
      child_expect_in_memory (path);
      return;
    }

  /* A healthy history in a folder it cannot write: left as it is, used from memory. */
  prepare_shared_dir (dir);
  create_healthy_history (path);
  restrict_path (path, TRUE);
  g_assert_cmpint (g_chmod (dir, geteuid () == 0 ? 0755 : 0555), ==, 0);
  run_unprivileged ();

  g_assert_cmpint (g_chmod (dir, 0700), ==, 0);
  g_assert_cmpint (g_chmod (path, 0600), ==, 0);
  db = raw_open (path);
  g_assert_cmpint (raw_query_int (db, "SELECT count(*) FROM visits"
                                      " WHERE url = 'https://precious.example/'"), ==, 1);
  g_assert_cmpint (raw_query_int (db, "SELECT count(*) FROM visits"
                                      " WHERE url = 'https://memory.example/'"), ==, 0);
  sqlite3_close (db);
  remove_tree (dir);
}

static void
test_readonly_directory_empty (void)
{
  g_autofree char *dir = shared_test_dir ("read-only-empty-folder");
  g_autofree char *path = g_build_filename (dir, "history.db", NULL);

  if (g_test_subprocess ())
    {
      child_expect_in_memory (path);
      return;
    }

  /* No history yet, and nowhere to start one. */
  prepare_shared_dir (dir);
  g_assert_cmpint (g_chmod (dir, geteuid () == 0 ? 0755 : 0555), ==, 0);
  run_unprivileged ();
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  remove_tree (dir);
}

/* The main loop keeps running while the database is busy. */

typedef struct {
  sqlite3 *blocker;
  guint    completed;
  guint    completed_when_ticked;
  gboolean ticked;
  gboolean all_done;
  guint    total;
} Responsiveness;

static void
on_batch_visit_recorded (GObject      *object,
                         GAsyncResult *result,
                         gpointer      data)
{
  Responsiveness *state = data;
  g_autoptr(GError) error = NULL;

  g_assert_true (nearby_history_record_visit_finish (NEARBY_HISTORY (object), result, &error));
  g_assert_no_error (error);
  state->completed++;
  if (state->completed == state->total)
    state->all_done = TRUE;
}

static gboolean
on_tick (gpointer data)
{
  Responsiveness *state = data;

  state->ticked = TRUE;
  state->completed_when_ticked = state->completed;
  raw_exec (state->blocker, "COMMIT");

  return G_SOURCE_REMOVE;
}

static void
test_main_loop_responsive (void)
{
  g_auto(TempHistory) temp = { 0 };
  g_autoptr(GPtrArray) visits = NULL;
  Responsiveness state = { 0 };
  NearbyHistory *history;

  temp_history_init (&temp);
  history = open_history (temp.path);

  /* Another connection holds the write lock, so every write has to wait for it: a main
   * loop that ran SQLite itself could not get to the timeout that releases it. */
  state.blocker = raw_open (temp.path);
  raw_exec (state.blocker, "BEGIN EXCLUSIVE");

  state.total = 2000;
  for (guint i = 0; i < state.total; i++)
    {
      g_autofree char *url = g_strdup_printf ("https://batch.example/%u", i);

      nearby_history_record_visit_async (history, url, 0, NULL, on_batch_visit_recorded, &state);
    }
  g_timeout_add (10, on_tick, &state);

  wait_until (&state.all_done);
  g_assert_true (state.ticked);
  g_assert_cmpuint (state.completed_when_ticked, ==, 0);

  visits = list_visits (history, 0);
  g_assert_cmpuint (visits->len, ==, state.total);

  sqlite3_close (state.blocker);
  close_history (history);
}

/* Crash drill: a child records visits until it is killed; every visit it reported survives. */

#define DRILL_IN_FLIGHT 4
#define DRILL_MAX_VISITS 50000

typedef struct {
  NearbyHistory *history;
  const char    *run;
  guint          next;
  guint          in_flight;
} Drill;

static void drill_record_next (Drill *drill);

typedef struct {
  Drill *drill;
  guint  index;
} DrillVisit;

static void
on_drill_visit_recorded (GObject      *object,
                         GAsyncResult *result,
                         gpointer      data)
{
  g_autofree DrillVisit *visit = data;
  Drill *drill = visit->drill;
  g_autoptr(GError) error = NULL;

  if (!nearby_history_record_visit_finish (drill->history, result, &error))
    {
      fprintf (stderr, "drill: %s\n", error->message);
      exit (1);
    }

  /* One short write(2) per line: a kill cannot split it. */
  printf ("%u\n", visit->index);
  fflush (stdout);

  drill->in_flight--;
  drill_record_next (drill);
}

static void
drill_record_next (Drill *drill)
{
  while (drill->in_flight < DRILL_IN_FLIGHT && drill->next < DRILL_MAX_VISITS)
    {
      g_autofree char *url = g_strdup_printf ("https://drill.example/%s/%u",
                                              drill->run, drill->next);
      DrillVisit *visit = g_new0 (DrillVisit, 1);

      visit->drill = drill;
      visit->index = drill->next;
      nearby_history_record_visit_async (drill->history, url, 0, NULL,
                                         on_drill_visit_recorded, visit);
      drill->next++;
      drill->in_flight++;
    }
}

/* Prints "N" for each visit https://drill.example/RUN/N once its write has completed. */
static int
run_drill_child (const char *path,
                 const char *run)
{
  Drill drill = { 0 };
  g_autoptr(GError) error = NULL;
  Waiter waiter = { 0 };
  g_autoptr(GAsyncResult) result = NULL;

  drill.run = run;
  drill.history = nearby_history_new (path);
  nearby_history_open_async (drill.history, NULL, on_result, &waiter);
  result = wait_result (&waiter);
  if (!nearby_history_open_finish (drill.history, result, &error) ||
      nearby_history_get_problem (drill.history) != NULL)
    {
      fprintf (stderr, "drill: the history did not open cleanly: %s\n",
               nearby_history_get_problem (drill.history));
      return 1;
    }

  drill_record_next (&drill);
  while (drill.in_flight > 0)
    g_main_context_iteration (NULL, TRUE);

  return 0;
}

#define DRILL_RUNS 100

static void
test_kill_drill (void)
{
  g_auto(TempHistory) temp = { 0 };
  g_autoptr(GPtrArray) reported = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *self_exe = NULL;
  g_autoptr(GError) error = NULL;
  guint reported_after_kill = 0;
  guint runs_with_log = 0;
  NearbyHistory *history;

  self_exe = g_file_read_link ("/proc/self/exe", &error);
  g_assert_no_error (error);
  temp_history_init (&temp);

  for (guint run = 0; run < DRILL_RUNS; run++)
    {
      g_autofree char *run_name = g_strdup_printf ("%u", run);
      g_autoptr(GSubprocess) child = NULL;
      g_autoptr(GDataInputStream) lines = NULL;
      guint kill_after = (guint) g_test_rand_int_range (0, 150);
      guint seen = 0;
      char *line;
      sqlite3 *db;

      child = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error,
                                self_exe, "--drill-child", temp.path, run_name, NULL);
      g_assert_no_error (error);
      if (kill_after == 0)
        g_subprocess_send_signal (child, SIGKILL);

      lines = g_data_input_stream_new (g_subprocess_get_stdout_pipe (child));
      while ((line = g_data_input_stream_read_line (lines, NULL, NULL, &error)) != NULL)
        {
          g_ptr_array_add (reported, g_strdup_printf ("https://drill.example/%u/%s", run, line));
          g_free (line);
          if (++seen == kill_after)
            g_subprocess_send_signal (child, SIGKILL);
        }
      g_assert_no_error (error);

      g_subprocess_wait (child, NULL, &error);
      g_assert_no_error (error);
      g_assert_false (g_subprocess_get_if_exited (child));
      g_assert_cmpint (g_subprocess_get_term_sig (child), ==, SIGKILL);
      if (seen > kill_after)
        reported_after_kill++;

      /* A log left behind means the reopening below recovers from a real crash. */
      {
        g_autofree char *wal = g_strconcat (temp.path, "-wal", NULL);
        GStatBuf buf;

        if (g_stat (wal, &buf) == 0 && buf.st_size > 0)
          runs_with_log++;
      }

      /* Consistent, and every reported visit is there. */
      db = raw_open (temp.path);
      {
        g_autofree char *integrity = raw_query_text (db, "PRAGMA integrity_check");
        sqlite3_stmt *stmt = NULL;

        g_assert_cmpstr (integrity, ==, "ok");
        /* Killed before the first run created the schema: nothing was reported either. */
        if (reported->len == 0)
          {
            sqlite3_close (db);
            continue;
          }
        g_assert_cmpint (sqlite3_prepare_v2 (db, "SELECT count(*) FROM visits WHERE url = ?1",
                                             -1, &stmt, NULL), ==, SQLITE_OK);
        for (guint i = 0; i < reported->len; i++)
          {
            sqlite3_bind_text (stmt, 1, reported->pdata[i], -1, SQLITE_STATIC);
            g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_ROW);
            if (sqlite3_column_int (stmt, 0) != 1)
              g_error ("Visit %s was reported but is missing", (char *) reported->pdata[i]);
            sqlite3_reset (stmt);
          }
        sqlite3_finalize (stmt);
      }
      sqlite3_close (db);
    }

  g_test_message ("%u visits reported over %u runs; in %u runs more were reported after the "
                  "kill; %u runs left a log to recover", reported->len, DRILL_RUNS,
                  reported_after_kill, runs_with_log);
  g_assert_cmpuint (reported->len, >, 0);
  g_assert_cmpuint (runs_with_log, >, 0);

  /* And the history itself finds nothing wrong with it. */
  history = open_history (temp.path);
  g_assert_null (nearby_history_get_problem (history));
  for (guint i = 0; i < reported->len; i++)
    g_assert_true (nearby_history_get_visit_stats (history, reported->pdata[i], NULL, NULL));
  close_history (history);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *own_root = NULL;
  int status;

  if (argc == 4 && strcmp (argv[1], "--drill-child") == 0)
    return run_drill_child (argv[2], argv[3]);

  /* Set before any thread exists; subprocesses inherit it. */
  if (g_getenv ("NEARBY_TEST_ROOT") == NULL)
    {
      own_root = g_dir_make_tmp ("nearby-history-tests-XXXXXX", NULL);
      g_assert_nonnull (own_root);
      g_assert_cmpint (g_chmod (own_root, 0755), ==, 0);
      g_setenv ("NEARBY_TEST_ROOT", own_root, TRUE);
    }

  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/history/in-memory", test_in_memory);
  g_test_add_func ("/history/not-open", test_not_open);
  g_test_add_func ("/history/cancelled", test_cancelled);
  g_test_add_func ("/history/clear", test_clear);
  g_test_add_func ("/history/migration/empty-file", test_migration_empty_file);
  g_test_add_func ("/history/migration/v0-with-other-tables", test_migration_v0_with_other_tables);
  g_test_add_func ("/history/migration/from-v1", test_migration_from_v1);
  g_test_add_func ("/history/damaged/garbage", test_corrupt_garbage);
  g_test_add_func ("/history/damaged/text", test_corrupt_text);
  g_test_add_func ("/history/damaged/truncated", test_corrupt_truncated);
  g_test_add_func ("/history/damaged/directory", test_corrupt_directory);
  g_test_add_func ("/history/damaged/future-version", test_corrupt_future_version);
  g_test_add_func ("/history/damaged/foreign-schema", test_corrupt_foreign_schema);
  g_test_add_func ("/history/damaged/while-open", test_damaged_while_open);
  g_test_add_func ("/history/unwritable/no-folder", test_no_directory_possible);
  g_test_add_func ("/history/unwritable/in-use", test_in_use);
  g_test_add_func ("/history/unwritable/read-only-file", test_readonly_file);
  g_test_add_func ("/history/unwritable/unreadable-file", test_unreadable_file);
  g_test_add_func ("/history/unwritable/read-only-folder", test_readonly_directory_with_history);
  g_test_add_func ("/history/unwritable/read-only-empty-folder", test_readonly_directory_empty);
  g_test_add_func ("/history/main-loop-responsive", test_main_loop_responsive);
  g_test_add_func ("/history/kill-drill", test_kill_drill);

  status = g_test_run ();
  if (own_root != NULL)
    remove_tree (own_root);

  return status;
}
