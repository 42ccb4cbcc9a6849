/* nearby-distance.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <math.h>

#include "nearby-distance.h"
#include "nearby-frame.h"

/* Received power is about 41 dB below the calibrated 0 m figure at 1 m (Eddystone spec). */
#define LOSS_AT_ONE_METRE 41

/* Sources sometimes stamp a batch of samples with one time: count each as a short step rather
 * than as no time at all, so none of them is thrown away. */
#define MIN_STEP_US 10000

#define RSSI_UNKNOWN 127

/* Past this many samples the plain mean weighs less than any average used here. */
#define MAX_COUNTED_SAMPLES 1000000

static bool
tx_power_is_known (int tx_power_0m)
{
  return tx_power_0m >= NEARBY_TX_POWER_MIN && tx_power_0m <= NEARBY_TX_POWER_MAX;
}

bool
nearby_rssi_is_known (int rssi)
{
  return rssi != RSSI_UNKNOWN && rssi != 0 && rssi >= -127 && rssi <= 20;
}

double
nearby_distance_estimate (int    tx_power_0m,
                          int    rssi,
                          double path_loss_exponent)
{
  if (!tx_power_is_known (tx_power_0m) || !nearby_rssi_is_known (rssi))
    return -1.0;
  if (!(path_loss_exponent > 0.0))
    return -1.0;

  return pow (10.0, (tx_power_0m - LOSS_AT_ONE_METRE - rssi) / (10.0 * path_loss_exponent));
}

/* The path loss (calibrated power minus RSSI) at which the model puts @metres. */
static double
path_loss_at (double metres,
              double path_loss_exponent)
{
  return LOSS_AT_ONE_METRE + 10.0 * path_loss_exponent * log10 (metres);
}

double
nearby_distance_expected_rssi (int    tx_power_0m,
                               double metres,
                               double path_loss_exponent)
{
  if (!(metres > 0.0) || !(path_loss_exponent > 0.0))
    return NAN;

  return tx_power_0m - path_loss_at (metres, path_loss_exponent);
}

const char *
nearby_bucket_to_string (NearbyBucket bucket)
{
  switch (bucket)
    {
    case NEARBY_BUCKET_IMMEDIATE:
      return "immediate";
    case NEARBY_BUCKET_NEAR:
      return "near";
    case NEARBY_BUCKET_FAR:
      return "far";
    case NEARBY_BUCKET_UNKNOWN:
    default:
      return "unknown";
    }
}

void
nearby_distance_config_init (NearbyDistanceConfig *config)
{
  config->path_loss_exponent = NEARBY_PATH_LOSS_DEFAULT;
  config->immediate_m = 1.0;
  config->near_m = 6.0;
  config->hysteresis_db = 3.0;
  config->slow_tau_us = 3000000;
  config->fast_tau_us = 500000;
  config->slow_min_samples = 11;
  config->fast_min_samples = 3;
  config->catch_up_db = 3.0;
  config->rise_samples = 3;
  config->fall_samples = 8;
  config->reset_gap_us = 8000000;
  config->rank_trend_change_db = 1.0;
  config->rank_initial_noise_db = 6.0;
  config->rank_change_db = 9.0;
  config->rank_evidence = 14.0;
}

static double
path_exponent (const NearbyDistanceConfig *config)
{
  return config->path_loss_exponent > 0.0 ? config->path_loss_exponent : NEARBY_PATH_LOSS_DEFAULT;
}

static double
loss_at (const NearbyDistanceConfig *config,
         double                      metres)
{
  return path_loss_at (metres, path_exponent (config));
}

static NearbyBucket
bucket_for_loss (const NearbyDistanceConfig *config,
                 double                      loss)
{
  if (loss < loss_at (config, config->immediate_m))
    return NEARBY_BUCKET_IMMEDIATE;
  if (loss < loss_at (config, config->near_m))
    return NEARBY_BUCKET_NEAR;
  return NEARBY_BUCKET_FAR;
}

