/* nearby-application.c
 *
 * The application owns the services (where sightings come from, the object list, the history)
 * and wires them together; its actions are in nearby-application-actions.c. Windows only show
 * what it owns.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-application"

#include "config.h"

#include <glib/gi18n.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "nearby-a11y.h"
#include "nearby-application-private.h"
#include "nearby-inspector.h"
#include "nearby-object-row.h"
#include "nearby-replay.h"
#include "nearby-resources.h"
#include "nearby-settings.h"
#include "nearby-url-policy.h"

/* Once a crowd has gone, what it took is given back to the system: glibc keeps freed memory in
 * each thread's arena (the resolver's, GDBus's, the icon decoder's) for the next allocation,
 * which after a crowd has left may not come for hours. A crowd has gone when the list is down to
 * a quarter of the most it held since the last trim, not only when it is empty: a list the
 * person is looking at keeps its faded rows a while, and a few beacons may stay. Seconds later,
 * so that a list that empties and fills again does not trim each time.
 *
 * A crowd coming leaves freed memory all through the heap as well (its adverts' messages, its
 * pages as parsed): once the list has at least doubled since the last trim, to
 * TRIM_CROWD_MIN rows or more, and no row has come for TRIM_DELAY_S. */
#define TRIM_DELAY_S    3
#define TRIM_CROWD_MIN 32

static gboolean
trim_memory (gpointer user_data)
{
  NearbyApplication *self = user_data;

  self->trim_source = 0;
  self->trim_peak = g_list_model_get_n_items (G_LIST_MODEL (self->objects));
  self->trim_size = self->trim_peak;
  self->trim_after_crowd = FALSE;
#ifdef __GLIBC__
  malloc_trim (0);
#endif

  return G_SOURCE_REMOVE;
}

static void
on_objects_changed (NearbyApplication *self,
                    guint              position,
                    guint              removed,
                    guint              added,
                    GListModel        *objects)
{
  guint n_items = g_list_model_get_n_items (objects);
  gboolean grew = added > removed;

  self->trim_peak = MAX (self->trim_peak, n_items);
  if (grew && (self->trim_after_crowd
               || (n_items >= TRIM_CROWD_MIN && n_items >= 2 * self->trim_size)))
    {
      g_clear_handle_id (&self->trim_source, g_source_remove);
      self->trim_source = g_timeout_add_seconds (TRIM_DELAY_S, trim_memory, self);
      self->trim_after_crowd = TRUE;
    }
  else if (self->trim_after_crowd)
    {
      /* The crowd's trim stands. */
    }
  else if (n_items > 0 && n_items > self->trim_peak / 4)
    g_clear_handle_id (&self->trim_source, g_source_remove);
  else if (removed > 0 && self->trim_source == 0)
    self->trim_source = g_timeout_add_seconds (TRIM_DELAY_S, trim_memory, self);
}

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

  /* The demo's pages are served by this computer: looking them up tells nobody anything, so
   * there is nothing to choose before it shows them. */
  if (nearby_application_get_developer_mode (self) || self->start_demo || self->demo != NULL)
    return FALSE;

  return self->settings == NULL || !g_settings_get_boolean (self->settings, "privacy-choice-made");
}

/* Preferences and Details belong to the application too, and one of them may be the active
 * window: the main window is the most recently focused NearbyWindow. */
NearbyWindow *
_nearby_application_get_window (NearbyApplication *self)
{
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (self)); l != NULL; l = l->next)
    {
      if (NEARBY_IS_WINDOW (l->data))
        return NEARBY_WINDOW (l->data);
    }

  return NULL;
}

/* A toast goes where the person is looking: Preferences, or the main window. */
void
_nearby_application_add_toast (NearbyApplication *self,
                               AdwToast          *toast)
{
  GtkWindow *active = gtk_application_get_active_window (GTK_APPLICATION (self));
  NearbyWindow *window = _nearby_application_get_window (self);

  /* A toast is a plain GObject, not a floating one: the overlay takes the caller's reference. */
  if (ADW_IS_PREFERENCES_WINDOW (active))
    {
      adw_preferences_window_add_toast (ADW_PREFERENCES_WINDOW (active), toast);
      nearby_a11y_watch_toast (GTK_WIDGET (active), toast);
    }
  else if (window != NULL)
    {
      nearby_window_add_toast (window, toast);
    }
  else
    {
      g_message ("%s", adw_toast_get_title (toast));
      g_object_unref (toast);
    }
}

