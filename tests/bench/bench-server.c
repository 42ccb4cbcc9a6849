/* bench-server.c: pages with icons, served from a thread of the benchmark's own process
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <libsoup/soup.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "bench-server.h"
#include "nearby-test-utils.h"

#define EXHIBIT_TITLE "Exhibit %u: the loom"

struct _BenchServer
{
  GThread      *thread;
  GMainContext *context;
  GMainLoop    *loop;
  GMutex        lock;
  GCond         cond;
  gboolean      ready;
  guint         port;
  guint         latency_ms;
  guint         n_hosts;
  GBytes       *png;

  /* Only touched on the server thread, read after it stopped or under @lock */
  guint         requests;
  guint         in_progress;
  guint         max_in_progress;
  double        cpu_seconds;

  /* Monotonic times at which each page and icon was asked for, under @lock */
  gint64        page_arrival_us[BENCH_SERVER_MAX_INDEX];
  gint64        icon_arrival_us[BENCH_SERVER_MAX_INDEX];
};

typedef struct {
  BenchServer       *server;
  SoupServerMessage *message;
} HeldAnswer;

static gboolean
on_answer_due (gpointer user_data)
{
  HeldAnswer *held = user_data;

  held->server->in_progress--;
  soup_server_message_unpause (held->message);
  g_object_unref (held->message);
  g_free (held);

  return G_SOURCE_REMOVE;
}

static void
stamp (BenchServer *server,
       gint64      *arrivals,
       guint        index,
       gint64       now)
{
  if (index >= BENCH_SERVER_MAX_INDEX)
    return;

  g_mutex_lock (&server->lock);
  arrivals[index] = now;
  g_mutex_unlock (&server->lock);
}

static void
on_request (SoupServer        *soup_server,
            SoupServerMessage *message,
            const char        *path,
            GHashTable        *query,
            gpointer           user_data)
{
  BenchServer *server = user_data;
  gint64 now = g_get_monotonic_time ();
  guint index;

  g_atomic_int_inc (&server->requests);
  if (g_str_has_prefix (path, "/p/") && sscanf (path, "/p/%u", &index) == 1)
    {
      g_autofree char *html = NULL;

      html = g_strdup_printf ("<!DOCTYPE html>\n<html lang=\"en\"><head>\n"
                              "<meta charset=\"utf-8\">\n"
                              "<meta name=\"viewport\" content=\"width=device-width\">\n"
                              "<title>" EXHIBIT_TITLE "</title>\n"
                              "<meta name=\"description\" content=\"Room %u, case %u: how the "
                              "Jacquard loom read its punched cards, and what it wove.\">\n"
                              "<link rel=\"icon\" type=\"image/png\" sizes=\"32x32\" "
                              "href=\"/i/%u.png\">\n"
                              "<link rel=\"stylesheet\" href=\"/style.css\">\n"
                              "</head><body><h1>Exhibit %u</h1>\n"
                              "<p>Punched cards told the loom which threads to lift. %s</p>\n"
                              "</body></html>\n",
                              index, index / 10, index % 10, index, index,
                              "Each card was one row of the pattern; a chain of them made the "
                              "picture, one pass of the shuttle at a time.");
      stamp (server, server->page_arrival_us, index, now);
      soup_server_message_set_status (message, SOUP_STATUS_OK, NULL);
      soup_server_message_set_response (message, "text/html; charset=utf-8", SOUP_MEMORY_TAKE,
                                        g_steal_pointer (&html), strlen (html));
    }
  else if (g_str_has_prefix (path, "/i/") && sscanf (path, "/i/%u.png", &index) == 1)
    {
      gsize len;
      const char *data = g_bytes_get_data (server->png, &len);

      stamp (server, server->icon_arrival_us, index, now);
      soup_server_message_set_status (message, SOUP_STATUS_OK, NULL);
      soup_server_message_set_response (message, "image/png", SOUP_MEMORY_STATIC, data, len);
    }
  else
    {
      soup_server_message_set_status (message, SOUP_STATUS_NOT_FOUND, NULL);
    }

  server->in_progress++;
  if (server->in_progress > (guint) g_atomic_int_get (&server->max_in_progress))
    g_atomic_int_set (&server->max_in_progress, server->in_progress);
  if (server->latency_ms > 0)
    {
      HeldAnswer *held = g_new0 (HeldAnswer, 1);
      g_autoptr(GSource) source = g_timeout_source_new (server->latency_ms);

      held->server = server;
      held->message = g_object_ref (message);
      soup_server_message_pause (message);
      g_source_set_callback (source, on_answer_due, held, NULL);
      g_source_attach (source, server->context);
    }
  else
    {
      server->in_progress--;
    }
}

static double
thread_cpu_seconds (void)
{
  struct timespec now;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &now);

  return now.tv_sec + now.tv_nsec / 1e9;
}

