/* nearby-application.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-application"

#include "config.h"

#include <glib/gi18n.h>

#include "nearby-application.h"
#include "nearby-demo.h"
#include "nearby-preferences.h"
#include "nearby-resources.h"
#include "nearby-window.h"

struct _NearbyApplication
{
  AdwApplication  parent_instance;

  GSettings      *settings;
  NearbySource   *source;
  GtkStringList  *blocked_sites;

  gboolean        developer;
  gboolean        demo;
  char           *replay_path;
};

G_DEFINE_FINAL_TYPE (NearbyApplication, nearby_application, ADW_TYPE_APPLICATION)

NearbyApplication *
nearby_application_new (void)
{
  return g_object_new (NEARBY_TYPE_APPLICATION,
                       "application-id", APP_ID,
                       "flags", G_APPLICATION_DEFAULT_FLAGS,
                       "resource-base-path", "/io/github/nearbyweb/Nearby",
                       NULL);
}

static NearbyWindow *
nearby_application_get_window (NearbyApplication *self)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (self));

  return NEARBY_IS_WINDOW (window) ? NEARBY_WINDOW (window) : NULL;
}

static void
nearby_application_start_demo (NearbyApplication *self)
{
  g_autoptr(NearbyDemo) demo = nearby_demo_new ();
  g_autoptr(GError) error = NULL;
  NearbyWindow *window = nearby_application_get_window (self);

  if (!nearby_demo_start (demo, &error))
    {
      g_autofree char *message = g_strdup_printf (_("Cannot start the demo: %s"), error->message);

      if (window != NULL)
        nearby_window_show_toast (window, message);
      else
        g_printerr ("%s\n", message);
      return;
    }

  g_set_object (&self->source, NEARBY_SOURCE (demo));
  if (window != NULL)
    nearby_window_set_source (window, self->source);
}

static void
nearby_application_activate (GApplication *app)
{
  NearbyApplication *self = NEARBY_APPLICATION (app);
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (app));

  if (window == NULL)
    window = GTK_WINDOW (nearby_window_new (self, self->source, NULL));

  gtk_window_present (window);
}

static int
nearby_application_handle_local_options (GApplication *app,
                                         GVariantDict *options)
{
  NearbyApplication *self = NEARBY_APPLICATION (app);

  if (g_variant_dict_contains (options, "version"))
    {
      g_print ("nearby %s\n", PACKAGE_VERSION);
      return 0;
    }

  g_variant_dict_lookup (options, "demo", "b", &self->demo);
  g_variant_dict_lookup (options, "developer", "b", &self->developer);
  g_variant_dict_lookup (options, "replay", "^ay", &self->replay_path);

  if (self->replay_path != NULL && self->demo)
    {
      g_printerr ("%s\n", _("--demo and --replay cannot be used together"));
      return 2;
    }

  /* A demo, a replay or a developer session is its own instance, separate from a running app. */
  if (self->demo || self->replay_path != NULL || self->developer)
    g_application_set_flags (app, g_application_get_flags (app) | G_APPLICATION_NON_UNIQUE);

  return -1;
}

static void
nearby_application_startup (GApplication *app)
{
  NearbyApplication *self = NEARBY_APPLICATION (app);

  /* Resources live in a static library: register them, or the linker drops them. */
  g_resources_register (nearby_get_resource ());

  G_APPLICATION_CLASS (nearby_application_parent_class)->startup (app);

  self->settings = g_settings_new (APP_ID);
  if (self->developer)
    {
      /* For this run only: the settings backend keeps what the user chose. */
      g_settings_delay (self->settings);
      g_settings_set_boolean (self->settings, "developer-mode", TRUE);
      g_settings_set_boolean (self->settings, "privacy-choice-made", TRUE);
    }

  if (self->demo)
    nearby_application_start_demo (self);
}

