/* test-history-writes.c: a history whose writes fail (a full disk, a read-only file system, a
 * lock held by another program) says so once, keeps the person's changes, and writes them when
 * it can
 *
 * The full disk and the read-only file system are a small tmpfs the test mounts, which needs
 * root; without it those tests are skipped and say why.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "history-test-utils.h"

typedef struct {
  char *mount_point;
  char *path;
  char *filler;
} SmallDisk;

static gboolean
run_command (const char *first_arg,
             ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  int status = -1;
  va_list args;

  va_start (args, first_arg);
  for (const char *arg = first_arg; arg != NULL; arg = va_arg (args, const char *))
    g_ptr_array_add (argv, (char *) arg);
  va_end (args);
  g_ptr_array_add (argv, NULL);

  if (!g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
                     NULL, NULL, &status, &error))
    return FALSE;

  return g_spawn_check_wait_status (status, NULL);
}

/* A 256 KiB tmpfs with a history in it; FALSE (the test skipped) when it cannot be mounted. */
static gboolean
small_disk_mount (SmallDisk *disk)
{
  if (getuid () != 0)
    {
      g_test_skip ("mounting a small tmpfs needs root (run the tests as root to cover a full "
                   "disk and a read-only file system)");
      return FALSE;
    }

  disk->mount_point = nearby_test_make_temp_dir ("history-small-disk");
  if (!run_command ("mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", disk->mount_point,
                    NULL))
    {
      g_test_skip ("mount -t tmpfs failed: this system does not let the test mount one");
      g_rmdir (disk->mount_point);
      g_clear_pointer (&disk->mount_point, g_free);
      return FALSE;
    }
  disk->path = g_build_filename (disk->mount_point, "history.db", NULL);
  disk->filler = g_build_filename (disk->mount_point, "filler", NULL);

  return TRUE;
}

static void
small_disk_unmount (SmallDisk *disk)
{
  if (disk->mount_point == NULL)
    return;

  g_assert_true (run_command ("umount", disk->mount_point, NULL));
  g_rmdir (disk->mount_point);
  g_free (disk->mount_point);
  g_free (disk->path);
  g_free (disk->filler);
}

/* Fills the disk up with a file, to the last byte. */
static void
small_disk_fill (SmallDisk *disk)
{
  FILE *file = fopen (disk->filler, "w");
  char block[512] = { 0 };

  g_assert_nonnull (file);
  while (fwrite (block, 1, sizeof block, file) == sizeof block && fflush (file) == 0)
    ;
  /* The last partial block too. */
  while (fputc (0, file) != EOF && fflush (file) == 0)
    ;
  g_assert_cmpint (errno, ==, ENOSPC);
  fclose (file);
}

static void
on_synced (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  *(gboolean *) user_data = TRUE;
  nearby_history_sync_finish (NEARBY_HISTORY (source), result, NULL);
}

static void
sync_history (NearbyHistory *history)
{
  gboolean done = FALSE;

  nearby_history_sync_async (history, NULL, on_synced, &done);
  WAIT_UNTIL (done);
}

static void
count_notify (GObject    *object,
              GParamSpec *pspec,
              gpointer    user_data)
{
  if (nearby_history_get_write_problem (NEARBY_HISTORY (object)) != NULL)
    (*(guint *) user_data)++;
}

static guint
visits_in_file (const char *path)
{
  g_autoptr(NearbyHistory) history = open_history (path);
  g_autoptr(GPtrArray) visits = list_visits (history, 0);
  guint total = 0;

  for (guint i = 0; i < visits->len; i++)
    total += ((NearbyVisit *) visits->pdata[i])->count;
  close_history (g_steal_pointer (&history));

  return total;
}

/* Visits while the disk is full: the person is told once, the visits count meanwhile, and
 * they reach the file once there is room again. */
static void
test_writes_disk_full (void)
{
  SmallDisk disk = { 0 };
  NearbyHistory *history;
  guint reports = 0;
  guint count = 0;

  if (!small_disk_mount (&disk))
    return;

  history = open_history (disk.path);
  record_visit (history, "https://example.com/before", 0);
  g_signal_connect (history, "notify::write-problem", G_CALLBACK (count_notify), &reports);

  small_disk_fill (&disk);
  for (guint i = 0; i < 20; i++)
    record_visit (history, "https://example.com/while-full", 0);
  g_assert_cmpstr (nearby_history_get_write_problem (history), ==,
                   "Nearby could not save your history: the disk is full");
  g_assert_cmpuint (reports, ==, 1);
  g_assert_true (nearby_history_get_visit_stats (history, "https://example.com/while-full",
                                                 &count, NULL));
  g_assert_cmpuint (count, ==, 20);

  /* Room again: the next write takes the kept ones with it. */
  g_assert_cmpint (g_unlink (disk.filler), ==, 0);
  sync_history (history);
  g_assert_null (nearby_history_get_write_problem (history));
  close_history (history);

  g_assert_cmpuint (visits_in_file (disk.path), ==, 21);
  small_disk_unmount (&disk);
}

/* A folder that cannot be written to at all: the history lives in memory and says so, and
 * what the person does still counts for the session. */
static void
test_writes_read_only (void)
{
  SmallDisk disk = { 0 };
  NearbyHistory *history;
  guint count = 0;

  if (!small_disk_mount (&disk))
    return;

  g_assert_true (run_command ("mount", "-o", "remount,ro", disk.mount_point, NULL));
  history = open_history (disk.path);
  g_assert_false (nearby_history_get_persistent (history));
  g_assert_nonnull (strstr (nearby_history_get_problem (history), "cannot save your history"));

  record_visit (history, "https://example.com/read-only", 0);
  run_key_job (history, nearby_history_add_favourite_async, nearby_history_add_favourite_finish,
               "https://example.com/favourite");
  g_assert_true (nearby_history_get_visit_stats (history, "https://example.com/read-only",
                                                 &count, NULL));
  g_assert_cmpuint (count, ==, 1);
  g_assert_true (nearby_history_is_favourite (history, "https://example.com/favourite"));
  close_history (history);

  g_assert_true (run_command ("mount", "-o", "remount,rw", disk.mount_point, NULL));
  small_disk_unmount (&disk);
}

/* Another program holds the database locked for longer than the history waits. */
static void
test_writes_locked (void)
{
  g_auto(TempHistory) temp = { 0 };
  NearbyHistory *history;
  sqlite3 *other;
  guint reports = 0;

  temp_history_init (&temp);
  history = open_history (temp.path);
  g_signal_connect (history, "notify::write-problem", G_CALLBACK (count_notify), &reports);

  other = raw_open (temp.path);
  raw_exec (other, "BEGIN EXCLUSIVE");
  record_visit (history, "https://example.com/locked", 0);
  g_assert_cmpstr (nearby_history_get_write_problem (history), ==,
                   "Nearby could not save your history: another program is using it");
  g_assert_cmpuint (reports, ==, 1);

  raw_exec (other, "COMMIT");
  sqlite3_close (other);
  sync_history (history);
  g_assert_null (nearby_history_get_write_problem (history));
  close_history (history);

  g_assert_cmpuint (visits_in_file (temp.path), ==, 1);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/history/writes/disk-full", test_writes_disk_full);
  g_test_add_func ("/history/writes/read-only", test_writes_read_only);
  g_test_add_func ("/history/writes/locked", test_writes_locked);

  return g_test_run ();
}
