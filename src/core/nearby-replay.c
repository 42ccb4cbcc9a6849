/* nearby-replay.c
 *
 * Over 900 lines: one source for two formats (JSON Lines, played line by line, and btsnoop
 * captures, read whole), each at the captured pace, with every skipped line or record said
 * with its number and reason, and at the end how many were skipped.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-replay"

#include "config.h"

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "nearby-advert.h"
#include "nearby-hex.h"
#include "nearby-replay.h"

/* A file of garbage should not grow memory without bound: later messages are only counted. */
#define MAX_KEPT_ERRORS 1000

/* A capture line is a flat object of a few hundred bytes. json-glib's parser recurses once per
 * nesting level without a limit, so a hostile line of brackets would overflow the stack: such
 * lines are refused before they reach it, as are absurdly long ones. */
#define MAX_LINE_DEPTH  16
#define MAX_LINE_LENGTH 16384

/* A btsnoop capture played as fast as it can be lets the main loop run between this many
 * sightings. */
#define BTSNOOP_BATCH 256

/* What the scanner takes for a real RSSI; anything else is unknown. */
#define RSSI_MIN (-127)
#define RSSI_MAX 20

struct _NearbyReplay
{
  GObject            parent_instance;

  GFile             *file;
  double             speed;

  NearbySourceState  state;
  char              *state_message;

  GCancellable      *cancellable;
  GDataInputStream  *input;
  guint              line_number;
  guint              wait_id;

  /* The capture's time of the first replayed line, and the monotonic time it was replayed at. */
  gboolean           started;
  gint64             capture_origin_us;
  gint64             replay_origin_us;
  gint64             last_capture_us;

  /* The line waiting for its time to come, stamped with its capture time. */
  NearbySighting    *pending;

  /* A btsnoop capture, read whole, and the sightings of its report being played. */
  NearbyBtsnoopReader *reader;
  GPtrArray         *report_sightings;
  guint              report_next;

  guint              n_sightings;
  guint              n_errors;
  GPtrArray         *errors;
};

static void source_iface_init (NearbySourceInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (NearbyReplay, nearby_replay, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (NEARBY_TYPE_SOURCE, source_iface_init))

enum {
  PROP_0,
  PROP_FILE,
  PROP_SPEED,
  PROP_N_SIGHTINGS,
  PROP_N_ERRORS,
  PROP_STATE,
  PROP_STATE_MESSAGE,
  N_PROPS
};

enum {
  LINE_ERROR,
  N_SIGNALS
};

/* The source interface's own two come last, and are not kept here. */
static GParamSpec *properties[PROP_STATE];
static guint signals[N_SIGNALS];

static void read_next_line (NearbyReplay *self);
static gboolean on_line_due (gpointer user_data);

static void
source_iface_init (NearbySourceInterface *iface)
{
}

static void
set_state (NearbyReplay      *self,
           NearbySourceState  state,
           const char        *message)
{
  nearby_source_update_state (NEARBY_SOURCE (self), &self->state, &self->state_message, state,
                              message);
}

/* The end of the capture. Skipped lines are said there, the first with its reason: a capture
 * whose lines were all skipped did not replay anything, and should not look as if it had. */
static void
finish (NearbyReplay *self)
{
  g_autofree char *message = NULL;
  const char *first = self->errors->len > 1 ? g_ptr_array_index (self->errors, 0) : NULL;

  if (self->n_errors > 0 && self->n_sightings == 0)
    message = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                            "Nothing was replayed: the capture’s %u line was skipped:\n%s",
                                            "Nothing was replayed: all %u lines of the capture were skipped. The first one:\n%s",
                                            self->n_errors),
                               self->n_errors, first);
  else if (self->n_errors > 0)
    message = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                            "The capture has been replayed, except %u line that was skipped:\n%s",
                                            "The capture has been replayed, except %u lines that were skipped. The first one:\n%s",
                                            self->n_errors),
                               self->n_errors, first);

  set_state (self, NEARBY_SOURCE_STATE_FINISHED, message);
}

