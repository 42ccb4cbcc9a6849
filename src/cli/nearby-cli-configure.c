/* nearby-cli-configure.c: `nearby configure`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "nearby-cli"

#include "config.h"

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "nearby-cli.h"
#include "nearby-cli-bluetooth.h"
#include "nearby-configurator.h"
#include "nearby-frame-json.h"
#include "nearby-hex.h"

typedef struct {
  GMainLoop             *loop;
  GCancellable          *cancellable;
  NearbyConfigureResult *result;
  GError                *error;
} ConfigureContext;

static void
run_cb (GObject      *source,
        GAsyncResult *result,
        gpointer      user_data)
{
  ConfigureContext *context = user_data;

  context->result = nearby_configurator_run_finish (NEARBY_CONFIGURATOR (source), result,
                                                    &context->error);
  g_main_loop_quit (context->loop);
}

static void
stop_requested (gpointer user_data)
{
  ConfigureContext *context = user_data;

  /* The configurator still disconnects; a write under way may or may not have reached the
   * beacon, which the message says. */
  g_cancellable_cancel (context->cancellable);
}

/* A 16-byte key as 32 hex digits (separators allowed, as nearby_hex_parse() reads them). */
static gboolean
parse_key (const char  *text,
           guint8       key[NEARBY_CONFIG_KEY_LEN],
           const char  *option,
           GError     **error)
{
  g_autoptr(GBytes) bytes = nearby_hex_parse (text, NULL);

  if (bytes == NULL || g_bytes_get_size (bytes) != NEARBY_CONFIG_KEY_LEN)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("%s takes a 16-byte key: 32 hex digits"), option);
      return FALSE;
    }
  memcpy (key, g_bytes_get_data (bytes, NULL), NEARBY_CONFIG_KEY_LEN);
  return TRUE;
}

/* NAMESPACE:INSTANCE, 10 and 6 bytes in hex. */
static gboolean
parse_uid (const char  *text,
           guint8       uid[16],
           GError     **error)
{
  g_auto(GStrv) parts = g_strsplit (text, ":", 2);
  g_autoptr(GBytes) namespace_id = NULL;
  g_autoptr(GBytes) instance_id = NULL;

  if (g_strv_length (parts) == 2)
    {
      namespace_id = nearby_hex_parse (parts[0], NULL);
      instance_id = nearby_hex_parse (parts[1], NULL);
    }
  if (namespace_id == NULL || instance_id == NULL || g_bytes_get_size (namespace_id) != 10
      || g_bytes_get_size (instance_id) != 6)
    {
      g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                           _("--uid takes NAMESPACE:INSTANCE, 20 and 12 hex digits"));
      return FALSE;
    }
  memcpy (uid, g_bytes_get_data (namespace_id, NULL), 10);
  memcpy (uid + 10, g_bytes_get_data (instance_id, NULL), 6);
  return TRUE;
}

/* RESOLVER-KEY:EXPONENT: the resolver's Curve25519 public key in 64 hex digits, and 0-15. */
static gboolean
parse_eid (const char  *text,
           guint8       key[32],
           guint8      *exponent,
           GError     **error)
{
  g_auto(GStrv) parts = g_strsplit (text, ":", 2);
  g_autoptr(GBytes) key_bytes = NULL;
  guint64 value = 0;

  if (g_strv_length (parts) == 2)
    key_bytes = nearby_hex_parse (parts[0], NULL);
  if (key_bytes == NULL || g_bytes_get_size (key_bytes) != 32
      || !g_ascii_string_to_unsigned (parts[1], 10, 0, 15, &value, NULL))
    {
      g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                           _("--eid takes RESOLVER-KEY:EXPONENT: the resolver’s public key in 64 "
                             "hex digits, and a rotation exponent from 0 to 15"));
      return FALSE;
    }
  memcpy (key, g_bytes_get_data (key_bytes, NULL), 32);
  *exponent = (guint8) value;
  return TRUE;
}

/* Four levels in dBm, comma-separated, lowest mode first. */
static gboolean
parse_levels (const char  *text,
              int          levels[4],
              GError     **error)
{
  g_auto(GStrv) parts = g_strsplit (text, ",", -1);

  if (g_strv_length (parts) == 4)
    {
      guint i;

      for (i = 0; i < 4; i++)
        {
          gint64 level;

          if (!g_ascii_string_to_signed (g_strstrip (parts[i]), 10, -100, 20, &level, NULL))
            break;
          levels[i] = (int) level;
        }
      if (i == 4)
        return TRUE;
    }
  g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       _("--tx-levels takes four powers in dBm, lowest mode first, such as "
                         "-30,-16,-4,4"));
  return FALSE;
}

