/* nearby-url-policy.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-url-policy"

#include "config.h"

#include <glib/gi18n.h>
#include <libsoup/soup.h>

#include <string.h>

#include "nearby-text.h"
#include "nearby-url-policy.h"

#define DISPLAY_MAX_CHARS 512

const char *
nearby_address_class_to_string (NearbyAddressClass klass)
{
  switch (klass)
    {
    case NEARBY_ADDRESS_PUBLIC:
      return "public";
    case NEARBY_ADDRESS_LOCAL:
      return "local";
    case NEARBY_ADDRESS_LOOPBACK:
      return "loopback";
    default:
      return "unknown";
    }
}

static NearbyAddressClass
classify_ipv4 (const guint8 *b)
{
  if (b[0] == 127 || b[0] == 0)
    return NEARBY_ADDRESS_LOOPBACK;   /* 0.0.0.0/8 reaches this host on Linux */
  if (b[0] == 10 ||
      (b[0] == 172 && (b[1] & 0xf0) == 16) ||
      (b[0] == 192 && b[1] == 168) ||
      (b[0] == 169 && b[1] == 254) ||
      (b[0] == 100 && (b[1] & 0xc0) == 64) ||   /* CGNAT 100.64.0.0/10 */
      (b[0] == 198 && (b[1] & 0xfe) == 18) ||   /* benchmarking 198.18.0.0/15 */
      (b[0] == 192 && b[1] == 0 && b[2] == 0) ||
      b[0] >= 224)                              /* multicast and reserved */
    return NEARBY_ADDRESS_LOCAL;

  return NEARBY_ADDRESS_PUBLIC;
}

NearbyAddressClass
nearby_url_policy_classify_address (GInetAddress *address)
{
  const guint8 *b;
  static const guint8 v4_mapped_prefix[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };
  static const guint8 nat64_prefix[12] = { 0x00, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0 };

  g_return_val_if_fail (G_IS_INET_ADDRESS (address), NEARBY_ADDRESS_LOCAL);

  b = g_inet_address_to_bytes (address);

  if (g_inet_address_get_family (address) == G_SOCKET_FAMILY_IPV4)
    return classify_ipv4 (b);

  /* An IPv4 address wrapped in IPv6 reaches the IPv4 host: classify what is inside. */
  if (memcmp (b, v4_mapped_prefix, 12) == 0 || memcmp (b, nat64_prefix, 12) == 0)
    return classify_ipv4 (b + 12);

  if (g_inet_address_get_is_loopback (address) || g_inet_address_get_is_any (address))
    return NEARBY_ADDRESS_LOOPBACK;
  if ((b[0] & 0xfe) == 0xfc ||                       /* ULA fc00::/7 */
      (b[0] == 0xfe && (b[1] & 0x80) == 0x80) ||     /* link-local fe80::/10, site-local fec0::/10 */
      b[0] == 0xff)                                  /* multicast */
    return NEARBY_ADDRESS_LOCAL;

  /* IPv4-compatible ::a.b.c.d (deprecated) */
  if (memcmp (b, v4_mapped_prefix, 10) == 0 && b[10] == 0 && b[11] == 0)
    return classify_ipv4 (b + 12);

  return NEARBY_ADDRESS_PUBLIC;
}

NearbyAddressClass
nearby_url_policy_classify_host (const char *host)
{
  g_autofree char *lower = NULL;
  g_autoptr(GInetAddress) address = NULL;
  gsize len;

  if (host == NULL || *host == '\0')
    return NEARBY_ADDRESS_LOCAL;

  lower = g_ascii_strdown (host, -1);
  len = strlen (lower);
  if (len > 2 && lower[0] == '[' && lower[len - 1] == ']')
    {
      memmove (lower, lower + 1, len - 2);
      lower[len - 2] = '\0';
      len -= 2;
    }
  while (len > 0 && lower[len - 1] == '.')
    lower[--len] = '\0';

  address = g_inet_address_new_from_string (lower);
  if (address != NULL)
    return nearby_url_policy_classify_address (address);

  if (g_str_equal (lower, "localhost") || g_str_has_suffix (lower, ".localhost"))
    return NEARBY_ADDRESS_LOOPBACK;
  if (g_str_has_suffix (lower, ".local") ||
      g_str_has_suffix (lower, ".lan") ||
      g_str_has_suffix (lower, ".home.arpa") ||
      g_str_has_suffix (lower, ".internal") ||
      strchr (lower, '.') == NULL)
    return NEARBY_ADDRESS_LOCAL;

  /* A public-looking name: only the address actually connected to tells. */
  return NEARBY_ADDRESS_PUBLIC;
}

