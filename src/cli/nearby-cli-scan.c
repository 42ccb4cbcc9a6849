/* nearby-cli-scan.c: `nearby scan`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-cli"

#include "config.h"

#include <gio/gunixinputstream.h>
#include <glib/gi18n.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include "nearby-cli.h"
#include "nearby-cli-bluetooth.h"
#include "nearby-cli-scan-filter.h"
#include "nearby-cli-scan-report.h"
#include "nearby-cli-scan-table.h"
#include "nearby-frame-json.h"
#include "nearby-btsnoop.h"
#include "nearby-hex.h"
#include "nearby-replay.h"
#include "nearby-scanner.h"
#include "nearby-text.h"

/* How long bluetoothd may take to answer before we call it unavailable, and how long an
 * "unavailable" state must last at startup before we believe it. */
#define SETTLE_TIMEOUT_MS   10000
#define UNAVAILABLE_GRACE_MS  1000
#define STOP_TIMEOUT_MS      3000
#define REFRESH_INTERVAL_MS  1000

typedef struct {
  NearbyScanner         *scanner;
  GMainLoop             *loop;
  NearbyCliScanTable    *table;
  gboolean               json;
  NearbyCliScanFilter    filter;
  gint64                 table_time_us;  /* what the AGE column counts from; 0: now */
  gboolean               interactive;
  gboolean               faint;     /* fading rows are shown faint */
  double                 duration_s;
  double                 speed;     /* --from: 0 as fast as possible, 1 at the captured pace */
  gboolean               paced;
  gint64                 capture_origin_us;
  gint64                 pace_origin_us;
  int                    exit_code;
  gboolean               scanning_started;
  gboolean               stopping;
  guint                  settle_source;
  guint                  grace_source;
  NearbyCliStopTriggers  stop_triggers;
  guint                  refresh_source;
  guint                  stop_timeout_source;
  guint64                sightings;
} ScanContext;

static gboolean
state_is_unavailable (NearbySourceState state)
{
  switch (state)
    {
    case NEARBY_SOURCE_STATE_NO_SERVICE:
    case NEARBY_SOURCE_STATE_NO_ADAPTER:
    case NEARBY_SOURCE_STATE_OFF:
    case NEARBY_SOURCE_STATE_RFKILL_BLOCKED:
    case NEARBY_SOURCE_STATE_ERROR:
      return TRUE;

    case NEARBY_SOURCE_STATE_STARTING:
    case NEARBY_SOURCE_STATE_SCANNING:
    case NEARBY_SOURCE_STATE_FINISHED:
    default:
      return FALSE;
    }
}

static char *
describe_state (NearbyScanner *scanner)
{
  NearbySourceState state = nearby_source_get_state (NEARBY_SOURCE (scanner));
  g_autofree char *message = nearby_source_dup_state_message (NEARBY_SOURCE (scanner));
  g_autofree char *advice = nearby_cli_bluetooth_dup_advice (state);

  if (message == NULL)
    message = g_strdup (nearby_source_state_to_string (state));

  if (advice != NULL)
    return g_strdup_printf ("%s — %s", message, advice);

  return g_steal_pointer (&message);
}

static char *
format_time (gint64 time_us)
{
  /* A capture has many sightings a second: the date of the last second is kept. */
  static gint64 last_second = G_MININT64;
  static char *last_text = NULL;
  gint64 second = time_us / G_USEC_PER_SEC;

  if (second != last_second)
    {
      g_autoptr(GDateTime) date = g_date_time_new_from_unix_utc (second);

      if (date == NULL)
        return g_strdup ("1970-01-01T00:00:00.000Z");

      g_free (last_text);
      last_text = g_date_time_format (date, "%Y-%m-%dT%H:%M:%S");
      last_second = second;
    }

  return g_strdup_printf ("%s.%03dZ", last_text, (int) ((time_us % G_USEC_PER_SEC) / 1000));
}

/* The members after "distance_m" of a sighting's line, as an object ("{...}"): what its frame
 * says, which depends only on the frame's bytes. */
