/* test-url-policy.c: what may be fetched, and how a URL is shown
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "nearby-url-policy.h"

static NearbyAddressClass
classify (const char *text)
{
  g_autoptr(GInetAddress) address = g_inet_address_new_from_string (text);

  g_assert_nonnull (address);

  return nearby_url_policy_classify_address (address);
}

static void
test_classify_addresses (void)
{
  struct {
    const char *address;
    NearbyAddressClass klass;
  } cases[] = {
    { "93.184.216.34", NEARBY_ADDRESS_PUBLIC },
    { "8.8.8.8", NEARBY_ADDRESS_PUBLIC },
    { "172.32.0.1", NEARBY_ADDRESS_PUBLIC },
    { "100.128.0.1", NEARBY_ADDRESS_PUBLIC },
    { "2606:4700::1111", NEARBY_ADDRESS_PUBLIC },
    { "127.0.0.1", NEARBY_ADDRESS_LOOPBACK },
    { "127.255.0.9", NEARBY_ADDRESS_LOOPBACK },
    { "0.0.0.0", NEARBY_ADDRESS_LOOPBACK },
    { "::1", NEARBY_ADDRESS_LOOPBACK },
    { "::", NEARBY_ADDRESS_LOOPBACK },
    { "::ffff:127.0.0.1", NEARBY_ADDRESS_LOOPBACK },
    { "10.1.2.3", NEARBY_ADDRESS_LOCAL },
    { "172.16.0.1", NEARBY_ADDRESS_LOCAL },
    { "172.31.255.255", NEARBY_ADDRESS_LOCAL },
    { "192.168.1.1", NEARBY_ADDRESS_LOCAL },
    { "169.254.169.254", NEARBY_ADDRESS_LOCAL },
    { "100.64.0.1", NEARBY_ADDRESS_LOCAL },
    { "100.127.255.254", NEARBY_ADDRESS_LOCAL },
    { "224.0.0.251", NEARBY_ADDRESS_LOCAL },
    { "fc00::1", NEARBY_ADDRESS_LOCAL },
    { "fd12:3456::1", NEARBY_ADDRESS_LOCAL },
    { "fe80::1", NEARBY_ADDRESS_LOCAL },
    { "ff02::fb", NEARBY_ADDRESS_LOCAL },
    { "::ffff:192.168.0.1", NEARBY_ADDRESS_LOCAL },
    { "::ffff:8.8.8.8", NEARBY_ADDRESS_PUBLIC },
    { "64:ff9b::10.0.0.1", NEARBY_ADDRESS_LOCAL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_test_message ("%s", cases[i].address);
      g_assert_cmpstr (nearby_address_class_to_string (classify (cases[i].address)), ==,
                       nearby_address_class_to_string (cases[i].klass));
    }
}

static void
test_classify_hosts (void)
{
  g_assert_cmpint (nearby_url_policy_classify_host ("example.com"), ==, NEARBY_ADDRESS_PUBLIC);
  g_assert_cmpint (nearby_url_policy_classify_host ("localhost"), ==, NEARBY_ADDRESS_LOOPBACK);
  g_assert_cmpint (nearby_url_policy_classify_host ("LOCALHOST."), ==, NEARBY_ADDRESS_LOOPBACK);
  g_assert_cmpint (nearby_url_policy_classify_host ("app.localhost"), ==, NEARBY_ADDRESS_LOOPBACK);
  g_assert_cmpint (nearby_url_policy_classify_host ("printer.local"), ==, NEARBY_ADDRESS_LOCAL);
  g_assert_cmpint (nearby_url_policy_classify_host ("router"), ==, NEARBY_ADDRESS_LOCAL);
  g_assert_cmpint (nearby_url_policy_classify_host ("[::1]"), ==, NEARBY_ADDRESS_LOOPBACK);
  g_assert_cmpint (nearby_url_policy_classify_host ("192.168.0.10"), ==, NEARBY_ADDRESS_LOCAL);
  g_assert_cmpint (nearby_url_policy_classify_host (""), ==, NEARBY_ADDRESS_LOCAL);
}

static void
assert_refused (const char         *url,
                NearbyUrlPolicy     policy,
                NearbyResolveError  code)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GUri) uri = nearby_url_policy_check_url (url, policy, &error);

  g_test_message ("%s", url);
  g_assert_null (uri);
  g_assert_error (error, NEARBY_RESOLVE_ERROR, (int) code);
}

static void
test_check_url (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GUri) public_https = NULL;
  g_autoptr(GUri) with_user = NULL;
  g_autoptr(GUri) local = NULL;
  g_autofree char *stripped = NULL;

  public_https = nearby_url_policy_check_url ("https://example.com/a?b#c", NEARBY_URL_POLICY_AUTOMATIC, &error);
  g_assert_no_error (error);
  g_assert_nonnull (public_https);

  /* Credentials in a broadcast URL are never sent */
  with_user = nearby_url_policy_check_url ("https://bank.example:secret@evil.example/login",
                                           NEARBY_URL_POLICY_AUTOMATIC, &error);
  g_assert_no_error (error);
  stripped = g_uri_to_string (with_user);
  g_assert_cmpstr (stripped, ==, "https://evil.example/login");

  assert_refused ("http://example.com/", NEARBY_URL_POLICY_AUTOMATIC, NEARBY_RESOLVE_ERROR_NEEDS_CONFIRMATION);
  assert_refused ("https://192.168.1.1/", NEARBY_URL_POLICY_ALLOW_HTTP, NEARBY_RESOLVE_ERROR_NEEDS_CONFIRMATION);
  assert_refused ("https://printer.local/", NEARBY_URL_POLICY_AUTOMATIC, NEARBY_RESOLVE_ERROR_NEEDS_CONFIRMATION);
  assert_refused ("https://127.0.0.1/", NEARBY_URL_POLICY_ALLOW_LOCAL, NEARBY_RESOLVE_ERROR_NEEDS_CONFIRMATION);
  assert_refused ("https://[::ffff:7f00:1]/", NEARBY_URL_POLICY_ALLOW_LOCAL, NEARBY_RESOLVE_ERROR_NEEDS_CONFIRMATION);
  assert_refused ("https://localhost:8080/", NEARBY_URL_POLICY_ALLOW_LOCAL, NEARBY_RESOLVE_ERROR_NEEDS_CONFIRMATION);
  assert_refused ("urn:uuid:6ba7b810-9dad-11d1-80b4-00c04fd430c8", NEARBY_URL_POLICY_EXPLICIT,
                  NEARBY_RESOLVE_ERROR_UNSUPPORTED_SCHEME);
  assert_refused ("file:///etc/passwd", NEARBY_URL_POLICY_EXPLICIT, NEARBY_RESOLVE_ERROR_UNSUPPORTED_SCHEME);
  assert_refused ("javascript:alert(1)", NEARBY_URL_POLICY_EXPLICIT, NEARBY_RESOLVE_ERROR_UNSUPPORTED_SCHEME);
  assert_refused ("data:text/html,<b>x</b>", NEARBY_URL_POLICY_EXPLICIT, NEARBY_RESOLVE_ERROR_UNSUPPORTED_SCHEME);
  assert_refused ("https:///path", NEARBY_URL_POLICY_EXPLICIT, NEARBY_RESOLVE_ERROR_INVALID_URL);
  assert_refused ("", NEARBY_URL_POLICY_EXPLICIT, NEARBY_RESOLVE_ERROR_INVALID_URL);
  assert_refused ("not a url", NEARBY_URL_POLICY_EXPLICIT, NEARBY_RESOLVE_ERROR_INVALID_URL);

  local = nearby_url_policy_check_url ("http://192.168.1.1/setup", NEARBY_URL_POLICY_EXPLICIT, &error);
  g_assert_no_error (error);
  g_assert_nonnull (local);

  g_assert_true (nearby_url_is_fetchable ("https://example.com"));
  g_assert_true (nearby_url_is_fetchable ("HTTP://EXAMPLE.COM/"));
  g_assert_false (nearby_url_is_fetchable ("urn:uuid:6ba7b810-9dad-11d1-80b4-00c04fd430c8"));
  g_assert_false (nearby_url_is_fetchable ("ftp://example.com/"));
  g_assert_false (nearby_url_is_fetchable (NULL));
}

