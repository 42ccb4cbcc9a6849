/* test-demo.c: the made-up street scene a newcomer sees without beacons
 *
 * The demo is a source like the scanner, with its pages served on 127.0.0.1: every object it
 * shows must be heard, and every page must resolve as a real one would, title, icon and the web
 * app's actions included.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "nearby-demo.h"
#include "nearby-memory-page-cache.h"
#include "nearby-resolver.h"
#include "nearby-test-utils.h"

static const struct {
  const char *name;
  const char *title;
} scene[] = {
  { "bus-stop", "Stop 14 · Market Street" },
  { "parking", "Parking Meter B-2031" },
  { "cafe", "Bluebird Café" },
  { "museum", "The Antikythera Mechanism · Gallery 3" },
  { "vending", "Snack Machine · Level 2" },
};

typedef struct {
  GHashTable *urls;        /* URL -> address that sent it */
  GHashTable *kinds;       /* frame kind names heard */
} Heard;

static void
on_sighting (NearbySource         *source,
             const NearbySighting *sighting,
             Heard                *heard)
{
  g_assert_cmpint (sighting->frame.error, ==, NEARBY_FRAME_OK);
  g_hash_table_add (heard->kinds, (gpointer) nearby_frame_kind_to_string (sighting->frame.kind));
  if (sighting->frame.kind == NEARBY_FRAME_KIND_URL)
    g_hash_table_replace (heard->urls, g_strdup (sighting->frame.url),
                          g_strdup (sighting->address));
}

static void
on_resolved (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static NearbyPage *
resolve (const char *url)
{
  g_autoptr(NearbyResolver) resolver = nearby_resolver_new ();
  g_autoptr(NearbyPageCache) cache = nearby_memory_page_cache_new ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  NearbyPage *page;

  nearby_resolver_set_cache (resolver, cache);
  nearby_resolver_resolve_async (resolver, url, NEARBY_URL_POLICY_EXPLICIT,
                                 NEARBY_RESOLVE_FLAGS_REFRESH, 0, NULL, on_resolved, &result);
  WAIT_UNTIL (result != NULL);
  page = nearby_resolver_resolve_finish (resolver, result, &error);
  g_assert_no_error (error);

  return page;
}

/* Every object of the scene is heard, each from an address of its own, with the beacon kinds a
 * developer would see in Details. */
static void
test_scene_is_heard (void)
{
  g_autoptr(NearbyDemo) demo = nearby_demo_new ();
  g_autoptr(GError) error = NULL;
  Heard heard = {
    g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free),
    g_hash_table_new (g_str_hash, g_str_equal),
  };
  const char *base_url;

  g_assert_null (nearby_demo_get_base_url (demo));
  g_assert_cmpint (nearby_source_get_state (NEARBY_SOURCE (demo)), ==,
                   NEARBY_SOURCE_STATE_STARTING);

  g_signal_connect (demo, "sighting", G_CALLBACK (on_sighting), &heard);
  g_assert_true (nearby_demo_start (demo, &error));
  g_assert_no_error (error);
  g_assert_cmpint (nearby_source_get_state (NEARBY_SOURCE (demo)), ==,
                   NEARBY_SOURCE_STATE_SCANNING);
  base_url = nearby_demo_get_base_url (demo);
  g_assert_true (g_str_has_prefix (base_url, "http://127.0.0.1:"));

  /* The slowest beacon sends its TLM frame every fifth advert, half a second apart. */
  WAIT_UNTIL (g_hash_table_size (heard.urls) == G_N_ELEMENTS (scene)
              && g_hash_table_contains (heard.kinds, "tlm")
              && g_hash_table_contains (heard.kinds, "uid"));

  for (guint i = 0; i < G_N_ELEMENTS (scene); i++)
    {
      g_autofree char *url = g_strdup_printf ("%s%s/", base_url, scene[i].name);

      g_assert_true (g_hash_table_contains (heard.urls, url));
    }

  g_hash_table_unref (heard.urls);
  g_hash_table_unref (heard.kinds);
}

