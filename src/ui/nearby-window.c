/* nearby-window.c
 *
 * The main window: its pages, the list with its headings, search and paused order, and the
 * keyboard. Over 900 lines because these share the window's state (which page shows, whether the
 * list is engaged, what the search leaves); the search's matching and the headings' model are in
 * files of their own.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-window"

#include "config.h"

#include <glib/gi18n.h>

#include "nearby-application.h"
#include "nearby-object-row.h"
#include "nearby-object-search.h"
#include "nearby-process-age.h"
#include "nearby-scanner.h"
#include "nearby-section-model.h"
#include "nearby-a11y.h"
#include "nearby-window.h"

struct _NearbyWindow
{
  AdwApplicationWindow  parent_instance;

  NearbySource         *source;
  GListModel           *objects;
  GListModel           *all_objects;
  GtkFilterListModel   *shown_objects;   /* what the list shows: @objects, searched */
  GtkCustomFilter      *search_filter;
  NearbySectionModel   *sections;
  GSettings            *settings;

  /* Template widgets */
  AdwToastOverlay      *toast_overlay;
  GtkStack             *stack;
  GtkListView          *list_view;
  GtkEventController   *list_motion;
  GtkEventController   *list_focus;
  GtkLabel             *paused_label;
  GtkWidget            *scan_indicator;
  GtkWidget            *refresh_button;
  AdwWindowTitle       *window_title;
  GtkSearchBar         *search_bar;
  GtkEditable          *search_entry;
  GtkWidget            *search_button;

  /* On status pages, once built (nearby_window_ensure_page); the stack owns them. */
  AdwStatusPage        *error_page;
  AdwStatusPage        *hidden_page;
  GtkWidget            *error_actions;
  GtkLabel             *error_details_label;
  GtkWidget            *searching_demo_button;
  AdwStatusPage        *finished_page;

  gboolean              needs_privacy_choice;
  gboolean              pointer_in_list;
  gboolean              focus_in_list;
  gboolean              list_focused_at_start;
  GtkWidget            *header_bar;
  gboolean              first_frame_logged;
  gboolean              on_screen;
  GdkSurface           *watched_surface;
};

G_DEFINE_FINAL_TYPE (NearbyWindow, nearby_window, ADW_TYPE_APPLICATION_WINDOW)

