/* nearby-application-actions.c: the application's actions
 *
 * Actions on objects take the object's key, so that rows, menus and shortcuts share them; the
 * others open the app's dialogs, look pages up, and start and stop a broadcast.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-application"

#include "config.h"

#include <glib/gi18n.h>

#include "nearby-a11y.h"
#include "nearby-about.h"
#include "nearby-application-private.h"
#include "nearby-broadcast-dialog.h"
#include "nearby-inspector.h"
#include "nearby-object-row.h"
#include "nearby-preferences.h"
#include "nearby-url-policy.h"

typedef struct {
  NearbyApplication *self;
  char              *url;
} OpenRequest;

static void
open_request_free (OpenRequest *request)
{
  g_object_unref (request->self);
  g_free (request->url);
  g_free (request);
}

static void
on_uri_shown (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  OpenRequest *request = user_data;
  g_autoptr(GError) error = NULL;

  request->self->n_opening--;
  if (gtk_show_uri_full_finish (GTK_WINDOW (source), result, &error))
    {
      nearby_history_record_visit_async (request->self->history, request->url, 0,
                                         NULL, NULL, NULL);
    }
  else if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_autofree char *message = g_strdup_printf (_("Could not open the page: %s"),
                                                  error->message);

      _nearby_application_toast (request->self, message);
    }

  open_request_free (request);
}

static NearbyObject *
lookup_object (NearbyApplication *self,
               GVariant          *parameter)
{
  return nearby_object_list_get_object_by_key (self->objects, g_variant_get_string (parameter, NULL));
}

/* For the actions a person takes on a row: the object may have left the list since the row
 * was drawn, and then they are told so, rather than nothing happening. */
static NearbyObject *
lookup_object_or_say_gone (NearbyApplication *self,
                           GVariant          *parameter)
{
  NearbyObject *object = lookup_object (self, parameter);

  if (object == NULL)
    _nearby_application_toast (self, _("That object is no longer nearby"));

  return object;
}

/* Only web pages: a broadcast can say file:, javascript: or urn:uuid:, and those are shown,
 * never launched; and never with userinfo (nearby_url_without_userinfo()). */
static void
nearby_application_open_url (NearbyApplication *self,
                             const char        *given_url)
{
  NearbyWindow *window = _nearby_application_get_window (self);
  g_autofree char *url = nearby_url_without_userinfo (given_url);
  OpenRequest *request;

  if (url == NULL)
    {
      _nearby_application_toast (self, _("This object has no web page to open"));
      return;
    }
  if (window == NULL)
    return;

  request = g_new0 (OpenRequest, 1);
  request->self = g_object_ref (self);
  request->url = g_strdup (url);
  self->n_opening++;
  gtk_show_uri_full (GTK_WINDOW (window), url, GDK_CURRENT_TIME, NULL, on_uri_shown, request);
}

static void
open_url_action (GSimpleAction *action,
                 GVariant      *parameter,
                 gpointer       user_data)
{
  nearby_application_open_url (NEARBY_APPLICATION (user_data),
                               g_variant_get_string (parameter, NULL));
}

static void
open_object_action (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       user_data)
{
  NearbyApplication *self = user_data;
  NearbyObject *object = lookup_object_or_say_gone (self, parameter);

  if (object == NULL)
    return;

  /* Opening tells the server anyway; now the row can show what the page is. Unless the person
   * chose never to have pages looked up: the browser fetches the page, Nearby does not. */
  if (nearby_object_get_page (object) == NULL && nearby_object_get_browsable (object) &&
      nearby_page_loader_get_looks_up_when_opened (self->page_loader))
    nearby_page_loader_look_up (self->page_loader, object, FALSE);

  nearby_application_open_url (self, nearby_object_get_url (object));
}

