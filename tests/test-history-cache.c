/* test-history-cache.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "history-test-utils.h"

/* Helpers */

static void
cache_prune (NearbyHistory *history)
{
  g_autoptr(GError) error = NULL;
  NearbyTestWaiter waiter = { 0 };
  g_autoptr(GAsyncResult) result = NULL;

  nearby_history_cache_prune_async (history, NULL, nearby_test_on_result, &waiter);
  result = nearby_test_wait_result (&waiter);
  g_assert_true (nearby_history_cache_prune_finish (history, result, &error));
  g_assert_no_error (error);
}

/* Page cache */

static void
test_cache (void)
{
  g_auto(TempHistory) temp = { 0 };
  g_autoptr(GBytes) icon = g_bytes_new_static ("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16);
  g_autoptr(NearbyCacheEntry) entry = NULL;
  g_autoptr(NearbyCacheEntry) copy = NULL;
  gint64 before = g_get_real_time ();
  gint64 tomorrow = before + G_TIME_SPAN_DAY;
  NearbyHistory *history;

  temp_history_init (&temp);
  history = open_history (temp.path);

  g_assert_null (cache_lookup (history, "https://page.example/"));

  cache_store (history, "https://page.example/", "{\"title\":\"Café\"}", icon, "image/png",
               tomorrow);
  entry = cache_lookup (history, "https://page.example/");
  g_assert_nonnull (entry);
  g_assert_cmpstr (entry->page_json, ==, "{\"title\":\"Café\"}");
  g_assert_nonnull (entry->icon);
  g_assert_true (g_bytes_equal (entry->icon, icon));
  g_assert_cmpstr (entry->icon_type, ==, "image/png");
  g_assert_cmpint (entry->expires_at_us, ==, tomorrow);
  g_assert_cmpint (entry->fetched_at_us, >=, before);
  g_assert_cmpint (entry->fetched_at_us, <=, g_get_real_time ());

  copy = nearby_cache_entry_copy (entry);
  g_assert_true (g_bytes_equal (copy->icon, icon));
  g_clear_pointer (&entry, nearby_cache_entry_free);

  /* Storing again replaces; an entry without an icon has none. */
  cache_store (history, "https://page.example/", "{\"title\":\"New\"}", NULL, NULL, tomorrow);
  entry = cache_lookup (history, "https://page.example/");
  g_assert_cmpstr (entry->page_json, ==, "{\"title\":\"New\"}");
  g_assert_null (entry->icon);
  g_assert_null (entry->icon_type);
  g_clear_pointer (&entry, nearby_cache_entry_free);

  /* Nothing unusable gets in, and what was there stays. */
  {
    g_autoptr(NearbyCacheEntry) broken = nearby_cache_entry_new ("{\"t\":\"\xc3\"}", NULL, NULL,
                                                                 tomorrow);
    g_autoptr(GError) error = NULL;
    NearbyTestWaiter waiter = { 0 };
    g_autoptr(GAsyncResult) result = NULL;

    nearby_history_cache_store_async (history, "https://page.example/", broken, NULL, nearby_test_on_result,
                                      &waiter);
    result = nearby_test_wait_result (&waiter);
    g_assert_false (nearby_history_cache_store_finish (history, result, &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  }
  entry = cache_lookup (history, "https://page.example/");
  g_assert_cmpstr (entry->page_json, ==, "{\"title\":\"New\"}");
  g_clear_pointer (&entry, nearby_cache_entry_free);

  /* Expired is absent. */
  cache_store (history, "https://stale.example/", "{}", icon, "image/png", before - 1);
  g_assert_null (cache_lookup (history, "https://stale.example/"));

  close_history (history);

  history = open_history (temp.path);
  entry = cache_lookup (history, "https://page.example/");
  g_assert_nonnull (entry);
  g_assert_cmpstr (entry->page_json, ==, "{\"title\":\"New\"}");
  close_history (history);
}

/* Of the five pages https://p0.example/ to https://p4.example/, those from @first on are
 * cached and those before are gone. */
static void
assert_cached_from (NearbyHistory *history,
                    guint          first)
{
  for (guint i = 0; i < 5; i++)
    {
      g_autofree char *url = g_strdup_printf ("https://p%u.example/", i);
      g_autoptr(NearbyCacheEntry) entry = cache_lookup (history, url);

      if (i < first)
        g_assert_null (entry);
      else
        g_assert_nonnull (entry);
    }
}

static void
test_cache_prune (void)
{
  g_auto(TempHistory) temp = { 0 };
  g_autofree char *kilobyte = g_strnfill (1000, 'k');
  gint64 tomorrow = g_get_real_time () + G_TIME_SPAN_DAY;
  NearbyHistory *history;
  sqlite3 *db;

  temp_history_init (&temp);
  history = open_history (temp.path);
  g_assert_cmpint (nearby_history_get_cache_limit (history), ==,
                   NEARBY_HISTORY_DEFAULT_CACHE_LIMIT);
  nearby_history_set_cache_limit (history, 3000);

  for (guint i = 0; i < 5; i++)
    {
      g_autofree char *url = g_strdup_printf ("https://p%u.example/", i);

      cache_store (history, url, kilobyte, NULL, NULL, tomorrow);
    }

  /* The oldest went first, the three newest fit. */
  assert_cached_from (history, 2);

  nearby_history_set_cache_limit (history, 1000);
  cache_prune (history);
  assert_cached_from (history, 4);

  /* Expired rows are removed from the file, not only hidden. */
  nearby_history_set_cache_limit (history, NEARBY_HISTORY_DEFAULT_CACHE_LIMIT);
  cache_store (history, "https://expired.example/", "{}", NULL, NULL, g_get_real_time () - 1);
  cache_prune (history);
  close_history (history);

  db = raw_open (temp.path);
  g_assert_cmpint (raw_query_int (db, "SELECT count(*) FROM page_cache"), ==, 1);
  g_assert_cmpint (raw_query_int (db, "SELECT count(*) FROM page_cache"
                                      " WHERE url = 'https://p4.example/'"), ==, 1);
  sqlite3_close (db);
}

static void
on_stored (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  guint *stored = user_data;
  g_autoptr(GError) error = NULL;

  g_assert_true (nearby_history_cache_store_finish (NEARBY_HISTORY (source), result, &error));
  g_assert_no_error (error);
  (*stored)++;
}

/* A batch of pages resolved at once: their entries, asked for without waiting (and written
 * together), are all there, the later of two for one address wins, the size limit holds, and
 * a look-up asked for after them sees them. */
static void
test_cache_many_at_once (void)
{
  g_auto(TempHistory) temp = { 0 };
  g_autofree char *kilobyte = g_strnfill (1000, 'k');
  gint64 tomorrow = g_get_real_time () + G_TIME_SPAN_DAY;
  g_autoptr(NearbyCacheEntry) twice = NULL;
  NearbyHistory *history;
  guint stored = 0;

  temp_history_init (&temp);
  history = open_history (temp.path);
  nearby_history_set_cache_limit (history, 30 * 1024);

  for (guint i = 0; i < 40; i++)
    {
      g_autofree char *url = g_strdup_printf ("https://p%u.example/", i);
      g_autoptr(NearbyCacheEntry) entry = nearby_cache_entry_new (kilobyte, NULL, NULL, tomorrow);

      nearby_history_cache_store_async (history, url, entry, NULL, on_stored, &stored);
    }
  {
    g_autoptr(NearbyCacheEntry) entry = nearby_cache_entry_new ("{\"title\":\"Again\"}", NULL,
                                                                NULL, tomorrow);

    nearby_history_cache_store_async (history, "https://p39.example/", entry, NULL, on_stored,
                                      &stored);
  }
  twice = cache_lookup (history, "https://p39.example/");
  g_assert_cmpuint (stored, ==, 41);
  g_assert_nonnull (twice);
  g_assert_cmpstr (twice->page_json, ==, "{\"title\":\"Again\"}");

  /* About 1 kB each: the newest that fit in 30 KiB are kept, the first ones are not. */
  for (guint i = 0; i < 40; i++)
    {
      g_autofree char *url = g_strdup_printf ("https://p%u.example/", i);
      g_autoptr(NearbyCacheEntry) entry = cache_lookup (history, url);

      if (i < 9)
        g_assert_null (entry);
      else if (i >= 12)
        g_assert_nonnull (entry);
    }
  close_history (history);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/history/cache/store-lookup-expiry", test_cache);
  g_test_add_func ("/history/cache/prune", test_cache_prune);
  g_test_add_func ("/history/cache/many-at-once", test_cache_many_at_once);

  return g_test_run ();
}
