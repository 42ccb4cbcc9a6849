/* test-section-model.c: the headings between the list's parts, and how they follow the rows
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "nearby-section-model.h"
#include "object-list-fixture.h"

/* What the model shows, as a person reads it: "[here] a [near] b [far] c", each object by the
 * host of its URL, each heading by its section. */
static char *
describe (NearbySectionModel *model)
{
  static const char * const names[] = { "favourites", "here", "near", "far", "unknown" };
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (model)); i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (G_LIST_MODEL (model), i);

      if (text->len > 0)
        g_string_append_c (text, ' ');
      if (NEARBY_IS_SECTION_HEADER (item))
        {
          g_string_append_printf (text, "[%s]",
                                  names[nearby_section_header_get_section (NEARBY_SECTION_HEADER (item))]);
        }
      else
        {
          g_autoptr(GUri) uri = g_uri_parse (nearby_object_get_url (NEARBY_OBJECT (item)),
                                             G_URI_FLAGS_NONE, NULL);
          g_auto(GStrv) labels = g_strsplit (g_uri_get_host (uri), ".", 2);

          g_string_append (text, labels[0]);
        }
    }

  return g_string_free (g_steal_pointer (&text), FALSE);
}

#define assert_shows(model, expected) \
  G_STMT_START { \
    g_autofree char *shown__ = describe (model); \
    g_assert_cmpstr (shown__, ==, expected); \
  } G_STMT_END

/* Every beacon in @urls (at @metres each, same order) heard for @seconds, ten adverts a second. */
static void
hear (Fixture            *fixture,
      const char * const *urls,
      const double       *metres,
      int                 seconds)
{
  for (int tenth = 0; tenth < seconds * 10; tenth++)
    {
      fixture->clock.now_us += SECOND / 10;
      for (guint i = 0; urls[i] != NULL; i++)
        {
          g_autofree char *address = g_strdup_printf ("C0:FF:EE:00:07:%02X", i);

          emit_url (fixture, address, urls[i], metres[i]);
        }
      nearby_object_list_flush (fixture->list);
    }
}

static void
on_items_changed_count (GListModel *model,
                        guint       position,
                        guint       removed,
                        guint       added,
                        guint      *count)
{
  (*count)++;
}

typedef struct {
  guint position, removed, added;
} Change;

static void
on_items_changed_record (GListModel *model,
                         guint       position,
                         guint       removed,
                         guint       added,
                         Change     *change)
{
  change->position = position;
  change->removed = removed;
  change->added = added;
}

/* The last row goes from "Nearby" to "Farther away" where it is: a new heading comes in over it,
 * and the row is announced as changed too (a row that left its distance word to its heading has
 * to say it again until it has the new heading, and to leave it to that one then). */
static void
test_heading_over_a_row_that_stays (Fixture       *fixture,
                                    gconstpointer  data)
{
  const char * const urls[] = { "https://a.example/", "https://b.example/", NULL };
  double metres[] = { 3.0, 4.0 };
  g_autoptr(NearbySectionModel) model = nearby_section_model_new (G_LIST_MODEL (fixture->list));
  Change change = { G_MAXUINT, 0, 0 };

  hear (fixture, urls, metres, 3);
  assert_shows (model, "[near] a b");
  g_assert_cmpint (nearby_section_model_get_section (model, 0), ==, NEARBY_SECTION_NEAR);
  g_assert_cmpint (nearby_section_model_get_section (model, 2), ==, NEARBY_SECTION_NEAR);
  g_signal_connect (model, "items-changed", G_CALLBACK (on_items_changed_record), &change);

  metres[1] = 20.0;
  hear (fixture, urls, metres, 4);
  assert_shows (model, "[near] a [far] b");
  g_assert_cmpint (nearby_section_model_get_section (model, 1), ==, NEARBY_SECTION_NEAR);
  g_assert_cmpint (nearby_section_model_get_section (model, 3), ==, NEARBY_SECTION_FAR);
  g_assert_cmpuint (change.position, <=, 3);
  g_assert_cmpuint (change.position + change.added, >, 3);
}

