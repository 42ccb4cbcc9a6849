/* nearby-application.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-application"

#include "config.h"

#include <glib/gi18n.h>

#include "nearby-application.h"
#include "nearby-resources.h"
#include "nearby-window.h"

struct _NearbyApplication
{
  AdwApplication parent_instance;
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

static void
nearby_application_activate (GApplication *app)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (app));

  if (window == NULL)
    window = GTK_WINDOW (nearby_window_new (NEARBY_APPLICATION (app)));

  gtk_window_present (window);
}

static void
nearby_application_startup (GApplication *app)
{
  /* Resources live in a static library: register them, or the linker drops them. */
  g_resources_register (nearby_get_resource ());

  G_APPLICATION_CLASS (nearby_application_parent_class)->startup (app);
}

static void
nearby_application_class_init (NearbyApplicationClass *klass)
{
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  app_class->activate = nearby_application_activate;
  app_class->startup = nearby_application_startup;
}

static void
nearby_application_about_action (GSimpleAction *action,
                                 GVariant      *parameter,
                                 gpointer       user_data)
{
  static const char *developers[] = { "The Nearby developers", NULL };
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (user_data));

  gtk_window_present (g_object_new (ADW_TYPE_ABOUT_WINDOW,
                                    "transient-for", window,
                                    "application-name", _("Nearby"),
                                    "application-icon", APP_ID,
                                    "developer-name", _("The Nearby developers"),
                                    "version", PACKAGE_VERSION,
                                    "comments", _("See the smart objects around you and open their web apps"),
                                    "developers", developers,
                                    "license-type", GTK_LICENSE_GPL_3_0,
                                    NULL));
}

static void
nearby_application_quit_action (GSimpleAction *action,
                                GVariant      *parameter,
                                gpointer       user_data)
{
  g_application_quit (G_APPLICATION (user_data));
}

static const GActionEntry app_actions[] = {
  { "quit", nearby_application_quit_action },
  { "about", nearby_application_about_action },
};

static void
nearby_application_init (NearbyApplication *self)
{
  g_action_map_add_action_entries (G_ACTION_MAP (self), app_actions, G_N_ELEMENTS (app_actions),
                                   self);
  gtk_application_set_accels_for_action (GTK_APPLICATION (self), "app.quit",
                                         (const char *[]) { "<primary>q", NULL });
}