NearbyBucket
nearby_distance_bucket (const NearbyDistanceConfig *config,
                        int                         tx_power_0m,
                        double                      smoothed_rssi,
                        NearbyBucket                previous)
{
  double loss;
  NearbyBucket plain;
  NearbyBucket candidate;

  if (!tx_power_is_known (tx_power_0m) || !isfinite (smoothed_rssi)
      || !nearby_rssi_is_known ((int) lround (smoothed_rssi)))
    return NEARBY_BUCKET_UNKNOWN;

  loss = tx_power_0m - smoothed_rssi;
  plain = bucket_for_loss (config, loss);
  if (previous == NEARBY_BUCKET_UNKNOWN || plain == previous)
    return plain;

  /* Moving out of @previous needs the loss to clear the boundary by the hysteresis: evaluate as
   * if the value were that much closer to where it came from. */
  if (plain < previous)
    {
      candidate = bucket_for_loss (config, loss + config->hysteresis_db);
      return candidate < previous ? candidate : previous;
    }

  candidate = bucket_for_loss (config, loss - config->hysteresis_db);
  return candidate > previous ? candidate : previous;
}

void
nearby_rssi_filter_init (NearbyRssiFilter           *filter,
                         const NearbyDistanceConfig *config)
{
  if (config != NULL)
    filter->config = *config;
  else
    nearby_distance_config_init (&filter->config);

  filter->tx_power_0m = RSSI_UNKNOWN;
  nearby_rssi_filter_reset (filter);
}

void
nearby_rssi_filter_reset (NearbyRssiFilter *filter)
{
  filter->has_value = false;
  filter->slow_rssi = RSSI_UNKNOWN;
  filter->fast_rssi = RSSI_UNKNOWN;
  filter->last_time_us = 0;
  filter->n_samples = 0;
  filter->rise_run = 0;
  filter->fall_run = 0;
  filter->tracking = 0;
  filter->bucket = NEARBY_BUCKET_UNKNOWN;
}

/* The weight of a new sample after @step_us: by time, so that a gap decays the old value, but
 * never more than an average over @min_samples would give it, so that a beacon speaking once a
 * second is still averaged over several adverts. */
static double
smoothing_factor (int64_t step_us,
                  int64_t tau_us,
                  int     min_samples)
{
  double by_time = tau_us > 0 ? 1.0 - exp (-(double) step_us / (double) tau_us) : 1.0;
  double by_count = min_samples > 1 ? 2.0 / (min_samples + 1) : 1.0;

  return by_time < by_count ? by_time : by_count;
}

