/* nearby-configure-dialog.c
 *
 * The beacon is read when the dialog is shown; what it holds fills the fields, and the URL is
 * encoded as the person types, so that the frame and its size are seen before Write. Only the
 * fields that differ from what was read are written, and what the beacon gives back afterwards
 * is what the dialog says changed.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-configure-dialog"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "nearby-a11y.h"
#include "nearby-configurator.h"
#include "nearby-configure-dialog.h"
#include "nearby-hex.h"

struct _NearbyConfigureDialog
{
  AdwWindow           parent_instance;

  GtkLabel           *status;
  GtkLabel           *current;
  AdwEntryRow        *url_row;
  GtkSpinButton      *tx_spin;
  GtkSpinButton      *interval_spin;
  AdwPasswordEntryRow *key_row;
  GtkLabel           *encoded;
  GtkButton          *read_button;
  GtkButton          *write_button;

  char               *address;
  NearbyConfigurator *configurator;
  GCancellable       *cancellable;
  NearbyBeaconConfig  config;
  gboolean            have_config;
  gboolean            running;
};

G_DEFINE_FINAL_TYPE (NearbyConfigureDialog, nearby_configure_dialog, ADW_TYPE_WINDOW)

NearbyConfigureDialog *
nearby_configure_dialog_new (GtkWindow  *parent,
                             const char *address)
{
  NearbyConfigureDialog *self;

  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (address != NULL, NULL);

  self = g_object_new (NEARBY_TYPE_CONFIGURE_DIALOG, "transient-for", parent, NULL);
  self->address = g_strdup (address);
  self->configurator = nearby_configurator_new (address, NULL);

  return self;
}

const char *
nearby_configure_dialog_get_address (NearbyConfigureDialog *self)
{
  g_return_val_if_fail (NEARBY_IS_CONFIGURE_DIALOG (self), NULL);

  return self->address;
}

static void
set_status (NearbyConfigureDialog *self,
            const char            *text,
            gboolean               error)
{
  gtk_label_set_label (self->status, text);
  if (error)
    gtk_widget_add_css_class (GTK_WIDGET (self->status), "error");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->status), "error");
}

static void
set_running (NearbyConfigureDialog *self,
             gboolean               running)
{
  self->running = running;
  gtk_widget_set_sensitive (GTK_WIDGET (self->read_button), !running);
  gtk_widget_set_sensitive (GTK_WIDGET (self->write_button), !running && self->have_config);
}

static char *
describe_config (const NearbyBeaconConfig *config)
{
  GString *text = g_string_new (NULL);
  const char *lock = config->locked ? _("Locked") : _("Unlocked");

  g_string_append_printf (text, _("%s configuration service"),
                          config->service == NEARBY_CONFIG_SERVICE_EDDYSTONE ? "Eddystone"
                                                                             : "UriBeacon");
  g_string_append_printf (text, "\n%s", lock);
  if (!config->readable)
    return g_string_free (text, FALSE);

  if (config->frame.kind == NEARBY_FRAME_KIND_URL)
    g_string_append_printf (text, "\n%s", config->frame.url);
  else if (config->frame.kind == NEARBY_FRAME_KIND_NONE)
    g_string_append_printf (text, "\n%s", _("Broadcasts nothing from this slot"));
  else
    g_string_append_printf (text, "\n%s", nearby_frame_kind_to_string (config->frame.kind));
  g_string_append_printf (text, "\n");
  g_string_append_printf (text, _("Radio power %d dBm, every %u ms"), config->tx_power,
                          config->interval_ms);

  return g_string_free (text, FALSE);
}

static void
show_config (NearbyConfigureDialog    *self,
             const NearbyBeaconConfig *config)
{
  g_autofree char *text = describe_config (config);

  self->config = *config;
  self->have_config = TRUE;
  gtk_label_set_label (self->current, text);
  if (!config->readable)
    return;

  gtk_editable_set_text (GTK_EDITABLE (self->url_row),
                         config->frame.kind == NEARBY_FRAME_KIND_URL ? config->frame.url : "");
  gtk_spin_button_set_value (self->tx_spin, config->tx_power);
  gtk_spin_button_set_value (self->interval_spin, config->interval_ms);
}

/* "URL https://a → https://b" and the like, for what differs between @before and @after. */
static char *
describe_changes (const NearbyBeaconConfig *before,
                  const NearbyBeaconConfig *after)
{
  g_autoptr(GPtrArray) changes = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *joined = NULL;

  if (before->frame.kind != after->frame.kind || strcmp (before->frame.url, after->frame.url) != 0)
    g_ptr_array_add (changes, g_strdup_printf (_("URL %s → %s"),
                                               before->frame.kind == NEARBY_FRAME_KIND_URL
                                               ? before->frame.url : "—",
                                               after->frame.kind == NEARBY_FRAME_KIND_URL
                                               ? after->frame.url : "—"));
  if (before->tx_power != after->tx_power)
    g_ptr_array_add (changes, g_strdup_printf (_("radio power %d → %d dBm"), before->tx_power,
                                               after->tx_power));
  if (before->interval_ms != after->interval_ms)
    g_ptr_array_add (changes, g_strdup_printf (_("interval %u → %u ms"), before->interval_ms,
                                               after->interval_ms));
  if (changes->len == 0)
    return g_strdup (_("Written; the beacon reads back the same configuration as before."));

  g_ptr_array_add (changes, NULL);
  joined = g_strjoinv ("; ", (char **) changes->pdata);
  return g_strdup_printf (_("Written and read back: %s."), joined);
}

