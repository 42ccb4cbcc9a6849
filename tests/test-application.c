/* test-application.c: what the application hands its window, and leaves behind when it quits
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <adwaita.h>

#include "nearby-application-private.h"
#include "nearby-inspector.h"
#include "nearby-test-utils.h"

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
follow_the_hold (gpointer window,
                 gpointer user_data)
{
  Run *run = user_data;
  NearbyApplication *application = NEARBY_APPLICATION (run->application);
  g_autoptr(NearbySource) source = NULL;
  g_autoptr(NearbyObject) object = nearby_object_new ("https://bus.example/");
  NearbyInspector *inspector;

  g_object_get (window, "source", &source, NULL);
  g_assert_true (NEARBY_IS_SCANNER (source));
  g_assert_true (nearby_scanner_get_hold_steady (NEARBY_SCANNER (source)));

  inspector = nearby_inspector_new (object, application->objects);
  gtk_application_add_window (run->application, GTK_WINDOW (inspector));
  g_assert_false (nearby_scanner_get_hold_steady (NEARBY_SCANNER (source)));
  gtk_window_destroy (GTK_WINDOW (inspector));
  g_assert_true (nearby_scanner_get_hold_steady (NEARBY_SCANNER (source)));
}

/* The app holds back what still beacons repeat, except while a Details window is open, which
 * shows every advert and the signal graph. */
static void
test_hold_while_no_details (void)
{
  Run run = { 0 };

  if (!run_application (&run, follow_the_hold))
    g_test_skip ("needs a display");
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

static GtkWidget *
find_label (GtkWidget  *widget,
            const char *text)
{
  if (GTK_IS_LABEL (widget) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (widget)), text) == 0)
    return widget;

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_label (child, text);

      if (found != NULL)
        return found;
    }

  return NULL;
}

/* On screen: the page that holds it is the one its stack shows. */
static void
assert_shown (GtkWidget  *window,
              const char *text)
{
  GtkWidget *label = find_label (window, text);
  gint64 deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;

  if (label == NULL)
    g_error ("“%s” is nowhere in the window", text);
  while (!gtk_widget_get_mapped (label) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, FALSE);
  if (!gtk_widget_get_mapped (label))
    g_error ("“%s” is in the window but not shown", text);
}

/* Tab, from wherever the focus is, comes to the button whose label (with its mnemonic) is
 * @label, as a person with a keyboard would get there. */
static void
assert_reached_by_tab (GtkWidget  *window,
                       const char *label)
{
  for (guint i = 0; i < 40; i++)
    {
      GtkWidget *focus;

      if (!gtk_widget_child_focus (window, GTK_DIR_TAB_FORWARD))
        continue;
      focus = gtk_root_get_focus (GTK_ROOT (window));
      if (GTK_IS_BUTTON (focus) && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (focus)), label) == 0)
        return;
    }

  g_error ("Tab never came to “%s”", label);
}

static const struct {
  NearbySourceState  state;
  const char        *title;
  const char        *button;   /* one the page always has, or NULL */
} source_pages[] = {
  { NEARBY_SOURCE_STATE_OFF, "Bluetooth Is Off", "_Turn On" },
  { NEARBY_SOURCE_STATE_NO_ADAPTER, "No Bluetooth Adapter", "_Show Demo Objects" },
  { NEARBY_SOURCE_STATE_NO_SERVICE, "Bluetooth Service Not Running", NULL },
  { NEARBY_SOURCE_STATE_RFKILL_BLOCKED, "Bluetooth Is Blocked", NULL },
  { NEARBY_SOURCE_STATE_ERROR, "Cannot Look for Objects", NULL },
  { NEARBY_SOURCE_STATE_FINISHED, "Replay Finished", NULL },
  { NEARBY_SOURCE_STATE_SCANNING, "Looking for Nearby Objects…", NULL },
};