enum {
  PROP_0,
  PROP_SOURCE,
  PROP_OBJECTS,
  PROP_ALL_OBJECTS,
  PROP_LIST_ENGAGED,
  PROP_NEEDS_PRIVACY_CHOICE,
  PROP_ON_SCREEN,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void nearby_window_focus_list_at_start (NearbyWindow *self);

const char *
nearby_window_page_for (NearbySourceState state,
                        guint             n_objects,
                        guint             n_hidden,
                        gboolean          privacy_choice_made)
{
  if (!privacy_choice_made)
    return "first-run";

  /* An empty list is not "nothing around" when the person hid what is around. */
  if (n_objects == 0 && n_hidden > 0 &&
      (state == NEARBY_SOURCE_STATE_SCANNING || state == NEARBY_SOURCE_STATE_FINISHED))
    return "hidden";

  switch (state)
    {
    case NEARBY_SOURCE_STATE_NO_SERVICE:
      return "no-service";
    case NEARBY_SOURCE_STATE_NO_ADAPTER:
      return "no-adapter";
    case NEARBY_SOURCE_STATE_OFF:
      return "off";
    case NEARBY_SOURCE_STATE_RFKILL_BLOCKED:
      return "rfkill-blocked";
    case NEARBY_SOURCE_STATE_ERROR:
      return "error";
    case NEARBY_SOURCE_STATE_FINISHED:
      return n_objects > 0 ? "list" : "finished";
    case NEARBY_SOURCE_STATE_STARTING:
      /* A moment of nothing beats a "Looking…" page that turns into "No adapter" at once. */
      return n_objects > 0 ? "list" : "starting";
    case NEARBY_SOURCE_STATE_SCANNING:
    default:
      return n_objects > 0 ? "list" : "searching";
    }
}

static const char *
nearby_window_page_title (NearbyWindow *self,
                          const char   *page)
{
  GtkWidget *child = gtk_stack_get_child_by_name (self->stack, page);

  if (ADW_IS_STATUS_PAGE (child))
    return adw_status_page_get_title (ADW_STATUS_PAGE (child));
  if (g_str_equal (page, "starting"))
    return _("Starting");

  return _("Nearby objects");
}

/* A status page's icon is set when the page is first shown: GtkStack measures every page, and
 * Adwaita's icons at a status page's 128 px are SVGs, which GTK 4.8 renders with librsvg (about
 * 8 MiB of resident memory loaded for icons nobody sees). The page shown at rest has its icon
 * pre-rendered, under a name without dots (data/icons/listening/README.md). */
static const struct {
  const char *page;
  const char *icon_name;
} page_icons[] = {
  { "first-run", "io.github.nearbyweb.Nearby-symbolic" },
  { "searching", "nearby-listening-symbolic" },
  { "hidden", "view-conceal-symbolic" },
  { "off", "bluetooth-disabled-symbolic" },
  { "no-adapter", "bluetooth-disabled-symbolic" },
  { "no-service", "dialog-warning-symbolic" },
  { "rfkill-blocked", "airplane-mode-symbolic" },
  { "error", "dialog-error-symbolic" },
  { "finished", "media-playback-stop-symbolic" },
  { "no-results", "edit-find-symbolic" },
};

const char *
nearby_window_page_icon (const char *page)
{
  g_return_val_if_fail (page != NULL, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (page_icons); i++)
    if (g_str_equal (page_icons[i].page, page))
      return page_icons[i].icon_name;

  return NULL;
}

static void
nearby_window_set_page_icon (NearbyWindow *self,
                             const char   *page)
{
  GtkWidget *child;

  /* Until the window is shown, its page may still change: it starts on the first-run page
   * until it learns whether the question was answered. */
  if (page == NULL || !gtk_widget_get_mapped (GTK_WIDGET (self)))
    return;

  child = gtk_stack_get_child_by_name (self->stack, page);
  if (ADW_IS_STATUS_PAGE (child) && adw_status_page_get_icon_name (ADW_STATUS_PAGE (child)) == NULL)
    adw_status_page_set_icon_name (ADW_STATUS_PAGE (child), nearby_window_page_icon (page));
}

static gboolean
bluetooth_settings_available (void)
{
  g_autofree char *path = g_find_program_in_path ("gnome-control-center");

  return path != NULL;
}

/* A phone is 360 pixels wide, narrower than some of these labels on one line (more so translated):
 * they wrap rather than widen the window. The button keeps its label, and with it its
 * accessible name and mnemonic. */
static void
let_label_wrap (GObject *button)
{
  GtkWidget *child = gtk_button_get_child (GTK_BUTTON (button));

  if (GTK_IS_LABEL (child))
    {
      gtk_label_set_wrap (GTK_LABEL (child), TRUE);
      gtk_label_set_justify (GTK_LABEL (child), GTK_JUSTIFY_CENTER);
    }
}

/* The status pages are built the first time each is shown, from their own file: the window
 * shows one at a time and most are never seen, and building all ten with the window was a part
 * of its start (tests/bench/README.md, bench-startup). Whether the first-run question is built
 * at all is known at construction (the needs-privacy-choice property). */
static GtkWidget *
nearby_window_ensure_page (NearbyWindow *self,
                           const char   *page)
{
  GtkWidget *child = gtk_stack_get_child_by_name (self->stack, page);
  g_autoptr(GtkBuilder) builder = NULL;
  g_autoptr(GError) error = NULL;
  const char *ids[] = { page, NULL };

  if (child != NULL)
    return child;

  builder = gtk_builder_new ();
  if (!gtk_builder_add_objects_from_resource (builder,
                                              "/io/github/nearbyweb/Nearby/nearby-window-pages.ui",
                                              ids, &error))
    g_error ("The window's pages: %s", error->message);
  child = GTK_WIDGET (gtk_builder_get_object (builder, page));
  g_return_val_if_fail (child != NULL, NULL);

  if (g_str_equal (page, "first-run"))
    {
      let_label_wrap (gtk_builder_get_object (builder, "automatic_lookup_button"));
      let_label_wrap (gtk_builder_get_object (builder, "ask_lookup_button"));
    }
  else if (g_str_equal (page, "searching"))
    {
      self->searching_demo_button = GTK_WIDGET (gtk_builder_get_object (builder,
                                                                        "searching_demo_button"));
    }
  else if (g_str_equal (page, "hidden"))
    {
      self->hidden_page = ADW_STATUS_PAGE (child);
    }
  else if (g_str_equal (page, "rfkill-blocked"))
    {
      gtk_widget_set_visible (GTK_WIDGET (gtk_builder_get_object (builder,
                                                                  "bluetooth_settings_button")),
                              bluetooth_settings_available ());
    }
  else if (g_str_equal (page, "error"))
    {
      self->error_page = ADW_STATUS_PAGE (child);
      self->error_actions = GTK_WIDGET (gtk_builder_get_object (builder, "error_actions"));
      self->error_details_label = GTK_LABEL (gtk_builder_get_object (builder,
                                                                     "error_details_label"));
    }
  else if (g_str_equal (page, "finished"))
    {
      self->finished_page = ADW_STATUS_PAGE (child);
    }

  nearby_a11y_name_buttons_by_their_labels (child);
  gtk_stack_add_named (self->stack, child, page);

  return child;
}

static void
nearby_window_update_page (NearbyWindow *self)
{
  NearbySourceState state = NEARBY_SOURCE_STATE_STARTING;
  guint n_objects = 0;
  guint n_hidden = 0;
  gboolean chosen = !self->needs_privacy_choice;
  const char *page;
  GtkWidget *child;

  if (self->source != NULL)
    state = nearby_source_get_state (self->source);
  if (self->objects != NULL)
    n_objects = g_list_model_get_n_items (self->objects);
  /* The list shows what is left once hidden sites are left out. */
  if (self->all_objects != NULL && g_list_model_get_n_items (self->all_objects) > n_objects)
    n_hidden = g_list_model_get_n_items (self->all_objects) - n_objects;

  page = nearby_window_page_for (state, n_objects, n_hidden, chosen);

  /* Only a search leaves nothing to show: without one, an empty filter model is one that has
   * not seen the objects' change yet, and its "No Results" would flash (and load its icon). */
  if (g_str_equal (page, "list") && self->shown_objects != NULL &&
      gtk_search_bar_get_search_mode (self->search_bar) &&
      g_list_model_get_n_items (G_LIST_MODEL (self->shown_objects)) == 0)
    page = "no-results";

  child = nearby_window_ensure_page (self, page);
  if (child == NULL)
    return;

  if (g_str_equal (page, "hidden"))
    {
      g_autofree char *title = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                             "%u Object Is Hidden",
                                                             "%u Objects Are Hidden",
                                                             n_hidden),
                                                n_hidden);

