/* bench-decode.c: decoder throughput, and memory per live object
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   meson test -C _build --benchmark bench-decode --verbose
 *
 * Each figure comes with a baseline measured in the same run, on the same machine and build:
 *
 *   - decoding: frames/s of nearby_frame_decode_service_data() over a mix of URL, UID, TLM and
 *     invalid frames, against a loop that only copies each frame's bytes and sums them (the least
 *     work anything can do with the same bytes);
 *   - memory: heap growth per live NearbyObject in a NearbyObjectList fed 2 000 distinct beacons,
 *     once each and then every list tick for HELD_SECONDS (a fake clock: the signal history is
 *     full), against the heap growth of keeping the same 2 000 raw sightings
 *     (nearby_sighting_copy()).
 */

#include "config.h"

#include <errno.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench-util.h"
#include "nearby-frame.h"
#include "nearby-object-list.h"
#include "nearby-source.h"

#define N_FRAMES        1024
#define MIN_SECONDS     1.0
#define N_BEACONS       2000
/* Past NEARBY_OBJECT_HISTORY_US, so that every object's signal history is as long as it gets. */
#define HELD_SECONDS    70

typedef struct {
  guint8 bytes[NEARBY_ADV_MAX];
  gsize  len;
} Frame;

static const guint8 uid_frame[] = {
  0x00, 0xe7, 0x8b, 0x89, 0x01, 0x0e, 0x7b, 0x19, 0x51, 0x36, 0xa4, 0x6b,
  0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00,
};

static const guint8 tlm_frame[] = {
  0x20, 0x00, 0x0b, 0xb8, 0x16, 0x80, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00, 0x00, 0x64,
};

/* One invalid frame of each common kind: truncated URL, reserved URL byte, unknown type. */
static const guint8 truncated_url_frame[] = { 0x10, 0xeb };
static const guint8 reserved_byte_frame[] = { 0x10, 0xeb, 0x03, 'a', 0x15, 'b' };
static const guint8 unknown_type_frame[] = { 0x50, 0x00, 0x01, 0x02 };

/* A realistic mix as a scanner sees it: mostly URL frames, with the UID and TLM frames of
 * rotating beacons, and some garbage. Out of every 20: 12 URL, 3 UID, 3 TLM, 2 invalid. */
static void
fill_mix (Frame *frames,
          guint  n_frames)
{
  for (guint i = 0; i < n_frames; i++)
    {
      Frame *frame = &frames[i];
      guint slot = i % 20;
      const guint8 *fixed = NULL;
      gsize fixed_len = 0;

      if (slot < 12)
        {
          g_autofree char *url = g_strdup_printf ("https://example.com/p/%u", i);

          g_assert_cmpint (nearby_frame_encode_eddystone_url (url, -20, frame->bytes,
                                                              &frame->len, NULL),
                           ==, NEARBY_FRAME_OK);
          continue;
        }
      else if (slot < 15)
        fixed = uid_frame, fixed_len = sizeof uid_frame;
      else if (slot < 18)
        fixed = tlm_frame, fixed_len = sizeof tlm_frame;
      else if (slot == 18)
        fixed = (i / 20) % 2 ? truncated_url_frame : reserved_byte_frame,
        fixed_len = (i / 20) % 2 ? sizeof truncated_url_frame : sizeof reserved_byte_frame;
      else
        fixed = unknown_type_frame, fixed_len = sizeof unknown_type_frame;

      memcpy (frame->bytes, fixed, fixed_len);
      frame->len = fixed_len;
    }
}

/* Decoding */

static volatile guint64 sink;

static guint64
floor_pass (const Frame *frames,
            guint        n_frames)
{
  guint8 copy[NEARBY_ADV_MAX];
  guint64 sum = 0;

  for (guint i = 0; i < n_frames; i++)
    {
      memcpy (copy, frames[i].bytes, frames[i].len);
      for (gsize j = 0; j < frames[i].len; j++)
        sum += copy[j];
    }

  return sum;
}

