/* nearby-inspector.c
 *
 * The inspector reads the object's state whenever it notifies (at most once per list tick) and
 * updates its labels in place, so that a selection or the keyboard focus survives the updates.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-inspector"

#include "config.h"

#include <glib/gi18n.h>

#include "nearby-a11y.h"
#include "nearby-configure-dialog.h"
#include "nearby-dbm.h"
#include "nearby-frame-row.h"
#include "nearby-inspector.h"
#include "nearby-object-json.h"
#include "nearby-object-row.h"
#include "nearby-signal-graph.h"
#include "nearby-url-policy.h"


typedef struct {
  AdwPreferencesGroup *group;
  GtkWidget           *configure;
  gint64               last_seen_us;
  NearbyFrameRow      *frames[NEARBY_FRAME_N_KINDS];
} DeviceView;

struct _NearbyInspector
{
  AdwWindow            parent_instance;

  NearbyObject        *object;
  NearbyObjectList    *objects;
  NearbySource        *source;       /* what the object was heard from: the demo makes up hosts */
  gboolean             expired;
  guint                update_source;
  GHashTable          *devices;      /* address -> DeviceView */
  GPtrArray           *page_rows;
  NearbyPage          *shown_page;   /* what the page log was last filled from */

  gboolean             developer_mode;

  AdwToastOverlay     *toast_overlay;
  AdwWindowTitle      *window_title;
  GtkLabel            *title_label;
  GtkLabel            *description_label;
  GtkWidget           *open_button;
  GtkButton           *favourite_button;
  AdwActionRow        *site_row;
  AdwActionRow        *security_row;
  GtkExpander         *developer_expander;
  GtkLabel            *url_label;
  GtkLabel            *state_label;
  NearbySignalGraph   *graph;
  GtkLabel            *distance_value;
  GtkLabel            *rssi_value;
  GtkLabel            *tx_power_value;
  GtkLabel            *first_seen_value;
  GtkLabel            *last_seen_value;
  GtkLabel            *host_value;
  GtkLabel            *key_value;
  AdwPreferencesGroup *page_group;
  GtkBox              *devices_box;
};

G_DEFINE_FINAL_TYPE (NearbyInspector, nearby_inspector, ADW_TYPE_WINDOW)

enum {
  PROP_0,
  PROP_OBJECT,
  PROP_OBJECTS,
  PROP_SOURCE,
  PROP_EXPIRED,
  PROP_DEVELOPER_MODE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void nearby_inspector_update (NearbyInspector *self);

NearbyInspector *
nearby_inspector_new (NearbyObject     *object,
                      NearbyObjectList *objects)
{
  g_return_val_if_fail (NEARBY_IS_OBJECT (object), NULL);
  g_return_val_if_fail (objects == NULL || NEARBY_IS_OBJECT_LIST (objects), NULL);

  return g_object_new (NEARBY_TYPE_INSPECTOR,
                       "object", object,
                       "objects", objects,
                       NULL);
}

gboolean
nearby_inspector_get_developer_mode (NearbyInspector *self)
{
  g_return_val_if_fail (NEARBY_IS_INSPECTOR (self), FALSE);

  return self->developer_mode;
}

/* Developers find the page log, the timings and the frames open; everyone else can open them. */
void
nearby_inspector_set_developer_mode (NearbyInspector *self,
                                     gboolean         developer_mode)
{
  g_return_if_fail (NEARBY_IS_INSPECTOR (self));

  developer_mode = !!developer_mode;
  if (self->developer_mode == developer_mode)
    return;

  self->developer_mode = developer_mode;
  gtk_expander_set_expanded (self->developer_expander, developer_mode);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DEVELOPER_MODE]);
}

NearbySource *
nearby_inspector_get_source (NearbyInspector *self)
{
  g_return_val_if_fail (NEARBY_IS_INSPECTOR (self), NULL);

  return self->source;
}

void
nearby_inspector_set_source (NearbyInspector *self,
                             NearbySource    *source)
{
  g_return_if_fail (NEARBY_IS_INSPECTOR (self));
  g_return_if_fail (source == NULL || NEARBY_IS_SOURCE (source));

  if (!g_set_object (&self->source, source))
    return;

  if (self->object != NULL)
    nearby_inspector_update (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SOURCE]);
}

