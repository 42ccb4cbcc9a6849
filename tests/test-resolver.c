/* test-resolver.c: the resolver against a real HTTP server on 127.0.0.1, good and hostile
 *
 * The server and the resolver share one main loop, so both are asynchronous. The server's
 * first port plays a public host (through the resolver's address classifier); its second port
 * is what it really is, loopback.
 *
 * Longer than the ~900 lines a file should have: one server serves every test, and its routes
 * (with the hostile bodies, the DNS stand-in and the broken cache they need) are half the file.
 * What the parsers, the URL policy and the icon decoder do on their own is tested in their own
 * files; what is left here is what only a round trip over HTTP shows.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gdk-pixbuf/gdk-pixbuf.h>
#include <libsoup/soup.h>
#include <string.h>
#include <sys/resource.h>

#include "nearby-icon.h"
#include "nearby-memory-page-cache.h"
#include "nearby-resolver.h"
#include "nearby-test-utils.h"
#include "nearby-text.h"

/* Generous, so a loaded machine does not turn answers into timeouts; the drip test alone
 * waits for a deadline, and uses a short one. */
#define TEST_DEADLINE_MS 5000
#define DRIP_DEADLINE_MS 1500

typedef struct {
  SoupServer *server;
  SoupServer *tls_server;
  guint       public_port;
  guint       loopback_port;
  guint       tls_port;
  GHashTable *hits;          /* path -> count */
  GPtrArray  *order;         /* paths in the order they arrived */
  GBytes     *png_96;
  GBytes     *ico_32;
  GBytes     *gzip_bomb;
  gsize       streamed_bytes;
  char       *last_user_agent;
  gboolean    saw_identifying_header;
  GPtrArray  *held;          /* SoupServerMessage whose body the server never finishes */
  GHashTable *held_sockets;  /* GSocket of each of them */
  guint       sent_behind_held;
  GPtrArray  *held_lookups;  /* GTask of each DNS look-up of slow-dns.test, unanswered */
  GPtrArray  *held_proxy_questions;  /* GTask of each proxy question about slow-dns.test */
  guint       slow_lookups;  /* how many there were */
  GHashTable *client_ports;  /* path -> the client's port of its last request */
} Fixture;

static Fixture fx;

/* A crafted image: GIF 1x1 */
/* 128 MB of spaces after a title, gzip-compressed to about 128 KiB. */
static GBytes *
make_gzip_bomb (void)
{
  g_autoptr(GZlibCompressor) compressor = g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP, 9);
  g_autoptr(GByteArray) out = g_byte_array_new ();
  g_autofree guint8 *spaces = g_malloc (64 * 1024);
  const char *head = "<html><head><title>Bomb</title>";
  guint8 buffer[64 * 1024];
  guint rounds = 128 * 16;

  memset (spaces, ' ', 64 * 1024);
  for (guint i = 0; i <= rounds + 1; i++)
    {
      const guint8 *in = i == 0 ? (const guint8 *) head : spaces;
      gsize in_len = i == 0 ? strlen (head) : (i <= rounds ? 64 * 1024 : 0);
      GConverterFlags flags = i == rounds + 1 ? G_CONVERTER_INPUT_AT_END : G_CONVERTER_NO_FLAGS;
      GConverterResult result;

      do
        {
          gsize read = 0;
          gsize written = 0;
          g_autoptr(GError) error = NULL;

          result = g_converter_convert (G_CONVERTER (compressor), in, in_len, buffer, sizeof buffer,
                                        flags, &read, &written, &error);
          g_assert_no_error (error);
          g_byte_array_append (out, buffer, written);
          in += read;
          in_len -= read;
        }
      while (in_len > 0 || (flags == G_CONVERTER_INPUT_AT_END && result != G_CONVERTER_FINISHED));
    }

  return g_byte_array_free_to_bytes (g_steal_pointer (&out));
}

/* Server */

typedef struct {
  SoupServerMessage *msg;
  guint              source_id;
  gsize              sent;
  gsize              limit;
} Stream;

static void
stream_finished (SoupServerMessage *msg,
                 Stream            *stream)
{
  g_clear_handle_id (&stream->source_id, g_source_remove);
  g_signal_handlers_disconnect_by_data (msg, stream);
  g_free (stream);
}

static void
endless_next (SoupServerMessage *msg,
              Stream            *stream)
{
  static char filler[8192];
  SoupMessageBody *body = soup_server_message_get_response_body (msg);

  if (filler[0] == '\0')
    {
      for (guint i = 0; i < sizeof filler; i++)
        filler[i] = "lorem ipsum <b>dolor</b> "[i % 25];
    }

  if (stream->sent >= stream->limit)
    {
      soup_message_body_complete (body);
      return;
    }
  soup_message_body_append (body, SOUP_MEMORY_STATIC, filler, sizeof filler);
  stream->sent += sizeof filler;
  fx.streamed_bytes = stream->sent;
  soup_server_message_unpause (msg);
}

static void
start_stream (SoupServerMessage *msg,
              const char        *head,
              gsize              limit,
              goffset            content_length)
{
  SoupMessageHeaders *headers = soup_server_message_get_response_headers (msg);
  Stream *stream = g_new0 (Stream, 1);

  stream->msg = msg;
  stream->limit = limit;
  /* The server forgets what it sent, so the memory measured below is the client's. */
  soup_message_body_set_accumulate (soup_server_message_get_response_body (msg), FALSE);
  soup_server_message_set_status (msg, 200, NULL);
  soup_message_headers_set_content_type (headers, "text/html", NULL);
  if (content_length > 0)
    soup_message_headers_set_content_length (headers, content_length);
  else
    soup_message_headers_set_encoding (headers, SOUP_ENCODING_CHUNKED);
  soup_message_body_append (soup_server_message_get_response_body (msg), SOUP_MEMORY_COPY,
                            head, strlen (head));
  g_signal_connect (msg, "wrote-chunk", G_CALLBACK (endless_next), stream);
  g_signal_connect (msg, "finished", G_CALLBACK (stream_finished), stream);
}

static gboolean
drip_next (gpointer user_data)
{
  Stream *stream = user_data;

  soup_message_body_append (soup_server_message_get_response_body (stream->msg),
                            SOUP_MEMORY_STATIC, "x", 1);
  soup_server_message_unpause (stream->msg);

  return G_SOURCE_CONTINUE;
}

static void
start_drip (SoupServerMessage *msg)
{
  SoupMessageHeaders *headers = soup_server_message_get_response_headers (msg);
  Stream *stream = g_new0 (Stream, 1);
  const char *head = "<html><head><title>Drip";

  stream->msg = msg;
  soup_server_message_set_status (msg, 200, NULL);
  soup_message_headers_set_content_type (headers, "text/html", NULL);
  soup_message_headers_set_encoding (headers, SOUP_ENCODING_CHUNKED);
  soup_message_body_append (soup_server_message_get_response_body (msg), SOUP_MEMORY_STATIC,
                            head, strlen (head));
  stream->source_id = g_timeout_add (1000, drip_next, stream);
  g_signal_connect (msg, "finished", G_CALLBACK (stream_finished), stream);
}

/* One page per way of labelling it: the declared type, X-Content-Type-Options, the body. */
typedef struct {
  const char *name;
  const char *type;      /* NULL: no Content-Type at all */
  const char *options;   /* X-Content-Type-Options, or NULL */
  const char *body;
} TypedPage;

#define TYPED_HTML "<!DOCTYPE html><html><head><title>Typed</title></head><body><p>Text</p></body></html>"
#define TYPED_XHTML "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" \
  "<!DOCTYPE html PUBLIC \"-//W3C//DTD XHTML 1.0 Strict//EN\" " \
  "\"http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd\">\n" \
  "<html xmlns=\"http://www.w3.org/1999/xhtml\" xml:lang=\"en\"><head>" \
  "<title>Typed</title><meta name=\"description\" content=\"An XHTML page\" /></head>" \
  "<body><p>Text</p></body></html>"

static const TypedPage typed_pages[] = {
  { "html-nosniff", "text/html", "nosniff", TYPED_HTML },
  { "xhtml", "application/xhtml+xml", NULL, TYPED_XHTML },
  { "xhtml-as-html", "text/html", NULL, TYPED_XHTML },
  { "none", NULL, NULL, TYPED_HTML },
  { "unknown", "unknown/unknown", NULL, TYPED_HTML },
  { "plain", "text/plain", NULL, TYPED_HTML },
  { "plain-charset", "text/plain; charset=ISO-8859-1", NULL, TYPED_HTML },
  { "octet-stream", "application/octet-stream", NULL, TYPED_HTML },
  { "octet-stream-nosniff", "application/octet-stream", "nosniff", TYPED_HTML },
  { "none-nosniff", NULL, "NoSniff", TYPED_HTML },
  { "unknown-nosniff", "unknown/unknown", "nosniff, sniff", TYPED_HTML },
  { "xml", "application/xml", NULL, TYPED_XHTML },
};

static void
respond_typed (SoupServerMessage *msg,
               const char        *name)
{
  SoupMessageHeaders *headers = soup_server_message_get_response_headers (msg);

  for (guint i = 0; i < G_N_ELEMENTS (typed_pages); i++)
    {
      const TypedPage *page = &typed_pages[i];

      if (!g_str_equal (page->name, name))
        continue;

      soup_server_message_set_status (msg, 200, NULL);
      if (page->type != NULL)
        soup_message_headers_replace (headers, "Content-Type", page->type);
      if (page->options != NULL)
        soup_message_headers_replace (headers, "X-Content-Type-Options", page->options);
      soup_message_body_append (soup_server_message_get_response_body (msg), SOUP_MEMORY_STATIC,
                                page->body, strlen (page->body));
      return;
    }

  nearby_test_respond (msg, 404, "text/plain", "not found", 9);
}

/* A page whose head arrives at once and whose body never ends, on a connection that stays
 * open: the client has what it needs after </head> and must hang up rather than wait. */
static void
held_finished (SoupServerMessage *msg,
               gpointer           user_data)
{
  g_hash_table_remove (fx.held_sockets, soup_server_message_get_socket (msg));
  g_ptr_array_remove (fx.held, msg);
}

static void
start_held (SoupServerMessage *msg,
            const char        *path)
{
  SoupMessageHeaders *headers = soup_server_message_get_response_headers (msg);
  g_autofree char *filler = g_strnfill (2 * NEARBY_TEXT_PRESCAN_BYTES, ' ');
  g_autofree char *head = g_strdup_printf ("<!DOCTYPE html><html><head><title>Held %s</title>"
                                           "<meta name=description content='Its head is all "
                                           "there is'><link rel=icon href='/icons/icon.png'>"
                                           "<script>%s</script></head><body>",
                                           path + strlen ("/held/"), filler);

  soup_server_message_set_status (msg, 200, NULL);
  soup_message_headers_set_content_type (headers, "text/html", NULL);
  /* A rest short enough to be read, were it coming, or a long one */
  soup_message_headers_set_content_length (headers, g_str_has_prefix (path, "/held/short-")
                                                    ? strlen (head) + 16 * 1024 : 1024 * 1024);
  soup_message_body_append (soup_server_message_get_response_body (msg), SOUP_MEMORY_COPY,
                            head, strlen (head));
  g_ptr_array_add (fx.held, msg);
  g_hash_table_add (fx.held_sockets, soup_server_message_get_socket (msg));
  g_signal_connect (msg, "finished", G_CALLBACK (held_finished), NULL);
}