/* @message says where: "line 7: ..." or "record 7: ...". */
static void
report_error (NearbyReplay *self,
              guint         number,
              const char   *message)
{
  g_debug ("%s", message);

  self->n_errors++;
  if (self->errors->len < MAX_KEPT_ERRORS)
    {
      g_ptr_array_remove_index (self->errors, self->errors->len - 1);
      g_ptr_array_add (self->errors, g_strdup (message));
      g_ptr_array_add (self->errors, NULL);
    }

  g_signal_emit (self, signals[LINE_ERROR], 0, number, message);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_ERRORS]);
}

static void
report_line_error (NearbyReplay *self,
                   const char   *reason)
{
  g_autofree char *message = NULL;

  /* Translators: "line 7: raw is not hexadecimal" */
  message = g_strdup_printf (_("line %u: %s"), self->line_number, reason);
  report_error (self, self->line_number, message);
}

static gpointer line_error (GError     **error,
                            const char  *format,
                            ...) G_GNUC_PRINTF (2, 3);

/* Sets @error to a reason a line is skipped (without its number) and returns NULL. */
static gpointer
line_error (GError     **error,
            const char  *format,
            ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, message);
  return NULL;
}

/* Counts nesting the way a JSON parser would (brackets inside strings do not count) and stops
 * as soon as it is too deep. */
static gboolean
nesting_is_shallow (const char *line)
{
  gboolean in_string = FALSE;
  guint depth = 0;

  for (const char *p = line; *p != '\0'; p++)
    {
      if (in_string)
        {
          if (*p == '\\' && p[1] != '\0')
            p++;
          else if (*p == '"')
            in_string = FALSE;
        }
      else if (*p == '"')
        in_string = TRUE;
      else if (*p == '[' || *p == '{')
        {
          if (++depth > MAX_LINE_DEPTH)
            return FALSE;
        }
      else if ((*p == ']' || *p == '}') && depth > 0)
        depth--;
    }

  return TRUE;
}

/* Accepts "feaa", "0xFEAA" and the 128-bit form on the Bluetooth base UUID. */
static gboolean
parse_uuid16 (const char *text,
              guint16    *uuid16)
{
  static const char base_suffix[] = "-0000-1000-8000-00805f9b34fb";
  const char *digits = text;
  guint value = 0;

  if (g_str_has_prefix (digits, "0x") || g_str_has_prefix (digits, "0X"))
    digits += 2;

  if (strlen (digits) == 4 + 4 + strlen (base_suffix)
      && strncmp (digits, "0000", 4) == 0
      && g_ascii_strcasecmp (digits + 8, base_suffix) == 0)
    digits += 4;
  else if (strlen (digits) != 4)
    return FALSE;

  for (guint i = 0; i < 4; i++)
    {
      int nibble = g_ascii_xdigit_value (digits[i]);

      if (nibble < 0)
        return FALSE;
      value = value << 4 | (guint) nibble;
    }

  *uuid16 = (guint16) value;
  return TRUE;
}

static gboolean
get_integer_member (JsonObject *object,
                    const char *name,
                    gint64     *value)
{
  JsonNode *node = json_object_get_member (object, name);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node)
      || json_node_get_value_type (node) != G_TYPE_INT64)
    return FALSE;

  *value = json_node_get_int (node);
  return TRUE;
}

static const char *
get_string_member (JsonObject *object,
                   const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node)
      || json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;

  return json_node_get_string (node);
}

