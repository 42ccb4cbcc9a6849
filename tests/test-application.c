/* test-application.c: what the application hands its window, and leaves behind when it quits
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <adwaita.h>

#include "nearby-application-private.h"

typedef struct {
  GtkApplication *application;
  GFunc           check;       /* called with the window once it shows, then the app quits */
  NearbySource   *source;      /* weak */
  AdwToast       *toast;       /* weak */
  const char     *action;
  const char     *argument;    /* one command-line argument, or NULL */
  gboolean        checked;     /* the check ran: without it, nothing was tested */
} Run;

static gboolean
check_and_quit (gpointer user_data)
{
  Run *run = user_data;
  GtkWindow *window = gtk_application_get_active_window (run->application);

  g_assert_true (NEARBY_IS_WINDOW (window));
  run->check (window, run);
  run->checked = TRUE;

  g_application_quit (G_APPLICATION (run->application));
  return G_SOURCE_REMOVE;
}

static void
on_window_added (GtkApplication *application,
                 GtkWindow      *window,
                 Run            *run)
{
  if (NEARBY_IS_WINDOW (window))
    g_idle_add (check_and_quit, run);
}

/* Runs the application until its window shows and @check has looked at it; then lets it go. */
static gboolean
run_application (Run   *run,
                 GFunc  check)
{
  g_autoptr(NearbyApplication) application = NULL;
  char *argv[] = { (char *) "test-application", (char *) run->argument, NULL };

  /* Without one, GTK's initialisation itself fails assertions, which these tests make fatal. */
  if ((g_getenv ("DISPLAY") == NULL && g_getenv ("WAYLAND_DISPLAY") == NULL) || !gtk_init_check ())
    return FALSE;

  application = nearby_application_new ();
  run->application = GTK_APPLICATION (application);
  run->check = check;
  g_application_set_flags (G_APPLICATION (application), G_APPLICATION_NON_UNIQUE);
  g_signal_connect (application, "window-added", G_CALLBACK (on_window_added), run);

  g_assert_cmpint (g_application_run (G_APPLICATION (application), run->argument != NULL ? 2 : 1,
                                     argv),
                   ==, 0);

  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (application)); l != NULL;
       l = gtk_application_get_windows (GTK_APPLICATION (application)))
    gtk_window_destroy (l->data);
  g_clear_object (&application);
  while (g_main_context_iteration (NULL, FALSE))
    ;

  g_assert_true (run->checked);
  return TRUE;
}

static void
note_source (gpointer window,
             gpointer user_data)
{
  Run *run = user_data;

  g_object_get (window, "source", &run->source, NULL);
  g_assert_nonnull (run->source);
  g_object_add_weak_pointer (G_OBJECT (run->source), (gpointer *) &run->source);
  g_object_unref (run->source);
}

/* The scanner holds the system bus and BlueZ's discovery session: quitting must let it go, or
 * discovery is never stopped and the scanner never freed. */
static void
test_scanner_released_on_quit (void)
{
  Run run = { 0 };

  if (!run_application (&run, note_source))
    {
      g_test_skip ("needs a display");
      return;
    }

  g_assert_null (run.source);
}

static void
answer_the_privacy_question (gpointer window,
                             gpointer user_data)
{
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);

  g_assert_true (nearby_window_get_needs_privacy_choice (window));
  g_settings_set_boolean (settings, "privacy-choice-made", TRUE);
  g_assert_false (nearby_window_get_needs_privacy_choice (window));
  g_settings_set_boolean (settings, "privacy-choice-made", FALSE);
  g_assert_true (nearby_window_get_needs_privacy_choice (window));

  /* Developer mode never asks. */
  g_settings_set_boolean (settings, "developer-mode", TRUE);
  g_assert_false (nearby_window_get_needs_privacy_choice (window));
  g_settings_reset (settings, "developer-mode");
}

/* The first-run question shows until the person answers it, and goes when they do. */
static void
test_privacy_choice_reaches_the_window (void)
{
  Run run = { 0 };

  if (!run_application (&run, answer_the_privacy_question))
    g_test_skip ("needs a display");
}

static void
show_a_toast (gpointer window,
              gpointer user_data)
{
  Run *run = user_data;

  run->toast = adw_toast_new ("Link copied");
  g_object_add_weak_pointer (G_OBJECT (run->toast), (gpointer *) &run->toast);
  _nearby_application_add_toast (NEARBY_APPLICATION (run->application), run->toast);
  g_assert_nonnull (run->toast);
}

/* A toast is the window's once shown: it goes with the window, not kept for ever. */
static void
test_toast_not_kept (void)
{
  Run run = { 0 };

  if (!run_application (&run, show_a_toast))
    {
      g_test_skip ("needs a display");
      return;
    }

  g_assert_null (run.toast);
}

static gboolean
shows_label (GtkWidget  *widget,
             const char *text)
{
  if (GTK_IS_LABEL (widget) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (widget)), text) == 0)
    return TRUE;

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (shows_label (child, text))
      return TRUE;

  return FALSE;
}

static void
act_on_a_gone_object (gpointer window,
                      gpointer user_data)
{
  Run *run = user_data;

  g_assert_false (shows_label (window, "That object is no longer nearby"));
  g_action_group_activate_action (G_ACTION_GROUP (run->application), run->action,
                                  g_variant_new_string ("https://gone.example/"));
  g_assert_true (shows_label (window, "That object is no longer nearby"));
}

/* Opening, or asking for the details of, an object that has just left the list says so. */
static void
test_gone_object_says_so (void)
{
  static const char *actions[] = { "open-object", "show-details" };

  for (guint i = 0; i < G_N_ELEMENTS (actions); i++)
    {
      Run run = { 0 };

      run.action = actions[i];
      if (!run_application (&run, act_on_a_gone_object))
        {
          g_test_skip ("needs a display");
          return;
        }
    }
}

static GtkWidget *
find_widget (GtkWidget *widget,
             GType      type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type))
    return widget;

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_widget (child, type);

      if (found != NULL)
        return found;
    }

  return NULL;
}

static gboolean
focus_is_in (GtkWidget *window,
             GtkWidget *widget)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (window));

  return focus != NULL && (focus == widget || gtk_widget_is_ancestor (focus, widget));
}

static void
close_with_focus_on_list (gpointer window,
                          gpointer user_data)
{
  GtkWidget *list = find_widget (window, GTK_TYPE_LIST_VIEW);
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;

  /* The demo's objects come in and the window puts the focus on them, as it does at start. */
  g_assert_nonnull (list);
  while (!focus_is_in (window, list) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (focus_is_in (window, list));

  /* Ctrl+W: the focus leaves the list as the window goes, and nothing the window held may be
   * touched by then (G_DEBUG=fatal-warnings makes any critical end the test). */
  g_assert_true (gtk_widget_activate_action (window, "window.close", NULL));
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_null (gtk_application_get_windows (GTK_APPLICATION (((Run *) user_data)->application)));
}

/* Closing the window while the keyboard is on the list closes it, and nothing else. */
static void
test_close_with_focus_on_list (void)
{
  Run run = { 0 };

  run.argument = "--demo";
  if (!run_application (&run, close_with_focus_on_list))
    g_test_skip ("needs a display");
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
  g_test_add_func ("/application/privacy-choice-reaches-the-window",
                   test_privacy_choice_reaches_the_window);
  g_test_add_func ("/application/toast-not-kept", test_toast_not_kept);
  g_test_add_func ("/application/gone-object-says-so", test_gone_object_says_so);
  g_test_add_func ("/application/close-with-focus-on-list", test_close_with_focus_on_list);

  return g_test_run ();
}
