/* bench-list-calm.c: how calm the list's order is in real radio noise, and how well it follows
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   meson test -C _build --benchmark bench-list-calm --verbose
 *
 * Every fixed-seed scenario of tests/list-calm-traces.c (standing among 10, 25 and 50 beacons,
 * walking up to one, walking past a row, a beacon that goes silent and comes back, two at the
 * same distance; shadowing of 4, 6 and 8 dB, fast fading, missed adverts, 1-10 Hz, bursts) runs
 * through a NearbyObjectList on a fake clock twice: with the ranking of Nearby 0.x (the
 * baseline, kept behind the list's private _nearby_object_list_set_calm_ranking()) and with the
 * calm ranking. It prints, for each: reorders per minute after the first 10 s, the time from
 * when the beacon walked up to is really the nearest to when it is the top row (walk-up; for
 * silent, from its return), and the beacons at the top in turn (walk-past). The figures are
 * counts on simulated time: they are the same on every machine. "pairs/min" counts the pairs of
 * rows that the reorders put the other way round: one row past one other is 1, a reorder that
 * shuffles still rows too counts each pair.
 *
 * BENCH_LIST_CALM_ONLY=NAME runs one scenario. BENCH_LIST_CALM_TREND, _CHANGE_DB and _EVIDENCE
 * try other settings of the calm ranking (NearbyDistanceConfig's rank_trend_change_db,
 * rank_change_db, rank_evidence). BENCH_LIST_CALM_TRACE=1 prints the first rows at each reorder
 * (object, bucket, rank distance) to stderr, and BENCH_LIST_CALM_TRACE_ALL=1 every row each
 * second (rank distance | shown distance, true distance).
 *
 * BENCH_LIST_CALM_SEEDS=N runs each scenario of the calm ranking with N seeds (its own and N - 1
 * more, 1000 apart) and prints, rather than one run, what the targets ask over all of them: the
 * mean and largest reorders a minute, how many runs had the beacon walked up to on top within
 * the time calm_top_bound_s() allows for its rate (and the times), how many walked past the row in order. A target met on one seed only is
 * tuned to that seed. BENCH_LIST_CALM_SEED_OFFSET=K adds K to every scenario's seed in a plain
 * run (to trace one of those runs). BENCH_LIST_CALM_PER_SEED=1 with it prints each walk past:
 * the rows on top in turn with when each came up (seconds from the start of the walk), and why
 * a run is not in order. With the seeds, each walk past also prints what the adverts themselves
 * say at each hand-over from one row to the next (as for a walk-up, in the time
 * calm_top_bound_s() allows or while the row is the nearest, whichever is shorter): the weakest
 * hand-over's adverts and z, and how many runs had every hand-over at CALM_DECIDABLE_Z or more.
 */

#include "config.h"

#include <stdio.h>

#include "list-calm-traces.h"

static void
print_result (const char         *ranking,
              const CalmScenario *scenario,
              const CalmResult   *result)
{
  g_autofree char *tops = calm_format_tops (result);
  g_autofree char *to_top = result->time_to_top_s >= 0
                            ? g_strdup_printf ("%.2f s", result->time_to_top_s)
                            : g_strdup (scenario->kind == CALM_WALK_UP
                                        || scenario->kind == CALM_SILENT ? "never" : "-");

  printf ("%-25s %-9s %8.2f %8.1f %10s  %s%s\n", scenario->name, ranking, result->reorders_per_minute,
          result->swapped_pairs_per_minute, to_top, tops, scenario->kind == CALM_WALK_PAST
                        ? (result->tops_in_order ? " (in order)" : " (NOT in order)") : "");
}

/* Why a walk past was not in order: rows never on top, rows on top before one earlier in the row
 * had been, rows back on top after a later one, and the first tops later than the row was the
 * nearest (each is the nearest for calm_walk_past_nearest_s() in turn). */
