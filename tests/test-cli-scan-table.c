/* test-cli-scan-table.c: the table of `nearby scan` over captures read with --from: one row per
 * device and frame kind, rows that leave after the expiry and fade first with --all (the live
 * scan's expiry is in test-cli-scan.c)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* posix_openpt() and its friends */
#define _XOPEN_SOURCE 600

#include <fcntl.h>
#include <gio/gio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nearby-test-utils.h"

#define URL_RAW "10ec036578616d706c6507"   /* https://example.com, -20 dBm */
#define SGR_FAINT "\033[2m"

/* One line of a capture: @address heard @seconds after 05:28:00, with @raw (service FEAA). */
static void
append_line (GString    *capture,
             const char *address,
             double      seconds,
             const char *raw)
{
  g_string_append_printf (capture,
                          "{\"time\":\"2026-12-03T05:%02d:%06.3fZ\",\"address\":\"%s\","
                          "\"rssi\":-60,\"uuid\":\"feaa\",\"raw\":\"%s\"}\n",
                          28 + (int) seconds / 60, seconds - 60 * ((int) seconds / 60),
                          address, raw);
}

/* An Eddystone-TLM frame at 3000 mV that has sent @adv_count adverts. */
static char *
tlm_raw (guint32 adv_count)
{
  return g_strdup_printf ("20000bb81600%08x00000064", adv_count);
}

static GPtrArray *
table_rows (const char *out)
{
  g_auto(GStrv) lines = g_strsplit (out, "\n", -1);
  GPtrArray *rows = g_ptr_array_new_with_free_func (g_free);

  g_assert_nonnull (strstr (lines[0], "ADDRESS"));
  for (guint i = 1; lines[i] != NULL && lines[i][0] != '\0'; i++)
    if (!g_str_equal (lines[i], "(no beacons seen)"))
      g_ptr_array_add (rows, g_strdup (lines[i]));

  return rows;
}

static NearbyTestRun *
run_scan_from (const char *capture,
               const char *first_arg,
               ...)
{
  g_autoptr(GPtrArray) args = g_ptr_array_new ();
  NearbyTestRun *run;
  va_list list;

  g_ptr_array_add (args, (char *) "scan");
  g_ptr_array_add (args, (char *) "--from");
  g_ptr_array_add (args, (char *) "-");
  va_start (list, first_arg);
  for (const char *arg = first_arg; arg != NULL; arg = va_arg (list, const char *))
    g_ptr_array_add (args, (char *) arg);
  va_end (list);
  g_ptr_array_add (args, NULL);

  run = nearby_test_run_nearbyv (capture, (const char **) args->pdata);
  g_test_message ("%s%s", run->out, run->err);
  g_assert_cmpstr (run->err, ==, "");
  g_assert_cmpint (run->status, ==, 0);

  return run;
}

/* A TLM beacon counts its adverts: each advert is the same row, with the latest counts. */
static void
test_table_tlm_one_row (void)
{
  g_autoptr(GString) capture = g_string_new (NULL);
  g_autoptr(NearbyTestRun) run = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  g_autofree char *last = tlm_raw (1000);

  for (guint i = 0; i < 1000; i++)
    {
      g_autofree char *raw = tlm_raw (i + 1);

      append_line (capture, "C0:FF:EE:00:00:01", i * 0.1, raw);
    }
  append_line (capture, "C0:FF:EE:00:00:01", 100.0, URL_RAW);

  run = run_scan_from (capture->str, "--all", NULL);
  rows = table_rows (run->out);
  /* One row for its TLM frames, one for its URL frame. */
  g_assert_cmpuint (rows->len, ==, 2);
  g_assert_nonnull (strstr (run->out, "C0:FF:EE:00:00:01  Eddystone-TLM 3000 mV, 1000 adverts\n"));
  g_assert_nonnull (strstr (run->out, "C0:FF:EE:00:00:01  https://example.com\n"));
}