gboolean
nearby_url_policy_check_address (NearbyUrlPolicy     policy,
                                 NearbyAddressClass  klass,
                                 const char         *what,
                                 GError            **error)
{
  if (klass == NEARBY_ADDRESS_LOOPBACK && !(policy & NEARBY_URL_POLICY_ALLOW_LOOPBACK))
    {
      g_set_error (error, NEARBY_RESOLVE_ERROR, NEARBY_RESOLVE_ERROR_NEEDS_CONFIRMATION,
                   _("%s is on this computer (loopback): it is looked up only when you ask"),
                   what ? what : _("The address"));
      return FALSE;
    }

  if (klass == NEARBY_ADDRESS_LOCAL && !(policy & NEARBY_URL_POLICY_ALLOW_LOCAL))
    {
      g_set_error (error, NEARBY_RESOLVE_ERROR, NEARBY_RESOLVE_ERROR_NEEDS_CONFIRMATION,
                   _("%s is on the local network: it is looked up only when you ask"),
                   what ? what : _("The address"));
      return FALSE;
    }

  return TRUE;
}

static GUri *
parse_url (const char  *url,
           GError     **error)
{
  g_autoptr(GError) local_error = NULL;
  GUri *uri;

  if (url == NULL || *url == '\0')
    {
      g_set_error_literal (error, NEARBY_RESOLVE_ERROR, NEARBY_RESOLVE_ERROR_INVALID_URL,
                           _("The URL is empty"));
      return NULL;
    }

  uri = g_uri_parse (url,
                     G_URI_FLAGS_HAS_PASSWORD | G_URI_FLAGS_ENCODED_PATH |
                     G_URI_FLAGS_ENCODED_QUERY | G_URI_FLAGS_ENCODED_FRAGMENT |
                     G_URI_FLAGS_SCHEME_NORMALIZE,
                     &local_error);
  if (uri == NULL)
    {
      g_set_error (error, NEARBY_RESOLVE_ERROR, NEARBY_RESOLVE_ERROR_INVALID_URL,
                   _("Not a valid URL: %s"), local_error->message);
      return NULL;
    }

  return uri;
}

static gboolean
scheme_is_http (const char *scheme)
{
  return scheme != NULL &&
         (g_ascii_strcasecmp (scheme, "http") == 0 || g_ascii_strcasecmp (scheme, "https") == 0);
}

gboolean
nearby_url_is_fetchable (const char *url)
{
  g_autoptr(GUri) uri = parse_url (url, NULL);
  const char *host;

  if (uri == NULL || !scheme_is_http (g_uri_get_scheme (uri)))
    return FALSE;

  host = g_uri_get_host (uri);

  return host != NULL && *host != '\0';
}

/* Returns the URL to request: http(s), with a host, without userinfo (a beacon has no business
 * sending credentials), or NULL and a NEARBY_RESOLVE_ERROR. */