bool
nearby_rssi_filter_update (NearbyRssiFilter *filter,
                           int64_t           time_us,
                           int               rssi,
                           int               tx_power_0m)
{
  const NearbyDistanceConfig *config = &filter->config;
  int64_t step_us;
  bool dropout;
  double slow_weight;
  double fast_weight;
  double previous_fast;

  if (!nearby_rssi_is_known (rssi))
    return false;

  if (tx_power_is_known (tx_power_0m))
    filter->tx_power_0m = tx_power_0m;

  if (!filter->has_value || time_us - filter->last_time_us > config->reset_gap_us)
    {
      nearby_rssi_filter_reset (filter);
      filter->has_value = true;
      filter->slow_rssi = rssi;
      filter->fast_rssi = rssi;
      filter->last_time_us = time_us;
      filter->n_samples = 1;
      filter->bucket = nearby_distance_bucket (config, filter->tx_power_0m, rssi,
                                               NEARBY_BUCKET_UNKNOWN);
      return true;
    }

  step_us = time_us - filter->last_time_us;
  if (step_us < MIN_STEP_US)
    step_us = MIN_STEP_US;
  if (time_us > filter->last_time_us)
    filter->last_time_us = time_us;

  /* After a dropout (a quarter of the reset gap) time alone decides how much the old value
   * still counts: it was seconds ago. */
  dropout = step_us >= config->reset_gap_us / 4;
  slow_weight = smoothing_factor (step_us, config->slow_tau_us,
                                  dropout ? 1 : config->slow_min_samples);
  fast_weight = smoothing_factor (step_us, config->fast_tau_us,
                                  dropout ? 1 : config->fast_min_samples);
  /* While an average has had fewer samples than its weight stands for, it is their plain mean:
   * an exponential average started from one sample would keep that sample's error for seconds,
   * and a first advert is often a few dB off. */
  if (filter->n_samples < MAX_COUNTED_SAMPLES)
    filter->n_samples++;
  if (1.0 / filter->n_samples > slow_weight)
    slow_weight = 1.0 / filter->n_samples;
  if (1.0 / filter->n_samples > fast_weight)
    fast_weight = 1.0 / filter->n_samples;
  previous_fast = filter->fast_rssi;
  filter->slow_rssi += slow_weight * (rssi - filter->slow_rssi);
  filter->fast_rssi += fast_weight * (rssi - filter->fast_rssi);

  /* After a catch-up the shown value stays with the fast one for as long as the change goes
   * on in the same direction: the person is still walking. */
  if (filter->tracking > 0 && filter->fast_rssi >= previous_fast)
    filter->slow_rssi = filter->fast_rssi;
  else if (filter->tracking < 0 && filter->fast_rssi <= previous_fast)
    filter->slow_rssi = filter->fast_rssi;
  else
    {
      filter->tracking = 0;

      if (filter->fast_rssi - filter->slow_rssi > config->catch_up_db)
        {
          filter->rise_run++;
          filter->fall_run = 0;
        }
      else if (filter->slow_rssi - filter->fast_rssi > config->catch_up_db)
        {
          filter->fall_run++;
          filter->rise_run = 0;
        }
      else
        {
          filter->rise_run = 0;
          filter->fall_run = 0;
        }

      /* A steady change, not noise: follow it now. */
      if (filter->rise_run >= config->rise_samples || filter->fall_run >= config->fall_samples)
        {
          filter->tracking = filter->rise_run > 0 ? 1 : -1;
          filter->slow_rssi = filter->fast_rssi;
          filter->rise_run = 0;
          filter->fall_run = 0;
        }
    }

  filter->bucket = nearby_distance_bucket (config, filter->tx_power_0m, filter->slow_rssi,
                                           filter->bucket);
  return true;
}

bool
nearby_rssi_filter_has_value (const NearbyRssiFilter *filter)
{
  return filter->has_value;
}

bool
nearby_rssi_filter_is_settled (const NearbyRssiFilter *filter)
{
  return filter->has_value && filter->n_samples >= filter->config.slow_min_samples;
}

double
nearby_rssi_filter_get_rssi (const NearbyRssiFilter *filter)
{
  return filter->has_value ? filter->slow_rssi : RSSI_UNKNOWN;
}

double
nearby_rssi_filter_get_distance (const NearbyRssiFilter *filter)
{
  const NearbyDistanceConfig *config = &filter->config;

  if (!filter->has_value || !tx_power_is_known (filter->tx_power_0m))
    return -1.0;

  return pow (10.0, (filter->tx_power_0m - LOSS_AT_ONE_METRE - filter->slow_rssi)
                    / (10.0 * path_exponent (config)));
}

NearbyBucket
nearby_rssi_filter_get_bucket (const NearbyRssiFilter *filter)
{
  return filter->bucket;
}

/* The ranking's filter.
 *
 * A local linear trend: the level moves by its trend, and the trend by a random walk of
 * rank_trend_change_db per second. Each advert's RSSI is the level plus noise of a variance
 * measured per beacon from the innovations (what an advert says beyond the prediction), so a
 * beacon in a noisy spot is smoothed more than one in the open. An innovation past 3 standard
 * deviations is clipped there: a deep fade or a body in the way is one advert, not a move. */

/* The anchor is the plain mean of the first adverts, over this many (a power of two)... */
#define RANK_SETTLING_SAMPLES NEARBY_RANK_SETTLING_SAMPLES
/* Innovations are clipped at this many standard deviations. */
#define RANK_CLIP_SIGMAS 3.0
/* The noise estimate is an average over about this many adverts... */
#define RANK_NOISE_SAMPLES 50
/* The prior noise counts as this many adverts: a beacon that seemed quiet over its first few
 * would make the change test trust every advert too much. */