      adw_status_page_set_title (self->hidden_page, title);
    }

  if (g_str_equal (page, "error"))
    {
      g_autofree char *message = nearby_source_dup_state_message (self->source);
      gboolean bluetooth = NEARBY_IS_SCANNER (self->source);
      /* The description is markup; a replay's message names its file, which may hold "&". */
      g_autofree char *escaped = message != NULL ? g_markup_escape_text (message, -1) : NULL;

      /* bluetoothd's words ("org.bluez.Error.Failed") mean something to a developer only:
       * a plain sentence first, the words behind Details. A replay's or the demo's message is
       * a sentence already. */
      adw_status_page_set_description (self->error_page,
                                       bluetooth
                                       ? _("Bluetooth did not start looking for objects. "
                                           "Nearby keeps trying by itself.")
                                       : escaped);
      gtk_label_set_label (self->error_details_label, bluetooth ? message : NULL);
      gtk_widget_set_visible (self->error_actions, bluetooth);
    }

  if (g_str_equal (page, "finished"))
    {
      g_autofree char *message = nearby_source_dup_state_message (self->source);
      /* A status page's description is markup; the message quotes the capture's lines. */
      g_autofree char *escaped = message != NULL ? g_markup_escape_text (message, -1) : NULL;

      adw_status_page_set_description (self->finished_page,
                                       escaped != NULL
                                       ? escaped
                                       : _("Every sighting in the capture has been replayed."));
    }

  /* Beacons are rare: with nothing around, the demo shows what Nearby would show. Not during
   * a replay, or the demo, whose objects would mix with the ones it shows. */
  if (self->searching_demo_button != NULL)
    gtk_widget_set_visible (self->searching_demo_button, NEARBY_IS_SCANNER (self->source));

  gtk_widget_set_visible (self->scan_indicator,
                          chosen && state == NEARBY_SOURCE_STATE_SCANNING);

  /* A demo or a replay says so in the title bar, so made-up objects are never mistaken for
   * real ones. */
  if (self->source != NULL && state == NEARBY_SOURCE_STATE_SCANNING)
    {
      g_autofree char *message = nearby_source_dup_state_message (self->source);

      adw_window_title_set_subtitle (self->window_title, message);
    }
  else
    {
      adw_window_title_set_subtitle (self->window_title, NULL);
    }
  nearby_window_set_page_icon (self, page);
  /* Pages are hidden until first shown (see nearby_window_init), and a stack shows no hidden
   * child. */
  gtk_widget_set_visible (child, TRUE);
  gtk_stack_set_visible_child_name (self->stack, page);
  if (g_str_equal (page, "list"))
    nearby_window_focus_list_at_start (self);
  /* Search is for a list: typing on a status page (the first-run question, an error) does not
   * open a search bar over nothing. A search that finds nothing still has a list behind it.
   * Refresh is also there where the list is empty: it says what it did ("Nothing to look up"),
   * where a button that comes and goes with the objects would move under the pointer. */
  {
    gboolean searchable = g_str_equal (page, "list") || g_str_equal (page, "no-results");

    gtk_widget_set_visible (self->refresh_button,
                            searchable || g_str_equal (page, "searching") ||
                            g_str_equal (page, "hidden") || g_str_equal (page, "finished"));
    gtk_widget_set_visible (self->search_button, searchable);
    gtk_search_bar_set_key_capture_widget (self->search_bar, searchable ? GTK_WIDGET (self) : NULL);
  }

  /* Screen readers (and the UI tests) learn what the content area shows from its name. */
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->stack),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  nearby_window_page_title (self, page),
                                  -1);
}

static void
on_source_state_changed (NearbyWindow *self)
{
  nearby_window_update_page (self);
}

static void
on_objects_changed (NearbyWindow *self,
                    guint         position,
                    guint         removed,
                    guint         added)
{
  /* Only the empty/non-empty transition can change the page. */
  if (removed != added)
    nearby_window_update_page (self);
}

static void
on_all_objects_changed (NearbyWindow *self,
                        guint         position,
                        guint         removed,
                        guint         added)
{
  /* The number of hidden objects is on the page that says the list is empty because of them. */
  if (removed != added)
    nearby_window_update_page (self);
}

NearbySource *
nearby_window_get_source (NearbyWindow *self)
{
  g_return_val_if_fail (NEARBY_IS_WINDOW (self), NULL);

  return self->source;
}

void
nearby_window_set_source (NearbyWindow *self,
                          NearbySource *source)
{
  g_return_if_fail (NEARBY_IS_WINDOW (self));
  g_return_if_fail (source == NULL || NEARBY_IS_SOURCE (source));

  if (self->source == source)
    return;

  if (self->source != NULL)
    g_signal_handlers_disconnect_by_func (self->source, on_source_state_changed, self);
  g_set_object (&self->source, source);
  if (self->source != NULL)
    g_signal_connect_object (self->source, "notify::state",
                             G_CALLBACK (on_source_state_changed), self, G_CONNECT_SWAPPED);

  nearby_window_update_page (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SOURCE]);
}

