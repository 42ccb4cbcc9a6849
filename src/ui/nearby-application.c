/* nearby-application.c
 *
 * The application owns the services (where sightings come from, the object list, the history)
 * and the actions on objects; windows only show them.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-application"

#include "config.h"

#include <glib/gi18n.h>

#include "nearby-advertiser.h"
#include "nearby-application.h"
#include "nearby-broadcast-dialog.h"
#include "nearby-demo.h"
#include "nearby-inspector.h"
#include "nearby-object-row.h"
#include "nearby-page-loader.h"
#include "nearby-preferences.h"
#include "nearby-replay.h"
#include "nearby-url-policy.h"
#include "nearby-resources.h"
#include "nearby-scanner.h"
#include "nearby-window.h"

struct _NearbyApplication
{
  AdwApplication     parent_instance;

  GSettings         *settings;
  NearbyHistory     *history;
  NearbyObjectList  *objects;
  NearbyResolver    *resolver;
  NearbyPageLoader  *page_loader;
  GtkFilterListModel *shown_objects;
  GtkCustomFilter   *blocked_filter;
  NearbySource      *source;       /* what the window reports on: the scanner, a replay, a demo */
  NearbyDemo        *demo;
  NearbyScanner     *scanner;
  NearbyAdvertiser  *advertiser;   /* developer mode's "Broadcast a URL…" */
  GtkStringList     *blocked_sites;
  GCancellable      *cancellable;

  gboolean           developer;    /* --developer: for this run only */
  gboolean           start_demo;
  char              *replay_path;
  double             replay_speed;
};

G_DEFINE_FINAL_TYPE (NearbyApplication, nearby_application, ADW_TYPE_APPLICATION)

enum {
  PROP_0,
  PROP_DEVELOPER_MODE,
  PROP_NEEDS_PRIVACY_CHOICE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

NearbyApplication *
nearby_application_new (void)
{
  return g_object_new (NEARBY_TYPE_APPLICATION,
                       "application-id", APP_ID,
                       "flags", G_APPLICATION_DEFAULT_FLAGS,
                       "resource-base-path", "/io/github/nearbyweb/Nearby",
                       NULL);
}

NearbyObjectList *
nearby_application_get_objects (NearbyApplication *self)
{
  g_return_val_if_fail (NEARBY_IS_APPLICATION (self), NULL);

  return self->objects;
}

NearbyHistory *
nearby_application_get_history (NearbyApplication *self)
{
  g_return_val_if_fail (NEARBY_IS_APPLICATION (self), NULL);

  return self->history;
}

gboolean
nearby_application_get_developer_mode (NearbyApplication *self)
{
  g_return_val_if_fail (NEARBY_IS_APPLICATION (self), FALSE);

  return self->developer ||
         (self->settings != NULL && g_settings_get_boolean (self->settings, "developer-mode"));
}

gboolean
nearby_application_get_needs_privacy_choice (NearbyApplication *self)
{
  g_return_val_if_fail (NEARBY_IS_APPLICATION (self), TRUE);

  if (nearby_application_get_developer_mode (self))
    return FALSE;

  return self->settings == NULL || !g_settings_get_boolean (self->settings, "privacy-choice-made");
}

static void nearby_application_update_broadcast_actions (NearbyApplication *self);

static NearbyWindow *
nearby_application_get_window (NearbyApplication *self)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (self));

  return NEARBY_IS_WINDOW (window) ? NEARBY_WINDOW (window) : NULL;
}

/* A toast goes where the person is looking: Preferences, or the main window. */
static void
nearby_application_add_toast (NearbyApplication *self,
                              AdwToast          *toast)
{
  GtkWindow *active = gtk_application_get_active_window (GTK_APPLICATION (self));
  NearbyWindow *window = nearby_application_get_window (self);

  g_object_ref_sink (toast);
  if (ADW_IS_PREFERENCES_WINDOW (active))
    adw_preferences_window_add_toast (ADW_PREFERENCES_WINDOW (active), g_object_ref (toast));
  else if (window != NULL)
    nearby_window_add_toast (window, g_object_ref (toast));
  else
    g_message ("%s", adw_toast_get_title (toast));
  g_object_unref (toast);
}

static void
nearby_application_toast (NearbyApplication *self,
                          const char        *message)
{
  nearby_application_add_toast (self, adw_toast_new (message));
}