static void
test_headings (Fixture       *fixture,
               gconstpointer  data)
{
  const char * const urls[] = { "https://a.example/", "https://b.example/", "https://c.example/",
                                "https://d.example/", NULL };
  const double metres[] = { 0.4, 3.0, 20.0, 4.0 };
  g_autoptr(NearbySectionModel) model = nearby_section_model_new (G_LIST_MODEL (fixture->list));

  g_assert_true (nearby_section_model_get_objects (model) == G_LIST_MODEL (fixture->list));
  assert_shows (model, "");

  hear (fixture, urls, metres, 3);
  assert_shows (model, "[here] a [near] b d [far] c");

  /* A favourite heads the list, under a heading of its own; the headings are items of their
   * own, not the objects. */
  nearby_object_set_favourite (nearby_object_list_get_object_by_key (fixture->list,
                                                                     "https://c.example/"), TRUE);
  hear (fixture, urls, metres, 2);
  assert_shows (model, "[favourites] c [here] a [near] b d");

  /* The last favourite gone, so is its heading. */
  nearby_object_set_favourite (nearby_object_list_get_object_by_key (fixture->list,
                                                                     "https://c.example/"), FALSE);
  hear (fixture, urls, metres, 2);
  assert_shows (model, "[here] a [near] b d [far] c");
}

static void
test_row_moves_between_sections (Fixture       *fixture,
                                 gconstpointer  data)
{
  const char * const urls[] = { "https://a.example/", "https://b.example/", "https://c.example/",
                                NULL };
  double metres[] = { 0.4, 3.0, 20.0 };
  g_autoptr(NearbySectionModel) model = nearby_section_model_new (G_LIST_MODEL (fixture->list));
  guint n_changes = 0;

  hear (fixture, urls, metres, 3);
  assert_shows (model, "[here] a [near] b [far] c");
  g_signal_connect (model, "items-changed", G_CALLBACK (on_items_changed_count), &n_changes);

  /* Standing still, nothing changes. */
  hear (fixture, urls, metres, 5);
  assert_shows (model, "[here] a [near] b [far] c");
  g_assert_cmpuint (n_changes, ==, 0);

  /* c is walked up to, nearer than a: from "Farther away" it goes to the top of "Right here". */
  metres[2] = 0.3;
  hear (fixture, urls, metres, 4);
  assert_shows (model, "[here] c a [near] b");

  /* a steps back to the next room: the heading moves over it, a row that stays where it is. */
  metres[0] = 3.0;
  hear (fixture, urls, metres, 4);
  assert_shows (model, "[here] c [near] a b");
}

static void
test_paused (Fixture       *fixture,
             gconstpointer  data)
{
  const char * const urls[] = { "https://a.example/", "https://b.example/", NULL };
  const char * const urls_and_newcomer[] = { "https://a.example/", "https://b.example/",
                                             "https://n.example/", NULL };
  double metres[] = { 20.0, 30.0, 3.0 };
  g_autoptr(NearbySectionModel) model = nearby_section_model_new (G_LIST_MODEL (fixture->list));

  hear (fixture, urls, metres, 3);
  assert_shows (model, "[far] a b");

  /* The pointer is on the list: b comes close, and a newcomer in the room joins at the end,
   * under its own heading. */
  nearby_object_list_set_frozen (fixture->list, TRUE);
  nearby_section_model_set_paused (model, TRUE);
  g_assert_true (nearby_section_model_get_paused (model));
  metres[1] = 0.3;
  hear (fixture, urls_and_newcomer, metres, 4);
  g_assert_cmpint (nearby_object_get_bucket (nearby_object_list_get_object_by_key (fixture->list,
                                                                                   "https://b.example/")),
                   ==, NEARBY_BUCKET_IMMEDIATE);
  assert_shows (model, "[far] a b [near] n");

  /* The pointer leaves: everything goes where it belongs at once. */
  nearby_object_list_set_frozen (fixture->list, FALSE);
  nearby_section_model_set_paused (model, FALSE);
  nearby_object_list_flush (fixture->list);
  assert_shows (model, "[here] b [near] n [far] a");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  add_fixture_test ("/section-model/headings", test_headings);
  add_fixture_test ("/section-model/row-moves-between-sections", test_row_moves_between_sections);
  add_fixture_test ("/section-model/paused", test_paused);
  add_fixture_test ("/section-model/heading-over-a-row-that-stays",
                    test_heading_over_a_row_that_stays);

  return g_test_run ();
}
