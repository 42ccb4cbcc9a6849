/* test-page.c: a resolved page as JSON, the form `nearby resolve --json` prints and the page
 * cache keeps on disk
 *
 * What the resolver puts in a page over HTTP is tested in test-resolver.c; here, the JSON form
 * on its own: everything survives the round trip, and a cache file that is damaged or written by
 * someone else gives a clear error or a page with less in it, never a crash or garbage.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <json-glib/json-glib.h>
#include <string.h>

#include "nearby-page.h"
#include "nearby-resolve-error.h"

static NearbyPage *
full_page (void)
{
  NearbyPage *page = nearby_page_new ("https://bus.example/s/42");
  static const guint8 png[] = { 0x89, 'P', 'N', 'G' };

  page->final_url = g_strdup ("https://bus.example/stop/42");
  page->status = 200;
  nearby_page_add_redirect (page, "https://bus.example/s/42", 301);
  nearby_page_add_redirect (page, "https://bus.example/t/42", 302);
  page->title = g_strdup ("Bus stop 42 – Main Street");
  page->description = g_strdup ("Next buses from this stop, live.");
  page->canonical_url = g_strdup ("https://bus.example/stop/42");
  page->manifest_url = g_strdup ("https://bus.example/manifest.json");
  page->manifest_name = g_strdup ("Transit 42");
  page->icon_url = g_strdup ("https://bus.example/icon.ico");
  page->icon = g_bytes_new_static (png, sizeof png);
  page->icon_type = g_strdup ("image/x-icon");
  page->icon_width = 32;
  page->icon_height = 32;
  g_ptr_array_add (page->actions, nearby_page_action_new ("Timetable",
                                                          "https://bus.example/timetable"));
  g_ptr_array_add (page->actions, nearby_page_action_new ("Report a problem",
                                                          "https://bus.example/report"));
  page->fetched_at_us = 1796278079144502;
  page->expires_at_us = 1796278679150742;
  page->headers_us = 6000;
  page->total_us = 10000;
  page->from_cache = TRUE;

  return page;
}

/* Every field comes back as it went, and so does the JSON. */
static void
test_round_trip (void)
{
  g_autoptr(NearbyPage) page = full_page ();
  g_autoptr(NearbyPage) copy = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *json = nearby_page_to_json (page);
  g_autofree char *json_again = NULL;
  NearbyRedirect *redirect;
  NearbyPageAction *action;

  copy = nearby_page_new_from_json (json, page->icon, &error);
  g_assert_no_error (error);

  g_assert_cmpstr (copy->url, ==, page->url);
  g_assert_cmpstr (copy->final_url, ==, page->final_url);
  g_assert_cmpuint (copy->status, ==, 200);
  g_assert_cmpuint (copy->redirects->len, ==, 2);
  redirect = g_ptr_array_index (copy->redirects, 1);
  g_assert_cmpstr (redirect->url, ==, "https://bus.example/t/42");
  g_assert_cmpuint (redirect->status, ==, 302);
  g_assert_cmpstr (copy->title, ==, "Bus stop 42 – Main Street");
  g_assert_cmpstr (copy->description, ==, page->description);
  g_assert_cmpstr (copy->canonical_url, ==, page->canonical_url);
  g_assert_cmpstr (copy->manifest_url, ==, page->manifest_url);
  g_assert_cmpstr (copy->manifest_name, ==, "Transit 42");
  g_assert_cmpstr (copy->icon_url, ==, page->icon_url);
  g_assert_true (copy->icon == page->icon);
  g_assert_cmpstr (copy->icon_type, ==, "image/x-icon");
  g_assert_cmpint (copy->icon_width, ==, 32);
  g_assert_cmpint (copy->icon_height, ==, 32);
  g_assert_cmpuint (copy->actions->len, ==, 2);
  action = g_ptr_array_index (copy->actions, 1);
  g_assert_cmpstr (action->title, ==, "Report a problem");
  g_assert_cmpstr (action->url, ==, "https://bus.example/report");
  g_assert_cmpint (copy->fetched_at_us, ==, page->fetched_at_us);
  g_assert_cmpint (copy->expires_at_us, ==, page->expires_at_us);
  g_assert_cmpint (copy->headers_us, ==, 6000);
  g_assert_cmpint (copy->total_us, ==, 10000);
  g_assert_true (copy->from_cache);
  g_assert_null (copy->error);
  g_assert_null (nearby_page_get_error_code (copy));

  json_again = nearby_page_to_json (copy);
  g_assert_cmpstr (json_again, ==, json);
}

/* nearby_page_to_json() writes JSON as RFC 8259 has it, which json-glib reads back to the same
 * text: every control character escaped (json-glib 1.6's own writer leaves U+001F bare), quotes
 * and backslashes, characters beyond ASCII as they are. */
