/* bench-history.c: how long the history takes for typical amounts of data
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   meson test -C _build --benchmark bench-history --verbose
 */

#include "config.h"

#include <glib/gstdio.h>

#include "bench-util.h"
#include "nearby-history.h"

#define N_VISITS 10000
#define N_CACHE_ENTRIES 1000

static void
report (const char *what,
        gint64      start_us,
        guint       count)
{
  double ms = (g_get_monotonic_time () - start_us) / 1000.0;

  if (count > 1)
    g_print ("%-40s %8.1f ms  (%.3f ms each)\n", what, ms, ms / count);
  else
    g_print ("%-40s %8.1f ms\n", what, ms);
}

static NearbyHistory *
open_history (const char *path)
{
  NearbyHistory *history = nearby_history_new (path);
  BenchCalls calls = { 0 };

  calls.pending++;
  nearby_history_open_async (history, NULL, bench_calls_done, &calls);
  bench_calls_wait (&calls);

  return history;
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *dir = g_dir_make_tmp ("nearby-bench-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "history.db", NULL);
  g_autofree char *page_json = g_strnfill (2000, 'j');
  g_autoptr(GBytes) icon = g_bytes_new_take (g_malloc0 (8000), 8000);
  gint64 tomorrow = g_get_real_time () + G_TIME_SPAN_DAY;
  g_autoptr(NearbyCacheEntry) entry = nearby_cache_entry_new (page_json, icon, "image/png",
                                                              tomorrow);
  NearbyHistory *history;
  BenchCalls calls = { 0 };
  GStatBuf buf;
  gint64 start;

  start = g_get_monotonic_time ();
  history = open_history (path);
  report ("open (new file)", start, 1);

  start = g_get_monotonic_time ();
  for (guint i = 0; i < N_VISITS; i++)
    {
      g_autofree char *url = g_strdup_printf ("https://site%u.example/page/%u", i, i);

      calls.pending++;
      nearby_history_record_visit_async (history, url, 0, NULL, bench_calls_done, &calls);
    }
  bench_calls_wait (&calls);
  report ("record 10000 visits", start, N_VISITS);

  start = g_get_monotonic_time ();
  for (guint i = 0; i < N_CACHE_ENTRIES; i++)
    {
      g_autofree char *url = g_strdup_printf ("https://site%u.example/page/%u", i, i);

      calls.pending++;
      nearby_history_cache_store_async (history, url, entry, NULL, bench_calls_done, &calls);
    }
  bench_calls_wait (&calls);
  report ("store 1000 pages with icons (10 KB)", start, N_CACHE_ENTRIES);

  nearby_history_set_cache_limit (history, N_CACHE_ENTRIES * 10000 / 2);
  start = g_get_monotonic_time ();
  for (guint i = 0; i < N_CACHE_ENTRIES / 10; i++)
    {
      g_autofree char *url = g_strdup_printf ("https://more%u.example/", i);

      calls.pending++;
      nearby_history_cache_store_async (history, url, entry, NULL, bench_calls_done, &calls);
    }
  bench_calls_wait (&calls);
  report ("store 100 more, each pruning to a cap", start, N_CACHE_ENTRIES / 10);

  start = g_get_monotonic_time ();
  g_object_unref (history);
  report ("close", start, 1);

  start = g_get_monotonic_time ();
  history = open_history (path);
  report ("open (10000 visits, cache)", start, 1);

  start = g_get_monotonic_time ();
  calls.pending++;
  nearby_history_clear_async (history, NEARBY_HISTORY_DATA_ALL, NULL, bench_calls_done, &calls);
  bench_calls_wait (&calls);
  report ("clear everything", start, 1);
  g_object_unref (history);

  if (g_stat (path, &buf) == 0)
    g_print ("%-40s %8ld bytes\n", "file size after clearing", (long) buf.st_size);

  g_unlink (path);
  g_rmdir (dir);

  return 0;
}
