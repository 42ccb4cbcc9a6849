/* nearby-demo.c
 *
 * The demo is a NearbySource like the scanner: the rest of the app cannot tell them apart, so
 * what a newcomer sees is what the app really does with beacons. Pages come from a resource
 * bundle served on 127.0.0.1; the distances follow a person walking up and down a street.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-demo"

#include "config.h"

#include <glib/gi18n.h>
#include <libsoup/soup.h>
#include <math.h>
#include <string.h>

#include "nearby-demo.h"
#include "nearby-demo-resources.h"
#include "nearby-distance.h"

#define TICK_MS          100
#define WALK_LENGTH_M    50.0
#define WALK_SPEED_M_S   0.8
#define RSSI_NOISE_DB    3.0

typedef struct {
  const char *name;        /* path on the demo server, and resource prefix */
  const char *host;        /* where such an object's page would be: made up (RFC 2606) */
  const char *address;
  double      x, y;        /* metres along and beside the street */
  int         tx_power;    /* calibrated at 0 m */
  int         interval_ms; /* advertising interval */
  gboolean    sends_tlm;   /* rotates a TLM frame in, as many real beacons do */
} DemoBeacon;

static const DemoBeacon scene[] = {
  { "bus-stop", "citybus.example",        "02:4E:42:00:00:01",  4.0, 2.0, -18, 300, TRUE },
  { "parking",  "parkmarket.example",     "02:4E:42:00:00:02", 14.0, 3.0, -22, 400, FALSE },
  { "cafe",     "bluebird-cafe.example",  "02:4E:42:00:00:03", 24.0, 5.0, -20, 350, FALSE },
  { "museum",   "harbour-museum.example", "02:4E:42:00:00:04", 36.0, 8.0, -16, 500, TRUE },
  { "vending",  "snackco.example",        "02:4E:42:00:00:05", 46.0, 2.5, -24, 450, FALSE },
};

/* A beacon without a web page, shown only in developer mode: an asset tag. */
static const guint8 asset_tag_namespace[10] = { 0x4e, 0x45, 0x41, 0x52, 0x42, 0x59, 0x44, 0x45, 0x4d, 0x4f };
static const guint8 asset_tag_instance[6] = { 0x00, 0x00, 0x00, 0x00, 0x20, 0x31 };

struct _NearbyDemo
{
  GObject      parent_instance;

  SoupServer  *server;
  char        *base_url;
  GRand       *rand;
  guint        tick_id;
  gint64       started_us;
  gint64       next_emit_us[G_N_ELEMENTS (scene) + 1];
  guint        adverts[G_N_ELEMENTS (scene) + 1];
  NearbySourceState state;
};

