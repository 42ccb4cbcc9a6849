/* test-profile.c: a development build is an app of its own, beside an installed Nearby
 *
 * Run in the build's own profile: tests/desktop/check-profile-development.py builds and runs it
 * in a development configuration too.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <adwaita.h>

#include "nearby-application.h"
#include "nearby-history.h"
#include "nearby-object-list.h"
#include "nearby-resources.h"
#include "nearby-test-utils.h"
#include "nearby-window.h"

#define RELEASE_ID "io.github.nearbyweb.Nearby"

static gboolean
is_development (void)
{
  return g_str_equal (PROFILE, "development");
}

/* Its own D-Bus name: started beside the installed app, it neither raises nor replaces it. */
static void
test_application_id (void)
{
  g_autoptr(NearbyApplication) application = nearby_application_new ();
  const char *expected = is_development () ? RELEASE_ID ".Devel" : RELEASE_ID;

  g_assert_true (is_development () || g_str_equal (PROFILE, "default"));
  g_assert_cmpstr (APP_ID, ==, expected);
  g_assert_cmpstr (g_application_get_application_id (G_APPLICATION (application)), ==, expected);
}

/* Its own settings: trying a development build changes nothing of the installed app's. */
static void
test_settings_schema (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;
  g_autofree char *path = g_strdelimit (g_strdup_printf ("/%s/", APP_ID), ".", '/');

  g_assert_nonnull (source);
  schema = g_settings_schema_source_lookup (source, APP_ID, TRUE);
  g_assert_nonnull (schema);
  g_assert_cmpstr (g_settings_schema_get_path (schema), ==, path);
  g_assert_true (g_settings_schema_has_key (schema, "lookup-policy"));
}

/* Its own history: the two never open one database at the same time. */
static void
test_history_folder (void)
{
  g_autofree char *path = nearby_history_dup_default_path ();
  g_autofree char *release_path = g_build_filename (g_get_user_data_dir (), "nearby",
                                                    "history.db", NULL);

  if (is_development ())
    g_assert_cmpstr (path, !=, release_path);
  else
    g_assert_cmpstr (path, ==, release_path);
  g_assert_true (g_str_has_prefix (path, g_get_user_data_dir ()));
  g_assert_true (g_str_has_suffix (path, G_DIR_SEPARATOR_S "history.db"));
}

/* GNOME's striped header bar says which window is the development build's. */
static void
test_window_style (void)
{
  g_autoptr(NearbyTestSource) source = NULL;
  g_autoptr(NearbyObjectList) objects = NULL;
  GtkWidget *window;

  if ((g_getenv ("DISPLAY") == NULL && g_getenv ("WAYLAND_DISPLAY") == NULL) || !gtk_init_check ())
    {
      g_test_skip ("needs a display");
      return;
    }
  adw_init ();
  g_resources_register (nearby_get_resource ());

  source = nearby_test_source_new ();
  objects = nearby_object_list_new (NULL);
  window = GTK_WIDGET (nearby_window_new (NULL, NEARBY_SOURCE (source), G_LIST_MODEL (objects), NULL,
                                          TRUE));
  g_assert_cmpint (gtk_widget_has_css_class (window, "devel"), ==, is_development ());
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  g_setenv ("GTK_A11Y", "none", TRUE);
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/profile/application-id", test_application_id);
  g_test_add_func ("/profile/settings-schema", test_settings_schema);
  g_test_add_func ("/profile/history-folder", test_history_folder);
  g_test_add_func ("/profile/window-style", test_window_style);

  return g_test_run ();
}
