/* nearby-object-list.c: the objects around, as a GListModel: settings, sources, merging
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-object-list"

#include "config.h"

#include <string.h>

#include "nearby-object-list-private.h"

/* Sightings arrive by the thousand per second in a crowded place (300 devices at 10 adverts a
 * second). They only update per-device state; what the list shows changes once per tick, and its
 * order at most once per rank interval, so a person can read it.
 *
 * Timeouts: beacons advertise several times a second, but the controller's duplicate filter and
 * bluetoothd's discovery cycle leave gaps of several seconds even for a beacon in plain sight.
 * An object is "stale" (dimmed) after 10 s without a sighting: longer than those gaps, short
 * enough that walking out of a room shows within a few breaths. It is removed after 30 s, the
 * same time BlueZ keeps a silent device (TemporaryTimeout), which leaves time to finish reading a
 * row or reach for it before it goes. */

static void list_model_iface_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (NearbyObjectList, nearby_object_list, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_iface_init))

enum {
  OBJECT_ADDED,
  OBJECT_REMOVED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

gint64
_nearby_object_list_now (NearbyObjectList *self)
{
  return self->clock != NULL ? self->clock (self->clock_data) : g_get_real_time ();
}

/* How strongly a key identifies its object; see nearby_object_key_for_frame(). */
static int
key_strength (const char *key)
{
  if (g_str_has_prefix (key, "address:"))
    return 0;
  if (g_str_has_prefix (key, "ibeacon:"))
    return 1;
  if (g_str_has_prefix (key, "eddystone-uid:"))
    return 2;
  return 3;
}

static void
hold_object (NearbyObjectList *self,
             NearbyObject     *object)
{
  g_object_freeze_notify (G_OBJECT (object));
  g_ptr_array_add (self->held_objects, g_object_ref (object));
}

/* What the person chose (a favourite) or did (a visit) moves an object even when no beacon
 * moves: a still list is ranked again for it. */
static void
on_object_choice_changed (NearbyObjectList *self)
{
  self->rank_wanted = TRUE;
  _nearby_object_list_ensure_ticking (self);
}

static NearbyObject *
ensure_object (NearbyObjectList *self,
               const char       *key)
{
  NearbyObject *object = g_hash_table_lookup (self->objects_by_key, key);

  if (object != NULL)
    return object;

  object = nearby_object_new (key);
  _nearby_object_set_calm_ranking (object, self->calm_ranking);
  g_hash_table_insert (self->objects_by_key, (char *) nearby_object_get_key (object), object);
  g_ptr_array_add (self->objects, object);
  g_ptr_array_add (self->added, object);
  /* Not g_signal_connect_object(): watching the list from each of thousands of objects costs
   * 70 bytes a handler, and the list lets go of its handlers itself, in
   * _nearby_object_list_forget_object() and when it is disposed. */
  g_signal_connect_swapped (object, "notify::favourite",
                            G_CALLBACK (on_object_choice_changed), self);
  g_signal_connect_swapped (object, "notify::history-score",
                            G_CALLBACK (on_object_choice_changed), self);
  if (self->held)
    hold_object (self, object);
  _nearby_object_list_schedule_prompt_tick (self);
  return object;
}

/* Drops @object from the tracked set; the tick takes it out of the model. */
void
_nearby_object_list_forget_object (NearbyObjectList *self,
                                   NearbyObject     *object)
{
  guint n_devices = nearby_object_get_n_devices (object);
  gboolean announced;
  guint index;

  for (guint i = 0; i < n_devices; i++)
    {
      const char *address = nearby_object_device_get_address (nearby_object_get_device (object, i));

      if (g_hash_table_lookup (self->objects_by_address, address) == object)
        g_hash_table_remove (self->objects_by_address, address);
    }

  announced = !g_ptr_array_remove (self->added, object);
  if (g_ptr_array_find (self->objects, object, &index))
    g_ptr_array_remove_index (self->objects, index);

  g_signal_handlers_disconnect_by_data (object, self);
  /* The model still holds a reference until the tick removes the row. */
  g_object_ref (object);
  g_hash_table_remove (self->objects_by_key, nearby_object_get_key (object));
  if (announced)
    g_signal_emit (self, signals[OBJECT_REMOVED], 0, object);
  g_object_unref (object);
}

void
nearby_object_list_add_sighting (NearbyObjectList     *self,
                                 const NearbySighting *sighting)
{
  const NearbyFrame *frame;
  NearbyObject *object;
  NearbySighting restamped;
  char key[NEARBY_OBJECT_KEY_MAX];
  int strength;
  gint64 now;

  g_return_if_fail (NEARBY_IS_OBJECT_LIST (self));
  g_return_if_fail (sighting != NULL);

  frame = &sighting->frame;
  if (frame->error != NEARBY_FRAME_OK || frame->kind == NEARBY_FRAME_KIND_NONE
      || sighting->address == NULL || sighting->address[0] == '\0')
    {
      self->n_invalid++;
      _nearby_object_list_ensure_ticking (self);
      return;
    }

  self->n_sightings++;

  /* Unstamped, or stamped ahead of our clock (a source with a skewed clock): an object seen
   * "in the future" would never go stale. */
  now = _nearby_object_list_now (self);
  if (sighting->time_us <= 0 || sighting->time_us > now)
    {
      restamped = *sighting;
      restamped.time_us = now;
      sighting = &restamped;
    }

  object = g_hash_table_lookup (self->objects_by_address, sighting->address);

  /* TLM, ETLM and EID frames never say which object a known device belongs to: skip building
   * a key for them, they are most of the traffic of a rotating beacon. */
  if (object == NULL
      || frame->kind == NEARBY_FRAME_KIND_URL
      || frame->kind == NEARBY_FRAME_KIND_UID
      || frame->kind == NEARBY_FRAME_KIND_IBEACON)
    {
      strength = nearby_object_key_for_frame (frame, sighting->address, key);

      if (object == NULL)
        {
          object = ensure_object (self, key);
          g_hash_table_insert (self->objects_by_address, g_strdup (sighting->address), object);
        }
      else if (strength == 3 && key_strength (nearby_object_get_key (object)) == 3
               && strcmp (key, nearby_object_get_key (object)) != 0)
        {
          /* One beacon broadcasting several URLs in turn (several Eddystone slots): each URL
           * is an object of its own, with this device in both. Its other frames go with the
           * URL it sent last. */
          object = ensure_object (self, key);
          g_hash_table_replace (self->objects_by_address, g_strdup (sighting->address), object);
        }
      else if (strength >= key_strength (nearby_object_get_key (object))
               && strcmp (key, nearby_object_get_key (object)) != 0)
        {
          /* The device now says something more specific (a URL after TLM frames), or was
           * given another identity: its history moves along with it. */
          NearbyObject *previous = object;

          object = ensure_object (self, key);
          nearby_object_move_device (previous, sighting->address, object);
          g_hash_table_replace (self->objects_by_address, g_strdup (sighting->address), object);

          /* A stand-in keyed by address or identity means nothing without its devices; a URL
           * object stays until it expires, as it was seen there. */
          if (nearby_object_get_n_devices (previous) == 0
              && key_strength (nearby_object_get_key (previous)) < 3)
            _nearby_object_list_forget_object (self, previous);
        }
    }

  nearby_object_add_sighting (object, sighting, &self->distance_config);
  _nearby_object_list_ensure_ticking (self);
}

static void
on_sighting (NearbyObjectList     *self,
             const NearbySighting *sighting,
             NearbySource         *source)
{
  nearby_object_list_add_sighting (self, sighting);
}

static GType
nearby_object_list_get_item_type (GListModel *model)
{
  return NEARBY_TYPE_OBJECT;
}

static guint
nearby_object_list_get_n_items (GListModel *model)
{
  NearbyObjectList *self = NEARBY_OBJECT_LIST (model);

  return self->items->len;
}

static gpointer
nearby_object_list_get_item (GListModel *model,
                             guint       position)
{
  NearbyObjectList *self = NEARBY_OBJECT_LIST (model);

  if (position >= self->items->len)
    return NULL;

  return g_object_ref (g_ptr_array_index (self->items, position));
}

static void
list_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = nearby_object_list_get_item_type;
  iface->get_n_items = nearby_object_list_get_n_items;
  iface->get_item = nearby_object_list_get_item;
}

