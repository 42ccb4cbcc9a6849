/* nearby-object-list.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-object-list"

#include "config.h"

#include <string.h>

#include "nearby-object-list.h"

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

struct _NearbyObjectList
{
  GObject               parent_instance;

  GPtrArray            *sources;

  /* Every object tracked, in the order first seen; the key table owns the references. */
  GHashTable           *objects_by_key;
  GPtrArray            *objects;
  /* Which object each radio address currently feeds. */
  GHashTable           *objects_by_address;

  /* The model: the shown objects in shown order, and the same as a set. */
  GPtrArray            *items;
  GHashTable           *shown;

  GPtrArray            *added;    /* created since the last tick, announced then */
  GPtrArray            *forgotten_addresses;

  NearbyDistanceConfig  distance_config;
  NearbyClockFunc       clock;
  gpointer              clock_data;

  guint                 tick_id;
  guint                 prompt_tick_id;
  gint64                last_prompt_tick_us;
  gint64                last_rank_us;
  gboolean              ranked_once;
  gboolean              rank_wanted;

  guint                 stale_timeout_ms;
  guint                 expiry_timeout_ms;
  guint                 tick_interval_ms;
  guint                 rank_interval_ms;
  gboolean              frozen;
  gboolean              show_non_browsable;
  gboolean              show_invisible;

  guint                 n_invalid;
  guint                 notified_n_invalid;
  guint64               n_sightings;
};

static void list_model_iface_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (NearbyObjectList, nearby_object_list, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_iface_init))

enum {
  PROP_0,
  PROP_STALE_TIMEOUT,
  PROP_EXPIRY_TIMEOUT,
  PROP_TICK_INTERVAL,
  PROP_RANK_INTERVAL,
  PROP_FROZEN,
  PROP_SHOW_NON_BROWSABLE,
  PROP_SHOW_INVISIBLE,
  PROP_PATH_LOSS_EXPONENT,
  PROP_N_INVALID,
  PROP_N_ITEMS,
  N_PROPS
};

enum {
  OBJECT_ADDED,
  OBJECT_REMOVED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void ensure_ticking (NearbyObjectList *self);
static void schedule_prompt_tick (NearbyObjectList *self);

static gint64
now_us (NearbyObjectList *self)
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

static gboolean
object_is_wanted (NearbyObjectList *self,
                  NearbyObject     *object)
{
  if (!self->show_non_browsable && !nearby_object_get_browsable (object))
    return FALSE;
  if (!self->show_invisible && nearby_object_get_invisible (object))
    return FALSE;
  return TRUE;
}

/* Still tracked (not expired, not replaced by another object with its key) and not filtered out. */
static gboolean
object_stays_shown (NearbyObjectList *self,
                    NearbyObject     *object)
{
  return g_hash_table_lookup (self->objects_by_key, nearby_object_get_key (object)) == object
         && object_is_wanted (self, object);
}

static int
bucket_order (NearbyBucket bucket)
{
  /* Unknown distance goes last, after "Farther away". */
  return bucket == NEARBY_BUCKET_UNKNOWN ? NEARBY_BUCKET_FAR + 1 : (int) bucket;
}

/* Favourites first, then nearer buckets, then what the person uses, then nearer, then the order
 * the objects were found in, so that equal objects never swap. */
static int
compare_objects (gconstpointer a,
                 gconstpointer b)
{
  NearbyObject *object_a = *(NearbyObject * const *) a;
  NearbyObject *object_b = *(NearbyObject * const *) b;
  double score_a, score_b, distance_a, distance_b;
  gint64 seen_a, seen_b;
  int order;

  order = (int) nearby_object_get_favourite (object_b) - (int) nearby_object_get_favourite (object_a);
  if (order != 0)
    return order;

  order = bucket_order (nearby_object_get_bucket (object_a))
          - bucket_order (nearby_object_get_bucket (object_b));
  if (order != 0)
    return order;

  score_a = nearby_object_get_history_score (object_a);
  score_b = nearby_object_get_history_score (object_b);
  if (score_a != score_b)
    return score_a > score_b ? -1 : 1;

  distance_a = nearby_object_get_rank_distance (object_a);
  distance_b = nearby_object_get_rank_distance (object_b);
  if (distance_a != distance_b)
    {
      if (distance_a < 0)
        return 1;
      if (distance_b < 0)
        return -1;
      return distance_a < distance_b ? -1 : 1;
    }

  seen_a = nearby_object_get_first_seen (object_a);
  seen_b = nearby_object_get_first_seen (object_b);
  if (seen_a != seen_b)
    return seen_a < seen_b ? -1 : 1;

  return strcmp (nearby_object_get_key (object_a), nearby_object_get_key (object_b));
}

static NearbyObject *
ensure_object (NearbyObjectList *self,
               const char       *key)
{
  NearbyObject *object = g_hash_table_lookup (self->objects_by_key, key);

  if (object != NULL)
    return object;

  object = nearby_object_new (key);
  g_hash_table_insert (self->objects_by_key, (char *) nearby_object_get_key (object), object);
  g_ptr_array_add (self->objects, object);
  g_ptr_array_add (self->added, object);
  schedule_prompt_tick (self);
  return object;
}

/* Drops @object from the tracked set; the tick takes it out of the model. */
static void
forget_object (NearbyObjectList *self,
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
      ensure_ticking (self);
      return;
    }

