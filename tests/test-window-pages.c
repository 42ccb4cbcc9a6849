/* test-window-pages.c: which page the window shows for each state, and that the icons its pages
 * name are there (no display needed)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <glib.h>
#include <string.h>

#include "nearby-resources.h"
#include "nearby-window.h"

#define RESOURCE_BASE "/io/github/nearbyweb/Nearby"
#define APP_ICON_PREFIX "io.github.nearbyweb.Nearby"

static void
test_first_run_comes_first (void)
{
  /* Nothing is looked up before the person has chosen, whatever Bluetooth does. */
  for (int state = NEARBY_SOURCE_STATE_STARTING; state <= NEARBY_SOURCE_STATE_ERROR; state++)
    g_assert_cmpstr (nearby_window_page_for (state, 3, 0, FALSE), ==, "first-run");
}

static void
test_states (void)
{
  g_assert_cmpstr (nearby_window_page_for (NEARBY_SOURCE_STATE_STARTING, 0, 0, TRUE), ==, "starting");
  g_assert_cmpstr (nearby_window_page_for (NEARBY_SOURCE_STATE_SCANNING, 0, 0, TRUE), ==, "searching");
  g_assert_cmpstr (nearby_window_page_for (NEARBY_SOURCE_STATE_SCANNING, 2, 0, TRUE), ==, "list");
  g_assert_cmpstr (nearby_window_page_for (NEARBY_SOURCE_STATE_NO_SERVICE, 0, 0, TRUE), ==, "no-service");
  g_assert_cmpstr (nearby_window_page_for (NEARBY_SOURCE_STATE_NO_ADAPTER, 0, 0, TRUE), ==, "no-adapter");
  g_assert_cmpstr (nearby_window_page_for (NEARBY_SOURCE_STATE_OFF, 0, 0, TRUE), ==, "off");
  g_assert_cmpstr (nearby_window_page_for (NEARBY_SOURCE_STATE_RFKILL_BLOCKED, 0, 0, TRUE), ==,
                   "rfkill-blocked");
  g_assert_cmpstr (nearby_window_page_for (NEARBY_SOURCE_STATE_ERROR, 0, 0, TRUE), ==, "error");
  g_assert_cmpstr (nearby_window_page_for (NEARBY_SOURCE_STATE_FINISHED, 0, 0, TRUE), ==, "finished");
  /* A finished replay keeps its objects on screen until they expire. */
  g_assert_cmpstr (nearby_window_page_for (NEARBY_SOURCE_STATE_FINISHED, 1, 0, TRUE), ==, "list");
  /* Bluetooth turned off: say so, rather than show objects that can no longer be heard. */
  g_assert_cmpstr (nearby_window_page_for (NEARBY_SOURCE_STATE_OFF, 4, 0, TRUE), ==, "off");
}

/* An empty list because of hidden sites says so, rather than "Looking for Nearby Objects…";
 * a list with something left in it, and Bluetooth's own troubles, come first. */
static void
test_hidden (void)
{
  g_assert_cmpstr (nearby_window_page_for (NEARBY_SOURCE_STATE_SCANNING, 0, 5, TRUE), ==, "hidden");
  g_assert_cmpstr (nearby_window_page_for (NEARBY_SOURCE_STATE_FINISHED, 0, 2, TRUE), ==, "hidden");
  g_assert_cmpstr (nearby_window_page_for (NEARBY_SOURCE_STATE_SCANNING, 1, 4, TRUE), ==, "list");
  g_assert_cmpstr (nearby_window_page_for (NEARBY_SOURCE_STATE_OFF, 0, 5, TRUE), ==, "off");
  g_assert_cmpstr (nearby_window_page_for (NEARBY_SOURCE_STATE_ERROR, 0, 5, TRUE), ==, "error");
  g_assert_cmpstr (nearby_window_page_for (NEARBY_SOURCE_STATE_SCANNING, 0, 5, FALSE), ==,
                   "first-run");
}