static const char *
lock_state_text (const NearbyBeaconConfig *config)
{
  if (config->service == NEARBY_CONFIG_SERVICE_URIBEACON)
    return config->locked ? _("locked") : _("unlocked");

  switch (config->lock_state)
    {
    case 0x00: return _("locked");
    case 0x01: return _("unlocked");
    case 0x02: return _("unlocked, does not lock again by itself");
    default: return _("unknown");
    }
}

static char *
frame_text (const NearbyFrame *frame)
{
  switch (frame->kind)
    {
    case NEARBY_FRAME_KIND_URL:
      return g_strdup_printf ("URL %s", frame->url);
    case NEARBY_FRAME_KIND_UID:
      {
        g_autofree char *namespace_id = nearby_hex_format (frame->namespace_id, 10);
        g_autofree char *instance_id = nearby_hex_format (frame->instance_id, 6);

        return g_strdup_printf ("UID %s:%s", namespace_id, instance_id);
      }
    case NEARBY_FRAME_KIND_TLM:
    case NEARBY_FRAME_KIND_ETLM:
      return g_strdup ("TLM");
    case NEARBY_FRAME_KIND_EID:
      {
        g_autofree char *eid = nearby_hex_format (frame->eid, 8);

        return g_strdup_printf ("EID %s", eid);
      }
    case NEARBY_FRAME_KIND_NONE:
    case NEARBY_FRAME_KIND_IBEACON:
    default:
      return g_strdup (_("nothing (the slot is empty)"));
    }
}

static char *
levels_text (const NearbyBeaconConfig *config)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < config->n_tx_levels; i++)
    g_string_append_printf (text, "%s%d", i > 0 ? " " : "", config->tx_levels[i]);
  return g_string_free (text, FALSE);
}

static void
print_config (const NearbyBeaconConfig *config)
{
  g_autofree char *frame = NULL;
  g_autofree char *levels = NULL;

  g_print ("  %-18s %s\n", _("Lock state:"), lock_state_text (config));
  if (!config->readable)
    return;

  frame = frame_text (&config->frame);
  levels = levels_text (config);
  if (config->service == NEARBY_CONFIG_SERVICE_EDDYSTONE)
    {
      g_autofree char *slot = g_strdup_printf (_("%u of %u"), config->active_slot,
                                               config->max_slots);
      g_autofree char *tx = g_strdup_printf (_("%d dBm (the beacon can: %s)"), config->tx_power,
                                             levels);

      g_print ("  %-18s %s\n", _("Slot:"), slot);
      g_print ("  %-18s %s\n", _("Broadcasts:"), frame);
      if (config->frame.kind == NEARBY_FRAME_KIND_EID)
        {
          g_autofree char *rotation = g_strdup_printf (_("%u (a new EID every %u s)"),
                                                       config->eid_exponent,
                                                       1u << MIN (config->eid_exponent, 31));
          g_autofree char *clock = g_strdup_printf (_("%u s"), config->eid_clock);
          g_autofree char *identity = config->has_identity_key
                                      ? nearby_hex_format (config->identity_key, 16)
                                      : g_strdup (_("give the lock key with --unlock KEY to "
                                                    "read it"));

          g_print ("  %-18s %s\n", _("EID exponent:"), rotation);
          g_print ("  %-18s %s\n", _("EID clock:"), clock);
          g_print ("  %-18s %s\n", _("Identity key:"), identity);
        }
      g_print ("  %-18s %u ms\n", _("Interval:"), config->interval_ms);
      g_print ("  %-18s %s\n", _("Radio tx power:"), tx);
      g_print ("  %-18s %d dBm\n", _("Advertised power:"), config->advertised_tx_power);
      /* The characteristic reads whether the beacon can stop being connectable, not whether it
       * was told to remain so. */
      g_print ("  %-18s %s\n", _("Connectable:"),
               config->can_be_non_connectable
               ? _("can stop once let go (see --remain-connectable)")
               : _("always"));
      if (config->has_public_key)
        {
          g_autofree char *key = nearby_hex_format (config->public_key, 32);

          g_print ("  %-18s %s\n", _("Public ECDH key:"), key);
        }
    }
  else
    {
      g_autofree char *tx = g_strdup_printf (_("%d dBm (mode %u of the levels %s)"),
                                             config->tx_power, config->tx_power_mode, levels);

      g_print ("  %-18s %s\n", _("Broadcasts:"), frame);
      g_print ("  %-18s %u ms\n", _("Period:"), config->interval_ms);
      g_print ("  %-18s %s\n", _("Tx power:"), tx);
      g_print ("  %-18s 0x%02x\n", _("Flags:"), config->flags);
    }
}