/* A page that takes 20 ms to answer, as a real site does, whose icon is on the same host. */
static gboolean
paced_answer (gpointer user_data)
{
  SoupServerMessage *msg = user_data;
  const char *path = g_uri_get_path (soup_server_message_get_uri (msg));
  const char *n = path + strlen ("/paced/");
  g_autofree char *html = g_strdup_printf ("<html><head><title>Paced %s</title>"
                                           "<link rel=icon href='/icons/paced-%s.png'>"
                                           "</head><body><p>Text</p></body></html>", n, n);

  nearby_test_respond_html (msg, html);
  soup_server_message_unpause (msg);
  g_object_unref (msg);

  return G_SOURCE_REMOVE;
}

static char *
url_for (const char *path)
{
  return nearby_test_url (fx.public_port, path);
}

static void
server_callback (SoupServer        *server,
                 SoupServerMessage *msg,
                 const char        *path,
                 GHashTable        *query,
                 gpointer           user_data)
{
  SoupMessageHeaders *request = soup_server_message_get_request_headers (msg);
  guint count = GPOINTER_TO_UINT (g_hash_table_lookup (fx.hits, path));

  g_hash_table_replace (fx.hits, g_strdup (path), GUINT_TO_POINTER (count + 1));
  if (g_hash_table_contains (fx.held_sockets, soup_server_message_get_socket (msg)))
    fx.sent_behind_held++;
  g_ptr_array_add (fx.order, g_strdup (path));
  g_hash_table_replace (fx.client_ports, g_strdup (path),
                        GUINT_TO_POINTER (g_inet_socket_address_get_port (
                            G_INET_SOCKET_ADDRESS (soup_server_message_get_remote_address (msg)))));
  g_free (fx.last_user_agent);
  fx.last_user_agent = g_strdup (soup_message_headers_get_one (request, "User-Agent"));
  if (soup_message_headers_get_one (request, "Cookie") != NULL ||
      soup_message_headers_get_one (request, "Referer") != NULL ||
      soup_message_headers_get_one (request, "Accept-Language") != NULL ||
      soup_message_headers_get_one (request, "Authorization") != NULL)
    fx.saw_identifying_header = TRUE;

  if (g_str_equal (path, "/good") || g_str_equal (path, "/cached") || g_str_equal (path, "/slow"))
    {
      nearby_test_respond_html (msg,
        "<!DOCTYPE html><html><head><meta charset=utf-8>"
        "<title>Caf&eacute; &amp; Bar</title>"
        "<meta name=description content='Espresso &ndash; made at the counter'>"
        "<meta property=og:title content='OG title'>"
        "<link rel=icon href='icons/icon.png' sizes=96x96>"
        "<link rel=manifest href='/manifest.json'>"
        "<link rel=canonical href='https://cafe.example/'>"
        "</head><body><p>Hello</p></body></html>");
      soup_message_headers_replace (soup_server_message_get_response_headers (msg),
                                    "Cache-Control", "max-age=1");
      soup_message_headers_replace (soup_server_message_get_response_headers (msg),
                                    "Set-Cookie", "tracker=1");
    }
  else if (g_str_equal (path, "/manifest.json"))
    {
      const char *json = "{\"name\": \"Corner Café\", \"shortcuts\": ["
                         "{\"name\": \"Order\", \"url\": \"/order\"},"
                         "{\"name\": \"Menu\", \"url\": \"menu?x=1\"}]}";

      nearby_test_respond (msg, 200, "application/manifest+json", json, strlen (json));
    }
  else if (g_str_has_prefix (path, "/paced/"))
    {
      soup_server_message_pause (msg);
      g_timeout_add (20, paced_answer, g_object_ref (msg));
    }
  else if (g_str_has_prefix (path, "/rest/"))
    {
      /* A page whose head says all, with a rest of 48 KiB or 600 KiB after its first paragraph */
      const char *name = path + strlen ("/rest/");
      gsize rest = g_str_has_prefix (name, "short/") ? 48 * 1024 : 600 * 1024;
      g_autofree char *icon = g_strdelimit (g_strdup (name), "/", '-');
      g_autoptr(GString) html = g_string_new (NULL);

      g_string_append_printf (html, "<html><head><title>Rest %s</title>"
                              "<meta name=description content='A page and then some'>"
                              "<link rel=icon href='/icons/rest-%s.png'></head>"
                              "<body><p>Text</p>", name, icon);
      for (gsize i = 0; i < rest / 16; i++)
        g_string_append (html, "<p>Some text</p>");
      nearby_test_respond_html (msg, html->str);
    }
  else if (g_str_equal (path, "/icons/icon.png") || g_str_has_prefix (path, "/icons/paced-") ||
           g_str_has_prefix (path, "/icons/rest-"))
    nearby_test_respond (msg, 200, "image/png", g_bytes_get_data (fx.png_96, NULL), g_bytes_get_size (fx.png_96));
  else if (g_str_equal (path, "/icon.gif"))
    {
      g_autoptr(GBytes) gif = nearby_test_gif_1x1 ();

      nearby_test_respond (msg, 200, "image/gif", g_bytes_get_data (gif, NULL),
                           g_bytes_get_size (gif));
    }
  else if (g_str_equal (path, "/truncated.ico"))
    nearby_test_respond (msg, 200, "image/x-icon", g_bytes_get_data (fx.ico_32, NULL), g_bytes_get_size (fx.ico_32) / 2);
  else if (g_str_equal (path, "/icon.svg"))
    {
      const char *svg = "<svg xmlns='http://www.w3.org/2000/svg' width='10' height='10'/>";

      nearby_test_respond (msg, 200, "image/svg+xml", svg, strlen (svg));
    }
  else if (g_str_has_prefix (path, "/page-with/"))
    {
      g_autofree char *html = g_strdup_printf ("<html><head><title>Icon test</title>"
                                               "<meta name=description content=d>"
                                               "<link rel=icon href='/%s'></head></html>",
                                               path + strlen ("/page-with/"));

      nearby_test_respond_html (msg, html);
    }
  else if (g_str_equal (path, "/legacy"))
    {
      const char *html = "<html><head><title>Caf\xe9 \x93Zur Post\x94</title></head></html>";

      nearby_test_respond (msg, 200, "text/html", html, strlen (html));
    }
  else if (g_str_equal (path, "/latin1-header"))
    {
      const char *html = "<html><head><meta charset=utf-8><title>Gr\xfc\xdf""e</title></head></html>";

      nearby_test_respond (msg, 200, "text/html; charset=ISO-8859-1", html, strlen (html));
    }
  else if (g_str_equal (path, "/hostile-title"))
    {
      static const char html[] = "<html><head><title>Pay\xe2\x80\xae""gnp.exe\0 now\x01 \xff\xfe</title></head></html>";

      nearby_test_respond (msg, 200, "text/html; charset=utf-8", html, sizeof html - 1);
    }
  else if (g_str_equal (path, "/mb-title"))
    {
      g_autoptr(GString) html = g_string_new ("<html><head><title>");

      for (guint i = 0; i < 1024 * 1024 / 4; i++)
        g_string_append (html, "Tit ");
      g_string_append (html, "</title></head></html>");
      nearby_test_respond (msg, 200, "text/html", html->str, html->len);
    }
  else if (g_str_equal (path, "/endless"))
    start_stream (msg, "<html><head><title>Endless</title></head><body>", 64 * 1024 * 1024, 0);
  else if (g_str_equal (path, "/huge-length"))
    start_stream (msg, "<html><head><title>Huge</title><meta name=description content=big></head><body>",
                  64 * 1024 * 1024, G_GINT64_CONSTANT (10000000000));
  else if (g_str_equal (path, "/drip"))
    start_drip (msg);
  else if (g_str_has_prefix (path, "/held/"))
    start_held (msg, path);
  else if (g_str_equal (path, "/gzip-bomb"))
    {
      nearby_test_respond (msg, 200, "text/html", g_bytes_get_data (fx.gzip_bomb, NULL), g_bytes_get_size (fx.gzip_bomb));
      soup_message_headers_replace (soup_server_message_get_response_headers (msg),
                                    "Content-Encoding", "gzip");
    }
  else if (g_str_equal (path, "/loop"))
    nearby_test_redirect (msg, 302, "/loop");
  else if (g_str_has_prefix (path, "/chain/"))
    {
      guint64 n = g_ascii_strtoull (path + strlen ("/chain/"), NULL, 10);
      g_autofree char *next = n > 1 ? g_strdup_printf ("/chain/%u", (guint) n - 1) : g_strdup ("/good");

      nearby_test_redirect (msg, n % 2 ? 301 : 307, next);
    }
  else if (g_str_equal (path, "/closing"))
    {
      /* A connection not kept: the next request to this site is a new one, which is when
       * libsoup applies the proxy settings of the moment. */
      nearby_test_respond_html (msg, "<title>Straight to the site</title>");
      soup_message_headers_replace (soup_server_message_get_response_headers (msg),
                                    "Connection", "close");
    }
  else if (g_str_equal (path, "/to-file"))
    nearby_test_redirect (msg, 302, "file:///etc/passwd");
  else if (g_str_equal (path, "/to-data"))
    nearby_test_redirect (msg, 302, "data:text/html,<title>x</title>");
  else if (g_str_equal (path, "/to-javascript"))
    nearby_test_redirect (msg, 302, "javascript:alert(1)");
  else if (g_str_equal (path, "/to-nowhere"))
    soup_server_message_set_status (msg, 302, NULL);
  else if (g_str_equal (path, "/to-loopback"))
    {
      g_autofree char *target = nearby_test_url (fx.loopback_port, "/secret");

      nearby_test_redirect (msg, 302, target);
    }
  else if (g_str_equal (path, "/to-rebind"))
    {
      g_autofree char *target = g_strdup_printf ("http://rebind.test:%u/secret", fx.loopback_port);

      nearby_test_redirect (msg, 302, target);
    }
  else if (g_str_equal (path, "/json"))
    nearby_test_respond (msg, 200, "application/json", "{\"title\": \"x\"}", 14);
  else if (g_str_equal (path, "/png-as-page"))
    nearby_test_respond (msg, 200, "image/png", g_bytes_get_data (fx.png_96, NULL), g_bytes_get_size (fx.png_96));
  else if (g_str_equal (path, "/png-labelled-html"))
    nearby_test_respond (msg, 200, "text/html", g_bytes_get_data (fx.png_96, NULL), g_bytes_get_size (fx.png_96));
  else if (g_str_equal (path, "/html-labelled-text"))
    nearby_test_respond (msg, 200, "text/plain", "<!DOCTYPE html><title>Sniffed</title>", 37);
  else if (g_str_has_prefix (path, "/icon-elsewhere/"))
    {
      g_autofree char *html = g_strdup_printf ("<html><head><title>Icon elsewhere</title>"
                                               "<meta name=description content=d>"
                                               "<link rel=icon href='http://slow-dns.test:%u"
                                               "/icons/icon.png'><link rel=manifest "
                                               "href='http://slow-dns.test:%u/manifest.json'>"
                                               "</head></html>",
                                               fx.public_port, fx.public_port);

      nearby_test_respond_html (msg, html);
    }
  else if (g_str_has_prefix (path, "/typed/"))
    respond_typed (msg, path + strlen ("/typed/"));
  else if (g_str_equal (path, "/no-content"))
    soup_server_message_set_status (msg, 204, NULL);
  else if (g_str_equal (path, "/broken"))
    nearby_test_respond (msg, 500, "text/html", "<title>oops</title>", 19);
  else if (g_str_equal (path, "/no-title"))
    nearby_test_respond_html (msg, "<html><body>Just text</body></html>");
  else
    nearby_test_respond (msg, 404, "text/plain", "not found", 9);
}

