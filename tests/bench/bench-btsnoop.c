/* bench-btsnoop.c: converting a btsnoop capture, against Wireshark decoding it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   meson test -C _build --benchmark bench-btsnoop --verbose
 *
 * Writes a capture of BENCH_BTSNOOP_REPORTS (100 000) advertising reports as an Android phone
 * logs them (HCI UART): legacy events of one to four reports mixing Eddystone-URL beacons,
 * iBeacons, phones and lamps, and extended advertisements in two pieces. Then, in the same run,
 * each BENCH_BTSNOOP_ROUNDS (3) times, the best kept:
 *
 *   - Nearby: `nearby scan --from FILE --json --speed 0 > /dev/null`;
 *   - the peer: `tshark -r FILE -T json > /dev/null` (skipped when tshark is not installed).
 *
 * Printed: wall and CPU seconds of each (CPU: user and system of the process, which other builds
 * on a shared machine disturb less), reports per second, and tshark's times over Nearby's.
 */

#include "config.h"

#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "bench-util.h"
#include "btsnoop-writer.h"
#include "nearby-btsnoop.h"

/* 2026-05-04T12:00:00Z */
#define T0 G_GINT64_CONSTANT (1777896000000000)

static const guint8 ibeacon_ad[] = {
  0x02, 0x01, 0x06, 0x1a, 0xff, 0x4c, 0x00, 0x02, 0x15,
  0xf7, 0x82, 0x6d, 0xa6, 0x4f, 0xa2, 0x4e, 0x98, 0x80, 0x24, 0xbc, 0x5b, 0x71, 0xe0, 0x89, 0x3e,
  0x00, 0x64, 0x00, 0x07, 0xc5,
};
static const guint8 phone_ad[] = {
  0x02, 0x01, 0x1a, 0x0a, 0xff, 0x4c, 0x00, 0x10, 0x05, 0x01, 0x18, 0x4a, 0x5e, 0x2b,
};
static const guint8 lamp_ad[] = { 0x02, 0x01, 0x06, 0x05, 0x09, 'L', 'a', 'm', 'p' };

/* Writes @n_reports reports to @path; returns how many carry a beacon with a URL. */
static guint
write_capture (const char *path,
               guint       n_reports)
{
  NearbyTestBtsnoop *writer = nearby_test_btsnoop_new (NEARBY_BTSNOOP_DATALINK_HCI_UART);
  guint8 beacon[31];
  guint8 extended[120];
  gsize beacon_len;
  guint written = 0;
  guint urls = 0;
  gint64 t = T0;

  memset (extended, 0, sizeof extended);
  beacon_len = nearby_test_ad_eddystone_url ("https://example.com/museum", -20, beacon);
  memcpy (extended, beacon, beacon_len);
  extended[beacon_len] = (guint8) (sizeof extended - beacon_len - 1);
  extended[beacon_len + 1] = 0xff;

  nearby_test_btsnoop_add_command (writer, t);
  for (guint i = 0; written < n_reports; i++)
    {
      g_autoptr(GByteArray) event = NULL;
      char address[18];

      t += 1000;
      if (i % 8 == 7)
        {
          /* An extended advertisement in two pieces: one report. */
          g_autoptr(GByteArray) second = NULL;

          g_snprintf (address, sizeof address, "5A:00:00:00:%02X:%02X", (i >> 8) & 0xff,
                      i & 0xff);
          event = nearby_test_le_event_new (NEARBY_BTSNOOP_LE_EXTENDED_ADVERTISING_REPORT);
          nearby_test_le_event_add_extended (event, 0x0020, 0x01, address, 1, extended, 60, -66);
          nearby_test_btsnoop_add_event (writer, t, event);
          second = nearby_test_le_event_new (NEARBY_BTSNOOP_LE_EXTENDED_ADVERTISING_REPORT);
          nearby_test_le_event_add_extended (second, 0x0000, 0x01, address, 1, extended + 60,
                                             sizeof extended - 60, -67);
          nearby_test_btsnoop_add_event (writer, t + 1, second);
          written++;
          urls++;
          continue;
        }

      event = nearby_test_le_event_new (NEARBY_BTSNOOP_LE_ADVERTISING_REPORT);
      for (guint j = 0; j <= i % 4 && written < n_reports; j++, written++)
        {
          guint kind = (i + j) % 4;

          g_snprintf (address, sizeof address, "C0:FF:EE:%02X:%02X:%02X", kind, (i >> 8) & 0xff,
                      i & 0xff);
          switch (kind)
            {
            case 0:
              nearby_test_le_event_add_legacy (event, 0x03, 0x01, address, beacon, beacon_len,
                                               (gint8) (-50 - (int) (i % 40)));
              urls++;
              break;
            case 1:
              nearby_test_le_event_add_legacy (event, 0x03, 0x01, address, ibeacon_ad,
                                               sizeof ibeacon_ad, -70);
              break;
            case 2:
              nearby_test_le_event_add_legacy (event, 0x00, 0x01, address, phone_ad,
                                               sizeof phone_ad, -64);
              break;
            default:
              nearby_test_le_event_add_legacy (event, 0x02, 0x00, address, lamp_ad,
                                               sizeof lamp_ad, 127);
              break;
            }
        }
      nearby_test_btsnoop_add_event (writer, t, event);
    }

  g_assert_true (nearby_test_btsnoop_save (writer, path));
  return urls;
}

