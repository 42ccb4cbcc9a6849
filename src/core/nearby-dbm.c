/* nearby-dbm.c: signal strengths written for people
 *
 * The inspector, its frame rows and the signal graph show the same figure the same way.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-dbm"

#include "config.h"

#include <math.h>

#include "nearby-dbm.h"

char *
nearby_dbm_format_number (double dbm)
{
  long rounded = lround (dbm);

  if (rounded < 0)
    return g_strdup_printf ("\u2212%ld", -rounded);
  return g_strdup_printf ("%ld", rounded);
}

char *
nearby_dbm_format (double dbm)
{
  g_autofree char *number = nearby_dbm_format_number (dbm);

  return g_strdup_printf ("%s dBm", number);
}
