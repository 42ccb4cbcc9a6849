/* nearby-test-utils.c: what the tests share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gdk-pixbuf/gdk-pixbuf.h>
#include <json-glib/json-glib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <glib/gstdio.h>

#include "nearby-test-utils.h"

/* Waiting on the main context */

gboolean
nearby_test_set_flag (gpointer flag)
{
  *(gboolean *) flag = TRUE;
  return G_SOURCE_REMOVE;
}

gboolean
nearby_test_wake_up (gpointer unused)
{
  return G_SOURCE_CONTINUE;
}

void
nearby_test_run_for_ms (guint ms)
{
  gboolean done = FALSE;

  g_timeout_add (ms, nearby_test_set_flag, &done);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
}

void
nearby_test_on_result (GObject      *object,
                       GAsyncResult *result,
                       gpointer      data)
{
  NearbyTestWaiter *waiter = data;

  waiter->result = g_object_ref (result);
  waiter->done = TRUE;
}

GAsyncResult *
nearby_test_wait_result (NearbyTestWaiter *waiter)
{
  WAIT_UNTIL (waiter->done);
  return g_steal_pointer (&waiter->result);
}

double
nearby_test_cpu_seconds (void)
{
  struct rusage usage;

  getrusage (RUSAGE_SELF, &usage);

  return usage.ru_utime.tv_sec + usage.ru_stime.tv_sec
         + (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

gint64
nearby_test_clock_now (gpointer clock)
{
  return ((NearbyTestClock *) clock)->now_us;
}

/* Made-up beacons */

NearbyFrame
nearby_test_url_frame (const char *url,
                       int         tx_power)
{
  NearbyFrame frame = { 0 };

  frame.protocol = NEARBY_PROTOCOL_EDDYSTONE;
  frame.kind = NEARBY_FRAME_KIND_URL;
  frame.service_uuid = NEARBY_UUID16_EDDYSTONE;
  frame.tx_power_known = TRUE;
  frame.tx_power = tx_power;
  g_strlcpy (frame.url, url, sizeof frame.url);
  return frame;
}

GVariant *
nearby_test_bytes_variant (const guint8 *data,
                           gsize         len)
{
  return g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, data, len, 1);
}

GVariant *
nearby_test_service_data (const char   *uuid,
                          const guint8 *data,
                          gsize         len)
{
  GVariantBuilder builder;

  g_variant_builder_init (&builder, G_VARIANT_TYPE ("a{sv}"));
  g_variant_builder_add (&builder, "{sv}", uuid, nearby_test_bytes_variant (data, len));

  return g_variant_builder_end (&builder);
}

struct _NearbyTestSource
{
  GObject            parent_instance;

  NearbySourceState  state;
  char              *state_message;
};

G_DEFINE_FINAL_TYPE_WITH_CODE (NearbyTestSource, nearby_test_source, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (NEARBY_TYPE_SOURCE, NULL))

enum {
  PROP_0,
  PROP_STATE,
  PROP_STATE_MESSAGE,
};

static void
nearby_test_source_finalize (GObject *object)
{
  NearbyTestSource *self = NEARBY_TEST_SOURCE (object);

  g_free (self->state_message);

  G_OBJECT_CLASS (nearby_test_source_parent_class)->finalize (object);
}

static void
nearby_test_source_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  NearbyTestSource *self = NEARBY_TEST_SOURCE (object);

  switch (prop_id)
    {
    case PROP_STATE:
      g_value_set_enum (value, self->state);
      break;

    case PROP_STATE_MESSAGE:
      g_value_set_string (value, self->state_message);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
nearby_test_source_class_init (NearbyTestSourceClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = nearby_test_source_finalize;
  object_class->get_property = nearby_test_source_get_property;
  g_object_class_override_property (object_class, PROP_STATE, "state");
  g_object_class_override_property (object_class, PROP_STATE_MESSAGE, "state-message");
}

static void
nearby_test_source_init (NearbyTestSource *self)
{
  self->state = NEARBY_SOURCE_STATE_SCANNING;
}

NearbyTestSource *
nearby_test_source_new (void)
{
  return g_object_new (NEARBY_TYPE_TEST_SOURCE, NULL);
}

void
nearby_test_source_set_state (NearbyTestSource  *self,
                              NearbySourceState  state,
                              const char        *message)
{
  nearby_source_update_state (NEARBY_SOURCE (self), &self->state, &self->state_message, state,
                              message);
}

void
nearby_test_source_emit (NearbyTestSource  *self,
                         const char        *address,
                         gint64             time_us,
                         int                rssi,
                         const NearbyFrame *frame,
                         const guint8      *raw,
                         gsize              raw_len)
{
  NearbySighting sighting = { 0 };

  g_assert_cmpuint (raw_len, <=, sizeof sighting.raw);

  sighting.address = (char *) address;
  sighting.time_us = time_us;
  sighting.rssi = rssi;
  sighting.frame = *frame;
  if (raw_len > 0)
    memcpy (sighting.raw, raw, raw_len);
  sighting.raw_len = raw_len;
  nearby_source_emit_sighting (NEARBY_SOURCE (self), &sighting);
}

/* Temporary folders and files */

char *
nearby_test_make_temp_dir (const char *prefix)
{
  g_autofree char *template = g_strconcat (prefix, "-XXXXXX", NULL);
  g_autoptr(GError) error = NULL;
  char *dir = g_dir_make_tmp (template, &error);

  g_assert_no_error (error);
  return dir;
}

void
nearby_test_remove_tree (const char *path)
{
  GStatBuf buf;

  if (g_lstat (path, &buf) != 0)
    return;

  if (S_ISDIR (buf.st_mode))
    {
      g_autoptr(GDir) dir = NULL;
      const char *name;

      g_chmod (path, 0700);
      dir = g_dir_open (path, 0, NULL);
      while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *child = g_build_filename (path, name, NULL);

          nearby_test_remove_tree (child);
        }
      g_rmdir (path);
    }
  else
    {
      g_unlink (path);
    }
}

void
nearby_test_write_file (const char *path,
                        const void *data,
                        gsize       length)
{
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, data, length, &error);
  g_assert_no_error (error);
}

