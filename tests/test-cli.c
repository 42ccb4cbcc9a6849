/* test-cli.c: how `nearby` takes its commands, as a person at a terminal meets it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <gio/gio.h>
#include <string.h>

#include "nearby-test-utils.h"

/* The commands `nearby help` lists, in its order. */
static GPtrArray *
listed_commands (void)
{
  g_autoptr(NearbyTestRun) run = nearby_test_run_nearby (NULL, "help", NULL);
  g_autoptr(GRegex) command = g_regex_new ("^  ([a-z]+)  +\\S", G_REGEX_MULTILINE, 0, NULL);
  g_autoptr(GMatchInfo) match = NULL;
  GPtrArray *commands = g_ptr_array_new_with_free_func (g_free);

  g_assert_cmpint (run->status, ==, 0);
  for (g_regex_match (command, run->out, 0, &match); g_match_info_matches (match);
       g_match_info_next (match, NULL))
    {
      g_autofree char *name = g_match_info_fetch (match, 1);

      if (!g_str_equal (name, "help"))
        g_ptr_array_add (commands, g_steal_pointer (&name));
    }

  return commands;
}

static void
test_cli_help_lists_commands (void)
{
  g_autoptr(NearbyTestRun) run = nearby_test_run_nearby (NULL, "help", NULL);
  g_autoptr(GPtrArray) commands = listed_commands ();
  const char *expected[] = { "decode", "encode", "resolve", "scan", "advertise",
                             "configure" };

  g_assert_cmpint (run->status, ==, 0);
  g_assert_cmpstr (run->err, ==, "");
  g_assert_nonnull (strstr (run->out, "nearby COMMAND [OPTION…]"));
  g_assert_cmpuint (commands->len, ==, G_N_ELEMENTS (expected));
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    g_assert_cmpstr (g_ptr_array_index (commands, i), ==, expected[i]);
}

/* A typo is answered on stderr with the list, never by opening a window. */
static void
test_cli_unknown_command (void)
{
  g_autoptr(NearbyTestRun) bogus = nearby_test_run_nearby (NULL, "bogus", NULL);
  g_autoptr(NearbyTestRun) typo = nearby_test_run_nearby (NULL, "scna", "--json", NULL);
  g_autoptr(NearbyTestRun) help_bogus = nearby_test_run_nearby (NULL, "help", "bogus", NULL);
  g_autoptr(NearbyTestRun) help_two = nearby_test_run_nearby (NULL, "help", "scan", "decode",
                                                              NULL);
  /* A file name is not an app option either. */
  g_autoptr(NearbyTestRun) path = nearby_test_run_nearby (NULL, "capture.jsonl", NULL);

  g_test_message ("stderr: %s", bogus->err);
  g_assert_cmpint (bogus->status, ==, 2);
  g_assert_cmpstr (bogus->out, ==, "");
  g_assert_true (g_str_has_prefix (bogus->err, "nearby: unknown command “bogus”\n"));
  g_assert_nonnull (strstr (bogus->err, "\n  advertise  "));
  g_assert_null (strstr (bogus->err, "Did you mean"));
  g_assert_null (strstr (bogus->err, "display"));

  g_assert_cmpint (typo->status, ==, 2);
  g_assert_nonnull (strstr (typo->err, "Did you mean “nearby scan”?"));

  g_assert_cmpint (help_bogus->status, ==, 2);
  g_assert_true (g_str_has_prefix (help_bogus->err, "nearby: unknown command “bogus”\n"));
  g_assert_cmpstr (help_bogus->out, ==, "");

  g_assert_cmpint (help_two->status, ==, 2);
  g_assert_cmpstr (help_two->out, ==, "");

  g_assert_cmpint (path->status, ==, 2);
  g_assert_nonnull (strstr (path->err, "unknown command “capture.jsonl”"));
}

/* `nearby help CMD` is `nearby CMD --help`, and each usage line names the whole command. */
static void
test_cli_help_command (void)
{
  g_autoptr(GPtrArray) commands = listed_commands ();

  for (guint i = 0; i < commands->len; i++)
    {
      const char *name = g_ptr_array_index (commands, i);
      g_autoptr(NearbyTestRun) help = nearby_test_run_nearby (NULL, "help", name, NULL);
      g_autoptr(NearbyTestRun) option = nearby_test_run_nearby (NULL, name, "--help", NULL);
      g_autofree char *usage = g_strdup_printf ("Usage:\n  nearby %s [OPTION…]", name);

      g_test_message ("%s", help->out);
      g_assert_cmpint (help->status, ==, 0);
      g_assert_cmpint (option->status, ==, 0);
      g_assert_cmpstr (help->out, ==, option->out);
      g_assert_true (g_str_has_prefix (help->out, usage));
    }
}