static void
add_config_json (JsonBuilder              *builder,
                 const char               *name,
                 const NearbyBeaconConfig *config)
{
  json_builder_set_member_name (builder, name);
  if (config == NULL)
    {
      json_builder_add_null_value (builder);
      return;
    }

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "locked");
  json_builder_add_boolean_value (builder, config->locked);
  json_builder_set_member_name (builder, "lock_state");
  json_builder_add_int_value (builder, config->lock_state);
  if (config->readable)
    {
      json_builder_set_member_name (builder, "slot");
      json_builder_begin_object (builder);
      if (config->frame.kind != NEARBY_FRAME_KIND_NONE)
        nearby_frame_add_json_members (&config->frame, builder);
      json_builder_end_object (builder);
      json_builder_set_member_name (builder, "interval_ms");
      json_builder_add_int_value (builder, config->interval_ms);
      json_builder_set_member_name (builder, "tx_power");
      json_builder_add_int_value (builder, config->tx_power);
      json_builder_set_member_name (builder, "tx_levels");
      json_builder_begin_array (builder);
      for (guint i = 0; i < config->n_tx_levels; i++)
        json_builder_add_int_value (builder, config->tx_levels[i]);
      json_builder_end_array (builder);
      if (config->service == NEARBY_CONFIG_SERVICE_EDDYSTONE)
        {
          json_builder_set_member_name (builder, "active_slot");
          json_builder_add_int_value (builder, config->active_slot);
          json_builder_set_member_name (builder, "max_slots");
          json_builder_add_int_value (builder, config->max_slots);
          json_builder_set_member_name (builder, "frame_types");
          json_builder_add_int_value (builder, config->frame_types);
          json_builder_set_member_name (builder, "advertised_tx_power");
          json_builder_add_int_value (builder, config->advertised_tx_power);
          json_builder_set_member_name (builder, "can_be_non_connectable");
          json_builder_add_boolean_value (builder, config->can_be_non_connectable);
          if (config->has_public_key)
            {
              g_autofree char *key = nearby_hex_format (config->public_key, 32);

              json_builder_set_member_name (builder, "public_ecdh_key");
              json_builder_add_string_value (builder, key);
            }
          if (config->frame.kind == NEARBY_FRAME_KIND_EID)
            {
              json_builder_set_member_name (builder, "eid_exponent");
              json_builder_add_int_value (builder, config->eid_exponent);
              json_builder_set_member_name (builder, "eid_clock");
              json_builder_add_int_value (builder, config->eid_clock);
              json_builder_set_member_name (builder, "eid_identity_key");
              if (config->has_identity_key)
                {
                  g_autofree char *key = nearby_hex_format (config->identity_key, 16);

                  json_builder_add_string_value (builder, key);
                }
              else
                json_builder_add_null_value (builder);
            }
        }
      else
        {
          json_builder_set_member_name (builder, "tx_power_mode");
          json_builder_add_int_value (builder, config->tx_power_mode);
          json_builder_set_member_name (builder, "flags");
          json_builder_add_int_value (builder, config->flags);
        }
    }
  json_builder_end_object (builder);
}

static void
print_json (const char                  *address,
            const NearbyConfigureResult *result,
            const GError                *error)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *text = NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "address");
  json_builder_add_string_value (builder, address);
  json_builder_set_member_name (builder, "service");
  if (result != NULL)
    json_builder_add_string_value (builder,
                                   nearby_config_service_to_string (result->before->service));
  else
    json_builder_add_null_value (builder);
  add_config_json (builder, "before", result != NULL ? result->before : NULL);
  add_config_json (builder, "after", result != NULL ? result->after : NULL);
  json_builder_set_member_name (builder, "error");
  if (error != NULL)
    json_builder_add_string_value (builder, error->message);
  else
    json_builder_add_null_value (builder);
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  json_generator_set_pretty (generator, TRUE);
  json_generator_set_root (generator, root);
  text = json_generator_to_data (generator, NULL);
  g_print ("%s\n", text);
}