static char *
format_frame_members (const NearbySighting *sighting,
                      const char           *raw)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) rest = NULL;

  json_builder_begin_object (builder);

  if (sighting->frame.service_uuid != 0)
    {
      g_autofree char *uuid = g_strdup_printf ("%04x", sighting->frame.service_uuid);

      json_builder_set_member_name (builder, "uuid");
      json_builder_add_string_value (builder, uuid);
    }
  else
    {
      json_builder_set_member_name (builder, "company_id");
      json_builder_add_int_value (builder, NEARBY_COMPANY_APPLE);
    }

  json_builder_set_member_name (builder, "raw");
  json_builder_add_string_value (builder, raw);

  /* tx_power, url and the rest of the decoded frame */
  nearby_frame_add_json_members (&sighting->frame, builder);

  json_builder_end_object (builder);

  rest = json_builder_get_root (builder);
  json_generator_set_root (generator, rest);
  return json_generator_to_data (generator, NULL);
}

/* A beacon sends the same frame over and over: the members of the frames seen last are kept,
 * by their bytes, rather than built again for every line (most of converting a capture). */
#define FRAME_MEMBERS_CACHE_MAX 1024

static const char *
frame_members (const NearbySighting *sighting,
               const char           *raw)
{
  static GHashTable *cache = NULL;
  /* The frame is decoded from these bytes; its error and the length it saw tell a frame of
   * more bytes than a sighting keeps from another that starts the same. */
  g_autofree char *key = g_strdup_printf ("%04x %d %zu %s", sighting->frame.service_uuid,
                                          (int) sighting->frame.error,
                                          sighting->frame.error_length, raw);
  const char *members;

  if (cache == NULL)
    cache = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  members = g_hash_table_lookup (cache, key);
  if (members != NULL)
    return members;

  if (g_hash_table_size (cache) >= FRAME_MEMBERS_CACHE_MAX)
    g_hash_table_remove_all (cache);

  members = format_frame_members (sighting, raw);
  g_hash_table_insert (cache, g_steal_pointer (&key), (char *) members);
  return members;
}

/* Returns FALSE when stdout is gone (`nearby scan --json | head -1`). */
static gboolean
print_json (const NearbySighting *sighting)
{
  g_autoptr(JsonNode) address = json_node_init_string (json_node_alloc (), sighting->address);
  g_autofree char *time = format_time (sighting->time_us);
  g_autofree char *raw = nearby_hex_format (sighting->raw, sighting->raw_len);
  g_autofree char *address_text = json_to_string (address, FALSE);
  const char *rest_text = frame_members (sighting, raw);
  g_autofree char *line = NULL;
  g_autofree char *escaped = NULL;
  char rssi_text[16] = "null";
  char distance_text[G_ASCII_DTOSTR_BUF_SIZE] = "null";
  double distance = nearby_cli_sighting_distance (sighting);

  if (sighting->rssi != NEARBY_RSSI_UNKNOWN)
    g_snprintf (rssi_text, sizeof rssi_text, "%d", sighting->rssi);
  /* Centimetres are plenty; json-glib would print 17 significant digits. */
  if (distance >= 0.0)
    g_ascii_formatd (distance_text, sizeof distance_text, "%.2f", distance);

  /* rest_text is a non-empty object: splice the leading members in after its '{'. */
  line = g_strdup_printf ("{\"time\":\"%s\",\"address\":%s,\"rssi\":%s,\"distance_m\":%s,%s\n",
                          time, address_text, rssi_text, distance_text, rest_text + 1);
  /* \u202e is the same JSON string as the character, which a terminal would obey. */
  escaped = nearby_text_escape_for_terminal (line);
  fputs (escaped, stdout);

  return fflush (stdout) == 0 && !ferror (stdout);
}

static void
print_table (ScanContext *context)
{
  gint64 now = context->table_time_us != 0 ? context->table_time_us : g_get_real_time ();
  GString *out = g_string_new (NULL);

  if (context->interactive)
    {
      g_autofree char *state = describe_state (context->scanner);
      const char *adapter_path = nearby_scanner_get_adapter_path (context->scanner);
      g_autofree char *adapter = adapter_path != NULL ? g_path_get_basename (adapter_path) : NULL;

      /* Home and clear: redraw in place. */
      g_autofree char *heading = NULL;
      g_autofree char *escaped_heading = NULL;

      if (nearby_source_get_state (NEARBY_SOURCE (context->scanner))
          == NEARBY_SOURCE_STATE_SCANNING)
        heading = g_strdup_printf (_("Scanning with %s — Ctrl-C to stop"),
                                   adapter != NULL ? adapter : "?");
      else
        heading = g_steal_pointer (&state);
      /* bluetoothd's words, escaped; then home and clear, to redraw in place. */
      escaped_heading = nearby_text_escape_for_terminal (heading);
      g_string_append (out, "\033[H\033[2J");
      g_string_append (out, escaped_heading);
      g_string_append (out, "\n\n");
    }

  nearby_cli_scan_table_format (context->table, now, context->faint, out);

  fputs (out->str, stdout);
  fflush (stdout);
  g_string_free (out, TRUE);
}

