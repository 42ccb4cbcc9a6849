/* nearby-cli-encode.c: `nearby encode`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-cli"

#include "config.h"

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "nearby-advertiser.h"
#include "nearby-cli.h"
#include "nearby-frame.h"
#include "nearby-hex.h"

static char *
format_hex_spaced (const guint8 *data,
                   gsize         len,
                   const char   *prefix,
                   const char   *separator)
{
  GString *text = g_string_new (NULL);

  for (gsize i = 0; i < len; i++)
    g_string_append_printf (text, "%s%s%02x", i > 0 ? separator : "", prefix, data[i]);

  return g_string_free (text, FALSE);
}

static void
add_encoding_json (JsonBuilder      *builder,
                   const char       *name,
                   NearbyFrameError  error,
                   const NearbyFrame *status,
                   const guint8     *data,
                   gsize             len)
{
  json_builder_set_member_name (builder, name);
  json_builder_begin_object (builder);
  if (error == NEARBY_FRAME_OK)
    {
      g_autofree char *hex = nearby_hex_format (data, len);

      json_builder_set_member_name (builder, "service_data");
      json_builder_add_string_value (builder, hex);
      json_builder_set_member_name (builder, "length");
      json_builder_add_int_value (builder, len);
    }
  else
    {
      char message[NEARBY_FRAME_MESSAGE_MAX];

      json_builder_set_member_name (builder, "error");
      json_builder_add_string_value (builder, nearby_frame_format_error (status, message, sizeof message));
      json_builder_set_member_name (builder, "error_code");
      json_builder_add_string_value (builder, nearby_frame_error_code (error));
      if (error == NEARBY_FRAME_ERROR_URL_TOO_LONG)
        {
          json_builder_set_member_name (builder, "excess");
          json_builder_add_int_value (builder, status->error_length - status->error_limit);
        }
    }
  json_builder_end_object (builder);
}

int
nearby_cli_encode (int    argc,
                   char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) urls = NULL;
  /* What `nearby advertise` would broadcast. */
  int tx_power = NEARBY_ADVERTISER_DEFAULT_TX_POWER;
  gboolean invisible = FALSE;
  gboolean json = FALSE;
  guint8 eddystone[NEARBY_FRAME_URL_SERVICE_DATA_MAX];
  guint8 uribeacon[NEARBY_FRAME_URL_SERVICE_DATA_MAX];
  size_t eddystone_len, uribeacon_len;
  NearbyFrame eddystone_status, uribeacon_status;
  NearbyFrameError eddystone_error, uribeacon_error;
  const GOptionEntry entries[] = {
    { "tx-power", 't', 0, G_OPTION_ARG_INT, &tx_power,
      N_("Calibrated power at 0 m in dBm, -100 to 20 (measure at 1 m and add 41); default -20"), "DBM" },
    { "invisible", 0, 0, G_OPTION_ARG_NONE, &invisible,
      N_("Set the UriBeacon Invisible Hint flag"), NULL },
    { "json", 'j', 0, G_OPTION_ARG_NONE, &json,
      N_("Print one JSON object instead of text"), NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &urls, NULL, NULL },
    { NULL }
  };

  context = g_option_context_new (_("URL — encode a URL as beacon frames"));
  g_option_context_set_summary (context,
    _("Prints the shortest Eddystone-URL and UriBeacon service data for URL, and the bluetoothctl "
      "commands that broadcast it.\n"
      "Exit status: 0 when it fits, 1 when it does not, 2 on usage errors."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    return nearby_cli_usage_error (context, error->message);

  if (urls == NULL || urls[0] == NULL)
    return nearby_cli_usage_error (context, _("Give the URL to encode"));
  if (urls[1] != NULL)
    return nearby_cli_usage_error (context, _("Give exactly one URL"));
  if (tx_power < NEARBY_TX_POWER_MIN || tx_power > NEARBY_TX_POWER_MAX)
    return nearby_cli_usage_error (context, _("--tx-power must be between -100 and 20 dBm"));

  eddystone_error = nearby_frame_encode_url (NEARBY_PROTOCOL_EDDYSTONE, urls[0], 0, (int8_t) tx_power,
                                             eddystone, &eddystone_len, &eddystone_status);
  uribeacon_error = nearby_frame_encode_url (NEARBY_PROTOCOL_URIBEACON, urls[0], invisible ? 0x01 : 0x00,
                                             (int8_t) tx_power, uribeacon, &uribeacon_len,
                                             &uribeacon_status);

  if (json)
    {
      g_autoptr(JsonBuilder) builder = json_builder_new ();
      g_autoptr(JsonGenerator) generator = json_generator_new ();
      g_autoptr(JsonNode) root = NULL;
      g_autofree char *text = NULL;

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "url");
      json_builder_add_string_value (builder, urls[0]);
      json_builder_set_member_name (builder, "tx_power");
      json_builder_add_int_value (builder, tx_power);
      add_encoding_json (builder, "eddystone", eddystone_error, &eddystone_status, eddystone, eddystone_len);
      add_encoding_json (builder, "uribeacon", uribeacon_error, &uribeacon_status, uribeacon, uribeacon_len);
      json_builder_end_object (builder);

      root = json_builder_get_root (builder);
      json_generator_set_root (generator, root);
      text = json_generator_to_data (generator, NULL);
      g_print ("%s\n", text);
    }
  else
    {
      char message[NEARBY_FRAME_MESSAGE_MAX];

      if (eddystone_error == NEARBY_FRAME_OK)
        {
          g_autofree char *hex = format_hex_spaced (eddystone, eddystone_len, "", " ");

          g_print (g_dngettext (GETTEXT_PACKAGE, "Eddystone-URL service data (0xfeaa), %zu byte: %s\n",
                                "Eddystone-URL service data (0xfeaa), %zu bytes: %s\n",
                                eddystone_len),
                   eddystone_len, hex);
        }
      else if (uribeacon_error == NEARBY_FRAME_OK)
        g_printerr ("nearby encode: Eddystone-URL: %s\n",
                    nearby_frame_format_error (&eddystone_status, message, sizeof message));

      if (uribeacon_error == NEARBY_FRAME_OK)
        {
          g_autofree char *hex = format_hex_spaced (uribeacon, uribeacon_len, "", " ");

          g_print (g_dngettext (GETTEXT_PACKAGE, "UriBeacon service data (0xfed8), %zu byte: %s\n",
                                "UriBeacon service data (0xfed8), %zu bytes: %s\n",
                                uribeacon_len),
                   uribeacon_len, hex);
        }
      else if (eddystone_error == NEARBY_FRAME_OK)
        g_printerr ("nearby encode: UriBeacon: %s\n",
                    nearby_frame_format_error (&uribeacon_status, message, sizeof message));

      if (eddystone_error == NEARBY_FRAME_OK || uribeacon_error == NEARBY_FRAME_OK)
        {
          gboolean use_eddystone = eddystone_error == NEARBY_FRAME_OK;
          const char *uuid = use_eddystone ? "0xfeaa" : "0xfed8";
          g_autofree char *bytes = use_eddystone
            ? format_hex_spaced (eddystone, eddystone_len, "0x", " ")
            : format_hex_spaced (uribeacon, uribeacon_len, "0x", " ");

          g_print ("\n%s\n", _("To broadcast it from this computer, paste into bluetoothctl:"));
          g_print ("menu advertise\n"
                   "uuids %s\n"
                   "service %s %s\n"
                   "back\n"
                   "advertise broadcast\n",
                   uuid, uuid, bytes);
        }
    }

  /* Only one reason when neither fits; when one does, the other's reason is said above. */
  if (eddystone_error != NEARBY_FRAME_OK && uribeacon_error != NEARBY_FRAME_OK)
    {
      char message[NEARBY_FRAME_MESSAGE_MAX];
      /* Eddystone's reason is the general one, except for what only UriBeacon could carry. */
      const NearbyFrame *reason = uribeacon_error == NEARBY_FRAME_ERROR_INVALID_UUID
                                    ? &uribeacon_status : &eddystone_status;

      g_printerr (_("nearby encode: %s does not fit in a beacon frame: %s\n"), urls[0],
                  nearby_frame_format_error (reason, message, sizeof message));
      return NEARBY_EXIT_FAILED;
    }

  return NEARBY_EXIT_OK;
}
