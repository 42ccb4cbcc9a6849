/* nearby-distance.h: how far away a beacon seems
 *
 * Pure: no GLib, no I/O. Times are in microseconds from any monotonic origin.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define NEARBY_PATH_LOSS_DEFAULT 2.0

/* Metres from the calibrated power at 0 m and a received RSSI:
 * d = 10^((tx0 - 41 - rssi) / (10 n)). Returns a negative number when either input is unknown
 * (tx outside -100..+20, RSSI 127 or 0, or n not positive). */
double nearby_distance_estimate (int    tx_power_0m,
                                 int    rssi,
                                 double path_loss_exponent);

/* The other way round: the RSSI the model expects @metres away, tx0 - 41 - 10 n log10(d), for
 * simulated beacons and tests. NAN unless @metres and @path_loss_exponent are positive. */
double nearby_distance_expected_rssi (int    tx_power_0m,
                                      double metres,
                                      double path_loss_exponent);

/* True for an RSSI a radio can report: not BlueZ's 127 ("not available") nor the 0 it sets when
 * discovery stops, and within -127..+20 dBm. */
bool   nearby_rssi_is_known     (int    rssi);

/* What a person reads in the list, nearest first. The values are stable. */
typedef enum {
  NEARBY_BUCKET_UNKNOWN = 0,  /* no usable RSSI, or no calibrated power */
  NEARBY_BUCKET_IMMEDIATE,    /* "Right here": within reach */
  NEARBY_BUCKET_NEAR,         /* "Nearby": in the same room */
  NEARBY_BUCKET_FAR,          /* "Farther away" */
} NearbyBucket;

const char *nearby_bucket_to_string (NearbyBucket bucket);

typedef struct {
  /* n in the path-loss model: 2 in free space, 2.5-4 indoors with people and furniture. */
  double  path_loss_exponent;
  /* Bucket boundaries in metres (at the model's n). */
  double  immediate_m;
  double  near_m;
  /* A bucket is left only when the path loss (calibrated power minus smoothed RSSI) is this many
   * dB past the boundary, on either side: a value sitting on a boundary keeps its bucket. */
  double  hysteresis_db;
  /* Time constants of the two averages. The slow one is what is shown; the fast one detects a
   * steady change (walking up to the object) so that the shown value does not lag behind it. */
  int64_t slow_tau_us;
  int64_t fast_tau_us;
  /* ...but each spans at least this many samples, for beacons that speak once a second. */
  int     slow_min_samples;
  int     fast_min_samples;
  /* How far (dB) and for how many consecutive samples the fast average must lead the slow one
   * before the slow one jumps to it. Rises are trusted sooner than falls: a deep fade (a body
   * between the beacon and the radio) looks like a fall, never like a rise. */
  double  catch_up_db;
  int     rise_samples;
  int     fall_samples;
  /* After a silence this long the old average says nothing about now: start again. */
  int64_t reset_gap_us;
  /* The ranking's filter (NearbyRankFilter): how fast the trend of the signal may change, in
   * dB/s per second (a person walking up at 1 m/s changes it by 8.7 v^2/d^2); the noise of one
   * advert assumed before any is measured (dB); the smallest change of level the ranking looks
   * for (dB); and how much evidence of it moves the row (a CUSUM threshold, in nats: the row of
   * a still beacon moves on noise about once in e^evidence adverts). */
  double  rank_trend_change_db;
  double  rank_initial_noise_db;
  double  rank_change_db;
  double  rank_evidence;
} NearbyDistanceConfig;

/* Immediate below 1 m, near below 6 m, hysteresis 3 dB (so "Right here" is entered below about
 * 0.7 m and left beyond 1.4 m at n = 2), averages of 3 s and 0.5 s spanning at least 11 and 3
 * samples, catch-up after 3 rising or 8 falling samples 3 dB apart, reset after 8 s of silence;
 * for the calm ranking, a trend that changes by 1 dB/s per second, 6 dB of noise assumed at
 * first, and changes of 9 dB looked for with 14 nats of evidence (bench-list-calm's figures). */
void nearby_distance_config_init (NearbyDistanceConfig *config);

/* The bucket for a smoothed RSSI, given the bucket it was in before (for hysteresis).
 * NEARBY_BUCKET_UNKNOWN as @previous means "no history": the plain boundaries apply. */
NearbyBucket nearby_distance_bucket (const NearbyDistanceConfig *config,
                                     int                         tx_power_0m,
                                     double                      smoothed_rssi,
                                     NearbyBucket                previous);

/* The smoothing state of one device. The caller owns it (it can live inside another struct);
 * initialise it with nearby_rssi_filter_init(). */
typedef struct {
  NearbyDistanceConfig config;
  bool         has_value;
  double       slow_rssi;
  double       fast_rssi;
  int64_t      last_time_us;
  int          n_samples;    /* since the last reset (counting stops at a large number) */
  int          rise_run;
  int          fall_run;
  int          tracking;     /* +1 or -1 while following a steady rise or fall */
  int          tx_power_0m;  /* the last calibrated power given, or out of range if none */
  NearbyBucket bucket;
} NearbyRssiFilter;