NearbyObjectList *
nearby_object_list_new (NearbySource *source)
{
  NearbyObjectList *self;

  g_return_val_if_fail (source == NULL || NEARBY_IS_SOURCE (source), NULL);

  self = g_object_new (NEARBY_TYPE_OBJECT_LIST, NULL);
  if (source != NULL)
    nearby_object_list_add_source (self, source);

  return self;
}

void
nearby_object_list_add_source (NearbyObjectList *self,
                               NearbySource     *source)
{
  g_return_if_fail (NEARBY_IS_OBJECT_LIST (self));
  g_return_if_fail (NEARBY_IS_SOURCE (source));

  g_ptr_array_add (self->sources, g_object_ref (source));
  g_signal_connect_object (source, "sighting", G_CALLBACK (on_sighting), self,
                           G_CONNECT_SWAPPED);
}

NearbyObject *
nearby_object_list_get_object_by_key (NearbyObjectList *self,
                                      const char       *key)
{
  g_return_val_if_fail (NEARBY_IS_OBJECT_LIST (self), NULL);
  g_return_val_if_fail (key != NULL, NULL);

  return g_hash_table_lookup (self->objects_by_key, key);
}

NearbyObject *
nearby_object_list_get_object_by_address (NearbyObjectList *self,
                                          const char       *address)
{
  g_return_val_if_fail (NEARBY_IS_OBJECT_LIST (self), NULL);
  g_return_val_if_fail (address != NULL, NULL);

  return g_hash_table_lookup (self->objects_by_address, address);
}

