/* nearby-process-age.c: how long ago this process started
 *
 * The window logs its first frame with it, and so does the startup benchmark's baseline, which
 * compiles this file alone: both are measured the same way.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-process-age"

#include "config.h"

#include <string.h>
#include <time.h>
#include <unistd.h>

#include "nearby-process-age.h"

double
nearby_process_age_ms (void)
{
  g_autofree char *stat = NULL;
  g_auto(GStrv) fields = NULL;
  const char *after_name;
  struct timespec now;
  double start_s;

  /* Field 22 of /proc/self/stat is the start time in clock ticks since boot; the name before it
   * (in parentheses) may hold spaces. */
  if (!g_file_get_contents ("/proc/self/stat", &stat, NULL, NULL)
      || (after_name = strrchr (stat, ')')) == NULL
      || clock_gettime (CLOCK_BOOTTIME, &now) != 0)
    return -1.0;

  fields = g_strsplit (after_name + 1, " ", 22);
  if (g_strv_length (fields) < 21)
    return -1.0;

  start_s = g_ascii_strtod (fields[20], NULL) / sysconf (_SC_CLK_TCK);

  return (now.tv_sec + now.tv_nsec / 1e9 - start_s) * 1000.0;
}
