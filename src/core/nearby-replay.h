/* nearby-replay.h: a NearbySource that plays back a capture written by `nearby scan --json`, or
 * a btsnoop capture (Android's HCI snoop log, `btmon -w`)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "nearby-btsnoop.h"
#include "nearby-source.h"

G_BEGIN_DECLS

#define NEARBY_TYPE_REPLAY (nearby_replay_get_type ())
G_DECLARE_FINAL_TYPE (NearbyReplay, nearby_replay, NEARBY, REPLAY, GObject)

/* Reads JSON Lines, one advertisement per line ("time", "address", "rssi", "raw" and "uuid" or
 * "company_id"), re-decodes "raw" and emits a sighting per line at the original pace (scaled by
 * "speed"), stamped with the current time. Bad lines are skipped with a "line-error" (line
 * number, message such as "line 7: raw is not hexadecimal"). The state turns "finished" at the
 * end of the file, or "error" when the file cannot be read.
 *
 * A file that starts with btsnoop's magic is a btsnoop capture: its advertising reports play
 * instead, at the pace of their records' timestamps, and a record that cannot be read is a
 * "line-error" with the record's number ("record 7: ..."). */
NearbyReplay *nearby_replay_new          (GFile        *file);
/* Starts reading; connect to "sighting" and "line-error" first. */
void          nearby_replay_start        (NearbyReplay *self);

/* Parses one line of a capture into a sighting stamped with its capture time, decoding "raw"
 * again. Returns NULL with a G_IO_ERROR_INVALID_DATA error saying what is wrong
 * ("raw is not hexadecimal") for a line that is not an advertisement, or G_IO_ERROR_NOT_SUPPORTED
 * for a device that is no beacon ("protocol": null, as `nearby scan --all` writes them from a
 * btsnoop capture), which a replay passes over. */
NearbySighting *nearby_replay_parse_line (const char  *line,
                                          GError     **error);

/* Appends to @sightings (of NearbySighting) one sighting per beacon frame of @report, stamped
 * with its capture time, as a live scan of the same radio would have them. Returns how many. */
guint nearby_replay_add_report_sightings (const NearbyBtsnoopReport *report,
                                          GPtrArray                 *sightings);

GFile        *nearby_replay_get_file     (NearbyReplay *self);
/* 1.0 replays in real time, 2.0 twice as fast; 0 as fast as the file can be read. */
double        nearby_replay_get_speed    (NearbyReplay *self);
void          nearby_replay_set_speed    (NearbyReplay *self,
                                          double        speed);
guint         nearby_replay_get_n_sightings (NearbyReplay *self);
guint         nearby_replay_get_n_errors (NearbyReplay *self);
/* The messages of the bad lines so far (the first thousand), in file order. */
const char * const *nearby_replay_get_errors (NearbyReplay *self);

G_END_DECLS
