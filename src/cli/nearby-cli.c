/* nearby-cli.c: subcommand dispatch
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-cli"

#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>
#include <stdio.h>

#include "nearby-cli.h"

typedef struct {
  const char *name;
  int (*run) (int argc, char **argv);
  const char *summary;
} NearbySubcommand;

static const NearbySubcommand subcommands[] = {
  { "decode", nearby_cli_decode, N_("Decode beacon advertisements given in hex") },
  { "encode", nearby_cli_encode, N_("Encode a URL as Eddystone-URL and UriBeacon frames") },
  { "resolve", nearby_cli_resolve, N_("Show what a URL’s page looks like in the list") },
  { "scan", nearby_cli_scan, N_("List the beacons around, nearest first") },
  { "advertise", nearby_cli_advertise, N_("Broadcast a URL from this computer") },
};

gboolean
nearby_cli_is_subcommand (const char *name)
{
  if (name == NULL)
    return FALSE;

  for (guint i = 0; i < G_N_ELEMENTS (subcommands); i++)
    {
      if (g_str_equal (name, subcommands[i].name))
        return TRUE;
    }

  return g_str_equal (name, "help");
}

static int
print_help (FILE *stream)
{
  fprintf (stream, "%s\n  nearby [--demo] [--replay %s] [--developer]\n", _("Usage:"), _("FILE"));
  for (guint i = 0; i < G_N_ELEMENTS (subcommands); i++)
    fprintf (stream, "  nearby %-10s %s\n", subcommands[i].name, _(subcommands[i].summary));
  fprintf (stream, "\n%s\n", _("Run “nearby COMMAND --help” for the options of a command."));

  return stream == stdout ? NEARBY_EXIT_OK : NEARBY_EXIT_USAGE;
}

int
nearby_cli_usage_error (GOptionContext *context,
                        const char     *message)
{
  g_autofree char *help = g_option_context_get_help (context, TRUE, NULL);

  g_printerr ("nearby: %s\n\n%s", message, help);

  return NEARBY_EXIT_USAGE;
}

int
nearby_cli_run (int    argc,
                char **argv)
{
  g_return_val_if_fail (argc >= 2, NEARBY_EXIT_USAGE);

  setlocale (LC_ALL, "");
  /* Lets tests and translators run uninstalled with the catalogues in the build tree. */
  bindtextdomain (GETTEXT_PACKAGE, g_getenv ("NEARBY_LOCALEDIR") != NULL
                                     ? g_getenv ("NEARBY_LOCALEDIR") : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  if (g_str_equal (argv[1], "help"))
    return print_help (stdout);

  for (guint i = 0; i < G_N_ELEMENTS (subcommands); i++)
    {
      if (g_str_equal (argv[1], subcommands[i].name))
        {
          g_set_prgname (subcommands[i].name);
          return subcommands[i].run (argc - 1, argv + 1);
        }
    }

  return print_help (stderr);
}
