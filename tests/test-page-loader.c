/* test-page-loader.c: what is looked up, and when, as the user allowed (a local server counts
 * every request, so "nothing was fetched" is checked where it happens)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <libsoup/soup.h>
#include <string.h>

#include "nearby-memory-page-cache.h"
#include "nearby-page-loader.h"
#include "nearby-test-utils.h"

static SoupServer *server;
static guint port;
static guint requests;

static const char page_html[] =
  "<!DOCTYPE html><html><head><title>Alpha Kiosk</title>"
  "<meta name=description content='Tickets and maps'></head><body></body></html>";

static void
server_callback (SoupServer        *soup_server,
                 SoupServerMessage *msg,
                 const char        *path,
                 GHashTable        *query,
                 gpointer           user_data)
{
  /* Every request counts, the favicon's too: any of them tells the server someone is here. */
  requests++;
  if (g_str_has_prefix (path, "/a"))
    nearby_test_respond_html (msg, page_html);
  else
    nearby_test_respond (msg, 404, NULL, NULL, 0);
}

typedef struct {
  NearbyObjectList *list;
  NearbyResolver   *resolver;
  NearbyPageCache  *cache;
  NearbyPageLoader *loader;
  char             *url;
} Fixture;

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  static guint n;

  requests = 0;
  fixture->list = nearby_object_list_new (NULL);
  fixture->resolver = nearby_resolver_new ();
  fixture->cache = nearby_memory_page_cache_new ();
  fixture->loader = nearby_page_loader_new (fixture->list, fixture->resolver, fixture->cache);
  /* A URL of each test's own, so that the resolver's sharing of identical look-ups and the
   * cache never carry one test into the next. */
  fixture->url = g_strdup_printf ("http://127.0.0.1:%u/a%u", port, n++);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  g_clear_object (&fixture->loader);
  g_clear_object (&fixture->cache);
  g_clear_object (&fixture->resolver);
  g_clear_object (&fixture->list);
  g_free (fixture->url);
}

static NearbyObject *
see_beacon (Fixture *fixture)
{
  g_autoptr(NearbySighting) sighting = NULL;
  NearbyFrame frame = nearby_test_url_frame (fixture->url, -20);

  sighting = nearby_sighting_new ("C0:FF:EE:00:00:01", g_get_real_time (), -60, &frame, NULL, 0);

  nearby_object_list_add_sighting (fixture->list, sighting);
  nearby_object_list_flush (fixture->list);

  return nearby_object_list_get_object_by_key (fixture->list, fixture->url);
}

static void
wait_for_title (NearbyObject *object)
{
  WAIT_UNTIL (nearby_object_get_title (object) != NULL);
}

static void
wait_for_page (NearbyObject *object)
{
  WAIT_UNTIL (nearby_object_get_page (object) != NULL);
}

/* Runs the main loop for a while, so that anything that was going to be fetched would be. */
static void
let_time_pass (void)
{
  gint64 until = g_get_monotonic_time () + 400 * G_TIME_SPAN_MILLISECOND;

  while (g_get_monotonic_time () < until)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
}

static void
test_nothing_before_the_choice (Fixture       *fixture,
                                gconstpointer  data)
{
  NearbyObject *object;

  nearby_page_loader_set_mode (fixture->loader, NEARBY_LOOKUP_AUTOMATIC);
  nearby_page_loader_set_automatic_policy (fixture->loader, NEARBY_URL_POLICY_EXPLICIT);
  object = see_beacon (fixture);
  g_assert_nonnull (object);

  let_time_pass ();
  g_assert_cmpuint (requests, ==, 0);
  g_assert_null (nearby_object_get_title (object));

  /* The person chose: the object already in the list is looked up now. */
  nearby_page_loader_set_enabled (fixture->loader, TRUE);
  wait_for_title (object);
  g_assert_cmpstr (nearby_object_get_title (object), ==, "Alpha Kiosk");
  g_assert_cmpstr (nearby_object_get_description (object), ==, "Tickets and maps");
  g_assert_cmpuint (requests, >, 0);
}

static void
test_ask_waits_for_the_person (Fixture       *fixture,
                               gconstpointer  data)
{
  NearbyObject *object;

  nearby_page_loader_set_enabled (fixture->loader, TRUE);
  nearby_page_loader_set_mode (fixture->loader, NEARBY_LOOKUP_ASK);
  object = see_beacon (fixture);

  let_time_pass ();
  g_assert_cmpuint (requests, ==, 0);

  /* Asking is explicit: a page on this computer is fine then. */
  nearby_page_loader_look_up (fixture->loader, object, FALSE);
  wait_for_title (object);
  g_assert_cmpstr (nearby_object_get_title (object), ==, "Alpha Kiosk");
}