static void
copy_link_action (GSimpleAction *action,
                  GVariant      *parameter,
                  gpointer       user_data)
{
  NearbyApplication *self = user_data;
  NearbyObject *object = lookup_object (self, parameter);
  NearbyWindow *window = _nearby_application_get_window (self);

  if (object == NULL || nearby_object_get_url (object) == NULL || window == NULL)
    return;

  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (window)),
                          nearby_object_get_url (object));
  _nearby_application_toast (self, _("Link copied"));
}

static void
set_favourite (NearbyApplication *self,
               NearbyObject      *object,
               gboolean           favourite)
{
  const char *url = nearby_object_get_url (object);

  if (favourite)
    nearby_history_add_favourite_async (self->history, url, NULL, NULL, NULL);
  else
    nearby_history_remove_favourite_async (self->history, url, NULL, NULL, NULL);
  /* Shown at once; the history's "changed" confirms it. */
  nearby_object_set_favourite (object, favourite);
}

/* The row's star changes with it, but the star is small and the row may move: a toast says
 * what happened, and undoes it. */
static void
toggle_favourite_action (GSimpleAction *action,
                         GVariant      *parameter,
                         gpointer       user_data)
{
  NearbyApplication *self = user_data;
  NearbyObject *object = lookup_object (self, parameter);
  g_autofree char *host = NULL;
  g_autofree char *name = NULL;
  g_autofree char *escaped = NULL;
  g_autofree char *title = NULL;
  gboolean favourite;
  AdwToast *toast;

  if (object == NULL || nearby_object_get_url (object) == NULL)
    return;

  favourite = !nearby_object_get_favourite (object);
  set_favourite (self, object, favourite);

  host = nearby_object_row_dup_host (object, self->source, NULL, NULL);
  name = nearby_object_row_name (object, host, NULL);
  /* A toast's title is markup. */
  escaped = g_markup_escape_text (name, -1);
  title = g_strdup_printf (favourite ? _("%s was added to favourites")
                                     : _("%s was removed from favourites"),
                           escaped);
  toast = adw_toast_new (title);
  adw_toast_set_button_label (toast, _("_Undo"));
  adw_toast_set_action_name (toast, "app.set-favourite");
  adw_toast_set_action_target_value (toast, g_variant_new ("(sb)",
                                                           nearby_object_get_key (object),
                                                           !favourite));
  _nearby_application_add_toast (self, toast);
}

/* The Undo button of the toast above: no second toast offering to undo the undo. */
static void
set_favourite_action (GSimpleAction *action,
                      GVariant      *parameter,
                      gpointer       user_data)
{
  NearbyApplication *self = user_data;
  const char *key;
  gboolean favourite;
  NearbyObject *object;

  g_variant_get (parameter, "(&sb)", &key, &favourite);
  object = nearby_object_list_get_object_by_key (self->objects, key);
  if (object == NULL || nearby_object_get_url (object) == NULL)
    return;

  set_favourite (self, object, favourite);
}

static void
set_sites_hidden (NearbyApplication  *self,
                  const char * const *sites,
                  gboolean            hidden)
{
  for (guint i = 0; sites[i] != NULL; i++)
    {
      if (hidden)
        nearby_history_hide_site_async (self->history, sites[i], NULL, NULL, NULL);
      else
        nearby_history_show_site_async (self->history, sites[i], NULL, NULL, NULL);
    }
}

/* Hides or shows sites because a person asked, and says so with a toast that can undo it. */
static void
set_sites_hidden_with_undo (NearbyApplication  *self,
                            const char * const *sites,
                            gboolean            hidden)
{
  guint n_sites = g_strv_length ((char **) sites);
  g_autofree char *title = NULL;
  AdwToast *toast;

  if (n_sites == 0)
    return;

  if (n_sites == 1)
    title = g_strdup_printf (hidden ? _("Objects from %s are hidden")
                                    : _("Objects from %s are shown again"),
                             sites[0]);
  else
    title = g_strdup_printf (hidden
                             ? g_dngettext (GETTEXT_PACKAGE, "Objects from %u site are hidden",
                                            "Objects from %u sites are hidden", n_sites)
                             : g_dngettext (GETTEXT_PACKAGE, "Objects from %u site are shown again",
                                            "Objects from %u sites are shown again", n_sites),
                             n_sites);
  toast = adw_toast_new (title);

  set_sites_hidden (self, sites, hidden);

  adw_toast_set_button_label (toast, _("_Undo"));
  adw_toast_set_action_name (toast, "app.set-sites-hidden");
  adw_toast_set_action_target_value (toast, g_variant_new ("(^asb)", sites, !hidden));
  _nearby_application_add_toast (self, toast);
}

