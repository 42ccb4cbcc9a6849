/* bench-startup-minimal.c: the least a libadwaita app does before its first frame
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * bench-startup times it against `nearby`: an AdwApplication whose AdwApplicationWindow (a
 * header bar over a status page, the size of Nearby's window) logs its first frame exactly as
 * NearbyWindow does.
 */

#define G_LOG_DOMAIN "bench-startup-minimal"

#include "config.h"

#include <adwaita.h>

#include "nearby-process-age.h"

static void
on_after_paint (GdkFrameClock *clock,
                gpointer       user_data)
{
  g_signal_handlers_disconnect_by_func (clock, on_after_paint, user_data);
  g_debug ("First frame painted %.0f ms after the process started (monotonic time %" G_GINT64_FORMAT
           " us)", nearby_process_age_ms (), g_get_monotonic_time ());
}

static void
on_realize (GtkWidget *window)
{
  g_signal_connect (gtk_widget_get_frame_clock (window), "after-paint",
                    G_CALLBACK (on_after_paint), NULL);
}

static void
on_activate (GApplication *app)
{
  GtkWidget *window = adw_application_window_new (GTK_APPLICATION (app));
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *status = adw_status_page_new ();

  adw_status_page_set_title (ADW_STATUS_PAGE (status), "Minimal");
  gtk_widget_set_vexpand (status, TRUE);
  gtk_box_append (GTK_BOX (box), adw_header_bar_new ());
  gtk_box_append (GTK_BOX (box), status);
  adw_application_window_set_content (ADW_APPLICATION_WINDOW (window), box);
  gtk_window_set_default_size (GTK_WINDOW (window), 560, 680);

  g_signal_connect (window, "realize", G_CALLBACK (on_realize), NULL);
  gtk_window_present (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(AdwApplication) app = adw_application_new ("io.github.nearbyweb.Nearby.BenchMinimal",
                                                       G_APPLICATION_DEFAULT_FLAGS);

  g_signal_connect (app, "activate", G_CALLBACK (on_activate), NULL);

  return g_application_run (G_APPLICATION (app), argc, argv);
}
