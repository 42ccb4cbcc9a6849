/* main.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>

#include "nearby-application.h"
#include "nearby-cli.h"

int
main (int   argc,
      char *argv[])
{
  g_autoptr(NearbyApplication) app = NULL;

  /* A command is the developer tool, which never touches the display; an unknown one is an
   * error there, not a window. */
  if (argc >= 2 && nearby_cli_is_command (argv[1]))
    return nearby_cli_run (argc, argv);

  setlocale (LC_ALL, "");
  /* Lets tests and translators run uninstalled with the catalogues in the build tree. */
  bindtextdomain (GETTEXT_PACKAGE, g_getenv ("NEARBY_LOCALEDIR") != NULL
                                     ? g_getenv ("NEARBY_LOCALEDIR") : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  app = nearby_application_new ();

  return g_application_run (G_APPLICATION (app), argc, argv);
}
