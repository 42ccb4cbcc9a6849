/* nearby-cli-resolve.c: `nearby resolve`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-cli"

#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>

#include "nearby-cli.h"
#include "nearby-text.h"
#include "nearby-history.h"
#include "nearby-resolver.h"

typedef struct {
  GMainLoop   *loop;
  NearbyPage **pages;
  guint        remaining;
} ResolveRun;

typedef struct {
  ResolveRun *run;
  guint       index;
} ResolveSlot;

static void
on_resolved (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  ResolveSlot *slot = user_data;
  g_autoptr(GError) error = NULL;
  NearbyPage *page;

  page = nearby_resolver_resolve_finish (NEARBY_RESOLVER (source), result, &error);
  if (page == NULL)
    g_printerr ("nearby resolve: %s\n", error->message);
  slot->run->pages[slot->index] = page;
  if (--slot->run->remaining == 0)
    g_main_loop_quit (slot->run->loop);
  g_free (slot);
}

/* g_print() or g_printerr(): a page that did not resolve is a failure, told on stderr. */
typedef void (*PrintFunc) (const char *format,
                           ...) G_GNUC_PRINTF (1, 2);

static void
print_row (PrintFunc   print,
           const char *label,
           const char *value)
{
  /* Column width in characters, not bytes, so translated labels line up. */
  int pad = 13 - (int) g_utf8_strlen (label, -1);

  print ("  %s%*s %s\n", label, MAX (pad, 0), "", value);
}

static void
print_page (NearbyPage *page,
            PrintFunc   print)
{
  g_autofree char *shown_url = nearby_url_display (page->url, NULL);

  print ("%s\n", shown_url);

  if (page->error != NULL)
    {
      g_autofree char *text = g_strdup_printf ("%s (%s)", page->error->message,
                                               nearby_page_get_error_code (page));

      print_row (print, _("Error"), text);
    }

  if (page->title != NULL)
    print_row (print, _("Title"), page->title);
  if (page->description != NULL)
    print_row (print, _("Description"), page->description);
  if (page->final_url != NULL)
    {
      g_autofree char *shown = nearby_url_display (page->final_url, NULL);
      g_autofree char *text = g_strdup_printf ("%s (%u)", shown, page->status);

      print_row (print, _("Final URL"), text);
    }
  for (guint i = 0; i < page->redirects->len; i++)
    {
      NearbyRedirect *redirect = g_ptr_array_index (page->redirects, i);
      g_autofree char *shown = nearby_url_display (redirect->url, NULL);
      g_autofree char *text = g_strdup_printf ("%u %s", redirect->status, shown);

      print_row (print, i == 0 ? _("Redirects") : "", text);
    }
  if (page->manifest_name != NULL)
    print_row (print, _("App name"), page->manifest_name);
  if (page->icon_type != NULL)
    {
      g_autofree char *text = g_strdup_printf ("%s %d×%d  %s", page->icon_type,
                                               page->icon_width, page->icon_height,
                                               page->icon_url ? page->icon_url : "");

      print_row (print, _("Icon"), text);
    }
  else if (page->error == NULL)
    {
      print_row (print, _("Icon"), _("none"));
    }
  for (guint i = 0; i < page->actions->len; i++)
    {
      NearbyPageAction *action = g_ptr_array_index (page->actions, i);
      g_autofree char *text = g_strdup_printf ("%s  %s", action->title, action->url);

      print_row (print, i == 0 ? _("Actions") : "", text);
    }
  if (page->from_cache)
    {
      print_row (print, _("Timings"), _("from the cache"));
    }
  else if (page->final_url != NULL)
    {
      g_autofree char *text = g_strdup_printf (_("headers %.0f ms, total %.0f ms"),
                                               page->headers_us / 1000.0,
                                               page->total_us / 1000.0);

      print_row (print, _("Timings"), text);
    }
}

static void
on_cache_settled (GObject      *source,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  nearby_history_cache_prune_finish (NEARBY_HISTORY (source), result, NULL);
  g_main_loop_quit (user_data);
}

static void
on_history_opened (GObject      *source,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  NearbyHistory *history = NEARBY_HISTORY (source);

  /* A damaged cache was set aside: worth a line, never a failure. */
  if (nearby_history_open_finish (history, result, NULL) &&
      nearby_history_get_problem (history) != NULL)
    g_printerr ("nearby resolve: %s\n", nearby_history_get_problem (history));
}