NearbySighting *
nearby_replay_parse_line (const char  *line,
                          GError     **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) json_error = NULL;
  g_autoptr(GDateTime) time = NULL;
  g_autoptr(GTimeZone) utc = g_time_zone_new_utc ();
  g_autoptr(GBytes) raw = NULL;
  JsonObject *object;
  JsonNode *root;
  const char *time_text;
  const char *address;
  const char *raw_text;
  const char *uuid_text;
  gint64 rssi = NEARBY_RSSI_UNKNOWN;
  gint64 company_id = -1;
  gint64 capture_us;
  guint16 uuid16 = 0;
  const guint8 *raw_data;
  gsize raw_len;
  NearbyFrame frame;
  gsize length = strlen (line);

  if (length > MAX_LINE_LENGTH)
    return line_error (error, g_dngettext (GETTEXT_PACKAGE,
                                           "%zu byte long, too long for an advertisement",
                                           "%zu bytes long, too long for an advertisement",
                                           length),
                       length);

  if (!g_utf8_validate (line, length, NULL))
    return line_error (error, "%s", _("not UTF-8 text"));

  if (!nesting_is_shallow (line))
    return line_error (error, "%s", _("nested too deeply for an advertisement"));

  if (!json_parser_load_from_data (parser, line, -1, &json_error))
    return line_error (error, _("not JSON (%s)"), json_error->message);

  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return line_error (error, "%s", _("not a JSON object"));
  object = json_node_get_object (root);

  /* `nearby scan --all` over a btsnoop capture writes the devices that are no beacon too. */
  if (json_object_has_member (object, "protocol")
      && json_object_get_null_member (object, "protocol"))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, _("not a beacon"));
      return NULL;
    }

  time_text = get_string_member (object, "time");
  if (time_text == NULL)
    return line_error (error, "%s", _("time is missing"));
  time = g_date_time_new_from_iso8601 (time_text, utc);
  if (time == NULL)
    return line_error (error, _("time “%s” is not an ISO 8601 date"), time_text);
  capture_us = g_date_time_to_unix (time) * G_USEC_PER_SEC + g_date_time_get_microsecond (time);

  address = get_string_member (object, "address");
  if (address == NULL || address[0] == '\0')
    return line_error (error, "%s", _("address is missing"));

  if (json_object_has_member (object, "rssi") && json_object_get_null_member (object, "rssi"))
    rssi = NEARBY_RSSI_UNKNOWN;
  else if (!json_object_has_member (object, "rssi"))
    return line_error (error, "%s", _("rssi is missing"));
  else if (!get_integer_member (object, "rssi", &rssi) || rssi < -128 || rssi > 127)
    return line_error (error, "%s", _("rssi is not a number of dBm"));

  raw_text = get_string_member (object, "raw");
  if (raw_text == NULL)
    return line_error (error, "%s", _("raw is missing"));
  raw = nearby_hex_parse (raw_text, NULL);
  if (raw == NULL)
    return line_error (error, "%s", _("raw is not hexadecimal"));
  raw_data = g_bytes_get_data (raw, &raw_len);
  if (raw_len > NEARBY_ADV_MAX)
    return line_error (error, g_dngettext (GETTEXT_PACKAGE,
                                           "raw is %zu byte, longer than an advertisement",
                                           "raw is %zu bytes, longer than an advertisement",
                                           raw_len),
                       raw_len);

  if (json_object_has_member (object, "company_id"))
    {
      if (!get_integer_member (object, "company_id", &company_id)
          || company_id < 0 || company_id > 0xffff)
        return line_error (error, "%s", _("company_id is not a 16-bit number"));
      nearby_frame_decode_manufacturer_data ((guint16) company_id, raw_data, raw_len, &frame);
    }
  else if ((uuid_text = get_string_member (object, "uuid")) != NULL)
    {
      if (!parse_uuid16 (uuid_text, &uuid16))
        return line_error (error, _("uuid “%s” is not a 16-bit Bluetooth UUID"), uuid_text);
      nearby_frame_decode_service_data (uuid16, raw_data, raw_len, &frame);
    }
  else
    return line_error (error, "%s", _("neither uuid nor company_id says what raw is"));

  return nearby_sighting_new (address, capture_us, (int) rssi, &frame, raw_data, raw_len);
}

guint
nearby_replay_add_report_sightings (const NearbyBtsnoopReport *report,
                                    GPtrArray                 *sightings)
{
  NearbyAdvertFrame frames[NEARBY_ADVERT_MAX_FRAMES];
  guint n_frames;
  int rssi = report->rssi;

  g_return_val_if_fail (report != NULL, 0);
  g_return_val_if_fail (sightings != NULL, 0);

  if (rssi < RSSI_MIN || rssi > RSSI_MAX)
    rssi = NEARBY_RSSI_UNKNOWN;

  n_frames = nearby_advert_decode_payload (report->data, report->data_len, frames);
  for (guint i = 0; i < n_frames; i++)
    g_ptr_array_add (sightings, nearby_sighting_new (report->address, report->time_us, rssi,
                                                     &frames[i].frame, frames[i].raw,
                                                     frames[i].raw_len));

  return n_frames;
}

static void
emit_pending (NearbyReplay *self)
{
  g_autoptr(NearbySighting) sighting = g_steal_pointer (&self->pending);

  sighting->time_us = g_get_real_time ();
  self->n_sightings++;
  nearby_source_emit_sighting (NEARBY_SOURCE (self), sighting);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_SIGHTINGS]);
}

