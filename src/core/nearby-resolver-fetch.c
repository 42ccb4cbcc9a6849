/* nearby-resolver-fetch.c
 *
 * One request of a look-up at a time: the page, then its manifest, then its icons. The URL
 * policy is checked before each hop and again on the address each connection reached (DNS may
 * say anything; a pooled connection reports no connection event), redirects are followed by
 * hand, at most NEARBY_RESOLVER_MAX_REDIRECTS and only to http(s), and bodies are read in
 * chunks up to a cap: the page until its metadata parser has seen enough.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-resolver"

#include "config.h"

#include <glib/gi18n.h>

#include <string.h>

#include "nearby-icon.h"
#include "nearby-proxy-cache.h"
#include "nearby-resolver-private.h"
#include "nearby-text.h"

#define READ_CHUNK          (16 * 1024)
#define SNIFF_BYTES         512
#define CACHE_MIN_SECONDS   (5 * 60)
#define CACHE_MAX_SECONDS   (24 * 60 * 60)
#define CACHE_DEFAULT_SECONDS (60 * 60)
/* A manifest's or icon's host whose name did not resolve is not asked for again this long. */
#define UNRESOLVED_HOST_SECONDS 60
/* A site whose /favicon.ico was not found is not asked for it again this long: a site without
 * one is asked once, not once per page that links no icon. */
#define MISSING_FAVICON_SECONDS (10 * 60)

static void job_read_next (NearbyResolverJob *job);

/* Classification */

static NearbyAddressClass
classify_socket_address (NearbyResolver *self,
                         GSocketAddress *address)
{
  if (!G_IS_INET_SOCKET_ADDRESS (address))
    return NEARBY_ADDRESS_LOCAL;

  if (self->classifier != NULL)
    return self->classifier (G_INET_SOCKET_ADDRESS (address), self->classifier_data);

  return nearby_url_policy_classify_address (
      g_inet_socket_address_get_address (G_INET_SOCKET_ADDRESS (address)));
}

/* The scheme and, for names known without DNS (literal addresses, localhost, .local), the
 * address class; everything else is checked once connected. */
GUri *
_nearby_resolver_check_url (NearbyResolver   *self,
                            NearbyUrlPolicy   policy,
                            const char       *url,
                            GError          **error)
{
  g_autoptr(GUri) uri = NULL;
  g_autoptr(GInetAddress) literal = NULL;
  g_autofree char *what = NULL;
  const char *host;
  NearbyAddressClass klass;

  uri = nearby_url_policy_check_url (url,
                                     policy | NEARBY_URL_POLICY_ALLOW_LOCAL |
                                     NEARBY_URL_POLICY_ALLOW_LOOPBACK,
                                     error);
  if (uri == NULL)
    return NULL;

  host = g_uri_get_host (uri);
  literal = g_inet_address_new_from_string (host);
  if (literal != NULL)
    {
      g_autoptr(GSocketAddress) address = g_inet_socket_address_new (literal, g_uri_get_port (uri));

      klass = classify_socket_address (self, address);
    }
  else
    {
      klass = nearby_url_policy_classify_host (host);
    }

  what = g_strdup_printf ("“%s”", host);
  if (!nearby_url_policy_check_address (policy, klass, what, error))
    return NULL;

  return g_steal_pointer (&uri);
}

/* Requests */

void
_nearby_resolver_job_clear_fetch (NearbyResolverJob *job)
{
  if (job->message != NULL)
    g_signal_handlers_disconnect_by_data (job->message, job);
  g_clear_object (&job->message);
  g_clear_object (&job->stream);
  g_clear_object (&job->fetch_cancellable);
  g_clear_pointer (&job->uri, g_uri_unref);
  g_clear_error (&job->policy_error);
  g_clear_pointer (&job->parser, nearby_page_meta_parser_free);
  g_clear_pointer (&job->body, g_byte_array_unref);
  job->body_read = 0;
  job->hops = 0;
  job->sniffed = FALSE;
}