NearbyObject *
nearby_inspector_get_object (NearbyInspector *self)
{
  g_return_val_if_fail (NEARBY_IS_INSPECTOR (self), NULL);

  return self->object;
}

gboolean
nearby_inspector_get_expired (NearbyInspector *self)
{
  g_return_val_if_fail (NEARBY_IS_INSPECTOR (self), FALSE);

  return self->expired;
}

static char *
host_of (const char *url)
{
  g_autoptr(GUri) uri = url != NULL ? g_uri_parse (url, G_URI_FLAGS_NONE, NULL) : NULL;

  if (uri == NULL || g_uri_get_host (uri) == NULL || *g_uri_get_host (uri) == '\0')
    return NULL;

  return g_strdup (g_uri_get_host (uri));
}

static char *
format_time (gint64 time_us)
{
  g_autoptr(GDateTime) time = NULL;

  if (time_us <= 0)
    return g_strdup (_("Never"));
  time = g_date_time_new_from_unix_local (time_us / G_USEC_PER_SEC);
  if (time == NULL)
    return g_strdup (_("Unknown"));

  return g_date_time_format (time, "%X");
}

static void
device_view_free (DeviceView *view)
{
  g_free (view);
}

static void
device_view_set_description (DeviceView *view,
                             gboolean    heard)
{
  g_autofree char *time = format_time (view->last_seen_us);
  g_autofree char *description = heard ? g_strdup_printf (_("Last heard at %s"), time)
                                       : g_strdup_printf (_("No longer heard; last heard at %s"), time);

  adw_preferences_group_set_description (view->group, description);
}

static void
on_configure_clicked (GtkButton       *button,
                      NearbyInspector *self)
{
  const char *address = g_object_get_data (G_OBJECT (button), "nearby-address");
  NearbyConfigureDialog *dialog = nearby_configure_dialog_new (GTK_WINDOW (self), address);

  gtk_window_present (GTK_WINDOW (dialog));
}

/* Configure Beacon… is offered only for a device that advertised one of the configuration
 * services' UUIDs (see nearby-scanner-devices.c: bluetoothd 5.66 says nothing else about
 * connectability before connecting). A beacon that advertises only its frames has no button;
 * one that stopped taking connections since still gets it, and the dialog says it could not
 * connect. */
static void
device_view_offer_configure (DeviceView      *view,
                             NearbyInspector *self,
                             const char      *address)
{
  if (view->configure != NULL)
    return;

  view->configure = gtk_button_new_with_mnemonic (_("_Configure Beacon…"));
  nearby_a11y_name_button_by_its_label (GTK_BUTTON (view->configure));
  gtk_widget_set_valign (view->configure, GTK_ALIGN_CENTER);
  g_object_set_data_full (G_OBJECT (view->configure), "nearby-address", g_strdup (address),
                          g_free);
  g_signal_connect (view->configure, "clicked", G_CALLBACK (on_configure_clicked), self);
  adw_preferences_group_set_header_suffix (view->group, view->configure);
}

static DeviceView *
nearby_inspector_ensure_device (NearbyInspector *self,
                                const char      *address)
{
  DeviceView *view = g_hash_table_lookup (self->devices, address);

  if (view != NULL)
    return view;

  view = g_new0 (DeviceView, 1);
  view->group = ADW_PREFERENCES_GROUP (adw_preferences_group_new ());
  adw_preferences_group_set_title (view->group, address);
  gtk_box_append (self->devices_box, GTK_WIDGET (view->group));
  g_hash_table_insert (self->devices, g_strdup (address), view);
  return view;
}

