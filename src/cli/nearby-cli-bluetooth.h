/* nearby-cli-bluetooth.h: what `nearby scan` and `nearby advertise` share: the way out of
 * Bluetooth trouble, and what ends a run
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "nearby-source.h"

G_BEGIN_DECLS

/* What the user can do about Bluetooth in @state ("run `rfkill unblock bluetooth`"), to follow
 * the description of the trouble; NULL when there is nothing to do. The advertiser's errors
 * name the same troubles as the scanner's states. "No service" when the system bus itself
 * cannot be reached is advice about the bus, not about bluetoothd. */
char       *nearby_cli_bluetooth_dup_advice (NearbySourceState state);

/* Whether --duration, in seconds (0: until a signal), fits a main-loop timeout. */
gboolean    nearby_cli_duration_is_valid (double duration_s);

typedef void (*NearbyCliStopFunc) (gpointer user_data);

/* What ends a run: the end of --duration, Ctrl-C or SIGTERM. Each calls the stop function; a
 * signal does so every time it comes, so a second Ctrl-C while stopping does not kill the
 * process. Lives on the subcommand's stack. */
typedef struct {
  NearbyCliStopFunc stop;
  gpointer          user_data;
  guint             duration_source;
  gboolean          duration_ended;  /* the stop came from the end of the duration */
  guint             sigint_source;
  guint             sigterm_source;
} NearbyCliStopTriggers;

void nearby_cli_stop_triggers_watch_signals  (NearbyCliStopTriggers *triggers,
                                              NearbyCliStopFunc      stop,
                                              gpointer               user_data);
/* Calls the stop function once, after @duration_s seconds; 0: never. */
void nearby_cli_stop_triggers_start_duration  (NearbyCliStopTriggers *triggers,
                                              double                 duration_s);
void nearby_cli_stop_triggers_cancel_duration (NearbyCliStopTriggers *triggers);
/* Removes every trigger. */
void nearby_cli_stop_triggers_clear           (NearbyCliStopTriggers *triggers);

G_END_DECLS
