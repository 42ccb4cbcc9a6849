/* test-history-recovery.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <grp.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "history-test-utils.h"

#define UNPRIVILEGED_ID 65534

/* Helpers */

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
  nearby_test_write_file (temp.path, garbage->str, garbage->len);
  /* Its log goes with it: left beside the new database, it would be replayed into it. */
  wal_path = g_strconcat (temp.path, "-wal", NULL);
  nearby_test_write_file (wal_path, "not a log", 9);

  assert_set_aside (temp.path, "damaged");

  /* Set aside untouched, for whoever wants to look. */
  aside = list_dir_prefixed (temp.dir, "history.db.corrupt-");
  aside_path = g_build_filename (temp.dir, aside[0], NULL);
  g_assert_true (g_file_get_contents (aside_path, &aside_contents, &length, NULL));
  g_assert_cmpmem (aside_contents, length, garbage->str, garbage->len);
  /* (SQLite itself may already have dropped a log that was not one.) */
  g_assert_false (nearby_test_file_contains (wal_path, "not a log"));
}

static void
test_corrupt_text (void)
{
  g_auto(TempHistory) temp = { 0 };
  static const char text[] = "This is not a database, it is a shopping list.\n";

  temp_history_init (&temp);
  nearby_test_write_file (temp.path, text, sizeof text - 1);
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
        nearby_test_write_file (temp.path, full, lengths[i]);
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
  g_autofree char *current_version =
    g_strdup_printf ("PRAGMA user_version = %d;", NEARBY_HISTORY_SCHEMA_VERSION);
  g_auto(TempHistory) temp = { 0 };
  sqlite3 *db;

  /* Version 0 with a table of ours in another shape: the migration cannot proceed. */
  temp_history_init (&temp);
  db = raw_open (temp.path);
  raw_exec (db, "CREATE TABLE visits (something_else TEXT);");
  sqlite3_close (db);
  assert_set_aside (temp.path, "damaged");

  /* The right version but a missing table. */
  nearby_test_remove_tree (temp.dir);
  g_assert_cmpint (g_mkdir (temp.dir, 0700), ==, 0);
  db = raw_open (temp.path);
  raw_exec (db, "CREATE TABLE visits (x);");
  raw_exec (db, current_version);
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
  NearbyTestWaiter waiter = { 0 };
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

  nearby_history_list_visits_async (history, 0, NULL, nearby_test_on_result, &waiter);
  result = nearby_test_wait_result (&waiter);
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
  nearby_test_write_file (blocker, "x", 1);
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
  nearby_test_remove_tree (dir);
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
  nearby_test_remove_tree (dir);
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
  nearby_test_remove_tree (dir);
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
  nearby_test_remove_tree (dir);
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
  nearby_test_remove_tree (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *own_root = NULL;
  int status;

  /* Set before any thread exists; subprocesses inherit it. */
  if (g_getenv ("NEARBY_TEST_ROOT") == NULL)
    {
      own_root = g_dir_make_tmp ("nearby-history-tests-XXXXXX", NULL);
      g_assert_nonnull (own_root);
      g_assert_cmpint (g_chmod (own_root, 0755), ==, 0);
      g_setenv ("NEARBY_TEST_ROOT", own_root, TRUE);
    }

  g_test_init (&argc, &argv, NULL);

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

  status = g_test_run ();
  if (own_root != NULL)
    nearby_test_remove_tree (own_root);

  return status;
}