gboolean
nearby_test_file_contains (const char *path,
                           const char *needle)
{
  g_autofree char *contents = NULL;
  gsize length = 0;
  gsize needle_length = strlen (needle);

  if (!g_file_get_contents (path, &contents, &length, NULL))
    return FALSE;

  for (gsize i = 0; i + needle_length <= length; i++)
    {
      if (memcmp (contents + i, needle, needle_length) == 0)
        return TRUE;
    }

  return FALSE;
}

/* A page cache, one call at a time */

void
nearby_test_cache_store (NearbyPageCache        *cache,
                         const char             *url,
                         const NearbyCacheEntry *entry)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  NearbyTestWaiter waiter = { 0 };

  nearby_page_cache_store_async (cache, url, entry, NULL, nearby_test_on_result, &waiter);
  result = nearby_test_wait_result (&waiter);
  g_assert_true (nearby_page_cache_store_finish (cache, result, &error));
  g_assert_no_error (error);
}

NearbyCacheEntry *
nearby_test_cache_lookup (NearbyPageCache *cache,
                          const char      *url)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  NearbyCacheEntry *entry;
  NearbyTestWaiter waiter = { 0 };

  nearby_page_cache_lookup_async (cache, url, NULL, nearby_test_on_result, &waiter);
  result = nearby_test_wait_result (&waiter);
  entry = nearby_page_cache_lookup_finish (cache, result, &error);
  g_assert_no_error (error);

  return entry;
}

/* A web server on 127.0.0.1 */

guint
nearby_test_server_listen (SoupServer              *server,
                           SoupServerListenOptions  options)
{
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) address = g_inet_socket_address_new (loopback, 0);
  g_autoptr(GError) error = NULL;
  GSList *uris;
  guint port;

  soup_server_listen (server, address, options, &error);
  g_assert_no_error (error);
  /* The newest listener is the last. */
  uris = soup_server_get_uris (server);
  port = g_uri_get_port (g_slist_last (uris)->data);
  g_slist_free_full (uris, (GDestroyNotify) g_uri_unref);

  return port;
}

char *
nearby_test_url (guint       port,
                 const char *path)
{
  return g_strdup_printf ("http://127.0.0.1:%u%s", port, path);
}

void
nearby_test_respond (SoupServerMessage *msg,
                     guint              status,
                     const char        *type,
                     const void        *data,
                     gsize              len)
{
  soup_server_message_set_status (msg, status, NULL);
  if (type != NULL)
    soup_server_message_set_response (msg, type, SOUP_MEMORY_COPY, data, len);
}

void
nearby_test_respond_html (SoupServerMessage *msg,
                          const char        *html)
{
  nearby_test_respond (msg, 200, "text/html; charset=utf-8", html, strlen (html));
}

void
nearby_test_redirect (SoupServerMessage *msg,
                      guint              status,
                      const char        *location)
{
  soup_server_message_set_status (msg, status, NULL);
  soup_message_headers_replace (soup_server_message_get_response_headers (msg), "Location",
                                location);
}

/* Images as a server sends them */

