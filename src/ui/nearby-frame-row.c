/* nearby-frame-row.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-frame-row"

#include "config.h"

#include <glib/gi18n.h>

#include "nearby-dbm.h"
#include "nearby-frame-error.h"
#include "nearby-frame-row.h"

/* Where the values of a frame's fields line up, in pixels from the start of the row. */
#define FIELD_VALUE_TAB 168

struct _NearbyFrameRow
{
  AdwPreferencesRow  parent_instance;

  GtkLabel          *kind_label;
  GtkLabel          *fields_label;
  GtkLabel          *raw_label;
};

G_DEFINE_FINAL_TYPE (NearbyFrameRow, nearby_frame_row, ADW_TYPE_PREFERENCES_ROW)

GtkWidget *
nearby_frame_row_new (void)
{
  return g_object_new (NEARBY_TYPE_FRAME_ROW, NULL);
}

/* "10 ec 03 62": bytes as btmon shows them, easy to compare with a capture. */
static char *
format_bytes (const guint8 *data,
              gsize         len)
{
  GString *text = g_string_sized_new (len * 3);

  for (gsize i = 0; i < len; i++)
    g_string_append_printf (text, i == 0 ? "%02x" : " %02x", data[i]);

  return g_string_free (text, FALSE);
}

static char *
format_uptime (guint32 tenths)
{
  guint64 seconds = tenths / 10;
  guint days = (guint) (seconds / 86400);
  guint hours = (guint) (seconds / 3600 % 24);
  guint minutes = (guint) (seconds / 60 % 60);

  if (days > 0)
    /* Translators: an uptime: days, hours, minutes */
    return g_strdup_printf (_("%u d %u h %u min"), days, hours, minutes);
  if (hours > 0)
    return g_strdup_printf (_("%u h %u min"), hours, minutes);
  return g_strdup_printf (_("%u min %u s"), minutes, (guint) (seconds % 60));
}

static const char *
frame_kind_title (const NearbyFrame *frame)
{
  switch (frame->kind)
    {
    case NEARBY_FRAME_KIND_URL:
      return frame->protocol == NEARBY_PROTOCOL_URIBEACON ? _("UriBeacon") : _("Eddystone-URL");
    case NEARBY_FRAME_KIND_UID:
      return _("Eddystone-UID");
    case NEARBY_FRAME_KIND_TLM:
      return _("Eddystone-TLM");
    case NEARBY_FRAME_KIND_ETLM:
      return _("Eddystone-TLM, encrypted");
    case NEARBY_FRAME_KIND_EID:
      return _("Eddystone-EID");
    case NEARBY_FRAME_KIND_IBEACON:
      return _("iBeacon");
    case NEARBY_FRAME_KIND_NONE:
    default:
      return _("Unknown frame");
    }
}

static void
add_field (GString    *markup,
           const char *name,
           const char *value)
{
  g_autofree char *line = g_markup_printf_escaped ("<span alpha=\"65%%\">%s</span>\t%s",
                                                   name, value);

  if (markup->len > 0)
    g_string_append_c (markup, '\n');
  g_string_append (markup, line);
}

/* Takes @value, formatted only to be shown here, and frees it. */
static void
add_field_take (GString    *markup,
                const char *name,
                char       *value)
{
  add_field (markup, name, value);
  g_free (value);
}

static void
add_tx_power_field (GString           *markup,
                    const NearbyFrame *frame)
{
  g_autofree char *dbm = frame->tx_power_known ? nearby_dbm_format (frame->tx_power) : NULL;

  if (frame->kind == NEARBY_FRAME_KIND_TLM || frame->kind == NEARBY_FRAME_KIND_ETLM)
    return;
  add_field (markup,
             frame->kind == NEARBY_FRAME_KIND_IBEACON ? _("Power at 1 m") : _("Power at 0 m"),
             dbm != NULL ? dbm : _("Not stated"));
}