static void
hide_site_action (GSimpleAction *action,
                  GVariant      *parameter,
                  gpointer       user_data)
{
  const char *sites[] = { g_variant_get_string (parameter, NULL), NULL };

  set_sites_hidden_with_undo (NEARBY_APPLICATION (user_data), sites, TRUE);
}

static void
unhide_site_action (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       user_data)
{
  const char *sites[] = { g_variant_get_string (parameter, NULL), NULL };

  set_sites_hidden_with_undo (NEARBY_APPLICATION (user_data), sites, FALSE);
}

/* The Undo buttons: hide or show sites again, with no second toast offering to undo the undo. */
static void
set_sites_hidden_action (GSimpleAction *action,
                         GVariant      *parameter,
                         gpointer       user_data)
{
  g_autofree const char **sites = NULL;
  gboolean hidden;

  g_variant_get (parameter, "(^a&sb)", &sites, &hidden);
  set_sites_hidden (NEARBY_APPLICATION (user_data), sites, hidden);
}

/* The button of the page that says the list is empty only because of hidden sites. What a
 * person pressing "Show Hidden Objects" expects is to see those objects, here: the sites that
 * hide the objects around are shown again (with Undo). Sites hidden for objects that are not
 * around stay hidden; Preferences lists them. */
static void
show_hidden_objects_action (GSimpleAction *action,
                            GVariant      *parameter,
                            gpointer       user_data)
{
  NearbyApplication *self = user_data;
  GListModel *objects = G_LIST_MODEL (self->objects);
  g_autoptr(GPtrArray) sites = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < g_list_model_get_n_items (objects); i++)
    {
      g_autoptr(NearbyObject) object = g_list_model_get_item (objects, i);
      char *keys[] = { NULL, NULL };

      if (!_nearby_application_object_is_hidden (self, object))
        continue;

      /* The site, or the host that a site hidden by an older Nearby names. */
      keys[0] = nearby_object_row_dup_site (object, self->source);
      keys[1] = nearby_object_row_dup_host (object, self->source, NULL, NULL);
      for (guint k = 0; k < G_N_ELEMENTS (keys); k++)
        {
          if (nearby_history_is_site_hidden (self->history, keys[k]) &&
              !g_ptr_array_find_with_equal_func (sites, keys[k], g_str_equal, NULL))
            g_ptr_array_add (sites, g_steal_pointer (&keys[k]));
          g_free (keys[k]);
        }
    }

  g_ptr_array_add (sites, NULL);
  set_sites_hidden_with_undo (self, (const char * const *) sites->pdata, FALSE);
}

static void
on_history_cleared (GObject      *source,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(NearbyApplication) self = user_data;
  g_autoptr(GError) error = NULL;

  if (nearby_history_clear_finish (NEARBY_HISTORY (source), result, &error))
    _nearby_application_toast (self, _("History cleared"));
  else
    {
      g_autofree char *message = g_strdup_printf (_("Could not clear the history: %s"),
                                                  error->message);

      _nearby_application_toast (self, message);
    }
}

static void
on_clear_history_response (AdwMessageDialog  *dialog,
                           const char        *response,
                           NearbyApplication *self)
{
  if (g_str_equal (response, "clear"))
    nearby_history_clear_async (self->history, NEARBY_HISTORY_DATA_ALL, NULL,
                                on_history_cleared, g_object_ref (self));
}

