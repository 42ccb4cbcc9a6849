/* nearby-source.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-source"

#include "config.h"

#include <string.h>

#include "nearby-source.h"

G_DEFINE_BOXED_TYPE (NearbySighting, nearby_sighting, nearby_sighting_copy, nearby_sighting_free)

NearbySighting *
nearby_sighting_new (const char        *address,
                     gint64             time_us,
                     int                rssi,
                     const NearbyFrame *frame,
                     const guint8      *raw,
                     gsize              raw_len)
{
  NearbySighting *sighting = g_new0 (NearbySighting, 1);

  sighting->address = g_strdup (address);
  sighting->time_us = time_us;
  sighting->rssi = rssi;
  if (frame != NULL)
    sighting->frame = *frame;
  sighting->raw_len = MIN (raw_len, sizeof sighting->raw);
  if (raw != NULL && sighting->raw_len > 0)
    memcpy (sighting->raw, raw, sighting->raw_len);

  return sighting;
}

NearbySighting *
nearby_sighting_copy (const NearbySighting *sighting)
{
  NearbySighting *copy;

  g_return_val_if_fail (sighting != NULL, NULL);

  copy = nearby_sighting_new (sighting->address, sighting->time_us, sighting->rssi,
                              &sighting->frame, sighting->raw, sighting->raw_len);
  copy->config_offer = sighting->config_offer;
  return copy;
}

void
nearby_sighting_free (NearbySighting *sighting)
{
  if (sighting == NULL)
    return;

  g_free (sighting->address);
  g_free (sighting);
}

GType
nearby_source_state_get_type (void)
{
  static gsize type_id;

  if (g_once_init_enter (&type_id))
    {
      static const GEnumValue values[] = {
        { NEARBY_SOURCE_STATE_STARTING, "NEARBY_SOURCE_STATE_STARTING", "starting" },
        { NEARBY_SOURCE_STATE_NO_SERVICE, "NEARBY_SOURCE_STATE_NO_SERVICE", "no-service" },
        { NEARBY_SOURCE_STATE_NO_ADAPTER, "NEARBY_SOURCE_STATE_NO_ADAPTER", "no-adapter" },
        { NEARBY_SOURCE_STATE_OFF, "NEARBY_SOURCE_STATE_OFF", "off" },
        { NEARBY_SOURCE_STATE_RFKILL_BLOCKED, "NEARBY_SOURCE_STATE_RFKILL_BLOCKED",
          "rfkill-blocked" },
        { NEARBY_SOURCE_STATE_SCANNING, "NEARBY_SOURCE_STATE_SCANNING", "scanning" },
        { NEARBY_SOURCE_STATE_FINISHED, "NEARBY_SOURCE_STATE_FINISHED", "finished" },
        { NEARBY_SOURCE_STATE_ERROR, "NEARBY_SOURCE_STATE_ERROR", "error" },
        { 0, NULL, NULL }
      };
      GType type = g_enum_register_static (g_intern_static_string ("NearbySourceState"), values);

      g_once_init_leave (&type_id, type);
    }

  return type_id;
}

const char *
nearby_source_state_to_string (NearbySourceState state)
{
  /* Kept for the process: the names are asked for before any source has made the class. */
  static GEnumClass *klass;
  GEnumValue *value;

  if (g_once_init_enter (&klass))
    g_once_init_leave (&klass, g_type_class_ref (NEARBY_TYPE_SOURCE_STATE));

  value = g_enum_get_value (klass, state);
  return value != NULL ? value->value_nick : "unknown";
}

enum {
  SIGHTING,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_INTERFACE (NearbySource, nearby_source, G_TYPE_OBJECT)

static void
nearby_source_default_init (NearbySourceInterface *iface)
{
  g_object_interface_install_property (iface,
    g_param_spec_enum ("state", NULL, NULL,
                       NEARBY_TYPE_SOURCE_STATE,
                       NEARBY_SOURCE_STATE_STARTING,
                       (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS)));

  g_object_interface_install_property (iface,
    g_param_spec_string ("state-message", NULL, NULL,
                         NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS)));

  /* The sighting is only valid during emission: handlers copy what they keep. */
  signals[SIGHTING] =
    g_signal_new ("sighting",
                  G_TYPE_FROM_INTERFACE (iface),
                  G_SIGNAL_RUN_LAST,
                  G_STRUCT_OFFSET (NearbySourceInterface, sighting),
                  NULL, NULL,
                  NULL,
                  G_TYPE_NONE, 1,
                  NEARBY_TYPE_SIGHTING | G_SIGNAL_TYPE_STATIC_SCOPE);
}

NearbySourceState
nearby_source_get_state (NearbySource *self)
{
  NearbySourceState state = NEARBY_SOURCE_STATE_STARTING;

  g_return_val_if_fail (NEARBY_IS_SOURCE (self), NEARBY_SOURCE_STATE_ERROR);

  g_object_get (self, "state", &state, NULL);

  return state;
}

char *
nearby_source_dup_state_message (NearbySource *self)
{
  char *message = NULL;

  g_return_val_if_fail (NEARBY_IS_SOURCE (self), NULL);

  g_object_get (self, "state-message", &message, NULL);

  return message;
}

void
nearby_source_emit_sighting (NearbySource         *self,
                             const NearbySighting *sighting)
{
  g_return_if_fail (NEARBY_IS_SOURCE (self));
  g_return_if_fail (sighting != NULL);

  g_signal_emit (self, signals[SIGHTING], 0, sighting);
}

char *
nearby_source_dup_display_host (NearbySource *self,
                                const char   *url)
{
  NearbySourceInterface *iface;

  g_return_val_if_fail (NEARBY_IS_SOURCE (self), NULL);

  iface = NEARBY_SOURCE_GET_IFACE (self);
  if (iface->dup_display_host == NULL || url == NULL)
    return NULL;

  return iface->dup_display_host (self, url);
}

void
nearby_source_update_state (NearbySource       *self,
                            NearbySourceState  *state,
                            char              **message,
                            NearbySourceState   new_state,
                            const char         *new_message)
{
  gboolean state_changed;
  gboolean message_changed;

  g_return_if_fail (NEARBY_IS_SOURCE (self));
  g_return_if_fail (state != NULL);
  g_return_if_fail (message != NULL);

  state_changed = *state != new_state;
  message_changed = g_strcmp0 (*message, new_message) != 0;

  *state = new_state;
  if (message_changed)
    {
      g_free (*message);
      *message = g_strdup (new_message);
    }

  if (state_changed)
    g_object_notify (G_OBJECT (self), "state");
  if (message_changed)
    g_object_notify (G_OBJECT (self), "state-message");
}
