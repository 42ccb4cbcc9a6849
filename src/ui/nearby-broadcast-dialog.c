/* nearby-broadcast-dialog.c
 *
 * The URL is encoded as the person types, so that what goes on air, or why it cannot, is said
 * before Broadcast is pressed.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-broadcast-dialog"

#include "config.h"

#include <glib/gi18n.h>

#include "nearby-a11y.h"
#include "nearby-advertiser.h"
#include "nearby-broadcast-dialog.h"

struct _NearbyBroadcastDialog
{
  AdwMessageDialog  parent_instance;

  GtkEntry         *entry;
  GtkLabel         *feedback;
};

G_DEFINE_FINAL_TYPE (NearbyBroadcastDialog, nearby_broadcast_dialog, ADW_TYPE_MESSAGE_DIALOG)

enum {
  PROP_0,
  PROP_URL,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

NearbyBroadcastDialog *
nearby_broadcast_dialog_new (GtkWindow *parent)
{
  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);

  return g_object_new (NEARBY_TYPE_BROADCAST_DIALOG,
                       "transient-for", parent,
                       NULL);
}

const char *
nearby_broadcast_dialog_get_url (NearbyBroadcastDialog *self)
{
  g_return_val_if_fail (NEARBY_IS_BROADCAST_DIALOG (self), NULL);

  return gtk_editable_get_text (GTK_EDITABLE (self->entry));
}

static void
on_url_changed (NearbyBroadcastDialog *self)
{
  const char *url = nearby_broadcast_dialog_get_url (self);
  g_autoptr(NearbyAdvertiser) advertiser = NULL;
  g_autoptr(GBytes) data = NULL;
  g_autoptr(GError) error = NULL;

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_URL]);

  if (*url == '\0')
    {
      gtk_label_set_label (self->feedback, "");
      adw_message_dialog_set_response_enabled (ADW_MESSAGE_DIALOG (self), "broadcast", FALSE);
      return;
    }

  advertiser = nearby_advertiser_new (url, NEARBY_PROTOCOL_EDDYSTONE,
                                      NEARBY_ADVERTISER_DEFAULT_TX_POWER, NULL);
  data = nearby_advertiser_dup_service_data (advertiser, &error);
  if (data != NULL)
    {
      gsize size = g_bytes_get_size (data);
      g_autofree char *text = NULL;

      text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                           "Fits in an Eddystone-URL frame: "
                                           "%zu byte of service data",
                                           "Fits in an Eddystone-URL frame: "
                                           "%zu bytes of service data",
                                           size),
                              size);

      gtk_label_set_label (self->feedback, text);
    }
  else
    {
      gtk_label_set_label (self->feedback, error->message);
    }
  adw_message_dialog_set_response_enabled (ADW_MESSAGE_DIALOG (self), "broadcast", data != NULL);
}

static void
nearby_broadcast_dialog_get_property (GObject    *object,
                                      guint       prop_id,
                                      GValue     *value,
                                      GParamSpec *pspec)
{
  NearbyBroadcastDialog *self = NEARBY_BROADCAST_DIALOG (object);

  switch (prop_id)
    {
    case PROP_URL:
      g_value_set_string (value, nearby_broadcast_dialog_get_url (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
nearby_broadcast_dialog_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), NEARBY_TYPE_BROADCAST_DIALOG);

  G_OBJECT_CLASS (nearby_broadcast_dialog_parent_class)->dispose (object);
}

static void
nearby_broadcast_dialog_class_init (NearbyBroadcastDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = nearby_broadcast_dialog_dispose;
  object_class->get_property = nearby_broadcast_dialog_get_property;

  properties[PROP_URL] =
    g_param_spec_string ("url", NULL, NULL,
                         "",
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/nearbyweb/Nearby/"
                                                             "nearby-broadcast-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, NearbyBroadcastDialog, entry);
  gtk_widget_class_bind_template_child (widget_class, NearbyBroadcastDialog, feedback);
  gtk_widget_class_bind_template_callback (widget_class, on_url_changed);
}

static void
nearby_broadcast_dialog_init (NearbyBroadcastDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  nearby_a11y_name_buttons_by_their_labels (GTK_WIDGET (self));
}
