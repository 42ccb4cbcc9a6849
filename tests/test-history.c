/* test-history.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

#include <glib/gstdio.h>

#include "history-test-utils.h"

/* Helpers */

static void
clear_history (NearbyHistory     *history,
               NearbyHistoryData  what)
{
  g_autoptr(GError) error = NULL;
  NearbyTestWaiter waiter = { 0 };
  g_autoptr(GAsyncResult) result = NULL;

  nearby_history_clear_async (history, what, NULL, nearby_test_on_result, &waiter);
  result = nearby_test_wait_result (&waiter);
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
  NearbyTestWaiter waiter = { 0 };
  g_autoptr(GAsyncResult) open_result = NULL;
  NearbyHistory *history;

  temp_history_init (&temp);
  history = nearby_history_new (temp.path);

  g_assert_false (try_record_visit (history, "https://early.example/", 0, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED);
  g_clear_error (&error);

  /* Calls made right after asking to open wait for it. */
  nearby_history_open_async (history, NULL, nearby_test_on_result, &waiter);
  record_visit (history, "https://early.example/", 0);
  open_result = nearby_test_wait_result (&waiter);
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
  NearbyTestWaiter waiter = { 0 };
  g_autoptr(GAsyncResult) result = NULL;
  NearbyHistory *history;

  temp_history_init (&temp);
  history = open_history (temp.path);

  g_cancellable_cancel (cancellable);
  nearby_history_record_visit_async (history, "https://cancelled.example/", 0, cancellable,
                                     nearby_test_on_result, &waiter);
  result = nearby_test_wait_result (&waiter);
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

  return nearby_test_file_contains (path, needle) || nearby_test_file_contains (wal, needle) || nearby_test_file_contains (shm, needle);
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
  nearby_test_write_file (temp.path, "", 0);

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
  g_assert_true (nearby_history_is_site_hidden (history, "bad.example"));
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
  /* Version 3 renamed the hidden sites' table; its rows went along. */
  db = raw_open (temp.path);
  g_assert_cmpint (raw_query_int (db, "SELECT hidden_us FROM hidden_sites"
                                      " WHERE host = 'bad.example'"), ==, 6);
  sqlite3_close (db);
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

  WAIT_UNTIL (state.all_done);
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
  NearbyTestWaiter waiter = { 0 };
  g_autoptr(GAsyncResult) result = NULL;

  drill.run = run;
  drill.history = nearby_history_new (path);
  nearby_history_open_async (drill.history, NULL, nearby_test_on_result, &waiter);
  result = nearby_test_wait_result (&waiter);
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

/* Counts the syncs of every file SQLite opens, by giving each a copy of its own methods with
 * another xSync (the default VFS gives files of different kinds different methods). */
#define COUNTING_KINDS 4
static sqlite3_vfs *real_vfs;
static sqlite3_vfs counting_vfs;
static const sqlite3_io_methods *real_methods[COUNTING_KINDS];
static sqlite3_io_methods counting_methods[COUNTING_KINDS];
static gint sync_count;

static int
counting_sync (sqlite3_file *file,
               int           flags)
{
  guint kind = file->pMethods - counting_methods;

  g_atomic_int_inc (&sync_count);
  return real_methods[kind]->xSync (file, flags);
}

static int
counting_open (sqlite3_vfs  *vfs,
               const char   *name,
               sqlite3_file *file,
               int           flags,
               int          *out_flags)
{
  int rc = real_vfs->xOpen (real_vfs, name, file, flags, out_flags);
  guint kind = 0;

  if (rc != SQLITE_OK || file->pMethods == NULL)
    return rc;

  /* The history's worker is the only thread opening files while the test runs. */
  while (kind < COUNTING_KINDS && real_methods[kind] != NULL && real_methods[kind] != file->pMethods)
    kind++;
  g_assert_cmpuint (kind, <, COUNTING_KINDS);
  if (real_methods[kind] == NULL)
    {
      real_methods[kind] = file->pMethods;
      counting_methods[kind] = *file->pMethods;
      counting_methods[kind].xSync = counting_sync;
    }
  file->pMethods = &counting_methods[kind];
  return rc;
}

static void
test_new_file_no_syncs (void)
{
  g_auto(TempHistory) temp = { 0 };
  g_autoptr(GPtrArray) visits = NULL;
  NearbyHistory *history;

  real_vfs = sqlite3_vfs_find (NULL);
  counting_vfs = *real_vfs;
  counting_vfs.zName = "nearby-test-counting";
  counting_vfs.xOpen = counting_open;
  g_assert_cmpint (sqlite3_vfs_register (&counting_vfs, 1), ==, SQLITE_OK);

  /* A first start (and every `nearby resolve` with a new data directory) waited for four
   * syncs of an empty file as it turned to its write-ahead log. */
  temp_history_init (&temp);
  history = open_history (temp.path);
  g_assert_cmpint (g_atomic_int_get (&sync_count), ==, 0);

  /* What is written is still synced when the history closes. */
  record_visit (history, "https://new-file.example/", 0);
  close_history (history);
  g_assert_cmpint (g_atomic_int_get (&sync_count), >, 0);

  g_assert_cmpint (sqlite3_vfs_unregister (&counting_vfs), ==, SQLITE_OK);
  history = open_history (temp.path);
  visits = list_visits (history, 0);
  g_assert_cmpuint (visits->len, ==, 1);
  close_history (history);
}

int
main (int   argc,
      char *argv[])
{
  if (argc == 4 && strcmp (argv[1], "--drill-child") == 0)
    return run_drill_child (argv[2], argv[3]);

  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/history/in-memory", test_in_memory);
  g_test_add_func ("/history/not-open", test_not_open);
  g_test_add_func ("/history/cancelled", test_cancelled);
  g_test_add_func ("/history/clear", test_clear);
  g_test_add_func ("/history/migration/empty-file", test_migration_empty_file);
  g_test_add_func ("/history/migration/v0-with-other-tables", test_migration_v0_with_other_tables);
  g_test_add_func ("/history/migration/from-v1", test_migration_from_v1);
  g_test_add_func ("/history/main-loop-responsive", test_main_loop_responsive);
  g_test_add_func ("/history/kill-drill", test_kill_drill);
  g_test_add_func ("/history/new-file-no-syncs", test_new_file_no_syncs);

  return g_test_run ();
}
