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

/* The app's own icons are not in any theme until installed: run from the build tree, a page that
 * names one showed "image missing" unless the resource carries it (GtkApplication adds
 * RESOURCE_BASE/icons to the icon theme). */
static void
test_own_icons_in_resource (void)
{
  GResource *resource = nearby_get_resource ();
  g_auto(GStrv) files = g_resource_enumerate_children (resource, RESOURCE_BASE "/", 0, NULL);
  guint n_checked = 0;

  g_assert_nonnull (files);
  for (guint i = 0; files[i] != NULL; i++)
    {
      g_autofree char *path = g_strconcat (RESOURCE_BASE "/", files[i], NULL);
      g_autoptr(GBytes) ui = NULL;
      const char *text;

      if (!g_str_has_suffix (files[i], ".ui"))
        continue;
      ui = g_resource_lookup_data (resource, path, 0, NULL);
      g_assert_nonnull (ui);
      text = g_bytes_get_data (ui, NULL);

      for (const char *at = strstr (text, ">" APP_ICON_PREFIX); at != NULL;
           at = strstr (at + 1, ">" APP_ICON_PREFIX))
        {
          g_autofree char *name = g_strndup (at + 1, strcspn (at + 1, "<"));
          g_autofree char *icon_path = g_strdup_printf (RESOURCE_BASE "/icons/scalable/apps/%s.svg",
                                                        name);
          g_autoptr(GError) error = NULL;
          g_autoptr(GBytes) icon = g_resource_lookup_data (resource, icon_path, 0, &error);

          g_assert_no_error (error);
          g_assert_nonnull (strstr (g_bytes_get_data (icon, NULL), "<svg"));
          n_checked++;
        }
    }

  /* The first-run page shows the app's symbolic icon. */
  g_assert_cmpuint (n_checked, >=, 1);
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

  return g_test_run ();
}