static void
nearby_application_set_source (NearbyApplication *self,
                               NearbySource      *source)
{
  NearbyWindow *window = nearby_application_get_window (self);

  g_set_object (&self->source, source);
  nearby_object_list_add_source (self->objects, source);
  nearby_page_loader_set_demo (self->page_loader, NEARBY_IS_DEMO (source));
  if (window != NULL)
    nearby_window_set_source (window, source);
}

static void
nearby_application_start_demo (NearbyApplication *self)
{
  g_autoptr(GError) error = NULL;

  if (self->demo != NULL)
    return;

  self->demo = nearby_demo_new ();
  if (!nearby_demo_start (self->demo, &error))
    {
      g_autofree char *message = g_strdup_printf (_("Cannot start the demo: %s"), error->message);

      g_clear_object (&self->demo);
      nearby_application_toast (self, message);
      return;
    }

  nearby_application_set_source (self, NEARBY_SOURCE (self->demo));
}

/* History → objects: favourites and how often the user opened each one feed the ranking. */
static void
nearby_application_apply_history (NearbyApplication *self,
                                  NearbyObject      *object)
{
  const char *url = nearby_object_get_url (object);
  guint count = 0;
  gint64 last_visit = 0;

  if (url == NULL || !nearby_history_get_is_open (self->history))
    return;

  nearby_object_set_favourite (object, nearby_history_is_favourite (self->history, url));
  if (nearby_history_get_visit_stats (self->history, url, &count, &last_visit))
    {
      nearby_object_set_visit_count (object, count);
      nearby_object_set_last_visit (object, last_visit);
      nearby_object_set_history_score (object,
                                       nearby_object_compute_history_score (count, last_visit,
                                                                            g_get_real_time ()));
    }
}

static void
on_object_added (NearbyApplication *self,
                 NearbyObject      *object)
{
  nearby_application_apply_history (self, object);
}

static char *
host_of_url (const char *url)
{
  g_autoptr(GUri) uri = url != NULL ? g_uri_parse (url, G_URI_FLAGS_NONE, NULL) : NULL;

  return uri != NULL && g_uri_get_host (uri) != NULL ? g_ascii_strdown (g_uri_get_host (uri), -1)
                                                     : NULL;
}

static gboolean
object_not_blocked (gpointer item,
                    gpointer user_data)
{
  NearbyApplication *self = user_data;
  g_autofree char *host = host_of_url (nearby_object_get_url (NEARBY_OBJECT (item)));

  return host == NULL || !nearby_history_is_host_blocked (self->history, host);
}

static void
on_blocked_hosts_listed (GObject      *source,
                         GAsyncResult *result,
                         gpointer      user_data)
{
  g_autoptr(NearbyApplication) self = user_data;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) hosts = nearby_history_list_blocked_hosts_finish (NEARBY_HISTORY (source), result,
                                                                  &error);

  if (hosts == NULL)
    return;

  gtk_string_list_splice (self->blocked_sites, 0,
                          g_list_model_get_n_items (G_LIST_MODEL (self->blocked_sites)),
                          (const char * const *) hosts);
  gtk_filter_changed (GTK_FILTER (self->blocked_filter), GTK_FILTER_CHANGE_DIFFERENT);
}

static void
on_history_changed (NearbyApplication *self,
                    NearbyHistoryData  what)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->objects));

  if (what & NEARBY_HISTORY_DATA_BLOCKED_HOSTS)
    nearby_history_list_blocked_hosts_async (self->history, self->cancellable,
                                             on_blocked_hosts_listed, g_object_ref (self));

  if (what & (NEARBY_HISTORY_DATA_VISITS | NEARBY_HISTORY_DATA_FAVOURITES))
    {
      for (guint i = 0; i < n; i++)
        {
          g_autoptr(NearbyObject) object = g_list_model_get_item (G_LIST_MODEL (self->objects), i);

          nearby_application_apply_history (self, object);
        }
    }
}

static void
on_history_opened (GObject      *source,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(NearbyApplication) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!nearby_history_open_finish (NEARBY_HISTORY (source), result, &error))
    return;

  /* A damaged history was set aside: say so once, calmly; the app works either way. */
  if (nearby_history_get_problem (self->history) != NULL)
    nearby_application_toast (self, nearby_history_get_problem (self->history));

  on_history_changed (self, NEARBY_HISTORY_DATA_ALL);
}