static char *
walk_past_diagnosis (const CalmScenario *scenario,
                     const CalmResult   *result)
{
  GString *why = g_string_new (NULL);
  double span = calm_walk_past_nearest_s ();
  guint highest = 0;
  gboolean seen[CALM_MAX_TOPS] = { FALSE, };

  for (guint i = 0; i < result->n_tops; i++)
    {
      guint row = result->tops[i];

      if (row >= CALM_MAX_TOPS)
        continue;
      if (seen[row])
        g_string_append_printf (why, " %u back on top at %.1f s;", row, result->tops_s[i]);
      else
        {
          /* Row k is the nearest from (k + 0.5) spans into the walk to (k + 1.5) spans. */
          double nearest_until = (row + 1.5) * span;

          if (row + 1 < scenario->n_beacons && result->tops_s[i] >= nearest_until)
            g_string_append_printf (why, " %u first on top at %.1f s, %.1f s after it was the nearest;",
                                    row, result->tops_s[i], result->tops_s[i] - nearest_until);
          if (row < highest)
            g_string_append_printf (why, " %u after %u (swapped);", row, highest);
        }
      seen[row] = TRUE;
      highest = MAX (highest, row);
    }
  for (guint row = 0; row < scenario->n_beacons; row++)
    if (!seen[row])
      g_string_append_printf (why, " %u never on top;", row);
  return g_string_free (why, FALSE);
}

static void
print_seeds (const CalmScenario         *scenario,
             const NearbyDistanceConfig *config,
             guint                       n_seeds)
{
  g_autoptr(GString) times = g_string_new (NULL);
  g_autoptr(GString) oracle = g_string_new (NULL);
  double sum = 0.0, max = 0.0, noise = 0.0, pairs = 0.0;
  guint n_met = 0, n_decidable = 0, n_decidable_met = 0;
  guint handover_min_n = G_MAXUINT, handover_max_n = 0;
  double min_z = G_MAXDOUBLE, max_z = -G_MAXDOUBLE;
  double min_received_z = G_MAXDOUBLE, max_received_z = -G_MAXDOUBLE;

  for (guint k = 0; k < n_seeds; k++)
    {
      CalmScenario seeded = *scenario;
      CalmResult result;

      seeded.seed += 1000 * k;
      calm_run (&seeded, TRUE, config, &result);
      sum += result.reorders_per_minute;
      pairs += result.swapped_pairs_per_minute / n_seeds;
      noise += result.noise_db / n_seeds;
      max = MAX (max, result.reorders_per_minute);
      if (scenario->kind == CALM_WALK_UP || scenario->kind == CALM_SILENT)
        {
          if (result.time_to_top_s >= 0
              && result.time_to_top_s <= calm_top_bound_s (scenario->kind == CALM_WALK_UP
                                                           ? scenario->rate_hz : 10.0))
            n_met++;
          if (scenario->kind == CALM_WALK_UP)
            g_string_append_printf (oracle, " %u/%.1f/%.1f", result.oracle_n, result.oracle_z,
                                    result.oracle_received_z);
          if (result.time_to_top_s >= 0)
            g_string_append_printf (times, " %.2f", result.time_to_top_s);
          else
            g_string_append (times, " never");
        }
      else if (scenario->kind == CALM_WALK_PAST)
        {
          gboolean decidable = result.n_handovers + 1 == scenario->n_beacons
                               && result.n_handovers_decidable == result.n_handovers;

          if (result.tops_in_order)
            n_met++;
          if (decidable)
            n_decidable++;
          if (decidable && result.tops_in_order)
            n_decidable_met++;
          handover_min_n = MIN (handover_min_n, result.handover_min_n);
          handover_max_n = MAX (handover_max_n, result.handover_max_n);
          min_z = MIN (min_z, result.handover_min_z);
          max_z = MAX (max_z, result.handover_min_z);
          min_received_z = MIN (min_received_z, result.handover_min_received_z);
          max_received_z = MAX (max_received_z, result.handover_min_received_z);
          g_string_append_printf (oracle, " %u/%.1f/%.1f", result.handover_min_n,
                                  result.handover_min_z, result.handover_min_received_z);
          if (g_getenv ("BENCH_LIST_CALM_PER_SEED"))
            {
              g_autofree char *tops = calm_format_tops_timed (&result);
              g_autofree char *why = walk_past_diagnosis (scenario, &result);

              printf ("%-25s seed %-6u %s:  %s%s\n", scenario->name, seeded.seed,
                      result.tops_in_order ? "in order" : "NOT in order", tops, why);
              printf ("%-25s   hand-overs told by the adverts %u of %u; %u-%u adverts at each; "
                      "the least z %.1f, as received %.1f\n", "", result.n_handovers_decidable,
                      result.n_handovers, result.handover_min_n, result.handover_max_n,
                      result.handover_min_z, result.handover_min_received_z);
            }
        }
    }

  printf ("%-25s %8.2f %8.2f %8.1f", scenario->name, sum / n_seeds, max, pairs);
  if (scenario->kind == CALM_WALK_UP || scenario->kind == CALM_SILENT)
    printf ("  top within %.1f s in %u of %u:%s",
            calm_top_bound_s (scenario->kind == CALM_WALK_UP ? scenario->rate_hz : 10.0), n_met,
            n_seeds, times->str);
  if (scenario->kind == CALM_WALK_UP)
    printf ("\n%-25s   its adverts in that time / z / as received:%s (noise as received %.1f dB)", "",
            oracle->str, noise);
  else if (scenario->kind == CALM_WALK_PAST)
    printf ("  in order in %u of %u\n%-25s   the weakest hand-over's adverts / z / as received:%s "
            "(noise as received %.1f dB)\n%-25s   %u-%u adverts at a hand-over; the weakest's z "
            "%.1f - %.1f, as received %.1f - %.1f; every hand-over z as received >= %.1f in %u "
            "of %u, of those in order %u", n_met, n_seeds, "", oracle->str, noise, "",
            handover_min_n, handover_max_n, min_z, max_z, min_received_z, max_received_z,
            CALM_DECIDABLE_Z, n_decidable, n_seeds, n_decidable_met);
  printf ("\n");
  fflush (stdout);
}