/* Each object's page resolves: its title, its icon, and the actions its web app offers. */
static void
test_pages_resolve (void)
{
  g_autoptr(NearbyDemo) demo = nearby_demo_new ();
  g_autoptr(GError) error = NULL;

  g_assert_true (nearby_demo_start (demo, &error));
  g_assert_no_error (error);

  for (guint i = 0; i < G_N_ELEMENTS (scene); i++)
    {
      g_autofree char *url = g_strdup_printf ("%s%s/", nearby_demo_get_base_url (demo),
                                              scene[i].name);
      g_autoptr(NearbyPage) page = resolve (url);

      g_test_message ("%s: %s", url, page->title);
      g_assert_null (page->error);
      g_assert_cmpuint (page->status, ==, 200);
      g_assert_cmpstr (page->title, ==, scene[i].title);
      g_assert_nonnull (page->description);
      g_assert_nonnull (page->icon);
      g_assert_cmpuint (page->actions->len, >=, 2);
    }
}

/* A page the scene does not have is a 404, and the demo's server goes with the demo. */
static void
test_unknown_page_and_stop (void)
{
  NearbyDemo *demo = nearby_demo_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *missing = NULL;
  g_autofree char *home = NULL;

  g_assert_true (nearby_demo_start (demo, &error));
  missing = g_strconcat (nearby_demo_get_base_url (demo), "no-such-object/", NULL);
  home = g_strconcat (nearby_demo_get_base_url (demo), "cafe/", NULL);

  {
    g_autoptr(NearbyPage) page = resolve (missing);

    g_assert_error (page->error, NEARBY_RESOLVE_ERROR, NEARBY_RESOLVE_ERROR_HIDDEN);
  }

  g_assert_finalize_object (demo);

  {
    g_autoptr(NearbyPage) page = resolve (home);

    g_assert_error (page->error, NEARBY_RESOLVE_ERROR, NEARBY_RESOLVE_ERROR_NETWORK);
  }
}

/* The demo's objects stand for a street: rows show the hosts such objects would have, and only
 * for the demo's own pages. */
static void
test_display_hosts (void)
{
  g_autoptr(NearbyDemo) demo = nearby_demo_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *cafe = NULL;
  g_autofree char *cafe_page = NULL;
  g_autofree char *host = NULL;
  g_autofree char *page_host = NULL;
  g_autofree char *other = NULL;

  g_assert_null (nearby_source_dup_display_host (NEARBY_SOURCE (demo), "http://127.0.0.1:1/cafe/"));
  g_assert_true (nearby_demo_start (demo, &error));
  cafe = g_strconcat (nearby_demo_get_base_url (demo), "cafe/", NULL);
  cafe_page = g_strconcat (nearby_demo_get_base_url (demo), "cafe/order.html", NULL);

  host = nearby_source_dup_display_host (NEARBY_SOURCE (demo), cafe);
  g_assert_cmpstr (host, ==, "bluebird-cafe.example");
  page_host = nearby_source_dup_display_host (NEARBY_SOURCE (demo), cafe_page);
  g_assert_cmpstr (page_host, ==, "bluebird-cafe.example");
  other = g_strconcat (nearby_demo_get_base_url (demo), "cafeteria/", NULL);
  g_assert_null (nearby_source_dup_display_host (NEARBY_SOURCE (demo), other));
  g_assert_null (nearby_source_dup_display_host (NEARBY_SOURCE (demo), "https://example.com/cafe/"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/demo/scene-is-heard", test_scene_is_heard);
  g_test_add_func ("/demo/pages-resolve", test_pages_resolve);
  g_test_add_func ("/demo/unknown-page-and-stop", test_unknown_page_and_stop);
  g_test_add_func ("/demo/display-hosts", test_display_hosts);

  return g_test_run ();
}
