/* list-calm-traces.c: beacons in real radio noise, and what a NearbyObjectList shows of them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "list-calm-traces.h"
#include "nearby-distance.h"
#include "nearby-object-list-private.h"
#include "nearby-test-utils.h"

#define TX_POWER_0M   (-20)
#define PATH_LOSS_N   2.0
#define STEP_US       10000     /* the simulation's step */
#define TICK_US       250000    /* the list's tick */
#define ARRIVAL_US    (10 * G_USEC_PER_SEC)
/* Below this a scanner hears nothing. */
#define SENSITIVITY_DBM (-100)
/* Rician fading, K = 4 (6 dB): a line of sight with multipath around it; about 2.5 dB of spread
 * and a fade of 10 dB or more in about one advert in a hundred. */
#define RICIAN_K      4.0
#define WALK_M_PER_S  1.0
#define ROW_SPACING_M 4.0
#define ROW_OFFSET_M  1.0
#define SILENT_FROM_S 20.0
#define SILENT_FOR_S  40.0

/* An advert of the beacon walked up to, or of a beacon of the row walked past, as received. */
typedef struct {
  double  t_s;
  int     rssi;
  guint   index;
} Received;

typedef struct {
  double  x, y;
  double  rate_hz;
  double  loss;       /* probability that an advert is missed */
  gboolean bursts;    /* adverts come three at a time, 20 ms apart */
  gint64  next_us;
  guint   burst_left;
  char   *address;
  char   *url;
} Beacon;

static const CalmScenario scenarios[] = {
  { "still-10-sigma4", CALM_STILL, 10, 4.0, 101, 0.0 },
  { "still-10-sigma6", CALM_STILL, 10, 6.0, 102, 0.0 },
  { "still-10-sigma8", CALM_STILL, 10, 8.0, 103, 0.0 },
  { "still-25-sigma4", CALM_STILL, 25, 4.0, 104, 0.0 },
  { "still-25-sigma6", CALM_STILL, 25, 6.0, 105, 0.0 },
  { "still-25-sigma8", CALM_STILL, 25, 8.0, 106, 0.0 },
  { "still-50-sigma4", CALM_STILL, 50, 4.0, 107, 0.0 },
  { "still-50-sigma6", CALM_STILL, 50, 6.0, 108, 0.0 },
  { "still-50-sigma8", CALM_STILL, 50, 8.0, 109, 0.0 },
  { "walk-up-sigma4", CALM_WALK_UP, 10, 4.0, 201, 10.0 },
  { "walk-up-sigma6", CALM_WALK_UP, 10, 6.0, 202, 10.0 },
  { "walk-up-sigma8", CALM_WALK_UP, 10, 8.0, 203, 10.0 },
  { "walk-up-5hz-sigma4", CALM_WALK_UP, 10, 4.0, 207, 5.0 },
  { "walk-up-5hz-sigma6", CALM_WALK_UP, 10, 6.0, 204, 5.0 },
  { "walk-up-5hz-sigma8", CALM_WALK_UP, 10, 8.0, 208, 5.0 },
  { "walk-up-2hz-sigma4", CALM_WALK_UP, 10, 4.0, 209, 2.0 },
  { "walk-up-2hz-sigma6", CALM_WALK_UP, 10, 6.0, 205, 2.0 },
  { "walk-up-2hz-sigma8", CALM_WALK_UP, 10, 8.0, 210, 2.0 },
  { "walk-up-1hz-sigma4", CALM_WALK_UP, 10, 4.0, 211, 1.0 },
  { "walk-up-1hz-sigma6", CALM_WALK_UP, 10, 6.0, 206, 1.0 },
  { "walk-up-1hz-sigma8", CALM_WALK_UP, 10, 8.0, 212, 1.0 },
  { "walk-up-bursts-sigma6", CALM_WALK_UP, 10, 6.0, 213, 10.0, TRUE },
  { "walk-up-2hz-bursts-sigma6", CALM_WALK_UP, 10, 6.0, 214, 2.0, TRUE },
  { "walk-up-lossy-sigma6", CALM_WALK_UP, 10, 6.0, 215, 10.0, FALSE, 0.4 },
  { "walk-up-5hz-lossy-sigma8", CALM_WALK_UP, 10, 8.0, 216, 5.0, FALSE, 0.4 },
  { "walk-past-sigma4", CALM_WALK_PAST, 6, 4.0, 301, 10.0 },
  { "walk-past-sigma6", CALM_WALK_PAST, 6, 6.0, 302, 10.0 },
  { "walk-past-sigma8", CALM_WALK_PAST, 6, 8.0, 303, 10.0 },
  { "walk-past-5hz-sigma4", CALM_WALK_PAST, 6, 4.0, 305, 5.0 },
  { "walk-past-5hz-sigma6", CALM_WALK_PAST, 6, 6.0, 306, 5.0 },
  { "walk-past-5hz-sigma8", CALM_WALK_PAST, 6, 8.0, 307, 5.0 },
  { "walk-past-2hz-sigma6", CALM_WALK_PAST, 6, 6.0, 304, 2.0 },
  { "walk-past-1hz-sigma6", CALM_WALK_PAST, 6, 6.0, 308, 1.0 },
  { "silent-sigma6", CALM_SILENT, 10, 6.0, 401, 0.0 },
  { "twins-sigma6", CALM_TWINS, 10, 6.0, 501, 0.0 },
};