static gboolean
refresh_cb (gpointer user_data)
{
  ScanContext *context = user_data;

  /* Without a terminal the table is printed at the end, but what left goes all the same: a
   * scan of a day keeps only the devices still around. */
  if (context->interactive)
    print_table (context);
  else
    nearby_cli_scan_table_expire (context->table, g_get_real_time ());

  return G_SOURCE_CONTINUE;
}

static void finish (ScanContext *context,
                    int          exit_code);

/* Returns FALSE when stdout is gone, an ordinary way to stop. */
static gboolean
show_sighting (ScanContext          *context,
               const NearbySighting *sighting)
{
  if (!nearby_cli_scan_filter_matches (&context->filter, sighting))
    return TRUE;

  context->sightings++;

  if (context->json)
    return print_json (sighting);

  nearby_cli_scan_table_remember (context->table, sighting);

  return TRUE;
}

static void
on_sighting (NearbySource         *source,
             const NearbySighting *sighting,
             ScanContext          *context)
{
  if (context->stopping)
    return;

  if (!show_sighting (context, sighting))
    finish (context, NEARBY_EXIT_OK);
}

/* With --speed, waits until @sighting is due at the capture's pace. */
static void
keep_pace (ScanContext          *context,
           const NearbySighting *sighting)
{
  gint64 wait_us;

  if (context->speed <= 0)
    return;

  if (!context->paced)
    {
      context->paced = TRUE;
      context->capture_origin_us = sighting->time_us;
      context->pace_origin_us = g_get_monotonic_time ();
    }

  wait_us = context->pace_origin_us
            + (gint64) ((sighting->time_us - context->capture_origin_us) / context->speed)
            - g_get_monotonic_time ();
  if (wait_us > 0)
    g_usleep ((gulong) wait_us);
}

/* Shows a sighting of a capture on the capture's own clock. FALSE when stdout is gone. */
static gboolean
show_captured (ScanContext          *context,
               const NearbySighting *sighting)
{
  keep_pace (context, sighting);

  /* What left before this sighting has left the table. */
  if (sighting->time_us - context->table_time_us >= G_USEC_PER_SEC)
    nearby_cli_scan_table_expire (context->table, sighting->time_us);
  context->table_time_us = MAX (context->table_time_us, sighting->time_us);

  return show_sighting (context, sighting);
}

/* --all: a device heard without a beacon frame, from a capture or from bluetoothd. FALSE when
 * stdout is gone. */
static gboolean
show_other (ScanContext              *context,
            const NearbyCliScanOther *other)
{
  NearbySighting probe = { .address = other->address, .time_us = other->time_us,
                           .rssi = other->rssi };

  probe.frame.error = NEARBY_FRAME_ERROR_NOT_A_BEACON;
  if (!nearby_cli_scan_filter_matches (&context->filter, &probe))
    return TRUE;
  context->sightings++;

  if (context->json)
    {
      g_autofree char *time = format_time (other->time_us);
      g_autofree char *line = nearby_cli_scan_other_to_json (other, time);
      g_autofree char *escaped = nearby_text_escape_for_terminal (line);

      fputs (escaped, stdout);
      fputc ('\n', stdout);
      return fflush (stdout) == 0 && !ferror (stdout);
    }
  else
    {
      g_autofree char *what = nearby_cli_scan_other_describe (other);
      g_autofree char *escaped = nearby_text_escape_for_terminal (what);

      nearby_cli_scan_table_remember_other (context->table, other->address, other->rssi,
                                            other->time_us, escaped);
    }

  return TRUE;
}

/* --all over a capture: a report without a beacon frame is shown too, on the capture's clock. */
static gboolean
show_captured_other (ScanContext               *context,
                     const NearbyBtsnoopReport *report)
{
  int rssi = report->rssi >= -127 && report->rssi <= 20 ? report->rssi : NEARBY_RSSI_UNKNOWN;
  g_autoptr(NearbyCliScanOther) other = nearby_cli_scan_other_new_for_report (report, rssi);
  NearbySighting probe = { .address = other->address, .time_us = other->time_us };

  keep_pace (context, &probe);
  if (probe.time_us - context->table_time_us >= G_USEC_PER_SEC)
    nearby_cli_scan_table_expire (context->table, probe.time_us);
  context->table_time_us = MAX (context->table_time_us, probe.time_us);

  return show_other (context, other);
}

