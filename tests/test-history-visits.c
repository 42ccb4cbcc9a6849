/* test-history-visits.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>

#include "history-test-utils.h"

/* Visits */

static void
test_visits (void)
{
  g_auto(TempHistory) temp = { 0 };
  NearbyHistory *history;
  g_autoptr(GPtrArray) visits = NULL;
  g_autoptr(GPtrArray) latest = NULL;
  g_autoptr(GError) error = NULL;
  NearbyVisit *visit;
  guint count = 0;
  gint64 last = 0;
  guint changed = 0;

  temp_history_init (&temp);
  history = open_history (temp.path);
  g_assert_null (nearby_history_get_problem (history));
  g_assert_true (nearby_history_get_persistent (history));
  collect_changes (history, &changed);

  g_assert_false (nearby_history_get_visit_stats (history, "https://a.example/x", &count, &last));
  g_assert_cmpuint (count, ==, 0);

  record_visit (history, "https://A.example/x", 1000);
  g_assert_cmpuint (changed, ==, NEARBY_HISTORY_DATA_VISITS);

  /* Private to the user, log included. */
  {
    g_autofree char *wal = g_strconcat (temp.path, "-wal", NULL);
    GStatBuf buf;

    g_assert_cmpint (g_stat (temp.path, &buf), ==, 0);
    g_assert_cmpint (buf.st_mode & 0077, ==, 0);
    g_assert_cmpint (g_stat (wal, &buf), ==, 0);
    g_assert_cmpint (buf.st_mode & 0077, ==, 0);
  }
  record_visit (history, "https://b.example/", 2000);
  record_visit (history, "https://A.example/x", 3000);
  /* A late report of an old visit does not move the latest time back. */
  record_visit (history, "https://b.example/", 500);

  g_assert_true (nearby_history_get_visit_stats (history, "https://A.example/x", &count, &last));
  g_assert_cmpuint (count, ==, 2);
  g_assert_cmpint (last, ==, 3000);

  visits = list_visits (history, 0);
  g_assert_cmpuint (visits->len, ==, 2);
  visit = g_ptr_array_index (visits, 0);
  g_assert_cmpstr (visit->url, ==, "https://A.example/x");
  g_assert_cmpstr (visit->host, ==, "a.example");
  g_assert_cmpuint (visit->count, ==, 2);
  g_assert_cmpint (visit->first_visit_us, ==, 1000);
  g_assert_cmpint (visit->last_visit_us, ==, 3000);
  visit = g_ptr_array_index (visits, 1);
  g_assert_cmpstr (visit->url, ==, "https://b.example/");
  g_assert_cmpuint (visit->count, ==, 2);
  g_assert_cmpint (visit->first_visit_us, ==, 500);
  g_assert_cmpint (visit->last_visit_us, ==, 2000);

  latest = list_visits (history, 1);
  g_assert_cmpuint (latest->len, ==, 1);

  /* Nothing that is not a web address gets in. */
  g_assert_false (try_record_visit (history, "not an address", 0, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (try_record_visit (history, "", 0, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (try_record_visit (history, "https://bad.example/\xff\xfe", 0, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  {
    g_autofree char *padding = g_strnfill (100000, 'a');
    g_autofree char *huge = g_strconcat ("https://huge.example/", padding, NULL);

    g_assert_false (try_record_visit (history, huge, 0, &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
    g_clear_error (&error);
  }
  g_clear_pointer (&visits, g_ptr_array_unref);
  visits = list_visits (history, 0);
  g_assert_cmpuint (visits->len, ==, 2);

  close_history (history);

  /* Everything comes back, and the ranking figures are ready as soon as it is open. */
  history = open_history (temp.path);
  g_assert_true (nearby_history_get_visit_stats (history, "https://A.example/x", &count, &last));
  g_assert_cmpuint (count, ==, 2);
  g_assert_cmpint (last, ==, 3000);
  g_clear_pointer (&visits, g_ptr_array_unref);
  visits = list_visits (history, 0);
  g_assert_cmpuint (visits->len, ==, 2);
  close_history (history);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/history/visits", test_visits);

  return g_test_run ();
}
