/* driver.c: replays a fuzz corpus through a target without libFuzzer
 *
 * Every normal build links the fuzz targets against this, so the corpus (seeds and past
 * findings) runs as a test under any compiler.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Optional, as in libFuzzer: only the targets that reach GLib define it. */
int LLVMFuzzerInitialize (int *argc, char ***argv) __attribute__ ((weak));
int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static int
replay_file (const char *path)
{
  FILE *file = fopen (path, "rb");
  uint8_t *data;
  long size;

  if (file == NULL)
    {
      fprintf (stderr, "%s: %s\n", path, strerror (errno));
      return 1;
    }
  fseek (file, 0, SEEK_END);
  size = ftell (file);
  fseek (file, 0, SEEK_SET);
  /* One extra byte so that an empty input still has a valid, distinct pointer. */
  data = malloc ((size_t) size + 1);
  if (data == NULL || fread (data, 1, (size_t) size, file) != (size_t) size)
    {
      fprintf (stderr, "%s: cannot read\n", path);
      fclose (file);
      free (data);
      return 1;
    }
  fclose (file);
  /* A target that aborts ends the run before its "not ok" line: name the input first. */
  fprintf (stderr, "replaying %s\n", path);
  LLVMFuzzerTestOneInput (data, (size_t) size);
  free (data);
  return 0;
}

int
main (int   argc,
      char *argv[])
{
  int failures = 0;
  int count = 0;

  if (LLVMFuzzerInitialize != NULL)
    LLVMFuzzerInitialize (&argc, &argv);
  printf ("TAP version 13\n");
  for (int i = 1; i < argc; i++)
    {
      struct stat st;
      DIR *dir;
      struct dirent *entry;

      if (stat (argv[i], &st) != 0)
        {
          printf ("not ok %d - %s: %s\n", ++count, argv[i], strerror (errno));
          failures++;
          continue;
        }
      if (!S_ISDIR (st.st_mode))
        {
          int failed = replay_file (argv[i]);
          printf ("%s %d - %s\n", failed ? "not ok" : "ok", ++count, argv[i]);
          failures += failed;
          continue;
        }

      dir = opendir (argv[i]);
      while (dir != NULL && (entry = readdir (dir)) != NULL)
        {
          char path[4096];
          int failed;

          if (entry->d_name[0] == '.')
            continue;
          snprintf (path, sizeof path, "%s/%s", argv[i], entry->d_name);
          failed = replay_file (path);
          printf ("%s %d - %s\n", failed ? "not ok" : "ok", ++count, entry->d_name);
          failures += failed;
        }
      if (dir != NULL)
        closedir (dir);
    }
  if (count == 0)
    printf ("not ok 1 - the corpus is empty\n"), count = 1, failures = 1;
  printf ("1..%d\n", count);

  return failures == 0 ? 0 : 1;
}