void
_nearby_application_toast (NearbyApplication *self,
                           const char        *message)
{
  _nearby_application_add_toast (self, adw_toast_new (message));
}

static void
nearby_application_set_source (NearbyApplication *self,
                               NearbySource      *source)
{
  NearbyWindow *window = _nearby_application_get_window (self);

  g_set_object (&self->source, source);
  nearby_object_list_add_source (self->objects, source);
  nearby_page_loader_set_demo (self->page_loader, NEARBY_IS_DEMO (source));
  if (window != NULL)
    nearby_window_set_source (window, source);
}

void
_nearby_application_start_demo (NearbyApplication *self)
{
  g_autoptr(GError) error = NULL;

  if (self->demo != NULL)
    return;

  self->demo = nearby_demo_new ();
  if (!nearby_demo_start (self->demo, &error))
    {
      g_autofree char *message = g_strdup_printf (_("Cannot start the demo: %s"), error->message);

      g_clear_object (&self->demo);
      _nearby_application_toast (self, message);
      return;
    }

  nearby_application_set_source (self, NEARBY_SOURCE (self->demo));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NEEDS_PRIVACY_CHOICE]);
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

/* A favourite stays in the list when its site is hidden: it was chosen one by one, and hiding
 * a site should not bury it. Sites hidden before hiding went by registrable domain were hosts,
 * and still hide their host. */
gboolean
_nearby_application_object_is_hidden (NearbyApplication *self,
                                      NearbyObject      *object)
{
  const char *url = nearby_object_get_url (object);
  g_autofree char *site = NULL;
  g_autofree char *host = NULL;

  if (url == NULL || nearby_object_get_favourite (object))
    return FALSE;

  site = nearby_object_row_dup_site (object, self->source);
  host = nearby_object_row_dup_host (object, self->source, NULL, NULL);

  return nearby_history_is_site_hidden (self->history, site) ||
         nearby_history_is_site_hidden (self->history, host);
}

static gboolean
object_not_hidden (gpointer item,
                   gpointer user_data)
{
  return !_nearby_application_object_is_hidden (user_data, NEARBY_OBJECT (item));
}

static void
on_hidden_sites_listed (GObject      *source,
                         GAsyncResult *result,
                         gpointer      user_data)
{
  g_autoptr(NearbyApplication) self = user_data;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) hosts = nearby_history_list_hidden_sites_finish (NEARBY_HISTORY (source), result,
                                                                  &error);

  if (hosts == NULL)
    return;

  gtk_string_list_splice (self->hidden_sites, 0,
                          g_list_model_get_n_items (G_LIST_MODEL (self->hidden_sites)),
                          (const char * const *) hosts);
  gtk_filter_changed (GTK_FILTER (self->hidden_sites_filter), GTK_FILTER_CHANGE_DIFFERENT);
}

static void
on_history_changed (NearbyApplication *self,
                    NearbyHistoryData  what)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->objects));

  if (what & NEARBY_HISTORY_DATA_HIDDEN_SITES)
    nearby_history_list_hidden_sites_async (self->history, self->cancellable,
                                             on_hidden_sites_listed, g_object_ref (self));

  if (what & (NEARBY_HISTORY_DATA_VISITS | NEARBY_HISTORY_DATA_FAVOURITES))
    {
      for (guint i = 0; i < n; i++)
        {
          g_autoptr(NearbyObject) object = g_list_model_get_item (G_LIST_MODEL (self->objects), i);

          nearby_application_apply_history (self, object);
        }
    }

  /* A favourite of a hidden site stays shown, so favourites decide what is hidden too. */
  if (what & NEARBY_HISTORY_DATA_FAVOURITES)
    gtk_filter_changed (GTK_FILTER (self->hidden_sites_filter), GTK_FILTER_CHANGE_DIFFERENT);
}

/* A write that failed (a full disk, say): told once per spell of trouble, which the history
 * keeps track of; what the person did is kept and written later. */