const CalmScenario *
calm_scenarios (guint *n_scenarios)
{
  *n_scenarios = G_N_ELEMENTS (scenarios);
  return scenarios;
}

static double
gaussian (GRand *rand)
{
  double u1 = g_rand_double_range (rand, 1e-12, 1.0);
  double u2 = g_rand_double (rand);

  return sqrt (-2.0 * log (u1)) * cos (2.0 * G_PI * u2);
}

/* The received power of one advert, in its envelope's dB (mean power 1). */
static double
rician_fading_db (GRand *rand)
{
  double los = sqrt (RICIAN_K / (RICIAN_K + 1.0));
  double scatter = sqrt (1.0 / (2.0 * (RICIAN_K + 1.0)));
  double re = los + scatter * gaussian (rand);
  double im = scatter * gaussian (rand);

  return 10.0 * log10 (MAX (re * re + im * im, 1e-9));
}

static double
duration_s (const CalmScenario *scenario)
{
  switch (scenario->kind)
    {
    case CALM_STILL:
    case CALM_TWINS:
      return 10.0 + 300.0;
    case CALM_WALK_UP:
      return 10.0 + 7.0 + 20.0;
    case CALM_WALK_PAST:
      return 10.0 + (ROW_SPACING_M * (scenario->n_beacons - 1) + 8.0) / WALK_M_PER_S + 5.0;
    case CALM_SILENT:
      return SILENT_FROM_S + SILENT_FOR_S + 30.0;
    default:
      g_assert_not_reached ();
    }
}

/* Where the person is @t_s seconds in. */
static void
person_at (const CalmScenario *scenario,
           double              t_s,
           double             *x,
           double             *y)
{
  double walked = MAX (0.0, t_s - ARRIVAL_US / 1e6) * WALK_M_PER_S;

  *x = *y = 0.0;
  if (scenario->kind == CALM_WALK_UP)
    *x = MIN (walked, 7.0);
  else if (scenario->kind == CALM_WALK_PAST)
    *x = -4.0 + MIN (walked, ROW_SPACING_M * (scenario->n_beacons - 1) + 8.0);
}