static void
print_result (const char                  *address,
              const NearbyConfigureResult *result,
              const NearbyBeaconChanges   *changes)
{
  const NearbyBeaconConfig *before = result->before;

  g_print (before->service == NEARBY_CONFIG_SERVICE_EDDYSTONE
           ? _("%s: Eddystone configuration service\n")
           : _("%s: UriBeacon configuration service\n"), address);
  g_print ("%s\n", result->after != NULL ? _("Before:") : _("Configuration:"));
  print_config (before);
  if (!before->readable)
    g_print ("  %s\n", _("Give its lock key with --unlock KEY to read the rest."));
  if (result->after != NULL)
    {
      g_print ("%s\n", _("After (read back from the beacon):"));
      print_config (result->after);
      /* Written and confirmed, but no characteristic reads it back. */
      if (changes->set_remain_connectable)
        g_print ("  %-18s %s\n", _("Stays connectable:"),
                 changes->remain_connectable
                 ? _("yes (written; the beacon does not report it)")
                 : _("no, once let go (written; the beacon does not report it)"));
    }
}

static int
exit_code_for (const GError *error)
{
  if (error->domain != NEARBY_CONFIGURATOR_ERROR)
    return NEARBY_EXIT_FAILED;

  switch ((NearbyConfiguratorError) error->code)
    {
    case NEARBY_CONFIGURATOR_ERROR_NO_SERVICE:
    case NEARBY_CONFIGURATOR_ERROR_BLUETOOTH_GONE:
      return NEARBY_EXIT_UNAVAILABLE;
    case NEARBY_CONFIGURATOR_ERROR_INVALID_INPUT:
    case NEARBY_CONFIGURATOR_ERROR_NOT_FOUND:
    case NEARBY_CONFIGURATOR_ERROR_BUSY:
    case NEARBY_CONFIGURATOR_ERROR_CONNECT_FAILED:
    case NEARBY_CONFIGURATOR_ERROR_NOT_CONFIGURABLE:
    case NEARBY_CONFIGURATOR_ERROR_LOCKED:
    case NEARBY_CONFIGURATOR_ERROR_WRONG_KEY:
    case NEARBY_CONFIGURATOR_ERROR_NOT_PERMITTED:
    case NEARBY_CONFIGURATOR_ERROR_INVALID_VALUE:
    case NEARBY_CONFIGURATOR_ERROR_DISCONNECTED:
    case NEARBY_CONFIGURATOR_ERROR_TIMED_OUT:
    case NEARBY_CONFIGURATOR_ERROR_FAILED:
    default:
      return NEARBY_EXIT_FAILED;
    }
}