static void
test_automatic_is_public_https_only (Fixture       *fixture,
                                     gconstpointer  data)
{
  NearbyObject *object;
  NearbyPage *page;

  nearby_page_loader_set_enabled (fixture->loader, TRUE);
  nearby_page_loader_set_mode (fixture->loader, NEARBY_LOOKUP_AUTOMATIC);
  object = see_beacon (fixture);

  /* http on the loopback address: held back, with the reason, and the server never asked. */
  wait_for_page (object);
  page = nearby_object_get_page (object);
  g_assert_error (page->error, NEARBY_RESOLVE_ERROR, NEARBY_RESOLVE_ERROR_NEEDS_CONFIRMATION);
  g_assert_null (nearby_object_get_title (object));
  g_assert_cmpuint (requests, ==, 0);

  /* Developer mode widens what happens without asking: the held-back page is looked up. */
  nearby_page_loader_set_automatic_policy (fixture->loader, NEARBY_URL_POLICY_EXPLICIT);
  wait_for_title (object);
  g_assert_cmpuint (requests, >, 0);
}

/* Developer mode looks up every page as soon as it is heard, before the person has chosen,
 * whatever the mode; without it, the person's choice holds again. */
static void
test_developer_mode_looks_up_everything (Fixture       *fixture,
                                         gconstpointer  data)
{
  NearbyObject *object;
  g_autofree char *later_url = g_strdup_printf ("%s-later", fixture->url);
  g_autoptr(NearbySighting) sighting = NULL;
  NearbyObject *later;
  NearbyFrame frame = { 0 };

  nearby_page_loader_set_mode (fixture->loader, NEARBY_LOOKUP_NEVER);
  nearby_page_loader_set_developer_mode (fixture->loader, TRUE);
  object = see_beacon (fixture);

  /* http on the loopback address, and the person never chose: looked up all the same. */
  wait_for_title (object);
  g_assert_cmpstr (nearby_object_get_title (object), ==, "Alpha Kiosk");
  g_assert_cmpuint (requests, >, 0);

  nearby_page_loader_set_developer_mode (fixture->loader, FALSE);
  requests = 0;
  frame.protocol = NEARBY_PROTOCOL_EDDYSTONE;
  frame.kind = NEARBY_FRAME_KIND_URL;
  frame.service_uuid = NEARBY_UUID16_EDDYSTONE;
  g_strlcpy (frame.url, later_url, sizeof frame.url);
  sighting = nearby_sighting_new ("C0:FF:EE:00:00:02", g_get_real_time (), -60, &frame, NULL, 0);
  nearby_object_list_add_sighting (fixture->list, sighting);
  nearby_object_list_flush (fixture->list);
  later = nearby_object_list_get_object_by_key (fixture->list, later_url);
  g_assert_nonnull (later);

  let_time_pass ();
  g_assert_cmpuint (requests, ==, 0);
  g_assert_null (nearby_object_get_title (later));
}

/* The demo's pages come from this computer: looked up at once, before any choice, with
 * developer mode off. */
static void
test_demo_pages_are_looked_up (Fixture       *fixture,
                               gconstpointer  data)
{
  NearbyObject *object;

  nearby_page_loader_set_mode (fixture->loader, NEARBY_LOOKUP_ASK);
  object = see_beacon (fixture);
  let_time_pass ();
  g_assert_cmpuint (requests, ==, 0);

  nearby_page_loader_set_demo (fixture->loader, TRUE);
  wait_for_title (object);
  g_assert_cmpstr (nearby_object_get_title (object), ==, "Alpha Kiosk");
  /* What the person chose is kept for when the demo ends. */
  g_assert_cmpint (nearby_page_loader_get_mode (fixture->loader), ==, NEARBY_LOOKUP_ASK);
  g_assert_false (nearby_page_loader_get_enabled (fixture->loader));
}