static gint64
expiry_from_headers (SoupMessage *message)
{
  SoupMessageHeaders *headers = soup_message_get_response_headers (message);
  const char *cache_control = soup_message_headers_get_list (headers, "Cache-Control");
  gint64 seconds = CACHE_DEFAULT_SECONDS;

  if (cache_control != NULL)
    {
      GHashTable *params = soup_header_parse_param_list (cache_control);
      const char *max_age = g_hash_table_lookup (params, "max-age");
      guint64 value;

      if (g_hash_table_contains (params, "no-store") || g_hash_table_contains (params, "no-cache"))
        seconds = 0;
      else if (max_age != NULL && g_ascii_string_to_unsigned (max_age, 10, 0, G_MAXINT64, &value, NULL))
        seconds = (gint64) value;
      soup_header_free_param_list (params);
    }

  /* A page that asks not to be cached is still kept for minutes, so that a list of nearby
   * objects does not refetch every page on every sighting; and nothing is kept beyond a day. */
  seconds = CLAMP (seconds, CACHE_MIN_SECONDS, CACHE_MAX_SECONDS);

  return g_get_real_time () + seconds * G_USEC_PER_SEC;
}

/* A page's manifest and icons often live on other hosts (a CDN, the site's main domain). When
 * DNS does not answer, each name costs the resolver's timeout (5 s with glibc), and a page
 * lists several candidates on the same host: after one failure, the others fail at once. */
static gboolean
is_secondary (NearbyResolverJob *job)
{
  return job->kind == NEARBY_RESOLVER_FETCH_MANIFEST || job->kind == NEARBY_RESOLVER_FETCH_ICON;
}

static void
remember_unresolved_host (NearbyResolverJob *job)
{
  gint64 *when = g_new (gint64, 1);

  *when = g_get_monotonic_time ();
  g_hash_table_replace (job->self->unresolved_hosts, g_strdup (g_uri_get_host (job->uri)), when);
}

static gboolean
host_recently_unresolved (NearbyResolverJob *job)
{
  const gint64 *when = g_hash_table_lookup (job->self->unresolved_hosts, g_uri_get_host (job->uri));

  return when != NULL &&
         g_get_monotonic_time () - *when < UNRESOLVED_HOST_SECONDS * G_USEC_PER_SEC;
}

/* The fallback every browser tries, at the root of the site and nothing after it. */
static gboolean
is_site_favicon (NearbyResolverJob *job)
{
  return job->kind == NEARBY_RESOLVER_FETCH_ICON &&
         g_str_equal (g_uri_get_path (job->uri), "/favicon.ico") &&
         g_uri_get_query (job->uri) == NULL;
}

static char *
site_of (GUri *uri)
{
  return g_strdup_printf ("%s://%s:%d", g_uri_get_scheme (uri), g_uri_get_host (uri),
                          g_uri_get_port (uri));
}

static void
remember_missing_favicon (NearbyResolverJob *job)
{
  gint64 *when = g_new (gint64, 1);

  *when = g_get_monotonic_time ();
  g_hash_table_replace (job->self->missing_favicons, site_of (job->uri), when);
}

static gboolean
favicon_recently_missing (NearbyResolverJob *job)
{
  g_autofree char *site = site_of (job->uri);
  const gint64 *when = g_hash_table_lookup (job->self->missing_favicons, site);

  return when != NULL &&
         g_get_monotonic_time () - *when < MISSING_FAVICON_SECONDS * G_USEC_PER_SEC;
}