static void
clear_history_action (GSimpleAction *action,
                      GVariant      *parameter,
                      gpointer       user_data)
{
  NearbyApplication *self = user_data;
  GtkWindow *parent = gtk_application_get_active_window (GTK_APPLICATION (self));
  AdwMessageDialog *dialog;

  dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (parent, _("Clear History?"),
    _("Nearby will forget which objects you opened, your favourites, hidden sites and every "
      "cached page. This cannot be undone.")));
  adw_message_dialog_add_responses (dialog,
                                    "cancel", _("_Cancel"),
                                    "clear", _("_Clear"),
                                    NULL);
  adw_message_dialog_set_response_appearance (dialog, "clear", ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_default_response (dialog, "cancel");
  adw_message_dialog_set_close_response (dialog, "cancel");
  nearby_a11y_name_buttons_by_their_labels (GTK_WIDGET (dialog));
  g_signal_connect_object (dialog, "response", G_CALLBACK (on_clear_history_response), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
about_action (GSimpleAction *action,
              GVariant      *parameter,
              gpointer       user_data)
{
  NearbyApplication *self = user_data;
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (self));
  NearbySource *bluetooth = self->scanner != NULL ? NEARBY_SOURCE (self->scanner) : NULL;

  gtk_window_present (nearby_about_window_new (window, bluetooth));
}

/* Built when asked and gone once closed, where GtkApplication would build one for each window
 * at start and keep it hidden: GTK 4.8 answers a screen reader asking for the application's
 * window at an index past its last shown window (as it may just after a dialog closes) with the
 * last window in its list, shown or not; a window never shown has no accessibility object yet,
 * and the answer GTK builds for it fails (a g_variant_new_object_path critical), leaving the
 * screen reader without the main window's contents. */
static void
shortcuts_action (GSimpleAction *action,
                  GVariant      *parameter,
                  gpointer       user_data)
{
  NearbyApplication *self = user_data;
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (self));
  g_autoptr(GtkBuilder) builder = NULL;
  GtkWindow *shortcuts;

  builder = gtk_builder_new_from_resource ("/io/github/nearbyweb/Nearby/"
                                           "nearby-shortcuts-window.ui");
  shortcuts = GTK_WINDOW (gtk_builder_get_object (builder, "shortcuts_window"));
  gtk_window_set_transient_for (shortcuts, window);
  gtk_window_set_application (shortcuts, GTK_APPLICATION (self));
  gtk_window_present (shortcuts);
}

static void
on_preferences_destroy (NearbyApplication *self)
{
  self->preferences = NULL;
}

/* One Preferences window for the application's life, hidden when closed: about 0.75 MiB of
 * every Preferences window that was closed and destroyed stayed in the app (opened and closed 40
 * times: RSS 112.9 to 138.7 MiB), all day long for a person who opens it now and then. */
static void
preferences_action (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       user_data)
{
  NearbyApplication *self = user_data;
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (self));

  if (self->preferences == NULL)
    {
      self->preferences = GTK_WINDOW (nearby_preferences_new (window,
                                                              G_LIST_MODEL (self->hidden_sites)));
      gtk_window_set_hide_on_close (self->preferences, TRUE);
      g_signal_connect_object (self->preferences, "destroy",
                               G_CALLBACK (on_preferences_destroy), self, G_CONNECT_SWAPPED);
      /* Its buttons are app.* actions (Clear…, Show Again): a window outside the application
       * resolves none of them, and GTK leaves such buttons insensitive. */
      gtk_window_set_application (self->preferences, GTK_APPLICATION (self));
    }
  else if (window != self->preferences)
    {
      gtk_window_set_transient_for (self->preferences, window);
    }
  gtk_window_present (self->preferences);
}