static void
nearby_window_set_objects (NearbyWindow *self,
                           GListModel   *objects)
{
  g_autoptr(GtkNoSelection) selection = NULL;

  g_assert (self->objects == NULL);

  if (objects == NULL)
    return;

  self->objects = g_object_ref (objects);
  g_signal_connect_object (objects, "items-changed",
                           G_CALLBACK (on_objects_changed), self, G_CONNECT_SWAPPED);
  self->shown_objects = gtk_filter_list_model_new (g_object_ref (objects),
                                                   g_object_ref (GTK_FILTER (self->search_filter)));
  g_signal_connect_object (self->shown_objects, "items-changed",
                           G_CALLBACK (on_objects_changed), self, G_CONNECT_SWAPPED);
  /* Headings go over what the search leaves, so that a part with no match has none. */
  self->sections = nearby_section_model_new (G_LIST_MODEL (self->shown_objects));
  nearby_section_model_set_paused (self->sections, nearby_window_get_list_engaged (self));
  selection = gtk_no_selection_new (g_object_ref (G_LIST_MODEL (self->sections)));
  gtk_list_view_set_model (self->list_view, GTK_SELECTION_MODEL (selection));
}

static void
nearby_window_set_all_objects (NearbyWindow *self,
                               GListModel   *all_objects)
{
  g_assert (self->all_objects == NULL);

  if (all_objects == NULL)
    return;

  self->all_objects = g_object_ref (all_objects);
  g_signal_connect_object (all_objects, "items-changed",
                           G_CALLBACK (on_all_objects_changed), self, G_CONNECT_SWAPPED);
}

void
nearby_window_show_toast (NearbyWindow *self,
                          const char   *message)
{
  g_return_if_fail (NEARBY_IS_WINDOW (self));

  nearby_window_add_toast (self, adw_toast_new (message));
}

void
nearby_window_add_toast (NearbyWindow *self,
                         AdwToast     *toast)
{
  g_return_if_fail (NEARBY_IS_WINDOW (self));

  adw_toast_overlay_add_toast (self->toast_overlay, toast);
  nearby_a11y_watch_toast (GTK_WIDGET (self->toast_overlay), toast);
}

gboolean
nearby_window_get_needs_privacy_choice (NearbyWindow *self)
{
  g_return_val_if_fail (NEARBY_IS_WINDOW (self), TRUE);

  return self->needs_privacy_choice;
}

void
nearby_window_set_needs_privacy_choice (NearbyWindow *self,
                                        gboolean      needs_privacy_choice)
{
  g_return_if_fail (NEARBY_IS_WINDOW (self));

  needs_privacy_choice = !!needs_privacy_choice;
  if (self->needs_privacy_choice == needs_privacy_choice)
    return;

  self->needs_privacy_choice = needs_privacy_choice;
  nearby_window_update_page (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NEEDS_PRIVACY_CHOICE]);
}

gboolean
nearby_window_get_list_engaged (NearbyWindow *self)
{
  g_return_val_if_fail (NEARBY_IS_WINDOW (self), FALSE);

  /* Focus left on the list of a window in the background (Details, Preferences, another app)
   * is nobody reading it. */
  /* The focus the window puts on the list at start is nobody reading it either, until the
   * person uses the keyboard (GTK then shows the focus). */
  return self->pointer_in_list ||
         (self->focus_in_list && gtk_window_is_active (GTK_WINDOW (self)) &&
          gtk_window_get_focus_visible (GTK_WINDOW (self)));
}

/* The list must not move under the pointer or the keyboard focus: the app freezes the order
 * while the person is engaged with it. */
static void
nearby_window_update_engaged (NearbyWindow *self,
                              gboolean      pointer_in_list,
                              gboolean      focus_in_list)
{
  gboolean engaged;
  const char *reason = NULL;

  self->pointer_in_list = pointer_in_list;
  self->focus_in_list = focus_in_list;
  engaged = nearby_window_get_list_engaged (self);

  if (self->sections != NULL)
    nearby_section_model_set_paused (self->sections, engaged);

  /* Rows that do not move as the signal says they should look like a fault: the list says why,
   * quietly, and screen readers hear it with the list. */
  if (pointer_in_list)
    reason = _("Order paused while you point at the list");
  else if (engaged)
    reason = _("Order paused while you move through the list");
  gtk_label_set_label (self->paused_label, reason);
  gtk_widget_set_visible (GTK_WIDGET (self->paused_label), reason != NULL);
  if (reason != NULL)
    gtk_accessible_update_property (GTK_ACCESSIBLE (self->list_view),
                                    GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, reason,
                                    -1);
  else
    gtk_accessible_reset_property (GTK_ACCESSIBLE (self->list_view),
                                   GTK_ACCESSIBLE_PROPERTY_DESCRIPTION);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LIST_ENGAGED]);
}

static void
on_is_active_changed (NearbyWindow *self)
{
  nearby_window_update_engaged (self, self->pointer_in_list, self->focus_in_list);
}

static void
on_list_pointer_enter (NearbyWindow *self)
{
  nearby_window_update_engaged (self, TRUE, self->focus_in_list);
}

static void
on_list_pointer_leave (NearbyWindow *self)
{
  nearby_window_update_engaged (self, FALSE, self->focus_in_list);
}

static void
on_list_focus_enter (NearbyWindow *self)
{
  nearby_window_update_engaged (self, self->pointer_in_list, TRUE);
}

static void
on_list_focus_leave (NearbyWindow *self)
{
  nearby_window_update_engaged (self, self->pointer_in_list, FALSE);
}

static gboolean
developer_mode (NearbyWindow *self)
{
  GtkApplication *application = gtk_window_get_application (GTK_WINDOW (self));

  return NEARBY_IS_APPLICATION (application) &&
         nearby_application_get_developer_mode (NEARBY_APPLICATION (application));
}

static gboolean
object_matches_search (gpointer item,
                       gpointer user_data)
{
  NearbyWindow *self = user_data;

  return nearby_object_matches_search (item, self->source,
                                       gtk_editable_get_text (self->search_entry),
                                       developer_mode (self));
}