/* Links on a page: relative ones resolve against the page, only web addresses come out, and
 * hostile references are refused quietly (this test runs with criticals fatal). */
static void
test_resolve_url (void)
{
  const char *base = "https://shop.example/a/b?c#d";
  g_autofree char *relative = nearby_url_resolve (base, "../icon.png");
  g_autofree char *absolute = nearby_url_resolve (base, " https://cdn.example/i.png\n");

  g_assert_cmpstr (relative, ==, "https://shop.example/icon.png");
  g_assert_cmpstr (absolute, ==, "https://cdn.example/i.png");
  g_assert_null (nearby_url_resolve (base, "javascript:alert(1)"));
  g_assert_null (nearby_url_resolve (base, "data:image/png;base64,AAAA"));
  /* Found by fuzz-url-policy: GLib's relaxed parser failed its own assertion on this one. */
  g_assert_null (nearby_url_resolve (base, "t://;\xd0\xb0"));
  /* Also found by fuzz-url-policy, on web schemes: GLib ends an authority at ';', and then asserts
   * that the path it is left with starts with '/'. */
  g_assert_null (nearby_url_resolve (base, "http://.;.localhost"));
  g_assert_null (nearby_url_resolve (base, "https://a\\b;c"));
  g_assert_null (nearby_url_resolve (base, "//cdn.example;x/i.png"));
  g_assert_null (nearby_url_resolve ("https://shop.example;x/", "i.png"));
  g_assert_null (nearby_url_resolve (base, "http:/.//x"));
  /* A ';' after the host is an ordinary path, query or fragment character. */
  g_clear_pointer (&relative, g_free);
  relative = nearby_url_resolve (base, "//cdn.example/i;v=2.png?a;b#c;d");
  g_assert_cmpstr (relative, ==, "https://cdn.example/i;v=2.png?a;b#c;d");
}