/* Ends the fetch after the transfer failed with @io_error, saying why in the user's words. */
static void
fetch_failed (NearbyResolverJob *job,
              const GError      *io_error)
{
  g_autoptr(GError) error = NULL;

  if (io_error->domain == G_RESOLVER_ERROR && is_secondary (job) && !job->via_proxy)
    remember_unresolved_host (job);

  if (job->policy_error != NULL)
    error = g_error_copy (job->policy_error);
  else if (job->timed_out)
    g_set_error (&error, NEARBY_RESOLVE_ERROR, NEARBY_RESOLVE_ERROR_TIMEOUT,
                 g_dngettext (GETTEXT_PACKAGE, "No answer within %u second",
                              "No answer within %u seconds",
                              (job->self->deadline_ms + 999) / 1000),
                 (job->self->deadline_ms + 999) / 1000);
  else if (g_error_matches (io_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    error = g_error_copy (io_error);
  else if (io_error->domain == G_TLS_ERROR ||
           (job->message != NULL && soup_message_get_tls_peer_certificate_errors (job->message) != 0))
    g_set_error (&error, NEARBY_RESOLVE_ERROR, NEARBY_RESOLVE_ERROR_TLS,
                 _("The secure connection failed: %s"), io_error->message);
  else if (g_error_matches (io_error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT))
    g_set_error (&error, NEARBY_RESOLVE_ERROR, NEARBY_RESOLVE_ERROR_TIMEOUT,
                 _("The server stopped answering: %s"), io_error->message);
  else if (io_error->domain == G_RESOLVER_ERROR)
    g_set_error (&error, NEARBY_RESOLVE_ERROR, NEARBY_RESOLVE_ERROR_NETWORK,
                 _("Cannot find the server: %s"), io_error->message);
  else
    g_set_error (&error, NEARBY_RESOLVE_ERROR, NEARBY_RESOLVE_ERROR_NETWORK,
                 "%s", io_error->message);

  _nearby_resolver_job_fetch_done (job, error);
}

static gboolean
check_connected_address (NearbyResolverJob *job,
                         GSocketAddress    *address)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *what = NULL;
  g_autofree char *text = NULL;

  if (address == NULL || job->via_proxy)
    return TRUE;

  text = g_socket_connectable_to_string (G_SOCKET_CONNECTABLE (address));
  what = g_strdup_printf ("“%s” (%s)", g_uri_get_host (job->uri), text);
  if (nearby_url_policy_check_address (job->policy, classify_socket_address (job->self, address),
                                       what, &error))
    return TRUE;

  g_debug ("%s: refused the connection to %s", job->url, text);
  if (job->policy_error == NULL)
    job->policy_error = g_steal_pointer (&error);

  return FALSE;
}

static char *
origin_of (GUri *uri)
{
  return g_strdup_printf ("%s:%d", g_uri_get_host (uri), g_uri_get_port (uri));
}

static void
on_network_event (SoupMessage        *message,
                  GSocketClientEvent  event,
                  GIOStream          *connection,
                  gpointer            user_data)
{
  NearbyResolverJob *job = user_data;
  g_autoptr(GSocketAddress) remote = NULL;

  if (event != G_SOCKET_CLIENT_CONNECTED || !G_IS_SOCKET_CONNECTION (connection))
    return;

  /* Before a single byte of the request is written: DNS may have said anything. */
  remote = g_socket_connection_get_remote_address (G_SOCKET_CONNECTION (connection), NULL);
  if (remote != NULL && !job->via_proxy &&
      classify_socket_address (job->self, remote) != NEARBY_ADDRESS_PUBLIC)
    g_hash_table_add (job->self->private_origins, origin_of (job->uri));
  if (!check_connected_address (job, remote))
    g_cancellable_cancel (job->fetch_cancellable);
}

static const char *
accept_for (NearbyResolverFetchKind kind)
{
  switch (kind)
    {
    case NEARBY_RESOLVER_FETCH_PAGE:
      return "text/html,application/xhtml+xml;q=0.9,*/*;q=0.1";
    case NEARBY_RESOLVER_FETCH_MANIFEST:
      return "application/manifest+json,application/json;q=0.9,*/*;q=0.1";
    case NEARBY_RESOLVER_FETCH_ICON:
      return "image/png,image/x-icon,image/gif,image/jpeg;q=0.9,*/*;q=0.1";
    default:
      return "*/*";
    }
}

static void on_sent (GObject      *source,
                     GAsyncResult *result,
                     gpointer      user_data);

static void
send_with_proxies (NearbyResolverJob *job,
                   char *const       *proxies)
{
  job->via_proxy = proxies != NULL && proxies[0] != NULL &&
                   !g_str_equal (proxies[0], "direct://");
  if (job->via_proxy)
    g_debug ("%s: through the proxy %s", job->url, proxies[0]);

  soup_session_send_async (job->self->session, job->message, G_PRIORITY_DEFAULT,
                           job->fetch_cancellable, on_sent, job);
  if (job->kind != NEARBY_RESOLVER_FETCH_PAGE)
    _nearby_resolver_job_release_slot (job);
}

static void
on_proxy_looked_up (GObject      *source,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  NearbyResolverJob *job = user_data;
  g_autoptr(GError) io_error = NULL;
  g_auto(GStrv) proxies = NULL;

  proxies = g_proxy_resolver_lookup_finish (G_PROXY_RESOLVER (source), result, &io_error);
  if (proxies == NULL && g_error_matches (io_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      fetch_failed (job, io_error);
      return;
    }

  send_with_proxies (job, proxies);
}

/* The system's proxy resolver is made at the first request rather than with the resolver: GIO
 * loads its module for it (libproxy, or GNOME's with GSettings), which the app's start has no
 * use for. It is then asked once per host for a while, not twice per request
 * (nearby-proxy-cache.c). */
GProxyResolver *
_nearby_resolver_get_proxy_resolver (NearbyResolver *self)
{
  if (self->proxy_resolver == NULL)
    {
      self->proxy_resolver = nearby_proxy_cache_new (NULL);
      soup_session_set_proxy_resolver (self->session, self->proxy_resolver);
    }

  return self->proxy_resolver;
}

static void
job_send (NearbyResolverJob *job)
{
  NearbyResolver *self = job->self;
  g_autofree char *uri_string = NULL;
  GProxyResolver *proxy_resolver;
  SoupMessagePriority priority;

  g_clear_object (&job->message);
  g_clear_error (&job->policy_error);
  g_clear_object (&job->fetch_cancellable);
  job->via_proxy = FALSE;

  job->fetch_cancellable = g_cancellable_new ();
  if (job->timed_out || _nearby_resolver_job_is_cancelled (job))
    g_cancellable_cancel (job->fetch_cancellable);

  job->message = soup_message_new_from_uri (SOUP_METHOD_GET, job->uri);
  soup_message_add_flags (job->message, SOUP_MESSAGE_NO_REDIRECT);
  {
    g_autofree char *origin = origin_of (job->uri);

    /* A pooled connection would carry the request before its address could be checked: when
     * this host was once reached on a private address, connect afresh and check again. */
    if ((~job->policy & (NEARBY_URL_POLICY_ALLOW_LOCAL | NEARBY_URL_POLICY_ALLOW_LOOPBACK)) != 0 &&
        g_hash_table_contains (self->private_origins, origin))
      soup_message_add_flags (job->message, SOUP_MESSAGE_NEW_CONNECTION);
  }
  soup_message_headers_replace (soup_message_get_request_headers (job->message), "Accept",
                                accept_for (job->kind));
  if (job->kind == NEARBY_RESOLVER_FETCH_ICON)
    soup_message_disable_feature (job->message, SOUP_TYPE_CONTENT_DECODER);

  if (job->priority < 0)
    priority = SOUP_MESSAGE_PRIORITY_VERY_HIGH;
  else if (job->priority < 4)
    priority = SOUP_MESSAGE_PRIORITY_HIGH;
  else if (job->priority < 16)
    priority = SOUP_MESSAGE_PRIORITY_NORMAL;
  else
    priority = SOUP_MESSAGE_PRIORITY_LOW;
  /* A manifest or an icon goes at its page's priority: one step lower, it waited behind every
   * page of a batch (libsoup sends the most urgent first), and libsoup's queue, which it walks
   * whenever a connection frees up, grew by one icon per page. */
  soup_message_set_priority (job->message, priority);

  g_signal_connect (job->message, "network-event", G_CALLBACK (on_network_event), job);

  /* Through a proxy, the address connected to is the proxy's, which the user chose; the
   * destination is then only known by name and checked as such (_nearby_resolver_check_url). */
  uri_string = g_uri_to_string (job->uri);
  proxy_resolver = _nearby_resolver_get_proxy_resolver (self);
  if (NEARBY_IS_PROXY_CACHE (proxy_resolver))
    {
      g_auto(GStrv) kept = nearby_proxy_cache_lookup_cached (NEARBY_PROXY_CACHE (proxy_resolver),
                                                             uri_string);

      if (kept != NULL)
        {
          send_with_proxies (job, kept);
          return;
        }
    }
  g_proxy_resolver_lookup_async (proxy_resolver, uri_string, job->fetch_cancellable,
                                 on_proxy_looked_up, job);
  /* An answer not kept may take a while (a PAC file to fetch): a manifest or icon does not
   * wait for it holding the slot. Such a host is rarely the page's, whose answer was just
   * kept, so it seldom competes with the next page for the same connections. */
  if (job->kind != NEARBY_RESOLVER_FETCH_PAGE)
    _nearby_resolver_job_release_slot (job);
}

/* The first address and every redirect's are checked against the policy before they are
 * asked for. */
static void
job_check_and_send (NearbyResolverJob *job,
                    const char        *url)
{
  g_autoptr(GError) error = NULL;

  job->uri = _nearby_resolver_check_url (job->self, job->policy, url, &error);
  if (job->uri == NULL)
    {
      _nearby_resolver_job_fetch_done (job, error);
      return;
    }

  if (is_secondary (job) && host_recently_unresolved (job))
    {
      g_set_error (&error, NEARBY_RESOLVE_ERROR, NEARBY_RESOLVE_ERROR_NETWORK,
                   _("Cannot find the server: %s"), g_uri_get_host (job->uri));
      _nearby_resolver_job_fetch_done (job, error);
      return;
    }

  if (is_site_favicon (job) && favicon_recently_missing (job))
    {
      g_set_error (&error, NEARBY_RESOLVE_ERROR, NEARBY_RESOLVE_ERROR_HTTP,
                   _("The server answered %u %s"), SOUP_STATUS_NOT_FOUND,
                   soup_status_get_phrase (SOUP_STATUS_NOT_FOUND));
      _nearby_resolver_job_fetch_done (job, error);
      return;
    }

  job_send (job);
}

void
_nearby_resolver_job_fetch (NearbyResolverJob       *job,
                            NearbyResolverFetchKind  kind,
                            const char              *url)
{
  _nearby_resolver_job_clear_fetch (job);
  job->kind = kind;
  job_check_and_send (job, url);
}

/* A <meta http-equiv=refresh> that moves on at once is a redirect by another name (as the
 * Physical Web service took it): the page that said so is one more hop, and the hops that
 * follow count on from there. The caller checks the limit. */
void
_nearby_resolver_job_follow_refresh (NearbyResolverJob *job,
                                     const char        *url)
{
  guint hops = job->page->redirects->len + 1;

  g_debug ("%s: refresh -> %s", job->page->final_url, url);
  nearby_page_add_redirect (job->page, job->page->final_url, job->page->status);
  _nearby_resolver_job_clear_fetch (job);
  job->kind = NEARBY_RESOLVER_FETCH_PAGE;
  job->hops = hops;
  job_check_and_send (job, url);
}

static gboolean
is_redirect (guint status)
{
  return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
}

static void
follow_redirect (NearbyResolverJob *job,
                 guint              status)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GUri) next = NULL;
  g_autofree char *current = g_uri_to_string (job->uri);
  g_autofree char *next_string = NULL;
  const char *location;
  const char *scheme;

  location = soup_message_headers_get_one (soup_message_get_response_headers (job->message),
                                           "Location");
  if (job->kind == NEARBY_RESOLVER_FETCH_PAGE)
    nearby_page_add_redirect (job->page, current, status);

  if (location == NULL || *location == '\0')
    {
      g_set_error (&error, NEARBY_RESOLVE_ERROR, NEARBY_RESOLVE_ERROR_BAD_REDIRECT,
                   _("The server answered %u without saying where to go"), status);
      _nearby_resolver_job_fetch_done (job, error);
      return;
    }

  if (job->hops >= NEARBY_RESOLVER_MAX_REDIRECTS)
    {
      g_set_error (&error, NEARBY_RESOLVE_ERROR, NEARBY_RESOLVE_ERROR_TOO_MANY_REDIRECTS,
                   g_dngettext (GETTEXT_PACKAGE, "More than %d redirect", "More than %d redirects",
                                NEARBY_RESOLVER_MAX_REDIRECTS),
                   NEARBY_RESOLVER_MAX_REDIRECTS);
      _nearby_resolver_job_fetch_done (job, error);
      return;
    }

  next = g_uri_parse_relative (job->uri, location, SOUP_HTTP_URI_FLAGS, NULL);
  scheme = next ? g_uri_get_scheme (next) : NULL;
  if (next == NULL ||
      (g_ascii_strcasecmp (scheme, "http") != 0 && g_ascii_strcasecmp (scheme, "https") != 0))
    {
      g_autofree char *shown = nearby_text_clean (location, -1, 80);

      g_set_error (&error, NEARBY_RESOLVE_ERROR, NEARBY_RESOLVE_ERROR_BAD_REDIRECT,
                   _("The page redirects to “%s”, which is not a web address"), shown);
      _nearby_resolver_job_fetch_done (job, error);
      return;
    }

  /* A redirect keeps the fragment of the address it came from unless it has its own. */
  if (g_uri_get_fragment (next) == NULL && g_uri_get_fragment (job->uri) != NULL)
    {
      GUri *with_fragment = soup_uri_copy (next, SOUP_URI_FRAGMENT, g_uri_get_fragment (job->uri),
                                           SOUP_URI_NONE);

      g_uri_unref (next);
      next = with_fragment;
    }

  next_string = g_uri_to_string (next);
  g_debug ("%s: %u -> %s", current, status, next_string);

  g_clear_object (&job->stream);
  g_clear_pointer (&job->uri, g_uri_unref);
  job->hops++;
  job_check_and_send (job, next_string);
}