static void
run_cb (GObject      *source,
        GAsyncResult *result,
        gpointer      user_data)
{
  g_autoptr(NearbyConfigureDialog) self = user_data;
  g_autoptr(NearbyConfigureResult) configured = NULL;
  g_autoptr(GError) error = NULL;

  configured = nearby_configurator_run_finish (NEARBY_CONFIGURATOR (source), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  set_running (self, FALSE);
  if (configured == NULL)
    {
      set_status (self, error->message, TRUE);
      return;
    }

  if (configured->after != NULL)
    {
      g_autofree char *changes = describe_changes (configured->before, configured->after);

      show_config (self, configured->after);
      set_status (self, changes, FALSE);
    }
  else
    {
      show_config (self, configured->before);
      set_status (self, configured->before->readable
                        ? _("Read from the beacon. Nothing is written until you press Write.")
                        : _("The beacon is locked: enter its lock key, then press Read Again."),
                  FALSE);
    }
  set_running (self, FALSE);
}

static gboolean
read_key (NearbyConfigureDialog *self,
          NearbyBeaconChanges   *changes)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->key_row));
  g_autoptr(GBytes) key = NULL;

  if (*text == '\0')
    return TRUE;
  key = nearby_hex_parse (text, NULL);
  if (key == NULL || g_bytes_get_size (key) != NEARBY_CONFIG_KEY_LEN)
    {
      set_status (self, _("The lock key is 16 bytes: 32 hex digits."), TRUE);
      return FALSE;
    }
  changes->has_key = TRUE;
  memcpy (changes->key, g_bytes_get_data (key, NULL), NEARBY_CONFIG_KEY_LEN);
  return TRUE;
}

static void
start (NearbyConfigureDialog     *self,
       const NearbyBeaconChanges *changes,
       const char                *doing)
{
  set_status (self, doing, FALSE);
  set_running (self, TRUE);
  nearby_configurator_run_async (self->configurator, changes, self->cancellable, run_cb,
                                 g_object_ref (self));
}

static void
on_read_clicked (NearbyConfigureDialog *self)
{
  NearbyBeaconChanges changes = NEARBY_BEACON_CHANGES_INIT;

  if (!read_key (self, &changes))
    return;
  start (self, &changes, _("Connecting to the beacon and reading it…"));
}

static void
on_write_clicked (NearbyConfigureDialog *self)
{
  NearbyBeaconChanges changes = NEARBY_BEACON_CHANGES_INIT;
  const char *url = gtk_editable_get_text (GTK_EDITABLE (self->url_row));
  int tx_power = gtk_spin_button_get_value_as_int (self->tx_spin);
  guint interval = (guint) gtk_spin_button_get_value_as_int (self->interval_spin);
  g_autoptr(GError) error = NULL;

  if (!read_key (self, &changes))
    return;

  if (*url != '\0' && (self->config.frame.kind != NEARBY_FRAME_KIND_URL
                       || strcmp (url, self->config.frame.url) != 0))
    changes.url = url;
  if (self->config.readable && tx_power != self->config.tx_power)
    {
      changes.set_tx_power = TRUE;
      changes.tx_power = tx_power;
    }
  if (self->config.readable && interval != self->config.interval_ms)
    {
      changes.set_interval = TRUE;
      changes.interval_ms = interval;
    }
  if (!nearby_beacon_changes_write (&changes))
    {
      set_status (self, _("Nothing to write: change the URL, the power or the interval first."),
                  TRUE);
      return;
    }
  if (!nearby_beacon_changes_check (&changes, &error))
    {
      set_status (self, error->message, TRUE);
      return;
    }

  start (self, &changes, _("Writing to the beacon…"));
}