guint
nearby_object_list_get_n_objects (NearbyObjectList *self)
{
  g_return_val_if_fail (NEARBY_IS_OBJECT_LIST (self), 0);

  return self->objects->len;
}

void
nearby_object_list_set_clock (NearbyObjectList *self,
                              NearbyClockFunc   clock,
                              gpointer          user_data)
{
  g_return_if_fail (NEARBY_IS_OBJECT_LIST (self));

  self->clock = clock;
  self->clock_data = user_data;
}

static void
restart_ticking (NearbyObjectList *self)
{
  if (self->tick_id != 0)
    {
      g_clear_handle_id (&self->tick_id, g_source_remove);
      _nearby_object_list_ensure_ticking (self);
    }
}

/* Filters and thawing take effect at the next tick, with a fresh ranking. */
static void
apply_view_change (NearbyObjectList *self)
{
  self->rank_wanted = TRUE;
  self->ranked_once = FALSE;
  _nearby_object_list_ensure_ticking (self);
}

guint
nearby_object_list_get_stale_timeout (NearbyObjectList *self)
{
  g_return_val_if_fail (NEARBY_IS_OBJECT_LIST (self), 0);

  return self->stale_timeout_ms;
}

void
nearby_object_list_set_stale_timeout (NearbyObjectList *self,
                                      guint             timeout_ms)
{
  g_return_if_fail (NEARBY_IS_OBJECT_LIST (self));

  if (self->stale_timeout_ms == timeout_ms)
    return;

  self->stale_timeout_ms = timeout_ms;
  /* A list asleep until the deadline of the old timeout (an hour away, say) wakes for the new. */
  _nearby_object_list_ensure_ticking (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STALE_TIMEOUT]);
}

guint
nearby_object_list_get_expiry_timeout (NearbyObjectList *self)
{
  g_return_val_if_fail (NEARBY_IS_OBJECT_LIST (self), 0);

  return self->expiry_timeout_ms;
}

