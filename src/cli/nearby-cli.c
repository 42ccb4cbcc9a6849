/* nearby-cli.c: subcommand dispatch
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-cli"

#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "nearby-cli.h"
#include "nearby-text.h"

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
  { "configure", nearby_cli_configure, N_("Read or change a beacon’s configuration") },
};

gboolean
nearby_cli_is_command (const char *first_arg)
{
  /* Options, known or not, belong to the app (GApplication and GTK parse them); anything else
   * is a command, so that a typo gets an answer here instead of a window. */
  return first_arg != NULL && first_arg[0] != '-';
}

static const NearbySubcommand *
find_subcommand (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (subcommands); i++)
    {
      if (g_str_equal (name, subcommands[i].name))
        return &subcommands[i];
    }

  return NULL;
}

/* The Levenshtein distance, for short ASCII words such as command names. */
static guint
edit_distance (const char *a,
               const char *b)
{
  gsize len_b = strlen (b);
  g_autofree guint *row = g_new (guint, len_b + 1);

  for (gsize j = 0; j <= len_b; j++)
    row[j] = j;

  for (gsize i = 1; a[i - 1] != '\0'; i++)
    {
      guint diagonal = row[0];

      row[0] = i;
      for (gsize j = 1; j <= len_b; j++)
        {
          guint above = row[j];
          guint cost = g_ascii_tolower (a[i - 1]) == g_ascii_tolower (b[j - 1]) ? 0 : 1;

          row[j] = MIN (MIN (row[j] + 1, row[j - 1] + 1), diagonal + cost);
          diagonal = above;
        }
    }

  return row[len_b];
}

static void
print_commands (FILE *stream)
{
  fprintf (stream, "%s\n", _("Usage:"));
  fprintf (stream, "  nearby [%s]\n", _("OPTION…"));
  fprintf (stream, "  nearby %s [%s] [%s]\n", _("COMMAND"), _("OPTION…"), _("ARGUMENT…"));
  fprintf (stream, "\n%s\n",
           _("Without a command, nearby starts the app (“nearby --help” lists its options)."));
  fprintf (stream, "\n%s\n", _("Commands:"));
  for (guint i = 0; i < G_N_ELEMENTS (subcommands); i++)
    fprintf (stream, "  %-10s %s\n", subcommands[i].name, _(subcommands[i].summary));
  fprintf (stream, "  %-10s %s\n", "help", _("List the commands, or show the options of one"));
  fprintf (stream, "\n%s\n",
           _("Run “nearby help COMMAND” or “nearby COMMAND --help” for the options of a command."));
}

static int
unknown_command (const char *name)
{
  const char *closest = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (subcommands); i++)
    {
      /* Two slips of the fingers, but not a different short word. */
      if (edit_distance (name, subcommands[i].name) <= MIN (2, strlen (name) / 2))
        {
          closest = subcommands[i].name;
          break;
        }
    }

  g_printerr (_("nearby: unknown command “%s”"), name);
  g_printerr ("\n");
  if (closest != NULL)
    {
      g_printerr (_("Did you mean “nearby %s”?"), closest);
      g_printerr ("\n");
    }
  g_printerr ("\n");
  print_commands (stderr);

  return NEARBY_EXIT_USAGE;
}

static int
run_subcommand (const NearbySubcommand *subcommand,
                int                     argc,
                char                  **argv)
{
  /* GOption's usage line and messages read "nearby decode", as the user typed it. */
  g_autofree char *prgname = g_strdup_printf ("nearby %s", subcommand->name);

  g_set_prgname (prgname);

  return subcommand->run (argc, argv);
}

static int
help (int    argc,
      char **argv)
{
  const NearbySubcommand *subcommand;
  char *help_argv[] = { NULL, (char *) "--help", NULL };

  if (argc < 2)
    {
      print_commands (stdout);
      return NEARBY_EXIT_OK;
    }
  if (argc > 2)
    {
      g_printerr ("%s\n", _("nearby help: give one command, such as “nearby help scan”"));
      return NEARBY_EXIT_USAGE;
    }

  subcommand = find_subcommand (argv[1]);
  if (subcommand == NULL)
    return unknown_command (argv[1]);

  /* Exactly what `nearby CMD --help` prints, and exits 0 as it does. */
  help_argv[0] = argv[1];

  return run_subcommand (subcommand, 2, help_argv);
}

int
nearby_cli_usage_error (GOptionContext *context,
                        const char     *message)
{
  g_autofree char *help = g_option_context_get_help (context, TRUE, NULL);

  g_printerr ("%s: %s\n\n%s", g_get_prgname (), message, help);

  return NEARBY_EXIT_USAGE;
}

/* Whatever a subcommand echoes (a URL, a file name, a page's title, bluetoothd's messages)
 * reaches the terminal as text, never as a control sequence or a bidi override. */
static void
write_escaped (const char *text,
               FILE       *stream)
{
  g_autofree char *escaped = nearby_text_escape_for_terminal (text);
  const char *charset;

  /* As GLib's own handler does: in the locale's charset. */
  if (!g_get_charset (&charset))
    {
      g_autofree char *converted = g_convert_with_fallback (escaped, -1, charset, "UTF-8", "?",
                                                            NULL, NULL, NULL);

      if (converted != NULL)
        {
          fputs (converted, stream);
          fflush (stream);
          return;
        }
    }

  fputs (escaped, stream);
  fflush (stream);
}

static void
print_escaped (const char *text)
{
  write_escaped (text, stdout);
}

static void
printerr_escaped (const char *text)
{
  write_escaped (text, stderr);
}

int
nearby_cli_run (int    argc,
                char **argv)
{
  const NearbySubcommand *subcommand;

  g_return_val_if_fail (argc >= 2, NEARBY_EXIT_USAGE);

  setlocale (LC_ALL, "");
  /* Lets tests and translators run uninstalled with the catalogues in the build tree. */
  bindtextdomain (GETTEXT_PACKAGE, g_getenv ("NEARBY_LOCALEDIR") != NULL
                                     ? g_getenv ("NEARBY_LOCALEDIR") : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  g_set_print_handler (print_escaped);
  g_set_printerr_handler (printerr_escaped);

  if (g_str_equal (argv[1], "help"))
    return help (argc - 1, argv + 1);

  subcommand = find_subcommand (argv[1]);
  if (subcommand == NULL)
    return unknown_command (argv[1]);

  return run_subcommand (subcommand, argc - 1, argv + 1);
}