static void
on_refreshed (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(NearbyApplication) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *message = NULL;
  guint n_found = 0;
  guint n_looked_up;

  n_looked_up = nearby_page_loader_look_up_all_finish (NEARBY_PAGE_LOADER (source), result,
                                                       &n_found, &error);
  if (error != NULL)
    return;
  if (n_looked_up == 0)
    message = g_strdup (_("Nothing to look up"));
  else if (n_found == n_looked_up)
    message = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Looked up %u page",
                                            "Looked up %u pages", n_looked_up),
                               n_looked_up);
  else
    /* Translators: the first number is of pages looked up, the second of those without one */
    message = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                            "Looked up %u page, %u not found",
                                            "Looked up %u pages, %u not found", n_looked_up),
                               n_looked_up, n_looked_up - n_found);
  _nearby_application_toast (self, message);
}

static void
refresh_action (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  NearbyApplication *self = user_data;

  /* The refresh button is the user asking: every object, every address, fresh from the web;
   * what it did is said when the last answer is in. */
  nearby_page_loader_look_up_all_async (self->page_loader, TRUE, self->cancellable,
                                        on_refreshed, g_object_ref (self));
}

static void
look_up_action (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  NearbyApplication *self = user_data;
  NearbyObject *object = lookup_object (self, parameter);

  if (object != NULL)
    nearby_page_loader_look_up (self->page_loader, object, TRUE);
}

static void
on_powered_on (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(NearbyApplication) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!nearby_scanner_power_on_finish (NEARBY_SCANNER (source), result, &error) &&
      !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_autofree char *message = g_strdup_printf (_("Could not turn Bluetooth on: %s"),
                                                  error->message);

      _nearby_application_toast (self, message);
    }
}

static void
power_on_action (GSimpleAction *action,
                 GVariant      *parameter,
                 gpointer       user_data)
{
  NearbyApplication *self = user_data;

  if (self->scanner != NULL)
    nearby_scanner_power_on_async (self->scanner, self->cancellable, on_powered_on,
                                   g_object_ref (self));
}

/* Developer mode: broadcast a URL from this computer, to test a kiosk without a beacon. */

static void
nearby_application_update_broadcast_actions (NearbyApplication *self)
{
  GAction *broadcast = g_action_map_lookup_action (G_ACTION_MAP (self), "broadcast");
  GAction *stop = g_action_map_lookup_action (G_ACTION_MAP (self), "stop-broadcast");

  g_simple_action_set_enabled (G_SIMPLE_ACTION (broadcast),
                               nearby_application_get_developer_mode (self) &&
                               self->advertiser == NULL);
  g_simple_action_set_enabled (G_SIMPLE_ACTION (stop), self->advertiser != NULL);
}

static void
on_broadcast_started (GObject      *source,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  g_autoptr(NearbyApplication) self = user_data;
  g_autoptr(GError) error = NULL;
  NearbyWindow *window = _nearby_application_get_window (self);

  if (!nearby_advertiser_start_finish (NEARBY_ADVERTISER (source), result, &error))
    {
      g_autofree char *message = g_strdup_printf (_("Could not broadcast: %s"), error->message);

      if (self->advertiser == NEARBY_ADVERTISER (source))
        g_clear_object (&self->advertiser);
      nearby_application_update_broadcast_actions (self);
      _nearby_application_toast (self, message);
      return;
    }

  /* Stopped while it was starting: end what just began. */
  if (self->advertiser != NEARBY_ADVERTISER (source))
    {
      nearby_advertiser_stop_async (NEARBY_ADVERTISER (source), NULL, NULL, NULL);
      return;
    }

  if (window != NULL)
    {
      g_autofree char *title = g_strdup_printf (_("Broadcasting %s"),
                                                nearby_advertiser_get_url (NEARBY_ADVERTISER (source)));
      AdwToast *toast = adw_toast_new (title);

      adw_toast_set_button_label (toast, _("_Stop"));
      adw_toast_set_action_name (toast, "app.stop-broadcast");
      adw_toast_set_timeout (toast, 0);
      g_set_weak_pointer (&self->broadcast_toast, toast);
      nearby_window_add_toast (window, toast);
    }
}

