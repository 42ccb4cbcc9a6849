/* bench-pages.c: a corpus of page shapes as real sites write their heads, written to a directory
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each generated page is 20 – 200 KiB, as saved news, blog and reference pages are, and takes
 * one of the shapes below: what tag managers, consent tools and build pipelines put in a head
 * before or around the title. Same seed, same pages, so runs compare. Every .html file of
 * @extra_dir (tests/data/pages, the hand-made corpus) is served too, as it is.
 */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "bench-pages.h"
#include "nearby-test-utils.h"

typedef enum {
  SHAPE_PLAIN,
  SHAPE_TAG_MANAGER,
  SHAPE_CONSENT,
  SHAPE_HEAVY_HEAD,
  SHAPE_SVG_SPRITE,
  SHAPE_BODY_ONLY_DESCRIPTION,
  SHAPE_ENTITIES,
  SHAPE_OG_ONLY,
  N_SHAPES
} Shape;

static const char * const shape_names[] = {
  "plain head",
  "tag-manager noscript iframe before the title",
  "consent <div> in the head before the title",
  "100 KiB of inline script and style before the title",
  "inline SVG sprite, og:description only",
  "no description meta: the body's first paragraph after the nav",
  "title with entities and newlines",
  "og:title and twitter:title, no <title>",
};

static const char * const words[] = {
  "council", "river", "bridge", "station", "museum", "archive", "weather", "market", "school",
  "library", "harbour", "festival", "report", "budget", "garden", "tram", "exhibit", "engine",
  "street", "winter", "summer", "reader", "minister", "company", "record", "season", "plan",
  "the", "of", "and", "to", "in", "a", "for", "on", "with", "after", "before", "new", "old",
};

void
bench_page_free (BenchPage *page)
{
  g_free (page->path);
  g_free (page->icon_path);
  g_free (page->shape);
  g_free (page);
}

static void
append_words (GString *out,
              GRand   *rand,
              guint    n)
{
  for (guint i = 0; i < n; i++)
    {
      if (i > 0)
        g_string_append_c (out, ' ');
      g_string_append (out, words[g_rand_int_range (rand, 0, G_N_ELEMENTS (words))]);
    }
}

static void
append_script (GString *out,
               GRand   *rand,
               gsize    bytes)
{
  gsize start = out->len;

  g_string_append (out, "<script>window.dataLayer=window.dataLayer||[];\n");
  while (out->len - start < bytes)
    {
      g_string_append_printf (out, "  dataLayer.push({'event':'view','id':%u,'label':'",
                              g_rand_int (rand));
      append_words (out, rand, 6);
      g_string_append (out, "'});\n");
    }
  g_string_append (out, "</script>\n");
}

static void
append_style (GString *out,
              GRand   *rand,
              gsize    bytes)
{
  gsize start = out->len;

  g_string_append (out, "<style>");
  while (out->len - start < bytes)
    g_string_append_printf (out, ".c%u{margin:0 %upx;color:#%06x}\n", g_rand_int_range (rand, 0, 9999),
                            g_rand_int_range (rand, 0, 40), g_rand_int_range (rand, 0, 0xffffff));
  g_string_append (out, "</style>\n");
}

static char *
page_html (guint  index,
           Shape  shape,
           gsize  size,
           GRand *rand)
{
  g_autoptr(GString) out = g_string_new ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n");
  g_autoptr(GString) title = g_string_new (NULL);
  g_autoptr(GString) description = g_string_new (NULL);

  g_string_append_printf (title, "Story %u: ", index);
  if (shape == SHAPE_ENTITIES)
    g_string_append (title, "Caf&eacute; &amp; Bar &#8211; the winter&nbsp;menu");
  else
    append_words (title, rand, 6);
  append_words (description, rand, 24);

  if (shape == SHAPE_TAG_MANAGER)
    g_string_append (out, "<script>(function(w,d,s,l,i){w[l]=w[l]||[];})(window,document,"
                          "'script','dataLayer','GTM-XXXX');</script>\n<noscript><iframe "
                          "src=\"https://www.googletagmanager.com/ns.html?id=GTM-XXXX\" "
                          "height=\"0\" width=\"0\" style=\"display:none;visibility:hidden\">"
                          "</iframe></noscript>\n");
  if (shape == SHAPE_CONSENT)
    g_string_append (out, "<div id=\"consent\" class=\"cmp-banner\" hidden>We use cookies to "
                          "improve your experience. <a href=\"/privacy\">Privacy</a></div>\n");
  g_string_append (out, "<meta charset=\"utf-8\">\n"
                        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
  if (shape == SHAPE_HEAVY_HEAD)
    {
      append_script (out, rand, 70 * 1024);
      append_style (out, rand, 30 * 1024);
    }
  else
    {
      append_script (out, rand, g_rand_int_range (rand, 2, 12) * 1024);
      append_style (out, rand, g_rand_int_range (rand, 1, 6) * 1024);
    }

  if (shape == SHAPE_ENTITIES)
    g_string_append_printf (out, "<title>\n    %s\n  </title>\n", title->str);
  else if (shape != SHAPE_OG_ONLY)
    g_string_append_printf (out, "<title>%s</title>\n", title->str);

  if (shape != SHAPE_SVG_SPRITE && shape != SHAPE_BODY_ONLY_DESCRIPTION)
    g_string_append_printf (out, "<meta name=\"description\" content=\"%s\">\n",
                            description->str);
  g_string_append_printf (out, "<meta property=\"og:title\" content=\"%s\">\n"
                               "<meta property=\"og:type\" content=\"article\">\n"
                               "<meta property=\"og:image\" content=\"/images/lead-%u.jpg\">\n",
                          title->str, index);
  if (shape != SHAPE_BODY_ONLY_DESCRIPTION)
    g_string_append_printf (out, "<meta property=\"og:description\" content=\"%s\">\n",
                            description->str);
  g_string_append_printf (out, "<meta name=\"twitter:card\" content=\"summary_large_image\">\n"
                               "<meta name=\"twitter:title\" content=\"%s\">\n"
                               "<link rel=\"icon\" type=\"image/png\" sizes=\"32x32\" "
                               "href=\"/icons/%03u.png\">\n"
                               "<link rel=\"stylesheet\" href=\"/css/site.css\">\n"
                               "<script async src=\"/js/site.js\"></script>\n"
                               "</head>\n<body>\n",
                          title->str, index);

  if (shape == SHAPE_SVG_SPRITE)
    {
      g_string_append (out, "<svg xmlns=\"http://www.w3.org/2000/svg\" style=\"display:none\">");
      for (guint i = 0; i < 40; i++)
        g_string_append_printf (out, "<symbol id=\"i%u\" viewBox=\"0 0 24 24\"><path d=\"M%u 2l"
                                     "10 10-10 10z\"/></symbol>", i, i % 12);
      g_string_append (out, "</svg>\n");
    }
  g_string_append (out, "<a class=\"skip\" href=\"#main\">Skip to content</a>\n<header><nav>"
                        "<a href=\"/\">Home</a> <a href=\"/news\">News</a> <a href=\"/sport\">"
                        "Sport</a> <a href=\"/weather\">Weather</a></nav></header>\n"
                        "<main id=\"main\"><article>\n");
  g_string_append_printf (out, "<h1>%s</h1>\n<p>", title->str);
  append_words (out, rand, 40);
  g_string_append (out, ".</p>\n");
  while (out->len < size)
    {
      g_string_append (out, "<p>");
      append_words (out, rand, 120);
      g_string_append (out, ".</p>\n");
    }
  g_string_append (out, "</article></main>\n<footer>&copy; The Daily Example</footer>\n"
                        "</body>\n</html>\n");

  return g_string_free (g_steal_pointer (&out), FALSE);
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(char * const *) a, *(char * const *) b);
}