static void
nearby_application_activate (GApplication *app)
{
  NearbyApplication *self = NEARBY_APPLICATION (app);
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (app));

  if (window == NULL)
    {
      window = GTK_WINDOW (nearby_window_new (self, self->source,
                                              G_LIST_MODEL (self->shown_objects)));
      g_object_bind_property (window, "list-engaged", self->objects, "frozen",
                              G_BINDING_SYNC_CREATE);
      g_object_bind_property (self, "needs-privacy-choice", window, "needs-privacy-choice",
                              G_BINDING_SYNC_CREATE);
    }

  gtk_window_present (window);
}

static int
nearby_application_handle_local_options (GApplication *app,
                                         GVariantDict *options)
{
  NearbyApplication *self = NEARBY_APPLICATION (app);

  self->replay_speed = 1.0;
  if (g_variant_dict_contains (options, "version"))
    {
      g_print ("nearby %s\n", PACKAGE_VERSION);
      return 0;
    }

  g_variant_dict_lookup (options, "demo", "b", &self->start_demo);
  g_variant_dict_lookup (options, "developer", "b", &self->developer);
  g_variant_dict_lookup (options, "replay", "^ay", &self->replay_path);
  if (g_variant_dict_lookup (options, "speed", "d", &self->replay_speed) &&
      (self->replay_path == NULL || self->replay_speed < 0))
    {
      g_printerr ("%s\n", _("--speed goes with --replay, and is 0 (as fast as possible) or more"));
      return 2;
    }

  if (self->replay_path != NULL && self->start_demo)
    {
      g_printerr ("%s\n", _("--demo and --replay cannot be used together"));
      return 2;
    }

  /* A demo, a replay or a developer session is its own instance, apart from a running app. */
  if (self->start_demo || self->replay_path != NULL || self->developer)
    g_application_set_flags (app, g_application_get_flags (app) | G_APPLICATION_NON_UNIQUE);

  return -1;
}

static void nearby_application_update_inspector_accel (NearbyApplication *self);

static void
on_developer_mode_changed (NearbyApplication *self)
{
  nearby_object_list_set_show_non_browsable (self->objects,
                                             nearby_application_get_developer_mode (self));
  nearby_application_update_inspector_accel (self);
  nearby_application_update_broadcast_actions (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DEVELOPER_MODE]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NEEDS_PRIVACY_CHOICE]);
}

static void
on_privacy_choice_changed (NearbyApplication *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NEEDS_PRIVACY_CHOICE]);
}

static gboolean
seconds_to_ms (GValue   *value,
               GVariant *variant,
               gpointer  user_data)
{
  g_value_set_uint (value, g_variant_get_uint32 (variant) * 1000);
  return TRUE;
}

