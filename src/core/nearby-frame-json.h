/* nearby-frame-json.h: frames as the JSON the command line prints and captures hold
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "nearby-frame.h"

G_BEGIN_DECLS

/* Adds the decoded fields of @frame to the object @builder is building: `valid`, `protocol`,
 * `frame`, `tx_power`, `url`, `invisible`, `namespace`, `instance`, `battery_mv`,
 * `temperature_c`, `adv_count`, `uptime_s`, ... and `error` / `error_code` when invalid.
 * Fields that do not apply to the frame's kind are left out, except `tx_power` and `url`,
 * which are always present (null when unknown) so that scripts can rely on them. `error` is the
 * detailed sentence of nearby_frame_format_error(), naming the offending byte or length. */
void     nearby_frame_add_json_members (const NearbyFrame  *frame,
                                        JsonBuilder        *builder);

G_END_DECLS