static gpointer
server_thread (gpointer data)
{
  BenchServer *server = data;
  g_autoptr(SoupServer) soup_server = NULL;
  g_autoptr(GError) error = NULL;
  GSList *listeners;
  double cpu_before;

  g_main_context_push_thread_default (server->context);
  soup_server = soup_server_new ("server-header", "bench-resolve", NULL);
  soup_server_add_handler (soup_server, NULL, on_request, server, NULL);

  for (guint host = 1; host <= server->n_hosts; host++)
    {
      g_autofree char *text = g_strdup_printf ("127.0.0.%u", host);
      g_autoptr(GInetAddress) inet = g_inet_address_new_from_string (text);
      g_autoptr(GSocketAddress) address = g_inet_socket_address_new (inet, server->port);

      soup_server_listen (soup_server, address, 0, &error);
      g_assert_no_error (error);
      if (server->port == 0)
        {
          g_autoptr(GSocketAddress) local = NULL;

          listeners = soup_server_get_listeners (soup_server);
          local = g_socket_get_local_address (listeners->data, &error);
          g_assert_no_error (error);
          server->port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (local));
          g_slist_free (listeners);
        }
    }

  /* [::1] too: "http://[::1]:PORT/p/N" fits in an Eddystone-URL frame, 127.0.0.1 does not. */
  {
    g_autoptr(GInetAddress) inet = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV6);
    g_autoptr(GSocketAddress) address = g_inet_socket_address_new (inet, server->port);
    g_autoptr(GError) ipv6_error = NULL;

    if (!soup_server_listen (soup_server, address, 0, &ipv6_error))
      g_debug ("Not listening on [::1]: %s", ipv6_error->message);
  }

  g_mutex_lock (&server->lock);
  server->ready = TRUE;
  g_cond_signal (&server->cond);
  g_mutex_unlock (&server->lock);

  cpu_before = thread_cpu_seconds ();
  g_main_loop_run (server->loop);
  server->cpu_seconds = thread_cpu_seconds () - cpu_before;

  soup_server_disconnect (soup_server);
  g_main_context_pop_thread_default (server->context);

  return NULL;
}

BenchServer *
bench_server_start (guint latency_ms,
                    guint n_hosts)
{
  BenchServer *server = g_new0 (BenchServer, 1);

  server->latency_ms = latency_ms;
  server->n_hosts = n_hosts;
  server->png = nearby_test_make_image ("png", 32, 32);
  server->context = g_main_context_new ();
  server->loop = g_main_loop_new (server->context, FALSE);
  g_mutex_init (&server->lock);
  g_cond_init (&server->cond);
  server->thread = g_thread_new ("bench-server", server_thread, server);

  g_mutex_lock (&server->lock);
  while (!server->ready)
    g_cond_wait (&server->cond, &server->lock);
  g_mutex_unlock (&server->lock);

  return server;
}

void
bench_server_stop (BenchServer *server,
                   double      *cpu_seconds)
{
  g_main_context_invoke (server->context, (GSourceFunc) g_main_loop_quit, server->loop);
  g_thread_join (server->thread);
  *cpu_seconds = server->cpu_seconds;
  g_main_loop_unref (server->loop);
  g_main_context_unref (server->context);
  g_bytes_unref (server->png);
  g_mutex_clear (&server->lock);
  g_cond_clear (&server->cond);
  g_free (server);
}

/* Counters are read between runs, while the children are gone and the server idles. */
void
bench_server_take_counts (BenchServer *server,
                          guint       *requests,
                          guint       *max_in_progress)
{
  *requests = g_atomic_int_get (&server->requests);
  *max_in_progress = g_atomic_int_get (&server->max_in_progress);
  g_atomic_int_set (&server->requests, 0);
  g_atomic_int_set (&server->max_in_progress, 0);
}

guint
bench_server_get_port (BenchServer *server)
{
  return server->port;
}

char *
bench_server_page_title (guint index)
{
  return g_strdup_printf (EXHIBIT_TITLE, index);
}

static gint64
arrival (BenchServer  *server,
         const gint64 *arrivals,
         guint         index)
{
  gint64 time_us;

  g_return_val_if_fail (index < BENCH_SERVER_MAX_INDEX, 0);

  g_mutex_lock (&server->lock);
  time_us = arrivals[index];
  g_mutex_unlock (&server->lock);

  return time_us;
}

/* When /p/@index was last asked for (g_get_monotonic_time()), or 0. */
gint64
bench_server_page_arrival (BenchServer *server,
                           guint        index)
{
  return arrival (server, server->page_arrival_us, index);
}

gint64
bench_server_icon_arrival (BenchServer *server,
                           guint        index)
{
  return arrival (server, server->icon_arrival_us, index);
}