static void
on_other_device (NearbyScanner *scanner,
                 const char    *address,
                 int            rssi,
                 GVariant      *properties,
                 ScanContext   *context)
{
  g_autoptr(NearbyCliScanOther) other = NULL;

  if (context->stopping)
    return;

  other = nearby_cli_scan_other_new_for_properties (address, rssi, g_get_real_time (),
                                                    properties);
  if (!show_other (context, other))
    finish (context, NEARBY_EXIT_OK);
}

/* A btsnoop capture, whole in memory: its advertising reports in file order. */
static int
scan_btsnoop (ScanContext  *context,
              const char   *name,
              GInputStream *stream)
{
  g_autoptr(GOutputStream) memory = g_memory_output_stream_new_resizable ();
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(NearbyBtsnoopReader) reader = NULL;
  g_autoptr(GPtrArray) sightings =
    g_ptr_array_new_with_free_func ((GDestroyNotify) nearby_sighting_free);
  gboolean any_bad = FALSE;

  if (g_output_stream_splice (memory, stream, G_OUTPUT_STREAM_SPLICE_CLOSE_TARGET, NULL,
                              &error) < 0)
    {
      g_printerr ("nearby scan: %s: %s\n", name, error->message);
      return NEARBY_EXIT_FAILED;
    }
  bytes = g_memory_output_stream_steal_as_bytes (G_MEMORY_OUTPUT_STREAM (memory));

  reader = nearby_btsnoop_reader_new (bytes, &error);
  if (reader == NULL)
    {
      g_printerr ("nearby scan: %s: %s\n", name, error->message);
      return NEARBY_EXIT_FAILED;
    }

  for (;;)
    {
      NearbyBtsnoopReport report;
      g_autoptr(GError) record_error = NULL;

      if (!nearby_btsnoop_reader_next (reader, &report, &record_error))
        {
          if (record_error == NULL)
            break;
          /* As a bad line: told, and the rest still counts. */
          g_printerr ("nearby scan: %s: %s\n", name, record_error->message);
          any_bad = TRUE;
          continue;
        }

      g_ptr_array_set_size (sightings, 0);
      if (nearby_replay_add_report_sightings (&report, sightings) == 0 && context->filter.all
          && !show_captured_other (context, &report))
        return NEARBY_EXIT_OK;
      for (guint i = 0; i < sightings->len; i++)
        if (!show_captured (context, sightings->pdata[i]))
          return NEARBY_EXIT_OK;
    }

  if (!context->json)
    print_table (context);

  return any_bad ? NEARBY_EXIT_FAILED : NEARBY_EXIT_OK;
}

/* --from: the capture is read to its end at once (a filter over it, not a replay at its pace,
 * unless --speed asks for one), and each sighting keeps the time it was captured. A capture is
 * JSON Lines as --json writes them, or a btsnoop file. */