static void
nearby_application_finalize (GObject *object)
{
  NearbyApplication *self = NEARBY_APPLICATION (object);

  g_clear_object (&self->settings);
  g_clear_object (&self->source);
  g_clear_object (&self->blocked_sites);
  g_free (self->replay_path);

  G_OBJECT_CLASS (nearby_application_parent_class)->finalize (object);
}

static void
nearby_application_class_init (NearbyApplicationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  object_class->finalize = nearby_application_finalize;

  app_class->activate = nearby_application_activate;
  app_class->startup = nearby_application_startup;
  app_class->handle_local_options = nearby_application_handle_local_options;
}

static void
about_action (GSimpleAction *action,
              GVariant      *parameter,
              gpointer       user_data)
{
  static const char *developers[] = { "The Nearby developers", NULL };
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (user_data));

  gtk_window_present (g_object_new (ADW_TYPE_ABOUT_WINDOW,
                                    "transient-for", window,
                                    "modal", TRUE,
                                    "application-name", _("Nearby"),
                                    "application-icon", APP_ID,
                                    "developer-name", _("The Nearby developers"),
                                    "version", PACKAGE_VERSION,
                                    "comments", _("See the smart objects around you and open their web apps"),
                                    "website", "https://github.com/nearbyweb/nearby",
                                    "issue-url", "https://github.com/nearbyweb/nearby/issues",
                                    "developers", developers,
                                    "license-type", GTK_LICENSE_GPL_3_0,
                                    NULL));
}

static void
preferences_action (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer      user_data)
{
  NearbyApplication *self = user_data;
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (self));

  gtk_window_present (GTK_WINDOW (nearby_preferences_new (window,
                                                          G_LIST_MODEL (self->blocked_sites))));
}

static void
demo_action (GSimpleAction *action,
             GVariant      *parameter,
             gpointer       user_data)
{
  nearby_application_start_demo (NEARBY_APPLICATION (user_data));
}

static void
quit_action (GSimpleAction *action,
             GVariant      *parameter,
             gpointer       user_data)
{
  g_application_quit (G_APPLICATION (user_data));
}

static const GActionEntry app_actions[] = {
  { "quit", quit_action },
  { "about", about_action },
  { "preferences", preferences_action },
  { "demo", demo_action },
};

static const GOptionEntry app_options[] = {
  { "demo", 0, 0, G_OPTION_ARG_NONE, NULL,
    N_("Show made-up objects served from this computer, to try Nearby without beacons"), NULL },
  { "replay", 0, 0, G_OPTION_ARG_FILENAME, NULL,
    N_("Replay a capture written by “nearby scan --json”"), N_("FILE") },
  { "developer", 0, 0, G_OPTION_ARG_NONE, NULL,
    N_("Developer mode for this run: all beacons, the inspector, local pages looked up"), NULL },
  { "version", 0, 0, G_OPTION_ARG_NONE, NULL, N_("Show the version"), NULL },
  { NULL }
};

static void
nearby_application_init (NearbyApplication *self)
{
  self->blocked_sites = gtk_string_list_new (NULL);

  g_application_add_main_option_entries (G_APPLICATION (self), app_options);
  g_application_set_option_context_parameter_string (G_APPLICATION (self),
                                                     _("[COMMAND …]"));
  g_application_set_option_context_description (G_APPLICATION (self),
    _("Commands for beacon developers: decode, encode, scan, resolve, advertise.\n"
      "Run “nearby help” for the list."));

  g_action_map_add_action_entries (G_ACTION_MAP (self), app_actions, G_N_ELEMENTS (app_actions),
                                   self);
  gtk_application_set_accels_for_action (GTK_APPLICATION (self), "app.quit",
                                         (const char *[]) { "<primary>q", NULL });
  gtk_application_set_accels_for_action (GTK_APPLICATION (self), "app.preferences",
                                         (const char *[]) { "<primary>comma", NULL });
  gtk_application_set_accels_for_action (GTK_APPLICATION (self), "win.refresh",
                                         (const char *[]) { "<primary>r", "F5", NULL });
}