static void
show_each_page (gpointer window,
                gpointer user_data)
{
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  g_autoptr(NearbyTestSource) source = nearby_test_source_new ();
  GtkWidget *off_title = NULL;

  /* The question comes first, and no other page has been made for it. */
  assert_shown (window, "When May Nearby Look Up Pages?");
  assert_reached_by_tab (window, "_Secure Pages Automatically");
  assert_reached_by_tab (window, "_Ask Me Each Time");
  for (guint i = 0; i < G_N_ELEMENTS (source_pages); i++)
    g_assert_null (find_label (window, source_pages[i].title));

  /* Answered, each of Bluetooth's states shows its page when it comes. */
  g_assert_true (gtk_widget_activate_action (window, "win.choose-lookup-policy", "s", "ask"));
  g_assert_true (g_settings_get_boolean (settings, "privacy-choice-made"));
  nearby_window_set_source (window, NEARBY_SOURCE (source));
  for (guint i = 0; i < G_N_ELEMENTS (source_pages); i++)
    {
      nearby_test_source_set_state (source, source_pages[i].state, "Replayed to the end");
      assert_shown (window, source_pages[i].title);
      if (source_pages[i].state == NEARBY_SOURCE_STATE_OFF)
        off_title = find_label (window, source_pages[i].title);
      if (source_pages[i].button != NULL)
        assert_reached_by_tab (window, source_pages[i].button);
    }
  /* A page comes back as it was, not made a second time. */
  nearby_test_source_set_state (source, NEARBY_SOURCE_STATE_OFF, NULL);
  assert_shown (window, "Bluetooth Is Off");
  g_assert_true (find_label (window, "Bluetooth Is Off") == off_title);

  g_settings_reset (settings, "privacy-choice-made");
  g_settings_reset (settings, "lookup-policy");
}

static void
search_for_nothing (gpointer window,
                    gpointer user_data)
{
  GtkWidget *list = find_widget (window, GTK_TYPE_LIST_VIEW);
  GtkWidget *entry = find_widget (window, GTK_TYPE_SEARCH_ENTRY);
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;

  /* The demo asks nothing: its window never made the question. */
  g_assert_null (find_label (window, "When May Nearby Look Up Pages?"));

  while (!gtk_widget_get_mapped (list) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (gtk_widget_get_mapped (list));
  g_assert_null (find_label (window, "No Results"));

  g_assert_true (gtk_widget_activate_action (window, "win.search", NULL));
  gtk_editable_set_text (GTK_EDITABLE (entry), "no object says this");
  g_signal_emit_by_name (entry, "search-changed");
  assert_shown (window, "No Results");
}

/* The status pages are made when first needed: each still shows when its condition comes, with
 * its words and its buttons in the keyboard's reach. */
static void
test_pages_shown_when_needed (void)
{
  Run run = { 0 };
  Run demo = { 0 };

  if (!run_application (&run, show_each_page))
    {
      g_test_skip ("needs a display");
      return;
    }

  demo.argument = "--demo";
  g_assert_true (run_application (&demo, search_for_nothing));
}

static void
open_the_main_menu (gpointer window,
                    gpointer user_data)
{
  GtkWidget *button = find_widget (window, GTK_TYPE_MENU_BUTTON);
  GtkPopover *popover;
  gint64 deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;

  g_assert_nonnull (button);
  gtk_menu_button_popup (GTK_MENU_BUTTON (button));
  popover = gtk_menu_button_get_popover (GTK_MENU_BUTTON (button));
  g_assert_nonnull (popover);
  while (!gtk_widget_get_mapped (GTK_WIDGET (popover)) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, FALSE);
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (popover)));
  g_assert_nonnull (find_label (GTK_WIDGET (popover), "Preferences"));
  g_assert_nonnull (find_label (GTK_WIDGET (popover), "About Nearby"));
  gtk_menu_button_popdown (GTK_MENU_BUTTON (button));
}

/* The main menu opens with its items. */
static void
test_main_menu_opens (void)
{
  Run run = { 0 };

  if (!run_application (&run, open_the_main_menu))
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
  g_test_add_func ("/application/hold-while-no-details", test_hold_while_no_details);
  g_test_add_func ("/application/privacy-choice-reaches-the-window",
                   test_privacy_choice_reaches_the_window);
  g_test_add_func ("/application/toast-not-kept", test_toast_not_kept);
  g_test_add_func ("/application/gone-object-says-so", test_gone_object_says_so);
  g_test_add_func ("/application/close-with-focus-on-list", test_close_with_focus_on_list);
  g_test_add_func ("/application/pages-shown-when-needed", test_pages_shown_when_needed);
  g_test_add_func ("/application/main-menu-opens", test_main_menu_opens);

  return g_test_run ();
}