static void
nearby_inspector_update_devices (NearbyInspector *self)
{
  g_autoptr(GHashTable) heard = g_hash_table_new (g_str_hash, g_str_equal);
  guint n_devices = nearby_object_get_n_devices (self->object);
  GHashTableIter iter;
  const char *address;
  DeviceView *view;

  for (guint i = 0; i < n_devices; i++)
    {
      const NearbyObjectDevice *device = nearby_object_get_device (self->object, i);

      address = nearby_object_device_get_address (device);
      view = nearby_inspector_ensure_device (self, address);
      view->last_seen_us = nearby_object_device_get_last_seen (device);
      if (nearby_object_device_get_config_offer (device) != 0)
        device_view_offer_configure (view, self, address);
      g_hash_table_add (heard, (gpointer) address);

      for (int kind = NEARBY_FRAME_KIND_URL; kind < NEARBY_FRAME_N_KINDS; kind++)
        {
          const NearbyFrame *frame = nearby_object_device_get_frame (device, kind);

          if (frame == NULL)
            continue;
          if (view->frames[kind] == NULL)
            {
              view->frames[kind] = NEARBY_FRAME_ROW (nearby_frame_row_new ());
              adw_preferences_group_add (view->group, GTK_WIDGET (view->frames[kind]));
            }
          nearby_frame_row_set_frame (view->frames[kind], device, frame);
        }
    }

  /* Devices the object forgot keep their last frames on screen: that is what a developer
   * chasing a beacon that went quiet wants to see. */
  g_hash_table_iter_init (&iter, self->devices);
  while (g_hash_table_iter_next (&iter, (gpointer *) &address, (gpointer *) &view))
    device_view_set_description (view, !self->expired && g_hash_table_contains (heard, address));
}

static void
set_state (NearbyInspector *self,
           const char      *text,
           const char      *style_class)
{
  static const char *classes[] = { "success", "warning", "error" };

  for (guint i = 0; i < G_N_ELEMENTS (classes); i++)
    {
      if (g_strcmp0 (style_class, classes[i]) == 0)
        gtk_widget_add_css_class (GTK_WIDGET (self->state_label), classes[i]);
      else
        gtk_widget_remove_css_class (GTK_WIDGET (self->state_label), classes[i]);
    }
  gtk_label_set_label (self->state_label, text);
}

/* The resolver's record, as lines a developer reads top to bottom: each hop, the answer, how
 * long it took, and why the page is not shown when it is not. */
static GStrv
page_log_lines (NearbyPage *page)
{
  g_autoptr(GStrvBuilder) lines = g_strv_builder_new ();
  g_autofree char *line = NULL;

  if (page->from_cache)
    {
      g_autofree char *fetched = format_time (page->fetched_at_us);

      line = g_strdup_printf (_("From the cache, fetched at %s"), fetched);
      g_strv_builder_add (lines, line);
      g_clear_pointer (&line, g_free);
    }

  for (guint i = 0; page->redirects != NULL && i < page->redirects->len; i++)
    {
      const NearbyRedirect *redirect = g_ptr_array_index (page->redirects, i);

      /* Translators: a redirect in the page log: "301 from http://example.com/" */
      line = g_strdup_printf (_("%u redirect from %s"), redirect->status, redirect->url);
      g_strv_builder_add (lines, line);
      g_clear_pointer (&line, g_free);
    }

  if (page->status != 0)
    {
      line = g_strdup_printf (_("HTTP %u from %s"), page->status,
                              page->final_url != NULL ? page->final_url : page->url);
      g_strv_builder_add (lines, line);
      g_clear_pointer (&line, g_free);
    }

  if (!page->from_cache && page->total_us > 0)
    {
      line = g_strdup_printf (_("Headers after %.0f ms, done after %.0f ms"),
                              page->headers_us / 1000.0, page->total_us / 1000.0);
      g_strv_builder_add (lines, line);
      g_clear_pointer (&line, g_free);
    }

  if (page->manifest_url != NULL)
    {
      line = g_strdup_printf (_("Manifest %s"), page->manifest_url);
      g_strv_builder_add (lines, line);
      g_clear_pointer (&line, g_free);
    }
  if (page->icon_url != NULL)
    {
      line = g_strdup_printf (_("Icon %s (%s, %d × %d)"), page->icon_url,
                              page->icon_type != NULL ? page->icon_type : "?",
                              page->icon_width, page->icon_height);
      g_strv_builder_add (lines, line);
      g_clear_pointer (&line, g_free);
    }

  if (page->error != NULL)
    {
      line = g_strdup_printf (_("Not shown: %s (%s)"), page->error->message,
                              nearby_page_get_error_code (page));
      g_strv_builder_add (lines, line);
    }

  return g_strv_builder_end (lines);
}