static int
scan_capture (ScanContext *context,
              const char  *path)
{
  g_autoptr(GInputStream) stream = NULL;
  g_autoptr(GDataInputStream) lines = NULL;
  g_autoptr(GError) error = NULL;
  gboolean from_stdin = g_str_equal (path, "-");
  const char *name = from_stdin ? _("standard input") : path;
  guint line_number = 0;
  gboolean any_bad = FALSE;
  const guint8 *start;
  gsize available = 0;

  if (from_stdin)
    {
      stream = g_unix_input_stream_new (STDIN_FILENO, FALSE);
    }
  else
    {
      g_autoptr(GFile) file = g_file_new_for_commandline_arg (path);

      stream = G_INPUT_STREAM (g_file_read (file, NULL, &error));
      if (stream == NULL)
        {
          /* GIO's message names the file. */
          g_printerr ("nearby scan: %s\n", error->message);
          return NEARBY_EXIT_FAILED;
        }
    }
  lines = g_data_input_stream_new (stream);
  g_data_input_stream_set_newline_type (lines, G_DATA_STREAM_NEWLINE_TYPE_ANY);

  /* A read error here is said by the first line's read. */
  while (g_buffered_input_stream_get_available (G_BUFFERED_INPUT_STREAM (lines))
         < NEARBY_BTSNOOP_MAGIC_LEN)
    if (g_buffered_input_stream_fill (G_BUFFERED_INPUT_STREAM (lines), NEARBY_BTSNOOP_MAGIC_LEN,
                                      NULL, NULL) <= 0)
      break;
  start = g_buffered_input_stream_peek_buffer (G_BUFFERED_INPUT_STREAM (lines), &available);
  if (nearby_btsnoop_has_magic (start, available))
    return scan_btsnoop (context, name, G_INPUT_STREAM (lines));

  for (;;)
    {
      g_autoptr(NearbySighting) sighting = NULL;
      g_autoptr(GError) line_error = NULL;
      g_autofree char *line = g_data_input_stream_read_line (lines, NULL, NULL, &error);

      if (line == NULL)
        break;

      line_number++;
      g_strstrip (line);
      if (*line == '\0')
        continue;

      /* As the app's replay reads it: a bad line is told, and the rest still counts. */
      sighting = nearby_replay_parse_line (line, &line_error);
      if (sighting == NULL && g_error_matches (line_error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED))
        continue;
      if (sighting == NULL)
        {
          g_printerr ("nearby scan: %s:%u: %s\n", name, line_number, line_error->message);
          any_bad = TRUE;
          continue;
        }

      if (!show_captured (context, sighting))
        return NEARBY_EXIT_OK;
    }

  if (error != NULL)
    {
      g_printerr ("nearby scan: %s:%u: %s\n", name, line_number + 1, error->message);
      return NEARBY_EXIT_FAILED;
    }

  if (!context->json)
    print_table (context);

  return any_bad ? NEARBY_EXIT_FAILED : NEARBY_EXIT_OK;
}

static gboolean
stop_timeout_cb (gpointer user_data)
{
  ScanContext *context = user_data;

  context->stop_timeout_source = 0;
  g_debug ("bluetoothd did not confirm StopDiscovery in time");
  g_main_loop_quit (context->loop);

  return G_SOURCE_REMOVE;
}

static void
stop_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  ScanContext *context = user_data;
  g_autoptr(GError) error = NULL;

  if (!nearby_scanner_stop_finish (NEARBY_SCANNER (object), result, &error))
    g_debug ("Stopping discovery: %s", error->message);

  g_main_loop_quit (context->loop);
}

static void
finish (ScanContext *context,
        int          exit_code)
{
  if (context->stopping)
    return;

  context->stopping = TRUE;
  context->exit_code = exit_code;
  g_clear_handle_id (&context->settle_source, g_source_remove);
  g_clear_handle_id (&context->grace_source, g_source_remove);
  nearby_cli_stop_triggers_cancel_duration (&context->stop_triggers);
  g_clear_handle_id (&context->refresh_source, g_source_remove);

  /* The loop context stays alive until stop_cb: it lives on main()'s stack. */
  context->stop_timeout_source = g_timeout_add (STOP_TIMEOUT_MS, stop_timeout_cb, context);
  nearby_scanner_stop_async (context->scanner, NULL, stop_cb, context);
}

static void
give_up (ScanContext *context)
{
  g_autofree char *state = describe_state (context->scanner);

  g_printerr ("nearby scan: %s\n", state);
  finish (context, NEARBY_EXIT_UNAVAILABLE);
}

static gboolean
settle_timeout_cb (gpointer user_data)
{
  ScanContext *context = user_data;

  context->settle_source = 0;
  if (nearby_source_get_state (NEARBY_SOURCE (context->scanner)) == NEARBY_SOURCE_STATE_STARTING)
    {
      g_printerr ("nearby scan: %s\n", _("Bluetooth discovery did not start: bluetoothd does not answer"));
      finish (context, NEARBY_EXIT_UNAVAILABLE);
      return G_SOURCE_REMOVE;
    }
  give_up (context);

  return G_SOURCE_REMOVE;
}

static gboolean
grace_cb (gpointer user_data)
{
  ScanContext *context = user_data;

  context->grace_source = 0;
  if (state_is_unavailable (nearby_source_get_state (NEARBY_SOURCE (context->scanner))))
    give_up (context);

  return G_SOURCE_REMOVE;
}