static void
on_sent (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  NearbyResolverJob *job = user_data;
  g_autoptr(GError) io_error = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GInputStream) stream = NULL;
  guint status;

  stream = soup_session_send_finish (SOUP_SESSION (source), result, &io_error);
  if (stream == NULL)
    {
      fetch_failed (job, io_error);
      return;
    }

  /* A pooled connection reports no network-event: check where it goes too. */
  if (!check_connected_address (job, soup_message_get_remote_address (job->message)))
    {
      _nearby_resolver_job_fetch_done (job, job->policy_error);
      return;
    }

  job->stream = g_steal_pointer (&stream);
  status = soup_message_get_status (job->message);

  if (is_redirect (status))
    {
      follow_redirect (job, status);
      return;
    }

  if (job->kind == NEARBY_RESOLVER_FETCH_PAGE)
    {
      g_free (job->page->final_url);
      job->page->final_url = g_uri_to_string (job->uri);
      job->page->status = status;
      job->page->headers_us = g_get_monotonic_time () - job->started_us;

      if (status == SOUP_STATUS_NO_CONTENT || status == SOUP_STATUS_NOT_FOUND ||
          status == SOUP_STATUS_GONE)
        {
          g_set_error (&error, NEARBY_RESOLVE_ERROR, NEARBY_RESOLVE_ERROR_HIDDEN,
                       _("The page hides itself (%u %s)"), status, soup_status_get_phrase (status));
          _nearby_resolver_job_fetch_done (job, error);
          return;
        }
    }

  if (!SOUP_STATUS_IS_SUCCESSFUL (status))
    {
      if ((status == SOUP_STATUS_NOT_FOUND || status == SOUP_STATUS_GONE) && is_site_favicon (job))
        remember_missing_favicon (job);
      g_set_error (&error, NEARBY_RESOLVE_ERROR, NEARBY_RESOLVE_ERROR_HTTP,
                   _("The server answered %u %s"), status, soup_status_get_phrase (status));
      _nearby_resolver_job_fetch_done (job, error);
      return;
    }

  if (job->kind == NEARBY_RESOLVER_FETCH_PAGE)
    {
      GHashTable *params = NULL;

      soup_message_headers_get_content_type (soup_message_get_response_headers (job->message),
                                             &params);
      job->parser = nearby_page_meta_parser_new (job->page->final_url,
                                                 params ? g_hash_table_lookup (params, "charset") : NULL);
      g_clear_pointer (&params, g_hash_table_unref);
      job->body = g_byte_array_new ();
      job->body_cap = NEARBY_PAGE_META_MAX_HTML;
      job->expires_at_us = expiry_from_headers (job->message);
    }
  else
    {
      job->body = g_byte_array_new ();
      job->body_cap = job->kind == NEARBY_RESOLVER_FETCH_ICON ? NEARBY_ICON_MAX_BYTES
                                              : NEARBY_RESOLVER_MAX_MANIFEST;
    }

  job_read_next (job);
}