/* A DNS answer that changes its mind: a public-looking name that points at loopback. */

typedef GResolver RebindResolver;
typedef GResolverClass RebindResolverClass;
static GType rebind_resolver_get_type (void);
G_DEFINE_TYPE (RebindResolver, rebind_resolver, G_TYPE_RESOLVER)

static GList *
rebind_lookup (const char  *hostname,
               GError     **error)
{
  if (g_str_equal (hostname, "rebind.test"))
    return g_list_append (NULL, g_inet_address_new_from_string ("127.0.0.1"));

  g_set_error (error, G_RESOLVER_ERROR, G_RESOLVER_ERROR_NOT_FOUND, "No such host %s", hostname);
  return NULL;
}

static GList *
rebind_lookup_by_name (GResolver     *resolver,
                       const char    *hostname,
                       GCancellable  *cancellable,
                       GError       **error)
{
  return rebind_lookup (hostname, error);
}

static void
rebind_lookup_by_name_async (GResolver           *resolver,
                             const char          *hostname,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (resolver, cancellable, callback, user_data);
  GError *error = NULL;
  GList *addresses = NULL;

  /* A name whose DNS server does not answer: glibc gives up after its 5 s timeout, here when
   * the test says so. */
  if (g_str_equal (hostname, "slow-dns.test"))
    {
      g_ptr_array_add (fx.held_lookups, g_steal_pointer (&task));
      fx.slow_lookups++;
      return;
    }

  addresses = rebind_lookup (hostname, &error);

  if (addresses != NULL)
    g_task_return_pointer (task, addresses, (GDestroyNotify) g_resolver_free_addresses);
  else
    g_task_return_error (task, error);
}

static void
rebind_lookup_by_name_with_flags_async (GResolver                *resolver,
                                        const char               *hostname,
                                        GResolverNameLookupFlags  flags,
                                        GCancellable             *cancellable,
                                        GAsyncReadyCallback       callback,
                                        gpointer                  user_data)
{
  rebind_lookup_by_name_async (resolver, hostname, cancellable, callback, user_data);
}

static GList *
rebind_lookup_by_name_finish (GResolver     *resolver,
                              GAsyncResult  *result,
                              GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
rebind_resolver_class_init (RebindResolverClass *klass)
{
  klass->lookup_by_name = rebind_lookup_by_name;
  klass->lookup_by_name_async = rebind_lookup_by_name_async;
  klass->lookup_by_name_finish = rebind_lookup_by_name_finish;
  klass->lookup_by_name_with_flags_async = rebind_lookup_by_name_with_flags_async;
  klass->lookup_by_name_with_flags_finish = rebind_lookup_by_name_finish;
}

static void
rebind_resolver_init (RebindResolver *self)
{
}

/* A proxy resolver that answers at once, but holds every question about slow-dns.test, as a
 * PAC file that takes its time would. */

typedef GObject HeldProxyResolver;
typedef GObjectClass HeldProxyResolverClass;
static GType held_proxy_resolver_get_type (void);
static void held_proxy_resolver_iface_init (GProxyResolverInterface *iface);
G_DEFINE_TYPE_WITH_CODE (HeldProxyResolver, held_proxy_resolver, G_TYPE_OBJECT,
                         G_IMPLEMENT_INTERFACE (G_TYPE_PROXY_RESOLVER,
                                                held_proxy_resolver_iface_init))

static gboolean
held_proxy_is_supported (GProxyResolver *resolver)
{
  return TRUE;
}

static char **
held_proxy_lookup (GProxyResolver  *resolver,
                   const char      *uri,
                   GCancellable    *cancellable,
                   GError         **error)
{
  return g_strsplit ("direct://", " ", -1);
}

static void
held_proxy_lookup_async (GProxyResolver      *resolver,
                         const char          *uri,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (resolver, cancellable, callback, user_data);

  if (strstr (uri, "//slow-dns.test") != NULL)
    {
      g_ptr_array_add (fx.held_proxy_questions, g_steal_pointer (&task));
      return;
    }
  g_task_return_pointer (task, held_proxy_lookup (resolver, uri, cancellable, NULL),
                         (GDestroyNotify) g_strfreev);
}

static char **
held_proxy_lookup_finish (GProxyResolver  *resolver,
                          GAsyncResult    *result,
                          GError         **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
held_proxy_resolver_iface_init (GProxyResolverInterface *iface)
{
  iface->is_supported = held_proxy_is_supported;
  iface->lookup = held_proxy_lookup;
  iface->lookup_async = held_proxy_lookup_async;
  iface->lookup_finish = held_proxy_lookup_finish;
}

static void
held_proxy_resolver_class_init (HeldProxyResolverClass *klass)
{
}

static void
held_proxy_resolver_init (HeldProxyResolver *self)
{
}

/* Client helpers */

static NearbyAddressClass
test_classifier (GInetSocketAddress *address,
                 gpointer            user_data)
{
  if (g_inet_socket_address_get_port (address) == fx.public_port)
    return NEARBY_ADDRESS_PUBLIC;

  return nearby_url_policy_classify_address (g_inet_socket_address_get_address (address));
}

static NearbyResolver *
make_resolver (guint max_in_flight)
{
  NearbyResolver *resolver = g_object_new (NEARBY_TYPE_RESOLVER,
                                           "deadline", TEST_DEADLINE_MS,
                                           "max-in-flight", max_in_flight,
                                           NULL);

  nearby_resolver_set_address_classifier (resolver, test_classifier, NULL);

  return resolver;
}

static void
on_resolved (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

static NearbyPage *
resolve (NearbyResolver     *resolver,
         const char         *path_or_url,
         NearbyUrlPolicy     policy,
         NearbyResolveFlags  flags)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *url = path_or_url[0] == '/' ? url_for (path_or_url) : g_strdup (path_or_url);
  NearbyPage *page;

  nearby_resolver_resolve_async (resolver, url, policy, flags, 0, NULL, on_resolved, &result);
  WAIT_UNTIL (result != NULL);
  page = nearby_resolver_resolve_finish (resolver, result, &error);
  g_assert_no_error (error);
  g_assert_nonnull (page);

  return page;
}

static NearbyPage *
resolve_explicit (const char *path)
{
  g_autoptr(NearbyResolver) resolver = make_resolver (4);

  return resolve (resolver, path, NEARBY_URL_POLICY_EXPLICIT, NEARBY_RESOLVE_FLAGS_REFRESH);
}

static guint
hits (const char *path)
{
  return GPOINTER_TO_UINT (g_hash_table_lookup (fx.hits, path));
}

static void
assert_error (NearbyPage         *page,
              NearbyResolveError  code)
{
  g_assert_nonnull (page->error);
  g_test_message ("%s: %s", page->url, page->error->message);
  g_assert_error (page->error, NEARBY_RESOLVE_ERROR, (int) code);
}

/* Tests */

static void
test_good_page (void)
{
  g_autoptr(NearbyPage) page = resolve_explicit ("/good");
  g_autofree char *final = url_for ("/good");
  g_autofree char *icon = url_for ("/icons/icon.png");
  g_autofree char *order = url_for ("/order");
  g_autoptr(GdkPixbufLoader) loader = gdk_pixbuf_loader_new ();
  NearbyPageAction *action;

  g_assert_no_error (page->error);
  g_assert_cmpstr (page->title, ==, "Café & Bar");
  g_assert_cmpstr (page->description, ==, "Espresso – made at the counter");
  g_assert_cmpstr (page->final_url, ==, final);
  g_assert_cmpuint (page->status, ==, 200);
  g_assert_cmpuint (page->redirects->len, ==, 0);
  g_assert_cmpstr (page->canonical_url, ==, "https://cafe.example/");
  g_assert_cmpstr (page->manifest_name, ==, "Corner Café");
  g_assert_cmpuint (page->actions->len, ==, 2);
  action = g_ptr_array_index (page->actions, 0);
  g_assert_cmpstr (action->title, ==, "Order");
  g_assert_cmpstr (action->url, ==, order);

  /* The 96 px icon arrives as a 64 px PNG */
  g_assert_cmpstr (page->icon_url, ==, icon);
  g_assert_cmpstr (page->icon_type, ==, "image/png");
  g_assert_cmpint (page->icon_width, ==, 96);
  g_assert_nonnull (page->icon);
  g_assert_true (gdk_pixbuf_loader_write_bytes (loader, page->icon, NULL));
  g_assert_true (gdk_pixbuf_loader_close (loader, NULL));
  g_assert_cmpint (gdk_pixbuf_get_width (gdk_pixbuf_loader_get_pixbuf (loader)), ==, NEARBY_ICON_TARGET_SIZE);

  /* Nothing that identifies the user was sent */
  g_assert_cmpstr (fx.last_user_agent, ==, "Nearby/" PACKAGE_VERSION);
  g_assert_false (fx.saw_identifying_header);
  g_assert_cmpint (page->total_us, >=, page->headers_us);
}

static void
test_bad_icons (void)
{
  /* test-icon has every way an image is refused; here, one of each kind: the decoder's, the
   * type check's, and not an image at all. */
  const char *paths[] = { "/page-with/truncated.ico", "/page-with/icon.svg", "/page-with/good" };

  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    {
      g_autoptr(NearbyPage) page = resolve_explicit (paths[i]);

      /* The page itself is fine; no icon, and the fallback /favicon.ico (404) was tried */
      g_test_message ("%s", paths[i]);
      g_assert_no_error (page->error);
      g_assert_cmpstr (page->title, ==, "Icon test");
      g_assert_null (page->icon);
      g_assert_null (page->icon_type);
    }
  g_assert_cmpuint (hits ("/favicon.ico"), >=, G_N_ELEMENTS (paths));
}

static void
test_charsets (void)
{
  g_autoptr(NearbyPage) legacy = resolve_explicit ("/legacy");
  g_autoptr(NearbyPage) header = resolve_explicit ("/latin1-header");

  g_assert_cmpstr (legacy->title, ==, "Café “Zur Post”");
  g_assert_cmpstr (header->title, ==, "Grüße");
}

static void
test_hostile_text (void)
{
  g_autoptr(NearbyPage) hostile = resolve_explicit ("/hostile-title");
  g_autoptr(NearbyPage) big = resolve_explicit ("/mb-title");
  g_autoptr(NearbyPage) untitled = resolve_explicit ("/no-title");

  g_assert_cmpstr (hostile->title, ==, "Paygnp.exe now \xef\xbf\xbd\xef\xbf\xbd");
  g_assert_cmpuint (g_utf8_strlen (big->title, -1), ==, NEARBY_PAGE_META_MAX_TITLE);
  /* No title: the host and path stand in, as in a browser's tab */
  g_assert_cmpstr (untitled->title, ==, "127.0.0.1/no-title");
  g_assert_cmpstr (untitled->description, ==, "Just text");
}

static void
test_endless_bodies (void)
{
  g_autoptr(NearbyPage) endless = NULL;
  g_autoptr(NearbyPage) huge = NULL;
  g_autoptr(NearbyPage) bomb = NULL;
  struct rusage usage;
  long peak_before;

  getrusage (RUSAGE_SELF, &usage);
  peak_before = usage.ru_maxrss;

  endless = resolve_explicit ("/endless");
  g_assert_no_error (endless->error);
  g_assert_cmpstr (endless->title, ==, "Endless");
  /* The client stopped reading: the server got nowhere near its 64 MB */
  g_assert_cmpuint (fx.streamed_bytes, <, 16 * 1024 * 1024);

  huge = resolve_explicit ("/huge-length");
  g_assert_no_error (huge->error);
  g_assert_cmpstr (huge->title, ==, "Huge");
  g_assert_cmpstr (huge->description, ==, "big");

  bomb = resolve_explicit ("/gzip-bomb");
  g_assert_no_error (bomb->error);
  g_assert_cmpstr (bomb->title, ==, "Bomb");

  /* Had the bomb been read into memory, the peak would have grown by 128 MB. */
  getrusage (RUSAGE_SELF, &usage);
  g_test_message ("peak RSS %ld KiB, %ld KiB more than before", usage.ru_maxrss,
                  usage.ru_maxrss - peak_before);
  g_assert_cmpint (usage.ru_maxrss - peak_before, <, 64 * 1024);
}

static void
test_drip (void)
{
  g_autoptr(NearbyResolver) resolver = make_resolver (4);
  g_autoptr(NearbyPage) page = NULL;

  nearby_resolver_set_deadline (resolver, DRIP_DEADLINE_MS);
  page = resolve (resolver, "/drip", NEARBY_URL_POLICY_EXPLICIT, NEARBY_RESOLVE_FLAGS_REFRESH);
  assert_error (page, NEARBY_RESOLVE_ERROR_TIMEOUT);
  g_assert_null (page->title);
}

/* Looks up @n pages at once, as the app does for the objects in sight, and waits for all: the
 * path of page i is @prefix, then @word in every @every-th page, then i. */
static void
resolve_at_once (NearbyResolver  *resolver,
                 const char      *prefix,
                 const char      *word,
                 guint            every,
                 GAsyncResult   **results,
                 guint            n)
{
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *path = g_strdup_printf ("%s%s%u", prefix, i % every ? "" : word, i);
      g_autofree char *url = url_for (path);

      nearby_resolver_resolve_async (resolver, url, NEARBY_URL_POLICY_EXPLICIT,
                                     NEARBY_RESOLVE_FLAGS_REFRESH, 0, NULL, on_resolved,
                                     &results[i]);
    }
  for (guint i = 0; i < n; i++)
    WAIT_UNTIL (results[i] != NULL);
}

/* Nearby stops reading a page after its head. With the app's 4 look-ups and libsoup's 2
 * connections per host, a connection left waiting for (or draining) the rest of a body would
 * hold every other look-up to that host back until the deadline: here the rest never comes, so
 * the pages would fail with a timeout instead of showing their titles. A third of the pages
 * have a rest short enough to be read after the head, had it come. */
static void
test_abandoned_bodies (void)
{
  g_autoptr(NearbyResolver) resolver = make_resolver (4);
  GAsyncResult *results[12] = { NULL };

  fx.sent_behind_held = 0;
  resolve_at_once (resolver, "/held/", "short-", 3, results, G_N_ELEMENTS (results));

  for (guint i = 0; i < G_N_ELEMENTS (results); i++)
    {
      g_autoptr(NearbyPage) page = nearby_resolver_resolve_finish (resolver, results[i], NULL);
      g_autofree char *title = g_strdup_printf ("Held %s%u", i % 3 ? "" : "short-", i);

      g_assert_no_error (page->error);
      g_assert_cmpstr (page->title, ==, title);
      g_assert_nonnull (page->icon);
      g_object_unref (results[i]);
    }

  /* Nothing was sent on a connection whose body was still coming, and the client closed each
   * of them: the server reads the end of the stream. */
  g_assert_cmpuint (fx.sent_behind_held, ==, 0);
  g_assert_cmpuint (fx.held->len, ==, G_N_ELEMENTS (results));
  for (guint i = 0; i < fx.held->len; i++)
    {
      GSocket *socket = soup_server_message_get_socket (g_ptr_array_index (fx.held, i));
      char byte;

      WAIT_UNTIL (g_socket_condition_check (socket, G_IO_IN | G_IO_HUP | G_IO_ERR) != 0);
      g_assert_cmpint (g_socket_receive_with_blocking (socket, &byte, 1, FALSE, NULL, NULL), <=, 0);
    }

  /* Let the server give up on them. */
  while (fx.held->len > 0)
    {
      SoupServerMessage *msg = g_ptr_array_index (fx.held, fx.held->len - 1);

      soup_message_body_complete (soup_server_message_get_response_body (msg));
      soup_server_message_unpause (msg);
      WAIT_UNTIL (fx.held->len == 0 || g_ptr_array_index (fx.held, fx.held->len - 1) != msg);
    }
}

/* The rest of a page after its head is read when it is short, so that its connection is kept
 * alive for the next request: twelve objects of one site, looked up at once, take the resolver's
 * two connections to that site, where a connection closed after each head took thirteen. A long
 * rest is not read, and its connection is closed. */
static void
test_rest_of_body (void)
{
  const char *sizes[] = { "short", "long" };

  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      g_autoptr(NearbyResolver) resolver = make_resolver (4);
      g_autoptr(GHashTable) ports = g_hash_table_new (NULL, NULL);
      GAsyncResult *results[12] = { NULL };
      g_autofree char *prefix = g_strdup_printf ("/rest/%s/", sizes[i]);

      resolve_at_once (resolver, prefix, "", 1, results, G_N_ELEMENTS (results));

      for (guint j = 0; j < G_N_ELEMENTS (results); j++)
        {
          g_autoptr(NearbyPage) page = nearby_resolver_resolve_finish (resolver, results[j], NULL);
          g_autofree char *title = g_strdup_printf ("Rest %s/%u", sizes[i], j);
          g_autofree char *path = g_strdup_printf ("/rest/%s/%u", sizes[i], j);
          g_autofree char *icon_path = g_strdup_printf ("/icons/rest-%s-%u.png", sizes[i], j);

          g_assert_no_error (page->error);
          g_assert_cmpstr (page->title, ==, title);
          g_assert_nonnull (page->icon);
          g_hash_table_add (ports, g_hash_table_lookup (fx.client_ports, path));
          g_hash_table_add (ports, g_hash_table_lookup (fx.client_ports, icon_path));
          g_object_unref (results[j]);
        }

      g_test_message ("%s rests: %u connections", sizes[i], g_hash_table_size (ports));
      g_assert_false (g_hash_table_contains (ports, NULL));
      /* Room for a rest that a loaded machine took longer than the drain's deadline to read */
      if (i == 0)
        g_assert_cmpuint (g_hash_table_size (ports), <=, 4);
      else
        g_assert_cmpuint (g_hash_table_size (ports), >=, G_N_ELEMENTS (results) + 1);
    }
}