/* Takes @sighting (stamped with its capture time) and emits it when its time comes. TRUE when
 * it waits for that. */
static gboolean
schedule (NearbyReplay   *self,
          NearbySighting *sighting)
{
  gint64 due_us;
  gint64 wait_us;

  if (!self->started)
    {
      self->started = TRUE;
      self->capture_origin_us = sighting->time_us;
      self->replay_origin_us = g_get_monotonic_time ();
    }
  self->last_capture_us = MAX (self->last_capture_us, sighting->time_us);
  self->pending = sighting;

  if (self->speed > 0)
    {
      due_us = self->replay_origin_us
               + (gint64) ((self->pending->time_us - self->capture_origin_us) / self->speed);
      wait_us = due_us - g_get_monotonic_time ();
      if (wait_us > 0)
        {
          self->wait_id = g_timeout_add_full (G_PRIORITY_DEFAULT, (guint) MIN (wait_us / 1000 + 1, G_MAXUINT),
                                              on_line_due, self, NULL);
          return TRUE;
        }
    }

  emit_pending (self);
  return FALSE;
}

/* The next sighting of the btsnoop capture, or NULL at its end; a record that cannot be read
 * is reported on the way. */
static NearbySighting *
next_report_sighting (NearbyReplay *self)
{
  for (;;)
    {
      NearbyBtsnoopReport report;
      g_autoptr(GError) error = NULL;

      if (self->report_next < self->report_sightings->len)
        return g_steal_pointer (&self->report_sightings->pdata[self->report_next++]);

      g_ptr_array_set_size (self->report_sightings, 0);
      self->report_next = 0;

      if (nearby_btsnoop_reader_next (self->reader, &report, &error))
        nearby_replay_add_report_sightings (&report, self->report_sightings);
      else if (error != NULL)
        report_error (self, nearby_btsnoop_reader_get_n_records (self->reader), error->message);
      else
        return NULL;
    }
}

static gboolean on_batch_due (gpointer user_data);

static void
play_reports (NearbyReplay *self)
{
  for (guint i = 0; i < BTSNOOP_BATCH; i++)
    {
      NearbySighting *sighting = next_report_sighting (self);

      if (sighting == NULL)
        {
          finish (self);
          return;
        }
      if (schedule (self, sighting))
        return;
    }

  self->wait_id = g_idle_add (on_batch_due, self);
}

static gboolean
on_batch_due (gpointer user_data)
{
  NearbyReplay *self = user_data;

  self->wait_id = 0;
  play_reports (self);

  return G_SOURCE_REMOVE;
}

static gboolean
on_line_due (gpointer user_data)
{
  NearbyReplay *self = user_data;

  self->wait_id = 0;
  emit_pending (self);
  read_next_line (self);

  return G_SOURCE_REMOVE;
}

static void
on_line_read (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(NearbySighting) sighting = NULL;
  g_autofree char *line = NULL;
  NearbyReplay *self;

  line = g_data_input_stream_read_line_finish (G_DATA_INPUT_STREAM (object), result, NULL, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  self = user_data;

  if (error != NULL)
    {
      g_autofree char *message =
        g_strdup_printf (_("Could not read line %u of the capture: %s"),
                         self->line_number + 1, error->message);

      set_state (self, NEARBY_SOURCE_STATE_ERROR, message);
      return;
    }

  if (line == NULL)
    {
      finish (self);
      return;
    }

  self->line_number++;

  g_strstrip (line);
  if (line[0] == '\0')
    {
      read_next_line (self);
      return;
    }

  sighting = nearby_replay_parse_line (line, &error);
  if (sighting == NULL && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED))
    {
      read_next_line (self);
      return;
    }
  if (sighting == NULL)
    {
      report_line_error (self, error->message);
      read_next_line (self);
      return;
    }

  if (self->started && sighting->time_us < self->last_capture_us)
    {
      g_autofree char *reason =
        g_strdup_printf (_("time goes back %.3f s from the line before"),
                         (self->last_capture_us - sighting->time_us) / (double) G_USEC_PER_SEC);

      report_line_error (self, reason);
      read_next_line (self);
      return;
    }

  if (!schedule (self, g_steal_pointer (&sighting)))
    read_next_line (self);
}