GUri *
nearby_url_policy_check_url (const char       *url,
                             NearbyUrlPolicy   policy,
                             GError          **error)
{
  g_autoptr(GUri) uri = parse_url (url, error);
  g_autofree char *what = NULL;
  const char *host;

  if (uri == NULL)
    return NULL;

  if (!scheme_is_http (g_uri_get_scheme (uri)))
    {
      g_set_error (error, NEARBY_RESOLVE_ERROR, NEARBY_RESOLVE_ERROR_UNSUPPORTED_SCHEME,
                   _("“%s:” addresses are shown, never fetched or opened"),
                   g_uri_get_scheme (uri));
      return NULL;
    }

  host = g_uri_get_host (uri);
  if (host == NULL || *host == '\0')
    {
      g_set_error_literal (error, NEARBY_RESOLVE_ERROR, NEARBY_RESOLVE_ERROR_INVALID_URL,
                           _("The URL has no host"));
      return NULL;
    }

  if (g_ascii_strcasecmp (g_uri_get_scheme (uri), "http") == 0 &&
      !(policy & NEARBY_URL_POLICY_ALLOW_HTTP))
    {
      g_set_error_literal (error, NEARBY_RESOLVE_ERROR, NEARBY_RESOLVE_ERROR_NEEDS_CONFIRMATION,
                           _("The page is not encrypted (http): it is looked up only when you ask"));
      return NULL;
    }

  what = g_strdup_printf ("“%s”", host);
  if (!nearby_url_policy_check_address (policy, nearby_url_policy_classify_host (host), what, error))
    return NULL;

  return g_uri_build (G_URI_FLAGS_ENCODED_PATH | G_URI_FLAGS_ENCODED_QUERY |
                      G_URI_FLAGS_ENCODED_FRAGMENT | G_URI_FLAGS_SCHEME_NORMALIZE,
                      g_uri_get_scheme (uri), NULL, host, g_uri_get_port (uri),
                      g_uri_get_path (uri), g_uri_get_query (uri), g_uri_get_fragment (uri));
}

/* GLib's relaxed parser, which the messy references on real pages need, ends an authority at
 * ';' (the old "params" syntax) and then fails its own assertions when it joins the pieces back
 * together. No web host has a ';' in it, so such a URL is refused before GLib parses it. A
 * reference with a scheme but no authority ("http:x", "http:/.//x") names no host either. */
static gboolean
has_joinable_authority (const char *url,
                        gboolean    has_scheme)
{
  const char *colon = strchr (url, ':');
  const char *rest = has_scheme && colon != NULL ? colon + 1 : url;
  gsize authority_len;

  if (!g_str_has_prefix (rest, "//"))
    return !has_scheme;

  authority_len = strcspn (rest + 2, "/?#");

  return memchr (rest + 2, ';', authority_len) == NULL;
}

/* A link on a page or in a manifest, made absolute; NULL unless it is a web address. */
char *
nearby_url_resolve (const char *base_url,
                    const char *ref)
{
  g_autofree char *trimmed = NULL;
  g_autofree char *ref_scheme = NULL;
  g_autofree char *resolved = NULL;
  g_autoptr(GUri) uri = NULL;
  const char *scheme;
  GString *clean;

  if (ref == NULL || base_url == NULL)
    return NULL;

  /* URLs in attributes: leading and trailing whitespace dropped, tabs and newlines removed. */
  clean = g_string_new (NULL);
  for (const char *p = ref; *p; p++)
    {
      if (*p != '\t' && *p != '\n' && *p != '\r')
        g_string_append_c (clean, *p);
    }
  trimmed = g_strstrip (g_string_free (clean, FALSE));
  if (*trimmed == '\0' || strlen (trimmed) > NEARBY_URL_MAX_LEN)
    return NULL;

  /* An absolute reference is only worth resolving when it is a web address; other schemes are
   * refused here, before GLib's relaxed parser (which trips its own assertions on some). Not
   * g_uri_peek_scheme(): it interns the scheme, and a hostile page can name endless ones. */
  ref_scheme = g_uri_parse_scheme (trimmed);
  if (ref_scheme != NULL && g_ascii_strcasecmp (ref_scheme, "http") != 0
      && g_ascii_strcasecmp (ref_scheme, "https") != 0)
    return NULL;
  if (!has_joinable_authority (trimmed, ref_scheme != NULL) ||
      !has_joinable_authority (base_url, TRUE))
    return NULL;

  resolved = g_uri_resolve_relative (base_url, trimmed,
                                     G_URI_FLAGS_ENCODED | G_URI_FLAGS_PARSE_RELAXED, NULL);
  if (resolved == NULL)
    return NULL;

  uri = g_uri_parse (resolved, G_URI_FLAGS_ENCODED, NULL);
  if (uri == NULL)
    return NULL;
  scheme = g_uri_get_scheme (uri);
  if (g_ascii_strcasecmp (scheme, "http") != 0 && g_ascii_strcasecmp (scheme, "https") != 0)
    return NULL;
  if (g_uri_get_host (uri) == NULL || *g_uri_get_host (uri) == '\0')
    return NULL;

  g_clear_pointer (&resolved, g_free);
  resolved = g_uri_to_string (uri);
  /* Only what the URL policy itself would accept, as valid UTF-8 for JSON and labels. */
  if (!g_utf8_validate (resolved, -1, NULL) || !nearby_url_is_fetchable (resolved))
    return NULL;

  return g_steal_pointer (&resolved);
}