/* A server of HTTP/1.0's kind, as python3 -m http.server and small embedded servers are: one
 * request a connection, closed after the response. For each page it tells how the client left:
 * after reading the response to its end (the server reads the end of the stream) or with bytes
 * unread (the client's kernel answers with a reset, which such servers log as an error). */
typedef struct {
  GSocket    *listener;
  GThread    *thread;
  guint       port;
  gboolean    stopping;
  GMutex      lock;
  GHashTable *endings;   /* path -> "read" or "reset" */
} ClosingServer;

static char *
closing_server_read_path (GSocket *connection)
{
  char request[8192];
  gsize len = 0;
  g_auto(GStrv) words = NULL;

  while (len < sizeof request - 1)
    {
      gssize got = g_socket_receive (connection, request + len, sizeof request - 1 - len, NULL, NULL);

      if (got <= 0)
        return NULL;
      len += got;
      request[len] = '\0';
      if (strstr (request, "\r\n\r\n") != NULL)
        break;
    }
  words = g_strsplit (request, " ", 3);

  return g_strv_length (words) == 3 ? g_strdup (words[1]) : NULL;
}

static void
closing_server_answer (ClosingServer *server,
                       GSocket       *connection)
{
  g_autofree char *path = closing_server_read_path (connection);
  g_autoptr(GString) response = g_string_new (NULL);
  g_autoptr(GString) html = g_string_new (NULL);
  const char *ending = "read";
  gsize sent = 0;
  char byte;

  if (path == NULL)
    return;

  if (g_str_has_prefix (path, "/closing/"))
    {
      const char *name = path + strlen ("/closing/");
      gsize rest = g_str_has_prefix (name, "short/") ? 48 * 1024 : 600 * 1024;

      g_string_append_printf (html, "<html><head><title>Closing %s</title>"
                              "<meta name=description content='One request, one connection'>"
                              "</head><body><p>Text</p>", name);
      for (gsize i = 0; i < rest / 16; i++)
        g_string_append (html, "<p>Some text</p>");
      g_string_append_printf (response, "HTTP/1.0 200 OK\r\nContent-Type: text/html\r\n"
                              "Content-Length: %" G_GSIZE_FORMAT "\r\n\r\n%s", html->len, html->str);
    }
  else
    {
      g_string_append (response, "HTTP/1.0 404 Not Found\r\nContent-Length: 0\r\n\r\n");
    }

  while (sent < response->len)
    {
      gssize n = g_socket_send (connection, response->str + sent, response->len - sent, NULL, NULL);

      if (n <= 0)
        {
          ending = "reset";
          break;
        }
      sent += n;
    }
  /* The response is whole: what the client does with the connection now shows whether it read
   * all of it. */
  g_socket_shutdown (connection, FALSE, TRUE, NULL);
  if (g_socket_receive (connection, &byte, 1, NULL, NULL) != 0)
    ending = "reset";

  g_mutex_lock (&server->lock);
  g_hash_table_replace (server->endings, g_steal_pointer (&path), (gpointer) ending);
  g_mutex_unlock (&server->lock);
}

static const char *
closing_server_ending (ClosingServer *server,
                       const char    *path)
{
  g_autoptr(GMutexLocker) locker = g_mutex_locker_new (&server->lock);

  return g_hash_table_lookup (server->endings, path);
}

static gpointer
closing_server_run (gpointer user_data)
{
  ClosingServer *server = user_data;

  while (TRUE)
    {
      g_autoptr(GSocket) connection = g_socket_accept (server->listener, NULL, NULL);

      if (g_atomic_int_get (&server->stopping))
        break;
      if (connection == NULL)
        continue;
      /* A client that neither reads nor closes does not hold the test forever. */
      g_socket_set_timeout (connection, 10);
      closing_server_answer (server, connection);
    }

  return NULL;
}

static void
closing_server_start (ClosingServer *server)
{
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) any_port = g_inet_socket_address_new (loopback, 0);
  g_autoptr(GSocketAddress) bound = NULL;
  g_autoptr(GError) error = NULL;

  server->listener = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM,
                                   G_SOCKET_PROTOCOL_TCP, &error);
  g_assert_no_error (error);
  g_socket_bind (server->listener, any_port, TRUE, &error);
  g_assert_no_error (error);
  g_socket_listen (server->listener, &error);
  g_assert_no_error (error);
  bound = g_socket_get_local_address (server->listener, &error);
  g_assert_no_error (error);
  server->port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));
  g_mutex_init (&server->lock);
  server->endings = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  server->thread = g_thread_new ("closing-server", closing_server_run, server);
}