static void
nearby_application_startup (GApplication *app)
{
  NearbyApplication *self = NEARBY_APPLICATION (app);

  /* Resources live in a static library: register them, or the linker drops them. */
  g_resources_register (nearby_get_resource ());

  G_APPLICATION_CLASS (nearby_application_parent_class)->startup (app);

  self->settings = g_settings_new (APP_ID);
  self->cancellable = g_cancellable_new ();

  self->history = nearby_history_new (NULL);
  g_signal_connect_object (self->history, "changed",
                           G_CALLBACK (on_history_changed), self, G_CONNECT_SWAPPED);
  nearby_history_open_async (self->history, self->cancellable, on_history_opened,
                             g_object_ref (self));

  self->objects = nearby_object_list_new (NULL);
  g_signal_connect_object (self->objects, "object-added",
                           G_CALLBACK (on_object_added), self, G_CONNECT_SWAPPED);
  g_settings_bind_with_mapping (self->settings, "stale-seconds", self->objects, "stale-timeout",
                                G_SETTINGS_BIND_GET, seconds_to_ms, NULL, NULL, NULL);
  g_settings_bind_with_mapping (self->settings, "expiry-seconds", self->objects, "expiry-timeout",
                                G_SETTINGS_BIND_GET, seconds_to_ms, NULL, NULL, NULL);
  g_settings_bind (self->settings, "path-loss-exponent", self->objects, "path-loss-exponent",
                   G_SETTINGS_BIND_GET);
  g_settings_bind (self->settings, "show-hidden", self->objects, "show-invisible",
                   G_SETTINGS_BIND_GET);
  self->resolver = nearby_resolver_new ();
  self->page_loader = nearby_page_loader_new (self->objects, self->resolver,
                                              NEARBY_PAGE_CACHE (self->history));
  g_settings_bind (self->settings, "lookup-policy", self->page_loader, "mode",
                   G_SETTINGS_BIND_GET);
  g_settings_bind (self->settings, "privacy-choice-made", self->page_loader, "enabled",
                   G_SETTINGS_BIND_GET);
  g_object_bind_property (self, "developer-mode", self->page_loader, "developer-mode",
                          G_BINDING_SYNC_CREATE);

  g_signal_connect_object (self->settings, "changed::developer-mode",
                           G_CALLBACK (on_developer_mode_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->settings, "changed::privacy-choice-made",
                           G_CALLBACK (on_privacy_choice_changed), self, G_CONNECT_SWAPPED);
  on_developer_mode_changed (self);

  self->blocked_filter = gtk_custom_filter_new (object_not_blocked, self, NULL);
  self->shown_objects = gtk_filter_list_model_new (g_object_ref (G_LIST_MODEL (self->objects)),
                                                   g_object_ref (GTK_FILTER (self->blocked_filter)));

  if (self->start_demo)
    {
      nearby_application_start_demo (self);
    }
  else if (self->replay_path != NULL)
    {
      g_autoptr(GFile) file = g_file_new_for_commandline_arg (self->replay_path);
      g_autoptr(NearbyReplay) replay = nearby_replay_new (file);

      nearby_replay_set_speed (replay, self->replay_speed);
      nearby_application_set_source (self, NEARBY_SOURCE (replay));
      nearby_replay_start (replay);
    }
  else
    {
      self->scanner = nearby_scanner_new (NULL);
      nearby_application_set_source (self, NEARBY_SOURCE (self->scanner));
    }
}

static void
nearby_application_shutdown (GApplication *app)
{
  NearbyApplication *self = NEARBY_APPLICATION (app);

  g_cancellable_cancel (self->cancellable);

  G_APPLICATION_CLASS (nearby_application_parent_class)->shutdown (app);
}

static void
nearby_application_finalize (GObject *object)
{
  NearbyApplication *self = NEARBY_APPLICATION (object);

  g_clear_object (&self->shown_objects);
  g_clear_object (&self->blocked_filter);
  g_clear_object (&self->page_loader);
  g_clear_object (&self->resolver);
  g_clear_object (&self->objects);
  g_clear_object (&self->source);
  g_clear_object (&self->demo);
  g_clear_object (&self->scanner);
  g_clear_object (&self->advertiser);
  g_clear_object (&self->history);
  g_clear_object (&self->settings);
  g_clear_object (&self->blocked_sites);
  g_clear_object (&self->cancellable);
  g_free (self->replay_path);

  G_OBJECT_CLASS (nearby_application_parent_class)->finalize (object);
}

static void
nearby_application_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  NearbyApplication *self = NEARBY_APPLICATION (object);

  switch (prop_id)
    {
    case PROP_DEVELOPER_MODE:
      g_value_set_boolean (value, nearby_application_get_developer_mode (self));
      break;

    case PROP_NEEDS_PRIVACY_CHOICE:
      g_value_set_boolean (value, nearby_application_get_needs_privacy_choice (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
nearby_application_class_init (NearbyApplicationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  object_class->finalize = nearby_application_finalize;
  object_class->get_property = nearby_application_get_property;

  app_class->activate = nearby_application_activate;
  app_class->startup = nearby_application_startup;
  app_class->shutdown = nearby_application_shutdown;
  app_class->handle_local_options = nearby_application_handle_local_options;

  properties[PROP_DEVELOPER_MODE] =
    g_param_spec_boolean ("developer-mode", NULL, NULL,
                          FALSE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties[PROP_NEEDS_PRIVACY_CHOICE] =
    g_param_spec_boolean ("needs-privacy-choice", NULL, NULL,
                          TRUE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

/* Actions on objects take the object's key, so rows, menus and shortcuts share them. */

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

  if (gtk_show_uri_full_finish (GTK_WINDOW (source), result, &error))
    {
      nearby_history_record_visit_async (request->self->history, request->url, 0,
                                         NULL, NULL, NULL);
    }
  else if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_autofree char *message = g_strdup_printf (_("Could not open the page: %s"),
                                                  error->message);

      nearby_application_toast (request->self, message);
    }

  open_request_free (request);
}

static NearbyObject *
lookup_object (NearbyApplication *self,
               GVariant          *parameter)
{
  return nearby_object_list_get_object_by_key (self->objects, g_variant_get_string (parameter, NULL));
}

/* Only web pages: a broadcast can say file:, javascript: or urn:uuid:, and those are shown,
 * never launched. */
static void
nearby_application_open_url (NearbyApplication *self,
                             const char        *url)
{
  NearbyWindow *window = nearby_application_get_window (self);
  OpenRequest *request;

  if (url == NULL || !nearby_url_is_fetchable (url))
    {
      nearby_application_toast (self, _("This object has no web page to open"));
      return;
    }
  if (window == NULL)
    return;

  request = g_new0 (OpenRequest, 1);
  request->self = g_object_ref (self);
  request->url = g_strdup (url);
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
  NearbyObject *object = lookup_object (self, parameter);

  if (object == NULL)
    {
      nearby_application_toast (self, _("That object is no longer nearby"));
      return;
    }

  /* Opening tells the server anyway; now the row can show what the page is. */
  if (nearby_object_get_page (object) == NULL && nearby_object_get_browsable (object))
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
  NearbyWindow *window = nearby_application_get_window (self);

  if (object == NULL || nearby_object_get_url (object) == NULL || window == NULL)
    return;

  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (window)),
                          nearby_object_get_url (object));
  nearby_application_toast (self, _("Link copied"));
}

static void
toggle_favourite_action (GSimpleAction *action,
                         GVariant      *parameter,
                         gpointer       user_data)
{
  NearbyApplication *self = user_data;
  NearbyObject *object = lookup_object (self, parameter);
  const char *url;

  if (object == NULL || (url = nearby_object_get_url (object)) == NULL)
    return;

  if (nearby_object_get_favourite (object))
    nearby_history_remove_favourite_async (self->history, url, NULL, NULL, NULL);
  else
    nearby_history_add_favourite_async (self->history, url, NULL, NULL, NULL);
  /* Shown at once; the history's "changed" confirms it. */
  nearby_object_set_favourite (object, !nearby_object_get_favourite (object));
}

static void
block_site_action (GSimpleAction *action,
                   GVariant      *parameter,
                   gpointer       user_data)
{
  NearbyApplication *self = user_data;
  const char *host = g_variant_get_string (parameter, NULL);
  g_autofree char *title = g_strdup_printf (_("Objects from %s are hidden"), host);
  AdwToast *toast;

  nearby_history_block_host_async (self->history, host, NULL, NULL, NULL);

  toast = adw_toast_new (title);
  adw_toast_set_button_label (toast, _("_Undo"));
  adw_toast_set_action_name (toast, "app.set-site-hidden");
  adw_toast_set_action_target_value (toast, g_variant_new ("(sb)", host, FALSE));
  nearby_application_add_toast (self, toast);
}

static void
unblock_site_action (GSimpleAction *action,
                     GVariant      *parameter,
                     gpointer       user_data)
{
  NearbyApplication *self = user_data;
  const char *host = g_variant_get_string (parameter, NULL);
  g_autofree char *title = g_strdup_printf (_("Objects from %s are shown again"), host);
  AdwToast *toast = adw_toast_new (title);

  nearby_history_unblock_host_async (self->history, host, NULL, NULL, NULL);

  adw_toast_set_button_label (toast, _("_Undo"));
  adw_toast_set_action_name (toast, "app.set-site-hidden");
  adw_toast_set_action_target_value (toast, g_variant_new ("(sb)", host, TRUE));
  nearby_application_add_toast (self, toast);
}

/* The Undo buttons: hide or show a site again, with no second toast offering to undo the undo. */
static void
set_site_hidden_action (GSimpleAction *action,
                        GVariant      *parameter,
                        gpointer       user_data)
{
  NearbyApplication *self = user_data;
  const char *host;
  gboolean hidden;

  g_variant_get (parameter, "(&sb)", &host, &hidden);
  if (hidden)
    nearby_history_block_host_async (self->history, host, NULL, NULL, NULL);
  else
    nearby_history_unblock_host_async (self->history, host, NULL, NULL, NULL);
}

static void
on_history_cleared (GObject      *source,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(NearbyApplication) self = user_data;
  g_autoptr(GError) error = NULL;

  if (nearby_history_clear_finish (NEARBY_HISTORY (source), result, &error))
    nearby_application_toast (self, _("History cleared"));
  else
    {
      g_autofree char *message = g_strdup_printf (_("Could not clear the history: %s"),
                                                  error->message);

      nearby_application_toast (self, message);
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
  g_signal_connect_object (dialog, "response", G_CALLBACK (on_clear_history_response), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
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
                    gpointer       user_data)
{
  NearbyApplication *self = user_data;
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (self));

  gtk_window_present (GTK_WINDOW (nearby_preferences_new (window,
                                                          G_LIST_MODEL (self->blocked_sites))));
}

static void
refresh_action (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  NearbyApplication *self = user_data;

  /* The refresh button is the user asking: every object, every address, fresh from the web. */
  nearby_page_loader_look_up_all (self->page_loader, TRUE);
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

      nearby_application_toast (self, message);
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
  NearbyWindow *window = nearby_application_get_window (self);

  if (!nearby_advertiser_start_finish (NEARBY_ADVERTISER (source), result, &error))
    {
      g_autofree char *message = g_strdup_printf (_("Could not broadcast: %s"), error->message);

      if (self->advertiser == NEARBY_ADVERTISER (source))
        g_clear_object (&self->advertiser);
      nearby_application_update_broadcast_actions (self);
      nearby_application_toast (self, message);
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
  nearby_application_toast (self, _("Broadcast stopped"));
}

static void
stop_broadcast_action (GSimpleAction *action,
                       GVariant      *parameter,
                       gpointer       user_data)
{
  NearbyApplication *self = user_data;
  g_autoptr(NearbyAdvertiser) advertiser = g_steal_pointer (&self->advertiser);

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
  nearby_application_start_demo (NEARBY_APPLICATION (user_data));
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
      gtk_window_set_transient_for (GTK_WINDOW (inspector),
                                    GTK_WINDOW (nearby_application_get_window (self)));
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
  NearbyObject *object = lookup_object (self, parameter);

  if (object == NULL)
    {
      nearby_application_toast (self, _("That object is no longer nearby"));
      return;
    }
  nearby_application_show_details (self, object);
}

/* Ctrl+I in developer mode: the focused row's object, or the first one. */
static void
inspect_action (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  NearbyApplication *self = user_data;
  NearbyWindow *window = nearby_application_get_window (self);
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
  { "block-site", block_site_action, "s" },
  { "unblock-site", unblock_site_action, "s" },
  { "set-site-hidden", set_site_hidden_action, "(sb)" },
  { "clear-history", clear_history_action },
  { "show-details", show_details_action, "s" },
  { "inspect", inspect_action },
};

static const GOptionEntry app_options[] = {
  { "demo", 0, 0, G_OPTION_ARG_NONE, NULL,
    N_("Show made-up objects served from this computer, to try Nearby without beacons"), NULL },
  { "replay", 0, 0, G_OPTION_ARG_FILENAME, NULL,
    N_("Replay a capture written by “nearby scan --json”"), N_("FILE") },
  { "speed", 0, 0, G_OPTION_ARG_DOUBLE, NULL,
    N_("With --replay: play this many times faster (0: as fast as possible)"), N_("FACTOR") },
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
  g_application_set_option_context_parameter_string (G_APPLICATION (self), _("[COMMAND …]"));
  g_application_set_option_context_description (G_APPLICATION (self),
    _("Commands for beacon developers: decode, encode, scan, resolve, advertise.\n"
      "Run “nearby help” for the list."));

  g_action_map_add_action_entries (G_ACTION_MAP (self), app_actions, G_N_ELEMENTS (app_actions),
                                   self);
  gtk_application_set_accels_for_action (GTK_APPLICATION (self), "app.quit",
                                         (const char *[]) { "<primary>q", NULL });
  gtk_application_set_accels_for_action (GTK_APPLICATION (self), "app.preferences",
                                         (const char *[]) { "<primary>comma", NULL });
  gtk_application_set_accels_for_action (GTK_APPLICATION (self), "app.refresh",
                                         (const char *[]) { "<primary>r", "F5", NULL });
}