int
main (int   argc,
      char *argv[])
{
  const char *only = g_getenv ("BENCH_LIST_CALM_ONLY");
  const CalmScenario *scenarios;
  NearbyDistanceConfig config;
  guint n_scenarios;

  nearby_distance_config_init (&config);
  if (g_getenv ("BENCH_LIST_CALM_TREND"))
    config.rank_trend_change_db = g_ascii_strtod (g_getenv ("BENCH_LIST_CALM_TREND"), NULL);
  if (g_getenv ("BENCH_LIST_CALM_CHANGE_DB"))
    config.rank_change_db = g_ascii_strtod (g_getenv ("BENCH_LIST_CALM_CHANGE_DB"), NULL);
  if (g_getenv ("BENCH_LIST_CALM_EVIDENCE"))
    config.rank_evidence = g_ascii_strtod (g_getenv ("BENCH_LIST_CALM_EVIDENCE"), NULL);

  scenarios = calm_scenarios (&n_scenarios);
  if (g_getenv ("BENCH_LIST_CALM_SEEDS"))
    {
      guint n_seeds = MAX (1, (guint) g_ascii_strtoull (g_getenv ("BENCH_LIST_CALM_SEEDS"), NULL, 10));

      printf ("%-25s %8s %8s %8s  (calm ranking, %u seeds)\n", "scenario", "mean/min", "max/min",
              "pairs/min", n_seeds);
      for (guint i = 0; i < n_scenarios; i++)
        if (only == NULL || g_strcmp0 (only, scenarios[i].name) == 0)
          print_seeds (&scenarios[i], &config, n_seeds);
      return 0;
    }

  printf ("%-25s %-9s %8s %8s %10s  %s\n", "scenario", "ranking", "reord/min", "pairs/min", "to top",
          "tops");
  for (guint i = 0; i < n_scenarios; i++)
    {
      CalmResult before, after;
      CalmScenario seeded = scenarios[i];

      if (only != NULL && g_strcmp0 (only, scenarios[i].name) != 0)
        continue;
      if (g_getenv ("BENCH_LIST_CALM_SEED_OFFSET"))
        seeded.seed += (guint32) g_ascii_strtoull (g_getenv ("BENCH_LIST_CALM_SEED_OFFSET"), NULL, 10);
      calm_run (&seeded, FALSE, NULL, &before);
      calm_run (&seeded, TRUE, &config, &after);
      print_result ("baseline", &seeded, &before);
      print_result ("calm", &seeded, &after);
      fflush (stdout);
    }

  return 0;
}