static const char * const pages[] = {
  "first-run", "starting", "searching", "hidden", "off", "no-adapter", "no-service",
  "rfkill-blocked", "error", "finished", "no-results", "list",
};

static GBytes *
lookup_resource (const char *path)
{
  return g_resource_lookup_data (nearby_get_resource (), path, 0, NULL);
}

/* The app's own icons are not in any theme until installed: run from the build tree, a page that
 * names one showed "image missing" unless the resource carries it (GtkApplication adds its
 * icons/ to the icon theme), as an SVG or as symbolic PNGs at a status page's 128 px. */
static void
test_own_icons_in_resource (void)
{
  guint n_checked = 0;

  for (guint i = 0; i < G_N_ELEMENTS (pages); i++)
    {
      const char *name = nearby_window_page_icon (pages[i]);
      g_autofree char *svg = NULL;
      g_autofree char *png = NULL;
      g_autoptr(GBytes) icon = NULL;

      if (name == NULL
          || !(g_str_has_prefix (name, APP_ICON_PREFIX) || g_str_has_prefix (name, "nearby-")))
        continue;

      svg = g_strdup_printf (RESOURCE_BASE "/icons/scalable/apps/%s.svg", name);
      png = g_strdup_printf (RESOURCE_BASE "/icons/128x128/status/%s.symbolic.png", name);
      icon = lookup_resource (svg);
      if (icon == NULL)
        icon = lookup_resource (png);
      g_assert_nonnull (icon);
      n_checked++;
    }

  /* The first-run page shows the app's symbolic icon, the page at rest one of its own. */
  g_assert_cmpuint (n_checked, >=, 2);
}

/* The page shown while scanning with nothing around (the app at rest) has its icon as PNGs
 * pre-rendered by gtk4-encode-symbolic-svg, at 128 px and for a scale of 2: an SVG there (as
 * Adwaita has them at that size) made GTK 4.8 load librsvg at rest, about 8 MiB of resident
 * memory (bench-memory: 1.21 x the bare window's, 1.11 x without). Its name has no dot: GTK 4.8
 * took "io.github.nearbyweb.Nearby.listening-symbolic.symbolic.png" for an icon named
 * "io.github.nearbyweb.Nearby" (the page showed "image missing", and the About window, which
 * shows the app's icon, ended the app when it could not load that file). */
static void
test_rest_page_icon_is_prerendered (void)
{
  const char *name = nearby_window_page_icon ("searching");
  const char * const sizes[] = { "128x128", "128x128@2" };

  g_assert_nonnull (name);
  g_assert_null (strchr (name, '.'));
  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      g_autofree char *path = g_strdup_printf (RESOURCE_BASE "/icons/%s/status/%s.symbolic.png",
                                               sizes[i], name);
      g_autoptr(GBytes) png = lookup_resource (path);

      g_assert_nonnull (png);
      g_assert_cmpuint (g_bytes_get_size (png), >, 8);
      g_assert_cmpmem (g_bytes_get_data (png, NULL), 8, "\211PNG\r\n\032\n", 8);
    }
}

/* Every status page has an icon, and only status pages. */
static void
test_page_icons (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (pages); i++)
    {
      gboolean status_page = !g_str_equal (pages[i], "starting") && !g_str_equal (pages[i], "list");

      g_assert_true ((nearby_window_page_icon (pages[i]) != NULL) == status_page);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/window/pages/first-run", test_first_run_comes_first);
  g_test_add_func ("/window/pages/states", test_states);
  g_test_add_func ("/window/pages/hidden", test_hidden);
  g_test_add_func ("/window/own-icons-in-resource", test_own_icons_in_resource);
  g_test_add_func ("/window/rest-page-icon-is-prerendered", test_rest_page_icon_is_prerendered);
  g_test_add_func ("/window/page-icons", test_page_icons);

  return g_test_run ();
}