/* What browsers forgive in an href, and what no page needs. */
static void
test_resolve_url_limits (void)
{
  const char *base = "https://shop.example/a/b";
  g_autofree char *split = nearby_url_resolve (base, "ic\ton\n.png");
  g_autofree char *longest = NULL;
  g_autofree char *too_long = NULL;
  g_autoptr(GString) path = g_string_new ("/");

  g_assert_cmpstr (split, ==, "https://shop.example/a/icon.png");
  g_assert_null (nearby_url_resolve (base, NULL));
  g_assert_null (nearby_url_resolve (NULL, "icon.png"));
  g_assert_null (nearby_url_resolve (base, "   "));
  g_assert_null (nearby_url_resolve (base, "https:///no-host.png"));
  g_assert_null (nearby_url_resolve ("urn:uuid:6ba7b810-9dad-11d1-80b4-00c04fd430c8", "icon.png"));

  while (path->len < NEARBY_URL_MAX_LEN)
    g_string_append_c (path, 'x');
  longest = nearby_url_resolve (base, path->str);
  g_assert_nonnull (longest);
  g_string_append_c (path, 'x');
  too_long = nearby_url_resolve (base, path->str);
  g_assert_null (too_long);
}

static void
assert_display (const char            *url,
                const char            *expected,
                const char            *expected_host,
                NearbyUrlDisplayFlags  expected_flags)
{
  NearbyUrlDisplayFlags flags = 0;
  NearbyUrlDisplayFlags host_flags = 0;
  g_autofree char *display = nearby_url_display (url, &flags);
  g_autofree char *host = nearby_url_display_host (url, &host_flags);

  g_test_message ("%s", url);
  g_assert_cmpstr (display, ==, expected);
  g_assert_cmpint (flags, ==, expected_flags);
  if (expected_host != NULL)
    g_assert_cmpstr (host, ==, expected_host);
}

static void
test_display (void)
{
  assert_display ("https://Example.COM/menu?x=1", "https://example.com/menu?x=1", "example.com", 0);
  /* The real host is shown; the userinfo that pretends to be a host is flagged */
  assert_display ("https://bank.com@evil.example/login", "https://evil.example/login", "evil.example",
                  NEARBY_URL_DISPLAY_HAS_USERINFO);
  /* A plain IDN host stays readable */
  assert_display ("https://xn--bcher-kva.example/", "https://bücher.example/", "bücher.example", 0);
  assert_display ("https://café.example/", "https://café.example/", "café.example", 0);
  /* Cyrillic letters posing as “apple”, and Latin mixed with Cyrillic: punycode */
  assert_display ("https://xn--80ak6aa92e.com/", "https://xn--80ak6aa92e.com/", "xn--80ak6aa92e.com",
                  NEARBY_URL_DISPLAY_PUNYCODE);
  assert_display ("https://p\xd0\xb0ypal.com/", "https://xn--pypal-4ve.com/", "xn--pypal-4ve.com",
                  NEARBY_URL_DISPLAY_PUNYCODE);
  /* Punycode that decodes to no character (found by fuzz-url-policy): shown as sent, never as
   * bytes that are not text */
  assert_display ("https://xn--6l0calhos.example/", "https://xn--6l0calhos.example/",
                  "xn--6l0calhos.example", NEARBY_URL_DISPLAY_PUNYCODE);
  /* Real Cyrillic words stay Cyrillic */
  assert_display ("https://xn--d1acufc.xn--p1ai/", "https://домен.рф/", "домен.рф", 0);
  /* Bidi overrides and control characters cannot reorder the path */
  assert_display ("https://example.com/%E2%80%AEfdp.exe\xe2\x80\xae", "https://example.com/%E2%80%AEfdp.exe%E2%80%AE",
                  NULL, 0);
  assert_display ("urn:uuid:6ba7b810-9dad-11d1-80b4-00c04fd430c8",
                  "urn:uuid:6ba7b810-9dad-11d1-80b4-00c04fd430c8", "", NEARBY_URL_DISPLAY_NOT_FETCHABLE);
  assert_display ("http://[::1]:8080/x", "http://[::1]:8080/x", "::1", 0);
}

