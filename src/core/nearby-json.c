/* nearby-json.c: what the JSON records (pages, objects) are built from
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-json"

#include "config.h"

#include "nearby-json.h"

void
nearby_json_add_string_member (JsonBuilder *builder,
                               const char  *name,
                               const char  *value)
{
  g_return_if_fail (JSON_IS_BUILDER (builder));
  g_return_if_fail (name != NULL);

  json_builder_set_member_name (builder, name);
  if (value != NULL)
    json_builder_add_string_value (builder, value);
  else
    json_builder_add_null_value (builder);
}
