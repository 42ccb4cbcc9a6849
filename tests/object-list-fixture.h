/* object-list-fixture.h: a NearbyObjectList fed by a test source on a fake clock, and beacons
 * to feed it
 *
 * Shared by the tests of the object, the list and its ranking.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "nearby-object-list.h"
#include "nearby-test-utils.h"

G_BEGIN_DECLS

#define TX_POWER (-20)
#define SECOND NEARBY_TEST_SECOND

typedef struct {
  NearbyTestSource *source;
  NearbyTestClock   clock;            /* starts at 1000 s */
  NearbyObjectList *list;
  guint             n_changes;        /* items-changed emissions */
  guint             n_moves;          /* emissions that both removed and added rows */
  GPtrArray        *removed_objects;  /* from object-removed */
} Fixture;

void          fixture_set_up    (Fixture           *fixture,
                                 gconstpointer      data);
/* Asserts that nothing else holds the list or the source. */
void          fixture_tear_down (Fixture           *fixture,
                                 gconstpointer      data);

/* Adds @func, a void (Fixture *, gconstpointer), as the test @path. */
#define add_fixture_test(path, func) \
  g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)

/* The RSSI of a beacon calibrated at TX_POWER, @metres away, in the default model. */
int           rssi_at           (double             metres);
NearbyFrame   url_frame         (const char        *url);
NearbyFrame   tlm_frame         (void);
NearbyFrame   uid_frame         (guint8             instance);

/* A sighting of @frame from @address, now. */
void          emit_frame        (Fixture           *fixture,
                                 const char        *address,
                                 const NearbyFrame *frame,
                                 int                rssi);
void          emit_url          (Fixture           *fixture,
                                 const char        *address,
                                 const char        *url,
                                 double             metres);

/* The shown rows. */
NearbyObject *item              (Fixture           *fixture,
                                 guint              position);
guint         n_items           (Fixture           *fixture);
const char   *url_at            (Fixture           *fixture,
                                 guint              position);

/* A "notify" handler that counts into the guint it is given. */
void          on_notify_count   (GObject           *object,
                                 GParamSpec        *pspec,
                                 guint             *count);

G_END_DECLS
