/* test-application.c: what the application leaves behind when it quits
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <adwaita.h>

#include "nearby-application.h"
#include "nearby-window.h"

typedef struct {
  GtkApplication *application;
  NearbySource   *source;      /* weak */
} Run;

/* Once the window shows its source, note the source and quit. */
static gboolean
note_source_and_quit (gpointer user_data)
{
  Run *run = user_data;
  GtkWindow *window = gtk_application_get_active_window (run->application);

  g_assert_true (NEARBY_IS_WINDOW (window));
  g_object_get (window, "source", &run->source, NULL);
  g_assert_nonnull (run->source);
  g_object_add_weak_pointer (G_OBJECT (run->source), (gpointer *) &run->source);
  g_object_unref (run->source);

  g_application_quit (G_APPLICATION (run->application));
  return G_SOURCE_REMOVE;
}

static void
on_window_added (GtkApplication *application,
                 GtkWindow      *window,
                 Run            *run)
{
  if (NEARBY_IS_WINDOW (window))
    g_idle_add (note_source_and_quit, run);
}

/* The scanner holds the system bus and BlueZ's discovery session: quitting must let it go, or
 * discovery is never stopped and the scanner never freed. */
static void
test_scanner_released_on_quit (void)
{
  g_autoptr(NearbyApplication) application = NULL;
  Run run = { NULL, NULL };
  char *argv[] = { (char *) "test-application", NULL };

  if (!gtk_init_check ())
    {
      g_test_skip ("needs a display");
      return;
    }

  application = nearby_application_new ();
  run.application = GTK_APPLICATION (application);
  g_application_set_flags (G_APPLICATION (application), G_APPLICATION_NON_UNIQUE);
  g_signal_connect (application, "window-added", G_CALLBACK (on_window_added), &run);

  g_assert_cmpint (g_application_run (G_APPLICATION (application), 1, argv), ==, 0);
  g_assert_nonnull (run.source);
  g_assert_true (NEARBY_IS_SOURCE (run.source));

  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (application)); l != NULL;
       l = gtk_application_get_windows (GTK_APPLICATION (application)))
    gtk_window_destroy (l->data);
  g_clear_object (&application);
  while (g_main_context_iteration (NULL, FALSE))
    ;

  g_assert_null (run.source);
}

int
main (int   argc,
      char *argv[])
{
  /* No accessibility bus here; and no bluetoothd: the scanner finds no service, quickly. */
  g_setenv ("GTK_A11Y", "none", TRUE);
  g_setenv ("DBUS_SYSTEM_BUS_ADDRESS", "unix:path=/nonexistent/nearby-test-system-bus", TRUE);
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/application/scanner-released-on-quit", test_scanner_released_on_quit);

  return g_test_run ();
}