static void
closing_server_stop (ClosingServer *server)
{
  g_autoptr(GSocketClient) client = g_socket_client_new ();
  g_autoptr(GSocketConnection) wake = NULL;

  g_atomic_int_set (&server->stopping, TRUE);
  wake = g_socket_client_connect_to_host (client, "127.0.0.1", server->port, NULL, NULL);
  g_thread_join (server->thread);
  g_clear_object (&server->listener);
  g_hash_table_unref (server->endings);
  g_mutex_clear (&server->lock);
}

static NearbyAddressClass
closing_server_classifier (GInetSocketAddress *address,
                           gpointer            user_data)
{
  ClosingServer *server = user_data;

  if (g_inet_socket_address_get_port (address) == server->port)
    return NEARBY_ADDRESS_PUBLIC;

  return nearby_url_policy_classify_address (g_inet_socket_address_get_address (address));
}

/* A server that closes the connection after each response sees a page with a short rest read to
 * its end, as curl or a browser would read it, rather than a reset in its log for every look-up;
 * a long rest is still cut off. */
static void
test_rest_of_body_closed (void)
{
  const char *names[] = { "short/0", "short/1", "short/2", "short/3", "short/4", "short/5",
                          "long/0", "long/1", "long/2" };
  g_autoptr(NearbyResolver) resolver = make_resolver (4);
  GAsyncResult *results[G_N_ELEMENTS (names)] = { NULL };
  ClosingServer server = { NULL };
  guint short_read = 0;

  closing_server_start (&server);
  nearby_resolver_set_address_classifier (resolver, closing_server_classifier, &server);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = g_strconcat ("/closing/", names[i], NULL);
      g_autofree char *url = nearby_test_url (server.port, path);

      nearby_resolver_resolve_async (resolver, url, NEARBY_URL_POLICY_EXPLICIT,
                                     NEARBY_RESOLVE_FLAGS_REFRESH, 0, NULL, on_resolved,
                                     &results[i]);
    }
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    WAIT_UNTIL (results[i] != NULL);

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autoptr(NearbyPage) page = nearby_resolver_resolve_finish (resolver, results[i], NULL);
      g_autofree char *title = g_strconcat ("Closing ", names[i], NULL);
      g_autofree char *path = g_strconcat ("/closing/", names[i], NULL);
      const char *ending;

      g_assert_no_error (page->error);
      g_assert_cmpstr (page->title, ==, title);
      g_object_unref (results[i]);

      /* The server records the ending once the client has closed the connection. */
      WAIT_UNTIL ((ending = closing_server_ending (&server, path)) != NULL);
      g_test_message ("%s: %s", path, ending);
      if (g_str_has_prefix (names[i], "short/"))
        short_read += g_str_equal (ending, "read");
      else
        g_assert_cmpstr (ending, ==, "reset");
    }

  /* Room for a rest that a loaded machine took longer than the drain's deadline to read */
  g_assert_cmpuint (short_read, >=, 5);

  closing_server_stop (&server);
}

static void
test_redirects (void)
{
  g_autoptr(NearbyPage) chain = resolve_explicit ("/chain/5");
  g_autoptr(NearbyPage) too_long = resolve_explicit ("/chain/6");
  g_autoptr(NearbyPage) loop = resolve_explicit ("/loop");
  g_autofree char *first = url_for ("/chain/5");
  NearbyRedirect *hop;

  g_assert_no_error (chain->error);
  g_assert_cmpstr (chain->title, ==, "Café & Bar");
  g_assert_cmpuint (chain->redirects->len, ==, 5);
  hop = g_ptr_array_index (chain->redirects, 0);
  g_assert_cmpstr (hop->url, ==, first);
  g_assert_cmpuint (hop->status, ==, 301);
  hop = g_ptr_array_index (chain->redirects, 1);
  g_assert_cmpuint (hop->status, ==, 307);

  assert_error (too_long, NEARBY_RESOLVE_ERROR_TOO_MANY_REDIRECTS);
  assert_error (loop, NEARBY_RESOLVE_ERROR_TOO_MANY_REDIRECTS);
  g_assert_cmpuint (loop->redirects->len, <=, NEARBY_RESOLVER_MAX_REDIRECTS + 1);
}

static void
test_bad_redirects (void)
{
  const char *paths[] = { "/to-file", "/to-data", "/to-javascript", "/to-nowhere" };

  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    {
      g_autoptr(NearbyPage) page = resolve_explicit (paths[i]);

      assert_error (page, NEARBY_RESOLVE_ERROR_BAD_REDIRECT);
      g_assert_null (page->title);
    }
}

static void
test_loopback_refused (void)
{
  g_autoptr(NearbyResolver) resolver = make_resolver (4);
  g_autoptr(NearbyPage) literal = NULL;
  g_autoptr(NearbyPage) rebind = NULL;
  g_autoptr(NearbyPage) allowed = NULL;
  g_autoptr(GResolver) fake_dns = g_object_new (rebind_resolver_get_type (), NULL);
  g_autoptr(GResolver) real_dns = g_resolver_get_default ();

  /* The literal address is refused before connecting */
  literal = resolve (resolver, "/to-loopback", NEARBY_URL_POLICY_ALLOW_HTTP, NEARBY_RESOLVE_FLAGS_REFRESH);
  assert_error (literal, NEARBY_RESOLVE_ERROR_NEEDS_CONFIRMATION);

  /* A name that looks public but resolves to loopback is refused once connected */
  g_resolver_set_default (fake_dns);
  rebind = resolve (resolver, "/to-rebind", NEARBY_URL_POLICY_ALLOW_HTTP, NEARBY_RESOLVE_FLAGS_REFRESH);
  g_resolver_set_default (real_dns);
  assert_error (rebind, NEARBY_RESOLVE_ERROR_NEEDS_CONFIRMATION);
  g_assert_cmpuint (rebind->redirects->len, ==, 1);

  g_assert_cmpuint (hits ("/secret"), ==, 0);

  /* A connection opened by an explicit look-up is not reused to slip past the policy */
  {
    g_autofree char *explicit_url = g_strdup_printf ("http://rebind.test:%u/good", fx.loopback_port);
    g_autofree char *secret_url = g_strdup_printf ("http://rebind.test:%u/secret", fx.loopback_port);
    g_autoptr(NearbyPage) opened = NULL;
    g_autoptr(NearbyPage) reused = NULL;

    g_resolver_set_default (fake_dns);
    opened = resolve (resolver, explicit_url, NEARBY_URL_POLICY_EXPLICIT, NEARBY_RESOLVE_FLAGS_REFRESH);
    g_assert_no_error (opened->error);
    reused = resolve (resolver, secret_url, NEARBY_URL_POLICY_ALLOW_HTTP, NEARBY_RESOLVE_FLAGS_REFRESH);
    g_resolver_set_default (real_dns);
    assert_error (reused, NEARBY_RESOLVE_ERROR_NEEDS_CONFIRMATION);
    g_assert_cmpuint (hits ("/secret"), ==, 0);
  }

  /* Automatic look-ups of plain http need confirmation at all */
  allowed = resolve (resolver, "/good", NEARBY_URL_POLICY_AUTOMATIC, NEARBY_RESOLVE_FLAGS_REFRESH);
  assert_error (allowed, NEARBY_RESOLVE_ERROR_NEEDS_CONFIRMATION);
}

/* A page whose manifest and icon live on a host whose name does not resolve (issue 14: saved
 * copies of real pages link them on the sites' own hosts, and the sandbox's DNS dropped some
 * of the queries, so glibc waited its 5 s timeout). That look-up waits for the name; the next
 * objects' pages must not wait behind it. */
static void
test_slow_icon_host (void)
{
  g_autoptr(NearbyResolver) resolver = make_resolver (1);
  g_autoptr(GResolver) fake_dns = g_object_new (rebind_resolver_get_type (), NULL);
  g_autoptr(GResolver) real_dns = g_resolver_get_default ();
  const char *paths[] = { "/icon-elsewhere/1", "/good", "/page-with/icon.gif" };
  GAsyncResult *results[G_N_ELEMENTS (paths)] = { NULL };
  guint lookups;

  g_resolver_set_default (fake_dns);
  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    {
      g_autofree char *url = url_for (paths[i]);

      nearby_resolver_resolve_async (resolver, url, NEARBY_URL_POLICY_EXPLICIT,
                                     NEARBY_RESOLVE_FLAGS_REFRESH, (int) i, NULL, on_resolved,
                                     &results[i]);
    }

  /* The other pages come back whole while the icon's host name is still unanswered. */
  WAIT_UNTIL (results[1] != NULL && results[2] != NULL);
  /* (GLib asks for the IPv4 and the IPv6 addresses separately) */
  g_assert_cmpuint (fx.held_lookups->len, >=, 1);
  g_assert_null (results[0]);
  for (guint i = 1; i < G_N_ELEMENTS (paths); i++)
    {
      g_autoptr(NearbyPage) page = nearby_resolver_resolve_finish (resolver, results[i], NULL);

      g_assert_no_error (page->error);
      g_assert_nonnull (page->icon);
    }

  /* The name fails to resolve, for the manifest: the page keeps its title, without an icon
   * from that host, whose icon is not asked for again: one DNS timeout per host, not one per
   * manifest and icon. */
  lookups = fx.slow_lookups;
  while (fx.held_lookups->len > 0)
    {
      GTask *task = g_ptr_array_steal_index (fx.held_lookups, 0);

      g_task_return_new_error (task, G_RESOLVER_ERROR, G_RESOLVER_ERROR_TEMPORARY_FAILURE,
                               "Temporary failure in name resolution");
      g_object_unref (task);
    }
  WAIT_UNTIL (results[0] != NULL);
  g_resolver_set_default (real_dns);
  {
    g_autoptr(NearbyPage) page = nearby_resolver_resolve_finish (resolver, results[0], NULL);

    g_assert_no_error (page->error);
    g_assert_cmpstr (page->title, ==, "Icon elsewhere");
    g_assert_null (page->icon);
  }
  g_assert_cmpuint (fx.slow_lookups, ==, lookups);

  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    g_object_unref (results[i]);
  g_assert_cmpuint (nearby_resolver_get_in_flight (resolver), ==, 0);
}

/* A manifest's or icon's host whose proxy question takes its time (a PAC file) holds back no
 * other page; the page keeps its title. */
