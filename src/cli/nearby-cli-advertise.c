/* nearby-cli-advertise.c: `nearby advertise`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-cli"

#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>

#include "nearby-advertiser.h"
#include "nearby-cli.h"
#include "nearby-cli-bluetooth.h"
#include "nearby-hex.h"

/* Only bounds a bluetoothd that never answers UnregisterAdvertisement. */
#define STOP_TIMEOUT_MS 5000

typedef struct {
  NearbyAdvertiser      *advertiser;
  GCancellable          *cancellable;
  GMainLoop             *loop;
  double                 duration_s;
  int                    exit_code;
  gboolean               stopping;
  gboolean               released;
  NearbyCliStopTriggers  stop_triggers;
  guint                  stop_timeout_source;
} AdvertiseContext;

/* What the user can do about an error, after its own description. */
static char *
error_advice (const GError *error)
{
  if (error->domain != NEARBY_ADVERTISER_ERROR)
    return NULL;

  switch ((NearbyAdvertiserError) error->code)
    {
    case NEARBY_ADVERTISER_ERROR_NO_SERVICE:
      return nearby_cli_bluetooth_dup_advice (NEARBY_SOURCE_STATE_NO_SERVICE);
    case NEARBY_ADVERTISER_ERROR_NO_ADAPTER:
      return nearby_cli_bluetooth_dup_advice (NEARBY_SOURCE_STATE_NO_ADAPTER);
    case NEARBY_ADVERTISER_ERROR_OFF:
      return nearby_cli_bluetooth_dup_advice (NEARBY_SOURCE_STATE_OFF);
    case NEARBY_ADVERTISER_ERROR_RFKILL_BLOCKED:
      return nearby_cli_bluetooth_dup_advice (NEARBY_SOURCE_STATE_RFKILL_BLOCKED);
    case NEARBY_ADVERTISER_ERROR_NOT_SUPPORTED:
      return g_strdup (_("use an adapter with Bluetooth LE, with --adapter"));
    case NEARBY_ADVERTISER_ERROR_NO_INSTANCES:
      return g_strdup (_("stop another broadcast (`bluetoothctl advertise off`) or use another "
                         "adapter"));
    case NEARBY_ADVERTISER_ERROR_URL_TOO_LONG:
    case NEARBY_ADVERTISER_ERROR_INVALID_URL:
    case NEARBY_ADVERTISER_ERROR_INVALID_ARGUMENTS:
    case NEARBY_ADVERTISER_ERROR_FAILED:
    default:
      return NULL;
    }
}

static int
error_exit_code (const GError *error)
{
  if (error->domain != NEARBY_ADVERTISER_ERROR)
    return NEARBY_EXIT_FAILED;

  switch ((NearbyAdvertiserError) error->code)
    {
    case NEARBY_ADVERTISER_ERROR_NO_SERVICE:
    case NEARBY_ADVERTISER_ERROR_NO_ADAPTER:
    case NEARBY_ADVERTISER_ERROR_OFF:
    case NEARBY_ADVERTISER_ERROR_RFKILL_BLOCKED:
    case NEARBY_ADVERTISER_ERROR_NOT_SUPPORTED:
      return NEARBY_EXIT_UNAVAILABLE;
    case NEARBY_ADVERTISER_ERROR_URL_TOO_LONG:
    case NEARBY_ADVERTISER_ERROR_INVALID_URL:
    case NEARBY_ADVERTISER_ERROR_NO_INSTANCES:
    case NEARBY_ADVERTISER_ERROR_INVALID_ARGUMENTS:
    case NEARBY_ADVERTISER_ERROR_FAILED:
    default:
      return NEARBY_EXIT_FAILED;
    }
}

static void
print_error (const GError *error)
{
  g_autofree char *advice = error_advice (error);

  if (advice != NULL)
    g_printerr ("nearby advertise: %s — %s\n", error->message, advice);
  else
    g_printerr ("nearby advertise: %s\n", error->message);
}

static gboolean
stop_timeout_cb (gpointer user_data)
{
  AdvertiseContext *context = user_data;

  context->stop_timeout_source = 0;
  g_printerr ("nearby advertise: %s\n",
              _("bluetoothd did not confirm the end of the broadcast"));
  context->exit_code = NEARBY_EXIT_FAILED;
  g_main_loop_quit (context->loop);

  return G_SOURCE_REMOVE;
}

