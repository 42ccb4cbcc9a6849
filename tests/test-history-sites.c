/* test-history-sites.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "history-test-utils.h"

/* Favourites and hidden sites */

static void
test_favourites (void)
{
  g_auto(TempHistory) temp = { 0 };
  g_auto(GStrv) list = NULL;
  NearbyHistory *history;
  guint changed = 0;

  temp_history_init (&temp);
  history = open_history (temp.path);
  collect_changes (history, &changed);

  run_key_job (history, nearby_history_add_favourite_async, nearby_history_add_favourite_finish,
               "https://x.example/");
  g_assert_cmpuint (changed, ==, NEARBY_HISTORY_DATA_FAVOURITES);
  run_key_job (history, nearby_history_add_favourite_async, nearby_history_add_favourite_finish,
               "https://y.example/");
  /* Already a favourite: nothing changed, nothing to redraw. */
  changed = 0;
  run_key_job (history, nearby_history_add_favourite_async, nearby_history_add_favourite_finish,
               "https://x.example/");
  g_assert_cmpuint (changed, ==, 0);
  g_assert_true (nearby_history_is_favourite (history, "https://x.example/"));
  g_assert_false (nearby_history_is_favourite (history, "https://z.example/"));

  list = run_list_job (history, nearby_history_list_favourites_async,
                       nearby_history_list_favourites_finish);
  g_assert_cmpuint (g_strv_length (list), ==, 2);
  g_assert_true (g_strv_contains ((const char * const *) list, "https://x.example/"));
  g_assert_true (g_strv_contains ((const char * const *) list, "https://y.example/"));

  run_key_job (history, nearby_history_remove_favourite_async,
               nearby_history_remove_favourite_finish, "https://x.example/");
  g_assert_false (nearby_history_is_favourite (history, "https://x.example/"));
  g_assert_cmpuint (changed, ==, NEARBY_HISTORY_DATA_FAVOURITES);
  g_clear_pointer (&list, g_strfreev);
  list = run_list_job (history, nearby_history_list_favourites_async,
                       nearby_history_list_favourites_finish);
  g_assert_cmpuint (g_strv_length (list), ==, 1);
  g_assert_cmpstr (list[0], ==, "https://y.example/");

  close_history (history);

  history = open_history (temp.path);
  g_assert_true (nearby_history_is_favourite (history, "https://y.example/"));
  g_assert_false (nearby_history_is_favourite (history, "https://x.example/"));
  close_history (history);
}

static void
test_hidden_sites (void)
{
  g_auto(TempHistory) temp = { 0 };
  g_auto(GStrv) list = NULL;
  NearbyHistory *history;
  guint changed = 0;

  temp_history_init (&temp);
  history = open_history (temp.path);
  collect_changes (history, &changed);

  run_key_job (history, nearby_history_hide_site_async, nearby_history_hide_site_finish,
               "Tracker.Example");
  g_assert_cmpuint (changed, ==, NEARBY_HISTORY_DATA_HIDDEN_SITES);
  g_assert_true (nearby_history_is_site_hidden (history, "tracker.example"));
  g_assert_true (nearby_history_is_site_hidden (history, "TRACKER.example"));
  g_assert_false (nearby_history_is_site_hidden (history, "example"));
  /* Already hidden, in other letters: nothing changed, nothing to redraw. */
  changed = 0;
  run_key_job (history, nearby_history_hide_site_async, nearby_history_hide_site_finish,
               "tracker.EXAMPLE");
  g_assert_cmpuint (changed, ==, 0);
  /* Not hidden: showing it again changes nothing either. */
  run_key_job (history, nearby_history_show_site_async, nearby_history_show_site_finish,
               "never-hidden.example");
  g_assert_cmpuint (changed, ==, 0);

  /* Show again, then undo that. */
  changed = 0;
  run_key_job (history, nearby_history_show_site_async, nearby_history_show_site_finish,
               "tracker.example");
  g_assert_false (nearby_history_is_site_hidden (history, "tracker.example"));
  g_assert_cmpuint (changed, ==, NEARBY_HISTORY_DATA_HIDDEN_SITES);
  list = run_list_job (history, nearby_history_list_hidden_sites_async,
                       nearby_history_list_hidden_sites_finish);
  g_assert_cmpuint (g_strv_length (list), ==, 0);

  run_key_job (history, nearby_history_hide_site_async, nearby_history_hide_site_finish,
               "tracker.example");
  g_assert_true (nearby_history_is_site_hidden (history, "tracker.example"));

  /* Hide, then undo the hiding. */
  run_key_job (history, nearby_history_hide_site_async, nearby_history_hide_site_finish,
               "spam.example");
  run_key_job (history, nearby_history_show_site_async, nearby_history_show_site_finish,
               "spam.example");
  g_assert_false (nearby_history_is_site_hidden (history, "spam.example"));

  g_clear_pointer (&list, g_strfreev);
  list = run_list_job (history, nearby_history_list_hidden_sites_async,
                       nearby_history_list_hidden_sites_finish);
  g_assert_cmpuint (g_strv_length (list), ==, 1);
  g_assert_cmpstr (list[0], ==, "tracker.example");

  close_history (history);

  history = open_history (temp.path);
  g_assert_true (nearby_history_is_site_hidden (history, "tracker.example"));
  g_assert_false (nearby_history_is_site_hidden (history, "spam.example"));
  close_history (history);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/history/favourites", test_favourites);
  g_test_add_func ("/history/hidden-sites", test_hidden_sites);

  return g_test_run ();
}