#define RANK_NOISE_PRIOR_SAMPLES 10
/* ...and never below 1 dB: BlueZ reports whole dB. */
#define RANK_NOISE_MIN_VAR 1.0
/* Nor above 10 dB: a person walking makes innovations that are no noise, and a filter that took
 * them for noise would trust every advert less and lag further behind, and so on. */
#define RANK_NOISE_MAX_VAR 100.0
/* The change test's reference is the mean of the adverts since the last change, over at most
 * this many: it comes to the beacon's true level where the anchor, taken from the first few
 * adverts, may stay a few dB off, and a test against the anchor would in time take that error
 * for a change (most of the moves of still beacons were such corrections). */
#define RANK_REFERENCE_SAMPLES 50
/* After a change the reference starts where the anchor went, weighed as this many adverts: it
 * holds there while the signal goes on moving (someone still walking up), so that the test finds
 * the next step against it, and comes to the new level over a minute or two of a still beacon. */
#define RANK_REFERENCE_AFTER_CHANGE 100
/* Once a change is found the anchor follows the mean of the recent adverts (those of this last
 * span, behind a walk by half of it) for at least this long, and for as long as
 * the Kalman trend is this many of its standard deviations from none: a walk found at its first
 * step is followed to its end, where waiting for the test to find every step of it held the row
 * several seconds behind (a 10 Hz beacon walked up to with 8 dB of noise, on top within 3 s in
 * 7 of 16 runs; now 10 of 16). */
#define RANK_RECENT_US 2000000
#define RANK_FOLLOW_MIN_US 2000000
#define RANK_FOLLOW_TREND_SIGMAS 1.5
/* While following, the anchor goes only the change's way: the noise of the recent mean would
 * otherwise move it back and forth, and two rows crossing (walking past one beacon to the next)
 * would swap back and forth with it. Only a mean this many standard errors the other way turns
 * it (someone passing a beacon rather than stopping at it). */
#define RANK_FOLLOW_TURN_SIGMAS 3.0
/* For this long after following ends, the test finds a change the same way with less: a
 * fraction of the change and this much evidence. A person walking away from a beacon makes its
 * fall slow down (8.7 dB/s at 1 m, 1 dB/s at 9 m at 1 m/s), so following ends while the signal
 * still falls, a few dB above where it goes, and a row passed earlier came back above the one
 * passed last. Going on is likelier than turning, and a still beacon is seldom following
 * anything: standing still is as calm as before (walking past 5 Hz beacons at 4 / 6 / 8 dB in
 * order in 13 / 6 / 2 of 16 runs, 9 / 5 / 2 before; 10 Hz 15 / 14 / 11, 15 / 12 / 11 before). */
#define RANK_CONTINUE_US 10000000
#define RANK_CONTINUE_CHANGE 0.67
#define RANK_CONTINUE_EVIDENCE 8.0

void
nearby_rank_filter_init (NearbyRankFilter           *filter,
                         const NearbyDistanceConfig *config)
{
  if (config != NULL)
    filter->config = *config;
  else
    nearby_distance_config_init (&filter->config);

  nearby_rank_filter_reset (filter);
}

void
nearby_rank_filter_reset (NearbyRankFilter *filter)
{
  double noise = filter->config.rank_initial_noise_db;

  filter->has_value = false;
  filter->level = RSSI_UNKNOWN;
  filter->trend = 0.0;
  filter->p[0][0] = filter->p[0][1] = filter->p[1][0] = filter->p[1][1] = 0.0;
  filter->noise_var = noise * noise > RANK_NOISE_MIN_VAR ? noise * noise : RANK_NOISE_MIN_VAR;
  filter->last_time_us = 0;
  filter->n_samples = 0;
  filter->anchor = RSSI_UNKNOWN;
  filter->up = filter->down = 0.0;
  filter->up_sum = filter->down_sum = 0.0;
  filter->up_n = filter->down_n = 0;
  filter->reference = RSSI_UNKNOWN;
  filter->reference_n = 0;
  filter->recent_first = filter->recent_n = 0;
  filter->recent_sum = 0.0;
  filter->following = 0;
  filter->following_until_us = 0;
  filter->continuing = 0;
  filter->continuing_until_us = 0;
}