/* A beacon just switched on has sent one advert, and the table says so in the singular. */
static void
test_table_tlm_first_advert (void)
{
  g_autoptr(GString) capture = g_string_new (NULL);
  g_autoptr(NearbyTestRun) run = NULL;
  g_autofree char *raw = tlm_raw (1);

  append_line (capture, "C0:FF:EE:00:00:01", 0.0, raw);
  run = run_scan_from (capture->str, "--all", NULL);
  g_assert_nonnull (strstr (run->out, "C0:FF:EE:00:00:01  Eddystone-TLM 3000 mV, 1 advert\n"));
}

/* 2000 devices pass by, one every 0.1 s: at the end only those heard in the last 30 s are
 * listed. */
static void
test_table_departed_leave (void)
{
  g_autoptr(GString) capture = g_string_new (NULL);
  g_autoptr(NearbyTestRun) run = NULL;
  g_autoptr(GPtrArray) rows = NULL;

  for (guint i = 0; i < 2000; i++)
    {
      g_autofree char *address = g_strdup_printf ("C0:FF:EE:00:%02X:%02X", i / 256, i % 256);

      append_line (capture, address, i * 0.1, URL_RAW);
    }

  run = run_scan_from (capture->str, NULL);
  rows = table_rows (run->out);
  /* The last line is at 199.9 s: rows from 169.9 s on stay, 301 of them. */
  g_assert_cmpuint (rows->len, ==, 301);
  g_assert_nonnull (strstr (run->out, "C0:FF:EE:00:07:CF"));
  g_assert_nonnull (strstr (run->out, "C0:FF:EE:00:06:A3"));
  g_assert_null (strstr (run->out, "C0:FF:EE:00:06:A2"));
  g_assert_null (strstr (run->out, "C0:FF:EE:00:00:00"));
}

static void
test_table_expiry_option (void)
{
  g_autoptr(GString) capture = g_string_new (NULL);
  g_autoptr(NearbyTestRun) run = NULL;
  g_autoptr(NearbyTestRun) bad = NULL;
  g_autoptr(GPtrArray) rows = NULL;

  append_line (capture, "C0:FF:EE:00:00:01", 0.0, URL_RAW);
  append_line (capture, "C0:FF:EE:00:00:02", 4.0, URL_RAW);
  append_line (capture, "C0:FF:EE:00:00:03", 10.0, URL_RAW);

  run = run_scan_from (capture->str, "--expiry", "5", NULL);
  rows = table_rows (run->out);
  g_assert_cmpuint (rows->len, ==, 1);
  g_assert_nonnull (strstr (rows->pdata[0], "C0:FF:EE:00:00:03"));

  bad = nearby_test_run_nearby (capture->str, "scan", "--from", "-", "--expiry", "0", NULL);
  g_assert_cmpint (bad->status, ==, 2);
  g_assert_nonnull (strstr (bad->err, "--expiry"));
}

/* Runs `nearby scan --from CAPTURE ARGS…` with its standard output on a terminal, and returns
 * what the terminal got. @no_color: the value of NO_COLOR, or NULL to unset it. */
static char *
run_in_terminal (const char *capture_path,
                 const char *no_color,
                 const char *first_arg,
                 ...)
{
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GPtrArray) args = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) out = g_string_new (NULL);
  int master, slave;
  char buffer[4096];
  ssize_t n;
  va_list list;

  master = posix_openpt (O_RDWR | O_NOCTTY);
  g_assert_cmpint (master, >=, 0);
  g_assert_cmpint (grantpt (master), ==, 0);
  g_assert_cmpint (unlockpt (master), ==, 0);
  slave = open (ptsname (master), O_RDWR | O_NOCTTY);
  g_assert_cmpint (slave, >=, 0);

  g_ptr_array_add (args, (char *) g_getenv ("NEARBY_BINARY"));
  g_ptr_array_add (args, (char *) "scan");
  g_ptr_array_add (args, (char *) "--from");
  g_ptr_array_add (args, (char *) capture_path);
  va_start (list, first_arg);
  for (const char *arg = first_arg; arg != NULL; arg = va_arg (list, const char *))
    g_ptr_array_add (args, (char *) arg);
  va_end (list);
  g_ptr_array_add (args, NULL);

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_NONE);
  g_subprocess_launcher_take_stdout_fd (launcher, slave);
  if (no_color != NULL)
    g_subprocess_launcher_setenv (launcher, "NO_COLOR", no_color, TRUE);
  else
    g_subprocess_launcher_unsetenv (launcher, "NO_COLOR");
  process = g_subprocess_launcher_spawnv (launcher, (const char * const *) args->pdata, &error);
  g_assert_no_error (error);
  /* Our end of the terminal closes with the launcher: the reads end when the process exits. */
  g_clear_object (&launcher);

  while ((n = read (master, buffer, sizeof buffer)) > 0)
    g_string_append_len (out, buffer, n);
  close (master);

  g_assert_true (g_subprocess_wait_check (process, NULL, &error));
  g_assert_no_error (error);

  return g_string_free (g_steal_pointer (&out), FALSE);
}