static void
test_json_text (void)
{
  g_autoptr(NearbyPage) page = full_page ();
  g_autoptr(NearbyPage) failed = nearby_page_new ("http://kiosk.example/\"quoted\"");
  g_autoptr(GString) all_ascii = g_string_new ("controls:");
  NearbyPage *pages[] = { page, failed };

  for (guint c = 1; c < 0x80; c++)
    g_string_append_c (all_ascii, c);
  g_free (page->title);
  page->title = g_strconcat (all_ascii->str, " \\ \" / \u2028 \u202e \U0001F68C é", NULL);
  g_free (page->description);
  page->description = g_strdup ("");
  failed->error = g_error_new_literal (NEARBY_RESOLVE_ERROR, NEARBY_RESOLVE_ERROR_NETWORK,
                                       "Cannot connect:\n\t\"refused\"");

  for (guint i = 0; i < G_N_ELEMENTS (pages); i++)
    {
      g_autofree char *json = nearby_page_to_json (pages[i]);
      g_autoptr(GError) error = NULL;
      g_autoptr(JsonNode) node = json_from_string (json, &error);
      g_autoptr(NearbyPage) copy = NULL;

      g_assert_no_error (error);
      g_assert_nonnull (node);
      for (const char *p = json; *p != '\0'; p++)
        g_assert_true ((guchar) *p >= 0x20 && *p != 0x7f);

      copy = nearby_page_new_from_json (json, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpstr (copy->url, ==, pages[i]->url);
      g_assert_cmpstr (copy->title, ==, pages[i]->title);
      g_assert_cmpstr (copy->description, ==, pages[i]->description);
      g_assert_cmpstr (nearby_page_get_error_code (copy), ==, nearby_page_get_error_code (pages[i]));
      if (pages[i]->error != NULL)
        g_assert_cmpstr (copy->error->message, ==, pages[i]->error->message);
    }
}

/* A page that did not resolve keeps why, as the same error code. */
static void
test_failure_round_trip (void)
{
  g_autoptr(NearbyPage) page = nearby_page_new ("http://kiosk.example/");
  g_autoptr(NearbyPage) copy = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *json = NULL;

  page->error = g_error_new_literal (NEARBY_RESOLVE_ERROR,
                                     NEARBY_RESOLVE_ERROR_NEEDS_CONFIRMATION,
                                     "The page is not encrypted (http)");
  json = nearby_page_to_json (page);
  g_assert_nonnull (strstr (json, "\"error_code\":\"needs-confirmation\""));

  copy = nearby_page_new_from_json (json, NULL, &error);
  g_assert_no_error (error);
  g_assert_error (copy->error, NEARBY_RESOLVE_ERROR, NEARBY_RESOLVE_ERROR_NEEDS_CONFIRMATION);
  g_assert_cmpstr (copy->error->message, ==, "The page is not encrypted (http)");
  g_assert_cmpstr (nearby_page_get_error_code (copy), ==, "needs-confirmation");
  g_assert_null (copy->title);
  g_assert_null (copy->icon);
}

/* What is not a page at all is refused with a reason. */
static void
test_not_a_page (void)
{
  static const char *const refused[] = {
    "",
    "{",
    "[1, 2]",
    "\"https://bus.example/\"",
    "{}",
    "{\"url\": 5}",
    "{\"url\": null, \"title\": \"No address\"}",
  };

  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(NearbyPage) page = nearby_page_new_from_json (refused[i], NULL, &error);

      g_test_message ("%s", refused[i]);
      g_assert_null (page);
      g_assert_nonnull (error);
      g_assert_nonnull (error->message);
    }
}

/* A damaged or foreign page: wrong types and out-of-range numbers are dropped or bounded, the
 * rest is kept. */
static void
test_damaged_members (void)
{
  static const char json[] =
    "{\"url\": \"https://bus.example/\","
    " \"status\": 70000,"
    " \"title\": [\"not\", \"a\", \"string\"],"
    " \"description\": \"Kept\","
    " \"redirects\": [5, {\"url\": 7}, {\"url\": \"https://bus.example/a\", \"status\": -3},"
    "                 {\"status\": 301}],"
    " \"icon\": {\"type\": \"image/png\", \"width\": -5, \"height\": 1e300},"
    " \"actions\": {\"title\": \"not an array\"},"
    " \"timings\": {\"headers_ms\": -20, \"total_ms\": 1e300},"
    " \"fetched_at_us\": 1e300,"
    " \"expires_at_us\": -1e300,"
    " \"from_cache\": \"yes\","
    " \"error_code\": \"no-such-code\"}";
  g_autoptr(GError) error = NULL;
  g_autoptr(NearbyPage) page = nearby_page_new_from_json (json, NULL, &error);
  NearbyRedirect *redirect;

  g_assert_no_error (error);
  g_assert_cmpstr (page->url, ==, "https://bus.example/");
  g_assert_cmpuint (page->status, ==, 999);
  g_assert_null (page->title);
  g_assert_cmpstr (page->description, ==, "Kept");
  /* Only the hop that has an address. */
  g_assert_cmpuint (page->redirects->len, ==, 1);
  redirect = g_ptr_array_index (page->redirects, 0);
  g_assert_cmpstr (redirect->url, ==, "https://bus.example/a");
  g_assert_cmpuint (redirect->status, ==, 0);
  g_assert_cmpstr (page->icon_type, ==, "image/png");
  g_assert_cmpint (page->icon_width, ==, 0);
  g_assert_cmpint (page->icon_height, ==, G_MAXINT);
  g_assert_cmpuint (page->actions->len, ==, 0);
  g_assert_cmpint (page->headers_us, ==, 0);
  g_assert_cmpint (page->total_us, ==, G_MAXINT64);
  g_assert_cmpint (page->fetched_at_us, ==, G_MAXINT64);
  g_assert_cmpint (page->expires_at_us, ==, G_MININT64);
  g_assert_false (page->from_cache);
  /* An error it does not know is still an error. */
  g_assert_error (page->error, NEARBY_RESOLVE_ERROR, NEARBY_RESOLVE_ERROR_NETWORK);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/page/round-trip", test_round_trip);
  g_test_add_func ("/page/failure-round-trip", test_failure_round_trip);
  g_test_add_func ("/page/json-text", test_json_text);
  g_test_add_func ("/page/not-a-page", test_not_a_page);
  g_test_add_func ("/page/damaged-members", test_damaged_members);

  return g_test_run ();
}