static void
test_slow_proxy_answer (void)
{
  g_autoptr(GProxyResolver) proxy = g_object_new (held_proxy_resolver_get_type (), NULL);
  g_autoptr(NearbyResolver) resolver = NULL;
  const char *paths[] = { "/icon-elsewhere/2", "/good", "/page-with/icon.gif" };
  GAsyncResult *results[G_N_ELEMENTS (paths)] = { NULL };

  resolver = g_object_new (NEARBY_TYPE_RESOLVER,
                           "deadline", TEST_DEADLINE_MS,
                           "max-in-flight", 1,
                           "proxy-resolver", proxy,
                           NULL);
  nearby_resolver_set_address_classifier (resolver, test_classifier, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    {
      g_autofree char *url = url_for (paths[i]);

      nearby_resolver_resolve_async (resolver, url, NEARBY_URL_POLICY_EXPLICIT,
                                     NEARBY_RESOLVE_FLAGS_REFRESH, (int) i, NULL, on_resolved,
                                     &results[i]);
    }

  WAIT_UNTIL (results[1] != NULL && results[2] != NULL);
  g_assert_cmpuint (fx.held_proxy_questions->len, >=, 1);
  g_assert_null (results[0]);

  /* No answer to be had: the manifest and the icon there are given up, as libsoup asks too. */
  while (results[0] == NULL)
    {
      WAIT_UNTIL (results[0] != NULL || fx.held_proxy_questions->len > 0);
      while (fx.held_proxy_questions->len > 0)
        {
          GTask *task = g_ptr_array_steal_index (fx.held_proxy_questions, 0);

          g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_FAILED, "The PAC file failed");
          g_object_unref (task);
        }
    }
  {
    g_autoptr(NearbyPage) page = nearby_resolver_resolve_finish (resolver, results[0], NULL);

    g_assert_no_error (page->error);
    g_assert_cmpstr (page->title, ==, "Icon elsewhere");
    g_assert_null (page->icon);
  }

  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    g_object_unref (results[i]);
  g_assert_cmpuint (nearby_resolver_get_in_flight (resolver), ==, 0);
}

static void
test_proxy (void)
{
  g_autofree char *proxy_url = g_strdup_printf ("http://127.0.0.1:%u", fx.loopback_port);
  g_autoptr(GProxyResolver) proxy = g_simple_proxy_resolver_new (proxy_url, NULL);
  g_autoptr(NearbyResolver) resolver = NULL;
  g_autoptr(NearbyPage) page = NULL;
  g_autoptr(NearbyPage) lan = NULL;

  resolver = g_object_new (NEARBY_TYPE_RESOLVER,
                           "deadline", TEST_DEADLINE_MS,
                           "proxy-resolver", proxy,
                           NULL);
  nearby_resolver_set_address_classifier (resolver, test_classifier, NULL);

  /* The proxy the user set up is on loopback: that is fine, it is not the destination */
  page = resolve (resolver, "http://proxied.test/good", NEARBY_URL_POLICY_ALLOW_HTTP,
                  NEARBY_RESOLVE_FLAGS_REFRESH);
  g_assert_no_error (page->error);
  g_assert_cmpstr (page->title, ==, "Café & Bar");
  g_assert_cmpstr (page->manifest_name, ==, "Corner Café");

  /* A destination known to be on the local network is still refused */
  lan = resolve (resolver, "http://192.168.1.1/", NEARBY_URL_POLICY_ALLOW_HTTP,
                 NEARBY_RESOLVE_FLAGS_REFRESH);
  assert_error (lan, NEARBY_RESOLVE_ERROR_NEEDS_CONFIRMATION);
}

static void
proxy_callback (SoupServer        *server,
                SoupServerMessage *msg,
                const char        *path,
                GHashTable        *query,
                gpointer           user_data)
{
  nearby_test_respond_html (msg, "<title>Through the proxy</title>");
  soup_message_headers_replace (soup_server_message_get_response_headers (msg),
                                "Connection", "close");
}

/* The proxy the user turns on in GNOME's settings holds from the next look-up on, and off
 * again, though the resolver keeps the system's answers for a while. */
static void
test_proxy_settings_change (void)
{
  g_autoptr(NearbyResolver) resolver = NULL;
  g_autoptr(SoupServer) proxy_server = NULL;
  g_autoptr(GSettings) settings = NULL;
  g_autoptr(GSettings) http_settings = NULL;
  g_autoptr(NearbyPage) before = NULL;
  g_autoptr(NearbyPage) proxied = NULL;
  g_autoptr(NearbyPage) proxied_again = NULL;
  g_autoptr(NearbyPage) after = NULL;
  const char *no_hosts[] = { NULL };

  /* main() asks for it; glib-networking or the schema may be missing */
  if (!g_str_equal (G_OBJECT_TYPE_NAME (g_proxy_resolver_get_default ()), "GProxyResolverGnome"))
    {
      g_test_skip ("GNOME's proxy resolver (glib-networking, gsettings-desktop-schemas) is not "
                   "available");
      return;
    }

  proxy_server = soup_server_new ("server-header", "test-proxy", NULL);
  soup_server_add_handler (proxy_server, NULL, proxy_callback, NULL, NULL);
  settings = g_settings_new ("org.gnome.system.proxy");
  http_settings = g_settings_get_child (settings, "http");
  g_settings_set_strv (settings, "ignore-hosts", no_hosts);
  g_settings_set_string (http_settings, "host", "127.0.0.1");
  g_settings_set_int (http_settings, "port", (int) nearby_test_server_listen (proxy_server, 0));

  resolver = make_resolver (4);
  before = resolve (resolver, "/closing", NEARBY_URL_POLICY_EXPLICIT, NEARBY_RESOLVE_FLAGS_REFRESH);
  g_assert_cmpstr (before->title, ==, "Straight to the site");

  g_settings_set_string (settings, "mode", "manual");
  proxied = resolve (resolver, "/closing", NEARBY_URL_POLICY_EXPLICIT,
                     NEARBY_RESOLVE_FLAGS_REFRESH);
  g_assert_no_error (proxied->error);
  g_assert_cmpstr (proxied->title, ==, "Through the proxy");
  proxied_again = resolve (resolver, "/closing", NEARBY_URL_POLICY_EXPLICIT,
                           NEARBY_RESOLVE_FLAGS_REFRESH);
  g_assert_cmpstr (proxied_again->title, ==, "Through the proxy");

  g_settings_set_string (settings, "mode", "none");
  after = resolve (resolver, "/closing", NEARBY_URL_POLICY_EXPLICIT, NEARBY_RESOLVE_FLAGS_REFRESH);
  g_assert_cmpstr (after->title, ==, "Straight to the site");

  g_settings_reset (settings, "ignore-hosts");
  g_settings_reset (http_settings, "host");
  g_settings_reset (http_settings, "port");
  soup_server_disconnect (proxy_server);
}

typedef struct {
  guint  requests;
  char  *host;       /* of the last request */
} ProxyHits;

static void
counting_proxy_callback (SoupServer        *server,
                         SoupServerMessage *msg,
                         const char        *path,
                         GHashTable        *query,
                         gpointer           user_data)
{
  ProxyHits *hits = user_data;
  SoupMessageHeaders *headers = soup_server_message_get_request_headers (msg);

  hits->requests++;
  g_free (hits->host);
  hits->host = g_strdup (soup_message_headers_get_one (headers, "Host"));
  proxy_callback (server, msg, path, query, NULL);
}

/* The system's proxy is looked for at the first request, not when the resolver is made (which
 * is at the app's start), and that request goes through it: here to a host only the proxy
 * answers for. */
static void
test_system_proxy_at_first_fetch (void)
{
  g_autoptr(NearbyResolver) resolver = NULL;
  g_autoptr(SoupServer) proxy_server = NULL;
  g_autoptr(GSettings) settings = NULL;
  g_autoptr(GSettings) http_settings = NULL;
  g_autoptr(GProxyResolver) before_fetch = NULL;
  g_autoptr(GProxyResolver) after_fetch = NULL;
  g_autoptr(NearbyPage) page = NULL;
  ProxyHits hits = { 0 };
  const char *no_hosts[] = { NULL };

  if (!g_str_equal (G_OBJECT_TYPE_NAME (g_proxy_resolver_get_default ()), "GProxyResolverGnome"))
    {
      g_test_skip ("GNOME's proxy resolver (glib-networking, gsettings-desktop-schemas) is not "
                   "available");
      return;
    }

  proxy_server = soup_server_new ("server-header", "test-proxy", NULL);
  soup_server_add_handler (proxy_server, NULL, counting_proxy_callback, &hits, NULL);
  settings = g_settings_new ("org.gnome.system.proxy");
  http_settings = g_settings_get_child (settings, "http");
  g_settings_set_strv (settings, "ignore-hosts", no_hosts);
  g_settings_set_string (http_settings, "host", "127.0.0.1");
  g_settings_set_int (http_settings, "port", (int) nearby_test_server_listen (proxy_server, 0));
  g_settings_set_string (settings, "mode", "manual");

  resolver = make_resolver (4);
  g_object_get (resolver, "proxy-resolver", &before_fetch, NULL);
  g_assert_null (before_fetch);

  page = resolve (resolver, "http://only-through-the-proxy.test/", NEARBY_URL_POLICY_ALLOW_HTTP,
                  NEARBY_RESOLVE_FLAGS_REFRESH);
  g_assert_no_error (page->error);
  g_assert_cmpstr (page->title, ==, "Through the proxy");
  g_assert_cmpuint (hits.requests, >=, 1);
  g_assert_cmpstr (hits.host, ==, "only-through-the-proxy.test");
  g_object_get (resolver, "proxy-resolver", &after_fetch, NULL);
  g_assert_nonnull (after_fetch);

  g_settings_reset (settings, "mode");
  g_settings_reset (settings, "ignore-hosts");
  g_settings_reset (http_settings, "host");
  g_settings_reset (http_settings, "port");
  soup_server_disconnect (proxy_server);
  g_free (hits.host);
}

static void
test_content_types (void)
{
  g_autoptr(NearbyPage) json = resolve_explicit ("/json");
  g_autoptr(NearbyPage) png = resolve_explicit ("/png-as-page");
  g_autoptr(NearbyPage) lying = resolve_explicit ("/png-labelled-html");
  g_autoptr(NearbyPage) text = resolve_explicit ("/html-labelled-text");

  assert_error (json, NEARBY_RESOLVE_ERROR_NOT_HTML);
  assert_error (png, NEARBY_RESOLVE_ERROR_NOT_HTML);
  assert_error (lying, NEARBY_RESOLVE_ERROR_NOT_HTML);
  /* A browser shows text/plain as text, tags and all: no title comes out of it. */
  assert_error (text, NEARBY_RESOLVE_ERROR_NOT_HTML);
  g_assert_null (text->title);
  g_assert_nonnull (strstr (text->error->message, "text/plain"));
}

/* What a browser renders as a page gets its title; what it shows as text or downloads does not
 * (the MIME Sniffing Standard, with X-Content-Type-Options). */
static void
test_sniffing (void)
{
  const struct {
    const char *name;
    gboolean    is_page;
  } cases[] = {
    { "html-nosniff", TRUE },
    { "xhtml", TRUE },
    { "xhtml-as-html", TRUE },
    { "none", TRUE },                     /* no type: the first bytes say HTML */
    { "unknown", TRUE },
    { "plain", FALSE },
    { "plain-charset", FALSE },
    { "octet-stream", FALSE },            /* a download, sniffed or not */
    { "octet-stream-nosniff", FALSE },
    { "none-nosniff", FALSE },            /* nothing declared, and looking is forbidden */
    { "unknown-nosniff", FALSE },         /* only the first value counts */
    { "xml", FALSE },
  };

  g_assert_cmpuint (G_N_ELEMENTS (cases), ==, G_N_ELEMENTS (typed_pages));
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = g_strconcat ("/typed/", cases[i].name, NULL);
      g_autoptr(NearbyPage) page = resolve_explicit (path);

      g_test_message ("%s", path);
      if (cases[i].is_page)
        {
          g_assert_no_error (page->error);
          g_assert_cmpstr (page->title, ==, "Typed");
        }
      else
        {
          assert_error (page, NEARBY_RESOLVE_ERROR_NOT_HTML);
          g_assert_null (page->title);
          g_assert_null (page->description);
        }
    }
}