static void
on_broadcast_response (NearbyBroadcastDialog *dialog,
                       const char            *response,
                       NearbyApplication     *self)
{
  if (self->advertiser != NULL)
    return;

  self->advertiser = nearby_advertiser_new (nearby_broadcast_dialog_get_url (dialog),
                                            NEARBY_PROTOCOL_EDDYSTONE,
                                            NEARBY_ADVERTISER_DEFAULT_TX_POWER, NULL);
  nearby_application_update_broadcast_actions (self);
  nearby_advertiser_start_async (self->advertiser, self->cancellable, on_broadcast_started,
                                 g_object_ref (self));
}

static void
broadcast_action (GSimpleAction *action,
                  GVariant      *parameter,
                  gpointer       user_data)
{
  NearbyApplication *self = user_data;
  GtkWindow *parent = gtk_application_get_active_window (GTK_APPLICATION (self));
  NearbyBroadcastDialog *dialog = nearby_broadcast_dialog_new (parent);

  g_signal_connect_object (dialog, "response::broadcast", G_CALLBACK (on_broadcast_response),
                           self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
on_broadcast_stopped (GObject      *source,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  g_autoptr(NearbyApplication) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!nearby_advertiser_stop_finish (NEARBY_ADVERTISER (source), result, &error) &&
      !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_debug ("Stopping the broadcast: %s", error->message);
  _nearby_application_toast (self, _("Broadcast stopped"));
}

static void
stop_broadcast_action (GSimpleAction *action,
                       GVariant      *parameter,
                       gpointer       user_data)
{
  NearbyApplication *self = user_data;
  g_autoptr(NearbyAdvertiser) advertiser = g_steal_pointer (&self->advertiser);

  /* Stopped from the menu, the toast that stays until Stop would still say "Broadcasting", and
   * keep "Broadcast stopped" queued behind it. */
  if (self->broadcast_toast != NULL)
    adw_toast_dismiss (self->broadcast_toast);
  g_clear_weak_pointer (&self->broadcast_toast);
  nearby_application_update_broadcast_actions (self);
  if (advertiser == NULL)
    return;

  /* A start still under way is cancelled; dispose unregisters whatever got registered. */
  if (nearby_advertiser_get_state (advertiser) == NEARBY_ADVERTISER_STATE_BROADCASTING)
    nearby_advertiser_stop_async (advertiser, NULL, on_broadcast_stopped, g_object_ref (self));
}

static void
demo_action (GSimpleAction *action,
             GVariant      *parameter,
             gpointer       user_data)
{
  _nearby_application_start_demo (NEARBY_APPLICATION (user_data));
}

/* The inspector: one window per object, presented again when asked twice. */
static void
nearby_application_show_details (NearbyApplication *self,
                                 NearbyObject      *object)
{
  NearbyInspector *inspector = NULL;

  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (self)); l != NULL; l = l->next)
    {
      if (NEARBY_IS_INSPECTOR (l->data)
          && g_strcmp0 (nearby_object_get_key (nearby_inspector_get_object (l->data)),
                        nearby_object_get_key (object)) == 0)
        {
          inspector = l->data;
          break;
        }
    }

  if (inspector == NULL)
    {
      inspector = nearby_inspector_new (object, self->objects);
      nearby_inspector_set_source (inspector, self->source);
      g_object_bind_property (self, "developer-mode", inspector, "developer-mode",
                              G_BINDING_SYNC_CREATE);
      gtk_window_set_transient_for (GTK_WINDOW (inspector),
                                    GTK_WINDOW (_nearby_application_get_window (self)));
      gtk_window_set_destroy_with_parent (GTK_WINDOW (inspector), TRUE);
      gtk_window_set_application (GTK_WINDOW (inspector), GTK_APPLICATION (self));
    }
  gtk_window_present (GTK_WINDOW (inspector));
}

static void
show_details_action (GSimpleAction *action,
                     GVariant      *parameter,
                     gpointer       user_data)
{
  NearbyApplication *self = user_data;
  NearbyObject *object = lookup_object_or_say_gone (self, parameter);

  if (object != NULL)
    nearby_application_show_details (self, object);
}