int
nearby_cli_configure (int    argc,
                      char **argv)
{
  g_autoptr(GOptionContext) option_context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(NearbyConfigurator) configurator = NULL;
  g_autofree char *url = NULL;
  g_autofree char *uid = NULL;
  g_autofree char *unlock = NULL;
  g_autofree char *lock = NULL;
  g_autofree char *adapter = NULL;
  g_autofree char *remain_connectable = NULL;
  g_autofree char *tx_levels = NULL;
  g_autofree char *eid = NULL;
  gboolean tlm = FALSE;
  gboolean clear = FALSE;
  int advertised_power = G_MININT;
  int flags = -1;
  int tx_mode = -1;
  int tx_power = G_MININT;
  int interval = -1;
  int slot = -1;
  gboolean reset = FALSE;
  gboolean json = FALSE;
  NearbyBeaconChanges changes = NEARBY_BEACON_CHANGES_INIT;
  ConfigureContext context = { 0 };
  NearbyCliStopTriggers stop_triggers = { 0 };
  int exit_code;
  const GOptionEntry entries[] = {
    { "url", 0, 0, G_OPTION_ARG_STRING, &url, N_("Broadcast this URL"), N_("URL") },
    { "uid", 0, 0, G_OPTION_ARG_STRING, &uid,
      N_("Broadcast this Eddystone-UID (20 and 12 hex digits)"), N_("NAMESPACE:INSTANCE") },
    { "tlm", 0, 0, G_OPTION_ARG_NONE, &tlm,
      N_("Broadcast Eddystone-TLM telemetry in the slot"), NULL },
    { "eid", 0, 0, G_OPTION_ARG_STRING, &eid,
      N_("Broadcast Eddystone-EID, its identity key made by key exchange with the resolver "
         "whose public key is given, a new EID every 2^EXPONENT s"), N_("RESOLVER-KEY:EXPONENT") },
    { "clear", 0, 0, G_OPTION_ARG_NONE, &clear,
      N_("Empty the slot: it broadcasts nothing (Eddystone)"), NULL },
    { "tx-power", 't', 0, G_OPTION_ARG_INT, &tx_power,
      N_("Set the radio’s power; the beacon takes the next level up it has"), N_("DBM") },
    { "advertised-power", 0, 0, G_OPTION_ARG_INT, &advertised_power,
      N_("Set the power at 0 m its frames advertise, rather than the radio’s (Eddystone)"),
      N_("DBM") },
    { "remain-connectable", 0, 0, G_OPTION_ARG_STRING, &remain_connectable,
      N_("Keep the beacon connectable once let go, or not (Eddystone)"), N_("yes|no") },
    { "flags", 0, 0, G_OPTION_ARG_INT, &flags,
      N_("Set the flags byte its frames carry (UriBeacon; 0 to 255, 0x.. for hex)"),
      N_("BYTE") },
    { "tx-levels", 0, 0, G_OPTION_ARG_STRING, &tx_levels,
      N_("Set the power each of the four tx power modes advertises (UriBeacon)"),
      N_("DBM,DBM,DBM,DBM") },
    { "tx-mode", 0, 0, G_OPTION_ARG_INT, &tx_mode,
      N_("Use this tx power mode: 0 lowest, 1 low, 2 medium, 3 high (UriBeacon)"), N_("MODE") },
    { "interval", 0, 0, G_OPTION_ARG_INT, &interval,
      N_("Broadcast every MS milliseconds"), N_("MS") },
    { "slot", 0, 0, G_OPTION_ARG_INT, &slot,
      N_("Read and change this slot (Eddystone; default: 0)"), N_("N") },
    { "unlock", 0, 0, G_OPTION_ARG_STRING, &unlock,
      N_("Unlock the beacon with its lock key (32 hex digits)"), N_("KEY") },
    { "lock", 0, 0, G_OPTION_ARG_STRING, &lock,
      N_("Lock the beacon with this new key once the rest is written"), N_("NEW-KEY") },
    { "reset", 0, 0, G_OPTION_ARG_NONE, &reset,
      N_("Reset the beacon to its factory configuration (keeps the key)"), NULL },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print the configuration as JSON"), NULL },
    { "adapter", 'i', 0, G_OPTION_ARG_STRING, &adapter,
      N_("Use this Bluetooth adapter (default: any)"), N_("hciN") },
    { NULL }
  };

  option_context = g_option_context_new (_("ADDRESS — read or change a beacon’s configuration"));
  g_option_context_set_summary (option_context,
    _("Connects to the beacon at ADDRESS through BlueZ and reads its configuration, through\n"
      "the Eddystone GATT configuration service or UriBeacon’s. With changes, writes them,\n"
      "reads the beacon again and prints before and after. The beacon must be in its\n"
      "connectable (configuration) mode.\n"
      "Exit status: 0 done, 1 failed (refused, not done), 2 usage error,\n"
      "3 Bluetooth unavailable."));
  g_option_context_add_main_entries (option_context, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (option_context, &argc, &argv, &error))
    return nearby_cli_usage_error (option_context, error->message);
  if (argc != 2)
    return nearby_cli_usage_error (option_context, _("Give the address of one beacon"));

  if ((url != NULL) + (uid != NULL) + (eid != NULL) + tlm + clear > 1)
    return nearby_cli_usage_error (option_context,
                                   _("Give one of --url, --uid, --eid, --tlm and --clear: a slot "
                                     "broadcasts one frame"));
  if (eid != NULL && !parse_eid (eid, changes.eid_resolver_key, &changes.eid_exponent, &error))
    return nearby_cli_usage_error (option_context, error->message);
  changes.set_eid = eid != NULL;
  changes.set_tlm = tlm;
  changes.clear_slot = clear;
  changes.url = url;
  if (uid != NULL && !parse_uid (uid, changes.uid, &error))
    return nearby_cli_usage_error (option_context, error->message);
  changes.set_uid = uid != NULL;
  if (tx_power != G_MININT)
    {
      if (tx_power < -100 || tx_power > 20)
        return nearby_cli_usage_error (option_context,
                                       _("--tx-power must be between -100 and 20 dBm"));
      changes.set_tx_power = TRUE;
      changes.tx_power = tx_power;
    }
  if (advertised_power != G_MININT)
    {
      if (advertised_power < -100 || advertised_power > 20)
        return nearby_cli_usage_error (option_context,
                                       _("--advertised-power must be between -100 and 20 dBm"));
      changes.set_advertised_tx_power = TRUE;
      changes.advertised_tx_power = advertised_power;
    }
  if (remain_connectable != NULL)
    {
      if (g_strcmp0 (remain_connectable, "yes") != 0 && g_strcmp0 (remain_connectable, "no") != 0)
        return nearby_cli_usage_error (option_context,
                                       _("--remain-connectable takes yes or no"));
      changes.set_remain_connectable = TRUE;
      changes.remain_connectable = g_str_equal (remain_connectable, "yes");
    }
  if (flags != -1)
    {
      if (flags < 0 || flags > 255)
        return nearby_cli_usage_error (option_context, _("--flags must be between 0 and 255"));
      changes.set_flags = TRUE;
      changes.flags = (guint8) flags;
    }
  if (tx_levels != NULL)
    {
      if (!parse_levels (tx_levels, changes.tx_levels, &error))
        return nearby_cli_usage_error (option_context, error->message);
      changes.set_tx_levels = TRUE;
    }
  if (tx_mode != -1)
    {
      if (tx_mode < 0 || tx_mode > 3)
        return nearby_cli_usage_error (option_context, _("--tx-mode must be 0, 1, 2 or 3"));
      if (tx_power != G_MININT)
        return nearby_cli_usage_error (option_context,
                                       _("Give --tx-power or --tx-mode, not both"));
      changes.set_tx_mode = TRUE;
      changes.tx_mode = (guint8) tx_mode;
    }
  if (interval >= 0)
    {
      if (interval == 0 || interval > G_MAXUINT16)
        return nearby_cli_usage_error (option_context,
                                       _("--interval must be between 1 and 65535 ms"));
      changes.set_interval = TRUE;
      changes.interval_ms = (guint) interval;
    }
  if (slot != -1)
    {
      if (slot < 0 || slot > 255)
        return nearby_cli_usage_error (option_context, _("--slot must be between 0 and 255"));
      changes.slot = slot;
    }
  if (unlock != NULL && !parse_key (unlock, changes.key, "--unlock", &error))
    return nearby_cli_usage_error (option_context, error->message);
  changes.has_key = unlock != NULL;
  if (lock != NULL && !parse_key (lock, changes.new_key, "--lock", &error))
    return nearby_cli_usage_error (option_context, error->message);
  changes.set_new_key = lock != NULL;
  changes.reset = reset;

  configurator = nearby_configurator_new (argv[1], adapter);
  context.loop = g_main_loop_new (NULL, FALSE);
  context.cancellable = g_cancellable_new ();
  nearby_cli_stop_triggers_watch_signals (&stop_triggers, stop_requested, &context);
  nearby_configurator_run_async (configurator, &changes, context.cancellable, run_cb, &context);
  g_main_loop_run (context.loop);
  nearby_cli_stop_triggers_clear (&stop_triggers);
  g_main_loop_unref (context.loop);
  g_clear_object (&context.cancellable);

  if (g_error_matches (context.error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_clear_error (&context.error);
      g_set_error_literal (&context.error, NEARBY_CONFIGURATOR_ERROR,
                           NEARBY_CONFIGURATOR_ERROR_FAILED,
                           nearby_beacon_changes_write (&changes)
                           ? _("Interrupted: what the beacon had not confirmed was not done, "
                               "and it may hold part of the changes; run the command without "
                               "changes to see what it holds")
                           : _("Interrupted before the beacon was read"));
    }

  if (json)
    print_json (argv[1], context.result, context.error);
  else if (context.result != NULL)
    print_result (argv[1], context.result, &changes);

  if (context.error != NULL)
    {
      g_printerr ("nearby configure: %s\n", context.error->message);
      exit_code = exit_code_for (context.error);
      g_clear_error (&context.error);
      return exit_code;
    }

  nearby_configure_result_free (context.result);
  return NEARBY_EXIT_OK;
}
