/* nearby-object-list-tick.c: what the list shows, decided once per tick
 *
 * Expiry, the view filters, the ranking and the model's changes, batched so that a person can
 * read the list while sightings pour in.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-object-list"

#include "config.h"

#include <string.h>

#include "nearby-object-list-private.h"

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
    _nearby_object_list_notify (self, PROP_N_ITEMS);
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

/* The model's part of a tick: rows that leave, newcomers, the ranking. */
static void
update_model (NearbyObjectList *self,
              gint64            now,
              gboolean          rank_changed)
{
  g_autoptr(GPtrArray) to_show = NULL;
  gboolean rank_due;

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
}

/* How long past its expiry a shown object may stay while the list is frozen. */
static gint64
frozen_keep_us (NearbyObjectList *self)
{
  return (gint64) MIN (self->expiry_timeout_ms, NEARBY_OBJECT_LIST_FROZEN_KEEP_MAX) * 1000;
}

static int
compare_last_seen_newest_first (gconstpointer a,
                                gconstpointer b)
{
  gint64 seen_a = nearby_object_get_last_seen (*(NearbyObject * const *) a);
  gint64 seen_b = nearby_object_get_last_seen (*(NearbyObject * const *) b);

  return seen_a > seen_b ? -1 : seen_a < seen_b ? 1 : 0;
}

/* The expired objects that stay while the list is frozen: a row that left would move every row
 * below it under the pointer. Without a bound, a pointer resting on the list amid churn would
 * keep every object that ever came (and its row, page and icon): so only for a while, and only
 * so many, the most recently heard. */
static GHashTable *
expired_kept_while_frozen (NearbyObjectList *self,
                           gint64            now)
{
  gint64 expiry_us = (gint64) self->expiry_timeout_ms * 1000;
  gint64 keep_us = frozen_keep_us (self);
  g_autoptr(GPtrArray) kept = g_ptr_array_new ();
  GHashTable *set = g_hash_table_new (NULL, NULL);

  for (guint i = 0; i < self->objects->len; i++)
    {
      NearbyObject *object = g_ptr_array_index (self->objects, i);
      gint64 silent = now - nearby_object_get_last_seen (object);

      if (silent > expiry_us && silent <= expiry_us + keep_us
          && g_hash_table_contains (self->shown, object))
        g_ptr_array_add (kept, object);
    }

  if (kept->len > NEARBY_OBJECT_LIST_FROZEN_KEEP_MAX_OBJECTS)
    {
      g_ptr_array_sort (kept, compare_last_seen_newest_first);
      g_ptr_array_set_size (kept, NEARBY_OBJECT_LIST_FROZEN_KEEP_MAX_OBJECTS);
    }
  for (guint i = 0; i < kept->len; i++)
    g_hash_table_add (set, kept->pdata[i]);

  return set;
}