typedef struct {
  double wall_s;
  double cpu_s;    /* user and system, of the command's process */
} Timing;

static double
children_cpu_seconds (void)
{
  struct rusage usage;

  getrusage (RUSAGE_CHILDREN, &usage);
  return usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6
         + usage.ru_stime.tv_sec + usage.ru_stime.tv_usec / 1e6;
}

/* Runs @argv with its standard output in @out (or /dev/null); returns the wall seconds, and in
 * @cpu_s its CPU seconds, which other builds on the machine disturb less. */
static double
time_command (const char * const *argv,
              char              **out,
              double             *cpu_s)
{
  g_autoptr(GError) error = NULL;
  gint64 start = g_get_monotonic_time ();
  double cpu_start = children_cpu_seconds ();
  int status = 0;

  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL,
                               G_SPAWN_STDERR_TO_DEV_NULL
                               | (out == NULL ? G_SPAWN_STDOUT_TO_DEV_NULL : 0),
                               NULL, NULL, out, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));

  if (cpu_s != NULL)
    *cpu_s = children_cpu_seconds () - cpu_start;
  return (g_get_monotonic_time () - start) / (double) G_USEC_PER_SEC;
}

/* The best wall and the best CPU time of @rounds runs. */
static Timing
best_of (const char * const *argv,
         guint               rounds)
{
  Timing best = { G_MAXDOUBLE, G_MAXDOUBLE };

  for (guint i = 0; i < rounds; i++)
    {
      double cpu_s = 0;
      double wall_s = time_command (argv, NULL, &cpu_s);

      best.wall_s = MIN (best.wall_s, wall_s);
      best.cpu_s = MIN (best.cpu_s, cpu_s);
    }

  return best;
}

int
main (int   argc,
      char *argv[])
{
  guint n_reports = bench_env_uint ("BENCH_BTSNOOP_REPORTS", 100000);
  guint rounds = bench_env_uint ("BENCH_BTSNOOP_ROUNDS", 3);
  g_autofree char *dir = nearby_test_make_temp_dir ("bench-btsnoop");
  g_autofree char *path = g_build_filename (dir, "capture.btsnoop", NULL);
  g_autofree char *tshark = g_find_program_in_path ("tshark");
  g_autofree char *lines = NULL;
  const char *nearby = g_getenv ("NEARBY_BINARY");
  guint urls;
  guint n_lines = 0;
  Timing nearby_time;
  GStatBuf st;

  g_assert_nonnull (nearby);
  urls = write_capture (path, n_reports);
  g_assert_cmpint (g_stat (path, &st), ==, 0);
  printf ("capture: %u reports (%u Eddystone-URL beacons), %.1f MB, build type %s\n", n_reports,
          urls, st.st_size / 1e6, NEARBY_BUILDTYPE);

  {
    const char *nearby_argv[] = { nearby, "scan", "--from", path, "--json", "--speed", "0", NULL };

    /* Every beacon converts. */
    time_command (nearby_argv, &lines, NULL);
    for (const char *p = lines; (p = strchr (p, '\n')) != NULL; p++)
      n_lines++;
    g_assert_cmpuint (n_lines, ==, urls);

    nearby_time = best_of (nearby_argv, rounds);
    printf ("nearby scan --from --json --speed 0: %.3f s wall, %.3f s CPU, %.0f reports/s\n",
            nearby_time.wall_s, nearby_time.cpu_s, n_reports / nearby_time.wall_s);
  }

  if (tshark != NULL)
    {
      const char *tshark_argv[] = { tshark, "-r", path, "-T", "json", NULL };
      Timing tshark_time = best_of (tshark_argv, rounds);

      printf ("tshark -r -T json: %.3f s wall, %.3f s CPU, %.0f reports/s\n", tshark_time.wall_s,
              tshark_time.cpu_s, n_reports / tshark_time.wall_s);
      printf ("tshark / nearby: %.1fx wall, %.1fx CPU\n", tshark_time.wall_s / nearby_time.wall_s,
              tshark_time.cpu_s / nearby_time.cpu_s);
    }
  else
    printf ("tshark is not installed: no peer\n");

  nearby_test_remove_tree (dir);
  return 0;
}