static guint64
decode_pass (const Frame *frames,
             guint        n_frames,
             guint       *n_valid)
{
  NearbyFrame decoded;
  guint64 sum = 0;

  *n_valid = 0;
  for (guint i = 0; i < n_frames; i++)
    {
      if (nearby_frame_decode_service_data (NEARBY_UUID16_EDDYSTONE, frames[i].bytes,
                                            frames[i].len, &decoded) == NEARBY_FRAME_OK)
        (*n_valid)++;
      sum += decoded.kind;
    }

  return sum;
}

/* Runs whole passes over the mix until MIN_SECONDS have gone by; returns frames per second. */
static double
frames_per_second (const Frame *frames,
                   gboolean     decode,
                   guint       *n_valid)
{
  guint64 n_done = 0;
  gint64 start = g_get_monotonic_time ();
  gint64 elapsed;

  do
    {
      for (guint k = 0; k < 64; k++)
        sink += decode ? decode_pass (frames, N_FRAMES, n_valid) : floor_pass (frames, N_FRAMES);
      n_done += 64 * N_FRAMES;
      elapsed = g_get_monotonic_time () - start;
    }
  while (elapsed < MIN_SECONDS * G_USEC_PER_SEC);

  return n_done * (double) G_USEC_PER_SEC / elapsed;
}

static void
bench_decode (void)
{
  g_autofree Frame *frames = g_new0 (Frame, N_FRAMES);
  double floor_rate, decode_rate;
  guint n_valid = 0;

  fill_mix (frames, N_FRAMES);

  /* Warm up both loops, so the first does not pay for page faults and cold caches. */
  sink += floor_pass (frames, N_FRAMES) + decode_pass (frames, N_FRAMES, &n_valid);
  /* The mix is what it says: 18 of every 20 frames decode. */
  if (n_valid != N_FRAMES - N_FRAMES / 10)
    g_error ("The frame mix did not decode as expected: %u of %u valid", n_valid, N_FRAMES);

  floor_rate = frames_per_second (frames, FALSE, &n_valid);
  decode_rate = frames_per_second (frames, TRUE, &n_valid);

  g_print ("decode: mix of %u frames (60%% URL, 15%% UID, 15%% TLM, 10%% invalid)\n", N_FRAMES);
  g_print ("  %-44s %12.0f frames/s  (%.1f ns/frame)\n",
           "nearby_frame_decode_service_data", decode_rate, 1e9 / decode_rate);
  g_print ("  %-44s %12.0f frames/s  (%.1f ns/frame)\n",
           "floor: memcpy + byte sum", floor_rate, 1e9 / floor_rate);
  g_print ("  decoder cost = %.1f x floor\n", floor_rate / decode_rate);
}

/* Memory per live object */

static gsize
heap_in_use (void)
{
  struct mallinfo2 info;

  malloc_trim (0);
  info = mallinfo2 ();

  return info.uordblks + info.hblkhd;
}

static gint64
fake_clock (gpointer user_data)
{
  return *(gint64 *) user_data;
}

/* Heap growth per object of a list fed every beacon once (@seconds 0), or once per list tick
 * for @seconds of fake time. */
static double
list_bytes_per_object (GPtrArray *inputs,
                       guint      seconds)
{
  g_autoptr(NearbyObjectList) list = nearby_object_list_new (NULL);
  guint n_ticks = MAX (1, seconds * 1000 / NEARBY_OBJECT_LIST_TICK_INTERVAL_DEFAULT);
  gint64 now = g_get_real_time ();
  gsize before, after;

  /* Created (and its type classes registered) before the measurement starts. */
  nearby_object_list_set_clock (list, fake_clock, &now);
  nearby_object_list_flush (list);
  before = heap_in_use ();
  for (guint tick = 0; tick < n_ticks; tick++)
    {
      now += NEARBY_OBJECT_LIST_TICK_INTERVAL_DEFAULT * 1000;
      for (guint i = 0; i < inputs->len; i++)
        {
          NearbySighting *sighting = g_ptr_array_index (inputs, i);

          sighting->time_us = now;
          sighting->rssi = -60 - (int) ((i + tick) % 30);
          nearby_object_list_add_sighting (list, sighting);
        }
      nearby_object_list_flush (list);
    }
  after = heap_in_use ();

  if (nearby_object_list_get_n_objects (list) != inputs->len)
    g_error ("The list holds %u objects, not %u", nearby_object_list_get_n_objects (list),
             inputs->len);

  return (double) ((gssize) after - (gssize) before) / inputs->len;
}

