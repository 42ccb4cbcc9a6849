/* test-inspector.c: what the Details window shows
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <adwaita.h>
#include <string.h>

#include "nearby-frame-row.h"
#include "nearby-inspector.h"
#include "nearby-resources.h"
#include "nearby-signal-graph.h"
#include "object-list-fixture.h"

static const guint8 url_bytes[] = { 0x10, 0xee, 0x03, 'b', 'u', 's', 0x07 };

/* The bus stop's beacon, as the scanner would report it: with the service data it came in. */
static void
emit (Fixture    *fixture,
      const char *address)
{
  NearbyFrame frame = nearby_test_url_frame ("https://bus.example/", -18);

  nearby_test_source_emit (fixture->source, address, fixture->clock.now_us, -70, &frame,
                           url_bytes, sizeof url_bytes);
}

static GArray *
samples_of (double rssi,
            double distance)
{
  GArray *samples = g_array_new (FALSE, FALSE, sizeof (NearbyObjectSample));
  NearbyObjectSample sample = { 1000 * SECOND, rssi, distance };

  g_array_append_val (samples, sample);
  return samples;
}

/* What a screen reader says for the graph: the last value, in words. */
static void
test_graph_description (void)
{
  g_autoptr(GArray) known = samples_of (-62.3, 1.26);
  g_autoptr(GArray) unknown = samples_of (-80.0, -1.0);
  g_autoptr(GArray) empty = g_array_new (FALSE, FALSE, sizeof (NearbyObjectSample));
  g_autofree char *text = NULL;

  text = nearby_signal_graph_describe (known);
  g_assert_cmpstr (text, ==, "Signal \u221262 dBm, about 1.3 m, over the last minute");
  g_free (text);
  text = nearby_signal_graph_describe (unknown);
  g_assert_cmpstr (text, ==, "Signal \u221280 dBm, distance unknown, over the last minute");
  g_free (text);
  text = nearby_signal_graph_describe (empty);
  g_assert_cmpstr (text, ==, "No signal heard yet");
  g_free (text);
  text = nearby_signal_graph_describe (NULL);
  g_assert_cmpstr (text, ==, "No signal heard yet");
}

static gboolean
init_display (void)
{
  if (!gtk_init_check ())
    return FALSE;
  adw_init ();
  g_resources_register (nearby_get_resource ());
  return TRUE;
}

/* The labels of @widget and its children, one string. */
static char *
texts_of (GtkWidget *widget)
{
  GString *texts = g_string_new (NULL);

  if (GTK_IS_LABEL (widget) && gtk_widget_get_visible (widget))
    g_string_append_printf (texts, "%s\n", gtk_label_get_text (GTK_LABEL (widget)));
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      g_autofree char *inner = texts_of (child);

      g_string_append (texts, inner);
    }

  return g_string_free (texts, FALSE);
}

/* A frame's row: its kind, its fields, and the bytes it came from; a rejected frame says why. */
static void
test_frame_row (Fixture       *fixture,
               gconstpointer  data)
{
  NearbyObjectList *list = fixture->list;
  const NearbyObjectDevice *device;
  GtkWidget *row;
  NearbyFrame rejected = { 0 };
  g_autofree char *texts = NULL;

  if (!init_display ())
    {
      g_test_skip ("needs a display");
      return;
    }

  emit (fixture, "C0:FF:EE:00:00:01");
  nearby_object_list_flush (list);
  device = nearby_object_get_device (nearby_object_list_get_object_by_key (list,
                                                                           "https://bus.example/"),
                                     0);

  row = g_object_ref_sink (nearby_frame_row_new ());
  nearby_frame_row_set_frame (NEARBY_FRAME_ROW (row), device,
                              nearby_object_device_get_frame (device, NEARBY_FRAME_KIND_URL));
  texts = texts_of (row);
  g_assert_nonnull (strstr (texts, "Eddystone-URL\n"));
  g_assert_nonnull (strstr (texts, "URL\thttps://bus.example/\n"));
  g_assert_nonnull (strstr (texts, "Power at 0 m\t\u221218 dBm\n"));
  g_assert_nonnull (strstr (texts, "Service data 0xFEAA: 10 ee 03 62 75 73 07\n"));
  g_clear_pointer (&texts, g_free);

  rejected.protocol = NEARBY_PROTOCOL_EDDYSTONE;
  rejected.kind = NEARBY_FRAME_KIND_URL;
  rejected.service_uuid = NEARBY_UUID16_EDDYSTONE;
  rejected.error = NEARBY_FRAME_ERROR_RESERVED_BYTE;
  rejected.error_offset = 4;
  rejected.error_byte = 0x1f;
  nearby_frame_row_set_frame (NEARBY_FRAME_ROW (row), device, &rejected);
  texts = texts_of (row);
  g_assert_nonnull (strstr (texts, "Rejected\tByte 4 of the URL frame is 0x1F, which is reserved"));

  g_object_unref (row);
}

/* An object that expires keeps its inspector, which says so; heard again, it comes back. */
static void
test_expiry (Fixture       *fixture,
            gconstpointer  data)
{
  NearbyObjectList *list = fixture->list;
  NearbyInspector *inspector;
  NearbyObject *object;
  NearbyObject *again;

  if (!init_display ())
    {
      g_test_skip ("needs a display");
      return;
    }

  nearby_object_list_set_expiry_timeout (list, 30000);
  emit (fixture, "C0:FF:EE:00:00:01");
  nearby_object_list_flush (list);
  object = nearby_object_list_get_object_by_key (list, "https://bus.example/");

  inspector = nearby_inspector_new (object, list);
  g_object_ref_sink (inspector);
  gtk_window_present (GTK_WINDOW (inspector));
  g_assert_false (nearby_inspector_get_expired (inspector));

  fixture->clock.now_us += 31 * SECOND;
  nearby_object_list_flush (list);
  g_assert_null (nearby_object_list_get_object_by_key (list, "https://bus.example/"));
  g_assert_true (nearby_inspector_get_expired (inspector));
  /* The last data stays on screen. */
  g_assert_true (nearby_inspector_get_object (inspector) == object);
  g_assert_cmpstr (nearby_object_get_url (nearby_inspector_get_object (inspector)), ==,
                   "https://bus.example/");

  /* No crash when a page log arrives late, and back to the placeholder with none. */
  nearby_inspector_set_page_log (inspector, (const char *const[]) { "GET https://bus.example/ → 200",
                                                                    "<b>not markup</b>", NULL });
  nearby_inspector_set_page_log (inspector, NULL);

  fixture->clock.now_us += SECOND;
  emit (fixture, "C0:FF:EE:00:00:02");
  nearby_object_list_flush (list);
  again = nearby_object_list_get_object_by_key (list, "https://bus.example/");
  g_assert_nonnull (again);
  g_assert_true (nearby_inspector_get_object (inspector) == again);
  g_assert_false (nearby_inspector_get_expired (inspector));

  gtk_window_destroy (GTK_WINDOW (inspector));
  g_object_unref (inspector);
}

int
main (int   argc,
      char *argv[])
{
  /* No session bus here, hence no accessibility bus either. */
  g_setenv ("GTK_A11Y", "none", TRUE);
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/inspector/graph-description", test_graph_description);
  add_fixture_test ("/inspector/frame-row", test_frame_row);
  add_fixture_test ("/inspector/expiry", test_expiry);

  return g_test_run ();
}
