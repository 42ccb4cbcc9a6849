/* list-calm-traces.h: beacons in real radio noise, and what a NearbyObjectList shows of them
 *
 * A fixed-seed simulation of BLE adverts as a scanner receives them indoors: path loss from the
 * calibrated power at 0 m, log-normal shadowing and Rician fast fading on every advert, missed
 * adverts, 1-10 Hz advertising with the advertiser's random delay, and some beacons whose
 * adverts arrive in bursts. A scenario places beacons and moves the person among them; the
 * sightings go through a real NearbyObjectList on a fake clock, ticking every 250 ms, and what
 * the list shows is measured: how often its order changes, how soon the beacon walked up to is
 * the top row, and which beacons are at the top in turn.
 *
 * Shared by test-list-calm (the targets) and bench-list-calm (the figures, before and after).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "nearby-distance.h"

G_BEGIN_DECLS

typedef enum {
  CALM_STILL,       /* standing among N beacons at 0.5-15 m */
  CALM_WALK_UP,     /* walking at 1 m/s from 8 m to 1 m of one beacon, among N others */
  CALM_WALK_PAST,   /* walking at 1 m/s along a row of N beacons 4 m apart, 1 m off the path */
  CALM_SILENT,      /* standing; the nearest of N goes silent for 20 s and comes back */
  CALM_TWINS,       /* standing; two of N beacons at the same 3 m */
} CalmKind;

typedef struct {
  const char *name;
  CalmKind    kind;
  guint       n_beacons;
  double      sigma_db;    /* log-normal shadowing */
  guint32     seed;
  /* The advertising rate of the beacons walked to or past (walk-up, walk-past), or of the one
   * that goes silent; 0: drawn from 1, 2, 5 and 10 Hz as for the others. */
  double      rate_hz;
  /* The beacon walked up to (walk-up): its adverts in bursts of three (at the same average rate),
   * and the share of its adverts missed; FALSE and 0: drawn as for the others (one in five
   * bursting, 10-40 % missed). */
  gboolean    bursts;
  double      loss;
} CalmScenario;

#define CALM_MAX_TOPS 64

typedef struct {
  double   measured_s;          /* from the end of the first 10 s (arrival) to the end */
  guint    n_reorders;          /* rankings that changed the order of rows shown before and after */
  double   reorders_per_minute;
  /* Pairs of rows shown before and after a ranking that it put the other way round, summed: a
   * reorder that moves one row past one other counts 1, one that shuffles ten still rows more. */
  guint    n_swapped_pairs;
  double   swapped_pairs_per_minute;
  /* CALM_WALK_UP: from when the beacon is really the nearest (for good) to when it is the top
   * row (for good); CALM_SILENT: from its return to when it is the top row again. Negative:
   * never. */
  double   time_to_top_s;
  /* CALM_WALK_PAST: the beacons at the top, in turn (repeats folded), from the start of the
   * walk; in_order: exactly 0, 1, ..., N-1. */
  guint    tops[CALM_MAX_TOPS];
  double   tops_s[CALM_MAX_TOPS];   /* when each came to the top, from the start of the walk */
  guint    n_tops;
  gboolean tops_in_order;
  guint64  n_sightings;
  /* Ticks at which a row was in a farther section ("Nearby" after "Right here") than a row the
   * ranking put farther away. */
  guint    n_section_inversions;
  /* CALM_WALK_UP, what the adverts themselves say: how many of the beacon walked up to arrived
   * in the time calm_top_bound_s() allows after it became the nearest, and how sure a test that knew every true level
   * before then could be from them that it is now above the beacon that was the nearest (the
   * mean of the true gaps at those adverts over the noise's standard error: z, in standard
   * deviations); the noise as received (shadowing, fading, whole dB), measured. */
  guint    oracle_n;
  double   oracle_z;
  /* The same from the adverts as they were received (their mean over the previous nearest's true
   * level): what those adverts could tell even a test that knew everything else. */
  double   oracle_received_z;
  double   noise_db;
  /* CALM_WALK_PAST, the same for each hand-over from row k - 1 to row k (k = 1 ... N - 1): the
   * adverts of row k from when it became the nearest to calm_top_bound_s() later or to when it
   * stopped being the nearest, whichever is first, against the true level of row k - 1. The
   * weakest hand-over decides whether the adverts could tell the whole walk in order: the fewest
   * (and most) adverts and the least z of each kind over the hand-overs, and how many hand-overs
   * reach CALM_DECIDABLE_Z as received. */
  guint    n_handovers;
  guint    handover_min_n;
  guint    handover_max_n;
  double   handover_min_z;
  double   handover_min_received_z;
  guint    n_handovers_decidable;
} CalmResult;

/* The scenarios the targets are set on. */
const CalmScenario *calm_scenarios   (guint              *n_scenarios);

/* Runs @scenario through a new list; @calm_ranking FALSE ranks as Nearby 0.x did. @config,
 * when not NULL, replaces the list's distance settings (to try other tunings). */
void                calm_run         (const CalmScenario         *scenario,
                                      gboolean                    calm_ranking,
                                      const NearbyDistanceConfig *config,
                                      CalmResult                 *result);

/* The longest the beacon walked up to may take to be the top row after it is the nearest: 3 s
 * for a beacon that advertises 5 times a second or more, and for a slower one the time it takes
 * to send as many adverts, 3 s x 5 / rate (2 Hz: 7.5 s, 1 Hz: 15 s). Fewer adverts cannot tell a
 * walk from noise without moving the rows of still beacons more than once a minute. */
double              calm_top_bound_s (double              rate_hz);

/* How far above the previous nearest (in standard errors) the adverts of the beacon walked up to,
 * as received in the time calm_top_bound_s() allows, must put it for any ranking to move it to
 * the top without also moving still rows more than once a minute: among 50 beacons a test that
 * decides every 3 s may be wrong about a still one once in about 1 000 decisions. Below it the
 * fixed seed's adverts do not say that the beacon is the nearest (oracle_received_z). */
#define CALM_DECIDABLE_Z 3.1

/* How long each beacon of the row is the nearest in a walk past (4 s): the order is a target
 * where that is longer than calm_top_bound_s() (beacons of 5 Hz or more). */
double              calm_walk_past_nearest_s (void);

/* "0 1 2 3", for messages. */
char               *calm_format_tops (const CalmResult   *result);
/* "0@0.0 1@4.8 2@9.0", the time each came to the top, from the start of the walk. */
char               *calm_format_tops_timed (const CalmResult *result);

G_END_DECLS