static void
test_never_shows_only_the_cache (Fixture       *fixture,
                                 gconstpointer  data)
{
  g_autoptr(NearbyPage) cached = nearby_page_new (fixture->url);
  g_autoptr(NearbyCacheEntry) entry = NULL;
  g_autofree char *json = NULL;
  NearbyObject *object;

  cached->final_url = g_strdup (fixture->url);
  cached->status = 200;
  cached->title = g_strdup ("Remembered Kiosk");
  cached->fetched_at_us = g_get_real_time ();
  cached->expires_at_us = g_get_real_time () + (gint64) G_USEC_PER_SEC * 3600;
  json = nearby_page_to_json (cached);
  entry = nearby_cache_entry_new (json, NULL, NULL, cached->expires_at_us);
  nearby_test_cache_store (fixture->cache, fixture->url, entry);

  nearby_page_loader_set_enabled (fixture->loader, TRUE);
  nearby_page_loader_set_mode (fixture->loader, NEARBY_LOOKUP_NEVER);
  object = see_beacon (fixture);

  /* What was known shows at once, and nobody is told the person is here. */
  wait_for_title (object);
  g_assert_cmpstr (nearby_object_get_title (object), ==, "Remembered Kiosk");
  let_time_pass ();
  g_assert_cmpuint (requests, ==, 0);
  /* Opening it does not look it up either; developer mode looks up whatever was chosen. */
  g_assert_false (nearby_page_loader_get_looks_up_when_opened (fixture->loader));
  nearby_page_loader_set_mode (fixture->loader, NEARBY_LOOKUP_ASK);
  g_assert_true (nearby_page_loader_get_looks_up_when_opened (fixture->loader));
  nearby_page_loader_set_mode (fixture->loader, NEARBY_LOOKUP_NEVER);
  nearby_page_loader_set_developer_mode (fixture->loader, TRUE);
  g_assert_true (nearby_page_loader_get_looks_up_when_opened (fixture->loader));
}

static void
on_looked_up_all (GObject      *source,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  guint *counts = user_data;
  g_autoptr(GError) error = NULL;

  counts[0] = nearby_page_loader_look_up_all_finish (NEARBY_PAGE_LOADER (source), result,
                                                     &counts[1], &error);
  g_assert_no_error (error);
  counts[2] = TRUE;
}

/* The refresh button says what it did once every answer is in: how many pages it looked up,
 * and how many of them were not found. */
static void
test_look_up_all_counts (Fixture       *fixture,
                         gconstpointer  data)
{
  g_autofree char *missing_url = g_strdup_printf ("http://127.0.0.1:%u/missing", port);
  g_autoptr(NearbySighting) sighting = NULL;
  NearbyFrame frame = nearby_test_url_frame (missing_url, -20);
  NearbyObject *object;
  guint counts[3] = { 0 };

  /* Nothing in the list: nothing to look up, said at once. */
  nearby_page_loader_look_up_all_async (fixture->loader, TRUE, NULL, on_looked_up_all, counts);
  WAIT_UNTIL (counts[2]);
  g_assert_cmpuint (counts[0], ==, 0);
  g_assert_cmpuint (requests, ==, 0);

  nearby_page_loader_set_mode (fixture->loader, NEARBY_LOOKUP_ASK);
  object = see_beacon (fixture);
  sighting = nearby_sighting_new ("C0:FF:EE:00:00:02", g_get_real_time (), -60, &frame, NULL, 0);
  nearby_object_list_add_sighting (fixture->list, sighting);
  nearby_object_list_flush (fixture->list);

  WAIT_UNTIL (g_list_model_get_n_items (G_LIST_MODEL (fixture->list)) == 2);
  memset (counts, 0, sizeof counts);
  nearby_page_loader_look_up_all_async (fixture->loader, TRUE, NULL, on_looked_up_all, counts);
  WAIT_UNTIL (counts[2]);
  g_assert_cmpuint (counts[0], ==, 2);
  g_assert_cmpuint (counts[1], ==, 1);
  /* Finished means done: the page is on its object by then. */
  g_assert_cmpstr (nearby_object_get_title (object), ==, "Alpha Kiosk");
}

int
main (int   argc,
      char *argv[])
{
  int status;

  g_test_init (&argc, &argv, NULL);

  server = soup_server_new (NULL, NULL);
  soup_server_add_handler (server, NULL, server_callback, NULL, NULL);
  port = nearby_test_server_listen (server, 0);

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("/page-loader/nothing-before-the-choice", test_nothing_before_the_choice);
  ADD ("/page-loader/ask-waits-for-the-person", test_ask_waits_for_the_person);
  ADD ("/page-loader/automatic-is-public-https-only", test_automatic_is_public_https_only);
  ADD ("/page-loader/never-shows-only-the-cache", test_never_shows_only_the_cache);
  ADD ("/page-loader/developer-mode-looks-up-everything", test_developer_mode_looks_up_everything);
  ADD ("/page-loader/demo-pages-are-looked-up", test_demo_pages_are_looked_up);
  ADD ("/page-loader/look-up-all-counts", test_look_up_all_counts);
#undef ADD

  status = g_test_run ();

  soup_server_disconnect (server);
  g_clear_object (&server);

  return status;
}