/* Writes the corpus below @dir (pages/, icons/) and returns its pages in order. */
GPtrArray *
bench_pages_write (const char *dir,
                   guint       n_generated,
                   const char *extra_dir)
{
  GPtrArray *pages = g_ptr_array_new_with_free_func ((GDestroyNotify) bench_page_free);
  g_autoptr(GRand) rand = g_rand_new_with_seed (14);
  g_autoptr(GBytes) png = nearby_test_make_image ("png", 32, 32);
  g_autofree char *pages_dir = g_build_filename (dir, "pages", NULL);
  g_autofree char *icons_dir = g_build_filename (dir, "icons", NULL);
  g_autofree char *corpus_dir = g_build_filename (dir, "pages", "corpus", NULL);
  g_autoptr(GDir) extra = NULL;

  g_assert_cmpint (g_mkdir_with_parents (pages_dir, 0700), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (corpus_dir, 0700), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (icons_dir, 0700), ==, 0);
  g_assert_cmpuint (G_N_ELEMENTS (shape_names), ==, N_SHAPES);

  for (guint i = 0; i < n_generated; i++)
    {
      BenchPage *page = g_new0 (BenchPage, 1);
      Shape shape = i % N_SHAPES;
      gsize size = (gsize) g_rand_int_range (rand, 20, 201) * 1024;
      g_autofree char *html = page_html (i, shape, size, rand);
      g_autofree char *path = NULL;

      page->path = g_strdup_printf ("pages/p%03u.html", i);
      page->icon_path = g_strdup_printf ("icons/%03u.png", i);
      page->shape = g_strdup (shape_names[shape]);
      path = g_build_filename (dir, page->path, NULL);
      nearby_test_write_file (path, html, strlen (html));
      g_free (path);
      path = g_build_filename (dir, page->icon_path, NULL);
      nearby_test_write_file (path, g_bytes_get_data (png, NULL), g_bytes_get_size (png));
      g_ptr_array_add (pages, page);
    }

  extra = extra_dir ? g_dir_open (extra_dir, 0, NULL) : NULL;
  if (extra != NULL)
    {
      g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
      const char *name;

      while ((name = g_dir_read_name (extra)) != NULL)
        {
          if (g_str_has_suffix (name, ".html"))
            g_ptr_array_add (names, g_strdup (name));
        }
      g_ptr_array_sort (names, compare_names);
      for (guint i = 0; i < names->len; i++)
        {
          g_autofree char *source = g_build_filename (extra_dir, names->pdata[i], NULL);
          g_autofree char *target = NULL;
          g_autofree char *contents = NULL;
          gsize length;
          BenchPage *page = g_new0 (BenchPage, 1);

          g_assert_true (g_file_get_contents (source, &contents, &length, NULL));
          /* In a directory of their own under their own names: their links are relative
           * (meta-refresh.html goes to meta-refresh-target.html). */
          page->path = g_strdup_printf ("pages/corpus/%s", (char *) names->pdata[i]);
          page->shape = g_strdup_printf ("tests/data/pages/%s", (char *) names->pdata[i]);
          target = g_build_filename (dir, page->path, NULL);
          nearby_test_write_file (target, contents, length);
          g_ptr_array_add (pages, page);
        }
    }

  return pages;
}
