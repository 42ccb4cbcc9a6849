/* nearby-cli-bluetooth.c: what `nearby scan` and `nearby advertise` share: the way out of
 * Bluetooth trouble
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-cli"

#include "config.h"

#include <glib/gi18n.h>

#include "nearby-cli-bluetooth.h"

const char *
nearby_cli_bluetooth_advice (NearbySourceState state)
{
  switch (state)
    {
    case NEARBY_SOURCE_STATE_NO_SERVICE:
      return _("start it with `systemctl start bluetooth`");
    case NEARBY_SOURCE_STATE_NO_ADAPTER:
      return _("plug in a Bluetooth adapter, or check `bluetoothctl list`");
    case NEARBY_SOURCE_STATE_OFF:
      return _("run `bluetoothctl power on`");
    case NEARBY_SOURCE_STATE_RFKILL_BLOCKED:
      return _("run `rfkill unblock bluetooth`");
    case NEARBY_SOURCE_STATE_ERROR:
    case NEARBY_SOURCE_STATE_STARTING:
    case NEARBY_SOURCE_STATE_SCANNING:
    case NEARBY_SOURCE_STATE_FINISHED:
    default:
      return NULL;
    }
}
