/* fuzz-replay-line.c: one line of a capture file, as `nearby --replay` reads it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <stdlib.h>
#include <string.h>

#include "nearby-replay.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autofree char *line = g_malloc (size + 1);
  g_autoptr(GError) error = NULL;
  g_autoptr(NearbySighting) sighting = NULL;

  memcpy (line, data, size);
  line[size] = '\0';

  sighting = nearby_replay_parse_line (line, &error);

  /* Exactly one of a sighting or a reason. */
  if ((sighting == NULL) == (error == NULL))
    abort ();
  if (error != NULL && (error->message == NULL || error->message[0] == '\0'))
    abort ();
  if (sighting != NULL
      && (sighting->address == NULL || sighting->address[0] == '\0'
          || sighting->raw_len > sizeof sighting->raw))
    abort ();

  return 0;
}