  self->n_sightings++;

  /* Unstamped, or stamped ahead of our clock (a source with a skewed clock): an object seen
   * "in the future" would never go stale. */
  now = now_us (self);
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
            forget_object (self, previous);
        }
    }

  nearby_object_add_sighting (object, sighting, &self->distance_config);
  ensure_ticking (self);
}

static void
on_sighting (NearbyObjectList     *self,
             const NearbySighting *sighting,
             NearbySource         *source)
{
  nearby_object_list_add_sighting (self, sighting);
}

static void
emit_items_changed (NearbyObjectList *self,
                    guint             position,
                    guint             removed,
                    guint             added)
{
  if (removed == 0 && added == 0)
    return;

  g_list_model_items_changed (G_LIST_MODEL (self), position, removed, added);
  if (removed != added)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_ITEMS]);
}

/* Replaces the model's items with @new_items (which takes the references) in one change that
 * covers only the part that differs. */
static void
replace_items (NearbyObjectList *self,
               GPtrArray        *new_items)
{
  GPtrArray *old_items = self->items;
  guint prefix = 0;
  guint suffix = 0;

  while (prefix < old_items->len && prefix < new_items->len
         && old_items->pdata[prefix] == new_items->pdata[prefix])
    prefix++;
  while (suffix < old_items->len - prefix && suffix < new_items->len - prefix
         && old_items->pdata[old_items->len - 1 - suffix]
            == new_items->pdata[new_items->len - 1 - suffix])
    suffix++;

  self->items = new_items;
  emit_items_changed (self, prefix, old_items->len - prefix - suffix,
                      new_items->len - prefix - suffix);
  g_ptr_array_unref (old_items);
}

static void
tick (NearbyObjectList *self)
{
  gint64 now = now_us (self);
  gint64 stale_us = (gint64) self->stale_timeout_ms * 1000;
  gint64 expiry_us = (gint64) self->expiry_timeout_ms * 1000;
  g_autoptr(GPtrArray) added = NULL;
  g_autoptr(GPtrArray) to_show = NULL;
  gboolean rank_changed = self->rank_wanted;
  gboolean rank_due;

  g_object_freeze_notify (G_OBJECT (self));

  added = g_steal_pointer (&self->added);
  self->added = g_ptr_array_new ();
  for (guint i = 0; i < added->len; i++)
    {
      g_signal_emit (self, signals[OBJECT_ADDED], 0, added->pdata[i]);
      rank_changed = TRUE;
    }

  for (guint i = self->objects->len; i-- > 0;)
    {
      NearbyObject *object = g_ptr_array_index (self->objects, i);

      if (now - nearby_object_get_last_seen (object) > expiry_us)
        {
          /* While the person points at the list, a row that left would move every row below
           * it: it stays, faded as stale, until the pointer or focus goes. */
          if (self->frozen && g_hash_table_contains (self->shown, object))
            continue;
          forget_object (self, object);
          continue;
        }

      if (nearby_object_refresh (object, now, stale_us, expiry_us, self->forgotten_addresses))
        rank_changed = TRUE;

      for (guint j = 0; j < self->forgotten_addresses->len; j++)
        {
          const char *address = self->forgotten_addresses->pdata[j];

          if (g_hash_table_lookup (self->objects_by_address, address) == object)
            g_hash_table_remove (self->objects_by_address, address);
        }
      g_ptr_array_set_size (self->forgotten_addresses, 0);
    }

  /* Rows leave together: each run of neighbouring rows goes in one change. (While frozen, only
   * rows the filters now hide leave; expired ones wait, above.) */
  for (guint end = self->items->len; end > 0;)
    {
      NearbyObject *object = g_ptr_array_index (self->items, end - 1);
      guint start;

      if (object_stays_shown (self, object))
        {
          end--;
          continue;
        }

      start = end - 1;
      while (start > 0)
        {
          NearbyObject *before = g_ptr_array_index (self->items, start - 1);

          if (object_stays_shown (self, before))
            break;
          start--;
        }

      for (guint i = start; i < end; i++)
        g_hash_table_remove (self->shown, self->items->pdata[i]);
      g_ptr_array_remove_range (self->items, start, end - start);
      emit_items_changed (self, start, end - start, 0);
      end = start;
    }

  to_show = g_ptr_array_new ();
  for (guint i = 0; i < self->objects->len; i++)
    {
      NearbyObject *object = g_ptr_array_index (self->objects, i);

      if (!g_hash_table_contains (self->shown, object) && object_is_wanted (self, object))
        g_ptr_array_add (to_show, object);
    }

  rank_due = !self->ranked_once || now - self->last_rank_us >= (gint64) self->rank_interval_ms * 1000
             || now < self->last_rank_us;

  if ((rank_changed || to_show->len > 0) && !self->frozen && rank_due)
    {
      GPtrArray *new_items = g_ptr_array_new_full (self->items->len + to_show->len, g_object_unref);

      for (guint i = 0; i < self->items->len; i++)
        g_ptr_array_add (new_items, g_object_ref (self->items->pdata[i]));
      for (guint i = 0; i < to_show->len; i++)
        {
          g_ptr_array_add (new_items, g_object_ref (to_show->pdata[i]));
          g_hash_table_add (self->shown, to_show->pdata[i]);
        }
      g_ptr_array_sort (new_items, compare_objects);
      replace_items (self, new_items);

      self->last_rank_us = now;
      self->ranked_once = TRUE;
      self->rank_wanted = FALSE;
    }
  else
    {
      self->rank_wanted = self->rank_wanted || rank_changed;

      /* While the person is pointing at the list, newcomers join at the end; otherwise they
       * wait for the next ranking (within a second) and appear in their place. */
      if (self->frozen && to_show->len > 0)
        {
          guint position = self->items->len;

          g_ptr_array_sort (to_show, compare_objects);
          for (guint i = 0; i < to_show->len; i++)
            {
              g_ptr_array_add (self->items, g_object_ref (to_show->pdata[i]));
              g_hash_table_add (self->shown, to_show->pdata[i]);
            }
          emit_items_changed (self, position, 0, to_show->len);
        }
    }

  if (self->notified_n_invalid != self->n_invalid)
    {
      self->notified_n_invalid = self->n_invalid;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_INVALID]);
    }

  g_object_thaw_notify (G_OBJECT (self));
}

