/* fuzz-btsnoop.c: a btsnoop capture, as `nearby --replay` and `nearby scan --from` read it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <stdlib.h>
#include <string.h>

#include "nearby-btsnoop.h"
#include "nearby-replay.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(GBytes) bytes = g_bytes_new (data, size);
  g_autoptr(GError) error = NULL;
  g_autoptr(NearbyBtsnoopReader) reader = nearby_btsnoop_reader_new (bytes, &error);
  g_autoptr(GPtrArray) sightings =
    g_ptr_array_new_with_free_func ((GDestroyNotify) nearby_sighting_free);
  guint last_record = 0;
  gsize steps = 0;

  /* Exactly one of a reader or a reason. */
  if ((reader == NULL) == (error == NULL))
    abort ();
  if (reader == NULL)
    return 0;

  for (;;)
    {
      NearbyBtsnoopReport report;
      g_autoptr(GError) record_error = NULL;

      /* Every step reads at least a record header or a report of a few bytes. */
      if (++steps > size + 1)
        abort ();

      if (!nearby_btsnoop_reader_next (reader, &report, &record_error))
        {
          if (record_error == NULL)
            break;
          if (!g_str_has_prefix (record_error->message, "record "))
            abort ();
          continue;
        }

      if (report.record < last_record || report.record == 0
          || report.data_len > NEARBY_BTSNOOP_AD_MAX
          || (report.data_len > 0 && report.data == NULL)
          || strlen (report.address) != 17
          || report.rssi < -128 || report.rssi > 127)
        abort ();
      last_record = report.record;

      /* What a replay makes of it: every sighting's raw bytes fit. */
      g_ptr_array_set_size (sightings, 0);
      nearby_replay_add_report_sightings (&report, sightings);
      for (guint i = 0; i < sightings->len; i++)
        {
          NearbySighting *sighting = sightings->pdata[i];

          if (sighting->raw_len > sizeof sighting->raw
              || g_strcmp0 (sighting->address, report.address) != 0)
            abort ();
        }
    }

  return 0;
}
