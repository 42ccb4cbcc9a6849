/* nearby-cli-decode.c: `nearby decode` and `nearby encode`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-cli"

#include "config.h"

#include <glib/gi18n.h>

#include "nearby-cli.h"

int
nearby_cli_decode (int    argc,
                   char **argv)
{
  g_printerr ("nearby decode: not built yet\n");
  return NEARBY_EXIT_FAILED;
}

int
nearby_cli_encode (int    argc,
                   char **argv)
{
  g_printerr ("nearby encode: not built yet\n");
  return NEARBY_EXIT_FAILED;
}
