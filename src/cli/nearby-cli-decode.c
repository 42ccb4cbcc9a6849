/* nearby-cli-decode.c: `nearby decode`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-cli"

#include "config.h"

#include <glib/gi18n.h>
#include <gio/gio.h>
#include <gio/gunixinputstream.h>
#include <json-glib/json-glib.h>
#include <stdio.h>
#include <string.h>

#include "nearby-cli.h"
#include "nearby-frame.h"
#include "nearby-frame-json.h"
#include "nearby-hex.h"

typedef struct {
  gboolean  pretty;
  guint16   service_uuid;  /* 0: whole advertising payloads */
  gboolean  any_invalid;
} DecodeOptions;

static gboolean
parse_service_uuid (const char *text,
                    guint16    *uuid)
{
  g_autofree char *lower = g_ascii_strdown (text, -1);
  const char *digits = lower;

  /* The 128-bit form BlueZ prints: 0000feaa-0000-1000-8000-00805f9b34fb */
  if (strlen (lower) == 36 && g_str_has_prefix (lower, "0000") &&
      g_str_has_suffix (lower, "-0000-1000-8000-00805f9b34fb"))
    {
      lower[8] = '\0';
      digits = lower + 4;
    }
  else if (g_str_has_prefix (lower, "0x"))
    digits = lower + 2;

  if (g_str_equal (digits, "feaa"))
    *uuid = NEARBY_UUID16_EDDYSTONE;
  else if (g_str_equal (digits, "fed8"))
    *uuid = NEARBY_UUID16_URIBEACON;
  else
    return FALSE;

  return TRUE;
}

static void
print_object (JsonBuilder   *builder,
              DecodeOptions *options)
{
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = json_builder_get_root (builder);
  g_autofree char *text = NULL;

  json_generator_set_pretty (generator, options->pretty);
  json_generator_set_root (generator, root);
  text = json_generator_to_data (generator, NULL);
  g_print ("%s\n", text);
}

static void
print_frame (const char        *input,
             const NearbyFrame *frame,
             DecodeOptions     *options)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "input");
  json_builder_add_string_value (builder, input);
  nearby_frame_add_json_members (frame, builder);
  json_builder_end_object (builder);

  print_object (builder, options);

  if (frame->error != NEARBY_FRAME_OK)
    options->any_invalid = TRUE;
}

static void
print_input_error (const char    *input,
                   const char    *message,
                   DecodeOptions *options)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "input");
  json_builder_add_string_value (builder, input);
  json_builder_set_member_name (builder, "valid");
  json_builder_add_boolean_value (builder, FALSE);
  json_builder_set_member_name (builder, "error");
  json_builder_add_string_value (builder, message);
  json_builder_set_member_name (builder, "error_code");
  json_builder_add_string_value (builder, "not-hex");
  json_builder_end_object (builder);

  print_object (builder, options);
  options->any_invalid = TRUE;
}

static void
decode_bytes (const char    *input,
              GBytes        *bytes,
              DecodeOptions *options)
{
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);
  NearbyFrame frames[NEARBY_FRAME_MAX_PER_PAYLOAD];
  NearbyFrame status;
  size_t n_frames;

  if (options->service_uuid != 0)
    {
      nearby_frame_decode_service_data (options->service_uuid, data, len, &frames[0]);
      print_frame (input, &frames[0], options);
      return;
    }

  n_frames = nearby_frame_decode_advertisement_detailed (data, len, frames, G_N_ELEMENTS (frames),
                                                         &status);
  for (size_t i = 0; i < n_frames; i++)
    print_frame (input, &frames[i], options);

  /* A payload with frames and no other problem says nothing more; a broken structure after
   * good frames is still reported, so nothing the beacon sent is silently dropped. */
  if (n_frames == 0 || (status.error != NEARBY_FRAME_OK && status.error != NEARBY_FRAME_ERROR_NOT_A_BEACON))
    print_frame (input, &status, options);
}

static gboolean
all_single_bytes (char **args)
{
  for (guint i = 0; args[i] != NULL; i++)
    {
      const char *digits = g_str_has_prefix (args[i], "0x") ? args[i] + 2 : args[i];

      if (strlen (digits) != 2 || !g_ascii_isxdigit (digits[0]) || !g_ascii_isxdigit (digits[1]))
        return FALSE;
    }

  return TRUE;
}

