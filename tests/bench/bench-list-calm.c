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

  printf ("%-20s %-9s %8.2f %10s  %s%s\n", scenario->name, ranking, result->reorders_per_minute,
          to_top, tops, scenario->kind == CALM_WALK_PAST
                        ? (result->tops_in_order ? " (in order)" : " (NOT in order)") : "");
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
  printf ("%-20s %-9s %8s %10s  %s\n", "scenario", "ranking", "reord/min", "to top", "tops");
  for (guint i = 0; i < n_scenarios; i++)
    {
      CalmResult before, after;

      if (only != NULL && g_strcmp0 (only, scenarios[i].name) != 0)
        continue;
      calm_run (&scenarios[i], FALSE, NULL, &before);
      calm_run (&scenarios[i], TRUE, &config, &after);
      print_result ("baseline", &scenarios[i], &before);
      print_result ("calm", &scenarios[i], &after);
      fflush (stdout);
    }

  return 0;
}