static void
on_state_changed (NearbyScanner *scanner,
                  GParamSpec    *pspec,
                  ScanContext   *context)
{
  NearbySourceState state = nearby_source_get_state (NEARBY_SOURCE (scanner));

  if (context->stopping)
    return;

  if (context->scanning_started)
    {
      /* Mid-scan trouble is reported (the table shows it when interactive); the scanner
       * recovers by itself. */
      if (!context->interactive)
        {
          g_autofree char *description = describe_state (scanner);

          if (state == NEARBY_SOURCE_STATE_SCANNING)
            g_printerr ("nearby scan: %s\n", _("scanning again"));
          else
            g_printerr ("nearby scan: %s\n", description);
        }
      return;
    }

  if (state == NEARBY_SOURCE_STATE_SCANNING)
    {
      context->scanning_started = TRUE;
      g_clear_handle_id (&context->settle_source, g_source_remove);
      g_clear_handle_id (&context->grace_source, g_source_remove);

      if (!context->json)
        {
          if (context->interactive)
            print_table (context);
          context->refresh_source = g_timeout_add (REFRESH_INTERVAL_MS, refresh_cb, context);
        }
    }
  else if (state_is_unavailable (state) && context->grace_source == 0)
    {
      context->grace_source = g_timeout_add (UNAVAILABLE_GRACE_MS, grace_cb, context);
    }
}

static void
stop_requested (gpointer user_data)
{
  ScanContext *context = user_data;

  /* --duration is the whole run: a bluetoothd that never answers does not stretch it. */
  if (context->stop_triggers.duration_ended && !context->scanning_started)
    {
      if (state_is_unavailable (nearby_source_get_state (NEARBY_SOURCE (context->scanner))))
        {
          give_up (context);
          return;
        }
      g_printerr ("nearby scan: %s\n",
                  _("Bluetooth discovery did not start within --duration: bluetoothd does not "
                    "answer"));
      finish (context, NEARBY_EXIT_UNAVAILABLE);
      return;
    }

  finish (context, NEARBY_EXIT_OK);
}

