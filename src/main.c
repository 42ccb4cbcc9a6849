/* main.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gio/gio.h>
#include <glib/gi18n.h>
#include <gmodule.h>
#include <locale.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "nearby-cli.h"

/* The app's window lives in a module (src/meson.build says why): installed under libdir, found
 * from this executable's directory; in the build tree, beside it. */
static char *
find_ui_module (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *self = g_file_read_link ("/proc/self/exe", &error);
  g_autofree char *directory = NULL;
  g_autofree char *installed = NULL;
  g_autofree char *built = NULL;

  if (self == NULL)
    return g_strdup (NEARBY_UI_MODULE_INSTALLED);

  directory = g_path_get_dirname (self);
  installed = g_canonicalize_filename (NEARBY_UI_MODULE_INSTALLED, directory);
  built = g_build_filename (directory, NEARBY_UI_MODULE_BUILT, NULL);
  /* Neither there: the error names where an installed Nearby has it. */
  if (g_file_test (installed, G_FILE_TEST_EXISTS) || !g_file_test (built, G_FILE_TEST_EXISTS))
    return g_steal_pointer (&installed);

  return g_steal_pointer (&built);
}

static int
run_app (int    argc,
         char **argv)
{
  g_autofree char *path = find_ui_module ();
  g_autoptr(GApplication) app = NULL;
  GApplication *(*application_new) (void) = NULL;
  GModule *module;

  /* Global, not local: GtkBuilder finds the get_type functions and callbacks that the module's
   * templates name through the program's symbol table. */
  module = g_module_open (path, G_MODULE_BIND_LAZY);
  if (module == NULL || !g_module_symbol (module, "nearby_application_new",
                                          (gpointer *) &application_new))
    {
      g_printerr (_("Cannot start Nearby: %s\n"), g_module_error ());
      return 1;
    }
  g_module_make_resident (module);

  app = application_new ();

  return g_application_run (app, argc, argv);
}

int
main (int   argc,
      char *argv[])
{
  /* A command is the developer tool, which never touches the display; an unknown one is an
   * error there, not a window. */
  if (argc >= 2 && nearby_cli_is_command (argv[1]))
    return nearby_cli_run (argc, argv);

#ifdef __GLIBC__
  /* glibc gives each thread that allocates an arena of its own, up to eight per core, and an
   * arena keeps what was freed in it. The app's threads (the scanner's reader, the icon decoder,
   * the history's and GIO's workers) each touch every object that comes, so each arena grew
   * with the list: with two arenas in all, 2 000 listed objects take 1.4 MiB less, about 5 %
   * less per object (tests/bench/README.md, bench-memory). The environment's setting stands. */
  if (g_getenv ("MALLOC_ARENA_MAX") == NULL)
    mallopt (M_ARENA_MAX, 2);
#endif

  setlocale (LC_ALL, "");
  /* Lets tests and translators run uninstalled with the catalogues in the build tree. */
  bindtextdomain (GETTEXT_PACKAGE, g_getenv ("NEARBY_LOCALEDIR") != NULL
                                     ? g_getenv ("NEARBY_LOCALEDIR") : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  return run_app (argc, argv);
}