static void
stop_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  AdvertiseContext *context = user_data;
  g_autoptr(GError) error = NULL;

  if (!nearby_advertiser_stop_finish (NEARBY_ADVERTISER (object), result, &error))
    {
      print_error (error);
      context->exit_code = NEARBY_EXIT_FAILED;
    }
  else
    g_print ("%s\n", _("Stopped broadcasting"));

  g_main_loop_quit (context->loop);
}

static void
finish (AdvertiseContext *context,
        int               exit_code)
{
  if (context->stopping)
    return;

  context->stopping = TRUE;
  context->exit_code = exit_code;
  nearby_cli_stop_triggers_cancel_duration (&context->stop_triggers);

  if (nearby_advertiser_get_state (context->advertiser) == NEARBY_ADVERTISER_STATE_STARTING)
    {
      /* start_cb quits the loop once the cancellation has gone through. */
      g_cancellable_cancel (context->cancellable);
      return;
    }

  /* The context lives on nearby_cli_advertise()'s stack until the loop quits. */
  context->stop_timeout_source = g_timeout_add (STOP_TIMEOUT_MS, stop_timeout_cb, context);
  nearby_advertiser_stop_async (context->advertiser, NULL, stop_cb, context);
}

static void
stop_requested (gpointer user_data)
{
  finish (user_data, NEARBY_EXIT_OK);
}

static void
on_state_changed (NearbyAdvertiser *advertiser,
                  GParamSpec       *pspec,
                  AdvertiseContext *context)
{
  NearbyAdvertiserState state = nearby_advertiser_get_state (advertiser);

  if (context->stopping)
    return;

  /* The advertiser registers itself again when bluetoothd or the adapter come back. */
  if (state == NEARBY_ADVERTISER_STATE_RELEASED)
    {
      context->released = TRUE;
      g_printerr ("nearby advertise: %s\n",
                  _("Bluetooth ended the broadcast; it resumes when bluetoothd and the adapter "
                    "are back"));
    }
  else if (state == NEARBY_ADVERTISER_STATE_BROADCASTING && context->released)
    {
      context->released = FALSE;
      g_print ("%s\n", _("Broadcasting again"));
      fflush (stdout);
    }
}

static void
start_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  AdvertiseContext *context = user_data;
  NearbyAdvertiser *advertiser = NEARBY_ADVERTISER (object);
  g_autoptr(GError) error = NULL;
  g_autofree char *adapter = NULL;

  if (!nearby_advertiser_start_finish (advertiser, result, &error))
    {
      /* Interrupted while starting: an ordinary way to stop. */
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          print_error (error);
          context->exit_code = error_exit_code (error);
        }
      g_main_loop_quit (context->loop);
      return;
    }

  adapter = g_path_get_basename (nearby_advertiser_get_adapter_path (advertiser));
  g_print (_("Adapter: %s"), adapter);
  g_print ("\n");
  if (context->duration_s > 0)
    {
      g_print (_("Broadcasting for %g s — press Ctrl+C to stop"), context->duration_s);
      nearby_cli_stop_triggers_start_duration (&context->stop_triggers, context->duration_s);
    }
  else
    g_print ("%s", _("Broadcasting — press Ctrl+C to stop"));
  g_print ("\n");
  fflush (stdout);
}

static void
print_plan (NearbyAdvertiser *advertiser,
            GBytes           *service_data)
{
  gsize len = 0;
  const guint8 *data = g_bytes_get_data (service_data, &len);
  g_autofree char *hex = nearby_hex_format (data, len);
  gboolean uribeacon = nearby_advertiser_get_protocol (advertiser) == NEARBY_PROTOCOL_URIBEACON;

  g_print (_("URL: %s"), nearby_advertiser_get_url (advertiser));
  g_print ("\n");
  g_print (_("Frame: %s, service UUID 0x%04x (%s)"),
           uribeacon ? "UriBeacon" : "Eddystone-URL",
           nearby_advertiser_get_service_uuid (advertiser),
           nearby_advertiser_get_service_uuid128 (advertiser));
  g_print ("\n");
  g_print (g_dngettext (GETTEXT_PACKAGE, "Service data (%zu byte): %s",
                        "Service data (%zu bytes): %s", len),
           (size_t) len, hex);
  g_print ("\n");
  g_print (_("Tx power at 0 m: %d dBm"), nearby_advertiser_get_tx_power (advertiser));
  g_print ("\n");
  fflush (stdout);
}

