/* nearby-cli-scan-table.c: the table `nearby scan` prints: one row per device and frame kind,
 * rows that fade and leave as the app's do
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-cli"

#include "config.h"

#include <glib/gi18n.h>
#include <unistd.h>

#include "nearby-cli-scan-table.h"
#include "nearby-distance.h"
#include "nearby-hex.h"
#include "nearby-text.h"

#define SGR_FAINT "\033[2m"
#define SGR_RESET "\033[0m"

typedef struct {
  char   *address;
  char   *what;           /* the URL, or a description of another frame, as last heard */
  int     rssi;
  double  distance_m;     /* negative: unknown */
  gint64  last_seen_us;
} Row;

struct _NearbyCliScanTable {
  GHashTable *rows;       /* row_key() -> Row */
  gint64      expiry_us;
  gboolean    show_fading;
};

static void
row_free (gpointer data)
{
  Row *row = data;

  g_free (row->address);
  g_free (row->what);
  g_free (row);
}

NearbyCliScanTable *
nearby_cli_scan_table_new (gint64   expiry_us,
                           gboolean show_fading)
{
  NearbyCliScanTable *table = g_new0 (NearbyCliScanTable, 1);

  table->rows = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, row_free);
  table->expiry_us = expiry_us;
  table->show_fading = show_fading;

  return table;
}

void
nearby_cli_scan_table_free (NearbyCliScanTable *table)
{
  if (table == NULL)
    return;

  g_hash_table_unref (table->rows);
  g_free (table);
}

double
nearby_cli_sighting_distance (const NearbySighting *sighting)
{
  const NearbyFrame *frame = &sighting->frame;
  int tx_power_0m;

  if (frame->error != NEARBY_FRAME_OK || !frame->tx_power_known)
    return -1.0;

  /* iBeacon calibrates at 1 m, the others at 0 m. */
  tx_power_0m = frame->tx_power;
  if (frame->protocol == NEARBY_PROTOCOL_IBEACON)
    tx_power_0m += 41;

  return nearby_distance_estimate (tx_power_0m, sighting->rssi, NEARBY_PATH_LOSS_DEFAULT);
}

gboolean
nearby_cli_stdout_has_color (void)
{
  const char *no_color = g_getenv ("NO_COLOR");

  /* NO_COLOR counts when it is set to anything but the empty string. */
  return isatty (STDOUT_FILENO) && (no_color == NULL || *no_color == '\0');
}

static char *
describe_frame (const NearbyFrame *frame)
{
  if (frame->error != NEARBY_FRAME_OK)
    {
      char message[NEARBY_FRAME_MESSAGE_MAX];

      return g_strdup_printf (_("invalid %s frame: %s"),
                              frame->service_uuid == NEARBY_UUID16_URIBEACON ? "UriBeacon"
                              : frame->service_uuid == NEARBY_UUID16_EDDYSTONE ? "Eddystone"
                              : "iBeacon",
                              nearby_frame_format_error (frame, message, sizeof message));
    }

  switch (frame->kind)
    {
    case NEARBY_FRAME_KIND_URL:
      return g_strdup (frame->url);

    case NEARBY_FRAME_KIND_UID:
      {
        g_autofree char *namespace_id = nearby_hex_format (frame->namespace_id,
                                                           sizeof frame->namespace_id);
        g_autofree char *instance_id = nearby_hex_format (frame->instance_id,
                                                          sizeof frame->instance_id);

        return g_strdup_printf ("Eddystone-UID %s %s", namespace_id, instance_id);
      }

    case NEARBY_FRAME_KIND_TLM:
      return g_strdup_printf ("Eddystone-TLM %u mV, %u %s", frame->battery_mv,
                              frame->adv_count, frame->adv_count == 1 ? "advert" : "adverts");

    case NEARBY_FRAME_KIND_ETLM:
      return g_strdup ("Eddystone-TLM (encrypted)");

    case NEARBY_FRAME_KIND_EID:
      {
        g_autofree char *eid = nearby_hex_format (frame->eid, sizeof frame->eid);

        return g_strdup_printf ("Eddystone-EID %s", eid);
      }

    case NEARBY_FRAME_KIND_IBEACON:
      {
        g_autofree char *uuid = nearby_hex_format (frame->ibeacon_uuid,
                                                   sizeof frame->ibeacon_uuid);

        return g_strdup_printf ("iBeacon %s %u/%u", uuid, frame->ibeacon_major,
                                frame->ibeacon_minor);
      }

    case NEARBY_FRAME_KIND_NONE:
    default:
      return g_strdup (nearby_frame_kind_to_string (frame->kind));
    }
}

/* A device and the kind of frame it sent, not what the frame says: a TLM beacon's counters
 * change with every advert, and each advert is the same row. */
static char *
row_key (const NearbySighting *sighting)
{
  const NearbyFrame *frame = &sighting->frame;

  return g_strdup_printf ("%s %04x %d %d", sighting->address, frame->service_uuid,
                          (int) frame->kind, frame->error != NEARBY_FRAME_OK);
}