/* Letters of Cyrillic and Greek that look like Latin ones: a host spelled only with them
 * (“аррӏе”) is a whole-script confusable. */
static gboolean
is_latin_lookalike (gunichar c)
{
  static const gunichar lookalikes[] = {
    0x0430, 0x0432, 0x0435, 0x043a, 0x043c, 0x043d, 0x043e, 0x0440, 0x0441, 0x0442, 0x0443,
    0x0445, 0x0455, 0x0456, 0x0458, 0x04bb, 0x04cf, 0x0501, 0x051b, 0x051d, 0x0261,
    0x03b1, 0x03b5, 0x03b9, 0x03ba, 0x03bd, 0x03bf, 0x03c1, 0x03c4, 0x03c5, 0x03c7,
  };

  for (guint i = 0; i < G_N_ELEMENTS (lookalikes); i++)
    {
      if (lookalikes[i] == c)
        return TRUE;
    }

  return FALSE;
}

static gboolean
label_is_confusable (const char *label)
{
  GUnicodeScript seen = G_UNICODE_SCRIPT_COMMON;
  gboolean all_lookalikes = TRUE;
  gboolean any_letter = FALSE;

  for (const char *p = label; *p; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);
      GUnicodeScript script = g_unichar_get_script (c);
      GUnicodeType type = g_unichar_type (c);

      /* Invisible and format characters have no place in a host name. */
      if (type == G_UNICODE_FORMAT || type == G_UNICODE_CONTROL ||
          type == G_UNICODE_UNASSIGNED || type == G_UNICODE_SPACE_SEPARATOR)
        return TRUE;

      if (script == G_UNICODE_SCRIPT_COMMON || script == G_UNICODE_SCRIPT_INHERITED)
        continue;

      any_letter = TRUE;
      if (seen != G_UNICODE_SCRIPT_COMMON && seen != script)
        return TRUE;
      seen = script;

      if (!is_latin_lookalike (c))
        all_lookalikes = FALSE;
    }

  if (any_letter && (seen == G_UNICODE_SCRIPT_CYRILLIC || seen == G_UNICODE_SCRIPT_GREEK))
    return all_lookalikes;

  return FALSE;
}

static char *
display_host_for (const char            *host,
                  NearbyUrlDisplayFlags *flags)
{
  g_autofree char *unicode = NULL;
  g_autofree char *ascii = NULL;
  g_auto(GStrv) labels = NULL;

  if (host == NULL || *host == '\0')
    return g_strdup ("");

  if (g_hostname_is_ip_address (host))
    return g_strdup (host);

  ascii = g_hostname_to_ascii (host);
  if (ascii == NULL)
    {
      *flags |= NEARBY_URL_DISPLAY_PUNYCODE;
      return nearby_text_clean (host, -1, 255);
    }

  unicode = g_hostname_to_unicode (ascii);
  if (unicode == NULL || !g_hostname_is_non_ascii (unicode))
    return g_ascii_strdown (ascii, -1);
  /* Punycode can encode what is not a character (GLib decodes it to bytes that are not UTF-8):
   * such a host is shown as it was sent. */
  if (!g_utf8_validate (unicode, -1, NULL))
    {
      *flags |= NEARBY_URL_DISPLAY_PUNYCODE;
      return g_ascii_strdown (ascii, -1);
    }

  labels = g_strsplit (unicode, ".", -1);
  for (guint i = 0; labels[i] != NULL; i++)
    {
      if (label_is_confusable (labels[i]))
        {
          *flags |= NEARBY_URL_DISPLAY_PUNYCODE;
          return g_ascii_strdown (ascii, -1);
        }
    }

  return g_utf8_strdown (unicode, -1);
}