static void
add_recent (NearbyRankFilter *filter,
            int64_t           time_us,
            double            rssi)
{
  int last;

  while (filter->recent_n > 0
         && (filter->recent_n == NEARBY_RANK_RECENT_MAX
             || time_us - filter->recent_time_us[filter->recent_first] >= RANK_RECENT_US))
    {
      filter->recent_sum -= filter->recent_rssi[filter->recent_first];
      filter->recent_first = (filter->recent_first + 1) % NEARBY_RANK_RECENT_MAX;
      filter->recent_n--;
    }
  last = (filter->recent_first + filter->recent_n) % NEARBY_RANK_RECENT_MAX;
  filter->recent_time_us[last] = time_us;
  filter->recent_rssi[last] = (float) rssi;
  filter->recent_n++;
  /* Summed again from the adverts now and then: a running sum of floats drifts. */
  if (last == 0)
    {
      filter->recent_sum = 0.0;
      for (int i = 0; i < filter->recent_n; i++)
        filter->recent_sum += filter->recent_rssi[(filter->recent_first + i) % NEARBY_RANK_RECENT_MAX];
    }
  else
    filter->recent_sum += filter->recent_rssi[last];
}

static void
found_change (NearbyRankFilter *filter,
              int64_t           time_us,
              double            anchor)
{
  filter->following = anchor > filter->anchor ? 1 : -1;
  filter->following_until_us = time_us + RANK_FOLLOW_MIN_US;
  filter->anchor = anchor;
  filter->reference = anchor;
  filter->reference_n = RANK_REFERENCE_AFTER_CHANGE;
  filter->up = filter->down = 0.0;
  filter->up_sum = filter->down_sum = 0.0;
  filter->up_n = filter->down_n = 0;
}

/* The anchor follows a change found: onwards with the recent mean, back only when that is
 * clearly back; it holds again once the signal has held still for a while. */
static void
follow (NearbyRankFilter *filter,
        int64_t           time_us)
{
  double recent = filter->recent_sum / filter->recent_n;
  double error = sqrt (filter->noise_var / filter->recent_n);
  double trend_z = filter->p[1][1] > 0.0 ? filter->trend / sqrt (filter->p[1][1]) : 0.0;
  double ahead = (recent - filter->anchor) * filter->following;

  /* Turned: the trend the other way, or the recent mean clearly back. */
  if (trend_z * filter->following < -RANK_FOLLOW_TREND_SIGMAS
      || ahead < -RANK_FOLLOW_TURN_SIGMAS * error)
    {
      filter->following = -filter->following;
      ahead = -ahead;
    }
  if (ahead > 0.0)
    filter->anchor = recent;

  if (fabs (trend_z) > RANK_FOLLOW_TREND_SIGMAS
      && filter->following_until_us < time_us + RANK_FOLLOW_MIN_US / 2)
    filter->following_until_us = time_us + RANK_FOLLOW_MIN_US / 2;
  if (time_us < filter->following_until_us)
    return;

  /* Held still: the test looks for the next change from here. */
  filter->continuing = filter->following;
  filter->continuing_until_us = time_us + RANK_CONTINUE_US;
  filter->following = 0;
  filter->reference = filter->anchor;
  filter->reference_n = RANK_REFERENCE_AFTER_CHANGE;
}

/* The CUSUM test: each advert adds the log-likelihood ratio of "the level is rank_change_db
 * above (below) the reference" against "it is the reference"; past the evidence, the anchor moves
 * to the mean of the adverts since the sum last left zero, and the reference with it. A deviation is clipped a few standard
 * deviations past the change looked for, so that one deep fade is never enough. */