GBytes *
nearby_test_make_image (const char *type,
                        int         width,
                        int         height)
{
  g_autoptr(GdkPixbuf) pixbuf = gdk_pixbuf_new (GDK_COLORSPACE_RGB, TRUE, 8, width, height);
  g_autoptr(GError) error = NULL;
  char *buffer = NULL;
  gsize len = 0;

  gdk_pixbuf_fill (pixbuf, 0x3584e4ff);
  gdk_pixbuf_save_to_buffer (pixbuf, &buffer, &len, type, &error, NULL);
  g_assert_no_error (error);

  return g_bytes_new_take (buffer, len);
}

GBytes *
nearby_test_gif_1x1 (void)
{
  static const guint8 gif[] = {
    0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 0x01, 0x00, 0x01, 0x00, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00,
    0xff, 0xff, 0xff, 0x21, 0xf9, 0x04, 0x01, 0x00, 0x00, 0x00, 0x00, 0x2c, 0x00, 0x00, 0x00, 0x00,
    0x01, 0x00, 0x01, 0x00, 0x00, 0x02, 0x02, 0x44, 0x01, 0x00, 0x3b,
  };

  return g_bytes_new_static (gif, sizeof gif);
}

/* The built `nearby` */

static GPtrArray *
nearby_argv (const char *first_arg,
             va_list     args)
{
  GPtrArray *argv = g_ptr_array_new ();
  const char *binary = g_getenv ("NEARBY_BINARY");

  g_assert_nonnull (binary);
  g_ptr_array_add (argv, (gpointer) binary);
  for (const char *arg = first_arg; arg != NULL; arg = va_arg (args, const char *))
    g_ptr_array_add (argv, (gpointer) arg);
  g_ptr_array_add (argv, NULL);

  return argv;
}

GSubprocess *
nearby_test_spawn_nearby (GSubprocessFlags   flags,
                          GError           **error,
                          ...)
{
  g_autoptr(GPtrArray) argv = NULL;
  const char *first_arg;
  va_list args;

  va_start (args, error);
  first_arg = va_arg (args, const char *);
  argv = nearby_argv (first_arg, args);
  va_end (args);

  return g_subprocess_newv ((const char * const *) argv->pdata, flags, error);
}

static void
on_communicated (GObject      *object,
                 GAsyncResult *result,
                 gpointer      data)
{
  *(GAsyncResult **) data = g_object_ref (result);
}

int
nearby_test_finish_nearby (GSubprocess  *process,
                           const char   *input,
                           char        **out,
                           char        **err)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  g_subprocess_communicate_utf8_async (process, input, NULL, on_communicated, &result);
  WAIT_UNTIL (result != NULL);
  g_subprocess_communicate_utf8_finish (process, result, out, err, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (process));

  return g_subprocess_get_exit_status (process);
}

NearbyTestRun *
nearby_test_run_nearbyv (const char  *input,
                         const char **args)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  const char *binary = g_getenv ("NEARBY_BINARY");
  NearbyTestRun *run = g_new0 (NearbyTestRun, 1);

  g_assert_nonnull (binary);
  g_ptr_array_add (argv, (gpointer) binary);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);

  process = g_subprocess_newv ((const char * const *) argv->pdata,
                               G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE
                               | G_SUBPROCESS_FLAGS_STDERR_PIPE,
                               &error);
  g_assert_no_error (error);
  run->status = nearby_test_finish_nearby (process, input != NULL ? input : "", &run->out,
                                           &run->err);

  return run;
}

NearbyTestRun *
nearby_test_run_nearby (const char *input,
                        const char *first_arg,
                        ...)
{
  g_autoptr(GPtrArray) argv = NULL;
  va_list args;

  va_start (args, first_arg);
  argv = nearby_argv (first_arg, args);
  va_end (args);

  /* Without the binary itself, which nearby_test_run_nearbyv() adds. */
  return nearby_test_run_nearbyv (input, (const char **) argv->pdata + 1);
}

void
nearby_test_run_free (NearbyTestRun *run)
{
  g_free (run->out);
  g_free (run->err);
  g_free (run);
}

GPtrArray *
nearby_test_parse_json_lines (const char *text)
{
  GPtrArray *objects = g_ptr_array_new_with_free_func ((GDestroyNotify) json_object_unref);
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr(JsonParser) parser = json_parser_new ();
      g_autoptr(GError) error = NULL;
      JsonNode *root;

      if (lines[i][0] == '\0')
        continue;
      json_parser_load_from_data (parser, lines[i], -1, &error);
      g_assert_no_error (error);
      root = json_parser_get_root (parser);
      g_assert_true (JSON_NODE_HOLDS_OBJECT (root));
      g_ptr_array_add (objects, json_object_ref (json_node_get_object (root)));
    }

  return objects;
}