int
nearby_cli_scan (int    argc,
                 char **argv)
{
  g_autoptr(GOptionContext) option_context = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *adapter = NULL;
  g_autofree char *from = NULL;
  g_autofree char *min_rssi = NULL;
  g_auto(GStrv) protocols = NULL;
  g_auto(GStrv) addresses = NULL;
  g_autofree char *url_contains = NULL;
  g_autofree char *filter_message = NULL;
  gboolean json = FALSE;
  gboolean all = FALSE;
  double duration = NAN;  /* not given */
  double expiry = NEARBY_CLI_SCAN_EXPIRY_DEFAULT_S;
  double speed = 0;
  ScanContext context = { 0 };
  const GOptionEntry entries[] = {
    { "json", 'j', 0, G_OPTION_ARG_NONE, &json,
      N_("Write one JSON object per sighting (JSON Lines)"), NULL },
    { "duration", 'd', 0, G_OPTION_ARG_DOUBLE, &duration,
      N_("Stop after scanning for SECONDS (default: until Ctrl-C)"), N_("SECONDS") },
    { "all", 'a', 0, G_OPTION_ARG_NONE, &all,
      N_("Also show invalid frames, beacons that ask to be hidden, beacons without a URL and "
         "devices that are no beacon"),
      NULL },
    { "adapter", 'i', 0, G_OPTION_ARG_STRING, &adapter,
      N_("Use this Bluetooth adapter (default: the first powered one)"), N_("hciN") },
    { "expiry", 0, 0, G_OPTION_ARG_DOUBLE, &expiry,
      N_("Remove a device from the table when it has not been heard for SECONDS (default: 30)"),
      N_("SECONDS") },
    { "from", 'f', 0, G_OPTION_ARG_FILENAME, &from,
      N_("Read a capture written by --json or a btsnoop capture (- for standard input) instead "
         "of scanning"),
      N_("FILE") },
    { "speed", 0, 0, G_OPTION_ARG_DOUBLE, &speed,
      N_("With --from: play the capture this many times faster than captured (default: 0, as "
         "fast as possible)"), N_("FACTOR") },
    { "min-rssi", 0, 0, G_OPTION_ARG_STRING, &min_rssi,
      N_("Only sightings at least this strong, such as -70"), N_("DBM") },
    { "protocol", 0, 0, G_OPTION_ARG_STRING_ARRAY, &protocols,
      N_("Only eddystone, uribeacon or ibeacon frames (repeat for more than one)"),
      N_("PROTOCOL") },
    { "address", 0, 0, G_OPTION_ARG_STRING_ARRAY, &addresses,
      N_("Only this Bluetooth address, in any case (repeat for more than one)"), N_("ADDR") },
    { "url-contains", 0, 0, G_OPTION_ARG_STRING, &url_contains,
      N_("Only URLs that contain TEXT, in any case"), N_("TEXT") },
    { NULL }
  };

  option_context = g_option_context_new (_("— list the beacons around"));
  g_option_context_set_summary (option_context,
    _("Scans for Eddystone, UriBeacon and iBeacon broadcasts over Bluetooth LE, or reads a "
      "capture.\n"
      "The filters apply to the table and to --json alike; each one given must match.\n"
      "Exit status: 0 done, 1 a line or record of the capture was bad, 2 usage error, "
      "3 Bluetooth unavailable."));
  g_option_context_add_main_entries (option_context, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (option_context, &argc, &argv, &error))
    return nearby_cli_usage_error (option_context, error->message);
  if (argc > 1)
    return nearby_cli_usage_error (option_context, _("scan takes no arguments"));
  if (!isnan (duration) && !nearby_cli_duration_is_valid (duration))
    return nearby_cli_usage_error (option_context, _("--duration must be a positive number"));
  if (!(expiry > 0 && expiry <= G_MAXINT64 / G_USEC_PER_SEC))
    return nearby_cli_usage_error (option_context, _("--expiry must be a positive number"));
  if (from != NULL && (adapter != NULL || !isnan (duration)))
    return nearby_cli_usage_error (option_context,
                                   _("--from reads a capture: --adapter and --duration are for "
                                     "scanning"));
  if (!(speed >= 0 && speed <= 1e6))
    return nearby_cli_usage_error (option_context,
                                   _("--speed must be 0 (as fast as possible) or more"));
  if (speed != 0 && from == NULL)
    return nearby_cli_usage_error (option_context, _("--speed goes with --from"));
  if (!nearby_cli_scan_filter_init (&context.filter, all, min_rssi, protocols, addresses,
                                    url_contains, &filter_message))
    {
      nearby_cli_scan_filter_clear (&context.filter);
      return nearby_cli_usage_error (option_context, filter_message);
    }

  /* A closed pipe is an ordinary way to stop: see print_json(). */
  signal (SIGPIPE, SIG_IGN);

  context.json = json;
  context.duration_s = isnan (duration) ? 0 : duration;
  context.speed = speed;
  context.table = nearby_cli_scan_table_new ((gint64) (expiry * G_USEC_PER_SEC), all);
  context.faint = nearby_cli_stdout_has_color ();

  if (from != NULL)
    {
      int exit_code = scan_capture (&context, from);

      nearby_cli_scan_filter_clear (&context.filter);
      g_clear_pointer (&context.table, nearby_cli_scan_table_free);
      return exit_code;
    }

  context.interactive = !json && isatty (STDOUT_FILENO);
  context.loop = g_main_loop_new (NULL, FALSE);
  context.scanner = nearby_scanner_new (adapter);

  g_signal_connect (context.scanner, "sighting", G_CALLBACK (on_sighting), &context);
  if (all)
    g_signal_connect (context.scanner, "other-device", G_CALLBACK (on_other_device), &context);
  g_signal_connect (context.scanner, "notify::state", G_CALLBACK (on_state_changed), &context);
  context.settle_source = g_timeout_add (SETTLE_TIMEOUT_MS, settle_timeout_cb, &context);
  nearby_cli_stop_triggers_watch_signals (&context.stop_triggers, stop_requested, &context);
  /* The deadline counts from the start of the command, not from when bluetoothd answers. */
  nearby_cli_stop_triggers_start_duration (&context.stop_triggers, context.duration_s);

  g_main_loop_run (context.loop);

  nearby_cli_stop_triggers_clear (&context.stop_triggers);
  g_clear_handle_id (&context.stop_timeout_source, g_source_remove);
  g_signal_handlers_disconnect_by_data (context.scanner, &context);

  if (!json && context.exit_code == NEARBY_EXIT_OK)
    print_table (&context);

  g_clear_object (&context.scanner);
  g_clear_pointer (&context.loop, g_main_loop_unref);
  g_clear_pointer (&context.table, nearby_cli_scan_table_free);
  nearby_cli_scan_filter_clear (&context.filter);

  return context.exit_code;
}
