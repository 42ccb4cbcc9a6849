/* bench-churn-source.h: a NearbySource of many still beacons whose RSSI never stops changing
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "nearby-object-list.h"
#include "nearby-source.h"

G_BEGIN_DECLS

#define BENCH_TYPE_CHURN_SOURCE (bench_churn_source_get_type ())
G_DECLARE_FINAL_TYPE (BenchChurnSource, bench_churn_source, BENCH, CHURN_SOURCE, GObject)

/* @n_beacons beacons, each sighted @rate_per_beacon times a second, each at a fixed distance
 * (0.5 to 30 m). With @noise_db > 0 every sighting's RSSI is the beacon's mean plus Gaussian
 * noise of that standard deviation (a real radio's); with 0 it is always the mean. */
BenchChurnSource *bench_churn_source_new            (guint             n_beacons,
                                                     double            rate_per_beacon,
                                                     double            noise_db);
void              bench_churn_source_start          (BenchChurnSource *self);
void              bench_churn_source_stop           (BenchChurnSource *self);
void              bench_churn_source_set_noise      (BenchChurnSource *self,
                                                     double            noise_db);
guint64           bench_churn_source_get_n_emitted  (BenchChurnSource *self);

/* The churn the list benchmarks measure, from the environment: BENCH_LIST_OBJECTS beacons
 * (2000), each sighted BENCH_LIST_RATE times a second (5), with BENCH_LIST_NOISE dB of RSSI noise
 * (3), for BENCH_LIST_SECONDS (20) a phase. */
typedef struct {
  guint  n_objects;
  double rate;
  double noise_db;
  double seconds;
} BenchChurnLoad;

BenchChurnLoad bench_churn_load_from_env (void);

/* Counts how often a ranked list model reorders its rows and how many rows each time. */
typedef struct {
  GListModel *model;
  GPtrArray  *order;        /* the items as last seen, unowned */
  gulong      handler_id;
  guint       n_visible;    /* rows counted as "on screen": the first n_visible */
  guint64     n_reorders;   /* items-changed that kept the same rows but moved some */
  guint64     n_rows_moved; /* rows whose position changed, over all reorders */
  guint64     n_visible_moved;
  guint64     n_other_changes;
} BenchOrderWatch;

void bench_order_watch_init  (BenchOrderWatch *watch,
                              GListModel      *model,
                              guint            n_visible);
void bench_order_watch_reset (BenchOrderWatch *watch);
void bench_order_watch_clear (BenchOrderWatch *watch);

G_END_DECLS
