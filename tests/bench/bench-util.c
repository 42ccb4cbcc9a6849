/* bench-util.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <sys/resource.h>

#include "bench-util.h"
#include "nearby-frame.h"

guint
bench_env_uint (const char *name,
                guint       fallback)
{
  const char *value = g_getenv (name);

  return value != NULL && atoi (value) > 0 ? (guint) atoi (value) : fallback;
}

double
bench_env_double (const char *name,
                  double      fallback)
{
  const char *value = g_getenv (name);

  return value != NULL && *value != '\0' ? g_ascii_strtod (value, NULL) : fallback;
}

double
bench_cpu_seconds (void)
{
  struct rusage usage;

  getrusage (RUSAGE_SELF, &usage);

  return usage.ru_utime.tv_sec + usage.ru_stime.tv_sec
         + (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

int
bench_compare_doubles (const void *a,
                       const void *b)
{
  double x = *(const double *) a;
  double y = *(const double *) b;

  return x < y ? -1 : x > y ? 1 : 0;
}

double
bench_percentile (GArray *values,
                  double  percentile)
{
  guint index;

  if (values->len == 0)
    return 0.0;

  g_array_sort (values, bench_compare_doubles);
  index = (guint) MIN (values->len - 1, floor (percentile / 100.0 * values->len));

  return g_array_index (values, double, index);
}

static gboolean
on_deadline (gpointer user_data)
{
  gboolean *done = user_data;

  *done = TRUE;
  return G_SOURCE_REMOVE;
}

void
bench_run_main_loop_for (double seconds)
{
  gboolean done = FALSE;

  g_timeout_add ((guint) (seconds * 1000), on_deadline, &done);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
}

void
bench_remove_tree (GFile *file)
{
  g_autoptr(GFileEnumerator) children = NULL;

  children = g_file_enumerate_children (file, G_FILE_ATTRIBUTE_STANDARD_NAME,
                                        G_FILE_QUERY_INFO_NOFOLLOW_SYMLINKS, NULL, NULL);
  if (children != NULL)
    {
      GFile *child;

      while (g_file_enumerator_iterate (children, NULL, &child, NULL, NULL) && child != NULL)
        bench_remove_tree (child);
    }

  g_file_delete (file, NULL, NULL);
}

GVariant *
bench_eddystone_url_properties (const char *url,
                                int         rssi)
{
  guint8 frame[NEARBY_FRAME_URL_SERVICE_DATA_MAX];
  GVariantBuilder service_data;
  GVariantBuilder props;
  gsize len = 0;

  g_assert_cmpint (nearby_frame_encode_eddystone_url (url, -20, frame, &len, NULL),
                   ==, NEARBY_FRAME_OK);
  g_variant_builder_init (&service_data, G_VARIANT_TYPE ("a{sv}"));
  g_variant_builder_add (&service_data, "{sv}", "0000feaa-0000-1000-8000-00805f9b34fb",
                         g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, frame, len, 1));
  g_variant_builder_init (&props, G_VARIANT_TYPE_VARDICT);
  g_variant_builder_add (&props, "{sv}", "RSSI", g_variant_new_int16 (rssi));
  g_variant_builder_add (&props, "{sv}", "ServiceData", g_variant_builder_end (&service_data));

  return g_variant_builder_end (&props);
}