static gboolean
on_tick (gpointer user_data)
{
  NearbyObjectList *self = user_data;

  tick (self);

  if (self->objects->len == 0 && self->items->len == 0)
    {
      self->tick_id = 0;
      return G_SOURCE_REMOVE;
    }

  return G_SOURCE_CONTINUE;
}

static void
ensure_ticking (NearbyObjectList *self)
{
  if (self->tick_id == 0)
    self->tick_id = g_timeout_add (self->tick_interval_ms, on_tick, self);
}

static gboolean
on_prompt_tick (gpointer user_data)
{
  NearbyObjectList *self = user_data;

  self->prompt_tick_id = 0;
  tick (self);

  return G_SOURCE_REMOVE;
}

/* A beacon that just came into range is what the person is waiting for: its look-up starts,
 * and its row appears, without waiting up to a whole tick. The tick still batches: this early
 * one runs once the sightings already queued are taken (an idle), and at most once per tick
 * interval, so a crowd of newcomers costs no more than one extra tick per interval. */
static void
schedule_prompt_tick (NearbyObjectList *self)
{
  gint64 now = now_us (self);

  if (self->prompt_tick_id != 0)
    return;
  if (self->last_prompt_tick_us != 0 && now >= self->last_prompt_tick_us &&
      now - self->last_prompt_tick_us < (gint64) self->tick_interval_ms * 1000)
    return;

  self->last_prompt_tick_us = now;
  self->prompt_tick_id = g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, on_prompt_tick, self, NULL);
}

void
nearby_object_list_flush (NearbyObjectList *self)
{
  g_return_if_fail (NEARBY_IS_OBJECT_LIST (self));

  tick (self);
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
      ensure_ticking (self);
    }
}

/* Filters and thawing take effect at the next tick, with a fresh ranking. */
static void
apply_view_change (NearbyObjectList *self)
{
  self->rank_wanted = TRUE;
  self->ranked_once = FALSE;
  ensure_ticking (self);
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

  nearby_distance_config_init (&self->distance_config);
  self->stale_timeout_ms = NEARBY_OBJECT_LIST_STALE_TIMEOUT_DEFAULT;
  self->expiry_timeout_ms = NEARBY_OBJECT_LIST_EXPIRY_TIMEOUT_DEFAULT;
  self->tick_interval_ms = NEARBY_OBJECT_LIST_TICK_INTERVAL_DEFAULT;
  self->rank_interval_ms = NEARBY_OBJECT_LIST_RANK_INTERVAL_DEFAULT;
}