static void
on_search_changed (NearbyWindow *self)
{
  gtk_filter_changed (GTK_FILTER (self->search_filter), GTK_FILTER_CHANGE_DIFFERENT);
  nearby_window_update_page (self);
}

/* Closing the search (Escape, the button) brings the whole list back. */
static void
on_search_mode_changed (NearbyWindow *self)
{
  gboolean searching = gtk_search_bar_get_search_mode (self->search_bar);

  /* Escape is the search's only while there is one. */
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.stop-search", searching);
  if (searching)
    return;

  gtk_editable_set_text (self->search_entry, "");
  on_search_changed (self);
  if (gtk_widget_get_mapped (GTK_WIDGET (self->list_view)))
    gtk_widget_grab_focus (GTK_WIDGET (self->list_view));
}

static void
search_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  NearbyWindow *self = NEARBY_WINDOW (widget);

  if (!gtk_widget_get_visible (self->search_button))
    return;

  gtk_search_bar_set_search_mode (self->search_bar, TRUE);
  gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
}

/* Escape closes the search wherever the focus is: typing on the list fills the entry without
 * moving the focus there. */
static void
stop_search_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  NearbyWindow *self = NEARBY_WINDOW (widget);

  gtk_search_bar_set_search_mode (self->search_bar, FALSE);
}

/* The list is one Tab stop, as GNOME's lists are: GtkListView 4.8 would walk from each row's
 * ⋮ button to the next row's. Arrows move between rows, Shift+F10 or the Menu key opens a
 * row's menu. The header bar holds everything else the window has to focus. */
static gboolean
on_list_key_pressed (NearbyWindow    *self,
                     guint            keyval,
                     guint            keycode,
                     GdkModifierType  state)
{
  GtkDirectionType direction;

  if (keyval == GDK_KEY_Tab || keyval == GDK_KEY_KP_Tab)
    direction = (state & GDK_SHIFT_MASK) ? GTK_DIR_TAB_BACKWARD : GTK_DIR_TAB_FORWARD;
  else if (keyval == GDK_KEY_ISO_Left_Tab)
    direction = GTK_DIR_TAB_BACKWARD;
  else
    return GDK_EVENT_PROPAGATE;

  if ((state & (GDK_CONTROL_MASK | GDK_ALT_MASK)) != 0)
    return GDK_EVENT_PROPAGATE;

  return gtk_widget_child_focus (self->header_bar, direction) ? GDK_EVENT_STOP
                                                              : GDK_EVENT_PROPAGATE;
}

/* Where a person starts: on the objects, not on the menu button. Once only, and not when the
 * person has already moved the focus with the keyboard. */
static void
nearby_window_focus_list_at_start (NearbyWindow *self)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (self));

  if (self->list_focused_at_start)
    return;
  self->list_focused_at_start = TRUE;

  if (focus != NULL && gtk_window_get_focus_visible (GTK_WINDOW (self)))
    return;

  gtk_widget_grab_focus (GTK_WIDGET (self->list_view));
}

static void
on_list_view_activate (NearbyWindow *self,
                       guint         position)
{
  g_autoptr(GObject) object = NULL;
  g_autofree char *key = NULL;

  if (self->sections != NULL)
    object = g_list_model_get_item (G_LIST_MODEL (self->sections), position);
  /* A heading is not an object: there is nothing to open. */
  if (!NEARBY_IS_OBJECT (object))
    return;

  g_object_get (object, "key", &key, NULL);
  gtk_widget_activate_action (GTK_WIDGET (self), "app.open-object", "s", key);
}

/* Shift+F10 or the Menu key on a focused row opens that row's menu. */
static void
object_menu_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (widget));

  for (GtkWidget *w = focus; w != NULL; w = gtk_widget_get_parent (w))
    {
      GtkWidget *child = gtk_widget_get_first_child (w);

      if (NEARBY_IS_OBJECT_ROW (w))
        {
          nearby_object_row_popup_menu (NEARBY_OBJECT_ROW (w));
          return;
        }
      if (child != NULL && NEARBY_IS_OBJECT_ROW (child))
        {
          nearby_object_row_popup_menu (NEARBY_OBJECT_ROW (child));
          return;
        }
    }
}

static void
try_again_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  NearbyWindow *self = NEARBY_WINDOW (widget);

  if (NEARBY_IS_SCANNER (self->source))
    nearby_scanner_retry (NEARBY_SCANNER (self->source));
}

/* The settings panel that can unblock Bluetooth, where there is one to open (not inside a
 * sandbox, nor on a desktop other than GNOME: the page's text says what to do there). */
static void
open_bluetooth_settings_action (GtkWidget  *widget,
                                const char *action_name,
                                GVariant   *parameter)
{
  NearbyWindow *self = NEARBY_WINDOW (widget);
  g_autoptr(GSubprocess) settings = NULL;
  g_autoptr(GError) error = NULL;

  settings = g_subprocess_new (G_SUBPROCESS_FLAGS_NONE, &error,
                               "gnome-control-center", "bluetooth", NULL);
  if (settings == NULL)
    {
      g_autofree char *message = g_strdup_printf (_("Could not open Settings: %s"),
                                                  error->message);

      nearby_window_add_toast (self, adw_toast_new (message));
    }
}

static void
choose_lookup_policy_action (GtkWidget  *widget,
                             const char *action_name,
                             GVariant   *parameter)
{
  NearbyWindow *self = NEARBY_WINDOW (widget);

  g_settings_set_string (self->settings, "lookup-policy", g_variant_get_string (parameter, NULL));
  g_settings_set_boolean (self->settings, "privacy-choice-made", TRUE);
}