static void
read_next_line (NearbyReplay *self)
{
  if (self->reader != NULL)
    {
      play_reports (self);
      return;
    }

  g_data_input_stream_read_line_async (self->input, G_PRIORITY_DEFAULT, self->cancellable,
                                       on_line_read, self);
}

static void
on_capture_read (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  NearbyReplay *self;

  if (g_output_stream_splice_finish (G_OUTPUT_STREAM (object), result, &error) < 0
      && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  self = user_data;

  if (error == NULL)
    {
      bytes = g_memory_output_stream_steal_as_bytes (G_MEMORY_OUTPUT_STREAM (object));
      self->reader = nearby_btsnoop_reader_new (bytes, &error);
    }
  if (self->reader == NULL)
    {
      g_autofree char *message =
        g_strdup_printf (_("Could not read the capture: %s"), error->message);

      set_state (self, NEARBY_SOURCE_STATE_ERROR, message);
      return;
    }

  set_state (self, NEARBY_SOURCE_STATE_SCANNING, NULL);
  play_reports (self);
}

/* The first bytes say which kind of capture it is. */
static void
on_start_read (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GOutputStream) memory = NULL;
  NearbyReplay *self;
  const guint8 *start;
  gsize available = 0;

  if (g_buffered_input_stream_fill_finish (G_BUFFERED_INPUT_STREAM (object), result, &error) < 0
      && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  self = user_data;
  /* A read error is said by the first line's read, as before. */
  start = g_buffered_input_stream_peek_buffer (G_BUFFERED_INPUT_STREAM (object), &available);
  if (error != NULL || !nearby_btsnoop_has_magic (start, available))
    {
      set_state (self, NEARBY_SOURCE_STATE_SCANNING, NULL);
      read_next_line (self);
      return;
    }

  self->report_sightings = g_ptr_array_new_with_free_func ((GDestroyNotify) nearby_sighting_free);
  memory = g_memory_output_stream_new_resizable ();
  g_output_stream_splice_async (memory, G_INPUT_STREAM (self->input),
                                G_OUTPUT_STREAM_SPLICE_CLOSE_SOURCE
                                | G_OUTPUT_STREAM_SPLICE_CLOSE_TARGET,
                                G_PRIORITY_DEFAULT, self->cancellable, on_capture_read, self);
}

static void
on_file_opened (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GFileInputStream) stream = NULL;
  NearbyReplay *self;

  stream = g_file_read_finish (G_FILE (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  self = user_data;

  if (stream == NULL)
    {
      /* GIO's message already names the file. */
      g_autofree char *message =
        g_strdup_printf (_("Could not open the capture: %s"), error->message);

      set_state (self, NEARBY_SOURCE_STATE_ERROR, message);
      return;
    }

  self->input = g_data_input_stream_new (G_INPUT_STREAM (stream));
  g_data_input_stream_set_newline_type (self->input, G_DATA_STREAM_NEWLINE_TYPE_ANY);
  g_buffered_input_stream_fill_async (G_BUFFERED_INPUT_STREAM (self->input),
                                      NEARBY_BTSNOOP_MAGIC_LEN, G_PRIORITY_DEFAULT,
                                      self->cancellable, on_start_read, self);
}

void
nearby_replay_start (NearbyReplay *self)
{
  g_return_if_fail (NEARBY_IS_REPLAY (self));
  g_return_if_fail (self->cancellable == NULL);

  self->cancellable = g_cancellable_new ();
  g_file_read_async (self->file, G_PRIORITY_DEFAULT, self->cancellable, on_file_opened, self);
}

NearbyReplay *
nearby_replay_new (GFile *file)
{
  g_return_val_if_fail (G_IS_FILE (file), NULL);

  return g_object_new (NEARBY_TYPE_REPLAY, "file", file, NULL);
}

GFile *
nearby_replay_get_file (NearbyReplay *self)
{
  g_return_val_if_fail (NEARBY_IS_REPLAY (self), NULL);

  return self->file;
}

double
nearby_replay_get_speed (NearbyReplay *self)
{
  g_return_val_if_fail (NEARBY_IS_REPLAY (self), 1.0);

  return self->speed;
}

void
nearby_replay_set_speed (NearbyReplay *self,
                         double        speed)
{
  g_return_if_fail (NEARBY_IS_REPLAY (self));
  g_return_if_fail (speed >= 0);

  if (self->speed == speed)
    return;

  /* Keep the line being waited for where it is in time, and pace the rest anew from here. */
  if (self->started)
    {
      self->capture_origin_us = self->last_capture_us;
      self->replay_origin_us = g_get_monotonic_time ();
    }

  self->speed = speed;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SPEED]);
}