/* @config may be NULL for the defaults; it is copied. */
void         nearby_rssi_filter_init         (NearbyRssiFilter           *filter,
                                              const NearbyDistanceConfig *config);
void         nearby_rssi_filter_reset        (NearbyRssiFilter           *filter);

/* Adds one sample. An unknown RSSI is ignored (returns false) and leaves the state as it was.
 * An unknown @tx_power_0m keeps the last known one: a beacon rotating URL and TLM frames only
 * states its power in some of them. Samples out of time order count as simultaneous. */
bool         nearby_rssi_filter_update       (NearbyRssiFilter           *filter,
                                              int64_t                     time_us,
                                              int                         rssi,
                                              int                         tx_power_0m);

bool         nearby_rssi_filter_has_value    (const NearbyRssiFilter     *filter);
/* True once the slow average spans its minimum number of samples since the last reset: before,
 * the smoothed value is the mean of a few samples, and any one of them may be several dB off. */
bool         nearby_rssi_filter_is_settled   (const NearbyRssiFilter     *filter);
/* The smoothed RSSI in dBm, or 127 ("unknown") before the first sample. */
double       nearby_rssi_filter_get_rssi     (const NearbyRssiFilter     *filter);
/* Metres from the smoothed RSSI, or a negative number when unknown. */
double       nearby_rssi_filter_get_distance (const NearbyRssiFilter     *filter);
NearbyBucket nearby_rssi_filter_get_bucket   (const NearbyRssiFilter     *filter);

/* The signal as the ranking sees it. A Kalman filter of the RSSI's level and trend (dB and dB/s)
 * measures each beacon's own noise as it goes; the level the ranking uses (the anchor) moves only
 * when a two-sided CUSUM test on the adverts finds that the signal has left its level since the
 * last change by at least the config's rank_change_db, with the config's evidence (the level it
 * tests against is the mean of the adverts since that change, which comes to the true level
 * where the anchor may stay a little off): a still beacon's row holds its place for
 * hours, and a clear change (someone walking up) is found in a few adverts, more for a noisier
 * or rarer beacon. Once found, the anchor follows the change (the mean of the last second or
 * so, only onwards in the change's direction unless the signal clearly turns) for as long as the
 * signal goes on moving, so that a walk is followed step by step, then holds again. The caller
 * owns it; initialise it with nearby_rank_filter_init(). */
#define NEARBY_RANK_RECENT_MAX 32

typedef struct {
  NearbyDistanceConfig config;
  bool     has_value;
  double   level;         /* dBm */
  double   trend;         /* dB/s */
  double   p[2][2];       /* covariance of (level, trend) */
  double   noise_var;     /* of one advert around the level, measured (dB^2) */
  int64_t  last_time_us;
  int      n_samples;
  /* The CUSUM test, up and down, against a reference level (the mean of the adverts since the
   * last change), with the mean of the adverts since each sum last left zero (where the change
   * began). */
  double   anchor;        /* dBm */
  double   reference;     /* dBm */
  int      reference_n;   /* the adverts it stands for */
  double   up, down;
  double   up_sum, down_sum;
  int      up_n, down_n;
  /* The adverts of the last 2 s (at most NEARBY_RANK_RECENT_MAX of them), oldest first from
   * recent_first in a ring, and their sum. */
  int64_t  recent_time_us[NEARBY_RANK_RECENT_MAX];
  float    recent_rssi[NEARBY_RANK_RECENT_MAX];
  int      recent_first, recent_n;
  double   recent_sum;
  /* After a change is found: +1 or -1 while the anchor follows the signal up or down, until
   * following_until_us at least; 0 while it holds. */
  int      following;
  int64_t  following_until_us;
  /* The way the last following went, until continuing_until_us: a change that way is found
   * with less. */
  int      continuing;
  int64_t  continuing_until_us;
} NearbyRankFilter;

/* @config may be NULL for the defaults; it is copied. */
void   nearby_rank_filter_init       (NearbyRankFilter           *filter,
                                      const NearbyDistanceConfig *config);
void   nearby_rank_filter_reset      (NearbyRankFilter           *filter);
/* Adds one sample. An unknown RSSI is ignored (returns false). Samples out of time order count
 * as simultaneous; after the config's reset gap of silence the filter starts again, but a beacon
 * heard for more than its first few adverts keeps its anchor and the test's reference. */
bool   nearby_rank_filter_update     (NearbyRankFilter           *filter,
                                      int64_t                     time_us,
                                      int                         rssi);
bool   nearby_rank_filter_has_value  (const NearbyRankFilter     *filter);
/* The filtered level (dBm), or 127 before the first sample. */
double nearby_rank_filter_get_rssi   (const NearbyRankFilter     *filter);
/* How many first adverts a new beacon's level is the mean of. */
#define NEARBY_RANK_SETTLING_SAMPLES 8
/* The level the ranking uses (dBm), or 127 before the first sample: the mean of the first
 * NEARBY_RANK_SETTLING_SAMPLES adverts (taken at the 1st, 2nd, 4th and 8th), then fixed until
 * the test finds a change. */
double nearby_rank_filter_get_anchor (const NearbyRankFilter     *filter);

#ifdef __cplusplus
}
#endif