static void
place_beacons (const CalmScenario *scenario,
               GRand              *rand,
               Beacon             *beacons)
{
  const double rates[] = { 1.0, 2.0, 5.0, 10.0 };

  for (guint i = 0; i < scenario->n_beacons; i++)
    {
      Beacon *beacon = &beacons[i];
      double angle = g_rand_double_range (rand, 0, 2 * G_PI);
      /* Log-uniform: as many beacons within 1-2 m as within 5-10 m. */
      double r = 0.5 * pow (30.0, g_rand_double (rand));

      beacon->rate_hz = rates[g_rand_int_range (rand, 0, G_N_ELEMENTS (rates))];
      if (scenario->rate_hz > 0
          && (scenario->kind == CALM_WALK_PAST || (scenario->kind == CALM_WALK_UP && i == 0)))
        beacon->rate_hz = scenario->rate_hz;
      beacon->loss = g_rand_double_range (rand, 0.1, 0.4);
      beacon->bursts = g_rand_double (rand) < 0.2;
      if (scenario->kind == CALM_WALK_UP && i == 0)
        {
          beacon->bursts = beacon->bursts || scenario->bursts;
          if (scenario->loss > 0)
            beacon->loss = scenario->loss;
        }
      beacon->next_us = g_rand_int_range (rand, 0, (gint32) (1e6 / beacon->rate_hz));
      beacon->burst_left = 0;
      beacon->address = g_strdup_printf ("C0:FF:EE:%02X:%02X:01", scenario->seed & 0xff, i);
      beacon->url = g_strdup_printf ("https://b.example/%u", i);
      if (g_getenv ("BENCH_LIST_CALM_TRACE") && i == 0)
        g_printerr ("beacon 0: %.0f Hz, %.0f %% missed%s\n", beacon->rate_hz, beacon->loss * 100,
                    beacon->bursts ? ", bursts" : "");

      switch (scenario->kind)
        {
        case CALM_WALK_UP:
          /* The one walked up to at (8, 0); the others 2.5-12 m from where the walk ends. */
          if (i == 0)
            r = 0.0;
          else
            r = 2.5 * pow (12.0 / 2.5, g_rand_double (rand));
          beacon->x = 7.0 + r * cos (angle) + (i == 0 ? 1.0 : 0.0);
          beacon->y = r * sin (angle);
          break;
        case CALM_WALK_PAST:
          beacon->x = ROW_SPACING_M * i;
          beacon->y = ROW_OFFSET_M;
          break;
        case CALM_SILENT:
          if (i == 0)
            r = 1.2;
          else
            r = 2.0 * pow (7.5, g_rand_double (rand));
          beacon->x = r * cos (angle);
          beacon->y = r * sin (angle);
          break;
        case CALM_TWINS:
          if (i < 2)
            r = 3.0;
          beacon->x = r * cos (angle);
          beacon->y = r * sin (angle);
          break;
        case CALM_STILL:
        default:
          beacon->x = r * cos (angle);
          beacon->y = r * sin (angle);
          break;
        }
    }
}

static double
distance_to (const Beacon *beacon,
             double        x,
             double        y)
{
  return MAX (0.1, hypot (beacon->x - x, beacon->y - y));
}

static gboolean
is_silent (const CalmScenario *scenario,
           guint               index,
           double              t_s)
{
  return scenario->kind == CALM_SILENT && index == 0
         && t_s >= SILENT_FROM_S && t_s < SILENT_FROM_S + SILENT_FOR_S;
}