/* Takes @key and @what. */
static void
remember_row (NearbyCliScanTable *table,
              char               *key,
              const char         *address,
              char               *what,
              int                 rssi,
              double              distance_m,
              gint64              time_us)
{
  Row *row = g_hash_table_lookup (table->rows, key);

  if (row == NULL)
    {
      row = g_new0 (Row, 1);
      row->address = g_strdup (address);
      g_hash_table_insert (table->rows, key, row);
    }
  else
    g_free (key);

  g_free (row->what);
  row->what = what;
  row->rssi = rssi;
  row->distance_m = distance_m;
  row->last_seen_us = time_us;
}

void
nearby_cli_scan_table_remember (NearbyCliScanTable   *table,
                                const NearbySighting *sighting)
{
  remember_row (table, row_key (sighting), sighting->address,
                describe_frame (&sighting->frame), sighting->rssi,
                nearby_cli_sighting_distance (sighting), sighting->time_us);
}

void
nearby_cli_scan_table_remember_other (NearbyCliScanTable *table,
                                      const char         *address,
                                      int                 rssi,
                                      gint64              time_us,
                                      const char         *what)
{
  remember_row (table, g_strdup_printf ("%s other", address), address, g_strdup (what), rssi,
                -1.0, time_us);
}

static gboolean
row_has_expired (gpointer key,
                 gpointer value,
                 gpointer user_data)
{
  const Row *row = value;
  const gint64 *limit_us = user_data;

  return row->last_seen_us < *limit_us;
}

void
nearby_cli_scan_table_expire (NearbyCliScanTable *table,
                              gint64              now_us)
{
  gint64 limit_us = now_us - table->expiry_us;

  g_hash_table_foreach_remove (table->rows, row_has_expired, &limit_us);
}

guint
nearby_cli_scan_table_get_n_rows (NearbyCliScanTable *table)
{
  return g_hash_table_size (table->rows);
}

static int
compare_rows (gconstpointer a,
              gconstpointer b)
{
  const Row *row_a = *(const Row * const *) a;
  const Row *row_b = *(const Row * const *) b;

  /* Nearest first; unknown distances last, then by name for a stable order. */
  if ((row_a->distance_m < 0) != (row_b->distance_m < 0))
    return row_a->distance_m < 0 ? 1 : -1;
  if (row_a->distance_m != row_b->distance_m)
    return row_a->distance_m < row_b->distance_m ? -1 : 1;
  if (g_strcmp0 (row_a->what, row_b->what) != 0)
    return g_strcmp0 (row_a->what, row_b->what);
  return g_strcmp0 (row_a->address, row_b->address);
}

void
nearby_cli_scan_table_format (NearbyCliScanTable *table,
                              gint64              now_us,
                              gboolean            faint,
                              GString            *out)
{
  g_autoptr(GPtrArray) rows = g_ptr_array_new ();
  /* As the app: its objects fade after 10 s of the 30 s they stay by default. */
  gint64 fade_us = table->expiry_us / 3;
  GHashTableIter iter;
  gpointer row_data;

  nearby_cli_scan_table_expire (table, now_us);

  g_hash_table_iter_init (&iter, table->rows);
  while (g_hash_table_iter_next (&iter, NULL, &row_data))
    g_ptr_array_add (rows, row_data);
  g_ptr_array_sort (rows, compare_rows);

  g_string_append_printf (out, "%9s  %5s  %5s  %-17s  %s\n",
                          _("DISTANCE"), _("RSSI"), _("AGE"), _("ADDRESS"), _("URL"));
  for (guint i = 0; i < rows->len; i++)
    {
      Row *row = g_ptr_array_index (rows, i);
      gint64 age_us = MAX (0, now_us - row->last_seen_us);
      gboolean fading = faint && table->show_fading && age_us > fade_us;
      g_autofree char *distance = NULL;
      g_autofree char *rssi = NULL;
      /* What a beacon or a capture says goes to a terminal as text only. */
      g_autofree char *address = nearby_text_escape_for_terminal (row->address);
      g_autofree char *what = nearby_text_escape_for_terminal (row->what);

      if (row->distance_m >= 0)
        distance = g_strdup_printf ("%.1f m", row->distance_m);
      else
        distance = g_strdup ("?");
      if (row->rssi != NEARBY_RSSI_UNKNOWN)
        rssi = g_strdup_printf ("%d", row->rssi);
      else
        rssi = g_strdup ("?");

      g_string_append_printf (out, "%s%9s  %5s  %4us  %-17s  %s%s\n",
                              fading ? SGR_FAINT : "",
                              distance, rssi, (guint) (age_us / G_USEC_PER_SEC),
                              address, what,
                              fading ? SGR_RESET : "");
    }
  if (rows->len == 0)
    g_string_append_printf (out, "%s\n", _("(no beacons seen)"));
}