/* Ctrl+I in developer mode: the focused row's object, or the first one. */
static void
inspect_action (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  NearbyApplication *self = user_data;
  NearbyWindow *window = _nearby_application_get_window (self);
  GtkWidget *focus = window != NULL ? gtk_root_get_focus (GTK_ROOT (window)) : NULL;
  g_autoptr(NearbyObject) first = NULL;

  if (!nearby_application_get_developer_mode (self))
    return;

  for (GtkWidget *widget = focus; widget != NULL; widget = gtk_widget_get_parent (widget))
    {
      /* The focus is in a row, or on the list item that holds it. */
      GtkWidget *row = NEARBY_IS_OBJECT_ROW (widget) ? widget : gtk_widget_get_first_child (widget);

      if (NEARBY_IS_OBJECT_ROW (row) && nearby_object_row_get_object (NEARBY_OBJECT_ROW (row)) != NULL)
        {
          nearby_application_show_details (self, nearby_object_row_get_object (NEARBY_OBJECT_ROW (row)));
          return;
        }
    }

  if (g_list_model_get_n_items (G_LIST_MODEL (self->shown_objects)) > 0)
    first = g_list_model_get_item (G_LIST_MODEL (self->shown_objects), 0);
  if (first != NULL)
    nearby_application_show_details (self, first);
}

static void
nearby_application_update_inspector_accel (NearbyApplication *self)
{
  const char *developer_accels[] = { "<primary>i", NULL };
  const char *no_accels[] = { NULL };

  gtk_application_set_accels_for_action (GTK_APPLICATION (self), "app.inspect",
                                         nearby_application_get_developer_mode (self)
                                         ? developer_accels : no_accels);
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
  { "shortcuts", shortcuts_action },
  { "preferences", preferences_action },
  { "demo", demo_action },
  { "power-on", power_on_action },
  { "broadcast", broadcast_action },
  { "stop-broadcast", stop_broadcast_action },
  { "refresh", refresh_action },
  { "look-up", look_up_action, "s" },
  { "open-object", open_object_action, "s" },
  { "open-url", open_url_action, "s" },
  { "copy-link", copy_link_action, "s" },
  { "toggle-favourite", toggle_favourite_action, "s" },
  { "set-favourite", set_favourite_action, "(sb)" },
  { "hide-site", hide_site_action, "s" },
  { "show-site", unhide_site_action, "s" },
  { "set-sites-hidden", set_sites_hidden_action, "(asb)" },
  { "show-hidden-objects", show_hidden_objects_action },
  { "clear-history", clear_history_action },
  { "show-details", show_details_action, "s" },
  { "inspect", inspect_action },
};

void
_nearby_application_actions_init (NearbyApplication *self)
{
  g_action_map_add_action_entries (G_ACTION_MAP (self), app_actions, G_N_ELEMENTS (app_actions),
                                   self);
  gtk_application_set_accels_for_action (GTK_APPLICATION (self), "app.quit",
                                         (const char *[]) { "<primary>q", NULL });
  gtk_application_set_accels_for_action (GTK_APPLICATION (self), "app.shortcuts",
                                         (const char *[]) { "<primary>question", NULL });
  gtk_application_set_accels_for_action (GTK_APPLICATION (self), "app.preferences",
                                         (const char *[]) { "<primary>comma", NULL });
  /* Every window of the app: the main window, Preferences and each Details. */
  gtk_application_set_accels_for_action (GTK_APPLICATION (self), "window.close",
                                         (const char *[]) { "<primary>w", NULL });
  gtk_application_set_accels_for_action (GTK_APPLICATION (self), "app.refresh",
                                         (const char *[]) { "<primary>r", "F5", NULL });
}

void
_nearby_application_actions_update (NearbyApplication *self)
{
  nearby_application_update_inspector_accel (self);
  nearby_application_update_broadcast_actions (self);
}