NearbyWindow *
nearby_window_new (NearbyApplication *application,
                   NearbySource      *source,
                   GListModel        *objects,
                   GListModel        *all_objects,
                   gboolean           needs_privacy_choice)
{
  return g_object_new (NEARBY_TYPE_WINDOW,
                       "application", application,
                       "source", source,
                       "objects", objects,
                       "all-objects", all_objects,
                       "needs-privacy-choice", needs_privacy_choice,
                       NULL);
}

static void
nearby_window_constructed (GObject *object)
{
  NearbyWindow *self = NEARBY_WINDOW (object);

  G_OBJECT_CLASS (nearby_window_parent_class)->constructed (object);

  nearby_window_update_page (self);
}

/* How long the window took to show, for anyone timing startup (G_MESSAGES_DEBUG=nearby-window).
 * The monotonic time lets a program that spawned the app measure from its own clock. */
static void
on_after_paint (GdkFrameClock *clock,
                NearbyWindow  *self)
{
  if (self->first_frame_logged)
    return;

  self->first_frame_logged = TRUE;
  g_signal_handlers_disconnect_by_func (clock, on_after_paint, self);
  g_debug ("First frame painted %.0f ms after the process started (monotonic time %" G_GINT64_FORMAT
           " us)", nearby_process_age_ms (), g_get_monotonic_time ());
}

gboolean
nearby_window_get_on_screen (NearbyWindow *self)
{
  g_return_val_if_fail (NEARBY_IS_WINDOW (self), FALSE);

  return self->on_screen;
}

/* Mapped and not minimized. (On X11 without a window manager, a window unmapped by another
 * client is minimized too, as GDK sees it.) */
static void
nearby_window_update_on_screen (NearbyWindow *self)
{
  gboolean on_screen = gtk_widget_get_mapped (GTK_WIDGET (self));

  if (on_screen && self->watched_surface != NULL)
    on_screen = !(gdk_toplevel_get_state (GDK_TOPLEVEL (self->watched_surface))
                  & GDK_TOPLEVEL_STATE_MINIMIZED);

  if (self->on_screen == on_screen)
    return;

  self->on_screen = on_screen;
  g_debug ("The window is %s", on_screen ? "on screen" : "hidden");
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ON_SCREEN]);
}

static void
nearby_window_realize (GtkWidget *widget)
{
  NearbyWindow *self = NEARBY_WINDOW (widget);

  GTK_WIDGET_CLASS (nearby_window_parent_class)->realize (widget);

  if (!self->first_frame_logged)
    g_signal_connect_object (gtk_widget_get_frame_clock (widget), "after-paint",
                             G_CALLBACK (on_after_paint), self, 0);

  self->watched_surface = gtk_native_get_surface (GTK_NATIVE (self));
  g_signal_connect_object (self->watched_surface, "notify::state",
                           G_CALLBACK (nearby_window_update_on_screen), self, G_CONNECT_SWAPPED);
}

static void
nearby_window_unrealize (GtkWidget *widget)
{
  NearbyWindow *self = NEARBY_WINDOW (widget);

  if (self->watched_surface != NULL)
    g_signal_handlers_disconnect_by_func (self->watched_surface, nearby_window_update_on_screen,
                                          self);
  self->watched_surface = NULL;

  GTK_WIDGET_CLASS (nearby_window_parent_class)->unrealize (widget);
}

static void
nearby_window_map (GtkWidget *widget)
{
  GTK_WIDGET_CLASS (nearby_window_parent_class)->map (widget);

  nearby_window_set_page_icon (NEARBY_WINDOW (widget),
                               gtk_stack_get_visible_child_name (NEARBY_WINDOW (widget)->stack));
  nearby_window_update_on_screen (NEARBY_WINDOW (widget));
}

static void
nearby_window_unmap (GtkWidget *widget)
{
  GTK_WIDGET_CLASS (nearby_window_parent_class)->unmap (widget);

  nearby_window_update_on_screen (NEARBY_WINDOW (widget));
}

static void
nearby_window_dispose (GObject *object)
{
  NearbyWindow *self = NEARBY_WINDOW (object);

  /* The template's pointers are cleared before its widgets go, and the focus or the pointer
   * leaving the list as they go would set the paused label, gone by then
   * (/application/close-with-focus-on-list). */
  if (self->list_focus != NULL)
    g_signal_handlers_disconnect_by_data (self->list_focus, self);
  if (self->list_motion != NULL)
    g_signal_handlers_disconnect_by_data (self->list_motion, self);
  g_signal_handlers_disconnect_by_func (self, on_is_active_changed, NULL);

  gtk_widget_dispose_template (GTK_WIDGET (object), NEARBY_TYPE_WINDOW);
  self->error_page = NULL;
  self->hidden_page = NULL;
  self->error_actions = NULL;
  self->error_details_label = NULL;
  self->searching_demo_button = NULL;
  self->finished_page = NULL;

  g_clear_object (&self->source);
  g_clear_object (&self->sections);
  g_clear_object (&self->objects);
  g_clear_object (&self->all_objects);
  g_clear_object (&self->shown_objects);
  g_clear_object (&self->search_filter);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (nearby_window_parent_class)->dispose (object);
}