/* A usage error names the command it is about. */
static void
test_cli_usage_error_names_command (void)
{
  g_autoptr(NearbyTestRun) run = nearby_test_run_nearby (NULL, "encode", "--frobnicate", NULL);

  g_assert_cmpint (run->status, ==, 2);
  g_assert_cmpstr (run->out, ==, "");
  g_assert_true (g_str_has_prefix (run->err, "nearby encode: Unknown option --frobnicate\n"));
}

/* The same short option means the same long one in every command. */
static void
test_cli_option_letters (void)
{
  g_autoptr(GPtrArray) commands = listed_commands ();
  g_autoptr(GHashTable) meaning = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(GRegex) option = g_regex_new ("^  -(\\w), --([a-z-]+)", G_REGEX_MULTILINE, 0, NULL);
  guint n_letters = 0;

  for (guint i = 0; i < commands->len; i++)
    {
      const char *name = g_ptr_array_index (commands, i);
      g_autoptr(NearbyTestRun) help = nearby_test_run_nearby (NULL, name, "--help", NULL);
      g_autoptr(GMatchInfo) match = NULL;

      for (g_regex_match (option, help->out, 0, &match); g_match_info_matches (match);
           g_match_info_next (match, NULL))
        {
          g_autofree char *letter = g_match_info_fetch (match, 1);
          g_autofree char *long_name = g_match_info_fetch (match, 2);
          const char *known = g_hash_table_lookup (meaning, letter);

          if (known != NULL && !g_str_equal (known, long_name))
            g_error ("nearby %s: -%s is --%s, elsewhere it is --%s", name, letter, long_name,
                     known);
          g_hash_table_insert (meaning, g_steal_pointer (&letter), g_steal_pointer (&long_name));
          n_letters++;
        }
    }

  /* Guards the pattern: the commands do have short options. */
  g_assert_cmpuint (n_letters, >, 10);
  g_assert_cmpstr (g_hash_table_lookup (meaning, "i"), ==, "adapter");
  g_assert_cmpstr (g_hash_table_lookup (meaning, "j"), ==, "json");
}

/* Without a system bus, starting bluetoothd would not help: the advice is about the bus. */
static void
test_cli_no_system_bus (void)
{
  g_autofree char *saved = g_strdup (g_getenv ("DBUS_SYSTEM_BUS_ADDRESS"));
  g_autoptr(NearbyTestRun) scan = NULL;
  g_autoptr(NearbyTestRun) advertise = NULL;

  g_setenv ("DBUS_SYSTEM_BUS_ADDRESS", "unix:path=/nonexistent", TRUE);
  scan = nearby_test_run_nearby (NULL, "scan", "--duration", "1", NULL);
  advertise = nearby_test_run_nearby (NULL, "advertise", "--duration", "1", "https://example.com",
                                      NULL);
  if (saved != NULL)
    g_setenv ("DBUS_SYSTEM_BUS_ADDRESS", saved, TRUE);
  else
    g_unsetenv ("DBUS_SYSTEM_BUS_ADDRESS");

  g_test_message ("scan: %sadvertise: %s", scan->err, advertise->err);
  g_assert_cmpint (scan->status, ==, 3);
  g_assert_cmpint (advertise->status, ==, 3);
  g_assert_cmpstr (scan->out, ==, "");
  for (guint i = 0; i < 2; i++)
    {
      const char *err = i == 0 ? scan->err : advertise->err;

      g_assert_nonnull (strstr (err, "Cannot reach the system bus"));
      g_assert_nonnull (strstr (err, "DBUS_SYSTEM_BUS_ADDRESS (unix:path=/nonexistent)"));
      g_assert_null (strstr (err, "systemctl start bluetooth"));
    }
}

/* The dynamic loader's account of every library a run of `nearby ARG…` loaded (LD_DEBUG=files). */
static NearbyTestRun *
run_listing_libraries (const char *first_arg,
                       ...)
{
  g_autoptr(GPtrArray) args = g_ptr_array_new ();
  NearbyTestRun *run;
  va_list list;

  va_start (list, first_arg);
  for (const char *arg = first_arg; arg != NULL; arg = va_arg (list, const char *))
    g_ptr_array_add (args, (char *) arg);
  va_end (list);
  g_ptr_array_add (args, NULL);

  g_setenv ("LD_DEBUG", "files", TRUE);
  run = nearby_test_run_nearbyv (NULL, (const char **) args->pdata);
  g_unsetenv ("LD_DEBUG");
  g_test_message ("nearby %s: exit status %d", first_arg, run->status);

  return run;
}

