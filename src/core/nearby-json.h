/* nearby-json.h: what the JSON records (pages, objects) are built from
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* Adds the member @name to the object @builder is building: @value, or null when @value is
 * NULL, so that a record always has the same members and scripts can rely on them. */
void nearby_json_add_string_member (JsonBuilder *builder,
                                    const char  *name,
                                    const char  *value);

G_END_DECLS