/* With --all, a device not heard for a third of the expiry time fades before it leaves, as in
 * the app: faint in a terminal, unless NO_COLOR says otherwise. */
static void
test_table_fading (void)
{
  g_autoptr(GString) capture = g_string_new (NULL);
  g_autofree char *dir = nearby_test_make_temp_dir ("scan-table");
  g_autofree char *path = g_build_filename (dir, "capture.jsonl", NULL);
  g_autofree char *all = NULL;
  g_autofree char *plain = NULL;
  g_autofree char *no_color = NULL;
  g_autofree char *fading_line = NULL;
  g_autoptr(NearbyTestRun) piped = NULL;

  append_line (capture, "C0:FF:EE:00:00:01", 0.0, URL_RAW);    /* 20 s ago: fading */
  append_line (capture, "C0:FF:EE:00:00:02", 15.0, URL_RAW);   /* 5 s ago */
  append_line (capture, "C0:FF:EE:00:00:03", 20.0, URL_RAW);
  nearby_test_write_file (path, capture->str, capture->len);

  all = run_in_terminal (path, NULL, "--all", NULL);
  g_test_message ("%s", all);
  /* The terminal turns each \n into \r\n. */
  fading_line = g_strdup_printf (SGR_FAINT "%9s  %5s  %4us  %-17s  %s\033[0m\r\n",
                                 "0.9 m", "-60", 20, "C0:FF:EE:00:00:01", "https://example.com");
  g_assert_nonnull (strstr (all, fading_line));
  g_assert_nonnull (strstr (all, "C0:FF:EE:00:00:02"));
  g_assert_nonnull (strstr (all, "C0:FF:EE:00:00:03"));
  /* Only that row. */
  g_assert_null (strstr (strstr (all, SGR_FAINT) + 1, SGR_FAINT));

  /* Without --all the row is listed as it is until it leaves. */
  plain = run_in_terminal (path, NULL, NULL);
  g_assert_nonnull (strstr (plain, "C0:FF:EE:00:00:01"));
  g_assert_null (strchr (plain, '\033'));

  no_color = run_in_terminal (path, "1", "--all", NULL);
  g_assert_nonnull (strstr (no_color, "C0:FF:EE:00:00:01"));
  g_assert_null (strchr (no_color, '\033'));

  /* Not a terminal: no escape sequences. */
  piped = nearby_test_run_nearby (NULL, "scan", "--from", path, "--all", NULL);
  g_assert_cmpint (piped->status, ==, 0);
  g_assert_nonnull (strstr (piped->out, "C0:FF:EE:00:00:01"));
  g_assert_null (strchr (piped->out, '\033'));

  nearby_test_remove_tree (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cli/scan-table/tlm-one-row", test_table_tlm_one_row);
  g_test_add_func ("/cli/scan-table/tlm-first-advert", test_table_tlm_first_advert);
  g_test_add_func ("/cli/scan-table/departed-leave", test_table_departed_leave);
  g_test_add_func ("/cli/scan-table/expiry-option", test_table_expiry_option);
  g_test_add_func ("/cli/scan-table/fading", test_table_fading);

  return g_test_run ();
}
