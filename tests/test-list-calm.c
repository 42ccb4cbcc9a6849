/* test-list-calm.c: the list's order in real radio noise, with the ranking of Nearby 0.x and
 * with the calm ranking
 *
 * The fixed-seed scenarios of list-calm-traces.c run through a real NearbyObjectList on a fake
 * clock; the assertions are on counts of simulated time, never on wall time. The targets
 * that the calm ranking does not meet yet are reported as incomplete, with the figures.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "list-calm-traces.h"

static const CalmScenario *
scenario (const char *name)
{
  guint n;
  const CalmScenario *scenarios = calm_scenarios (&n);

  for (guint i = 0; i < n; i++)
    if (g_str_equal (scenarios[i].name, name))
      return &scenarios[i];
  g_assert_not_reached ();
}

/* The noise model reproduces what a person sees today: with the ranking of Nearby 0.x, standing
 * among 25 beacons with 6 dB of shadowing, the order changes nearly every second. */
static void
test_baseline_restless (void)
{
  CalmResult result;

  calm_run (scenario ("still-25-sigma6"), FALSE, NULL, &result);
  g_test_message ("baseline, still-25-sigma6: %.1f reorders a minute", result.reorders_per_minute);
  g_assert_cmpfloat (result.reorders_per_minute, >=, 30.0);
}

/* Standing still: the calm ranking is at least ten times calmer than the baseline, with 25 and
 * 50 beacons and any shadowing, and at 6 and 8 dB the order changes at most once a minute. */
static void
test_still (void)
{
  const char *names[] = { "still-25-sigma4", "still-25-sigma6", "still-25-sigma8",
                          "still-50-sigma4", "still-50-sigma6", "still-50-sigma8" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      CalmResult before, after;

      calm_run (scenario (names[i]), FALSE, NULL, &before);
      calm_run (scenario (names[i]), TRUE, NULL, &after);
      g_test_message ("%s: %.1f reorders a minute, %.1f before", names[i],
                      after.reorders_per_minute, before.reorders_per_minute);
      g_assert_cmpfloat (after.reorders_per_minute * 10, <=, before.reorders_per_minute);
      if (!g_str_has_suffix (names[i], "sigma4"))
        g_assert_cmpfloat (after.reorders_per_minute, <=, 1.0);
    }
}

/* Walking up to a beacon, at every rate, shadowing, missed share and bursts of the scenarios:
 * it is the top row within calm_top_bound_s() of being the nearest (3 s at 5 Hz or more, the
 * time to send as many adverts below), wherever the adverts it sent in that time say that it
 * is the nearest (CALM_DECIDABLE_Z); where they do not, no calm ranking can, and the scenario is
 * reported with what they say. */
static void
test_walk_up (void)
{
  guint n;
  const CalmScenario *scenarios = calm_scenarios (&n);
  g_autoptr(GString) missed = g_string_new (NULL);

  for (guint i = 0; i < n; i++)
    {
      const CalmScenario *walk = &scenarios[i];
      double bound = calm_top_bound_s (walk->rate_hz);
      CalmResult result;

      if (walk->kind != CALM_WALK_UP)
        continue;
      calm_run (walk, TRUE, NULL, &result);
      g_test_message ("%s: top row %.2f s after being the nearest (negative: never; at most "
                      "%.1f s); its adverts in that time z = %.1f", walk->name,
                      result.time_to_top_s, bound, result.oracle_received_z);
      if (result.time_to_top_s >= 0 && result.time_to_top_s <= bound)
        continue;
      if (result.oracle_received_z >= CALM_DECIDABLE_Z)
        g_test_fail_printf ("%s: not the top row within %.1f s (%.2f s), though its adverts say "
                            "it is the nearest (z = %.1f)", walk->name, bound,
                            result.time_to_top_s, result.oracle_received_z);
      else
        g_string_append_printf (missed, " %s (z = %.1f)", walk->name, result.oracle_received_z);
    }

  if (missed->len > 0)
    g_test_incomplete_printf ("not the top row in time, nor told by the adverts, in%s",
                              missed->str);
}

/* The sections follow the order: in no scenario is a row ever in a farther section than a row
 * the calm ranking puts farther away. */
