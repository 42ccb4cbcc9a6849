/* test-proxy-cache.c: the resolver's memory of proxy answers, against a resolver that counts
 * the questions it is asked
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "nearby-proxy-cache.h"
#include "nearby-test-utils.h"

/* A proxy resolver that answers from its "answer" field, after a main loop turn, and fails for
 * the host fail.test. */

#define TEST_TYPE_COUNTING_RESOLVER (test_counting_resolver_get_type ())
G_DECLARE_FINAL_TYPE (TestCountingResolver, test_counting_resolver, TEST, COUNTING_RESOLVER, GObject)

struct _TestCountingResolver
{
  GObject  parent_instance;
  guint    asked;
  char    *answer;
};

static void test_counting_resolver_iface_init (GProxyResolverInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TestCountingResolver, test_counting_resolver, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_PROXY_RESOLVER,
                                                      test_counting_resolver_iface_init))

static char **
counting_lookup (GProxyResolver  *resolver,
                 const char      *uri,
                 GCancellable    *cancellable,
                 GError         **error)
{
  TestCountingResolver *self = TEST_COUNTING_RESOLVER (resolver);
  char *answer[] = { self->answer, NULL };

  self->asked++;
  if (strstr (uri, "://fail.test") != NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "No answer for %s", uri);
      return NULL;
    }

  return g_strdupv (answer);
}

static gboolean
counting_is_supported (GProxyResolver *resolver)
{
  return TRUE;
}

static void
counting_lookup_async (GProxyResolver      *resolver,
                       const char          *uri,
                       GCancellable        *cancellable,
                       GAsyncReadyCallback  callback,
                       gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (resolver, cancellable, callback, user_data);
  GError *error = NULL;
  char **proxies = counting_lookup (resolver, uri, cancellable, &error);

  /* From an idle, as a resolver on a worker thread answers: never before the caller returns. */
  if (proxies == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, proxies, (GDestroyNotify) g_strfreev);
}

