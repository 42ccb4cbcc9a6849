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
 * counts on simulated time: they are the same on every machine.
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
 * run (to trace one of those runs).
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

  printf ("%-25s %-9s %8.2f %10s  %s%s\n", scenario->name, ranking, result->reorders_per_minute,
          to_top, tops, scenario->kind == CALM_WALK_PAST
                        ? (result->tops_in_order ? " (in order)" : " (NOT in order)") : "");
}

static void
print_seeds (const CalmScenario         *scenario,
             const NearbyDistanceConfig *config,
             guint                       n_seeds)
{
  g_autoptr(GString) times = g_string_new (NULL);
  g_autoptr(GString) oracle = g_string_new (NULL);
  double sum = 0.0, max = 0.0, noise = 0.0;
  guint n_met = 0;

  for (guint k = 0; k < n_seeds; k++)
    {
      CalmScenario seeded = *scenario;
      CalmResult result;

      seeded.seed += 1000 * k;
      calm_run (&seeded, TRUE, config, &result);
      sum += result.reorders_per_minute;
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
      else if (scenario->kind == CALM_WALK_PAST && result.tops_in_order)
        n_met++;
    }

  printf ("%-25s %8.2f %8.2f", scenario->name, sum / n_seeds, max);
  if (scenario->kind == CALM_WALK_UP || scenario->kind == CALM_SILENT)
    printf ("  top within %.1f s in %u of %u:%s",
            calm_top_bound_s (scenario->kind == CALM_WALK_UP ? scenario->rate_hz : 10.0), n_met,
            n_seeds, times->str);
  if (scenario->kind == CALM_WALK_UP)
    printf ("\n%-25s   its adverts in that time / z / as received:%s (noise as received %.1f dB)", "",
            oracle->str, noise);
  else if (scenario->kind == CALM_WALK_PAST)
    printf ("  in order in %u of %u", n_met, n_seeds);
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

      printf ("%-25s %8s %8s  (calm ranking, %u seeds)\n", "scenario", "mean/min", "max/min",
              n_seeds);
      for (guint i = 0; i < n_scenarios; i++)
        if (only == NULL || g_strcmp0 (only, scenarios[i].name) == 0)
          print_seeds (&scenarios[i], &config, n_seeds);
      return 0;
    }

  printf ("%-25s %-9s %8s %10s  %s\n", "scenario", "ranking", "reord/min", "to top", "tops");
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
