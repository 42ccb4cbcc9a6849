/* test-page-cache.c: both page caches, the process's and the history's, through the one
 * interface the resolver and the page loader use
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "nearby-history.h"
#include "nearby-memory-page-cache.h"
#include "nearby-test-utils.h"

static const char page_json[] = "{\"url\":\"https://kiosk.example/\",\"title\":\"Café Kiosk\"}";

/* The first bytes of a PNG file: what matters is that they come back as they went in. */
static const guint8 icon_data[] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0xff };

typedef struct {
  const char        *name;
  NearbyPageCache *(*cache_new) (void);
} CacheKind;

typedef struct {
  NearbyPageCache *cache;
} Fixture;

static NearbyPageCache *
new_memory_cache (void)
{
  return nearby_memory_page_cache_new ();
}

static NearbyPageCache *
new_history_cache (void)
{
  g_autoptr(NearbyHistory) history = nearby_history_new (":memory:");
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  NearbyTestWaiter waiter = { 0 };

  nearby_history_open_async (history, NULL, nearby_test_on_result, &waiter);
  result = nearby_test_wait_result (&waiter);
  g_assert_true (nearby_history_open_finish (history, result, &error));
  g_assert_no_error (error);

  return NEARBY_PAGE_CACHE (g_steal_pointer (&history));
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  const CacheKind *kind = data;

  fixture->cache = kind->cache_new ();
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  g_assert_finalize_object (fixture->cache);
}

static gint64
in_an_hour (void)
{
  return g_get_real_time () + G_TIME_SPAN_HOUR;
}

static void
test_missing (Fixture       *fixture,
              gconstpointer  data)
{
  g_autoptr(NearbyCacheEntry) other = nearby_cache_entry_new (page_json, NULL, NULL,
                                                              in_an_hour ());

  /* Nothing known yet: the resolver goes to the network, without an error. */
  g_assert_null (nearby_test_cache_lookup (fixture->cache, "https://kiosk.example/"));

  /* Another page does not answer for it. */
  nearby_test_cache_store (fixture->cache, "https://other.example/", other);
  g_assert_null (nearby_test_cache_lookup (fixture->cache, "https://kiosk.example/"));
  g_assert_null (nearby_test_cache_lookup (fixture->cache, "https://kiosk.example/other"));
}

static void
test_store_lookup (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(NearbyCacheEntry) entry = NULL;
  g_autoptr(NearbyCacheEntry) found = NULL;
  gint64 before = g_get_real_time ();
  gint64 expires_at_us = in_an_hour ();

  entry = nearby_cache_entry_new (page_json, NULL, NULL, expires_at_us);
  nearby_test_cache_store (fixture->cache, "https://kiosk.example/", entry);

  /* The cache keeps its own copy: what the caller does with its entry afterwards is its own
   * business. */
  g_clear_pointer (&entry->page_json, g_free);
  entry->page_json = g_strdup ("{}");

  found = nearby_test_cache_lookup (fixture->cache, "https://kiosk.example/");
  g_assert_nonnull (found);
  g_assert_cmpstr (found->page_json, ==, page_json);
  g_assert_null (found->icon);
  g_assert_null (found->icon_type);
  g_assert_cmpint (found->expires_at_us, ==, expires_at_us);
  g_assert_cmpint (found->fetched_at_us, >=, before);
  g_assert_cmpint (found->fetched_at_us, <=, g_get_real_time ());
}

static void
test_icon (Fixture       *fixture,
           gconstpointer  data)
{
  g_autoptr(GBytes) icon = g_bytes_new_static (icon_data, sizeof icon_data);
  g_autoptr(NearbyCacheEntry) entry = nearby_cache_entry_new (page_json, icon, "image/png",
                                                              in_an_hour ());
  g_autoptr(NearbyCacheEntry) found = NULL;

  nearby_test_cache_store (fixture->cache, "https://kiosk.example/", entry);
  found = nearby_test_cache_lookup (fixture->cache, "https://kiosk.example/");

  /* The row shows the same icon, every byte of it, the NUL and 0xff included. */
  g_assert_nonnull (found);
  g_assert_nonnull (found->icon);
  g_assert_true (g_bytes_equal (found->icon, icon));
  g_assert_cmpstr (found->icon_type, ==, "image/png");
}