static void
on_url_changed (NearbyConfigureDialog *self)
{
  const char *url = gtk_editable_get_text (GTK_EDITABLE (self->url_row));
  NearbyProtocol protocol = self->have_config && self->config.service == NEARBY_CONFIG_SERVICE_URIBEACON
                            ? NEARBY_PROTOCOL_URIBEACON : NEARBY_PROTOCOL_EDDYSTONE;
  guint8 frame[NEARBY_FRAME_URL_SERVICE_DATA_MAX];
  size_t len = 0;
  NearbyFrame status = { 0 };
  char message[NEARBY_FRAME_MESSAGE_MAX];
  g_autofree char *text = NULL;
  int tx_power;

  if (*url == '\0')
    {
      gtk_label_set_label (self->encoded, "");
      return;
    }

  /* The power in the frame is the one the beacon advertises, not its radio's. */
  tx_power = protocol == NEARBY_PROTOCOL_EDDYSTONE ? self->config.advertised_tx_power
                                                   : self->config.tx_power;
  if (nearby_frame_encode_url (protocol, url, self->config.flags, (gint8) tx_power,
                               frame, &len, &status) != NEARBY_FRAME_OK)
    {
      gtk_label_set_label (self->encoded,
                           nearby_frame_format_error (&status, message, sizeof message));
      gtk_widget_add_css_class (GTK_WIDGET (self->encoded), "error");
      return;
    }

  {
    g_autofree char *hex = nearby_hex_format (frame, len);

    text = g_strdup_printf (_("Frame: %s (%zu of %d bytes)"), hex, len,
                            NEARBY_FRAME_URL_SERVICE_DATA_MAX);
  }
  gtk_widget_remove_css_class (GTK_WIDGET (self->encoded), "error");
  gtk_label_set_label (self->encoded, text);
}

static void
nearby_configure_dialog_map (GtkWidget *widget)
{
  NearbyConfigureDialog *self = NEARBY_CONFIGURE_DIALOG (widget);

  GTK_WIDGET_CLASS (nearby_configure_dialog_parent_class)->map (widget);

  if (!self->have_config && !self->running)
    on_read_clicked (self);
}

static void
nearby_configure_dialog_dispose (GObject *object)
{
  NearbyConfigureDialog *self = NEARBY_CONFIGURE_DIALOG (object);

  g_cancellable_cancel (self->cancellable);
  gtk_widget_dispose_template (GTK_WIDGET (self), NEARBY_TYPE_CONFIGURE_DIALOG);

  G_OBJECT_CLASS (nearby_configure_dialog_parent_class)->dispose (object);
}

static void
nearby_configure_dialog_finalize (GObject *object)
{
  NearbyConfigureDialog *self = NEARBY_CONFIGURE_DIALOG (object);

  g_clear_object (&self->cancellable);
  g_clear_object (&self->configurator);
  g_free (self->address);

  G_OBJECT_CLASS (nearby_configure_dialog_parent_class)->finalize (object);
}

static void
nearby_configure_dialog_class_init (NearbyConfigureDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = nearby_configure_dialog_dispose;
  object_class->finalize = nearby_configure_dialog_finalize;
  widget_class->map = nearby_configure_dialog_map;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/nearbyweb/Nearby/nearby-configure-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, NearbyConfigureDialog, status);
  gtk_widget_class_bind_template_child (widget_class, NearbyConfigureDialog, current);
  gtk_widget_class_bind_template_child (widget_class, NearbyConfigureDialog, url_row);
  gtk_widget_class_bind_template_child (widget_class, NearbyConfigureDialog, tx_spin);
  gtk_widget_class_bind_template_child (widget_class, NearbyConfigureDialog, interval_spin);
  gtk_widget_class_bind_template_child (widget_class, NearbyConfigureDialog, key_row);
  gtk_widget_class_bind_template_child (widget_class, NearbyConfigureDialog, encoded);
  gtk_widget_class_bind_template_child (widget_class, NearbyConfigureDialog, read_button);
  gtk_widget_class_bind_template_child (widget_class, NearbyConfigureDialog, write_button);
  gtk_widget_class_bind_template_callback (widget_class, on_url_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_read_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_write_clicked);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
nearby_configure_dialog_init (NearbyConfigureDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  nearby_a11y_name_buttons_by_their_labels (GTK_WIDGET (self));
  self->cancellable = g_cancellable_new ();
}