/* The adverts @beacon sends by @now_us that the scanner receives. */
static void
advertise (const CalmScenario *scenario,
           guint               index,
           Beacon             *beacon,
           GRand              *rand,
           NearbyTestSource   *source,
           gint64              start_us,
           gint64              now_us,
           double              px,
           double              py,
           const NearbyFrame  *frame,
           GArray             *heard,
           double             *noise_sum2,
           guint64            *noise_n)
{
  while (beacon->next_us <= now_us)
    {
      double t_s = (double) beacon->next_us / 1e6;
      double rssi = nearby_distance_expected_rssi (TX_POWER_0M, distance_to (beacon, px, py),
                                                   PATH_LOSS_N)
                    + scenario->sigma_db * gaussian (rand) + rician_fading_db (rand);
      gboolean missed = g_rand_double (rand) < beacon->loss;

      if (!missed && !is_silent (scenario, index, t_s) && rssi >= SENSITIVITY_DBM)
        {
          int received = (int) lround (MIN (rssi, -1.0));
          double noise = received - nearby_distance_expected_rssi (TX_POWER_0M,
                                                                   distance_to (beacon, px, py),
                                                                   PATH_LOSS_N);

          nearby_test_source_emit (source, beacon->address, start_us + beacon->next_us,
                                   received, frame, NULL, 0);
          *noise_sum2 += noise * noise;
          (*noise_n)++;
          if ((scenario->kind == CALM_WALK_UP && index == 0) || scenario->kind == CALM_WALK_PAST)
            {
              Received advert = { t_s, received, index };

              g_array_append_val (heard, advert);
            }
        }

      if (beacon->bursts && beacon->burst_left == 0)
        beacon->burst_left = 3;
      if (beacon->burst_left > 1)
        {
          beacon->burst_left--;
          beacon->next_us += 20000;
        }
      else
        {
          /* BLE's advDelay: 0-10 ms added to every interval. A bursting beacon keeps its
           * average rate. */
          beacon->burst_left = 0;
          beacon->next_us += (gint64) (1e6 / beacon->rate_hz * (beacon->bursts ? 3 : 1))
                             - (beacon->bursts ? 40000 : 0) + g_rand_int_range (rand, 0, 10000);
        }
    }
}

static guint
index_of (NearbyObject *object)
{
  const char *url = nearby_object_get_url (object);

  return (guint) g_ascii_strtoull (strrchr (url, '/') + 1, NULL, 10);
}

/* TRUE when the objects in both @before and @after are not in the same relative order. */
static gboolean
order_changed (GPtrArray *before,
               GPtrArray *after)
{
  guint i = 0, j = 0;

  while (TRUE)
    {
      while (i < before->len && !g_ptr_array_find (after, before->pdata[i], NULL))
        i++;
      while (j < after->len && !g_ptr_array_find (before, after->pdata[j], NULL))
        j++;
      if (i >= before->len || j >= after->len)
        return FALSE;
      if (before->pdata[i] != after->pdata[j])
        return TRUE;
      i++;
      j++;
    }
}

/* How many pairs of the objects in both @before and @after are the other way round in @after. */
static guint
swapped_pairs (GPtrArray *before,
               GPtrArray *after)
{
  g_autoptr(GArray) rank = g_array_new (FALSE, FALSE, sizeof (guint));
  guint n = 0;

  /* Each object of @before, in its order, by its place in @after. */
  for (guint i = 0; i < before->len; i++)
    {
      guint at;

      if (g_ptr_array_find (after, before->pdata[i], &at))
        g_array_append_val (rank, at);
    }
  for (guint i = 0; i < rank->len; i++)
    for (guint j = i + 1; j < rank->len; j++)
      if (g_array_index (rank, guint, i) > g_array_index (rank, guint, j))
        n++;
  return n;
}

static GPtrArray *
shown_objects (NearbyObjectList *list)
{
  GPtrArray *shown = g_ptr_array_new_with_free_func (g_object_unref);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (list));

  for (guint i = 0; i < n; i++)
    g_ptr_array_add (shown, g_list_model_get_item (G_LIST_MODEL (list), i));
  return shown;
}

static int
section_order (NearbyObject *object)
{
  NearbyBucket bucket = nearby_object_get_bucket (object);

  return bucket == NEARBY_BUCKET_UNKNOWN ? NEARBY_BUCKET_FAR + 1 : (int) bucket;
}

/* TRUE when a shown row is in a farther section than a row ranked farther away. */
static gboolean
sections_inverted (GPtrArray *shown)
{
  for (guint i = 0; i < shown->len; i++)
    for (guint j = 0; j < shown->len; j++)
      {
        double distance_i = nearby_object_get_rank_distance (shown->pdata[i]);
        double distance_j = nearby_object_get_rank_distance (shown->pdata[j]);

        if (distance_i >= 0 && distance_j >= 0 && distance_i < distance_j
            && section_order (shown->pdata[i]) > section_order (shown->pdata[j]))
          return TRUE;
      }
  return FALSE;
}