static void
test_for_change (NearbyRankFilter *filter,
                 int64_t           time_us,
                 double            rssi)
{
  const NearbyDistanceConfig *config = &filter->config;
  double delta = config->rank_change_db > 0.0 ? config->rank_change_db : 9.0;
  double sigma = sqrt (filter->noise_var);
  double deviation = rssi - filter->reference;
  double limit = delta + RANK_CLIP_SIGMAS * sigma;
  double weight = delta / filter->noise_var;

  /* The recent mean takes each advert clipped as the test does, around where the row is. */
  {
    double clip = filter->following != 0 ? RANK_CLIP_SIGMAS * sigma : limit;
    double centre = filter->following != 0 ? filter->anchor : filter->reference;
    double from_centre = rssi - centre;

    add_recent (filter, time_us,
                centre + (from_centre > clip ? clip : from_centre < -clip ? -clip : from_centre));
  }

  if (filter->following != 0)
    {
      follow (filter, time_us);
      return;
    }

  if (filter->reference_n < RANK_REFERENCE_SAMPLES)
    filter->reference_n++;
  filter->reference += (rssi - filter->reference) / filter->reference_n;

  /* A still beacon's first adverts are best summed up by their plain mean: the Kalman level also
   * guesses a trend from them, and is further off. The row moves to it at the 1st, 2nd, 4th and
   * 8th advert only, each move halving the error of the last: a beacon of 1 Hz settles into the
   * list over some ten seconds, and every further move there was a reorder for a person already
   * reading it (standing among 50 beacons at 6 dB, 0.88 reorders a minute over 16 seeds, 0.74
   * now; among 25, 0.47 and 0.33). */
  if (filter->n_samples <= RANK_SETTLING_SAMPLES)
    {
      if ((filter->n_samples & (filter->n_samples - 1)) == 0)
        filter->anchor = filter->reference;
      return;
    }

  if (deviation > limit)
    deviation = limit;
  else if (deviation < -limit)
    deviation = -limit;

  /* The way the last change went, just after it: a smaller step found with less evidence. */
  if (filter->continuing != 0 && time_us < filter->continuing_until_us)
    {
      double step = delta * RANK_CONTINUE_CHANGE;
      double step_weight = step / filter->noise_var;

      if (filter->continuing > 0)
        {
          filter->up += step_weight * (deviation - step / 2.0);
          filter->down += weight * (-deviation - delta / 2.0);
          if (filter->up > RANK_CONTINUE_EVIDENCE)
            filter->up = config->rank_evidence + 1.0;
        }
      else
        {
          filter->up += weight * (deviation - delta / 2.0);
          filter->down += step_weight * (-deviation - step / 2.0);
          if (filter->down > RANK_CONTINUE_EVIDENCE)
            filter->down = config->rank_evidence + 1.0;
        }
    }
  else
    {
      filter->up += weight * (deviation - delta / 2.0);
      filter->down += weight * (-deviation - delta / 2.0);
    }
  if (filter->up <= 0.0)
    {
      filter->up = 0.0;
      filter->up_sum = 0.0;
      filter->up_n = 0;
    }
  else
    {
      filter->up_sum += rssi;
      filter->up_n++;
    }
  if (filter->down <= 0.0)
    {
      filter->down = 0.0;
      filter->down_sum = 0.0;
      filter->down_n = 0;
    }
  else
    {
      filter->down_sum += rssi;
      filter->down_n++;
    }

  if (filter->up > config->rank_evidence && filter->up_n > 0)
    found_change (filter, time_us, filter->up_sum / filter->up_n);
  else if (filter->down > config->rank_evidence && filter->down_n > 0)
    found_change (filter, time_us, filter->down_sum / filter->down_n);
}