static void
nearby_inspector_update_page (NearbyInspector *self)
{
  NearbyPage *page = nearby_object_get_page (self->object);
  g_auto(GStrv) lines = NULL;

  if (page == self->shown_page)
    return;

  g_clear_pointer (&self->shown_page, nearby_page_unref);
  if (page == NULL)
    {
      nearby_inspector_set_page_log (self, NULL);
      return;
    }

  self->shown_page = nearby_page_ref (page);
  lines = page_log_lines (page);
  nearby_inspector_set_page_log (self, (const char *const *) lines);
}

/* What a person should know before opening the page, in a sentence: the row's badge, said
 * in full. */
static const char *
security_for (NearbyObject          *object,
              const char            *host,
              gboolean               made_up,
              NearbyUrlDisplayFlags  flags)
{
  const char *url = nearby_object_get_url (object);
  NearbyPage *page = nearby_object_get_page (object);

  if (url == NULL)
    return _("No web page");
  if (!nearby_object_get_browsable (object))
    return _("Cannot be opened: not a web page");

  if (flags & NEARBY_URL_DISPLAY_HAS_USERINFO)
    return _("Misleading address: the site is not the one named first");
  /* The row shows the demo's made-up host without a badge; here, where a person looks closer,
   * it says where the page really comes from. */
  if (made_up)
    return _("Made up for the demo: the page comes from this computer");
  if (host != NULL)
    {
      switch (nearby_url_policy_classify_host (host))
        {
        case NEARBY_ADDRESS_LOOPBACK:
          return _("Served by this computer");
        case NEARBY_ADDRESS_LOCAL:
          return _("On the local network");
        case NEARBY_ADDRESS_PUBLIC:
        default:
          break;
        }
    }
  if (g_str_has_prefix (url, "http:"))
    return _("Not secure: the page is sent unencrypted");
  if (page == NULL || page->error != NULL)
    return _("Unverified: not looked up");

  return _("Secure connection");
}

static void
nearby_inspector_update_summary (NearbyInspector *self)
{
  NearbyObject *object = self->object;
  const char *description = nearby_object_get_description (object);
  const char *url = nearby_object_get_url (object);
  NearbyUrlDisplayFlags flags = NEARBY_URL_DISPLAY_NONE;
  gboolean made_up = FALSE;
  g_autofree char *site = nearby_object_row_dup_host (object, self->source, &made_up, &flags);
  gboolean openable = url != NULL && nearby_object_get_browsable (object);
  g_autofree char *path = NULL;

  /* Headed by its host, as its row: its path goes where a page's description would. */
  if (nearby_object_row_page_title (object) == NULL && site != NULL && *site != '\0' &&
      (description == NULL || *description == '\0'))
    description = path = nearby_url_display_path (url);

  gtk_label_set_label (self->description_label, description);
  gtk_widget_set_visible (GTK_WIDGET (self->description_label),
                          description != NULL && *description != '\0');
  adw_action_row_set_subtitle (self->site_row, site != NULL ? site : _("None"));
  adw_action_row_set_subtitle (self->security_row, security_for (object, site, made_up, flags));

  /* Objects without a web page have nothing to open or to keep. */
  gtk_widget_set_visible (self->open_button, openable);
  gtk_widget_set_visible (GTK_WIDGET (self->favourite_button), url != NULL);
  gtk_button_set_label (self->favourite_button,
                        nearby_object_get_favourite (object) ? _("_Remove From Favourites")
                                                             : _("_Add to Favourites"));
  nearby_a11y_name_button_by_its_label (self->favourite_button);
}