static void
tick (NearbyObjectList *self)
{
  gint64 now = _nearby_object_list_now (self);
  gint64 stale_us = (gint64) self->stale_timeout_ms * 1000;
  gint64 expiry_us = (gint64) self->expiry_timeout_ms * 1000;
  g_autoptr(GPtrArray) added = NULL;
  g_autoptr(GHashTable) kept = NULL;
  gboolean rank_changed = self->rank_wanted;

  g_object_freeze_notify (G_OBJECT (self));

  if (self->frozen)
    kept = expired_kept_while_frozen (self, now);

  added = g_steal_pointer (&self->added);
  self->added = g_ptr_array_new ();
  for (guint i = 0; i < added->len; i++)
    {
      _nearby_object_list_emit_object_added (self, added->pdata[i]);
      rank_changed = TRUE;
    }

  for (guint i = self->objects->len; i-- > 0;)
    {
      NearbyObject *object = g_ptr_array_index (self->objects, i);

      if (now - nearby_object_get_last_seen (object) > expiry_us)
        {
          /* While the person points at the list, a row that left would move every row below
           * it: it stays, faded as stale, until the pointer or focus goes (within bounds). */
          if (kept != NULL && g_hash_table_contains (kept, object))
            continue;
          _nearby_object_list_forget_object (self, object);
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

  /* Held, the model stays as it was until someone sees it again; what it missed is ranked
   * then. */
  if (self->held)
    self->rank_wanted = self->rank_wanted || rank_changed;
  else
    update_model (self, now, rank_changed);

  if (self->notified_n_invalid != self->n_invalid)
    {
      self->notified_n_invalid = self->n_invalid;
      _nearby_object_list_notify (self, PROP_N_INVALID);
    }

  g_object_thaw_notify (G_OBJECT (self));
}

static void
consider_deadline (gint64  deadline,
                   gint64  now,
                   gint64 *next)
{
  if (deadline > now && deadline < *next)
    *next = deadline;
}

/* When, on the list's clock, what is shown changes with no new sighting: a device or an object
 * goes stale or expires, or a ranking that waits comes due. G_MAXINT64: not before the next
 * sighting or setting, which wake the list themselves. */
static gint64
next_deadline (NearbyObjectList *self,
               gint64            now)
{
  gint64 stale_us = (gint64) self->stale_timeout_ms * 1000;
  gint64 expiry_us = (gint64) self->expiry_timeout_ms * 1000;
  gint64 next = G_MAXINT64;

  if (self->added->len > 0 || self->notified_n_invalid != self->n_invalid)
    return now;

  if (self->rank_wanted && !self->frozen && !self->held)
    {
      gint64 rank_due = self->last_rank_us + (gint64) self->rank_interval_ms * 1000;

      if (!self->ranked_once || rank_due <= now || now < self->last_rank_us)
        return now;
      consider_deadline (rank_due, now, &next);
    }

  /* The tick compares with ">": one microsecond after the timeout is when it acts. */
  for (guint i = 0; i < self->objects->len; i++)
    {
      NearbyObject *object = g_ptr_array_index (self->objects, i);
      guint n_devices = nearby_object_get_n_devices (object);
      gint64 last_seen = nearby_object_get_last_seen (object);

      consider_deadline (last_seen + stale_us + 1, now, &next);
      consider_deadline (last_seen + expiry_us + 1, now, &next);
      if (self->frozen)
        consider_deadline (last_seen + expiry_us + frozen_keep_us (self) + 1, now, &next);
      for (guint j = 0; j < n_devices; j++)
        {
          gint64 device_seen = nearby_object_device_get_last_seen (nearby_object_get_device (object, j));

          consider_deadline (device_seen + stale_us + 1, now, &next);
          consider_deadline (device_seen + expiry_us + 1, now, &next);
        }
    }

  return next;
}

static gboolean on_tick (gpointer user_data);

static void
arm_tick (NearbyObjectList *self,
          guint             delay_ms)
{
  g_clear_handle_id (&self->tick_id, g_source_remove);
  self->tick_id = g_timeout_add (delay_ms, on_tick, self);
  self->tick_due_us = g_get_monotonic_time () + (gint64) delay_ms * 1000;
}

/* A tick comes at most once per interval, and only when something can change: after sightings
 * or a setting (which call _nearby_object_list_ensure_ticking()), or at the next deadline. A list
 * of still beacons between their adverts, or of objects waiting to expire, sleeps until then. */
static gboolean
on_tick (gpointer user_data)
{
  NearbyObjectList *self = user_data;
  gint64 now, deadline;

  self->tick_id = 0;
  tick (self);

  if (self->objects->len == 0 && self->items->len == 0)
    return G_SOURCE_REMOVE;

  /* On a clock of its own (tests), the list cannot tell when a deadline comes in real time. */
  if (self->clock != NULL)
    {
      arm_tick (self, self->tick_interval_ms);
      return G_SOURCE_REMOVE;
    }

  now = _nearby_object_list_now (self);
  deadline = next_deadline (self, now);
  if (deadline != G_MAXINT64)
    arm_tick (self, (guint) CLAMP ((deadline - now + 999) / 1000, self->tick_interval_ms,
                                   (gint64) MAX (self->stale_timeout_ms,
                                                 self->expiry_timeout_ms) + 1));

  return G_SOURCE_REMOVE;
}

void
_nearby_object_list_ensure_ticking (NearbyObjectList *self)
{
  /* Already due within an interval: the changes wait for it, in one batch. */
  if (self->tick_id != 0
      && self->tick_due_us <= g_get_monotonic_time () + (gint64) self->tick_interval_ms * 1000)
    return;

  arm_tick (self, self->tick_interval_ms);
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
void
_nearby_object_list_schedule_prompt_tick (NearbyObjectList *self)
{
  gint64 now = _nearby_object_list_now (self);

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