static guint
true_nearest (const CalmScenario *scenario,
              const Beacon       *beacons,
              double              t_s,
              double              px,
              double              py)
{
  guint nearest = G_MAXUINT;

  for (guint i = 0; i < scenario->n_beacons; i++)
    if (!is_silent (scenario, i, t_s)
        && (nearest == G_MAXUINT
            || distance_to (&beacons[i], px, py) < distance_to (&beacons[nearest], px, py)))
      nearest = i;
  return nearest;
}

/* How sure a test that knew the true level of @previous could be, from the adverts of @index
 * received from @from_s to @until_s, that @index is now above it: the mean gap at those adverts
 * over the standard error of that mean with the noise as received (@noise_db), from the true
 * levels (@z) and from the adverts as received (@received_z). Without an advert both are 0. */
static void
evidence_z (const CalmScenario *scenario,
            const Beacon       *beacons,
            GArray             *received,
            guint               index,
            guint               previous,
            double              from_s,
            double              until_s,
            double              noise_db,
            guint              *n,
            double             *z,
            double             *received_z)
{
  double gap_sum = 0.0, received_gap_sum = 0.0;

  *n = 0;
  *z = *received_z = 0.0;
  for (guint k = 0; k < received->len; k++)
    {
      const Received *advert = &g_array_index (received, Received, k);
      double px, py, previous_rssi;

      if (advert->index != index || advert->t_s < from_s || advert->t_s > until_s)
        continue;
      person_at (scenario, advert->t_s, &px, &py);
      previous_rssi = nearby_distance_expected_rssi (TX_POWER_0M,
                                                     distance_to (&beacons[previous], px, py),
                                                     PATH_LOSS_N);
      gap_sum += nearby_distance_expected_rssi (TX_POWER_0M, distance_to (&beacons[index], px, py),
                                                PATH_LOSS_N)
                 - previous_rssi;
      received_gap_sum += advert->rssi - previous_rssi;
      (*n)++;
    }
  if (*n > 0 && noise_db > 0)
    {
      double error = noise_db / sqrt (*n);

      *z = gap_sum / *n / error;
      *received_z = received_gap_sum / *n / error;
    }
}

