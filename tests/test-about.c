/* test-about.c: the About window credits the translators and says what a bug report needs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <libsoup/soup.h>
#include <libxml/xmlversion.h>
#include <locale.h>
#include <sqlite3.h>

#include "nearby-about.h"
#include "nearby-test-utils.h"

static void
assert_has_line (const char *info,
                 const char *line)
{
  g_autofree char *wrapped = g_strdup_printf ("\n%s\n", line);
  g_autofree char *wrapped_info = g_strdup_printf ("\n%s", info);

  if (strstr (wrapped_info, wrapped) == NULL)
    g_error ("The debug info lacks the line “%s”:\n%s", line, info);
}

/* Everything a maintainer asks for first, read from the libraries actually loaded. */
static void
test_debug_info (void)
{
  g_autofree char *info = nearby_about_dup_debug_info (NULL);
  g_autofree char *glib = g_strdup_printf ("GLib: %u.%u.%u", glib_major_version,
                                           glib_minor_version, glib_micro_version);
  g_autofree char *gtk = g_strdup_printf ("GTK: %u.%u.%u", gtk_get_major_version (),
                                          gtk_get_minor_version (), gtk_get_micro_version ());
  g_autofree char *adw = g_strdup_printf ("libadwaita: %u.%u.%u", adw_get_major_version (),
                                          adw_get_minor_version (), adw_get_micro_version ());
  g_autofree char *soup = g_strdup_printf ("libsoup: %u.%u.%u", soup_get_major_version (),
                                           soup_get_minor_version (), soup_get_micro_version ());
  g_autofree char *sqlite = g_strdup_printf ("SQLite: %s", sqlite3_libversion ());
  gboolean in_flatpak = g_file_test ("/.flatpak-info", G_FILE_TEST_EXISTS);

  g_test_message ("%s", info);
  assert_has_line (info, "Nearby: " PACKAGE_VERSION);
  assert_has_line (info, "Application ID: " APP_ID);
  assert_has_line (info, "Profile: " PROFILE);
  assert_has_line (info, in_flatpak ? "Flatpak: yes" : "Flatpak: no");
  assert_has_line (info, "Bluetooth: not used (demo or replay)");
  assert_has_line (info, glib);
  assert_has_line (info, gtk);
  assert_has_line (info, adw);
  assert_has_line (info, soup);
  /* The same library at run time as at build time, here: the test is built and run in one place. */
  assert_has_line (info, "libxml2: " LIBXML_DOTTED_VERSION);
  assert_has_line (info, sqlite);
  g_assert_nonnull (strstr (info, "\nOperating system: "));
  g_assert_true (g_str_has_suffix (info, "\n"));
}

/* The scanner's state, as the window would report it: "no-service" is a bluetoothd that is not
 * running, which a bug report about an empty list needs to say. */
static void
test_debug_info_bluetooth (void)
{
  g_autoptr(NearbyTestSource) source = nearby_test_source_new ();
  char *info;

  nearby_test_source_set_state (source, NEARBY_SOURCE_STATE_NO_SERVICE, "not running");
  info = nearby_about_dup_debug_info (NEARBY_SOURCE (source));
  assert_has_line (info, "Bluetooth: no-service");
  g_free (info);

  nearby_test_source_set_state (source, NEARBY_SOURCE_STATE_SCANNING, NULL);
  info = nearby_about_dup_debug_info (NEARBY_SOURCE (source));
  assert_has_line (info, "Bluetooth: scanning");
  g_free (info);
}

/* The window shows the credits, the copyright and the debug info, and saves it under a name
 * that says what it is. */
static void
test_window (void)
{
  GtkWindow *window;
  g_autofree char *translator_credits = NULL;
  g_autofree char *copyright = NULL;
  g_autofree char *debug_info = NULL;
  g_autofree char *debug_info_filename = NULL;
  g_autofree char *icon = NULL;
  g_autofree char *version = NULL;
  g_autofree char *expected_debug_info = NULL;
  GtkLicense license;

  if ((g_getenv ("DISPLAY") == NULL && g_getenv ("WAYLAND_DISPLAY") == NULL) || !gtk_init_check ())
    {
      g_test_skip ("needs a display");
      return;
    }
  adw_init ();

  window = nearby_about_window_new (NULL, NULL);
  g_assert_true (ADW_IS_ABOUT_WINDOW (window));
  g_object_get (window,
                "translator-credits", &translator_credits,
                "copyright", &copyright,
                "debug-info", &debug_info,
                "debug-info-filename", &debug_info_filename,
                "application-icon", &icon,
                "version", &version,
                "license-type", &license,
                NULL);
  /* Untranslated here (C locale): the catalogue's own entry, which libadwaita leaves out. */
  g_assert_cmpstr (translator_credits, ==, "translator-credits");
  g_assert_cmpstr (copyright, ==, "© 2026 The Nearby developers");
  expected_debug_info = nearby_about_dup_debug_info (NULL);
  g_assert_cmpstr (debug_info, ==, expected_debug_info);
  g_assert_nonnull (strstr (debug_info, "Display: Gdk"));
  g_assert_cmpstr (debug_info_filename, ==, "nearby-debug-info.txt");
  g_assert_cmpstr (icon, ==, APP_ID);
  g_assert_cmpstr (version, ==, PACKAGE_VERSION);
  g_assert_cmpint (license, ==, GTK_LICENSE_GPL_3_0);
  gtk_window_destroy (window);
}

/* The translator named in po/de.po's header, without the address. */
static char *
german_last_translator (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "po", "de.po", NULL);
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;
  const char *start;

  g_assert_true (g_file_get_contents (path, &contents, NULL, &error));
  g_assert_no_error (error);
  start = strstr (contents, "\"Last-Translator: ");
  g_assert_nonnull (start);
  start += strlen ("\"Last-Translator: ");
  return g_strstrip (g_strndup (start, strcspn (start, "<\\\"")));
}

static void
german_credits (void)
{
  g_autofree char *localedir = g_test_build_filename (G_TEST_BUILT, "..", "po", NULL);
  g_autofree char *translator = german_last_translator ();

  /* A fresh process: gettext keeps what it has looked up for the language it started with. */
  g_setenv ("LANGUAGE", "de", TRUE);
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, localedir);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  g_assert_cmpstr (_("translator-credits"), ==, translator);
  g_assert_cmpstr (_("© 2026 The Nearby developers"), !=, "© 2026 The Nearby developers");
}

/* In German, the About window names the German translator, as the catalogue's header does. */
static void
test_german_translator_credits (void)
{
  if (g_test_subprocess ())
    {
      german_credits ();
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

int
main (int   argc,
      char *argv[])
{
  g_setenv ("GTK_A11Y", "none", TRUE);
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/about/debug-info", test_debug_info);
  g_test_add_func ("/about/debug-info-bluetooth", test_debug_info_bluetooth);
  g_test_add_func ("/about/window", test_window);
  g_test_add_func ("/about/german-translator-credits", test_german_translator_credits);

  return g_test_run ();
}