static char *
frame_fields_markup (const NearbyFrame *frame)
{
  GString *markup = g_string_new (NULL);

  if (frame->error != NEARBY_FRAME_OK)
    {
      add_field_take (markup, _("Rejected"), nearby_frame_describe_error (frame));
      return g_string_free (markup, FALSE);
    }

  switch (frame->kind)
    {
    case NEARBY_FRAME_KIND_URL:
      add_field (markup, _("URL"), frame->url);
      if (frame->protocol == NEARBY_PROTOCOL_URIBEACON)
        add_field_take (markup, _("Flags"), g_strdup_printf ("0x%02x", frame->flags));
      add_field (markup, _("Invisible"), frame->invisible ? _("Yes, hidden unless asked") : _("No"));
      break;

    case NEARBY_FRAME_KIND_UID:
      add_field_take (markup, _("Namespace"),
                      format_bytes (frame->namespace_id, sizeof frame->namespace_id));
      add_field_take (markup, _("Instance"),
                      format_bytes (frame->instance_id, sizeof frame->instance_id));
      break;

    case NEARBY_FRAME_KIND_TLM:
      add_field_take (markup, _("Battery"),
                      frame->battery_mv > 0 ? g_strdup_printf (_("%u mV"), frame->battery_mv)
                                            : g_strdup (_("Not reported")));
      add_field_take (markup, _("Temperature"),
                      frame->temperature_known
                      ? g_strdup_printf (_("%.1f °C"), frame->temperature_c)
                      : g_strdup (_("Not reported")));
      add_field_take (markup, _("Adverts sent"), g_strdup_printf ("%u", frame->adv_count));
      add_field_take (markup, _("Uptime"), format_uptime (frame->uptime_ds));
      break;

    case NEARBY_FRAME_KIND_ETLM:
      add_field_take (markup, _("Encrypted"), format_bytes (frame->etlm, sizeof frame->etlm));
      add_field_take (markup, _("Salt"), g_strdup_printf ("0x%04x", frame->etlm_salt));
      add_field_take (markup, _("Check code"), g_strdup_printf ("0x%04x", frame->etlm_mic));
      break;

    case NEARBY_FRAME_KIND_EID:
      add_field_take (markup, _("Ephemeral ID"), format_bytes (frame->eid, sizeof frame->eid));
      break;

    case NEARBY_FRAME_KIND_IBEACON:
      add_field_take (markup, _("UUID"),
                      format_bytes (frame->ibeacon_uuid, sizeof frame->ibeacon_uuid));
      add_field_take (markup, _("Major"), g_strdup_printf ("%u", frame->ibeacon_major));
      add_field_take (markup, _("Minor"), g_strdup_printf ("%u", frame->ibeacon_minor));
      break;

    case NEARBY_FRAME_KIND_NONE:
    default:
      break;
    }

  add_tx_power_field (markup, frame);

  return g_string_free (markup, FALSE);
}

void
nearby_frame_row_set_frame (NearbyFrameRow           *self,
                            const NearbyObjectDevice *device,
                            const NearbyFrame        *frame)
{
  g_autofree char *markup = NULL;
  g_autofree char *raw_text = NULL;
  g_autofree char *bytes = NULL;
  const guint8 *raw;
  gsize raw_len = 0;

  g_return_if_fail (NEARBY_IS_FRAME_ROW (self));
  g_return_if_fail (device != NULL);
  g_return_if_fail (frame != NULL);

  raw = nearby_object_device_get_raw (device, frame->kind, &raw_len);
  if (raw != NULL)
    {
      bytes = format_bytes (raw, raw_len);
      /* Translators: the bytes a frame was decoded from, and the service or company they came under */
      raw_text = frame->service_uuid != 0
                 ? g_strdup_printf (_("Service data 0x%04X: %s"), frame->service_uuid, bytes)
                 : g_strdup_printf (_("Manufacturer data: %s"), bytes);
    }
  else
    raw_text = g_strdup (_("Raw bytes not available from this source"));

  if (raw != NULL)
    gtk_widget_add_css_class (GTK_WIDGET (self->raw_label), "monospace");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->raw_label), "monospace");

  markup = frame_fields_markup (frame);
  gtk_label_set_label (self->kind_label, frame_kind_title (frame));
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self), frame_kind_title (frame));
  gtk_label_set_label (self->fields_label, markup);
  gtk_widget_set_visible (GTK_WIDGET (self->fields_label), *markup != '\0');
  gtk_label_set_label (self->raw_label, raw_text);
}

static void
nearby_frame_row_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), NEARBY_TYPE_FRAME_ROW);

  G_OBJECT_CLASS (nearby_frame_row_parent_class)->dispose (object);
}

static void
nearby_frame_row_class_init (NearbyFrameRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = nearby_frame_row_dispose;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/nearbyweb/Nearby/nearby-frame-row.ui");
  gtk_widget_class_bind_template_child (widget_class, NearbyFrameRow, kind_label);
  gtk_widget_class_bind_template_child (widget_class, NearbyFrameRow, fields_label);
  gtk_widget_class_bind_template_child (widget_class, NearbyFrameRow, raw_label);
}

static void
nearby_frame_row_init (NearbyFrameRow *self)
{
  PangoTabArray *tabs = pango_tab_array_new_with_positions (1, TRUE, PANGO_TAB_LEFT,
                                                            FIELD_VALUE_TAB);

  gtk_widget_init_template (GTK_WIDGET (self));

  gtk_label_set_tabs (self->fields_label, tabs);
  pango_tab_array_free (tabs);
}