static void
test_replace (Fixture       *fixture,
              gconstpointer  data)
{
  g_autoptr(GBytes) icon = g_bytes_new_static (icon_data, sizeof icon_data);
  g_autoptr(NearbyCacheEntry) first = nearby_cache_entry_new (page_json, icon, "image/png",
                                                              in_an_hour ());
  g_autoptr(NearbyCacheEntry) second = nearby_cache_entry_new ("{\"title\":\"New\"}", NULL, NULL,
                                                               in_an_hour ());
  g_autoptr(NearbyCacheEntry) found = NULL;

  /* A page that changed, and lost its icon, shows as it is now. */
  nearby_test_cache_store (fixture->cache, "https://kiosk.example/", first);
  nearby_test_cache_store (fixture->cache, "https://kiosk.example/", second);
  found = nearby_test_cache_lookup (fixture->cache, "https://kiosk.example/");
  g_assert_nonnull (found);
  g_assert_cmpstr (found->page_json, ==, "{\"title\":\"New\"}");
  g_assert_null (found->icon);
  g_assert_null (found->icon_type);
}

static void
test_expiry (Fixture       *fixture,
             gconstpointer  data)
{
  g_autoptr(GBytes) icon = g_bytes_new_static (icon_data, sizeof icon_data);
  g_autoptr(NearbyCacheEntry) stale = nearby_cache_entry_new (page_json, icon, "image/png",
                                                              g_get_real_time () - 1);
  g_autoptr(NearbyCacheEntry) fresh = NULL;
  g_autoptr(NearbyCacheEntry) found = NULL;

  /* A page past its time is not shown, by either cache: the page loader puts what a look-up
   * returns in the row as it is. */
  nearby_test_cache_store (fixture->cache, "https://kiosk.example/", stale);
  g_assert_null (nearby_test_cache_lookup (fixture->cache, "https://kiosk.example/"));

  /* Fetched again, it is there again. */
  fresh = nearby_cache_entry_new (page_json, icon, "image/png", in_an_hour ());
  nearby_test_cache_store (fixture->cache, "https://kiosk.example/", fresh);
  found = nearby_test_cache_lookup (fixture->cache, "https://kiosk.example/");
  g_assert_nonnull (found);
  g_assert_cmpstr (found->page_json, ==, page_json);
}

static void
test_entry_copy (void)
{
  g_autoptr(GBytes) icon = g_bytes_new_static (icon_data, sizeof icon_data);
  g_autoptr(NearbyCacheEntry) entry = nearby_cache_entry_new (page_json, icon, "image/png", 42);
  g_autoptr(NearbyCacheEntry) copy = NULL;

  entry->fetched_at_us = 7;
  copy = nearby_cache_entry_copy (entry);
  g_clear_pointer (&entry, nearby_cache_entry_free);

  g_assert_cmpstr (copy->page_json, ==, page_json);
  g_assert_true (g_bytes_equal (copy->icon, icon));
  g_assert_cmpstr (copy->icon_type, ==, "image/png");
  g_assert_cmpint (copy->expires_at_us, ==, 42);
  g_assert_cmpint (copy->fetched_at_us, ==, 7);
  g_assert_true (G_TYPE_IS_BOXED (NEARBY_TYPE_CACHE_ENTRY));
}

int
main (int   argc,
      char *argv[])
{
  static const CacheKind caches[] = {
    { "memory", new_memory_cache },
    { "history", new_history_cache },
  };

  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/page-cache/entry-copy", test_entry_copy);

  for (guint i = 0; i < G_N_ELEMENTS (caches); i++)
    {
      const CacheKind *data = &caches[i];
      g_autofree char *missing = g_strdup_printf ("/page-cache/%s/missing", caches[i].name);
      g_autofree char *store_lookup = g_strdup_printf ("/page-cache/%s/store-lookup",
                                                       caches[i].name);
      g_autofree char *icon = g_strdup_printf ("/page-cache/%s/icon", caches[i].name);
      g_autofree char *replace = g_strdup_printf ("/page-cache/%s/replace", caches[i].name);
      g_autofree char *expiry = g_strdup_printf ("/page-cache/%s/expiry", caches[i].name);

      g_test_add (missing, Fixture, data, fixture_set_up, test_missing, fixture_tear_down);
      g_test_add (store_lookup, Fixture, data, fixture_set_up, test_store_lookup,
                  fixture_tear_down);
      g_test_add (icon, Fixture, data, fixture_set_up, test_icon, fixture_tear_down);
      g_test_add (replace, Fixture, data, fixture_set_up, test_replace, fixture_tear_down);
      g_test_add (expiry, Fixture, data, fixture_set_up, test_expiry, fixture_tear_down);
    }

  return g_test_run ();
}
