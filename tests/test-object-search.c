/* test-object-search.c: what the window's search finds
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "nearby-object-search.h"

static NearbyObject *
object_with_page (const char *url,
                  const char *title,
                  const char *description)
{
  NearbyObject *object = nearby_object_new (url);

  nearby_object_set_title (object, title);
  nearby_object_set_description (object, description);

  return object;
}

/* Word starts of the title, description and host, accents folded; parts of a host anywhere. */
static void
test_title_description_host (void)
{
  g_autoptr(NearbyObject) cafe = object_with_page ("https://shop.bluebird.example/menu",
                                                   "Bluebird Café",
                                                   "Order ahead and skip the queue.");

  g_assert_true (nearby_object_matches_search (cafe, NULL, "", FALSE));
  g_assert_true (nearby_object_matches_search (cafe, NULL, "  ", FALSE));
  g_assert_true (nearby_object_matches_search (cafe, NULL, "cafe", FALSE));
  g_assert_true (nearby_object_matches_search (cafe, NULL, "CAFÉ", FALSE));
  g_assert_true (nearby_object_matches_search (cafe, NULL, "blue caf", FALSE));
  g_assert_true (nearby_object_matches_search (cafe, NULL, "queue", FALSE));
  g_assert_true (nearby_object_matches_search (cafe, NULL, "bluebird.example", FALSE));
  g_assert_false (nearby_object_matches_search (cafe, NULL, "museum", FALSE));
  /* The path is not shown once the page has a title, so it is not searched. */
  g_assert_false (nearby_object_matches_search (cafe, NULL, "menu", FALSE));
}

/* Before its look-up an object is searched by what its row shows: host and path. */
static void
test_not_looked_up (void)
{
  g_autoptr(NearbyObject) object = nearby_object_new ("http://127.0.0.1:9/o/17");

  g_assert_true (nearby_object_matches_search (object, NULL, "127.0", FALSE));
  g_assert_true (nearby_object_matches_search (object, NULL, "o/17", FALSE));
  g_assert_false (nearby_object_matches_search (object, NULL, "o/18", FALSE));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/object-search/title-description-host", test_title_description_host);
  g_test_add_func ("/object-search/not-looked-up", test_not_looked_up);

  return g_test_run ();
}
