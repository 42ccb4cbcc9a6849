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

/* Writer */

void
nearby_json_writer_init (NearbyJsonWriter *writer,
                         GString          *out)
{
  g_return_if_fail (writer != NULL);
  g_return_if_fail (out != NULL);

  *writer = (NearbyJsonWriter) { .out = out };
}

/* Before any value: the comma after the container's last item, unless a name came just before. */
static void
before_value (NearbyJsonWriter *writer)
{
  guint64 bit = G_GUINT64_CONSTANT (1) << writer->depth;

  if (writer->after_name)
    {
      writer->after_name = FALSE;
      return;
    }
  if (writer->has_items & bit)
    g_string_append_c (writer->out, ',');
  writer->has_items |= bit;
}

static void
begin (NearbyJsonWriter *writer,
       char              bracket)
{
  before_value (writer);
  g_return_if_fail (writer->depth < 63);
  g_string_append_c (writer->out, bracket);
  writer->depth++;
  writer->has_items &= ~(G_GUINT64_CONSTANT (1) << writer->depth);
}

static void
end (NearbyJsonWriter *writer,
     char              bracket)
{
  g_return_if_fail (writer->depth > 0 && !writer->after_name);
  writer->depth--;
  g_string_append_c (writer->out, bracket);
}

void
nearby_json_writer_begin_object (NearbyJsonWriter *writer)
{
  begin (writer, '{');
}

void
nearby_json_writer_end_object (NearbyJsonWriter *writer)
{
  end (writer, '}');
}

void
nearby_json_writer_begin_array (NearbyJsonWriter *writer)
{
  begin (writer, '[');
}

void
nearby_json_writer_end_array (NearbyJsonWriter *writer)
{
  end (writer, ']');
}

/* As RFC 8259 has it: quote and backslash escaped, the controls in their short forms or as
 * \u00XX (DEL too, as json-glib does), the rest as it is: text here is UTF-8 already. */
static void
append_quoted (GString    *out,
               const char *text)
{
  const char *run = text;
  const char *p;

  g_string_append_c (out, '"');
  for (p = text; *p != '\0'; p++)
    {
      guchar c = *p;
      const char *escape;

      if (c >= 0x20 && c != 0x7f && c != '"' && c != '\\')
        continue;

      g_string_append_len (out, run, p - run);
      run = p + 1;
      switch (c)
        {
        case '"': escape = "\\\""; break;
        case '\\': escape = "\\\\"; break;
        case '\b': escape = "\\b"; break;
        case '\f': escape = "\\f"; break;
        case '\n': escape = "\\n"; break;
        case '\r': escape = "\\r"; break;
        case '\t': escape = "\\t"; break;
        default: escape = NULL; break;
        }
      if (escape != NULL)
        g_string_append (out, escape);
      else
        g_string_append_printf (out, "\\u%04x", c);
    }
  g_string_append_len (out, run, p - run);
  g_string_append_c (out, '"');
}

void
nearby_json_writer_name (NearbyJsonWriter *writer,
                         const char       *name)
{
  g_return_if_fail (name != NULL);
  g_return_if_fail (writer->depth > 0 && !writer->after_name);

  before_value (writer);
  append_quoted (writer->out, name);
  g_string_append_c (writer->out, ':');
  writer->after_name = TRUE;
}

void
nearby_json_writer_string (NearbyJsonWriter *writer,
                           const char       *value)
{
  if (value == NULL)
    {
      nearby_json_writer_null (writer);
      return;
    }
  before_value (writer);
  append_quoted (writer->out, value);
}

void
nearby_json_writer_int (NearbyJsonWriter *writer,
                        gint64            value)
{
  before_value (writer);
  g_string_append_printf (writer->out, "%" G_GINT64_FORMAT, value);
}

void
nearby_json_writer_boolean (NearbyJsonWriter *writer,
                            gboolean          value)
{
  before_value (writer);
  g_string_append (writer->out, value ? "true" : "false");
}

void
nearby_json_writer_null (NearbyJsonWriter *writer)
{
  before_value (writer);
  g_string_append (writer->out, "null");
}

void
nearby_json_writer_string_member (NearbyJsonWriter *writer,
                                  const char       *name,
                                  const char       *value)
{
  nearby_json_writer_name (writer, name);
  nearby_json_writer_string (writer, value);
}