static gboolean
decode_stdin (DecodeOptions  *options,
              GError        **error)
{
  g_autoptr(GInputStream) stream = g_unix_input_stream_new (0, FALSE);
  g_autoptr(GDataInputStream) lines = g_data_input_stream_new (stream);

  for (;;)
    {
      g_autoptr(GError) local_error = NULL;
      g_autoptr(GBytes) bytes = NULL;
      g_autofree char *raw = NULL;
      g_autofree char *line = NULL;
      char *input;

      raw = g_data_input_stream_read_line (lines, NULL, NULL, &local_error);
      if (local_error != NULL)
        {
          g_propagate_error (error, g_steal_pointer (&local_error));
          return FALSE;
        }
      if (raw == NULL)
        return TRUE;

      /* A stray binary line must not end the capture; JSON output needs valid UTF-8. */
      line = g_utf8_make_valid (raw, -1);
      input = g_strstrip (line);
      /* Blank lines and comments let a hand-written capture explain itself. */
      if (*input == '\0' || *input == '#')
        continue;

      bytes = nearby_hex_parse (input, &local_error);
      if (bytes == NULL)
        print_input_error (input, local_error->message, options);
      else
        decode_bytes (input, bytes, options);
    }
}

int
nearby_cli_decode (int    argc,
                   char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GPtrArray) payloads = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_autoptr(GError) error = NULL;
  g_autofree char *service_data = NULL;
  g_auto(GStrv) hex = NULL;
  DecodeOptions options = { 0 };
  const GOptionEntry entries[] = {
    { "service-data", 's', 0, G_OPTION_ARG_STRING, &service_data,
      N_("HEX is the value of one service-data field: feaa (Eddystone) or fed8 (UriBeacon)"), "UUID" },
    { "pretty", 'p', 0, G_OPTION_ARG_NONE, &options.pretty,
      N_("Indent the JSON output"), NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &hex, NULL, NULL },
    { NULL }
  };

  context = g_option_context_new (_("[HEX…] — decode beacon advertisements"));
  g_option_context_set_summary (context,
    _("Decodes advertising payloads (as btmon, hcidump or nRF Connect show them) into one JSON "
      "object per frame. Without HEX, reads one payload per line from standard input.\n"
      "Exit status: 0 when every input decoded, 1 when any was invalid, 2 on usage errors."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    return nearby_cli_usage_error (context, error->message);

  if (service_data != NULL && !parse_service_uuid (service_data, &options.service_uuid))
    {
      g_autofree char *message =
        g_strdup_printf (_("--service-data must be feaa (Eddystone) or fed8 (UriBeacon), not “%s”"),
                         service_data);
      return nearby_cli_usage_error (context, message);
    }

  if (hex == NULL || hex[0] == NULL)
    {
      if (!decode_stdin (&options, &error))
        {
          g_printerr ("nearby decode: %s\n", error->message);
          return NEARBY_EXIT_FAILED;
        }
      return options.any_invalid ? NEARBY_EXIT_FAILED : NEARBY_EXIT_OK;
    }

  /* btmon and hcidump print "02 01 06 …": pasted unquoted, that is one byte per argument. */
  if (g_strv_length (hex) > 1 && all_single_bytes (hex))
    {
      g_autofree char *joined = g_strjoinv (" ", hex);

      g_strfreev (hex);
      hex = g_new0 (char *, 2);
      hex[0] = g_steal_pointer (&joined);
    }

  /* Check every argument before printing anything: a typo is a usage error, not a result. */
  for (guint i = 0; hex[i] != NULL; i++)
    {
      GBytes *bytes = nearby_hex_parse (hex[i], &error);

      if (bytes == NULL)
        return nearby_cli_usage_error (context, error->message);
      g_ptr_array_add (payloads, bytes);
    }

  for (guint i = 0; hex[i] != NULL; i++)
    decode_bytes (hex[i], g_ptr_array_index (payloads, i), &options);

  return options.any_invalid ? NEARBY_EXIT_FAILED : NEARBY_EXIT_OK;
}
