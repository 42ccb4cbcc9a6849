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

#define SECOND ((gint64) G_USEC_PER_SEC)

/* A NearbySource that emits what the test tells it to. */
struct _TestSource
{
  GObject parent_instance;
};

#define TEST_TYPE_SOURCE (test_source_get_type ())
G_DECLARE_FINAL_TYPE (TestSource, test_source, TEST, SOURCE, GObject)
G_DEFINE_FINAL_TYPE_WITH_CODE (TestSource, test_source, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (NEARBY_TYPE_SOURCE, NULL))

static void
test_source_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  if (prop_id == 1)
    g_value_set_enum (value, NEARBY_SOURCE_STATE_SCANNING);
  else
    g_value_set_string (value, NULL);
}

static void
test_source_class_init (TestSourceClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = test_source_get_property;
  g_object_class_override_property (object_class, 1, "state");
  g_object_class_override_property (object_class, 2, "state-message");
}

static void
test_source_init (TestSource *self)
{
}

static gint64 fake_now;

static gint64
fake_clock (gpointer user_data)
{
  return fake_now;
}

static const guint8 url_bytes[] = { 0x10, 0xee, 0x03, 'b', 'u', 's', 0x07 };

static void
emit (TestSource  *source,
      const char  *address)
{
  NearbySighting sighting = { 0 };

  sighting.address = (char *) address;
  sighting.time_us = fake_now;
  sighting.rssi = -70;
  sighting.frame.protocol = NEARBY_PROTOCOL_EDDYSTONE;
  sighting.frame.service_uuid = NEARBY_UUID16_EDDYSTONE;
  sighting.frame.kind = NEARBY_FRAME_KIND_URL;
  sighting.frame.tx_power_known = TRUE;
  sighting.frame.tx_power = -18;
  g_strlcpy (sighting.frame.url, "https://bus.example/", sizeof sighting.frame.url);
  memcpy (sighting.raw, url_bytes, sizeof url_bytes);
  sighting.raw_len = sizeof url_bytes;
  nearby_source_emit_sighting (NEARBY_SOURCE (source), &sighting);
}

static NearbyObjectList *
new_list (TestSource **source)
{
  NearbyObjectList *list;

  fake_now = 1000 * SECOND;
  *source = g_object_new (TEST_TYPE_SOURCE, NULL);
  list = nearby_object_list_new (NEARBY_SOURCE (*source));
  nearby_object_list_set_clock (list, fake_clock, NULL);
  return list;
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
test_frame_row (void)
{
  g_autoptr(TestSource) source = NULL;
  g_autoptr(NearbyObjectList) list = NULL;
  const NearbyObjectDevice *device;
  GtkWidget *row;
  NearbyFrame rejected = { 0 };
  g_autofree char *texts = NULL;

  if (!init_display ())
    {
      g_test_skip ("needs a display");
      return;
    }

  list = new_list (&source);
  emit (source, "C0:FF:EE:00:00:01");
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
test_expiry (void)
{
  g_autoptr(TestSource) source = NULL;
  g_autoptr(NearbyObjectList) list = NULL;
  NearbyInspector *inspector;
  NearbyObject *object;
  NearbyObject *again;

  if (!init_display ())
    {
      g_test_skip ("needs a display");
      return;
    }

  list = new_list (&source);
  nearby_object_list_set_expiry_timeout (list, 30000);
  emit (source, "C0:FF:EE:00:00:01");
  nearby_object_list_flush (list);
  object = nearby_object_list_get_object_by_key (list, "https://bus.example/");

  inspector = nearby_inspector_new (object, list);
  g_object_ref_sink (inspector);
  gtk_window_present (GTK_WINDOW (inspector));
  g_assert_false (nearby_inspector_get_expired (inspector));

  fake_now += 31 * SECOND;
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

  fake_now += SECOND;
  emit (source, "C0:FF:EE:00:00:02");
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
  g_test_add_func ("/inspector/frame-row", test_frame_row);
  g_test_add_func ("/inspector/expiry", test_expiry);

  return g_test_run ();
}
