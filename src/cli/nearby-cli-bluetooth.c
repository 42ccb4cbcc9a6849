/* nearby-cli-bluetooth.c: what `nearby scan` and `nearby advertise` share: the way out of
 * Bluetooth trouble, and what ends a run
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-cli"

#include "config.h"

#include <glib/gi18n.h>
#include <glib-unix.h>
#include <signal.h>

#include "nearby-cli-bluetooth.h"

/* Whether this process can reach the system bus at all: then "the service is not running" is
 * about bluetoothd; otherwise it is about the bus, and starting bluetoothd would not help. The
 * scanner and the advertiser hold their connection, so with a bus this costs nothing. */
static char *
system_bus_advice (void)
{
  g_autoptr(GDBusConnection) bus = NULL;
  g_autoptr(GError) error = NULL;
  const char *address = g_getenv ("DBUS_SYSTEM_BUS_ADDRESS");

  bus = g_bus_get_sync (G_BUS_TYPE_SYSTEM, NULL, &error);
  if (bus != NULL)
    return NULL;

  if (address != NULL && *address != '\0')
    return g_strdup_printf (_("no D-Bus system bus answers at DBUS_SYSTEM_BUS_ADDRESS (%s): "
                              "correct or unset it"), address);

  return g_strdup (_("Bluetooth is reached over the D-Bus system bus, which is not running: "
                     "start it with `systemctl start dbus`"));
}

char *
nearby_cli_bluetooth_dup_advice (NearbySourceState state)
{
  switch (state)
    {
    case NEARBY_SOURCE_STATE_NO_SERVICE:
      {
        char *bus_advice = system_bus_advice ();

        if (bus_advice != NULL)
          return bus_advice;
        return g_strdup (_("start it with `systemctl start bluetooth`"));
      }
    case NEARBY_SOURCE_STATE_NO_ADAPTER:
      return g_strdup (_("plug in a Bluetooth adapter, or check `bluetoothctl list`"));
    case NEARBY_SOURCE_STATE_OFF:
      return g_strdup (_("run `bluetoothctl power on`"));
    case NEARBY_SOURCE_STATE_RFKILL_BLOCKED:
      return g_strdup (_("run `rfkill unblock bluetooth`"));
    case NEARBY_SOURCE_STATE_ERROR:
    case NEARBY_SOURCE_STATE_STARTING:
    case NEARBY_SOURCE_STATE_SCANNING:
    case NEARBY_SOURCE_STATE_FINISHED:
    default:
      return NULL;
    }
}

gboolean
nearby_cli_duration_is_valid (double duration_s)
{
  /* g_timeout_add() counts in milliseconds, in a guint. */
  return !(duration_s < 0 || duration_s > G_MAXUINT / 1000);
}

static gboolean
duration_cb (gpointer user_data)
{
  NearbyCliStopTriggers *triggers = user_data;

  triggers->duration_source = 0;
  triggers->duration_ended = TRUE;
  triggers->stop (triggers->user_data);

  return G_SOURCE_REMOVE;
}

static gboolean
signal_cb (gpointer user_data)
{
  NearbyCliStopTriggers *triggers = user_data;

  triggers->stop (triggers->user_data);

  return G_SOURCE_CONTINUE;
}

void
nearby_cli_stop_triggers_watch_signals (NearbyCliStopTriggers *triggers,
                                        NearbyCliStopFunc      stop,
                                        gpointer               user_data)
{
  triggers->stop = stop;
  triggers->user_data = user_data;
  triggers->sigint_source = g_unix_signal_add (SIGINT, signal_cb, triggers);
  triggers->sigterm_source = g_unix_signal_add (SIGTERM, signal_cb, triggers);
}

void
nearby_cli_stop_triggers_start_duration (NearbyCliStopTriggers *triggers,
                                         double                 duration_s)
{
  /* The duration ends through the same stop as the signals, which watch_signals() sets. */
  g_return_if_fail (triggers->stop != NULL);

  nearby_cli_stop_triggers_cancel_duration (triggers);
  if (duration_s > 0)
    triggers->duration_source = g_timeout_add ((guint) (duration_s * 1000), duration_cb, triggers);
}

void
nearby_cli_stop_triggers_cancel_duration (NearbyCliStopTriggers *triggers)
{
  g_clear_handle_id (&triggers->duration_source, g_source_remove);
}

void
nearby_cli_stop_triggers_clear (NearbyCliStopTriggers *triggers)
{
  g_clear_handle_id (&triggers->duration_source, g_source_remove);
  g_clear_handle_id (&triggers->sigint_source, g_source_remove);
  g_clear_handle_id (&triggers->sigterm_source, g_source_remove);
}