guint
nearby_replay_get_n_sightings (NearbyReplay *self)
{
  g_return_val_if_fail (NEARBY_IS_REPLAY (self), 0);

  return self->n_sightings;
}

guint
nearby_replay_get_n_errors (NearbyReplay *self)
{
  g_return_val_if_fail (NEARBY_IS_REPLAY (self), 0);

  return self->n_errors;
}

const char * const *
nearby_replay_get_errors (NearbyReplay *self)
{
  g_return_val_if_fail (NEARBY_IS_REPLAY (self), NULL);

  return (const char * const *) self->errors->pdata;
}

static void
nearby_replay_dispose (GObject *object)
{
  NearbyReplay *self = (NearbyReplay *)object;

  g_cancellable_cancel (self->cancellable);
  g_clear_handle_id (&self->wait_id, g_source_remove);

  G_OBJECT_CLASS (nearby_replay_parent_class)->dispose (object);
}

static void
nearby_replay_finalize (GObject *object)
{
  NearbyReplay *self = (NearbyReplay *)object;

  g_clear_object (&self->cancellable);
  g_clear_object (&self->input);
  g_clear_object (&self->file);
  g_clear_pointer (&self->state_message, g_free);
  g_clear_pointer (&self->pending, nearby_sighting_free);
  g_clear_pointer (&self->reader, nearby_btsnoop_reader_free);
  g_clear_pointer (&self->report_sightings, g_ptr_array_unref);
  g_clear_pointer (&self->errors, g_ptr_array_unref);

  G_OBJECT_CLASS (nearby_replay_parent_class)->finalize (object);
}

static void
nearby_replay_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  NearbyReplay *self = NEARBY_REPLAY (object);

  switch (prop_id)
    {
    case PROP_FILE:
      g_value_set_object (value, self->file);
      break;

    case PROP_SPEED:
      g_value_set_double (value, self->speed);
      break;

    case PROP_N_SIGHTINGS:
      g_value_set_uint (value, self->n_sightings);
      break;

    case PROP_N_ERRORS:
      g_value_set_uint (value, self->n_errors);
      break;

    case PROP_STATE:
      g_value_set_enum (value, self->state);
      break;

    case PROP_STATE_MESSAGE:
      g_value_set_string (value, self->state_message);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
nearby_replay_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  NearbyReplay *self = NEARBY_REPLAY (object);

  switch (prop_id)
    {
    case PROP_FILE:
      self->file = g_value_dup_object (value);
      break;

    case PROP_SPEED:
      nearby_replay_set_speed (self, g_value_get_double (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
nearby_replay_class_init (NearbyReplayClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = nearby_replay_dispose;
  object_class->finalize = nearby_replay_finalize;
  object_class->get_property = nearby_replay_get_property;
  object_class->set_property = nearby_replay_set_property;

  properties[PROP_FILE] =
    g_param_spec_object ("file", NULL, NULL, G_TYPE_FILE,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SPEED] =
    g_param_spec_double ("speed", NULL, NULL, 0.0, 1e6, 1.0,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_N_SIGHTINGS] =
    g_param_spec_uint ("n-sightings", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_N_ERRORS] =
    g_param_spec_uint ("n-errors", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, PROP_STATE, properties);

  g_object_class_override_property (object_class, PROP_STATE, "state");
  g_object_class_override_property (object_class, PROP_STATE_MESSAGE, "state-message");

  /* A line was skipped: its number, and a message that starts with "line N: ", or a record of a
   * btsnoop capture: its number, and a message that starts with "record N: ". */
  signals[LINE_ERROR] =
    g_signal_new ("line-error", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_UINT, G_TYPE_STRING);
}

static void
nearby_replay_init (NearbyReplay *self)
{
  self->speed = 1.0;
  self->state = NEARBY_SOURCE_STATE_STARTING;
  self->errors = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (self->errors, NULL);
}