static void
on_history_write_problem (NearbyApplication *self)
{
  const char *problem = nearby_history_get_write_problem (self->history);

  if (problem != NULL)
    _nearby_application_toast (self, problem);
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
    _nearby_application_toast (self, nearby_history_get_problem (self->history));

  on_history_changed (self, NEARBY_HISTORY_DATA_ALL);
}

static void
nearby_application_activate (GApplication *app)
{
  NearbyApplication *self = NEARBY_APPLICATION (app);
  GtkWindow *window = GTK_WINDOW (_nearby_application_get_window (self));

  if (window == NULL)
    {
      window = GTK_WINDOW (nearby_window_new (self, self->source,
                                              G_LIST_MODEL (self->shown_objects),
                                              G_LIST_MODEL (self->objects),
                                              nearby_application_get_needs_privacy_choice (self)));
      g_object_bind_property (window, "list-engaged", self->objects, "frozen",
                              G_BINDING_SYNC_CREATE);
      /* A hidden or minimized window updates no row: the list catches up when it is shown. */
      g_object_bind_property (window, "on-screen", self->objects, "held",
                              G_BINDING_SYNC_CREATE | G_BINDING_INVERT_BOOLEAN);
      g_object_bind_property (self, "needs-privacy-choice", window, "needs-privacy-choice",
                              G_BINDING_SYNC_CREATE);
      /* Starting (templates, style sheets, the first frame) leaves freed memory behind too. */
      if (g_list_model_get_n_items (G_LIST_MODEL (self->objects)) == 0 && self->trim_source == 0)
        self->trim_source = g_timeout_add_seconds (TRIM_DELAY_S, trim_memory, self);
    }

  gtk_window_present (window);
}

/* g_settings_new() aborts the process when the schema is missing, as it is in a build tree. */
static gboolean
settings_schema_is_installed (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;

  if (source != NULL)
    schema = g_settings_schema_source_lookup (source, APP_ID, TRUE);

  return schema != NULL;
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

  if (!settings_schema_is_installed ())
    {
      g_autofree char *message =
        g_strdup_printf (_("Nearby’s settings schema %s is not installed: run Nearby from its build "
                           "directory with “meson devenv -C _build nearby”, or install it"),
                         APP_ID);
      g_printerr ("%s\n", message);
      return 1;
    }

  /* A demo, a replay or a developer session is its own instance, apart from a running app. */
  if (self->start_demo || self->replay_path != NULL || self->developer)
    g_application_set_flags (app, g_application_get_flags (app) | G_APPLICATION_NON_UNIQUE);

  return -1;
}

static void
on_developer_mode_changed (NearbyApplication *self)
{
  nearby_object_list_set_show_non_browsable (self->objects,
                                             nearby_application_get_developer_mode (self));
  _nearby_application_actions_update (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DEVELOPER_MODE]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NEEDS_PRIVACY_CHOICE]);
}

static void
on_privacy_choice_changed (NearbyApplication *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NEEDS_PRIVACY_CHOICE]);
}

/* A beacon that stays where it is says nothing new in most of its adverts: the scanner holds
 * them back rather than wake the list for each. Details shows every advert and the signal graph,
 * so nothing is held while one is open. The hold is kept well within the list's stale and expiry
 * times, so that a held beacon does not fade. */
static void
update_hold_steady (NearbyApplication *self)
{
  gboolean inspecting = FALSE;

  if (self->scanner == NULL)
    return;

  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (self)); l != NULL; l = l->next)
    {
      if (NEARBY_IS_INSPECTOR (l->data))
        {
          inspecting = TRUE;
          break;
        }
    }

  nearby_scanner_set_hold_timeouts (self->scanner,
                                    nearby_object_list_get_stale_timeout (self->objects),
                                    nearby_object_list_get_expiry_timeout (self->objects));
  nearby_scanner_set_hold_steady (self->scanner, !inspecting);
}

