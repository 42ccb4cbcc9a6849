/* nearby-about.c: the About window, with what a bug report needs to say
 *
 * The library versions are the ones loaded at run time, not the ones built against: the Flatpak
 * runtime and distributions update them under the same build of Nearby.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-about"

#include "config.h"

#include <glib/gi18n.h>
#include <libsoup/soup.h>
#include <libxml/parser.h>
#include <sqlite3.h>

#include "nearby-about.h"

/* libxml2 gives its version as one number, 20914 for 2.9.14, in every version since 2.0. */
static void
append_libxml2_version (GString *info)
{
  guint64 version = g_ascii_strtoull (xmlParserVersion, NULL, 10);

  g_string_append_printf (info, "libxml2: %u.%u.%u\n", (guint) (version / 10000),
                          (guint) (version / 100 % 100), (guint) (version % 100));
}

static const char *
bluetooth_state (NearbySource *bluetooth)
{
  if (bluetooth == NULL)
    return "not used (demo or replay)";

  return nearby_source_state_to_string (nearby_source_get_state (bluetooth));
}

char *
nearby_about_dup_debug_info (NearbySource *bluetooth)
{
  g_autofree char *os = g_get_os_info (G_OS_INFO_KEY_PRETTY_NAME);
  GdkDisplay *display = gdk_display_get_default ();
  GString *info = g_string_new (NULL);

  g_return_val_if_fail (bluetooth == NULL || NEARBY_IS_SOURCE (bluetooth), NULL);

  /* Not translated: a bug report reads the same whatever the reporter's language. */
  g_string_append_printf (info, "Nearby: %s\n", PACKAGE_VERSION);
  g_string_append_printf (info, "Application ID: %s\n", APP_ID);
  g_string_append_printf (info, "Profile: %s\n", PROFILE);
  g_string_append_printf (info, "Flatpak: %s\n",
                          g_file_test ("/.flatpak-info", G_FILE_TEST_EXISTS) ? "yes" : "no");
  g_string_append_printf (info, "Operating system: %s\n", os != NULL ? os : "unknown");
  g_string_append_printf (info, "Display: %s\n",
                          display != NULL ? G_OBJECT_TYPE_NAME (display) : "none");
  g_string_append_printf (info, "Bluetooth: %s\n", bluetooth_state (bluetooth));
  g_string_append_printf (info, "GLib: %u.%u.%u\n",
                          glib_major_version, glib_minor_version, glib_micro_version);
  g_string_append_printf (info, "GTK: %u.%u.%u\n", gtk_get_major_version (),
                          gtk_get_minor_version (), gtk_get_micro_version ());
  g_string_append_printf (info, "libadwaita: %u.%u.%u\n", adw_get_major_version (),
                          adw_get_minor_version (), adw_get_micro_version ());
  g_string_append_printf (info, "libsoup: %u.%u.%u\n", soup_get_major_version (),
                          soup_get_minor_version (), soup_get_micro_version ());
  append_libxml2_version (info);
  g_string_append_printf (info, "SQLite: %s\n", sqlite3_libversion ());

  return g_string_free (info, FALSE);
}

GtkWindow *
nearby_about_window_new (GtkWindow    *parent,
                         NearbySource *bluetooth)
{
  static const char *developers[] = { "The Nearby developers", NULL };
  g_autofree char *debug_info = nearby_about_dup_debug_info (bluetooth);

  return g_object_new (ADW_TYPE_ABOUT_WINDOW,
                       "transient-for", parent,
                       "modal", TRUE,
                       "application-name", _("Nearby"),
                       "application-icon", APP_ID,
                       "developer-name", _("The Nearby developers"),
                       "version", PACKAGE_VERSION,
                       "comments", _("See the smart objects around you and open their web apps"),
                       "website", "https://github.com/nearbyweb/nearby",
                       "issue-url", "https://github.com/nearbyweb/nearby/issues",
                       "developers", developers,
                       /* Translators: your names, one per line, as your .po file's header has them */
                       "translator-credits", _("translator-credits"),
                       /* Translators: "The Nearby developers" as translated elsewhere */
                       "copyright", _("© 2026 The Nearby developers"),
                       "license-type", GTK_LICENSE_GPL_3_0,
                       "debug-info", debug_info,
                       "debug-info-filename", "nearby-debug-info.txt",
                       NULL);
}