static void nearby_demo_source_iface_init (NearbySourceInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (NearbyDemo, nearby_demo, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (NEARBY_TYPE_SOURCE,
                                                      nearby_demo_source_iface_init))

enum {
  PROP_0,
  PROP_STATE,
  PROP_STATE_MESSAGE,
  N_PROPS
};

/* The pages are served on this computer, but the objects stand for a street: a row says where
 * such an object's page would be, not "127.0.0.1" five times over. */
static char *
nearby_demo_dup_display_host (NearbySource *source,
                              const char   *url)
{
  NearbyDemo *self = NEARBY_DEMO (source);

  if (self->base_url == NULL || !g_str_has_prefix (url, self->base_url))
    return NULL;

  for (guint i = 0; i < G_N_ELEMENTS (scene); i++)
    {
      const char *rest = url + strlen (self->base_url);
      gsize len = strlen (scene[i].name);

      if (strncmp (rest, scene[i].name, len) == 0 && (rest[len] == '/' || rest[len] == '\0'))
        return g_strdup (scene[i].host);
    }

  return NULL;
}

static void
nearby_demo_source_iface_init (NearbySourceInterface *iface)
{
  iface->dup_display_host = nearby_demo_dup_display_host;
}

NearbyDemo *
nearby_demo_new (void)
{
  return g_object_new (NEARBY_TYPE_DEMO, NULL);
}

const char *
nearby_demo_get_base_url (NearbyDemo *self)
{
  g_return_val_if_fail (NEARBY_IS_DEMO (self), NULL);

  return self->base_url;
}

/* /NAME/ -> NAME.html, /NAME/icon.png -> NAME.png, /NAME/manifest.json -> NAME.json,
 * /NAME/PAGE.html -> NAME-PAGE.html */
static char *
resource_path_for (const char *path,
                   const char **content_type)
{
  g_auto(GStrv) parts = NULL;
  const char *file;

  if (path[0] != '/')
    return NULL;
  parts = g_strsplit (path + 1, "/", 3);
  if (parts[0] == NULL || parts[1] == NULL || parts[2] != NULL || strchr (parts[0], '.') != NULL)
    return NULL;

  file = parts[1];
  if (*file == '\0')
    {
      *content_type = "text/html; charset=utf-8";
      return g_strdup_printf ("/io/github/nearbyweb/Nearby/demo/%s.html", parts[0]);
    }
  if (g_str_equal (file, "icon.png"))
    {
      *content_type = "image/png";
      return g_strdup_printf ("/io/github/nearbyweb/Nearby/demo/%s.png", parts[0]);
    }
  if (g_str_equal (file, "manifest.json"))
    {
      *content_type = "application/manifest+json";
      return g_strdup_printf ("/io/github/nearbyweb/Nearby/demo/%s.json", parts[0]);
    }
  if (g_str_has_suffix (file, ".html") && strchr (file, '-') == NULL)
    {
      *content_type = "text/html; charset=utf-8";
      return g_strdup_printf ("/io/github/nearbyweb/Nearby/demo/%s-%s", parts[0], file);
    }

  return NULL;
}

static void
serve_demo_page (SoupServer        *server,
                 SoupServerMessage *msg,
                 const char        *path,
                 GHashTable        *query,
                 gpointer           user_data)
{
  const char *content_type = NULL;
  g_autofree char *resource = NULL;
  g_autoptr(GBytes) bytes = NULL;

  if (g_strcmp0 (soup_server_message_get_method (msg), "GET") != 0)
    {
      soup_server_message_set_status (msg, SOUP_STATUS_METHOD_NOT_ALLOWED, NULL);
      return;
    }

  resource = resource_path_for (path, &content_type);
  if (resource != NULL)
    bytes = g_resources_lookup_data (resource, G_RESOURCE_LOOKUP_FLAGS_NONE, NULL);
  if (bytes == NULL)
    {
      soup_server_message_set_status (msg, SOUP_STATUS_NOT_FOUND, NULL);
      return;
    }

  soup_message_headers_replace (soup_server_message_get_response_headers (msg),
                                "Cache-Control", "no-cache");
  soup_server_message_set_response (msg, content_type, SOUP_MEMORY_COPY,
                                    g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
}

/* Position along the street: walk to the end, turn round, walk back. */
static double
walker_position (gint64 elapsed_us)
{
  double walked = WALK_SPEED_M_S * elapsed_us / (double) G_USEC_PER_SEC;
  double lap = fmod (walked, 2 * WALK_LENGTH_M);

  return lap <= WALK_LENGTH_M ? lap : 2 * WALK_LENGTH_M - lap;
}

static int
simulated_rssi (NearbyDemo *self,
                int         tx_power,
                double      distance)
{
  /* Box-Muller: noise like a real radio's, so the smoothing has something to do. */
  double u1 = MAX (g_rand_double (self->rand), 1e-9);
  double u2 = g_rand_double (self->rand);
  double noise = sqrt (-2.0 * log (u1)) * cos (2 * G_PI * u2) * RSSI_NOISE_DB;
  double rssi = nearby_distance_expected_rssi (tx_power, MAX (distance, 0.1),
                                               NEARBY_PATH_LOSS_DEFAULT) + noise;

  return (int) CLAMP (round (rssi), -110, -20);
}

static void
emit_url_beacon (NearbyDemo       *self,
                 guint             index,
                 int               rssi,
                 gint64            now_us)
{
  const DemoBeacon *beacon = &scene[index];
  g_autoptr(NearbySighting) sighting = NULL;
  NearbyFrame frame = { 0 };

  frame.protocol = NEARBY_PROTOCOL_EDDYSTONE;
  frame.service_uuid = NEARBY_UUID16_EDDYSTONE;
  frame.tx_power_known = TRUE;
  frame.tx_power = (int8_t) beacon->tx_power;

  if (beacon->sends_tlm && self->adverts[index] % 5 == 4)
    {
      gint64 uptime_ds = (now_us - self->started_us) / 100000 + 36000;

      frame.kind = NEARBY_FRAME_KIND_TLM;
      frame.battery_mv = 2950 - (guint16) (index * 40);
      frame.temperature_known = TRUE;
      frame.temperature_c = 11.5 + index;
      frame.adv_count = 120000 + self->adverts[index];
      frame.uptime_ds = (uint32_t) uptime_ds;
    }
  else
    {
      frame.kind = NEARBY_FRAME_KIND_URL;
      g_snprintf (frame.url, sizeof frame.url, "%s%s/", self->base_url, beacon->name);
    }

  self->adverts[index]++;
  sighting = nearby_sighting_new (beacon->address, now_us, rssi, &frame, NULL, 0);
  nearby_source_emit_sighting (NEARBY_SOURCE (self), sighting);
}

static void
emit_asset_tag (NearbyDemo *self,
                int         rssi,
                gint64      now_us)
{
  g_autoptr(NearbySighting) sighting = NULL;
  NearbyFrame frame = { 0 };

  frame.protocol = NEARBY_PROTOCOL_EDDYSTONE;
  frame.kind = NEARBY_FRAME_KIND_UID;
  frame.service_uuid = NEARBY_UUID16_EDDYSTONE;
  frame.tx_power_known = TRUE;
  frame.tx_power = -23;
  memcpy (frame.namespace_id, asset_tag_namespace, sizeof frame.namespace_id);
  memcpy (frame.instance_id, asset_tag_instance, sizeof frame.instance_id);

  sighting = nearby_sighting_new ("02:4E:42:00:00:06", now_us, rssi, &frame, NULL, 0);
  nearby_source_emit_sighting (NEARBY_SOURCE (self), sighting);
}

static gboolean
nearby_demo_tick (gpointer user_data)
{
  NearbyDemo *self = user_data;
  gint64 now_us = g_get_real_time ();
  double walker = walker_position (now_us - self->started_us);

  for (guint i = 0; i <= G_N_ELEMENTS (scene); i++)
    {
      gboolean is_asset_tag = i == G_N_ELEMENTS (scene);
      double x = is_asset_tag ? 20.0 : scene[i].x;
      double y = is_asset_tag ? 6.0 : scene[i].y;
      int interval_ms = is_asset_tag ? 1000 : scene[i].interval_ms;
      int tx_power = is_asset_tag ? -23 : scene[i].tx_power;
      double distance;

      if (now_us < self->next_emit_us[i])
        continue;
      /* Real adverts arrive with a random delay of up to 10 ms, and some are lost. */
      self->next_emit_us[i] = now_us + (interval_ms + g_rand_int_range (self->rand, 0, 10)) * 1000;
      if (g_rand_int_range (self->rand, 0, 10) == 0)
        continue;

      distance = hypot (walker - x, y);
      if (is_asset_tag)
        emit_asset_tag (self, simulated_rssi (self, tx_power, distance), now_us);
      else
        emit_url_beacon (self, i, simulated_rssi (self, tx_power, distance), now_us);
    }

  return G_SOURCE_CONTINUE;
}

gboolean
nearby_demo_start (NearbyDemo  *self,
                   GError     **error)
{
  g_autoptr(GSList) uris = NULL;
  g_autofree char *uri = NULL;

  g_return_val_if_fail (NEARBY_IS_DEMO (self), FALSE);

  if (self->server != NULL)
    return TRUE;

  self->server = soup_server_new ("server-header", "Nearby-demo ", NULL);
  soup_server_add_handler (self->server, NULL, serve_demo_page, self, NULL);
  if (!soup_server_listen_local (self->server, 0, SOUP_SERVER_LISTEN_IPV4_ONLY, error))
    {
      g_clear_object (&self->server);
      self->state = NEARBY_SOURCE_STATE_ERROR;
      g_object_notify (G_OBJECT (self), "state");
      return FALSE;
    }

  uris = soup_server_get_uris (self->server);
  uri = g_uri_to_string (uris->data);
  g_slist_free_full (g_steal_pointer (&uris), (GDestroyNotify) g_uri_unref);
  self->base_url = g_steal_pointer (&uri);

  self->started_us = g_get_real_time ();
  self->tick_id = g_timeout_add (TICK_MS, nearby_demo_tick, self);
  self->state = NEARBY_SOURCE_STATE_SCANNING;
  g_object_notify (G_OBJECT (self), "state");
  g_object_notify (G_OBJECT (self), "state-message");

  return TRUE;
}

static void
nearby_demo_dispose (GObject *object)
{
  NearbyDemo *self = NEARBY_DEMO (object);

  g_clear_handle_id (&self->tick_id, g_source_remove);
  if (self->server != NULL)
    soup_server_disconnect (self->server);
  g_clear_object (&self->server);

  G_OBJECT_CLASS (nearby_demo_parent_class)->dispose (object);
}

static void
nearby_demo_finalize (GObject *object)
{
  NearbyDemo *self = NEARBY_DEMO (object);

  g_free (self->base_url);
  g_rand_free (self->rand);

  G_OBJECT_CLASS (nearby_demo_parent_class)->finalize (object);
}

static void
nearby_demo_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  NearbyDemo *self = NEARBY_DEMO (object);

  switch (prop_id)
    {
    case PROP_STATE:
      g_value_set_enum (value, self->state);
      break;

    case PROP_STATE_MESSAGE:
      g_value_set_string (value, self->state == NEARBY_SOURCE_STATE_SCANNING
                                 ? _("Demo — made-up objects")
                                 : NULL);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
nearby_demo_class_init (NearbyDemoClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = nearby_demo_dispose;
  object_class->finalize = nearby_demo_finalize;
  object_class->get_property = nearby_demo_get_property;

  g_object_class_override_property (object_class, PROP_STATE, "state");
  g_object_class_override_property (object_class, PROP_STATE_MESSAGE, "state-message");
}

static void
nearby_demo_init (NearbyDemo *self)
{
  g_resources_register (nearby_demo_get_resource ());

  self->rand = g_rand_new ();
  self->state = NEARBY_SOURCE_STATE_STARTING;
}
