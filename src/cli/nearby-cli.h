/* nearby-cli.h: the developer command line (no GTK, no display needed)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Exit codes shared by every subcommand. */
#define NEARBY_EXIT_OK          0
#define NEARBY_EXIT_FAILED      1  /* ran, but some input did not decode / resolve */
#define NEARBY_EXIT_USAGE       2
#define NEARBY_EXIT_UNAVAILABLE 3  /* Bluetooth (or another service) is unavailable */

/* Whether the first argument is a command for the CLI (any word, known or not, that is not an
 * option) rather than for the app. */
gboolean nearby_cli_is_command    (const char  *first_arg);
int      nearby_cli_run           (int          argc,
                                   char       **argv);

/* Helpers for subcommands */
int      nearby_cli_usage_error   (GOptionContext *context,
                                   const char     *message);

/* Subcommands: argv[0] is the subcommand name. */
int      nearby_cli_decode        (int argc, char **argv);
int      nearby_cli_encode        (int argc, char **argv);
int      nearby_cli_resolve       (int argc, char **argv);
int      nearby_cli_scan          (int argc, char **argv);
int      nearby_cli_advertise     (int argc, char **argv);
int      nearby_cli_configure     (int argc, char **argv);

G_END_DECLS