static void
test_sections (void)
{
  guint n;
  const CalmScenario *scenarios = calm_scenarios (&n);

  for (guint i = 0; i < n; i++)
    {
      CalmResult result;

      calm_run (&scenarios[i], TRUE, NULL, &result);
      g_test_message ("%s: %u ticks with a section out of order", scenarios[i].name,
                      result.n_section_inversions);
      g_assert_cmpuint (result.n_section_inversions, ==, 0);
    }
}

/* Walking past a row of beacons, each the nearest for 4 s: at every rate where that is longer
 * than the time the beacon has to reach the top (5 and 10 Hz), each is the top row in turn, in
 * order. Slower rows (2 and 1 Hz: 7.5 and 15 s) are only reported, and so is the one run the
 * calm ranking does not put in order yet (5 Hz at 8 dB: a beacon passed earlier comes back on
 * top after the last one), as long as the adverts of some hand-over from one row to the next do
 * not say that the next is the nearest (CALM_DECIDABLE_Z, as for a walk-up): where every
 * hand-over's adverts do, no run may be out of order. */
static void
test_walk_past (void)
{
  const char *const not_yet[] = { "walk-past-5hz-sigma8", NULL };
  guint n;
  const CalmScenario *scenarios = calm_scenarios (&n);
  g_autoptr(GString) missed = g_string_new (NULL);

  for (guint i = 0; i < n; i++)
    {
      const CalmScenario *walk = &scenarios[i];
      gboolean target = calm_walk_past_nearest_s () > calm_top_bound_s (walk->rate_hz);
      gboolean decidable;
      CalmResult result;
      g_autofree char *tops = NULL;

      if (walk->kind != CALM_WALK_PAST)
        continue;
      calm_run (walk, TRUE, NULL, &result);
      tops = calm_format_tops (&result);
      decidable = result.n_handovers + 1 == walk->n_beacons
                  && result.n_handovers_decidable == result.n_handovers;
      g_test_message ("%s: tops %s%s; %u of %u hand-overs told by their adverts (the weakest "
                      "z = %.1f)", walk->name, tops, target ? "" : " (not a target)",
                      result.n_handovers_decidable, result.n_handovers,
                      result.handover_min_received_z);
      if (!target || result.tops_in_order)
        continue;
      if (g_strv_contains (not_yet, walk->name) && !decidable)
        g_string_append_printf (missed, " %s (%u of %u hand-overs told by their adverts, the "
                                "weakest z = %.1f)", walk->name, result.n_handovers_decidable,
                                result.n_handovers, result.handover_min_received_z);
      else
        g_test_fail_printf ("%s: not every beacon at the top in turn: %s; %u of %u hand-overs "
                            "told by their adverts (the weakest z = %.1f)", walk->name, tops,
                            result.n_handovers_decidable, result.n_handovers,
                            result.handover_min_received_z);
    }

  /* A failure stands: incomplete would mark the test as such instead. */
  if (missed->len > 0 && !g_test_failed ())
    g_test_incomplete_printf ("not every beacon at the top in turn, nor every hand-over told by "
                              "the adverts, in%s", missed->str);
}

/* A beacon that goes silent for 40 s (and is forgotten) is the top row again soon after it
 * comes back; two beacons at the same distance do not swap on noise. */
static void
test_silent_and_twins (void)
{
  CalmResult silent, twins;

  calm_run (scenario ("silent-sigma6"), TRUE, NULL, &silent);
  calm_run (scenario ("twins-sigma6"), TRUE, NULL, &twins);
  g_test_message ("silent-sigma6: top row %.2f s after it came back; twins-sigma6: %.1f reorders "
                  "a minute", silent.time_to_top_s, twins.reorders_per_minute);
  g_assert_cmpfloat (silent.time_to_top_s, >=, 0.0);
  g_assert_cmpfloat (silent.time_to_top_s, <=, 3.0);
  g_assert_cmpfloat (twins.reorders_per_minute, <=, 1.0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/list-calm/baseline-restless", test_baseline_restless);
  g_test_add_func ("/list-calm/still", test_still);
  g_test_add_func ("/list-calm/walk-up", test_walk_up);
  g_test_add_func ("/list-calm/walk-past", test_walk_past);
  g_test_add_func ("/list-calm/sections", test_sections);
  g_test_add_func ("/list-calm/silent-and-twins", test_silent_and_twins);

  return g_test_run ();
}
