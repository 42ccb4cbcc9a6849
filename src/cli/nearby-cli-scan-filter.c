/* nearby-cli-scan-filter.c: which sightings `nearby scan` shows: --all and the filters
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-cli"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "nearby-cli-scan-filter.h"

/* What a radio can report: BlueZ passes RSSI as an int16, real values are -127 to +20 dBm. */
#define MIN_RSSI_LOWEST  -127
#define MIN_RSSI_HIGHEST 20

#define PROTOCOL_BIT(protocol) (1u << (protocol))

static gboolean
parse_min_rssi (const char  *text,
                int         *min_rssi,
                char       **message)
{
  gint64 value;

  if (!g_ascii_string_to_signed (text, 10, MIN_RSSI_LOWEST, MIN_RSSI_HIGHEST, &value, NULL))
    {
      *message = g_strdup_printf (_("--min-rssi takes a signal strength in dBm from %d to %d, "
                                    "such as -70, not “%s”"),
                                  MIN_RSSI_LOWEST, MIN_RSSI_HIGHEST, text);
      return FALSE;
    }

  *min_rssi = (int) value;

  return TRUE;
}

static gboolean
parse_protocols (char  **values,
                 guint  *protocols,
                 char  **message)
{
  static const NearbyProtocol known[] = {
    NEARBY_PROTOCOL_EDDYSTONE, NEARBY_PROTOCOL_URIBEACON, NEARBY_PROTOCOL_IBEACON,
  };

  for (guint i = 0; values[i] != NULL; i++)
    {
      /* Repeated, or given as a list: "--protocol eddystone,uribeacon". */
      g_auto(GStrv) names = g_strsplit (values[i], ",", -1);

      for (guint j = 0; names[j] != NULL; j++)
        {
          g_autofree char *name = g_ascii_strdown (g_strstrip (names[j]), -1);
          gboolean found = FALSE;

          for (guint k = 0; k < G_N_ELEMENTS (known); k++)
            {
              if (g_str_equal (name, nearby_protocol_to_string (known[k])))
                {
                  *protocols |= PROTOCOL_BIT (known[k]);
                  found = TRUE;
                }
            }

          if (!found)
            {
              *message = g_strdup_printf (_("--protocol takes eddystone, uribeacon or ibeacon, "
                                            "not “%s”"), names[j]);
              return FALSE;
            }
        }
    }

  return TRUE;
}

/* Six pairs of hex digits between colons, as BlueZ and bluetoothctl write them. */
static char *
normalize_address (const char *text)
{
  if (strlen (text) != 17)
    return NULL;

  for (guint i = 0; i < 17; i++)
    {
      gboolean colon = i % 3 == 2;

      if (colon ? text[i] != ':' : !g_ascii_isxdigit (text[i]))
        return NULL;
    }

  return g_ascii_strup (text, -1);
}

static gboolean
parse_addresses (char       **values,
                 GPtrArray  **addresses,
                 char       **message)
{
  *addresses = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; values[i] != NULL; i++)
    {
      char *address = normalize_address (values[i]);

      if (address == NULL)
        {
          *message = g_strdup_printf (_("--address takes a Bluetooth address such as "
                                        "C0:FF:EE:00:00:01, not “%s”"), values[i]);
          return FALSE;
        }
      g_ptr_array_add (*addresses, address);
    }

  return TRUE;
}

gboolean
nearby_cli_scan_filter_init (NearbyCliScanFilter  *filter,
                             gboolean              all,
                             const char           *min_rssi,
                             char                **protocols,
                             char                **addresses,
                             const char           *url_contains,
                             char                **message)
{
  memset (filter, 0, sizeof *filter);
  filter->all = all;

  if (min_rssi != NULL)
    {
      if (!parse_min_rssi (min_rssi, &filter->min_rssi, message))
        return FALSE;
      filter->has_min_rssi = TRUE;
    }

  if (protocols != NULL && !parse_protocols (protocols, &filter->protocols, message))
    return FALSE;

  if (addresses != NULL && !parse_addresses (addresses, &filter->addresses, message))
    return FALSE;

  if (url_contains != NULL)
    {
      if (*url_contains == '\0')
        {
          *message = g_strdup (_("--url-contains takes some text to look for in the URL"));
          return FALSE;
        }
      filter->url_contains = g_ascii_strdown (url_contains, -1);
    }

  return TRUE;
}

void
nearby_cli_scan_filter_clear (NearbyCliScanFilter *filter)
{
  g_clear_pointer (&filter->addresses, g_ptr_array_unref);
  g_clear_pointer (&filter->url_contains, g_free);
}

static gboolean
address_matches (const NearbyCliScanFilter *filter,
                 const char                *address)
{
  for (guint i = 0; i < filter->addresses->len; i++)
    {
      if (g_ascii_strcasecmp (address, g_ptr_array_index (filter->addresses, i)) == 0)
        return TRUE;
    }

  return FALSE;
}

gboolean
nearby_cli_scan_filter_matches (const NearbyCliScanFilter *filter,
                                const NearbySighting      *sighting)
{
  const NearbyFrame *frame = &sighting->frame;
  gboolean valid = frame->error == NEARBY_FRAME_OK;

  if (!filter->all)
    {
      /* What the app lists: a URL, from a beacon that does not ask to be hidden (the Invisible
       * Hint). iBeacon frames never carry a URL, so asking for them by name shows them. */
      gboolean listed = valid && frame->kind == NEARBY_FRAME_KIND_URL && !frame->invisible;
      gboolean asked_for = valid && frame->kind == NEARBY_FRAME_KIND_IBEACON
                           && (filter->protocols & PROTOCOL_BIT (NEARBY_PROTOCOL_IBEACON)) != 0;

      if (!listed && !asked_for)
        return FALSE;
    }

  if (filter->has_min_rssi
      && (sighting->rssi == NEARBY_RSSI_UNKNOWN || sighting->rssi < filter->min_rssi))
    return FALSE;

  if (filter->protocols != 0 && (filter->protocols & PROTOCOL_BIT (frame->protocol)) == 0)
    return FALSE;

  if (filter->addresses != NULL && !address_matches (filter, sighting->address))
    return FALSE;

  if (filter->url_contains != NULL)
    {
      g_autofree char *url = NULL;

      if (!valid || frame->kind != NEARBY_FRAME_KIND_URL)
        return FALSE;
      /* The codec lets only printable ASCII into a URL. */
      url = g_ascii_strdown (frame->url, -1);
      if (strstr (url, filter->url_contains) == NULL)
        return FALSE;
    }

  return TRUE;
}
