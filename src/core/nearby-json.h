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

/* A JSON text written straight into a string, for the records written for every page looked up
 * (the cache, `nearby resolve --json`): json-glib's builder first makes a tree of nodes,
 * objects and hash tables, then walks it, for 120 000 instructions a page. The text is compact,
 * as json-glib writes it; names are escaped as values are. */
typedef struct {
  GString  *out;
  guint     depth;
  guint64   has_items;    /* bit n: the container n deep has a member or element already */
  gboolean  after_name;
} NearbyJsonWriter;

void nearby_json_writer_init         (NearbyJsonWriter *writer,
                                      GString          *out);
void nearby_json_writer_begin_object (NearbyJsonWriter *writer);
void nearby_json_writer_end_object   (NearbyJsonWriter *writer);
void nearby_json_writer_begin_array  (NearbyJsonWriter *writer);
void nearby_json_writer_end_array    (NearbyJsonWriter *writer);
void nearby_json_writer_name         (NearbyJsonWriter *writer,
                                      const char       *name);
/* NULL writes null. */
void nearby_json_writer_string       (NearbyJsonWriter *writer,
                                      const char       *value);
void nearby_json_writer_int          (NearbyJsonWriter *writer,
                                      gint64            value);
void nearby_json_writer_boolean      (NearbyJsonWriter *writer,
                                      gboolean          value);
void nearby_json_writer_null         (NearbyJsonWriter *writer);
/* The member @name, @value or null. */
void nearby_json_writer_string_member (NearbyJsonWriter *writer,
                                       const char       *name,
                                       const char       *value);

G_END_DECLS
