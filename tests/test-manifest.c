/* test-manifest.c: the name, icons and actions a page's web app manifest gives its row
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gio/gio.h>
#include <string.h>

#include "nearby-manifest.h"

#define MANIFEST_URL "https://cafe.example/app/manifest.json"

static NearbyManifest *
parse (const char  *json,
       GError     **error)
{
  return nearby_manifest_parse (MANIFEST_URL, (const guint8 *) json, strlen (json), error);
}

static void
test_good_manifest (void)
{
  const char *json =
    "{\"name\": \"Corner Caf\\u00e9\", \"short_name\": \"Caf\\u00e9\","
    " \"icons\": [{\"src\": \"icon-192.png\", \"sizes\": \"192x192\", \"type\": \"image/png\"},"
    "            {\"src\": \"data:image/png;base64,AAAA\"}, 42],"
    " \"shortcuts\": [{\"name\": \"Order\", \"url\": \"/order?from=beacon\"},"
    "               {\"short_name\": \"Menu\", \"url\": \"menu\"},"
    "               {\"name\": \"Evil\", \"url\": \"javascript:alert(1)\"},"
    "               {\"name\": \"Pay\", \"url\": \"https://bank.example@evil.example/pay\"},"
    "               {\"name\": \"No URL\"}, \"junk\"]}";
  g_autoptr(NearbyManifest) manifest = NULL;
  g_autoptr(GError) error = NULL;
  NearbyPageAction *action;
  NearbyPageIcon *icon;

  manifest = parse (json, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (manifest->name, ==, "Corner Café");
  g_assert_cmpstr (manifest->short_name, ==, "Café");
  g_assert_null (manifest->description);

  /* data: and non-objects are dropped; the relative src resolves against the manifest */
  g_assert_cmpuint (manifest->icons->len, ==, 1);
  icon = g_ptr_array_index (manifest->icons, 0);
  g_assert_cmpstr (icon->url, ==, "https://cafe.example/app/icon-192.png");
  g_assert_cmpstr (icon->rel, ==, "manifest");
  g_assert_cmpstr (icon->type, ==, "image/png");
  g_assert_cmpint (icon->size, ==, 192);

  /* Shortcuts need a name and a web address, and never carry userinfo: the decoy host is
   * dropped, as it is from every address Nearby opens */
  g_assert_cmpuint (manifest->actions->len, ==, 3);
  action = g_ptr_array_index (manifest->actions, 0);
  g_assert_cmpstr (action->title, ==, "Order");
  g_assert_cmpstr (action->url, ==, "https://cafe.example/order?from=beacon");
  action = g_ptr_array_index (manifest->actions, 1);
  g_assert_cmpstr (action->title, ==, "Menu");
  g_assert_cmpstr (action->url, ==, "https://cafe.example/app/menu");
  action = g_ptr_array_index (manifest->actions, 2);
  g_assert_cmpstr (action->title, ==, "Pay");
  g_assert_cmpstr (action->url, ==, "https://evil.example/pay");
}

/* What a row shows from a manifest is cleaned and bounded like a page's own text. */
static void
test_hostile_text (void)
{
  g_autoptr(GString) json = g_string_new ("{\"name\": \"Pay\\u202egnp.exe\\u0001 now\","
                                          " \"short_name\": \"   \", \"description\": \"");
  g_autoptr(NearbyManifest) manifest = NULL;
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < 1000; i++)
    g_string_append (json, "word ");
  g_string_append (json, "\", \"shortcuts\": [");
  for (guint i = 0; i < 20; i++)
    g_string_append_printf (json, "%s{\"name\": \"Action %u with a name far too long to show in a"
                                  " menu, which goes on and on\", \"url\": \"/a%u\"}",
                            i > 0 ? "," : "", i, i);
  g_string_append (json, "]}");

  manifest = parse (json->str, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (manifest->name, ==, "Paygnp.exe now");
  g_assert_null (manifest->short_name);
  g_assert_cmpuint (g_utf8_strlen (manifest->description, -1), ==, NEARBY_PAGE_META_MAX_DESC);
  g_assert_true (g_str_has_suffix (manifest->description, "…"));
  g_assert_cmpuint (manifest->actions->len, ==, NEARBY_MANIFEST_MAX_ACTIONS);
  for (guint i = 0; i < manifest->actions->len; i++)
    {
      NearbyPageAction *action = g_ptr_array_index (manifest->actions, i);

      g_assert_cmpuint (g_utf8_strlen (action->title, -1), <=, 80);
    }
}

static void
test_many_icons (void)
{
  g_autoptr(GString) json = g_string_new ("{\"icons\": [");
  g_autoptr(NearbyManifest) manifest = NULL;
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < 100; i++)
    g_string_append_printf (json, "%s{\"src\": \"/icon-%u.png\", \"sizes\": \"%ux%u any\"}",
                            i > 0 ? "," : "", i, i + 1, i + 1);
  g_string_append (json, "]}");

  manifest = parse (json->str, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (manifest->icons->len, ==, NEARBY_PAGE_META_MAX_ICONS);
  g_assert_cmpint (((NearbyPageIcon *) g_ptr_array_index (manifest->icons, 0))->size, ==, -1);
  g_assert_cmpuint (manifest->actions->len, ==, 0);
}

/* A byte order mark is allowed; everything else that is not a JSON object of UTF-8 text is
 * refused whole, with an error, and never reaches json-glib's recursion when nested deep. */
static void
test_refused (void)
{
  static const char bom[] = "\xef\xbb\xbf{\"name\": \"With BOM\"}";
  g_autoptr(NearbyManifest) with_bom = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) deep = g_string_new ("{\"a\":");
  const char *refused[] = { "[1,2]", "\"name\"", "{\"name\": \"x", "", "{\"name\": \"caf\xe9\"}" };

  with_bom = nearby_manifest_parse (MANIFEST_URL, (const guint8 *) bom, sizeof bom - 1, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (with_bom->name, ==, "With BOM");

  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    {
      g_test_message ("%u", i);
      g_assert_null (parse (refused[i], &error));
      g_assert_nonnull (error);
      g_clear_error (&error);
    }
  g_assert_null (parse ("[1,2]", &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_clear_error (&error);

  for (guint i = 0; i < 100000; i++)
    g_string_append_c (deep, '[');
  g_assert_null (parse (deep->str, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/manifest/good", test_good_manifest);
  g_test_add_func ("/manifest/hostile-text", test_hostile_text);
  g_test_add_func ("/manifest/many-icons", test_many_icons);
  g_test_add_func ("/manifest/refused", test_refused);

  return g_test_run ();
}