static void
nearby_inspector_update (NearbyInspector *self)
{
  NearbyObject *object = self->object;
  const char *url = nearby_object_get_url (object);
  g_autofree char *title = NULL;
  g_autofree char *host = host_of (url);
  g_autofree char *shown_host = NULL;
  g_autofree char *text = NULL;
  g_autoptr(GArray) samples = NULL;
  double distance = nearby_object_get_distance (object);
  double rssi = nearby_object_get_rssi (object);
  int tx_power = nearby_object_get_tx_power (object);

  /* Named as its row names it: by the title its page gave, else by its host (the demo's
   * made-up one too), with its path beneath (see nearby_inspector_update_summary()). */
  if (nearby_object_row_page_title (object) == NULL && url != NULL &&
      (shown_host = nearby_object_row_dup_host (object, self->source, NULL, NULL)) != NULL &&
      *shown_host != '\0')
    title = g_strdup (shown_host);
  else
    title = nearby_object_row_name (object, host, NULL);
  gtk_label_set_label (self->title_label, title);
  adw_window_title_set_subtitle (self->window_title, title);

  gtk_label_set_label (self->url_label, url != NULL ? url : _("No web address"));
  nearby_inspector_update_summary (self);

  if (self->expired)
    set_state (self, _("No longer heard"), "error");
  else if (nearby_object_get_stale (object))
    set_state (self, _("Not heard for a while"), "warning");
  else
    set_state (self, _("Heard now"), "success");

  if (distance >= 0)
    text = g_strdup_printf (_("%s, about %.1f m"),
                            nearby_object_row_bucket_label (nearby_object_get_bucket (object)),
                            distance);
  else
    text = g_strdup (nearby_object_row_bucket_label (NEARBY_BUCKET_UNKNOWN));
  gtk_label_set_label (self->distance_value, text);
  g_free (text);

  text = rssi != NEARBY_RSSI_UNKNOWN ? nearby_dbm_format (rssi) : g_strdup (_("Unknown"));
  gtk_label_set_label (self->rssi_value, text);
  g_free (text);

  text = tx_power != NEARBY_RSSI_UNKNOWN ? nearby_dbm_format (tx_power)
                                         : g_strdup (_("Not stated"));
  gtk_label_set_label (self->tx_power_value, text);
  g_free (text);

  text = format_time (nearby_object_get_first_seen (object));
  gtk_label_set_label (self->first_seen_value, text);
  g_free (text);
  text = format_time (nearby_object_get_last_seen (object));
  gtk_label_set_label (self->last_seen_value, text);

  gtk_label_set_label (self->host_value, host != NULL ? host : _("None"));
  gtk_label_set_label (self->key_value, nearby_object_get_key (object));

  samples = nearby_object_dup_samples (object);
  nearby_signal_graph_set_samples (self->graph, samples);

  nearby_inspector_update_page (self);
  nearby_inspector_update_devices (self);
}

static gboolean
update_idle (gpointer user_data)
{
  NearbyInspector *self = user_data;

  self->update_source = 0;
  nearby_inspector_update (self);
  return G_SOURCE_REMOVE;
}

/* An object notifies several properties per tick: one update for all of them. */
static void
on_object_notify (NearbyInspector *self)
{
  if (self->update_source == 0)
    self->update_source = g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, update_idle, self, NULL);
}

static void
nearby_inspector_set_object (NearbyInspector *self,
                             NearbyObject    *object)
{
  if (self->object == object)
    return;

  if (self->object != NULL)
    g_signal_handlers_disconnect_by_func (self->object, on_object_notify, self);
  g_set_object (&self->object, object);
  if (object != NULL)
    g_signal_connect_object (object, "notify", G_CALLBACK (on_object_notify), self,
                             G_CONNECT_SWAPPED);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_OBJECT]);
}

static void
set_expired (NearbyInspector *self,
             gboolean         expired)
{
  if (self->expired == expired)
    return;

  self->expired = expired;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_EXPIRED]);
  nearby_inspector_update (self);
}

static void
on_object_removed (NearbyInspector *self,
                   NearbyObject    *object)
{
  if (object == self->object)
    set_expired (self, TRUE);
}

/* The same beacon heard again after it expired comes back as a new object with the same key:
 * follow it. */
static void
on_object_added (NearbyInspector *self,
                 NearbyObject    *object)
{
  if (!self->expired || object == self->object
      || g_strcmp0 (nearby_object_get_key (object), nearby_object_get_key (self->object)) != 0)
    return;

  nearby_inspector_set_object (self, object);
  set_expired (self, FALSE);
}

