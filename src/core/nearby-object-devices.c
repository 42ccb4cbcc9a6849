/* nearby-object-devices.c: the radios broadcasting an object, and the distance they give
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-object"

#include "config.h"

#include <math.h>
#include <string.h>

#include "nearby-object-private.h"

/* Enough for a sample per 250 ms list tick over NEARBY_OBJECT_HISTORY_US. The ring starts
 * small and doubles: most objects pass by in a few seconds, and a full ring is 6 KiB. */
#define SAMPLE_CAPACITY         256
#define SAMPLE_INITIAL_CAPACITY 8

/* Most objects are one beacon, a few are a handful: up to this many devices a search of the
 * array is as quick as a hash table, which would cost 256 bytes per object. */
#define DEVICES_INDEXED_FROM 8

/* The baseline ranking: the smoothed distance must move by this factor before the ranking
 * notices (3.5 dB at n = 2). Real indoor noise leaves more than that after smoothing. */
#define RANK_DISTANCE_FACTOR 1.5

void
_nearby_object_device_free (NearbyObjectDevice *device)
{
  for (guint kind = 0; kind < NEARBY_FRAME_N_KINDS; kind++)
    g_free (device->frames[kind]);
  g_free (device->address);
  g_free (device);
}

const char *
nearby_object_device_get_address (const NearbyObjectDevice *device)
{
  g_return_val_if_fail (device != NULL, NULL);

  return device->address;
}

gint64
nearby_object_device_get_last_seen (const NearbyObjectDevice *device)
{
  g_return_val_if_fail (device != NULL, 0);

  return device->last_seen_us;
}

guint
nearby_object_device_get_config_offer (const NearbyObjectDevice *device)
{
  g_return_val_if_fail (device != NULL, 0);

  return device->config_offer;
}

const NearbyFrame *
nearby_object_device_get_frame (const NearbyObjectDevice *device,
                                NearbyFrameKind           kind)
{
  g_return_val_if_fail (device != NULL, NULL);

  if (kind <= NEARBY_FRAME_KIND_NONE || kind >= NEARBY_FRAME_N_KINDS || device->frames[kind] == NULL)
    return NULL;

  return &device->frames[kind]->frame;
}

const guint8 *
nearby_object_device_get_raw (const NearbyObjectDevice *device,
                              NearbyFrameKind           kind,
                              gsize                    *len)
{
  g_return_val_if_fail (device != NULL, NULL);
  g_return_val_if_fail (len != NULL, NULL);

  *len = 0;
  if (nearby_object_device_get_frame (device, kind) == NULL || device->frames[kind]->raw_len == 0)
    return NULL;

  *len = device->frames[kind]->raw_len;
  return device->frames[kind]->raw;
}

const NearbyRssiFilter *
nearby_object_device_get_filter (const NearbyObjectDevice *device)
{
  g_return_val_if_fail (device != NULL, NULL);

  return &device->filter;
}


guint
nearby_object_get_n_devices (NearbyObject *self)
{
  g_return_val_if_fail (NEARBY_IS_OBJECT (self), 0);

  return self->devices->len;
}

const NearbyObjectDevice *
nearby_object_get_device (NearbyObject *self,
                          guint         index)
{
  g_return_val_if_fail (NEARBY_IS_OBJECT (self), NULL);
  g_return_val_if_fail (index < self->devices->len, NULL);

  return g_ptr_array_index (self->devices, index);
}

static NearbyObjectDevice *
find_device (NearbyObject *self,
             const char   *address)
{
  if (self->devices_by_address != NULL)
    return g_hash_table_lookup (self->devices_by_address, address);

  for (guint i = 0; i < self->devices->len; i++)
    {
      NearbyObjectDevice *device = g_ptr_array_index (self->devices, i);

      if (strcmp (device->address, address) == 0)
        return device;
    }

  return NULL;
}

const NearbyObjectDevice *
nearby_object_lookup_device (NearbyObject *self,
                             const char   *address)
{
  g_return_val_if_fail (NEARBY_IS_OBJECT (self), NULL);
  g_return_val_if_fail (address != NULL, NULL);

  return find_device (self, address);
}