void
nearby_object_list_set_expiry_timeout (NearbyObjectList *self,
                                       guint             timeout_ms)
{
  g_return_if_fail (NEARBY_IS_OBJECT_LIST (self));

  if (self->expiry_timeout_ms == timeout_ms)
    return;

  self->expiry_timeout_ms = timeout_ms;
  /* A list asleep until the deadline of the old timeout (an hour away, say) wakes for the new. */
  _nearby_object_list_ensure_ticking (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_EXPIRY_TIMEOUT]);
}

guint
nearby_object_list_get_tick_interval (NearbyObjectList *self)
{
  g_return_val_if_fail (NEARBY_IS_OBJECT_LIST (self), 0);

  return self->tick_interval_ms;
}

void
nearby_object_list_set_tick_interval (NearbyObjectList *self,
                                      guint             interval_ms)
{
  g_return_if_fail (NEARBY_IS_OBJECT_LIST (self));

  if (self->tick_interval_ms == interval_ms)
    return;

  self->tick_interval_ms = interval_ms;
  restart_ticking (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TICK_INTERVAL]);
}

guint
nearby_object_list_get_rank_interval (NearbyObjectList *self)
{
  g_return_val_if_fail (NEARBY_IS_OBJECT_LIST (self), 0);

  return self->rank_interval_ms;
}

void
nearby_object_list_set_rank_interval (NearbyObjectList *self,
                                      guint             interval_ms)
{
  g_return_if_fail (NEARBY_IS_OBJECT_LIST (self));

  if (self->rank_interval_ms == interval_ms)
    return;

  self->rank_interval_ms = interval_ms;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RANK_INTERVAL]);
}

gboolean
nearby_object_list_get_frozen (NearbyObjectList *self)
{
  g_return_val_if_fail (NEARBY_IS_OBJECT_LIST (self), FALSE);

  return self->frozen;
}

void
nearby_object_list_set_frozen (NearbyObjectList *self,
                               gboolean          frozen)
{
  g_return_if_fail (NEARBY_IS_OBJECT_LIST (self));

  frozen = !!frozen;
  if (self->frozen == frozen)
    return;

  self->frozen = frozen;
  apply_view_change (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FROZEN]);
}

gboolean
nearby_object_list_get_held (NearbyObjectList *self)
{
  g_return_val_if_fail (NEARBY_IS_OBJECT_LIST (self), FALSE);

  return self->held;
}

static void
release_held_objects (NearbyObjectList *self)
{
  g_autoptr(GPtrArray) held = g_steal_pointer (&self->held_objects);

  self->held_objects = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < held->len; i++)
    g_object_thaw_notify (held->pdata[i]);
}

/* While held (the window is hidden or minimized), sightings still go in, objects still come and
 * expire and are announced, so look-ups go on; but the model does not change and the objects do
 * not notify, so no row is updated for nobody. Released, the model catches up in one change and
 * each object notifies once for what changed meanwhile. */
void
nearby_object_list_set_held (NearbyObjectList *self,
                             gboolean          held)
{
  g_return_if_fail (NEARBY_IS_OBJECT_LIST (self));

  held = !!held;
  if (self->held == held)
    return;

  self->held = held;
  if (held)
    {
      for (guint i = 0; i < self->objects->len; i++)
        hold_object (self, self->objects->pdata[i]);
    }
  else
    {
      self->rank_wanted = TRUE;
      self->ranked_once = FALSE;
      nearby_object_list_flush (self);
      release_held_objects (self);
      if (self->objects->len > 0 || self->items->len > 0)
        _nearby_object_list_ensure_ticking (self);
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HELD]);
}

gboolean
nearby_object_list_get_show_non_browsable (NearbyObjectList *self)
{
  g_return_val_if_fail (NEARBY_IS_OBJECT_LIST (self), FALSE);

  return self->show_non_browsable;
}