/* The commands run in scripts, many times over: loading GTK and libadwaita for a window they
 * never open was most of an empty `nearby decode` (25 ms against 10). The app still loads them. */
static void
test_cli_loads_no_gtk (void)
{
  g_autoptr(NearbyTestRun) decode = run_listing_libraries ("decode",
                                                           "0201060303aafe0a16aafe10ec0361626307",
                                                           NULL);
  g_autoptr(NearbyTestRun) resolve = run_listing_libraries ("resolve", "--no-cache", "--json",
                                                            "nope:", NULL);
  g_autoptr(NearbyTestRun) app = run_listing_libraries ("--version", NULL);
  NearbyTestRun *commands[] = { decode, resolve };

  g_assert_cmpint (decode->status, ==, 0);
  g_assert_nonnull (strstr (decode->out, "\"url\":\"https://abc.com\""));
  g_assert_cmpint (resolve->status, ==, 1);
  g_assert_nonnull (strstr (resolve->out, "\"error_code\":\"unsupported-scheme\""));
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      /* The loader's account is there: the command did load GLib. */
      g_assert_nonnull (strstr (commands[i]->err, "file=libglib-2.0.so"));
      g_assert_null (strstr (commands[i]->err, "file=libgtk-4.so"));
      g_assert_null (strstr (commands[i]->err, "file=libadwaita-1.so"));
    }

  g_assert_cmpint (app->status, ==, 0);
  g_assert_nonnull (strstr (app->out, "nearby "));
  g_assert_nonnull (strstr (app->err, "file=libgtk-4.so"));
  g_assert_nonnull (strstr (app->err, "file=libadwaita-1.so"));
}

#define RLO "\xe2\x80\xae"  /* U+202E RIGHT-TO-LEFT OVERRIDE */
#define ESC "\033"

/* Runs `nearby ARGS…`, expecting it to fail, and checks that what it echoed reached the
 * terminal escaped: no control or bidi character, the escape in its place. */
static void
assert_echo_escaped (const char *expected,
                     const char *first_arg,
                     ...)
{
  g_autoptr(GPtrArray) args = g_ptr_array_new ();
  g_autoptr(NearbyTestRun) run = NULL;
  va_list list;

  va_start (list, first_arg);
  for (const char *arg = first_arg; arg != NULL; arg = va_arg (list, const char *))
    g_ptr_array_add (args, (char *) arg);
  va_end (list);
  g_ptr_array_add (args, NULL);

  run = nearby_test_run_nearbyv (NULL, (const char **) args->pdata);
  g_test_message ("%s%s", run->out, run->err);
  g_assert_cmpint (run->status, !=, 0);
  g_assert_nonnull (strstr (run->err, expected));
  g_assert_null (strstr (run->out, RLO));
  g_assert_null (strstr (run->err, RLO));
  g_assert_null (strchr (run->out, '\033'));
  g_assert_null (strchr (run->err, '\033'));
}

static void
test_cli_escapes_terminal (void)
{
  assert_echo_escaped ("nearby: unknown command “bad\\u202e”", "bad" RLO, NULL);
  assert_echo_escaped ("“10ec03\\u202e41”", "decode", "10ec03" RLO "41", NULL);
  assert_echo_escaped ("https://x\\u202e.test does not fit", "encode", "https://x" RLO ".test",
                       NULL);
  assert_echo_escaped ("x\\u202e", "resolve", "http://x" RLO "/", NULL);
  assert_echo_escaped ("http://x\\u202e/ cannot be broadcast", "advertise", "http://x" RLO "/",
                       NULL);
  assert_echo_escaped ("/nonexistent/x\\u202ey", "scan", "--from", "/nonexistent/x" RLO "y", NULL);
  assert_echo_escaped ("not “\\u001b[31m”", "scan", "--min-rssi", ESC "[31m", NULL);
  assert_echo_escaped ("--bad\\u202e", "scan", "--bad" RLO, NULL);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cli/help/lists-commands", test_cli_help_lists_commands);
  g_test_add_func ("/cli/help/command", test_cli_help_command);
  g_test_add_func ("/cli/unknown-command", test_cli_unknown_command);
  g_test_add_func ("/cli/usage-error-names-command", test_cli_usage_error_names_command);
  g_test_add_func ("/cli/option-letters", test_cli_option_letters);
  g_test_add_func ("/cli/no-system-bus", test_cli_no_system_bus);
  g_test_add_func ("/cli/escapes-terminal", test_cli_escapes_terminal);
  g_test_add_func ("/cli/loads-no-gtk", test_cli_loads_no_gtk);

  return g_test_run ();
}