void
calm_run (const CalmScenario         *scenario,
          gboolean                    calm_ranking,
          const NearbyDistanceConfig *config,
          CalmResult                 *result)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (scenario->seed);
  g_autoptr(GPtrArray) before = NULL;
  g_autofree Beacon *beacons = g_new0 (Beacon, scenario->n_beacons);
  g_autofree NearbyFrame *frames = g_new0 (NearbyFrame, scenario->n_beacons);
  NearbyTestClock clock = { 1000 * G_USEC_PER_SEC };
  gint64 start_us = clock.now_us;
  gint64 end_us = (gint64) (duration_s (scenario) * 1e6);
  NearbyTestSource *source = nearby_test_source_new ();
  NearbyObjectList *list = nearby_object_list_new (NEARBY_SOURCE (source));
  guint last_nearest = G_MAXUINT, last_top = G_MAXUINT, previous_nearest = G_MAXUINT;
  g_autoptr(GArray) received = g_array_new (FALSE, FALSE, sizeof (Received));
  double noise_sum2 = 0.0;
  guint64 noise_n = 0;
  double nearest_since_s = -1.0, top_since_s = -1.0;
  /* CALM_WALK_PAST: when each row became the nearest (-1: never), and when it stopped being the
   * nearest (the last row never does). */
  g_autofree double *row_nearest_from_s = g_new (double, scenario->n_beacons);
  g_autofree double *row_nearest_until_s = g_new (double, scenario->n_beacons);

  memset (result, 0, sizeof *result);
  result->time_to_top_s = -1.0;
  nearby_object_list_set_clock (list, nearby_test_clock_now, &clock);
  _nearby_object_list_set_calm_ranking (list, calm_ranking);
  if (config != NULL)
    list->distance_config = *config;

  for (guint i = 0; i < scenario->n_beacons; i++)
    {
      row_nearest_from_s[i] = -1.0;
      row_nearest_until_s[i] = G_MAXDOUBLE;
    }
  place_beacons (scenario, rand, beacons);
  for (guint i = 0; i < scenario->n_beacons; i++)
    frames[i] = nearby_test_url_frame (beacons[i].url, TX_POWER_0M);

  before = g_ptr_array_new_with_free_func (g_object_unref);
  for (gint64 t_us = STEP_US; t_us <= end_us; t_us += STEP_US)
    {
      double t_s = (double) t_us / 1e6;
      double px, py;

      clock.now_us = start_us + t_us;
      person_at (scenario, t_s, &px, &py);
      for (guint i = 0; i < scenario->n_beacons; i++)
        advertise (scenario, i, &beacons[i], rand, source, start_us, t_us, px, py, &frames[i],
                   received, &noise_sum2, &noise_n);

      if (t_us % TICK_US == 0)
        {
          g_autoptr(GPtrArray) after = NULL;
          guint nearest = true_nearest (scenario, beacons, t_s, px, py);
          guint top;

          nearby_object_list_flush (list);
          after = shown_objects (list);
          top = after->len > 0 ? index_of (after->pdata[0]) : G_MAXUINT;

          if (g_getenv ("BENCH_LIST_CALM_TRACE_ALL") && t_us % G_USEC_PER_SEC == 0)
            {
              g_printerr ("%6.2f at %.1f nearest %u:", t_s, px, nearest);
              for (guint k = 0; k < after->len; k++)
                g_printerr (" %u(%.2f|%.2f,true %.2f)", index_of (after->pdata[k]),
                            nearby_object_get_rank_distance (after->pdata[k]),
                            nearby_object_get_distance (after->pdata[k]),
                            distance_to (&beacons[index_of (after->pdata[k])], px, py));
              g_printerr ("\n");
            }
          if (t_us > ARRIVAL_US && order_changed (before, after))
            {
              result->n_reorders++;
              result->n_swapped_pairs += swapped_pairs (before, after);
              if (g_getenv ("BENCH_LIST_CALM_TRACE"))
                {
                  g_printerr ("%6.2f nearest %u top %u:", t_s, nearest, top);
                  for (guint k = 0; k < MIN (after->len, 8); k++)
                    g_printerr (" %u(%d,%.2f)", index_of (after->pdata[k]),
                                nearby_object_get_bucket (after->pdata[k]),
                                nearby_object_get_rank_distance (after->pdata[k]));
                  g_printerr ("\n");
                }
            }
          if (t_us > ARRIVAL_US && sections_inverted (after))
            result->n_section_inversions++;
          g_ptr_array_unref (before);
          before = g_steal_pointer (&after);

          if (nearest != last_nearest)
            {
              nearest_since_s = t_s;
              previous_nearest = last_nearest;
              if (nearest < scenario->n_beacons)
                row_nearest_from_s[nearest] = t_s;
              if (last_nearest < scenario->n_beacons)
                row_nearest_until_s[last_nearest] = t_s;
            }
          if (top != last_top)
            top_since_s = t_s;
          last_nearest = nearest;
          last_top = top;

          if (scenario->kind == CALM_WALK_PAST && t_us >= ARRIVAL_US && top != G_MAXUINT
              && (result->n_tops == 0 || result->tops[result->n_tops - 1] != top)
              && result->n_tops < CALM_MAX_TOPS)
            {
              result->tops_s[result->n_tops] = (double) (t_us - ARRIVAL_US) / 1e6;
              result->tops[result->n_tops++] = top;
            }
        }
    }

  result->measured_s = (double) (end_us - ARRIVAL_US) / 1e6;
  result->reorders_per_minute = result->n_reorders * 60.0 / result->measured_s;
  result->swapped_pairs_per_minute = result->n_swapped_pairs * 60.0 / result->measured_s;
  result->n_sightings = nearby_object_list_get_n_sightings (list);

  /* The scenarios end with the beacon of interest as the nearest, for good. */
  if (scenario->kind == CALM_WALK_UP && last_top == 0 && last_nearest == 0)
    result->time_to_top_s = MAX (0.0, top_since_s - nearest_since_s);
  else if (scenario->kind == CALM_SILENT && last_top == 0)
    result->time_to_top_s = MAX (0.0, top_since_s - (SILENT_FROM_S + SILENT_FOR_S));

  result->noise_db = noise_n > 0 ? sqrt (noise_sum2 / noise_n) : 0.0;
  if (scenario->kind == CALM_WALK_UP && last_nearest == 0 && previous_nearest != G_MAXUINT)
    evidence_z (scenario, beacons, received, 0, previous_nearest, nearest_since_s,
                nearest_since_s + calm_top_bound_s (scenario->rate_hz), result->noise_db,
                &result->oracle_n, &result->oracle_z, &result->oracle_received_z);

  /* The row is walked past in its order, so each hand-over is from row k - 1 to row k; the
   * weakest decides whether the adverts could tell the whole walk. */
  if (scenario->kind == CALM_WALK_PAST)
    for (guint k = 1; k < scenario->n_beacons; k++)
      {
        double until_s = MIN (row_nearest_from_s[k] + calm_top_bound_s (scenario->rate_hz),
                              row_nearest_until_s[k]);
        guint n;
        double z, received_z;

        if (row_nearest_from_s[k] < 0)
          continue;
        evidence_z (scenario, beacons, received, k, k - 1, row_nearest_from_s[k], until_s,
                    result->noise_db, &n, &z, &received_z);
        if (result->n_handovers == 0 || n < result->handover_min_n)
          result->handover_min_n = n;
        result->handover_max_n = MAX (result->handover_max_n, n);
        if (result->n_handovers == 0 || z < result->handover_min_z)
          result->handover_min_z = z;
        if (result->n_handovers == 0 || received_z < result->handover_min_received_z)
          result->handover_min_received_z = received_z;
        result->n_handovers++;
        if (received_z >= CALM_DECIDABLE_Z)
          result->n_handovers_decidable++;
      }

  if (scenario->kind == CALM_WALK_PAST)
    {
      result->tops_in_order = result->n_tops == scenario->n_beacons;
      for (guint i = 0; i < result->n_tops; i++)
        if (result->tops[i] != i)
          result->tops_in_order = FALSE;
    }

  for (guint i = 0; i < scenario->n_beacons; i++)
    {
      g_free (beacons[i].address);
      g_free (beacons[i].url);
    }
  g_clear_pointer (&before, g_ptr_array_unref);
  g_object_unref (list);
  g_object_unref (source);
}

double
calm_top_bound_s (double rate_hz)
{
  return rate_hz >= 5.0 ? 3.0 : 3.0 * 5.0 / rate_hz;
}

double
calm_walk_past_nearest_s (void)
{
  return ROW_SPACING_M / WALK_M_PER_S;
}

char *
calm_format_tops (const CalmResult *result)
{
  GString *tops = g_string_new (NULL);

  for (guint i = 0; i < result->n_tops; i++)
    g_string_append_printf (tops, "%s%u", i > 0 ? " " : "", result->tops[i]);
  return g_string_free (tops, FALSE);
}

char *
calm_format_tops_timed (const CalmResult *result)
{
  GString *tops = g_string_new (NULL);

  for (guint i = 0; i < result->n_tops; i++)
    g_string_append_printf (tops, "%s%u@%.2f", i > 0 ? " " : "", result->tops[i], result->tops_s[i]);
  return g_string_free (tops, FALSE);
}
