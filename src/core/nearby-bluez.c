/* nearby-bluez.c: BlueZ's D-Bus names, and which adapter to use
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-bluez"

#include "config.h"

#include <string.h>

#include "nearby-bluez.h"

static gboolean
adapter_is_called (const NearbyBluezAdapter *adapter,
                   const char               *name)
{
  const char *slash = strrchr (adapter->object_path, '/');

  return g_str_equal (slash != NULL ? slash + 1 : adapter->object_path, name);
}

int
nearby_bluez_choose_adapter (const NearbyBluezAdapter *adapters,
                             guint                     n_adapters,
                             const char               *name)
{
  int best = -1;

  g_return_val_if_fail (adapters != NULL || n_adapters == 0, -1);

  for (guint i = 0; i < n_adapters; i++)
    {
      const NearbyBluezAdapter *adapter = &adapters[i];
      gboolean powered = adapter->powered != FALSE;
      gboolean best_powered = best >= 0 && adapters[best].powered != FALSE;

      if (name != NULL)
        {
          if (adapter_is_called (adapter, name))
            return (int) i;
          continue;
        }

      if (best < 0
          || (powered && !best_powered)
          || (powered == best_powered
              && strcmp (adapter->object_path, adapters[best].object_path) < 0))
        best = (int) i;
    }

  return best;
}
