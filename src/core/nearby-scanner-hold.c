/* nearby-scanner-hold.c: adverts of still beacons held back while they say nothing new
 *
 * A beacon that stays where it is sends the same frame at about the same RSSI, once or ten times
 * a second. Passed on, each advert wakes the main loop and the list for nothing a person would
 * see. With hold-steady on, a device's advert is passed on only when it says something new: a
 * frame whose bytes or kind changed, an RSSI more than HOLD_STEP_DB above the lowest heard since
 * the last advert passed on (the beacon came nearer) or below that advert's (it went away), or
 * any advert once the hold has run out since then, or nearly (HOLD_GATHER_SHARE). The hold is at
 * most HOLD_MAX_MS and at most HOLD_SHARE of the list's stale and expiry times, so that a held
 * beacon is heard often enough never to fade or expire in the list.
 *
 * The list's calm ranking moves a row on the evidence of several adverts at its new level, not
 * of one: nothing of a device is held until it has passed on the adverts a new row is placed on
 * (NEARBY_RANK_SETTLING_SAMPLES), nor for HOLD_SETTLE_US after it was first heard or its RSSI
 * moved, so that a beacon walked up to or away from takes its place as promptly as before, and a
 * new one settles into the list in seconds rather than over eight holds.
 *
 * The frames are compared by nearby-scanner-devices.c, which keeps them; the RSSI and the times
 * of each device are kept here, under a mutex, since the sd-bus reader thread asks too
 * (nearby-scanner-sdbus.c): it drops the RSSI-only signals that are held before they reach the
 * main loop, and while all it reads is held it reads its socket once a hold ends rather than
 * whenever a beacon advertises again.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-scanner"

#include "config.h"

#include "nearby-distance.h"
#include "nearby-scanner-private.h"

#define HOLD_STEP_DB       3
#define HOLD_MAX_MS        6000
#define HOLD_SHARE         0.6
#define HOLD_SETTLE_US     (3 * G_TIME_SPAN_SECOND)
/* The longest the reader leaves its socket alone while it holds: a beacon that comes nearer is
 * passed on within this (plus a batch interval), not only at the end of the hold. */
#define HOLD_REST_MAX_US   (3 * G_TIME_SPAN_SECOND)
/* A held advert read in the last third of its hold is passed on then: the reader reads when the
 * first hold of several ends, and the still beacons it passes on together keep coming together,
 * one wakeup for all of them rather than one for each. */
#define HOLD_GATHER_SHARE  3

/* What NearbyObjectList's defaults are (10 s stale, 30 s expired). */
#define DEFAULT_STALE_MS   10000
#define DEFAULT_EXPIRY_MS  30000

/* Reference-counted: the reader thread may outlive the scanner. */
struct _NearbyScannerHold
{
  GMutex      mutex;
  gint64      hold_us;    /* 0: nothing is held */
  GHashTable *devices;    /* object path -> Held */
};

typedef struct {
  gint64 passed_us;       /* g_get_real_time() of the advert last passed on */
  int    passed_rssi;     /* its RSSI */
  int    lowest;          /* the lowest RSSI heard since */
  gint64 settle_until_us; /* nothing held before: first heard, or its RSSI moved */
  guint  n_passed;        /* adverts passed on since first heard, up to the settling ones */
} Held;

NearbyScannerHold *
_nearby_scanner_hold_new (void)
{
  NearbyScannerHold *hold = g_atomic_rc_box_new0 (NearbyScannerHold);

  g_mutex_init (&hold->mutex);
  hold->devices = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  return hold;
}

NearbyScannerHold *
_nearby_scanner_hold_ref (NearbyScannerHold *hold)
{
  return g_atomic_rc_box_acquire (hold);
}

static void
hold_clear (gpointer data)
{
  NearbyScannerHold *hold = data;

  g_mutex_clear (&hold->mutex);
  g_hash_table_unref (hold->devices);
}

void
_nearby_scanner_hold_unref (NearbyScannerHold *hold)
{
  g_atomic_rc_box_release_full (hold, hold_clear);
}

static gboolean
rssi_is_measured (int rssi)
{
  return rssi >= -127 && rssi <= 20;
}