char *
nearby_url_display_host (const char            *url,
                         NearbyUrlDisplayFlags *flags)
{
  NearbyUrlDisplayFlags local_flags = NEARBY_URL_DISPLAY_NONE;
  g_autoptr(GUri) uri = parse_url (url, NULL);
  char *ret;

  if (uri == NULL || g_uri_get_host (uri) == NULL)
    {
      local_flags |= NEARBY_URL_DISPLAY_INVALID | NEARBY_URL_DISPLAY_NOT_FETCHABLE;
      ret = g_strdup ("");
    }
  else
    {
      if (g_uri_get_userinfo (uri) != NULL)
        local_flags |= NEARBY_URL_DISPLAY_HAS_USERINFO;
      if (!scheme_is_http (g_uri_get_scheme (uri)))
        local_flags |= NEARBY_URL_DISPLAY_NOT_FETCHABLE;
      ret = display_host_for (g_uri_get_host (uri), &local_flags);
    }

  if (flags != NULL)
    *flags = local_flags;

  return ret;
}

/* The real host is what matters: userinfo is dropped (and flagged), the host is Unicode only
 * when that cannot mislead, and nothing can reorder or hide text. */
char *
nearby_url_display (const char            *url,
                    NearbyUrlDisplayFlags *flags)
{
  NearbyUrlDisplayFlags local_flags = NEARBY_URL_DISPLAY_NONE;
  g_autoptr(GUri) uri = parse_url (url, NULL);
  g_autoptr(GString) out = NULL;
  g_autofree char *host = NULL;
  g_autofree char *path = NULL;
  const char *scheme;

  if (uri == NULL || g_uri_get_host (uri) == NULL || *g_uri_get_host (uri) == '\0')
    {
      local_flags |= NEARBY_URL_DISPLAY_NOT_FETCHABLE;
      if (uri == NULL)
        local_flags |= NEARBY_URL_DISPLAY_INVALID;
      if (flags != NULL)
        *flags = local_flags;
      return nearby_text_clean (url ? url : "", -1, DISPLAY_MAX_CHARS);
    }

  scheme = g_uri_get_scheme (uri);
  if (!scheme_is_http (scheme))
    local_flags |= NEARBY_URL_DISPLAY_NOT_FETCHABLE;
  if (g_uri_get_userinfo (uri) != NULL)
    local_flags |= NEARBY_URL_DISPLAY_HAS_USERINFO;

  host = display_host_for (g_uri_get_host (uri), &local_flags);

  out = g_string_new (NULL);
  g_string_append_printf (out, "%s://", scheme);
  if (strchr (host, ':') != NULL)
    g_string_append_printf (out, "[%s]", host);
  else
    g_string_append (out, host);
  if (g_uri_get_port (uri) > 0 &&
      !(g_uri_get_port (uri) == 443 && g_ascii_strcasecmp (scheme, "https") == 0) &&
      !(g_uri_get_port (uri) == 80 && g_ascii_strcasecmp (scheme, "http") == 0))
    g_string_append_printf (out, ":%d", g_uri_get_port (uri));
  g_string_append (out, g_uri_get_path (uri));
  if (g_uri_get_query (uri) != NULL)
    g_string_append_printf (out, "?%s", g_uri_get_query (uri));
  if (g_uri_get_fragment (uri) != NULL)
    g_string_append_printf (out, "#%s", g_uri_get_fragment (uri));

  path = nearby_text_clean (out->str, out->len, DISPLAY_MAX_CHARS);

  if (flags != NULL)
    *flags = local_flags;

  return g_steal_pointer (&path);
}