static void
test_statuses (void)
{
  g_autoptr(NearbyPage) missing = resolve_explicit ("/does-not-exist");
  g_autoptr(NearbyPage) empty = resolve_explicit ("/no-content");
  g_autoptr(NearbyPage) broken = resolve_explicit ("/broken");
  g_autoptr(NearbyPage) refused = NULL;
  g_autoptr(NearbyPage) urn = NULL;

  assert_error (missing, NEARBY_RESOLVE_ERROR_HIDDEN);
  g_assert_cmpuint (missing->status, ==, 404);
  assert_error (empty, NEARBY_RESOLVE_ERROR_HIDDEN);
  assert_error (broken, NEARBY_RESOLVE_ERROR_HTTP);
  g_assert_cmpuint (broken->status, ==, 500);

  refused = resolve_explicit ("http://127.0.0.1:1/");
  assert_error (refused, NEARBY_RESOLVE_ERROR_NETWORK);
  urn = resolve_explicit ("urn:uuid:6ba7b810-9dad-11d1-80b4-00c04fd430c8");
  assert_error (urn, NEARBY_RESOLVE_ERROR_UNSUPPORTED_SCHEME);

  /* Not even text: the page still serialises as valid JSON */
  {
    g_autoptr(NearbyPage) garbage = resolve_explicit ("http://\xff\xfe/");
    g_autofree char *json = nearby_page_to_json (garbage);

    assert_error (garbage, NEARBY_RESOLVE_ERROR_INVALID_URL);
    g_assert_true (g_utf8_validate (json, -1, NULL));
  }
}

static void
test_tls_rejected (void)
{
  g_autoptr(NearbyPage) page = NULL;
  g_autofree char *url = g_strdup_printf ("https://127.0.0.1:%u/good", fx.tls_port);

  page = resolve_explicit (url);
  assert_error (page, NEARBY_RESOLVE_ERROR_TLS);
  g_assert_null (page->title);
}

static void
test_cache (void)
{
  g_autoptr(NearbyResolver) resolver = make_resolver (4);
  g_autoptr(NearbyPage) first = NULL;
  g_autoptr(NearbyPage) second = NULL;
  g_autoptr(NearbyPage) refreshed = NULL;
  guint before = hits ("/cached");

  first = resolve (resolver, "/cached", NEARBY_URL_POLICY_EXPLICIT, NEARBY_RESOLVE_FLAGS_NONE);
  g_assert_false (first->from_cache);
  /* max-age=1 is raised to the five-minute floor */
  g_assert_cmpint (first->expires_at_us - first->fetched_at_us, >=, 299 * G_USEC_PER_SEC);
  g_assert_cmpint (first->expires_at_us - first->fetched_at_us, <=, G_GINT64_CONSTANT (24) * 3600 * G_USEC_PER_SEC);

  second = resolve (resolver, "/cached", NEARBY_URL_POLICY_EXPLICIT, NEARBY_RESOLVE_FLAGS_NONE);
  g_assert_true (second->from_cache);
  g_assert_cmpstr (second->title, ==, first->title);
  g_assert_cmpuint (second->actions->len, ==, 2);
  g_assert_nonnull (second->icon);
  g_assert_true (g_bytes_equal (second->icon, first->icon));
  g_assert_cmpuint (hits ("/cached"), ==, before + 1);

  refreshed = resolve (resolver, "/cached", NEARBY_URL_POLICY_EXPLICIT, NEARBY_RESOLVE_FLAGS_REFRESH);
  g_assert_false (refreshed->from_cache);
  g_assert_cmpuint (hits ("/cached"), ==, before + 2);
}

/* A persistent store that is broken: look-ups still resolve, from the network. */

typedef GObject BrokenCache;
typedef GObjectClass BrokenCacheClass;
static GType broken_cache_get_type (void);
static void broken_cache_iface_init (NearbyPageCacheInterface *iface);
G_DEFINE_TYPE_WITH_CODE (BrokenCache, broken_cache, G_TYPE_OBJECT,
                         G_IMPLEMENT_INTERFACE (NEARBY_TYPE_PAGE_CACHE, broken_cache_iface_init))

static guint broken_cache_stores;

static void
broken_store_async (NearbyPageCache        *cache,
                    const char             *url,
                    const NearbyCacheEntry *entry,
                    GCancellable           *cancellable,
                    GAsyncReadyCallback     callback,
                    gpointer                user_data)
{
  g_autoptr(GTask) task = g_task_new (cache, cancellable, callback, user_data);

  broken_cache_stores++;
  g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NO_SPACE, "Disk full");
}

static gboolean
broken_store_finish (NearbyPageCache  *cache,
                     GAsyncResult     *result,
                     GError          **error)
{
  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
broken_lookup_async (NearbyPageCache     *cache,
                     const char          *url,
                     GCancellable        *cancellable,
                     GAsyncReadyCallback  callback,
                     gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (cache, cancellable, callback, user_data);

  g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_FAILED, "Database is corrupt");
}