/* The @index-th sample, oldest first. */
static NearbyObjectSample *
sample_at (NearbyObject *self,
           guint         index)
{
  return &self->samples[(self->samples_start + index) % self->samples_capacity];
}

GArray *
nearby_object_dup_samples (NearbyObject *self)
{
  GArray *samples;
  gint64 newest;

  g_return_val_if_fail (NEARBY_IS_OBJECT (self), NULL);

  samples = g_array_sized_new (FALSE, FALSE, sizeof (NearbyObjectSample), self->samples_len);
  if (self->samples_len == 0)
    return samples;

  newest = sample_at (self, self->samples_len - 1)->time_us;
  for (guint i = 0; i < self->samples_len; i++)
    {
      const NearbyObjectSample *sample = sample_at (self, i);

      if (newest - sample->time_us <= NEARBY_OBJECT_HISTORY_US)
        g_array_append_vals (samples, sample, 1);
    }

  return samples;
}

static void
push_sample (NearbyObject *self,
             gint64        time_us,
             double        rssi,
             double        distance)
{
  NearbyObjectSample *sample;

  if (self->samples_len == self->samples_capacity && self->samples_capacity < SAMPLE_CAPACITY)
    {
      guint capacity = self->samples_capacity == 0
                       ? SAMPLE_INITIAL_CAPACITY
                       : MIN (self->samples_capacity * 2, SAMPLE_CAPACITY);
      NearbyObjectSample *samples = g_new (NearbyObjectSample, capacity);

      for (guint i = 0; i < self->samples_len; i++)
        samples[i] = *sample_at (self, i);
      g_free (self->samples);
      self->samples = samples;
      self->samples_capacity = capacity;
      self->samples_start = 0;
    }

  if (self->samples_len == self->samples_capacity)
    {
      self->samples_start = (self->samples_start + 1) % self->samples_capacity;
      self->samples_len--;
    }

  sample = sample_at (self, self->samples_len);
  sample->time_us = time_us;
  sample->rssi = rssi;
  sample->distance = distance;
  self->samples_len++;
}

static void
add_device (NearbyObject       *self,
            NearbyObjectDevice *device)
{
  g_ptr_array_add (self->devices, device);

  if (self->devices_by_address != NULL)
    {
      g_hash_table_insert (self->devices_by_address, device->address, device);
    }
  else if (self->devices->len >= DEVICES_INDEXED_FROM)
    {
      self->devices_by_address = g_hash_table_new (g_str_hash, g_str_equal);
      for (guint i = 0; i < self->devices->len; i++)
        {
          NearbyObjectDevice *indexed = g_ptr_array_index (self->devices, i);

          g_hash_table_insert (self->devices_by_address, indexed->address, indexed);
        }
    }
}

static void
unindex_device (NearbyObject             *self,
                const NearbyObjectDevice *device)
{
  if (self->devices_by_address != NULL)
    g_hash_table_remove (self->devices_by_address, device->address);
}

static NearbyObjectDevice *
steal_device (NearbyObject *self,
              const char   *address)
{
  NearbyObjectDevice *device = find_device (self, address);

  if (device == NULL)
    return NULL;

  unindex_device (self, device);
  for (guint i = 0; i < self->devices->len; i++)
    {
      if (g_ptr_array_index (self->devices, i) == device)
        {
          g_ptr_array_steal_index (self->devices, i);
          break;
        }
    }

  return device;
}

/* iBeacons state their power at 1 m, the others at 0 m; the model loses 41 dB over the first
 * metre. */
static int
calibrated_power_at_0m (const NearbyFrame *frame)
{
  if (!frame->tx_power_known)
    return NEARBY_RSSI_UNKNOWN;
  if (frame->kind == NEARBY_FRAME_KIND_IBEACON)
    return frame->tx_power + 41;
  return frame->tx_power;
}