int
nearby_cli_advertise (int    argc,
                      char **argv)
{
  g_autoptr(GOptionContext) option_context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) service_data = NULL;
  g_autofree char *adapter = NULL;
  gboolean uribeacon = FALSE;
  int tx_power = NEARBY_ADVERTISER_DEFAULT_TX_POWER;
  double duration = 0;
  AdvertiseContext context = { 0 };
  const GOptionEntry entries[] = {
    { "uribeacon", 'u', 0, G_OPTION_ARG_NONE, &uribeacon,
      N_("Broadcast a UriBeacon frame (0xFED8) instead of Eddystone-URL (0xFEAA)"), NULL },
    { "tx-power", 't', 0, G_OPTION_ARG_INT, &tx_power,
      N_("Calibrated power at 0 m written into the frame (default: -20)"), N_("DBM") },
    { "duration", 'd', 0, G_OPTION_ARG_DOUBLE, &duration,
      N_("Stop after SECONDS (default: until Ctrl-C)"), N_("SECONDS") },
    { "adapter", 'i', 0, G_OPTION_ARG_STRING, &adapter,
      N_("Use this Bluetooth adapter (default: the first powered one)"), N_("hciN") },
    { NULL }
  };

  option_context = g_option_context_new (_("URL — broadcast a URL from this computer"));
  g_option_context_set_summary (option_context,
    _("Broadcasts URL as an Eddystone-URL (or UriBeacon) frame over Bluetooth LE, through\n"
      "BlueZ, until Ctrl-C or the end of --duration.\n"
      "Exit status: 0 done, 1 failed (URL does not fit, advertising refused), 2 usage error,\n"
      "3 Bluetooth unavailable."));
  g_option_context_add_main_entries (option_context, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (option_context, &argc, &argv, &error))
    return nearby_cli_usage_error (option_context, error->message);
  if (argc != 2)
    return nearby_cli_usage_error (option_context, _("Give one URL to broadcast"));
  if (tx_power < NEARBY_TX_POWER_MIN || tx_power > NEARBY_TX_POWER_MAX)
    return nearby_cli_usage_error (option_context, _("--tx-power must be between -100 and 20 dBm"));
  if (!nearby_cli_duration_is_valid (duration))
    return nearby_cli_usage_error (option_context, _("--duration must be a positive number"));

  context.advertiser = nearby_advertiser_new (argv[1],
                                              uribeacon ? NEARBY_PROTOCOL_URIBEACON
                                                        : NEARBY_PROTOCOL_EDDYSTONE,
                                              tx_power, adapter);

  service_data = nearby_advertiser_dup_service_data (context.advertiser, &error);
  if (service_data == NULL)
    {
      print_error (error);
      g_clear_object (&context.advertiser);
      return NEARBY_EXIT_FAILED;
    }
  print_plan (context.advertiser, service_data);

  context.duration_s = duration;
  context.exit_code = NEARBY_EXIT_OK;
  context.cancellable = g_cancellable_new ();
  context.loop = g_main_loop_new (NULL, FALSE);

  g_signal_connect (context.advertiser, "notify::state", G_CALLBACK (on_state_changed), &context);
  nearby_cli_stop_triggers_watch_signals (&context.stop_triggers, stop_requested, &context);
  nearby_advertiser_start_async (context.advertiser, context.cancellable, start_cb, &context);

  g_main_loop_run (context.loop);

  nearby_cli_stop_triggers_clear (&context.stop_triggers);
  g_clear_handle_id (&context.stop_timeout_source, g_source_remove);
  g_signal_handlers_disconnect_by_data (context.advertiser, &context);

  g_clear_object (&context.advertiser);
  g_clear_object (&context.cancellable);
  g_clear_pointer (&context.loop, g_main_loop_unref);

  return context.exit_code;
}