void
nearby_object_list_set_show_non_browsable (NearbyObjectList *self,
                                           gboolean          show)
{
  g_return_if_fail (NEARBY_IS_OBJECT_LIST (self));

  show = !!show;
  if (self->show_non_browsable == show)
    return;

  self->show_non_browsable = show;
  apply_view_change (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SHOW_NON_BROWSABLE]);
}

gboolean
nearby_object_list_get_show_invisible (NearbyObjectList *self)
{
  g_return_val_if_fail (NEARBY_IS_OBJECT_LIST (self), FALSE);

  return self->show_invisible;
}

void
nearby_object_list_set_show_invisible (NearbyObjectList *self,
                                       gboolean          show)
{
  g_return_if_fail (NEARBY_IS_OBJECT_LIST (self));

  show = !!show;
  if (self->show_invisible == show)
    return;

  self->show_invisible = show;
  apply_view_change (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SHOW_INVISIBLE]);
}

double
nearby_object_list_get_path_loss_exponent (NearbyObjectList *self)
{
  g_return_val_if_fail (NEARBY_IS_OBJECT_LIST (self), NEARBY_PATH_LOSS_DEFAULT);

  return self->distance_config.path_loss_exponent;
}

void
nearby_object_list_set_path_loss_exponent (NearbyObjectList *self,
                                           double            exponent)
{
  g_return_if_fail (NEARBY_IS_OBJECT_LIST (self));
  g_return_if_fail (exponent > 0);

  if (self->distance_config.path_loss_exponent == exponent)
    return;

  self->distance_config.path_loss_exponent = exponent;
  for (guint i = 0; i < self->objects->len; i++)
    nearby_object_set_distance_config (self->objects->pdata[i], &self->distance_config);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PATH_LOSS_EXPONENT]);
}

guint
nearby_object_list_get_n_invalid (NearbyObjectList *self)
{
  g_return_val_if_fail (NEARBY_IS_OBJECT_LIST (self), 0);

  return self->n_invalid;
}

guint64
nearby_object_list_get_n_sightings (NearbyObjectList *self)
{
  g_return_val_if_fail (NEARBY_IS_OBJECT_LIST (self), 0);

  return self->n_sightings;
}

static void
nearby_object_list_dispose (GObject *object)
{
  NearbyObjectList *self = (NearbyObjectList *)object;

  g_clear_handle_id (&self->tick_id, g_source_remove);
  g_clear_handle_id (&self->prompt_tick_id, g_source_remove);
  if (self->held_objects != NULL)
    release_held_objects (self);

  if (self->objects != NULL)
    {
      for (guint i = 0; i < self->objects->len; i++)
        g_signal_handlers_disconnect_by_data (self->objects->pdata[i], self);
    }

  if (self->sources != NULL)
    {
      for (guint i = 0; i < self->sources->len; i++)
        g_signal_handlers_disconnect_by_data (self->sources->pdata[i], self);
      g_ptr_array_set_size (self->sources, 0);
    }

  G_OBJECT_CLASS (nearby_object_list_parent_class)->dispose (object);
}

static void
nearby_object_list_finalize (GObject *object)
{
  NearbyObjectList *self = (NearbyObjectList *)object;

  g_clear_pointer (&self->sources, g_ptr_array_unref);
  g_clear_pointer (&self->items, g_ptr_array_unref);
  g_clear_pointer (&self->shown, g_hash_table_unref);
  g_clear_pointer (&self->added, g_ptr_array_unref);
  g_clear_pointer (&self->forgotten_addresses, g_ptr_array_unref);
  g_clear_pointer (&self->held_objects, g_ptr_array_unref);
  g_clear_pointer (&self->objects_by_address, g_hash_table_unref);
  g_clear_pointer (&self->objects, g_ptr_array_unref);
  g_clear_pointer (&self->objects_by_key, g_hash_table_unref);

  G_OBJECT_CLASS (nearby_object_list_parent_class)->finalize (object);
}