static void
on_window_added_or_removed (NearbyApplication *self,
                            GtkWindow         *window)
{
  if (NEARBY_IS_INSPECTOR (window))
    update_hold_steady (self);
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

  _nearby_application_exit_init (self);

  self->settings = g_settings_new (APP_ID);
  nearby_settings_migrate (self->settings);
  self->cancellable = g_cancellable_new ();

  self->history = nearby_history_new (NULL);
  g_signal_connect_object (self->history, "changed",
                           G_CALLBACK (on_history_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->history, "notify::write-problem",
                           G_CALLBACK (on_history_write_problem), self, G_CONNECT_SWAPPED);
  nearby_history_open_async (self->history, self->cancellable, on_history_opened,
                             g_object_ref (self));

  self->objects = nearby_object_list_new (NULL);
  g_signal_connect_object (self->objects, "object-added",
                           G_CALLBACK (on_object_added), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->objects, "items-changed",
                           G_CALLBACK (on_objects_changed), self, G_CONNECT_SWAPPED);
  g_settings_bind_with_mapping (self->settings, "stale-seconds", self->objects, "stale-timeout",
                                G_SETTINGS_BIND_GET, seconds_to_ms, NULL, NULL, NULL);
  g_settings_bind_with_mapping (self->settings, "expiry-seconds", self->objects, "expiry-timeout",
                                G_SETTINGS_BIND_GET, seconds_to_ms, NULL, NULL, NULL);
  g_settings_bind (self->settings, "path-loss-exponent", self->objects, "path-loss-exponent",
                   G_SETTINGS_BIND_GET);
  g_settings_bind (self->settings, "show-invisible", self->objects, "show-invisible",
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

  self->hidden_sites_filter = gtk_custom_filter_new (object_not_hidden, self, NULL);
  self->shown_objects = gtk_filter_list_model_new (g_object_ref (G_LIST_MODEL (self->objects)),
                                                   g_object_ref (GTK_FILTER (self->hidden_sites_filter)));

  if (self->start_demo)
    {
      _nearby_application_start_demo (self);
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
      update_hold_steady (self);
      g_signal_connect_object (self->objects, "notify::stale-timeout",
                               G_CALLBACK (update_hold_steady), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (self->objects, "notify::expiry-timeout",
                               G_CALLBACK (update_hold_steady), self, G_CONNECT_SWAPPED);
      g_signal_connect (self, "window-added", G_CALLBACK (on_window_added_or_removed), NULL);
      g_signal_connect (self, "window-removed", G_CALLBACK (on_window_added_or_removed), NULL);
      nearby_application_set_source (self, NEARBY_SOURCE (self->scanner));
    }
}

static void
nearby_application_shutdown (GApplication *app)
{
  NearbyApplication *self = NEARBY_APPLICATION (app);

  g_clear_handle_id (&self->trim_source, g_source_remove);

  _nearby_application_exit_flush (self);
  g_cancellable_cancel (self->cancellable);

  G_APPLICATION_CLASS (nearby_application_parent_class)->shutdown (app);
}

static void
nearby_application_finalize (GObject *object)
{
  NearbyApplication *self = NEARBY_APPLICATION (object);

  g_clear_object (&self->shown_objects);
  g_clear_object (&self->hidden_sites_filter);
  g_clear_object (&self->page_loader);
  g_clear_object (&self->resolver);
  g_clear_object (&self->objects);
  g_clear_object (&self->source);
  g_clear_object (&self->demo);
  g_clear_object (&self->scanner);
  g_clear_object (&self->advertiser);
  g_clear_weak_pointer (&self->broadcast_toast);
  g_clear_object (&self->history);
  g_clear_object (&self->settings);
  g_clear_object (&self->hidden_sites);
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

static const GOptionEntry app_options[] = {
  { "demo", 0, 0, G_OPTION_ARG_NONE, NULL,
    N_("Show made-up objects served from this computer, to try Nearby without beacons"), NULL },
  { "replay", 0, 0, G_OPTION_ARG_FILENAME, NULL,
    N_("Replay a capture written by “nearby scan --json”, or a btsnoop capture"), N_("FILE") },
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
  self->hidden_sites = gtk_string_list_new (NULL);

  g_application_add_main_option_entries (G_APPLICATION (self), app_options);
  g_application_set_option_context_parameter_string (G_APPLICATION (self), _("[COMMAND …]"));
  g_application_set_option_context_description (G_APPLICATION (self),
    _("Commands for beacon developers: decode, encode, scan, resolve, advertise.\n"
      "Run “nearby help” for the list."));

  _nearby_application_actions_init (self);
}