void
nearby_inspector_set_page_log (NearbyInspector   *self,
                               const char *const *lines)
{
  g_return_if_fail (NEARBY_IS_INSPECTOR (self));

  for (guint i = 0; i < self->page_rows->len; i++)
    adw_preferences_group_remove (self->page_group, g_ptr_array_index (self->page_rows, i));
  g_ptr_array_set_size (self->page_rows, 0);

  if (lines == NULL || lines[0] == NULL)
    {
      GtkWidget *row = adw_action_row_new ();

      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row),
                                     self->object != NULL && !nearby_object_get_browsable (self->object)
                                     ? _("Not looked up: no web page to look up")
                                     : _("Not looked up yet"));
      gtk_widget_add_css_class (row, "dim-label");
      g_ptr_array_add (self->page_rows, row);
      adw_preferences_group_add (self->page_group, row);
      return;
    }

  for (guint i = 0; lines[i] != NULL; i++)
    {
      GtkWidget *row = adw_action_row_new ();

      /* Log lines come from what servers said: never markup. */
      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), lines[i]);
      adw_action_row_set_title_lines (ADW_ACTION_ROW (row), 0);
      g_ptr_array_add (self->page_rows, row);
      adw_preferences_group_add (self->page_group, row);
    }
}

static void
copy_json_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  NearbyInspector *self = NEARBY_INSPECTOR (widget);
  g_autofree char *json = nearby_object_to_json (self->object, TRUE);

  AdwToast *toast = adw_toast_new (_("Copied as JSON"));

  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), json);
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
  nearby_a11y_watch_toast (GTK_WIDGET (self->toast_overlay), toast);
}

static void
nearby_inspector_constructed (GObject *object)
{
  NearbyInspector *self = NEARBY_INSPECTOR (object);
  g_autoptr(GVariant) key = NULL;

  G_OBJECT_CLASS (nearby_inspector_parent_class)->constructed (object);

  g_return_if_fail (self->object != NULL);

  if (self->objects != NULL)
    {
      g_signal_connect_object (self->objects, "object-removed",
                               G_CALLBACK (on_object_removed), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (self->objects, "object-added",
                               G_CALLBACK (on_object_added), self, G_CONNECT_SWAPPED);
      if (nearby_object_list_get_object_by_key (self->objects,
                                                nearby_object_get_key (self->object)) != self->object)
        self->expired = TRUE;
    }

  /* The key before the action: GTK 4.8 leaves a button insensitive for good when it meets an
   * action that takes a parameter before it has the target. The key stays the same when the
   * inspector follows the object heard again. */
  key = g_variant_ref_sink (g_variant_new_string (nearby_object_get_key (self->object)));
  gtk_actionable_set_action_target_value (GTK_ACTIONABLE (self->open_button), key);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->open_button), "app.open-object");
  gtk_actionable_set_action_target_value (GTK_ACTIONABLE (self->favourite_button), key);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->favourite_button), "app.toggle-favourite");

  nearby_inspector_set_page_log (self, NULL);
  nearby_inspector_update (self);
}

static void
nearby_inspector_dispose (GObject *object)
{
  NearbyInspector *self = NEARBY_INSPECTOR (object);

  g_clear_handle_id (&self->update_source, g_source_remove);
  if (self->object != NULL)
    g_signal_handlers_disconnect_by_func (self->object, on_object_notify, self);

  G_OBJECT_CLASS (nearby_inspector_parent_class)->dispose (object);
}

static void
nearby_inspector_finalize (GObject *object)
{
  NearbyInspector *self = NEARBY_INSPECTOR (object);

  g_clear_object (&self->object);
  g_clear_object (&self->objects);
  g_clear_object (&self->source);
  g_clear_pointer (&self->devices, g_hash_table_unref);
  g_clear_pointer (&self->page_rows, g_ptr_array_unref);
  g_clear_pointer (&self->shown_page, nearby_page_unref);

  G_OBJECT_CLASS (nearby_inspector_parent_class)->finalize (object);
}