/* A page without a title is named as a browser names its tab, not by its host alone. */
static void
test_display_host_path (void)
{
  static const struct { const char *url; const char *shown; } cases[] = {
    { "http://127.0.0.1:8080/kiosk/7?lang=de#top", "127.0.0.1/kiosk/7" },
    { "https://Shop.Example/", "shop.example" },
    { "https://shop.example", "shop.example" },
    { "https://bank.example@evil.example/pay", "evil.example/pay" },
    { "http://[::1]:8000/a%20b", "[::1]/a%20b" },
    { "https://xn--bcher-kva.example/b%C3%BCcher", "bücher.example/b%C3%BCcher" },
    { "not a url", "" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *shown = nearby_url_display_host_path (cases[i].url);

      g_assert_cmpstr (shown, ==, cases[i].shown);
    }
}

/* Under the host of an object not looked up yet: what tells 23 objects on one host apart. */
static void
test_display_path (void)
{
  static const struct { const char *url; const char *shown; } cases[] = {
    { "http://127.0.0.1:8080/objects/17?lang=de#top", "/objects/17" },
    { "http://[::1]:8000/1140", "/1140" },
    { "https://shop.example/", NULL },
    { "https://shop.example", NULL },
    { "https://shop.example/a%20b", "/a%20b" },
    { "not a url", NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *shown = nearby_url_display_path (cases[i].url);

      g_assert_cmpstr (shown, ==, cases[i].shown);
    }
}

static void
test_without_userinfo (void)
{
  static const struct { const char *url; const char *opened; } cases[] = {
    { "https://bank.example@evil.example/", "https://evil.example/" },
    { "https://user:secret@shop.example:8443/pay?x=1#top", "https://shop.example:8443/pay?x=1#top" },
    { "http://@127.0.0.1/kiosk", "http://127.0.0.1/kiosk" },
    { "https://shop.example/a@b", "https://shop.example/a@b" },
    { "javascript:alert(1)", NULL },
    { "urn:uuid:6ba7b810-9dad-11d1-80b4-00c04fd430c8", NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *opened = nearby_url_without_userinfo (cases[i].url);

      g_assert_cmpstr (opened, ==, cases[i].opened);
    }
  g_assert_null (nearby_url_without_userinfo (NULL));
}

/* Hiding a site hides its registrable domain; where there is none, the host alone. */
static void
test_site (void)
{
  static const struct { const char *url; const char *site; } cases[] = {
    { "https://www.Example.com/menu", "example.com" },
    { "https://shop.example.com:8443/a", "example.com" },
    { "https://a.b.bbc.co.uk/news", "bbc.co.uk" },
    { "https://co.uk/", "co.uk" },
    { "https://example.com./", "example.com" },
    { "https://bank.example.com@evil.example.org/pay", "example.org" },
    { "http://user:secret@127.0.0.1:8080/kiosk", "127.0.0.1" },
    { "http://10.0.0.7/", "10.0.0.7" },
    { "http://[::1]:8000/x", "::1" },
    { "http://[2001:DB8::1]/", "2001:db8::1" },
    { "http://localhost:8000/", "localhost" },
    { "http://kiosk/", "kiosk" },
    { "https://www.xn--bcher-kva.de/", "bücher.de" },
    { "urn:uuid:6ba7b810-9dad-11d1-80b4-00c04fd430c8", NULL },
    { "not a url", NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *site = nearby_url_site (cases[i].url);

      g_assert_cmpstr (site, ==, cases[i].site);
    }
  g_assert_null (nearby_url_site (NULL));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/url-policy/classify-addresses", test_classify_addresses);
  g_test_add_func ("/url-policy/classify-hosts", test_classify_hosts);
  g_test_add_func ("/url-policy/check-url", test_check_url);
  g_test_add_func ("/url-policy/resolve", test_resolve_url);
  g_test_add_func ("/url-policy/resolve-limits", test_resolve_url_limits);
  g_test_add_func ("/url-policy/display", test_display);
  g_test_add_func ("/url-policy/display-host-path", test_display_host_path);
  g_test_add_func ("/url-policy/display-path", test_display_path);
  g_test_add_func ("/url-policy/without-userinfo", test_without_userinfo);
  g_test_add_func ("/url-policy/site", test_site);

  return g_test_run ();
}