static void
nearby_window_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  NearbyWindow *self = NEARBY_WINDOW (object);

  switch (prop_id)
    {
    case PROP_SOURCE:
      g_value_set_object (value, self->source);
      break;

    case PROP_OBJECTS:
      g_value_set_object (value, self->objects);
      break;

    case PROP_ALL_OBJECTS:
      g_value_set_object (value, self->all_objects);
      break;

    case PROP_LIST_ENGAGED:
      g_value_set_boolean (value, nearby_window_get_list_engaged (self));
      break;

    case PROP_NEEDS_PRIVACY_CHOICE:
      g_value_set_boolean (value, self->needs_privacy_choice);
      break;

    case PROP_ON_SCREEN:
      g_value_set_boolean (value, self->on_screen);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
nearby_window_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  NearbyWindow *self = NEARBY_WINDOW (object);

  switch (prop_id)
    {
    case PROP_SOURCE:
      nearby_window_set_source (self, g_value_get_object (value));
      break;

    case PROP_OBJECTS:
      nearby_window_set_objects (self, g_value_get_object (value));
      break;

    case PROP_ALL_OBJECTS:
      nearby_window_set_all_objects (self, g_value_get_object (value));
      break;

    case PROP_NEEDS_PRIVACY_CHOICE:
      nearby_window_set_needs_privacy_choice (self, g_value_get_boolean (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
nearby_window_class_init (NearbyWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = nearby_window_constructed;
  object_class->dispose = nearby_window_dispose;
  object_class->get_property = nearby_window_get_property;
  object_class->set_property = nearby_window_set_property;
  widget_class->realize = nearby_window_realize;
  widget_class->unrealize = nearby_window_unrealize;
  widget_class->map = nearby_window_map;
  widget_class->unmap = nearby_window_unmap;

  properties[PROP_SOURCE] =
    g_param_spec_object ("source", NULL, NULL,
                         NEARBY_TYPE_SOURCE,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties[PROP_OBJECTS] =
    g_param_spec_object ("objects", NULL, NULL,
                         G_TYPE_LIST_MODEL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  properties[PROP_ALL_OBJECTS] =
    g_param_spec_object ("all-objects", NULL, NULL,
                         G_TYPE_LIST_MODEL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  properties[PROP_LIST_ENGAGED] =
    g_param_spec_boolean ("list-engaged", NULL, NULL,
                          FALSE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /* Until it is FALSE, the window asks how pages may be looked up, and shows nothing else. Given
   * at construction, so that a window that will not ask never builds the question. */
  properties[PROP_NEEDS_PRIVACY_CHOICE] =
    g_param_spec_boolean ("needs-privacy-choice", NULL, NULL,
                          TRUE,
                          (G_PARAM_READWRITE | G_PARAM_CONSTRUCT | G_PARAM_EXPLICIT_NOTIFY |
                           G_PARAM_STATIC_STRINGS));

  /* Mapped and not minimized: while it is FALSE, nothing the window shows is seen. */
  properties[PROP_ON_SCREEN] =
    g_param_spec_boolean ("on-screen", NULL, NULL,
                          FALSE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/nearbyweb/Nearby/nearby-window.ui");
  gtk_widget_class_bind_template_child (widget_class, NearbyWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, NearbyWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, NearbyWindow, list_view);
  gtk_widget_class_bind_template_child (widget_class, NearbyWindow, list_motion);
  gtk_widget_class_bind_template_child (widget_class, NearbyWindow, list_focus);
  gtk_widget_class_bind_template_child (widget_class, NearbyWindow, header_bar);
  gtk_widget_class_bind_template_child (widget_class, NearbyWindow, paused_label);
  gtk_widget_class_bind_template_child (widget_class, NearbyWindow, scan_indicator);
  gtk_widget_class_bind_template_child (widget_class, NearbyWindow, refresh_button);
  gtk_widget_class_bind_template_child (widget_class, NearbyWindow, window_title);
  gtk_widget_class_bind_template_child (widget_class, NearbyWindow, search_bar);
  gtk_widget_class_bind_template_child (widget_class, NearbyWindow, search_entry);
  gtk_widget_class_bind_template_child (widget_class, NearbyWindow, search_button);
  gtk_widget_class_bind_template_callback (widget_class, on_search_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_search_mode_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_list_view_activate);
  gtk_widget_class_bind_template_callback (widget_class, on_list_pointer_enter);
  gtk_widget_class_bind_template_callback (widget_class, on_list_pointer_leave);
  gtk_widget_class_bind_template_callback (widget_class, on_list_focus_enter);
  gtk_widget_class_bind_template_callback (widget_class, on_list_key_pressed);
  gtk_widget_class_bind_template_callback (widget_class, on_list_focus_leave);

  gtk_widget_class_install_action (widget_class, "win.choose-lookup-policy", "s",
                                   choose_lookup_policy_action);
  gtk_widget_class_install_action (widget_class, "win.object-menu", NULL, object_menu_action);
  gtk_widget_class_install_action (widget_class, "win.try-again", NULL, try_again_action);
  gtk_widget_class_install_action (widget_class, "win.open-bluetooth-settings", NULL,
                                   open_bluetooth_settings_action);
  gtk_widget_class_install_action (widget_class, "win.search", NULL, search_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, GDK_CONTROL_MASK,
                                       "win.search", NULL);
  gtk_widget_class_install_action (widget_class, "win.stop-search", NULL, stop_search_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "win.stop-search", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F10, GDK_SHIFT_MASK,
                                       "win.object-menu", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Menu, 0, "win.object-menu", NULL);
}

/* The words of each heading: the distance words the rows use, and a word of its own for
 * favourites. */
static const char *
section_label (NearbySection section)
{
  switch (section)
    {
    case NEARBY_SECTION_FAVOURITES:
      return C_("section", "Favourites");
    case NEARBY_SECTION_IMMEDIATE:
      return nearby_object_row_bucket_label (NEARBY_BUCKET_IMMEDIATE);
    case NEARBY_SECTION_NEAR:
      return nearby_object_row_bucket_label (NEARBY_BUCKET_NEAR);
    case NEARBY_SECTION_FAR:
      return nearby_object_row_bucket_label (NEARBY_BUCKET_FAR);
    case NEARBY_SECTION_UNKNOWN:
    default:
      return nearby_object_row_bucket_label (NEARBY_BUCKET_UNKNOWN);
    }
}

/* The list's items are objects and the headings between them (NearbySectionModel): a list item
 * holds whichever widget its item needs, and changes it only when it is given the other kind. */
static void
on_item_bind (GtkSignalListItemFactory *factory,
              GtkListItem              *list_item,
              gpointer                  user_data)
{
  GObject *item = gtk_list_item_get_item (list_item);
  GtkWidget *child = gtk_list_item_get_child (list_item);

  if (NEARBY_IS_SECTION_HEADER (item))
    {
      NearbySection section = nearby_section_header_get_section (NEARBY_SECTION_HEADER (item));

      if (!GTK_IS_LABEL (child))
        {
          /* A heading for screen readers, which can move from one part of the list to the
           * next by it. */
          child = g_object_new (GTK_TYPE_LABEL,
                                "accessible-role", GTK_ACCESSIBLE_ROLE_HEADING,
                                "xalign", 0.0f,
                                "wrap", TRUE,
                                NULL);
          gtk_widget_add_css_class (child, "heading");
          gtk_widget_add_css_class (child, "nearby-section-heading");
          gtk_list_item_set_child (list_item, child);
        }
      gtk_label_set_label (GTK_LABEL (child), section_label (section));
      /* The item takes the focus (below), and a screen reader names what has it: the heading's
       * words, not an empty item or the name of the row this item showed before. */
      if (gtk_widget_get_parent (child) != NULL)
        {
          GtkAccessible *item_accessible = GTK_ACCESSIBLE (gtk_widget_get_parent (child));

          gtk_accessible_update_property (item_accessible,
                                          GTK_ACCESSIBLE_PROPERTY_LABEL, section_label (section),
                                          -1);
          gtk_accessible_reset_property (item_accessible, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION);
        }
      gtk_list_item_set_activatable (list_item, FALSE);
      /* Not to select (the list selects nothing) but to keep the keyboard going: GTK 4.8 lets
       * only a selectable item take the focus, and an item that cannot stops the arrow keys
       * at the last row above it, and Tab skips the whole list when it comes first. */
      gtk_list_item_set_selectable (list_item, TRUE);
    }
  else
    {
      if (!NEARBY_IS_OBJECT_ROW (child))
        {
          child = g_object_new (NEARBY_TYPE_OBJECT_ROW, NULL);
          gtk_list_item_set_child (list_item, child);
        }
      g_object_set (child,
                    "object", item,
                    "section", (int) nearby_section_model_get_section (
                      NEARBY_WINDOW (user_data)->sections, gtk_list_item_get_position (list_item)),
                    NULL);
      gtk_list_item_set_activatable (list_item, TRUE);
      gtk_list_item_set_selectable (list_item, TRUE);
    }
}

static void
on_item_unbind (GtkSignalListItemFactory *factory,
                GtkListItem              *list_item,
                gpointer                  user_data)
{
  GtkWidget *child = gtk_list_item_get_child (list_item);

  /* A row left bound would keep its object, and follow its changes, until reused. */
  if (NEARBY_IS_OBJECT_ROW (child))
    g_object_set (child, "object", NULL, NULL);
}

static void
nearby_window_init (NearbyWindow *self)
{
  g_autoptr(GtkListItemFactory) factory = NULL;

  g_type_ensure (NEARBY_TYPE_OBJECT_ROW);

  self->needs_privacy_choice = TRUE;
  self->settings = g_settings_new (APP_ID);
  self->search_filter = gtk_custom_filter_new (object_matches_search, self, NULL);

  gtk_widget_init_template (GTK_WIDGET (self));
  /* Hidden until first shown: GTK styles every visible widget, shown by its stack or not, and
   * looks up the icon of each status page as it does, loading a dozen SVGs on as many threads
   * before the first frame, where one page is seen. */
  for (GtkWidget *page = gtk_widget_get_first_child (GTK_WIDGET (self->stack)); page != NULL;
       page = gtk_widget_get_next_sibling (page))
    {
      if (page != gtk_stack_get_visible_child (self->stack))
        gtk_widget_set_visible (page, FALSE);
    }

  factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "bind", G_CALLBACK (on_item_bind), self);
  g_signal_connect (factory, "unbind", G_CALLBACK (on_item_unbind), NULL);
  gtk_list_view_set_factory (self->list_view, factory);
  /* GNOME's striped header bar: a development build is told apart from the installed app. */
  if (g_str_equal (PROFILE, "development"))
    gtk_widget_add_css_class (GTK_WIDGET (self), "devel");
  nearby_a11y_name_buttons_by_their_labels (GTK_WIDGET (self));
  gtk_search_bar_connect_entry (self->search_bar, self->search_entry);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.stop-search", FALSE);

  g_signal_connect (self, "notify::is-active", G_CALLBACK (on_is_active_changed), NULL);
  g_signal_connect (self, "notify::focus-visible", G_CALLBACK (on_is_active_changed), NULL);

  g_settings_bind (self->settings, "window-width", self, "default-width", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "window-height", self, "default-height", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "window-maximized", self, "maximized", G_SETTINGS_BIND_DEFAULT);
}