static NearbyCacheEntry *
broken_lookup_finish (NearbyPageCache  *cache,
                      GAsyncResult     *result,
                      GError          **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
broken_cache_iface_init (NearbyPageCacheInterface *iface)
{
  iface->store_async = broken_store_async;
  iface->store_finish = broken_store_finish;
  iface->lookup_async = broken_lookup_async;
  iface->lookup_finish = broken_lookup_finish;
}

static void
broken_cache_class_init (BrokenCacheClass *klass)
{
}

static void
broken_cache_init (BrokenCache *self)
{
}

static void
test_cache_failures (void)
{
  g_autoptr(NearbyResolver) resolver = make_resolver (4);
  g_autoptr(NearbyPageCache) broken = g_object_new (broken_cache_get_type (), NULL);
  g_autoptr(NearbyPageCache) memory = nearby_memory_page_cache_new ();
  g_autoptr(NearbyPage) page = NULL;
  g_autoptr(NearbyPage) fresh = NULL;
  g_autoptr(NearbyPage) unreadable = NULL;
  g_autofree char *url = url_for ("/cached");
  g_autoptr(NearbyCacheEntry) stale = NULL;
  g_autoptr(NearbyCacheEntry) garbled = NULL;
  guint before;

  nearby_resolver_set_cache (resolver, broken);
  page = resolve (resolver, "/cached", NEARBY_URL_POLICY_EXPLICIT, NEARBY_RESOLVE_FLAGS_NONE);
  g_assert_no_error (page->error);
  g_assert_cmpstr (page->title, ==, "Café & Bar");
  g_assert_cmpuint (broken_cache_stores, ==, 1);

  /* An expired entry is not used */
  nearby_resolver_set_cache (resolver, memory);
  stale = nearby_cache_entry_new ("{\"url\": \"x\", \"title\": \"Stale\"}", NULL, NULL,
                                  g_get_real_time () - 1);
  nearby_test_cache_store (memory, url, stale);
  before = hits ("/cached");
  fresh = resolve (resolver, "/cached", NEARBY_URL_POLICY_EXPLICIT, NEARBY_RESOLVE_FLAGS_NONE);
  g_assert_cmpstr (fresh->title, ==, "Café & Bar");
  g_assert_false (fresh->from_cache);
  g_assert_cmpuint (hits ("/cached"), ==, before + 1);

  /* Nor is one that cannot be read */
  garbled = nearby_cache_entry_new ("{not json", NULL, NULL,
                                    g_get_real_time () + G_USEC_PER_SEC * 600);
  nearby_test_cache_store (memory, url, garbled);
  unreadable = resolve (resolver, "/cached", NEARBY_URL_POLICY_EXPLICIT, NEARBY_RESOLVE_FLAGS_NONE);
  g_assert_cmpstr (unreadable->title, ==, "Café & Bar");
  g_assert_false (unreadable->from_cache);
  g_assert_cmpuint (hits ("/cached"), ==, before + 2);
}

static void
test_json_round_trip (void)
{
  g_autoptr(NearbyPage) page = resolve_explicit ("/chain/2");
  g_autoptr(NearbyPage) copy = NULL;
  g_autoptr(NearbyPage) failed = resolve_explicit ("/loop");
  g_autoptr(NearbyPage) failed_copy = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *json = nearby_page_to_json (page);
  g_autofree char *json_again = NULL;
  g_autofree char *failed_json = nearby_page_to_json (failed);
  g_autofree char *failed_again = NULL;

  copy = nearby_page_new_from_json (json, page->icon, &error);
  g_assert_no_error (error);
  json_again = nearby_page_to_json (copy);
  g_assert_cmpstr (json, ==, json_again);
  g_assert_true (copy->icon == page->icon);

  failed_copy = nearby_page_new_from_json (failed_json, NULL, &error);
  g_assert_no_error (error);
  g_assert_error (failed_copy->error, NEARBY_RESOLVE_ERROR, NEARBY_RESOLVE_ERROR_TOO_MANY_REDIRECTS);
  failed_again = nearby_page_to_json (failed_copy);
  g_assert_cmpstr (failed_json, ==, failed_again);

  g_assert_null (nearby_page_new_from_json ("[1]", NULL, &error));
  g_assert_nonnull (error);
  g_clear_error (&error);
  g_assert_null (nearby_page_new_from_json ("{\"url\": 5}", NULL, &error));
  g_assert_nonnull (error);
  g_clear_error (&error);
  g_assert_null (nearby_page_new_from_json ("{", NULL, &error));
  g_assert_nonnull (error);
}

static void
test_dedup_and_priority (void)
{
  g_autoptr(NearbyResolver) resolver = make_resolver (1);
  GAsyncResult *results[5] = { NULL };
  const char *paths[5] = { "/slow", "/good", "/good", "/chain/1", "/page-with/icon.gif" };
  int priorities[5] = { 0, 9, 9, 1, 5 };
  guint good_before = hits ("/good");
  guint start;

  g_ptr_array_set_size (fx.order, 0);
  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    {
      g_autofree char *url = url_for (paths[i]);

      nearby_resolver_resolve_async (resolver, url, NEARBY_URL_POLICY_EXPLICIT,
                                     NEARBY_RESOLVE_FLAGS_REFRESH, priorities[i], NULL,
                                     on_resolved, &results[i]);
    }
  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    WAIT_UNTIL (results[i] != NULL);

  /* Two callers for /good, one request */
  g_assert_cmpuint (hits ("/good"), ==, good_before + 2);   /* one via /chain/1, one direct */
  for (guint i = 1; i <= 2; i++)
    {
      g_autoptr(NearbyPage) page = nearby_resolver_resolve_finish (resolver, results[i], NULL);

      g_assert_cmpstr (page->title, ==, "Café & Bar");
    }

  /* One page at a time, the most urgent first: /slow (already running), /chain/1, the GIF page,
   * /good. A job's manifest and icons no longer hold its slot, so they may come between the
   * pages; the /good that /chain/1 redirects to is its hop, not a job of its own. */
  start = 0;
  while (start < fx.order->len && !g_str_equal (g_ptr_array_index (fx.order, start), "/slow"))
    start++;
  g_assert_cmpuint (start, <, fx.order->len);
  {
    GPtrArray *pages = g_ptr_array_new ();
    gboolean redirect_pending = FALSE;

    for (guint i = start; i < fx.order->len; i++)
      {
        const char *path = g_ptr_array_index (fx.order, i);

        if (g_str_equal (path, "/good") && redirect_pending)
          redirect_pending = FALSE;
        else if (g_str_equal (path, "/slow") || g_str_equal (path, "/chain/1") ||
                 g_str_equal (path, "/page-with/icon.gif") || g_str_equal (path, "/good"))
          g_ptr_array_add (pages, (gpointer) path);
        if (g_str_equal (path, "/chain/1"))
          redirect_pending = TRUE;
      }
    g_assert_cmpuint (pages->len, ==, 4);
    g_assert_cmpstr (g_ptr_array_index (pages, 0), ==, "/slow");
    g_assert_cmpstr (g_ptr_array_index (pages, 1), ==, "/chain/1");
    g_assert_cmpstr (g_ptr_array_index (pages, 2), ==, "/page-with/icon.gif");
    g_assert_cmpstr (g_ptr_array_index (pages, 3), ==, "/good");
    g_ptr_array_unref (pages);
  }

  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    g_object_unref (results[i]);
  g_assert_cmpuint (nearby_resolver_get_in_flight (resolver), ==, 0);
}

/* Objects equally near are looked up in the order they were asked for. */
static void
test_equal_priority_in_order (void)
{
  g_autoptr(NearbyResolver) resolver = make_resolver (1);
  const char *paths[] = { "/slow", "/legacy", "/latin1-header", "/hostile-title", "/no-title" };
  GAsyncResult *results[G_N_ELEMENTS (paths)] = { NULL };
  g_autoptr(GPtrArray) pages = g_ptr_array_new ();

  g_ptr_array_set_size (fx.order, 0);
  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    {
      g_autofree char *url = url_for (paths[i]);

      nearby_resolver_resolve_async (resolver, url, NEARBY_URL_POLICY_EXPLICIT,
                                     NEARBY_RESOLVE_FLAGS_REFRESH, i == 0 ? 0 : 5, NULL,
                                     on_resolved, &results[i]);
    }
  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    WAIT_UNTIL (results[i] != NULL);

  for (guint i = 0; i < fx.order->len; i++)
    for (guint j = 1; j < G_N_ELEMENTS (paths); j++)
      if (g_str_equal (g_ptr_array_index (fx.order, i), paths[j]))
        g_ptr_array_add (pages, (gpointer) paths[j]);
  g_assert_cmpuint (pages->len, ==, G_N_ELEMENTS (paths) - 1);
  for (guint j = 1; j < G_N_ELEMENTS (paths); j++)
    g_assert_cmpstr (g_ptr_array_index (pages, j - 1), ==, paths[j]);

  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    g_object_unref (results[i]);
}

/* Pages of a site that has no /favicon.ico: it is asked for once, not once per page. */
static void
test_missing_favicon_remembered (void)
{
  g_autoptr(NearbyResolver) resolver = make_resolver (1);
  const char *paths[] = { "/no-title", "/legacy", "/latin1-header" };
  guint before = hits ("/favicon.ico");

  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    {
      g_autoptr(NearbyPage) page = resolve (resolver, paths[i], NEARBY_URL_POLICY_EXPLICIT,
                                            NEARBY_RESOLVE_FLAGS_REFRESH);

      g_assert_no_error (page->error);
      g_assert_null (page->icon);
    }
  g_assert_cmpuint (hits ("/favicon.ico"), ==, before + 1);

  /* It is the resolver's memory, not the site's fate: the next start asks again. */
  {
    g_autoptr(NearbyResolver) other = make_resolver (1);
    g_autoptr(NearbyPage) page = resolve (other, "/no-title", NEARBY_URL_POLICY_EXPLICIT,
                                          NEARBY_RESOLVE_FLAGS_REFRESH);

    g_assert_cmpuint (hits ("/favicon.ico"), ==, before + 2);
  }
}

/* A batch of pages on one site, as the CLI or a room full of beacons asks for them: each
 * page's icon is asked for before the next pages, not after the last of them. */
static void
test_icons_keep_up (void)
{
  g_autoptr(NearbyResolver) resolver = make_resolver (4);
  GAsyncResult *results[12] = { NULL };
  guint first_icon = G_MAXUINT;
  guint last_page = G_MAXUINT;

  g_ptr_array_set_size (fx.order, 0);
  for (guint i = 0; i < G_N_ELEMENTS (results); i++)
    {
      g_autofree char *path = g_strdup_printf ("/paced/%u", i);
      g_autofree char *url = url_for (path);

      /* Equally near: one priority for all. */
      nearby_resolver_resolve_async (resolver, url, NEARBY_URL_POLICY_EXPLICIT,
                                     NEARBY_RESOLVE_FLAGS_REFRESH, 5, NULL, on_resolved,
                                     &results[i]);
    }
  for (guint i = 0; i < G_N_ELEMENTS (results); i++)
    WAIT_UNTIL (results[i] != NULL);

  for (guint i = 0; i < fx.order->len; i++)
    {
      const char *path = g_ptr_array_index (fx.order, i);

      if (g_str_equal (path, "/icons/paced-0.png") && first_icon == G_MAXUINT)
        first_icon = i;
      if (g_str_equal (path, "/paced/11"))
        last_page = i;
    }
  g_assert_cmpuint (first_icon, <, last_page);

  for (guint i = 0; i < G_N_ELEMENTS (results); i++)
    {
      g_autoptr(NearbyPage) page = nearby_resolver_resolve_finish (resolver, results[i], NULL);
      g_autofree char *title = g_strdup_printf ("Paced %u", i);

      g_assert_no_error (page->error);
      g_assert_cmpstr (page->title, ==, title);
      g_assert_nonnull (page->icon);
      g_object_unref (results[i]);
    }
  g_assert_cmpuint (nearby_resolver_get_in_flight (resolver), ==, 0);
}

static void
test_cancel (void)
{
  g_autoptr(NearbyResolver) resolver = make_resolver (4);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *url = url_for ("/drip");
  guint before = hits ("/drip");
  NearbyPage *page;

  nearby_resolver_set_deadline (resolver, 60000);
  nearby_resolver_resolve_async (resolver, url, NEARBY_URL_POLICY_EXPLICIT,
                                 NEARBY_RESOLVE_FLAGS_REFRESH, 0, cancellable, on_resolved, &result);
  WAIT_UNTIL (hits ("/drip") != before);
  g_cancellable_cancel (cancellable);
  WAIT_UNTIL (result != NULL);

  page = nearby_resolver_resolve_finish (resolver, result, &error);
  g_assert_null (page);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);

  /* The network work stops too */
  WAIT_UNTIL (nearby_resolver_get_in_flight (resolver) == 0);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GTlsCertificate) certificate = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *cert_file = NULL;
  g_autofree char *key_file = NULL;
  int status;

  /* GNOME's proxy resolver, as in a GNOME session, reading the tests' in-memory settings
   * (/resolver/proxy-settings-change); in mode "none" it sends everything direct. */
  g_setenv ("GIO_USE_PROXY_RESOLVER", "gnome", TRUE);
  g_setenv ("XDG_CURRENT_DESKTOP", "GNOME", TRUE);
  g_test_init (&argc, &argv, NULL);

  fx.hits = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  fx.client_ports = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  fx.order = g_ptr_array_new_with_free_func (g_free);
  fx.held = g_ptr_array_new ();
  fx.held_sockets = g_hash_table_new (NULL, NULL);
  fx.held_lookups = g_ptr_array_new ();
  fx.held_proxy_questions = g_ptr_array_new ();
  fx.png_96 = nearby_test_make_image ("png", 96, 96);
  fx.ico_32 = nearby_test_make_image ("ico", 32, 32);
  fx.gzip_bomb = make_gzip_bomb ();

  fx.server = soup_server_new ("server-header", "test", NULL);
  soup_server_add_handler (fx.server, NULL, server_callback, NULL, NULL);
  fx.public_port = nearby_test_server_listen (fx.server, 0);
  fx.loopback_port = nearby_test_server_listen (fx.server, 0);

  cert_file = g_test_build_filename (G_TEST_DIST, "data", "test-tls-cert.pem", NULL);
  key_file = g_test_build_filename (G_TEST_DIST, "data", "test-tls-key.pem", NULL);
  certificate = g_tls_certificate_new_from_files (cert_file, key_file, &error);
  g_assert_no_error (error);
  fx.tls_server = soup_server_new ("tls-certificate", certificate, NULL);
  soup_server_add_handler (fx.tls_server, NULL, server_callback, NULL, NULL);
  fx.tls_port = nearby_test_server_listen (fx.tls_server, SOUP_SERVER_LISTEN_HTTPS);

  g_test_add_func ("/resolver/good-page", test_good_page);
  g_test_add_func ("/resolver/bad-icons", test_bad_icons);
  g_test_add_func ("/resolver/charsets", test_charsets);
  g_test_add_func ("/resolver/hostile-text", test_hostile_text);
  g_test_add_func ("/resolver/endless-bodies", test_endless_bodies);
  g_test_add_func ("/resolver/drip", test_drip);
  g_test_add_func ("/resolver/abandoned-bodies", test_abandoned_bodies);
  g_test_add_func ("/resolver/rest-of-body", test_rest_of_body);
  g_test_add_func ("/resolver/rest-of-body-closed", test_rest_of_body_closed);
  g_test_add_func ("/resolver/redirects", test_redirects);
  g_test_add_func ("/resolver/bad-redirects", test_bad_redirects);
  g_test_add_func ("/resolver/loopback-refused", test_loopback_refused);
  g_test_add_func ("/resolver/slow-icon-host", test_slow_icon_host);
  g_test_add_func ("/resolver/slow-proxy-answer", test_slow_proxy_answer);
  g_test_add_func ("/resolver/proxy", test_proxy);
  g_test_add_func ("/resolver/proxy-settings-change", test_proxy_settings_change);
  g_test_add_func ("/resolver/system-proxy-at-first-fetch", test_system_proxy_at_first_fetch);
  g_test_add_func ("/resolver/content-types", test_content_types);
  g_test_add_func ("/resolver/sniffing", test_sniffing);
  g_test_add_func ("/resolver/statuses", test_statuses);
  g_test_add_func ("/resolver/tls-rejected", test_tls_rejected);
  g_test_add_func ("/resolver/cache", test_cache);
  g_test_add_func ("/resolver/cache-failures", test_cache_failures);
  g_test_add_func ("/resolver/json-round-trip", test_json_round_trip);
  g_test_add_func ("/resolver/dedup-and-priority", test_dedup_and_priority);
  g_test_add_func ("/resolver/equal-priority-in-order", test_equal_priority_in_order);
  g_test_add_func ("/resolver/icons-keep-up", test_icons_keep_up);
  g_test_add_func ("/resolver/missing-favicon-remembered", test_missing_favicon_remembered);
  g_test_add_func ("/resolver/cancel", test_cancel);

  status = g_test_run ();

  soup_server_disconnect (fx.server);
  soup_server_disconnect (fx.tls_server);
  g_clear_object (&fx.server);
  g_clear_object (&fx.tls_server);
  g_hash_table_unref (fx.hits);
  g_hash_table_unref (fx.client_ports);
  g_ptr_array_unref (fx.order);
  g_ptr_array_unref (fx.held);
  g_hash_table_unref (fx.held_sockets);
  g_ptr_array_unref (fx.held_lookups);
  g_ptr_array_unref (fx.held_proxy_questions);
  g_bytes_unref (fx.png_96);
  g_bytes_unref (fx.ico_32);
  g_bytes_unref (fx.gzip_bomb);
  g_free (fx.last_user_agent);

  return status;
}