gboolean
_nearby_scanner_hold_rssi (NearbyScannerHold *hold,
                           const char        *path,
                           gint64             time_us,
                           int                rssi)
{
  gboolean held = FALSE;
  Held *device;

  if (!rssi_is_measured (rssi))
    return FALSE;

  g_mutex_lock (&hold->mutex);
  device = g_hash_table_lookup (hold->devices, path);
  /* A clock set back is no reason to hold longer. */
  if (device == NULL || time_us < device->passed_us
      || time_us - device->passed_us >= hold->hold_us - hold->hold_us / HOLD_GATHER_SHARE)
    {
      held = FALSE;
    }
  else if (rssi > device->lowest + HOLD_STEP_DB || rssi < device->passed_rssi - HOLD_STEP_DB)
    {
      /* Also while it settles: a beacon walked up to just after it was first heard needs the
       * adverts at its new level as much as a beacon long heard. */
      device->settle_until_us = time_us + HOLD_SETTLE_US;
      held = FALSE;
    }
  else if (time_us < device->settle_until_us || device->n_passed < NEARBY_RANK_SETTLING_SAMPLES)
    {
      held = FALSE;
    }
  else
    {
      device->lowest = MIN (device->lowest, rssi);
      held = TRUE;
    }
  g_mutex_unlock (&hold->mutex);

  return held;
}

void
_nearby_scanner_hold_passed (NearbyScannerHold *hold,
                             const char        *path,
                             gint64             time_us,
                             int                rssi)
{
  Held *device;

  g_mutex_lock (&hold->mutex);
  if (hold->hold_us == 0 || !rssi_is_measured (rssi))
    {
      g_hash_table_remove (hold->devices, path);
    }
  else
    {
      device = g_hash_table_lookup (hold->devices, path);
      if (device == NULL)
        {
          device = g_new (Held, 1);
          device->settle_until_us = time_us + HOLD_SETTLE_US;
          device->n_passed = 0;
          g_hash_table_insert (hold->devices, g_strdup (path), device);
        }
      if (device->n_passed < NEARBY_RANK_SETTLING_SAMPLES)
        device->n_passed++;
      device->passed_us = time_us;
      device->passed_rssi = rssi;
      device->lowest = rssi;
    }
  g_mutex_unlock (&hold->mutex);
}

void
_nearby_scanner_hold_forget (NearbyScannerHold *hold,
                             const char        *path)
{
  g_mutex_lock (&hold->mutex);
  if (path != NULL)
    g_hash_table_remove (hold->devices, path);
  else
    g_hash_table_remove_all (hold->devices);
  g_mutex_unlock (&hold->mutex);
}

gint64
_nearby_scanner_hold_rest_us (NearbyScannerHold *hold)
{
  gint64 now = g_get_real_time ();
  gint64 rest = 0;
  GHashTableIter iter;
  Held *device;

  g_mutex_lock (&hold->mutex);
  g_hash_table_iter_init (&iter, hold->devices);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &device))
    {
      gint64 end = device->passed_us + hold->hold_us;

      if (end > now && now >= device->passed_us && (rest == 0 || end - now < rest))
        rest = end - now;
    }
  g_mutex_unlock (&hold->mutex);

  return MIN (rest, HOLD_REST_MAX_US);
}

/* The scanner's calls */

void
_nearby_scanner_hold_set_time (NearbyScannerHold *hold,
                               gint64             hold_us)
{
  g_mutex_lock (&hold->mutex);
  hold->hold_us = hold_us;
  /* What was held so far was measured against the old time; off, nothing is held. */
  g_hash_table_remove_all (hold->devices);
  g_mutex_unlock (&hold->mutex);
}

static void
update_hold_time (NearbyScanner *self)
{
  guint shortest = MIN (self->hold_stale_ms, self->hold_expiry_ms);
  guint hold_ms = self->hold_steady ? MIN (HOLD_MAX_MS, (guint) (shortest * HOLD_SHARE)) : 0;

  _nearby_scanner_hold_set_time (self->hold, (gint64) hold_ms * G_TIME_SPAN_MILLISECOND);
}

void
_nearby_scanner_hold_init (NearbyScanner *self)
{
  self->hold = _nearby_scanner_hold_new ();
  self->hold_stale_ms = DEFAULT_STALE_MS;
  self->hold_expiry_ms = DEFAULT_EXPIRY_MS;
}

void
nearby_scanner_set_hold_steady (NearbyScanner *self,
                                gboolean       hold_steady)
{
  g_return_if_fail (NEARBY_IS_SCANNER (self));

  hold_steady = !!hold_steady;
  if (self->hold_steady == hold_steady)
    return;

  g_debug ("Still beacons' adverts %s", hold_steady ? "held" : "all passed on");
  self->hold_steady = hold_steady;
  update_hold_time (self);
}

gboolean
nearby_scanner_get_hold_steady (NearbyScanner *self)
{
  g_return_val_if_fail (NEARBY_IS_SCANNER (self), FALSE);

  return self->hold_steady;
}

void
nearby_scanner_set_hold_timeouts (NearbyScanner *self,
                                  guint          stale_ms,
                                  guint          expiry_ms)
{
  g_return_if_fail (NEARBY_IS_SCANNER (self));

  if (self->hold_stale_ms == stale_ms && self->hold_expiry_ms == expiry_ms)
    return;

  self->hold_stale_ms = stale_ms;
  self->hold_expiry_ms = expiry_ms;
  update_hold_time (self);
}