static void
nearby_inspector_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  NearbyInspector *self = NEARBY_INSPECTOR (object);

  switch (prop_id)
    {
    case PROP_OBJECT:
      g_value_set_object (value, self->object);
      break;

    case PROP_OBJECTS:
      g_value_set_object (value, self->objects);
      break;

    case PROP_SOURCE:
      g_value_set_object (value, self->source);
      break;

    case PROP_EXPIRED:
      g_value_set_boolean (value, self->expired);
      break;

    case PROP_DEVELOPER_MODE:
      g_value_set_boolean (value, self->developer_mode);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
nearby_inspector_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  NearbyInspector *self = NEARBY_INSPECTOR (object);

  switch (prop_id)
    {
    case PROP_OBJECT:
      nearby_inspector_set_object (self, g_value_get_object (value));
      break;

    case PROP_OBJECTS:
      g_set_object (&self->objects, g_value_get_object (value));
      break;

    case PROP_SOURCE:
      nearby_inspector_set_source (self, g_value_get_object (value));
      break;

    case PROP_DEVELOPER_MODE:
      nearby_inspector_set_developer_mode (self, g_value_get_boolean (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
nearby_inspector_class_init (NearbyInspectorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = nearby_inspector_constructed;
  object_class->dispose = nearby_inspector_dispose;
  object_class->finalize = nearby_inspector_finalize;
  object_class->get_property = nearby_inspector_get_property;
  object_class->set_property = nearby_inspector_set_property;

  properties[PROP_OBJECT] =
    g_param_spec_object ("object", NULL, NULL,
                         NEARBY_TYPE_OBJECT,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                          G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_OBJECTS] =
    g_param_spec_object ("objects", NULL, NULL,
                         NEARBY_TYPE_OBJECT_LIST,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                          G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_SOURCE] =
    g_param_spec_object ("source", NULL, NULL,
                         NEARBY_TYPE_SOURCE,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_EXPIRED] =
    g_param_spec_boolean ("expired", NULL, NULL,
                          FALSE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_DEVELOPER_MODE] =
    g_param_spec_boolean ("developer-mode", NULL, NULL,
                          FALSE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (NEARBY_TYPE_SIGNAL_GRAPH);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/nearbyweb/Nearby/nearby-inspector.ui");
  gtk_widget_class_bind_template_child (widget_class, NearbyInspector, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, NearbyInspector, window_title);
  gtk_widget_class_bind_template_child (widget_class, NearbyInspector, title_label);
  gtk_widget_class_bind_template_child (widget_class, NearbyInspector, description_label);
  gtk_widget_class_bind_template_child (widget_class, NearbyInspector, open_button);
  gtk_widget_class_bind_template_child (widget_class, NearbyInspector, favourite_button);
  gtk_widget_class_bind_template_child (widget_class, NearbyInspector, site_row);
  gtk_widget_class_bind_template_child (widget_class, NearbyInspector, security_row);
  gtk_widget_class_bind_template_child (widget_class, NearbyInspector, developer_expander);
  gtk_widget_class_bind_template_child (widget_class, NearbyInspector, url_label);
  gtk_widget_class_bind_template_child (widget_class, NearbyInspector, state_label);
  gtk_widget_class_bind_template_child (widget_class, NearbyInspector, graph);
  gtk_widget_class_bind_template_child (widget_class, NearbyInspector, distance_value);
  gtk_widget_class_bind_template_child (widget_class, NearbyInspector, rssi_value);
  gtk_widget_class_bind_template_child (widget_class, NearbyInspector, tx_power_value);
  gtk_widget_class_bind_template_child (widget_class, NearbyInspector, first_seen_value);
  gtk_widget_class_bind_template_child (widget_class, NearbyInspector, last_seen_value);
  gtk_widget_class_bind_template_child (widget_class, NearbyInspector, host_value);
  gtk_widget_class_bind_template_child (widget_class, NearbyInspector, key_value);
  gtk_widget_class_bind_template_child (widget_class, NearbyInspector, page_group);
  gtk_widget_class_bind_template_child (widget_class, NearbyInspector, devices_box);

  gtk_widget_class_install_action (widget_class, "inspector.copy-json", NULL, copy_json_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
nearby_inspector_init (NearbyInspector *self)
{
  self->devices = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                         (GDestroyNotify) device_view_free);
  self->page_rows = g_ptr_array_new ();

  gtk_widget_init_template (GTK_WIDGET (self));
  nearby_a11y_name_buttons_by_their_labels (GTK_WIDGET (self));
}
