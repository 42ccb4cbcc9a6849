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
  /* Without one, GTK's initialisation itself fails assertions, which these tests make fatal. */
  if ((g_getenv ("DISPLAY") == NULL && g_getenv ("WAYLAND_DISPLAY") == NULL) || !gtk_init_check ())
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

/* What @row shows once given @frame. */
static char *
texts_for_frame (GtkWidget                *row,
                 const NearbyObjectDevice *device,
                 const NearbyFrame        *frame)
{
  nearby_frame_row_set_frame (NEARBY_FRAME_ROW (row), device, frame);
  return texts_of (row);
}

/* A frame's row: its kind, its fields, and the bytes it came from; a rejected frame says why.
 * The fields of each kind read as a developer finds them on a beacon's spec sheet. */
static void
test_frame_row (Fixture       *fixture,
               gconstpointer  data)
{
  NearbyObjectList *list = fixture->list;
  const NearbyObjectDevice *device;
  GtkWidget *row;
  NearbyFrame frame = { 0 };
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
  texts = texts_for_frame (row, device,
                           nearby_object_device_get_frame (device, NEARBY_FRAME_KIND_URL));
  g_assert_nonnull (strstr (texts, "Eddystone-URL\n"));
  g_assert_nonnull (strstr (texts, "URL\thttps://bus.example/\n"));
  g_assert_nonnull (strstr (texts, "Power at 0 m\t\u221218 dBm\n"));
  g_assert_nonnull (strstr (texts, "Service data 0xFEAA: 10 ee 03 62 75 73 07\n"));
  g_clear_pointer (&texts, g_free);

  frame.protocol = NEARBY_PROTOCOL_EDDYSTONE;
  frame.service_uuid = NEARBY_UUID16_EDDYSTONE;
  frame.kind = NEARBY_FRAME_KIND_TLM;
  frame.adv_count = 42;
  frame.uptime_ds = 37250;
  texts = texts_for_frame (row, device, &frame);
  g_assert_nonnull (strstr (texts, "Battery\tNot reported\nTemperature\tNot reported\n"
                                   "Adverts sent\t42\nUptime\t1 h 2 min\n"));
  g_assert_null (strstr (texts, "Power at"));
  g_clear_pointer (&texts, g_free);

  frame.battery_mv = 3012;
  frame.temperature_known = TRUE;
  frame.temperature_c = 21.5;
  texts = texts_for_frame (row, device, &frame);
  g_assert_nonnull (strstr (texts, "Battery\t3012 mV\nTemperature\t21.5 °C\n"));
  g_clear_pointer (&texts, g_free);

  frame.kind = NEARBY_FRAME_KIND_ETLM;
  memset (frame.etlm, 0xab, sizeof frame.etlm);
  frame.etlm_salt = 0x1234;
  frame.etlm_mic = 0xbeef;
  texts = texts_for_frame (row, device, &frame);
  g_assert_nonnull (strstr (texts, "Encrypted\tab ab ab ab ab ab ab ab ab ab ab ab\n"
                                   "Salt\t0x1234\nCheck code\t0xbeef\n"));
  g_clear_pointer (&texts, g_free);

  frame.kind = NEARBY_FRAME_KIND_UID;
  frame.tx_power_known = TRUE;
  frame.tx_power = -20;
  memset (frame.namespace_id, 0x01, sizeof frame.namespace_id);
  memset (frame.instance_id, 0x02, sizeof frame.instance_id);
  texts = texts_for_frame (row, device, &frame);
  g_assert_nonnull (strstr (texts, "Namespace\t01 01 01 01 01 01 01 01 01 01\n"
                                   "Instance\t02 02 02 02 02 02\nPower at 0 m\t\u221220 dBm\n"));
  g_clear_pointer (&texts, g_free);

  frame.kind = NEARBY_FRAME_KIND_EID;
  memset (frame.eid, 0xe1, sizeof frame.eid);
  texts = texts_for_frame (row, device, &frame);
  g_assert_nonnull (strstr (texts, "Ephemeral ID\te1 e1 e1 e1 e1 e1 e1 e1\n"));
  g_clear_pointer (&texts, g_free);

  frame.protocol = NEARBY_PROTOCOL_IBEACON;
  frame.service_uuid = 0;
  frame.kind = NEARBY_FRAME_KIND_IBEACON;
  frame.tx_power_known = FALSE;
  memset (frame.ibeacon_uuid, 0xff, sizeof frame.ibeacon_uuid);
  frame.ibeacon_major = 7;
  frame.ibeacon_minor = 65535;
  texts = texts_for_frame (row, device, &frame);
  g_assert_nonnull (strstr (texts, "iBeacon\n"));
  g_assert_nonnull (strstr (texts, "UUID\tff ff ff ff ff ff ff ff ff ff ff ff ff ff ff ff\n"
                                   "Major\t7\nMinor\t65535\nPower at 1 m\tNot stated\n"));
  g_clear_pointer (&texts, g_free);

  frame.protocol = NEARBY_PROTOCOL_URIBEACON;
  frame.service_uuid = NEARBY_UUID16_URIBEACON;
  frame.kind = NEARBY_FRAME_KIND_URL;
  g_strlcpy (frame.url, "https://door.example/", sizeof frame.url);
  frame.flags = 0x01;
  frame.invisible = TRUE;
  texts = texts_for_frame (row, device, &frame);
  g_assert_nonnull (strstr (texts, "UriBeacon\n"));
  g_assert_nonnull (strstr (texts, "URL\thttps://door.example/\nFlags\t0x01\n"
                                   "Invisible\tYes, hidden unless asked\n"));
  g_clear_pointer (&texts, g_free);

  frame = (NearbyFrame) {
    .protocol = NEARBY_PROTOCOL_EDDYSTONE,
    .kind = NEARBY_FRAME_KIND_URL,
    .service_uuid = NEARBY_UUID16_EDDYSTONE,
    .error = NEARBY_FRAME_ERROR_RESERVED_BYTE,
    .error_offset = 4,
    .error_byte = 0x1f,
  };
  texts = texts_for_frame (row, device, &frame);
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