static gboolean
looks_binary (const guint8 *data,
              gsize         len)
{
  static const struct { const char *magic; gsize len; } magics[] = {
    { "\x89PNG", 4 }, { "GIF8", 4 }, { "\xff\xd8\xff", 3 }, { "%PDF", 4 }, { "PK\x03\x04", 4 },
    { "\x1f\x8b", 2 }, { "\0\0\1\0", 4 }, { "RIFF", 4 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (magics); i++)
    {
      if (len >= magics[i].len && memcmp (data, magics[i].magic, magics[i].len) == 0)
        return TRUE;
    }

  /* Stray NUL bytes do not make a page binary: the parser copes with them. */
  return FALSE;
}

/* X-Content-Type-Options: only its first value counts, in any case (WHATWG Fetch). */
static gboolean
forbids_sniffing (SoupMessageHeaders *headers)
{
  const char *options = soup_message_headers_get_list (headers, "X-Content-Type-Options");
  g_autofree char *first = NULL;

  if (options == NULL)
    return FALSE;

  first = g_strstrip (g_strndup (options, strcspn (options, ",")));

  return g_ascii_strcasecmp (first, "nosniff") == 0;
}

static gboolean
is_html_type (const char *type)
{
  return type != NULL &&
         (g_ascii_strcasecmp (type, "text/html") == 0 ||
          g_ascii_strcasecmp (type, "application/xhtml+xml") == 0);
}

/* What a browser would render the body as, by the MIME Sniffing Standard: the declared type
 * when there is one (text/plain stays text, whatever its bytes), and the first bytes only when
 * the server said nothing usable and did not forbid looking (nosniff). */
static char *
computed_page_type (NearbyResolverJob *job)
{
  SoupMessageHeaders *headers = soup_message_get_response_headers (job->message);
  const char *declared = soup_message_headers_get_content_type (headers, NULL);
  g_autoptr(SoupContentSniffer) sniffer = NULL;
  g_autoptr(GBytes) start = NULL;

  if (declared != NULL &&
      g_ascii_strcasecmp (declared, "unknown/unknown") != 0 &&
      g_ascii_strcasecmp (declared, "application/unknown") != 0 &&
      g_ascii_strcasecmp (declared, "*/*") != 0)
    return g_ascii_strdown (declared, -1);

  /* Without scripting allowed the algorithm never finds HTML. */
  if (forbids_sniffing (headers))
    return NULL;

  sniffer = soup_content_sniffer_new ();
  start = g_bytes_new (job->body->data, MIN (job->body->len, SNIFF_BYTES));

  return soup_content_sniffer_sniff (sniffer, job->message, start, NULL);
}

static gboolean
check_page_type (NearbyResolverJob  *job,
                 GError            **error)
{
  g_autofree char *type = computed_page_type (job);

  /* Declared HTML that is plainly an image or an archive is not worth parsing. */
  if (is_html_type (type) && !looks_binary (job->body->data, job->body->len))
    return TRUE;

  if (type == NULL)
    type = g_strdup (soup_message_headers_get_content_type (
                       soup_message_get_response_headers (job->message), NULL));

  g_set_error (error, NEARBY_RESOLVE_ERROR, NEARBY_RESOLVE_ERROR_NOT_HTML,
               _("The address leads to “%s”, not to a web page"),
               type ? type : _("content of an unknown type"));

  return FALSE;
}

static void
on_read (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  NearbyResolverJob *job = user_data;
  g_autoptr(GError) io_error = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  const guint8 *data;
  gsize len;

  bytes = g_input_stream_read_bytes_finish (G_INPUT_STREAM (source), result, &io_error);
  if (bytes == NULL)
    {
      fetch_failed (job, io_error);
      return;
    }

  data = g_bytes_get_data (bytes, &len);
  job->body_read += len;
  if (len == 0)
    {
      if (job->kind == NEARBY_RESOLVER_FETCH_PAGE && !job->sniffed)
        {
          if (!check_page_type (job, &error))
            {
              _nearby_resolver_job_fetch_done (job, error);
              return;
            }
          nearby_page_meta_parser_feed (job->parser, job->body->data, job->body->len);
        }
      _nearby_resolver_job_fetch_done (job, NULL);
      return;
    }

  if (job->kind != NEARBY_RESOLVER_FETCH_PAGE)
    {
      if (job->body->len + len > job->body_cap)
        {
          g_set_error (&error, G_IO_ERROR, G_IO_ERROR_MESSAGE_TOO_LARGE,
                       g_dngettext (GETTEXT_PACKAGE, "More than %zu byte", "More than %zu bytes",
                                    job->body_cap),
                       job->body_cap);
          _nearby_resolver_job_fetch_done (job, error);
          return;
        }
      g_byte_array_append (job->body, data, len);
      job_read_next (job);
      return;
    }

  if (!job->sniffed)
    {
      g_byte_array_append (job->body, data, len);
      if (job->body->len < SNIFF_BYTES)
        {
          job_read_next (job);
          return;
        }
      job->sniffed = TRUE;
      if (!check_page_type (job, &error))
        {
          _nearby_resolver_job_fetch_done (job, error);
          return;
        }
      data = job->body->data;
      len = job->body->len;
    }

  /* The parser caps what it takes, and says when it has seen enough. */
  if (!nearby_page_meta_parser_feed (job->parser, data, len))
    {
      _nearby_resolver_job_drain (job);
      _nearby_resolver_job_fetch_done (job, NULL);
      return;
    }

  job_read_next (job);
}

static void
job_read_next (NearbyResolverJob *job)
{
  g_input_stream_read_bytes_async (job->stream, READ_CHUNK, G_PRIORITY_DEFAULT,
                                   job->fetch_cancellable, on_read, job);
}