static char **
counting_lookup_finish (GProxyResolver  *resolver,
                        GAsyncResult    *result,
                        GError         **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
test_counting_resolver_iface_init (GProxyResolverInterface *iface)
{
  iface->is_supported = counting_is_supported;
  iface->lookup = counting_lookup;
  iface->lookup_async = counting_lookup_async;
  iface->lookup_finish = counting_lookup_finish;
}

static void
test_counting_resolver_finalize (GObject *object)
{
  g_free (TEST_COUNTING_RESOLVER (object)->answer);

  G_OBJECT_CLASS (test_counting_resolver_parent_class)->finalize (object);
}

static void
test_counting_resolver_class_init (TestCountingResolverClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = test_counting_resolver_finalize;
}

static void
test_counting_resolver_init (TestCountingResolver *self)
{
  self->answer = g_strdup ("direct://");
}

/* Helpers */

static void
on_looked_up (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

/* The first proxy of an asynchronous look-up, or the error's message. */
static char *
lookup (GProxyResolver *cache,
        const char     *uri)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) proxies = NULL;

  g_proxy_resolver_lookup_async (cache, uri, NULL, on_looked_up, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  proxies = g_proxy_resolver_lookup_finish (cache, result, &error);
  if (proxies == NULL)
    return g_strdup (error->message);

  return g_strdup (proxies[0]);
}

static void
assert_lookup (GProxyResolver *cache,
               const char     *uri,
               const char     *expected)
{
  g_autofree char *proxy = lookup (cache, uri);

  g_assert_cmpstr (proxy, ==, expected);
}

static void
flush_main_context (void)
{
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

/* Tests */

static void
test_once_per_host (void)
{
  g_autoptr(TestCountingResolver) counting = g_object_new (TEST_TYPE_COUNTING_RESOLVER, NULL);
  g_autoptr(GProxyResolver) cache = nearby_proxy_cache_new (G_PROXY_RESOLVER (counting));
  g_auto(GStrv) sync_proxies = NULL;

  g_assert_true (g_proxy_resolver_is_supported (cache));

  /* A batch of pages and icons on one site: one question */
  assert_lookup (cache, "http://a.test/page", "direct://");
  assert_lookup (cache, "http://a.test/icon.png", "direct://");
  assert_lookup (cache, "http://a.test:80/other", "direct://");
  g_assert_cmpuint (counting->asked, ==, 1);
  sync_proxies = g_proxy_resolver_lookup (cache, "http://a.test/again", NULL, NULL);
  g_assert_cmpstr (sync_proxies[0], ==, "direct://");
  g_assert_cmpuint (counting->asked, ==, 1);

  /* What is kept can be had without asking at all; what is not is not asked for. */
  {
    g_auto(GStrv) kept = nearby_proxy_cache_lookup_cached (NEARBY_PROXY_CACHE (cache),
                                                           "http://a.test/kept");
    g_auto(GStrv) unknown = nearby_proxy_cache_lookup_cached (NEARBY_PROXY_CACHE (cache),
                                                              "http://c.test/");

    g_assert_nonnull (kept);
    g_assert_cmpstr (kept[0], ==, "direct://");
    g_assert_null (unknown);
    g_assert_cmpuint (counting->asked, ==, 1);
  }

  /* Another host, scheme or port may get another proxy */
  assert_lookup (cache, "http://b.test/", "direct://");
  assert_lookup (cache, "https://a.test/", "direct://");
  assert_lookup (cache, "http://a.test:8080/", "direct://");
  g_assert_cmpuint (counting->asked, ==, 4);

  /* A failed question is asked again */
  assert_lookup (cache, "http://fail.test/", "No answer for http://fail.test/");
  assert_lookup (cache, "http://fail.test/", "No answer for http://fail.test/");
  g_assert_cmpuint (counting->asked, ==, 6);

  /* After a clear, the wrapped resolver's new answer is the one given */
  g_free (counting->answer);
  counting->answer = g_strdup ("http://proxy.test:3128");
  assert_lookup (cache, "http://a.test/page", "direct://");
  nearby_proxy_cache_clear (NEARBY_PROXY_CACHE (cache));
  g_assert_null (nearby_proxy_cache_lookup_cached (NEARBY_PROXY_CACHE (cache), "http://a.test/"));
  assert_lookup (cache, "http://a.test/page", "http://proxy.test:3128");
  g_assert_cmpuint (counting->asked, ==, 7);
}

static void
test_settings_change (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;
  g_autoptr(TestCountingResolver) counting = g_object_new (TEST_TYPE_COUNTING_RESOLVER, NULL);
  g_autoptr(GProxyResolver) cache = NULL;
  g_autoptr(GSettings) proxy_settings = NULL;
  g_autoptr(GSettings) http_settings = NULL;

  if (source != NULL)
    schema = g_settings_schema_source_lookup (source, "org.gnome.system.proxy", TRUE);
  if (schema == NULL)
    {
      g_test_skip ("org.gnome.system.proxy is not installed (gsettings-desktop-schemas)");
      return;
    }

  cache = g_object_new (NEARBY_TYPE_PROXY_CACHE, "resolver", counting, "watch-settings", TRUE,
                        NULL);
  proxy_settings = g_settings_new ("org.gnome.system.proxy");
  http_settings = g_settings_get_child (proxy_settings, "http");

  assert_lookup (cache, "http://a.test/", "direct://");
  assert_lookup (cache, "http://a.test/", "direct://");
  g_assert_cmpuint (counting->asked, ==, 1);

  /* The user turns a proxy on: the next look-up has it, not the answer kept from before */
  g_free (counting->answer);
  counting->answer = g_strdup ("http://proxy.test:3128");
  g_settings_set_string (proxy_settings, "mode", "manual");
  flush_main_context ();
  assert_lookup (cache, "http://a.test/", "http://proxy.test:3128");
  g_assert_cmpuint (counting->asked, ==, 2);
  assert_lookup (cache, "http://a.test/", "http://proxy.test:3128");
  g_assert_cmpuint (counting->asked, ==, 2);

  /* ... and changes its port, in the child schema */
  g_free (counting->answer);
  counting->answer = g_strdup ("http://proxy.test:8080");
  g_settings_set_int (http_settings, "port", 8080);
  flush_main_context ();
  assert_lookup (cache, "http://a.test/", "http://proxy.test:8080");
  g_assert_cmpuint (counting->asked, ==, 3);

  g_settings_reset (http_settings, "port");
  g_settings_reset (proxy_settings, "mode");
  flush_main_context ();
}

/* An answer that comes back after the settings changed was asked under the old settings. */
static void
test_change_while_asking (void)
{
  g_autoptr(TestCountingResolver) counting = g_object_new (TEST_TYPE_COUNTING_RESOLVER, NULL);
  g_autoptr(GProxyResolver) cache = nearby_proxy_cache_new (G_PROXY_RESOLVER (counting));
  g_autoptr(GAsyncResult) result = NULL;
  g_auto(GStrv) proxies = NULL;

  g_proxy_resolver_lookup_async (cache, "http://a.test/", NULL, on_looked_up, &result);
  nearby_proxy_cache_clear (NEARBY_PROXY_CACHE (cache));
  g_free (counting->answer);
  counting->answer = g_strdup ("http://proxy.test:3128");
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  proxies = g_proxy_resolver_lookup_finish (cache, result, NULL);
  g_assert_cmpstr (proxies[0], ==, "direct://");

  assert_lookup (cache, "http://a.test/", "http://proxy.test:3128");
  g_assert_cmpuint (counting->asked, ==, 2);
}

static void
test_max_age (void)
{
  g_autoptr(TestCountingResolver) counting = g_object_new (TEST_TYPE_COUNTING_RESOLVER, NULL);
  g_autoptr(GProxyResolver) cache = nearby_proxy_cache_new (G_PROXY_RESOLVER (counting));

  g_assert_true (nearby_proxy_cache_get_resolver (NEARBY_PROXY_CACHE (cache)) ==
                 G_PROXY_RESOLVER (counting));

  /* Nothing kept: every question is passed on */
  g_object_set (cache, "max-age", 0, NULL);
  assert_lookup (cache, "http://a.test/", "direct://");
  assert_lookup (cache, "http://a.test/", "direct://");
  g_assert_cmpuint (counting->asked, ==, 2);

  /* An answer older than max-age is asked for again, whatever was said of the settings */
  g_object_set (cache, "max-age", 1, NULL);
  assert_lookup (cache, "http://a.test/", "direct://");
  g_usleep (5000);
  g_free (counting->answer);
  counting->answer = g_strdup ("http://proxy.test:3128");
  assert_lookup (cache, "http://a.test/", "http://proxy.test:3128");
  g_assert_cmpuint (counting->asked, ==, 4);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/proxy-cache/once-per-host", test_once_per_host);
  g_test_add_func ("/proxy-cache/settings-change", test_settings_change);
  g_test_add_func ("/proxy-cache/change-while-asking", test_change_while_asking);
  g_test_add_func ("/proxy-cache/max-age", test_max_age);

  return g_test_run ();
}