int
nearby_cli_resolve (int    argc,
                    char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(NearbyResolver) resolver = NULL;
  g_autoptr(NearbyHistory) history = NULL;
  g_autoptr(GMainLoop) loop = NULL;
  g_auto(GStrv) urls = NULL;
  gboolean json = FALSE;
  gboolean no_cache = FALSE;
  gboolean automatic = FALSE;
  int timeout = 0;
  int status = NEARBY_EXIT_OK;
  ResolveRun run = { 0 };
  guint n_urls;
  guint n_resolved = 0;
  guint n_failed = 0;
  GOptionEntry entries[] = {
    { "json", 'j', 0, G_OPTION_ARG_NONE, &json, N_("One JSON object per URL, one per line"), NULL },
    { "no-cache", 0, 0, G_OPTION_ARG_NONE, &no_cache, N_("Fetch again even when a cached result is fresh"), NULL },
    { "automatic", 0, 0, G_OPTION_ARG_NONE, &automatic,
      N_("Apply the app’s automatic policy: public https only"), NULL },
    { "timeout", 0, 0, G_OPTION_ARG_INT, &timeout, N_("Give up on a URL after this long (default 20)"), N_("SECONDS") },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &urls, NULL, N_("URL…") },
    { NULL }
  };

  context = g_option_context_new (NULL);
  g_option_context_set_summary (context, _("Resolves each URL as the app does and shows what its row "
                                           "would show: title, description, icon, actions, redirects."));
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    return nearby_cli_usage_error (context, error->message);
  if (urls == NULL || urls[0] == NULL)
    return nearby_cli_usage_error (context, _("Give at least one URL"));
  if (timeout < 0 || timeout > 600)
    return nearby_cli_usage_error (context, _("The timeout is between 1 and 600 seconds"));

  resolver = nearby_resolver_new ();
  if (timeout > 0)
    nearby_resolver_set_deadline (resolver, (guint) timeout * 1000);
  /* The app's own cache: what is resolved here is what the list shows, and --no-cache both
   * bypasses it and puts the fresh result in it (a kiosk developer changed the page). */
  history = nearby_history_new (NULL);
  nearby_history_open_async (history, NULL, on_history_opened, NULL);
  nearby_resolver_set_cache (resolver, NEARBY_PAGE_CACHE (history));

  n_urls = g_strv_length (urls);
  loop = g_main_loop_new (NULL, FALSE);
  run.loop = loop;
  run.pages = g_new0 (NearbyPage *, n_urls);
  run.remaining = n_urls;

  for (guint i = 0; i < n_urls; i++)
    {
      ResolveSlot *slot = g_new0 (ResolveSlot, 1);

      slot->run = &run;
      slot->index = i;
      /* Explicit: the user named these URLs, so http and local addresses are fine. */
      nearby_resolver_resolve_async (resolver, urls[i],
                                     automatic ? NEARBY_URL_POLICY_AUTOMATIC : NEARBY_URL_POLICY_EXPLICIT,
                                     no_cache ? NEARBY_RESOLVE_FLAGS_REFRESH : NEARBY_RESOLVE_FLAGS_NONE,
                                     (int) i, NULL, on_resolved, slot);
    }

  if (run.remaining > 0)
    g_main_loop_run (loop);

  /* History jobs run in order: once this one is done, the results above are in the cache
   * before the process exits. */
  nearby_history_cache_prune_async (history, NULL, on_cache_settled, loop);
  g_main_loop_run (loop);

  /* The results were to be kept in the app's cache: when they could not be, that is a
   * failure to say (the reason the history could not be opened was said already). */
  if (nearby_history_get_write_problem (history) != NULL)
    g_printerr ("nearby resolve: %s\n", nearby_history_get_write_problem (history));
  if (nearby_history_get_write_problem (history) != NULL || !nearby_history_get_persistent (history))
    status = NEARBY_EXIT_FAILED;

  for (guint i = 0; i < n_urls; i++)
    {
      NearbyPage *page = run.pages[i];

      if (page == NULL || page->error != NULL)
        status = NEARBY_EXIT_FAILED;
      if (page == NULL)
        continue;

      if (json)
        {
          g_autofree char *json_text = nearby_page_to_json (page);
          /* \u202e is the same JSON string as the character, which a terminal would obey. */
          g_autofree char *text = nearby_text_escape_for_terminal (json_text);

          /* JSON is UTF-8 whatever the locale: bypass g_print's conversion. */
          fputs (text, stdout);
          fputc ('\n', stdout);
        }
      else if (page->error != NULL)
        {
          if (n_failed++ > 0)
            g_printerr ("\n");
          print_page (page, g_printerr);
        }
      else
        {
          if (n_resolved++ > 0)
            g_print ("\n");
          print_page (page, g_print);
        }
      nearby_page_unref (page);
    }
  g_free (run.pages);

  return status;
}