/* The path of @url as a row shows it under the host of an object not looked up yet
 * ("/objects/17"): without query or fragment, which tell objects apart less often than they
 * carry tracking; NULL for "/" or an empty path, which say nothing. */
char *
nearby_url_display_path (const char *url)
{
  g_autoptr(GUri) uri = parse_url (url, NULL);
  const char *path;

  if (uri == NULL || g_uri_get_host (uri) == NULL)
    return NULL;

  path = g_uri_get_path (uri);
  if (path == NULL || *path == '\0' || g_str_equal (path, "/"))
    return NULL;

  return nearby_text_clean (path, -1, DISPLAY_MAX_CHARS);
}

/* What stands for a page without a title, as browsers name such a tab: its host and path,
 * without scheme, port, query or fragment ("127.0.0.1/kiosk/7"), the host alone for "/". */
char *
nearby_url_display_host_path (const char *url)
{
  g_autofree char *host = nearby_url_display_host (url, NULL);
  g_autofree char *joined = NULL;
  g_autoptr(GUri) uri = NULL;
  const char *path;

  if (*host == '\0')
    return g_steal_pointer (&host);

  uri = parse_url (url, NULL);
  path = g_uri_get_path (uri);
  if (path == NULL || *path == '\0' || g_str_equal (path, "/"))
    return g_steal_pointer (&host);

  if (strchr (host, ':') != NULL)
    joined = g_strdup_printf ("[%s]%s", host, path);
  else
    joined = g_strconcat (host, path, NULL);

  return nearby_text_clean (joined, -1, DISPLAY_MAX_CHARS);
}

/* The one rule for every address Nearby opens, a beacon's or a page's action: without its
 * userinfo. "https://bank.example@evil.example/" goes to evil.example either way, so dropping
 * "bank.example@" changes nothing but what the browser shows and what it sends (credentials);
 * it is also what the resolver fetched, so the page opened is the page described. NULL when
 * @url is not a web address. */
char *
nearby_url_without_userinfo (const char *url)
{
  g_autoptr(GUri) uri = NULL;
  g_autoptr(GUri) bare = NULL;

  if (!nearby_url_is_fetchable (url))
    return NULL;

  uri = parse_url (url, NULL);
  if (g_uri_get_userinfo (uri) == NULL)
    return g_strdup (url);

  bare = g_uri_build (G_URI_FLAGS_ENCODED_PATH | G_URI_FLAGS_ENCODED_QUERY |
                      G_URI_FLAGS_ENCODED_FRAGMENT | G_URI_FLAGS_SCHEME_NORMALIZE,
                      g_uri_get_scheme (uri), NULL, g_uri_get_host (uri), g_uri_get_port (uri),
                      g_uri_get_path (uri), g_uri_get_query (uri), g_uri_get_fragment (uri));

  return g_uri_to_string (bare);
}

/* What a person hides when they hide a site: the registrable domain (shop.example.co.uk for
 * www.shop.example.co.uk), as browsers scope cookies, so that a.example and b.example go
 * together. An address, "localhost", a single label or a public suffix has no such domain:
 * the host itself is the site. In the host's display form (lower case, Unicode only when that
 * cannot mislead), never with userinfo or port; NULL when @url has no host. */
char *
nearby_url_site (const char *url)
{
  g_autoptr(GUri) uri = url != NULL ? parse_url (url, NULL) : NULL;
  NearbyUrlDisplayFlags flags = NEARBY_URL_DISPLAY_NONE;
  g_autofree char *ascii = NULL;
  const char *host;
  const char *base;
  gsize len;

  if (uri == NULL || (host = g_uri_get_host (uri)) == NULL || *host == '\0')
    return NULL;
  if (g_hostname_is_ip_address (host))
    return g_ascii_strdown (host, -1);

  ascii = g_hostname_to_ascii (host);
  if (ascii == NULL)
    return display_host_for (host, &flags);
  len = strlen (ascii);
  if (len > 1 && ascii[len - 1] == '.')
    ascii[len - 1] = '\0';

  base = soup_tld_get_base_domain (ascii, NULL);

  return display_host_for (base != NULL ? base : ascii, &flags);
}