bool
nearby_rank_filter_update (NearbyRankFilter *filter,
                           int64_t           time_us,
                           int               rssi)
{
  const NearbyDistanceConfig *config = &filter->config;
  double dt, q, innovation, s, clip, k0, k1, p00, p01, p11, weight, residual_var;

  if (!nearby_rssi_is_known (rssi))
    return false;

  if (!filter->has_value || time_us - filter->last_time_us > config->reset_gap_us)
    {
      double noise_var = filter->noise_var;
      /* A settled beacon heard again after a silence keeps its place, and the test looks for a
       * change from there: a far beacon whose adverts fall below the radio's sensitivity for a
       * few seconds would otherwise move its row with each of its next first adverts. */
      bool keep_place = filter->has_value && filter->n_samples > RANK_SETTLING_SAMPLES;
      double anchor = filter->anchor;
      double reference = filter->reference;
      int reference_n = filter->reference_n;

      nearby_rank_filter_reset (filter);
      /* A beacon that comes back is the same radio: its noise is still what was measured. */
      if (noise_var > RANK_NOISE_MIN_VAR)
        filter->noise_var = noise_var;
      filter->has_value = true;
      filter->level = rssi;
      filter->trend = 0.0;
      filter->p[0][0] = filter->noise_var;
      /* A trend of a few dB/s either way: someone may be walking already. */
      filter->p[1][1] = 4.0 * config->rank_trend_change_db * config->rank_trend_change_db;
      filter->last_time_us = time_us;
      filter->n_samples = 1;
      filter->anchor = rssi;
      filter->reference = rssi;
      filter->reference_n = 1;
      if (keep_place)
        {
          filter->anchor = anchor;
          filter->reference = reference;
          filter->reference_n = reference_n;
          filter->n_samples = RANK_SETTLING_SAMPLES + 1;
          test_for_change (filter, time_us, rssi);
        }
      return true;
    }

  dt = (double) (time_us > filter->last_time_us ? time_us - filter->last_time_us : 0) / 1e6;
  if (time_us > filter->last_time_us)
    filter->last_time_us = time_us;

  /* Predict. */
  q = config->rank_trend_change_db * config->rank_trend_change_db;
  filter->level += filter->trend * dt;
  p00 = filter->p[0][0] + dt * (2.0 * filter->p[0][1] + dt * filter->p[1][1]) + q * dt * dt * dt / 3.0;
  p01 = filter->p[0][1] + dt * filter->p[1][1] + q * dt * dt / 2.0;
  p11 = filter->p[1][1] + q * dt;

  /* Correct, with the innovation clipped. */
  innovation = rssi - filter->level;
  s = p00 + filter->noise_var;
  clip = RANK_CLIP_SIGMAS * sqrt (s);
  if (innovation > clip)
    innovation = clip;
  else if (innovation < -clip)
    innovation = -clip;
  k0 = p00 / s;
  k1 = p01 / s;
  filter->level += k0 * innovation;
  filter->trend += k1 * innovation;
  filter->p[0][0] = (1.0 - k0) * p00;
  filter->p[0][1] = filter->p[1][0] = (1.0 - k0) * p01;
  filter->p[1][1] = p11 - k1 * p01;

  /* Measure the noise: what an innovation's square says beyond the level's own uncertainty,
   * weighed against the prior at first, then a running average. */
  if (filter->n_samples < MAX_COUNTED_SAMPLES)
    filter->n_samples++;
  weight = 1.0 / (filter->n_samples + RANK_NOISE_PRIOR_SAMPLES < RANK_NOISE_SAMPLES
                  ? filter->n_samples + RANK_NOISE_PRIOR_SAMPLES : RANK_NOISE_SAMPLES);
  residual_var = innovation * innovation - p00;
  if (residual_var < RANK_NOISE_MIN_VAR)
    residual_var = RANK_NOISE_MIN_VAR;
  /* Over the first adverts the level is still most of the innovation: they say nothing of the
   * noise yet. */
  if (filter->n_samples > RANK_SETTLING_SAMPLES)
    filter->noise_var += weight * (residual_var - filter->noise_var);
  if (filter->noise_var < RANK_NOISE_MIN_VAR)
    filter->noise_var = RANK_NOISE_MIN_VAR;
  if (filter->noise_var > RANK_NOISE_MAX_VAR)
    filter->noise_var = RANK_NOISE_MAX_VAR;

  test_for_change (filter, time_us, rssi);
  return true;
}

bool
nearby_rank_filter_has_value (const NearbyRankFilter *filter)
{
  return filter->has_value;
}

double
nearby_rank_filter_get_rssi (const NearbyRankFilter *filter)
{
  return filter->has_value ? filter->level : RSSI_UNKNOWN;
}

double
nearby_rank_filter_get_anchor (const NearbyRankFilter *filter)
{
  return filter->has_value ? filter->anchor : RSSI_UNKNOWN;
}