void
nearby_object_add_sighting (NearbyObject               *self,
                            const NearbySighting       *sighting,
                            const NearbyDistanceConfig *config)
{
  NearbyObjectDevice *device;
  const NearbyFrame *frame = &sighting->frame;

  g_return_if_fail (NEARBY_IS_OBJECT (self));
  g_return_if_fail (sighting != NULL && sighting->address != NULL);

  device = find_device (self, sighting->address);
  if (device == NULL)
    {
      device = g_new0 (NearbyObjectDevice, 1);
      device->address = g_strdup (sighting->address);
      device->first_seen_us = sighting->time_us;
      nearby_rssi_filter_init (&device->filter, config);
      nearby_rank_filter_init (&device->rank_filter, config);
      add_device (self, device);
    }

  if (frame->kind > NEARBY_FRAME_KIND_NONE && frame->kind < NEARBY_FRAME_N_KINDS)
    {
      NearbyDeviceFrame *slot = device->frames[frame->kind];

      if (slot == NULL)
        slot = device->frames[frame->kind] = g_new (NearbyDeviceFrame, 1);
      slot->frame = *frame;
      /* A source may hand over no bytes (or, buggy, a length past the buffer): keep none then. */
      slot->raw_len = sighting->raw_len <= sizeof slot->raw ? sighting->raw_len : 0;
      memcpy (slot->raw, sighting->raw, slot->raw_len);
    }

  device->last_seen_us = MAX (device->last_seen_us, sighting->time_us);
  device->config_offer |= sighting->config_offer;
  nearby_rssi_filter_update (&device->filter, sighting->time_us, sighting->rssi,
                             calibrated_power_at_0m (frame));
  nearby_rank_filter_update (&device->rank_filter, sighting->time_us, sighting->rssi);

  if (self->first_seen_us == 0)
    self->first_seen_us = sighting->time_us;
  self->last_seen_us = MAX (self->last_seen_us, sighting->time_us);
}

void
nearby_object_move_device (NearbyObject *self,
                           const char   *address,
                           NearbyObject *target)
{
  NearbyObjectDevice *device;

  g_return_if_fail (NEARBY_IS_OBJECT (self));
  g_return_if_fail (NEARBY_IS_OBJECT (target));
  g_return_if_fail (address != NULL);

  if (self == target)
    return;

  device = steal_device (self, address);
  if (device == NULL)
    return;

  add_device (target, device);
  if (target->first_seen_us == 0 || device->first_seen_us < target->first_seen_us)
    target->first_seen_us = device->first_seen_us;
  target->last_seen_us = MAX (target->last_seen_us, device->last_seen_us);
}

/* What is shown (and notified) moves in steps, so that a label does not flicker between 1.2 and
 * 1.3 m four times a second; the samples for the graph keep every value. */
#define SHOWN_DISTANCE_STEP 0.05  /* relative */
#define SHOWN_RSSI_STEP     0.5   /* dB */

static gboolean
distance_moved (double shown,
                double distance)
{
  if ((shown < 0) != (distance < 0))
    return TRUE;
  if (distance < 0)
    return FALSE;
  return fabs (distance - shown) > shown * SHOWN_DISTANCE_STEP;
}

/* TRUE when @a is a better "nearest device" than @b. */
static gboolean
device_is_nearer (const NearbyObjectDevice *a,
                  const NearbyObjectDevice *b)
{
  double distance_a = nearby_rssi_filter_get_distance (&a->filter);
  double distance_b = nearby_rssi_filter_get_distance (&b->filter);

  if (distance_a >= 0 && distance_b >= 0)
    return distance_a < distance_b;
  if (distance_a >= 0 || distance_b >= 0)
    return distance_a >= 0;

  return nearby_rssi_filter_get_rssi (&a->filter) > nearby_rssi_filter_get_rssi (&b->filter);
}

/* @settled: the smoothed distance is an average of enough adverts to anchor the ranking. Before,
 * the ranking follows it freely: an anchor taken from the first advert or two would be off by as
 * much as the noise, and every later correction past RANK_DISTANCE_FACTOR would move the row. */