static void
nearby_object_list_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  NearbyObjectList *self = NEARBY_OBJECT_LIST (object);

  switch (prop_id)
    {
    case PROP_STALE_TIMEOUT:
      g_value_set_uint (value, self->stale_timeout_ms);
      break;

    case PROP_EXPIRY_TIMEOUT:
      g_value_set_uint (value, self->expiry_timeout_ms);
      break;

    case PROP_TICK_INTERVAL:
      g_value_set_uint (value, self->tick_interval_ms);
      break;

    case PROP_RANK_INTERVAL:
      g_value_set_uint (value, self->rank_interval_ms);
      break;

    case PROP_FROZEN:
      g_value_set_boolean (value, self->frozen);
      break;

    case PROP_HELD:
      g_value_set_boolean (value, self->held);
      break;

    case PROP_SHOW_NON_BROWSABLE:
      g_value_set_boolean (value, self->show_non_browsable);
      break;

    case PROP_SHOW_INVISIBLE:
      g_value_set_boolean (value, self->show_invisible);
      break;

    case PROP_PATH_LOSS_EXPONENT:
      g_value_set_double (value, self->distance_config.path_loss_exponent);
      break;

    case PROP_N_INVALID:
      g_value_set_uint (value, self->n_invalid);
      break;

    case PROP_N_ITEMS:
      g_value_set_uint (value, self->items->len);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
nearby_object_list_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  NearbyObjectList *self = NEARBY_OBJECT_LIST (object);

  switch (prop_id)
    {
    case PROP_STALE_TIMEOUT:
      nearby_object_list_set_stale_timeout (self, g_value_get_uint (value));
      break;

    case PROP_EXPIRY_TIMEOUT:
      nearby_object_list_set_expiry_timeout (self, g_value_get_uint (value));
      break;

    case PROP_TICK_INTERVAL:
      nearby_object_list_set_tick_interval (self, g_value_get_uint (value));
      break;

    case PROP_RANK_INTERVAL:
      nearby_object_list_set_rank_interval (self, g_value_get_uint (value));
      break;

    case PROP_FROZEN:
      nearby_object_list_set_frozen (self, g_value_get_boolean (value));
      break;

    case PROP_HELD:
      nearby_object_list_set_held (self, g_value_get_boolean (value));
      break;

    case PROP_SHOW_NON_BROWSABLE:
      nearby_object_list_set_show_non_browsable (self, g_value_get_boolean (value));
      break;

    case PROP_SHOW_INVISIBLE:
      nearby_object_list_set_show_invisible (self, g_value_get_boolean (value));
      break;

    case PROP_PATH_LOSS_EXPONENT:
      nearby_object_list_set_path_loss_exponent (self, g_value_get_double (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
nearby_object_list_class_init (NearbyObjectListClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags writable = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;
  const GParamFlags readable = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->dispose = nearby_object_list_dispose;
  object_class->finalize = nearby_object_list_finalize;
  object_class->get_property = nearby_object_list_get_property;
  object_class->set_property = nearby_object_list_set_property;

  /* Milliseconds without a sighting before an object is marked stale. */
  properties[PROP_STALE_TIMEOUT] =
    g_param_spec_uint ("stale-timeout", NULL, NULL, 0, G_MAXUINT,
                       NEARBY_OBJECT_LIST_STALE_TIMEOUT_DEFAULT, writable);
  /* Milliseconds without a sighting before an object is removed. */
  properties[PROP_EXPIRY_TIMEOUT] =
    g_param_spec_uint ("expiry-timeout", NULL, NULL, 0, G_MAXUINT,
                       NEARBY_OBJECT_LIST_EXPIRY_TIMEOUT_DEFAULT, writable);
  /* Milliseconds between two batches of changes. */
  properties[PROP_TICK_INTERVAL] =
    g_param_spec_uint ("tick-interval", NULL, NULL, 1, 60000,
                       NEARBY_OBJECT_LIST_TICK_INTERVAL_DEFAULT, writable);
  /* Milliseconds between two re-rankings at least. */
  properties[PROP_RANK_INTERVAL] =
    g_param_spec_uint ("rank-interval", NULL, NULL, 0, G_MAXUINT,
                       NEARBY_OBJECT_LIST_RANK_INTERVAL_DEFAULT, writable);
  /* Set while the pointer or focus is on the list: nothing moves, newcomers go at the end. */
  properties[PROP_FROZEN] = g_param_spec_boolean ("frozen", NULL, NULL, FALSE, writable);
  /* Set while nobody sees the list (its window hidden or minimized): see set_held(). */
  properties[PROP_HELD] = g_param_spec_boolean ("held", NULL, NULL, FALSE, writable);
  /* Show beacons without a web address (Eddystone-UID, iBeacon, TLM-only devices). */
  properties[PROP_SHOW_NON_BROWSABLE] =
    g_param_spec_boolean ("show-non-browsable", NULL, NULL, FALSE, writable);
  /* Show UriBeacons that ask not to be listed. */
  properties[PROP_SHOW_INVISIBLE] =
    g_param_spec_boolean ("show-invisible", NULL, NULL, FALSE, writable);
  properties[PROP_PATH_LOSS_EXPONENT] =
    g_param_spec_double ("path-loss-exponent", NULL, NULL, 0.1, 10.0, NEARBY_PATH_LOSS_DEFAULT,
                         writable);
  /* Sightings ignored because their frame was invalid. */
  properties[PROP_N_INVALID] = g_param_spec_uint ("n-invalid", NULL, NULL, 0, G_MAXUINT, 0, readable);
  properties[PROP_N_ITEMS] = g_param_spec_uint ("n-items", NULL, NULL, 0, G_MAXUINT, 0, readable);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* Any object found, shown or not (for the resolver). */
  signals[OBJECT_ADDED] =
    g_signal_new ("object-added", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 1, NEARBY_TYPE_OBJECT);
  /* An object expired: cancel what was being done for it. */
  signals[OBJECT_REMOVED] =
    g_signal_new ("object-removed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 1, NEARBY_TYPE_OBJECT);
}

static void
nearby_object_list_init (NearbyObjectList *self)
{
  self->sources = g_ptr_array_new_with_free_func (g_object_unref);
  self->objects_by_key = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_object_unref);
  self->objects = g_ptr_array_new ();
  self->objects_by_address = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->items = g_ptr_array_new_with_free_func (g_object_unref);
  self->shown = g_hash_table_new (NULL, NULL);
  self->added = g_ptr_array_new ();
  self->forgotten_addresses = g_ptr_array_new_with_free_func (g_free);
  self->held_objects = g_ptr_array_new_with_free_func (g_object_unref);

  nearby_distance_config_init (&self->distance_config);
  self->stale_timeout_ms = NEARBY_OBJECT_LIST_STALE_TIMEOUT_DEFAULT;
  self->expiry_timeout_ms = NEARBY_OBJECT_LIST_EXPIRY_TIMEOUT_DEFAULT;
  self->tick_interval_ms = NEARBY_OBJECT_LIST_TICK_INTERVAL_DEFAULT;
  self->rank_interval_ms = NEARBY_OBJECT_LIST_RANK_INTERVAL_DEFAULT;
  self->calm_ranking = TRUE;
}

void
_nearby_object_list_notify (NearbyObjectList         *self,
                            NearbyObjectListProperty  prop_id)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop_id]);
}

void
_nearby_object_list_emit_object_added (NearbyObjectList *self,
                                       NearbyObject     *object)
{
  g_signal_emit (self, signals[OBJECT_ADDED], 0, object);
}

void
_nearby_object_list_set_calm_ranking (NearbyObjectList *self,
                                      gboolean          calm)
{
  g_return_if_fail (NEARBY_IS_OBJECT_LIST (self));

  self->calm_ranking = calm;
}