/* The same, in a child process: each measurement starts from the same allocator state. In one
 * process the second list reuses what the first left in malloc's and GSlice's free lists, and
 * comes out some 500 bytes per object lighter than it is. */
static double
list_bytes_per_object_in_child (GPtrArray *inputs,
                                guint      seconds)
{
  double per_object = 0;
  int status = 0;
  int fds[2];
  pid_t pid;

  if (pipe (fds) != 0)
    g_error ("pipe: %s", g_strerror (errno));
  pid = fork ();
  if (pid < 0)
    g_error ("fork: %s", g_strerror (errno));
  if (pid == 0)
    {
      per_object = list_bytes_per_object (inputs, seconds);
      _exit (write (fds[1], &per_object, sizeof per_object) == sizeof per_object ? 0 : 1);
    }

  close (fds[1]);
  if (read (fds[0], &per_object, sizeof per_object) != sizeof per_object
      || waitpid (pid, &status, 0) != pid || !WIFEXITED (status) || WEXITSTATUS (status) != 0)
    g_error ("The memory measurement over %u s failed", seconds);
  close (fds[0]);

  return per_object;
}

static GPtrArray *
make_inputs (void)
{
  GPtrArray *inputs = g_ptr_array_new_with_free_func ((GDestroyNotify) nearby_sighting_free);
  gint64 now = g_get_real_time ();

  for (guint i = 0; i < N_BEACONS; i++)
    g_ptr_array_add (inputs, bench_beacon_sighting (i, now, -60 - (int) (i % 30)));

  return inputs;
}

static void
bench_memory (void)
{
  /* The inputs exist before either measurement, so neither counts them. */
  g_autoptr(GPtrArray) inputs = make_inputs ();
  g_autoptr(GPtrArray) copies = NULL;
  gsize before, after_copies;
  double per_sighting, per_new_object, per_held_object;

  /* The baseline: the raw sightings themselves, kept alive. */
  before = heap_in_use ();
  copies = g_ptr_array_new_full (N_BEACONS, (GDestroyNotify) nearby_sighting_free);
  for (guint i = 0; i < N_BEACONS; i++)
    g_ptr_array_add (copies, nearby_sighting_copy (g_ptr_array_index (inputs, i)));
  after_copies = heap_in_use ();
  per_sighting = (double) ((gssize) after_copies - (gssize) before) / N_BEACONS;
  g_clear_pointer (&copies, g_ptr_array_unref);

  per_new_object = list_bytes_per_object_in_child (inputs, 0);
  per_held_object = list_bytes_per_object_in_child (inputs, HELD_SECONDS);

  g_print ("memory: %u distinct beacons (mallinfo2 heap growth, after malloc_trim)\n", N_BEACONS);
  g_print ("  %-44s %10.0f bytes/object\n", "NearbyObjectList, per object seen once",
           per_new_object);
  g_print ("  %-44s %10.0f bytes/object\n", "NearbyObjectList, per object seen for " G_STRINGIFY (HELD_SECONDS) " s",
           per_held_object);
  g_print ("  %-44s %10.0f bytes/sighting  (sizeof (NearbySighting) = %zu)\n",
           "baseline: one raw sighting kept", per_sighting, sizeof (NearbySighting));
  g_print ("  memory per object = %.1f x (seen once), %.1f x (seen for " G_STRINGIFY (HELD_SECONDS) " s) raw sighting\n",
           per_new_object / per_sighting, per_held_object / per_sighting);
}

int
main (int   argc,
      char *argv[])
{
  /* `bench-decode memory SECONDS`: one list only, in this process, to run under a heap profiler
   * (see README.md). */
  if (argc == 3 && strcmp (argv[1], "memory") == 0)
    {
      g_autoptr(GPtrArray) inputs = make_inputs ();

      g_print ("%.0f bytes/object\n", list_bytes_per_object (inputs, (guint) atoi (argv[2])));
      return 0;
    }

  g_print ("bench-decode (%s build)\n", NEARBY_BUILDTYPE);
  bench_decode ();
  bench_memory ();

  return 0;
}