static void
update_rank_distance (NearbyObject *self,
                      gboolean      settled)
{
  if (self->distance < 0)
    {
      if (self->rank_distance >= 0)
        {
          self->rank_distance = -1.0;
          self->rank_changed = TRUE;
        }
      return;
    }

  if (self->rank_distance < 0
      || (!settled && self->distance != self->rank_distance)
      || self->distance > self->rank_distance * RANK_DISTANCE_FACTOR
      || self->distance < self->rank_distance / RANK_DISTANCE_FACTOR)
    {
      self->rank_distance = self->distance;
      self->rank_changed = TRUE;
    }
}

/* The calm ranking: the row's place comes from the anchor of the nearest device's rank filter,
 * which moves only when a change of level is certain (see nearby-distance.h). The bucket is taken
 * from the same level at the plain boundaries: the anchor holds still on noise already, and a
 * hysteresis on top would leave a row in a farther section than a nearer row after it. */
static void
update_calm_rank (NearbyObject             *self,
                  const NearbyObjectDevice *nearest)
{
  const NearbyRankFilter *filter = &nearest->rank_filter;
  int tx_power = nearest->filter.tx_power_0m;
  double anchor = nearby_rank_filter_get_anchor (filter);
  double distance;
  NearbyBucket bucket;

  if (!nearby_rank_filter_has_value (filter) || anchor == self->rank_rssi)
    return;

  self->rank_rssi = anchor;
  self->rank_changed = TRUE;

  /* The estimate takes whole dB (and says when the power is unknown); the fraction goes back in
   * after, so that two anchors a fraction of a dB apart still rank in order. */
  distance = nearby_distance_estimate (tx_power, (int) lround (anchor),
                                       filter->config.path_loss_exponent);
  if (distance >= 0)
    distance *= pow (10.0, (lround (anchor) - anchor) / (10.0 * filter->config.path_loss_exponent));
  self->rank_distance = distance >= 0 ? distance : -1.0;

  bucket = nearby_distance_bucket (&filter->config, tx_power, anchor, NEARBY_BUCKET_UNKNOWN);
  if (self->bucket != bucket)
    {
      self->bucket = bucket;
      _nearby_object_notify (self, PROP_BUCKET);
    }
}

void
_nearby_object_set_calm_ranking (NearbyObject *self,
                                 gboolean      calm)
{
  self->calm_ranking = calm;
}

gboolean
nearby_object_refresh (NearbyObject *self,
                       gint64        now_us,
                       gint64        stale_after_us,
                       gint64        forget_after_us,
                       GPtrArray    *forgotten)
{
  const NearbyObjectDevice *nearest = NULL;
  gboolean any_url = FALSE;
  gboolean all_invisible = TRUE;
  gboolean invisible;
  gboolean stale;
  gboolean rank_changed;
  gint64 last_sample_us = 0;

  g_return_val_if_fail (NEARBY_IS_OBJECT (self), FALSE);

  for (guint i = self->devices->len; i-- > 0;)
    {
      NearbyObjectDevice *device = g_ptr_array_index (self->devices, i);

      if (now_us - device->last_seen_us <= forget_after_us)
        continue;

      if (forgotten != NULL)
        g_ptr_array_add (forgotten, g_strdup (device->address));
      unindex_device (self, device);
      g_ptr_array_remove_index (self->devices, i);
    }

  for (guint i = 0; i < self->devices->len; i++)
    {
      const NearbyObjectDevice *device = g_ptr_array_index (self->devices, i);

      if (device->frames[NEARBY_FRAME_KIND_URL] != NULL)
        {
          any_url = TRUE;
          if (!device->frames[NEARBY_FRAME_KIND_URL]->frame.invisible)
            all_invisible = FALSE;
        }

      /* A device gone quiet says nothing about where the object is now. */
      if (!nearby_rssi_filter_has_value (&device->filter)
          || now_us - device->last_seen_us > stale_after_us)
        continue;

      if (nearest == NULL || device_is_nearer (device, nearest))
        nearest = device;
    }

  g_object_freeze_notify (G_OBJECT (self));

  if (nearest != NULL)
    {
      double distance = nearby_rssi_filter_get_distance (&nearest->filter);
      double rssi = nearby_rssi_filter_get_rssi (&nearest->filter);
      NearbyBucket bucket = nearby_rssi_filter_get_bucket (&nearest->filter);
      int tx_power = nearest->filter.tx_power_0m;

      if (tx_power < NEARBY_TX_POWER_MIN || tx_power > NEARBY_TX_POWER_MAX)
        tx_power = NEARBY_RSSI_UNKNOWN;
      if (distance < 0)
        distance = -1.0;

      if (distance_moved (self->distance, distance))
        {
          self->distance = distance;
          _nearby_object_notify (self, PROP_DISTANCE);
        }
      if (fabs (self->rssi - rssi) >= SHOWN_RSSI_STEP)
        {
          self->rssi = rssi;
          _nearby_object_notify (self, PROP_RSSI);
        }
      if (!self->calm_ranking && self->bucket != bucket)
        {
          self->bucket = bucket;
          self->rank_changed = TRUE;
          _nearby_object_notify (self, PROP_BUCKET);
        }
      if (self->tx_power != tx_power)
        {
          self->tx_power = tx_power;
          _nearby_object_notify (self, PROP_TX_POWER);
        }
      if (self->calm_ranking)
        update_calm_rank (self, nearest);
      else
        update_rank_distance (self, nearby_rssi_filter_is_settled (&nearest->filter));

      if (self->samples_len > 0)
        last_sample_us = sample_at (self, self->samples_len - 1)->time_us;
      if (self->samples_len == 0 || self->last_seen_us > last_sample_us)
        push_sample (self, self->last_seen_us, rssi, distance);
    }

  /* A device that stopped sending the URL frame keeps its last one, so this only changes when
   * the beacon really changes its flags. */
  invisible = any_url && all_invisible;
  if (self->invisible != invisible)
    {
      self->invisible = invisible;
      _nearby_object_notify (self, PROP_INVISIBLE);
    }

  stale = now_us - self->last_seen_us > stale_after_us;
  if (self->stale != stale)
    {
      self->stale = stale;
      _nearby_object_notify (self, PROP_STALE);
    }

  /* Sightings only move these forward; announcing them here keeps notifications to one per tick. */
  if (self->notified_last_seen_us != self->last_seen_us)
    {
      self->notified_last_seen_us = self->last_seen_us;
      _nearby_object_notify (self, PROP_LAST_SEEN);
    }
  if (self->notified_first_seen_us != self->first_seen_us)
    {
      self->notified_first_seen_us = self->first_seen_us;
      _nearby_object_notify (self, PROP_FIRST_SEEN);
    }

  g_object_thaw_notify (G_OBJECT (self));

  rank_changed = self->rank_changed;
  self->rank_changed = FALSE;
  return rank_changed;
}

void
nearby_object_set_distance_config (NearbyObject               *self,
                                   const NearbyDistanceConfig *config)
{
  g_return_if_fail (NEARBY_IS_OBJECT (self));
  g_return_if_fail (config != NULL);

  for (guint i = 0; i < self->devices->len; i++)
    {
      NearbyObjectDevice *device = g_ptr_array_index (self->devices, i);

      device->filter.config = *config;
      device->rank_filter.config = *config;
      device->filter.bucket = nearby_distance_bucket (config, device->filter.tx_power_0m,
                                                      nearby_rssi_filter_get_rssi (&device->filter),
                                                      NEARBY_BUCKET_UNKNOWN);
    }

  /* The calm ranking's distance and bucket in the new model: taken afresh at the next refresh. */
  if (self->calm_ranking)
    {
      self->rank_rssi = NEARBY_RSSI_UNKNOWN;
      self->bucket = NEARBY_BUCKET_UNKNOWN;
    }
}

